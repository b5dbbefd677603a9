/**
 * Mocha entry point loaded by the extension host (`--extensionTestsPath`). Runs every
 * `*.test.js` under out/test/integration (BDD: describe/it), spec reporter, 60 s per test.
 * Env: CONTENT_DOCS_GREP (mocha grep), CONTENT_DOCS_TEST_RESULTS (file that receives
 * {"passed":n,"failed":m,"failures":[full titles]}).
 */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(full));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(full);
  }
  return out.sort();
}

interface Results { passed: number; failed: number; failures: string[] }

function writeResults(r: Results): void {
  const file = process.env.CONTENT_DOCS_TEST_RESULTS;
  if (!file) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(r, null, 2) + '\n');
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 60_000, color: false });
  const grep = process.env.CONTENT_DOCS_GREP;
  if (grep) mocha.grep(grep);
  for (const file of findTests(__dirname)) mocha.addFile(file);

  const results: Results = { passed: 0, failed: 0, failures: [] };
  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run(failures => {
        writeResults(results);
        if (failures > 0 || results.failed > 0) reject(new Error(`${Math.max(failures, results.failed)} integration test(s) failed.`));
        else resolve();
      });
      runner.on('pass', () => { results.passed++; });
      runner.on('fail', test => {
        results.failed++;
        results.failures.push(test.fullTitle());
      });
    } catch (e) {
      // A test file failed to load (syntax error, missing module...).
      results.failed++;
      results.failures.push(`loading the integration tests: ${(e as Error)?.message ?? e}`);
      writeResults(results);
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
