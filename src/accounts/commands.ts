import vscode = require('vscode');
import type { Account } from './account';
import { hostOf } from './accountNames';
import { addressProblem, askCheckedKey } from './keyBox';
import { CMD } from '../constants';
import type { KeyBoxNeeds } from './keyBox';
import type { AddressOf } from '../api/index';
import type { AccountRootsTree } from '../tree/accountRoots';
import type { DocNode } from '../model/nodes';
import type { ProjectNode } from '../model/nodes';

/** What Add Account…, Remove Account and Enter Key take. */
export type AccountCommandsNeeds = { readonly documentsView: AccountRootsTree<DocNode>; readonly projectsView: AccountRootsTree<ProjectNode> } & KeyBoxNeeds;

/**
 * Add Account…: another installation of the service (or another key on one), beside the first account. Asks for the
 * server address, the projects server address (the same by default), then the key, which stays in its box while the
 * server checks it (`GET /account`); only an accepted key is stored (SecretStorage, under the account's label), and the
 * addresses are kept in globalState, never in settings. The views then show a root per account.
 */
export async function addAccount(s: AccountCommandsNeeds): Promise<boolean> {
  if (s.registry.all().length === 0) {
    // No account yet: the first one is the one of Set API Key… (its address in the user settings).
    return Boolean(await vscode.commands.executeCommand(CMD.signIn));
  }
  const check = (v: string, which: AddressOf) => addressProblem(s, v, which);
  const url = await s.prompter.inputChecked(
    {
      title: vscode.l10n.t('Content Docs: Add Account (1/3)'),
      prompt: vscode.l10n.t('The address of the content service of this account (https://…).'),
      placeHolder: 'https://writer.example.com',
      validateInput: (v) => check(v, 'documents'),
    },
    (v) => Promise.resolve(check(v, 'documents')),
  );
  if (url === undefined) return false;
  const documentsUrl = s.library.checkBaseUrl(url, 'documents');
  const seo = await s.prompter.inputChecked(
    {
      title: vscode.l10n.t('Content Docs: Add Account (2/3)'),
      prompt: vscode.l10n.t(
        "The address of its projects server: the SEO companion where the Projects view's sites and reports come from, usually the same installation. Press Enter to use the same address.",
      ),
      value: documentsUrl,
      validateInput: (v) => (v.trim() ? check(v, 'projects') : undefined),
    },
    (v) => Promise.resolve(v.trim() ? check(v, 'projects') : undefined),
  );
  if (seo === undefined) return false;
  const projectsUrl = seo.trim() ? s.library.checkBaseUrl(seo, 'projects') : documentsUrl;

  const checked = await askCheckedKey(
    s,
    {
      title: vscode.l10n.t('Content Docs: Add Account (3/3)'),
      prompt: vscode.l10n.t("The API key of your account at {0} (API section of its settings). It is stored in VS Code's secret storage.", hostOf(documentsUrl)),
      logTag: 'accounts',
    },
    // Only a key the server accepted gets a label (registry.add makes it): labels are kept for the newest pairs only,
    // and wrong keys would push out those of the accounts in use (their tabs would then be refused).
    { documentsUrl, projectsUrl },
    (label) => {
      const existing = s.registry.byLabel(label);
      return existing ? vscode.l10n.t('This account is already signed in ({0}).', existing.displayName) : undefined;
    },
  );
  if (!checked) return false;
  const { key, account } = checked;
  const added = await s.registry.add({ documentsUrl, projectsUrl, ...(account.name?.trim() ? { name: account.name.trim() } : {}) }, key);
  added.usage.seed(account);
  void vscode.window.showInformationMessage(vscode.l10n.t('Content Docs: added {0}.', added.displayName));
  return true;
}

/**
 * Remove Account…: any account (a row or root of a view, a label, or picked), after asking: it is disposed (nothing more
 * is sent for it), its key is deleted from SecretStorage and its editors can no longer read or save (their text stays).
 * For the account of "Set API Key…" that is a sign-out (its server address stays in the settings); an added account's
 * record goes too. Nothing is deleted on the server.
 */
export async function removeAccount(s: AccountCommandsNeeds, arg?: unknown): Promise<boolean> {
  const fromRow = s.documentsView.accountOf(arg) ?? s.projectsView.accountOf(arg);
  let account = typeof arg === 'string' ? s.registry.byLabel(arg) : fromRow;
  if (!account) {
    const all = s.registry.all();
    if (all.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No account is signed in.'));
      return false;
    }
    const picked = await s.prompter.pick(
      all.map((a) => ({ label: a.displayName, description: a.origin === 'settings' ? vscode.l10n.t('the account of "Set API Key…"') : a.label, account: a })),
      { title: vscode.l10n.t('Content Docs: Remove Account'), placeHolder: vscode.l10n.t('Which account should be removed?') },
    );
    if (!picked) return false;
    account = picked.account;
  }
  const name = account.displayName;
  const ok =
    account.origin === 'settings'
      ? await s.prompter.confirm(
          vscode.l10n.t('Sign out of {0}?', name),
          vscode.l10n.t(
            'This is the account of "Set API Key…": its key is removed from VS Code (the server address stays in your settings). Nothing is deleted on the server. Documents open from it keep their text but can no longer be saved.',
          ),
          vscode.l10n.t('Sign Out'),
        )
      : await s.prompter.confirm(
          vscode.l10n.t('Remove the account {0}?', name),
          vscode.l10n.t(
            'Its API key is deleted from VS Code, and it leaves the Documents and Projects views. Nothing is deleted on the server. Documents open from it keep their text but can no longer be saved.',
          ),
          vscode.l10n.t('Remove Account'),
        );
  if (!ok) return false;
  // The account as it was asked about: gone meanwhile (removed, or made anew in another window). Nothing more is done,
  // in it or in the account there now, and the user is told so.
  if (!s.registry.isLive(account)) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The account {0} was removed, signed out, or its API key or server changed elsewhere while you were asked: nothing was removed or signed out here.',
        name,
      ),
    );
    return false;
  }
  await s.registry.remove(account);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(account) Removed {0}', name), 4000);
  return true;
}

/**
 * Enter API Key…, for an account added with "Add Account…" whose key is not in this machine's SecretStorage (its
 * record came in globalState from another machine): asks for that account's key in a box that stays open while its
 * server checks it, as Add Account…'s does, and stores it under that account's label. Never the first account's key
 * (that is Set API Key…).
 */
export async function enterAccountKey(s: AccountCommandsNeeds, arg?: unknown): Promise<boolean> {
  const fromRow = s.documentsView.accountOf(arg) ?? s.projectsView.accountOf(arg);
  let account = typeof arg === 'string' ? s.registry.byLabel(arg) : fromRow;
  if (!account) {
    const missing: Account[] = [];
    for (const a of s.registry.added()) if (!(await a.hasKey())) missing.push(a);
    if (missing.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Every account added with "Add Account…" has its API key on this machine.'));
      return false;
    }
    const picked = await s.prompter.pick(
      missing.map((a) => ({ label: a.displayName, description: a.label, account: a })),
      { title: vscode.l10n.t('Content Docs: Enter API Key'), placeHolder: vscode.l10n.t("Which account's key?") },
    );
    if (!picked) return false;
    account = picked.account;
  }
  if (account.origin === 'settings') return Boolean(await vscode.commands.executeCommand(CMD.signIn));
  const record = account.spec;
  const target = account;
  const checked = await askCheckedKey(
    s,
    {
      title: vscode.l10n.t('Content Docs: Enter API Key ({0})', account.displayName),
      prompt: vscode.l10n.t("The API key of your account at {0} (API section of its settings). It is stored in VS Code's secret storage.", hostOf(record.documentsUrl)),
      logTag: 'accounts',
    },
    { documentsUrl: record.documentsUrl, projectsUrl: record.projectsUrl },
    (label) => {
      // The server and key of another account already signed in: one account, never two of it side by side. The
      // account asked for may have been made anew meanwhile (its key entered in another window): the same label is it.
      const other = s.registry.byLabel(label);
      return other && other.label !== target.label ? vscode.l10n.t('This key is the one of another account signed in ({0}).', other.displayName) : undefined;
    },
  );
  if (!checked) return false;
  const { key, account: info } = checked;
  const withKey = await s.registry.setKey(account, key);
  withKey.usage.seed(info);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(key) The API key of {0} is stored', account.displayName), 4000);
  return true;
}
