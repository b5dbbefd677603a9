/**
 * Name order, name equality and search checked against MariaDB itself (Debian's mariadb-server, as behind the real
 * servers): a few thousand seeded names in a `utf8mb4_unicode_ci` column, `ORDER BY name` ranks and `LIKE` results
 * compared with the client's provable order (serverOrder, sameName) and with the sandbox's collation. A missing
 * MariaDB fails this suite (test/harness/install.sh installs it).
 */
import assert from 'node:assert/strict';
import { serverOrder, sameName } from '../../src/api/collation';
import { TEMPLATES } from '../../src/api/templates';
import { startMariaDb, sqlString, type MariaDb } from '../kit/mariadb';
import { collationKey, compareKeys, likeMatcher } from '../sandbox/collation';
import { mulberry32 } from '../sandbox/seed';

const SEED = 18;
const COUNT = 3000;

const PLAIN = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', ' ', ' ', '-'];
const POOLS: string[][] = [
  PLAIN,
  // Accented letters, precomposed and combining, and letters the collation keeps apart or expands.
  [...'éÉèêëàáâäåãçñöüïîôõúùûýÿÄÖÜÇŞşğĞžŽšŠ', 'e\u0301', 'a\u0308', '\u0301', '\u0327'],
  [...'æÆøØłŁðÐđĐþÞßœŒĳİıǅǆ', '\u1e9e', '\ufb01', '\ufb02', '\u2126', '\u212b', '\u0238'],
  // Quotes, punctuation and symbols.
  [...'\'‘’"“”«»`^_-@©®~()[]{}<>.,;:!?/\\|#$%&*+=—–·¶§°'],
  // Digits of other kinds.
  [...'½²³¹٣۴०১'],
  // Symbols and emoji: BMP ones Unicode 4.0 had or not, and supplementary ones (all weigh the same).
  ['✨', '⭐', '❤', '☕', '✅', '⌚', '☃', '\u2b55', '😀', '🚀', '👍', '👍🏽', '🎉', '𝒜', '𠀀', '🀄', '\ufffd'],
  // CJK, kana, Hangul (syllables and jamo), other scripts.
  [...'中文日本漢字한국어가あアᄀαΩдЖאبกเक्ไ'],
  // White space and invisible characters inside names.
  ['\t', '\u00a0', '\u3000', '\u200b', '\ufeff', '\n'],
];

/** Names the contract names, then seeded random ones, some of them variants of others (case, accents, padding). */
function generateNames(): string[] {
  const random = mulberry32(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const names = [
    ...['ae', 'af', 'æ', 'lz', 'ł', 'oz', 'ø', 'đ', 'ð', 'þ', 'z', '`', '^', '_', '-', "'", '‘', '"', '“', '©', '@'],
    ...['a\t', 'a', 'a ', 'A  ', 'Straße', 'Strasse', 'İ', 'i', 'ﬁ', 'fi', '✨', '⭐', '😀', '🚀', '👍🏽', '中', '한'],
    ...['Café ', 'cafe', 'CAFÉ', '10', '2', '🚀 Launch plan', 'Solar panels', 'solar panels', 'Solar  panels'],
    ...TEMPLATES.map((t) => t.name),
  ];
  const variant = (s: string): string => {
    switch (Math.floor(random() * 5)) {
      case 0:
        return s.toUpperCase();
      case 1:
        return s.toLowerCase();
      case 2:
        return s.replace(/[aeiou]/, (c) => ({ a: 'á', e: 'é', i: 'î', o: 'ö', u: 'ü' })[c] ?? c);
      case 3:
        return `${s}${' '.repeat(1 + Math.floor(random() * 3))}`;
      default:
        return s.normalize('NFD');
    }
  };
  while (names.length < COUNT) {
    const r = random();
    if (r < 0.15 && names.length > 0) {
      names.push(variant(pick(names)));
      continue;
    }
    const plain = r < 0.45;
    const length = 1 + Math.floor(random() * 10);
    let s = '';
    for (let i = 0; i < length; i++) s += pick(plain || random() < 0.5 ? PLAIN : pick(POOLS));
    if (random() < 0.1) s += ' '.repeat(1 + Math.floor(random() * 2));
    names.push(s);
  }
  return names;
}

/** Search terms: pieces of names, changed in case and accents, with wildcards, escapes and expansions. */
function generateTerms(names: readonly string[]): string[] {
  const random = mulberry32(SEED + 1);
  const terms = ['Strasse', 'straße', 'ss', 'ß', 'cafe', 'CAFÉ', 'e\u0301', 'é', '\u0301', 'ae', 'æ', 'o', 'ø', 'fi', 'ﬁ'];
  terms.push('😀', '😃', '🚀', '✨', '中', '한', '\\%', '\\_', '%', '_', 'a_b', 'a%b', '\\\\', '\\', 'a\\', "'", '‘', '"', '\t', ' ', 'i', 'İ');
  while (terms.length < 400) {
    const chars = Array.from(names[Math.floor(random() * names.length)].trim());
    if (chars.length === 0) continue;
    const at = Math.floor(random() * chars.length);
    let term = chars.slice(at, at + 1 + Math.floor(random() * 3)).join('');
    const r = random();
    if (r < 0.2) term = term.toUpperCase();
    else if (r < 0.3) term = term.normalize('NFD');
    else if (r < 0.4) term = term.replace(/[aeiou]/g, (c) => ({ a: 'à', e: 'ê', i: 'ï', o: 'ô', u: 'û' })[c] ?? c);
    else if (r < 0.45) term = `${term}_`;
    else if (r < 0.5) term = `${term}%${chars[chars.length - 1]}`;
    terms.push(term);
  }
  return terms;
}

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);
const show = (s: string) => JSON.stringify(s);

describe('name order and search against MariaDB (utf8mb4_unicode_ci, the real servers\' collation)', function () {
  this.timeout(120_000);
  let db: MariaDb | undefined;
  const names = generateNames();
  /** Dense rank of each name under `ORDER BY name`: equal ranks are equal names. */
  let rank: number[] = [];
  let pairs = 0;

  before(async () => {
    const started = Date.now();
    db = await startMariaDb();
    const ms = Date.now() - started;
    await db.query('CREATE TABLE n (id INT PRIMARY KEY, name VARCHAR(300) NOT NULL) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;');
    for (let i = 0; i < names.length; i += 500) {
      const rows = names.slice(i, i + 500).map((name, j) => `(${i + j}, ${sqlString(name)})`);
      await db.query(`INSERT INTO n (id, name) VALUES ${rows.join(', ')};`);
    }
    const stored = await db.query('SELECT id, HEX(name) FROM n ORDER BY id;');
    const sent = names.map((name, id) => [String(id), Buffer.from(name, 'utf8').toString('hex').toUpperCase()]);
    assert.deepEqual(stored, sent, 'every name stored as it was sent');
    rank = new Array<number>(names.length);
    for (const [id, r] of await db.query('SELECT id, DENSE_RANK() OVER (ORDER BY name) FROM n;')) rank[Number(id)] = Number(r);
    pairs = (names.length * (names.length - 1)) / 2;
    console.log(`      MariaDB ${db.version} started in ${ms} ms; ${names.length} names (seed ${SEED}), ${pairs} pairs`);
  });

  after(async () => {
    await db?.stop();
  });

  it('the ranks are MariaDB\'s own comparisons (checked on a sample of pairs with STRCMP)', async () => {
    assert.ok(db);
    const rows = await db.query('SELECT a.id, b.id, STRCMP(a.name, b.name) FROM n a JOIN n b ON a.id < b.id WHERE a.id % 41 = 0 AND b.id % 37 = 0;');
    assert.ok(rows.length > 1000, `${rows.length} sampled pairs`);
    for (const [a, b, cmp] of rows) assert.equal(sign(rank[Number(a)] - rank[Number(b)]), Number(cmp), `${show(names[Number(a)])} / ${show(names[Number(b)])}`);
    // The contract's examples hold on this MariaDB (so the names above test what the contract says).
    const r = (s: string) => rank[names.indexOf(s)];
    assert.ok(r('ae') < r('af') && r('af') < r('æ') && r('lz') < r('ł') && r('oz') < r('ø') && r('đ') < r('ð') && r('z') < r('þ'));
    assert.ok(r('`') < r('_') && r('^') < r('_') && r("'") < r('‘') && r('"') < r('“') && r('©') < r('@'));
    assert.ok(r('a\t') < r('a') && r('a') === r('a ') && r('Straße') === r('Strasse') && r('İ') === r('i') && r('ﬁ') === r('fi'));
    // Characters without a UCA 4.0.0 weight weigh by code point after every letter: CJK ideographs first, then the
    // rest (✨ U+2728 and ⭐ U+2B50 before Hangul syllables); every supplementary character weighs the same, last
    // (`👍🏽` is two of them).
    assert.ok(r('z') < r('中') && r('中') < r('✨') && r('✨') < r('⭐') && r('⭐') < r('한') && r('한') < r('😀'));
    assert.ok(r('😀') === r('🚀') && r('🚀') < r('👍🏽'), '👍🏽 is two characters, each weighing as 😀');
  });

  it('serverOrder never disagrees with MariaDB where it answers, and abstains on every pair MariaDB holds equal', () => {
    let answered = 0;
    const wrong: string[] = [];
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const got = serverOrder(names[i], names[j]);
        const want = sign(rank[i] - rank[j]);
        if (got === undefined) continue;
        answered++;
        if (want === 0 || sign(got) !== want) wrong.push(`${show(names[i])} / ${show(names[j])}: ${got}, MariaDB ${want}`);
      }
    }
    console.log(`      serverOrder answered ${answered} of ${pairs} pairs`);
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} disagreements`);
    assert.ok(answered > pairs / 20, 'it answers for plain names');
  });

  it('sameName agrees with MariaDB\'s equality wherever it answers', () => {
    let answered = 0;
    let equal = 0;
    const wrong: string[] = [];
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const got = sameName(names[i], names[j]);
        const want = rank[i] === rank[j];
        if (want) equal++;
        if (got === undefined) continue;
        answered++;
        if (got !== want) wrong.push(`${show(names[i])} / ${show(names[j])}: ${got}, MariaDB ${want}`);
      }
    }
    console.log(`      sameName answered ${answered} of ${pairs} pairs (${equal} pairs equal to MariaDB)`);
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} disagreements`);
  });

  it('the sandbox orders every pair exactly as MariaDB does, equal ones included', () => {
    const keys = names.map(collationKey);
    const wrong: string[] = [];
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const got = sign(compareKeys(keys[i], keys[j]));
        const want = sign(rank[i] - rank[j]);
        if (got !== want) wrong.push(`${show(names[i])} / ${show(names[j])}: sandbox ${got}, MariaDB ${want}`);
      }
    }
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} disagreements`);
  });

  it('the sandbox\'s search (LIKE \'%term%\') finds exactly what MariaDB finds', async () => {
    assert.ok(db);
    const terms = generateTerms(names);
    const sql = terms.map((t) => `SELECT COALESCE(GROUP_CONCAT(id ORDER BY id), '') FROM n WHERE name LIKE ${sqlString(`%${t}%`)};`);
    const rows = await db.query(sql.join('\n'));
    assert.equal(rows.length, terms.length);
    const wrong: string[] = [];
    let found = 0;
    terms.forEach((term, k) => {
      const want = rows[k][0] === '' ? [] : rows[k][0].split(',').map(Number);
      const like = likeMatcher(`%${term}%`);
      const got = names.flatMap((name, id) => (like(name) ? [id] : []));
      found += want.length;
      if (got.join(',') !== want.join(',')) {
        const extra = got.filter((id) => !want.includes(id)).map((id) => show(names[id]));
        const missing = want.filter((id) => !got.includes(id)).map((id) => show(names[id]));
        wrong.push(`${show(term)}: sandbox also finds ${extra.slice(0, 3).join(' ')}; misses ${missing.slice(0, 3).join(' ')}`);
      }
    });
    console.log(`      ${terms.length} search terms over ${names.length} names: ${found} matches`);
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} terms disagree`);
    // The contract's cases.
    assert.equal(likeMatcher('%Strasse%')('Straße'), false);
    assert.equal(likeMatcher('%cafe%')('Café crème'), true);
  });
});
