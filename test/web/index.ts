/**
 * The web tier's entry (`extensionTestsPath`), bundled by test/web/runWeb.ts for the browser: runs in the
 * web-worker extension host, where only 'vscode' can be required. Loads mocha's browser build from the
 * extension folder, defines the suites and runs them; the counts go back to the runner on the console.
 */
import * as vscode from 'vscode';
import { config, EXTENSION_ID } from './kit';
import { defineSuites } from './suites';

interface MochaGlobal {
  setup(o: Record<string, unknown>): void;
  grep(re: string): void;
  run(done: (failures: number) => void): { on(event: string, cb: (t: { fullTitle(): string }) => void): void };
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
    runner.on('pass', () => results.passed++);
    runner.on('fail', (t) => {
      results.failed++;
      results.failures.push(t.fullTitle());
    });
  });
}
