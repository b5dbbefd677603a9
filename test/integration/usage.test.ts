/**
 * Plan usage and the documents where the user writes, inside a real VS Code against the sandbox: the status
 * bar item (hidden until signed in and until the first request, words against the plan, the count alone on
 * an unlimited plan, the warning from 90 %, one account read per creation and none for a failed one, gone
 * on sign-out, read again after a switch of key or server, even one made while an account read is on the wire,
 * its Quick Pick and Open Account Page); New Document preselecting the account's default creativity; Insert at
 * Cursor, Replace Selection (one undo restores) and Open Beside; the Documents view taking in a created document
 * without a list request.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { compact } from '../../src/model/usageFormat';
import type { DocumentsTreeProvider } from '../../src/documents/documentsTree';
import type { DocumentNode, GroupNode } from '../../src/model/nodes';
import { documentOrder, startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { screenshot } from './harness';
import { closeEditors, configure, MessageCapture, RecordingPrompter, services, sleep, until, useSandbox } from './reliabilityKit';

/** Longer than the account service's coalescing pause and a local round trip: nothing more comes after it. */
const SETTLE_MS = 1200;

let sandbox: Sandbox;
let s: TestServices;
/**
 * The Documents tree of the settings' account as it is now. Signing in again, another key or another server makes
 * another account with its own tree: a tree held across such a change is the old account's, which lists nothing
 * (so it is read again at every use, and only while signed in).
 */
function tree(): DocumentsTreeProvider {
  return s.documentsTree;
}
const prompter = new RecordingPrompter();
const messages = new MessageCapture();

const accountReads = () => sandbox.requests.filter((r) => r.route === 'account').length;
const stores = () => sandbox.requests.filter((r) => r.route === 'documents.store');
const lists = () => sandbox.requests.filter((r) => r.route === 'documents.list');

/** New Document's questions answered: the name, a template, a prompt; creativity: what is offered active (Enter). */
function answers(name: string, template = 'Freestyle', seen?: { active?: vscode.QuickPickItem }): RecordingPrompter['answer'] {
  return (q, items) => {
    if (q.title === 'New Document: Name') return q.value === name ? undefined : name;
    if (q.title.includes('Template')) return template;
    if (q.title.includes('Prompt')) return 'A short text about plan usage';
    if (q.title.includes('Creativity')) {
      if (seen) seen.active = items?.find((i) => i.label === q.active);
      return q.active;
    }
    return undefined;
  };
}

async function startSession(): Promise<void> {
  s = await services();
  s.prompter.current = prompter;
  messages.install();
}

async function endSession(): Promise<void> {
  messages.dispose();
  s.prompter.current = s.prompter.vscode;
  await closeEditors();
}

describe('usage: plan usage in the status bar', function () {
  this.timeout(60_000);
  let other: Sandbox | undefined;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    await startSession();
    // No view on screen asks for anything by itself, and no editor an earlier suite left open reads its document again
    // when the account is made anew: the requests are the test's own.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await closeEditors();
  });

  after(async () => {
    await endSession();
    await other?.close();
    await sandbox?.close();
  });

  beforeEach(() => {
    prompter.reset();
    messages.clear();
  });

  it('hidden when signed out, and after sign-in until the first request; a list brings words / limit from GET /account (one read)', async () => {
    await s.credentials.clearKey();
    await until('the item to hide on sign-out', () => !s.usage.state.visible);
    sandbox.setAccount({ plan: { name: 'Writer', features: { words: 50_000, documents: 200 } }, counters: { words_month_count: 12_345, documents_month_count: 17 } });
    // No view on screen (a view shown reads its rows when the account is made anew: its requests, not the sign-in's).
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    sandbox.resetRequests();
    await useSandbox(s, sandbox);
    await sleep(SETTLE_MS);
    assert.deepStrictEqual(sandbox.requests.map((r) => r.route), [], 'signing in with a stored key sends nothing');
    assert.strictEqual(s.usage.state.visible, false, 'signed in, nothing asked of the server yet: hidden');

    await tree().load(tree().model.allGroup);
    await until('the item to show', () => s.usage.state.visible);
    assert.strictEqual(s.usage.state.text, '$(sparkle) 12.3k / 50k words');
    assert.deepStrictEqual(s.usage.state.accessibility, { label: '12,345 of 50,000 words used this month', role: 'button' }, 'a screen reader reads the figures whole, not "12.3k / 50k"');
    assert.match(s.usage.state.tooltip, /^Words: 12,345 of 50,000 \(24 %\)$/m);
    assert.match(s.usage.state.tooltip, /^Documents: 17 of 200 \(8 %\)$/m);
    assert.match(s.usage.state.tooltip, /^Plan: Writer$/m);
    assert.strictEqual(s.usage.state.level, 'normal');
    assert.strictEqual(s.usage.state.background, undefined);
    await tree().load(tree().model.favoritesGroup);
    await sleep(SETTLE_MS);
    assert.strictEqual(accountReads(), 1, 'one account read for the session, not one per request');
    await screenshot('usage-status-bar');
  });

  it('an unlimited plan shows the count alone', async () => {
    sandbox.setAccount({ plan: { features: { words: -1 } }, counters: { words_month_count: 987_654 } });
    await s.account.refresh();
    assert.strictEqual(s.usage.state.text, '$(sparkle) 987k words');
    assert.match(s.usage.state.tooltip, /^Words: 987,654 \(unlimited\)$/m);
    assert.strictEqual(s.usage.state.accessibility.label, '987,654 words used this month, with no monthly limit');
    assert.strictEqual(s.usage.state.level, 'normal');
  });

  it('warning colour from 90 % of the words, not below', async () => {
    sandbox.setAccount({ plan: { features: { words: 50_000, documents: 1000 } }, counters: { words_month_count: 44_999, documents_month_count: 1 } });
    await s.account.refresh();
    assert.strictEqual(s.usage.state.text, '$(sparkle) 44.9k / 50k words');
    assert.strictEqual(s.usage.state.level, 'normal');
    assert.strictEqual(s.usage.state.background, undefined);
    sandbox.setAccount({ counters: { words_month_count: 45_000 } });
    await s.account.refresh();
    assert.strictEqual(s.usage.state.text, '$(sparkle) 45k / 50k words');
    assert.strictEqual(s.usage.state.level, 'warning');
    assert.strictEqual(s.usage.state.background, 'statusBarItem.warningBackground');
    assert.strictEqual(s.usage.state.accessibility.label, '45,000 of 50,000 words used this month: the plan\'s monthly limit is nearly reached', 'the warning colour is said too');
    await screenshot('usage-status-bar-warning');
    sandbox.setAccount({ counters: { words_month_count: 1_000 } });
    await s.account.refresh();
    assert.strictEqual(s.usage.state.level, 'normal');
  });

  it('after New Document…: exactly one more account read, and the new figure', async () => {
    sandbox.setAccount({ plan: { features: { words: 500_000, documents: 1000 } }, counters: { words_month_count: 20_000, documents_month_count: 10 } });
    await s.account.refresh();
    assert.strictEqual(s.usage.state.text, '$(sparkle) 20k / 500k words');
    sandbox.resetRequests();
    prompter.answer = answers('Usage after a creation');
    await vscode.commands.executeCommand(CMD.documentNew);
    assert.deepStrictEqual(stores().map((r) => r.status), [201]);
    const words = sandbox.account.counters.words_month_count;
    assert.ok(words > 20_000, 'the store counted its words');
    await until('the new figure', () => s.usage.state.text === `$(sparkle) ${compact(words)} / 500k words`);
    await sleep(SETTLE_MS);
    assert.strictEqual(accountReads(), 1);
    assert.strictEqual(s.account.cached?.month.documents, 11);
  });

  it('a burst of creations shares one account read', async () => {
    sandbox.resetRequests();
    await Promise.all([1, 2, 3].map((n) => s.documents.create({ name: `Burst ${n}`, prompt: 'A burst', creativity: 0.5, templateId: 1 })));
    await until('the read after the burst', () => accountReads() >= 1);
    await sleep(SETTLE_MS);
    assert.strictEqual(stores().length, 3);
    assert.strictEqual(accountReads(), 1);
    assert.strictEqual(s.account.cached?.month.documents, sandbox.account.counters.documents_month_count);
  });

  it('one account read on the wire at a time: refreshes asked for meanwhile make one more, after it', async () => {
    sandbox.resetRequests();
    sandbox.setLatency(400);
    try {
      const answers = await Promise.all([s.account.refresh(), s.account.refresh(), s.account.refresh(), s.account.get()]);
      assert.ok(answers.every((a) => a.month.words !== undefined));
    } finally {
      sandbox.setLatency(0);
    }
    const reads = sandbox.requests.filter((r) => r.route === 'account');
    assert.strictEqual(reads.length, 2);
    assert.ok(reads[1].at - reads[0].at >= 350, `the second read starts once the first is answered (${reads[1].at - reads[0].at} ms apart)`);
  });

  it('no account read when a create fails (422) or creates nothing', async () => {
    const before = s.usage.state.text;
    sandbox.resetRequests();
    // A name with a banned keyword is refused; asked again, the user gives up.
    prompter.answer = (q, items) => (q.title === 'New Document: Name' && q.value === 'A bannedword' ? undefined : answers('A bannedword')(q, items));
    await vscode.commands.executeCommand(CMD.documentNew);
    assert.deepStrictEqual(stores().map((r) => r.status), [422]);
    sandbox.setFault('documents.store', { kind: 'status500', count: 1 });
    prompter.answer = answers('Never stored');
    await vscode.commands.executeCommand(CMD.documentNew);
    assert.deepStrictEqual(stores().map((r) => r.status), [422, 500]);
    await sleep(SETTLE_MS);
    assert.strictEqual(accountReads(), 0);
    assert.strictEqual(s.usage.state.text, before);
  });

  it('click: a Quick Pick with the figures and Open Account Page, which opens the documents address', async () => {
    sandbox.setAccount({
      plan: { name: 'Writer', features: { words: 50_000, documents: 200, images: 20 } },
      counters: { words_month_count: 12_345, documents_month_count: 17, images_month_count: 3, words_total_count: 234_567, documents_total_count: 321, images_total_count: 9 },
    });
    await s.account.refresh();
    const opened: string[] = [];
    const original = s.usage.openExternal;
    s.usage.openExternal = (uri) => {
      opened.push(uri.toString());
      return Promise.resolve(true);
    };
    let shown: readonly vscode.QuickPickItem[] = [];
    prompter.answer = (q, items) => {
      shown = items ?? [];
      return q.title === 'Content Docs: Plan Usage' ? '$(link-external) Open Account Page' : undefined;
    };
    sandbox.resetRequests();
    try {
      await vscode.commands.executeCommand(CMD.usageShow);
    } finally {
      s.usage.openExternal = original;
    }
    const rows = shown.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => `${i.label}: ${i.description ?? ''}`);
    assert.deepStrictEqual(rows, [
      'Words this month: 12,345 of 50,000 (24 %)',
      'Documents this month: 17 of 200 (8 %)',
      'Images this month: 3 of 20 (15 %)',
      'Words in total: 234,567',
      'Documents in total: 321',
      'Images in total: 9',
      'Plan: Writer',
      `$(link-external) Open Account Page: ${sandbox.docsUrl}`,
    ]);
    assert.deepStrictEqual(opened, [vscode.Uri.parse(sandbox.docsUrl).toString()]);
    assert.strictEqual(accountReads(), 0, 'the figures already read are shown');
    assert.strictEqual(s.usage.state.text, '$(sparkle) 12.3k / 50k words');
  });

  it('click on a figure: not a dead end — it opens the account page too, as the box says', async () => {
    // Runs alone with --grep too: signed in to this suite's sandbox.
    if (vscode.workspace.getConfiguration('contentDocs').get('documents.baseUrl') !== sandbox.docsUrl) await useSandbox(s, sandbox);
    await s.account.refresh();
    const opened: string[] = [];
    const original = s.usage.openExternal;
    s.usage.openExternal = (uri) => {
      opened.push(uri.toString());
      return Promise.resolve(true);
    };
    let placeHolder = '';
    prompter.answer = (q) => {
      placeHolder = q.prompt ?? '';
      return q.title === 'Content Docs: Plan Usage' ? 'Words this month' : undefined;
    };
    try {
      await vscode.commands.executeCommand(CMD.usageShow);
    } finally {
      s.usage.openExternal = original;
    }
    assert.deepStrictEqual(opened, [vscode.Uri.parse(sandbox.docsUrl).toString()], 'a figure opens the account page');
    assert.match(placeHolder, /select a line to open your account page/i, 'the box says what a click does');
  });

  it('sign-out hides it and forgets the figures; another key or server reads again on the next request', async () => {
    // This test's own figures (it runs alone with --grep, too).
    sandbox.setAccount({ plan: { name: 'Writer', features: { words: 50_000, documents: 200 } }, counters: { words_month_count: 12_345, documents_month_count: 17 } });
    // An open document's editor would read it again on sign-in (a request, which brings the figures): none open.
    await closeEditors();
    if (!s.firstOrNone || vscode.workspace.getConfiguration('contentDocs').get('documents.baseUrl') !== sandbox.docsUrl) await useSandbox(s, sandbox);
    const signedOut = s.first;
    await signedOut.usage.get();
    await vscode.commands.executeCommand('contentDocs.signOut');
    await until('the item to hide', () => !s.usage.state.visible);
    // The figures were the account's: signing out disposes it, and what it read goes with it.
    assert.strictEqual(s.firstOrNone, undefined, 'signed out');
    assert.strictEqual(signedOut.usage.cached, undefined);

    // Back with a key: hidden until a request; then this account's figures (no view on screen to read its rows).
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    sandbox.resetRequests();
    await useSandbox(s, sandbox);
    await sleep(SETTLE_MS);
    assert.deepStrictEqual(sandbox.requests.map((r) => r.route), []);
    assert.strictEqual(s.usage.state.visible, false);
    assert.notStrictEqual(s.first, signedOut, 'the same server and key again: a new account (the same label)');
    assert.strictEqual(s.first.label, signedOut.label);
    assert.strictEqual(s.account.cached, undefined, 'the account signed in again has read nothing yet');
    await tree().load(tree().model.allGroup);
    await until('the figures again', () => s.usage.state.visible);
    assert.strictEqual(s.usage.state.text, '$(sparkle) 12.3k / 50k words');

    // Another server (another account): the old figures go at once, the new ones come with the next request.
    other = await startSandbox({ rateLimit: 0, storeDelayMs: 0, account: { plan: { name: 'Other', features: { words: 10_000 } }, counters: { words_month_count: 9_500 } } });
    await configure('documents.baseUrl', other.docsUrl);
    await until('the old figures to go', () => !s.usage.state.visible);
    assert.strictEqual(other.requests.filter((r) => r.route === 'account').length, 0, 'a settings change sends nothing');
    await tree().load(tree().model.allGroup);
    await until("the other account's figures", () => s.usage.state.text === '$(sparkle) 9.5k / 10k words');
    assert.strictEqual(s.usage.state.level, 'warning');
    assert.strictEqual(other.requests.filter((r) => r.route === 'account').length, 1);
    await configure('documents.baseUrl', sandbox.docsUrl);
    await until('the old figures to go', () => !s.usage.state.visible);
  });
});

describe("usage: New Document… preselects the account's default creativity", function () {
  this.timeout(60_000);

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    await startSession();
    await useSandbox(s, sandbox);
  });

  after(async () => {
    await endSession();
    await sandbox?.close();
  });

  beforeEach(() => prompter.reset());

  it('an account read this session: its default (0.8: nearest Creative) is offered active (Enter takes it) and sent; no extra read', async () => {
    sandbox.setAccount({ defaultCreativity: 0.8 });
    await s.account.refresh();
    sandbox.resetRequests();
    const seen: { active?: vscode.QuickPickItem } = {};
    prompter.answer = answers('Preselected creativity', 'Freestyle', seen);
    await vscode.commands.executeCommand(CMD.documentNew);
    assert.strictEqual(seen.active?.label, 'Creative');
    assert.match(seen.active?.description ?? '', /\(your account's default\)/);
    assert.deepStrictEqual(stores().map((r) => r.body?.creativity), ['0.75']);
    await sleep(SETTLE_MS);
    const routes = sandbox.requests.map((r) => r.route);
    assert.strictEqual(routes.indexOf('account'), routes.lastIndexOf('account'), 'one account read: the one after the creation');
    assert.ok(routes.indexOf('account') > routes.indexOf('documents.store'));
  });

  it('the account not read yet: one read while the questions are answered, its default preselected (0.1: Repetitive)', async () => {
    await closeEditors();
    const read = s.first;
    await s.credentials.clearKey();
    // Signing out disposes the account, and what it read with it; signed in again, the account is new and unread.
    await until('the account to be forgotten', () => read.usage.cached === undefined);
    await useSandbox(s, sandbox);
    assert.strictEqual(s.account.cached, undefined, 'signed in again: not read yet');
    sandbox.setAccount({ defaultCreativity: 0.1 });
    sandbox.resetRequests();
    const seen: { active?: vscode.QuickPickItem } = {};
    prompter.answer = answers('Preselected after a read', 'Freestyle', seen);
    await vscode.commands.executeCommand(CMD.documentNew);
    assert.strictEqual(seen.active?.label, 'Repetitive');
    assert.deepStrictEqual(stores().map((r) => r.body?.creativity), ['0']);
    // The account read and the store, in the order they came: a view on screen may list its rows at any moment (the
    // account was made anew), and those lists are neither.
    const routes = sandbox.requests.map((r) => r.route).filter((r) => r === 'account' || r === 'documents.store');
    assert.strictEqual(routes[0], 'account', `the read comes before the store: ${routes.join(', ')}`);
    assert.ok(routes.includes('documents.store'), 'the document was stored');
  });

  it('the account says nothing (older server) or the read fails: Original, as before', async () => {
    await closeEditors();
    await s.credentials.clearKey();
    await useSandbox(s, sandbox);
    sandbox.setFault('account', { kind: 'status500' });
    try {
      sandbox.resetRequests();
      const seen: { active?: vscode.QuickPickItem } = {};
      prompter.answer = answers('Preselected without an account', 'Freestyle', seen);
      await vscode.commands.executeCommand(CMD.documentNew);
      assert.strictEqual(seen.active?.label, 'Original');
      assert.deepStrictEqual(stores().map((r) => r.body?.creativity), ['0.5']);
    } finally {
      sandbox.clearFaults();
    }
  });
});

describe('usage: Insert at Cursor, Replace Selection and Open Beside on a document', function () {
  this.timeout(60_000);
  let doc: SandboxDocument;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    await startSession();
    await useSandbox(s, sandbox);
    // Results edited in the web UI are stored as HTML: inserted as stored.
    doc = [...sandbox.documents.values()].find((d) => d.templateId === 1 && d.result)!;
    doc.result = '<p>Inserted paragraph.</p>';
  });

  after(async () => {
    await endSession();
    await sandbox?.close();
  });

  beforeEach(async () => {
    prompter.reset();
    messages.clear();
    await closeEditors();
  });

  async function rowOf(id: number): Promise<DocumentNode> {
    await s.documents.fetch(id).catch(() => undefined);
    const rows = (await tree().load(tree().model.allGroup)).filter((n): n is DocumentNode => n.kind === 'document');
    return rows.find((n) => n.doc.id === id) ?? ({ id } as unknown as DocumentNode);
  }

  async function untitled(text: string): Promise<vscode.TextEditor> {
    const d = await vscode.workspace.openTextDocument({ content: text, language: 'markdown' });
    return vscode.window.showTextDocument(d, vscode.ViewColumn.One);
  }

  it('Insert at Cursor: the result at each cursor, in one edit that one undo restores', async () => {
    const row = await rowOf(doc.id);
    const original = 'First line\nSecond line\n';
    const editor = await untitled(original);
    editor.selections = [new vscode.Selection(0, 5, 0, 5), new vscode.Selection(1, 0, 1, 6)];
    sandbox.resetRequests();
    const done = await vscode.commands.executeCommand(CMD.documentInsertAtCursor, row);
    assert.strictEqual(done, true);
    // A cursor is the active end of a selection: the text goes there, the selected text stays.
    assert.strictEqual(editor.document.getText(), 'First<p>Inserted paragraph.</p> line\nSecond<p>Inserted paragraph.</p> line\n');
    // Someone may have changed it since the view listed it: the text the server has now (one read). The requests named
    // are the document's and every write: a view on screen listing its rows or counts, and the status bar's usage read,
    // are not about this document and change nothing.
    assert.deepStrictEqual(
      sandbox.requests.filter((r) => r.path === `/api/v1/documents/${doc.id}` || r.method !== 'GET').map((r) => `${r.method} ${r.route}`),
      ['GET documents.show'],
    );
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), original);
  });

  it('Replace Selection: every selection replaced in one edit; one undo restores', async () => {
    const row = await rowOf(doc.id);
    const original = 'Keep this. Replace me. Keep that. Me too.';
    const editor = await untitled(original);
    editor.selections = [new vscode.Selection(0, 11, 0, 22), new vscode.Selection(0, 34, 0, 41)];
    const done = await vscode.commands.executeCommand(CMD.documentReplaceSelection, row);
    assert.strictEqual(done, true);
    assert.strictEqual(editor.document.getText(), 'Keep this. <p>Inserted paragraph.</p> Keep that. <p>Inserted paragraph.</p>');
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), original);
  });

  it('from the palette in the document\'s own editor: into the editor beside it; with no other editor: says so and changes nothing', async () => {
    const editor = await untitled('Target: ');
    editor.selection = new vscode.Selection(0, 8, 0, 8);
    const own = await vscode.commands.executeCommand<vscode.TextEditor>(CMD.documentOpenBeside, await rowOf(doc.id));
    assert.ok(own);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.authority.split('.')[0], String(doc.id), 'the document is the active editor');
    assert.strictEqual(await vscode.commands.executeCommand(CMD.documentInsertAtCursor), true);
    assert.strictEqual(editor.document.getText(), 'Target: <p>Inserted paragraph.</p>');

    await closeEditors();
    await vscode.commands.executeCommand(CMD.documentOpenBeside, await rowOf(doc.id));
    const before = vscode.window.activeTextEditor.document.getText();
    messages.clear();
    assert.strictEqual(await vscode.commands.executeCommand(CMD.documentReplaceSelection), false);
    const said = await messages.waitFor('the message', (m) => m.level === 'warning');
    assert.match(said.message, /There is no editor to replace a selection in/);
    assert.strictEqual(vscode.window.activeTextEditor.document.getText(), before);

    await closeEditors();
    messages.clear();
    assert.strictEqual(await vscode.commands.executeCommand(CMD.documentInsertAtCursor, await rowOf(doc.id)), false);
    assert.match((await messages.waitFor('the message', (m) => m.level === 'warning')).message, /There is no editor to insert into/);
  });

  it('Open Beside: the document opens in the column beside the active editor', async () => {
    await untitled('Writing here');
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>(CMD.documentOpenBeside, await rowOf(doc.id));
    assert.ok(editor);
    assert.strictEqual(editor.document.uri.scheme, 'content-docs');
    assert.strictEqual(editor.document.uri.authority.split('.')[0], String(doc.id));
    assert.strictEqual(editor.viewColumn, vscode.ViewColumn.Two);
    assert.strictEqual(editor.document.getText(), doc.result);
    assert.strictEqual(vscode.window.visibleTextEditors.length, 2);
  });
});

describe('usage: the Documents view follows a creation without a list request', function () {
  this.timeout(90_000);

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    await startSession();
    await useSandbox(s, sandbox);
  });

  after(async () => {
    if (s.firstOrNone) {
      tree().model.setSearch(undefined);
      await tree().model.setSort('newest');
    }
    await endSession();
    await sandbox?.close();
  });

  beforeEach(() => prompter.reset());

  const ids = (nodes: readonly unknown[]) => nodes.filter((n): n is DocumentNode => (n as DocumentNode).kind === 'document').map((n) => n.doc.id);

  /** The ids the server lists for a filter and sort, in its order (ties as it orders them for the default page size, 50). */
  function serverOrder(filter: (d: SandboxDocument) => boolean, sort: 'newest' | 'nameAsc'): number[] {
    return [...sandbox.documents.values()]
      .filter(filter)
      .sort(sort === 'nameAsc' ? documentOrder('name', 'asc', 50) : documentOrder('id', 'desc', 50))
      .map((d) => d.id);
  }

  async function shown(g: GroupNode): Promise<number[]> {
    return ids((await tree().getChildren(g)) ?? []);
  }

  for (const sort of ['newest', 'nameAsc'] as const) {
    it(`sorted ${sort}: into its template group, All Documents and the matching search, where the server puts it; counts + 1; no list request`, async () => {
      await tree().model.setSort(sort);
      const blog = tree().templateGroup(9)!;
      assert.ok(blog, 'the Blog post group');
      // By name, a name early in the alphabet: inside the first page the group has loaded.
      const name = sort === 'newest' ? 'Follow the tree newest' : 'Ab follow the tree by name';
      tree().model.setSearch({ text: 'follow the tree', by: 'name' });
      const search = tree().searchGroup!;
      for (const g of [blog, tree().model.allGroup, search]) await tree().load(g);
      const before = { blog: tree().model.countOf(blog.key), all: tree().model.countOf('all'), search: tree().model.countOf('search') };
      assert.ok(before.blog !== undefined && before.all !== undefined && before.search !== undefined, 'the counts are known');
      const shownBefore = { blog: await shown(blog), all: await shown(tree().model.allGroup), search: await shown(search) };

      sandbox.resetRequests();
      prompter.answer = answers(name, 'Blog post');
      await vscode.commands.executeCommand(CMD.documentNew);
      const created = [...sandbox.documents.values()].find((d) => d.name === name);
      assert.ok(created, 'created');
      assert.strictEqual(created.templateId, 9);

      const after = { blog: await shown(blog), all: await shown(tree().model.allGroup), search: await shown(search) };
      const groups = { blog, all: tree().model.allGroup, search } as const;
      const filters = [
        ['blog', (d: SandboxDocument) => d.templateId === 9],
        ['all', () => true],
        ['search', (d: SandboxDocument) => d.name.toLowerCase().includes('follow the tree')],
      ] as const;
      const later: Array<(typeof filters)[number]> = [];
      for (const entry of filters) {
        const [key, filter] = entry;
        const got = after[key];
        if (sort === 'nameAsc' && !got.includes(created.id)) {
          // By name, a row goes in only between neighbours whose order the client can prove (names of plain letters,
          // digits, spaces and hyphens); among others its place is the server's to say: the next read brings it.
          assert.deepStrictEqual(got, shownBefore[key], `${key}: not placed, nothing else moved`);
          later.push(entry);
          continue;
        }
        assert.ok(got.includes(created.id), `${key}: the new document is shown`);
        assert.strictEqual(got.length, shownBefore[key].length + 1, `${key}: one row more`);
        assert.deepStrictEqual(got, serverOrder(filter, sort).slice(0, got.length), `${key}: in the server's order`);
      }
      if (sort === 'newest') assert.deepStrictEqual(later, [], 'by date every group shows it at once');
      assert.strictEqual(tree().model.countOf(blog.key), before.blog + 1);
      assert.strictEqual(tree().model.countOf('all'), before.all + 1);
      assert.strictEqual(tree().model.countOf('search'), before.search + 1);
      await sleep(SETTLE_MS);
      assert.strictEqual(lists().length, 0, 'no list request after the create');
      // A group that left the row to the server shows it where the server lists it once read on.
      for (const [key, filter] of later) {
        const g = groups[key];
        for (let i = 0; i < 40 && !(await shown(g)).includes(created.id); i++) await tree().model.loadMore(g);
        const got = await shown(g);
        assert.ok(got.includes(created.id), `${key}: Load more brings the new document`);
        assert.deepStrictEqual(got, serverOrder(filter, sort).slice(0, got.length), `${key}: in the server's order`);
      }
    });
  }

  it('a search the new document does not match leaves that group and its count alone', async () => {
    await tree().model.setSort('newest');
    tree().model.setSearch({ text: 'nothing like the new one', by: 'name' });
    const search = tree().searchGroup!;
    await tree().load(search);
    const before = { rows: await shown(search), count: tree().model.countOf('search') };
    sandbox.resetRequests();
    prompter.answer = answers('Unrelated new document', 'Blog post');
    await vscode.commands.executeCommand(CMD.documentNew);
    assert.deepStrictEqual(await shown(search), before.rows);
    assert.strictEqual(tree().model.countOf('search'), before.count);
    assert.strictEqual(lists().length, 0);
  });
});

describe('usage: plan usage when the key or server changes while an account read is on the wire', function () {
  this.timeout(60_000);
  let a: Sandbox;
  let b: Sandbox;

  before(async () => {
    a = await startSandbox({ rateLimit: 0, storeDelayMs: 0, account: { plan: { name: 'Old', features: { words: 1_000 } }, counters: { words_month_count: 111 } } });
    b = await startSandbox({ rateLimit: 0, storeDelayMs: 0, account: { plan: { name: 'New', features: { words: 10_000 } }, counters: { words_month_count: 2_222 } } });
    s = await services();
    await closeEditors();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await s.credentials.clearKey();
    await until('the item to hide', () => !s.usage.state.visible);
  });

  after(async () => {
    await a?.close();
    await b?.close();
  });

  it('another server while the first account read hangs: the new account\'s figures come with its next request (the old ones never)', async () => {
    a.setFault('account', { kind: 'hang' });
    await useSandbox(s, a);
    await s.documentsTree.load(s.documentsTree.model.allGroup);
    await until('the account read on the wire', () => a.requests.some((r) => r.route === 'account'));
    assert.strictEqual(s.usage.state.visible, false);
    await configure('documents.baseUrl', b.docsUrl);
    await sleep(300);
    await s.documentsTree.load(s.documentsTree.model.allGroup);
    await until("the new account's figures", () => s.usage.state.visible && s.usage.state.text === '$(sparkle) 2.2k / 10k words');
    assert.strictEqual(b.requests.filter((r) => r.route === 'account').length, 1);
    a.setFault('account', undefined);
  });

  it('signed out and in again while the read hangs: this key\'s figures come with the next request', async () => {
    await configure('documents.baseUrl', a.docsUrl);
    await until('hidden', () => !s.usage.state.visible);
    a.setFault('account', { kind: 'hang' });
    a.resetRequests();
    await s.documentsTree.load(s.documentsTree.model.allGroup);
    await until('the account read on the wire', () => a.requests.some((r) => r.route === 'account'));
    await s.credentials.clearKey();
    a.setFault('account', undefined);
    await s.credentials.setKey(a.key);
    await sleep(300);
    await s.documentsTree.load(s.documentsTree.model.allGroup);
    await until("the account's figures", () => s.usage.state.visible && s.usage.state.text === '$(sparkle) 111 / 1k words');
  });
});
