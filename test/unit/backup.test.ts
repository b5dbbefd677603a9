/**
 * Back Up Account to Folder, its core: paths, front matter, the state that makes reruns incremental, deletions only
 * on proof, resuming, another account's folder, the file system failing (full disk, unwritable, mid-way), and files
 * edited in the folder kept whenever a run would replace, move or remove them.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as yaml from 'js-yaml';
import { BackupError, runBackup, STATE_FILE, type BackupIdentity, type BackupReport } from '../../src/backup/backup';
import { documentIdOf, renderDocument, yamlString } from '../../src/backup/frontMatter';
import { safeStem } from '../../src/backup/names';
import { AT, doc, manyDocuments, MemoryFs, MemoryServer } from './backupKit';

const ME: BackupIdentity = { id: 'http://127.0.0.1:1234#7', server: 'http://127.0.0.1:1234', account: 'Sam Sandbox @ 127.0.0.1:1234' };
const OTHER: BackupIdentity = { id: 'http://127.0.0.1:9999#7', server: 'http://127.0.0.1:9999', account: 'Sam Sandbox @ 127.0.0.1:9999' };

function run(fs: MemoryFs, server: MemoryServer, extra: { signal?: AbortSignal; identity?: BackupIdentity } = {}): Promise<BackupReport> {
  return runBackup({ fs, source: server, identity: extra.identity ?? ME, signal: extra.signal, saveEveryMs: 0 });
}

function frontMatter(text: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(m, `front matter in ${JSON.stringify(text.slice(0, 80))}`);
  return yaml.load(m[1]) as Record<string, unknown>;
}

function body(text: string): string {
  return text.replace(/^---\n[\s\S]*?\n---\n/, '');
}

/** A kept copy of a file edited in the folder: `Name (edited locally 2026-11-28).md`, `… 2026-11-28, 2).md`. */
const KEPT_NAME = / \(edited locally \d{4}-\d{2}-\d{2}(, \d+)?\)\.\w+$/;

/** Every file of the folder: one per document of `server`, its front matter naming it, none twice (kept copies aside). */
function assertMirrors(fs: MemoryFs, server: MemoryServer): void {
  const live = fs.paths().filter((p) => !p.startsWith('_deleted/') && !KEPT_NAME.test(p));
  const ids = live.map((p) => frontMatter(fs.text(p)!).id as number).sort((a, b) => a - b);
  assert.deepEqual(ids, [...server.documents.keys()].sort((a, b) => a - b), 'one file per document, none twice');
  for (const p of live) {
    const text = fs.text(p)!;
    const d = server.documents.get(frontMatter(text).id as number)!;
    assert.equal(body(text).replace(/\n$/, ''), d.result, `${p} holds its document's text`);
  }
}

/** The state never ahead of the files: each document it names has its file, with the text the state's hash says. */
function assertStateTrue(fs: MemoryFs): void {
  const raw = fs.text(STATE_FILE);
  if (raw === undefined) return;
  const state = JSON.parse(raw) as { documents: Record<string, { path: string; hash: string }> };
  for (const [id, e] of Object.entries(state.documents)) {
    const text = fs.text(e.path);
    assert.ok(text !== undefined, `the state names ${e.path} (document ${id}), which is there`);
    assert.equal(createHash('sha1').update(text, 'utf8').digest('hex'), e.hash, `${e.path} is what the state says`);
    assert.equal(frontMatter(text).id, Number(id));
  }
}

describe('Back Up Account to Folder (core)', () => {
  it('250 documents: 3 list requests, 250 files <Template>/<Name>.md|.html with their front matter, HTML as .html', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    const r = await run(fs, server);
    assert.deepEqual(server.requests, ['page:1', 'page:2', 'page:3']);
    assert.equal(r.new, 250);
    assert.equal(r.cancelled, false);
    assert.equal(fs.paths().length, 250);
    assert.ok(fs.text('Blog post/Document 1.md'), 'id 1 is in template 9');
    const html = fs.text('Blog post/Document 10.html')!;
    const fm = frontMatter(html);
    assert.deepEqual(fm, {
      id: 10, name: 'Document 10', template: { id: 9, name: 'Blog post' }, favorite: false, words: 4,
      created: AT, updated: AT, account: ME.account, server: ME.server, format: 'html',
    });
    assert.equal(body(html), '<h2>Document 10</h2><p>Its&nbsp;text.</p><p><br></p>\n');
    assert.equal(frontMatter(fs.text('Freestyle/Document 3.md')!).format, 'markdown');
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });

  it('a rerun with nothing changed writes no document; one changed on the server rewrites exactly one file', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    await run(fs, server);
    fs.calls.length = 0;
    const again = await run(fs, server);
    assert.deepEqual(fs.written(), []);
    assert.equal(again.unchanged, 250);
    server.put({ ...server.documents.get(42)!, result: 'New text', updated_at: '2026-06-02T10:00:00.000000Z' });
    fs.calls.length = 0;
    const r = await run(fs, server);
    assert.deepEqual(fs.written(), ['Freestyle/Document 42.md']);
    assert.deepEqual([r.new, r.changed, r.deleted, r.unchanged], [0, 1, 0, 249]);
    assert.equal(body(fs.text('Freestyle/Document 42.md')!), 'New text\n');
  });

  it('two writes within one second (the same updated_at): the content hash still sees the change', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'One', 1));
    await run(fs, server);
    server.put({ ...server.documents.get(1)!, result: 'Edited in the same second' });
    const r = await run(fs, server);
    assert.equal(r.changed, 1);
    assert.equal(body(fs.text('Freestyle/One.md')!), 'Edited in the same second\n');
  });

  it('a document deleted on the server: confirmed by a 404, its file moved to _deleted/ (never erased), "1 deleted"', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    await run(fs, server);
    const before = fs.text('Freestyle/Document 7.md');
    server.documents.delete(7);
    server.requests.length = 0;
    const r = await run(fs, server);
    assert.deepEqual(server.requests, ['page:1', 'page:2', 'page:3', 'show:7']);
    assert.deepEqual([r.new, r.changed, r.deleted, r.unchanged], [0, 0, 1, 249]);
    assert.equal(fs.text('Freestyle/Document 7.md'), undefined);
    assert.equal(fs.text('_deleted/Freestyle/Document 7.md'), before);
    // Next run: nothing more to do with it.
    server.requests.length = 0;
    const next = await run(fs, server);
    assert.deepEqual([next.deleted, next.unchanged], [0, 249]);
    assert.deepEqual(server.requests, ['page:1', 'page:2', 'page:3']);
  });

  it('a list that changes while it is read (a deletion shifts a document past a page boundary) never moves a live document', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    await run(fs, server);
    // After page 1 is read, document 5 is deleted elsewhere: document 101 moves onto page 1, and page 2 starts at 102.
    server.beforePage = (p) => {
      if (p === 2) server.documents.delete(5);
    };
    server.requests.length = 0;
    const r = await run(fs, server);
    // The total changed between pages (250, then 249): the list is read again, and that pass sees 101.
    assert.deepEqual(server.requests.filter((q) => q.startsWith('page:')), ['page:1', 'page:2', 'page:3', 'page:1', 'page:2', 'page:3']);
    assert.equal(r.listChanged, false);
    assert.ok(fs.text('Freestyle/Document 101.md') ?? fs.text('Blog post/Document 101.md') ?? fs.text('Template 20/Document 101.md'), '101 stays where it was');
    assert.ok(!fs.paths().some((p) => p.startsWith('_deleted/') && p.includes('Document 101')));
    // Document 5 was seen on page 1, before its deletion: this run keeps it; the next one moves it.
    assert.equal(r.deleted, 0);
    server.beforePage = undefined;
    const next = await run(fs, server);
    assert.equal(next.deleted, 1);
    assertMirrors(fs, server);
  });

  it('a first run while a document is deleted between two pages: the list is read again, and every remaining document has its file', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    // After page 1 is read, document 5 is deleted elsewhere: document 101 moves onto page 1, which was already read.
    server.beforePage = (p) => {
      if (p === 2 && server.documents.has(5)) server.documents.delete(5);
    };
    const r = await run(fs, server);
    assert.equal(r.cancelled, false);
    const live = fs.paths().filter((p) => !p.startsWith('_deleted/')).map((p) => frontMatter(fs.text(p)!).id as number);
    for (const id of server.documents.keys()) assert.ok(live.includes(id), `document ${id} has its file`);
    assert.equal(r.listChanged, false, 'the second pass saw the list unchanged');
    // The first pass (3 pages, its total 250 then 249) and the second (3 pages of 249).
    assert.deepEqual(server.requests, ['page:1', 'page:2', 'page:3', 'page:1', 'page:2', 'page:3']);
    assert.equal(server.documents.size, 249);
    // Document 5 was seen on page 1 before its deletion: its file stays until the next run confirms the deletion.
    assert.equal(r.new, 250);
    server.beforePage = undefined;
    const next = await run(fs, server);
    assert.deepEqual([next.new, next.deleted, next.unchanged], [0, 1, 249]);
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });

  it('a list that keeps changing through three passes: the report says so (never complete), and the rerun completes', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    // Each pass, one document deleted after its page 1.
    let deletions = 0;
    server.beforePage = (p) => {
      if (p === 2) server.documents.delete(10 + deletions++);
    };
    const r = await run(fs, server);
    assert.equal(r.listChanged, true);
    assert.equal(r.cancelled, false);
    assert.equal(server.lists(), 9, 'three passes of three pages, no more');
    const state = JSON.parse(fs.text(STATE_FILE)!) as { completed?: string };
    assert.equal(state.completed, undefined, 'a run whose list changed under it is not recorded as complete');
    server.beforePage = undefined;
    const next = await run(fs, server);
    assert.equal(next.listChanged, false);
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });

  it('an empty list (a server answering nothing) moves nothing without a 404 for each document', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'One', 1), doc(2, 'Two', 1));
    await run(fs, server);
    const real = server.page.bind(server);
    server.page = async (page, signal) => ({ ...(await real(page, signal)), items: [], total: 0, hasMore: false });
    const r = await run(fs, server);
    assert.equal(r.deleted, 0);
    assert.deepEqual(server.requests.slice(-3), ['page:1', 'show:1', 'show:2']);
    assert.deepEqual(fs.paths(), ['Freestyle/One.md', 'Freestyle/Two.md']);
  });

  it('cancelled half-way: what was written is kept, nothing is moved, and the rerun completes with no duplicate', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    await run(fs, server);
    server.documents.delete(3);
    for (let id = 251; id <= 400; id++) server.put(doc(id, `Document ${id}`, 9));
    const stop = new AbortController();
    server.beforePage = (p) => {
      if (p === 3) stop.abort();
    };
    const r = await run(fs, server, { signal: stop.signal });
    assert.equal(r.cancelled, true);
    assert.equal(r.deleted, 0, 'a cancelled run moves nothing to _deleted');
    assert.ok(fs.text('Freestyle/Document 3.md'), 'the deleted document\'s file waits for a complete run');
    assertStateTrue(fs);
    server.beforePage = undefined;
    const rest = await run(fs, server);
    assert.equal(rest.cancelled, false);
    assert.equal(rest.deleted, 1);
    assert.equal(rest.new, 150);
    assertMirrors(fs, server);
    assert.ok(!fs.paths().some((p) => /\(\d+\)/.test(p)), 'no "Name (id)" duplicate');
  });

  it('stopped between the files and the state (the state could not be saved): the rerun takes its own files back, no duplicate', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(150));
    fs.fault = (op, path) => (op === 'write' && path.startsWith(STATE_FILE) ? new Error('I/O error') : undefined);
    await assert.rejects(run(fs, server), (e: unknown) => e instanceof BackupError && e.kind === 'write' && /backup state/.test(e.message));
    assert.equal(fs.text(STATE_FILE), undefined);
    assert.ok(fs.paths().length >= 100, 'the files of page 1 are there');
    fs.fault = undefined;
    const r = await run(fs, server);
    assert.equal(r.new, 150);
    assert.equal(fs.paths().length, 150);
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });

  it('refuses a folder holding another account\'s backup, before any request or write', async () => {
    const fs = new MemoryFs();
    await run(fs, new MemoryServer().put(doc(1, 'One', 1)), { identity: OTHER });
    const server = new MemoryServer().put(doc(1, 'Mine', 1));
    fs.calls.length = 0;
    await assert.rejects(run(fs, server), (e: unknown) => e instanceof BackupError && e.kind === 'otherAccount' && e.message.includes(OTHER.account));
    assert.deepEqual(server.requests, []);
    assert.deepEqual(fs.calls.filter((c) => c.op !== 'read'), []);
  });

  it('refuses a state file it cannot read (never overwrites it)', async () => {
    const fs = new MemoryFs();
    await fs.write(STATE_FILE, new TextEncoder().encode('{"format":"something else"}'));
    await assert.rejects(run(fs, new MemoryServer().put(doc(1, 'One', 1))), (e: unknown) => e instanceof BackupError && e.kind === 'state');
    assert.equal(fs.text(STATE_FILE), '{"format":"something else"}');
  });

  it('a state file edited by hand never makes the run touch a file outside the folder, or one it did not write', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'One', 1), doc(2, 'Two', 1));
    await run(fs, server);
    const state = JSON.parse(fs.text(STATE_FILE)!) as { documents: Record<string, { path: string; want: string }> };
    // Document 1's entry points out of the folder, document 2's at a file of the user's; both "renamed" since.
    state.documents['1'] = { ...state.documents['1'], path: '../outside/Secret.md', want: 'Freestyle/Old one.md' };
    state.documents['2'] = { ...state.documents['2'], path: 'Notes/todo.md', want: 'Freestyle/Old two.md' };
    await fs.write(STATE_FILE, new TextEncoder().encode(JSON.stringify(state)));
    await fs.write('../outside/Secret.md', new TextEncoder().encode('not the backup\'s'));
    await fs.write('Notes/todo.md', new TextEncoder().encode('my own notes'));
    fs.calls.length = 0;
    await run(fs, server);
    assert.deepEqual(fs.calls.filter((c) => `${c.path}/${c.to ?? ''}`.split('/').includes('..')), [], 'nothing outside the folder is read, listed, moved or deleted');
    assert.equal(fs.text('../outside/Secret.md'), 'not the backup\'s');
    assert.equal(fs.text('Notes/todo.md'), 'my own notes');
    server.documents.delete(2);
    await run(fs, server);
    assert.equal(fs.text('Notes/todo.md'), 'my own notes', 'a file the backup did not write is not moved to _deleted either');
    assert.equal(frontMatter(fs.text('Freestyle/One.md')!).id, 1);
    assert.equal(frontMatter(fs.text('_deleted/Freestyle/Two.md')!).id, 2);
    assertStateTrue(fs);
  });

  it('a full disk mid-way: a clear error, no half-written file, the state not ahead; once there is room the rerun completes', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    fs.capacity = 30_000;
    let error: unknown;
    await run(fs, server).catch((e: unknown) => (error = e));
    assert.ok(error instanceof BackupError && error.kind === 'write', String(error));
    assert.match(error.message, /No space left on device/);
    assert.ok(error.report && error.report.new > 0 && error.report.new < 250, 'the report says how far it got');
    for (const p of fs.paths()) assert.equal(body(fs.text(p)!).replace(/\n$/, ''), server.documents.get(frontMatter(fs.text(p)!).id as number)!.result, `${p} whole`);
    assert.equal([...fs.files.keys()].filter((k) => k.endsWith('.part')).length, 0, 'no temporary file left');
    assertStateTrue(fs);
    fs.capacity = Infinity;
    const r = await run(fs, server);
    assert.equal(fs.paths().length, 250);
    assert.equal(r.new + r.unchanged, 250);
    assertMirrors(fs, server);
  });

  it('an unwritable folder: a clear error naming the file, nothing written', async () => {
    const fs = new MemoryFs();
    fs.fault = (op) => (op === 'write' || op === 'rename' ? Object.assign(new Error('Permission denied'), { code: 'EACCES' }) : undefined);
    await assert.rejects(run(fs, new MemoryServer().put(doc(1, 'One', 1))), (e: unknown) => e instanceof BackupError && e.kind === 'write' && /Couldn't write “Freestyle\/One\.md”: Permission denied/.test(e.message));
    assert.deepEqual(fs.paths(), []);
  });

  it('a server error mid-way: no deletion, the state true, the rerun completes', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    await run(fs, server);
    server.documents.delete(1);
    server.put({ ...server.documents.get(2)!, result: 'changed' });
    server.beforePage = (p) => {
      if (p === 2) throw new Error('the server had a problem (HTTP 500)');
    };
    await assert.rejects(run(fs, server), (e: unknown) => e instanceof BackupError && e.kind === 'server' && /HTTP 500/.test(e.message) && e.report?.changed === 1);
    assert.ok(fs.paths().some((p) => p.endsWith('/Document 1.md') && !p.startsWith('_deleted')), 'nothing moved');
    assertStateTrue(fs);
    server.beforePage = undefined;
    const r = await run(fs, server);
    assert.deepEqual([r.changed, r.deleted], [0, 1]);
    assertMirrors(fs, server);
  });

  it('names: safe on Windows (forbidden characters, device names, trailing dots and spaces, length), unique per folder, stable per id', async () => {
    const fs = new MemoryFs(true);
    const long = 'ü'.repeat(300);
    const server = new MemoryServer().put(
      doc(1, 'a<b>c:d"e/f\\g|h?i*j', 1),
      doc(2, 'CON', 1),
      doc(3, 'nul.txt', 1),
      doc(4, 'Ends with dots... ', 1),
      doc(5, long, 1),
      doc(6, 'Note', 1),
      doc(7, 'note', 1),
      doc(8, 'Note', 1),
      doc(9, '.hidden', 1),
      doc(10, '   ', 1),
      doc(11, 'Cafe\u0301', 1),
      doc(12, 'Café', 1),
    );
    await run(fs, server);
    const names = fs.paths().map((p) => p.slice('Freestyle/'.length));
    assert.deepEqual(names.sort(), [
      'CON_.md', 'Café (12).md', 'Café.md', 'Ends with dots.md', 'Note (7).md', 'Note (8).md', 'Note.md', 'Untitled.md', 'a_b_c_d_e_f_g_h_i_j.md',
      'hidden.md', 'nul_.txt.md', `${'ü'.repeat(75)}.md`,
    ].sort((a, b) => (a < b ? -1 : 1)).map((n) => n.replace('Note (7)', 'note (7)')).sort());
    for (const n of names) {
      assert.doesNotMatch(n, /[<>:"/\\|?*\u0000-\u001f]/);
      assert.ok(Buffer.byteLength(n) <= 160, n);
    }
    // Stable: the first "Note" deleted, the others keep their names (no file changes hands).
    server.documents.delete(6);
    fs.calls.length = 0;
    const r = await run(fs, server);
    assert.deepEqual(fs.written(), []);
    assert.equal(r.deleted, 1);
    assert.ok(fs.text('Freestyle/note (7).md') && fs.text('Freestyle/Note (8).md'));
  });

  it('safeStem: device names whatever the case or extension, never empty, never half a character', () => {
    assert.equal(safeStem('aux'), 'aux_');
    assert.equal(safeStem('Com1'), 'Com1_');
    assert.equal(safeStem('LPT9.report'), 'LPT9_.report');
    assert.equal(safeStem('Console'), 'Console');
    assert.equal(safeStem('...'), 'Untitled');
    assert.equal(safeStem('😀'.repeat(100)), '😀'.repeat(37));
    assert.equal(safeStem('a\ud800b'), 'a\ufffdb');
  });

  it('a renamed document, one moved to another template and one now HTML: each file moves, the old one goes', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Old name', 1), doc(2, 'Moves', 1), doc(3, 'Becomes HTML', 1));
    await run(fs, server);
    server.put({ ...server.documents.get(1)!, name: 'New name' });
    server.put({ ...server.documents.get(2)!, template: { id: 9, name: 'Blog post' } });
    server.put({ ...server.documents.get(3)!, result: '<p>Now <strong>HTML</strong></p>' });
    const r = await run(fs, server);
    assert.equal(r.changed, 3);
    assert.deepEqual(fs.paths(), ['Blog post/Moves.md', 'Freestyle/Becomes HTML.html', 'Freestyle/New name.md']);
  });

  it('a case-only rename on a case-insensitive disk keeps the file (renamed, not written then deleted)', async () => {
    const fs = new MemoryFs(true);
    const server = new MemoryServer().put(doc(1, 'title', 1));
    await run(fs, server);
    server.put({ ...server.documents.get(1)!, name: 'Title' });
    await run(fs, server);
    assert.deepEqual(fs.paths(), ['Freestyle/Title.md']);
    assert.equal(frontMatter(fs.text('Freestyle/Title.md')!).name, 'Title');
  });

  it('a file that is not the backup\'s is never overwritten: the document takes "Name (id)"', async () => {
    const fs = new MemoryFs();
    await fs.write('Freestyle/One.md', new TextEncoder().encode('my own notes'));
    const server = new MemoryServer().put(doc(1, 'One', 1));
    await run(fs, server);
    assert.equal(fs.text('Freestyle/One.md'), 'my own notes');
    assert.equal(frontMatter(fs.text('Freestyle/One (1).md')!).id, 1);
  });

  it('a file removed by hand is written again ("restored"), the others untouched', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'One', 1), doc(2, 'Two', 1));
    await run(fs, server);
    await fs.delete('Freestyle/One.md');
    fs.calls.length = 0;
    const r = await run(fs, server);
    assert.deepEqual([r.restored, r.unchanged], [1, 1]);
    assert.deepEqual(fs.written(), ['Freestyle/One.md']);
  });

  it('front matter: any name, template and text read back exactly with a YAML reader; the id is found again', () => {
    const names = ['He said "hi": #1 - yes', '- leading dash', 'line\nbreak', 'tab\there', 'sep\u2028arator', 'bom\ufeff', 'nel\u0085', 'del\u007f', '@at', 'null', 'true', '123', "it's", 'back\\slash', 'émoji 😀'];
    for (const name of names) {
      const text = renderDocument(doc(5, name, 70, { template: { id: 70, name }, result: '---\nnot front matter\n---' }), 'markdown', { account: name, server: 'https://x.example' });
      const fm = frontMatter(text);
      assert.equal(fm.name, name, JSON.stringify(name));
      assert.deepEqual(fm.template, { id: 70, name });
      assert.equal(fm.account, name);
      assert.equal(documentIdOf(text), 5);
      assert.equal(body(text), '---\nnot front matter\n---\n');
    }
    assert.equal(yaml.load(yamlString('\ud800 lone')), '\ufffd lone');
    const none = frontMatter(renderDocument(doc(6, 'x', undefined, { created_at: undefined }), 'markdown', { account: 'a', server: 'b' }));
    assert.equal(none.template, null);
    assert.equal(none.created, null);
  });
});

describe('Back Up Account to Folder (core): templates renamed or gone, names alike, a list that changes', () => {
  it('a template renamed between runs: its documents move to the new folder under the same file names, the old folder keeps none', async () => {
    const fs = new MemoryFs();
    const custom = (name: string) => ({ id: 70, name });
    const server = new MemoryServer().put(
      doc(1, 'Soup', 70, { template: custom('Recipes') }),
      doc(2, 'Bread', 70, { template: custom('Recipes') }),
      doc(3, 'Soup', 1),
    );
    await run(fs, server);
    assert.deepEqual(fs.paths(), ['Freestyle/Soup.md', 'Recipes/Bread.md', 'Recipes/Soup.md']);
    for (const id of [1, 2]) server.put({ ...server.documents.get(id)!, template: custom('Cooking') });
    const r = await run(fs, server);
    assert.deepEqual([r.new, r.changed, r.deleted, r.unchanged], [0, 2, 0, 1]);
    assert.deepEqual(fs.paths(), ['Cooking/Bread.md', 'Cooking/Soup.md', 'Freestyle/Soup.md']);
    assert.deepEqual(frontMatter(fs.text('Cooking/Soup.md')!).template, { id: 70, name: 'Cooking' });
    // Renamed back: back where they were, still under their own names.
    for (const id of [1, 2]) server.put({ ...server.documents.get(id)!, template: custom('Recipes') });
    await run(fs, server);
    assert.deepEqual(fs.paths(), ['Freestyle/Soup.md', 'Recipes/Bread.md', 'Recipes/Soup.md']);
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });

  it('two templates swap names in one run: every document keeps one file, none lost, none twice, and the names hold from then on', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Plan', 70, { template: { id: 70, name: 'X' } }), doc(2, 'Plan', 71, { template: { id: 71, name: 'Y' } }));
    await run(fs, server);
    server.put({ ...server.documents.get(1)!, template: { id: 70, name: 'Y' } }, { ...server.documents.get(2)!, template: { id: 71, name: 'X' } });
    await run(fs, server);
    assertMirrors(fs, server);
    assertStateTrue(fs);
    assert.equal(frontMatter(fs.text(fs.paths().find((p) => p.startsWith('Y/'))!)!).id, 1);
    fs.calls.length = 0;
    const again = await run(fs, server);
    assert.deepEqual(fs.written(), []);
    assert.equal(again.unchanged, 2);
  });

  it('a template renamed by case only keeps its folder (one folder on Windows and macOS); the front matter has the new name', async () => {
    const fs = new MemoryFs(true);
    const server = new MemoryServer().put(doc(1, 'Soup', 70, { template: { id: 70, name: 'Recipes' } }));
    await run(fs, server);
    server.put({ ...server.documents.get(1)!, template: { id: 70, name: 'RECIPES' } });
    const r = await run(fs, server);
    assert.equal(r.changed, 1);
    assert.deepEqual(fs.paths(), ['Recipes/Soup.md']);
    assert.deepEqual(frontMatter(fs.text('Recipes/Soup.md')!).template, { id: 70, name: 'RECIPES' });
  });

  it('custom templates, one named as a built-in and one as the backup\'s own folders; then the custom template deleted (no template): its files move, nothing to _deleted', async () => {
    const fs = new MemoryFs(true);
    const server = new MemoryServer().put(
      doc(1, 'Post', 9),
      doc(2, 'Post', 70, { template: { id: 70, name: 'blog POST' } }),
      doc(3, 'A', 71, { template: { id: 71, name: '_Deleted' } }),
      doc(4, 'B', 72, { template: { id: 72, name: '.content-docs-backup' } }),
      doc(5, 'C', 73, { template: { id: 73, name: 'Custom one' } }),
    );
    await run(fs, server);
    assert.deepEqual(fs.paths(), ['Blog post/Post (2).md', 'Blog post/Post.md', 'Custom one/C.md', '_Deleted_/A.md', 'content-docs-backup/B.md']);
    // The template is deleted on the server: its documents now come without one (the API's `template: []`).
    server.put({ ...server.documents.get(5)!, template: undefined });
    const r = await run(fs, server);
    assert.deepEqual([r.changed, r.deleted], [1, 0]);
    assert.ok(fs.text('No template/C.md'));
    assert.ok(!fs.paths().some((p) => p.startsWith('Custom one/') || p.startsWith('_deleted/')));
    assert.equal(frontMatter(fs.text('No template/C.md')!).template, null);
    assertMirrors(fs, server);
  });

  it('names that differ only by case or Unicode form, on a case-sensitive disk too: one file each, and the folder copies to Windows or macOS without a clash', async () => {
    for (const insensitive of [false, true]) {
      const fs = new MemoryFs(insensitive);
      const server = new MemoryServer().put(
        doc(1, 'Post', 1),
        doc(2, 'post', 1),
        doc(3, 'POST', 1),
        doc(4, 'Caf\u00e9', 1),
        doc(5, 'Cafe\u0301', 1),
        doc(6, 'CAFE\u0301', 1),
        doc(7, 'Λόγος', 1),
        doc(8, 'ΛΌΓΟΣ', 1),
      );
      await run(fs, server);
      const keys = fs.paths().map((p) => p.normalize('NFC').toUpperCase());
      assert.equal(new Set(keys).size, 8, `${insensitive}: ${fs.paths().join(', ')}`);
      assertMirrors(fs, server);
      for (const p of fs.paths()) assert.equal(p, p.normalize('NFC'), `${p} in NFC`);
      // A rerun writes nothing, whichever document the disk lists first.
      fs.calls.length = 0;
      const again = await run(fs, server);
      assert.deepEqual(fs.written(), []);
      assert.equal(again.unchanged, 8);
    }
  });

  it('a document named in NFD on a disk that lists names in NFD (macOS HFS+): its file is recognised, never written twice', async () => {
    const fs = new MemoryFs(true);
    const server = new MemoryServer().put(doc(1, 'Caf\u00e9', 1));
    await run(fs, server);
    // The disk hands the names back decomposed.
    const list = fs.list.bind(fs);
    fs.list = async (folder) => (await list(folder)).map((n) => n.normalize('NFD'));
    fs.calls.length = 0;
    const r = await run(fs, server);
    assert.deepEqual([r.unchanged, r.restored], [1, 0]);
    assert.deepEqual(fs.written(), []);
  });

  it('Windows device names as template and document names, with extensions, spaces and dots: never a device; a document already named as the escaped one takes its id', async () => {
    const fs = new MemoryFs(true);
    const server = new MemoryServer().put(
      doc(1, 'CON', 70, { template: { id: 70, name: 'PRN' } }),
      doc(2, 'con.txt', 70, { template: { id: 70, name: 'PRN' } }),
      doc(3, 'Aux.', 71, { template: { id: 71, name: 'nul ' } }),
      doc(4, 'COM1 ', 71, { template: { id: 71, name: 'nul ' } }),
      doc(5, 'lpt¹', 1),
      doc(6, 'CONIN$', 1),
      doc(7, 'con_', 70, { template: { id: 70, name: 'PRN' } }),
    );
    await run(fs, server);
    const device = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;
    for (const p of fs.paths()) for (const part of p.split('/')) assert.doesNotMatch(part.trimEnd(), device, p);
    assert.deepEqual(fs.paths(), ['Freestyle/CONIN$_.md', 'Freestyle/lpt¹_.md', 'PRN_/CON_.md', 'PRN_/con_ (7).md', 'PRN_/con_.txt.md', 'nul_/Aux_.md', 'nul_/COM1_.md']);
    assertMirrors(fs, server);
  });
});

describe('Back Up Account to Folder (core): the list changing while it is paged', () => {
  it('a rerun while one document is created and another deleted in the same gap (the total unchanged): the shifted document is asked for by id, nothing is lost', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    await run(fs, server);
    server.beforePage = (p) => {
      if (p === 2 && server.documents.has(5)) {
        server.documents.delete(5);
        server.put(doc(251, 'Document 251', 1));
      }
    };
    server.requests.length = 0;
    const r = await run(fs, server);
    // Document 101 slid onto page 1, already read: missing from the pass, it is asked for by id (and kept). Document 5
    // was seen on page 1 before its deletion: the next run moves it.
    assert.deepEqual(server.requests, ['page:1', 'page:2', 'page:3', 'show:101']);
    assert.deepEqual([r.new, r.deleted, r.unchanged, r.listChanged], [1, 0, 250, false]);
    assertStateTrue(fs);
    server.beforePage = undefined;
    const next = await run(fs, server);
    assert.deepEqual([next.new, next.deleted], [0, 1]);
    assertMirrors(fs, server);
  });

  it('documents renamed, changed and moved to another template between two pages: each is backed up as the page that listed it says, and the next run brings the rest', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    await run(fs, server);
    server.beforePage = (p) => {
      if (p !== 2) return;
      server.put({ ...server.documents.get(3)!, name: 'Renamed after its page' }, { ...server.documents.get(150)!, name: 'Renamed before its page' });
      server.put({ ...server.documents.get(161)!, template: { id: 41, name: 'Product sheet' } });
    };
    const r = await run(fs, server);
    assert.deepEqual([r.changed, r.listChanged, r.deleted], [2, false, 0]);
    assert.ok(fs.paths().includes('Product sheet/Document 161.md'));
    server.beforePage = undefined;
    const next = await run(fs, server);
    assert.deepEqual([next.changed, next.unchanged], [1, 249]);
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });
});

/** The day the runs below take place, in local time: the kept copies' names carry it. */
const NOW = new Date(2026, 10, 28, 15, 30).getTime();
const KEPT = '(edited locally 2026-11-28)';
const LATER = '2026-06-02T10:00:00.000000Z';

function runOn(fs: MemoryFs, server: MemoryServer): Promise<BackupReport> {
  return runBackup({ fs, source: server, identity: ME, saveEveryMs: 0, now: () => NOW });
}

/** The user edits a file of the backup folder (as an editor saves it: the whole file). */
async function edit(fs: MemoryFs, path: string, change: (text: string) => string): Promise<string> {
  const text = change(fs.text(path)!);
  await fs.write(path, new TextEncoder().encode(text));
  return text;
}

const addNotes = (t: string) => `${t}My own notes, added in the folder.\n`;

/** The state names only files that are there, each holding its document (an edited one may differ from its hash). */
function assertStateNamesFiles(fs: MemoryFs): void {
  const raw = fs.text(STATE_FILE);
  if (raw === undefined) return;
  const state = JSON.parse(raw) as { documents: Record<string, { path: string }> };
  for (const [id, e] of Object.entries(state.documents)) {
    const text = fs.text(e.path);
    assert.ok(text !== undefined, `the state names ${e.path} (document ${id}), which is there`);
    assert.equal(documentIdOf(text), Number(id), `${e.path} holds document ${id}`);
  }
}

/** The paths of the files holding exactly `text`. */
function holding(fs: MemoryFs, text: string): string[] {
  return fs.paths().filter((p) => fs.text(p) === text);
}

describe('Back Up Account to Folder (core): files edited in the folder are kept', () => {
  it('a document changed on the server whose file was edited in the folder: the edited file is kept beside it, the new text written, nothing deleted', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Plan', 1), doc(2, 'Other', 1));
    await runOn(fs, server);
    const mine = await edit(fs, 'Freestyle/Plan.md', addNotes);
    server.put({ ...server.documents.get(1)!, result: 'Changed on the web', updated_at: LATER });
    fs.calls.length = 0;
    const r = await runOn(fs, server);
    assert.equal(fs.text(`Freestyle/Plan ${KEPT}.md`), mine, 'the edited file, whole, under a name that says so');
    assert.equal(body(fs.text('Freestyle/Plan.md')!), 'Changed on the web\n');
    assert.deepEqual([r.changed, r.unchanged, r.kept, r.keptAs], [1, 1, 1, [`Freestyle/Plan ${KEPT}.md`]]);
    assert.deepEqual(fs.deletions(), []);
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });

  it('documents renamed on the server: an edited file is kept under its old name, a clean one renamed, a removed one written anew; nothing deleted', async () => {
    // Case-insensitive, as Windows and macOS are: "title" → "Title" is one file there.
    const fs = new MemoryFs(true);
    const server = new MemoryServer().put(doc(1, 'Old name', 1), doc(2, 'Clean old', 1), doc(3, 'title', 1), doc(4, 'Removed by hand', 1));
    await runOn(fs, server);
    const mine = await edit(fs, 'Freestyle/Old name.md', addNotes);
    const mineToo = await edit(fs, 'Freestyle/title.md', (t) => t.replace('Text of', 'My text of'));
    await fs.delete('Freestyle/Removed by hand.md');
    server.put({ ...server.documents.get(1)!, name: 'New name' }, { ...server.documents.get(2)!, name: 'Clean new' });
    server.put({ ...server.documents.get(3)!, name: 'Title' }, { ...server.documents.get(4)!, name: 'Renamed after' });
    fs.calls.length = 0;
    const r = await runOn(fs, server);
    assert.deepEqual(fs.paths(), ['Freestyle/Clean new.md', 'Freestyle/New name.md', `Freestyle/Old name ${KEPT}.md`, 'Freestyle/Renamed after.md', 'Freestyle/Title.md', `Freestyle/title ${KEPT}.md`]);
    assert.equal(fs.text(`Freestyle/Old name ${KEPT}.md`), mine);
    assert.equal(fs.text(`Freestyle/title ${KEPT}.md`), mineToo);
    assert.deepEqual([r.changed, r.kept], [4, 2]);
    assert.deepEqual([...r.keptAs].sort(), [`Freestyle/Old name ${KEPT}.md`, `Freestyle/title ${KEPT}.md`]);
    assert.deepEqual(fs.deletions(), [], 'a renamed document\'s file is moved, never written anew and the old one deleted');
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });

  it('a document deleted on the server whose file was edited: moved to _deleted/ under a name that says it was edited', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Plan', 1), doc(2, 'Clean', 1), doc(3, 'Stays', 1));
    await runOn(fs, server);
    const mine = await edit(fs, 'Freestyle/Plan.md', addNotes);
    const clean = fs.text('Freestyle/Clean.md');
    server.documents.delete(1);
    server.documents.delete(2);
    fs.calls.length = 0;
    const r = await runOn(fs, server);
    assert.deepEqual(fs.paths(), ['Freestyle/Stays.md', '_deleted/Freestyle/Clean.md', `_deleted/Freestyle/Plan ${KEPT}.md`]);
    assert.equal(fs.text(`_deleted/Freestyle/Plan ${KEPT}.md`), mine);
    assert.equal(fs.text('_deleted/Freestyle/Clean.md'), clean);
    assert.deepEqual([r.deleted, r.kept, r.keptAs], [2, 1, [`_deleted/Freestyle/Plan ${KEPT}.md`]]);
    assert.deepEqual(fs.deletions(), []);
    assertStateTrue(fs);
  });

  it('a template renamed: its documents move to the new folder; an edited file is kept in the old one, nothing deleted', async () => {
    const fs = new MemoryFs();
    const custom = (name: string) => ({ id: 70, name });
    const server = new MemoryServer().put(doc(1, 'Soup', 70, { template: custom('Recipes') }), doc(2, 'Bread', 70, { template: custom('Recipes') }));
    await runOn(fs, server);
    const mine = await edit(fs, 'Recipes/Soup.md', (t) => t.replace('Text of Soup', 'Text of Soup, with more salt'));
    for (const id of [1, 2]) server.put({ ...server.documents.get(id)!, template: custom('Cooking') });
    fs.calls.length = 0;
    const r = await runOn(fs, server);
    assert.deepEqual(fs.paths(), ['Cooking/Bread.md', 'Cooking/Soup.md', `Recipes/Soup ${KEPT}.md`]);
    assert.equal(fs.text(`Recipes/Soup ${KEPT}.md`), mine);
    assert.deepEqual(frontMatter(fs.text('Cooking/Soup.md')!).template, { id: 70, name: 'Cooking' });
    assert.deepEqual([r.changed, r.kept], [2, 1]);
    assert.deepEqual(fs.deletions(), []);
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });

  it('runs after a kept copy: no second copy and no change while nothing changes; a second edit on the same day takes a name of its own', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Plan', 1));
    await runOn(fs, server);
    const first = await edit(fs, 'Freestyle/Plan.md', addNotes);
    server.put({ ...server.documents.get(1)!, result: 'Second version', updated_at: LATER });
    await runOn(fs, server);
    fs.calls.length = 0;
    const again = await runOn(fs, server);
    assert.deepEqual([again.kept, again.unchanged], [0, 1]);
    assert.deepEqual(fs.written(), []);
    assert.deepEqual(fs.paths(), [`Freestyle/Plan ${KEPT}.md`, 'Freestyle/Plan.md']);
    // Edited again, changed again: the first kept copy stays as it is, the second takes the next name.
    const second = await edit(fs, 'Freestyle/Plan.md', (t) => `${t}More notes.\n`);
    server.put({ ...server.documents.get(1)!, result: 'Third version', updated_at: '2026-06-03T10:00:00.000000Z' });
    const third = await runOn(fs, server);
    assert.deepEqual(third.keptAs, ['Freestyle/Plan (edited locally 2026-11-28, 2).md']);
    assert.equal(fs.text(`Freestyle/Plan ${KEPT}.md`), first);
    assert.equal(fs.text('Freestyle/Plan (edited locally 2026-11-28, 2).md'), second);
    // The document renamed on the server to a kept copy's name: the copy is not taken for the document's file.
    server.put({ ...server.documents.get(1)!, name: `Plan ${KEPT}` });
    const renamed = await runOn(fs, server);
    assert.equal(renamed.kept, 0);
    assert.equal(fs.text(`Freestyle/Plan ${KEPT}.md`), first);
    assert.equal(fs.text('Freestyle/Plan (edited locally 2026-11-28, 2).md'), second);
    assertMirrors(fs, server);
    assertStateTrue(fs);
    assert.deepEqual(holding(fs, first), [`Freestyle/Plan ${KEPT}.md`]);
  });

  it('the disk failing at any step of a run that keeps edited files: the state names only files that are there, no edit is lost, and the rerun completes with one copy of each', async () => {
    let steps = 0;
    for (let n = 1; ; n++) {
      const fs = new MemoryFs();
      const server = new MemoryServer().put(doc(1, 'Plan', 1), doc(2, 'Notes', 9), doc(3, 'Gone', 1), doc(4, 'Clean', 1));
      await runOn(fs, server);
      const mine = [
        await edit(fs, 'Freestyle/Plan.md', addNotes),
        await edit(fs, 'Blog post/Notes.md', addNotes),
        await edit(fs, 'Freestyle/Gone.md', addNotes),
      ];
      server.put({ ...server.documents.get(1)!, name: 'Plan v2', result: 'Plan, second version', updated_at: LATER });
      server.put({ ...server.documents.get(2)!, result: 'Notes, second version', updated_at: LATER });
      server.put({ ...server.documents.get(4)!, name: 'Clean v2' });
      server.documents.delete(3);
      // The n-th change to a file (a write or a move) fails, once; the state's own saves are not counted.
      let count = 0;
      fs.fault = (op, path) => (op === 'write' || op === 'rename') && !path.startsWith(STATE_FILE) && ++count === n ? new Error('I/O error') : undefined;
      let failed = false;
      await runOn(fs, server).catch((e: unknown) => {
        assert.ok(e instanceof BackupError && e.kind === 'write', String(e));
        failed = true;
      });
      fs.fault = undefined;
      assertStateNamesFiles(fs);
      for (const text of mine) assert.equal(holding(fs, text).length, 1, `step ${n}: the edit is in one file: ${JSON.stringify(text.slice(-60))}`);
      const rerun = await runOn(fs, server);
      assert.equal(rerun.cancelled, false);
      for (const text of mine) assert.equal(holding(fs, text).length, 1, `step ${n}, rerun: the edit is in one file`);
      assert.equal(fs.paths().filter((p) => KEPT_NAME.test(p)).length, 3, `step ${n}: three kept copies: ${fs.paths().join(', ')}`);
      assertMirrors(fs, server);
      assertStateTrue(fs);
      assert.deepEqual(fs.deletions(), []);
      if (!failed) break;
      steps = n;
    }
    assert.ok(steps >= 8, `the run failed at each of its ${steps} steps`);
  });

  it('line endings changed to CRLF by an editor on Windows, and nothing else: not an edit; CRLF and a real edit: kept', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Only line endings', 1), doc(2, 'Edited on Windows', 1));
    await runOn(fs, server);
    await edit(fs, 'Freestyle/Only line endings.md', (t) => t.replace(/\n/g, '\r\n'));
    const mine = await edit(fs, 'Freestyle/Edited on Windows.md', (t) => addNotes(t).replace(/\n/g, '\r\n'));
    for (const id of [1, 2]) server.put({ ...server.documents.get(id)!, result: 'New text', updated_at: LATER });
    const r = await runOn(fs, server);
    assert.deepEqual([r.changed, r.kept, r.keptAs], [2, 1, [`Freestyle/Edited on Windows ${KEPT}.md`]]);
    assert.equal(fs.text(`Freestyle/Edited on Windows ${KEPT}.md`), mine);
    assert.equal(body(fs.text('Freestyle/Only line endings.md')!), 'New text\n');
    assertMirrors(fs, server);
  });

  it('front matter edited: a changed field is an edit (kept); front matter removed: the file is no longer the backup\'s and stays as it is', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Starred here', 1), doc(2, 'Bare', 1));
    await runOn(fs, server);
    const starred = await edit(fs, 'Freestyle/Starred here.md', (t) => t.replace('favorite: false', 'favorite: true'));
    const bare = await edit(fs, 'Freestyle/Bare.md', body);
    for (const id of [1, 2]) server.put({ ...server.documents.get(id)!, result: 'New text', updated_at: LATER });
    fs.calls.length = 0;
    const r = await runOn(fs, server);
    assert.equal(fs.text(`Freestyle/Starred here ${KEPT}.md`), starred);
    assert.equal(fs.text('Freestyle/Bare.md'), bare, 'untouched: without its front matter it is not told from a file of the user\'s');
    assert.equal(frontMatter(fs.text('Freestyle/Bare (2).md')!).id, 2);
    assert.deepEqual([r.changed, r.kept], [2, 1]);
    assert.deepEqual(fs.deletions(), []);
    assert.ok(!fs.calls.some((c) => c.op === 'rename' && (c.path === 'Freestyle/Bare.md' || c.to === 'Freestyle/Bare.md')));
    assert.equal(body(fs.text('Freestyle/Starred here.md')!), 'New text\n');
    assertStateTrue(fs);
  });

  it('a file replaced by a folder: the folder and what it holds stay, whether its document changed, was deleted on the server or neither', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Plan', 1), doc(2, 'Gone', 1), doc(3, 'Same', 1));
    await runOn(fs, server);
    for (const name of ['Plan', 'Gone', 'Same']) {
      await fs.delete(`Freestyle/${name}.md`);
      await fs.write(`Freestyle/${name}.md/inside.txt`, new TextEncoder().encode(`kept ${name}`));
    }
    server.put({ ...server.documents.get(1)!, result: 'New text', updated_at: LATER });
    server.documents.delete(2);
    const r = await runOn(fs, server);
    for (const name of ['Plan', 'Gone', 'Same']) assert.equal(fs.text(`Freestyle/${name}.md/inside.txt`), `kept ${name}`);
    assert.equal(body(fs.text('Freestyle/Plan (1).md')!), 'New text\n');
    // An unchanged document's file is not read (the listing shows a name, not what it is): its turn comes when it changes.
    assert.deepEqual([r.changed, r.deleted, r.kept, r.unchanged], [1, 0, 0, 1]);
    const state = JSON.parse(fs.text(STATE_FILE)!) as { documents: Record<string, { path: string }> };
    assert.deepEqual(Object.fromEntries(Object.entries(state.documents).map(([id, e]) => [id, e.path])), { 1: 'Freestyle/Plan (1).md', 3: 'Freestyle/Same.md' });
    server.put({ ...server.documents.get(3)!, result: 'New text', updated_at: LATER });
    const next = await runOn(fs, server);
    assert.deepEqual([next.changed, next.kept], [1, 0]);
    assert.equal(fs.text('Freestyle/Same.md/inside.txt'), 'kept Same');
    assert.equal(body(fs.text('Freestyle/Same (3).md')!), 'New text\n');
    assertStateNamesFiles(fs);
  });

  it('temporary-file leftovers: an editor\'s beside an edited file stay where they are; of the backup\'s own, only its temporary files are cleared', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Plan', 1));
    await runOn(fs, server);
    const mine = await edit(fs, 'Freestyle/Plan.md', addNotes);
    const leftovers = ['Freestyle/Plan.md~', 'Freestyle/.Plan.md.swp', 'Freestyle/.~lock.Plan.md#'];
    for (const p of leftovers) await fs.write(p, new TextEncoder().encode(`${p} of an editor`));
    // A run stopped after writing its temporary file, and a file someone put in the backup's temporary folder.
    await fs.write('.content-docs-backup/tmp/1.part', new TextEncoder().encode('---\nid: 1\nname: "Plan"\n'));
    await fs.write('.content-docs-backup/tmp/draft.txt', new TextEncoder().encode('not the backup\'s'));
    server.put({ ...server.documents.get(1)!, name: 'Plan renamed', result: 'New text', updated_at: LATER });
    const r = await runOn(fs, server);
    assert.equal(fs.text(`Freestyle/Plan ${KEPT}.md`), mine);
    for (const p of leftovers) assert.equal(fs.text(p), `${p} of an editor`);
    assert.equal(fs.text('.content-docs-backup/tmp/1.part'), undefined);
    assert.equal(fs.text('.content-docs-backup/tmp/draft.txt'), 'not the backup\'s');
    assert.equal(r.kept, 1);
    assert.equal(body(fs.text('Freestyle/Plan renamed.md')!), 'New text\n');
    assertStateTrue(fs);
  });

  it('the state moved away to start over: files that still hold their document\'s text are taken back, one that differs is kept', async () => {
    const fs = new MemoryFs();
    const server = new MemoryServer().put(doc(1, 'Plan', 1), doc(2, 'Other', 1));
    await runOn(fs, server);
    const mine = await edit(fs, 'Freestyle/Plan.md', addNotes);
    await fs.rename(STATE_FILE, 'state moved away.json');
    fs.calls.length = 0;
    const r = await runOn(fs, server);
    assert.equal(fs.text(`Freestyle/Plan ${KEPT}.md`), mine);
    assert.deepEqual([r.new, r.kept], [2, 1]);
    assert.deepEqual(fs.paths(), ['Freestyle/Other.md', `Freestyle/Plan ${KEPT}.md`, 'Freestyle/Plan.md', 'state moved away.json']);
    assertStateTrue(fs);
  });
});

describe('Back Up Account to Folder (core): its pace', () => {
  /** A memory file system whose writes wait until released: how many are under way, and what was asked meanwhile. */
  class HeldFs extends MemoryFs {
    held: Array<() => void> = [];
    underWay = 0;
    mostUnderWay = 0;
    holding = true;
    override async write(path: string, data: Uint8Array): Promise<void> {
      if (!path.endsWith('.part') || path.includes('state.json')) return super.write(path, data);
      this.underWay++;
      this.mostUnderWay = Math.max(this.mostUnderWay, this.underWay);
      if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
      this.underWay--;
      return super.write(path, data);
    }
    release(): void {
      for (const r of this.held.splice(0)) r();
    }
  }

  const settle = async () => {
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  };

  it("asks for the next page while the files of the page before are written, and writes 16 files at a time across pages; every guarantee holds", async () => {
    const fs = new HeldFs();
    const server = new MemoryServer().put(...manyDocuments(250));
    const done = run(fs, server);
    await settle();
    assert.equal(fs.underWay, 16, 'sixteen files under way at once');
    assert.deepEqual(server.requests, ['page:1', 'page:2'], 'page 2 asked for while the files of page 1 are written');
    // Let the writes go one wave at a time: page 3 is asked for before page 2's files are all written.
    while (fs.held.length) {
      fs.release();
      await settle();
    }
    fs.holding = false;
    fs.release();
    const r = await done;
    assert.equal(r.new, 250);
    assert.equal(fs.mostUnderWay, 16);
    assert.equal(server.lists(), 3, 'three list requests, none more');
    assertMirrors(fs, server);
    assertStateTrue(fs);
  });
});
