/**
 * Attacks on the newest features, inside a real VS Code against the sandbox: Insert at Cursor and Replace
 * Selection when someone else changed or deleted the document after the Documents view listed it, on every
 * URI form of a document (its own editor and its account-folder editor are never the target), and the plan
 * usage status bar when the key or the server changes while an account read is on the wire, and a document
 * read, rename or delete answered after the server changed (the same id is another document there).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { Services } from '../../src/services/services';
import type { DocumentNode } from '../../src/model/nodes';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { accountUriOf, closeAll, configure, MessageCapture, services, sleep, until, useSandbox } from './reliabilityKit';

let s: Services;
const messages = new MessageCapture();

/** Closes every editor; untitled buffers of these tests are reverted first (no "Save?" dialog). */
async function closeEditors(): Promise<void> {
  for (const d of vscode.workspace.textDocuments) {
    if (d.uri.scheme !== 'untitled' || !d.isDirty) continue;
    await vscode.window.showTextDocument(d);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await closeAll();
}

let untitledCount = 0;

/** A new untitled editor holding `text` (its own URI each time: a closed untitled model may linger and be reused). */
async function untitled(text: string): Promise<vscode.TextEditor> {
  const d = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `/attack-${++untitledCount}.md` }));
  const editor = await vscode.window.showTextDocument(d, vscode.ViewColumn.One);
  await editor.edit((b) => b.insert(new vscode.Position(0, 0), text));
  return editor;
}

describe('attack: Insert at Cursor / Replace Selection take the text the server has now', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    messages.install();
    await useSandbox(s, sandbox);
  });

  after(async () => {
    messages.dispose();
    await closeEditors();
    await sandbox?.close();
  });

  beforeEach(async () => {
    messages.clear();
    await closeEditors();
  });

  /** A fresh document with a result, listed by the Documents view (the row the user clicks). */
  async function listed(result: string): Promise<{ doc: SandboxDocument; row: DocumentNode }> {
    const created = await s.documents.create({ name: `Attack ${Date.now()}`, prompt: 'An attack', creativity: 0.5, templateId: 1 });
    const doc = sandbox.documents.get(created.id)!;
    doc.result = result;
    await s.documents.fetch(doc.id);
    const rows = (await s.documentsTree.load(s.documentsTree.model.allGroup)).filter((n): n is DocumentNode => n.kind === 'document');
    const row = rows.find((n) => n.doc.id === doc.id);
    assert.ok(row, 'the new document is listed');
    assert.strictEqual(s.documents.get(doc.id)?.result, result, 'the listing brought its text');
    return { doc, row };
  }

  it('changed elsewhere after the view listed it: Insert puts the text the server has now, not the listed copy', async () => {
    const { doc, row } = await listed('Old text as listed.');
    // Someone else edits it in the web UI.
    doc.result = '<p>New text from the web UI.</p>';
    doc.updatedAt = new Date(doc.updatedAt.getTime() + 5_000);
    const editor = await untitled('Here: ');
    editor.selection = new vscode.Selection(0, 6, 0, 6);
    assert.strictEqual(await vscode.commands.executeCommand(CMD.documentInsertAtCursor, row), true);
    assert.strictEqual(editor.document.getText(), 'Here: <p>New text from the web UI.</p>');
  });

  it('deleted elsewhere after the view listed it: Replace Selection changes nothing, says it is gone, and the row goes', async () => {
    const { doc, row } = await listed('Text of a document about to be deleted.');
    sandbox.documents.delete(doc.id);
    const original = 'Keep me. Replace me.';
    const editor = await untitled(original);
    editor.selection = new vscode.Selection(0, 9, 0, 20);
    assert.strictEqual(await vscode.commands.executeCommand(CMD.documentReplaceSelection, row), false);
    assert.strictEqual(editor.document.getText(), original, 'the text of a deleted document is not put in');
    const said = await messages.waitFor('the error', (m) => m.level === 'error');
    assert.match(said.message, new RegExp(`document ${doc.id}`));
    assert.strictEqual(s.documents.get(doc.id), undefined, 'forgotten');
    const rows = (await s.documentsTree.load(s.documentsTree.model.allGroup)).filter((n): n is DocumentNode => n.kind === 'document');
    assert.ok(!rows.some((n) => n.doc.id === doc.id), 'the row is gone');
  });

  it("never into the document itself: its content-docs://ID editor and its account-folder editor are both skipped, whichever form is the argument", async () => {
    const { doc } = await listed('Self text.');
    const accountUri = await accountUriOf(s, doc.id);
    const target = await untitled('T:');
    target.selection = new vscode.Selection(0, 2, 0, 2);
    const idEditor = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', doc.id);
    assert.strictEqual(idEditor.document.uri.authority.split('.')[0], String(doc.id));
    const accountEditor = await vscode.window.showTextDocument(accountUri, { viewColumn: vscode.ViewColumn.Three, preview: false });
    assert.strictEqual(vscode.window.visibleTextEditors.length, 3);
    // The account-folder editor is active, its URI the argument; the content-docs://ID editor is the same
    // document: the untitled editor is the only target.
    assert.strictEqual(await vscode.commands.executeCommand(CMD.documentInsertAtCursor, accountUri), true);
    assert.strictEqual(target.document.getText(), 'T:Self text.');
    assert.strictEqual(accountEditor.document.getText(), 'Self text.', 'the document itself is unchanged');
    assert.strictEqual(idEditor.document.getText(), 'Self text.');
    assert.strictEqual(idEditor.document.isDirty, false);
    assert.strictEqual(accountEditor.document.isDirty, false);
  });
});

describe('attack: plan usage when the key or server changes while an account read is on the wire', function () {
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

describe('attack: a document read or changed while the key or server changes', function () {
  this.timeout(60_000);
  let a: Sandbox;
  let b: Sandbox;
  const ID = 4242;

  /** The same id on both servers, another document on each, newest of all (first in All Documents). */
  function seedBoth(): void {
    const at = new Date(Date.now() + 86_400_000);
    const doc = (name: string, result: string): SandboxDocument =>
      ({ id: ID, name, templateId: 1, result, words: 2, favorite: false, createdAt: at, updatedAt: at });
    a.documents.set(ID, doc('Account A document', 'A text'));
    b.documents.set(ID, doc('Account B document', 'B text'));
  }

  before(async () => {
    a = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    b = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    seedBoth();
    s = await services();
    await closeEditors();
  });

  after(async () => {
    await a?.close();
    await b?.close();
  });

  it('a read answered after the server changed is refused and not remembered for the new server', async () => {
    await useSandbox(s, a);
    a.setLatency(1500);
    const read = s.documents.fetch(ID);
    await until('the read on the wire', () => a.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/documents/${ID}`)));
    await configure('documents.baseUrl', b.docsUrl);
    await assert.rejects(read, /changed/);
    assert.strictEqual(s.documents.get(ID), undefined, 'account A\'s copy is not known under account B');
    a.setLatency(0);
  });

  it('a rename answered after the server changed is not shown on the new server\'s document of the same id', async () => {
    await useSandbox(s, b);
    const tree = s.documentsTree;
    await tree.load(tree.model.allGroup);
    const rowName = async () => (await tree.getChildren(tree.model.allGroup)).flatMap((n) => (n.kind === 'document' && n.doc.id === ID ? [n.doc.name] : []))[0];
    await until('B\'s document listed', async () => (await rowName()) === 'Account B document' || undefined);
    await useSandbox(s, a);
    a.setLatency(1500);
    const renamed: string[] = [];
    const sub = s.documents.onDidChange(({ doc }) => renamed.push(doc.name));
    const rename = s.documents.rename(ID, 'Renamed in A');
    await until('the rename on the wire', () => a.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/documents/${ID}`)));
    await configure('documents.baseUrl', b.docsUrl);
    await assert.rejects(rename, /changed/);
    sub.dispose();
    a.setLatency(0);
    assert.strictEqual(a.documents.get(ID)!.name, 'Renamed in A', 'the server it was sent to did rename it');
    assert.deepStrictEqual(renamed, [], 'no view heard of A\'s rename');
    await tree.load(tree.model.allGroup);
    await until('B\'s row', async () => (await rowName()) !== undefined || undefined);
    assert.strictEqual(await rowName(), 'Account B document');
    assert.strictEqual(s.documents.get(ID)?.name ?? 'Account B document', 'Account B document');
  });

  it('a delete answered after the server changed leaves the new server\'s document of the same id in the view', async () => {
    seedBoth();
    await useSandbox(s, b);
    const tree = s.documentsTree;
    await tree.load(tree.model.allGroup);
    const listed = async () => (await tree.getChildren(tree.model.allGroup)).some((n) => n.kind === 'document' && n.doc.id === ID);
    await until('B\'s document listed', async () => (await listed()) || undefined);
    await useSandbox(s, a);
    a.setLatency(1500);
    const gone: number[] = [];
    const sub = s.documents.onDidDelete((d) => gone.push(d.id));
    const deletion = s.documents.delete(ID);
    await until('the delete on the wire', () => a.requests.some((r) => r.method === 'DELETE' && r.path.endsWith(`/documents/${ID}`)));
    await configure('documents.baseUrl', b.docsUrl);
    await assert.rejects(deletion, /changed/);
    sub.dispose();
    a.setLatency(0);
    assert.strictEqual(a.documents.has(ID), false, 'the server it was sent to deleted it');
    assert.deepStrictEqual(gone, [], 'no view heard of A\'s delete');
    await tree.load(tree.model.allGroup);
    await until('B\'s row still there', async () => (await listed()) || undefined);
  });
});
