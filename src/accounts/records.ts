/**
 * The accounts added with "Add Account…" as kept in globalState: a local label and the server addresses, never a key
 * (each key is in SecretStorage under the label). No vscode here: plain data, unit-tested in Node.
 */
import { ACCOUNT_LABEL, STATE } from '../constants';

export interface AccountRecord {
  /** The account's local label (see Credentials.accountLabel): what its URIs carry. */
  readonly label: string;
  readonly documentsUrl: string;
  readonly projectsUrl: string;
  /** The user's name as the key check read it ("name @ host" in menus and the views). */
  readonly name?: string;
}

/** How many accounts may be added (besides the one of "Set API Key…"). */
export const MAX_ACCOUNTS = 20;

/** The records as kept, with anything malformed or repeated left out. */
export function parseRecords(raw: unknown): AccountRecord[] {
  if (!Array.isArray(raw)) return [];
  const out: AccountRecord[] = [];
  for (const e of raw as unknown[]) {
    if (typeof e !== 'object' || e === null) continue;
    const r = e as Record<string, unknown>;
    if (typeof r.label !== 'string' || !ACCOUNT_LABEL.test(r.label) || out.some((o) => o.label === r.label)) continue;
    if (typeof r.documentsUrl !== 'string' || !r.documentsUrl || typeof r.projectsUrl !== 'string') continue;
    out.push({ label: r.label, documentsUrl: r.documentsUrl, projectsUrl: r.projectsUrl || r.documentsUrl, ...(typeof r.name === 'string' && r.name ? { name: r.name } : {}) });
  }
  return out.slice(0, MAX_ACCOUNTS);
}

/**
 * The globalState keys Settings Sync carries (ExtensionContext.globalState.setKeysForSync takes exact keys): the
 * accounts added with "Add Account…" (labels and addresses), the names remembered for the accounts, the writing style,
 * and each added account's view choices (under its label, which its record carries to the other machine). Never a key
 * (SecretStorage stays on each machine), nor the account last used, nor the view choices of the account of "Set API
 * Key…": its label is made on each machine (Credentials.accountLabel), so another machine could not match them.
 */
export function syncedKeys(addedLabels: readonly string[]): string[] {
  const views = addedLabels.filter((l) => ACCOUNT_LABEL.test(l)).flatMap((l) => [`${STATE.documentsView}.${l}`, `${STATE.projectsView}.${l}`]);
  return [STATE.accounts, STATE.accountNames, STATE.writeStyle, ...views];
}
