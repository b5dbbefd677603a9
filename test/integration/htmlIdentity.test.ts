/**
 * HTML documents where their identity could slip (inside a real VS Code, two sandboxes whose servers hold a document of
 * the same id and name): one HTML and one Markdown in two accounts side by side, `Name.md` and `Name.html` of two
 * documents in one folder, Open Preview and Convert to Markdown… of a document deleted on the server or of a removed
 * account, HTML documents on a custom and on a deleted template, and a text that turns HTML on the server under a dirty
 * `.md` tab. A document is its account and its id: whatever its file is called, nothing reaches another.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { Sandbox } from '../sandbox/server';
import { ANOTHER_INSTALLATION_KEY, startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { besidesTheWindow, closeAll, configure, LogCapture, MessageCapture, sandboxDocument, until, type AnyNode } from './reliabilityKit';

const ID = 6262;
const NAME = 'Shared page';
const QUILL = '<h1>Shared page</h1><p>First paragraph.</p><p><br></p><p>Second paragraph.</p>';
/** Two documents of one name in one template: a Markdown one and an HTML one. */
const TWIN_MD = 6301;
const TWIN_HTML = 6302;
const TWIN = 'Twin name';
/** HTML documents on a custom template (id 71, none of the seed's) and on a deleted one (the server's record says `template: []`). */
const CUSTOM = 6311;
const ORPHAN = 6312;
const CUSTOM_TEMPLATE = 'House style page';
/** A Markdown document that turns HTML on the server while its tab is dirty. */
const TURNING = 6321;
const TURNING_OTHER = 6322;
const TURNING_NAME = 'Turning page';
/** A Markdown document whose file changes extension under its open tab (the setting, then its text turning HTML). */
const SWITCHED = 6331;
const SWITCHED_NAME = 'Switched page';

const FOLDER = 'Freestyle';
const dec = (u: Uint8Array) => new TextDecoder().decode(u);

describe('html documents across accounts, names and formats: a document is its account and its id, whatever its file is called', function () {
  this.timeout(90_000);
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;

  const updatesTo = (box: Sandbox, id?: number) =>
    box.requests.filter((r) => r.route === 'documents.update' && (id === undefined || r.path.endsWith(`/${id}`)));
  const labelA = () => {
    const l = s.firstOrNone?.label;
    assert.ok(l, 'the first account has a label');
    return l;
  };
  /** A document's own URI as the extension makes it: its account's server (A's, or B's for any other label) is its first folder. */
  const docUri = (label: string, id: number, path: string) =>
    vscode.Uri.from({ scheme: 'content-docs', authority: `${id}.${label}`, path: `/${hostOf((label === s.firstOrNone?.label ? a : b).docsUrl)}${path}` });
  const folderUri = (label: string, path: string) => vscode.Uri.from({ scheme: 'content-docs', authority: label, path });

  async function show(uri: vscode.Uri, column = vscode.ViewColumn.One): Promise<vscode.TextEditor> {
    return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { viewColumn: column, preview: false });
  }

  async function openById(id: number, account?: string): Promise<vscode.TextEditor> {
    await vscode.commands.executeCommand(CMD.documentOpen, account === undefined ? { id } : { id, account });
    return until(`the editor of document ${id}`, () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.scheme === 'content-docs' && e.document.uri.authority === `${id}.${account ?? labelA()}` ? e : undefined;
    });
  }

  async function replace(editor: vscode.TextEditor, from: string, to: string): Promise<void> {
    const doc = editor.document;
    const at = doc.getText().indexOf(from);
    assert.ok(at >= 0, `${doc.uri.toString()} holds ${JSON.stringify(from)}: ${JSON.stringify(doc.getText())}`);
    assert.ok(await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(at), doc.positionAt(at + from.length)), to)));
  }

  function seed(): void {
    kit.reseed();
    a.documents.get(ID)!.result = QUILL;
    a.documents.set(TWIN_MD, sandboxDocument(TWIN_MD, TWIN, 'The Markdown twin.\n\n- one\n- two'));
    a.documents.set(TWIN_HTML, sandboxDocument(TWIN_HTML, TWIN, '<p>The HTML twin.</p><ul><li>one</li></ul>'));
    a.documents.set(CUSTOM, sandboxDocument(CUSTOM, 'Custom page', '<h2>On a custom template</h2><p>Text.</p>', { templateId: 71, templateName: CUSTOM_TEMPLATE }));
    a.documents.set(ORPHAN, sandboxDocument(ORPHAN, 'Orphan page', '<h2>On a deleted template</h2><p>Text.</p>', { templateId: 99 }));
    a.documents.set(TURNING, sandboxDocument(TURNING, TURNING_NAME, 'Plain text that the web editor will turn into HTML.'));
    a.documents.set(TURNING_OTHER, sandboxDocument(TURNING_OTHER, TURNING_NAME, '<p>Another page of that name, HTML already.</p>'));
    a.documents.set(SWITCHED, sandboxDocument(SWITCHED, SWITCHED_NAME, 'A page whose file changes its extension under its tab.'));
  }

  let autoSave: string | undefined;

  before(async () => {
    // code-server's default is files.autoSave = afterDelay: here the test decides when a save happens (a save asked for
    // while an auto-save of the same editor is under way resolves false, though the text is saved).
    autoSave = vscode.workspace.getConfiguration('files').inspect<string>('autoSave')?.globalValue;
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    kit = await startTwoAccounts({ id: ID, name: NAME }, { key: ANOTHER_INSTALLATION_KEY });
    ({ a, b, s } = kit);
    seed();
  });

  beforeEach(async () => {
    a.clearFaults();
    b.clearFaults();
    await kit.onA();
  });

  afterEach(async () => {
    await closeAll();
    for (const added of s.registry.added()) await s.registry.remove(added);
  });

  after(async () => {
    await kit?.dispose();
    await vscode.workspace.getConfiguration('files').update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
  });

  it('one id and name in two accounts, HTML in one and Markdown in the other: each tab keeps its language, each save reaches its own account only', async () => {
    const label = await addBWithMarkdown();
    const A = labelA();

    // The document URIs, as the Documents view opens them (a row's id with its account), side by side. A bare id is
    // taken only while one account is signed in: with two, A's document too is opened with its account.
    const htmlA = await openById(ID, A);
    const mdB = await openById(ID, label);
    assert.strictEqual(htmlA.document.uri.toString(), docUri(A, ID, `/${FOLDER}/${NAME}.html`).toString());
    assert.strictEqual(mdB.document.uri.toString(), docUri(label, ID, `/${FOLDER}/${NAME}.md`).toString());
    assert.strictEqual(htmlA.document.languageId, 'html');
    assert.strictEqual(mdB.document.languageId, 'markdown');
    assert.strictEqual(htmlA.document.getText(), QUILL);
    assert.strictEqual(mdB.document.getText(), 'Text of B');

    a.resetRequests();
    b.resetRequests();
    const editorA = await vscode.window.showTextDocument(htmlA.document, vscode.ViewColumn.One);
    await replace(editorA, 'First paragraph.', 'First paragraph, edited in A.');
    const editorB = await vscode.window.showTextDocument(mdB.document, vscode.ViewColumn.Two);
    await replace(editorB, 'Text of B', 'Text of B, edited in B.');
    assert.ok(await editorA.document.save(), 'A\'s save went through');
    assert.ok(await editorB.document.save(), 'B\'s save went through');
    assert.strictEqual(a.documents.get(ID)!.result, QUILL.replace('First paragraph.', 'First paragraph, edited in A.'));
    assert.strictEqual(b.documents.get(ID)!.result, 'Text of B, edited in B.');
    assert.strictEqual(updatesTo(a).length, 1, 'one change reached A');
    assert.strictEqual(updatesTo(b).length, 1, 'one change reached B');
    assert.strictEqual(editorA.document.languageId, 'html', 'A\'s tab is still HTML after both saves');
    assert.strictEqual(editorB.document.languageId, 'markdown', 'B\'s tab is still Markdown after both saves');

    // The account-folder paths: `Shared page.html` in A's folder, `Shared page.md` in B's, and not the other way round.
    const inA = (await vscode.workspace.fs.readDirectory(folderUri(A, `/${FOLDER}`))).map(([n]) => n);
    const inB = (await vscode.workspace.fs.readDirectory(folderUri(label, `/${FOLDER}`))).map(([n]) => n);
    assert.ok(inA.includes(`${NAME}.html`) && !inA.includes(`${NAME}.md`), `A's folder: ${inA.join(', ')}`);
    assert.ok(inB.includes(`${NAME}.md`) && !inB.includes(`${NAME}.html`), `B's folder: ${inB.join(', ')}`);
    a.resetRequests();
    b.resetRequests();
    const folderA = await show(folderUri(A, `/${FOLDER}/${NAME}.html`), vscode.ViewColumn.One);
    const folderB = await show(folderUri(label, `/${FOLDER}/${NAME}.md`), vscode.ViewColumn.Two);
    assert.strictEqual(folderA.document.languageId, 'html');
    assert.strictEqual(folderB.document.languageId, 'markdown');
    await replace(folderA, 'Second paragraph.', 'Second paragraph, through A\'s folder.');
    await replace(folderB, 'edited in B.', 'edited through B\'s folder.');
    assert.ok(await folderA.document.save(), 'the save through A\'s folder went through');
    assert.ok(await folderB.document.save(), 'the save through B\'s folder went through');
    assert.match(a.documents.get(ID)!.result!, /Second paragraph, through A's folder\./);
    assert.match(a.documents.get(ID)!.result!, /^<h1>/, 'A\'s text is still HTML');
    assert.strictEqual(b.documents.get(ID)!.result, 'Text of B, edited through B\'s folder.');
    assert.strictEqual(updatesTo(a).length, 1, 'one change reached A');
    assert.strictEqual(updatesTo(b).length, 1, 'one change reached B');
    // A path of the other account's format is no file in either account.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(folderUri(A, `/${FOLDER}/${NAME}.md`))));
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(folderUri(label, `/${FOLDER}/${NAME}.html`))));
  });

  it('Name.md and Name.html of two documents in one template folder: both listed, each opens, saves and renames only its own document', async () => {
    const A = labelA();
    const files = (await vscode.workspace.fs.readDirectory(folderUri(A, `/${FOLDER}`))).map(([n]) => n);
    assert.ok(files.includes(`${TWIN}.md`) && files.includes(`${TWIN}.html`), `both twins are listed: ${files.filter((f) => f.startsWith(TWIN)).join(', ')}`);
    // Both are rows of the template in the Documents view, each with its own icon.
    const tree = s.documentsTree;
    const group = await until('the Freestyle group', () => tree.templateGroup(1));
    const rows = (await tree.load(group)) as unknown as AnyNode[];
    const iconOf = (id: number) => {
      const row = rows.find((n) => n.kind === 'document' && (n.doc as { id: number }).id === id);
      assert.ok(row, `the Freestyle group lists document ${id}`);
      const icon = tree.getTreeItem(row as never).iconPath;
      return icon instanceof vscode.ThemeIcon ? icon.id : undefined;
    };
    assert.strictEqual(iconOf(TWIN_HTML), 'file-code');
    assert.strictEqual(iconOf(TWIN_MD), 'markdown');

    const md = await show(folderUri(A, `/${FOLDER}/${TWIN}.md`), vscode.ViewColumn.One);
    const html = await show(folderUri(A, `/${FOLDER}/${TWIN}.html`), vscode.ViewColumn.Two);
    assert.strictEqual(md.document.getText(), a.documents.get(TWIN_MD)!.result);
    assert.strictEqual(html.document.getText(), a.documents.get(TWIN_HTML)!.result);
    assert.strictEqual(md.document.languageId, 'markdown');
    assert.strictEqual(html.document.languageId, 'html');

    a.resetRequests();
    await replace(md, 'The Markdown twin.', 'The Markdown twin, saved.');
    assert.ok(await md.document.save());
    assert.deepStrictEqual(updatesTo(a).map((r) => r.path.split('/').pop()), [String(TWIN_MD)], 'the .md save changed the Markdown twin only');
    await replace(html, 'The HTML twin.', 'The HTML twin, saved.');
    assert.ok(await html.document.save());
    assert.deepStrictEqual(updatesTo(a).map((r) => r.path.split('/').pop()), [String(TWIN_MD), String(TWIN_HTML)], 'the .html save changed the HTML twin only');
    assert.strictEqual(a.documents.get(TWIN_MD)!.result, 'The Markdown twin, saved.\n\n- one\n- two');
    assert.strictEqual(a.documents.get(TWIN_HTML)!.result, '<p>The HTML twin, saved.</p><ul><li>one</li></ul>');

    // Renaming one file onto the other's name is refused; renaming the Markdown twin leaves the HTML twin where it is.
    await closeAll();
    a.resetRequests();
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.rename(folderUri(A, `/${FOLDER}/${TWIN}.html`), folderUri(A, `/${FOLDER}/${TWIN}.md`), { overwrite: false })),
    );
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.rename(folderUri(A, `/${FOLDER}/${TWIN}.md`), folderUri(A, `/${FOLDER}/${TWIN}.html`), { overwrite: false })),
    );
    assert.deepStrictEqual(updatesTo(a), [], 'a rename onto the other twin\'s file sends nothing');
    await vscode.workspace.fs.rename(folderUri(A, `/${FOLDER}/${TWIN}.md`), folderUri(A, `/${FOLDER}/${TWIN} renamed.md`), { overwrite: false });
    assert.strictEqual(a.documents.get(TWIN_MD)!.name, `${TWIN} renamed`);
    assert.strictEqual(a.documents.get(TWIN_HTML)!.name, TWIN, 'the HTML twin keeps its name');
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(folderUri(A, `/${FOLDER}/${TWIN}.html`))), a.documents.get(TWIN_HTML)!.result);
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(folderUri(A, `/${FOLDER}/${TWIN} renamed.md`))), a.documents.get(TWIN_MD)!.result);
    assert.deepStrictEqual(updatesTo(a).map((r) => r.path.split('/').pop()), [String(TWIN_MD)], 'only the renamed twin changed');
    // Put back for the next cases.
    a.documents.get(TWIN_MD)!.name = TWIN;
  });

  it('a rename keeps the file\'s extension, which follows the text: Name.md to Other.html, Other.txt, Other or Other.MD is refused with the reason (both addresses), nothing sent', async () => {
    const A = labelA();
    await closeAll();
    a.resetRequests();
    const renames: Array<[vscode.Uri, vscode.Uri]> = [];
    for (const to of ['Other.html', 'Other.txt', 'Other', 'Other.MD']) {
      renames.push([folderUri(A, `/${FOLDER}/${TWIN}.md`), folderUri(A, `/${FOLDER}/${to}`)]);
      renames.push([docUri(A, TWIN_MD, `/${FOLDER}/${TWIN}.md`), docUri(A, TWIN_MD, `/${FOLDER}/${to}`)]);
    }
    renames.push([folderUri(A, `/${FOLDER}/${TWIN}.html`), folderUri(A, `/${FOLDER}/Other.md`)]);
    renames.push([docUri(A, TWIN_HTML, `/${FOLDER}/${TWIN}.html`), docUri(A, TWIN_HTML, `/${FOLDER}/Other.md`)]);
    for (const [from, to] of renames) {
      await assert.rejects(Promise.resolve(vscode.workspace.fs.rename(from, to, { overwrite: false })), (e: Error) => {
        assert.match(e.message, /keeps its extension|follows its text/, `${from.toString()} → ${to.toString()}: ${e.message}`);
        return true;
      });
    }
    assert.deepStrictEqual(updatesTo(a), [], 'no rename reached the server');
    assert.strictEqual(a.documents.get(TWIN_MD)!.name, TWIN);
    assert.strictEqual(a.documents.get(TWIN_HTML)!.name, TWIN);
    const files = (await vscode.workspace.fs.readDirectory(folderUri(A, `/${FOLDER}`))).map(([n]) => n);
    assert.ok(!files.some((f) => f.startsWith('Other')), `no file took the new name: ${files.filter((f) => f.startsWith('Other')).join(', ')}`);
    // With its extension, the rename goes through, and the file is there under its new name.
    await vscode.workspace.fs.rename(folderUri(A, `/${FOLDER}/${TWIN}.md`), folderUri(A, `/${FOLDER}/${TWIN} again.md`), { overwrite: false });
    assert.strictEqual(a.documents.get(TWIN_MD)!.name, `${TWIN} again`);
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(folderUri(A, `/${FOLDER}/${TWIN} again.md`))), a.documents.get(TWIN_MD)!.result);
    a.documents.get(TWIN_MD)!.name = TWIN;
  });

  it('a tab left at its old extension (files.language switched, or the text turned HTML): a rename takes the extension the file has now, and is refused with it otherwise', async () => {
    const A = labelA();
    const text = a.documents.get(SWITCHED)!.result;
    const listed = async () => (await vscode.workspace.fs.readDirectory(folderUri(A, `/${FOLDER}`))).map(([n]) => n);
    const refusedWith = async (from: vscode.Uri, to: vscode.Uri, hint: string) =>
      assert.rejects(Promise.resolve(vscode.workspace.fs.rename(from, to, { overwrite: false })), (e: Error) => {
        assert.match(e.message, /keeps its extension/, `${from.path} → ${to.path}: ${e.message}`);
        assert.ok(e.message.includes(`"${hint}"`), `${from.path} → ${to.path} names ${hint}: ${e.message}`);
        return true;
      });
    try {
      const editor = await show(folderUri(A, `/${FOLDER}/${SWITCHED_NAME}.md`));
      assert.strictEqual(editor.document.getText(), text);
      await configure('files.language', 'plaintext');
      await until('the account folder to list the page as .txt', async () => (await listed()).includes(`${SWITCHED_NAME}.txt`) || undefined);
      a.resetRequests();
      // The tab still shows Switched page.md: renamed to .md, the document would be listed as "… .txt" only.
      await refusedWith(editor.document.uri, folderUri(A, `/${FOLDER}/Renamed page.md`), 'Renamed page.txt');
      assert.deepStrictEqual(updatesTo(a), [], 'nothing sent');
      await vscode.workspace.fs.rename(editor.document.uri, folderUri(A, `/${FOLDER}/Renamed page.txt`), { overwrite: false });
      assert.strictEqual(a.documents.get(SWITCHED)!.name, 'Renamed page');
      assert.strictEqual(dec(await vscode.workspace.fs.readFile(folderUri(A, `/${FOLDER}/Renamed page.txt`))), text);
      await closeAll();
      await configure('files.language', undefined);

      // Its text turns HTML on the server while its .md tab is open: it is an .html file now.
      const tab = await show(folderUri(A, `/${FOLDER}/Renamed page.md`));
      const html = '<p>A page the web editor <strong>turned</strong> into HTML.</p>';
      a.documents.get(SWITCHED)!.result = html;
      a.documents.get(SWITCHED)!.updatedAt = new Date(Date.now() + 2 * 86_400_000);
      await vscode.commands.executeCommand(CMD.documentsRefresh);
      await until('the account folder to list the page as .html', async () => (await listed()).includes('Renamed page.html') || undefined);
      a.resetRequests();
      await refusedWith(tab.document.uri, folderUri(A, `/${FOLDER}/Again.md`), 'Again.html');
      await refusedWith(docUri(A, SWITCHED, `/${FOLDER}/Renamed page.md`), docUri(A, SWITCHED, `/${FOLDER}/Again.md`), 'Again.html');
      assert.deepStrictEqual(updatesTo(a), [], 'nothing sent');
      await vscode.workspace.fs.rename(tab.document.uri, folderUri(A, `/${FOLDER}/Again.html`), { overwrite: false });
      assert.strictEqual(a.documents.get(SWITCHED)!.name, 'Again');
      assert.strictEqual(dec(await vscode.workspace.fs.readFile(folderUri(A, `/${FOLDER}/Again.html`))), html);
    } finally {
      await configure('files.language', undefined);
    }
  });

  for (const command of [CMD.htmlPreview, CMD.htmlToMarkdown] as const) {
    const what = command === CMD.htmlPreview ? 'Open Preview' : 'Convert to Markdown…';

    it(`${what} of a document deleted on the server meanwhile says so plainly, logs no stack, and asks no other account`, async () => {
      const label = await addBWithMarkdown();
      const A = labelA();
      const id = 6400 + (command === CMD.htmlPreview ? 1 : 2);
      a.documents.set(id, sandboxDocument(id, 'Deleted page', QUILL));
      b.documents.set(id, sandboxDocument(id, 'Deleted page', QUILL));
      const uri = docUri(A, id, `/${FOLDER}/Deleted page.html`);
      // Listed, then deleted on the server (the web app, another machine) before the command runs.
      a.documents.delete(id);
      a.resetRequests();
      b.resetRequests();
      const result = await runCaptured(command, uri);
      assert.strictEqual(result.returned, undefined, 'nothing opens');
      assert.deepStrictEqual(result.thrown, undefined, 'the command does not throw');
      const said = result.messages.map((m) => m.message);
      assert.strictEqual(said.length, 1, `one message: ${JSON.stringify(said)}`);
      assert.match(said[0], /"Deleted page"/, `it names the document: ${said[0]}`);
      assert.match(said[0], /deleted/i, `it says why: ${said[0]}`);
      assert.doesNotMatch(said[0], /Couldn't run|cannot open|content-docs:\/\//, `it is no raw error: ${said[0]}`);
      assert.deepStrictEqual(result.stacks, [], 'no stack in the log');
      // The other account was just added: the views on screen read its rows and counts meanwhile (then the status bar its
      // usage), which are not the command's; a request about the document, or any other, would be.
      assert.deepStrictEqual(besidesTheWindow(b.requests, [id]).map((r) => `${r.method} ${r.path}`), [], `nothing was asked of the other account (${label})`);
      assert.ok(b.documents.has(id), 'the other account\'s document of that id is untouched');
      b.documents.delete(id);
    });

    it(`${what} of a document of a removed account says so plainly, logs no stack, and asks no account`, async () => {
      const label = await addBWithMarkdown();
      const id = 6410 + (command === CMD.htmlPreview ? 1 : 2);
      b.documents.set(id, sandboxDocument(id, 'Removed page', QUILL));
      a.documents.set(id, sandboxDocument(id, 'Removed page', '<p>The first account\'s page of that id.</p>'));
      const uri = docUri(label, id, `/${FOLDER}/Removed page.html`);
      kit.prompter.confirms = [true];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountRemove', label), true);
      a.resetRequests();
      b.resetRequests();
      const result = await runCaptured(command, uri);
      assert.strictEqual(result.returned, undefined, 'nothing opens');
      assert.deepStrictEqual(result.thrown, undefined, 'the command does not throw');
      const said = result.messages.map((m) => m.message);
      assert.strictEqual(said.length, 1, `one message: ${JSON.stringify(said)}`);
      assert.match(said[0], /"Removed page"/, `it names the document: ${said[0]}`);
      assert.match(said[0], /not signed in|removed/i, `it says why: ${said[0]}`);
      assert.doesNotMatch(said[0], /Couldn't run|cannot open|content-docs:\/\/|API key or server changed/, `it is no raw or misleading error: ${said[0]}`);
      assert.deepStrictEqual(result.stacks, [], 'no stack in the log');
      // Besides the rows and counts the views on screen may read meanwhile (then the status bar's usage read).
      assert.deepStrictEqual(
        [a, b].flatMap((x) => besidesTheWindow(x.requests, [id])).map((r) => `${r.method} ${r.path}`),
        [],
        'nothing was asked of any account',
      );
      a.documents.delete(id);
      b.documents.delete(id);
    });
  }

  it('an open tab\'s Open Preview and Convert to Markdown… keep working from its text after the document was deleted, with no request', async () => {
    const id = 6421;
    a.documents.set(id, sandboxDocument(id, 'Open then deleted', QUILL));
    const editor = await openById(id);
    a.documents.delete(id);
    a.resetRequests();
    b.resetRequests();
    const logs = new LogCapture().install(s);
    try {
      const panel = await vscode.commands.executeCommand<vscode.WebviewPanel>(CMD.htmlPreview, editor.document.uri);
      assert.ok(panel, 'the preview opens from the editor\'s text');
      assert.match(panel.webview.html, /<h1>Shared page<\/h1>/);
      panel.dispose();
      kit.prompter.choices = ['Open a Markdown Copy'];
      const copy = await vscode.commands.executeCommand<vscode.TextEditor>(CMD.htmlToMarkdown, editor.document.uri);
      assert.ok(copy, 'the copy opens from the editor\'s text');
      assert.match(copy.document.getText(), /^# Shared page/);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      assert.deepStrictEqual(logs.lines.filter((l) => /^error /.test(l)), [], 'nothing went wrong');
    } finally {
      logs.dispose();
    }
    // Besides the rows and counts the views on screen may read meanwhile (then the status bar's usage read); a request
    // about the document is counted though its tab is open.
    assert.deepStrictEqual([a, b].flatMap((x) => besidesTheWindow(x.requests, [id])).map((r) => `${r.method} ${r.path}`), [], 'no request');
  });

  it('HTML documents on a custom template and on a deleted one: code icons in Other templates, .html URIs and account-folder paths under the template\'s folder', async () => {
    const A = labelA();
    const tree = s.documentsTree;
    tree.model.refresh();
    const other = await until('the Other templates group', async () => ((await tree.model.rootChildren()) as unknown as AnyNode[]).find((g) => g.kind === 'other'));
    const rows = (await tree.load(other as never)) as unknown as AnyNode[];
    for (const [id, template] of [
      [CUSTOM, CUSTOM_TEMPLATE],
      [ORPHAN, 'No template'],
    ] as const) {
      const row = rows.find((n) => n.kind === 'document' && (n.doc as { id: number }).id === id);
      assert.ok(row, `Other templates lists document ${id}: ${rows.map((r) => r.kind).join(', ')}`);
      const item = tree.getTreeItem(row as never);
      assert.strictEqual(item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined, 'file-code', `document ${id} wears the code icon`);
      const name = a.documents.get(id)!.name;
      const editor = await openById(id);
      assert.strictEqual(editor.document.uri.toString(), docUri(A, id, `/${template}/${name}.html`).toString());
      assert.strictEqual(editor.document.languageId, 'html');
      const folders = (await vscode.workspace.fs.readDirectory(folderUri(A, '/'))).map(([n]) => n);
      assert.ok(folders.includes(template), `the account folder has "${template}": ${folders.join(', ')}`);
      const folder = (await vscode.workspace.fs.readDirectory(folderUri(A, `/${template}`))).map(([n]) => n);
      assert.ok(folder.includes(`${name}.html`), `the folder "${template}": ${folder.join(', ')}`);
      const inFolder = await show(folderUri(A, `/${template}/${name}.html`));
      assert.strictEqual(inFolder.document.getText(), a.documents.get(id)!.result);
      assert.strictEqual(inFolder.document.languageId, 'html');
      assert.strictEqual(s.fs.documentIdOf(inFolder.document.uri), id);
    }
  });

  for (const form of ['document', 'account-folder'] as const) {
    it(`a text turned HTML on the server under a dirty .md tab (${form} URI): the save writes nothing to any document and keeps the user's text`, async () => {
      const A = labelA();
      a.documents.set(TURNING, sandboxDocument(TURNING, TURNING_NAME, 'Plain text that the web editor will turn into HTML.'));
      const editor =
        form === 'document'
          ? await openById(TURNING)
          : await show(folderUri(A, `/${FOLDER}/${TURNING_NAME}.md`));
      assert.ok(editor.document.uri.path.endsWith(`/${TURNING_NAME}.md`), editor.document.uri.toString());
      assert.strictEqual(s.fs.documentIdOf(editor.document.uri), TURNING);
      const mine = 'My own Markdown, typed while the web editor changed the page.';
      await replace(editor, 'Plain text that the web editor will turn into HTML.', mine);
      // The web editor saves the page: its text is HTML now (a second later, as the server's clock goes).
      const theirs = '<p>Plain text that the web editor <strong>turned</strong> into HTML.</p>';
      const doc = a.documents.get(TURNING)!;
      doc.result = theirs;
      doc.updatedAt = new Date(Date.now() + 2 * 86_400_000);
      // The extension hears of it (a refresh reads the lists and the account folder again).
      await vscode.commands.executeCommand(CMD.documentsRefresh);
      await vscode.commands.executeCommand(CMD.documentOpen, { id: TURNING });
      await until('the account folder to move the page to .html', async () => {
        const files = (await vscode.workspace.fs.readDirectory(folderUri(A, `/${FOLDER}`))).map(([n]) => n);
        return files.some((f) => f.startsWith(TURNING_NAME) && f.endsWith('.html') && f !== `${TURNING_NAME}.html`) || undefined;
      });
      a.resetRequests();
      const target = await vscode.window.showTextDocument(editor.document);
      assert.strictEqual(target.document.isDirty, true);
      assert.strictEqual(target.document.getText(), mine, 'the tab still holds the user\'s text');
      const saved = await target.document.save();
      assert.strictEqual(saved, false, 'the save is stopped: the server\'s text changed since the tab read it');
      assert.strictEqual(target.document.isDirty, true);
      assert.strictEqual(target.document.getText(), mine, 'the user\'s text is kept');
      assert.strictEqual(target.document.languageId, 'markdown');
      assert.deepStrictEqual(updatesTo(a), [], 'nothing was written, to this document or another');
      assert.strictEqual(a.documents.get(TURNING)!.result, theirs);
      assert.strictEqual(a.documents.get(TURNING_OTHER)!.result, '<p>Another page of that name, HTML already.</p>');
      // The identity is the id: the tab still means its document, and a save through VS Code's Overwrite reaches it only.
      assert.strictEqual(s.fs.documentIdOf(target.document.uri), TURNING);
      await vscode.workspace.fs.writeFile(target.document.uri, new TextEncoder().encode(mine));
      assert.strictEqual(a.documents.get(TURNING)!.result, mine);
      assert.strictEqual(a.documents.get(TURNING_OTHER)!.result, '<p>Another page of that name, HTML already.</p>');
      assert.deepStrictEqual(updatesTo(a).map((r) => r.path.split('/').pop()), [String(TURNING)]);
    });
  }

  /** Adds B with its document of the shared id as Markdown (A's is HTML); returns B's label. */
  async function addBWithMarkdown(): Promise<string> {
    seedShared();
    const label = await kit.addB();
    await kit.roots(2);
    return label;
  }

  function seedShared(): void {
    kit.reseed();
    a.documents.get(ID)!.result = QUILL;
  }

  /** Runs an HTML command with the messages and the log captured: what it returned or threw, what it said, the stacks it logged. */
  async function runCaptured(command: string, uri: vscode.Uri) {
    const messages = new MessageCapture().install();
    const logs = new LogCapture().install(s);
    let returned: unknown;
    let thrown: unknown;
    try {
      returned = await vscode.commands.executeCommand(command, uri);
      await new Promise((r) => setTimeout(r, 300));
    } catch (e) {
      thrown = e;
    } finally {
      messages.dispose();
      logs.dispose();
    }
    const stacks = logs.lines.filter((l) => /\n\s+at /.test(l) || /^error .*Error:/.test(l));
    return { returned, thrown, messages: messages.shown.filter((m) => !m.modal), stacks, logs: logs.lines };
  }
});
