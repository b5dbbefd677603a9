/**
 * What VS Code's Accounts menu shows for an account, and the names remembered for it between sessions.
 * No vscode here: plain data, unit-tested in Node.
 */

/** A name remembered for an account: its local label (see Credentials.accountLabel), the user's name and the server's host. */
export interface RememberedName {
  readonly label: string;
  readonly name: string;
  readonly host: string;
}

/** How many accounts keep their name (as many as Credentials keeps labels). */
export const MAX_REMEMBERED = 50;

/** The host (and port, if any) of a server address; the address itself when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** "name @ host", or the host alone while the user's name is not known. */
export function displayLabel(host: string, name: string | undefined): string {
  const n = name?.replace(/\s+/g, ' ').trim();
  return n ? `${n} @ ${host}` : host;
}

/** The names as kept in globalState, with anything malformed left out. */
export function parseRemembered(raw: unknown): RememberedName[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (e: unknown): e is RememberedName =>
      typeof e === 'object' && e !== null &&
      typeof (e as RememberedName).label === 'string' && typeof (e as RememberedName).name === 'string' && typeof (e as RememberedName).host === 'string',
  );
}

/** The name remembered for an account on a host (a name learned on another server is not this one's). */
export function rememberedName(list: readonly RememberedName[], label: string, host: string): string | undefined {
  return list.find((e) => e.label === label && e.host === host)?.name;
}

/**
 * The list with `entry` first (the most recent first; the oldest go beyond {@link MAX_REMEMBERED}), or undefined
 * when it already says exactly that (nothing to store).
 */
export function remember(list: readonly RememberedName[], entry: RememberedName): RememberedName[] | undefined {
  const first = list[0];
  if (first && first.label === entry.label && first.name === entry.name && first.host === entry.host) return undefined;
  return [{ label: entry.label, name: entry.name, host: entry.host }, ...list.filter((e) => e.label !== entry.label)].slice(0, MAX_REMEMBERED);
}
