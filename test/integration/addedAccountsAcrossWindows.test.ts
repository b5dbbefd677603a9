/**
 * Accounts added with "Add Account…" in two windows at once. The records of the added accounts are kept in
 * globalState, which every window of the machine shares (and reads as another window changes it); each key is in
 * SecretStorage, shared too. What one window adds must never be lost by what the other window writes after it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { SECRET_ACCOUNT_KEY_PREFIX, STATE } from '../../src/constants';
import { until } from './reliabilityKit';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';

const SECOND_KEY = 'sandbox-second-key-for-windows-0123456789';

describe('added accounts across windows', function () {
  this.timeout(60_000);
  let kit: TwoAccounts;

  before(async () => {
    kit = await startTwoAccounts({ id: 8101, name: 'Across windows' });
  });

  after(async () => {
    await kit?.dispose();
  });

  it('an account added in another window stays kept when this window adds one of its own', async () => {
    const { a, b, s, prompter } = kit;
    const records = () => (s.context.globalState.get<Array<{ label: string }>>(STATE.accounts) ?? []).map((r) => r.label);
    // Another window adds B: the label of its server and key, its key in SecretStorage, its record in globalState.
    const labelB = await s.credentials.accountLabel(b.docsUrl, b.key);
    assert.ok(labelB, 'a label for B');
    await s.context.secrets.store(SECRET_ACCOUNT_KEY_PREFIX + labelB, b.key);
    await s.context.globalState.update(STATE.accounts, [
      ...(s.context.globalState.get<unknown[]>(STATE.accounts) ?? []),
      { label: labelB, documentsUrl: b.docsUrl, projectsUrl: b.seoUrl },
    ]);
    try {
      // This window adds an account of its own (a second key on A's server).
      a.addKey(SECOND_KEY);
      prompter.reset();
      prompter.inputs = [a.docsUrl, a.seoUrl, SECOND_KEY];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true, `Add Account… failed: ${JSON.stringify(prompter.checked)}`);
      const mine = s.registry.added().at(-1)?.label;
      assert.ok(mine && records().includes(mine), 'this window\'s account is kept');
      assert.ok(records().includes(labelB), `the account the other window added is still kept: ${JSON.stringify(records())}`);
    } finally {
      for (const added of s.registry.added()) await s.registry.remove(added);
      await s.context.globalState.update(STATE.accounts, (s.context.globalState.get<Array<{ label: string }>>(STATE.accounts) ?? []).filter((r) => r.label !== labelB));
      await s.context.secrets.delete(SECRET_ACCOUNT_KEY_PREFIX + labelB);
    }
  });
  it('Enter API Key… whose box is open while another window enters that account\'s key stores it for that account, as asked', async () => {
    const { b, s, prompter } = kit;
    const label = await kit.addB();
    try {
      // The record without its key on this machine (as one synced from another machine).
      await s.context.secrets.delete(SECRET_ACCOUNT_KEY_PREFIX + label);
      await until('the account without its key', async () => ((await s.registry.byLabel(label)?.hasKey()) === false ? true : undefined));
      prompter.reset();
      prompter.meanwhile = async () => {
        // Another window enters the same key meanwhile: the account is made anew there and here, under its label.
        const before = s.registry.byLabel(label);
        await s.context.secrets.store(SECRET_ACCOUNT_KEY_PREFIX + label, b.key);
        await until('the account made anew with the key entered elsewhere', () => {
          const now = s.registry.byLabel(label);
          return now && now !== before ? true : undefined;
        });
      };
      prompter.inputs = [b.key];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountEnterKey', label), true, `Enter API Key… failed: ${JSON.stringify(prompter.checked)}`);
      const account = s.registry.byLabel(label);
      assert.ok(account && !account.gone && (await account.hasKey()), 'the account is signed in with its key');
      assert.strictEqual(s.registry.all().filter((a) => a.label === label).length, 1, 'one account under its label');
    } finally {
      for (const added of s.registry.added()) await s.registry.remove(added);
    }
  });
});
