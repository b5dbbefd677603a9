/**
 * Back Up Account to Folder… inside a real VS Code against the sandbox, written with vscode.workspace.fs to a folder
 * on disk: 250 documents in 3 list requests and 250 files with their front matter; a document changed on the server
 * rewrites exactly its file; one deleted moves to _deleted/; a file edited in the folder is kept beside it, and a folder in
 * place of a file stays; a run cancelled half-way and run again completes with no duplicate; a folder holding another
 * account's backup is refused.
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BackupOutcome } from '../../src/backup/command';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { putDocument, startAccountSuite, type AccountSuite } from './accountKit';
import { configure, MessageCapture, until, useSandbox } from './reliabilityKit';

const COUNT = 250;
const HTML = '<h2>Plan</h2><p>First&nbsp;line with <strong>bold</strong> and <a href="https://example.com">a link</a>.</p><p><br></p><ul><li>one</li></ul>';

let box: Sandbox;
let s: TestServices;
let suite: AccountSuite;
let dir: string;

/** Every file under `root` (relative, `/`-separated), the backup's own state folder left out. */
function files(root: string, under = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, under), { withFileTypes: true })) {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (rel === '.content-docs-backup') continue;
    if (e.isDirectory()) out.push(...files(root, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** The front matter's `key: value` lines of a backed-up file, as written. */
function frontMatter(file: string): Record<string, string> {
  const text = fs.readFileSync(file, 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(m, `${file} opens with front matter`);
  return Object.fromEntries(m[1].split('\n').filter((l) => /^\w+: /.test(l)).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
}

/** The list requests of a backup (100 a page, ascending id) since the requests were last reset. */
function listRequests(): Array<{ page: string | undefined; perPage: string | undefined }> {
  return box.requests
    .filter((r) => r.method === 'GET' && r.path === '/api/v1/documents' && r.query.sort === 'asc' && r.query.sort_by === 'id')
    .map((r) => ({ page: r.query.page, perPage: r.query.per_page }));
}

/** The state never ahead of the files: each document it names has its file, holding what the state's hash says. */
function assertStateTrue(root: string): void {
  const file = path.join(root, '.content-docs-backup', 'state.json');
  if (!fs.existsSync(file)) return;
  const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { documents: Record<string, { path: string; hash: string }> };
  for (const [id, e] of Object.entries(state.documents)) {
    const at = path.join(root, ...e.path.split('/'));
    assert.ok(fs.existsSync(at), `the state names ${e.path} (document ${id}), which is there`);
    assert.strictEqual(createHash('sha1').update(fs.readFileSync(at)).digest('hex'), e.hash, `${e.path} is what the state says`);
    assert.strictEqual(frontMatter(at).id, id);
  }
}

/** Every document of the sandbox has exactly one file in `root` (outside _deleted/), with no "Name (id)" duplicate. */
function assertComplete(root: string): void {
  const all = files(root).filter((f) => !f.startsWith('_deleted/'));
  assert.deepStrictEqual(all.filter((f) => / \(\d+\)\./.test(f)), [], 'no "Name (id)" duplicate');
  const ids = all.map((f) => Number(frontMatter(path.join(root, f)).id)).sort((a, b) => a - b);
  assert.deepStrictEqual(ids, [...box.documents.keys()].sort((a, b) => a - b), 'each document once');
  assert.ok(!fs.existsSync(path.join(root, '_deleted')), 'nothing moved to _deleted');
}

/**
 * A run whose second list request meets `fault`, then (if it did not complete) a rerun without it: the outcome of
 * each, the state checked true after the first.
 */
async function faultThenRerun(fault: Parameters<Sandbox['setFault']>[1]): Promise<{ first: BackupOutcome | undefined; rerun?: BackupOutcome; dir: string; ms: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-backup-'));
  let armed = false;
  box.onRequest((r) => {
    if (!armed && r.path === '/api/v1/documents' && r.query.page === '1' && r.query.sort === 'asc') {
      armed = true;
      box.setFault('documents.list', fault);
    }
  });
  const t0 = Date.now();
  try {
    const first = await backup(dir);
    const ms = Date.now() - t0;
    box.onRequest(undefined);
    box.clearFaults();
    assertStateTrue(dir);
    if (!first?.error) return { first, dir, ms };
    const rerun = await backup(dir);
    return { first, rerun, dir, ms };
  } finally {
    box.onRequest(undefined);
    box.clearFaults();
  }
}

function backup(folder: string, extra: Record<string, unknown> = {}): Thenable<BackupOutcome | undefined> {
  return vscode.commands.executeCommand<BackupOutcome | undefined>('contentDocs.backupAccount', { folder, ...extra });
}

/** Answers VS Code's folder picker (the API object is the extension's own) with `pick`, recording what it was asked; returns the undo. */
function answerFolderPicker(asked: vscode.OpenDialogOptions[], pick: () => vscode.Uri | undefined): () => void {
  const w = vscode.window as unknown as { showOpenDialog: typeof vscode.window.showOpenDialog };
  const original = w.showOpenDialog;
  w.showOpenDialog = (o) => {
    asked.push(o ?? {});
    const picked = pick();
    return Promise.resolve(picked ? [picked] : undefined);
  };
  return () => {
    w.showOpenDialog = original;
  };
}

/** Records the commands the extension runs whose id is in `ids`, without running them; returns the undo. */
function recordCommands(ids: readonly string[], calls: Array<{ id: string; args: unknown[] }>): () => void {
  const c = vscode.commands as unknown as { executeCommand: (id: string, ...args: unknown[]) => Thenable<unknown> };
  const original = c.executeCommand;
  c.executeCommand = (id: string, ...args: unknown[]) => {
    if (!ids.includes(id)) return original.call(vscode.commands, id, ...args);
    calls.push({ id, args });
    return Promise.resolve(undefined);
  };
  return () => {
    c.executeCommand = original;
  };
}

describe('Back Up Account to Folder', function () {
  this.timeout(120_000);

  before(async () => {
    box = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    for (let id = 1; id <= COUNT; id++) putDocument(box, id, `Doc ${id}`, id % 2 ? 1 : 9, id % 5 === 0 ? { result: HTML } : {});
    suite = await startAccountSuite(box);
    s = suite.s;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-backup-'));
  });

  after(async () => {
    box.onRequest(undefined);
    s.prompter.current = suite.previousPrompter ?? s.prompter.vscode;
    await box.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('250 documents: 3 list requests of 100 and 250 files <Template>/<Name>.md|.html with their front matter', async () => {
    box.resetRequests();
    const out = await backup(dir);
    assert.ok(out?.report, `the backup ran: ${JSON.stringify(out)}`);
    assert.strictEqual(out.error, undefined);
    assert.deepStrictEqual(listRequests(), [{ page: '1', perPage: '100' }, { page: '2', perPage: '100' }, { page: '3', perPage: '100' }]);
    assert.strictEqual(out.report.new, COUNT);
    const all = files(dir);
    assert.strictEqual(all.length, COUNT);
    assert.strictEqual(all.filter((f) => f.endsWith('.html')).length, COUNT / 5);
    const md = frontMatter(path.join(dir, 'Freestyle', 'Doc 1.md'));
    assert.deepStrictEqual(
      { id: md.id, name: md.name, favorite: md.favorite, words: md.words, format: md.format, server: md.server },
      { id: '1', name: '"Doc 1"', favorite: 'false', words: '4', format: 'markdown', server: JSON.stringify(box.docsUrl) },
    );
    assert.match(md.created, /^"2026-06-01T10:00:00/);
    assert.match(md.account, new RegExp(new URL(box.docsUrl).host.replace(/\./g, '\\.')));
    const htmlFile = path.join(dir, 'Blog post', 'Doc 10.html');
    assert.strictEqual(frontMatter(htmlFile).format, 'html');
    assert.ok(fs.readFileSync(htmlFile, 'utf8').includes('\n  id: 9\n  name: "Blog post"\n'), 'template id and name');
    assert.ok(fs.readFileSync(htmlFile, 'utf8').endsWith(`---\n${HTML}\n`), 'the stored markup, every tag kept');
  });

  it('run again from the palette while a file of the backup is open, the folder picker opens at the account\'s last backup folder, not beside the open file', async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'Freestyle', 'Doc 1.md')), { preview: false });
    const asked: vscode.OpenDialogOptions[] = [];
    const undo = answerFolderPicker(asked, () => undefined);
    try {
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.backupAccount'), undefined, 'Escape in the picker does nothing');
    } finally {
      undo();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
    assert.strictEqual(asked.length, 1, 'the picker was shown once');
    assert.strictEqual(asked[0].defaultUri?.fsPath, dir, `it opens at the last backup folder: ${asked[0].defaultUri?.fsPath}`);
    assert.ok((asked[0].title ?? '').includes(`last backed up to ${dir}`), `the title says where the last backup went: ${asked[0].title}`);
  });

  it('a folder inside this account\'s backup: asks first; Cancel writes nothing, and "Back Up to That Folder" brings that backup up to date', async () => {
    const inside = path.join(dir, 'Freestyle');
    const before = files(dir);
    suite.prompter.reset();
    suite.prompter.choices = [undefined];
    assert.strictEqual(await backup(inside), undefined, 'cancelled at the question');
    assert.deepStrictEqual(files(dir), before, 'nothing written inside the backup');
    const q = suite.prompter.asked.at(-1);
    assert.ok(q, 'a question was asked');
    assert.match(q.message ?? '', /is inside the backup of .* in /, `it says the folder is inside the backup: ${q.message}`);
    assert.match(q.message ?? '', /second copy/, `and what backing up there would do: ${q.message}`);
    assert.deepStrictEqual(q.items, ['Back Up to That Folder', 'Back Up Here Anyway']);
    suite.prompter.choices = ['Back Up to That Folder'];
    box.resetRequests();
    const out = await backup(inside);
    assert.strictEqual(out?.folder, dir, `backed up to the backup's own folder: ${JSON.stringify(out)}`);
    assert.deepStrictEqual([out.report?.new, out.report?.unchanged], [0, COUNT]);
    assert.deepStrictEqual(files(dir), before, 'no second copy inside the first');
  });

  it('the end message offers to open the folder: Open in New Window opens it, Add to Workspace adds it', async () => {
    const messages = new MessageCapture().install();
    messages.autoDismiss = false;
    const calls: Array<{ id: string; args: unknown[] }> = [];
    const undo = recordCommands(['vscode.openFolder'], calls);
    try {
      await backup(dir);
      const done = await messages.waitFor('the end message', (m) => /^Backed up /.test(m.message));
      assert.deepStrictEqual(done.items, ['Open in New Window', 'Add to Workspace']);
      done.choose('Open in New Window');
      await until('the folder opened', () => calls.length > 0);
    } finally {
      undo();
      messages.dispose();
    }
    const [{ args }] = calls;
    assert.strictEqual((args[0] as vscode.Uri).fsPath, dir);
    assert.deepStrictEqual(args[1], { forceNewWindow: true });
  });

  it('a document changed on the server: the next run rewrites exactly its file, "1 changed"', async () => {
    const before = new Map(files(dir).map((f) => [f, fs.statSync(path.join(dir, f)).ino]));
    const d = box.documents.get(42)!;
    box.documents.set(42, { ...d, result: 'Changed on the web', updatedAt: new Date('2026-06-02T10:00:00Z') });
    box.resetRequests();
    const out = await backup(dir);
    assert.deepStrictEqual([out?.report?.new, out?.report?.changed, out?.report?.deleted, out?.report?.unchanged], [0, 1, 0, COUNT - 1]);
    assert.strictEqual(listRequests().length, 3);
    const rewritten = files(dir).filter((f) => fs.statSync(path.join(dir, f)).ino !== before.get(f));
    assert.deepStrictEqual(rewritten, ['Blog post/Doc 42.md']);
    assert.ok(fs.readFileSync(path.join(dir, 'Blog post', 'Doc 42.md'), 'utf8').endsWith('---\nChanged on the web\n'));
  });

  it('a document deleted on the server: confirmed by a 404, "1 deleted", its file moved to _deleted/', async () => {
    box.documents.delete(7);
    box.resetRequests();
    const out = await backup(dir);
    assert.deepStrictEqual([out?.report?.changed, out?.report?.deleted, out?.report?.unchanged], [0, 1, COUNT - 1]);
    assert.ok(box.requests.some((r) => r.method === 'GET' && r.path === '/api/v1/documents/7' && r.status === 404), 'asked for by id: 404');
    assert.ok(!fs.existsSync(path.join(dir, 'Freestyle', 'Doc 7.md')));
    assert.strictEqual(frontMatter(path.join(dir, '_deleted', 'Freestyle', 'Doc 7.md')).id, '7');
  });

  it('a file edited in the folder whose document changed on the server is kept beside it; a folder put in place of a file stays as it is', async () => {
    const edited = path.join(dir, 'Freestyle', 'Doc 11.md');
    const mine = `${fs.readFileSync(edited, 'utf8')}My notes, added in the folder.\n`;
    fs.writeFileSync(edited, mine);
    const replaced = path.join(dir, 'Freestyle', 'Doc 13.md');
    fs.rmSync(replaced);
    fs.mkdirSync(replaced);
    fs.writeFileSync(path.join(replaced, 'inside.txt'), 'my own file');
    for (const id of [11, 13]) box.documents.set(id, { ...box.documents.get(id)!, result: `Changed on the web (${id})`, updatedAt: new Date('2026-06-03T10:00:00Z') });
    const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const days = [day(new Date())];
    const out = await backup(dir);
    days.push(day(new Date()));
    assert.strictEqual(out?.error, undefined, JSON.stringify(out?.error));
    assert.ok(fs.existsSync(path.join(replaced, 'inside.txt')), 'the folder and what it holds are still there');
    assert.strictEqual(fs.readFileSync(path.join(replaced, 'inside.txt'), 'utf8'), 'my own file');
    assert.deepStrictEqual([out?.report?.changed, out?.report?.kept], [2, 1]);
    const kept = out?.report?.keptAs[0] ?? '';
    assert.ok(days.some((d) => kept === `Freestyle/Doc 11 (edited locally ${d}).md`), kept);
    assert.strictEqual(fs.readFileSync(path.join(dir, ...kept.split('/')), 'utf8'), mine);
    assert.ok(fs.readFileSync(edited, 'utf8').endsWith('---\nChanged on the web (11)\n'));
    assert.ok(fs.readFileSync(path.join(dir, 'Freestyle', 'Doc 13 (13).md'), 'utf8').endsWith('---\nChanged on the web (13)\n'));
    assertStateTrue(dir);
  });

  it('cancelled half-way, then run again: completes with no duplicate', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-backup-'));
    try {
      const cancel = new vscode.CancellationTokenSource();
      // Each page is asked for as soon as the one before comes, while that one's files are written: page 3 is asked for
      // once page 2 came, which the run reads only after handing page 1's files to its writers. Cancelled then: page 1
      // is written (the writes under way end first), the run stops before page 3.
      box.onRequest((r) => {
        if (r.path === '/api/v1/documents' && r.query.page === '3' && r.query.sort === 'asc') cancel.cancel();
      });
      const first = await backup(fresh, { token: cancel.token });
      box.onRequest(undefined);
      assert.strictEqual(first?.report?.cancelled, true, JSON.stringify(first));
      const part = files(fresh).length;
      assert.ok(part >= 100 && part < COUNT - 1, `a part written (${part})`);
      const rest = await backup(fresh);
      assert.strictEqual(rest?.report?.cancelled, false);
      assert.strictEqual((rest.report.new ?? 0) + part, COUNT - 1, `new ${rest.report.new} after ${part}`);
      const all = files(fresh);
      assert.strictEqual(all.length, COUNT - 1);
      assert.deepStrictEqual(all.filter((f) => / \(\d+\)\./.test(f)), [], 'no "Name (id)" duplicate');
      assert.strictEqual(new Set(all.map((f) => frontMatter(path.join(fresh, f)).id)).size, COUNT - 1, 'each document once');
    } finally {
      box.onRequest(undefined);
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('a server error (HTTP 500) on the second page: stops with a message that says so, the state true; the rerun completes with no duplicate', async () => {
    const { first, rerun, dir } = await faultThenRerun({ kind: 'status500', count: 1 });
    try {
      assert.strictEqual(first?.error?.kind, 'server', JSON.stringify(first));
      assert.match(first.error.message, /HTTP 500.*No file was left half-written\..*Run Back Up Account to Folder… again to go on from there\./);
      assert.strictEqual(first.report?.new, 100, 'the first page written');
      assert.strictEqual(rerun?.error, undefined, JSON.stringify(rerun));
      assert.deepStrictEqual([rerun?.report?.new, rerun?.report?.unchanged], [box.documents.size - 100, 100]);
      assertComplete(dir);
      assertStateTrue(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a timeout on the second page: stops with a message that says so, the state true; the rerun completes with no duplicate', async () => {
    await configure('network.timeoutSeconds', 5);
    try {
      const { first, rerun, dir } = await faultThenRerun({ kind: 'hang', count: 1 });
      try {
        assert.strictEqual(first?.error?.kind, 'server', JSON.stringify(first));
        assert.match(first.error.message, /did not answer within 5 seconds/);
        assert.strictEqual(rerun?.error, undefined, JSON.stringify(rerun));
        assertComplete(dir);
        assertStateTrue(dir);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      await configure('network.timeoutSeconds', undefined);
    }
  });

  it('too many requests (HTTP 429) with a short Retry-After on the second page: waited out, the run completes at once', async () => {
    box.resetRequests();
    const { first, rerun, dir } = await faultThenRerun({ kind: 'rateLimit', count: 1, retryAfter: 1 });
    try {
      assert.strictEqual(first?.error, undefined, JSON.stringify(first));
      assert.strictEqual(rerun, undefined);
      assert.strictEqual(first?.report?.new, box.documents.size);
      assert.deepStrictEqual(listRequests().map((r) => r.page), ['1', '2', '2', '3'], 'page 2 asked again after its 429');
      assertComplete(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('too many requests (HTTP 429) asking to wait longer than a click waits (15 s): the backup waits it out and completes in one run', async () => {
    box.resetRequests();
    const { first, rerun, dir, ms } = await faultThenRerun({ kind: 'rateLimit', count: 1, retryAfter: 15 });
    try {
      assert.strictEqual(first?.error, undefined, `no error: ${JSON.stringify(first?.error)}`);
      assert.strictEqual(rerun, undefined);
      assert.ok(ms >= 14_000, `it waited the time the server asked (${ms} ms)`);
      assert.deepStrictEqual(listRequests().map((r) => r.page), ['1', '2', '2', '3']);
      assertComplete(dir);
      assertStateTrue(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an added account removed while it is backed up: the message says the account was removed and that what was written is kept, never to run the backup again', async () => {
    const added = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty', key: 'added-account-key-0123456789' });
    // Three pages of 100: the third is asked for after the account is gone.
    for (let id = 1; id <= 250; id++) putDocument(added, id, `Added ${id}`, 1);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-backup-'));
    let open = () => undefined as void;
    const gate = new Promise<void>((r) => (open = r));
    let onItsWay = false;
    try {
      suite.prompter.reset();
      suite.prompter.inputs = [added.docsUrl, added.seoUrl, added.key];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true, `Add Account… failed: ${JSON.stringify(suite.prompter.checked)}`);
      const label = s.registry.added().at(-1)?.label;
      assert.ok(label, 'the added account has a label');
      // A slow server: the second page of the list is on its way when the account is removed (Remove Account…).
      added.onRequest(async (r) => {
        if (r.route === 'documents.list' && r.query.page === '2') {
          onItsWay = true;
          await gate;
        }
      });
      const messages = new MessageCapture().install();
      let out: BackupOutcome | undefined;
      try {
        const running = Promise.resolve(backup(folder, { account: label }));
        await until('the second page on its way', () => onItsWay, 20_000);
        suite.prompter.confirms = [true];
        assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountRemove', label), true, 'the account is removed');
        open();
        out = await running;
      } finally {
        open();
        messages.dispose();
      }
      assert.ok(out?.error, `the backup stopped with an error: ${JSON.stringify(out)}`);
      const shown = messages.shown.filter((m) => m.level === 'error').map((m) => m.message);
      for (const message of [out.error.message, ...shown]) {
        assert.doesNotMatch(message, /Run Back Up Account to Folder… again/, `the account is gone: running the backup again cannot go on from there: ${message}`);
      }
      assert.match(out.error.message, /removed/, 'it says the account was removed');
      assert.match(out.error.message, /kept/, 'and that what was written is kept');
      const written = files(folder);
      assert.ok(written.length > 0 && written.length === out.report?.new, `the files written before are there (${written.length}, report: ${JSON.stringify(out.report)})`);
    } finally {
      added.onRequest(undefined);
      open();
      for (const a of s.registry.added()) await s.registry.remove(a);
      await added.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("refuses a folder holding another account's backup, before any list request", async () => {
    const other = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    putDocument(other, 1, 'Doc 1', 1, { result: 'Another account' });
    const before = files(dir);
    try {
      await useSandbox(s, other);
      other.resetRequests();
      const out = await backup(dir);
      assert.strictEqual(out?.error?.kind, 'otherAccount', JSON.stringify(out));
      assert.match(out.error.message, /another account/);
      assert.deepStrictEqual(other.requests.filter((r) => r.path === '/api/v1/documents'), []);
      assert.deepStrictEqual(files(dir), before);
      assert.ok(fs.readFileSync(path.join(dir, 'Freestyle', 'Doc 1.md'), 'utf8').includes('Text of Doc 1'), 'nothing overwritten');
    } finally {
      await useSandbox(s, box);
      await other.close();
    }
  });
});
