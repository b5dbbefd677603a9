/**
 * The benchmark's part inside code-server's extension host (loaded as `--extensionTestsPath` by
 * test/harness/hostRunner.ts; no mocha: run() is the whole thing). It never fails on slowness: it
 * measures and writes JSON to $BENCH_RESULTS for bench.ts, which compares with the budgets.
 *
 *   BENCH_MODE=activation  one fresh start: wait for the workbench to go quiet, activate the extension,
 *                          read the extension host's performance marks and VS Code's own activation
 *                          stats (the "Developer: Startup Performance" report), and require.cache; the same for
 *                          the reference extension (test/bench/reference) when the bench loaded it; then, given a
 *                          sandbox, the first open of both extensions' views, one after the other
 *                          (BENCH_REFERENCE_FIRST=1: the reference's first).
 *   BENCH_MODE=main        against the sandbox started by bench.ts (an own process, so its data and work
 *                          are not in this host): requests and latency per user action, a 10,000-document
 *                          account, and a burst against a 60 requests/minute limit.
 *   BENCH_MODE=backup      Back Up Account to Folder… of a 10,000-document account into a new folder, then a rerun
 *                          after 10 documents changed (the sandbox unthrottled: the extension's own pace), then a
 *                          first backup again at the server's 60 requests a minute (what a user waits): requests,
 *                          seconds and the peak memory of this host while each ran.
 *
 * What "shown" means here: the extension host cannot see pixels, so a tree result counts as shown when
 * the view (the workbench) has fetched the new rows from the extension, or when the extension pushed
 * the changed row to it; an editor result when VS Code's own promise (open/save) resolved. The
 * workbench's paint after that is not included. Each timed action is split into network (the HTTP
 * exchanges the extension reported), the extension's own time (its code on the critical path, measured
 * by wrapping its tree providers, file system and the `vscode.window` calls it makes) and the rest
 * (VS Code). BENCH_PHASES=user,rate,large (comma-separated prefixes) runs only some phases.
 * BENCH_PROFILE=<file.cpuprofile> writes a CPU profile of this host from opening the views to the end of the first
 * template's expansion (open it in Chrome DevTools or VS Code), to see where the first open's own time goes;
 * with BENCH_PROFILE_FROM=expand, of the first template's expansion alone; with BENCH_PROFILE_FROM=first-window, of
 * a fresh start's first open (a first window: the services built by the views' first request for rows; the last
 * start's); with BENCH_PROFILE_FROM=services, of building
 * the services (dist/core.js's require and createServices) alone; with BENCH_PROFILE_FROM=activation, of the
 * main file's require() and activate() in a fresh start, exactly (taken by activationTiming.ts, which is in place before
 * VS Code loads the extension; each fresh start writes the file again).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { performance } from 'perf_hooks';
import * as http from 'http';
import * as inspector from 'inspector';
import * as v8 from 'v8';
import * as vm from 'vm';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import type { TestApi } from '../../src/extension';
import type { RequestRecord } from '../sandbox/server';
import { press } from '../integration/harness';
import { configure, EXTENSION_ID, LogCapture, MessageCapture, RecordingPrompter, services, sleep, until } from '../integration/reliabilityKit';
import { activationTiming, activationTimings } from './activationTiming';
import {
  ENV,
  LEAN_ID,
  REFERENCE_ID,
  type ActivationResult,
  type ActivationSample,
  type BackupResult,
  type BackupRunFigures,
  type DiskFloor,
  type GenerateResult,
  type HostResult,
  type LargeAccountResult,
  type LatencySample,
  type MainResult,
  type MemoryFigures,
  type RateLimitResult,
  type RequestCount,
  type ReferenceActivation,
  type ReferenceOpen,
  type ViewOpen,
  type VsCodeActivationStats,
} from './shared';

/** Added to every API answer while timing actions. */
const LATENCY_MS = 100;
/** No new request at the sandbox for this long: the action and its follow-ups are over. */
const QUIET_MS = 700;
const RATE_LIMIT = 60;
const RATE_WINDOW_MS = 70_000;

const now = () => performance.now();
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

function log(line: string): void {
  console.log(`[bench] ${line}`);
}

// --- What is loaded -------------------------------------------------------------------------------------

/** The extension's folder as Node's require.cache names it: its real path (VS Code may reach it through a link). */
function extensionPath(): string {
  return fs.realpathSync(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath);
}

/**
 * Files of the extension folder that are in require.cache (relative paths). The main run stages this
 * benchmark's own compiled code under out/ in the same folder (so that it shares the extension's `vscode`
 * API object): that is not the extension's and is left out.
 */
function loadedFiles(): string[] {
  const root = extensionPath() + path.sep;
  return Object.keys(require.cache)
    .filter((k) => k.startsWith(root))
    .map((k) => path.relative(root, k))
    .filter((k) => !k.startsWith(`out${path.sep}`))
    .sort();
}

/**
 * The extension's heavy code in require.cache: its lazily loaded API bundle (zod), undici (dist/http.js) or an undici /
 * zod of its own. (VS Code's extension host loads its own undici for its proxy support: not ours.)
 */
function heavyLoaded(): string[] {
  const root = extensionPath() + path.sep;
  return Object.keys(require.cache)
    .filter((k) => k.startsWith(root))
    .map((k) => path.relative(root, k))
    .filter((k) => !k.startsWith(`out${path.sep}`))
    .filter((k) => k === path.join('dist', 'api.js') || k === path.join('dist', 'http.js') || /(^|[\\/])(undici|zod)[\\/]/.test(k))
    .sort();
}

// --- Activation -------------------------------------------------------------------------------------------

/** Waits until timers fire on time for a while (the workbench and the other extensions have settled). */
async function quietHost(minMs = 4000, quietForMs = 1500, maxMs = 15_000): Promise<number> {
  const t0 = now();
  let quietSince = now();
  while (now() - t0 < maxMs) {
    const before = now();
    await sleep(50);
    const lag = now() - before - 50;
    if (lag > 8) quietSince = now();
    if (now() - t0 >= minMs && now() - quietSince >= quietForMs) break;
  }
  return now() - t0;
}

interface PerfMark {
  name: string;
  startTime: number;
}

function hostMarks(): PerfMark[] {
  const marks = (globalThis as { MonacoPerformanceMarks?: { getMarks(): PerfMark[] } }).MonacoPerformanceMarks;
  return marks?.getMarks() ?? [];
}

function span(marks: PerfMark[], from: string, to: string): number | undefined {
  const a = marks.filter((m) => m.name === from).pop();
  const b = marks.filter((m) => m.name === to).pop();
  return a && b ? round(b.startTime - a.startTime, 2) : undefined;
}

/**
 * VS Code's own figures: the "Extension Activation Stats" table of Developer: Startup Performance
 * (the `perf:` document the workbench serves; opening it here syncs its text to this host).
 */
async function vscodeActivationStats(ids: readonly string[]): Promise<Map<string, VsCodeActivationStats>> {
  const uri = vscode.Uri.from({ scheme: 'perf', path: 'Startup Performance' });
  // The report's content provider is a lazy workbench contribution: the command creates it (and opens the report).
  await vscode.commands.executeCommand('perfview.show');
  const doc = await vscode.workspace.openTextDocument(uri);
  const rowOf = (id: string) => doc.getText().split('\n').find((l) => l.startsWith(`| ${id} `));
  await until('the rows in the Startup Performance report', () => ids.every((id) => rowOf(id) !== undefined), 30_000);
  const out = new Map<string, VsCodeActivationStats>();
  for (const id of ids) {
    // | Extension | Eager | Load Code | Call Activate | Finish Activate | Event | By |
    const cells = rowOf(id)!.split('|').map((c) => c.trim()).slice(1, -1);
    out.set(id, { loadCode: Number(cells[2]), callActivate: Number(cells[3]), finishActivate: Number(cells[4]), event: cells[5] });
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  return out;
}

/**
 * The extension host's log line in which VS Code says it activated `id` and on which event
 * ("ExtensionService#_doActivateExtension <id>, startup: false, activationEvent: 'onStartupFinished'"). The log is in
 * the folder that holds each extension's log folder (`logUri`, which the reference extension hands out).
 */
function activationLogLine(logUri: vscode.Uri | undefined, id: string): string | undefined {
  if (!logUri || logUri.scheme !== 'file') return undefined;
  const dir = path.dirname(logUri.fsPath);
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.log'));
  } catch {
    return undefined;
  }
  for (const f of files) {
    const line = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').find((l) => l.includes(`_doActivateExtension ${id},`));
    if (line) return line.replace(/^\S+ \S+ /, '').trim();
  }
  return undefined;
}

async function activationRun(): Promise<ActivationResult> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) return { mode: 'activation', error: `extension ${EXTENSION_ID} is not installed in this host` };
  const activeAtStart = ext.isActive;
  // Timed since this code was loaded, whoever activates it: VS Code itself once startup finished, or the benchmark below.
  const timed = activationTiming?.timed ?? {};
  const calls = activationTiming?.calls ?? new Map<string, { count: number; ms: number; maxMs: number }>();
  const refExt = vscode.extensions.getExtension(REFERENCE_ID);
  const leanExt = vscode.extensions.getExtension(LEAN_ID);
  const settleMs = await quietHost();
  const activeBeforeAsked = ext.isActive;
  const refActiveBeforeAsked = refExt?.isActive ?? false;
  const leanActiveBeforeAsked = leanExt?.isActive ?? false;
  const t0 = now();
  await ext.activate();
  const apiActivateMs = round(now() - t0, 2);
  const loadedAtActivation = loadedFiles();
  const heavyAtActivation = heavyLoaded();
  const marks = hostMarks();
  const sample: ActivationSample = {
    activeAtStart,
    settleMs: Math.round(settleMs),
    activeBeforeAsked,
    loadedBeforeTiming: activationTiming?.loadedBeforeTiming,
    apiActivateMs,
    marks: {
      requireMs: span(marks, `code/extHost/willLoadExtensionCode/${EXTENSION_ID}`, `code/extHost/didLoadExtensionCode/${EXTENSION_ID}`),
      activateMs: span(marks, `code/extHost/willActivateExtension/${EXTENSION_ID}`, `code/extHost/didActivateExtension/${EXTENSION_ID}`),
    },
    timed,
    activateCalls: callList(calls),
    loadedAtActivation,
    heavyAtActivation,
  };
  const referenceOf = (id: string, activeBeforeAsked: boolean): ReferenceActivation => {
    const timing = activationTimings.get(id);
    return {
      activeBeforeAsked,
      loadedBeforeTiming: timing?.loadedBeforeTiming,
      marks: {
        requireMs: span(marks, `code/extHost/willLoadExtensionCode/${id}`, `code/extHost/didLoadExtensionCode/${id}`),
        activateMs: span(marks, `code/extHost/willActivateExtension/${id}`, `code/extHost/didActivateExtension/${id}`),
      },
      timed: timing?.timed,
      activateCalls: timing ? callList(timing.calls) : undefined,
    };
  };
  const loadAt = (id: string) => marks.findIndex((m) => m.name === `code/extHost/willLoadExtensionCode/${id}`);
  if (leanExt) {
    const lean = referenceOf(LEAN_ID, leanActiveBeforeAsked);
    try {
      await leanExt.activate();
    } catch (e) {
      lean.error = (e as Error).message;
    }
    sample.lean = lean;
    if (loadAt(LEAN_ID) >= 0 && loadAt(EXTENSION_ID) >= 0) sample.leanFirst = loadAt(LEAN_ID) < loadAt(EXTENSION_ID);
    const lt = lean.timed ?? {};
    log(`lean surface: marks require ${lean.marks.requireMs} + activate ${lean.marks.activateMs} ms; timed ${lt.requireMs} + ${lt.activateMs} ms (CPU ${lt.requireCpuMs} + ${lt.activateCpuMs} ms); ${lean.activeBeforeAsked ? 'VS Code had activated it before the benchmark asked' : 'NOT active before the benchmark asked'}`);
  }
  let reference: ReferenceActivation | undefined;
  if (refExt) {
    reference = referenceOf(REFERENCE_ID, refActiveBeforeAsked);
    try {
      // Asking activates it if VS Code did not (then it was not activated on its event: activeBeforeAsked says so).
      const exports = (await refExt.activate()) as { logUri?: vscode.Uri } | undefined;
      reference.logLine = activationLogLine(exports?.logUri, REFERENCE_ID);
      sample.logLine = activationLogLine(exports?.logUri, EXTENSION_ID);
    } catch (e) {
      reference.error = (e as Error).message;
    }
    sample.reference = reference;
    // The marks are in the order they were made (their times are whole ms, often the same for both).
    const [ours, ref] = [loadAt(EXTENSION_ID), loadAt(REFERENCE_ID)];
    if (ours >= 0 && ref >= 0) sample.loadedFirst = ref < ours ? 'reference' : 'content-docs';
  }
  try {
    const stats = await vscodeActivationStats([EXTENSION_ID, ...(refExt ? [REFERENCE_ID] : []), ...(leanExt ? [LEAN_ID] : [])]);
    sample.vscode = stats.get(EXTENSION_ID);
    if (reference) reference.vscode = stats.get(REFERENCE_ID);
    if (sample.lean) sample.lean.vscode = stats.get(LEAN_ID);
  } catch (e) {
    sample.vscodeError = (e as Error).message;
  }
  if (reference) {
    const rt = reference.timed ?? {};
    log(
      `reference: marks require ${reference.marks.requireMs} + activate ${reference.marks.activateMs} ms; timed ${rt.requireMs} + ${rt.activateMs} ms (CPU ${rt.requireCpuMs} + ${rt.activateCpuMs} ms); ` +
        `${reference.activeBeforeAsked ? 'VS Code had activated it before the benchmark asked' : 'NOT active before the benchmark asked'}; loaded first: ${sample.loadedFirst ?? '?'}; log: ${reference.logLine ?? 'no activation line found'}`,
    );
  }
  if (process.env[ENV.docsUrl]) {
    sample.firstOpen = await firstOpensInFreshStart(process.env[ENV.referenceFirst] === '1' ? 'reference' : 'content-docs');
  }
  const inApi = round(sample.activateCalls!.reduce((n, c) => n + c.ms, 0), 3);
  log(
    `activation: marks require ${sample.marks.requireMs} + activate ${sample.marks.activateMs} ms; timed ${timed.requireMs} + ${timed.activateMs} ms (CPU ${timed.requireCpuMs} + ${timed.activateCpuMs} ms) ` +
      `(require('vscode') ${timed.vscodeApiMs} ms; in VS Code's API ${inApi} ms: ${sample.activateCalls!.slice(0, 8).map((c) => `${c.api}×${c.count} ${round(c.ms, 2)}${c.count > 1 ? ` (longest ${round(c.maxMs ?? 0, 2)})` : ''}`).join(', ')}); ` +
      `${activeBeforeAsked ? 'VS Code had activated it before the benchmark asked; ' : ''}` +
      `${activationTiming?.loadedBeforeTiming ? 'VS Code had loaded it before the timing was in place; ' : ''}VS Code ${JSON.stringify(sample.vscode ?? sample.vscodeError)}`,
  );
  return { mode: 'activation', sample };
}

function callList(calls: ReadonlyMap<string, { count: number; ms: number; maxMs: number }>): NonNullable<ActivationSample['activateCalls']> {
  return [...calls].map(([api, c]) => ({ api, count: c.count, ms: round(c.ms, 3), maxMs: round(c.maxMs, 3) })).sort((a, b) => b.ms - a.ms);
}

// --- The sandbox, steered over its control routes ---------------------------------------------------------

class SandboxControl {
  constructor(private readonly base: string) {}

  private call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const url = new URL(`/__sandbox/${route}`, this.base);
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise<T>((resolve, reject) => {
      const req = http.request(url, { method, headers: data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) >= 400) return reject(new Error(`sandbox ${route}: HTTP ${res.statusCode} ${text}`));
          try {
            resolve(JSON.parse(text) as T);
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      });
      req.on('error', reject);
      req.setTimeout(60_000, () => req.destroy(new Error(`sandbox ${route}: no answer`)));
      req.end(data);
    });
  }

  requests(): Promise<RequestRecord[]> {
    return this.call('GET', 'requests');
  }
  resetRequests(): Promise<unknown> {
    return this.call('POST', 'reset-requests');
  }
  latency(ms: number): Promise<unknown> {
    return this.call('POST', 'latency', { ms });
  }
  rateLimit(perMinute: number): Promise<unknown> {
    return this.call('POST', 'rate-limit', { perMinute });
  }
  resetRateLimit(): Promise<unknown> {
    return this.call('POST', 'reset-rate-limit');
  }
  storeDelay(ms: number): Promise<unknown> {
    return this.call('POST', 'store-delay', { ms });
  }
  reseed(seed: 'default' | 'large'): Promise<{ documents: number }> {
    return this.call('POST', 'reseed', { seed });
  }

  /** Waits until no request arrived for `quietMs` and none is unanswered; returns the requests. */
  async settle(quietMs = QUIET_MS, maxMs = 20_000): Promise<RequestRecord[]> {
    const t0 = Date.now();
    let count = -1;
    let since = Date.now();
    for (;;) {
      const reqs = await this.requests();
      const open = reqs.some((r) => r.status === 0);
      if (reqs.length !== count || open) {
        count = reqs.length;
        since = Date.now();
      }
      if (Date.now() - since >= quietMs || Date.now() - t0 > maxMs) return reqs;
      await sleep(100);
    }
  }
}

function describeRequest(r: RequestRecord): string {
  const q = Object.entries(r.query)
    .filter(([k]) => ['template_id', 'page', 'search', 'favorite'].includes(k))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${r.method} ${r.route ?? r.path}${q ? `?${q}` : ''}${r.status !== 200 && r.status !== 201 ? ` → ${r.status}` : ''}`;
}

// --- Watching the views and the wire -----------------------------------------------------------------------

interface ChildrenCall {
  tree: 'documents' | 'projects' | 'reference' | 'lean-documents' | 'lean-projects';
  node: unknown;
  start: number;
  end?: number;
  result?: Array<{ kind?: string }>;
  /** When VS Code had read the TreeItems of the result (see waitChildren). */
  done?: number;
}

interface ItemPush {
  node: unknown;
  at: number;
  label: string;
  icon?: string;
}

type AnyTree = {
  getChildren(node?: unknown): Promise<Array<{ kind?: string }>>;
  getTreeItem(node: unknown): vscode.TreeItem;
  message?: string;
};

function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** Wraps both providers' getChildren/getTreeItem (the extension host's TreeView calls them on the instance). */
class TreeWatch {
  readonly calls: ChildrenCall[] = [];
  readonly items: ItemPush[] = [];
  readonly tracked = new WeakSet<object>();
  /** Error rows handed to a view (what the user sees), with their text. */
  readonly errorRows: Array<{ at: number; text: string }> = [];
  treeItemCalls = 0;
  treeItemMs = 0;
  /**
   * When each node's TreeItem was read (VS Code reads every row's TreeItem right after getChildren; it may read
   * them again later, e.g. when a reveal fetches the parent's children once more: its own business).
   */
  private readonly itemReads = new WeakMap<object, number[]>();
  /** Keep only the last few calls (long runs: the watch must not hold on to many row arrays). */
  keepCalls = true;

  install(tree: AnyTree, name: ChildrenCall['tree']): void {
    const getChildren = tree.getChildren.bind(tree);
    const getTreeItem = tree.getTreeItem.bind(tree);
    tree.getChildren = async (node?: unknown) => {
      const call: ChildrenCall = { tree: name, node, start: now() };
      this.calls.push(call);
      if (!this.keepCalls && this.calls.length > 20) this.calls.splice(0, this.calls.length - 20);
      const result = await getChildren(node);
      call.end = now();
      call.result = result;
      for (const n of result ?? []) {
        if (n?.kind === 'error') {
          const item = getTreeItem(n);
          this.errorRows.push({ at: Date.now(), text: `${name} view: ${labelOf(item)} — ${typeof item.description === 'string' ? item.description : ''}` });
        }
      }
      return result;
    };
    tree.getTreeItem = (node: unknown) => {
      const t = now();
      const item = getTreeItem(node);
      const t1 = now();
      this.treeItemMs += t1 - t;
      this.treeItemCalls++;
      if (node && typeof node === 'object') {
        const reads = this.itemReads.get(node) ?? [];
        reads.push(t1);
        if (reads.length > 16) reads.shift();
        this.itemReads.set(node, reads);
      }
      if (node && typeof node === 'object' && this.tracked.has(node)) {
        const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
        this.items.push({ node, at: now(), label: labelOf(item), icon });
      }
      return item;
    };
  }

  /**
   * Waits for a finished getChildren call, then for VS Code to have read the TreeItems of the rows it
   * returned (it does so before handing them to the workbench); `done` is when the last of them was first read
   * after the call (later reads of the same rows are VS Code fetching them again, not the extension answering).
   */
  async waitChildren(what: string, pred: (c: ChildrenCall) => boolean, timeoutMs = 15_000): Promise<ChildrenCall & { done: number }> {
    const call = await until(what, () => this.calls.find((c) => c.end !== undefined && pred(c)), timeoutMs);
    await sleep(30);
    let done = call.end!;
    for (const n of call.result ?? []) {
      const at = n && typeof n === 'object' ? this.itemReads.get(n)?.find((t) => t >= call.end!) : undefined;
      if (at !== undefined && at > done) done = at;
    }
    return Object.assign(call, { done });
  }

  waitItem(what: string, pred: (i: ItemPush) => boolean, timeoutMs = 15_000): Promise<ItemPush> {
    return until(what, () => this.items.find(pred), timeoutMs);
  }

  /** The rows a view last got for a node. */
  lastResult(node: unknown): Array<{ kind?: string }> {
    const c = [...this.calls].reverse().find((x) => x.node === node && x.result);
    return c?.result ?? [];
  }
}

interface ExchangeSeen {
  end: number;
  ms: number;
  method: string;
  path: string;
  status: number | undefined;
  /**
   * Sent as background work (a count, a backup page): no action waits for it, so its time on the wire is no action's
   * network time, and the extension's work while it is out is still the action's own (see exchangeSpans).
   */
  background: boolean;
}

type Span = readonly [number, number];

/** Merged, sorted intervals. */
function merge(spans: readonly Span[]): Span[] {
  const out: Array<[number, number]> = [];
  for (const [a, b] of [...spans].filter(([x, y]) => y > x).sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

const spanLength = (spans: readonly Span[]) => spans.reduce((n, [a, b]) => n + (b - a), 0);

function intersectLength(a: readonly Span[], b: readonly Span[]): number {
  let n = 0;
  for (const [a0, a1] of a) for (const [b0, b1] of b) n += Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  return n;
}

/** When the requests an action waits for were on the wire (background ones left out: see ExchangeSeen.background). */
function exchangeSpans(ex: readonly ExchangeSeen[], t0: number, t1: number): Span[] {
  return merge(ex.filter((e) => !e.background && e.end >= t0 && e.end <= t1 + 1).map((e) => [Math.max(t0, e.end - e.ms), Math.min(t1, e.end)] as const));
}

/** Time covered by the exchanges waited for that ended inside [t0, t1] (overlaps counted once), and how many there were. */
function serverTime(ex: readonly ExchangeSeen[], t0: number, t1: number): { ms: number; trips: number } {
  return { ms: spanLength(exchangeSpans(ex, t0, t1)), trips: ex.filter((e) => !e.background && e.end >= t0 && e.end <= t1 + 1).length };
}

function lastExchangeEnd(ex: readonly ExchangeSeen[], after: number): number {
  return ex.filter((e) => !e.background && e.end >= after).reduce((m, e) => Math.max(m, e.end), after);
}

/** Records when Go to Document's Quick Pick gets its items and when its value changes. */
class QuickPickWatch implements vscode.Disposable {
  readonly itemsSet: Array<{ at: number; count: number; labels: string[] }> = [];
  readonly values: Array<{ at: number; value: string }> = [];
  private readonly original = vscode.window.createQuickPick;

  install(): this {
    const w = vscode.window as unknown as { createQuickPick: typeof vscode.window.createQuickPick };
    w.createQuickPick = <T extends vscode.QuickPickItem>(): vscode.QuickPick<T> => {
      const qp = this.original.call(vscode.window) as vscode.QuickPick<T>;
      const proto = Object.getPrototypeOf(qp) as object;
      const desc = findAccessor(proto, 'items');
      if (desc?.set && desc.get) {
        Object.defineProperty(qp, 'items', {
          configurable: true,
          get: () => desc.get!.call(qp),
          set: (v: readonly T[]) => {
            desc.set!.call(qp, v);
            this.itemsSet.push({ at: now(), count: v.length, labels: v.slice(0, 3).map((i) => i.label) });
          },
        });
      }
      qp.onDidChangeValue((value) => this.values.push({ at: now(), value }));
      return qp;
    };
    return this;
  }

  dispose(): void {
    (vscode.window as unknown as { createQuickPick: typeof vscode.window.createQuickPick }).createQuickPick = this.original;
  }
}

function findAccessor(proto: object | null, name: string): PropertyDescriptor | undefined {
  for (let p = proto; p; p = Object.getPrototypeOf(p) as object | null) {
    const d = Object.getOwnPropertyDescriptor(p, name);
    if (d) return d;
  }
  return undefined;
}

/** Types keys into the focused workbench element quickly: all bridge commands are queued at once. */
async function typeFast(keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => press(k)));
}

// --- Memory ------------------------------------------------------------------------------------------------

function findGc(): { gc?: () => void; how: string } {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return { gc: g, how: 'global.gc (--expose-gc)' };
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    if (typeof gc === 'function') return { gc: gc as () => void, how: 'full GC via v8.setFlagsFromString("--expose-gc")' };
  } catch {
    /* not available */
  }
  return { how: 'no GC available: figures without a forced collection (best effort)' };
}

async function memory(gc: (() => void) | undefined): Promise<MemoryFigures> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(150);
  }
  const m = process.memoryUsage();
  const mb = (n: number) => round(n / (1024 * 1024), 2);
  return { heapUsedMB: mb(m.heapUsed), externalMB: mb(m.external), rssMB: mb(m.rss) };
}

// --- The main run ------------------------------------------------------------------------------------------

/** VS Code's own time for a UI step the extension cannot shorten (see userActions). */
interface Baselines {
  /** From a tree change event to the view having re-fetched the group's rows. */
  viewRefreshMs: number;
}

interface Ctx {
  s: TestServices;
  ctl: SandboxControl;
  watch: TreeWatch;
  ex: ExchangeSeen[];
  fsCalls: FsCall[];
  /** When the extension asked VS Code to show a content-docs document (vscode.window.showTextDocument). */
  shows: Array<{ at: number; id: string }>;
  prompter: RecordingPrompter;
  messages: MessageCapture;
  logs: LogCapture;
  r: MainResult;
  debounceMs: number;
  base: Partial<Baselines>;
}

type Node = { kind?: string; doc?: { id: number; name: string; favorite: boolean } };

const docsOf = (rows: Array<{ kind?: string }> | undefined) => (rows ?? []).filter((n) => n.kind === 'document') as Node[];

/** Time the extension's own code was on the critical path: `spans` (its calls) minus the network inside them. */
function ownInside(ctx: Ctx, spans: readonly Span[], t0: number, t1: number): number {
  return ownInsideOf(ctx.ex, spans, t0, t1);
}

function ownInsideOf(ex: readonly ExchangeSeen[], spans: readonly Span[], t0: number, t1: number): number {
  const m = merge(spans.map(([a, b]) => [Math.max(a, t0), Math.min(b, t1)] as const));
  return spanLength(m) - intersectLength(m, exchangeSpans(ex, t0, t1));
}

/**
 * Records one timed action. Own time is either measured directly (`own`: the time the extension's code
 * was on the critical path, network excluded) or, where the extension's effect lies outside its own
 * calls (a change event the view waits for), total − network − a VS Code baseline for the same step.
 */
function addLatency(
  ctx: Ctx,
  action: string,
  first: boolean,
  t0: number,
  t1: number,
  end: string,
  how: LatencyHow,
): LatencySample {
  const sample = latencySample(ctx.ex, action, first, t0, t1, end, how);
  ctx.r.latency.push(sample);
  logLatency(sample);
  return sample;
}

type LatencyHow = { own?: number; ownWhat?: string; baselineMs?: number; baselineWhat?: string; designedWaitMs?: number };

function logLatency(sample: LatencySample): void {
  log(
    `latency ${sample.action}${sample.first ? ' (first)' : ''}: total ${sample.totalMs} ms = ${sample.trips} trip(s) ${sample.serverMs} + VS Code ${sample.vscodeMs} + own ${sample.ownMs}${sample.designedWaitMs ? ` + debounce ${sample.designedWaitMs}` : ''}`,
  );
}

/** One timed action's figures (see addLatency), from the exchanges `ex` the extension reported. */
function latencySample(ex: readonly ExchangeSeen[], action: string, first: boolean, t0: number, t1: number, end: string, how: LatencyHow): LatencySample {
  const { ms, trips } = serverTime(ex, t0, t1);
  const totalMs = t1 - t0;
  const designed = how.designedWaitMs ?? 0;
  const inside = ex.filter((e) => e.end >= t0 && e.end <= t1 + 1);
  const lastEnd = inside.reduce((m, e) => Math.max(m, e.end), -1);
  const firstStart = inside.reduce((m, e) => Math.min(m, e.end - e.ms), Infinity);
  const own = how.own !== undefined ? how.own : totalMs - ms - designed - (how.baselineMs ?? 0);
  const sample: LatencySample = {
    action,
    first,
    totalMs: round(totalMs),
    serverMs: round(ms),
    trips,
    designedWaitMs: designed || undefined,
    vscodeMs: round(Math.max(0, totalMs - ms - designed - Math.max(0, own))),
    vscodeWhat: how.own !== undefined ? 'the rest: VS Code and the workbench' : how.baselineWhat,
    ownMs: round(Math.max(0, own)),
    ownWhat: how.ownWhat,
    afterLastAnswerMs: lastEnd >= 0 ? round(t1 - lastEnd) : undefined,
    beforeFirstRequestMs: Number.isFinite(firstStart) ? round(Math.max(0, firstStart - t0)) : undefined,
    end,
  };
  return sample;
}

function addCount(ctx: Ctx, c: RequestCount): void {
  ctx.r.requests.push(c);
  log(`requests ${c.action}: ${c.requests.length} [${c.requests.join(', ')}]${c.checks?.some((x) => !x.ok) ? ' (a check failed)' : ''}`);
}

/** Requests with their arrival after `t0` (epoch ms). */
function describeAll(reqs: readonly RequestRecord[], t0: number): string[] {
  return reqs.map((r) => `${describeRequest(r)} (+${Math.max(0, r.at - t0)} ms)`);
}

// --- The extension's file system calls, as VS Code makes them ------------------------------------------

interface FsCall {
  op: string;
  id: string;
  /** performance.now() */
  start: number;
  end?: number;
  /** Date.now() at the start (to line up with the sandbox's log). */
  at: number;
}

function traceFs(s: TestServices, calls: FsCall[]): void {
  const fsp = s.fs as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const op of ['stat', 'readFile', 'writeFile']) {
    const original = fsp[op];
    fsp[op] = function (this: unknown, ...args: unknown[]) {
      const uri = args[0] as vscode.Uri;
      const call: FsCall = { op, id: uri.authority.split('.')[0], start: now(), at: Date.now() };
      calls.push(call);
      const done = () => void (call.end = now());
      const r = original.apply(s.fs, args);
      if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).then(done, done);
      else done();
      return r;
    };
  }
}

function fsSince(calls: readonly FsCall[], epoch0: number): string {
  const list = calls.filter((c) => c.at >= epoch0).map((c) => `${c.op} +${c.at - epoch0} ms`);
  return list.length ? `VS Code called ${list.join(', ')}` : 'no file system call';
}

function fsSpans(calls: readonly FsCall[], t0: number, t1: number): Span[] {
  return calls.filter((c) => c.start >= t0 && c.start <= t1).map((c) => [c.start, c.end ?? t1] as const);
}

function median(xs: readonly number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** A CPU profile of this host (node:inspector), written to `file` when stopped; nothing without a file. */
async function startProfile(file: string | undefined): Promise<{ stop(): Promise<void> } | undefined> {
  if (!file) return undefined;
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      session.disconnect();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      log(`CPU profile written to ${file}`);
    },
  };
}

// --- 1. User actions ---------------------------------------------------------------------------------------

/** When each document's save was last announced to extensions (onWillSaveTextDocument), performance.now(). */
const willSave = new WeakMap<vscode.TextDocument, number>();
let willSaveWatch: vscode.Disposable | undefined;

function watchWillSave(): void {
  willSaveWatch ??= vscode.workspace.onWillSaveTextDocument((e) => void willSave.set(e.document, now()));
}

/** Milliseconds from `t0` until the extensions heard of the save of `doc` (VS Code's own participants run after them). */
function willSaveAt(doc: vscode.TextDocument, t0: number): string {
  const at = willSave.get(doc);
  return at === undefined || at < t0 ? 'never' : String(round(at - t0));
}

/**
 * Saves a plain file:// Markdown file of the workspace twice (an edit before each), timed as a user's Ctrl+S is:
 * the save promise. No extension code of ours runs in it: what the first save costs here, VS Code (and the
 * other extensions' save participants) costs every first save of a window.
 */
async function plainFileSaves(ctx: Ctx): Promise<void> {
  watchWillSave();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const file = path.join(folder, 'bench-plain-save.md');
  fs.writeFileSync(file, '# A plain file\n\nSaved by the benchmark.\n');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(doc);
  for (let i = 0; i < 2; i++) {
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), `Edit ${i + 1}.\n`));
    await sleep(300);
    const t0 = now();
    const saved = await doc.save();
    const t1 = now();
    if (!saved) throw new Error(`saving ${file} answered false`);
    addLatency(ctx, 'Save a file:// Markdown file', i === 0, t0, t1, 'the save resolved (editor clean)', {
      own: 0,
      ownWhat: "none (a plain file: VS Code's save alone)",
    });
    log(`save of ${path.basename(file)}: onWillSaveTextDocument at +${willSaveAt(doc, t0)} ms`);
  }
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}

/**
 * Opens Content Docs' views (their container) and times it as their first open: from the command until both views had
 * their rows and the rows' TreeItems. VS Code's part: until the views asked the extension for their rows; own:
 * answering them (the Projects view's request, with the API client loaded on first use; the Documents view from
 * memory), network excluded, plus `build` (building the services, timed before the views opened).
 */
async function openOurViews(ex: readonly ExchangeSeen[], watch: TreeWatch, build: number): Promise<{ sample: LatencySample; rows: number }> {
  const t0 = now();
  await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
  const projRoot = await watch.waitChildren('the Projects view rows', (c) => c.tree === 'projects' && c.node === undefined && !!c.result?.some((n) => n.kind === 'project'));
  const docRoot = await watch.waitChildren('the Documents view rows', (c) => c.tree === 'documents' && c.node === undefined && (c.result?.length ?? 0) > 0);
  const last = projRoot.done >= docRoot.done ? projRoot : docRoot;
  const sample = latencySample(ex, 'Open the views', true, t0 - build, last.done, "both views had their rows and the rows' TreeItems", {
    own: build + ownInsideOf(ex, [[projRoot.start, projRoot.done], [docRoot.start, docRoot.done]], t0, last.done),
    ownWhat: `answering the views' requests for their rows${build ? `, and building the services (${build} ms, timed before the views opened)` : ''}`,
  });
  return { sample, rows: (projRoot.result?.length ?? 0) + (docRoot.result?.length ?? 0) };
}

/**
 * The reference extension's first open, timed as Content Docs' is (openOurViews): from showing its container until
 * its view had its rows and their TreeItems; own: its getChildren and the reading of the rows' TreeItems (it has no
 * network and nothing to build).
 */
async function openReferenceView(): Promise<ViewOpen> {
  const ext = vscode.extensions.getExtension(REFERENCE_ID);
  if (!ext) throw new Error(`the reference extension ${REFERENCE_ID} is not installed in this host`);
  const tree = ((await ext.activate()) as { items?: AnyTree } | undefined)?.items;
  if (!tree) throw new Error('the reference extension did not hand out its tree data provider');
  const watch = new TreeWatch();
  watch.install(tree, 'reference');
  const t0 = now();
  // Its container is in the panel: showing it leaves Content Docs' views in the side bar as they are (hiding them
  // would pause what they do in the background).
  await vscode.commands.executeCommand('workbench.view.extension.benchReference');
  const root = await watch.waitChildren('the reference view rows', (c) => c.node === undefined && (c.result?.length ?? 0) > 0);
  await vscode.commands.executeCommand('workbench.action.closePanel');
  return { totalMs: round(root.done - t0, 2), ownMs: round(root.done - root.start, 2), rows: root.result?.length ?? 0, treeItemMs: round(watch.treeItemMs, 2) };
}

/** The lean-surface reference's handle on its two views (see leanSurfaceExtension in bench.ts). */
interface LeanViews {
  lean: { at?: { projectsUrl: string; key: string }; exchanges: Array<{ start: number; end: number }> };
  documents: AnyTree;
  projects: AnyTree;
}

/**
 * The lean-surface reference's two views, opened and timed as Content Docs' are (openOurViews): what a lean extension
 * pays for this first open, given the same server and key (the Documents view's groups from memory, the Projects
 * view's first page with one GET through the host's https and JSON.parse, a row per project); own: its getChildren
 * and the reading of its rows' TreeItems, its one exchange excluded.
 */
async function openLeanViews(projectsUrl: string, key: string): Promise<ViewOpen> {
  const ext = vscode.extensions.getExtension(LEAN_ID);
  if (!ext) throw new Error(`the lean-surface reference ${LEAN_ID} is not installed in this host`);
  const views = (await ext.activate()) as LeanViews | undefined;
  if (!views?.lean) throw new Error('the lean-surface reference did not hand out its views');
  views.lean.at = { projectsUrl, key };
  // Its welcome views show while this is unset (Content Docs' own contributions, renamed).
  await vscode.commands.executeCommand('setContext', 'benchLean.signedIn', true);
  const watch = new TreeWatch();
  watch.install(views.documents, 'lean-documents');
  watch.install(views.projects, 'lean-projects');
  const t0 = now();
  await vscode.commands.executeCommand('workbench.view.extension.benchLean');
  const projRoot = await watch.waitChildren('the lean Projects view rows', (c) => c.tree === 'lean-projects' && c.node === undefined && (c.result?.length ?? 0) > 0);
  const docRoot = await watch.waitChildren('the lean Documents view rows', (c) => c.tree === 'lean-documents' && c.node === undefined && (c.result?.length ?? 0) > 0);
  const last = Math.max(projRoot.done, docRoot.done);
  const ex: ExchangeSeen[] = views.lean.exchanges.map((e) => ({ end: e.end, ms: e.end - e.start, method: 'GET', path: '/projects', status: 200, background: false }));
  const ownMs = ownInsideOf(ex, [[projRoot.start, projRoot.done], [docRoot.start, docRoot.done]], t0, last);
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  return { totalMs: round(last - t0, 2), ownMs: round(ownMs, 2), rows: (projRoot.result?.length ?? 0) + (docRoot.result?.length ?? 0), treeItemMs: round(watch.treeItemMs, 2) };
}

async function openLean(into: ReferenceOpen, projectsUrl: string, key: string): Promise<void> {
  if (!vscode.extensions.getExtension(LEAN_ID)) return;
  try {
    into.lean = await openLeanViews(projectsUrl, key);
    log(`lean views: first open ${into.lean.totalMs} ms, own ${into.lean.ownMs} ms (${into.lean.rows} rows, getTreeItem ${into.lean.treeItemMs} ms); opened ${into.first === 'reference' ? 'before' : 'after'} Content Docs' views`);
  } catch (e) {
    into.leanError = (e as Error).message;
    log(`lean views: first open failed: ${into.leanError}`);
  }
}

async function openReference(into: ReferenceOpen): Promise<void> {
  try {
    into.open = await openReferenceView();
    log(`reference: first open ${into.open.totalMs} ms, own ${into.open.ownMs} ms (${into.open.rows} rows, getTreeItem ${into.open.treeItemMs} ms); opened ${into.first === 'reference' ? 'before' : 'after'} Content Docs' views`);
  } catch (e) {
    into.error = (e as Error).message;
    log(`reference: first open failed: ${into.error}`);
  }
}

/**
 * In a fresh start (activation mode with a sandbox): Content Docs' first open as the main run times it (the services
 * built and timed once the host is quiet, signed in to the sandbox, the views opened with the sandbox adding
 * LATENCY_MS to every answer), and the reference's first open before or after it (`first`).
 */
async function firstOpensInFreshStart(first: ReferenceOpen['first']): Promise<NonNullable<ActivationSample['firstOpen']>> {
  const out: NonNullable<ActivationSample['firstOpen']> = { reference: { first }, window: process.env[ENV.window] === 'later' ? 'later' : 'first' };
  const docsUrl = process.env[ENV.docsUrl]!;
  const seoUrl = process.env[ENV.seoUrl];
  const key = process.env[ENV.key];
  if (!seoUrl || !key) return { ...out, error: `${ENV.seoUrl} and ${ENV.key} must be set` };
  let subscription: vscode.Disposable | undefined;
  try {
    const ctl = new SandboxControl(process.env[ENV.controlUrl] ?? docsUrl);
    const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TestApi;
    // The host was quiet before the activation figures were read: a shorter wait than the main run's.
    await quietHost(1000, 500, 5000);
    await ctl.rateLimit(0);
    await ctl.latency(0);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    // Signed in as a restored window is: the servers in the settings, the key in SecretStorage, the services not built
    // (activation built none). The views' first request for rows builds them, as in a window opened after a restart.
    await configure('documents.baseUrl', docsUrl);
    await configure('projects.baseUrl', seoUrl);
    await api.credentials.setKey(key);
    const ex: ExchangeSeen[] = [];
    const watch = new TreeWatch();
    // The views' providers as VS Code asks them: their first ask builds the services (timed inside the open).
    for (const [name, provider] of [['documents', api.views.documents as unknown as AnyTree], ['projects', api.views.projects as unknown as AnyTree]] as const) {
      const ask = provider.getChildren.bind(provider);
      provider.getChildren = (node?: unknown) => {
        const rows = ask(node);
        // Built by now (synchronously, by the first ask): its exchanges are heard from here on (none has ended yet).
        subscription ??= api.services.registry.onDidExchange(({ exchange: e }) => ex.push({ end: now(), ms: e.ms, method: e.method, path: e.path, status: e.status, background: e.priority === 'background' }));
        return rows;
      };
      watch.install(provider, name);
    }
    await sleep(500);
    await ctl.settle();
    await ctl.latency(LATENCY_MS);
    if (first === 'reference') {
      await openReference(out.reference);
      await quietHost(1000, 500, 5000);
      await openLean(out.reference, seoUrl, key);
      await ctl.settle();
      await quietHost(1000, 500, 5000);
    }
    if (api.codeCache.loads.some((l) => l.name === 'core')) throw new Error('the services were built before the views opened');
    // BENCH_PROFILE_FROM=first-window: each fresh start writes the file again (the last start's is kept).
    const profile = process.env.BENCH_PROFILE_FROM === 'first-window' ? await startProfile(process.env.BENCH_PROFILE) : undefined;
    const opened = await openOurViews(ex, watch, 0);
    await profile?.stop();
    out.ours = opened.sample;
    out.rows = opened.rows;
    out.servicesMs = api.codeCache.loads.find((l) => l.name === 'core')?.ms;
    out.bundleLoads = api.codeCache.loads.map((l) => ({ ...l, ms: round(l.ms, 2) }));
    logLatency(opened.sample);
    await ctl.settle();
    if (first === 'content-docs') {
      await quietHost(1000, 500, 5000);
      await openReference(out.reference);
      await quietHost(1000, 500, 5000);
      await openLean(out.reference, seoUrl, key);
    }
    // What V8 compiled of the lazy bundles, written now (a window writes it a few seconds after a load): the start
    // after a first window is a later window with it.
    await api.codeCache.flush();
  } catch (e) {
    out.error = (e as Error).stack ?? String(e);
    log(`first opens failed: ${(e as Error).message}`);
  } finally {
    subscription?.dispose();
  }
  return out;
}

/** Opening the views, expanding, paging, opening, saving, renaming, favoriting, searching. */
async function userActions(ctx: Ctx): Promise<void> {
  const { s, ctl, watch, ex, base } = ctx;
  const docsTree = s.documentsTree;
  const docsView = docsTree.treeView!;
  const projView = s.projectsTree.treeView!;

  // The reference extension's first open, before or after ours (bench.ts alternates the order between starts).
  const withReference = vscode.extensions.getExtension(REFERENCE_ID) !== undefined;
  const referenceFirst = process.env[ENV.referenceFirst] === '1';
  if (withReference) ctx.r.reference = { first: referenceFirst ? 'reference' : 'content-docs' };
  if (withReference && referenceFirst) {
    await openReference(ctx.r.reference!);
    await quietHost(1000, 500, 5000);
  }
  // Open the views (the first request of the session: it loads dist/api.js).
  await ctl.resetRequests();
  const fromExpand = process.env.BENCH_PROFILE_FROM === 'expand';
  let profile = fromExpand || process.env.BENCH_PROFILE_FROM === 'services' ? undefined : await startProfile(process.env.BENCH_PROFILE);
  let e0 = Date.now();
  let t0: number;
  // Building the services, done before the views opened in this run (see mainRun), is part of the first open.
  const opened = await openOurViews(ex, watch, ctx.r.servicesMs ?? 0);
  ctx.r.latency.push(opened.sample);
  ctx.r.firstOpenRows = opened.rows;
  logLatency(opened.sample);
  let reqs = await ctl.settle();
  const visible = [docsView.visible, projView.visible].filter(Boolean).length;
  // The session's first successful documents answer (here the Documents view's background count) also brings the
  // plan usage for the status bar: one GET /account after that answer, once a session. Counted apart from the views'.
  const firstUsage = reqs.filter((r) => r.route === 'account');
  const viewsOwn = reqs.filter((r) => r.route !== 'account');
  // The sandbox holds every answer LATENCY_MS: no answer to the views was out before the first arrival plus that.
  const firstAnswer = Math.min(...viewsOwn.filter((r) => r.server === 'documents').map((r) => r.at)) + LATENCY_MS;
  addCount(ctx, {
    action: 'Open the views',
    requests: describeAll(viewsOwn, e0),
    allowed: visible,
    checks: [
      { what: 'at most one plan-usage read', ok: firstUsage.length <= 1, detail: `${firstUsage.length}` },
      {
        what: 'the plan-usage read after the first documents answer',
        ok: firstUsage.every((r) => r.at >= firstAnswer),
        detail: describeAll(firstUsage, e0).join(', '),
      },
    ],
    note:
      `${visible} view(s) visible; the Documents view lists templates from the local table and counts them in the background; ` +
      `plus ${firstUsage.length} GET /account for the status bar's plan usage, once a session${firstUsage.length ? ` (${describeAll(firstUsage, e0).join(', ')})` : ''}`,
  });
  ctx.r.loading.afterFirstRequest = loadedFiles();
  if (withReference && !referenceFirst) {
    await quietHost(1000, 500, 5000);
    await openReference(ctx.r.reference!);
  }

  // The views' background count walks All Documents a page at a time, paced further apart than a settle's quiet
  // (its next page can fall inside the next action): it is over before the actions below are counted, so that each
  // counts its own requests. The burst rows measure the writer's requests beside background work.
  await docsTree.model.countingDone;
  await ctl.settle();

  // Expand a template (three times, the first is the first list request).
  const groups = [4, 9, 1].map((id) => docsTree.templateGroup(id)!);
  for (const [i, g] of groups.entries()) {
    await ctl.resetRequests();
    if (i === 0 && fromExpand) profile = await startProfile(process.env.BENCH_PROFILE);
    e0 = Date.now();
    t0 = now();
    const revealed = Promise.resolve(docsView.reveal(g as never, { expand: true, select: false, focus: false })).then(() => now());
    const call = await watch.waitChildren(`the rows of ${g.name}`, (c) => c.node === g && c.end! > t0 && docsOf(c.result).length > 0);
    const end = Math.max(call.done, await revealed);
    addLatency(ctx, 'Expand a template', i === 0, t0, end, 'the view had the rows and their TreeItems (and reveal with expand resolved)', {
      own: ownInside(ctx, [[call.start, call.done]], t0, end),
      ownWhat: "answering the view's request for the group's rows",
    });
    reqs = await ctl.settle();
    if (i === 0) {
      // The session's first documents request also brings the plan usage for the status bar: one GET /account,
      // in the background, once a session. Counted apart from the action's own requests.
      const usage = reqs.filter((r) => r.route === 'account');
      const own = reqs.filter((r) => r.route !== 'account');
      addCount(ctx, {
        action: 'Expand a template',
        requests: describeAll(own, e0),
        allowed: 1,
        expected: 1,
        checks: [
          { what: 'lists that template', ok: own.every((r) => r.query.template_id === String(g.templateId)) },
          { what: 'at most one plan-usage read (first documents request of the session)', ok: usage.length <= 1, detail: `${usage.length}` },
        ],
        note: `plus ${usage.length} GET /account for the status bar's plan usage, once a session; after the views' background count finished`,
      });
      await profile?.stop();
    }
  }
  // Baseline: a change event of a group until the view has re-fetched its rows.
  const refresh: number[] = [];
  for (let i = 0; i < 3; i++) {
    await sleep(400);
    const g = groups[i % 2];
    t0 = now();
    (docsTree as unknown as { fire(n: unknown): void }).fire(g);
    const call = await watch.waitChildren('the refreshed group', (c) => c.node === g && c.start > t0);
    refresh.push(call.end! - t0);
  }
  base.viewRefreshMs = round(median(refresh));
  log(`baseline: view refresh ${refresh.map((x) => round(x)).join(', ')} ms`);

  // Load more (Article 68 and Blog post 63 documents: a second page each).
  for (const [i, g] of groups.slice(0, 2).entries()) {
    await sleep(400);
    const last = watch.lastResult(g);
    const more = last.find((n) => n.kind === 'loadMore');
    if (!more) throw new Error(`no Load more row in ${g.name}`);
    const before = docsOf(last).length;
    await ctl.resetRequests();
    e0 = Date.now();
    t0 = now();
    await vscode.commands.executeCommand('contentDocs.documentsLoadMore', more);
    const exEnd = lastExchangeEnd(ex, t0);
    const call = await watch.waitChildren(`page 2 of ${g.name}`, (c) => c.node === g && c.start >= exEnd && docsOf(c.result).length > before);
    addLatency(ctx, 'Load more', i === 0, t0, call.done, "the view re-fetched the group's rows and their TreeItems", {
      baselineMs: base.viewRefreshMs,
      baselineWhat: "a change event until the view re-fetched the group's rows, measured alone",
    });
    reqs = await ctl.settle();
    if (i === 0) addCount(ctx, { action: 'Load more', requests: describeAll(reqs, e0), allowed: 1, expected: 1 });
  }

  // A plain file:// Markdown file saved twice first: the window's first save of any file, against which the first
  // save of a document below compares (what VS Code does on a first save whoever the file system is).
  await plainFileSaves(ctx);

  // Open a document, edit, save (three documents of Article).
  const articleRows = docsOf(watch.lastResult(groups[0]));
  for (let i = 0; i < 3; i++) {
    const id = articleRows[i].doc!.id;
    await ctl.resetRequests();
    e0 = Date.now();
    t0 = now();
    await vscode.commands.executeCommand('contentDocs.documentOpen', { id });
    const t1 = now();
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.authority.split('.')[0] !== String(id)) throw new Error(`document ${id} did not open`);
    const answered = ex.filter((x) => x.end >= t0 && x.path.startsWith('/documents/')).reduce((m, x) => Math.min(m, x.end), t1);
    const showAt = ctx.shows.find((x) => x.at >= t0 && x.id === String(id))?.at ?? answered;
    const fsOwn = ownInside(ctx, fsSpans(ctx.fsCalls, t0, t1), t0, t1);
    const sample = addLatency(ctx, 'Open a document', i === 0, t0, t1, 'the editor showed it (the open command resolved)', {
      own: ownInside(ctx, [[t0, showAt], ...fsSpans(ctx.fsCalls, t0, t1)], t0, t1),
      ownWhat: 'the command until it asked VS Code to show the document, then the stat/readFile calls VS Code made',
    });
    const firstStart = ex.filter((x) => x.end >= t0 && x.path.startsWith('/documents/')).reduce((m, x) => Math.min(m, x.end - x.ms), t1);
    sample.parts = { beforeRequest: round(firstStart - t0), answerToShow: round(showAt - answered), fileSystem: round(fsOwn) };
    reqs = await ctl.settle();
    if (i === 0) {
      // Which file system call each GET after the command's own answered (the nearest one started before it).
      const gets = reqs.filter((r) => r.method === 'GET').slice(1);
      const causes = gets.map((r) => {
        const c = [...ctx.fsCalls].reverse().find((f) => f.at <= r.at && f.at >= e0);
        return c ? `the GET at +${r.at - e0} ms is for VS Code's ${c.op} at +${c.at - e0} ms` : `a GET at +${r.at - e0} ms`;
      });
      addCount(ctx, {
        action: 'Open a document',
        requests: describeAll(reqs, e0),
        allowed: 1,
        expected: 1,
        note: `${fsSince(ctx.fsCalls, e0)}${causes.length ? `; ${causes.join('; ')}` : ''}`,
      });
    }

    const doc = editor.document;
    const text = `Benchmark edit ${i + 1}.\n\n${doc.getText()}`.slice(0, 20_000);
    // An edit can be refused (VS Code's copy of the document moved on meanwhile, e.g. a reload from the file
    // system): then there is nothing to save and save() answers false without a call. Edit until it is dirty.
    for (let attempt = 1; !doc.isDirty; attempt++) {
      const shown = vscode.window.visibleTextEditors.find((e) => e.document === doc) ?? (await vscode.window.showTextDocument(doc));
      const applied = await shown.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
      if (!applied || !doc.isDirty) log(`edit ${attempt} of document ${id} ${applied ? 'applied but left it clean' : 'was refused'} (version ${doc.version})`);
      if (doc.isDirty) break;
      if (attempt >= 5) throw new Error(`document ${id}: five edits were refused`);
      await sleep(100);
    }
    await ctl.resetRequests();
    watchWillSave();
    e0 = Date.now();
    t0 = now();
    const saved = await doc.save();
    const t2 = now();
    if (!saved) {
      const fsLog = ctx.logs.lines.filter((l) => l.includes('[fs]')).slice(-3).join(' | ');
      throw new Error(`saving document ${id} failed (${fsSince(ctx.fsCalls, e0)}; log: ${fsLog || 'nothing'})`);
    }
    addLatency(ctx, 'Save', i === 0, t0, t2, 'the save resolved (editor clean)', {
      own: ownInside(ctx, fsSpans(ctx.fsCalls, t0, t2), t0, t2),
      ownWhat: 'the stat/writeFile calls VS Code made',
    });
    reqs = await ctl.settle();
    const will = willSaveAt(doc, t0);
    log(`save of document ${id}: onWillSaveTextDocument at +${will} ms, ${fsSince(ctx.fsCalls, e0)}`);
    if (i === 0) addCount(ctx, { action: 'Save', requests: describeAll(reqs, e0), allowed: 2, note: `${fsSince(ctx.fsCalls, e0)}; onWillSaveTextDocument at +${will} ms` });
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await ctl.settle();

  // Rename (rows of Article that are not open) and favorite (rows of Blog post).
  const renameRows = articleRows.slice(3, 8);
  for (const [i, row] of renameRows.entries()) {
    await sleep(400);
    const name = `Renamed by the benchmark ${i + 1}`;
    ctx.prompter.answer = (q) => (q.kind === 'input' ? name : undefined);
    watch.tracked.add(row);
    await ctl.resetRequests();
    e0 = Date.now();
    t0 = now();
    await vscode.commands.executeCommand('contentDocs.documentRename', row);
    const exEnd = lastExchangeEnd(ex, t0);
    const pushed = await watch.waitItem('the renamed row', (it) => it.node === row && it.at >= exEnd && it.label === name);
    addLatency(ctx, 'Rename', i === 0, t0, pushed.at, 'the extension handed the changed row to the view', { own: pushed.at - t0 - serverTime(ex, t0, pushed.at).ms, ownWhat: 'all of it but the trip' });
    reqs = await ctl.settle();
    if (i === 0) {
      addCount(ctx, {
        action: 'Rename',
        requests: describeAll(reqs, e0),
        allowed: 1,
        expected: 1,
        checks: [{ what: 'no list refetched', ok: !reqs.some((r) => r.method === 'GET'), detail: reqs.filter((r) => r.method === 'GET').map(describeRequest).join(', ') }],
      });
    }
  }
  ctx.prompter.answer = () => undefined;
  const blogRows = docsOf(watch.lastResult(groups[1])).filter((n) => !n.doc!.favorite).slice(0, 5);
  for (const [i, row] of blogRows.entries()) {
    await sleep(400);
    watch.tracked.add(row);
    await ctl.resetRequests();
    e0 = Date.now();
    t0 = now();
    await vscode.commands.executeCommand('contentDocs.documentFavorite', row);
    const exEnd = lastExchangeEnd(ex, t0);
    const pushed = await watch.waitItem('the starred row', (it) => it.node === row && it.at >= exEnd && it.icon === 'star-full');
    addLatency(ctx, 'Favorite', i === 0, t0, pushed.at, 'the extension handed the changed row to the view', { own: pushed.at - t0 - serverTime(ex, t0, pushed.at).ms, ownWhat: 'all of it but the trip' });
    reqs = await ctl.settle();
    if (i === 0) {
      addCount(ctx, {
        action: 'Favorite',
        requests: describeAll(reqs, e0),
        allowed: 1,
        expected: 1,
        checks: [{ what: 'no list refetched', ok: !reqs.some((r) => r.method === 'GET'), detail: reqs.filter((r) => r.method === 'GET').map(describeRequest).join(', ') }],
      });
    }
  }

  // Search… in the Documents view (by name).
  for (const [i, text] of ['guide', 'coffee', 'plan', 'launch', 'tips'].entries()) {
    await sleep(400);
    ctx.prompter.answer = (q) => (q.kind === 'pick' ? q.items?.find((l) => l.includes('Search by Name')) : q.kind === 'input' ? text : undefined);
    await ctl.resetRequests();
    e0 = Date.now();
    t0 = now();
    await vscode.commands.executeCommand('contentDocs.documentsSearch');
    const sg = docsTree.searchGroup;
    const exEnd = lastExchangeEnd(ex, t0);
    const call = await watch.waitChildren('the search results', (c) => c.node === sg && c.end! >= exEnd && (c.result?.length ?? 0) > 0);
    addLatency(ctx, 'Search (Documents view)', i === 0, t0, call.done, 'the Search results rows and their TreeItems were handed to the view', {
      own: call.done - t0 - serverTime(ex, t0, call.done).ms,
      ownWhat: 'all of it but the trip (the command runs in the extension until the rows are handed over)',
    });
    reqs = await ctl.settle();
    if (i === 0) addCount(ctx, { action: 'Search (Documents view)', requests: describeAll(reqs, e0), allowed: 1, expected: 1 });
  }
  ctx.prompter.answer = () => undefined;
  await vscode.commands.executeCommand('contentDocs.documentsClearSearch');
  await ctl.settle();

  // Go to Document: the picker lists the newest documents, then one request per settled query.
  const qpw = new QuickPickWatch().install();
  try {
    await ctl.resetRequests();
    e0 = Date.now();
    const done = vscode.commands.executeCommand('contentDocs.documentGoTo');
    await until('the Go to Document items', () => qpw.itemsSet.length > 0);
    reqs = await ctl.settle();
    addCount(ctx, { action: 'Go to Document: open', requests: describeAll(reqs, e0), allowed: 1, expected: 1 });
    await sleep(300);
    await ctl.resetRequests();
    e0 = Date.now();
    const mark = qpw.itemsSet.length;
    await typeFast(['c', 'a', 'f', 'e']);
    const settled = await until('the value "cafe"', () => qpw.values.find((v) => v.value === 'cafe'));
    const items = await until('the items for "cafe"', () => qpw.itemsSet.slice(mark).find((x) => x.at > settled.at));
    addLatency(ctx, 'Go to Document: typed query', true, settled.at, items.at, 'the Quick Pick got its items (from the last keystroke)', {
      own: items.at - settled.at - ctx.debounceMs - serverTime(ex, settled.at, items.at).ms,
      ownWhat: 'all of it but the trip and the designed debounce',
      designedWaitMs: ctx.debounceMs,
    });
    reqs = await ctl.settle();
    const vals = qpw.values;
    addCount(ctx, {
      action: 'Go to Document: type "cafe"',
      requests: describeAll(reqs, e0),
      allowed: 1,
      expected: 1,
      note: `keystrokes ${vals.map((v) => `"${v.value}"`).join(', ')} within ${Math.round(vals[vals.length - 1].at - vals[0].at)} ms`,
    });
    await press('Escape');
    await Promise.race([done, sleep(5000)]);
  } finally {
    qpw.dispose();
  }

  await ctl.settle();
}

// --- Generate: a writing action on a file:// Markdown file ----------------------------------------------------

/** What the sandbox's text generator takes per store while Generate is timed (the server writes during the request). */
const GENERATION_MS = 1500;

/**
 * Rewrite Selection on a file:// Markdown file, five times, against a server that takes GENERATION_MS to write:
 * the requests of each run (exactly one store, at most one account read) and the extension's own time, which is
 * the command's time less the HTTP exchanges (the generation is inside the store's) and less the VS Code calls
 * it waits for (the progress notification, opening the proposal document, setting its language, the diff).
 */
async function generateAction(ctx: Ctx): Promise<GenerateResult> {
  const { ctl, ex, prompter } = ctx;
  const action = 'Rewrite Selection (file:// Markdown)';
  const result: GenerateResult = { action, generationMs: GENERATION_MS, latencyMs: LATENCY_MS, runs: [] };
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) return { ...result, error: 'no file:// workspace folder is open' };
  const uri = vscode.Uri.joinPath(folder.uri, 'bench-generate.md');
  const text = ['# Release notes', '', 'We ship the new editor on Monday.', 'It replaces the old one and keeps your drafts.', '', '- Faster saves', '- A new toolbar', ''].join('\n');
  fs.writeFileSync(uri.fsPath, text);

  // The VS Code calls the command waits for, timed where the extension makes them (the API object is shared).
  const waits: Array<[number, number]> = [];
  const timedCall = <T>(call: () => Thenable<T>): Thenable<T> => {
    const t = now();
    const p = Promise.resolve(call());
    void p.then(
      () => waits.push([t, now()]),
      () => waits.push([t, now()]),
    );
    return p;
  };
  const w = vscode.workspace as unknown as { openTextDocument: (...a: unknown[]) => Thenable<vscode.TextDocument> };
  const c = vscode.commands as unknown as { executeCommand: (id: string, ...a: unknown[]) => Thenable<unknown> };
  const l = vscode.languages as unknown as { setTextDocumentLanguage: (...a: unknown[]) => Thenable<vscode.TextDocument> };
  const win = vscode.window as unknown as { withProgress: (o: vscode.ProgressOptions, task: (...a: never[]) => Thenable<unknown>) => Thenable<unknown> };
  const originals = { open: w.openTextDocument, exec: c.executeCommand, lang: l.setTextDocumentLanguage, progress: win.withProgress };
  let timing = false;
  w.openTextDocument = function (...a: unknown[]) {
    const u = a[0] as vscode.Uri | undefined;
    return timing && u instanceof vscode.Uri && u.scheme === 'content-docs-proposal' ? timedCall(() => originals.open.apply(vscode.workspace, a)) : originals.open.apply(vscode.workspace, a);
  };
  c.executeCommand = function (id: string, ...a: unknown[]) {
    return timing && id === 'vscode.diff' ? timedCall(() => originals.exec.call(vscode.commands, id, ...a)) : originals.exec.call(vscode.commands, id, ...a);
  };
  l.setTextDocumentLanguage = function (...a: unknown[]) {
    return timing ? timedCall(() => originals.lang.apply(vscode.languages, a)) : originals.lang.apply(vscode.languages, a);
  };
  // The progress notification: from asking for it until VS Code runs the task, and from the task's end until it returns.
  win.withProgress = function (o: vscode.ProgressOptions, task: (...a: never[]) => Thenable<unknown>) {
    if (!timing) return originals.progress.call(vscode.window, o, task);
    const asked = now();
    let started = 0;
    let ended = 0;
    return originals.progress
      .call(vscode.window, o, (...a: never[]) => {
        started = now();
        return Promise.resolve(task(...a)).finally(() => void (ended = now()));
      })
      .then(
        (v) => {
          waits.push([asked, started], [ended, now()]);
          return v;
        },
        (e) => {
          waits.push([asked, started], [ended, now()]);
          throw e;
        },
      );
  };

  try {
    await ctl.storeDelay(GENERATION_MS);
    for (let i = 0; i < 5; i++) {
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc, { preview: false });
      editor.selection = new vscode.Selection(2, 0, 3, doc.lineAt(3).text.length);
      await sleep(300);
      await ctl.settle();
      await ctl.resetRequests();
      prompter.confirms.push(true);
      waits.length = 0;
      const e0 = Date.now();
      timing = true;
      const t0 = now();
      const out = await vscode.commands.executeCommand<{ proposal?: { uri: vscode.Uri } } | undefined>('contentDocs.selectionRewrite');
      const t1 = now();
      timing = false;
      if (!out?.proposal) throw new Error(`run ${i + 1}: no proposal (${ctx.messages.shown.slice(-1)[0]?.message ?? 'no message'})`);
      const network = exchangeSpans(ex, t0, t1);
      const vscodeSpans = merge(waits.map(([a, b]) => [Math.max(a, t0), Math.min(b, t1)] as const));
      const networkMs = spanLength(network);
      const vscodeMs = spanLength(vscodeSpans) - intersectLength(vscodeSpans, network);
      const reqs = await ctl.settle();
      result.runs.push({
        first: i === 0,
        totalMs: round(t1 - t0),
        networkMs: round(networkMs),
        vscodeMs: round(vscodeMs),
        ownMs: round(Math.max(0, t1 - t0 - spanLength(merge([...network, ...vscodeSpans])))),
        stores: reqs.filter((r) => r.route === 'documents.store').length,
        accountReads: reqs.filter((r) => r.route === 'account').length,
        requests: describeAll(reqs, e0),
      });
      const last = result.runs[result.runs.length - 1];
      log(`generate ${i + 1}: total ${last.totalMs} ms = network ${last.networkMs} + VS Code ${last.vscodeMs} + own ${last.ownMs}; ${last.requests.join(', ')}`);
      await vscode.commands.executeCommand('contentDocs.proposalDiscard', out.proposal.uri);
      await sleep(200);
    }
  } catch (e) {
    result.error = (e as Error).message;
  } finally {
    timing = false;
    w.openTextDocument = originals.open;
    c.executeCommand = originals.exec;
    l.setTextDocumentLanguage = originals.lang;
    win.withProgress = originals.progress;
    await ctl.storeDelay(0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
  return result;
}

// --- 2. A 10,000-document account -------------------------------------------------------------------------

/** Page through the largest template, open 100 documents, close them; memory before and after. */
async function largeAccount(ctx: Ctx): Promise<LargeAccountResult> {
  const { s, ctl, watch, ex } = ctx;
  const docsTree = s.documentsTree;
  const view = docsTree.treeView!;
  await ctl.latency(0);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  // The view on screen (when this phase runs alone, nothing opened it): a hidden view asks for no rows.
  await vscode.commands.executeCommand('contentDocs.documents.focus');
  await vscode.commands.executeCommand('workbench.actions.treeView.contentDocs.documents.collapseAll').then(undefined, () => undefined);
  const seeded = await ctl.reseed('large');
  // A fresh API client: no pacing state left over from the rate-limit burst.
  await configure('network.timeoutSeconds', 31);
  await configure('network.timeoutSeconds', undefined);
  await vscode.commands.executeCommand('contentDocs.documentsRefresh');
  await ctl.settle();
  const pageSize = vscode.workspace.getConfiguration('contentDocs').get<number>('documents.pageSize') ?? 50;
  // One tab per document (no preview tab replacing the last one).
  await vscode.workspace.getConfiguration('workbench.editor').update('enablePreview', false, vscode.ConfigurationTarget.Global);

  s.api.get(); // the API client in place (as after any earlier request): its code is not the large account's memory
  const { gc, how } = findGc();
  await sleep(500);
  watch.keepCalls = false;
  const baseline = await memory(gc);
  log(`large: ${seeded.documents} documents; baseline ${JSON.stringify(baseline)} (${how})`);

  const g = docsTree.templateGroup(1)!;
  let t0 = now();
  await Promise.resolve(view.reveal(g as never, { expand: true, select: false, focus: false }));
  let call = await watch.waitChildren('Freestyle rows', (c) => c.node === g && c.end! > t0 && docsOf(c.result).length > 0);
  const pages: LargeAccountResult['pages'] = [];
  const firstServer = serverTime(ex, t0, call.done);
  pages.push({ page: 1, rows: docsOf(call.result).length, totalMs: round(call.done - t0), serverMs: round(firstServer.ms), ownMs: round(call.done - t0 - firstServer.ms), viewFetchMs: round(call.end! - call.start), treeItems: 0 });
  let rows = docsOf(call.result);
  for (let page = 2; page <= 400; page++) {
    await sleep(250); // a user's pace: the view's 200 ms refresh debounce runs out between two clicks
    const more = (call.result ?? []).find((n) => n.kind === 'loadMore');
    if (!more) break;
    const before = rows.length;
    const itemsBefore = watch.treeItemCalls;
    const itemMsBefore = watch.treeItemMs;
    t0 = now();
    await vscode.commands.executeCommand('contentDocs.documentsLoadMore', more);
    const tCmd = now();
    const exEnd = lastExchangeEnd(ex, t0);
    call = await watch.waitChildren(`page ${page}`, (c) => c.node === g && c.start >= exEnd && docsOf(c.result).length > before, 30_000);
    rows = docsOf(call.result);
    await sleep(100);
    const sv = serverTime(ex, t0, call.done);
    const treeItemMs = watch.treeItemMs - itemMsBefore;
    pages.push({
      page,
      rows: rows.length,
      totalMs: round(call.done - t0),
      serverMs: round(sv.ms),
      ownMs: round(call.done - t0 - sv.ms),
      viewFetchMs: round(call.end! - call.start, 2),
      treeItems: watch.treeItemCalls - itemsBefore,
      treeItemMs: round(treeItemMs, 2),
      extensionMs: round(tCmd - t0 - serverTime(ex, t0, tCmd).ms + (call.end! - call.start) + treeItemMs, 2),
    });
    if (page % 10 === 0) log(`large: page ${page}, ${rows.length} rows, ${pages[pages.length - 1].totalMs} ms`);
  }
  await ctl.settle(500);
  const afterPaging = await memory(gc);
  log(`large: ${pages.length} pages, ${rows.length} rows; memory ${JSON.stringify(afterPaging)}`);

  const opens: LargeAccountResult['opens'] = [];
  for (const row of rows.slice(0, 100)) {
    const id = row.doc!.id;
    t0 = now();
    await vscode.commands.executeCommand('contentDocs.documentOpen', { id });
    const t1 = now();
    const showAt = ctx.shows.find((x) => x.at >= t0 && x.id === String(id))?.at ?? t1;
    opens.push({ id, ms: round(t1 - t0), serverMs: round(serverTime(ex, t0, t1).ms), ownMs: round(ownInside(ctx, [[t0, showAt], ...fsSpans(ctx.fsCalls, t0, t1)], t0, t1)) });
  }
  await ctl.settle(500);
  const withEditorsOpen = await memory(gc);
  log(`large: opened ${opens.length} documents; memory ${JSON.stringify(withEditorsOpen)}`);

  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const openDocs = () => vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'content-docs').length;
  const deadline = Date.now() + 10_000;
  while (openDocs() > 0 && Date.now() < deadline) await sleep(200);
  await sleep(500);
  const afterClosing = await memory(gc);
  log(`large: editors closed (${openDocs()} documents still open in the host); memory ${JSON.stringify(afterClosing)}`);
  watch.keepCalls = true;
  await vscode.workspace.getConfiguration('workbench.editor').update('enablePreview', undefined, vscode.ConfigurationTarget.Global);

  return {
    documents: seeded.documents,
    template: g.name,
    pageSize,
    pages,
    opens,
    memory: { gc: how, baseline, afterPaging, withEditorsOpen, afterClosing },
    documentsLeftOpen: openDocs(),
  };
}

// --- 3. A burst against a rate limit -----------------------------------------------------------------------

/** Against a 60 requests/minute server: does the user ever see a 429? */
async function rateLimitBurst(ctx: Ctx): Promise<RateLimitResult> {
  const { s, ctl, watch, messages, logs } = ctx;
  const docsTree = s.documentsTree;
  const view = docsTree.treeView!;
  const steps: string[] = [];
  await ctl.latency(0);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
  await vscode.commands.executeCommand('workbench.actions.treeView.contentDocs.documents.collapseAll').then(undefined, () => undefined);
  // A fresh API client (a network setting change rebuilds it), as after a restart: its pacing starts from nothing.
  await configure('network.timeoutSeconds', 31);
  await configure('network.timeoutSeconds', undefined);
  await vscode.commands.executeCommand('contentDocs.documentsRefresh');
  await ctl.settle();
  await ctl.rateLimit(RATE_LIMIT);
  await ctl.resetRateLimit();
  await ctl.resetRequests();
  messages.clear();
  watch.errorRows.length = 0;
  const logMark = logs.lines.length;
  const viewMessages = new Set<string>();
  const T0 = Date.now();
  const at = () => `${((Date.now() - T0) / 1000).toFixed(1)} s`;

  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const m = docsTree.message;
      if (m) viewMessages.add(m);
      await sleep(250);
    }
  })();

  // Back Up Account to Folder… of the account into a new folder, running through the burst (background work).
  const backupFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-burst-backup-'));
  const backupT0 = now();
  let backupOutcome = 'still running at the end of the burst';
  let backupSeconds: number | undefined;
  const backupRun = Promise.resolve(vscode.commands.executeCommand<{ report?: { seen?: number }; error?: { message: string } }>('contentDocs.backupAccount', { folder: backupFolder })).then(
    (out) => {
      backupSeconds = round((now() - backupT0) / 1000, 1);
      backupOutcome = out?.error ? `failed: ${out.error.message}` : `${out?.report?.seen ?? '?'} documents in ${backupSeconds} s`;
    },
    (e: unknown) => void (backupOutcome = `failed: ${(e as Error).message}`),
  );
  steps.push(`${at()} Back Up Account to Folder… started`);
  // A user expanding ten templates in a row…
  const ids = [2, 3, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18];
  await Promise.all(ids.map((id) => Promise.resolve(view.reveal(docsTree.templateGroup(id)! as never, { expand: true, select: false, focus: false })).then(undefined, () => undefined)));
  steps.push(`${at()} expanded ${ids.length} templates`);
  for (let i = 0; i < 3; i++) {
    await sleep(1000);
    await vscode.commands.executeCommand('contentDocs.documentsRefresh');
    await vscode.commands.executeCommand('contentDocs.projectsRefresh');
    steps.push(`${at()} Refresh (documents and projects)`);
  }
  await vscode.commands.executeCommand('contentDocs.documentsHideEmpty');
  steps.push(`${at()} Hide Empty Templates (background counts)`);
  await sleep(1000);
  await vscode.commands.executeCommand('contentDocs.documentsRefresh');
  await vscode.commands.executeCommand('contentDocs.projectsRefresh');
  steps.push(`${at()} Refresh (documents and projects)`);
  const qpw = new QuickPickWatch().install();
  let gotoAnswerMs: number | undefined;
  try {
    const done = vscode.commands.executeCommand('contentDocs.documentGoTo');
    await until('the Go to Document picker', () => qpw.itemsSet.length > 0, 20_000).catch(() => undefined);
    await sleep(300);
    await typeFast(['b', 'l', 'o', 'g']);
    await sleep(700);
    await typeFast(['Backspace', 'Backspace', 'Backspace', 'Backspace', 'p', 'l', 'a', 'n']);
    await sleep(700);
    await typeFast(['Backspace', 'Backspace', 'Backspace', 'Backspace', 'c', 'a', 'f', 'e']);
    const typed = await until('the value "cafe"', () => qpw.values.find((v) => v.value === 'cafe'), 10_000).catch(() => undefined);
    steps.push(`${at()} Go to Document: typed "blog", "plan", "cafe"`);
    // How long the user waits for the answer while the client paces its requests (up to 60 s).
    if (typed) {
      const answer = await until('the Go to Document items for "cafe"', () => qpw.itemsSet.find((x) => x.at > typed.at), 60_000).catch(() => undefined);
      gotoAnswerMs = answer ? round(answer.at - typed.at) : undefined;
      steps.push(`${at()} Go to Document ${answer ? `answered ${((answer.at - typed.at) / 1000).toFixed(1)} s after the last keystroke` : 'had no answer after 60 s'}`);
    }
    await press('Escape');
    await Promise.race([done, sleep(5000)]);
  } finally {
    qpw.dispose();
  }
  for (const item of qpw.itemsSet) for (const l of item.labels) if (/\$\(error\)/.test(l)) viewMessages.add(`Go to Document: ${l}`);

  while (Date.now() - T0 < RATE_WINDOW_MS) await sleep(500);
  steps.push(`${at()} observed for ${RATE_WINDOW_MS / 1000} s; Show Empty Templates stops the counting`);
  await vscode.commands.executeCommand('contentDocs.documentsShowEmpty');
  sampling = false;
  await sampler;
  const reqs = await ctl.settle(1000);
  await ctl.rateLimit(0);
  await Promise.race([backupRun, sleep(60_000)]);
  fs.rmSync(backupFolder, { recursive: true, force: true });
  const backupLists = reqs.filter((r) => r.route === 'documents.list' && r.query.per_page === '100').length;

  const byRoute: Record<string, number> = {};
  for (const r of reqs) byRoute[r.route ?? r.path] = (byRoute[r.route ?? r.path] ?? 0) + 1;
  // The sandbox limits each server on its own: the busiest minute of either.
  let maxInAnyMinute = 0;
  for (const server of ['documents', 'projects']) {
    const times = reqs.filter((r) => r.server === server).map((r) => r.at).sort((a, b) => a - b);
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[j] <= times[i] - 60_000) j++;
      maxInAnyMinute = Math.max(maxInAnyMinute, i - j + 1);
    }
  }
  // The request that arrived after the longest silence: what the client held back longest.
  const sorted = [...reqs].sort((a, b) => a.at - b.at);
  let longestGap: { ms: number; request: string } | undefined;
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i].at - sorted[i - 1].at;
    if (!longestGap || gap > longestGap.ms) longestGap = { ms: gap, request: `${describeRequest(sorted[i])} at ${((sorted[i].at - T0) / 1000).toFixed(1)} s` };
  }
  const is429 = (t: string) => /429|too many requests|rate limit/i.test(t);
  const shown = messages.shown.filter((m) => m.level !== 'info').map((m) => `${m.level}: ${m.message}`);
  const logLines = logs.lines.slice(logMark);
  const userVisible = [
    ...shown.filter(is429),
    ...watch.errorRows.map((e) => e.text).filter(is429),
    ...[...viewMessages].filter(is429),
    ...logLines.filter((l) => l.includes('[goto]') && is429(l)).map((l) => `Go to Document: ${l}`),
  ];
  return {
    limitPerMinute: RATE_LIMIT,
    windowMs: RATE_WINDOW_MS,
    requests: reqs.length,
    byRoute,
    status429: reqs.filter((r) => r.status === 429).length,
    maxInAnyMinute,
    pacingLogLines: logLines.filter((l) => l.includes('[api] pacing')).length,
    gotoAnswerMs,
    longestGap,
    longestPacingWaitMs: Math.max(0, ...logLines.map((l) => Number(/\[api\] pacing .*waiting (\d+) ms/.exec(l)?.[1] ?? 0))),
    userVisible,
    otherErrorsShown: [...shown, ...watch.errorRows.map((e) => e.text)].filter((t) => !is429(t)),
    steps,
    timeline: sorted.map((r) => `${((r.at - T0) / 1000).toFixed(1)} ${describeRequest(r)}${r.query.per_page === '100' ? ' (a backup page)' : ''}`),
    backup: { listRequests: backupLists, seconds: backupSeconds, outcome: backupOutcome },
  };
}

/** Times the require() of a file of the extension (the lazily loaded API bundle). */
function timeLoadOf(file: string, into: { ms?: number }): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('module') as { _extensions: Record<string, (m: unknown, filename: string) => void> };
  const original = Module._extensions['.js'];
  Module._extensions['.js'] = function (module, filename) {
    if (filename !== file) return original.call(this, module, filename);
    const t = now();
    try {
      return original.call(this, module, filename);
    } finally {
      into.ms = round(now() - t, 2);
      Module._extensions['.js'] = original;
    }
  };
}

async function mainRun(): Promise<MainResult> {
  const r: MainResult = {
    mode: 'main',
    loading: { atActivation: [], afterSignIn: [], afterFirstRequest: [], heavyAtActivation: [], requestsBeforeViewsOpened: -1 },
    requests: [],
    latency: [],
    latencyMs: LATENCY_MS,
    errorsShown: [],
    errors: [],
  };
  const docsUrl = process.env[ENV.docsUrl];
  const seoUrl = process.env[ENV.seoUrl];
  const key = process.env[ENV.key];
  if (!docsUrl || !seoUrl || !key) throw new Error(`${ENV.docsUrl}, ${ENV.seoUrl} and ${ENV.key} must be set`);
  const controlUrl = process.env[ENV.controlUrl] ?? docsUrl;
  const ctl = new SandboxControl(controlUrl);
  const testApi = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TestApi;
  r.loading.atActivation = loadedFiles();
  r.loading.heavyAtActivation = heavyLoaded();
  // Reading the services builds them (dist/core.js), as the first view, command or document would: timed here, once
  // the extension host is quiet after startup, and counted in the first open of the views, whose requests for rows
  // would build them in a session.
  await quietHost();
  const coreLoad: { ms?: number } = {};
  timeLoadOf(path.join(extensionPath(), 'dist', 'core.js'), coreLoad);
  const servicesProfile = process.env.BENCH_PROFILE_FROM === 'services' ? await startProfile(process.env.BENCH_PROFILE) : undefined;
  const t = now();
  const s = await services();
  r.servicesMs = round(now() - t, 2);
  await servicesProfile?.stop();
  // The bundles load through the code cache's loader (not Node's .js loader, which timeLoadOf hooks) when the
  // extension has a global storage folder: its own timing then.
  const loadOf = (name: string) => testApi.codeCache.loads.find((l) => l.name === name);
  r.coreLoadMs = coreLoad.ms ?? (loadOf('core') && round(loadOf('core')!.ms, 2));
  const apiLoad: { ms?: number } = {};
  timeLoadOf(path.join(extensionPath(), 'dist', 'api.js'), apiLoad);

  const watch = new TreeWatch();
  const ex: ExchangeSeen[] = [];
  s.registry.onDidExchange(({ exchange: e }) => ex.push({ end: now(), ms: e.ms, method: e.method, path: e.path, status: e.status, background: e.priority === 'background' }));
  const fsCalls: FsCall[] = [];
  traceFs(s, fsCalls);
  const prompter = new RecordingPrompter();
  const previousPrompter = s.prompter.current;
  s.prompter.current = prompter;
  const messages = new MessageCapture().install();
  const logs = new LogCapture().install(s);
  const shows: Ctx['shows'] = [];
  const w = vscode.window as unknown as { showTextDocument: (...a: unknown[]) => unknown };
  const originalShow = w.showTextDocument;
  w.showTextDocument = function (this: unknown, ...args: unknown[]) {
    const a = args[0] as { scheme?: string; authority?: string; uri?: { scheme: string; authority: string } };
    const uri = a && 'uri' in a && a.uri ? a.uri : a;
    if (uri?.scheme === 'content-docs') shows.push({ at: now(), id: (uri.authority ?? '').split('.')[0] });
    return originalShow.apply(vscode.window, args);
  };
  const ctx: Ctx = { s, ctl, watch, ex, fsCalls, shows, prompter, messages, logs, r, debounceMs: Number(process.env[ENV.debounceMs]) || 250, base: {} };

  try {
    await ctl.rateLimit(0);
    await ctl.latency(0);
    await ctl.resetRequests();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    // code-server's default is files.autoSave = afterDelay: a save it starts a second after an edit cancels the
    // benchmark's own save of that edit, which then answers false. Here the benchmark decides when a save happens.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    await configure('documents.baseUrl', docsUrl);
    await configure('projects.baseUrl', seoUrl);
    await s.credentials.setKey(key);
    // The account of the key (setKey waits for the registry to build it): its trees, which the views then ask.
    watch.install(s.documentsTree, 'documents');
    watch.install(s.projectsTree, 'projects');
    await sleep(500);
    r.loading.requestsBeforeViewsOpened = (await ctl.settle()).length;
    r.loading.afterSignIn = loadedFiles();
    await ctl.latency(LATENCY_MS);

    const phases: Array<[string, () => Promise<void>]> = [
      ['user actions', () => userActions(ctx)],
      ['generate', async () => void (r.generate = await generateAction(ctx))],
      ['rate limit', async () => void (r.rateLimit = await rateLimitBurst(ctx))],
      ['large account', async () => void (r.large = await largeAccount(ctx))],
    ];
    const only = process.env.BENCH_PHASES?.split(',');
    for (const [name, phase] of phases) {
      if (only && !only.some((o) => name.startsWith(o))) continue;
      const t = Date.now();
      log(`${name}…`);
      try {
        await phase();
      } catch (e) {
        r.errors.push(`${name}: ${(e as Error).stack ?? String(e)}`);
        log(`${name} failed: ${(e as Error).message}`);
      }
      log(`${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    r.errorsShown.push(...messages.shown.filter((m) => m.level !== 'info').map((m) => `${m.level}: ${m.message}`));
  } finally {
    messages.dispose();
    logs.dispose();
    w.showTextDocument = originalShow;
    s.prompter.current = previousPrompter;
  }
  r.apiLoadMs = apiLoad.ms ?? (loadOf('api') && round(loadOf('api')!.ms, 2));
  r.loading.atEnd = loadedFiles();
  r.baselines = ctx.base;
  r.bundleLoads = testApi.codeCache.loads.map((l) => ({ ...l, ms: round(l.ms, 2) }));
  // What V8 compiled, written now for the next start of this profile (the loader would write it a few seconds later).
  await testApi.codeCache.flush();
  return r;
}

// --- Back Up Account to Folder… of 10,000 documents ------------------------------------------------------

/**
 * The floor of a backup's own time: the files a backup wrote (its folder, less its state folder), read into memory,
 * then written into a new folder on the same disk with fs.promises, DISK_AT_ONCE at a time: as plain writes (their
 * template folders made first); each to a temporary file renamed into place, as the backup keeps files whole; and the
 * same with each temporary file flushed before it is closed, as VS Code's file system API flushes every file it
 * writes. Nothing of VS Code's or the extension's in between: the disk and Node alone.
 */
const DISK_AT_ONCE = 16;

async function diskFloor(folder: string): Promise<DiskFloor> {
  const files: Array<{ rel: string; data: Buffer }> = [];
  for (const dir of fs.readdirSync(folder, { withFileTypes: true })) {
    if (!dir.isDirectory() || dir.name.startsWith('.')) continue;
    for (const f of fs.readdirSync(path.join(folder, dir.name), { withFileTypes: true })) {
      if (f.isFile()) files.push({ rel: path.join(dir.name, f.name), data: fs.readFileSync(path.join(folder, dir.name, f.name)) });
    }
  }
  const pool = async (work: (f: { rel: string; data: Buffer }, i: number) => Promise<void>) => {
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const i = next++;
        await work(files[i], i);
      }
    };
    await Promise.all(Array.from({ length: DISK_AT_ONCE }, worker));
  };
  const timed = async (write: (root: string) => Promise<void>): Promise<number> => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-bench-disk-'));
    try {
      const t = now();
      await write(root);
      return round((now() - t) / 1000, 2);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };
  const folders = [...new Set(files.map((f) => path.dirname(f.rel)))];
  const plain = (root: string) =>
    Promise.all(folders.map((d) => fs.promises.mkdir(path.join(root, d), { recursive: true }))).then(() => pool((f) => fs.promises.writeFile(path.join(root, f.rel), f.data)));
  const whole = async (root: string) => {
    await fs.promises.mkdir(path.join(root, 'tmp'), { recursive: true });
    await Promise.all(folders.map((d) => fs.promises.mkdir(path.join(root, d), { recursive: true })));
    await pool(async (f, i) => {
      const temp = path.join(root, 'tmp', `${i}.part`);
      await fs.promises.writeFile(temp, f.data);
      await fs.promises.rename(temp, path.join(root, f.rel));
    });
  };
  const flushed = async (root: string) => {
    await fs.promises.mkdir(path.join(root, 'tmp'), { recursive: true });
    await Promise.all(folders.map((d) => fs.promises.mkdir(path.join(root, d), { recursive: true })));
    await pool(async (f, i) => {
      const temp = path.join(root, 'tmp', `${i}.part`);
      const handle = await fs.promises.open(temp, 'w');
      try {
        await handle.writeFile(f.data);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(temp, path.join(root, f.rel));
    });
  };
  // Three rounds of the quick ones, alternating, and the median of each (one round swings with what else the disk
  // does); one of the flushed, which takes as long as the disk needs to flush 10,000 files.
  const plainRuns: number[] = [];
  const wholeRuns: number[] = [];
  for (let i = 0; i < 3; i++) {
    plainRuns.push(await timed(plain));
    wholeRuns.push(await timed(whole));
  }
  const writeSeconds = median(plainRuns);
  const writeRenameSeconds = median(wholeRuns);
  const flushedSeconds = await timed(flushed);
  const disk: DiskFloor = { files: files.length, bytes: files.reduce((n, f) => n + f.data.length, 0), atOnce: DISK_AT_ONCE, writeSeconds, writeRenameSeconds, flushedSeconds };
  log(`backup: disk floor ${JSON.stringify(disk)}`);
  return disk;
}

/** A PATCH of one document through the API, as someone editing it elsewhere would (not through the extension). */
function patchDocument(docsUrl: string, key: string, id: number, result: string): Promise<void> {
  const url = new URL(`/api/v1/documents/${id}`, docsUrl);
  const data = Buffer.from(JSON.stringify({ result }));
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'PATCH', headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/json', 'content-length': String(data.length) } },
      (res) => {
        res.resume();
        res.on('end', () => ((res.statusCode ?? 0) >= 400 ? reject(new Error(`PATCH ${id}: HTTP ${res.statusCode}`)) : resolve()));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function backupOnce(what: string, folder: string, rateLimit: number, ctl: SandboxControl, gc: (() => void) | undefined, s: TestServices): Promise<BackupRunFigures> {
  await ctl.rateLimit(rateLimit);
  await ctl.resetRateLimit();
  await ctl.resetRequests();
  let listMs = 0;
  const exchanges = s.registry.onDidExchange(({ exchange: e }) => {
    if (e.method === 'GET' && /^\/documents(\?|$)/.test(e.path)) listMs += e.ms;
  });
  const before = await memory(gc);
  const peak = { rss: 0, heap: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
  };
  sample();
  const sampler = setInterval(sample, 50);
  const t0 = now();
  let out: { report?: BackupRunFigures['report']; error?: { message: string } } | undefined;
  try {
    out = await vscode.commands.executeCommand('contentDocs.backupAccount', { folder });
  } finally {
    clearInterval(sampler);
    exchanges.dispose();
    sample();
  }
  const seconds = (now() - t0) / 1000;
  const reqs = (await ctl.requests()).filter((r) => r.route?.startsWith('documents.'));
  const epoch0 = Date.now() - seconds * 1000;
  const mb = (n: number) => round(n / (1024 * 1024), 1);
  const after = await memory(gc);
  const figures: BackupRunFigures = {
    what,
    rateLimit,
    seconds: round(seconds, 2),
    listRequests: reqs.filter((r) => r.route === 'documents.list').length,
    showRequests: reqs.filter((r) => r.route === 'documents.show').length,
    tooMany: reqs.filter((r) => r.status === 429).length,
    report: out?.report,
    error: out?.error?.message,
    peak: { rssMB: mb(peak.rss), heapUsedMB: mb(peak.heap), rssGrowthMB: round(mb(peak.rss) - before.rssMB, 1), heapGrowthMB: round(mb(peak.heap) - before.heapUsedMB, 1) },
    after,
    listSeconds: round(listMs / 1000, 2),
    timeline: reqs.filter((r) => r.route === 'documents.list').map((r) => `${((r.at - epoch0) / 1000).toFixed(1)}${r.status === 429 ? ' 429' : ''}`),
  };
  log(`backup: ${what}: ${JSON.stringify(figures)}`);
  return figures;
}

/** `save`: the figures so far, written after each run (a run cut off by the harness's time limit keeps the earlier ones). */
async function backupRun(save: (r: BackupResult) => void): Promise<BackupResult> {
  const r: BackupResult = { mode: 'backup', runs: [], errors: [] };
  const docsUrl = process.env[ENV.docsUrl];
  const seoUrl = process.env[ENV.seoUrl];
  const key = process.env[ENV.key];
  if (!docsUrl || !seoUrl || !key) throw new Error(`${ENV.docsUrl}, ${ENV.seoUrl} and ${ENV.key} must be set`);
  const controlUrl = process.env[ENV.controlUrl] ?? docsUrl;
  const ctl = new SandboxControl(controlUrl);
  await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  await quietHost();
  const s = await services();
  const messages = new MessageCapture().install();
  const folders: string[] = [];
  try {
    await ctl.rateLimit(0);
    await ctl.latency(0);
    r.documents = (await ctl.reseed('large')).documents;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await configure('documents.baseUrl', docsUrl);
    await configure('projects.baseUrl', seoUrl);
    await s.credentials.setKey(key);
    await s.account.get();
    await ctl.settle();
    const { gc, how } = findGc();
    r.gc = how;
    r.baseline = await memory(gc);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-bench-backup-'));
    folders.push(folder);
    // At the server's limit first: the client counts its requests of the last minute whatever the server said then, so
    // the unthrottled runs' 200 requests would hold it for a minute (a server that counted them would too).
    if (process.env.BENCH_BACKUP_THROTTLED !== '0') {
      const throttled = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-bench-backup-'));
      folders.push(throttled);
      r.runs.push(await backupOnce('first backup at 60 requests a minute', throttled, RATE_LIMIT, ctl, gc, s));
      save(r);
    }
    // BENCH_BACKUP_RUNS=throttled: the backup at the server's limit alone.
    if (process.env.BENCH_BACKUP_RUNS !== 'throttled') {
      const profile = process.env.BENCH_PROFILE_FROM === 'backup' ? await startProfile(process.env.BENCH_PROFILE) : undefined;
      r.runs.push(await backupOnce('first backup', folder, 0, ctl, gc, s));
      await profile?.stop();
      save(r);
      r.disk = await diskFloor(folder);
      save(r);
      // Ten documents changed elsewhere, spread over the list.
      const state = JSON.parse(fs.readFileSync(path.join(folder, '.content-docs-backup', 'state.json'), 'utf8')) as { documents: Record<string, unknown> };
      const ids = Object.keys(state.documents).map(Number).sort((a, b) => a - b);
      for (let i = 0; i < 10; i++) await patchDocument(controlUrl, key, ids[Math.floor(((i + 0.5) * ids.length) / 10)], `Changed for the benchmark (${i + 1}).`);
      r.runs.push(await backupOnce('rerun, 10 changed', folder, 0, ctl, gc, s));
      save(r);
    }
    r.errors.push(...messages.shown.filter((m) => m.level !== 'info').map((m) => `${m.level}: ${m.message}`));
  } finally {
    messages.dispose();
    await ctl.rateLimit(0);
    for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
  }
  return r;
}

// --- Entry point ----------------------------------------------------------------------------------------

function writeResult(result: HostResult): void {
  const file = process.env[ENV.results];
  if (!file) throw new Error(`${ENV.results} is not set`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(result, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

export async function run(): Promise<void> {
  const mode = process.env[ENV.mode];
  let result: HostResult;
  try {
    result = mode === 'activation' ? await activationRun() : mode === 'backup' ? await backupRun(writeResult) : await mainRun();
  } catch (e) {
    result = mode === 'activation'
      ? { mode: 'activation', error: (e as Error).stack ?? String(e) }
      : mode === 'backup'
        ? { mode: 'backup', runs: [], errors: [(e as Error).stack ?? String(e)] }
        : ({ mode: 'main', errors: [(e as Error).stack ?? String(e)] } as unknown as MainResult);
  }
  writeResult(result);
}
