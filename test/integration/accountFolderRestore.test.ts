/**
 * An account-folder tab (`content-docs://<account>/<Template>/<Name>.md`) with unsaved text, restored after the window
 * was closed and opened again, keeps finding its document although its file name changed meanwhile: renamed on the
 * website, its text turned HTML by the web editor (`.md` → `.html`), or `contentDocs.files.language` switched
 * (`.md` → `.txt`). What cannot be saved (the document was deleted, or another document took the tab's exact path) is
 * refused in words that say what happened and how to keep the text, and never lands in another document.
 *
 * The restart: this tier runs inside the extension host, which "Developer: Reload Window" would end together with the
 * test run (the e2e tier reloads the window for real, see the step "account-folder-tab-reload" in test/e2e/runE2e.ts).
 * Here the extension is brought to where a new window starts, short of the reload: the account is made anew under
 * the same label (signed out, then in again with the same server and key: a new document service that has read
 * nothing), and the label's file system is dropped (the next call builds a new one: no listing, no paths given out,
 * no versions read). What VS Code keeps across a restart stays as it is: the editor with its unsaved text (hot exit
 * restores it) and the extension's workspaceState (written to disk on the way out). What changes "while the window is
 * closed" is changed straight in the sandbox or the settings, so the extension hears of none of it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import type { Prompter } from '../../src/ui/prompter';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { accountUri, AT, freshListing, putDocument, startAccountSuite } from './accountKit';
import { accountNow, accountRoot, closeAll, configure, type RecordingPrompter, replaceAll, SaveErrors, useSandbox } from './reliabilityKit';

/** The last change of a document changed "while the window was closed": later than {@link AT}. */
const LATER = new Date(AT.getTime() + 3_600_000);
/** Where the window keeps the account-folder paths given to editors, per account label (ids and paths only). */
const MEMORY_KEY = 'contentDocs.accountFolderPaths';

let sandbox: Sandbox;
let s: TestServices;
let prompter: RecordingPrompter;
let previousPrompter: Prompter | undefined;
/** files.autoSave as the user settings had it (this VS Code saves after a delay by default). */
let autoSave: string | undefined;

function put(id: number, name: string, templateId: number, extra: Partial<SandboxDocument> = {}): SandboxDocument {
  return putDocument(sandbox, id, name, templateId, extra);
}

async function showAccountFile(folder: string, file: string): Promise<vscode.TextEditor> {
  return vscode.window.showTextDocument(accountUri(folder, file), { preview: false });
}

async function listed(folder: string): Promise<string[]> {
  return (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(await accountRoot(), folder))).map(([n]) => n);
}

/** The PATCHes the sandbox received since the last reset, by document id. */
function patched(): number[] {
  return sandbox.requests.filter((r) => r.route === 'documents.update').map((r) => Number(r.path.split('/').pop()));
}

/**
 * The window closed and opened again, as far as the extension can tell (see the top of this file); `whileClosed`
 * changes what the website or the settings change meanwhile.
 */
async function restart(whileClosed: (label: string) => void | Promise<void> = () => undefined): Promise<void> {
  const label = accountNow();
  await s.credentials.clearKey();
  // The file systems per label, built on first use (src/files/lazyFs.ts): a new window has none yet.
  const built = (s.fs as unknown as { byLabel: Map<string, vscode.Disposable> }).byLabel;
  built.get(label)?.dispose();
  built.delete(label);
  await whileClosed(label);
  await s.credentials.setKey(sandbox.key);
  assert.strictEqual(accountNow(), label, 'the same server and key again: the same account label, as after a restart');
  sandbox.resetRequests();
}

describe('account folder tabs restored after a restart keep finding their documents', function () {
  this.timeout(60_000);

  before(async () => {
    // The unsaved text must still be unsaved when the window "closes": no auto-save of it before the restart.
    const files = vscode.workspace.getConfiguration('files');
    autoSave = files.inspect<string>('autoSave')?.globalValue;
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    ({ s, prompter, previousPrompter } = await startAccountSuite(sandbox));
  });

  after(async () => {
    await closeAll();
    if (previousPrompter) s.prompter.current = previousPrompter;
    await sandbox.close();
    await vscode.workspace.getConfiguration('files').update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
  });

  afterEach(async () => {
    prompter.reset();
    await closeAll();
  });

  it('renamed on the website while the window was closed: the restored tab saves into its document, and a clean tab reads it', async () => {
    const d = put(93001, 'Launch plan', 33);
    await freshListing();
    const editor = await showAccountFile('Tweet', 'Launch plan.md');
    assert.strictEqual(editor.document.getText(), 'Text of Launch plan (93001)');
    await replaceAll(editor, 'Typed before the restart');
    assert.strictEqual(d.result, 'Text of Launch plan (93001)', 'nothing is saved before the window closes');

    await restart(() => {
      d.name = 'Launch plan, final';
      d.updatedAt = LATER;
    });
    assert.ok((await listed('Tweet')).includes('Launch plan, final.md'), 'the account folder lists the new name');

    const errors = new SaveErrors(s);
    try {
      assert.strictEqual(await editor.document.save(), true, `the save reaches the document: ${errors.last()?.message}`);
    } finally {
      errors.dispose();
    }
    assert.strictEqual(d.result, 'Typed before the restart');
    assert.strictEqual(d.name, 'Launch plan, final', 'the name the website gave stays');
    assert.deepStrictEqual(patched(), [93001], 'one PATCH, of the tab\'s document');
    assert.strictEqual(editor.document.isDirty, false);
    // A clean tab of that path (what VS Code restores without unsaved text) reads the same document.
    const read = new TextDecoder().decode(await vscode.workspace.fs.readFile(accountUri('Tweet', 'Launch plan.md')));
    assert.strictEqual(read, 'Typed before the restart');

    // What the window keeps is ids and paths of this account's label, never a text.
    const kept = JSON.stringify(s.workspaceState.get(`${MEMORY_KEY}.${accountNow()}`) ?? null);
    assert.ok(kept.includes('Tweet/Launch plan.md') && kept.includes('93001'), `the path and its document are kept: ${kept}`);
    assert.ok(!kept.includes('Typed before') && !kept.includes('Text of'), `no text is kept: ${kept}`);
  });

  it('its text turned HTML on the website (.md → .html): the restored tab still means its document; the save meets the server\'s newer text, and Overwrite reaches that document only', async () => {
    const d = put(93011, 'Landing page', 35);
    const twin = put(93012, 'Landing page copy', 35);
    await freshListing();
    const uri = accountUri('Value proposition', 'Landing page.md');
    const editor = await showAccountFile('Value proposition', 'Landing page.md');
    await replaceAll(editor, 'My Markdown draft of the landing page');

    const html = '<h2>Landing page</h2><p>Edited in the web editor.</p>';
    await restart(() => {
      d.result = html;
      d.updatedAt = LATER;
    });
    assert.ok((await listed('Value proposition')).includes('Landing page.html'), 'the account folder lists the file as .html');

    const errors = new SaveErrors(s);
    try {
      // The server's text changed since the tab read it: VS Code's own "newer on the server" check stops the save.
      assert.strictEqual(await editor.document.save(), false, 'the save is stopped');
    } finally {
      errors.dispose();
    }
    assert.deepStrictEqual(errors.errors, [], 'no write was refused (the file was found: the stop is the text that changed)');
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(d.result, html, 'nothing was written yet');
    assert.deepStrictEqual(patched(), []);
    assert.strictEqual(s.fs.documentIdOf(uri), 93011, 'the tab\'s path means its document');

    // Overwrite (a plain write, as VS Code's Overwrite does) reaches the tab's document only.
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(editor.document.getText()));
    assert.strictEqual(d.result, 'My Markdown draft of the landing page');
    assert.strictEqual(twin.result, 'Text of Landing page copy (93012)');
    assert.deepStrictEqual(patched(), [93011]);
  });

  it('files.language switched to plaintext while the window was closed (.md → .txt): the restored tab saves into its document', async () => {
    const d = put(93021, 'Caption ideas', 36);
    await freshListing();
    const editor = await showAccountFile('Video description', 'Caption ideas.md');
    await replaceAll(editor, 'Captions typed before the restart');
    try {
      await restart(() => configure('files.language', 'plaintext'));
      assert.ok((await listed('Video description')).includes('Caption ideas.txt'), 'the account folder lists the file as .txt');
      const errors = new SaveErrors(s);
      try {
        assert.strictEqual(await editor.document.save(), true, `the save reaches the document: ${errors.last()?.message}`);
      } finally {
        errors.dispose();
      }
    } finally {
      await configure('files.language', undefined);
    }
    assert.strictEqual(d.result, 'Captions typed before the restart');
    assert.deepStrictEqual(patched(), [93021]);
  });

  it('another document renamed onto the tab\'s exact path while the window was closed: the save is refused, names what happened, writes nothing, and the text stays; Revert File shows that document, and then saves into it', async () => {
    const mine = put(93031, 'Weekly digest', 37);
    const other = put(93032, 'Digest draft', 37);
    await freshListing();
    const uri = accountUri('Video script', 'Weekly digest.md');
    const editor = await showAccountFile('Video script', 'Weekly digest.md');
    await replaceAll(editor, 'Meant for the weekly digest');

    await restart(() => {
      mine.name = 'Weekly digest, archived';
      mine.updatedAt = LATER;
      other.name = 'Weekly digest';
      other.updatedAt = LATER;
    });
    const files = await listed('Video script');
    assert.ok(files.includes('Weekly digest.md') && files.includes('Weekly digest, archived.md'), files.join(', '));

    const errors = new SaveErrors(s);
    try {
      assert.strictEqual(await editor.document.save(), false, 'the save is refused');
    } finally {
      errors.dispose();
    }
    assert.strictEqual(other.result, 'Text of Digest draft (93032)', 'the document that took the name is untouched');
    assert.strictEqual(mine.result, 'Text of Weekly digest (93031)');
    assert.deepStrictEqual(patched(), [], 'nothing was sent');
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(editor.document.getText(), 'Meant for the weekly digest', 'the editor keeps the text');
    const message = errors.last()?.message ?? '';
    assert.match(message, /another document/i, `the refusal says another document has the name now: ${message}`);
    assert.match(message, /Weekly digest, archived/, `it names where the tab's document is now: ${message}`);
    assert.match(message, /Save As/, `it says how to keep the text: ${message}`);
    // Neither a command on the tab nor a plain write takes the other document for it.
    assert.notStrictEqual(s.fs.documentIdOf(uri), 93032);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('Written over it'))));
    assert.strictEqual(other.result, 'Text of Digest draft (93032)');
    assert.deepStrictEqual(patched(), []);

    // Revert File gives up the text and shows what the path holds now, as for a file replaced on disk; what is typed
    // after that is meant for the document shown, and saved into it.
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(editor.document.getText(), 'Text of Digest draft (93032)');
    const shown = await vscode.window.showTextDocument(editor.document);
    await replaceAll(shown, 'Typed after the revert');
    assert.strictEqual(await shown.document.save(), true);
    assert.strictEqual(other.result, 'Typed after the revert');
    assert.strictEqual(mine.result, 'Text of Weekly digest (93031)');
  });

  it('deleted on the website while the window was closed: the save is refused as "deleted", not as an attempt to make a new document', async () => {
    const d = put(93041, 'Old notes', 38);
    await freshListing();
    const editor = await showAccountFile('Video tags', 'Old notes.md');
    await replaceAll(editor, 'Notes typed before the restart');

    await restart(() => {
      sandbox.documents.delete(d.id);
    });
    const errors = new SaveErrors(s);
    try {
      assert.strictEqual(await editor.document.save(), false, 'the save fails');
    } finally {
      errors.dispose();
    }
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(editor.document.getText(), 'Notes typed before the restart');
    assert.deepStrictEqual(patched(), []);
    const message = errors.last()?.message ?? '';
    assert.match(message, /deleted/i, `the refusal says the document was deleted: ${message}`);
    assert.doesNotMatch(message, /New Document/, `not as an attempt to make a document: ${message}`);
  });

  it('a path the window kept nothing of (a tab of an earlier version): the refusal says what may have happened and how to keep the text', async () => {
    const d = put(93051, 'Draft from last year', 38);
    await freshListing();
    const editor = await showAccountFile('Video tags', 'Draft from last year.md');
    await replaceAll(editor, 'Typed in an old tab');

    await restart(async (label) => {
      d.name = 'Draft, renamed';
      d.updatedAt = LATER;
      await s.workspaceState.update(`${MEMORY_KEY}.${label}`, undefined);
    });
    const errors = new SaveErrors(s);
    try {
      assert.strictEqual(await editor.document.save(), false, 'the save fails');
    } finally {
      errors.dispose();
    }
    assert.strictEqual(editor.document.getText(), 'Typed in an old tab');
    assert.strictEqual(d.result, 'Text of Draft from last year (93051)');
    assert.deepStrictEqual(patched(), []);
    const message = errors.last()?.message ?? '';
    assert.match(message, /renamed/i, `the refusal says the document may have been renamed: ${message}`);
    assert.match(message, /Save As/, `it says how to keep the text: ${message}`);
  });

  it('what one account\'s window kept never resolves a path of another account (same paths, same ids)', async () => {
    const d = put(93061, 'Shared plan', 33);
    await freshListing();
    const editor = await showAccountFile('Tweet', 'Shared plan.md');
    assert.strictEqual(editor.document.getText(), d.result);
    const first = accountNow();
    await closeAll();

    // Another installation holding a document of the same id and template, under another name.
    const second = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    try {
      const theirs = putDocument(second, 93061, 'Their plan', 33);
      await useSandbox(s, second);
      const label = accountNow();
      assert.notStrictEqual(label, first);
      const path = vscode.Uri.from({ scheme: 'content-docs', authority: label, path: '/Tweet/Shared plan.md' });
      await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(path)), (e: vscode.FileSystemError) => /FileNotFound|EntryNotFound/.test(e.code), 'not a file of that account');
      await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(path, new TextEncoder().encode('Not for them'))));
      assert.strictEqual(theirs.result, 'Text of Their plan (93061)');
      assert.ok(!second.requests.some((r) => r.route === 'documents.update'), 'nothing was sent to the other installation');
    } finally {
      await useSandbox(s, sandbox);
      await second.close();
    }
  });
});
