/**
 * A document read or changed while the API key or the documents server changes, inside a real VS Code against
 * two sandboxes that hold another document under the same id. Another key or server is another account: a read,
 * rename, delete or save on the wire when it changes is made in the account it was sent to (its server, its key) and
 * never shown on, nor written into, the new server's document of that id; the account that went sends nothing more; a
 * change in the new account is sent at once, not queued behind one of the previous account; and signing out and in
 * again with the same key is the same documents again (the same label).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { closeEditors, configure, sandboxDocument, SaveErrors, services, until, useSandbox } from './reliabilityKit';
import { cleanUp } from './writeKit';

let s: TestServices;

describe('a document read or changed while the key or server changes: the answer of the previous account', function () {
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

  it('a read answered after the server changed is the previous account\'s: it is not remembered for the new account', async () => {
    await useSandbox(s, a);
    const previous = s.documents;
    a.setLatency(1500);
    const read = previous.fetch(ID);
    await until('the read on the wire', () => a.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/documents/${ID}`)));
    await configure('documents.baseUrl', b.docsUrl);
    const doc = await read;
    assert.strictEqual(doc.name, 'Account A document', 'the answer is the one of the account it was sent to');
    assert.notStrictEqual(s.documents, previous, 'another server is another account, with services of its own');
    assert.strictEqual(s.documents.get(ID), undefined, 'account A\'s copy is not known under the new account');
    assert.strictEqual(previous.get(ID), undefined, 'nor kept by the account that went');
    // The account that went sends nothing more.
    a.resetRequests();
    await assert.rejects(previous.fetch(ID), /nothing was sent/);
    assert.strictEqual(a.requests.length, 0);
    a.setLatency(0);
  });

  it('a rename answered after the server changed is not shown on the new server\'s document of the same id', async () => {
    await useSandbox(s, b);
    const treeB = s.documentsTree;
    await treeB.load(treeB.model.allGroup);
    const rowName = async () => {
      const tree = s.documentsTree;
      await tree.load(tree.model.allGroup);
      return (await tree.getChildren(tree.model.allGroup)).flatMap((n) => (n.kind === 'document' && n.doc.id === ID ? [n.doc.name] : []))[0];
    };
    await until('B\'s document listed', async () => (await rowName()) === 'Account B document' || undefined);
    await useSandbox(s, a);
    const accountA = s.documents;
    a.setLatency(1500);
    const renamed: string[] = [];
    const sub = accountA.onDidChange(({ doc }) => renamed.push(doc.name));
    const rename = accountA.rename(ID, 'Renamed in A');
    await until('the rename on the wire', () => a.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/documents/${ID}`)));
    await configure('documents.baseUrl', b.docsUrl);
    await useSandbox(s, b);
    assert.strictEqual((await rename).name, 'Renamed in A', 'made in the account it was sent to');
    sub.dispose();
    a.setLatency(0);
    assert.strictEqual(a.documents.get(ID)!.name, 'Renamed in A', 'the server it was sent to did rename it');
    assert.deepStrictEqual(renamed, [], 'no view heard of A\'s rename (the account had gone)');
    await until('B\'s row', async () => (await rowName()) !== undefined || undefined);
    assert.strictEqual(await rowName(), 'Account B document');
    assert.strictEqual(s.documents.get(ID)?.name ?? 'Account B document', 'Account B document');
    assert.strictEqual(b.documents.get(ID)!.name, 'Account B document');
  });

  it('a delete answered after the server changed leaves the new server\'s document of the same id in the view', async () => {
    seedBoth();
    await useSandbox(s, b);
    const listed = async () => {
      const tree = s.documentsTree;
      await tree.load(tree.model.allGroup);
      return (await tree.getChildren(tree.model.allGroup)).some((n) => n.kind === 'document' && n.doc.id === ID);
    };
    await until('B\'s document listed', async () => (await listed()) || undefined);
    await useSandbox(s, a);
    const accountA = s.documents;
    a.setLatency(1500);
    const gone: number[] = [];
    const sub = accountA.onDidDelete((d) => gone.push(d.id));
    const deletion = accountA.delete(ID);
    await until('the delete on the wire', () => a.requests.some((r) => r.method === 'DELETE' && r.path.endsWith(`/documents/${ID}`)));
    await useSandbox(s, b);
    await deletion;
    sub.dispose();
    a.setLatency(0);
    assert.strictEqual(a.documents.has(ID), false, 'the server it was sent to deleted it');
    assert.deepStrictEqual(gone, [], 'no view heard of A\'s delete');
    await until('B\'s row still there', async () => (await listed()) || undefined);
    assert.ok(b.documents.has(ID));
  });
});

describe('a document changed while the key or the server changes: editors, saves and the queue of changes', function () {
  this.timeout(90_000);
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
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

  it('a save on the wire when the server changed is saved in the tab\'s own account; a second save is refused (that account is gone) and never writes into the new server\'s document of the same id', async () => {
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
      assert.strictEqual(await saving, true, 'the save reached the account of the tab, and is reported so');
      a.setLatency(0);
      assert.strictEqual(a.documents.get(ID)!.result, typed, 'the server it was sent to has it');
      assert.strictEqual(b.documents.get(ID)!.result, 'B text');
      // Typed again and saved: the tab's account is gone, so nothing is sent, and never into B's document of the same id.
      const more = `${typed} More.`;
      await editor.edit((e) => e.insert(editor.document.positionAt(editor.document.getText().length), ' More.'));
      const again = await editor.document.save();
      assert.strictEqual(again, false, 'the second save does not go through');
      assert.strictEqual(b.documents.get(ID)!.result, 'B text', 'nothing written into the new server\'s document');
      assert.strictEqual(b.requests.filter((r) => r.method === 'PATCH').length, 0);
      assert.strictEqual(editor.document.getText(), more, 'the text is intact');
      assert.strictEqual(editor.document.isDirty, true, 'the editor stays dirty');
      assert.match(saveErrors.last()?.message ?? JSON.stringify(saveErrors.errors), /not signed in here .*nothing was sent/);
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

  it('signed out and in again with the same key while a rename is on the wire: the rename is made, and the same account (the same label) reads it', async () => {
    await useSandbox(s, a);
    const before = s.first;
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
    assert.strictEqual(s.first.label, before.label, 'the same server and key: the same label');
    assert.notStrictEqual(s.first, before, 'made anew');
    assert.strictEqual((await s.documents.fetch(ID)).name, 'Renamed while signing in again', 'the account signed in again reads it');
    // Another key on the same server is another account: what the previous one is asked after that is never sent.
    const previous = s.documents;
    await s.credentials.setKey('another-key-0123456789');
    a.resetRequests();
    await assert.rejects(previous.rename(ID, 'Renamed after another key'), /nothing was sent/);
    // The previous account's requests are those with its key: the account of the other key is on the same server, and
    // its views on screen or its status bar may read it meanwhile (with the other key: not the previous account's).
    assert.deepStrictEqual(
      a.requests.filter((r) => r.authorizationHeader === `Bearer ${a.key}` || r.query.api_token === a.key || r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
      [],
      'nothing reached the server with the previous account\'s key, and nothing was changed',
    );
    assert.strictEqual(a.documents.get(ID)!.name, 'Renamed while signing in again');
    await s.credentials.setKey(a.key);
  });
});
