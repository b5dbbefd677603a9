/**
 * For the backup's unit tests: a file system in memory with faults on demand (a full disk, an unwritable folder, a
 * failure on the n-th write), optionally case-insensitive as Windows and macOS are, and a server in memory that lists
 * its documents 100 a page in ascending id order, with hooks to change them while a run reads its pages.
 *
 * A folder is there while a file is under it. The file system acts on one as VS Code's disk provider does (its
 * `readFile` and `rename` with `overwrite: true`, as code-server 4.139.1 ships them): reading it fails with EISDIR, and a
 * file renamed over it replaces it, everything in it deleted for good.
 */
import type { Page } from '../../src/api/paging';
import type { BackupDocument, BackupFs, BackupSource } from '../../src/backup/backup';
import { pathKey } from '../../src/backup/names';

export type FsOp = 'read' | 'write' | 'rename' | 'delete' | 'list';

export class MemoryFs implements BackupFs {
  /** Per key (exact path, or its case-insensitive key): the path as written and the bytes. */
  readonly files = new Map<string, { path: string; data: Uint8Array }>();
  /** Every call, in order. */
  readonly calls: Array<{ op: FsOp; path: string; to?: string }> = [];
  /** A fault to raise, asked before each operation (its error is thrown and nothing changes). */
  fault: ((op: FsOp, path: string) => Error | undefined) | undefined;
  /** The most bytes the disk holds; a write beyond it fails as a full disk does (ENOSPC). */
  capacity = Infinity;

  constructor(readonly caseInsensitive = false) {}

  key(path: string): string {
    return this.caseInsensitive ? pathKey(path) : path;
  }

  used(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.data.length;
    return n;
  }

  #check(op: FsOp, path: string): void {
    const e = this.fault?.(op, path);
    if (e) throw e;
  }

  /** Whether `path` is a folder: a file is under it. */
  isFolder(path: string): boolean {
    const prefix = `${this.key(path)}/`;
    return [...this.files.keys()].some((k) => k.startsWith(prefix));
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    this.calls.push({ op: 'read', path });
    this.#check('read', path);
    if (this.isFolder(path)) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR' });
    return this.files.get(this.key(path))?.data;
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    this.calls.push({ op: 'write', path });
    this.#check('write', path);
    const before = this.files.get(this.key(path))?.data.length ?? 0;
    if (this.used() - before + data.length > this.capacity) throw Object.assign(new Error('No space left on device'), { code: 'ENOSPC' });
    this.files.set(this.key(path), { path: this.files.get(this.key(path))?.path ?? path, data: data.slice() });
  }

  async rename(from: string, to: string): Promise<void> {
    this.calls.push({ op: 'rename', path: from, to });
    this.#check('rename', from);
    const f = this.files.get(this.key(from));
    if (!f) throw Object.assign(new Error(`no such file: ${from}`), { code: 'ENOENT' });
    this.files.delete(this.key(from));
    // A folder in the way goes, with all it holds (VS Code deletes it recursively, without the trash).
    const inside = `${this.key(to)}/`;
    for (const k of [...this.files.keys()]) if (k.startsWith(inside)) this.files.delete(k);
    this.files.set(this.key(to), { path: to, data: f.data });
  }

  async delete(path: string): Promise<void> {
    this.calls.push({ op: 'delete', path });
    this.#check('delete', path);
    this.files.delete(this.key(path));
  }

  async list(folder: string): Promise<string[]> {
    this.calls.push({ op: 'list', path: folder });
    this.#check('list', folder);
    const prefix = folder ? `${this.key(folder)}/` : '';
    const names = new Set<string>();
    for (const [k, f] of this.files) {
      if (!k.startsWith(prefix)) continue;
      names.add(f.path.slice(prefix.length).split('/')[0]);
    }
    return [...names];
  }

  /** The text of a file, or undefined. */
  text(path: string): string | undefined {
    const f = this.files.get(this.key(path));
    return f && new TextDecoder().decode(f.data);
  }

  /** Every file's path (as written), the backup's own state folder left out. */
  paths(): string[] {
    return [...this.files.values()].map((f) => f.path).filter((p) => !p.startsWith('.content-docs-backup/')).sort();
  }

  /** The paths deleted since the calls were last cleared, the backup's own state folder left out. */
  deletions(): string[] {
    return this.calls.filter((c) => c.op === 'delete' && !c.path.startsWith('.content-docs-backup/')).map((c) => c.path);
  }

  /** The files written (by their final rename) since the calls were last cleared, the state left out. */
  written(): string[] {
    return this.calls.filter((c) => c.op === 'rename' && c.path.endsWith('.part') && !c.to!.startsWith('.content-docs-backup/')).map((c) => c.to!);
  }
}

export const AT = '2026-06-01T10:00:00.000000Z';

export function doc(id: number, name: string, templateId: number | undefined, extra: Partial<BackupDocument> = {}): BackupDocument {
  return {
    id,
    name,
    template: templateId === undefined ? undefined : { id: templateId, name: templateId === 9 ? 'Blog post' : templateId === 1 ? 'Freestyle' : `Template ${templateId}` },
    result: `Text of ${name} (${id})`,
    words: 4,
    favorite: false,
    created_at: AT,
    updated_at: AT,
    ...extra,
  };
}

export class MemoryServer implements BackupSource {
  readonly documents = new Map<number, BackupDocument>();
  /** Requests made: `page:<n>` and `show:<id>`. */
  readonly requests: string[] = [];
  /** Called before a page is answered (changes the documents meanwhile, or throws as a failing server). */
  beforePage: ((page: number) => void) | undefined;
  beforeShow: ((id: number) => void) | undefined;

  put(...docs: BackupDocument[]): this {
    for (const d of docs) this.documents.set(d.id, d);
    return this;
  }

  async page(page: number, signal?: AbortSignal): Promise<Page<BackupDocument>> {
    this.requests.push(`page:${page}`);
    this.beforePage?.(page);
    if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
    const all = [...this.documents.values()].sort((a, b) => a.id - b.id);
    const items = all.slice((page - 1) * 100, page * 100);
    const lastPage = Math.max(1, Math.ceil(all.length / 100));
    return { items, page, perPage: 100, total: all.length, lastPage, hasMore: page < lastPage && items.length > 0 };
  }

  async show(id: number, signal?: AbortSignal): Promise<BackupDocument | undefined> {
    this.requests.push(`show:${id}`);
    this.beforeShow?.(id);
    if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
    return this.documents.get(id);
  }

  lists(): number {
    return this.requests.filter((r) => r.startsWith('page:')).length;
  }
}

/** `n` documents with ids 1..n over a few templates, every fifth one HTML as the web editor stores it. */
export function manyDocuments(n: number): BackupDocument[] {
  return Array.from({ length: n }, (_, i) => {
    const id = i + 1;
    const html = id % 5 === 0;
    return doc(id, `Document ${id}`, [1, 9, 20][id % 3], html ? { result: `<h2>Document ${id}</h2><p>Its&nbsp;text.</p><p><br></p>` } : {});
  });
}
