/**
 * Attacks on the writing actions' and the document service's newest changes, inside a real VS Code against the
 * sandbox: a selection in an editor whose file system is read-only, Open Beside on a proposal made in the account
 * used before the server changed, a 422 on `name` with an empty list, a favorite toggled in the new account while
 * a change of the previous account's document of the same id hangs, a save answered after the server changed, and
 * a sign-out and sign-in with the same key while a change is on the wire.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { STATE } from '../../src/constants';
import type { Services } from '../../src/services/services';
import type { WriteResult } from '../../src/write/commands';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { configure, type MessageCapture, type RecordingPrompter, SaveErrors, services, sleep, until, useSandbox } from './reliabilityKit';
import { cleanUp, proposalTabs, runWriting, settleRequests, startWriteSuite } from './writeKit';

/** A read-only file system holding one Markdown file (what Git's `git:` editors and other read-only views are). */
class ReadonlyFs implements vscode.FileSystemProvider {
  static readonly SCHEME = 'attack2-readonly';
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

let untitledCount = 0;

/** A new untitled Markdown editor holding `text`, under its own name (a closed untitled model may linger and be reused). */
async function untitled(text: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `/attack2-${++untitledCount}.md` }));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  await editor.edit((b) => b.insert(new vscode.Position(0, 0), text));
  return editor;
}

function sandboxDocument(id: number, name: string, result: string, extra: Partial<SandboxDocument> = {}): SandboxDocument {
  const at = new Date(Date.now() + 86_400_000);
  return { id, name, templateId: 1, result, words: 2, favorite: false, createdAt: at, updatedAt: at, ...extra };
}

describe('attack2: the writing actions on a read-only editor, after the server changed, and a 422 with an empty list', function () {
  this.timeout(60_000);
  let a: Sandbox;
  let b: Sandbox;
  let s: Services;
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
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', ro.uri, editor.selection);
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
    const madeIn = await s.documents.currentAccount();
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

describe('attack2: a document changed while the key or the server changes', function () {
  this.timeout(90_000);
  let a: Sandbox;
  let b: Sandbox;
  let s: Services;
  const ID = 4343;

  function seedBoth(): void {
    a.documents.set(ID, sandboxDocument(ID, 'Account A doc', 'A text'));
    b.documents.set(ID, sandboxDocument(ID, 'Account B doc', 'B text'));
  }

  before(async () => {
    a = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    b = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
  });

  beforeEach(async () => {
    seedBoth();
    a.clearFaults();
    b.clearFaults();
    a.setLatency(0);
    b.setLatency(0);
    a.resetRequests();
    b.resetRequests();
    await cleanUp();
  });

  after(async () => {
    await configure('network.timeoutSeconds', undefined);
    await cleanUp();
    await a?.close();
    await b?.close();
  });

  it('a favorite toggled in the new account is sent at once, not queued behind a change of the previous account\'s document of the same id', async () => {
    await configure('network.timeoutSeconds', 20);
    await useSandbox(s, a);
    a.setFault('documents.update', { kind: 'hang' });
    const rename = s.documents.rename(ID, 'Renamed in A');
    void rename.catch(() => undefined);
    await until('the rename on the wire', () => a.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/documents/${ID}`)));
    await useSandbox(s, b);
    await s.documents.fetch(ID);
    const t0 = Date.now();
    const favorite = s.documents.setFavorite(ID, true);
    await until('the favorite sent to the new server', () => b.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/documents/${ID}`)), 5_000);
    const doc = await favorite;
    assert.ok(Date.now() - t0 < 5_000);
    assert.strictEqual(doc.name, 'Account B doc');
    assert.strictEqual(b.documents.get(ID)!.favorite, true);
    assert.strictEqual(a.documents.get(ID)!.favorite, false, 'nothing of it went to the previous server');
    a.clearFaults();
  });

  it('a save answered after the server changed: the editor stays dirty with a message that says so, and a second save never writes into the new server\'s document of the same id', async () => {
    await useSandbox(s, a);
    const saveErrors = new SaveErrors(s);
    try {
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', ID);
      assert.strictEqual(editor.document.getText(), 'A text');
      const typed = 'A text, edited before the switch.';
      await editor.edit((e) => e.replace(new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(editor.document.getText().length)), typed));
      a.setLatency(1500);
      a.resetRequests();
      const saving = editor.document.save();
      await until('the PATCH on the wire', () => a.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/documents/${ID}`)));
      await configure('documents.baseUrl', b.docsUrl);
      assert.strictEqual(await saving, false, 'the save is reported as failed');
      a.setLatency(0);
      assert.strictEqual(editor.document.isDirty, true, 'the editor stays dirty');
      assert.strictEqual(editor.document.getText(), typed, 'the text is intact');
      assert.match(saveErrors.last()?.message ?? JSON.stringify(saveErrors.errors), /Couldn't save "Account A doc": the API key or server changed/);
      assert.strictEqual(a.documents.get(ID)!.result, typed, 'the server it was sent to has it');
      assert.strictEqual(b.documents.get(ID)!.result, 'B text');
      // Saving again: never into B's document of the same id without the user's explicit word.
      const again = await editor.document.save();
      assert.strictEqual(again, false, 'the second save does not go through');
      assert.strictEqual(b.documents.get(ID)!.result, 'B text', 'nothing written into the new server\'s document');
      assert.strictEqual(b.requests.filter((r) => r.method === 'PATCH').length, 0);
      assert.strictEqual(editor.document.getText(), typed);
    } finally {
      saveErrors.dispose();
      a.setLatency(0);
    }
  });

  it('signed out and in again with the same key while a save is on the wire: the save is the same account\'s, so the editor is saved (no false failure, no conflict)', async () => {
    await useSandbox(s, a);
    const saveErrors = new SaveErrors(s);
    try {
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', ID);
      assert.strictEqual(editor.document.getText(), 'A text');
      const typed = 'A text, saved while signing in again.';
      await editor.edit((e) => e.replace(new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(editor.document.getText().length)), typed));
      a.setLatency(1500);
      a.resetRequests();
      const saving = editor.document.save();
      await until('the PATCH on the wire', () => a.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/documents/${ID}`)));
      await s.credentials.clearKey();
      await s.credentials.setKey(a.key);
      assert.strictEqual(await saving, true, `the save went through (${JSON.stringify(saveErrors.errors)})`);
      a.setLatency(0);
      assert.strictEqual(editor.document.isDirty, false);
      assert.strictEqual(a.documents.get(ID)!.result, typed);
      // Saving again later is an ordinary save, not "changed on the server".
      await editor.edit((e) => e.insert(editor.document.positionAt(editor.document.getText().length), ' More.'));
      assert.strictEqual(await editor.document.save(), true, `the next save too (${JSON.stringify(saveErrors.errors)})`);
      assert.strictEqual(a.documents.get(ID)!.result, `${typed} More.`);
    } finally {
      saveErrors.dispose();
      a.setLatency(0);
    }
  });

  it('signed out and in again with the same key while a rename is on the wire: the rename is the same account\'s, so it is accepted', async () => {
    await useSandbox(s, a);
    await s.documents.fetch(ID);
    a.setLatency(1500);
    a.resetRequests();
    const rename = s.documents.rename(ID, 'Renamed while signing in again');
    await until('the rename on the wire', () => a.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/documents/${ID}`)));
    await s.credentials.clearKey();
    await s.credentials.setKey(a.key);
    const doc = await rename;
    a.setLatency(0);
    assert.strictEqual(doc.name, 'Renamed while signing in again');
    assert.strictEqual(s.documents.get(ID)?.name, 'Renamed while signing in again', 'known as renamed');
    // Another key on the same server is another account: still refused.
    a.setLatency(1500);
    const other = s.documents.rename(ID, 'Renamed before another key');
    await until('the second rename on the wire', () => a.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/documents/${ID}`)).length === 2);
    await s.credentials.setKey('another-key-0123456789');
    await assert.rejects(other, /changed/);
    a.setLatency(0);
    await s.credentials.setKey(a.key);
  });
});
