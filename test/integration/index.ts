/**
 * Mocha entry point loaded by the extension host (`--extensionTestsPath`). Runs every
 * `*.test.js` under out/test/integration (BDD: describe/it), spec reporter, 60 s per test.
 * Env: CONTENT_DOCS_GREP (mocha grep), CONTENT_DOCS_TEST_RESULTS (file that receives the progress after
 * every test and hook: {"passed","failed","failures":[full titles],"total","running","finished"}, see
 * test/harness/progress.ts; the runner's watchdog reads it, and a run that hangs keeps its counts).
 */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import { ProgressWriter } from '../harness/progress';

/**
 * The suites that run before all others, by declaration: activation checks that nothing of Content Docs ran before it, in a
 * fresh window; Getting Started reads the extension's walkthrough on the Welcome page, which VS Code drops once the chat's
 * AI features are turned on and off again (as the chat suites do).
 */
export const FIRST = ['activation.test.js', 'walkthrough.test.js'];

/** The test files in the order they run: {@link FIRST}, then the rest sorted by path. */
export function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(full));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(full);
  }
  const rank = (f: string) => {
    const i = FIRST.indexOf(path.relative(dir, f));
    return i < 0 ? FIRST.length : i;
  };
  return out.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Follows a mocha run into `progress`: what runs now, the counts, the total once known, the end. */
export function track(runner: Mocha.Runner, progress: ProgressWriter): void {
  progress.setTotal(runner.total);
  runner.on('test', (test) => progress.startTest(test.fullTitle(), test.timeout()));
  runner.on('hook', (hook) => progress.startHook(hook.fullTitle(), hook.timeout()));
  runner.on('hook end', () => progress.endHook());
  runner.on('pass', (test) => progress.pass(test.fullTitle()));
  runner.on('fail', (test) => progress.fail(test.fullTitle()));
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 60_000, color: false });
  const grep = process.env.CONTENT_DOCS_GREP;
  if (grep) mocha.grep(grep);
  for (const file of findTests(__dirname)) mocha.addFile(file);

  const progress = new ProgressWriter(process.env.CONTENT_DOCS_TEST_RESULTS);
  const results = progress.progress;
  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        progress.finish();
        if (failures > 0 || results.failed > 0) reject(new Error(`${Math.max(failures, results.failed)} integration test(s) failed.`));
        else resolve();
      });
      track(runner, progress);
      // Said at once as well as in mocha's summary: a run stopped by its watchdog never reaches the summary.
      runner.on('fail', (test, err: Error | undefined) => console.error(`  ✗ ${test.fullTitle()}: ${String(err?.message ?? err).split('\n')[0]}`));
    } catch (e) {
      // A test file failed to load (syntax error, missing module...).
      progress.fail(`loading the integration tests: ${(e as Error)?.message ?? e}`);
      progress.finish();
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
