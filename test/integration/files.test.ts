/**
 * Documents as files, inside a real VS Code against the sandbox: open, edit and save through the
 * `content-docs:` file system; trimming without a false conflict; VS Code's own "newer content"
 * conflict flow; failed saves that keep the editor dirty; refusals before sending; rename and delete
 * through the file system; the account as a folder; open editors following server changes.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { Prompter } from '../../src/ui/prompter';
import { startSandbox, type Fault, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { click, screenshot } from './harness';
import { accountAnew, accountNow, configure, RecordingPrompter, SCHEME, services, sleep, until } from './reliabilityKit';

let sandbox: Sandbox;
let s: TestServices;

function requests(route: string, id?: number) {
  return sandbox.requests.filter((r) => r.route === route && (id === undefined || r.path.endsWith(`/${id}`)));
}

/** A document of the seed with a plain, non-empty result (not open in any editor yet). */
const used = new Set<number>();
function freshDocument(predicate: (d: SandboxDocument) => boolean = () => true): SandboxDocument {
  // From the highest id down: the suites before this one (other sandboxes, same ids) take theirs from the
  // lowest up, and a window that has shown a later version of an id keeps its mtime from going back.
  for (const d of [...sandbox.documents.values()].sort((a, b) => b.id - a.id)) {
    if (used.has(d.id) || !d.result || d.templateId === null || d.templateId > 52 || !/^[\w ,.'-]+$/.test(d.name)) continue;
    if (!predicate(d)) continue;
    used.add(d.id);
    return d;
  }
  throw new Error('no fresh document left in the seed');
}

async function open(id: number): Promise<vscode.TextEditor> {
  await vscode.commands.executeCommand(CMD.documentOpen, { id });
  return until('the document editor', () => {
    const e = vscode.window.activeTextEditor;
    return e && e.document.uri.scheme === SCHEME && e.document.uri.authority.split('.')[0] === String(id) ? e : undefined;
  });
}

async function replaceAll(editor: vscode.TextEditor, text: string): Promise<void> {
  const doc = editor.document;
  const ok = await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
  assert.ok(ok, 'the edit was applied');
  assert.strictEqual(doc.getText(), text);
}

/** Opens the notification center (the headless workbench shows no toasts) and lets it render. */
async function showNotifications(): Promise<void> {
  await sleep(200);
  await vscode.commands.executeCommand('notifications.showList');
  await sleep(300);
}

async function closeAll(): Promise<void> {
  for (const d of vscode.workspace.textDocuments) {
    if (d.uri.scheme !== SCHEME || !d.isDirty) continue;
    await vscode.window.showTextDocument(d);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
}

describe('documents as files (content-docs: file system)', function () {
  this.timeout(60_000);
  // Confirmations come from the queue each test fills (one nobody queued is declined).
  const prompter = new RecordingPrompter();
  let previousPrompter: Prompter | undefined;
  let autoSave: string | undefined;

  before(async () => {
    // code-server's default is files.autoSave = afterDelay: here the test decides when a save happens (a save asked for
    // while an auto-save of the same editor is under way resolves false, though the text is saved).
    autoSave = vscode.workspace.getConfiguration('files').inspect<string>('autoSave')?.globalValue;
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
    await configure('files.language', undefined);
    await s.credentials.setKey(sandbox.key);
    previousPrompter = s.prompter.current;
    s.prompter.current = prompter;
  });

  after(async () => {
    if (previousPrompter) s.prompter.current = previousPrompter;
    await closeAll();
    await configure('files.language', undefined);
    await configure('network.timeoutSeconds', undefined);
    await vscode.workspace.getConfiguration('files').update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
    await sandbox?.close();
  });

  afterEach(async () => {
    sandbox.clearFaults();
    await closeAll();
  });

  it('opens a document in one request: its text, a readable URI, Markdown, stat = server updated_at and exact size', async () => {
    const d = freshDocument();
    sandbox.resetRequests();
    const t0 = Date.now();
    const editor = await open(d.id);
    const uri = editor.document.uri;
    assert.strictEqual(editor.document.getText(), d.result);
    assert.strictEqual(uri.authority.split('.')[0], String(d.id));
    assert.match(uri.path, new RegExp(`^/[^/]+/[^/]+/${d.name.replace(/[.]/g, '\\.')}\\.md$`), 'the host folder, the template folder, the file');
    assert.strictEqual(editor.document.languageId, 'markdown');
    // VS Code (the Markdown features among it) stats a file again shortly after opening it: still one GET.
    await sleep(1_000);
    assert.strictEqual(
      requests('documents.show', d.id).length,
      1,
      `opening costs one GET, not: ${sandbox.requests.map((r) => `${r.method} ${r.path} @${r.at - t0} ms`).join(', ')}`,
    );

    const stat = await vscode.workspace.fs.stat(uri);
    assert.strictEqual(stat.type, vscode.FileType.File);
    assert.strictEqual(stat.mtime, d.updatedAt.getTime());
    assert.strictEqual(stat.ctime, d.createdAt.getTime());
    assert.strictEqual(stat.size, Buffer.byteLength(d.result!, 'utf8'));
    const bytes = await vscode.workspace.fs.readFile(uri);
    assert.strictEqual(bytes.byteLength, stat.size);
    await screenshot('document-editor');
  });

  it('opens as plain text (.txt) when contentDocs.files.language is plaintext', async () => {
    await configure('files.language', 'plaintext');
    try {
      const d = freshDocument();
      const editor = await open(d.id);
      assert.match(editor.document.uri.path, /\.txt$/);
      assert.strictEqual(editor.document.languageId, 'plaintext');
      assert.strictEqual(editor.document.getText(), d.result);
    } finally {
      await configure('files.language', undefined);
    }
  });

  it('the Documents view\'s rows show the icon of the file language, and follow a change of the setting', async () => {
    const tree = s.documentsTree;
    const iconOfFirstRow = async () => {
      const rows = (await tree.getChildren(tree.model.allGroup)).filter((n) => n.kind === 'document' && !n.doc.favorite);
      assert.ok(rows.length > 0, 'a document that is not a favorite');
      const icon = tree.getTreeItem(rows[0]).iconPath;
      return icon instanceof vscode.ThemeIcon ? icon.id : undefined;
    };
    await tree.load(tree.model.allGroup);
    assert.strictEqual(await iconOfFirstRow(), 'markdown');
    await configure('files.language', 'plaintext');
    try {
      await until('the rows follow the setting', async () => (await iconOfFirstRow()) === 'file-text' || undefined);
    } finally {
      await configure('files.language', undefined);
    }
    await until('and back', async () => (await iconOfFirstRow()) === 'markdown' || undefined);
  });

  it('reads a document whose result is null as an empty file', async () => {
    const d = [...sandbox.documents.values()].find((x) => x.result === null);
    assert.ok(d, 'the seed has a document with a null result');
    // Any folder, the document's own name (a name it never had is "not found": that is what lets a rename work).
    const uri = vscode.Uri.from({ scheme: SCHEME, authority: `${d.id}.${accountNow()}`, path: `/Any/${d.name}.md` });
    assert.strictEqual((await vscode.workspace.fs.readFile(uri)).byteLength, 0);
    assert.strictEqual((await vscode.workspace.fs.stat(uri)).size, 0);
  });

  it('open → edit → save: the sandbox holds the new text (at most 2 requests)', async () => {
    const d = freshDocument();
    const editor = await open(d.id);
    const text = `Edited in VS Code at ${new Date().toISOString()}.\n\nSecond paragraph.`;
    await replaceAll(editor, text);
    sandbox.resetRequests();
    assert.strictEqual(await editor.document.save(), true, 'save() succeeds');
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(sandbox.documents.get(d.id)!.result, text);
    assert.strictEqual(requests('documents.update', d.id).length, 1);
    const all = sandbox.requests.filter((r) => r.path.endsWith(`/${d.id}`));
    assert.ok(all.length <= 2, `a save costs at most 2 requests, not ${all.length}`);
    const stat = await vscode.workspace.fs.stat(editor.document.uri);
    assert.strictEqual(stat.mtime >= sandbox.documents.get(d.id)!.updatedAt.getTime(), true);
    assert.strictEqual(stat.size, Buffer.byteLength(text, 'utf8'));
  });

  it('trims like the server without a false conflict: save "  text\\n\\n", edit, save again', async () => {
    const d = freshDocument();
    const editor = await open(d.id);
    await replaceAll(editor, '  Trim me, please.\n\n');
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(sandbox.documents.get(d.id)!.result, 'Trim me, please.', 'the server trimmed');
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(editor.document.getText(), '  Trim me, please.\n\n', "the user's buffer is left alone");
    // What the next read returns is what the server stored.
    assert.strictEqual(Buffer.from(await vscode.workspace.fs.readFile(editor.document.uri)).toString('utf8'), 'Trim me, please.');

    await editor.edit((b) => b.insert(editor.document.positionAt(editor.document.getText().length), 'And more.\n'));
    assert.strictEqual(await editor.document.save(), true, 'the second save is not taken for a conflict');
    assert.strictEqual(sandbox.documents.get(d.id)!.result, 'Trim me, please.\n\nAnd more.');

    // A save the trim turns into "no change" (only a newline added) is fine too.
    await editor.edit((b) => b.insert(editor.document.positionAt(editor.document.getText().length), '\n'));
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(sandbox.documents.get(d.id)!.result, 'Trim me, please.\n\nAnd more.');
  });

  it("a change on the server between open and save raises VS Code's conflict; the server text stays until Overwrite", async () => {
    const d = freshDocument();
    const editor = await open(d.id);
    const mine = 'My version of the text.';
    await replaceAll(editor, mine);
    const theirs = 'Their version, saved on the website meanwhile (a longer text than mine).';
    const doc = sandbox.documents.get(d.id)!;
    doc.result = theirs;
    doc.updatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    sandbox.resetRequests();

    assert.strictEqual(await editor.document.save(), false, 'the save is refused');
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(editor.document.getText(), mine);
    assert.strictEqual(sandbox.documents.get(d.id)!.result, theirs, 'the server text stays');
    assert.strictEqual(requests('documents.update').length, 0, 'nothing was sent');
    // VS Code's notification: "Failed to save '…': The content of the file is newer…" [Compare] [Overwrite].
    // (The headless workbench shows no toasts, so it is clicked in the notification center.)
    await showNotifications();
    await screenshot('document-conflict');
    await click('.notifications-center .monaco-button:has-text("Overwrite")');
    await until('the overwrite to be saved', () => !editor.document.isDirty && sandbox.documents.get(d.id)!.result === mine);
    assert.strictEqual(requests('documents.update', d.id).length, 1);
  });

  it('catches a change made within the same second to a text of the same length', async () => {
    const d = freshDocument((x) => x.result!.length > 20);
    const editor = await open(d.id);
    await replaceAll(editor, 'Local edit.');
    const doc = sandbox.documents.get(d.id)!;
    const original = doc.result!;
    // Same length, same updated_at: only the content tells the change.
    doc.result = original.slice(1) + original[0];
    assert.notStrictEqual(doc.result, original);
    assert.strictEqual(await editor.document.save(), false);
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(sandbox.documents.get(d.id)!.result, original.slice(1) + original[0]);
  });

  it('Overwrite writes: a write after the conflict check goes through (vscode.workspace.fs.writeFile)', async () => {
    const d = freshDocument();
    const uri = vscode.Uri.parse(`${SCHEME}://${d.id}.${accountNow()}/Anything/${encodeURIComponent(d.name)}.md`);
    await vscode.workspace.fs.readFile(uri);
    sandbox.documents.get(d.id)!.result = 'Changed on the server.';
    await vscode.workspace.fs.writeFile(uri, Buffer.from('Written over it.'));
    assert.strictEqual(sandbox.documents.get(d.id)!.result, 'Written over it.');
  });

  const failures: Array<[string, Fault, boolean]> = [
    ['HTTP 500', { kind: 'status500', count: 1 }, false],
    ['HTTP 429', { kind: 'rateLimit', count: 1, retryAfter: 1 }, false],
    ['a server that never answers', { kind: 'hang', count: 1 }, true],
  ];
  for (const [what, fault, slow] of failures) {
    it(`a save against ${what} leaves the editor dirty with the text intact, and saving again works`, async () => {
      if (slow) await configure('network.timeoutSeconds', 5);
      try {
        const d = freshDocument();
        const editor = await open(d.id);
        const before = sandbox.documents.get(d.id)!.result;
        const text = `Unsaved work that must survive ${what}.`;
        await replaceAll(editor, text);
        sandbox.setFault('documents.update', fault);
        assert.strictEqual(await editor.document.save(), false);
        assert.strictEqual(editor.document.isDirty, true);
        assert.strictEqual(editor.document.getText(), text);
        assert.strictEqual(sandbox.documents.get(d.id)!.result, before);
        if (fault.kind === 'status500') {
          await showNotifications();
          await screenshot('document-save-failed');
        }
        sandbox.clearFaults();
        if (fault.kind === 'rateLimit') {
          // After a 429 the client paces itself until the server's window ends (up to a minute):
          // a fresh client (any network setting change) forgets that, so the retry below is quick.
          await configure('network.timeoutSeconds', 29);
          await configure('network.timeoutSeconds', undefined);
        }
        // The way to retry: save again once the server is back.
        assert.strictEqual(await editor.document.save(), true);
        assert.strictEqual(sandbox.documents.get(d.id)!.result, text);
      } finally {
        if (slow) await configure('network.timeoutSeconds', undefined);
      }
    });
  }

  it("a save whose pre-save check can't reach the server is not sent (VS Code ignores a failing stat; writeFile checks itself)", async () => {
    const d = freshDocument();
    const editor = await open(d.id);
    await replaceAll(editor, 'Typed while the server cannot be read.');
    sandbox.setFault('documents.show', { kind: 'status500' });
    sandbox.resetRequests();
    assert.strictEqual(await editor.document.save(), false);
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(requests('documents.update').length, 0, 'nothing was written without a check');
    sandbox.clearFaults();
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(sandbox.documents.get(d.id)!.result, 'Typed while the server cannot be read.');
  });

  it('a save with a rejected key (401) keeps the editor dirty', async () => {
    const d = freshDocument();
    const editor = await open(d.id);
    await replaceAll(editor, 'Text typed while the key is wrong.');
    await s.credentials.setKey('wrong-key-0000');
    try {
      assert.strictEqual(await editor.document.save(), false);
      assert.strictEqual(editor.document.isDirty, true);
      assert.strictEqual(editor.document.getText(), 'Text typed while the key is wrong.');
    } finally {
      await s.credentials.setKey(sandbox.key);
    }
    assert.strictEqual(await editor.document.save(), true);
  });

  it('refuses an over-long (20,481 characters) or empty result before sending, and says why', async () => {
    const d = freshDocument();
    const editor = await open(d.id);
    const uri = editor.document.uri;
    const before = sandbox.documents.get(d.id)!.result;

    const long = 'x'.repeat(20_481);
    await replaceAll(editor, long);
    sandbox.resetRequests();
    assert.strictEqual(await editor.document.save(), false);
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(editor.document.getText().length, 20_481);
    await showNotifications();
    await screenshot('document-too-long');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, Buffer.from(long))), (e: Error) => {
      assert.match(e.message, /longer than 20,480 characters \(20,481\)/);
      return true;
    });

    await replaceAll(editor, '  \n\n ');
    assert.strictEqual(await editor.document.save(), false);
    assert.strictEqual(editor.document.isDirty, true);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, Buffer.from(' \n'))), (e: Error) => {
      assert.match(e.message, /the text is empty/);
      return true;
    });
    assert.strictEqual(requests('documents.update').length, 0, 'nothing was sent');
    assert.strictEqual(sandbox.documents.get(d.id)!.result, before);

    // Exactly 20,480 characters (after trimming) is allowed.
    await replaceAll(editor, 'y'.repeat(20_480) + '\n');
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(sandbox.documents.get(d.id)!.result!.length, 20_480);
  });

  it('renames the document by renaming its file (same folder, new name)', async () => {
    const d = freshDocument();
    const folder = 'Some template';
    const oldUri = vscode.Uri.parse(`${SCHEME}://${d.id}.${accountNow()}/${encodeURIComponent(folder)}/${encodeURIComponent(d.name)}.md`);
    const newUri = vscode.Uri.parse(`${SCHEME}://${d.id}.${accountNow()}/${encodeURIComponent(folder)}/Renamed%20through%20the%20file%20system.md`);
    await vscode.workspace.fs.stat(oldUri);
    await vscode.workspace.fs.rename(oldUri, newUri);
    assert.strictEqual(sandbox.documents.get(d.id)!.name, 'Renamed through the file system');
    assert.strictEqual(s.documents.get(d.id)?.name, 'Renamed through the file system');

    // Moving to another folder would change the template: refused.
    const moved = vscode.Uri.parse(`${SCHEME}://${d.id}.${accountNow()}/Elsewhere/Moved.md`);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.rename(newUri, moved)));
    assert.strictEqual(sandbox.documents.get(d.id)!.name, 'Renamed through the file system');
  });

  it('Rename… of a document open in editors moves its tabs to the new name, as the Explorer does: the unsaved text, the cursor, the column and the tab beside it kept, one PATCH of the name', async () => {
    const d = freshDocument();
    const beside = freshDocument();
    await open(beside.id);
    // Kept open (a preview tab would give its place to the next document).
    await vscode.commands.executeCommand('workbench.action.keepEditor');
    const editor = await open(d.id);
    const oldUri = editor.document.uri.toString();
    const serverText = sandbox.documents.get(d.id)!.result;
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'Unsaved words. '));
    const edited = editor.document.getText();
    editor.selection = new vscode.Selection(0, 3, 0, 8);
    // The same document in a second column too.
    await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.Two, preview: false });
    await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One });
    sandbox.resetRequests();

    prompter.inputs = ['Renamed while open'];
    await vscode.commands.executeCommand(CMD.documentRename, editor.document.uri);
    assert.strictEqual(sandbox.documents.get(d.id)!.name, 'Renamed while open');

    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => ({ column: g.viewColumn, label: t.label, uri: t.input instanceof vscode.TabInputText ? t.input.uri.toString() : '' })));
    await until('no tab under the old name', () => !tabs().some((t) => t.uri === oldUri) || undefined).catch(() => assert.fail(`tabs: ${JSON.stringify(tabs())}`));
    const renamed = tabs().filter((t) => t.label === 'Renamed while open.md');
    assert.deepStrictEqual(renamed.map((t) => t.column).sort(), [vscode.ViewColumn.One, vscode.ViewColumn.Two], `both columns show the new name: ${JSON.stringify(tabs())}`);
    assert.ok(tabs().some((t) => t.column === vscode.ViewColumn.One && t.uri.startsWith(`${SCHEME}://${beside.id}.`)), 'the other tab stays');
    const active = vscode.window.activeTextEditor;
    assert.ok(active, 'an editor is active');
    assert.strictEqual(active.viewColumn, vscode.ViewColumn.One, 'the column that was active');
    assert.match(decodeURIComponent(active.document.uri.path), /\/Renamed while open\.md$/);
    assert.strictEqual(active.document.uri.authority, vscode.Uri.parse(oldUri).authority, 'the same document');
    assert.strictEqual(active.document.getText(), edited, 'the unsaved text kept');
    assert.ok(active.document.isDirty, 'still unsaved: nothing was saved for the user');
    assert.deepStrictEqual([active.selection.start.character, active.selection.end.character], [3, 8], 'the selection kept');
    assert.deepStrictEqual(sandbox.requests.filter((r) => r.method === 'PATCH').map((r) => r.body), [{ name: 'Renamed while open' }], 'only the name was sent');
    assert.strictEqual(sandbox.documents.get(d.id)!.result, serverText, 'the text not sent');

    assert.ok(await active.document.save(), 'saved under the new name');
    assert.strictEqual(sandbox.documents.get(d.id)!.result, edited);
    assert.strictEqual(sandbox.documents.get(d.id)!.name, 'Renamed while open');
  });

  it('deletes the document by deleting its file, after a confirmation', async () => {
    const d = freshDocument();
    const uri = vscode.Uri.parse(`${SCHEME}://${d.id}.${accountNow()}/Folder/${encodeURIComponent(d.name)}.md`);
    await vscode.workspace.fs.stat(uri);

    prompter.confirms = [false];
    prompter.asked = [];
    await assert.rejects(Promise.resolve(vscode.workspace.fs.delete(uri)));
    assert.ok(sandbox.documents.has(d.id), 'kept when not confirmed');
    assert.strictEqual(prompter.asked[0]?.kind, 'confirm', 'the deletion is confirmed first');
    assert.match(prompter.asked[0].message ?? '', new RegExp(`Delete "${d.name}"`));

    prompter.confirms = [true];
    await vscode.workspace.fs.delete(uri);
    assert.strictEqual(sandbox.documents.has(d.id), false, 'deleted on the server');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(uri)), (e: vscode.FileSystemError) => {
      assert.strictEqual(e.code, 'FileNotFound');
      return true;
    });
  });

  it('maps errors: unknown id → FileNotFound, rejected key → NoPermissions, server down → Unavailable', async () => {
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.parse(`${SCHEME}://999999.${accountNow()}/X/Gone.md`))), (e: vscode.FileSystemError) => {
      assert.strictEqual(e.code, 'FileNotFound');
      return true;
    });
    const d = freshDocument();
    const uri = vscode.Uri.parse(`${SCHEME}://${d.id}.${accountNow()}/X/${encodeURIComponent(d.name)}.md`);
    sandbox.setFault('documents.show', { kind: 'status500' });
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(uri)), (e: vscode.FileSystemError) => {
      assert.strictEqual(e.code, 'Unavailable');
      assert.match(e.message, /HTTP 500/);
      return true;
    });
    sandbox.clearFaults();
    // The key was replaced in the account settings: the one VS Code has is refused (the same account still, so the
    // tab's URI is its document; a key changed in VS Code would make it another account's, see tabsAcrossServers).
    const key = sandbox.key;
    sandbox.regenerateKey('regenerated-key-0000');
    try {
      await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(uri)), (e: vscode.FileSystemError) => {
        assert.strictEqual(e.code, 'NoPermissions');
        return true;
      });
    } finally {
      sandbox.regenerateKey(key);
    }
  });

  it('open editors follow changes the extension learns of (server change on refresh, delete)', async () => {
    const d = freshDocument();
    const editor = await open(d.id);
    const doc = sandbox.documents.get(d.id)!;
    doc.result = 'Changed on the server, then fetched by the extension.';
    doc.updatedAt = new Date(doc.updatedAt.getTime() + 60_000);
    await s.documents.fetch(d.id);
    await until('the editor to show the server text', () => editor.document.getText() === doc.result);
    assert.strictEqual(editor.document.isDirty, false);

    const events: vscode.FileChangeEvent[] = [];
    const sub = s.fs.onDidChangeFile((e) => events.push(...e));
    try {
      prompter.confirms = [true];
      await s.documents.delete(d.id);
      await until('a Deleted event for the open document', () =>
        events.some((e) => e.type === vscode.FileChangeType.Deleted && e.uri.toString() === editor.document.uri.toString()),
      );
    } finally {
      sub.dispose();
    }
  });

  it('Open Account as Folder: templates with documents as folders, documents as files, duplicates told apart', async () => {
    // Two documents with one name, and a template left without documents.
    const at = new Date('2026-05-01T10:00:00Z');
    const twin = (id: number): SandboxDocument => ({
      id, name: 'Twin', templateId: 33, result: `Twin ${id}`, words: 2, favorite: false, createdAt: at, updatedAt: at,
    });
    sandbox.documents.set(90001, twin(90001));
    sandbox.documents.set(90002, twin(90002));
    for (const [id, d] of sandbox.documents) if (d.templateId === 52) sandbox.documents.delete(id);

    // From a listing not loaded yet (what an account switch leaves): an earlier suite's sandbox may have had this
    // one's address, and to the extension that is the same server and key, whose listing it keeps for the window (a
    // Refresh reads it again but keeps it meanwhile). The account made anew under another label has listed nothing.
    await accountAnew(s);
    const root = vscode.Uri.parse(`${SCHEME}://${accountNow()}/`);
    sandbox.resetRequests();
    const folders = await vscode.workspace.fs.readDirectory(root);
    const names = folders.map(([n]) => n);
    for (const n of ['Freestyle', 'Article', 'Tweet', 'No template', 'Custom: Landing page']) assert.ok(names.includes(n), `lists ${n}`);
    assert.ok(!names.includes('Feature section'), 'a template without documents is not listed');
    assert.ok(folders.every(([, t]) => t === vscode.FileType.Directory));
    const pages = requests('documents.list');
    assert.ok(pages.length >= 2, 'the listing is read page by page');
    assert.ok(pages.every((r) => r.query.per_page === '100'));

    // Cached: a second listing costs nothing.
    sandbox.resetRequests();
    await vscode.workspace.fs.readDirectory(root);
    assert.strictEqual(requests('documents.list').length, 0);

    const tweets = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(root, 'Tweet'));
    const files = tweets.map(([n]) => n);
    assert.ok(files.includes('Twin.md') && files.includes('Twin (90002).md'), `duplicates told apart: ${files.join(', ')}`);
    const inSandbox = [...sandbox.documents.values()].filter((d) => d.templateId === 33).length;
    assert.strictEqual(files.length, inSandbox);

    const file = vscode.Uri.joinPath(root, 'Tweet', 'Twin (90002).md');
    assert.strictEqual(Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8'), 'Twin 90002');
    assert.strictEqual(s.fs.documentIdOf(file), 90002);

    // Editing through the account path saves the document.
    const editor = await vscode.window.showTextDocument(file);
    await replaceAll(editor, 'Saved through the account folder.');
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(sandbox.documents.get(90002)!.result, 'Saved through the account folder.');

    // Creating a file there is not how documents are made.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, 'Tweet', 'New.md'), Buffer.from('x'))), /New Document/);
  });
});
