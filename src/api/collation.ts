/**
 * Name order as the servers sort it (`sort_by=name`, `sort_by=project`): MariaDB's `utf8mb4_unicode_ci` (UCA 4.0.0,
 * PAD SPACE). Case- and accent-insensitive, punctuation and symbols before digits, digits one by one (`10` before
 * `2`) before letters, trailing spaces ignored; but `æ ø ł ð đ þ` are letters of their own, characters newer than
 * Unicode 4.0 and every emoji sort after all letters, and equal names come back in no set order (no tie-break).
 * `serverOrder` and `sameName` answer only where they provably agree with the server (test/unit/nameOrder.test.ts
 * checks them against MariaDB); `compareNames` is ICU's root order, a display order close to the server's, not it.
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

/** Negative, zero or positive: a local display order, the server's for plain names and close to it for others. */
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

/**
 * Whether two names are the same name to the server (equal under the collation: `Café ` = `cafe`) where the client
 * can prove it, else undefined: true for the same text up to trailing spaces, true or false for two plain names
 * (equal ignoring case). Accents, other letters and symbols are the collation's to decide (`ß` = `ss`, `ø` ≠ `o`).
 */
export function sameName(a: string, b: string): boolean | undefined {
  const x = unpadded(a);
  const y = unpadded(b);
  if (x === y) return true;
  if (!PLAIN.test(x) || !PLAIN.test(y)) return undefined;
  return x.toLowerCase() === y.toLowerCase();
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
