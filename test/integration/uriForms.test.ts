/**
 * A document's own URI, `content-docs://<id>.<account>/<host>/<Template>/<Name>.md`, where its forms could be taken for
 * each other: a custom template whose name ends like a file name (`Notes.md`), whose folder `/<host>/Notes.md` is still
 * a folder; a tab of the form of earlier versions (`/<Template>/<Name>.md`) with unsaved text when the document is
 * renamed on the server or from the Documents view; and the URIs of hosts that are odd as path segments (an IPv6
 * address, a port) read back as they were made (inside a real VS Code, a sandbox).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import { CMD } from '../../src/constants';
import { documentUri, fileNameOf } from '../../src/files/uris';
import type { TestServices } from '../kit/services';
import type { Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { closeAll, replaceAll, sandboxDocument, until } from './reliabilityKit';

const ID = 7474;
const NAME = 'Field notes';
/** A document on a custom template whose name ends like a file name. */
const NOTES = 7475;
const NOTES_NAME = 'Plan';
const NOTES_TEMPLATE = 'Notes.md';

describe('document URIs: a template named like a file, tabs of the earlier form, odd hosts', function () {
  this.timeout(90_000);
  let kit: TwoAccounts;
  let a: Sandbox;
  let s: TestServices;
  let label: string;

  const dec = (u: Uint8Array) => new TextDecoder().decode(u);
  const fileOf = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);
  const patches = (box: Sandbox) => box.requests.filter((r) => r.method === 'PATCH').map((r) => r.path);
  const tabUris = () =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs).flatMap((t) => (t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'content-docs' ? [t.input.uri] : []));

  async function openById(id: number): Promise<vscode.TextEditor> {
    await vscode.commands.executeCommand(CMD.documentOpen, { id, account: label });
    return until(`the editor of document ${id}`, () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.scheme === 'content-docs' && e.document.uri.authority === `${id}.${label}` ? e : undefined;
    });
  }

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME });
    ({ a, s } = kit);
    label = s.first.label;
  });

  after(() => kit?.dispose());

  beforeEach(async () => {
    await closeAll();
    kit.reseed();
    a.documents.set(NOTES, sandboxDocument(NOTES, NOTES_NAME, 'Text of the plan', { templateId: 77, templateName: NOTES_TEMPLATE }));
    await s.first.documents.fetch(ID);
    await s.first.documents.fetch(NOTES);
    a.resetRequests();
    kit.prompter.reset();
  });

  it('a document on a template named "Notes.md": its folders are folders and list the way down, it saves and follows a rename', async () => {
    const host = hostOf(a.docsUrl);
    const editor = await openById(NOTES);
    const uri = editor.document.uri;
    assert.strictEqual(uri.path, `/${host}/${NOTES_TEMPLATE}/${NOTES_NAME}.md`);
    assert.strictEqual(editor.document.getText(), 'Text of the plan');
    const folder = uri.with({ path: `/${host}/${NOTES_TEMPLATE}` });
    assert.strictEqual((await vscode.workspace.fs.stat(folder)).type, vscode.FileType.Directory, 'the template folder is a folder');
    assert.deepStrictEqual(await vscode.workspace.fs.readDirectory(folder), [[`${NOTES_NAME}.md`, vscode.FileType.File]]);
    assert.deepStrictEqual(await vscode.workspace.fs.readDirectory(uri.with({ path: `/${host}` })), [[NOTES_TEMPLATE, vscode.FileType.Directory]]);

    // The folder is not the document: renaming or deleting it does nothing to the document.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.rename(folder, uri.with({ path: `/${host}/Other.md` }))));
    await assert.rejects(Promise.resolve(vscode.workspace.fs.delete(folder)), /A template folder cannot be deleted/);
    assert.strictEqual(a.documents.get(NOTES)?.name, NOTES_NAME, 'the document is there under its name');

    await replaceAll(editor, 'Saved on a template named like a file.');
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(a.documents.get(NOTES)!.result, 'Saved on a template named like a file.');

    kit.prompter.inputs = ['Plan (final)'];
    await vscode.commands.executeCommand(CMD.documentRename, { id: NOTES, account: label });
    const moved = await until('the tab under the new name', () => tabUris().find((u) => u.authority === uri.authority && fileOf(u) === 'Plan (final).md'));
    assert.strictEqual(moved.path, `/${host}/${NOTES_TEMPLATE}/Plan (final).md`);
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(moved)), 'Saved on a template named like a file.');

    // A tab of the earlier form on that template is the document's file, its template folder a folder.
    const old = uri.with({ path: `/${NOTES_TEMPLATE}/Plan (final).md` });
    assert.strictEqual((await vscode.workspace.fs.stat(old)).type, vscode.FileType.File);
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(old)), 'Saved on a template named like a file.');
    assert.strictEqual((await vscode.workspace.fs.stat(old.with({ path: `/${NOTES_TEMPLATE}` }))).type, vscode.FileType.Directory);
  });

  it('a tab of the earlier form with unsaved text, its document renamed on the server: the text saves into its document', async () => {
    const old = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${label}`, path: `/Freestyle/${NAME}.md` });
    const editor = await vscode.window.showTextDocument(old, { preview: false });
    assert.strictEqual(editor.document.getText(), 'Text of A');
    await replaceAll(editor, 'Unsaved in an old tab.');
    a.documents.get(ID)!.name = 'Renamed on the website';
    await s.first.documents.fetch(ID);
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(editor.document.getText(), 'Unsaved in an old tab.');
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(a.documents.get(ID)!.result, 'Unsaved in an old tab.');
    assert.strictEqual(a.documents.get(ID)!.name, 'Renamed on the website', 'the save renamed nothing');
    assert.strictEqual(patches(a).length, 1, patches(a).join(', '));
  });

  it('Rename… from the view with a dirty tab of the earlier form: the tab follows in its form, with its unsaved text', async () => {
    const old = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${label}`, path: `/Freestyle/${NAME}.md` });
    const editor = await vscode.window.showTextDocument(old, { preview: false });
    await replaceAll(editor, 'Unsaved before the rename.');
    kit.prompter.inputs = ['Field notes (renamed)'];
    await vscode.commands.executeCommand(CMD.documentRename, { id: ID, account: label });
    const moved = await until('the old tab under the new name', () => tabUris().find((u) => u.authority === old.authority && fileOf(u) === 'Field notes (renamed).md'));
    assert.strictEqual(moved.path, '/Freestyle/Field notes (renamed).md');
    const doc = await until('the moved editor', () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === moved.toString()));
    assert.strictEqual(doc.getText(), 'Unsaved before the rename.');
    assert.strictEqual(doc.isDirty, true);
    assert.ok(!tabUris().some((u) => u.toString() === old.toString()), 'the tab under the old name closed');
    assert.strictEqual(a.documents.get(ID)!.result, 'Text of A', 'nothing was saved by the rename');
    assert.strictEqual(await doc.save(), true);
    assert.strictEqual(a.documents.get(ID)!.result, 'Unsaved before the rename.');
  });

  it('Open Beside of a generated document whose tab of the earlier form is open with unsaved text: that tab\'s text is shown, not a second copy', async () => {
    const old = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${label}`, path: `/Freestyle/${NAME}.md` });
    const editor = await vscode.window.showTextDocument(old, { preview: false, viewColumn: vscode.ViewColumn.One });
    await replaceAll(editor, 'Unsaved in the old tab.');
    // A proposal tab restored after a reload (it names its document and account).
    const proposal = vscode.Uri.from({
      scheme: 'content-docs-proposal',
      path: '/earlier-window-1/notes.md',
      query: new URLSearchParams({ document: String(ID), name: NAME, account: label }).toString(),
    });
    const beside = await vscode.commands.executeCommand<vscode.TextEditor | undefined>(CMD.proposalOpenDocument, proposal);
    assert.ok(beside, 'the document opened');
    assert.strictEqual(beside.document.uri.toString(), old.toString(), 'the document\'s tab of the earlier form');
    assert.strictEqual(beside.document.getText(), 'Unsaved in the old tab.');
    assert.deepStrictEqual([...new Set(tabUris().filter((u) => u.authority === old.authority).map(String))], [old.toString()], 'no tab of another address for it');
  });

  it('URIs of servers with odd hosts (IPv6, a port, upper case, a path, a default port) read back as made, their file the last segment', () => {
    const doc = { id: 12, name: 'Q3 plan', template: { id: 1 } };
    const cases: Array<[string, string]> = [
      ['http://[::1]:4173', '[::1]:4173'],
      ['http://[2001:DB8::1]/', '[2001:db8::1]'],
      ['https://Content.Example.COM/content/', 'content.example.com'],
      ['https://content.example.com:443/', 'content.example.com'],
      ['http://docs.example.md:8080', 'docs.example.md:8080'],
      // A one-letter host with a port reads like a Windows drive ("c:") to VS Code's URI.
      ['http://C:8080', 'c:8080'],
    ];
    for (const [server, host] of cases) {
      const uri = documentUri(doc, { label, documentsUrl: server });
      assert.strictEqual(uri.path, `/${host}/Freestyle/Q3 plan.md`, server);
      const back = vscode.Uri.parse(uri.toString());
      assert.strictEqual(back.path, uri.path, `${server}: ${uri.toString()}`);
      assert.strictEqual(back.authority, uri.authority, server);
      assert.strictEqual(fileNameOf(back), 'Q3 plan.md', server);
      assert.strictEqual(fileNameOf(back.with({ path: `/${host}/Freestyle` })), undefined, server);
    }
  });
});
