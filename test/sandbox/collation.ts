/**
 * The servers' collation, `utf8mb4_unicode_ci` (MariaDB 10.11: UCA 4.0.0 primary weights, PAD SPACE), from the
 * weights MariaDB gives every BMP code point (unicodeCiWeights.ts). test/unit/nameOrder.test.ts checks order,
 * equality and LIKE against MariaDB itself.
 */
import { UNICODE_CI_WEIGHTS } from './unicodeCiWeights';

/** What every character outside the BMP weighs (MariaDB's replacement weight: all such characters are equal). */
const SUPPLEMENTARY = 0xfffd;
/** The space's weight: PAD SPACE compares the rest of the longer name against it. */
const SPACE = 0x0209;

interface Table {
  /** Weights of code point `cp`: `weights[start[cp]]` up to `weights[start[cp + 1]]`. */
  start: Uint32Array;
  weights: Uint16Array;
}

let table: Table | undefined;

function load(): Table {
  if (table) return table;
  const lists: Array<number[] | undefined> = new Array(0x10000);
  for (const line of UNICODE_CI_WEIGHTS.split('\n')) {
    if (line === '') continue;
    const [range, what = ''] = line.split(' ');
    const [first, last = first] = range.split('-').map((h) => parseInt(h, 16));
    for (let cp = first; cp <= last; cp++) {
      if (what === '') lists[cp] = [];
      else if (what.startsWith('*')) lists[cp] = [parseInt(what.slice(1), 16) + (cp >> 15), (cp & 0x7fff) | 0x8000];
      else if (what.endsWith('+')) lists[cp] = [parseInt(what.slice(0, -1), 16) + (cp - first)];
      else lists[cp] = what.split('.').map((h) => parseInt(h, 16));
    }
  }
  const start = new Uint32Array(0x10001);
  let n = 0;
  for (let cp = 0; cp < 0x10000; cp++) n += (lists[cp] ?? [SUPPLEMENTARY]).length;
  const weights = new Uint16Array(n);
  n = 0;
  for (let cp = 0; cp < 0x10000; cp++) {
    start[cp] = n;
    // Surrogates are not characters: one alone (never valid UTF-8, so never on the server) weighs as the replacement.
    for (const w of lists[cp] ?? [SUPPLEMENTARY]) weights[n++] = w;
  }
  start[0x10000] = n;
  return (table = { start, weights });
}

/** The name's weights in order (ignorable characters weigh nothing, some weigh two or more: `ß` = `ss`). */
export function collationKey(s: string): number[] {
  const { start, weights } = load();
  const out: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp > 0xffff) out.push(SUPPLEMENTARY);
    else for (let i = start[cp]; i < start[cp + 1]; i++) out.push(weights[i]);
  }
  return out;
}

/** Negative, zero or positive: two keys compared as PAD SPACE compares them (the shorter goes on with spaces). */
export function compareKeys(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  for (let i = n; i < a.length; i++) if (a[i] !== SPACE) return a[i] - SPACE;
  for (let i = n; i < b.length; i++) if (b[i] !== SPACE) return SPACE - b[i];
  return 0;
}

/** Name order and equality of `utf8mb4_unicode_ci`: negative, zero or positive. */
export function collate(a: string, b: string): number {
  return compareKeys(collationKey(a), collationKey(b));
}

let tokens: Int32Array | undefined;

/**
 * For LIKE, one number a character: BMP characters with the same weights share one (`é` and `E`; every ignorable
 * character), each character outside the BMP is only itself (LIKE compares those by code point).
 */
function token(cp: number): number {
  if (cp > 0xffff) return -cp;
  if (!tokens) {
    const { start, weights } = load();
    const ids = new Map<string, number>();
    tokens = new Int32Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      const key = Array.from(weights.subarray(start[c], start[c + 1])).join('.');
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      tokens[c] = id;
    }
  }
  return tokens[cp];
}

/**
 * SQL `text LIKE pattern` under the collation: character by character (no padding, no expansions: `Straße` is not
 * `Strasse` here although the two sort as equal), `%` any run of characters, `_` exactly one, a backslash makes the
 * next character literal (a final backslash is itself).
 */
export function likeMatcher(pattern: string): (text: string) => boolean {
  // Pattern items: a token to match, ANY (`%`) or ONE (`_`).
  const ANY = 'any';
  const ONE = 'one';
  const items: Array<number | typeof ANY | typeof ONE> = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '\\' && i + 1 < chars.length) items.push(token(chars[++i].codePointAt(0) ?? 0));
    else if (c === '%') items.push(ANY);
    else if (c === '_') items.push(ONE);
    else items.push(token(c.codePointAt(0) ?? 0));
  }
  return (text: string) => {
    const t = Array.from(text, (c) => token(c.codePointAt(0) ?? 0));
    // Wildcard matching with backtracking to the last `%` (linear for one `%`, correct for any number).
    let ti = 0;
    let pi = 0;
    let starP = -1;
    let starT = 0;
    while (ti < t.length) {
      const p = items[pi];
      if (pi < items.length && p !== ANY && (p === ONE || p === t[ti])) {
        ti++;
        pi++;
      } else if (pi < items.length && p === ANY) {
        starP = pi++;
        starT = ti;
      } else if (starP >= 0) {
        pi = starP + 1;
        ti = ++starT;
      } else {
        return false;
      }
    }
    while (pi < items.length && items[pi] === ANY) pi++;
    return pi === items.length;
  };
}
