/**
 * A document tab (`content-docs://ID/…`) open when the server changes: on the new server the same id is another
 * document. The tab must never show that document under the old one's name, nor save into it; back on its own
 * server it is the document again (inside a real VS Code, two sandboxes).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { closeAll, configure, FsErrors, MessageCapture, SaveErrors, services, sleep, until, useSandbox } from './reliabilityKit';

describe('account tabs: a document tab across a change of server', function () {
  this.timeout(60_000);
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  const ID = 4343;
  const TWIN = 4344;

  const text = (uri: vscode.Uri) => Promise.resolve(vscode.workspace.fs.readFile(uri)).then((bytes) => new TextDecoder().decode(bytes));

  before(async () => {
    a = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    b = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    const at = new Date(Date.now() + 86_400_000);
    const doc = (name: string, result: string): SandboxDocument => ({ id: ID, name, templateId: 1, result, words: 2, favorite: false, createdAt: at, updatedAt: at });
    a.documents.set(ID, doc('Letter to A', 'A text'));
    b.documents.set(ID, doc('Invoice of B', 'B text'));
    s = await services();
    await closeAll();
  });

  after(async () => {
    await closeAll();
    await useSandbox(s, a);
    await a?.close();
    await b?.close();
  });

  it('a clean tab: on the other server its URI is refused, nothing sent (never the other document\'s text); back on its own server it reads again', async () => {
    await useSandbox(s, a);
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', ID);
    const uri = editor.document.uri;
    assert.strictEqual(editor.document.getText(), 'A text');
    await configure('documents.baseUrl', b.docsUrl);
    b.resetRequests();
    // Its account is not signed in any more: the URI is refused as Unavailable and nothing is asked of the server
    // signed in now (with one current account, the URI used to be looked up there and answered FileNotFound).
    await assert.rejects(
      text(uri),
      (e: Error) => e instanceof vscode.FileSystemError && e.code === 'Unavailable' && /belongs to an account that is not signed in here/.test(e.message),
      'the old tab\'s URI is not the other server\'s document',
    );
    await sleep(800);
    assert.deepStrictEqual(b.requests.filter((r) => r.path.endsWith(`/${ID}`)).map((r) => `${r.method} ${r.path}`), [], 'nothing of the old tab reached the other server');
    assert.notStrictEqual(editor.document.getText(), 'B text', 'the editor never shows the other document under this name');
    // The new server's document of that id opens under its own name.
    const other = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', ID);
    assert.strictEqual(other.document.getText(), 'B text');
    assert.notStrictEqual(other.document.uri.toString(), uri.toString());
    await closeAll();
    await configure('documents.baseUrl', a.docsUrl);
    assert.strictEqual(await text(uri), 'A text', 'on its own server the URI is the document again');
  });

  it('a tab with unsaved text: saving on the other server never writes into its document of the same id, and the text stays', async () => {
    await useSandbox(s, a);
    const saveErrors = new SaveErrors(s);
    // VS Code stats the file before it saves; not found, it makes the folder first, then writes: the save fails at
    // whichever step, and says why.
    const fsErrors = new FsErrors(s, ['stat', 'createDirectory']);
    try {
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', ID);
      const typed = 'A text, edited before the switch.';
      await editor.edit((e) => e.replace(new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(editor.document.getText().length)), typed));
      await configure('documents.baseUrl', b.docsUrl);
      b.resetRequests();
      for (let i = 0; i < 2; i++) {
        assert.strictEqual(await editor.document.save(), false, `save ${i + 1} does not go through`);
      }
      assert.strictEqual(b.documents.get(ID)!.result, 'B text', 'nothing written into the other server\'s document');
      assert.strictEqual(b.requests.filter((r) => r.method === 'PATCH').length, 0);
      assert.strictEqual(editor.document.getText(), typed, 'the text is intact');
      assert.strictEqual(editor.document.isDirty, true);
      const said = [...saveErrors.errors, ...fsErrors.errors.filter((e) => e.op === 'createDirectory')];
      assert.ok(said.length > 0, 'the save failed with an error VS Code shows');
      for (const e of said) assert.match(e.message, /belongs to an account that is not signed in here/, JSON.stringify(said));
      // Back on its own server, the save goes where it belongs.
      await configure('documents.baseUrl', a.docsUrl);
      await until('the save on its own server', async () => (await editor.document.save()) || undefined);
      assert.strictEqual(a.documents.get(ID)!.result, typed);
    } finally {
      saveErrors.dispose();
      fsErrors.dispose();
    }
  });

  it('a save refused because its account went says so in words of its own: the document and the account named, the text still in the editor, Save As… and Copy Text offered, once while that message is open', async () => {
    await useSandbox(s, a);
    await closeAll();
    const messages = new MessageCapture().install();
    messages.autoDismiss = false;
    try {
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', ID);
      const account = s.first.displayName;
      const typed = 'A text, typed before its account went.';
      await editor.edit((e) => e.replace(new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(editor.document.getText().length)), typed));
      await configure('documents.baseUrl', b.docsUrl);
      assert.strictEqual(await editor.document.save(), false, 'the save does not go through');
      assert.strictEqual(await editor.document.save(), false, 'nor again');
      const said = await messages.waitFor('the message', (m) => /was not saved/.test(m.message));
      assert.strictEqual(said.level, 'warning');
      assert.strictEqual(
        said.message,
        `"Letter to A" was not saved: its account, ${account}, is no longer signed in here (removed or signed out). Your text is still in the editor. To keep it, save it as a file on this computer (Save As…) or copy it; to save it to the document, add the account again, then save.`,
      );
      assert.deepStrictEqual(said.items, ['Save As…', 'Copy Text']);
      assert.strictEqual(messages.shown.filter((m) => /was not saved/.test(m.message)).length, 1, 'said once while it is open');
      said.choose('Copy Text');
      await until('the text copied', async () => (await vscode.env.clipboard.readText()) === typed || undefined);
      assert.strictEqual(editor.document.getText(), typed, 'the text is intact');
      assert.ok(editor.document.isDirty);
      assert.strictEqual(b.documents.get(ID)!.result, 'B text', 'nothing written into the other server\'s document');
    } finally {
      messages.dispose();
      await configure('documents.baseUrl', a.docsUrl);
      await closeAll();
    }
  });

  it('the same id AND the same name on the other server: neither Save nor Overwrite (a plain write) reaches its document', async () => {
    const twin = 'Quarterly letter';
    const at = new Date(Date.now() + 86_400_000);
    const put = (box: Sandbox, result: string) => box.documents.set(TWIN, { id: TWIN, name: twin, templateId: 1, result, words: 2, favorite: false, createdAt: at, updatedAt: at });
    put(a, 'Text on A');
    put(b, 'Text on B');
    await useSandbox(s, a);
    const saveErrors = new SaveErrors(s);
    try {
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', TWIN);
      const uri = editor.document.uri;
      const typed = 'Typed on A, saved after the switch.';
      await editor.edit((e) => e.replace(new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(editor.document.getText().length)), typed));
      await configure('documents.baseUrl', b.docsUrl);
      b.resetRequests();
      assert.strictEqual(await editor.document.save(), false, 'Save does not go through');
      // What VS Code's "newer on disk" → Overwrite does: write the file again, without its own check.
      await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(typed))), (e: Error) => /belongs to an account that is not signed in here/.test(e.message));
      assert.strictEqual(b.documents.get(TWIN)!.result, 'Text on B', 'nothing written into the other server\'s document');
      assert.strictEqual(b.requests.filter((r) => r.method === 'PATCH').length, 0);
      assert.strictEqual(editor.document.getText(), typed, 'the text is intact');
    } finally {
      saveErrors.dispose();
      await closeAll();
    }
  });

  it('signed out and in again with the same key while someone renamed the document: the tab is still its document (the same account)', async () => {
    await useSandbox(s, a);
    await closeAll();
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', ID);
    const uri = editor.document.uri;
    const doc = a.documents.get(ID)!;
    try {
      await s.credentials.clearKey();
      doc.name = 'Letter, renamed elsewhere';
      doc.updatedAt = new Date(doc.updatedAt.getTime() + 1000); // as the server stamps a rename
      await s.credentials.setKey(a.key);
      assert.strictEqual(await text(uri), doc.result, 'the tab reads its document');
      assert.strictEqual(s.fs.documentIdOf(uri), ID, 'and stands for it again');
    } finally {
      doc.name = 'Letter to A';
    }
  });
});
