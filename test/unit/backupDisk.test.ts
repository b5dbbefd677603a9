/**
 * The backup's folder on this machine's disk (src/backup/diskFs.ts): the file system Back Up Account to Folder… writes
 * a file: folder with in the Node build, as vscode.workspace.fs would (its folders created, each file flushed to the
 * disk, a rename replacing the file it lands on), without a round trip to the window for every file.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runBackup, STATE_FILE, STATE_FOLDER, type BackupIdentity } from '../../src/backup/backup';
import { diskBackupFs } from '../../src/backup/diskFs';
import { manyDocuments, MemoryServer } from './backupKit';

const ME: BackupIdentity = { id: 'http://127.0.0.1:1234#7', server: 'http://127.0.0.1:1234', account: 'Sam Sandbox @ 127.0.0.1:1234' };

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(root, p).split(path.sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

describe('Back Up Account to Folder: the folder on the disk (diskFs)', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-backup-disk-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a first backup into a new folder: one file per document with its text, the state, no temporary file left; a rerun writes nothing', async () => {
    const folder = path.join(root, 'new', 'backup');
    const server = new MemoryServer().put(...manyDocuments(250));
    const bfs = diskBackupFs(folder);
    assert.ok(bfs, 'the Node build has a disk file system');
    const first = await runBackup({ fs: bfs, source: server, identity: ME, saveEveryMs: 0 });
    assert.equal(first.new, 250);
    const written = files(folder);
    assert.equal(written.filter((f) => !f.startsWith(`${STATE_FOLDER}/`)).length, 250, 'one file per document');
    assert.ok(written.includes(STATE_FILE), 'the state is saved');
    assert.deepEqual(
      written.filter((f) => f.endsWith('.part')),
      [],
      'no temporary file left',
    );
    const one = written.find((f) => f.endsWith('/Document 7.md'));
    assert.ok(one, 'Document 7 has its file');
    assert.match(fs.readFileSync(path.join(folder, one), 'utf8'), /^---\nid: 7\n[\s\S]*\nText of Document 7 \(7\)\n$/);
    const again = await runBackup({ fs: diskBackupFs(folder)!, source: server, identity: ME, saveEveryMs: 0 });
    assert.deepEqual([again.new, again.changed, again.unchanged], [0, 0, 250]);
  });

  it('reads, writes, renames, deletes and lists as the backup expects of its file system', async () => {
    const bfs = diskBackupFs(root)!;
    assert.equal(await bfs.read('nothing/here.md'), undefined, 'a missing file reads as none');
    assert.deepEqual(await bfs.list('no folder'), [], 'a missing folder lists nothing');
    await bfs.write('A/b.md', new TextEncoder().encode('one'));
    assert.equal(fs.readFileSync(path.join(root, 'A', 'b.md'), 'utf8'), 'one', 'a write creates its folders');
    await bfs.write('A/c.md', new TextEncoder().encode('two'));
    await bfs.rename('A/c.md', 'A/b.md');
    assert.equal(fs.readFileSync(path.join(root, 'A', 'b.md'), 'utf8'), 'two', 'a rename replaces the file it lands on');
    await bfs.rename('A/b.md', 'D/e.md');
    assert.deepEqual(await bfs.list('D'), ['e.md'], "a rename creates the target's folders");
    assert.deepEqual(await bfs.list('A'), []);
    await bfs.delete('D/e.md');
    await bfs.delete('D/e.md');
    assert.deepEqual(await bfs.list('D'), [], 'a delete of what is gone is no error');
    await assert.rejects(bfs.read('D'), (e: { code?: string }) => e.code === 'EISDIR', 'a folder read as a file says so by its code');
    // The folder taken away during a run: the next write makes it again.
    fs.rmSync(path.join(root, 'A'), { recursive: true });
    await bfs.write('A/f.md', new TextEncoder().encode('three'));
    assert.equal(new TextDecoder().decode(await bfs.read('A/f.md')), 'three');
  });

  it('a failure is told in words with its path (here: a file where a folder must be)', async () => {
    fs.writeFileSync(path.join(root, 'A'), 'a file, not a folder');
    const bfs = diskBackupFs(root, (e) => {
      throw new Error(`explained: ${e instanceof Error ? e.message : String(e)}`);
    })!;
    await assert.rejects(bfs.write('A/b.md', new TextEncoder().encode('x')), /^Error: explained: .*A/);
  });
});
