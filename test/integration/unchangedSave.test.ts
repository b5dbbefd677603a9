/**
 * A save that changes nothing sends nothing (issue 22). A tab whose text is what the server last gave for its document
 * (Ctrl+S on a clean tab, a letter typed and deleted, a final newline the server trims away) is saved without a
 * request — no read, no PATCH — and ends clean, the status bar saying "Saved": for Markdown, plain text and HTML
 * results, under both URI forms, with auto-save, and per account. A real edit still sends one PATCH, and a change made
 * on the server meanwhile is still caught when the user really changed the text.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { detectFormat } from '../../src/content/format';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import {
  accountUriOf,
  closeAll,
  configure,
  DocumentPool,
  openDocument,
  replaceAll,
  SaveErrors,
  services,
  sleep,
  until,
  useSandbox,
  type AnyNode,
} from './reliabilityKit';

/** Longer than the file system's reuse of a read (src/files/documentRecords.ts): a stat now would ask the server. */
const PAST_READS_MS = 2_300;

function files(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('files');
}

/** Requests about one document (its GETs and PATCHes) since `from`, and every PATCH, as "METHOD path -> status". */
function documentRequests(sandbox: Sandbox, id: number, from: number): string[] {
  return sandbox.requests
    .slice(from)
    .filter((r) => r.path === `/api/v1/documents/${id}` || r.method === 'PATCH')
    .map((r) => `${r.method} ${r.path} -> ${r.status}`);
}

/** A letter typed at the end and deleted again: VS Code counts the editor dirty, its text is what it was. */
async function typeAndDelete(editor: vscode.TextEditor): Promise<void> {
  const before = editor.document.getText();
  const end = () => editor.document.positionAt(editor.document.getText().length);
  assert.ok(await editor.edit((b) => b.insert(end(), 'x')), 'the letter was typed');
  const at = end();
  assert.ok(await editor.edit((b) => b.delete(new vscode.Range(at.translate(0, -1), at))), 'the letter was deleted');
  assert.strictEqual(editor.document.getText(), before, 'the text is what it was');
  assert.ok(editor.document.isDirty, 'VS Code counts the editor dirty');
}

/** Ctrl+S on the editor (shown first): VS Code's own save command, which saves a clean editor too. */
async function ctrlS(editor: vscode.TextEditor): Promise<void> {
  await vscode.window.showTextDocument(editor.document);
  await vscode.commands.executeCommand('workbench.action.files.save');
}

describe('a save that changes nothing sends nothing', function () {
  this.timeout(90_000);
  let sandbox: Sandbox;
  let s: TestServices;
  let pool: DocumentPool;
  let saveErrors: SaveErrors;
  let saved: { autoSave: string | undefined; delay: number | undefined };

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    pool = new DocumentPool(sandbox);
    await closeAll();
    await useSandbox(s, sandbox);
    await configure('files.language', undefined);
    saveErrors = new SaveErrors(s);
    // code-server's default is files.autoSave = afterDelay: here each test decides when a save happens.
    saved = { autoSave: files().inspect<string>('autoSave')?.globalValue, delay: files().inspect<number>('autoSaveDelay')?.globalValue };
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await files().update('autoSave', saved?.autoSave, vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', saved?.delay, vscode.ConfigurationTarget.Global);
    await configure('files.language', undefined);
    saveErrors?.dispose();
    await closeAll();
    await sandbox?.close();
  });

  afterEach(async () => {
    sandbox.clearFaults();
    await closeAll();
  });

  /** Saves `editor` (its text the server's) with `save` and checks: no request, clean, the text kept, "Saved". */
  async function savesNothing(editor: vscode.TextEditor, id: number, save: () => Thenable<unknown>): Promise<void> {
    const text = editor.document.getText();
    const server = sandbox.documents.get(id)!;
    const stored = { result: server.result, updatedAt: server.updatedAt.getTime() };
    const errors = saveErrors.errors.length;
    const from = sandbox.requests.length;
    await save();
    await until('the editor to be clean', () => !editor.document.isDirty, 10_000);
    // VS Code stats the file again right after the write: that one is counted too.
    await sleep(500);
    assert.deepStrictEqual(documentRequests(sandbox, id, from), [], 'no request: the server already has this text');
    assert.deepStrictEqual(saveErrors.errors.slice(errors), [], 'the save did not fail');
    assert.strictEqual(editor.document.getText(), text, 'the editor keeps its text');
    assert.deepStrictEqual({ result: server.result, updatedAt: server.updatedAt.getTime() }, stored, 'the server copy is untouched');
    await vscode.window.showTextDocument(editor.document);
    await until('the status bar to say "Saved"', () => /Saved/.test(s.saveStatus.state.text) && s.saveStatus.state.text, 5_000);
    assert.match(s.saveStatus.state.tooltip, /already had this text, so nothing was sent/, 'the tooltip says why nothing went out');
  }

  it('Ctrl+S on a clean Markdown document: no request, "Saved"', async () => {
    const d = pool.take((x) => detectFormat(x.result) === 'markdown');
    const editor = await openDocument(d.id);
    assert.strictEqual(editor.document.languageId, 'markdown');
    await sleep(PAST_READS_MS);
    await savesNothing(editor, d.id, () => ctrlS(editor));
  });

  it('a letter typed and deleted, then saved: no request, the editor clean', async () => {
    const d = pool.take((x) => detectFormat(x.result) === 'markdown');
    const editor = await openDocument(d.id);
    await sleep(PAST_READS_MS);
    await typeAndDelete(editor);
    await savesNothing(editor, d.id, () => editor.document.save());
    // Ctrl+S as well, and right after the open (the read still fresh).
    const e = await openDocument(pool.take().id);
    await typeAndDelete(e);
    await savesNothing(e, Number(e.document.uri.authority.split('.')[0]), () => ctrlS(e));
  });

  it('a final newline (or white space at either end) the server trims away is no change', async () => {
    const d = pool.take((x) => detectFormat(x.result) === 'markdown');
    const editor = await openDocument(d.id);
    await sleep(PAST_READS_MS);
    assert.ok(await editor.edit((b) => b.insert(editor.document.positionAt(editor.document.getText().length), '\n')));
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), '  ')));
    await savesNothing(editor, d.id, () => editor.document.save());
  });

  it('a real edit still sends one PATCH (and at most one read), and the server has the text', async () => {
    const d = pool.take((x) => detectFormat(x.result) === 'markdown');
    const editor = await openDocument(d.id);
    await sleep(PAST_READS_MS);
    await typeAndDelete(editor);
    assert.ok(await editor.edit((b) => b.insert(editor.document.positionAt(editor.document.getText().length), '\n\nOne more line.')));
    const from = sandbox.requests.length;
    assert.strictEqual(await editor.document.save(), true);
    await sleep(500);
    const requests = documentRequests(sandbox, d.id, from);
    assert.strictEqual(requests.filter((r) => r.startsWith('PATCH ')).length, 1, `one PATCH: ${requests.join(', ')}`);
    assert.ok(requests.length <= 2, `one PATCH and at most one read: ${requests.join(', ')}`);
    assert.strictEqual(sandbox.documents.get(d.id)!.result, editor.document.getText().trim());
    // Only a line ending changed: the server would store other bytes, so that is a change too.
    const crlf = editor.document.eol === vscode.EndOfLine.LF ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF;
    await editor.edit((b) => b.setEndOfLine(crlf));
    const from2 = sandbox.requests.length;
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(documentRequests(sandbox, d.id, from2).filter((r) => r.startsWith('PATCH ')).length, 1, 'the line endings were sent');
    assert.strictEqual(sandbox.documents.get(d.id)!.result, editor.document.getText().trim());
  });

  it('an HTML result: saved unchanged, no request; a paragraph edited, one PATCH and every other tag kept', async () => {
    const d = pool.take((x) => detectFormat(x.result) === 'html');
    const html = d.result!;
    const editor = await openDocument(d.id);
    assert.strictEqual(editor.document.getText(), html, 'the stored markup, as it is');
    await sleep(PAST_READS_MS);
    await typeAndDelete(editor);
    await savesNothing(editor, d.id, () => editor.document.save());
    await savesNothing(editor, d.id, () => ctrlS(editor));

    // An edit inside the first paragraph: the rest of the markup goes back as it was.
    const inside = editor.document.positionAt(html.indexOf('<p>') + '<p>'.length);
    assert.ok(await editor.edit((b) => b.insert(inside, 'Edited: ')));
    const from = sandbox.requests.length;
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(documentRequests(sandbox, d.id, from).filter((r) => r.startsWith('PATCH ')).length, 1, 'one PATCH');
    const result = sandbox.documents.get(d.id)!.result!;
    assert.strictEqual(result, html.replace('<p>', '<p>Edited: '), 'the saved result is the markup with the one edit');
    assert.strictEqual(detectFormat(result), 'html');
  });

  it('plain text (contentDocs.files.language = plaintext): saved unchanged, no request', async () => {
    await configure('files.language', 'plaintext');
    try {
      const d = pool.take((x) => detectFormat(x.result) === 'markdown');
      const editor = await openDocument(d.id);
      assert.strictEqual(editor.document.languageId, 'plaintext');
      await sleep(PAST_READS_MS);
      await typeAndDelete(editor);
      await savesNothing(editor, d.id, () => editor.document.save());
    } finally {
      await configure('files.language', undefined);
    }
  });

  it('the account folder\'s file of a document (content-docs://<account>/<Template>/<Name>.md): saved unchanged, no request', async () => {
    const d = pool.take((x) => detectFormat(x.result) === 'markdown');
    const uri = await accountUriOf(s, d.id);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    assert.strictEqual(editor.document.getText(), d.result);
    await sleep(PAST_READS_MS);
    await typeAndDelete(editor);
    await savesNothing(editor, d.id, () => editor.document.save());
    await savesNothing(editor, d.id, () => ctrlS(editor));
  });

  it('auto-save of an unchanged text: no request, and not held after a PATCH a moment ago', async () => {
    await files().update('autoSaveDelay', 150, vscode.ConfigurationTarget.Global);
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      const d = pool.take((x) => detectFormat(x.result) === 'markdown');
      const editor = await openDocument(d.id);
      await sleep(PAST_READS_MS);
      // A real edit, auto-saved: its PATCH starts the document's window of auto-saves (src/files/saveWindow.ts).
      assert.ok(await editor.edit((b) => b.insert(editor.document.positionAt(editor.document.getText().length), '\n\nAuto-saved.')));
      await until('the auto-save of the edit', () => !editor.document.isDirty && sandbox.documents.get(d.id)!.result === editor.document.getText().trim(), 10_000);
      const t = Date.now();
      await savesNothing(editor, d.id, () => typeAndDelete(editor));
      assert.ok(Date.now() - t < 4_000, `an auto-save that sends nothing is not held for the window (${Date.now() - t} ms)`);
    } finally {
      await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
      await files().update('autoSaveDelay', saved.delay, vscode.ConfigurationTarget.Global);
    }
  });

  it('changed on the server meanwhile: nothing is sent or overwritten; a real edit then is a conflict, and Revert shows the server text', async () => {
    const d = pool.take((x) => detectFormat(x.result) === 'markdown');
    const editor = await openDocument(d.id);
    const mine = editor.document.getText();
    await sleep(PAST_READS_MS);
    const server = sandbox.documents.get(d.id)!;
    const theirs = 'Their text, saved on the website after this tab was opened.';
    server.result = theirs;
    server.updatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    await typeAndDelete(editor);
    await savesNothing(editor, d.id, () => editor.document.save());
    assert.strictEqual(editor.document.getText(), mine, 'the tab shows the text it had');
    assert.strictEqual(server.result, theirs, 'the server text stays');

    // A real edit now: the save's check reads the server, and VS Code's conflict refuses it.
    assert.ok(await editor.edit((b) => b.insert(editor.document.positionAt(0), 'Mine: ')));
    const from = sandbox.requests.length;
    assert.strictEqual(await editor.document.save(), false, 'the save is refused: the server changed');
    assert.strictEqual(documentRequests(sandbox, d.id, from).filter((r) => r.startsWith('PATCH ')).length, 0, 'nothing was written');
    assert.strictEqual(server.result, theirs);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until('the reverted editor to show the server text', () => editor.document.getText() === theirs && !editor.document.isDirty, 10_000);
  });

  it('a clean tab after a save that sent nothing follows the server on Refresh', async () => {
    const d = pool.take((x) => detectFormat(x.result) === 'markdown');
    const editor = await openDocument(d.id);
    await sleep(PAST_READS_MS);
    const server = sandbox.documents.get(d.id)!;
    const theirs = 'Their text, saved on the website while the tab was open.';
    server.result = theirs;
    server.updatedAt = new Date(server.updatedAt.getTime() + 60_000);
    await typeAndDelete(editor);
    await savesNothing(editor, d.id, () => editor.document.save());
    await vscode.commands.executeCommand('contentDocs.documentsRefresh');
    await until('the clean tab to show the server text', () => editor.document.getText() === theirs, 10_000);
    assert.strictEqual(editor.document.isDirty, false);
  });
});

describe('a save that changes nothing sends nothing: two accounts, the same id', function () {
  this.timeout(90_000);
  const ID = 5252;
  let kit: TwoAccounts;
  let autoSave: string | undefined;

  before(async () => {
    autoSave = files().inspect<string>('autoSave')?.globalValue;
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    kit = await startTwoAccounts({ id: ID, name: 'Same id letter' });
  });

  after(async () => {
    await kit?.dispose();
    await files().update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
  });

  it("each tab is compared with its own account's text: B's text typed in A's tab is sent to A; B unchanged sends nothing", async () => {
    const labelB = await kit.addB();
    const roots = await kit.roots(2);
    const open = async (root: AnyNode, label: string) => {
      const [row] = await kit.rowsOfId(root);
      await vscode.commands.executeCommand('contentDocs.documentOpenBeside', row);
      return until(`the editor of ${ID}.${label}`, () => vscode.window.visibleTextEditors.find((e) => e.document.uri.authority === `${ID}.${label}`));
    };
    const edA = await open(roots[0], kit.s.first.label);
    const edB = await open(roots[1], labelB);
    assert.strictEqual(edA.document.getText(), 'Text of A');
    assert.strictEqual(edB.document.getText(), 'Text of B');
    await sleep(PAST_READS_MS);

    const fromA = kit.a.requests.length;
    const fromB = kit.b.requests.length;
    await typeAndDelete(edB);
    assert.strictEqual(await edB.document.save(), true);
    await sleep(500);
    assert.deepStrictEqual(documentRequests(kit.b, ID, fromB), [], 'B saved unchanged: no request to B');
    assert.deepStrictEqual(documentRequests(kit.a, ID, fromA), [], 'nor to A');
    assert.strictEqual(edB.document.isDirty, false);

    // A's tab now holds B's text (the same id, B's server text): for A that is a change.
    await replaceAll(edA, 'Text of B');
    assert.strictEqual(await edA.document.save(), true);
    assert.strictEqual(documentRequests(kit.a, ID, fromA).filter((r) => r.startsWith('PATCH ')).length, 1, 'one PATCH to A');
    assert.strictEqual(kit.a.documents.get(ID)!.result, 'Text of B');
    assert.deepStrictEqual(documentRequests(kit.b, ID, fromB), [], 'nothing to B');
  });
});
