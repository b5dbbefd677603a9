/**
 * Insert at Cursor and Replace Selection (src/files/insert.ts), inside a real VS Code against the sandbox: when
 * someone else changed or deleted the document after the Documents view listed it, the text put in is the one the
 * server has now (or nothing); on every URI form of a document, its own editor and its account-folder editor are
 * never the target.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { DocumentNode } from '../../src/model/nodes';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { accountUriOf, closeEditors, MessageCapture, services, useSandbox } from './reliabilityKit';

let s: TestServices;
const messages = new MessageCapture();

let untitledCount = 0;

/** A new untitled editor holding `text` (its own URI each time: a closed untitled model may linger and be reused). */
async function untitled(text: string): Promise<vscode.TextEditor> {
  const d = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `/insert-${++untitledCount}.md` }));
  const editor = await vscode.window.showTextDocument(d, vscode.ViewColumn.One);
  await editor.edit((b) => b.insert(new vscode.Position(0, 0), text));
  return editor;
}

describe('Insert at Cursor / Replace Selection take the text the server has now', function () {
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
    const created = await s.documents.create({ name: `Insert ${Date.now()}`, prompt: 'A text to insert', creativity: 0.5, templateId: 1 });
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
