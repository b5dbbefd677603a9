/**
 * A tier's results as its tests run, and the watchdog that reads them: one mechanism for every tier that runs in a
 * child process (integration, package, e2e, web).
 *
 * The run rewrites its results file after every test (written to a temp name, then renamed): the counts so far, the
 * test (or hook) running now with its own time limit, and `finished` once the run is over. When the run hangs or
 * dies, whoever reads the file still has the counts, and the failure names the test that was running
 * ("timed out in: <full title>"), instead of "0 passed, 1 failed".
 *
 * The watchdog is sized from the run, not fixed: a test may take its own limit (mocha's timeout) plus a grace; the
 * whole run may take a budget per test times the number of tests, plus a slack. Plain Node, no 'vscode': the
 * extension host, the tier runners and runAll.js all use it.
 */
import * as fs from 'fs';
import * as path from 'path';

/** What runAll.js reads from a tier: the counts and the titles of what failed. */
export interface Results {
  passed: number;
  failed: number;
  failures: string[];
}

/** The test or hook running now. */
export interface Running {
  title: string;
  /** Its own time limit (mocha's timeout), when it has one. */
  limitMs?: number;
  /** Date.now() when it started. */
  since: number;
}

export interface Progress extends Results {
  /** How many tests this run will run, once known. */
  total?: number;
  running?: Running;
  /** The title of the last test that ended. */
  last?: string;
  /** Date.now() of the last change (a start or an end). */
  updated: number;
  /** Written once, when the run is over: the counts are final. */
  finished: boolean;
}

export function emptyProgress(now = Date.now()): Progress {
  return { passed: 0, failed: 0, failures: [], updated: now, finished: false };
}

/** Writes `value` as JSON to `file` without a reader ever seeing half of it. */
export function writeJsonAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/** The progress in `file`; undefined when there is none or it is not a results file. */
export function readProgress(file: string): Progress | undefined {
  let r: Partial<Progress>;
  try {
    r = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Progress>;
  } catch {
    return undefined;
  }
  if (!r || typeof r.passed !== 'number' || typeof r.failed !== 'number') return undefined;
  return {
    ...r,
    passed: r.passed,
    failed: r.failed,
    failures: Array.isArray(r.failures) ? r.failures.map(String) : [],
    updated: typeof r.updated === 'number' ? r.updated : 0,
    // A file without the field comes from a writer that writes only at the end.
    finished: r.finished !== false,
  };
}

/**
 * Keeps a run's progress and writes it to `file` (when given) on every change. A test's start names it as running;
 * a hook that starts while it runs (beforeEach, afterEach) is running until it ends, then the test again.
 */
export class ProgressWriter {
  readonly progress: Progress = emptyProgress();
  private test: Running | undefined;
  private hook: Running | undefined;

  constructor(
    private readonly file: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.write();
  }

  setTotal(total: number): void {
    this.progress.total = total;
    this.write();
  }

  startTest(title: string, limitMs?: number): void {
    this.test = { title, limitMs, since: this.now() };
    this.write();
  }

  startHook(title: string, limitMs?: number): void {
    this.hook = { title, limitMs, since: this.now() };
    this.write();
  }

  endHook(): void {
    this.hook = undefined;
    this.write();
  }

  pass(title: string): void {
    this.progress.passed++;
    this.ended(title);
  }

  fail(title: string): void {
    this.progress.failed++;
    this.progress.failures.push(title);
    this.ended(title);
  }

  /** The run is over: the counts are final. */
  finish(): void {
    this.test = this.hook = undefined;
    this.progress.finished = true;
    this.write();
  }

  private ended(title: string): void {
    // A failing hook ends nothing but itself; a test's end ends it and any hook of it.
    if (this.hook && this.hook.title === title) this.hook = undefined;
    else this.test = this.hook = undefined;
    this.progress.last = title;
    this.write();
  }

  private write(): void {
    const p = this.progress;
    p.running = this.hook ?? this.test;
    p.updated = this.now();
    if (this.file) writeJsonAtomic(this.file, p);
  }
}

/** How long a run may take. */
export interface Limits {
  /** From the start until the run says how many tests it has (the workbench opening, the test files loading). */
  startupMs: number;
  /** The whole run's budget per test. */
  perTestMs: number;
  /** Added to the budget of the whole run. */
  slackMs: number;
  /** Beyond a test's own limit before it counts as hung (its own timeout should have ended it by then). */
  graceMs: number;
  /** The limit of a test that has none (mocha's timeout 0), and of the time between two tests. */
  defaultTestMs: number;
}

/** The integration tier: about 1.3 s a test on a quiet 2-core machine, mocha's 60 s per test. */
export const INTEGRATION_LIMITS: Limits = { startupMs: 180_000, perTestMs: 2_000, slackMs: 300_000, graceMs: 60_000, defaultTestMs: 600_000 };

/** The budget of a whole run of `total` tests. */
export function runBudgetMs(total: number, limits: Limits): number {
  return total * limits.perTestMs + limits.slackMs;
}

/**
 * Why the run counts as hung at `now`, or undefined while it is not. `startedAt`: when the run was started;
 * `fixedMs`: a fixed limit for the whole run instead of the budget (HARNESS_TIMEOUT).
 */
export function hungReason(p: Progress | undefined, startedAt: number, now: number, limits: Limits, fixedMs?: number): string | undefined {
  const s = (ms: number) => `${Math.round(ms / 1000)} s`;
  // Over: the process has the grace to end (the extension host and the workbench shut down).
  if (p?.finished) return now - p.updated > limits.graceMs ? `the run did not end within ${s(limits.graceMs)} after its last test` : undefined;
  const elapsed = now - startedAt;
  if (fixedMs !== undefined) return elapsed > fixedMs ? `the run took longer than its fixed limit of ${s(fixedMs)}` : undefined;
  if (p?.total === undefined) {
    return elapsed > limits.startupMs ? `no test started within ${s(limits.startupMs)}` : undefined;
  }
  const budget = limits.startupMs + runBudgetMs(p.total, limits);
  if (elapsed > budget) return `the run took longer than its budget of ${s(budget)} (${p.total} tests)`;
  if (p.running) {
    const limit = (p.running.limitMs || limits.defaultTestMs) + limits.graceMs;
    if (now - p.running.since > limit) return `a test ran for more than ${s(limit)} (its limit plus ${s(limits.graceMs)})`;
  } else if (now - p.updated > limits.defaultTestMs + limits.graceMs) {
    return `nothing happened for ${s(limits.defaultTestMs + limits.graceMs)}`;
  }
  return undefined;
}

/**
 * Polls `file` every `everyMs` and calls `onHung(reason)` once when the run counts as hung. The returned function
 * stops the watch.
 */
export function watchProgress(
  file: string,
  limits: Limits,
  onHung: (reason: string) => void,
  options: { fixedMs?: number; everyMs?: number; startedAt?: number } = {},
): () => void {
  const startedAt = options.startedAt ?? Date.now();
  const timer = setInterval(() => {
    const reason = hungReason(readProgress(file), startedAt, Date.now(), limits, options.fixedMs);
    if (reason === undefined) return;
    clearInterval(timer);
    onHung(reason);
  }, options.everyMs ?? 2_000);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** How the run ended, as its runner saw it. */
export interface Ending {
  /** The exit code (or signal) of the run. */
  code: number | string | null;
  /** The run was stopped by a watchdog. */
  timedOut?: boolean;
}

/**
 * The final results of a run from its progress: a finished run's counts as they are; an unfinished one's counts so
 * far plus one failure that names the test that was running ("timed out in: <full title>"), or the last one that
 * ended when none was. A run that wrote nothing is one failure.
 */
export function finalResults(tier: string, p: Progress | undefined, ending: Ending): Results {
  const what = ending.timedOut ? 'timed out' : `stopped (exit code ${ending.code})`;
  if (!p) return { passed: 0, failed: 1, failures: [`${tier}: ${what} before reporting any result`] };
  const out: Results = { passed: p.passed, failed: p.failed, failures: [...p.failures] };
  if (!p.finished) {
    out.failed++;
    if (p.running) out.failures.push(`${what} in: ${p.running.title}`);
    else if (p.last) out.failures.push(`${tier}: ${what} after: ${p.last}`);
    else out.failures.push(`${tier}: ${what} before the first test`);
  } else if (ending.code !== 0 && out.failed === 0) {
    out.failed = 1;
    out.failures.push(`${tier}: exited with code ${ending.code} after all tests passed`);
  }
  return out;
}

/** `finalResults` written back to `file` as a finished run's; returns them and how many tests did not run. */
export function finalizeResultsFile(tier: string, file: string, ending: Ending): Results & { notRun?: number } {
  const p = readProgress(file);
  const r = finalResults(tier, p, ending);
  const notRun = p?.total !== undefined && !p.finished ? Math.max(0, p.total - r.passed - r.failed) : undefined;
  writeJsonAtomic(file, { ...r, total: p?.total, finished: true, updated: Date.now() });
  return { ...r, ...(notRun !== undefined ? { notRun } : {}) };
}
