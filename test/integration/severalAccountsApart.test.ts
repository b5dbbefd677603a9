/**
 * Two accounts, each with what is its own (inside a real VS Code, two sandboxes): Show Plan Usage shows the usage of
 * the account of the active document, else of the account the user picks; each account's Documents tree keeps its
 * view state under its own label (the first account's stays where it always was); an added account whose key is not
 * in this machine's SecretStorage says so on its root and asks for that account's key, never the first account's.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import type { Account } from '../../src/accounts/account';
import type { TestServices } from '../kit/services';
import type { DocumentsTreeProvider } from '../../src/documents/documentsTree';
import type { Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { closeAll, RecordingPrompter, until, type AnyNode } from './reliabilityKit';

describe('several accounts: each account its own usage, view state and key', function () {
  this.timeout(90_000);
  const ID = 6161;
  const NAME = 'Monthly report';
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;
  let added: Account;

  const rootOf = async (account: Account) => (await kit.roots(2)).find((n) => (n as unknown as { account: Account }).account === account)!;

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME });
    ({ a, b, s, prompter } = kit);
    a.setAccount({ plan: { name: 'Plan of A', features: { words: 50_000, documents: 200 } }, counters: { words_month_count: 1_000 } });
    b.setAccount({ plan: { name: 'Plan of B', features: { words: 80_000, documents: 300 } }, counters: { words_month_count: 2_000 } });
    await kit.addB();
    added = s.registry.added()[0];
    await s.account.refresh();
  });

  after(() => kit?.dispose());

  /** Runs Show Plan Usage and returns its rows ("label: description") and its title. */
  async function showUsage(pickAccount?: string): Promise<{ title: string; rows: string[] }> {
    prompter.reset();
    let shown: { title: string; rows: string[] } | undefined;
    if (pickAccount) prompter.picks = [(items) => items.find((i) => i.label.includes(pickAccount))];
    prompter.answer = (q, items) => {
      if (q.title.startsWith('Content Docs: Plan Usage') && items?.some((i) => i.label.includes('Open Account Page'))) {
        shown = { title: q.title, rows: items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => `${i.label}: ${i.description ?? ''}`) };
      }
      return undefined;
    };
    await vscode.commands.executeCommand('contentDocs.usageShow');
    assert.ok(shown, `the usage was shown (asked: ${JSON.stringify(prompter.asked.map((q) => q.title))})`);
    return shown;
  }

  it('Show Plan Usage shows the usage of the active document\'s account, else of the account picked (the last used first)', async () => {
    const uriB = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${added.label}`, path: `/${hostOf(b.docsUrl)}/Freestyle/${NAME}.md` });
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriB));
    assert.strictEqual(editor.document.getText(), 'Text of B');
    const ofB = await showUsage();
    assert.ok(ofB.rows.includes('Plan: Plan of B'), `B's plan while B's document is active: ${JSON.stringify(ofB.rows)}`);
    assert.ok(ofB.rows.includes(`$(link-external) Open Account Page: ${b.docsUrl}`), `B's account page: ${JSON.stringify(ofB.rows)}`);
    assert.ok(ofB.title.includes(added.displayName), `the title names the account: ${ofB.title}`);

    // No document of either account active: the user picks; here the first account.
    await closeAll();
    const ofA = await showUsage(s.first.displayName);
    assert.strictEqual(prompter.asked[0]?.title, 'Content Docs: Plan Usage', 'the account is asked first');
    assert.ok(ofA.rows.includes('Plan: Plan of A'), `A's plan when A is picked: ${JSON.stringify(ofA.rows)}`);
    assert.ok(ofA.rows.includes(`$(link-external) Open Account Page: ${a.docsUrl}`));
  });

  it('each account\'s Documents tree keeps its view state under its own label; the first account\'s stays where it was', async () => {
    const firstKey = 'contentDocs.documentsView';
    // The first account's own tree may store what it learns meanwhile (custom templates): its sort is what B's must not touch.
    const sortOfFirst = () => s.context.globalState.get<{ sort?: string }>(`${firstKey}.${s.first.label}`)?.sort;
    const before = sortOfFirst();
    const treeB = s.documentsView.treeOf(added) as DocumentsTreeProvider;
    const sort = s.documentsTree.model.sort === 'nameDesc' ? 'nameAsc' : 'nameDesc';
    await treeB.model.setSort(sort);
    assert.strictEqual(sortOfFirst(), before, 'the first account\'s stored sort is untouched by B\'s');
    assert.strictEqual(s.context.globalState.get<{ sort?: string }>(`${firstKey}.${added.label}`)?.sort, sort, 'B\'s is kept under B\'s label');
    assert.notStrictEqual(s.documentsTree.model.sort, sort, 'the first account\'s tree keeps its own');
  });

  it('an added account whose key is not on this machine says so on its root and asks for THAT account\'s key (checked), never the first account\'s', async () => {
    const label = added.label;
    const firstKey = await s.credentials.getKey();
    // Its record came in globalState from another machine; its key stayed in that machine's SecretStorage.
    await s.context.secrets.delete(`contentDocs.apiKey.${label}`);
    // Another key (here none) is another account: the account is made anew, without a key.
    added = await until('the account made anew without its key', () => (s.registry.byLabel(label) !== added ? s.registry.byLabel(label) : undefined));
    const root = await rootOf(added);
    assert.strictEqual(s.documentsView.getTreeItem(root as never).contextValue, 'account', 'Remove Account… stays offered on its root');
    const rows = (await s.documentsView.getChildren(root as never)) as unknown as AnyNode[];
    assert.deepStrictEqual(rows.map((n) => n.kind), ['accountKeyMissing'], `one row saying the key is missing: ${JSON.stringify(rows.map((n) => n.kind))}`);
    const item = s.documentsView.getTreeItem(rows[0] as never);
    assert.match(item.label as string, /API key of this account is not on this machine/);
    assert.strictEqual(item.command?.command, 'contentDocs.accountEnterKey', 'its click asks for this account\'s key, not Set API Key…');
    assert.deepStrictEqual(item.command?.arguments, [label]);

    prompter.reset();
    prompter.inputs = ['not-the-key', b.key];
    assert.strictEqual(await vscode.commands.executeCommand(item.command.command, ...item.command.arguments), true);
    assert.deepStrictEqual(prompter.checked.map((c) => c.problem === undefined), [false, true], `the wrong key is refused in its box: ${JSON.stringify(prompter.checked)}`);
    assert.match(prompter.checked[0].problem ?? '', /did not accept this API key/);
    assert.match(prompter.asked[0].title, new RegExp(added.displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the box names the account');
    assert.strictEqual(await s.context.secrets.get(`contentDocs.apiKey.${label}`), b.key, 'stored under the account\'s label');
    assert.strictEqual(await s.credentials.getKey(), firstKey, 'the first account\'s key is untouched');
    assert.strictEqual(await s.registry.labelFor(b.docsUrl, b.key, { mint: false }), label, 'the server and key are that account\'s label');
    assert.deepStrictEqual(await s.documentsView.getChildren(root as never), [], 'the keyless account is gone: its root lists nothing');
    added = s.registry.byLabel(label)!;
    const after = (await s.documentsView.getChildren((await rootOf(added)) as never)) as unknown as AnyNode[];
    assert.ok(after.length > 0 && !after.some((n) => n.kind === 'accountKeyMissing'), `its tree shows again: ${JSON.stringify(after.map((n) => n.kind))}`);
  });
});
