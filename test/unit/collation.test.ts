/**
 * src/api/collation.ts: name order as MySQL's utf8mb4_unicode_ci sorts it (the servers' sort_by=name / project).
 * The expected sequences are what that collation gives; ICU's root order agrees on them (checked under Node 20.20
 * with ICU 78.2 and Node 24.21 with ICU 78.3).
 */
import assert from 'node:assert/strict';
import { compareNames, sameName, serverOrder } from '../../src/api/collation';
import { TEMPLATES } from '../../src/api/templates';

/** Sorts with compareNames and the id tiebreak callers add (here the input position stands for the id). */
function sorted(names: string[]): string[] {
  return names
    .map((name, id) => ({ name, id }))
    .sort((a, b) => compareNames(a.name, b.name) || a.id - b.id)
    .map((x) => x.name);
}

describe('compareNames / sameName (utf8mb4_unicode_ci order)', () => {
  const names = ['zebra', 'Eclair', '~tilde', 'apple', '10 things', '_under', 'Banana', '(paren', 'éclair', '-dash', '2 things', 'Äpfel'];

  it('punctuation and symbols, then digits (one by one: 10 before 2), then letters ignoring case and accents; ties by id', () => {
    assert.deepEqual(sorted(names), ['_under', '-dash', '(paren', '~tilde', '10 things', '2 things', 'Äpfel', 'apple', 'Banana', 'Eclair', 'éclair', 'zebra']);
    // The same order from any starting order (only the tie moves with the ids).
    assert.deepEqual(sorted([...names].reverse()), ['_under', '-dash', '(paren', '~tilde', '10 things', '2 things', 'Äpfel', 'apple', 'Banana', 'éclair', 'Eclair', 'zebra']);
  });

  it('is not code-unit order (which would put "Banana" before "apple" and "Äpfel" and "éclair" after "zebra")', () => {
    const plain = [...names].sort();
    assert.notDeepEqual(plain, sorted(names));
    assert.ok(compareNames('Banana', 'apple') > 0);
    assert.ok(compareNames('Äpfel', 'zebra') < 0);
    assert.ok(compareNames('éclair', 'zebra') < 0);
  });

  it('the other symbols of the contract ({ and <) also sort before digits; digits before letters', () => {
    for (const p of ['_', '-', '(', '{', '~', '<']) {
      assert.ok(compareNames(`${p}z`, '0') < 0, `${p} before digits`);
      assert.ok(compareNames(`${p}z`, 'a') < 0, `${p} before letters`);
    }
    assert.ok(compareNames('9', 'a') < 0);
    assert.ok(compareNames('9', 'A') < 0);
  });

  it('case and accents do not count; trailing spaces do not count; leading spaces and other letters do', () => {
    assert.equal(compareNames('éclair', 'Eclair'), 0);
    assert.equal(compareNames('ECLAIR', 'eclair'), 0);
    assert.equal(compareNames('Café ', 'cafe'), 0);
    assert.equal(compareNames('cafe   ', 'CAFÉ'), 0);
    assert.ok(compareNames(' cafe', 'cafe') !== 0, 'a leading space counts');
    assert.ok(compareNames('cafe', 'cafes') < 0);
    assert.ok(compareNames('apple', 'Äpfel') > 0, 'p after f, whatever the accent on A');
  });

  it('serverOrder: the order of two different plain names, and no answer for equal names or any other name', () => {
    assert.ok((serverOrder('Banana', 'apple') ?? 0) > 0);
    assert.ok((serverOrder('10 things', '2 things') ?? 0) < 0);
    assert.ok((serverOrder('a b', 'a-b') ?? 0) < 0);
    assert.equal(serverOrder('Apple ', 'apple'), undefined, 'equal names: the server has no tie-break');
    assert.equal(serverOrder('Äpfel', 'apple'), undefined);
    assert.equal(serverOrder('🚀 Launch plan', 'Launch plan'), undefined);
  });

  it('sameName: what the projects server treats as one project, where the client can prove it', () => {
    assert.equal(sameName('Café ', 'Café'), true, 'the same text up to trailing spaces');
    assert.equal(sameName('ACME launch', 'acme LAUNCH  '), true);
    assert.equal(sameName('Acme', 'Acme 2'), false);
    assert.equal(sameName('Acme', 'Acne'), false);
    assert.equal(sameName('cafe\t', 'cafe'), undefined, 'a tab is not padding; only the collation knows how it weighs');
    // Accents and other letters are the collation's to decide (`Äpfel` = `apfel`, but `æ` ≠ `ae`): no answer.
    assert.equal(sameName('Äpfel', 'apfel'), undefined);
    assert.equal(sameName('æ', 'ae'), undefined);
    assert.equal(sameName('Café ', 'cafe'), undefined);
  });

  it('names of letters, digits, spaces and hyphens (compared without a collator) sort exactly as the collation sorts them, also against other names', () => {
    const icu = new Intl.Collator('en', { sensitivity: 'base', usage: 'sort', numeric: false, ignorePunctuation: false });
    const strip = (s: string) => s.replace(/ +$/, '');
    const alphabet = ['a', 'A', 'b', 'z', 'Z', '0', '1', '9', ' ', '-'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () => Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const plain = Array.from({ length: 400 }, word);
    const others = ['Äpfel', 'éclair', '_x', '(a)', 'a.b', 'a_b', 'ß', 'a~', '{z', 'Zebra!'];
    for (const a of plain) {
      for (const b of [...plain.slice(0, 60), ...others]) {
        assert.equal(Math.sign(compareNames(a, b)), Math.sign(icu.compare(strip(a), strip(b))), `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
        assert.equal(Math.sign(compareNames(b, a)) + Math.sign(compareNames(a, b)), 0, `${JSON.stringify(b)} / ${JSON.stringify(a)}`);
      }
    }
  });

  it('the 52 templates keep the collation\'s order', () => {
    const icu = new Intl.Collator('en', { sensitivity: 'base' });
    const names = TEMPLATES.map((t) => t.name);
    assert.deepEqual([...names].sort(compareNames), [...names].sort((a, b) => icu.compare(a, b)));
  });

  it('is antisymmetric and consistent over the sample (a usable sort comparator)', () => {
    for (const a of names) {
      for (const b of names) {
        assert.equal(Math.sign(compareNames(a, b)) + Math.sign(compareNames(b, a)), 0, `${a} / ${b}`);
      }
    }
  });
});

const icu = new Intl.Collator('en', { sensitivity: 'base', usage: 'sort', numeric: false, ignorePunctuation: false });
const unpad = (s: string) => s.replace(/ +$/, '');

/** Every string of up to `max` characters over `alphabet`. */
function allWords(alphabet: readonly string[], max: number): string[] {
  const out = [''];
  let frontier = [''];
  for (let n = 1; n <= max; n++) {
    frontier = frontier.flatMap((w) => alphabet.map((c) => w + c));
    out.push(...frontier);
  }
  return out;
}

/** Names that need no collator, checked exhaustively against ICU and inside sorts that mix them with names that do. */
describe('compareNames / sameName for letters, digits, spaces and hyphens, against ICU', () => {
  it('agrees with ICU on every pair of names of up to 3 characters over a b A z 0 9 space hyphen', () => {
    const words = allWords(['a', 'A', 'b', 'z', '0', '9', ' ', '-'], 3);
    let checked = 0;
    for (const a of words) {
      for (const b of words) {
        const want = Math.sign(icu.compare(unpad(a), unpad(b)));
        if (Math.sign(compareNames(a, b)) !== want) assert.fail(`${JSON.stringify(a)} / ${JSON.stringify(b)}: ICU says ${want}`);
        checked++;
      }
    }
    assert.equal(checked, 585 * 585);
  });

  it('hyphen, space and digit edge cases sort as ICU sorts them', () => {
    const cases: [string, string][] = [
      ['a-b', 'a b'],
      ['a-b', 'ab'],
      ['a b', 'ab'],
      ['-a', 'a'],
      ['--', '-'],
      [' a', 'a'],
      ['  a', ' a'],
      ['a  b', 'a b'],
      ['a -', 'a-'],
      ['a-', 'a'],
      ['a- ', 'a-'],
      ['10', '2'],
      ['1-0', '10'],
      ['9', 'a'],
      ['-', '0'],
      ['Z', 'a'],
      ['', '-'],
      ['', ' '],
    ];
    for (const [a, b] of cases) {
      assert.equal(Math.sign(compareNames(a, b)), Math.sign(icu.compare(unpad(a), unpad(b))), `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
      assert.equal(Math.sign(compareNames(b, a)), -Math.sign(compareNames(a, b)) || 0, `antisymmetric: ${JSON.stringify(b)} / ${JSON.stringify(a)}`);
    }
  });

  it('a sort mixing plain names and names that need the collator is one consistent order (sorting any permutation gives the same result)', () => {
    const names = ['a-b', 'a_b', 'a b', 'ab', 'a.b', 'Äb', 'a', 'A ', 'a~', 'a(', '10', '1_0', '1-0', '2', 'é-1', 'e-1', 'E 1', 'z', 'ß', 'ss', '-', '_', ' x', '(x'];
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const key = (list: string[]) => list.map((n) => n.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')).join('|');
    const reference = key([...names].sort((x, y) => icu.compare(unpad(x), unpad(y)) || (x < y ? -1 : x > y ? 1 : 0)));
    for (let round = 0; round < 200; round++) {
      const shuffled = [...names].sort(() => random() - 0.5);
      const got = key(shuffled.sort((x, y) => compareNames(x, y) || (x < y ? -1 : x > y ? 1 : 0)));
      assert.equal(got, reference, `round ${round}`);
    }
    // Transitivity over every triple: a ≤ b and b ≤ c imply a ≤ c.
    for (const a of names) {
      for (const b of names) {
        for (const c of names) {
          if (compareNames(a, b) <= 0 && compareNames(b, c) <= 0) assert.ok(compareNames(a, c) <= 0, `${a} ≤ ${b} ≤ ${c}`);
        }
      }
    }
  });

  it('sameName treats case and trailing spaces as one name, but never a hyphen and a space, or leading and inner spaces', () => {
    assert.equal(sameName('Blog Post', 'blog post  '), true);
    assert.equal(sameName('Blog-Post', 'Blog Post'), false);
    assert.equal(sameName('Blog  Post', 'Blog Post'), false);
    assert.equal(sameName(' Blog', 'Blog'), false);
    assert.equal(sameName('Blog-', 'Blog'), false);
    assert.equal(sameName('1', '01'), false);
  });
});
