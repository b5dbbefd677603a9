/**
 * One document opened from two accounts on two servers (production and staging, say, both holding document 7171 "Q3
 * plan"): two tabs of one file name that read apart, as VS Code tells apart two files of one name in two folders. The
 * document's URI has the host of its account's documents server as its first folder
 * (`content-docs://<id>.<account>/<host>/<Template>/<Name>.md`); each tab saves into its own account. A tab of the form
 * of earlier versions (`/<Template>/<Name>.md`, restored) still opens, saves and follows a rename (inside a real VS Code,
 * two sandboxes).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import type { TestServices } from '../kit/services';
import type { Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { closeAll, replaceAll, until } from './reliabilityKit';

describe('several accounts: one document opened from two accounts reads apart in its tabs', function () {
  this.timeout(90_000);
  const ID = 7171;
  const NAME = 'Q3 plan';
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  let labelA: string;
  let labelB: string;

  const dec = (u: Uint8Array) => new TextDecoder().decode(u);
  const parentOf = (uri: vscode.Uri) => uri.path.slice(0, uri.path.lastIndexOf('/'));
  const fileOf = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);
  const patches = (box: Sandbox) => box.requests.filter((r) => r.method === 'PATCH').map((r) => r.path);
  const openFrom = (account: string) => vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.documentOpenBeside', { id: ID, account });
  const tabUris = () =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs).flatMap((t) => (t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'content-docs' ? [t.input.uri] : []));

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME });
    ({ a, b, s } = kit);
    labelB = await kit.addB();
    labelA = s.first.label;
  });

  after(() => kit?.dispose());

  beforeEach(async () => {
    await closeAll();
    kit.reseed();
    a.resetRequests();
    b.resetRequests();
  });

  it('two tabs of one file name whose folders name the two servers; each saves into its own account, the other server hears of no save', async () => {
    const edA = await openFrom(labelA);
    const edB = await openFrom(labelB);
    assert.strictEqual(edA.document.getText(), 'Text of A');
    assert.strictEqual(edB.document.getText(), 'Text of B');
    const [uriA, uriB] = [edA.document.uri, edB.document.uri];
    assert.deepStrictEqual(tabUris().map(String).sort(), [uriA, uriB].map(String).sort(), 'two tabs, one for each account');

    // What VS Code's tab disambiguation, breadcrumbs and title use: one file name, two parent folders, the first of
    // them each account's server.
    assert.strictEqual(fileOf(uriA), `${NAME}.md`);
    assert.strictEqual(fileOf(uriB), `${NAME}.md`);
    assert.strictEqual(parentOf(uriA), `/${hostOf(a.docsUrl)}/Freestyle`);
    assert.strictEqual(parentOf(uriB), `/${hostOf(b.docsUrl)}/Freestyle`);
    assert.notStrictEqual(parentOf(uriA), parentOf(uriB));
    assert.strictEqual(uriA.authority, `${ID}.${labelA}`);
    assert.strictEqual(uriB.authority, `${ID}.${labelB}`);

    // Its folders are folders (VS Code asks for them: breadcrumbs, a save of a file it could not find), and list the way down.
    for (const dir of [`/${hostOf(b.docsUrl)}`, `/${hostOf(b.docsUrl)}/Freestyle`, '/']) {
      assert.strictEqual((await vscode.workspace.fs.stat(uriB.with({ path: dir }))).type, vscode.FileType.Directory, dir);
    }
    assert.deepStrictEqual(await vscode.workspace.fs.readDirectory(uriB.with({ path: '/' })), [[hostOf(b.docsUrl), vscode.FileType.Directory]]);
    assert.deepStrictEqual(await vscode.workspace.fs.readDirectory(uriB.with({ path: `/${hostOf(b.docsUrl)}` })), [['Freestyle', vscode.FileType.Directory]]);
    assert.deepStrictEqual(await vscode.workspace.fs.readDirectory(uriB.with({ path: parentOf(uriB) })), [[`${NAME}.md`, vscode.FileType.File]]);

    await replaceAll(edA, 'Saved from the tab of A.');
    assert.strictEqual(await edA.document.save(), true);
    assert.strictEqual(a.documents.get(ID)!.result, 'Saved from the tab of A.');
    assert.strictEqual(b.documents.get(ID)!.result, 'Text of B', 'nothing of A\'s save reached B');
    assert.strictEqual(patches(a).length, 1, `one PATCH on A: ${patches(a).join(', ')}`);
    assert.deepStrictEqual(patches(b), [], 'B\'s server got no PATCH');

    a.resetRequests();
    await replaceAll(edB, 'Saved from the tab of B.');
    assert.strictEqual(await edB.document.save(), true);
    assert.strictEqual(b.documents.get(ID)!.result, 'Saved from the tab of B.');
    assert.strictEqual(a.documents.get(ID)!.result, 'Saved from the tab of A.', 'nothing of B\'s save reached A');
    assert.strictEqual(patches(b).length, 1, `one PATCH on B: ${patches(b).join(', ')}`);
    assert.deepStrictEqual(patches(a), [], 'A\'s server got no PATCH');
  });

  it('a rename follows the tab to its new name in the same server\'s folder; the other account\'s tab stays', async () => {
    const edA = await openFrom(labelA);
    const edB = await openFrom(labelB);
    const uriB = edB.document.uri;
    kit.prompter.reset();
    kit.prompter.inputs = ['Q3 plan (final)'];
    await vscode.commands.executeCommand('contentDocs.documentRename', { id: ID, account: labelA });
    const moved = await until('the tab of A under the new name', () => tabUris().find((u) => u.authority === edA.document.uri.authority && fileOf(u) === 'Q3 plan (final).md'));
    assert.strictEqual(parentOf(moved), `/${hostOf(a.docsUrl)}/Freestyle`, 'the host folder is kept');
    assert.strictEqual(b.documents.get(ID)!.name, NAME, 'B\'s document keeps its name');
    assert.ok(tabUris().some((u) => u.toString() === uriB.toString()), 'B\'s tab stays as it was');
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(moved)), 'Text of A');
  });

  it('a tab of the form of earlier versions (/<Template>/<Name>.md) still opens, saves into its own account and follows a rename', async () => {
    const old = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${labelB}`, path: `/Freestyle/${NAME}.md` });
    const editor = await vscode.window.showTextDocument(old, { preview: false });
    assert.strictEqual(editor.document.getText(), 'Text of B');
    assert.strictEqual((await vscode.workspace.fs.stat(old.with({ path: '/Freestyle' }))).type, vscode.FileType.Directory, 'its template folder is a folder');
    assert.strictEqual((await vscode.workspace.fs.stat(old)).type, vscode.FileType.File);
    await replaceAll(editor, 'Saved from an old tab of B.');
    assert.strictEqual(await editor.document.save(), true);
    assert.strictEqual(b.documents.get(ID)!.result, 'Saved from an old tab of B.');
    assert.strictEqual(patches(b).length, 1);
    assert.deepStrictEqual(patches(a), [], 'A\'s server got no PATCH');
    assert.strictEqual(a.documents.get(ID)!.result, 'Text of A');
    // Opened from the Documents view meanwhile, the tab shown is the one already open (one document, one tab).
    const again = await openFrom(labelB);
    assert.strictEqual(again.document.uri.toString(), old.toString());
    // A rename follows it in its own form.
    kit.prompter.reset();
    kit.prompter.inputs = ['Q3 plan (old tab)'];
    await vscode.commands.executeCommand('contentDocs.documentRename', { id: ID, account: labelB });
    const moved = await until('the old tab under the new name', () => tabUris().find((u) => u.authority === old.authority && fileOf(u) === 'Q3 plan (old tab).md'));
    assert.strictEqual(moved.path, '/Freestyle/Q3 plan (old tab).md');
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(moved)), 'Saved from an old tab of B.');
  });
});
