/**
 * The account folder and the other URI forms of a document, inside a real VS Code against the sandbox: nothing
 * typed lands in another document, every URI of a document hears of its changes, every document command works on
 * every URI form, every document can be found by browsing, and rows are placed in the servers' name order. Then
 * account paths across account switches and renames onto reserved paths: none of them may write or delete a
 * document the user did not point at.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import type { Prompter } from '../../src/ui/prompter';
import { collate, startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { accountUri, AT, countWithoutPauses, freshListing, putDocument, startAccountSuite } from './accountKit';
import { screenshot } from './harness';
import { accountNow, accountRoot, closeAll, configure, type RecordingPrompter, replaceAll, SaveErrors, SCHEME, sleep, until, useSandbox } from './reliabilityKit';

const LONG_AGO = new Date('2020-01-01T00:00:00Z');

let sandbox: Sandbox;
/** A second account (another server and key) of the suite on account switches. */
let other: Sandbox;
let s: TestServices;
let prompter: RecordingPrompter;
let previousPrompter: Prompter | undefined;

function put(id: number, name: string, templateId: number | null, extra: Partial<SandboxDocument> = {}): SandboxDocument {
  return putDocument(sandbox, id, name, templateId, extra);
}

async function showAccountFile(folder: string, file: string): Promise<vscode.TextEditor> {
  return vscode.window.showTextDocument(accountUri(folder, file), { preview: false });
}

async function listed(folder: string): Promise<string[]> {
  return (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath((await accountRoot()), folder))).map(([n]) => n);
}

describe('account folder and URI forms: a save never writes another document, every document is reachable', function () {
  this.timeout(60_000);

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    ({ s, prompter, previousPrompter } = await startAccountSuite(sandbox));
  });

  after(async () => {
    await closeAll();
    if (previousPrompter) s.prompter.current = previousPrompter;
    await s.documentsTree.model.setSort('newest');
    await sandbox.close();
  });

  afterEach(async () => {
    prompter.reset();
    await closeAll();
  });

  it('an account path keeps meaning its document: after that document is deleted, a save fails and never lands in the other "Dup"', async () => {
    put(91001, 'Dup', 33);
    const other = put(91002, 'Dup', 33);
    await freshListing();
    const files = (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath((await accountRoot()), 'Tweet'))).map(([n]) => n);
    assert.ok(files.includes('Dup.md') && files.includes('Dup (91002).md'), files.join(', '));

    const editor = await showAccountFile('Tweet', 'Dup.md');
    assert.strictEqual(editor.document.getText(), 'Text of Dup (91001)');
    await replaceAll(editor, 'Unsaved words meant for 91001');

    prompter.confirms = [true];
    await vscode.commands.executeCommand('contentDocs.documentDelete', { id: 91001 });
    assert.ok(!sandbox.documents.has(91001), 'deleted on the server');

    const errors = new SaveErrors(s);
    try {
      assert.strictEqual(await editor.document.save(), false, 'the save fails');
    } finally {
      errors.dispose();
    }
    assert.strictEqual(editor.document.isDirty, true, 'the editor keeps the text');
    assert.strictEqual(editor.document.getText(), 'Unsaved words meant for 91001');
    assert.strictEqual(other.result, 'Text of Dup (91002)', 'the other Dup is untouched');
    assert.ok(!sandbox.requests.some((r) => r.route === 'documents.update' && r.path.endsWith('/91002')), 'no PATCH to the other Dup');
    assert.match(errors.last()?.code ?? '', /FileNotFound|EntryNotFound/);
  });

  it('the same when someone else deletes it and the view is refreshed', async () => {
    put(91011, 'Twin', 35);
    const other = put(91012, 'Twin', 35);
    await freshListing();
    const editor = await showAccountFile('Value proposition', 'Twin.md');
    assert.strictEqual(editor.document.getText(), 'Text of Twin (91011)');
    await replaceAll(editor, 'Unsaved words meant for 91011');

    sandbox.documents.delete(91011);
    await freshListing();
    assert.strictEqual(s.fs.documentIdOf(accountUri('Value proposition', 'Twin.md')), 91011, 'the path still means the deleted document');

    assert.strictEqual(await editor.document.save(), false, 'the save fails');
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(other.result, 'Text of Twin (91012)', 'the other Twin is untouched');
    assert.ok(!sandbox.requests.some((r) => r.route === 'documents.update' && r.path.endsWith('/91012')));
  });

  it('renaming an older document onto a shown name: the editor of that name keeps its own document, clean or dirty', async () => {
    const older = put(91021, 'Older', 36);
    const target = put(91022, 'Target', 36);
    await freshListing();
    const clean = await showAccountFile('Video description', 'Target.md');
    assert.strictEqual(clean.document.getText(), 'Text of Target (91022)');

    await s.documents.rename(91021, 'Target');
    assert.strictEqual(older.name, 'Target');
    await sleep(300);
    assert.strictEqual(s.fs.documentIdOf(accountUri('Video description', 'Target.md')), 91022);
    // A clean editor still shows its own document's text (re-read from the server: still 91022's).
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await sleep(300);
    assert.strictEqual(clean.document.getText(), 'Text of Target (91022)');

    // Dirty: the save goes to 91022, the older document keeps its text.
    await replaceAll(clean, 'Saved into Target only');
    assert.strictEqual(await clean.document.save(), true);
    assert.strictEqual(target.result, 'Saved into Target only');
    assert.strictEqual(older.result, 'Text of Older (91021)');
    const files = (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath((await accountRoot()), 'Video description'))).map(([n]) => n);
    assert.ok(files.includes('Target (91021).md'), `the renamed document is told apart: ${files.join(', ')}`);
  });

  it('a save through one URI form tells the editor of the other form', async () => {
    const d = put(91031, 'Both ways', 37);
    await freshListing();
    const viaAccount = await showAccountFile('Video script', 'Both ways.md');
    // Open Document would show the tab already open: the id form is opened directly.
    const viaId = await vscode.window.showTextDocument(vscode.Uri.parse(`${SCHEME}://91031.${accountNow()}/Video%20script/Both%20ways.md`), { preview: false });
    assert.notStrictEqual(viaId.document.uri.toString(), viaAccount.document.uri.toString());
    await replaceAll(viaId, 'Saved through content-docs://91031');
    assert.strictEqual(await viaId.document.save(), true);
    assert.strictEqual(d.result, 'Saved through content-docs://91031');
    await until('the account-folder editor to show the saved text', () => viaAccount.document.getText() === d.result, 8_000);

    // And the other way round.
    const accountAgain = await vscode.window.showTextDocument(viaAccount.document);
    await replaceAll(accountAgain, 'Saved through the account folder');
    assert.strictEqual(await accountAgain.document.save(), true);
    await until('the id editor to show the saved text', () => viaId.document.getText() === 'Saved through the account folder', 8_000);
  });

  it('a rename reaches every URI of the document', async () => {
    put(91036, 'Renamed both ways', 37);
    await freshListing();
    await showAccountFile('Video script', 'Renamed both ways.md');
    await vscode.window.showTextDocument(vscode.Uri.parse(`${SCHEME}://91036.${accountNow()}/Video%20script/Renamed%20both%20ways.md`), { preview: false });
    const events: vscode.FileChangeEvent[] = [];
    const sub = s.fs.onDidChangeFile((e) => events.push(...e));
    try {
      await s.documents.rename(91036, 'Renamed at last');
      await until('change events for both URIs', () => {
        const uris = new Set(events.filter((e) => e.type === vscode.FileChangeType.Changed).map((e) => e.uri.toString()));
        return uris.has(accountUri('Video script', 'Renamed both ways.md').toString()) && [...uris].some((u) => u.startsWith(`${SCHEME}://91036.${accountNow()}/`));
      });
    } finally {
      sub.dispose();
    }
  });

  it('reopening a document saved with a final newline asks VS Code for no reload (the server trims it)', async () => {
    put(91041, 'Newline', 38);
    await vscode.commands.executeCommand('contentDocs.documentOpen', { id: 91041 });
    const editor = await until('the editor', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.authority.split('.')[0] === '91041' ? e : undefined;
    });
    await replaceAll(editor, 'Ends with a newline\n');
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(sandbox.documents.get(91041)!.result, 'Ends with a newline');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    const events: vscode.FileChangeEvent[] = [];
    const sub = s.fs.onDidChangeFile((e) => events.push(...e));
    try {
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: 91041 });
      await until('the editor again', () => vscode.window.activeTextEditor?.document.uri.authority.split('.')[0] === '91041');
      await sleep(100);
    } finally {
      sub.dispose();
    }
    const reloads = events.filter((e) => e.uri.authority.split('.')[0] === '91041');
    assert.deepStrictEqual(reloads.map((e) => e.uri.toString()), [], 'no reload was asked for (it would wait for one that never comes)');
  });

  it('Rename, Favorite, Copy Result and Delete work in an editor opened from the account folder', async () => {
    const d = put(91051, 'Commands here', 39);
    await freshListing();
    await showAccountFile('Video title', 'Commands here.md');

    await vscode.commands.executeCommand('contentDocs.documentFavorite');
    assert.strictEqual(d.favorite, true, 'Add to Favorites');
    await vscode.commands.executeCommand('contentDocs.documentUnfavorite');
    assert.strictEqual(d.favorite, false, 'Remove from Favorites');

    await vscode.commands.executeCommand('contentDocs.documentCopyResult');
    assert.strictEqual(await vscode.env.clipboard.readText(), d.result, 'Copy Result');

    prompter.answer = (q) => (q.kind === 'input' ? 'Commands renamed' : undefined);
    await vscode.commands.executeCommand('contentDocs.documentRename');
    assert.strictEqual(d.name, 'Commands renamed', 'Rename…');

    // The editor still shows the old path; it still means this document.
    await vscode.window.showTextDocument(accountUri('Video title', 'Commands here.md'));
    prompter.confirms = [true];
    await vscode.commands.executeCommand('contentDocs.documentDelete');
    assert.ok(!sandbox.documents.has(91051), 'Delete…');
  });

  it('documents on custom and deleted templates are reachable by browsing: All Documents and Other templates', async () => {
    put(91061, 'On a custom template', 77, { templateName: 'Landing page' });
    put(91062, 'On a deleted template', null);
    await vscode.commands.executeCommand('contentDocs.documentsRefresh');
    const tree = s.documentsTree;
    const root = await tree.getChildren();
    const kinds = root.map((n) => n.kind);
    assert.strictEqual(kinds[0], 'all', `All Documents first: ${kinds.join(', ')}`);
    assert.strictEqual(kinds[kinds.length - 1], 'other', 'Other templates last');
    assert.strictEqual(tree.getTreeItem(root[0]).label, 'All Documents');

    const all = await tree.getChildren(tree.model.allGroup);
    const allIds = all.flatMap((n) => (n.kind === 'document' ? [n.doc.id] : []));
    assert.ok(allIds.includes(91061) && allIds.includes(91062), 'newest first: both on the first page of All Documents');
    const ids = [...sandbox.documents.values()].sort((a, b) => b.id - a.id).slice(0, allIds.length).map((d) => d.id);
    assert.deepStrictEqual(allIds, ids, 'All Documents in the server order');
    assert.strictEqual(all[all.length - 1].kind, 'loadMore', 'paged like the others');

    const other = await tree.getChildren(tree.model.otherGroup);
    const otherIds = other.flatMap((n) => (n.kind === 'document' ? [n.doc.id] : []));
    assert.ok(otherIds.includes(91061) && otherIds.includes(91062), `Other templates holds both: ${otherIds.join(', ')}`);
    for (const n of other) if (n.kind === 'document') assert.ok(!n.doc.template || n.doc.template.id > 52, 'only templates outside the table');
    const item = tree.getTreeItem(other.find((n) => n.kind === 'document' && n.doc.id === 91062)!);
    assert.match(String(item.description), /deleted template/);

    // As a person sees it: Other templates expanded.
    await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
    await tree.treeView?.reveal(tree.model.otherGroup, { expand: true, select: false, focus: false });
    await tree.treeView?.reveal(other.find((n) => n.kind === 'document' && n.doc.id === 91062)!, { select: false, focus: false });
    await sleep(400);
    const shot = await screenshot('documents-other-templates');
    assert.ok(fs.statSync(shot).size > 10 * 1024, 'the screenshot was written');
    // Off screen again: a shown Documents view reads its counts in the background.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  it('what the account folder’s listing learns (a document deleted or renamed elsewhere) the Documents view learns too', async () => {
    put(91081, 'Gone soon', 38);
    put(91082, 'Renamed soon', 38);
    await freshListing();
    const tree = s.documentsTree;
    const group = tree.templateGroup(38)!;
    // Refresh: the view lists the group at once, the account folder 500 ms later. Someone else acts in between.
    const t0 = Date.now();
    await vscode.commands.executeCommand('contentDocs.documentsRefresh');
    const before = (await tree.getChildren(group)).flatMap((n) => (n.kind === 'document' ? [n.doc.id] : []));
    assert.ok(before.includes(91081) && before.includes(91082), `the view lists both: ${before.join(', ')}`);
    sandbox.documents.delete(91081);
    const renamed = sandbox.documents.get(91082)!;
    renamed.name = 'Renamed elsewhere';
    renamed.updatedAt = new Date(AT.getTime() + 60_000);
    await until('the account folder to list again', () =>
      sandbox.requests.some((r) => r.route === 'documents.list' && r.query.sort === 'asc' && r.query.per_page === '100' && !r.query.template_id && r.at >= t0 && r.status === 200) || undefined);
    await until('the view to drop the deleted document and show the new name', async () => {
      const rows = (await tree.getChildren(group)).flatMap((n) => (n.kind === 'document' ? [[n.doc.id, n.doc.name] as const] : []));
      return (!rows.some(([id]) => id === 91081) && rows.some(([id, name]) => id === 91082 && name === 'Renamed elsewhere')) || undefined;
    });
    const files = (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath((await accountRoot()), tree.getTreeItem(group).label as string))).map(([n]) => n);
    assert.ok(files.includes('Renamed elsewhere.md') && !files.includes('Gone soon.md'), files.join(', '));
  });

  it('a created document appears in All Documents at the top, with no list request', async () => {
    const tree = s.documentsTree;
    await tree.getChildren(tree.model.allGroup);
    sandbox.resetRequests();
    const doc = await s.documents.create({ name: 'Created for All', prompt: 'A prompt', creativity: 0.5, templateId: 1 });
    await sleep(50);
    const all = await tree.getChildren(tree.model.allGroup);
    assert.strictEqual(all[0].kind === 'document' && all[0].doc.id, doc.id);
    assert.strictEqual(sandbox.requests.filter((r) => r.route === 'documents.list').length, 0);
  });

  it('under Name A–Z a renamed row lands where the servers’ collation puts it (symbols, digits, then letters)', async () => {
    for (const [id, name] of [
      [91071, 'apple'],
      [91072, 'Banana'],
      [91073, '10 things'],
      [91074, 'zebra'],
      [91075, 'Éclair'],
    ] as const) {
      put(id, name, 40);
    }
    for (const [id, d] of sandbox.documents) if (d.templateId === 40 && id < 91071) sandbox.documents.delete(id);
    await s.documentsTree.model.setSort('nameAsc');
    await vscode.commands.executeCommand('contentDocs.documentsRefresh');
    const tree = s.documentsTree;
    const g = tree.templateGroup(40)!;
    await tree.getChildren(g);

    await s.documents.rename(91074, '~tilde');
    await s.documents.rename(91072, '_under');
    await sleep(50);
    const shown = (await tree.getChildren(g)).flatMap((n) => (n.kind === 'document' ? [n.doc.name] : []));
    const expected = [...shown].sort(collate);
    assert.deepStrictEqual(shown, expected, 'the order the servers use');
    assert.ok(shown.indexOf('~tilde') < shown.indexOf('10 things') && shown.indexOf('_under') < shown.indexOf('10 things'), 'symbols before digits');
    assert.ok(shown.indexOf('10 things') < shown.indexOf('apple'), 'digits before letters');
    assert.ok(shown.indexOf('apple') < shown.indexOf('Éclair'), 'accents ignored: É sorts as E, after apple');
  });
});

describe('account folder paths across account switches and renames', function () {
  this.timeout(60_000);
  /** Puts a document straight into the sandbox given. */
  const put = putDocument;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    other = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    ({ s, prompter, previousPrompter } = await startAccountSuite(sandbox));
  });

  after(async () => {
    await closeAll();
    if (previousPrompter) s.prompter.current = previousPrompter;
    await sandbox.close();
    await other.close();
  });

  afterEach(async () => {
    prompter.reset();
    await closeAll();
    await useSandbox(s, sandbox);
    // A test that switched accounts made the first account anew, with a Documents tree of its own.
    countWithoutPauses(s);
  });

  it('a dirty account-folder editor of one account never saves into the same-named document of the next account', async () => {
    const mine = put(sandbox, 92001, 'Shared name', 33);
    const theirs = put(other, 5, 'Shared name', 33, { result: 'The other account keeps this text', updatedAt: LONG_AGO, createdAt: LONG_AGO });
    await freshListing();
    assert.ok((await listed('Tweet')).includes('Shared name.md'));
    const editor = await vscode.window.showTextDocument(accountUri('Tweet', 'Shared name.md'), { preview: false });
    assert.strictEqual(editor.document.getText(), mine.result);
    await replaceAll(editor, 'Unsaved words meant for the first account');

    // Another account (server and key change) while the editor is dirty.
    await useSandbox(s, other);
    await sleep(500);

    const errors = new SaveErrors(s);
    try {
      await editor.document.save();
    } finally {
      errors.dispose();
    }
    assert.strictEqual(theirs.result, 'The other account keeps this text', "the next account's document is untouched");
    assert.ok(
      !other.requests.some((r) => r.route === 'documents.update'),
      `no PATCH reached the other account: ${other.requests.filter((r) => r.route === 'documents.update').map((r) => r.path).join(', ')}`,
    );
  });

  it('renaming a file onto the path a document was renamed away from (nothing shows it) takes the name', async () => {
    const left = put(sandbox, 92011, 'Reserved', 36);
    const mover = put(sandbox, 92012, 'Mover', 36);
    await freshListing();
    assert.ok((await listed('Video description')).includes('Reserved.md'));
    await s.documents.rename(92011, 'Went away');
    await sleep(300);
    const files = await listed('Video description');
    assert.ok(!files.includes('Reserved.md') && files.includes('Went away.md'), files.join(', '));

    // The explorer lists no "Reserved.md": renaming Mover.md to it is what claim() is for.
    await vscode.workspace.fs.rename(accountUri('Video description', 'Mover.md'), accountUri('Video description', 'Reserved.md'), { overwrite: false });
    assert.strictEqual(mover.name, 'Reserved');
    assert.strictEqual(left.name, 'Went away');
  });

  it('a rename with overwrite onto a path a document was renamed away from never deletes that document', async () => {
    const left = put(sandbox, 92021, 'Keep me', 36);
    const mover = put(sandbox, 92022, 'Mover two', 36);
    await freshListing();
    assert.ok((await listed('Video description')).includes('Keep me.md'));
    await s.documents.rename(92021, 'Renamed elsewhere');
    await sleep(300);
    assert.ok(!(await listed('Video description')).includes('Keep me.md'));

    // The user confirms what they are asked (they did ask for "replace").
    prompter.confirms = [true, true];
    try {
      await vscode.workspace.fs.rename(accountUri('Video description', 'Mover two.md'), accountUri('Video description', 'Keep me.md'), { overwrite: true });
    } catch {
      // a refusal is fine; deleting the other document is not
    }
    assert.ok(sandbox.documents.has(92021), `"Renamed elsewhere" (92021) still exists; asked: ${JSON.stringify(prompter.asked.map((q) => q.message))}`);
    assert.strictEqual(left.name, 'Renamed elsewhere');
    assert.ok(!sandbox.requests.some((r) => r.route === 'documents.delete'), 'no DELETE was sent');
    void mover;
  });

  it('a write to a path the folder no longer lists (its document was renamed away, nothing shows it) never lands in that document', async () => {
    const left = put(sandbox, 92031, 'Old label', 36);
    await freshListing();
    assert.ok((await listed('Video description')).includes('Old label.md'));
    await s.documents.rename(92031, 'New label');
    await sleep(300);
    assert.ok(!(await listed('Video description')).includes('Old label.md'));

    // Save As / another extension writing "Old label.md": the explorer shows no such file.
    try {
      await vscode.workspace.fs.writeFile(accountUri('Video description', 'Old label.md'), new TextEncoder().encode('Text for a file named Old label'));
    } catch {
      // refusing is fine
    }
    assert.strictEqual(left.result, 'Text of Old label (92031)', '"New label" keeps its text');
  });

  it('switching files.language with a dirty account-folder editor of a duplicate saves into that duplicate only', async () => {
    const first = put(sandbox, 92041, 'Lang dup', 38);
    const second = put(sandbox, 92042, 'Lang dup', 38);
    await freshListing();
    const editor = await vscode.window.showTextDocument(accountUri('Video tags', 'Lang dup (92042).md'), { preview: false });
    assert.strictEqual(editor.document.getText(), second.result);
    await replaceAll(editor, 'Meant for the second Lang dup');
    try {
      await configure('files.language', 'plaintext');
      await sleep(300);
      assert.ok((await listed('Video tags')).includes('Lang dup (92042).txt'));
      assert.strictEqual(await editor.document.save(), true);
    } finally {
      await configure('files.language', undefined);
    }
    assert.strictEqual(second.result, 'Meant for the second Lang dup');
    assert.strictEqual(first.result, 'Text of Lang dup (92041)');
  });

  it('a rename onto the path of a deleted document (nothing shows it) takes the name', async () => {
    put(sandbox, 92051, 'Freed', 38);
    const mover = put(sandbox, 92052, 'Taker', 38);
    await freshListing();
    assert.ok((await listed('Video tags')).includes('Freed.md'));
    prompter.confirms = [true];
    await vscode.workspace.fs.delete(accountUri('Video tags', 'Freed.md'));
    assert.ok(!sandbox.documents.has(92051));
    await vscode.workspace.fs.rename(accountUri('Video tags', 'Taker.md'), accountUri('Video tags', 'Freed.md'), { overwrite: false });
    assert.strictEqual(mover.name, 'Freed');
    assert.strictEqual(s.fs.documentIdOf(accountUri('Video tags', 'Freed.md')), 92052);
  });
});
