import vscode = require('vscode');
import { CONFIG } from '../constants';
import { addressProblem, askCheckedKey } from './keyBox';
import * as config from '../util/config';
import type { AccountRegistry } from './registry';
import type { ApiLibrary } from './apiProvider';
import type { Credentials } from './credentials';
import type { Logger } from '../util/log';
import type { Prompter } from '../ui/prompter';

/** What Set API Key… and Sign Out take. */
export type SignInNeeds = { readonly library: ApiLibrary; readonly credentials: Credentials; readonly log: Logger; readonly prompter: Prompter; readonly registry: AccountRegistry };

/**
 * Set API Key…: asks for the server address when none is set, then for the key (hidden input). The key box stays
 * open while one cheap request checks the key, shows the server's answer under it until the key is accepted (or
 * Escape), and only then is the key stored in SecretStorage.
 */
export async function signIn(s: SignInNeeds): Promise<boolean> {
  // A new server address is saved only with a key it accepted: until then nothing is sent anywhere else.
  let newServer: string | undefined;
  if (!config.documentsBaseUrl()) {
    // Checked here, not on the wire: no key is known yet, and nothing goes to an address before one is.
    const check = (v: string) => addressProblem(s, v, 'documents');
    const url = await s.prompter.inputChecked(
      {
        title: vscode.l10n.t('Content Docs: Server Address'),
        prompt: vscode.l10n.t('The address of your content service (https://…). Saved in your user settings.'),
        placeHolder: 'https://writer.example.com',
        validateInput: check,
      },
      (v) => Promise.resolve(check(v)),
    );
    if (url === undefined) return false;
    newServer = s.library.checkBaseUrl(url, 'documents');
  }

  // The server the key is checked with: it is stored only for that server.
  const checkedUrl = newServer ?? config.documentsBaseUrl();
  // Signed in already: the box says that the key it takes replaces that account's (the first sign-in's box does not).
  const signedIn = newServer ? undefined : s.registry.all().find((a) => a.origin === 'settings');
  const checked = await askCheckedKey(
    s,
    {
      title: signedIn ? vscode.l10n.t('Content Docs: Set API Key ({0})', signedIn.displayName) : vscode.l10n.t('Content Docs: Set API Key'),
      prompt: signedIn
        ? vscode.l10n.t(
            'Signed in as {0}: the key you paste replaces its key (to add another account beside it, use Add Account… instead). Paste the API key from your account settings (API section). It is stored in VS Code\'s secret storage.',
            signedIn.displayName,
          )
        : vscode.l10n.t("Paste the API key from your account settings (API section). It is stored in VS Code's secret storage."),
      logTag: 'auth',
    },
    { documentsUrl: checkedUrl },
    (label) => {
      // The same server and key as an account added with Add Account…: one account, never two of it side by side.
      const twin = label !== undefined ? s.registry.added().find((a) => a.label === label) : undefined;
      return twin
        ? vscode.l10n.t(
            'This account was added with "Add Account…" ({0}). To make it the account of "Set API Key…", remove it with "Remove Account…" first, or use another key.',
            twin.displayName,
          )
        : undefined;
    },
  );
  if (!checked) return false;
  const { key, account } = checked;
  // The server setting changed while the key was checked (Settings Sync, another window): the key was accepted by the
  // server it was checked with, not by the one the settings name now, and is never sent there.
  if (!newServer && config.documentsBaseUrl() !== checkedUrl) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The server address changed to {0} while the key was checked with {1}: the key was not stored, and nothing was sent to {0}. Run "Content Docs: Set API Key…" again for the server you mean.',
        config.documentsBaseUrl() || vscode.l10n.t('(none)'),
        checkedUrl ?? '',
      ),
    );
    return false;
  }
  if (newServer) await vscode.workspace.getConfiguration(CONFIG).update('documents.baseUrl', newServer, vscode.ConfigurationTarget.Global);
  // Resolves once the account of this key and server is made.
  await s.credentials.setKey(key);
  // The key check just read the account: the plan usage shows from it, and the first request does not read it again.
  s.registry.all().find((a) => a.origin === 'settings' && a.documentsUrl === checkedUrl)?.usage.seed(account);
  s.log.info('[auth] API key saved');
  void vscode.window.showInformationMessage(vscode.l10n.t('Content Docs: signed in.'));
  return true;
}

/** Sign Out: the account of "Set API Key…" is removed as Remove Account… removes any account (its key deleted). */
export async function signOut(s: SignInNeeds): Promise<void> {
  const account = s.registry.all().find((a) => a.origin === 'settings');
  if (account) await s.registry.remove(account);
  else await s.credentials.clearKey();
  s.log.info('[auth] API key removed');
}
