/**
 * The pseudo-locale's generator (test/pseudo/pseudoLocale.ts): every letter accented, about 30 % longer and marked,
 * with what code or VS Code reads (placeholders, codicons, link targets, code spans, line breaks) kept as it is; and
 * the check that finds English left in a text read in it.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { englishIn, hasMarker, pseudo, pseudoBundle, writePseudoExtension } from '../pseudo/pseudoLocale';

const REPO = path.resolve(__dirname, '..', '..', '..');

describe('pseudo-locale generator', () => {
  it('accents every letter, marks the text "[!! … !!]" and makes it at least 30 % longer', () => {
    const p = pseudo('Delete Document');
    assert.match(p, /^\[!! Ðéļéţé Ðöçûɱéñţ.* !!\]$/);
    assert.deepStrictEqual(englishIn(p), []);
    for (const english of ['Delete', 'Load more…', 'The server had a problem (HTTP 503). Try again in a moment.']) {
      assert.ok(pseudo(english).length >= english.length * 1.3, `${pseudo(english)} is 30 % longer than ${english}`);
    }
  });

  it('keeps placeholders, codicons, code spans, addresses, setting ids and line breaks as they are', () => {
    const p = pseudo('$(sync~spin) Loading {0} of {name}…\nSet `contentDocs.pageSize` or see https://example.com/x and #contentDocs.documents.baseUrl#');
    for (const kept of ['$(sync~spin)', '{0}', '{name}', '`contentDocs.pageSize`', 'https://example.com/x', '#contentDocs.documents.baseUrl#']) {
      assert.ok(p.includes(kept), `${kept} is kept in ${p}`);
    }
    assert.strictEqual(p.split('\n').length, 2);
    assert.ok(p.split('\n').every((line) => line.startsWith('[!! ') && line.endsWith(' !!]')), p);
  });

  it('keeps a line that is only a link only a link (a welcome view button), its target as it is', () => {
    const p = pseudo('Sign in to see your SEO projects.\n[Set API Key](command:contentDocs.signIn)');
    const [, button] = p.split('\n');
    assert.match(button, /^\[!! Šéţ ÅÞÎ Ķéý[^\]]* !!\]\(command:contentDocs\.signIn\)$/);
    assert.match(pseudo('Or: [New Document…](command:contentDocs.documentNew) now'), /\(command:contentDocs\.documentNew\)/);
  });

  it('makes a pseudo value of every key of the English bundle and manifest strings', () => {
    for (const file of ['l10n/bundle.l10n.json', 'package.nls.json']) {
      const english = JSON.parse(fs.readFileSync(path.join(REPO, file), 'utf8')) as Record<string, string>;
      const made = pseudoBundle(english);
      assert.deepStrictEqual(Object.keys(made), Object.keys(english));
      for (const [key, value] of Object.entries(made)) {
        assert.ok(hasMarker(value), `${file}: ${key} is marked`);
        assert.deepStrictEqual(englishIn(value), [], `${file}: ${key} has no English left: ${value}`);
        const placeholders = (s: string) => (s.match(/\{[^{}]*\}|\$\([^)]*\)/g) ?? []).sort();
        assert.deepStrictEqual(placeholders(value), placeholders(typeof english[key] === 'string' ? english[key] : ''), `${file}: ${key}`);
      }
    }
  });

  it('finds the English words left once the data is taken out', () => {
    assert.deepStrictEqual(englishIn(`${pseudo('Couldn\'t delete "{0}": {1}')} Launch plan: The server had a problem`, ['Launch plan']), ['The', 'server', 'had', 'problem']);
    assert.deepStrictEqual(englishIn('Article — 3 months ago', ['Article', /\d+ months ago/]), []);
  });

  it('writes the pseudo bundles into a copy of the extension, never into the repository', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pseudo-'));
    try {
      const ext = writePseudoExtension(REPO, dir);
      assert.ok(fs.existsSync(path.join(ext, 'l10n', 'bundle.l10n.qps-ploc.json')));
      assert.ok(fs.existsSync(path.join(ext, 'package.nls.qps-ploc.json')));
      assert.ok(fs.lstatSync(path.join(ext, 'dist')).isDirectory(), 'dist/ is copied (a link would be resolved to the repository)');
      assert.ok(fs.existsSync(path.join(ext, 'dist', 'extension.js')));
      assert.ok(!fs.existsSync(path.join(REPO, 'l10n', 'bundle.l10n.qps-ploc.json')));
      assert.ok(!fs.existsSync(path.join(REPO, 'package.nls.qps-ploc.json')));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
