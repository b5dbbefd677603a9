/**
 * File decorations of `content-docs:` files (inside a real VS Code, against the sandbox), as the Explorer's account
 * folder and the editor tabs show them: a favorite wears a star; a document deleted on the server, "D"; a document whose
 * save was refused or failed, "!" with the reason until a save succeeds; with several accounts, the tooltip names the
 * account, so two tabs of one name in two accounts tell themselves apart. Each change is told for the document's URIs
 * (both forms), so an open tab updates without a reload.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import { COLOR } from '../../src/constants';
import type { DocumentDecorations } from '../../src/files/decorations';
import type { TestServices } from '../kit/services';
import type { Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { accountUriOf, closeAll, DocumentPool, openDocument, replaceAll, SaveErrors, until } from './reliabilityKit';

/** What VS Code is told for a URI: every provider's decoration, as badge and tooltip. */
function shown(d: DocumentDecorations, uri: vscode.Uri): Array<{ badge?: string; tooltip?: string }> {
  return d.of(uri).map((x) => ({ ...(x.badge ? { badge: x.badge } : {}), ...(x.tooltip ? { tooltip: x.tooltip } : {}) }));
}

describe('file decorations: favorite, deleted on the server, not saved, and the account', function () {
  this.timeout(90_000);
  const ID = 6363;
  const NAME = 'Decorated twice';
  let kit: TwoAccounts;
  let a: Sandbox;
  let s: TestServices;
  let pool: DocumentPool;
  /** URIs whose decorations were said to change. */
  let changed: string[] = [];
  let listener: vscode.Disposable;

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME });
    ({ a, s } = kit);
    pool = new DocumentPool(a);
    listener = s.decorations.onDidChange((uris) => changed.push(...(uris ?? [vscode.Uri.parse('all:')]).map((u) => u.toString())));
  });

  after(async () => {
    listener?.dispose();
    await kit?.dispose();
  });

  afterEach(async () => {
    a.clearFaults();
    await closeAll();
  });

  it('a favorite wears a star in its tab and in the account folder; removing it from favorites takes the star off the open tab', async () => {
    const d = pool.take((x) => !x.favorite);
    const editor = await openDocument(d.id);
    const uri = editor.document.uri;
    const inFolder = await accountUriOf(s, d.id);
    assert.deepStrictEqual(shown(s.decorations, uri), [], 'not a favorite: nothing');
    changed = [];
    await vscode.commands.executeCommand('contentDocs.documentFavorite', { id: d.id });
    await until('the favorite on the server', () => a.documents.get(d.id)!.favorite);
    for (const u of [uri, inFolder]) assert.deepStrictEqual(shown(s.decorations, u), [{ badge: '★', tooltip: 'In your favorites' }], u.toString());
    assert.ok(changed.includes(uri.toString()), `the open tab was told: ${JSON.stringify(changed)}`);
    changed = [];
    await vscode.commands.executeCommand('contentDocs.documentUnfavorite', { id: d.id });
    await until('the favorite off on the server', () => !a.documents.get(d.id)!.favorite);
    assert.deepStrictEqual(shown(s.decorations, uri), []);
    assert.ok(changed.includes(uri.toString()), 'the open tab was told again');
  });

  it('a document deleted on the server shows "D" on its open tab, with a tooltip that says so', async () => {
    const d = pool.take();
    const editor = await openDocument(d.id);
    changed = [];
    // Deleted on the server while its tab is open (as Delete Document… in the view does; a 404 learned on a read or a
    // listing is told the same way).
    await s.documents.delete(d.id);
    assert.ok(!a.documents.has(d.id), 'gone on the server');
    await until('the deletion learned', () => shown(s.decorations, editor.document.uri).some((x) => x.badge === 'D'));
    const deco = s.decorations.of(editor.document.uri).find((x) => x.badge === 'D')!;
    assert.match(deco.tooltip ?? '', /^Deleted on the server/);
    assert.deepStrictEqual(deco.color?.id, COLOR.deleted, "the Git extension's red for a deleted file");
    assert.ok(changed.includes(editor.document.uri.toString()), 'the open tab was told');
  });

  it('a save the server refused shows "!" with the reason until a save goes through', async () => {
    const d = pool.take();
    const editor = await openDocument(d.id);
    const uri = editor.document.uri;
    const errors = new SaveErrors(s);
    try {
      a.setFault('documents.update', { kind: 'status500', count: 1 });
      await replaceAll(editor, 'Refused by the server once.');
      await vscode.commands.executeCommand('workbench.action.files.save');
      await until('the save to fail', () => errors.errors.length > 0);
      const failed = await until('"!" on the tab', () => s.decorations.of(uri).find((x) => x.badge === '!'));
      assert.match(failed.tooltip ?? '', /^Not saved: .*HTTP 500.*save again to retry/s);
      assert.deepStrictEqual(failed.color?.id, 'list.errorForeground');
      await vscode.commands.executeCommand('workbench.action.files.save');
      await until('the text at the server', () => a.documents.get(d.id)!.result === 'Refused by the server once.');
      await until('the "!" to go', () => !s.decorations.of(uri).some((x) => x.badge === '!'));
    } finally {
      errors.dispose();
    }
  });

  it('with two accounts, the same document name in each: the tooltip of each tab names its account (a tab of the earlier form too); with one, none does', async () => {
    const uriA = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${s.first.label}`, path: `/${hostOf(a.docsUrl)}/Freestyle/${NAME}.md` });
    assert.deepStrictEqual(shown(s.decorations, uriA), [], 'one account: nothing to tell apart');
    changed = [];
    const label = await kit.addB();
    const added = s.registry.byLabel(label)!;
    assert.ok(changed.includes('all:'), 'a second account changes every tooltip');
    const uriB = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${label}`, path: `/${hostOf(kit.b.docsUrl)}/Freestyle/${NAME}.md` });
    // A tab of B restored from an earlier version: `/<Template>/<Name>.md`, no host folder.
    const oldB = uriB.with({ path: `/Freestyle/${NAME}.md` });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriA));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriB), { preview: false });
    assert.deepStrictEqual(shown(s.decorations, uriA), [{ tooltip: `In the account ${s.first.displayName}` }]);
    assert.deepStrictEqual(shown(s.decorations, uriB), [{ tooltip: `In the account ${added.displayName}` }]);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(oldB), { preview: false });
    assert.deepStrictEqual(shown(s.decorations, oldB), [{ tooltip: `In the account ${added.displayName}` }]);
    assert.notStrictEqual(s.first.displayName, added.displayName, 'the two accounts read apart');
    await s.registry.remove(added);
    assert.deepStrictEqual(shown(s.decorations, uriA), [], 'one account again');
  });
});
