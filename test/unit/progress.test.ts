/**
 * A tier's results as its tests run (test/harness/progress.ts) and what the runners make of a run that hangs or
 * dies: the counts so far are kept, and one failure names the test that was running. Plain Node: the integration
 * entry's tracking runs a real mocha here, and runAll.js's child tier runs fake tiers as child processes.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Mocha from 'mocha';
import {
  finalizeResultsFile,
  finalResults,
  hungReason,
  INTEGRATION_LIMITS,
  type Limits,
  ProgressWriter,
  readProgress,
  runBudgetMs,
  watchProgress,
} from '../harness/progress';
import { findTests, track } from '../integration/index';

const REPO = path.resolve(__dirname, '..', '..', '..');
const PROGRESS_JS = path.join(REPO, 'out', 'test', 'harness', 'progress.js');

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'progress-test-'));
}

/** Limits small enough for a test: 1 s startup, a test hung 300 ms after its own limit. */
const FAST: Limits = { startupMs: 1_000, perTestMs: 1_000, slackMs: 5_000, graceMs: 300, defaultTestMs: 1_000 };

describe('progress: a run keeps its counts and names the test that hung', () => {
  let dir: string;
  beforeEach(() => (dir = tmpDir()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the results file holds the counts and the running test after every start and end; a hook runs inside its test, then the test again', () => {
    const file = path.join(dir, 'r.json');
    let now = 1_000;
    const w = new ProgressWriter(file, () => now);
    assert.deepStrictEqual(readProgress(file), { passed: 0, failed: 0, failures: [], updated: 1_000, finished: false });
    w.setTotal(3);
    w.startTest('suite a', 60_000);
    assert.deepStrictEqual(readProgress(file)?.running, { title: 'suite a', limitMs: 60_000, since: 1_000 });
    now = 2_000;
    w.pass('suite a');
    w.startTest('suite b', 5_000);
    w.startHook('suite "before each" hook for "b"', 2_000);
    assert.strictEqual(readProgress(file)?.running?.title, 'suite "before each" hook for "b"');
    w.endHook();
    assert.strictEqual(readProgress(file)?.running?.title, 'suite b');
    w.fail('suite b');
    w.startTest('suite c');
    const p = readProgress(file)!;
    assert.deepStrictEqual([p.total, p.passed, p.failed, p.failures, p.last, p.running?.title, p.finished], [3, 1, 1, ['suite b'], 'suite b', 'suite c', false]);
    w.finish();
    assert.deepStrictEqual([readProgress(file)?.finished, readProgress(file)?.running], [true, undefined]);
  });

  it('a results file without "finished" (a writer that writes only at the end) reads as final; a file that is not results reads as none', () => {
    const file = path.join(dir, 'r.json');
    fs.writeFileSync(file, JSON.stringify({ passed: 4, failed: 1, failures: ['x'] }));
    assert.strictEqual(readProgress(file)?.finished, true);
    fs.writeFileSync(file, '{"passed": 1, "fai');
    assert.strictEqual(readProgress(file), undefined);
    assert.strictEqual(readProgress(path.join(dir, 'none.json')), undefined);
  });

  it('the watchdog is sized from the run: startup, each test its own limit plus a grace, the whole run a budget per test', () => {
    const t0 = 0;
    const base = { passed: 0, failed: 0, failures: [], updated: 0, finished: false };
    assert.strictEqual(hungReason(undefined, t0, 900, FAST), undefined);
    assert.match(hungReason(undefined, t0, 1_100, FAST) ?? '', /no test started within 1 s/);
    const running = { ...base, total: 4, running: { title: 'slow', limitMs: 2_000, since: 500 }, updated: 500 };
    assert.strictEqual(hungReason(running, t0, 2_700, FAST), undefined, 'within its own limit plus the grace');
    assert.match(hungReason(running, t0, 2_900, FAST) ?? '', /a test ran for more than 2 s/);
    // A test without a limit of its own (mocha's timeout 0) gets the default.
    assert.strictEqual(hungReason({ ...running, running: { title: 'no limit', since: 500 } }, t0, 1_700, FAST), undefined);
    assert.match(hungReason({ ...running, running: { title: 'no limit', since: 500 } }, t0, 1_900, FAST) ?? '', /ran for more than/);
    // Between tests, nothing may stay still longer than a test without a limit plus the grace.
    assert.match(hungReason({ ...base, total: 4, updated: 100 }, t0, 1_500, FAST) ?? '', /nothing happened/);
    // The whole run: startup + 4 tests x 1 s + 5 s of slack = 10 s.
    const busy = { ...base, total: 4, running: { title: 'last', limitMs: 60_000, since: 9_000 }, updated: 9_000 };
    assert.strictEqual(hungReason(busy, t0, 10_000, FAST), undefined);
    assert.match(hungReason(busy, t0, 10_001, FAST) ?? '', /budget of 10 s \(4 tests\)/);
    assert.strictEqual(hungReason({ ...busy, finished: true }, t0, 9_300, FAST), undefined, 'a finished run has the grace to end');
    assert.match(hungReason({ ...busy, finished: true }, t0, 9_301, FAST) ?? '', /did not end within 0 s after its last test/);
    assert.match(hungReason(busy, t0, 3_001, FAST, 3_000) ?? '', /fixed limit of 3 s/);
    // The integration tier: 402 tests may take 402 x 2 s + 5 minutes once started, not a fixed 600 s.
    assert.strictEqual(runBudgetMs(402, INTEGRATION_LIMITS), 1_104_000);
  });

  it('watchProgress calls back once, with the reason, when the running test outlives its limit', async () => {
    const file = path.join(dir, 'r.json');
    const w = new ProgressWriter(file);
    w.setTotal(2);
    w.pass('suite a');
    w.startTest('suite hangs', 200);
    const reasons: string[] = [];
    const stop = watchProgress(file, FAST, (r) => reasons.push(r), { everyMs: 50 });
    try {
      await new Promise((r) => setTimeout(r, 900));
    } finally {
      stop();
    }
    assert.strictEqual(reasons.length, 1);
    assert.match(reasons[0], /ran for more than/);
  });

  it('final results: a timeout keeps the counts and adds "timed out in: <the running test>"; a crash says its exit code; a finished run is as it was', () => {
    const p = { passed: 2, failed: 1, failures: ['s b'], total: 5, last: 's c', running: { title: 's d', since: 0 }, updated: 0, finished: false };
    assert.deepStrictEqual(finalResults('integration', p, { code: 3, timedOut: true }), { passed: 2, failed: 2, failures: ['s b', 'timed out in: s d'] });
    assert.deepStrictEqual(finalResults('integration', p, { code: 137 }).failures, ['s b', 'stopped (exit code 137) in: s d']);
    assert.deepStrictEqual(finalResults('integration', { ...p, running: undefined }, { code: 3, timedOut: true }).failures, ['s b', 'integration: timed out after: s c']);
    assert.deepStrictEqual(finalResults('web', undefined, { code: 2 }), { passed: 0, failed: 1, failures: ['web: stopped (exit code 2) before reporting any result'] });
    assert.deepStrictEqual(finalResults('e2e', { ...p, finished: true }, { code: 1 }), { passed: 2, failed: 1, failures: ['s b'] });
    assert.deepStrictEqual(finalResults('e2e', { ...p, failed: 0, failures: [], finished: true }, { code: 1 }).failures, ['e2e: exited with code 1 after all tests passed']);
  });

  it('finalizeResultsFile writes the final results back, with how many tests did not run', () => {
    const file = path.join(dir, 'r.json');
    const w = new ProgressWriter(file);
    w.setTotal(10);
    w.pass('a');
    w.startTest('b hangs');
    const r = finalizeResultsFile('integration', file, { code: 3, timedOut: true });
    assert.deepStrictEqual(r, { passed: 1, failed: 1, failures: ['timed out in: b hangs'], notRun: 8 });
    const again = readProgress(file)!;
    assert.deepStrictEqual([again.passed, again.failed, again.failures, again.finished], [1, 1, ['timed out in: b hangs'], true]);
  });
});

describe('progress: the integration entry tracks a real mocha run', () => {
  it('while a test runs, the results file already counts the ones before it and names it as running; at the end the counts are final', async () => {
    const dir = tmpDir();
    try {
      const file = path.join(dir, 'r.json');
      const seen: Array<ReturnType<typeof readProgress>> = [];
      const mocha = new Mocha({ reporter: Mocha.reporters.Base, timeout: 5_000 });
      const suite = Mocha.Suite.create(mocha.suite, 'tracked');
      suite.addTest(new Mocha.Test('passes', () => undefined));
      suite.addTest(new Mocha.Test('fails', () => { throw new Error('on purpose'); }));
      const looks = new Mocha.Test('looks at the file', () => { seen.push(readProgress(file)); });
      suite.addTest(looks);
      looks.timeout(7_000);
      const progress = new ProgressWriter(file);
      await new Promise<void>((resolve) => {
        const runner = mocha.run(() => {
          progress.finish();
          resolve();
        });
        track(runner, progress);
      });
      const during = seen[0]!;
      assert.deepStrictEqual(
        [during.total, during.passed, during.failed, during.failures, during.running?.title, during.running?.limitMs, during.finished],
        [3, 1, 1, ['tracked fails'], 'tracked looks at the file', 7_000, false],
      );
      const end = readProgress(file)!;
      assert.deepStrictEqual([end.passed, end.failed, end.finished, end.running], [2, 1, true, undefined]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the activation suite runs first by declaration (not by its name), then Getting Started (before the chat suites), then the other files in path order', () => {
    const files = findTests(path.join(REPO, 'out', 'test', 'integration')).map((f) => path.basename(f));
    assert.ok(files.length > 10, `integration test files: ${files.length}`);
    assert.deepStrictEqual(files.slice(0, 2), ['activation.test.js', 'walkthrough.test.js']);
    assert.ok(files.includes('accountListing.test.js'), 'a suite whose name sorts before it still runs after it');
    assert.ok(files.indexOf('chatParticipant.test.js') > 1, 'the chat suites after Getting Started');
    assert.deepStrictEqual(files.slice(2), [...files.slice(2)].sort());
  });
});

describe('runAll: a child tier that hangs or dies keeps its counts', function () {
  this.timeout(30_000);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runChildTier } = require(path.join(REPO, 'test', 'runAll.js')) as {
    runChildTier: (name: string, script: string, args: string[], options: Record<string, unknown>) => Promise<{ passed: number; failed: number; failures: string[] }>;
  };
  let dir: string;
  beforeEach(() => (dir = tmpDir()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  /** Node may take a while to start on a busy machine: the fake tier's startup gets 10 s, its hung test 300 ms past its limit. */
  const LIMITS: Limits = { ...FAST, startupMs: 10_000 };

  /** A fake tier: two tests pass, one fails, then `then` (a test that never ends, or a crash). */
  function fakeTier(then: string): string {
    const script = path.join(dir, 'tier.js');
    fs.writeFileSync(
      script,
      `const { ProgressWriter } = require(${JSON.stringify(PROGRESS_JS)});
const w = new ProgressWriter(process.env.CONTENT_DOCS_TEST_RESULTS);
w.setTotal(6);
for (const t of ['tier one', 'tier two']) { w.startTest(t, 200); w.pass(t); }
w.startTest('tier three', 200); w.fail('tier three');
w.startTest('tier hangs here', 200);
${then}
`,
    );
    return script;
  }

  it('a tier that hangs in a test is stopped; it reports its counts so far and "timed out in: <that test>"', async () => {
    const t0 = Date.now();
    const r = await runChildTier('fake', fakeTier('setInterval(() => {}, 1000);'), [], {
      results: path.join(dir, 'fake-results.json'),
      limits: LIMITS,
      everyMs: 50,
      killAfterMs: 2_000,
    });
    assert.deepStrictEqual(r, { passed: 2, failed: 2, failures: ['tier three', 'timed out in: tier hangs here'] });
    assert.ok(Date.now() - t0 < 10_000, `stopped after ${Date.now() - t0} ms`);
  });

  it('a tier that ignores SIGTERM is killed; the counts are kept all the same', async () => {
    const r = await runChildTier('fake', fakeTier("process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"), [], {
      results: path.join(dir, 'fake-results.json'),
      limits: LIMITS,
      everyMs: 50,
      killAfterMs: 300,
    });
    assert.deepStrictEqual(r, { passed: 2, failed: 2, failures: ['tier three', 'timed out in: tier hangs here'] });
  });

  it('a tier that dies in a test reports its counts so far and the test it died in, with its exit code', async () => {
    const r = await runChildTier('fake', fakeTier('process.exit(7);'), [], { results: path.join(dir, 'fake-results.json'), limits: LIMITS, everyMs: 50 });
    assert.deepStrictEqual(r, { passed: 2, failed: 2, failures: ['tier three', 'stopped (exit code 7) in: tier hangs here'] });
  });

  it('a tier that finishes reports its own counts', async () => {
    const r = await runChildTier('fake', fakeTier("w.pass('tier hangs here'); w.finish(); process.exitCode = 1;"), [], {
      results: path.join(dir, 'fake-results.json'),
      limits: LIMITS,
      everyMs: 50,
    });
    assert.deepStrictEqual(r, { passed: 3, failed: 1, failures: ['tier three'] });
  });
});
