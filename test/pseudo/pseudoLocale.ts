/**
 * The pseudo-locale: every string of the extension accented and about 30 % longer, marked "[!! … !!]", so that a run
 * in it shows at a glance (and to a test) which text is not translated and which text is cut. Made from the English
 * bundle (l10n/bundle.l10n.json) and the English manifest strings (package.nls.json) into a copy of the extension in
 * a run folder (never into the repository): test/pseudo/runPseudo.ts starts VS Code in it.
 *
 * Kept as they are, because code, VS Code or a person types them: `{0}` / `{name}` placeholders, `$(codicon)`s,
 * backtick spans, Markdown link targets (`](command:…)`; a line that is only a link stays only a link, so a welcome
 * view's button stays a button, and its text carries the marker without brackets: VS Code's link text stops at "]"),
 * addresses (https://…), `#setting#` references, `@content` and `/search`-style chat commands, `<date>`-style tokens,
 * setting ids (contentDocs.…). Line breaks are kept; each line carries its own marker.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The locale id VS Code knows as its pseudo-locale (vscode.env.language in the run). */
export const PSEUDO_LOCALE = 'qps-ploc';

const ACCENTED: Record<string, string> = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'î', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ö', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'û', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Å', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Î', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ö', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Û', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** What the padding is taken from: accented words, so the longer text wraps and is cut as real words are. */
const FILLER = 'ļöŕéɱ îþšûɱ ðöļöŕ šîţ áɱéţ çöñšéçţéţûŕ áðîþîšçîñĝ éļîţ šéð ðö éîûšɱöð ţéɱþöŕ ';

export const MARK_OPEN = '[!! ';
export const MARK_CLOSE = ' !!]';

/** Tokens kept as they are (see the file's comment), in the order they are tried. */
const KEPT = new RegExp(
  [
    '\\]\\((?:command|https?|file):[^)]*\\)', // a Markdown link's target
    '\\{[^{}]*\\}', // {0}, {name}
    '\\$\\([^)]*\\)', // $(sync~spin)
    '`[^`]*`', // `contentDocs.pageSize`
    'https?://[^\\s)]*', // addresses
    '#[\\w.]+#', // #contentDocs.documents.baseUrl#
    '(?<![\\w/.])[@/][a-z][\\w-]*', // @content, /search
    '<[a-z]+>', // <date>
    '\\bcontentDocs\\.[\\w.]+', // setting and command ids
  ].join('|'),
  'g',
);

/** The letters of `text` accented; the KEPT tokens as they are. */
export function accent(text: string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(KEPT)) {
    out += [...text.slice(at, m.index)].map((c) => ACCENTED[c] ?? c).join('') + m[0];
    at = m.index + m[0].length;
  }
  return out + [...text.slice(at)].map((c) => ACCENTED[c] ?? c).join('');
}

/** Filler that makes `text` (length n) about 30 % longer together with the marker (`markerLength` characters). */
function padding(n: number, markerLength: number): string {
  const want = Math.max(0, Math.ceil(n * 0.3) - markerLength);
  if (!want) return '';
  let pad = '';
  while (pad.length < want) pad += FILLER;
  return ` ${pad.slice(0, want).trimEnd()}`;
}

const LINK = /\[([^\]]*)\]\(([^)]*)\)/g;

/** One line: accented, padded and marked; a Markdown link's target kept, its text marked without brackets. */
function pseudoLine(line: string): string {
  if (!line.trim()) return line;
  const onlyLink = /^\[[^\]]*\]\([^)]*\)$/.test(line.trim());
  const links = (s: string) => s.replace(LINK, (_m, label: string, target: string) => `[!! ${accent(label)}${padding(label.length, 6)} !!](${target})`);
  if (onlyLink) return links(line);
  // The rest of a line with links: accented around them, the whole line marked and padded.
  let body = '';
  let at = 0;
  for (const m of line.matchAll(LINK)) {
    body += accent(line.slice(at, m.index)) + links(m[0]);
    at = m.index + m[0].length;
  }
  body += accent(line.slice(at));
  return `${MARK_OPEN}${body}${padding(line.length, MARK_OPEN.length + MARK_CLOSE.length)}${MARK_CLOSE}`;
}

/** A string of the pseudo-locale: each line accented, about 30 % longer and marked "[!! … !!]". */
export function pseudo(text: string): string {
  return text.split('\n').map(pseudoLine).join('\n');
}

type BundleValue = string | { message: string; comment?: string | string[] };

/** A bundle (l10n or package.nls) with every value made pseudo (a `{ message, comment }` value gives its message). */
export function pseudoBundle(english: Record<string, BundleValue>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(english)) out[key] = pseudo(typeof value === 'string' ? value : value.message);
  return out;
}

/**
 * A copy of the extension at `repo` in `<dir>/content-docs` that speaks the pseudo-locale: its folders and files
 * linked to the repository's, except dist/ and out/ (copied: Node resolves a linked module to the repository, where
 * VS Code cannot tell whose `require('vscode')` it is, and hands it an API object of no extension: the extension's
 * has no l10n bundle then, and the tests', run from the copy's out/, must be the extension's own to watch what it
 * shows), l10n/ (a folder of its own:
 * links to the bundles, and bundle.l10n.qps-ploc.json written) and package.nls.qps-ploc.json (written). Returns the
 * copy's folder.
 */
export function writePseudoExtension(repo: string, dir: string, locale = PSEUDO_LOCALE): string {
  const ext = path.join(dir, 'content-docs');
  fs.mkdirSync(path.join(ext, 'l10n'), { recursive: true });
  for (const entry of fs.readdirSync(repo)) {
    if (entry === 'l10n' || entry.startsWith('.') || entry === 'test-screenshots') continue;
    if (entry === 'dist' || entry === 'out') fs.cpSync(path.join(repo, entry), path.join(ext, entry), { recursive: true, dereference: true });
    else fs.symlinkSync(path.join(repo, entry), path.join(ext, entry));
  }
  for (const entry of fs.readdirSync(path.join(repo, 'l10n'))) fs.symlinkSync(path.join(repo, 'l10n', entry), path.join(ext, 'l10n', entry));
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(repo, file), 'utf8')) as Record<string, BundleValue>;
  fs.writeFileSync(path.join(ext, 'l10n', `bundle.l10n.${locale}.json`), JSON.stringify(pseudoBundle(read('l10n/bundle.l10n.json')), null, 2));
  fs.writeFileSync(path.join(ext, `package.nls.${locale}.json`), JSON.stringify(pseudoBundle(read('package.nls.json')), null, 2));
  return ext;
}

/**
 * The English words (two ASCII letters or more) left in `text` read in the pseudo-locale, once the data in it is taken
 * out: `data` (document and template names, the server's own sentences, addresses: exact strings, or patterns) and
 * the tokens the pseudo-locale keeps as they are. Everything the extension translates is accented there, so what is
 * left is text that never went through the bundle.
 */
export function englishIn(text: string, data: ReadonlyArray<string | RegExp> = []): string[] {
  return withoutData(text, data).match(/[A-Za-z]{2,}/g) ?? [];
}

/** `text` with `data` and the tokens the pseudo-locale keeps taken out (each replaced by a space). */
export function withoutData(text: string, data: ReadonlyArray<string | RegExp> = []): string {
  let rest = text;
  const strings = data.filter((d): d is string => typeof d === 'string' && d.length > 0).sort((a, b) => b.length - a.length);
  for (const d of strings) rest = rest.split(d).join(' ');
  for (const d of data) if (d instanceof RegExp) rest = rest.replace(new RegExp(d.source, d.flags.includes('g') ? d.flags : `${d.flags}g`), ' ');
  return rest.replace(KEPT, ' ');
}

/**
 * Whether `text` carries the pseudo-locale's marker (some of it went through the bundle), or is data alone (no letter
 * left once `data` is taken out: a project's name as its row's label).
 */
export function markedOrData(text: string, data: ReadonlyArray<string | RegExp> = []): boolean {
  return hasMarker(text) || !/\p{L}/u.test(withoutData(text, data));
}

/** Whether `text` carries the pseudo-locale's marker (some of it went through the bundle). */
export function hasMarker(text: string): boolean {
  return text.includes('!!');
}
