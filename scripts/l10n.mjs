#!/usr/bin/env node
// The extension's strings in every language (README "Languages", docs/l10n-glossary.md).
//
//   node scripts/l10n.mjs export   writes l10n/bundle.l10n.json, the English bundle, from the code: every
//                                  `vscode.l10n.t('…')` in src/ (npm run l10n:export)
//   node scripts/l10n.mjs check    prints what is wrong as JSON and exits 1 when anything is (npm run l10n:check;
//                                  test/unit/l10n.test.ts runs it in `npm test`):
//     - stale:        the code has a string the English bundle lacks, or the bundle has one the code no longer uses
//                     (run the export, then translate what it added)
//     - missing / unused:  a language's bundle (l10n/bundle.l10n.<lang>.json) or manifest strings
//                     (package.nls.<lang>.json) lacks a key of the English one, or has a key it no longer has
//     - placeholders: a translation whose {0}/{name} placeholders or $(codicon)s differ from the English text's
//     - dynamic:      a `l10n.t(…)` whose message is not a literal string (the export cannot see it)
//     - untranslated languages: one of LANGUAGES without both files
//   node scripts/l10n.mjs candidates [folder]   lists string literals outside l10n.t that read like words for a
//                                  person (a guess, for the next pass of wrapping: log lines, comments, imports,
//                                  object keys and comparisons are left out), and counts them per folder
//
// The extraction is @vscode/l10n-dev's (getL10nJson, the same as `l10n-dev export`). Its query knows
// `import * as vscode from 'vscode'` but not the `import vscode = require('vscode')` every source file here uses
// (esbuild.mjs says why), so the sources are handed to it with that one line rewritten; and the vscode-free code's
// `import { l10n } from '../util/l10n'` (src/util/l10n.ts) is handed to it as an import of @vscode/l10n.
import { getL10nJson } from '@vscode/l10n-dev';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const L10N = path.join(ROOT, 'l10n');
const ENGLISH = path.join(L10N, 'bundle.l10n.json');

/** The languages the extension ships, as VS Code names them (vscode.env.language). */
export const LANGUAGES = ['de', 'es', 'fr', 'it', 'ja', 'ko', 'pt-br', 'zh-cn'];

function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out.sort();
}

const IMPORT_REQUIRE = /^import\s+(\w+)\s*=\s*require\(\s*(['"])(vscode|@vscode\/l10n)\2\s*\);?/gm;
/** src/util/l10n.ts, the vscode-free code's l10n.t (it is vscode.l10n.t inside VS Code): read as @vscode/l10n's. */
const OWN_L10N = /^(import\s*\{[^}]*\bl10n\b[^}]*\}\s*from\s*)(['"])(?:\.\.?\/)+(?:util\/)?l10n\2/gm;
/** A call of l10n.t whose first argument is not a plain string or a template without substitutions. */
const DYNAMIC_CALL = /\bl10n\.t\(\s*(\S[^\n]{0,60})/g;
const LITERAL = /^(['"]|`[^`$]*`|\{\s*message\s*:|\{$)/;

/** The English bundle as the code says it, in the order of the files and calls. */
export async function extract() {
  const files = sourceFiles(SRC).map((file) => {
    const contents = fs
      .readFileSync(file, 'utf8')
      .replace(IMPORT_REQUIRE, (_m, name, _q, mod) => `import * as ${name} from '${mod}';`)
      .replace(OWN_L10N, (_m, head) => `${head}'@vscode/l10n'`);
    return { file, contents, extension: path.extname(file) };
  });
  const dynamic = [];
  for (const f of files) {
    for (const m of f.contents.matchAll(DYNAMIC_CALL)) {
      if (LITERAL.test(m[1])) continue;
      const line = f.contents.slice(0, m.index).split('\n').length;
      dynamic.push(`${path.relative(ROOT, f.file)}:${line}: l10n.t(${m[1].trim()}…`);
    }
  }
  const bundle = await getL10nJson(files.map(({ contents, extension }) => ({ contents, extension })));
  return { bundle, dynamic };
}

function readJson(file) {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

/** A bundle's value is a string, or { message, comment } for a string with a translator's note. */
const text = (v) => (typeof v === 'string' ? v : v && typeof v.message === 'string' ? v.message : '');

/** The placeholders and codicons of a text, sorted: {0} and {1} may change places in a translation. */
export function marks(s) {
  return [...s.matchAll(/\{[^{}\s]+\}|\$\([\w~-]+\)/g)].map((m) => m[0]).sort();
}

/** How `translated` falls short of `english`: each problem one line naming the file and the key. */
export function compare(name, english, translated) {
  const problems = { missing: [], unused: [], placeholders: [] };
  if (!translated) {
    problems.missing.push(`${name}: the file is missing`);
    return problems;
  }
  for (const [key, value] of Object.entries(english)) {
    if (!(key in translated)) problems.missing.push(`${name}: ${JSON.stringify(key)}`);
    else if (marks(text(value)).join(' ') !== marks(text(translated[key])).join(' ')) {
      problems.placeholders.push(`${name}: ${JSON.stringify(key)} has ${marks(text(translated[key])).join(' ') || 'none'}, English ${marks(text(value)).join(' ') || 'none'}`);
    }
  }
  for (const key of Object.keys(translated)) if (!(key in english)) problems.unused.push(`${name}: ${JSON.stringify(key)}`);
  return problems;
}

export async function check() {
  const { bundle, dynamic } = await extract();
  const english = readJson(ENGLISH) ?? {};
  const result = { stale: [], missing: [], unused: [], placeholders: [], dynamic };
  for (const key of Object.keys(bundle)) if (!(key in english)) result.stale.push(`l10n/bundle.l10n.json lacks ${JSON.stringify(key)} (npm run l10n:export)`);
  for (const key of Object.keys(english)) if (!(key in bundle)) result.stale.push(`l10n/bundle.l10n.json has ${JSON.stringify(key)}, which the code no longer uses (npm run l10n:export)`);
  const nls = readJson(path.join(ROOT, 'package.nls.json'));
  for (const lang of LANGUAGES) {
    for (const [name, base] of [
      [`l10n/bundle.l10n.${lang}.json`, bundle],
      [`package.nls.${lang}.json`, nls],
    ]) {
      const p = compare(name, base, readJson(path.join(ROOT, name)));
      for (const k of Object.keys(p)) result[k].push(...p[k]);
    }
  }
  return result;
}

/** String literals that look like sentences for a person and are not the message of an l10n.t call. */
export async function candidates(only) {
  const ts = (await import('typescript')).default;
  const found = [];
  for (const file of sourceFiles(only ? path.resolve(ROOT, only) : SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node)) return;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
        const raw = ts.isTemplateExpression(node) ? node.getText(sf).slice(1, -1).replace(/\$\{[^}]*\}/g, '{}') : node.text;
        const parent = node.parent;
        const call = ts.isCallExpression(parent) ? parent.expression.getText(sf) : '';
        const skip =
          /(^|\.)l10n\.t$|^log\.|\.log\.|^console\.|\.(debug|info|warn|trace|error)$|require$|executeCommand$|getConfiguration$|setContext|startsWith$|endsWith$|includes$|match$|test$|replace$|split$|join$/.test(call) ||
          (ts.isPropertyAssignment(parent) && parent.name === node) ||
          (ts.isBinaryExpression(parent) && /^(===|!==|==|!=)$/.test(parent.operatorToken.getText(sf))) ||
          ts.isCaseClause(parent) || ts.isElementAccessExpression(parent);
        // Words for a person: two words or more with letters, not an identifier, path, URL, setting id or MIME type.
        if (!skip && /[A-Za-z]{2,}[^\n]*\s[^\n]*[A-Za-z]{2,}/.test(raw) && !/^[\w.\-/:]+$/.test(raw) && !/^(https?:|\[|\/|#)/.test(raw) && !/^[a-z]+(\.[a-zA-Z]+)+$/.test(raw)) {
          const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
          found.push({ file: path.relative(ROOT, file), line: line + 1, text: raw.slice(0, 100) });
        }
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

const command = process.argv[2];
if (command === 'export') {
  const { bundle } = await extract();
  fs.mkdirSync(L10N, { recursive: true });
  fs.writeFileSync(ENGLISH, JSON.stringify(bundle, null, 2) + '\n');
  console.log(`[l10n] ${path.relative(ROOT, ENGLISH)}: ${Object.keys(bundle).length} strings`);
} else if (command === 'check') {
  const result = await check();
  console.log(JSON.stringify(result, null, 2));
  process.exit(Object.values(result).some((list) => list.length) ? 1 : 0);
} else if (command === 'candidates') {
  const found = await candidates(process.argv[3]);
  const perFolder = {};
  for (const f of found) {
    const folder = path.dirname(f.file);
    perFolder[folder] = (perFolder[folder] ?? 0) + 1;
    if (process.argv.includes('--list')) console.log(`${f.file}:${f.line}: ${f.text}`);
  }
  for (const [folder, n] of Object.entries(perFolder).sort()) console.log(`${String(n).padStart(4)}  ${folder}`);
  console.log(`${String(found.length).padStart(4)}  in all (a guess: strings outside l10n.t that read like words; --list shows them)`);
} else if (command !== undefined) {
  console.error('usage: node scripts/l10n.mjs export|check|candidates [folder] [--list]');
  process.exit(2);
}
