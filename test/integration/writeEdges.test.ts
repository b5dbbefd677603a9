/**
 * The writing actions at their edges, inside a real VS Code against the sandbox: several cursors, a 422 with
 * several field messages, a store whose result is empty, null or HTML, a Cancel after which the server still
 * creates the document, a proposal tab whose proposal is gone (a window reload), a CRLF file selected whole, and
 * a slow server while the user moves the cursors. Then a selection in a read-only editor or a notebook cell, two
 * proposals from reversed selections, Open Beside on a proposal made in the account used before the server changed
 * (or before a sign-out), and a 422 on `name` with an empty list.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { STATE } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { WriteResult } from '../../src/write/commands';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { type MessageCapture, ProgressControl, type RecordingPrompter, sandboxDocument, sleep, until, useSandbox } from './reliabilityKit';
import { cleanUp, eachWriteTest, endWriteSuite, POST, PROPOSAL, proposalTabs, runWriting, selectLines, settleRequests, startWriteSuite, untitled, workspaceFile, type WriteSuite } from './writeKit';

let sandbox: Sandbox;
let s: TestServices;
let prompter: RecordingPrompter;
let messages: MessageCapture;
let suite: WriteSuite;

function stores() {
  return sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/documents');
}

function run(command: string): Promise<WriteResult | undefined> {
  return runWriting(prompter, command);
}

function lineRange(doc: vscode.TextDocument, line: number): vscode.Selection {
  return new vscode.Selection(line - 1, 0, line - 1, doc.lineAt(line - 1).text.length);
}

async function accept(uri: vscode.Uri): Promise<boolean> {
  return (await vscode.commands.executeCommand<boolean>('contentDocs.proposalAccept', uri)) === true;
}

describe('write edges: several cursors, 422 field messages, empty or HTML results, Cancel then created, a proposal gone after a reload', function () {
  this.timeout(60_000);

  before(async () => {
    suite = await startWriteSuite();
    ({ sandbox, s, prompter, messages } = suite);
    // A remembered language and tone: no account read gets in the way.
    await s.context.globalState.update(STATE.writeStyle, { language: 'en', tone: 'Professional' });
  });

  eachWriteTest(() => suite, { autoDismiss: true });
  after(() => endWriteSuite(suite));

  // --- Several cursors -----------------------------------------------------------------------------------

  it('several selections: only the first (primary) is sent and replaced; the text of the others is untouched by Accept', async () => {
    const editor = await workspaceFile('cursors.md', POST);
    const doc = editor.document;
    editor.selections = [lineRange(doc, 3), lineRange(doc, 12), lineRange(doc, 9)];
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const sent = stores()[0]?.body;
    assert.ok(sent, 'a store was sent');
    assert.ok(sent.prompt.includes('We ship the new editor on Monday.'), 'the first selection is sent');
    assert.ok(!sent.prompt.includes('Thanks for reading') && !sent.prompt.includes('A new toolbar'), 'the others are not');
    assert.strictEqual(sent.name, 'Rewrite · cursors.md:3');
    const confirm = prompter.asked.find((q) => q.kind === 'confirm');
    assert.match(confirm?.message ?? '', /Only the first selection \(line 3\) is used; the other selections \(2\) are left as they are\./);
    assert.strictEqual(await accept(result.proposal.uri), true);
    const now = editor.document.getText();
    assert.strictEqual(now, POST.replace('We ship the new editor on Monday.', result.proposal.replacement));
    assert.ok(now.includes('\n- A new toolbar\n') && now.includes('\nThanks for reading.\n'), 'the other selections keep their text');
  });

  it('several cursors in an untitled editor whose first one selects nothing: refused before sending, never the whole text', async () => {
    const text = 'One line.\nTwo line.\nThree line.\n';
    const editor = await untitled(text);
    editor.selections = [new vscode.Selection(0, 3, 0, 3), lineRange(editor.document, 2), lineRange(editor.document, 3)];
    assert.strictEqual(await run('contentDocs.selectionSummarize'), undefined);
    const warning = await messages.waitFor('the refusal', (m) => m.level === 'warning');
    assert.match(warning.message, /^Summarize Selection: there are 3 cursors and the first one selects nothing\. .*Nothing was sent\.$/);
    assert.strictEqual(prompter.asked.length, 0, 'not even asked');
    assert.strictEqual(stores().length, 0);
    assert.strictEqual(editor.document.getText(), text);
  });

  it('several cursors in an untitled editor: Accept replaces the first selection only', async () => {
    const text = 'Alpha paragraph here.\n\nBeta paragraph here.\n\nGamma paragraph here.\n';
    const editor = await untitled(text);
    editor.selections = [lineRange(editor.document, 3), lineRange(editor.document, 1), lineRange(editor.document, 5)];
    const result = await run('contentDocs.selectionFixGrammar');
    assert.ok(result?.proposal);
    assert.strictEqual(await accept(result.proposal.uri), true);
    assert.strictEqual(editor.document.getText(), text.replace('Beta paragraph here.', result.proposal.replacement));
  });

  // --- 422 with several messages -----------------------------------------------------------------------------

  it('a 422 on name and prompt: every message is shown, nothing changes in the editor', async () => {
    const editor = await workspaceFile('invalid.md', POST);
    selectLines(editor, 3, 4);
    sandbox.setFault('documents.store', {
      kind: 'status422',
      count: 1,
      fields: { name: ['You have reached the words limit.'], prompt: ['The prompt must not be greater than 1000 characters.', 'The prompt format is invalid.'] },
    });
    assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
    const error = await messages.waitFor('the 422 message', (m) => m.level === 'error');
    for (const said of ['You have reached the words limit.', 'The prompt must not be greater than 1000 characters.', 'The prompt format is invalid.']) {
      assert.ok(error.message.includes(said), `"${said}" is shown: ${error.message}`);
    }
    assert.match(error.message, /No document was created\. Your text is unchanged\.$/);
    assert.strictEqual(editor.document.getText(), POST);
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(proposalTabs().length, 0);

    // Both monthly limits reached: the server gives two messages on name; both are shown, and both limits named.
    messages.clear();
    const { plan } = sandbox.account;
    sandbox.setAccount({ counters: { words_month_count: plan.features.words, documents_month_count: plan.features.documents } });
    try {
      prompter.confirms.push(true);
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.selectionRewrite'), undefined);
      const quota = await messages.waitFor('the quota message', (m) => m.level === 'error');
      assert.match(quota.message, /monthly words and documents limit is reached/);
      assert.ok(quota.message.includes('You have reached the words limit.') && quota.message.includes('You created too many documents.'), quota.message);
    } finally {
      sandbox.setAccount({ counters: { words_month_count: 0, documents_month_count: 0 } });
    }
    assert.strictEqual(editor.document.getText(), POST);
  });

  it("a 422 on name that is no quota (an administrator's banned keyword in the name) says the name was refused, not that a limit is reached", async () => {
    const editor = await workspaceFile('launch-secret.md', POST);
    selectLines(editor, 3, 4);
    const banned = sandbox.bannedWords;
    sandbox.bannedWords = ['secret'];
    try {
      assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
      const error = await messages.waitFor('the refusal', (m) => m.level === 'error');
      assert.doesNotMatch(error.message, /limit/i, error.message);
      assert.match(error.message, /^Couldn't rewrite the text: the server refused the document's name "Rewrite · launch-secret\.md[^"]*"\. The server said: "The name contains a keyword that is banned\." No document was created\. Your text is unchanged\.$/);
    } finally {
      sandbox.bannedWords = banned;
    }
    assert.deepStrictEqual(sandbox.requests.filter((r) => r.route === 'documents.store').map((r) => r.status).slice(-1), [422]);
    assert.strictEqual(editor.document.getText(), POST);
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(proposalTabs().length, 0);
  });

  // --- Results with nothing to propose -----------------------------------------------------------------------

  for (const [what, answer] of [
    ['an empty result', ''],
    ['a null result', null],
    ['an HTML-only result without text', '<p><br></p>\n<p>&nbsp;</p>'],
  ] as const) {
    it(`${what}: a clear message, no proposal, the editor unchanged`, async () => {
      const editor = await workspaceFile('nothing.md', POST);
      selectLines(editor, 3, 4);
      sandbox.setModelAnswer(answer);
      const result = await run('contentDocs.selectionRewrite');
      assert.ok(result, 'the document was created');
      assert.strictEqual(result.proposal, undefined, 'no proposal');
      assert.strictEqual(sandbox.documents.get(result.document.id)?.result, answer === null ? null : answer.trim());
      const info = await messages.waitFor('the message', (m) => m.level === 'info' && m.message.includes(result.document.name));
      assert.match(info.message, /was created, but the service wrote no text: nothing to propose\. Your text is unchanged\./);
      assert.ok(info.items.includes('Open Beside'));
      await sleep(200);
      assert.strictEqual(proposalTabs().length, 0);
      assert.strictEqual(editor.document.getText(), POST);
      assert.strictEqual(editor.document.isDirty, false);
    });
  }

  it('an HTML result becomes Markdown in a Markdown file and text in a plain-text file', async () => {
    const html = '<h2>Launch</h2>\n<p>We ship the <strong>new</strong> editor&nbsp;on Monday.</p><ul><li>Faster saves</li><li>A new toolbar</li></ul>';
    sandbox.setModelAnswer(html);
    const md = await workspaceFile('html.md', POST);
    selectLines(md, 3, 4);
    const r1 = await run('contentDocs.selectionRewrite');
    assert.ok(r1?.proposal);
    assert.match(r1.proposal.replacement, /^## Launch\n\nWe ship the \*?\*?new\*?\*? editor.on Monday\.\n\n- Faster saves\n- A new toolbar$/);
    assert.doesNotMatch(r1.proposal.replacement, /<\/?(h2|p|ul|li|strong)>|&nbsp;/);
    assert.strictEqual(await accept(r1.proposal.uri), true);

    await cleanUp();
    const txt = await untitled('We ship the new editor on Monday.\nIt replaces the old one.\n', 'plaintext');
    selectLines(txt, 1, 2);
    const r2 = await run('contentDocs.selectionRewrite');
    assert.ok(r2?.proposal);
    assert.doesNotMatch(r2.proposal.replacement, /<\/?(h2|p|ul|li|strong)>|&nbsp;/, r2.proposal.replacement);
    assert.ok(r2.proposal.replacement.includes('Launch') && r2.proposal.replacement.includes('Faster saves'));
  });

  // --- Cancel, and the server creates the document anyway ---------------------------------------------------

  it('Cancel, then the server still creates the document: the message says so; after a refresh it is in its template group and All Documents; the editor is unchanged', async () => {
    const progress = new ProgressControl().install();
    try {
      const editor = await workspaceFile('cancel-created.md', POST);
      selectLines(editor, 3, 4);
      sandbox.setLatency(1_500);
      const pending = run('contentDocs.selectionRewrite');
      await until('the store on the wire', () => stores().length > 0 || undefined);
      const entry = await until('the progress', () => progress.running.find((r) => !r.done));
      entry.cancel();
      assert.strictEqual(await pending, undefined);
      const info = await messages.waitFor('the cancel message', (m) => m.level === 'info' && /Stopped waiting/.test(m.message));
      assert.match(info.message, /The service may still create the document: it will show in the Documents view after a refresh\./);
      const name = 'Rewrite · cancel-created.md:3';
      const created = await until('the server to create it anyway', () => [...sandbox.documents.values()].find((d) => d.name === name), 10_000);
      sandbox.setLatency(0);
      await sleep(300);
      assert.strictEqual(proposalTabs().length, 0, 'no proposal comes after Cancel');
      assert.strictEqual(editor.document.getText(), POST);
      assert.strictEqual(editor.document.isDirty, false);

      await vscode.commands.executeCommand('contentDocs.documentsRefresh');
      const group = s.documentsTree.templateGroup(14);
      assert.ok(group);
      const inGroup = (await s.documentsTree.load(group)).some((n) => n.kind === 'document' && n.doc.id === created.id);
      const inAll = (await s.documentsTree.load(s.documentsTree.model.allGroup)).some((n) => n.kind === 'document' && n.doc.id === created.id);
      assert.ok(inGroup, 'in Content rewrite after a refresh');
      assert.ok(inAll, 'in All Documents after a refresh');
    } finally {
      progress.dispose();
    }
  });

  // --- A proposal tab restored after a reload --------------------------------------------------------------

  it('a proposal URI whose proposal is gone (a tab restored after a window reload) explains itself instead of showing an empty file; Accept there changes nothing', async () => {
    const editor = await workspaceFile('restored.md', POST);
    const generated = [...sandbox.documents.values()].find((d) => (d.result ?? '').length > 20);
    assert.ok(generated);
    // The URI an earlier window gave its first proposal of this file (it names the account it was made in).
    const account = s.firstOrNone?.label;
    assert.ok(account);
    const stale = vscode.Uri.from({ scheme: PROPOSAL, path: '/1/restored.md', query: `document=${generated.id}&name=Rewrite+%C2%B7+restored.md%3A3&account=${account}` });
    await vscode.commands.executeCommand('vscode.diff', editor.document.uri, stale, 'restored.md ↔ Rewrite · restored.md:3 (proposal)');
    const shown = await vscode.workspace.openTextDocument(stale);
    assert.match(shown.getText(), /^This proposal is no longer available\.\n/);
    assert.ok(shown.getText().includes(`"Rewrite · restored.md:3" (#${generated.id})`), shown.getText());
    // Open Beside in its title still reaches the generated document.
    const beside = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.proposalOpenDocument', stale);
    assert.strictEqual(beside?.document.uri.authority.split('.')[0], String(generated.id));
    await vscode.window.showTextDocument(editor.document, { preview: false });
    assert.match(shown.getText(), /Nothing was changed in your file\./);
    assert.strictEqual(await accept(stale), false);
    await messages.waitFor('the warning', (m) => m.level === 'warning' && /no proposal to accept/.test(m.message));
    assert.strictEqual(editor.document.getText(), POST);

    // A new proposal of the same file in this window is its own document, not the restored tab's.
    await vscode.window.showTextDocument(editor.document, { preview: false });
    selectLines(editor, 3, 3);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    assert.notStrictEqual(result.proposal.uri.toString(), stale.toString());
    const proposed = await vscode.workspace.openTextDocument(result.proposal.uri);
    assert.strictEqual(proposed.getText(), result.proposal.proposedText);
    assert.ok(proposed.getText().includes(result.proposal.replacement));

    // Once settled, the proposal's URI explains itself too.
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri), true);
    const key = result.proposal.uri.toString();
    await until('the proposal document to be closed', () => !vscode.workspace.textDocuments.some((d) => d.uri.toString() === key) || undefined, 2_000).catch(() => undefined);
    if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) {
      const again = await vscode.workspace.openTextDocument(result.proposal.uri);
      assert.match(again.getText(), /^This proposal is no longer available\./);
    }
  });

  // --- CRLF whole file, a slow server while the cursors move ---------------------------------------------

  it('a CRLF file selected whole: Accept replaces all of it with CRLF line ends, one undo restores it character for character', async () => {
    const text = '# Title\r\n\r\nFirst paragraph.\r\n\r\n- one\r\n- two\r\n';
    const editor = await workspaceFile('crlf-all.md', text);
    const doc = editor.document;
    editor.selection = new vscode.Selection(doc.positionAt(0), doc.positionAt(doc.getText().length));
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    assert.strictEqual(stores()[0]?.body?.name, 'Rewrite · crlf-all.md:1');
    const crlfOnly = (t: string) => !/(^|[^\r])\n/.test(t);
    assert.ok(crlfOnly(result.proposal.proposedText), 'the proposal (the diff) has the file\'s CRLF line ends: only the words differ');
    assert.strictEqual(await accept(result.proposal.uri), true);
    const now = editor.document.getText();
    assert.ok(crlfOnly(now), 'every line end is CRLF');
    assert.strictEqual(now, result.proposal.replacement.replace(/\r?\n/g, '\r\n'));
    assert.ok(now.endsWith('\r\n'), "the selection's final line end is kept");
    const active = vscode.window.activeTextEditor;
    assert.strictEqual(active?.document.getText(active.selection), now, 'the selection covers exactly what was inserted: the whole file');
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), text, 'one undo restores it, CRLF and all');
  });

  it('a slow server while the user adds cursors and selects elsewhere: Accept still replaces only the text that was sent', async () => {
    const editor = await workspaceFile('slow.md', POST);
    const doc = editor.document;
    editor.selection = lineRange(doc, 12);
    sandbox.setLatency(2_000);
    const pending = run('contentDocs.selectionRewrite');
    await until('the store on the wire', () => stores().length > 0 || undefined);
    // The user moves on: several cursors elsewhere, one of them typing.
    editor.selections = [lineRange(doc, 3), lineRange(doc, 8)];
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'Draft: ')));
    const edited = doc.getText();
    const result = await pending;
    assert.ok(result?.proposal);
    assert.strictEqual(await accept(result.proposal.uri), true);
    assert.strictEqual(doc.getText(), edited.replace('Thanks for reading.', result.proposal.replacement));
  });
});

/** A read-only file system holding one Markdown file (what Git's `git:` editors and other read-only views are). */
class ReadonlyFs implements vscode.FileSystemProvider {
  static readonly SCHEME = 'readonly-notes';
  readonly uri = vscode.Uri.from({ scheme: ReadonlyFs.SCHEME, path: '/notes.md' });
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  constructor(private readonly text: string) {}
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    if (uri.path !== this.uri.path) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: Buffer.byteLength(this.text) };
  }
  readDirectory(): Array<[string, vscode.FileType]> {
    return [['notes.md', vscode.FileType.File]];
  }
  readFile(uri: vscode.Uri): Uint8Array {
    if (uri.path !== this.uri.path) throw vscode.FileSystemError.FileNotFound(uri);
    return Buffer.from(this.text);
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }
  writeFile(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }
}

describe('write edges: a read-only editor, a notebook cell, reversed selections, a proposal after the server changed, a 422 with an empty list', function () {
  this.timeout(60_000);
  let untitledCount = 0;

  /** A new untitled Markdown editor holding `text`, under its own name (a closed untitled model may linger and be reused). */
  async function untitled(text: string): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `/edges-${++untitledCount}.md` }));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), text));
    return editor;
  }

  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;
  let messages: MessageCapture;
  const stores = (box: Sandbox) => box.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/documents');

  before(async () => {
    ({ sandbox: a, s, prompter, messages } = await startWriteSuite());
    b = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    await s.context.globalState.update(STATE.writeStyle, { language: 'en', tone: 'Professional' });
  });

  beforeEach(async () => {
    prompter.reset();
    messages.clear();
    messages.autoDismiss = true;
    a.clearFaults();
    await useSandbox(s, a);
    await settleRequests(a, 150);
  });

  afterEach(async () => {
    messages.dismissAll();
    await cleanUp();
  });

  after(async () => {
    messages?.dispose();
    await cleanUp();
    await s?.context.globalState.update(STATE.writeStyle, undefined);
    if (a) await useSandbox(s, a);
    await a?.close();
    await b?.close();
  });

  it('a selection in a read-only editor is refused before anything is sent (no document, no quota for a proposal that cannot be applied)', async () => {
    const text = '# Read only\n\nThis file cannot be edited here.\n';
    const ro = new ReadonlyFs(text);
    const registration = vscode.workspace.registerFileSystemProvider(ReadonlyFs.SCHEME, ro, { isReadonly: true });
    try {
      await until('VS Code to know the file system is read-only', () => vscode.workspace.fs.isWritableFileSystem(ReadonlyFs.SCHEME) === false);
      const editor = await vscode.window.showTextDocument(ro.uri, { preview: false });
      editor.selection = new vscode.Selection(2, 0, 2, editor.document.lineAt(2).text.length);
      assert.strictEqual(await runWriting(prompter, 'contentDocs.selectionRewrite'), undefined);
      const warning = await messages.waitFor('the refusal', (m) => m.level === 'warning' || m.level === 'error');
      assert.match(warning.message, /read-only/);
      assert.match(warning.message, /Nothing was sent/);
      assert.strictEqual(prompter.asked.filter((q) => q.kind === 'confirm').length, 0, 'not even asked');
      assert.strictEqual(stores(a).length, 0, 'no document was created');
      assert.strictEqual(proposalTabs().length, 0);
      // The Code Actions do not offer what the command refuses.
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', ro.uri, editor.selection, vscode.CodeActionKind.Refactor.value);
      assert.deepStrictEqual(
        actions.filter((x) => x.title.startsWith('Content Docs:')).map((x) => x.title),
        [],
        'no Content Docs Code Action on a read-only file',
      );
    } finally {
      await cleanUp();
      registration.dispose();
    }
  });

  it('a selection in a notebook cell: the proposal replaces that text in that cell only, the other cells untouched', async () => {
    const first = 'print("first cell")';
    const text = 'A paragraph in a cell.\nIts second line.';
    const nb = await vscode.workspace.openNotebookDocument(
      'jupyter-notebook',
      new vscode.NotebookData([new vscode.NotebookCellData(vscode.NotebookCellKind.Code, first, 'python'), new vscode.NotebookCellData(vscode.NotebookCellKind.Code, text, 'markdown')]),
    );
    await vscode.window.showNotebookDocument(nb);
    try {
      await rewriteInCell(nb, first, text);
    } finally {
      // An untitled notebook with changes would ask to be saved when closed.
      await vscode.window.showNotebookDocument(nb);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  async function rewriteInCell(nb: vscode.NotebookDocument, first: string, text: string): Promise<void> {
    const cell = nb.cellAt(1).document;
    const editor = await until('the cell\'s editor', () => vscode.window.visibleTextEditors.find((e) => e.document === cell));
    editor.selection = new vscode.Selection(0, 0, 0, 'A paragraph in a cell.'.length);
    prompter.confirms.push(true);
    const result = await vscode.commands.executeCommand<WriteResult | undefined>('contentDocs.selectionRewrite', cell.uri);
    assert.ok(result?.proposal, `a proposal (messages: ${messages.shown.map((m) => m.message).join(' | ')})`);
    assert.strictEqual(messages.errors().length, 0, messages.errors().map((m) => m.message).join(' | '));
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', result.proposal.uri), true);
    assert.strictEqual(cell.getText(), text.replace('A paragraph in a cell.', result.proposal.replacement));
    assert.strictEqual(nb.cellAt(0).document.getText(), first, 'the other cell is untouched');
    assert.strictEqual(nb.cellCount, 2);
  }

  it('two proposals for one file from reversed selections (anchor after the cursor): each lands where its text is; one over text the other replaced is refused', async () => {
    const text = 'First paragraph here.\n\nSecond paragraph here.\n';
    const editor = await untitled(text);
    // Selected from the end backwards, as a mouse drag to the left does.
    editor.selection = new vscode.Selection(0, 'First paragraph here.'.length, 0, 0);
    const p1 = (await runWriting(prompter, 'contentDocs.selectionRewrite'))?.proposal;
    // The diff took the focus: back to the file (a new editor object for it).
    let again = await vscode.window.showTextDocument(editor.document, { preview: false });
    again.selection = new vscode.Selection(2, 'Second paragraph here.'.length, 2, 0);
    const p2 = (await runWriting(prompter, 'contentDocs.selectionRewrite'))?.proposal;
    again = await vscode.window.showTextDocument(editor.document, { preview: false });
    again.selection = new vscode.Selection(0, 'First paragraph'.length, 0, 0);
    const p3 = (await runWriting(prompter, 'contentDocs.selectionRewrite'))?.proposal;
    assert.ok(p1 && p2 && p3, 'three proposals');
    assert.strictEqual(p1.original, 'First paragraph here.');
    assert.strictEqual(p2.original, 'Second paragraph here.');
    // The earlier one first: its longer text moves the other, which still lands on its own text.
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', p1.uri), true);
    assert.notStrictEqual(p1.replacement.length, p1.original.length);
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', p2.uri), true);
    const expected = `${p1.replacement}\n\n${p2.replacement}\n`;
    assert.strictEqual(editor.document.getText(), expected);
    messages.clear();
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', p3.uri), false, 'its text was replaced by the first proposal');
    await messages.waitFor('the refusal', (m) => m.level === 'warning' && /Not applied/.test(m.message));
    assert.strictEqual(editor.document.getText(), expected);
  });

  it('Open Beside on a proposal made before the server changed does not open the new server\'s document of the same id', async () => {
    const editor = await untitled('Alpha paragraph.\n\nBeta paragraph.\n');
    editor.selection = new vscode.Selection(0, 0, 0, 'Alpha paragraph.'.length);
    const result = await runWriting(prompter, 'contentDocs.selectionRewrite');
    assert.ok(result?.proposal, 'a proposal');
    const id = result.document.id;
    // The other server has its own document under that id.
    b.documents.set(id, sandboxDocument(id, 'Account B secret', 'B text'));
    await useSandbox(s, b);
    b.resetRequests();
    messages.clear();
    const opened = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('contentDocs.proposalOpenDocument', result.proposal.uri);
    await sleep(300);
    const shown = vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme === 'content-docs' && e.document.uri.authority.split('.')[0] === String(id));
    assert.deepStrictEqual(
      shown.map((e) => e.document.getText()),
      [],
      'the other account\'s document of the same id is not opened',
    );
    assert.strictEqual(opened, undefined);
    assert.strictEqual(b.requests.filter((r) => r.path === `/api/v1/documents/${id}`).length, 0, 'nothing asked of the other server about that id');
    const error = await messages.waitFor('the explanation', (m) => m.level === 'error' || m.level === 'warning');
    assert.match(error.message, /account/);
    assert.ok(error.message.includes(result.document.name), `names the generated document: ${error.message}`);
    // Accept still works: it changes only the local file, with the text already received.
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', result.proposal.uri), true);
    assert.strictEqual(editor.document.getText(), `${result.proposal.replacement}\n\nBeta paragraph.\n`);
  });

  it('a proposal tab restored after a reload, made on another server: Open Beside opens nothing there and names the document; on its own server it opens', async () => {
    const id = 987_654;
    a.documents.set(id, sandboxDocument(id, 'Rewrite · notes.md:1', 'A text'));
    b.documents.set(id, sandboxDocument(id, 'Account B secret', 'B text'));
    // What VS Code restores: a proposal URI of an earlier window (it names the account it was made in), this window
    // holding no proposal for it.
    await useSandbox(s, a);
    const madeIn = s.firstOrNone?.label;
    assert.ok(madeIn);
    const stale = (account: string) =>
      vscode.Uri.from({ scheme: 'content-docs-proposal', path: '/earlier-window-1/notes.md', query: new URLSearchParams({ document: String(id), name: 'Rewrite · notes.md:1', account }).toString() });
    await useSandbox(s, b);
    b.resetRequests();
    messages.clear();
    const opened = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('contentDocs.proposalOpenDocument', stale(madeIn));
    assert.strictEqual(opened, undefined);
    assert.strictEqual(b.requests.filter((r) => r.path === `/api/v1/documents/${id}`).length, 0, 'nothing asked of the other server about that id');
    const said = await messages.waitFor('the explanation', (m) => m.level === 'error');
    assert.ok(said.message.includes('Rewrite · notes.md:1'), said.message);
    await useSandbox(s, a);
    const mine = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('contentDocs.proposalOpenDocument', stale(madeIn));
    assert.strictEqual(mine?.document.getText(), 'A text', 'on the server it was made on, its document opens');
    // An earlier version's proposal URI named no account: which document it means cannot be proven, so none opens.
    const earlier = vscode.Uri.from({ scheme: 'content-docs-proposal', path: '/earlier-window-2/notes.md', query: new URLSearchParams({ document: String(id), name: 'Rewrite · notes.md:1' }).toString() });
    messages.clear();
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalOpenDocument', earlier), undefined);
    assert.ok((await messages.waitFor('the explanation', (m) => m.level === 'error')).message.includes('Rewrite · notes.md:1'));
  });

  it('signed out while a proposal is open: Accept still works, Open Beside says why it cannot open; signed in again with the same key, it opens', async () => {
    const editor = await untitled('Delta paragraph.\n\nEpsilon paragraph.\n');
    editor.selection = new vscode.Selection(2, 0, 2, 'Epsilon paragraph.'.length);
    const first = await runWriting(prompter, 'contentDocs.selectionRewrite');
    assert.ok(first?.proposal);
    await s.credentials.clearKey();
    messages.clear();
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalOpenDocument', first.proposal.uri), undefined);
    const said = await messages.waitFor('the explanation', (m) => m.level === 'error');
    assert.ok(said.message.includes(first.document.name), said.message);
    await s.credentials.setKey(a.key);
    const opened = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('contentDocs.proposalOpenDocument', first.proposal.uri);
    assert.strictEqual(opened?.document.uri.authority.split('.')[0], String(first.document.id), 'the same key is the same account: its document opens');
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', first.proposal.uri), true);
    assert.strictEqual(editor.document.getText(), `Delta paragraph.\n\n${first.proposal.replacement}\n`);
  });

  it('a 422 on name with an empty list, no limit reached: the name was refused, said without an empty quotation or a dangling "name:"', async () => {
    const editor = await untitled('Gamma paragraph.\n');
    editor.selection = new vscode.Selection(0, 0, 0, 'Gamma paragraph.'.length);
    a.setFault('documents.store', { kind: 'status422', count: 1, fields: { name: [] } });
    assert.strictEqual(await runWriting(prompter, 'contentDocs.selectionRewrite'), undefined);
    const error = await messages.waitFor('the 422 message', (m) => m.level === 'error');
    assert.match(error.message, /the server refused the document's name/);
    assert.doesNotMatch(error.message, /limit/);
    assert.doesNotMatch(error.message, /said: ""/);
    assert.doesNotMatch(error.message, /name: *(\.|$|Your|No)/);
    assert.match(error.message, /No document was created\. Your text is unchanged\.$/);
    assert.strictEqual(editor.document.getText(), 'Gamma paragraph.\n');
  });
});
