/**
 * Mocha entry point of the pseudo-locale run (test/pseudo/runPseudo.ts starts VS Code in the pseudo-locale with this
 * as `--extensionTestsPath`): every `*.test.js` of out/test/pseudo, spec reporter, 60 s per test, the progress written
 * as the integration suite writes it (CONTENT_DOCS_TEST_RESULTS; test/integration/index.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import { ProgressWriter } from '../harness/progress';
import { track } from '../integration/index';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 60_000, color: false });
  const grep = process.env.CONTENT_DOCS_GREP;
  if (grep) mocha.grep(grep);
  for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(path.join(__dirname, file));
  const progress = new ProgressWriter(process.env.CONTENT_DOCS_TEST_RESULTS);
  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        progress.finish();
        if (failures > 0 || progress.progress.failed > 0) reject(new Error(`${Math.max(failures, progress.progress.failed)} pseudo-locale test(s) failed.`));
        else resolve();
      });
      track(runner, progress);
      runner.on('fail', (test, err: Error | undefined) => console.error(`  ✗ ${test.fullTitle()}: ${String(err?.message ?? err).split('\n')[0]}`));
    } catch (e) {
      progress.fail(`loading the pseudo-locale tests: ${(e as Error)?.message ?? e}`);
      progress.finish();
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
