import * as vscode from 'vscode';
import type { AccountInfo } from '../api/index';
import { CONFIG } from '../constants';
import type { Services } from '../services/services';
import { describeError, errorKind } from '../util/errors';
import * as config from '../util/config';

/**
 * Set API Key…: asks for the server address when none is set, then for the key (hidden input). The key box stays
 * open while one cheap request checks the key, shows the server's answer under it until the key is accepted (or
 * Escape), and only then is the key stored in SecretStorage.
 */
export async function signIn(s: Services): Promise<boolean> {
  // A new server address is saved only with a key it accepted: until then nothing is sent anywhere else.
  let newServer: string | undefined;
  if (!config.documentsBaseUrl()) {
    // Checked here, not on the wire: no key is known yet, and nothing goes to an address before one is.
    const addressProblem = (v: string): string | undefined => {
      try {
        s.api.checkBaseUrl(v, 'server address');
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    };
    const url = await s.prompter.inputChecked(
      {
        title: 'Content Docs: Server Address',
        prompt: 'The address of your content service (https://…). Saved in your user settings.',
        placeHolder: 'https://writer.example.com',
        validateInput: addressProblem,
      },
      (v) => Promise.resolve(addressProblem(v)),
    );
    if (url === undefined) return false;
    newServer = s.api.checkBaseUrl(url, 'server address');
  }

  // What the key check read of the account: the box closes only on the key it was read with.
  let account: AccountInfo | undefined;
  const key = await s.prompter.inputChecked(
    {
      title: 'Content Docs: Set API Key',
      prompt: 'Paste the API key from your account settings (API section). It is stored in VS Code\'s secret storage.',
      password: true,
      placeHolder: 'API key',
      validateInput: (v) => validateKey(v),
      checkingMessage: 'Checking the key with the server…',
    },
    async (value, signal) => {
      const problem = validateKey(value);
      if (problem) return problem;
      // The same server and key as an account added with Add Account…: one account, never two of it side by side.
      const url = newServer ?? config.documentsBaseUrl();
      const label = url ? await s.registry.labelFor(url, value.trim(), { mint: false }) : undefined;
      const twin = label !== undefined ? s.registry.added().find((a) => a.label === label) : undefined;
      // (Looked up without making a label: a key is given one only once the server accepted it.)
      if (twin) return `This account was added with "Add Account…" (${twin.displayName}). To make it the account of "Set API Key…", remove it with "Remove Account…" first, or use another key.`;
      try {
        account = await s.api.probe(value.trim(), newServer, signal);
        return undefined;
      } catch (e) {
        if (signal.aborted) return 'Cancelled.'; // Escape: the box is gone, and this answer is not shown
        s.log.warn(`[auth] key check failed: ${errorKind(e) ?? 'error'}`);
        return errorKind(e) === 'auth'
          ? 'The server did not accept this API key. Check it and press Enter again, or Escape to cancel.'
          : describeError('Couldn\'t check the API key', e);
      }
    },
  );
  if (key === undefined || !account) return false;
  if (newServer) await vscode.workspace.getConfiguration(CONFIG).update('documents.baseUrl', newServer, vscode.ConfigurationTarget.Global);
  await s.credentials.setKey(key.trim());
  // The key check just read the account: the plan usage shows from it, and the first request does not read it again.
  s.account.seed(account);
  s.log.info('[auth] API key saved');
  void vscode.window.showInformationMessage('Content Docs: signed in.');
  return true;
}

export async function signOut(s: Services): Promise<void> {
  await s.credentials.clearKey(); // the document service forgets the account on the key change
  s.log.info('[auth] API key removed');
}

export function validateKey(v: string): string | undefined {
  const t = v.trim();
  if (!t) return 'The key cannot be empty.';
  if (/\s/.test(t)) return 'The key cannot contain spaces or line breaks.';
  // Control characters are exactly what this looks for.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(t)) return 'The key contains control characters.';
  if (t.length > 4096) return 'The key is too long.';
  return undefined;
}
