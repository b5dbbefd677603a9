import type { AccountInfo, AddressOf } from '../api/index';
import { describeError, errorKind } from '../util/errors';
import type { AccountRegistry } from './registry';
import type { ApiLibrary } from './apiProvider';
import type { Logger } from '../util/log';
import type { Prompter } from '../ui/prompter';
import { l10n } from '../util/l10n';

/** What the key box takes. */
export type KeyBoxNeeds = { readonly library: ApiLibrary; readonly log: Logger; readonly prompter: Prompter; readonly registry: AccountRegistry };

/** What a server address box shows under it: the reason an address is refused (undefined: accepted). */
export function addressProblem(s: KeyBoxNeeds, value: string, which: AddressOf): string | undefined {
  try {
    s.library.checkBaseUrl(value, which);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

export function validateKey(v: string): string | undefined {
  const t = v.trim();
  if (!t) return l10n.t('The key cannot be empty.');
  if (/\s/.test(t)) return l10n.t('The key cannot contain spaces or line breaks.');
  // Control characters are exactly what this looks for.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(t)) return l10n.t('The key contains control characters.');
  if (t.length > 4096) return l10n.t('The key is too long.');
  return undefined;
}

/**
 * The key box of Set API Key…, Add Account… and Enter API Key…: a hidden input that stays open while one cheap request
 * (`GET /account`) checks the key with the account's server, shows the server's answer under it until a key is accepted
 * (or Escape), and returns the key with what the check read of the account. `refuse` says why a key is not taken
 * before anything is sent (the label its server and key already have; looked up without making one: a key gets a
 * label only once the server accepted it).
 */
export async function askCheckedKey(
  s: KeyBoxNeeds,
  box: { title: string; prompt: string; logTag: string },
  where: { documentsUrl: string | undefined; projectsUrl?: string },
  refuse: (label: string | undefined) => string | undefined,
): Promise<{ key: string; account: AccountInfo } | undefined> {
  // What the key check read of the account: the box closes only on the key it was read with.
  let account: AccountInfo | undefined;
  const key = await s.prompter.inputChecked(
    {
      title: box.title,
      prompt: box.prompt,
      password: true,
      placeHolder: l10n.t('API key'),
      validateInput: (v) => validateKey(v),
      checkingMessage: l10n.t('Checking the key with the server…'),
    },
    async (value, signal) => {
      const problem = validateKey(value);
      if (problem) return problem;
      const url = where.documentsUrl;
      if (!url) return l10n.t('No server address is set.');
      const refused = refuse(await s.registry.labelFor(url, value.trim(), { mint: false }));
      if (refused) return refused;
      try {
        account = await s.library.probe(value.trim(), url, signal, where.projectsUrl);
        return undefined;
      } catch (e) {
        if (signal.aborted) return 'Cancelled.'; // Escape: the box is gone, and this answer is not shown
        s.log.warn(`[${box.logTag}] key check failed: ${errorKind(e) ?? 'error'}`);
        return errorKind(e) === 'auth'
          ? l10n.t('The server did not accept this API key. Check it and press Enter again, or Escape to cancel.')
          : describeError(l10n.t("Couldn't check the API key"), e);
      }
    },
  );
  return key === undefined || !account ? undefined : { key: key.trim(), account };
}
