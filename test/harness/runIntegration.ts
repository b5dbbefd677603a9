/**
 * Runs the integration suite (out/test/integration/**\/*.test.js) inside a real VS Code extension host,
 * through the stock @vscode/test-electron `runTests` pointed at test/harness/code-shim.
 * Builds nothing: run `node esbuild.mjs && npx tsc -p tsconfig.test.json` first (npm's pretest does).
 *
 *   node out/test/harness/runIntegration.js [--grep=PATTERN | PATTERN]
 *
 * Env:
 *   CONTENT_DOCS_GREP           mocha grep (the argument wins)
 *   CONTENT_DOCS_TEST_RESULTS   where the suite writes {"passed":n,"failed":m,"failures":[titles]}, after every
 *                               test (default <repo>/.test-runs/integration-results.json); a run that timed out
 *                               or crashed keeps its counts plus one failure naming the test that was running
 *   CONTENT_DOCS_SCREENSHOTS    where screenshot(name) writes PNGs (default <repo>/test-screenshots)
 *   HARNESS_TIMEOUT, HARNESS_VERBOSE   see hostRunner.ts
 * Exit code: 0 all passed, non-zero otherwise.
 */
import * as fs from 'fs';
import * as path from 'path';
import { runTests } from '@vscode/test-electron';
import { createRunDir, HarnessNotInstalledError, readHarnessEnv, removeDir, repoRoot } from './lib';
import { finalizeResultsFile } from './progress';

function grepFromArgs(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--grep=')) return a.slice('--grep='.length);
    if (a === '--grep' || a === '-g') return argv[i + 1];
    if (!a.startsWith('-')) return a;
  }
  return process.env.CONTENT_DOCS_GREP || undefined;
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const repo = repoRoot();
  try {
    readHarnessEnv();
  } catch (e) {
    if (e instanceof HarnessNotInstalledError) { console.error(e.message); return 2; }
    throw e;
  }
  const testsEntry = path.join(repo, 'out', 'test', 'integration', 'index.js');
  const runner = path.join(repo, 'out', 'test', 'harness', 'hostRunner.js');
  for (const [file, what] of [[path.join(repo, 'dist', 'extension.js'), 'the extension bundle'],
    [testsEntry, 'the compiled integration tests'], [runner, 'the compiled host runner']]) {
    if (!fs.existsSync(file)) {
      console.error(`Missing ${what} (${file}). Build first:\n\n    node esbuild.mjs && npx tsc -p tsconfig.test.json\n`);
      return 2;
    }
  }

  const results = path.resolve(process.env.CONTENT_DOCS_TEST_RESULTS || path.join(repo, '.test-runs', 'integration-results.json'));
  const screenshots = path.resolve(process.env.CONTENT_DOCS_SCREENSHOTS || path.join(repo, 'test-screenshots'));
  fs.mkdirSync(path.dirname(results), { recursive: true });
  fs.rmSync(results, { force: true }); // never report a previous run's results
  fs.mkdirSync(screenshots, { recursive: true });
  const grep = grepFromArgs(process.argv.slice(2));

  // A fresh, empty workspace folder for the window to open.
  const ws = createRunDir('ws');
  fs.writeFileSync(path.join(ws, 'README.md'), '# Content Docs integration-test workspace\n');

  const env: Record<string, string> = {
    CONTENT_DOCS_TEST_RESULTS: results,
    CONTENT_DOCS_SCREENSHOTS: screenshots,
  };
  if (grep) env.CONTENT_DOCS_GREP = grep;
  console.error(`[integration] workspace ${ws}${grep ? `, grep ${JSON.stringify(grep)}` : ''}`);

  let code: number;
  try {
    code = await runTests({
      vscodeExecutablePath: path.join(repo, 'test', 'harness', 'code-shim'),
      // Content Docs, and a chat model whose answers the chat suite scripts (test/fixtures/fake-chat-model: tiny,
      // inert while the chat's AI features are off, as they are for every other suite).
      extensionDevelopmentPath: [repo, path.join(repo, 'test', 'fixtures', 'fake-chat-model')],
      extensionTestsPath: testsEntry,
      launchArgs: [ws],
      extensionTestsEnv: env,
      reuseMachineInstall: true, // no --user-data-dir/--extensions-dir under .vscode-test: the runner uses throwaway dirs
    });
  } catch (e) {
    const c = (e as { code?: unknown }).code;
    code = typeof c === 'number' && c !== 0 ? c : 1;
  }
  if (code === 0) removeDir(ws);

  // The counts so far (the suite writes them after every test), final now: a timeout or a crash adds one failure
  // that names the test that was running.
  const r = finalizeResultsFile('integration', results, { code, timedOut: code === 3 });
  let summary = `${r.passed} passed, ${r.failed} failed`;
  if (r.notRun) summary += ` (${r.notRun} not run)`;
  for (const f of code !== 0 ? r.failures.slice(-1) : []) summary += `; last failure: ${f}`;
  if (r.failed > 0 && code === 0) code = 1;
  const why = code === 2 ? ' (harness error)' : code === 3 ? ' (timeout)' : '';
  console.error(`[integration] ${summary}; exit code ${code}${why}; ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${screenshots}`);
  return code;
}

main().then(code => process.exit(code), e => { console.error('[integration] error:', e); process.exit(2); });
