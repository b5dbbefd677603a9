/**
 * A backup folder on this machine's disk (a file: folder where the extension host runs), written with Node's file
 * system: what vscode.workspace.fs does for such a folder, without its round trips. In the extension host,
 * workspace.fs writes a file: file itself, but asks the window first whether the scheme's provider is active, and sends
 * every rename to the window's file service, which then reaches the disk: measured with npm run bench
 * (docs/performance.md), 10,000 documents took 77.1 s that way, against a floor of 18.6 s (their list requests, and the
 * same files written with fs.promises, flushed and renamed into place); 16.1 s this way (floor 22.4 s at a higher load).
 *
 * The same guarantees as workspace.fs gives the backup: the folders of a file are created; every file is flushed to
 * the disk before it is closed (as VS Code's own disk provider does), so the rename that puts it in place (see
 * backup.ts) never lands an empty file after a power cut; a rename replaces the file it lands on. The browser build
 * has no disk (diskFs.browser.ts): the command then uses workspace.fs.
 */
import * as fs from 'fs';
import * as nodePath from 'path';
import type { BackupFs } from './backup';

/** The backup's file system for `folder` (an absolute path), or undefined where there is no disk (the browser). */
export function diskBackupFs(folder: string, explain: (e: unknown) => never = rethrow): BackupFs | undefined {
  return new DiskBackupFs(folder, explain);
}

function rethrow(e: unknown): never {
  throw e;
}

function code(e: unknown): unknown {
  return typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
}

class DiskBackupFs implements BackupFs {
  /** Folders made (or found) this run: a write into one does not ask again, unless the write finds it gone. */
  readonly #made = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly explain: (e: unknown) => never,
  ) {}

  #path(path: string): string {
    return path ? nodePath.join(this.root, ...path.split('/')) : this.root;
  }

  async #folderOf(file: string, again = false): Promise<void> {
    const folder = nodePath.dirname(file);
    if (this.#made.has(folder) && !again) return;
    await fs.promises.mkdir(folder, { recursive: true });
    this.#made.add(folder);
  }

  /** `step` on `file`, its folder made first; made again when the step finds it gone (removed during the run). */
  async #inFolder(file: string, step: () => Promise<void>): Promise<void> {
    try {
      await this.#folderOf(file);
      await step();
    } catch (e) {
      if (code(e) !== 'ENOENT') this.explain(e);
      try {
        await this.#folderOf(file, true);
        await step();
      } catch (e2) {
        this.explain(e2);
      }
    }
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    try {
      return await fs.promises.readFile(this.#path(path));
    } catch (e) {
      if (code(e) === 'ENOENT') return undefined;
      // EISDIR keeps its code: the backup tells a folder from a file by it.
      if (code(e) === 'EISDIR') throw e;
      return this.explain(e);
    }
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    const file = this.#path(path);
    await this.#inFolder(file, async () => {
      const handle = await fs.promises.open(file, 'w');
      try {
        await handle.writeFile(data);
        await handle.datasync();
      } finally {
        await handle.close();
      }
    });
  }

  async rename(from: string, to: string): Promise<void> {
    const target = this.#path(to);
    const source = this.#path(from);
    await this.#inFolder(target, () => fs.promises.rename(source, target));
  }

  async delete(path: string): Promise<void> {
    try {
      await fs.promises.unlink(this.#path(path));
    } catch (e) {
      if (code(e) !== 'ENOENT') this.explain(e);
    }
  }

  async list(folder: string): Promise<string[]> {
    try {
      return await fs.promises.readdir(this.#path(folder));
    } catch (e) {
      if (code(e) === 'ENOENT') return [];
      return this.explain(e);
    }
  }
}
