/**
 * The accounts added with "Add Account…" as kept in globalState: a local label and the server addresses, never a key
 * (each key is in SecretStorage under the label). No vscode here: plain data, unit-tested in Node.
 */
import { ACCOUNT_LABEL } from '../constants';

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
