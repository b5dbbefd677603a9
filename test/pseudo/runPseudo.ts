/**
 * The pseudo-locale run: a copy of the extension that speaks the pseudo-locale (every string accented, about 30 %
 * longer, marked "[!! … !!]"; test/pseudo/pseudoLocale.ts writes its bundles from the English ones) in a run folder,
 * and VS Code started in that locale (`--locale qps-ploc`, hostRunner's language-pack entry) with the suites of
 * out/test/pseudo in its extension host. They read the screens a test can read (the views' rows, the status bar, the
 * questions, the messages) and fail on English left in them; the screenshots (test-screenshots/pseudo-locale) show
 * what is cut. The repository's l10n/ is never written.
 *
 *   node out/test/pseudo/runPseudo.js [--grep=PATTERN]   (build first: node esbuild.mjs && npx tsc -p tsconfig.test.json)
 *   npm run test:pseudo                                  (builds, then runs it)
 *
 * Env: CONTENT_DOCS_TEST_RESULTS (default <repo>/.test-runs/pseudo-locale-results.json), CONTENT_DOCS_SCREENSHOTS
 * (default <repo>/test-screenshots/pseudo-locale), CONTENT_DOCS_GREP, HARNESS_TIMEOUT / HARNESS_VERBOSE (hostRunner).
 * Exit code: 0 all passed, non-zero otherwise. The run folder is kept when a test failed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { runTests } from '@vscode/test-electron';
import { createRunDir, HarnessNotInstalledError, readHarnessEnv, removeDir, repoRoot } from '../harness/lib';
import { finalizeResultsFile } from '../harness/progress';
import { PSEUDO_LOCALE, writePseudoExtension } from './pseudoLocale';

async function main(): Promise<number> {
  const t0 = Date.now();
  const repo = repoRoot();
  try {
    readHarnessEnv();
  } catch (e) {
    if (e instanceof HarnessNotInstalledError) { console.error(e.message); return 2; }
    throw e;
  }
  // Run from the copy (writePseudoExtension copies out/): the tests share the extension's vscode API object.
  const testsEntry = (extension: string) => path.join(extension, 'out', 'test', 'pseudo', 'index.js');
  for (const [file, what] of [[path.join(repo, 'dist', 'extension.js'), 'the extension bundle'], [testsEntry(repo), 'the compiled pseudo-locale tests']]) {
    if (!fs.existsSync(file)) {
      console.error(`Missing ${what} (${file}). Build first:\n\n    node esbuild.mjs && npx tsc -p tsconfig.test.json\n`);
      return 2;
    }
  }
  const results = path.resolve(process.env.CONTENT_DOCS_TEST_RESULTS || path.join(repo, '.test-runs', 'pseudo-locale-results.json'));
  const screenshots = path.resolve(process.env.CONTENT_DOCS_SCREENSHOTS || path.join(repo, 'test-screenshots', 'pseudo-locale'));
  fs.mkdirSync(path.dirname(results), { recursive: true });
  fs.rmSync(results, { force: true });
  removeDir(screenshots);
  fs.mkdirSync(screenshots, { recursive: true });
  const grep = process.argv.slice(2).find((a) => a.startsWith('--grep='))?.slice('--grep='.length) ?? process.env.CONTENT_DOCS_GREP;

  const runDir = createRunDir('pseudo');
  const extension = writePseudoExtension(repo, runDir);
  const ws = path.join(runDir, 'workspace');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'README.md'), '# Content Docs pseudo-locale workspace\n');
  console.error(`[pseudo-locale] run folder ${runDir}; the extension in ${PSEUDO_LOCALE} at ${extension}`);

  let code: number;
  try {
    code = await runTests({
      vscodeExecutablePath: path.join(repo, 'test', 'harness', 'code-shim'),
      extensionDevelopmentPath: extension,
      extensionTestsPath: testsEntry(extension),
      launchArgs: [ws, '--locale', PSEUDO_LOCALE],
      extensionTestsEnv: { CONTENT_DOCS_TEST_RESULTS: results, CONTENT_DOCS_SCREENSHOTS: screenshots, ...(grep ? { CONTENT_DOCS_GREP: grep } : {}) },
      reuseMachineInstall: true,
    });
  } catch (e) {
    const c = (e as { code?: unknown }).code;
    code = typeof c === 'number' && c !== 0 ? c : 1;
  }
  const r = finalizeResultsFile('pseudo-locale', results, { code, timedOut: code === 3 });
  if (r.failed > 0 && code === 0) code = 1;
  if (code === 0) removeDir(runDir);
  else console.error(`[pseudo-locale] run folder kept: ${runDir}`);
  console.error(`[pseudo-locale] ${r.passed} passed, ${r.failed} failed; exit code ${code}; ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${screenshots}`);
  return code;
}

main().then((code) => process.exit(code), (e) => { console.error('[pseudo-locale] error:', e); process.exit(2); });
