/**
 * Name order as the servers sort it (`sort_by=name`, `sort_by=project`): MySQL's `utf8mb4_unicode_ci`.
 * That collation is case- and accent-insensitive, sorts punctuation and symbols (`_ - ( { ~ <` …) before
 * digits and digits before letters, compares digits one by one (`10` before `2`), and pads with spaces,
 * so trailing spaces do not count. ICU's root order at base strength is a close stand-in; plain code-unit
 * order (`<`, `localeCompare` without options) is not. Callers add their own tiebreak (the server's is the id).
 */

let collator: Intl.Collator | undefined;

function base(): Intl.Collator {
  // Made once: building a collator costs far more than comparing with one, and trees sort on every refresh.
  return (collator ??= new Intl.Collator('en', { sensitivity: 'base', usage: 'sort', numeric: false, ignorePunctuation: false }));
}

/** MySQL's PAD SPACE: trailing U+0020 spaces are ignored (other white space is not). */
function unpadded(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x20) end--;
  return end === s.length ? s : s.slice(0, end);
}

/**
 * Letters, digits, spaces and hyphens only: there the collation's order is that of the lower-cased code units
 * (space, then `-`, then digits, then letters, case ignored), so no collator is needed. The 52 templates' names
 * are such names: the Documents view lists them without building one (ICU's collation data costs ~5 ms to load).
 */
const PLAIN = /^[A-Za-z0-9 -]*$/;

/** Negative, zero or positive, as `a` sorts before, equal to or after `b` under `utf8mb4_unicode_ci`. */
export function compareNames(a: string, b: string): number {
  const x = unpadded(a);
  const y = unpadded(b);
  if (PLAIN.test(x) && PLAIN.test(y)) {
    const l = x.toLowerCase();
    const r = y.toLowerCase();
    return l < r ? -1 : l > r ? 1 : 0;
  }
  return base().compare(x, y);
}

/**
 * The server's name order where the client can prove it, else undefined: both names plain (letters, digits,
 * spaces, hyphens: lower-cased code-unit order is `utf8mb4_unicode_ci` there, checked against MariaDB) and
 * not equal under the collation (the server has no tie-break: equal names come back in no set order).
 * A row whose place this cannot decide is left for the server's next read of that page.
 */
export function serverOrder(a: string, b: string): number | undefined {
  const x = unpadded(a);
  const y = unpadded(b);
  if (!PLAIN.test(x) || !PLAIN.test(y)) return undefined;
  const l = x.toLowerCase();
  const r = y.toLowerCase();
  return l < r ? -1 : l > r ? 1 : undefined;
}

/** Whether two names are the same name to the server: equal ignoring case, accents and trailing spaces (`Café ` = `cafe`). */
export function sameName(a: string, b: string): boolean {
  return compareNames(a, b) === 0;
}

/** Case- and accent-free form of a text, as the collation compares letters (NFD, marks dropped, lower case). */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Whether the server's list search (`search=…`, a literal substring, case- and accent-insensitive, on the
 * trimmed term) finds `text`: true or false where the folded forms decide it for plain text; undefined
 * when only the server can tell (letters the collation may equate in other ways, such as `ß` and `ss`).
 */
export function searchFinds(text: string, term: string): boolean | undefined {
  const t = fold(text);
  const q = fold(term);
  if (t.includes(q)) return true;
  // eslint-disable-next-line no-control-regex -- plain ASCII on both sides: nothing else the collation could equate
  return /^[\x00-\x7f]*$/.test(t + q) ? false : undefined;
}
