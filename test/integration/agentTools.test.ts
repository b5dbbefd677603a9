/**
 * The language-model tools inside a real VS Code against the sandbox, run as a chat runs them but with no model:
 * vscode.lm.invokeTool. Every tool's answer, the requests the sandbox saw, the confirmations prepareInvocation
 * returns (in test mode VS Code accepts every confirmation itself, so the test reads them from the tool), a bad input
 * answered with no request, a server error in the UI's words, signed out, turned off, and two accounts.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { testServices, type TestServices } from '../kit/services';
import { startSandbox, type RequestRecord, type Sandbox } from '../sandbox/server';
import { startTwoAccounts } from './twoAccountsKit';
import { STATE } from '../../src/constants';
import { besidesTheWindow, EXTENSION_ID, closeAll, configure, openDocument, replaceAll, sandboxDocument, sleep, useSandbox } from './reliabilityKit';

const NAMES = [
  'contentDocs_search_documents',
  'contentDocs_read_document',
  'contentDocs_list_templates',
  'contentDocs_create_document',
  'contentDocs_update_document',
  'contentDocs_delete_document',
  'contentDocs_delete_project',
  'contentDocs_get_plan_usage',
  'contentDocs_list_projects',
  'contentDocs_backup_account',
];

const ID = 9001;

/** An input each tool takes. */
const VALID: Record<string, object> = {
  contentDocs_search_documents: { query: 'coffee' },
  contentDocs_read_document: { id: 9001 },
  contentDocs_list_templates: {},
  contentDocs_create_document: { name: 'N', prompt: 'P' },
  contentDocs_update_document: { id: 9001, updated_at: '2026-01-01T00:00:00.000000Z', favorite: true },
  contentDocs_delete_document: { id: 9001 },
  contentDocs_delete_project: { project: 'P' },
  contentDocs_get_plan_usage: {},
  contentDocs_list_projects: {},
  contentDocs_backup_account: { folder: path.join(os.tmpdir(), 'content-docs-tool-backup-never-written') },
};
const HTML_ID = 9002;

let sandbox: Sandbox;
let s: TestServices;
let api: TestApi;

/** What the tool answered: its text parts joined (a tool answers text only: no data part, which chat shows as "file.bin"). */
async function run(name: string, input: object): Promise<{ text: string; parts: number }> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  let text = '';
  for (const part of result.content) if (part instanceof vscode.LanguageModelTextPart) text += part.value;
  return { text, parts: result.content.length };
}

/** The updated_at of the document line in a tool's answer (`… · updated_at <time>`), which an update must quote. */
function updatedAtOf(answer: { text: string }): string {
  const m = /updated_at (\S+)/.exec(answer.text);
  assert.ok(m, `an updated_at in ${JSON.stringify(answer.text)}`);
  return m[1];
}

/** What prepareInvocation returns for an input: the confirmation's title and message as text. */
async function confirmation(name: string, input: object): Promise<{ title?: string; message?: string; invocation?: string }> {
  const tool = api.tools.get(name);
  assert.ok(tool?.prepareInvocation !== undefined, `${name} has a prepareInvocation`);
  const token = new vscode.CancellationTokenSource().token;
  const p = await tool.prepareInvocation({ input }, token);
  const m = p?.confirmationMessages?.message;
  const inv = p?.invocationMessage;
  return {
    title: p?.confirmationMessages?.title,
    message: typeof m === 'string' ? m : m?.value,
    // A string up to VS Code 1.105, a string or a MarkdownString since.
    invocation: typeof inv === 'string' ? inv : (inv as vscode.MarkdownString | undefined)?.value,
  };
}

/** `Account: <name @ host>` (the host alone while the user's name is not known yet) at the start of an answer. */
function accountLine(host: string): RegExp {
  // "name @ host", or the host alone; with " · label" after it while another account reads alike.
  return new RegExp(`^Account: (.+ @ )?${host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( · [a-z0-9]+)?\n`);
}

/**
 * The API requests the sandbox answered, but the account's: the status bar reads the plan usage by itself once the
 * extension talked to the server and after a document is created (the plan usage tool's own are counted apart).
 */
function apiRequests(box: Sandbox = sandbox): RequestRecord[] {
  return box.requests.filter((r) => r.route !== undefined && r.route !== 'account');
}

function routes(box: Sandbox = sandbox): string[] {
  return apiRequests(box).map((r) => r.route!);
}

describe('language-model tools (vscode.lm.invokeTool against the sandbox)', function () {
  this.timeout(60_000);

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TestApi;
    s = testServices(api.services);
    await useSandbox(s, sandbox);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  after(async () => {
    await configure('agents.enabled', undefined);
    await sandbox.close();
  });

  beforeEach(async () => {
    sandbox.clearFaults();
    sandbox.documents.set(ID, sandboxDocument(ID, 'Coffee grinder guide', 'How to grind coffee for a French press.'));
    sandbox.documents.set(HTML_ID, sandboxDocument(HTML_ID, 'Coffee newsletter', '<p>Our <strong>new</strong> beans&nbsp;are here.</p>'));
    s.documents.forgetAll();
    await sleep(50);
    sandbox.resetRequests();
  });

  it('vscode.lm.tools lists all ten with their input schemas', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('contentDocs_'));
    assert.deepStrictEqual(ours.map((t) => t.name).sort(), [...NAMES].sort());
    for (const t of ours) {
      assert.ok(t.description.length > 40, `${t.name} has a description for a model`);
      assert.strictEqual((t.inputSchema as { type?: string } | undefined)?.type, 'object', `${t.name} has an input schema`);
    }
    const update = ours.find((t) => t.name === 'contentDocs_update_document')!;
    assert.deepStrictEqual((update.inputSchema as { required: string[] }).required, ['id', 'updated_at']);
    const backup = ours.find((t) => t.name === 'contentDocs_backup_account')!;
    assert.deepStrictEqual((backup.inputSchema as { required: string[] }).required, ['folder']);
  });

  it('search: one list request of the page that holds `limit` rows; ids, names, templates, dates and excerpts; the account named', async () => {
    const { text, parts } = await run('contentDocs_search_documents', { query: 'coffee', limit: 2 });
    assert.strictEqual(parts, 1, 'one text part');
    const lists = apiRequests().filter((r) => r.route === 'documents.list');
    assert.deepStrictEqual(routes(), ['documents.list'], text);
    assert.strictEqual(lists[0].query.per_page, '10');
    assert.strictEqual(lists[0].query.search, 'coffee');
    assert.match(text, /^Account: /);
    assert.match(text, new RegExp(`#${HTML_ID} "Coffee newsletter" — Freestyle · 2 words · created \\S+ · updated_at \\S+`));
    assert.match(text, /Our new beans are here\./, 'the excerpt of an HTML text is its words');
    assert.match(text, /#9001 "Coffee grinder guide"/);
    assert.deepStrictEqual([...text.matchAll(/^- #(\d+) /gm)].map((m) => Number(m[1])), [HTML_ID, ID]);
    assert.match(text, new RegExp(`^- #${HTML_ID} .* · HTML$`, 'm'), 'the HTML document\'s row says so');
    assert.doesNotMatch(text, new RegExp(`^- #${ID} .* · HTML$`, 'm'));
  });

  it('search: a template by name and favorites only go to the server as its filters', async () => {
    await run('contentDocs_search_documents', { template: 'blog post', favoritesOnly: true, sort: 'nameAsc', limit: 30 });
    const q = apiRequests()[0].query;
    assert.deepStrictEqual([q.template_id, q.favorite, q.sort_by, q.sort, q.per_page], ['9', '1', 'name', 'asc', '50']);
  });

  it('read: one GET; name, template, words, dates and the text, saying whether it is HTML or plain text', async () => {
    const plain = await run('contentDocs_read_document', { id: ID });
    assert.deepStrictEqual(routes(), ['documents.show']);
    assert.match(plain.text, /Its text is plain text:\n\nHow to grind coffee for a French press\.$/);
    const html = await run('contentDocs_read_document', { id: HTML_ID });
    assert.match(html.text, /Its text is HTML \(edited in the web app\):\n\n<p>Our <strong>new<\/strong>/);
    assert.strictEqual(routes().length, 2);
  });

  it('templates: the 52 with no request', async () => {
    const { text } = await run('contentDocs_list_templates', {});
    assert.strictEqual(routes().length, 0);
    assert.match(text, /52 built in/);
    assert.match(text, /41: Product sheet/);
    assert.strictEqual([...text.matchAll(/(?:^|; )(\d+): /gm)].length >= 52, true, 'every built-in template by id');
  });

  it('create: the confirmation names the account, the template and the quota; one store request', async () => {
    await s.account.get();
    sandbox.resetRequests();
    const input = { name: 'Grinder sheet', prompt: 'A product sheet for our new grinder', template: 41, creativity: 0.75 };
    const c = await confirmation('contentDocs_create_document', input);
    assert.strictEqual(routes().length, 0, 'the confirmation sends nothing');
    assert.match(c.message!, /Create the document "Grinder sheet" in \*\*.+\*\* with the template Product sheet \(creativity 0\.75\)/);
    assert.match(c.message!, /counts toward the plan's monthly quota: one document and the words the service writes \(used this month: documents [\d,]+ of [\d,]+ \(\d+ %\) and words /);
    const { text } = await run('contentDocs_create_document', input);
    assert.deepStrictEqual(routes(), ['documents.store']);
    const body = apiRequests()[0].body!;
    assert.deepStrictEqual([body.name, body.template_id, body.creativity], ['Grinder sheet', '41', '0.75']);
    assert.match(text, /^Created\.\nAccount: .+\nDocument #\d+ "Grinder sheet" — Product sheet/);
  });

  it('update: the confirmation shows what changes; right after a read, one PATCH and no second read', async () => {
    const read = await run('contentDocs_read_document', { id: ID });
    const updatedAt = updatedAtOf(read);
    const input = { id: ID, updated_at: updatedAt, name: 'Grinder guide', favorite: true };
    const c = await confirmation('contentDocs_update_document', input);
    assert.match(c.message!, /Change "Coffee grinder guide" \(#9001\) in \*\*.+\*\*:\n\n- Rename "Coffee grinder guide" to "Grinder guide"\n- Add it to favorites/);
    sandbox.resetRequests();
    const { text } = await run('contentDocs_update_document', input);
    assert.deepStrictEqual(routes(), ['documents.update'], text);
    assert.deepStrictEqual(apiRequests()[0].body, { name: 'Grinder guide', favorite: '1' });
    assert.match(text, /^Changed: Rename "Coffee grinder guide" to "Grinder guide"; Add it to favorites\./);
    assert.strictEqual(sandbox.documents.get(ID)!.name, 'Grinder guide');
  });

  it('update: refused with no request when the services already know a newer version than the one read', async () => {
    const read = await run('contentDocs_read_document', { id: ID });
    const updatedAt = updatedAtOf(read);
    // Someone changes it on the server; a list (the view, another search) brings the newer copy.
    const doc = sandbox.documents.get(ID)!;
    sandbox.documents.set(ID, { ...doc, result: 'Changed in the web app.', updatedAt: new Date(doc.updatedAt.getTime() + 5_000) });
    await run('contentDocs_search_documents', { query: 'grinder' });
    sandbox.resetRequests();
    const { text } = await run('contentDocs_update_document', { id: ID, updated_at: updatedAt, result: 'My text.' });
    assert.deepStrictEqual(routes(), [], 'nothing sent');
    assert.match(text, /Couldn't change "Coffee grinder guide" in .+: it changed since you read it .* so nothing was changed\. Read it again with contentRead/);
    assert.strictEqual(sandbox.documents.get(ID)!.result, 'Changed in the web app.');
  });

  it('update: a read not recent is checked with one GET first, as a save is; a change since, even within the same second, is refused', async () => {
    const read = await run('contentDocs_read_document', { id: ID });
    const updatedAt = updatedAtOf(read);
    // Changed on the server within the same second (updated_at unchanged), seen by nobody here.
    sandbox.documents.set(ID, { ...sandbox.documents.get(ID)!, result: 'Changed in the same second.' });
    await sleep(2_200);
    sandbox.resetRequests();
    const { text } = await run('contentDocs_update_document', { id: ID, updated_at: updatedAt, favorite: true });
    assert.deepStrictEqual(routes(), ['documents.show'], text);
    assert.match(text, /it changed since you read it/);
    // Unchanged since the read: one GET, then the PATCH.
    const again = await run('contentDocs_read_document', { id: ID });
    await sleep(2_200);
    sandbox.resetRequests();
    const ok = await run('contentDocs_update_document', { id: ID, updated_at: updatedAtOf(again), favorite: true });
    assert.deepStrictEqual(routes(), ['documents.show', 'documents.update'], ok.text);
  });

  it('delete: the confirmation names the document (known: no request); one DELETE', async () => {
    await run('contentDocs_read_document', { id: ID });
    sandbox.resetRequests();
    const c = await confirmation('contentDocs_delete_document', { id: ID });
    assert.strictEqual(routes().length, 0);
    assert.match(c.message!, /^Delete "Coffee grinder guide" \(#9001, Freestyle\) from \*\*.+\*\*\? This cannot be undone\.$/);
    const { text } = await run('contentDocs_delete_document', { id: ID });
    assert.deepStrictEqual(routes(), ['documents.delete']);
    assert.match(text, /^Deleted "Coffee grinder guide" \(#9001\) from /);
    assert.ok(!sandbox.documents.has(ID));
  });

  it('delete: a document never read is read once to be named in the confirmation', async () => {
    const c = await confirmation('contentDocs_delete_document', { id: HTML_ID });
    assert.deepStrictEqual(routes(), ['documents.show']);
    assert.match(c.message!, /^Delete "Coffee newsletter" \(#9002, Freestyle\)/);
  });

  it('update and delete of a document with unsaved edits in an editor: the editor keeps the user\'s text, dirty', async () => {
    // Edits stay unsaved (code-server saves after a delay by default).
    const files = vscode.workspace.getConfiguration('files');
    const autoSave = files.inspect<string>('autoSave')?.globalValue;
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const editor = await openDocument(ID);
    const typed = 'My unsaved text.';
    await replaceAll(editor, typed);
    try {
      const read = await run('contentDocs_read_document', { id: ID });
      const updatedAt = updatedAtOf(read);
      const upd = await run('contentDocs_update_document', { id: ID, updated_at: updatedAt, result: 'The agent\'s text.' });
      await sleep(500);
      assert.strictEqual(editor.document.getText(), typed, `after the update (${upd.text})`);
      assert.strictEqual(sandbox.documents.get(ID)!.result, "The agent's text.", upd.text);
      assert.strictEqual(editor.document.isDirty, true);
      const del = await run('contentDocs_delete_document', { id: ID });
      await sleep(500);
      assert.strictEqual(editor.document.getText(), typed, `after the delete (${del.text})`);
      assert.strictEqual(editor.document.isDirty, true);
      assert.ok(!sandbox.documents.has(ID), del.text);
      assert.ok(vscode.workspace.textDocuments.includes(editor.document), 'the tab is still open');
    } finally {
      await closeAll();
      await files.update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
    }
  });

  it('projects: one list request; each project with its reports and average score words as the Projects view says them', async () => {
    const { text } = await run('contentDocs_list_projects', { limit: 5 });
    assert.deepStrictEqual(routes(), ['projects.list']);
    assert.strictEqual(apiRequests()[0].query.per_page, '10');
    // `- "name" — N reports · average score X of 100 (Word)` or `· no score`
    const rows = [...text.matchAll(/^- ("(?:[^"\\]|\\.)*") — (\d+) reports? · (?:average score ([\d.]+) of 100 \((\w+)\)|no score)/gm)].map((m) => ({
      project: JSON.parse(m[1]) as string,
      reports: Number(m[2]),
      average_score: m[3] === undefined ? undefined : Number(m[3]),
      score: m[4],
    }));
    assert.strictEqual(rows.length, 5);
    for (const p of rows) {
      if (p.average_score === undefined) continue;
      assert.strictEqual(p.score, p.average_score > 79 ? 'Good' : p.average_score > 49 ? 'Decent' : 'Bad');
      assert.ok(text.includes(`"${p.project}" — ${p.reports} report`));
    }
  });

  it('delete project: the confirmation names the project; one DELETE on the projects server', async () => {
    const name = sandbox.reports[0].project;
    const c = await confirmation('contentDocs_delete_project', { project: name });
    assert.strictEqual(routes().length, 0);
    assert.match(c.message!, new RegExp(`^Delete the project "${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" and .+ from \\*\\*.+\\*\\*\\? This cannot be undone\\.$`));
    const { text } = await run('contentDocs_delete_project', { project: name });
    assert.deepStrictEqual(routes(), ['projects.delete']);
    assert.match(text, /^Deleted the project /);
  });

  it('plan usage: the figures already read, else one request', async () => {
    const { text } = await run('contentDocs_get_plan_usage', {});
    assert.ok(sandbox.requests.filter((r) => r.route === 'account').length <= 1);
    assert.match(text, /^Account: .+\nPlan usage:\n- Words this month: [\d,]+ of [\d,]+ \(\d+ %\)\n- Documents this month: /);
    assert.strictEqual(routes().length, 0);
    const cached = s.account.cached;
    assert.ok(cached, 'the figures are read');
    sandbox.resetRequests();
    const again = await run('contentDocs_get_plan_usage', {});
    assert.strictEqual(sandbox.requests.filter((r) => r.route === 'account').length, 0, 'the second answer uses what was read');
    assert.strictEqual(again.text, text);
  });

  it('backup: the confirmation names the account and the folder, says it writes files there and deletes nothing (_deleted/); list pages of 100; the counts and the folder in the answer', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-tool-backup-'));
    try {
      const c = await confirmation('contentDocs_backup_account', { folder: dir });
      assert.strictEqual(routes().length, 0, 'the confirmation sends nothing');
      assert.strictEqual(c.title, 'Back up an account to a folder with Content Docs?');
      assert.ok(c.message!.startsWith(`Back up every document of **${s.first.displayName}** to the folder \`${dir}\`?`), c.message);
      assert.match(c.message!, /It writes one file per document there/);
      assert.match(c.message!, /It deletes nothing: the files of documents deleted on the server move to `_deleted\/`/);
      assert.deepStrictEqual(fs.readdirSync(dir), [], 'nothing written before the run');

      const total = sandbox.documents.size;
      // The account as the run starts names it: a window's first answer may teach the account's name during the run.
      const account = s.first.displayName;
      const first = await run('contentDocs_backup_account', { folder: dir });
      const lists = apiRequests().filter((r) => r.route === 'documents.list');
      assert.strictEqual(lists.length, Math.ceil(total / 100), first.text);
      assert.ok(lists.every((r) => r.query.per_page === '100' && r.query.sort_by === 'id' && r.query.sort === 'asc'));
      assert.strictEqual(first.parts, 1);
      assert.strictEqual(
        first.text,
        `Account: ${account}\nFolder: ${dir}\nBacked up: ${total} new, 0 changed, 0 deleted, and 0 unchanged (${total} documents, ${lists.length} requests).`,
      );
      assert.ok(fs.existsSync(path.join(dir, 'Freestyle', 'Coffee grinder guide.md')));
      assert.ok(fs.existsSync(path.join(dir, 'Freestyle', 'Coffee newsletter.html')), 'the HTML document as .html');

      // One changed, one deleted on the server: the rerun says so, and the deleted one's file moves to _deleted/.
      sandbox.documents.set(ID, { ...sandbox.documents.get(ID)!, result: 'Ground finer now.', updatedAt: new Date(Date.now() + 5_000) });
      sandbox.documents.delete(HTML_ID);
      const again = await run('contentDocs_backup_account', { folder: `file://${dir}` });
      assert.match(again.text, new RegExp(`^Account: .+\\nFolder: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\nBacked up: 0 new, 1 changed, 1 deleted \\(moved to _deleted\\), and ${total - 2} unchanged \\(${total - 1} documents, `), again.text);
      assert.ok(fs.existsSync(path.join(dir, '_deleted', 'Freestyle', 'Coffee newsletter.html')));
      assert.ok(fs.readFileSync(path.join(dir, 'Freestyle', 'Coffee grinder guide.md'), 'utf8').endsWith('---\nGround finer now.\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("backup: refuses another account's backup folder, a file, a relative path and a web address in words a model can act on; nothing written, no list request", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-tool-backup-'));
    try {
      const other = path.join(dir, 'other');
      fs.mkdirSync(path.join(other, '.content-docs-backup'), { recursive: true });
      const state = { format: 'content-docs-backup', version: 1, account: { id: 'https://writer.example.com user 4', server: 'https://writer.example.com', label: 'Ann @ writer.example.com' }, documents: {} };
      fs.writeFileSync(path.join(other, '.content-docs-backup', 'state.json'), JSON.stringify(state));
      const owned = await run('contentDocs_backup_account', { folder: other });
      assert.match(owned.text, /This folder holds the backup of another account \(Ann @ writer\.example\.com\)\. Choose an empty folder or this account's backup folder\. Nothing was written\.$/, owned.text);
      assert.deepStrictEqual(fs.readdirSync(other), ['.content-docs-backup']);

      const file = path.join(dir, 'notes.txt');
      fs.writeFileSync(file, 'mine');
      const notFolder = await run('contentDocs_backup_account', { folder: file });
      assert.match(notFolder.text, /: it is a file, not a folder\. Choose a folder .*Nothing was written\.$/, notFolder.text);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), 'mine');
      assert.deepStrictEqual(routes().filter((r) => r === 'documents.list'), []);

      for (const [folder, expected] of [
        ['backups/content', /`folder` must be the absolute path of a folder .* \(got "backups\/content", a relative path\)\. Nothing was sent/],
        ['https://example.com/backup', /a https: address, which is not a folder on the disk\)\. Nothing was sent/],
      ] as const) {
        const { text } = await run('contentDocs_backup_account', { folder });
        assert.match(text, expected);
        const c = await confirmation('contentDocs_backup_account', { folder });
        assert.strictEqual(c.message, undefined, 'nothing to confirm for a bad input');
      }
      assert.deepStrictEqual(routes().filter((r) => r === 'documents.list'), [], 'no list request for any of them');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad input: a clear message the model can act on, and no request', async () => {
    const cases: Array<[string, object, RegExp]> = [
      ['contentDocs_search_documents', { limit: 500 }, /`limit` must be 1–100 \(got 500\)/],
      ['contentDocs_search_documents', { q: 'coffee' }, /`q` is not an input of this tool; its inputs are `query`, /],
      ['contentDocs_search_documents', { sort: 'date' }, /`sort` must be one of newest, oldest, nameAsc, nameDesc/],
      ['contentDocs_search_documents', { template: 'Nonexistent template' }, /has no template named "Nonexistent template"/],
      ['contentDocs_read_document', {}, /`id` is required: it must be a document id/],
      ['contentDocs_read_document', { id: '12' }, /`id` must be a document id \(a whole number from 1\) \(got "12"\)/],
      ['contentDocs_create_document', { name: 'x'.repeat(129), prompt: 'p' }, /`name`: The name can be at most 128 characters \(this one has 129\)\./],
      ['contentDocs_create_document', { name: 'N', prompt: 'p', creativity: 0.3 }, /`creativity`: must be one of 0 \(Repetitive\), 0\.25/],
      ['contentDocs_create_document', { name: '  ', prompt: 'p' }, /`name`: The name cannot be empty\./],
      ['contentDocs_update_document', { id: ID, updated_at: 'yesterday' }, /Nothing to change: give at least one of `name`, `result` or `favorite`\..*`updated_at` must be/],
      ['contentDocs_delete_project', { project: 'a/b' }, /cannot address a project whose name contains "\/"/],
      ['contentDocs_get_plan_usage', { account: 'nobody@example.com' }, /There is no account named "nobody@example\.com"; the account is ".+"\. Nothing was sent\./],
    ];
    for (const [name, input, expected] of cases) {
      const { text } = await run(name, input);
      assert.match(text, expected, `${name} ${JSON.stringify(input)}`);
      assert.match(text, /Nothing was sent/);
      const c = await confirmation(name, input);
      assert.strictEqual(c.message, undefined, 'nothing to confirm for a bad input');
    }
    assert.deepStrictEqual(routes(), [], 'no request for any of them');
  });

  it("a server error: the UI's words", async () => {
    sandbox.setFault('documents.show', { kind: 'status500' });
    sandbox.setFault('documents.list', { kind: 'html200' });
    const read = await run('contentDocs_read_document', { id: ID });
    assert.match(read.text, /^Couldn't read document 9001 of .+: the server had a problem \(HTTP 500\)/);
    const search = await run('contentDocs_search_documents', { query: 'x' });
    assert.match(search.text, /^Couldn't search the documents of .+: /);
    assert.doesNotMatch(search.text, /<html/i);
    sandbox.clearFaults();
    sandbox.documents.delete(ID);
    const gone = await run('contentDocs_read_document', { id: ID });
    assert.match(gone.text, /^Couldn't read document 9001 of .+: it no longer exists on the server\.$/);
  });

  it('signed out: says to run Set API Key…, and sends nothing', async () => {
    await s.credentials.clearKey();
    try {
      sandbox.resetRequests();
      for (const name of NAMES) {
        const { text } = await run(name, VALID[name]);
        assert.match(text, /run "Content Docs: Set API Key…"/, name);
      }
      assert.deepStrictEqual(routes(), []);
    } finally {
      await useSandbox(s, sandbox);
    }
  });

  it('turned off (contentDocs.agents.enabled false): says so, and sends nothing', async () => {
    await configure('agents.enabled', false);
    try {
      const { text } = await run('contentDocs_search_documents', {});
      assert.match(text, /turned off \(the setting "contentDocs\.agents\.enabled"\)/);
      assert.deepStrictEqual(routes(), []);
    } finally {
      await configure('agents.enabled', undefined);
    }
  });
});

/**
 * One host in front of two installations, each under its own path (`http://127.0.0.1:<port>/a` and `…/b`), as a
 * company may serve two instances of the service: the two accounts have the same host.
 */
async function startPathProxy(targets: Record<string, string>): Promise<{ url(prefix: string): string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const m = /^\/([^/]+)(\/.*)?$/.exec(req.url ?? '');
    const target = m ? targets[m[1]] : undefined;
    if (!m || !target) {
      res.writeHead(404).end();
      return;
    }
    const out = http.request(`${target}${m[2] ?? '/'}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (prefix) => `${base}/${prefix}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('language-model tools with two accounts', function () {
  this.timeout(60_000);

  before(async () => {
    api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TestApi;
  });

  it('the answer names the account; `account` picks one; the same id on both servers is never mixed', async () => {
    const two = await startTwoAccounts({ id: 7001, name: 'Shared name' });
    try {
      await two.addB();
      const [a, b] = two.s.registry.all();
      two.a.resetRequests();
      two.b.resetRequests();
      const first = await run('contentDocs_read_document', { id: 7001 });
      assert.match(first.text, accountLine(new URL(two.a.docsUrl).host));
      assert.match(first.text, /Text of A$/);
      const second = await run('contentDocs_read_document', { id: 7001, account: b.displayName });
      assert.match(second.text, accountLine(new URL(two.b.docsUrl).host));
      assert.match(second.text, /Text of B$/);
      assert.deepStrictEqual([routes(two.a), routes(two.b)], [['documents.show'], ['documents.show']]);

      // An update with B's version goes to B only; A's copy is untouched.
      const updatedAt = updatedAtOf(second);
      const upd = await run('contentDocs_update_document', { id: 7001, updated_at: updatedAt, name: 'Renamed in B', account: b.displayName });
      assert.match(upd.text, /^Changed: /, upd.text);
      assert.strictEqual(two.b.documents.get(7001)!.name, 'Renamed in B');
      assert.strictEqual(two.a.documents.get(7001)!.name, 'Shared name');
      assert.deepStrictEqual(routes(two.a), ['documents.show']);

      // Deleting in A is confirmed with A's document.
      const c = await confirmation('contentDocs_delete_document', { id: 7001, account: a.displayName });
      const hostA = new URL(two.a.docsUrl).host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      assert.match(c.message!, new RegExp(`^Delete "Shared name" \\(#7001, Freestyle\\) from \\*\\*(.+ @ )?${hostA}\\*\\*`));

      const unknown = await run('contentDocs_get_plan_usage', { account: 'elsewhere' });
      assert.match(unknown.text, /There is no account named "elsewhere"; the accounts are ".+", ".+"\. Nothing was sent\./);
    } finally {
      await two.dispose();
    }
  });

  it('two accounts with the same name on one host (two keys on one server): the answer lists each with its label, and the label picks it', async () => {
    const two = await startTwoAccounts({ id: 7003, name: 'One host' });
    try {
      // A second key of the same user on server A, added with Add Account…: a second account, same name, same host.
      two.a.addKey('sandbox-second-key-0123456789');
      two.prompter.reset();
      two.prompter.inputs = [two.a.docsUrl, two.a.seoUrl, 'sandbox-second-key-0123456789'];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true, `Add Account… failed: ${JSON.stringify(two.prompter.checked)}`);
      const [a, a2] = two.s.registry.all();
      assert.ok(a.label && a2.label && a.label !== a2.label, 'two accounts, each with its own label');
      // Both know the user's name (one account read reads it): "Sandbox User @ host" each, which the views tell apart
      // by the label after it.
      await a.usage.refresh();
      await a2.usage.refresh();
      assert.strictEqual(a.baseName, a2.baseName, 'the same name and host');
      assert.notStrictEqual(a.displayName, a2.displayName, 'the views tell them apart');
      const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      two.a.resetRequests();
      const ambiguous = await run('contentDocs_get_plan_usage', { account: a.baseName });
      assert.match(ambiguous.text, /^Several accounts match /);
      for (const label of [a.label, a2.label]) {
        assert.match(ambiguous.text, new RegExp(`"${esc(a.baseName)}" \\(label "${esc(label)}"\\)`), ambiguous.text);
      }
      // The name as the views show it, label included, picks that one.
      const byShownName = await run('contentDocs_get_plan_usage', { account: a2.displayName });
      assert.match(byShownName.text, accountLine(new URL(two.a.docsUrl).host), byShownName.text);
      // Besides what the views on screen read of the account just added (its rows and counts): the tool's answers come
      // from what was read.
      assert.deepStrictEqual(besidesTheWindow(apiRequests(two.a)).map((r) => `${r.method} ${r.path}`), [], 'nothing was sent');
      // The label the answer gave picks that account.
      const usage = await run('contentDocs_get_plan_usage', { account: a2.label });
      assert.match(usage.text, accountLine(new URL(two.a.docsUrl).host), usage.text);
      const read = await run('contentDocs_read_document', { id: 7003, account: a2.label });
      assert.match(read.text, /Text of A$/, read.text);
    } finally {
      await two.dispose();
    }
  });

  it('a confirmation without `account` names the account last worked in; invoke acts there, even if the user works in the other one while it waits', async () => {
    const two = await startTwoAccounts({ id: 7002, name: 'Same everywhere' });
    try {
      await two.addB();
      const [a, b] = two.s.registry.all();
      await two.s.context.globalState.update(STATE.lastAccount, a.label);
      const input = { id: 7002 };
      const c = await confirmation('contentDocs_delete_document', input);
      const hostA = new URL(two.a.docsUrl).host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      assert.match(c.message!, new RegExp(`^Delete "Same everywhere" \\(#7002, Freestyle\\) from \\*\\*(.+ @ )?${hostA}\\*\\*`));
      // While the question waits, the user picks B for New Document… (it becomes the account last worked in).
      await two.s.context.globalState.update(STATE.lastAccount, b.label);
      const tool = api.tools.get('contentDocs_delete_document')!;
      const result = await tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      const text = (result?.content ?? []).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.ok(!two.a.documents.has(7002), `the document confirmed is deleted: ${text}`);
      assert.ok(two.b.documents.has(7002), "the other account's document of the same id is untouched");
      assert.match(text, new RegExp(`from (.+ @ )?${hostA}\\.$`));
    } finally {
      await two.dispose();
    }
  });

  it('two confirmations of one input open at once in two accounts (two chat requests): neither invocation acts in the account of the other confirmation', async () => {
    const two = await startTwoAccounts({ id: 7005, name: 'Asked twice' });
    try {
      await two.addB();
      const [a, b] = two.s.registry.all();
      const input = { id: 7005 };
      const tool = api.tools.get('contentDocs_delete_document')!;
      // The first chat request asks in A (the account last worked in then); the second, the same words, in B.
      await two.s.context.globalState.update(STATE.lastAccount, a.label);
      const inA = await confirmation('contentDocs_delete_document', input);
      await two.s.context.globalState.update(STATE.lastAccount, b.label);
      const inB = await confirmation('contentDocs_delete_document', input);
      const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      assert.match(inA.message!, new RegExp(`from \\*\\*(.+ @ )?${esc(new URL(two.a.docsUrl).host)}\\*\\*`));
      assert.match(inB.message!, new RegExp(`from \\*\\*(.+ @ )?${esc(new URL(two.b.docsUrl).host)}\\*\\*`));
      two.a.resetRequests();
      two.b.resetRequests();
      // The user confirms the question of the first request (A's): which invocation is which, VS Code does not say.
      const first = await tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      const text = (first?.content ?? []).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.ok(two.b.documents.has(7005), `the document of B, which the question confirmed did not name, is not deleted: ${text}`);
      const second = await tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      const secondText = (second?.content ?? []).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.ok(two.a.documents.has(7005), `the document of A is not deleted by the other confirmation's run either: ${secondText}`);
      for (const t of [text, secondText]) {
        assert.match(t, /Nothing was sent/, t);
        assert.ok(t.includes(a.displayName) && t.includes(b.displayName), `names both accounts: ${t}`);
      }
      assert.deepStrictEqual([...two.a.requests, ...two.b.requests].filter((r) => r.method !== 'GET'), [], 'nothing was deleted anywhere');
      // Asked again naming the account (another input), it acts there.
      const again = await run('contentDocs_delete_document', { id: 7005, account: a.label });
      assert.ok(!two.a.documents.has(7005) && two.b.documents.has(7005), again.text);
    } finally {
      await two.dispose();
    }
  });

  it('a confirmation whose input names the account by its host: invoke acts in the account confirmed, never in another installation that has that host by then', async () => {
    const two = await startTwoAccounts({ id: 7004, name: 'Same on both' });
    const proxy = await startPathProxy({ a: two.a.docsUrl, b: two.b.docsUrl });
    try {
      // Signed in to A through the shared host; the input names the account as the tools allow: by its host.
      await configure('documents.baseUrl', proxy.url('a'));
      await configure('projects.baseUrl', two.a.seoUrl);
      await two.s.credentials.setKey(two.a.key);
      const host = new URL(proxy.url('a')).host;
      const input = { id: 7004, account: host };
      const c = await confirmation('contentDocs_delete_document', input);
      const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      assert.match(c.message!, new RegExp(`^Delete "Same on both" \\(#7004, Freestyle\\) from \\*\\*(.+ @ )?${esc(host)}\\*\\*`), c.message);
      // While the question waits, Settings Sync brings the other installation's address and another window its key.
      await configure('documents.baseUrl', proxy.url('b'));
      await configure('projects.baseUrl', two.b.seoUrl);
      await two.s.context.secrets.store('contentDocs.apiKey', two.b.key);
      await sleep(200);
      await two.s.registry.settled();
      two.a.resetRequests();
      two.b.resetRequests();
      const tool = api.tools.get('contentDocs_delete_document')!;
      const result = await tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      const text = (result?.content ?? []).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.ok(two.b.documents.has(7004), `the other installation's document of the same id is not deleted: ${text}`);
      assert.deepStrictEqual(
        [...two.a.requests, ...two.b.requests].filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
        [],
        'nothing was sent to change anything',
      );
      assert.match(text, /Nothing was sent/, text);
    } finally {
      await proxy.close();
      await two.dispose();
    }
  });
});
