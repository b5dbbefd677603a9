// The strings in every language: scripts/l10n.mjs check, run the way `npm run l10n:check` runs it, reads the code's
// vscode.l10n.t strings (@vscode/l10n-dev's extraction) and every bundle; each list it returns must be empty.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkBaseUrl } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import type { AccountInfo } from '../../src/api/schemas';
import { figureLine, statusText } from '../../src/model/usageFormat';
import { describeError } from '../../src/util/errors';
import { format, l10n, useVscodeL10n, type Translator } from '../../src/util/l10n';

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts', 'l10n.mjs');

interface CheckResult {
  stale: string[];
  missing: string[];
  unused: string[];
  placeholders: string[];
  dynamic: string[];
}

/** Runs a snippet of ES module code beside scripts/l10n.mjs and returns what it printed, parsed. */
function evalModule<T>(code: string): T {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import * as l10n from ${JSON.stringify(new URL(`file://${SCRIPT}`).href)};\n${code}`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

describe('l10n: every string in every language', function () {
  this.timeout(60_000);
  let result: CheckResult;
  let status: number | null;

  before(() => {
    const r = spawnSync(process.execPath, [SCRIPT, 'check'], { cwd: ROOT, encoding: 'utf8' });
    assert.ok(r.stdout, `scripts/l10n.mjs check printed nothing: ${r.stderr}`);
    result = JSON.parse(r.stdout) as CheckResult;
    status = r.status;
  });

  it('the English bundle is what the code says (npm run l10n:export leaves it unchanged)', () => {
    assert.deepEqual(result.stale, []);
  });

  it('every l10n.t message is a literal string the export can see', () => {
    assert.deepEqual(result.dynamic, []);
  });

  it('every language has every key of the English bundle and of package.nls.json', () => {
    assert.deepEqual(result.missing, []);
  });

  it('no language keeps a key the English no longer has', () => {
    assert.deepEqual(result.unused, []);
  });

  it("every translation keeps the English text's placeholders and codicons", () => {
    assert.deepEqual(result.placeholders, []);
  });

  it('the check exits 0 exactly when every list is empty', () => {
    const clean = Object.values(result).every((list: string[]) => list.length === 0);
    assert.equal(status, clean ? 0 : 1);
  });

  it('the languages are the eight of README "Languages", each with its two files', () => {
    const languages = evalModule<string[]>('console.log(JSON.stringify(l10n.LANGUAGES));');
    assert.deepEqual(languages, ['de', 'es', 'fr', 'it', 'ja', 'ko', 'pt-br', 'zh-cn']);
    for (const lang of languages) {
      assert.ok(fs.existsSync(path.join(ROOT, 'l10n', `bundle.l10n.${lang}.json`)), `l10n/bundle.l10n.${lang}.json`);
      assert.ok(fs.existsSync(path.join(ROOT, `package.nls.${lang}.json`)), `package.nls.${lang}.json`);
    }
  });

  it('the comparison finds a missing key, an unused key and a changed placeholder or codicon', () => {
    const p = evalModule<{ missing: string[]; unused: string[]; placeholders: string[] }>(
      `console.log(JSON.stringify(l10n.compare('x.json',
        { 'a {0}': 'a {0}', 'b': 'b', '$(key) c': '$(key) c', 'd {0} {1}': 'd {0} {1}' },
        { 'a {0}': 'A {1}', '$(key) c': '$(lock) C', 'd {0} {1}': 'D {1} {0}', 'old': 'Alt' })));`,
    );
    assert.deepEqual(p.missing, ['x.json: "b"']);
    assert.deepEqual(p.unused, ['x.json: "old"']);
    assert.equal(p.placeholders.length, 2, p.placeholders.join('\n'));
    assert.match(p.placeholders[0], /"a \{0\}" has \{1\}, English \{0\}/);
    assert.match(p.placeholders[1], /"\$\(key\) c" has \$\(lock\), English \$\(key\)/);
  });
});

describe("l10n: the vscode-free code's sentences follow VS Code's display language", () => {
  // What activate() hands over, standing in for vscode.l10n: a "translation" that marks the sentence and fills it.
  const german: Translator = { t: (message, ...args) => `[de] ${format(message, args)}`, language: 'de' };
  afterEach(() => useVscodeL10n(undefined));

  it('outside VS Code, l10n.t fills the English sentence: numbered and named placeholders', () => {
    assert.equal(l10n.t('The server did not answer within {0} seconds.', 30), 'The server did not answer within 30 seconds.');
    assert.equal(l10n.t('{a} of {b}', { a: 1, b: 2 }), '1 of 2');
    assert.equal(l10n.language, 'en');
  });

  it("an API error's sentence is the display language's once VS Code's l10n is handed over", () => {
    useVscodeL10n(german);
    assert.throws(() => checkBaseUrl('http://example.com'), (e: Error) => e.message.startsWith('[de] The server address http://example.com uses http://'));
    useVscodeL10n(undefined);
    assert.throws(() => checkBaseUrl('http://example.com'), (e: Error) => e.message.startsWith('The server address http://example.com uses http://'));
  });

  it('describeError joins the action and the cause in the display language, lower-casing the cause only in English', () => {
    const e = new ApiError('timeout', 'The server did not answer within 30 seconds.');
    assert.equal(describeError("Couldn't save", e), "Couldn't save: the server did not answer within 30 seconds.");
    useVscodeL10n(german);
    assert.equal(describeError('Speichern fehlgeschlagen', new ApiError('timeout', 'Der Server hat nicht geantwortet.')), '[de] Speichern fehlgeschlagen: Der Server hat nicht geantwortet.');
  });

  it("the status bar's figures are written as the display language writes numbers", () => {
    const info = { month: { words: 12_345 }, limits: { words: 50_000 }, total: {} } as unknown as AccountInfo;
    assert.equal(statusText(info), '$(sparkle) 12.3k / 50k words');
    useVscodeL10n(german);
    assert.equal(statusText(info), '[de] $(sparkle) 12,3k / 50k words');
    assert.equal(figureLine(info, 'words'), '[de] 12.345 of 50.000 (24 %)');
  });
});
