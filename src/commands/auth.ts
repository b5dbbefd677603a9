import * as vscode from 'vscode';
import { CONFIG } from '../constants';
import type { Services } from '../services/services';
import { describeError, errorKind } from '../util/errors';
import * as config from '../util/config';

/**
 * Set API Key…: asks for the server address when none is set, then for the key (hidden input),
 * checks the key with one cheap request, and only then stores it in SecretStorage.
 */
export async function signIn(s: Services): Promise<boolean> {
  // A new server address is saved only with a key it accepted: until then nothing is sent anywhere else.
  let newServer: string | undefined;
  if (!config.documentsBaseUrl()) {
    const url = await s.prompter.input({
      title: 'Content Docs: Server Address',
      prompt: 'The address of your content service (https://…). Saved in your user settings.',
      placeHolder: 'https://writer.example.com',
      validateInput: (v) => {
        try {
          s.api.checkBaseUrl(v, 'server address');
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    if (url === undefined) return false;
    newServer = s.api.checkBaseUrl(url, 'server address');
  }

  const key = await s.prompter.input({
    title: 'Content Docs: Set API Key',
    prompt: 'Paste the API key from your account settings (API section). It is stored in VS Code\'s secret storage.',
    password: true,
    placeHolder: 'API key',
    validateInput: (v) => validateKey(v),
  });
  if (key === undefined) return false;
  const problem = validateKey(key);
  if (problem) {
    void vscode.window.showErrorMessage(`Couldn't set the API key: ${problem}`);
    return false;
  }

  const account = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Content Docs: checking the API key…' },
    async () => {
      try {
        return await s.api.probe(key.trim(), newServer);
      } catch (e) {
        const message =
          errorKind(e) === 'auth'
            ? 'The server did not accept this API key. Nothing was saved; check the key and try again.'
            : describeError('Couldn\'t check the API key (nothing was saved)', e);
        s.log.warn(`[auth] key check failed: ${errorKind(e) ?? 'error'}`);
        void vscode.window.showErrorMessage(message);
        return undefined;
      }
    },
  );
  if (!account) return false;
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
