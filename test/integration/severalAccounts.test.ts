/**
 * Two accounts side by side (inside a real VS Code, two sandboxes whose servers hold the same id under the same
 * name): Add Account… checks the key and keeps it in SecretStorage only; both views show a root per account; the
 * same id opens as two documents, each saved, favorited and deleted only in its own account; the Accounts menu names
 * both; Remove Account… takes one away and leaves the other as it was.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import { AccountsMenu } from '../../src/accounts/accountsMenu';
import type { TestServices } from '../kit/services';
import type { Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { configure, newDocumentAnswers, readView, RecordingPrompter, replaceAll, sandboxDocument, sleep, until, useSandbox, type AnyNode } from './reliabilityKit';

describe('several accounts: two installations side by side', function () {
  this.timeout(90_000);
  const ID = 5151;
  const NAME = 'Quarterly letter';
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;

  const rootLabels = async () =>
    (((await s.documentsView.getChildren()) as unknown as AnyNode[]).map((n) => ({ node: n, item: s.documentsView.getTreeItem(n as never) })));

  /** The document rows with this id under an account's root, read as VS Code reads the view. */
  const rowsUnder = (root: AnyNode) => kit.rowsOfId(root);

  let autoSave: string | undefined;

  before(async () => {
    // code-server's default is files.autoSave = afterDelay: here the test decides when a save happens.
    autoSave = vscode.workspace.getConfiguration('files').inspect<string>('autoSave')?.globalValue;
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    kit = await startTwoAccounts({ id: ID, name: NAME });
    ({ a, b, s, prompter } = kit);
  });

  after(async () => {
    await kit?.dispose();
    await vscode.workspace.getConfiguration('files').update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
  });

  it('Add Account… checks the key with the server, keeps it in SecretStorage only, and the views show a root per account', async () => {
    assert.strictEqual(s.registry.several, false);
    const oneAccount = (await rootLabels()).map((r) => r.node.kind);
    assert.ok(!oneAccount.includes('accountRoot'), 'with one account the view is as it always was');
    prompter.inputs = [b.docsUrl, b.seoUrl, 'not-the-key', b.key];
    b.resetRequests();
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true);
    assert.deepStrictEqual(
      prompter.checked.map((c) => c.problem === undefined),
      [true, true, false, true],
      `the wrong key is refused in its box, the right one accepted: ${JSON.stringify(prompter.checked)}`,
    );
    assert.match(prompter.checked[2].problem ?? '', /did not accept this API key/);
    assert.strictEqual(s.registry.added().length, 1);
    const added = s.registry.added()[0];
    assert.notStrictEqual(added.label, s.firstOrNone?.label, 'another server is another account');
    const kept = JSON.stringify(s.context.globalState.get('contentDocs.accounts'));
    assert.ok(kept.includes(b.docsUrl) && !kept.includes(b.key), 'globalState keeps the address, never the key');
    assert.strictEqual(await s.context.secrets.get(`contentDocs.apiKey.${added.label}`), b.key);

    const roots = await until('a root per account', async () => {
      const r = await rootLabels();
      return r.length === 2 && r.every((x) => x.node.kind === 'accountRoot') ? r : undefined;
    });
    assert.match(roots[0].item.label as string, new RegExp(new URL(a.docsUrl).host.replace(/\./g, '\\.')));
    assert.match(roots[1].item.label as string, new RegExp(new URL(b.docsUrl).host.replace(/\./g, '\\.')));
    const projects = (await s.projectsView.getChildren()) as unknown as AnyNode[];
    assert.deepStrictEqual(projects.map((n) => n.kind), ['accountRoot', 'accountRoot'], 'the Projects view too');

    // Both accounts list the same id under the same name: each row is its own account's, and tree ids never clash.
    const all = await readView(s.documentsView as never, 4);
    const ids = all.nodes.map((n) => n.item.id).filter((x) => x !== undefined);
    assert.strictEqual(new Set(ids).size, ids.length, `tree item ids are unique across accounts: ${ids.filter((x, i) => ids.indexOf(x) !== i).join(', ')}`);
    assert.ok((await rowsUnder(roots[0].node)).length > 0 && (await rowsUnder(roots[1].node)).length > 0, 'each root lists its document');
  });

  it('the same id opens as two documents, and each save, favorite and delete changes only its own account', async () => {
    const roots = await rootLabels();
    const [rowA] = await rowsUnder(roots[0].node);
    const [rowB] = await rowsUnder(roots[1].node);
    // A row's own command names its account; Open Beside on the row opens it in that account.
    const open = async (row: AnyNode, label: string) => {
      const item = s.documentsView.getTreeItem(row as never);
      assert.deepStrictEqual(item.command?.arguments?.[0], { id: ID, account: label }, 'the row\'s Open names its account');
      await vscode.commands.executeCommand('contentDocs.documentOpenBeside', row);
      return until(`the editor of ${ID}.${label}`, () => vscode.window.visibleTextEditors.find((e) => e.document.uri.authority === `${ID}.${label}`));
    };
    const edA = await open(rowA, s.first.label);
    assert.strictEqual(edA.document.getText(), 'Text of A');
    const edB = await open(rowB, s.registry.added()[0].label);
    assert.strictEqual(edB.document.getText(), 'Text of B');
    assert.notStrictEqual(edA.document.uri.toString(), edB.document.uri.toString(), 'two documents, two addresses');

    await replaceAll(edB, 'Text of B, edited');
    assert.strictEqual(await edB.document.save(), true);
    assert.strictEqual(b.documents.get(ID)!.result, 'Text of B, edited');
    assert.strictEqual(a.documents.get(ID)!.result, 'Text of A', 'B\'s save never reached A');
    await replaceAll(edA, 'Text of A, edited');
    assert.strictEqual(await edA.document.save(), true);
    assert.strictEqual(a.documents.get(ID)!.result, 'Text of A, edited');
    assert.strictEqual(b.documents.get(ID)!.result, 'Text of B, edited');

    // The editor's own commands act in the editor's account.
    await vscode.window.showTextDocument(edB.document);
    await vscode.commands.executeCommand('contentDocs.documentFavorite');
    assert.strictEqual(b.documents.get(ID)!.favorite, true);
    assert.strictEqual(a.documents.get(ID)!.favorite, false);

    // Delete from B's row: asked first, naming it; gone from B only.
    prompter.confirms = [true];
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.documentDelete', rowB), true);
    assert.strictEqual(b.documents.has(ID), false);
    assert.strictEqual(a.documents.has(ID), true, 'A\'s document of the same id stays');
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(edA.document.uri)), 'Text of A, edited');
  });

  it('New Document…, Go to Document… and a writing action ask which account (the last used first); the status bar follows the active document', async () => {
    const added = s.registry.added()[0];
    const bName = added.displayName;
    const pickB = (items: readonly vscode.QuickPickItem[]) => items.find((i) => i.label.includes(bName));
    // New Document… in B: created on B's server only, and opened as B's document.
    prompter.reset();
    prompter.picks = [pickB];
    prompter.answer = newDocumentAnswers('Made in B', 'A short text for the second account');
    const aBefore = a.documents.size;
    const made = await vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew');
    assert.ok(made, 'created');
    assert.strictEqual(prompter.asked[0].title, 'New Document: Account', 'the account is asked first');
    assert.strictEqual(a.documents.size, aBefore, 'nothing created in A');
    assert.ok([...b.documents.values()].some((d) => d.name === 'Made in B'));
    const editor = await until('B\'s new document open', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.authority === `${made.id}.${added.label}`),
    );
    // The status bar shows B's plan usage, named, while B's document is active.
    await vscode.window.showTextDocument(editor.document);
    await until('the usage of B named in the status bar', () => s.usage.state.visible && s.usage.state.tooltip.startsWith(bName));

    // The last used account is offered first next time; Go to Document… searches that account only.
    prompter.reset();
    prompter.picks = [(items) => items[0]];
    b.resetRequests();
    a.resetRequests();
    const qp = vscode.commands.executeCommand('contentDocs.documentGoTo');
    // Go to Document's searches ask for no page; a view on screen asks for its rows and counts by page, in either account
    // and at any moment (its requests, not the search's). Waiting for B's search by that mark also checks that it names
    // the search: were it to ask for a page, this wait would fail, not the check of A pass for nothing.
    const goToSearches = (box: typeof a) => box.requests.filter((r) => r.route === 'documents.list' && r.query.page === undefined);
    await until('the Go to Document search in B', () => goToSearches(b).length > 0 || undefined);
    assert.match(prompter.asked[0].items?.[0] ?? '', new RegExp(bName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'B, the last used, first');
    assert.deepStrictEqual(goToSearches(a).map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query).toString()}`), [], 'A is not searched');
    // Closed once it is open: a close sent before the picker shows (its search can go out first) closes nothing, and
    // the command would wait for the open picker for ever.
    let settled = false;
    void Promise.resolve(qp).then(() => (settled = true), () => (settled = true));
    for (let i = 0; i < 40 && !settled; i++) {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await sleep(250);
    }
    assert.ok(settled, 'Go to Document… closed');

    // Rewrite Selection in an untitled file, created in the account picked (A here).
    const scratch = await vscode.workspace.openTextDocument({ content: 'A sentence to rewrite for the first account.', language: 'markdown' });
    const ed = await vscode.window.showTextDocument(scratch);
    ed.selection = new vscode.Selection(0, 0, 0, scratch.lineAt(0).text.length);
    prompter.reset();
    prompter.picks = [(items) => items.find((i) => !i.label.includes(bName))];
    prompter.confirms = [true];
    const bCount = b.documents.size;
    const aCount = a.documents.size;
    await vscode.commands.executeCommand('contentDocs.selectionRewrite');
    assert.match(prompter.asked[0].title, /Account/, 'the account is asked first');
    assert.strictEqual(a.documents.size, aCount + 1, 'created in A');
    assert.strictEqual(b.documents.size, bCount, 'nothing created in B');
    await vscode.commands.executeCommand('contentDocs.proposalDiscard');
  });

  it('Set API Key… with the server and key of an added account is refused in its box (one account is never two side by side)', async () => {
    const added = s.registry.added()[0];
    prompter.reset();
    prompter.inputs = [b.key];
    await configure('documents.baseUrl', b.docsUrl);
    try {
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.signIn'), false);
      assert.match(prompter.checked[0]?.problem ?? '', new RegExp(`added with "Add Account…" \\(${added.displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
    } finally {
      await useSandbox(s, a);
    }
    assert.strictEqual(s.registry.added().length, 1);
  });

  it('the Accounts menu names both accounts; Remove Account… takes one away, and its tabs can no longer read or save', async () => {
    const added = s.registry.added()[0];
    const sessions = await s.accounts.getSessions();
    assert.deepStrictEqual(sessions.map((x) => x.id).sort(), [s.firstOrNone?.label, added.label].sort());
    // After a restart the menu is built at activation from SecretStorage and globalState alone (the services load on
    // first use): it names the same accounts.
    const restarted = new AccountsMenu(s.credentials, s.context.globalState, s.log);
    try {
      assert.deepStrictEqual(
        (await restarted.getSessions()).map((x) => [x.id, x.account.label]),
        sessions.map((x) => [x.id, x.account.label]),
      );
    } finally {
      restarted.dispose();
    }
    b.documents.set(ID, sandboxDocument(ID, NAME, 'Text of B again'));
    const uriB = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${added.label}`, path: `/${hostOf(b.docsUrl)}/Freestyle/${NAME}.md` });
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(uriB)), /^Text of B/, 'while the account is there, its address reads');

    // Its models (built when its roots were shown) are its own, and go with it.
    const model = added.documentsModel.model;
    assert.notStrictEqual(model, s.first.documentsModel.model);
    prompter.confirms = [true];
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountRemove', added.label), true);
    assert.throws(() => added.documentsModel, /no longer signed in here/, 'a removed account builds no model again');
    let changes = 0;
    const heard = model.onDidChange(() => changes++);
    await model.setSort('nameAsc');
    heard.dispose();
    assert.strictEqual(changes, 0, "the removed account's model was disposed with it: it tells of nothing more");
    assert.strictEqual(s.context.globalState.get(`contentDocs.documentsView.${added.label}`), undefined, 'and keeps no view state of the removed account');
    assert.match(prompter.asked.at(-1)?.message ?? '', /Remove the account .*Nothing is deleted on the server/s);
    assert.strictEqual(s.registry.added().length, 0);
    assert.strictEqual(await s.context.secrets.get(`contentDocs.apiKey.${added.label}`), undefined, 'its key is deleted');
    assert.ok(!((await rootLabels()).some((r) => r.node.kind === 'accountRoot')), 'back to one account: no roots');
    b.resetRequests();
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(uriB)), 'a removed account\'s address reads nothing');
    assert.strictEqual(b.requests.length, 0, 'nothing was sent to the removed account\'s server');
  });
});
