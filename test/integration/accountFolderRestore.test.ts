/**
 * An account-folder tab (`content-docs://<account>/<Template>/<Name>.md`) restored with unsaved text after its window
 * was closed, when its document's file name changed meanwhile: renamed on the website, its text turned HTML by the web
 * editor (`.md` became `.html`), or `contentDocs.files.language` switched (`.md` ↔ `.txt`). The document exists: the
 * save reaches it, or is refused with a message that names it and says how to keep the text — never as an attempt to
 * make a new document by creating a file.
 *
 * The restart: the document is in an account added with Add Account…, which is removed ("the window closed") and added
 * again with the same server and key ("the window opened again"). That is the one way on main to make the extension
 * forget what it knew of an account's folder: removing the account disposes its file system (its listing, the paths
 * it gave out and the names its tabs were opened under), and adding it again builds a new one, under the same label
 * (kept per server and key in SecretStorage), so the tab is that account's again, as after a restart. (Signing the
 * first account in elsewhere and back keeps the paths given out under it, see AccountIndex.forAccount.)
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Core } from '../../src/core';
import type { Sandbox } from '../sandbox/server';
import { putDocument } from './accountKit';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { closeAll, configure, FsErrors, replaceAll, SaveErrors, sleep, until } from './reliabilityKit';

const FOLDER = 'Freestyle';

describe('account folder tabs restored after a restart: a tab whose document\'s file name changed meanwhile saves into that document', function () {
  this.timeout(90_000);
  let kit: TwoAccounts;
  let b: Sandbox;
  let s: Core;

  before(async () => {
    kit = await startTwoAccounts({ id: 7300, name: 'Kit document' }, { key: 'another-installation-key-0123456789' });
    ({ b, s } = kit);
  });

  afterEach(async () => {
    kit.prompter.reset();
    await closeAll();
    for (const added of s.registry.added()) await s.registry.remove(added.label!);
  });

  after(() => kit?.dispose());

  /** Opens the document's file in B's account folder and types `text` into it (unsaved); returns the editor. */
  async function dirtyTab(label: string, file: string, text: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: 'content-docs', authority: label, path: `/${FOLDER}/${file}` });
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    await until(`the text of ${file}`, () => (editor.document.getText().startsWith('Text of ') ? true : undefined));
    await replaceAll(editor, text);
    return editor;
  }

  /** The window closed (B's file system goes with the account), `meanwhile` happens, the window opened again. */
  async function restart(label: string, meanwhile: () => Promise<void>): Promise<void> {
    await s.registry.remove(label);
    await meanwhile();
    const again = await kit.addB();
    assert.strictEqual(again, label, 'the same server and key again: the same account label, so the tab is that account\'s again');
    // VS Code restores the tab and looks at its file; the user saves a moment later.
    await sleep(500);
  }

  /** Saves the tab: the text reaches document `id`, or a refusal names it and says how to keep the text. */
  async function saveReachesTheDocument(editor: vscode.TextEditor, id: number, text: string): Promise<void> {
    // What VS Code's save meets: the write, or before it the folder it makes for a file it did not find.
    const errors = new SaveErrors(s);
    const folders = new FsErrors(s, ['createDirectory']);
    let saved: boolean;
    try {
      saved = await editor.document.save();
    } finally {
      errors.dispose();
      folders.dispose();
    }
    const doc = b.documents.get(id);
    assert.ok(doc, `document ${id} still exists`);
    const refusal = (errors.last() ?? folders.errors.at(-1))?.message;
    assert.doesNotMatch(
      refusal ?? '',
      /new documents are made with/i,
      `the save of ${editor.document.uri.path} (document ${id}, "${doc.name}" on the server) is refused as the making of a new document, although the document exists: ${refusal}`,
    );
    if (saved) {
      assert.strictEqual(doc.result, text, 'the save reached the document');
      return;
    }
    assert.strictEqual(editor.document.isDirty, true, 'the editor stays dirty');
    assert.strictEqual(editor.document.getText(), text, 'with the unsaved text');
    if (refusal !== undefined) {
      assert.ok(refusal.includes(doc.name), `the refusal names the document as it is now ("${doc.name}"): ${refusal}`);
      assert.match(refusal, /text/i, `the refusal says how to keep the text: ${refusal}`);
    }
  }

  it('renamed on the website while the window was closed: the restored tab of its old name saves into it', async () => {
    const doc = putDocument(b, 7301, 'Name before', 1);
    const label = await kit.addB();
    const text = 'Unsaved words written before the restart';
    const editor = await dirtyTab(label, 'Name before.md', text);
    await restart(label, async () => {
      b.documents.set(doc.id, { ...doc, name: 'Name after', updatedAt: new Date(doc.updatedAt.getTime() + 60_000) });
    });
    await saveReachesTheDocument(editor, doc.id, text);
  });

  it('its text turned HTML by the web editor while the window was closed (.md became .html): the restored .md tab saves into it', async () => {
    const doc = putDocument(b, 7302, 'Edited on the web', 1);
    const label = await kit.addB();
    const text = 'Unsaved words written before the restart';
    const editor = await dirtyTab(label, 'Edited on the web.md', text);
    await restart(label, async () => {
      b.documents.set(doc.id, { ...doc, result: '<p>Edited in the <strong>web editor</strong>.</p>', updatedAt: new Date(doc.updatedAt.getTime() + 60_000) });
    });
    const listed = await vscode.workspace.fs.readDirectory(vscode.Uri.from({ scheme: 'content-docs', authority: label, path: `/${FOLDER}` }));
    assert.ok(listed.some(([n]) => n === 'Edited on the web.html'), `the folder lists it as .html now: ${listed.map(([n]) => n).join(', ')}`);
    await saveReachesTheDocument(editor, doc.id, text);
  });

  it('contentDocs.files.language switched while the window was closed (.md became .txt): the restored .md tab saves into it', async () => {
    const doc = putDocument(b, 7303, 'Language switched', 1);
    const label = await kit.addB();
    const text = 'Unsaved words written before the restart';
    const editor = await dirtyTab(label, 'Language switched.md', text);
    try {
      await restart(label, () => configure('files.language', 'plaintext'));
      await saveReachesTheDocument(editor, doc.id, text);
    } finally {
      await configure('files.language', undefined);
    }
  });

  it('contentDocs.files.language switched back while the window was closed (.txt became .md): the restored .txt tab saves into it', async () => {
    const doc = putDocument(b, 7304, 'Language switched back', 1);
    const text = 'Unsaved words written before the restart';
    try {
      await configure('files.language', 'plaintext');
      const label = await kit.addB();
      const editor = await dirtyTab(label, 'Language switched back.txt', text);
      await restart(label, () => configure('files.language', undefined));
      await saveReachesTheDocument(editor, doc.id, text);
    } finally {
      await configure('files.language', undefined);
    }
  });
});
