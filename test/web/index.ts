/**
 * The web tier's entry (`extensionTestsPath`), bundled by test/web/runWeb.ts for the browser: runs in the
 * web-worker extension host, where only 'vscode' can be required. Loads mocha's browser build from the
 * extension folder, defines the suites and runs them; each test's start and end and the final counts go back to the
 * runner on the console (`[[web:progress …]]`, `[[web:results …]]`), so a run that hangs keeps its counts.
 */
import * as vscode from 'vscode';
import { config, EXTENSION_ID } from './kit';
import { defineSuites } from './suites';

interface Runnable {
  fullTitle(): string;
  timeout(): number;
}

interface MochaGlobal {
  setup(o: Record<string, unknown>): void;
  grep(re: string): void;
  run(done: (failures: number) => void): { total: number; on(event: string, cb: (t: Runnable) => void): void };
}

/** One event of the run for the runner's results file (test/harness/progress.ts, ProgressWriter). */
function report(event: string, title?: string, limitMs?: number, total?: number): void {
  console.log(`[[web:progress ${JSON.stringify({ event, title, limitMs, total })}]]`);
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} not found`);
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(ext.extensionUri, 'node_modules', 'mocha', 'mocha.js')));
  (0, eval)(text);
  const mocha = (globalThis as unknown as { mocha: MochaGlobal }).mocha;
  mocha.setup({ ui: 'bdd', reporter: 'spec', color: false, timeout: 30_000 });
  const grep = config().grep;
  if (grep) mocha.grep(grep);
  defineSuites();
  const results = { passed: 0, failed: 0, failures: [] as string[] };
  await new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      console.log(`[[web:results ${JSON.stringify(results)}]]`);
      if (failures > 0 || results.failed > 0) reject(new Error(`${results.failed} web test(s) failed`));
      else resolve();
    });
    report('total', undefined, undefined, runner.total);
    runner.on('test', (t) => report('test', t.fullTitle(), t.timeout()));
    runner.on('hook', (t) => report('hook', t.fullTitle(), t.timeout()));
    runner.on('hook end', () => report('hook end'));
    runner.on('pass', (t) => {
      results.passed++;
      report('pass', t.fullTitle());
    });
    runner.on('fail', (t) => {
      results.failed++;
      results.failures.push(t.fullTitle());
      report('fail', t.fullTitle());
    });
  });
}
