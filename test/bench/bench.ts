/**
 * `npm run bench`: the performance benchmark. It prints figures beside their budgets in ONE table and
 * writes a JSON copy (.test-runs/bench.json); it never fails because something is slow (exit code 0
 * whatever the figures; non-zero only when the benchmark itself could not run or a run broke).
 *
 *   node out/test/bench/bench.js [--runs=N] [--only=bundle,activation,web,main,backup] [--keep]
 *
 * Needs the production bundle (`node esbuild.mjs --production`, which npm run bench does first) and the
 * integration harness (`bash test/harness/install.sh`). About 7 minutes on 2 cores (the backup item, about 4 more,
 * runs only when asked for: --only=backup). Steps:
 *   1. Bundle: copies dist/*.js and what the .vsix holds to a private folder under .test-runs/, so a
 *      concurrent build of dist/ cannot change what is measured; sizes, the require()s of the activation
 *      bundle, what each bundle is made of (esbuild's metafile of esbuild.mjs's own options, captured
 *      without building), and `vsce package --no-dependencies` in that folder, offline.
 *   2. Activation: N fresh starts (default 8) of code-server's VS Code (test/harness/hostRunner.js: each a new
 *      server, browser, extension host and compile cache) with the reference extension (test/bench/reference: one
 *      view, one command, a tree data provider, activated onStartupFinished as Content Docs is) and the lean-surface
 *      reference (generated from the staged manifest: Content Docs' contributions and activation registrations with
 *      no-op handlers) loaded beside the extension, both first in half the starts; test/bench/inHost.js reads both extensions' require() and activate()
 *      (the extension host's performance marks, a timing in the host, VS Code's own Startup Performance report, the
 *      host's log line that says VS Code activated them on their event) and require.cache, then opens the
 *      extensions' views one after the other against a sandbox of the start's own: in a first window (fresh storage,
 *      no code cache of the lazy bundles) in the odd starts, in a later window (the storage the start before left,
 *      its code cache) in the even ones.
 *      Startup budgets are ratios to the reference's figures in the same run (README, Performance).
 *   3–6. One more start against a sandbox run by this process (test/sandbox/server.ts, so its data and
 *      work are outside the measured extension host), with the in-host code copied next to the staged
 *      extension (it then shares the extension's `vscode` API object), and the reference loaded beside it:
 *      requests and latency per user action, a 10,000-document account, and a burst against a 60 requests/minute
 *      limit. A first window before it (the user actions only) leaves the lazy bundles' code cache.
 *   8. Backup (--only=backup): one more start, Back Up Account to Folder… of a 10,000-document sandbox account into a
 *      new folder at the server's 60 requests a minute, then unthrottled into another, the same files written with
 *      fs.promises (the disk's floor), and a rerun after 10 changes: requests, seconds per 1,000 documents, the host's
 *      peak memory (BENCH_BACKUP_THROTTLED=0 leaves the throttled run out, BENCH_BACKUP_RUNS=throttled runs it alone).
 *
 * The sandbox is served over TLS (https://127.0.0.1, a test authority made per run and trusted by the extension host
 * through NODE_EXTRA_CA_CERTS), as a writer's servers are; BENCH_TLS=0 serves it as plain loopback http://.
 *
 * The machine's load average is printed at the start and the end and kept for every start.
 * --keep keeps the run folder (logs of every start, the staged extension, the .vsix); it is also kept
 * when a run broke. Env: BENCH_DIST (folder with the bundles; default <repo>/dist), HARNESS_VERBOSE,
 * BENCH_PHASES (see inHost.ts).
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as zlib from 'zlib';
import { createRunDir, harnessEnvOrReport, removeDir, repoRoot, type HarnessEnv } from '../harness/lib';
import { startSandbox, type SandboxOptions } from '../sandbox/server';
import { makeAuthority, startTlsFront, type Authority } from '../unit/networkKit';
import { VIEW_COMMANDS } from '../../src/constants';
import { ENV, type ActivationResult, type ActivationSample, type BackupResult, type LatencySample, type MainResult, type ReferenceOpen } from './shared';

const BUDGET = {
  activationKB: 50,
  /** The former budget in ms, shown beside the ratio for comparison. */
  activationMs: 20,
  /** The former budget of require() + activate() as a ratio to the minimal reference's, shown beside that ratio. */
  activationRatio: 4,
  /**
   * require() + activate() as a ratio to the lean-surface reference's in the same starts: the budget (see README,
   * Performance). The lean surface pays for Content Docs' registrations and nothing else; twice that leaves as much
   * again for loading the activation bundle and the work it does (the accounts' menu, the lazy bundles' loader).
   */
  activationLeanRatio: 2,
  ownMs: 50,
  /** The former budget in ms for opening the views the first time, shown beside the ratio for comparison. */
  firstOpenMs: 30,
  /** The first open's own time as a ratio to the reference's first open in the same start (see README, Performance). */
  firstOpenRatio: 15,
  memoryMB: 30,
  /** The 60 requests/minute burst: Go to Document's answer from the last keystroke (see README, Performance). */
  burstAnswerMs: 2000,
  /** A backup at a server's limit: its time over what the limit allows for its list requests (see README, Performance). */
  backupLimitRatio: 1.2,
  /** A first backup unthrottled: its time over its list requests' own time plus writing its files at the disk's pace. */
  backupFloorRatio: 2,
} as const;

const T_START = Date.now();
/** Set by Ctrl+C / SIGTERM while a start runs: that start is stopped (by hostRunner) and no other begins. */
let interrupted = false;

function progress(line: string): void {
  process.stderr.write(`[bench +${Math.round((Date.now() - T_START) / 1000)}s] ${line}\n`);
}

// --- Small helpers -------------------------------------------------------------------------------------

const kb = (bytes: number) => bytes / 1024;
const fmtKB = (bytes: number) => `${kb(bytes).toFixed(1)} KB`;
const r1 = (n: number) => Math.round(n * 10) / 10;

function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function fmtMs(n: number | undefined): string {
  if (n === undefined || Number.isNaN(n)) return 'n/a';
  return n < 10 ? `${n.toFixed(2)} ms` : `${n.toFixed(1)} ms`;
}

function parseArgs(argv: readonly string[]): { runs: number; only?: Set<string>; keep: boolean } {
  // A multiple of 4: first and later windows in turn, and the reference extension first in half the starts of each.
  let runs = 8;
  let only: Set<string> | undefined;
  let keep = false;
  for (const a of argv) {
    if (a.startsWith('--runs=')) runs = Math.max(1, Number(a.slice(7)) || 8);
    else if (a.startsWith('--only=')) only = new Set(a.slice(7).split(',').map((x) => x.trim()));
    else if (a === '--keep') keep = true;
  }
  return { runs, only, keep };
}

// --- 1. The bundle -------------------------------------------------------------------------------------

/** What the .vsix holds (see .vscodeignore), copied so that what is measured cannot change underneath. */
const STAGED_FILES = ['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore'];

function isProduction(file: string): boolean {
  const text = fs.readFileSync(file, 'utf8');
  return !/\/\/# sourceMappingURL=/.test(text) && text.split('\n').length < 50;
}

function stageExtension(repo: string, distDir: string, stage: string): void {
  fs.mkdirSync(path.join(stage, 'dist'), { recursive: true });
  for (const f of STAGED_FILES) if (fs.existsSync(path.join(repo, f))) fs.copyFileSync(path.join(repo, f), path.join(stage, f));
  fs.cpSync(path.join(repo, 'media'), path.join(stage, 'media'), { recursive: true });
  for (const f of fs.readdirSync(distDir).filter((x) => x.endsWith('.js') || x === 'package.json')) fs.copyFileSync(path.join(distDir, f), path.join(stage, 'dist', f));
  // The browser build: the manifest's `browser` entry, which vsce checks exists.
  const web = path.join(distDir, 'web', 'extension.js');
  if (fs.existsSync(web)) {
    fs.mkdirSync(path.join(stage, 'dist', 'web'), { recursive: true });
    fs.copyFileSync(web, path.join(stage, 'dist', 'web', 'extension.js'));
  }
}

/**
 * Copies a compiled file and, recursively, every relative require() of it, keeping their paths below
 * `fromRoot`. The main run's in-host code goes next to the staged extension this way: VS Code hands each
 * extension its own `vscode` API object by the folder a module lives in, and the benchmark needs the
 * extension's (to see the messages it shows and the Quick Pick it creates).
 */
function copyWithRequires(fromRoot: string, entry: string, toRoot: string): number {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const dest = path.join(toRoot, path.relative(fromRoot, file));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(file, dest);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/\brequire\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)) {
      const base = path.resolve(path.dirname(file), m[1]);
      const target = [base, `${base}.js`, path.join(base, 'index.js')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
      if (target) visit(target);
    }
  };
  visit(entry);
  return seen.size;
}

interface BundleFigures {
  activation: { file: string; bytes: number; gzipBytes: number };
  later: Array<{ file: string; bytes: number; gzipBytes: number }>;
  /** require() calls in the activation bundle and how often each appears. */
  requires: Array<{ module: string; count: number }>;
  /** The activation bundle's largest inputs (esbuild metafile of an identical in-memory build). */
  composition?: { bytes: number; inputs: Array<{ file: string; bytes: number }>; later?: Record<string, Record<string, number>>; error?: string };
}

function gzipSize(file: string): number {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

function scanRequires(file: string): BundleFigures['requires'] {
  const counts = new Map<string, number>();
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  return [...counts].map(([module, count]) => ({ module, count })).sort((a, b) => a.module.localeCompare(b.module));
}

// TypeScript compiles import() to require() for CommonJS; esbuild.mjs is an ES module.
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to keep a real import() through tsc's CommonJS output
const importModule = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;

/**
 * The options esbuild.mjs builds with, without building: a copy of it whose `esbuild` import is a stub
 * that only records them (so the analysis follows whatever esbuild.mjs does, and never writes dist/).
 */
async function buildOptionsOfEsbuildMjs(repo: string, runDir: string): Promise<Record<string, unknown> | undefined> {
  const source = fs.readFileSync(path.join(repo, 'esbuild.mjs'), 'utf8');
  const importEsbuild = /from\s+(['"])esbuild\1/g;
  if (!importEsbuild.test(source)) return undefined;
  const stub = path.join(runDir, 'esbuild-stub.mjs');
  fs.writeFileSync(
    stub,
    [
      // esbuild.mjs builds the Node bundles first, then the browser build: the first call is the one analysed.
      'export async function build(options) { globalThis.__benchBuildOptions ??= options; return { metafile: { inputs: {}, outputs: {} }, errors: [], warnings: [], outputFiles: [] }; }',
      "export async function context() { throw new Error('the benchmark does not watch'); }",
      'export default { build, context };',
      '',
    ].join('\n'),
  );
  const copy = path.join(runDir, 'esbuild-options.mjs');
  fs.writeFileSync(copy, source.replace(importEsbuild, `from ${JSON.stringify(pathToFileURL(stub).href)}`));
  const g = globalThis as { __benchBuildOptions?: Record<string, unknown> };
  delete g.__benchBuildOptions;
  const cwd = process.cwd();
  const argv = process.argv;
  const log = console.log;
  try {
    process.chdir(repo);
    process.argv = [...argv.filter((a) => a !== '--watch'), '--production'];
    console.log = () => undefined;
    await importModule(pathToFileURL(copy).href);
  } finally {
    process.chdir(cwd);
    process.argv = argv;
    console.log = log;
  }
  return g.__benchBuildOptions;
}

/** Which source files and packages make up each bundle: esbuild's metafile of esbuild.mjs's production build, in memory. */
async function composition(repo: string, runDir: string): Promise<BundleFigures['composition']> {
  const cwd = process.cwd();
  try {
    const options = await buildOptionsOfEsbuildMjs(repo, runDir);
    if (!options) return { bytes: 0, inputs: [], error: 'esbuild.mjs does not import esbuild as expected' };
    const esbuild = await import('esbuild');
    process.chdir(repo);
    const result = await esbuild.build({ ...(options as object), absWorkingDir: repo, write: false, metafile: true, logLevel: 'silent' });
    const out = Object.entries(result.metafile.outputs).find(([f]) => f.endsWith('extension.js'))?.[1];
    if (!out) return { bytes: 0, inputs: [], error: 'no extension.js in the metafile' };
    const inputs = Object.entries(out.inputs)
      .map(([file, i]) => ({ file, bytes: i.bytesInOutput }))
      .sort((a, b) => b.bytes - a.bytes);
    // The other bundles, by package (node_modules/<name>) or "own code".
    const later: Record<string, Record<string, number>> = {};
    for (const [file, o] of Object.entries(result.metafile.outputs)) {
      if (!file.endsWith('.js') || file.endsWith('extension.js')) continue;
      const byPkg: Record<string, number> = {};
      for (const [input, i] of Object.entries(o.inputs)) {
        const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
        const key = m ? m[1] : 'own code';
        byPkg[key] = (byPkg[key] ?? 0) + i.bytesInOutput;
      }
      later[`dist/${path.basename(file)}`] = byPkg;
    }
    return { bytes: out.bytes, inputs, later };
  } catch (e) {
    return { bytes: 0, inputs: [], error: (e as Error).message.split('\n')[0] };
  } finally {
    process.chdir(cwd);
  }
}

async function bundleFigures(repo: string, stage: string, runDir: string): Promise<BundleFigures> {
  const act = path.join(stage, 'dist', 'extension.js');
  const later = fs.readdirSync(path.join(stage, 'dist')).filter((f) => f.endsWith('.js') && f !== 'extension.js');
  return {
    activation: { file: 'dist/extension.js', bytes: fs.statSync(act).size, gzipBytes: gzipSize(act) },
    later: later.map((f) => {
      const p = path.join(stage, 'dist', f);
      return { file: `dist/${f}`, bytes: fs.statSync(p).size, gzipBytes: gzipSize(p) };
    }),
    requires: scanRequires(act),
    composition: await composition(repo, runDir),
  };
}

interface VsixFigures {
  bytes?: number;
  files?: number;
  reason?: string;
  ms: number;
}

/** `vsce package --no-dependencies` (the repository's own vsce, as npx would run it) in the staged copy, network off. */
function packageVsix(repo: string, stage: string): VsixFigures {
  const t0 = Date.now();
  const vsce = path.join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
  if (!fs.existsSync(vsce)) return { reason: `@vscode/vsce is not installed (${vsce}); run npm ci`, ms: 0 };
  const out = path.join(stage, '..', 'content-docs.vsix');
  const res = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], {
    cwd: stage,
    encoding: 'utf8',
    timeout: 120_000,
    // Offline: any attempt to reach the network fails fast instead of hanging.
    env: { ...process.env, npm_config_offline: 'true', HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '' },
  });
  const ms = Date.now() - t0;
  if (res.status === 0 && fs.existsSync(out)) {
    const m = /(\d+) files?/.exec(res.stdout ?? '');
    return { bytes: fs.statSync(out).size, files: m ? Number(m[1]) : undefined, ms };
  }
  const text = `${res.stderr ?? ''}\n${res.stdout ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '');
  const line = text.split('\n').map((l) => l.trim()).find((l) => /error/i.test(l)) ?? text.trim().split('\n').pop() ?? '';
  return { reason: res.error ? res.error.message : `vsce exited with ${res.status}: ${line.slice(0, 200)}`, ms };
}

// --- 2.–6. Runs inside code-server's VS Code --------------------------------------------------------------

interface HostRun<T> {
  code: number | null;
  ms: number;
  result?: T;
  error?: string;
  /** The machine's load average (1, 5, 15 minutes) when the start began and when it ended. */
  load?: { start: number[]; end: number[] };
}

const loadNow = () => os.loadavg().map((x) => Math.round(x * 100) / 100);
const fmtLoad = (l: readonly number[] | undefined) => (l ? l.map((x) => x.toFixed(2)).join(' ') : '?');

/** One hostRunner run (a fresh code-server, chromium and extension host) with test/bench/inHost.js. */
function hostRun<T>(repo: string, runDir: string, name: string, stage: string | readonly string[], tests: string, env: Record<string, string>, timeoutSec: number): Promise<HostRun<T>> {
  const t0 = Date.now();
  const loadAtStart = loadNow();
  const runner = path.join(__dirname, '..', 'harness', 'hostRunner.js');
  const results = path.join(runDir, `${name}.json`);
  const logFile = path.join(runDir, `${name}.log`);
  const ws = path.join(runDir, 'workspace');
  fs.mkdirSync(ws, { recursive: true });
  fs.rmSync(results, { force: true });
  const log = fs.openSync(logFile, 'w');
  return new Promise((resolve) => {
    const dev = (typeof stage === 'string' ? [stage] : stage).map((d) => `--extensionDevelopmentPath=${d}`);
    const child = spawn(process.execPath, [runner, ...dev, `--extensionTestsPath=${tests}`, ws], {
      cwd: repo,
      env: { ...process.env, ...env, [ENV.results]: results, HARNESS_TIMEOUT: String(timeoutSec) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let partial = '';
    const onData = (chunk: Buffer) => {
      fs.writeSync(log, chunk);
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.includes('[bench]')) progress(`  ${line.trim().replace(/^.*\[bench\] /, '')}`);
        else if (/\[harness\] (error|TIMEOUT|run folder kept)/.test(line)) progress(`  ${line.trim()}`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const forward = (sig: NodeJS.Signals) => {
      interrupted = true;
      child.kill(sig);
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      fs.closeSync(log);
      const run: HostRun<T> = { code, ms: Date.now() - t0, load: { start: loadAtStart, end: loadNow() } };
      try {
        run.result = JSON.parse(fs.readFileSync(results, 'utf8')) as T;
      } catch {
        run.error = `no results (hostRunner exit code ${code}; log: ${path.relative(repo, logFile)})`;
      }
      resolve(run);
    });
  });
}

/**
 * A small extension activated at the host's start (`*`, before VS Code activates anything once startup finished)
 * that puts test/bench/activationTiming.js in place: VS Code activates Content Docs by itself once startup finished
 * (onStartupFinished), before it loads the benchmark's in-host code, so only an extension activated earlier can time
 * its require() and activate(). It only loads that module (which hooks Node's loader for the main file alone).
 */
function timingExtension(runDir: string): string {
  const dir = path.join(runDir, 'activation-timing');
  fs.mkdirSync(dir, { recursive: true });
  const pkg = {
    name: 'activation-timing',
    displayName: 'Activation timing (Content Docs benchmark)',
    version: '0.0.1',
    publisher: 'content-docs-bench',
    private: true,
    engines: { vscode: '^1.95.0' },
    main: './extension.js',
    activationEvents: ['*'],
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  fs.writeFileSync(
    path.join(dir, 'extension.js'),
    `require(${JSON.stringify(path.join(__dirname, 'activationTiming.js'))});\nexports.activate = () => undefined;\n`,
  );
  return dir;
}

/**
 * The reference extension (test/bench/reference: one view, one command, a tree data provider, activated
 * onStartupFinished as Content Docs is), copied into the run folder beside the staged extension: the bench loads it
 * into the same starts and states Content Docs' startup figures as ratios to its figures in the same start.
 */
function referenceExtension(repo: string, runDir: string): string {
  const dir = path.join(runDir, 'reference');
  fs.cpSync(path.join(repo, 'test', 'bench', 'reference'), dir, { recursive: true });
  return dir;
}

/** Content Docs' ids and schemes, and the lean-surface reference's in their place (its contributions must not collide). */
const LEAN_RENAMES: ReadonlyArray<[RegExp, string]> = [
  [/contentDocs/g, 'benchLean'],
  [/content-docs/g, 'bench-lean'],
];

/**
 * The lean-surface reference (LEAN_ID), generated into the run folder from the staged manifest: Content Docs'
 * contributions as they are (commands, menus, views and their container, welcome views, the chat participant, the
 * authentication provider, the language-model tools, settings, keybindings), its ids renamed so that both live in one
 * host, activated on the same events, and one small file that makes the registrations Content Docs' activate() makes
 * (the commands it registers at activation, 2 tree views, 2 file systems and a text document content provider, 10
 * tools, the chat participant, the authentication provider, a Code Action provider on every language, two
 * configuration listeners) with handlers that do nothing. What an extension with this surface pays at activation
 * whatever it does: the floor Content Docs' activation is judged against (README, Performance). Its two views answer
 * as a lean extension's would once the benchmark gives them a server and key, after activation (a first window's
 * first open beside Content Docs': openLeanViews in inHost.ts).
 */
function leanSurfaceExtension(stage: string, runDir: string): string {
  const dir = path.join(runDir, 'lean-surface');
  fs.mkdirSync(dir, { recursive: true });
  const rename = (text: string) => LEAN_RENAMES.reduce((t, [from, to]) => t.replace(from, to), text);
  const manifest = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8')) as {
    contributes: { commands: Array<{ command: string }>; languageModelTools?: Array<{ name: string; toolReferenceName?: string }>; chatParticipants?: Array<{ id: string; name: string }> };
    activationEvents: string[];
  };
  const contributes = JSON.parse(rename(JSON.stringify(manifest.contributes))) as typeof manifest.contributes;
  // Names a user types or a model reads must differ from Content Docs' too.
  for (const t of contributes.languageModelTools ?? []) if (t.toolReferenceName) t.toolReferenceName = `lean${t.toolReferenceName}`;
  for (const c of contributes.chatParticipants ?? []) c.name = `lean${c.name}`;
  const pkg = {
    name: 'lean-surface',
    displayName: 'Lean surface (Content Docs benchmark)',
    description: "Content Docs' contributions with no-op handlers: the registrations an extension of this surface pays for at activation.",
    version: '0.0.1',
    publisher: 'content-docs-bench',
    private: true,
    license: 'MIT',
    engines: { vscode: '^1.95.0' },
    main: './extension.js',
    activationEvents: manifest.activationEvents.map(rename),
    contributes,
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  for (const f of ['package.nls.json']) if (fs.existsSync(path.join(stage, f))) fs.writeFileSync(path.join(dir, f), rename(fs.readFileSync(path.join(stage, f), 'utf8')));
  fs.cpSync(path.join(stage, 'media'), path.join(dir, 'media'), { recursive: true });
  // The commands Content Docs registers at activation: every contributed one but the views' own (registered with the services).
  const later = new Set<string>(VIEW_COMMANDS.map((c) => rename(c)));
  const commands = contributes.commands.map((c) => c.command).filter((c) => !later.has(c));
  const tools = (contributes.languageModelTools ?? []).map((t) => t.name);
  const js = `// Generated by test/bench/bench.ts (leanSurfaceExtension): registrations with no-op handlers, and two lean views.
const vscode = require('vscode');
const COMMANDS = ${JSON.stringify(commands)};
const TOOLS = ${JSON.stringify(tools)};
// The two views as a lean extension shows them once the benchmark gives them a server and key (lean.at): the
// Documents view's groups from memory (All, Favorites, a row per template), the Projects view's first page read
// with one GET through the host's https, JSON.parse and a row per project; no validation, no accounts, no paging.
const lean = { at: undefined, exchanges: [] };
const documents = {
  getChildren: (node) => (node || !lean.at ? [] : ['All Documents', 'Favorites', ...Array.from({ length: 52 }, (_, i) => 'Template ' + (i + 1))].map((label) => ({ label }))),
  getTreeItem: (row) => new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Collapsed),
};
const projects = {
  getChildren: (node) => {
    if (node || !lean.at) return [];
    const start = performance.now();
    const url = lean.at.projectsUrl + '/api/v1/projects?sort_by=created_at&sort=desc&per_page=50&page=1';
    return new Promise((resolve, reject) => {
      require('https')
        .get(url, { headers: { authorization: 'Bearer ' + lean.at.key, accept: 'application/json' } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => {
            lean.exchanges.push({ start, end: performance.now() });
            try {
              resolve(JSON.parse(text).data);
            } catch (e) {
              reject(e);
            }
          });
        })
        .on('error', reject);
    });
  },
  getTreeItem: (p) => {
    const item = new vscode.TreeItem(String(p.project));
    item.description = p.result + ' · ' + p.reports + ' reports';
    item.iconPath = new vscode.ThemeIcon('graph');
    return item;
  },
};
exports.activate = (context) => {
  const s = context.subscriptions;
  const nothing = () => undefined;
  const files = {
    onDidChangeFile: new vscode.EventEmitter().event,
    watch: () => new vscode.Disposable(nothing),
    stat: () => { throw vscode.FileSystemError.FileNotFound(); },
    readDirectory: () => [],
    createDirectory: nothing,
    readFile: () => { throw vscode.FileSystemError.FileNotFound(); },
    writeFile: nothing,
    delete: nothing,
    rename: nothing,
  };
  const sessions = new vscode.EventEmitter();
  s.push(
    vscode.authentication.registerAuthenticationProvider('benchLean', 'Lean surface', { onDidChangeSessions: sessions.event, getSessions: async () => [], createSession: async () => { throw new Error('no'); }, removeSession: async () => undefined }, { supportsMultipleAccounts: true }),
    vscode.window.createTreeView('benchLean.documents', { treeDataProvider: documents }),
    vscode.window.createTreeView('benchLean.projects', { treeDataProvider: projects }),
    vscode.workspace.registerFileSystemProvider('bench-lean', files, { isCaseSensitive: true }),
    vscode.workspace.registerFileSystemProvider('bench-lean-prompt', files, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider('bench-lean-proposal', { provideTextDocumentContent: () => '' }),
    vscode.workspace.onDidChangeConfiguration(nothing),
    vscode.workspace.onDidChangeConfiguration(nothing),
    vscode.languages.registerCodeActionsProvider('*', { provideCodeActions: () => [] }, { providedCodeActionKinds: [vscode.CodeActionKind.RefactorRewrite.append('benchLean')] }),
  );
  for (const id of COMMANDS) s.push(vscode.commands.registerCommand(id, nothing));
  for (const name of TOOLS) s.push(vscode.lm.registerTool(name, { invoke: nothing }));
  if (typeof vscode.chat?.createChatParticipant === 'function') s.push(vscode.chat.createChatParticipant('benchLean.content', nothing));
  return { lean, documents, projects };
};
exports.deactivate = () => undefined;
`;
  fs.writeFileSync(path.join(dir, 'extension.js'), js);
  return dir;
}

/**
 * The extensions under development of a start, in the order VS Code sorts them (by folder name: hostRunner links
 * them as `<index>-<name>`), so that the reference is loaded (and activated) first in every other start: with the
 * same event, VS Code activates them in that order, and neither always pays for being first.
 */
function withReference(extensions: readonly string[], reference: string, referenceFirst: boolean, lean?: string): string[] {
  const refs = lean ? [reference, lean] : [reference];
  return referenceFirst ? [...refs, ...extensions] : [...extensions, ...refs.reverse()];
}

/** Go to Document's debounce, as the source says (the benchmark does not count it as own time). */
function gotoDebounceMs(repo: string): number {
  try {
    const m = /SEARCH_DEBOUNCE_MS\s*=\s*(\d+)/.exec(fs.readFileSync(path.join(repo, 'src', 'commands', 'files.ts'), 'utf8'));
    return m ? Number(m[1]) : 250;
  } catch {
    return 250;
  }
}

// --- The sandbox, served as a writer's servers are ------------------------------------------------------------

/**
 * The authority the sandbox's certificate is signed by, made once per run (openssl) and trusted by the extension host
 * through NODE_EXTRA_CA_CERTS (in the code-server process's environment, which the extension host inherits; VS Code's
 * https adds the system's certificates to Node's own, the extra ones stay). BENCH_TLS=0: the sandbox is served as
 * plain http:// on 127.0.0.1, which the extension asks through undici (its loopback client, dist/http.js), as a
 * developer's local server would be.
 */
let authority: Authority | undefined;
const servedOverTls = () => process.env.BENCH_TLS !== '0';

function tlsEnv(): Record<string, string> {
  if (!servedOverTls()) return {};
  authority ??= makeAuthority('Content Docs Bench Authority');
  return { NODE_EXTRA_CA_CERTS: path.join(authority.dir, 'ca.crt') };
}

interface ServedSandbox {
  /** The addresses the extension is given: https:// (a TLS front on 127.0.0.1 before each server), or http:// with BENCH_TLS=0. */
  docsUrl: string;
  seoUrl: string;
  /** The documents server itself (http://127.0.0.1): its control routes. */
  controlUrl: string;
  key: string;
  /** The environment of the start: the addresses, the key and the trusted authority. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A sandbox of the start's own, served over TLS by default (see tlsEnv). */
async function servedSandbox(options: SandboxOptions): Promise<ServedSandbox> {
  const sandbox = await startSandbox(options);
  const env = tlsEnv();
  /** The sandbox as the extension reaches it (its own addresses, or the TLS fronts'); its control address is its own. */
  const served = (docsUrl: string, seoUrl: string, close: () => Promise<void>): ServedSandbox => ({
    docsUrl,
    seoUrl,
    controlUrl: sandbox.docsUrl,
    key: sandbox.key,
    env: { [ENV.docsUrl]: docsUrl, [ENV.seoUrl]: seoUrl, [ENV.controlUrl]: sandbox.docsUrl, [ENV.key]: sandbox.key, ...env },
    close,
  });
  if (!authority || !servedOverTls()) return served(sandbox.docsUrl, sandbox.seoUrl, () => sandbox.close());
  const docs = await startTlsFront(sandbox.docsUrl, authority, '127.0.0.1');
  const seo = await startTlsFront(sandbox.seoUrl, authority, '127.0.0.1');
  return served(docs.url, seo.url, async () => {
    await docs.close();
    await seo.close();
    await sandbox.close();
  });
}

// --- The table -----------------------------------------------------------------------------------------

type Status = 'met' | 'MISSED' | 'info' | 'n/a';

interface Row {
  figure: string;
  measured: string;
  budget: string;
  status: Status;
  note: string;
}

interface Collected {
  web?: WebFigures;
  bundle?: BundleFigures;
  vsix?: VsixFigures;
  activation: Array<HostRun<ActivationResult>>;
  main?: HostRun<MainResult>;
  /** The start before the main run, in the same profile's extension storage: a first window, no code cache yet. */
  firstWindow?: HostRun<MainResult>;
  backup?: HostRun<BackupResult>;
  harness: HarnessEnv;
  /** The machine's load average (1, 5, 15 minutes) when the bench began. */
  loadAtStart: number[];
}

function bundleRows(c: Collected, rows: Row[]): void {
  const b = c.bundle;
  if (!b) return;
  const actKB = kb(b.activation.bytes);
  const top = (b.composition?.inputs ?? []).slice(0, 5).map((i) => `${i.file.replace(/^src\//, '')} ${kb(i.bytes).toFixed(1)}`).join(', ');
  const nodeModules = (b.composition?.inputs ?? []).filter((i) => i.file.includes('node_modules'));
  rows.push({
    figure: '1 Code loaded at activation (dist/extension.js)',
    measured: `${actKB.toFixed(1)} KB (gzip ${fmtKB(b.activation.gzipBytes)})`,
    budget: `≤ ${BUDGET.activationKB} KB`,
    status: actKB <= BUDGET.activationKB ? 'met' : 'MISSED',
    note:
      (b.composition?.bytes && Math.abs(b.composition.bytes - b.activation.bytes) > b.activation.bytes * 0.01
        ? `(the analysis build is ${fmtKB(b.composition.bytes)}: src changed since dist/ was built?) `
        : '') +
      (actKB <= BUDGET.activationKB
        ? `largest parts (KB): ${top}`
        : `${nodeModules.length ? `node_modules in it: ${nodeModules.map((i) => i.file).join(', ')}; ` : 'all of it is the extension\'s own code, no dependency; '}largest parts (KB): ${top}`),
  });
  for (const l of b.later) {
    const parts = Object.entries(b.composition?.later?.[l.file] ?? {})
      .sort((x, y) => y[1] - x[1])
      .map(([k, v]) => `${k} ${kb(v).toFixed(0)} KB`)
      .join(', ');
    rows.push({
      figure: `1 Code loaded later (${l.file})`,
      measured: `${fmtKB(l.bytes)} (gzip ${fmtKB(l.gzipBytes)})`,
      budget: '—',
      status: 'info',
      note:
        l.file === 'dist/api.js'
          ? `loaded by the first request${parts ? `: ${parts}` : ''}${c.main?.result?.apiLoadMs !== undefined ? `; its require() took ${fmtMs(c.main.result.apiLoadMs)} in the main run` : ''}`
          : `loaded on first use${parts ? `: ${parts}` : ''}`,
    });
  }
  // Heavy modules: static scan + require.cache in every fresh start and in the main run.
  const samples = c.activation.map((r) => r.result?.sample).filter((x): x is ActivationSample => !!x);
  const heavyAtAct = samples.flatMap((x) => x.heavyAtActivation);
  const m = c.main?.result;
  const heavyMain = m?.loading?.heavyAtActivation ?? [];
  const apiAfterSignIn = (m?.loading?.afterSignIn ?? []).some((f) => f.endsWith('api.js'));
  const apiAfterFirst = (m?.loading?.afterFirstRequest ?? []).some((f) => f.endsWith('api.js'));
  const externals = b.requires.map((x) => `${x.module}×${x.count}`).join(', ');
  const bad = b.requires.filter((x) => /undici|zod/.test(x.module));
  const loadedSets = [...new Set(samples.map((x) => x.loadedAtActivation.join(' + ')))];
  const ok = heavyAtAct.length === 0 && heavyMain.length === 0 && !apiAfterSignIn && bad.length === 0 && samples.length > 0;
  rows.push({
    figure: '1 Heavy modules (undici, zod) at activation',
    measured: ok ? 'not loaded' : heavyAtAct.length || heavyMain.length ? `loaded: ${[...new Set([...heavyAtAct, ...heavyMain])].join(', ')}` : samples.length ? 'see note' : 'n/a',
    budget: 'first use only',
    status: samples.length === 0 ? 'n/a' : ok && (m ? apiAfterFirst : true) ? 'met' : 'MISSED',
    note: `require.cache right after activate() in ${samples.length} fresh start(s): ${loadedSets.join(' | ') || '?'}; ${
      m
        ? `dist/api.js ${apiAfterSignIn ? 'already loaded after sign-in' : 'not loaded after sign-in'}, ${apiAfterFirst ? 'loaded by the first request' : 'not loaded after the first request?'}; undici (dist/http.js) ${(m.loading.atEnd ?? []).some((f) => f.endsWith('http.js')) ? 'loaded' : 'never loaded'} in the main run (sandbox served ${servedOverTls() ? 'over TLS' : 'as plain http://'}); `
        : ''
    }requires in the activation bundle: ${externals}`,
  });
  const v = c.vsix;
  if (v) {
    rows.push({
      figure: '1 .vsix (vsce package --no-dependencies)',
      measured: v.bytes !== undefined ? `${fmtKB(v.bytes)}${v.files ? ` (${v.files} files)` : ''}` : 'n/a',
      budget: '—',
      status: v.bytes !== undefined ? 'info' : 'n/a',
      note: v.bytes !== undefined ? `packaged offline in ${(v.ms / 1000).toFixed(1)} s from the staged copy` : `could not package: ${v.reason}`,
    });
  }
}

function activationRows(c: Collected, rows: Row[]): void {
  const samples = c.activation.map((r) => r.result?.sample).filter((x): x is ActivationSample => !!x && !x.error);
  const failed = c.activation.length - samples.length;
  if (!samples.length) {
    const why = c.activation.map((r) => r.error ?? r.result?.error).filter(Boolean)[0] ?? 'not run';
    rows.push({ figure: '2 Activation: require() + activate()', measured: 'n/a', budget: `≤ ${BUDGET.activationMs} ms median`, status: 'n/a', note: why });
    return;
  }
  const req = samples.map((x) => x.marks.requireMs).filter((x): x is number => x !== undefined);
  const act = samples.map((x) => x.marks.activateMs).filter((x): x is number => x !== undefined);
  const both = samples.filter((x) => x.marks.requireMs !== undefined && x.marks.activateMs !== undefined).map((x) => x.marks.requireMs! + x.marks.activateMs!);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  const n = `${samples.length} fresh start${samples.length === 1 ? '' : 's'}${failed ? ` (${failed} failed)` : ''}`;
  const activeAtStart = samples.filter((x) => x.activeAtStart).length;
  const byVsCode = samples.filter((x) => x.activeBeforeAsked).length;
  const untimed = samples.filter((x) => x.loadedBeforeTiming).length;
  const how =
    byVsCode === samples.length
      ? 'activated by VS Code itself (onStartupFinished) while the benchmark waited for the workbench to go quiet'
      : byVsCode
        ? `activated by VS Code itself (onStartupFinished) in ${byVsCode} start(s), through the API once the workbench was quiet in the others`
        : 'activated through the API once the workbench was quiet';
  const timedReq = samples.map((x) => x.timed?.requireMs).filter((x): x is number => x !== undefined);
  const timedAct = samples.map((x) => x.timed?.activateMs).filter((x): x is number => x !== undefined);
  const timedApi = samples.map((x) => x.timed?.vscodeApiMs).filter((x): x is number => x !== undefined);
  rows.push({
    figure: '2 Activation: require() of dist/extension.js',
    measured: `median ${fmtMs(median(req))}`,
    budget: '—',
    status: 'info',
    note: `${n}: ${list(req)} ms (extension host marks willLoadExtensionCode → didLoadExtensionCode, whole ms); timed in the host: ${list(timedReq)} ms, of which VS Code building its API object for the extension (first require('vscode')) ${list(timedApi)} ms${untimed ? `; in ${untimed} start(s) VS Code had loaded it before the benchmark's code, which could not time it` : ''}`,
  });
  rows.push({
    figure: '2 Activation: activate() call',
    measured: `median ${fmtMs(median(act))}`,
    budget: '—',
    status: 'info',
    note: `${list(act)} ms (marks willActivateExtension → didActivateExtension: the call and its result settling, which also holds the calls of extensions VS Code activates in the same batch); timed in the host: ${list(timedAct)} ms`,
  });
  // Where the activate() call went: VS Code's API, call by call (median over the starts), and the extension's own code.
  const withCalls = samples.filter((x) => x.activateCalls && x.timed?.activateMs !== undefined);
  if (withCalls.length) {
    const names = [...new Set(withCalls.flatMap((x) => x.activateCalls!.map((c) => c.api)))];
    const per = names
      .map((api) => {
        const of = withCalls.map((x) => x.activateCalls!.find((c) => c.api === api));
        return { api, count: Math.max(...of.map((c) => c?.count ?? 0)), ms: median(of.map((c) => c?.ms ?? 0)), maxMs: Math.max(...of.map((c) => c?.maxMs ?? 0)) };
      })
      .sort((a, b) => b.ms - a.ms);
    const inApi = withCalls.map((x) => x.activateCalls!.reduce((n, c) => n + c.ms, 0));
    const own = withCalls.map((x, i) => x.timed!.activateMs! - inApi[i]);
    rows.push({
      figure: '2 Activation: activate() in VS Code\'s API / own code',
      measured: `median ${fmtMs(median(inApi))} / ${fmtMs(median(own))}`,
      budget: '—',
      status: 'info',
      note: `timed in the host, per start: API ${list(inApi)} ms, own ${list(own)} ms; by call, median ms (calls): ${per
        .filter((c) => c.ms >= 0.05)
        .map((c) => `${c.api} ${c.ms.toFixed(2)} (${c.count}${c.count > 1 ? `, longest single call ${c.maxMs.toFixed(2)}` : ''})`)
        .join(', ')}${per.some((c) => c.ms < 0.05) ? `; under 0.05 ms: ${per.filter((c) => c.ms < 0.05).map((c) => `${c.api} (${c.count})`).join(', ')}` : ''}`,
    });
  }
  // The ratio to the reference extension in the same start: require() + activate() timed in the host (sub-millisecond,
  // the extension's own require() and activate() call alone), per start, and its median.
  const sum = (t: ActivationSample['timed']) => (t?.requireMs !== undefined && t.activateMs !== undefined ? t.requireMs + t.activateMs : undefined);
  const cpuSum = (t: ActivationSample['timed']) => (t?.requireCpuMs !== undefined && t.activateCpuMs !== undefined ? t.requireCpuMs + t.activateCpuMs : undefined);
  const marksSum = (m: { requireMs?: number; activateMs?: number } | undefined) => (m?.requireMs !== undefined && m.activateMs !== undefined ? m.requireMs + m.activateMs : undefined);
  const pairs = c.activation
    .map((r, i) => ({ i: i + 1, load: r.load?.start, s: r.result?.sample }))
    .filter((p): p is { i: number; load: number[] | undefined; s: ActivationSample } => !!p.s && !p.s.error)
    .map((p) => ({
      ...p,
      ours: sum(p.s.timed),
      ref: sum(p.s.reference?.timed),
      oursCpu: cpuSum(p.s.timed),
      refCpu: cpuSum(p.s.reference?.timed),
      oursMarks: marksSum(p.s.marks),
      refMarks: marksSum(p.s.reference?.marks),
    }));
  // The ratio of the medians over the same starts, not the median of each start's ratio: whichever of the two VS Code
  // activates first pays about a millisecond more (measured), as much as the reference's whole figure, so one start's
  // ratio swings with the order; over starts that alternate it, each median holds both orders.
  const ratioPairs = pairs.filter((p) => p.ours !== undefined && p.ref !== undefined && p.ref > 0);
  const ratioOfMedians = (xs: Array<[number | undefined, number | undefined]>) => {
    const ok = xs.filter((x): x is [number, number] => x[0] !== undefined && x[1] !== undefined && x[1] > 0);
    return ok.length ? median(ok.map((x) => x[0])) / median(ok.map((x) => x[1])) : NaN;
  };
  const ratio = ratioOfMedians(ratioPairs.map((p) => [p.ours, p.ref]));
  const cpuRatio = ratioOfMedians(pairs.map((p) => [p.oursCpu, p.refCpu]));
  const marksRatio = ratioOfMedians(pairs.map((p) => [p.oursMarks, p.refMarks]));
  const refMarks = pairs.map((p) => p.refMarks).filter((x): x is number => x !== undefined);
  const med = median(both);
  const cpuBoth = samples.filter((x) => x.timed?.requireCpuMs !== undefined && x.timed?.activateCpuMs !== undefined).map((x) => x.timed!.requireCpuMs! + x.timed!.activateCpuMs!);
  // The budget is the ratio to the lean surface (leanRow); this one, to the minimal reference, is shown as it is.
  const minimal = ratioRow(
    '2 Activation: require() + activate()',
    median(ratioPairs.map((p) => p.ours!)),
    ratioPairs.length ? median(ratioPairs.map((p) => p.ref!)) : undefined,
    ratio,
    BUDGET.activationRatio,
    BUDGET.activationMs,
  );
  rows.push({
    ...minimal,
    budget: `— (the budget is to the lean surface; was ≤ ${fmtRatio(BUDGET.activationRatio)} the minimal reference, ≤ ${BUDGET.activationMs} ms before)`,
    status: minimal.status === 'n/a' ? 'n/a' : 'info',
    note:
      `timed in the host, Content Docs / the reference extension in the same start: ${pairs
        .map((p) => `start ${p.i}: ${p.ours?.toFixed(2) ?? '?'} / ${p.ref?.toFixed(2) ?? '?'} ms ${p.ours !== undefined && p.ref ? fmtRatio(p.ours / p.ref) : ''} (${p.s.loadedFirst === 'reference' ? 'reference first' : p.s.loadedFirst === 'content-docs' ? 'Content Docs first' : 'order ?'}, load ${p.load?.[0].toFixed(1) ?? '?'})`)
        .join('; ')}. CPU time: ${cpuBoth.length ? `${list(cpuBoth)} ms` : 'n/a'}, ${fmtRatio(cpuRatio)} the reference's. ` +
      `By the extension host's marks (whole ms): ${list(both)} ms, median ${fmtMs(med)} (former budget ≤ ${BUDGET.activationMs} ms: ${med <= BUDGET.activationMs ? 'met' : 'missed'}); the reference ${refMarks.length ? `${list(refMarks)} ms` : 'n/a'}, ${fmtRatio(marksRatio)}; ` +
      `${how}${activeAtStart ? `; ${activeAtStart} start(s) had it active already` : ''}${both.length < 4 ? '; fewer than 4 samples' : ''}`,
  });
  leanRow(c, rows);
  referenceRow(c, rows);
  const vs = samples.map((x) => x.vscode).filter((x): x is NonNullable<ActivationSample['vscode']> => !!x);
  const vsErr = samples.map((x) => x.vscodeError).filter(Boolean)[0];
  rows.push({
    figure: "2 Activation: VS Code's Load Code + Call Activate",
    measured: vs.length ? `median ${median(vs.map((x) => x.loadCode))} + ${median(vs.map((x) => x.callActivate))} ms` : 'n/a',
    budget: '—',
    status: vs.length ? 'info' : 'n/a',
    note: vs.length
      ? `Developer: Startup Performance, Extension Activation Stats (whole ms): ${vs.map((x) => `${x.loadCode}+${x.callActivate}`).join(', ')}; Load Code also counts VS Code's own work before the require()`
      : `could not read the Startup Performance report: ${vsErr}`,
  });
  rows.push({
    figure: '2 Activation: await activate() from the API',
    measured: `median ${fmtMs(median(samples.map((x) => x.apiActivateMs)))}`,
    budget: '—',
    status: 'info',
    note: "VS Code's whole activation pipeline as a caller waits for it (extension context, storage, IPC), for comparison",
  });
}

/**
 * Content Docs' require() + activate() as a ratio to the lean-surface reference's in the same starts (its contributions
 * and registrations with no-op handlers, see leanSurfaceExtension): the budget, since what VS Code charges for the
 * registrations themselves is paid by any extension with this surface. The minimal reference's ratio stays beside it.
 */
function leanRow(c: Collected, rows: Row[]): void {
  const sum = (t: ActivationSample['timed']) => (t?.requireMs !== undefined && t.activateMs !== undefined ? t.requireMs + t.activateMs : undefined);
  const pairs = c.activation
    .map((r, i) => ({ i: i + 1, load: r.load?.start, s: r.result?.sample }))
    .filter((p): p is { i: number; load: number[] | undefined; s: ActivationSample } => !!p.s && !p.s.error && !!p.s.lean)
    .map((p) => ({ ...p, ours: sum(p.s.timed), lean: sum(p.s.lean?.timed) }))
    .filter((p): p is typeof p & { ours: number; lean: number } => p.ours !== undefined && p.lean !== undefined && p.lean > 0);
  if (!pairs.length) {
    rows.push({ figure: '2 Activation: require() + activate(), to the lean surface', measured: 'n/a', budget: `≤ ${fmtRatio(BUDGET.activationLeanRatio)} the lean surface`, status: 'n/a', note: 'the lean-surface reference was not timed in any start' });
    return;
  }
  const oursMs = median(pairs.map((p) => p.ours));
  const leanMs = median(pairs.map((p) => p.lean));
  const ratio = oursMs / leanMs;
  const samples = pairs.map((p) => p.s);
  const leanCalls = samples.map((x) => (x.lean?.activateCalls ?? []).reduce((n, k) => n + k.ms, 0));
  const leanReq = samples.map((x) => x.lean?.timed?.requireMs).filter((x): x is number => x !== undefined);
  const leanAct = samples.map((x) => x.lean?.timed?.activateMs).filter((x): x is number => x !== undefined);
  const byEvent = samples.filter((x) => x.lean?.activeBeforeAsked).length;
  rows.push({
    figure: '2 Activation: require() + activate(), to the lean surface',
    measured: `${fmtRatio(ratio)}: ${fmtMs(oursMs)} / lean surface ${fmtMs(leanMs)}`,
    budget: `≤ ${fmtRatio(BUDGET.activationLeanRatio)} the lean surface (${fmtMs(BUDGET.activationLeanRatio * leanMs)} here)`,
    status: ratio <= BUDGET.activationLeanRatio ? 'met' : 'MISSED',
    note:
      `the lean-surface reference (Content Docs' contributions, its activation registrations with no-op handlers, one small file; generated by the bench) in the same starts, timed in the host, Content Docs / lean: ${pairs
        .map((p) => `start ${p.i}: ${p.ours.toFixed(2)} / ${p.lean.toFixed(2)} ms ${fmtRatio(p.ours / p.lean)} (${p.s.leanFirst ? 'lean first' : 'Content Docs first'}, load ${p.load?.[0].toFixed(1) ?? '?'})`)
        .join('; ')}; the lean surface's require() ${leanReq.map((x) => x.toFixed(2)).join(', ')} ms, activate() ${leanAct.map((x) => x.toFixed(2)).join(', ')} ms, of which in VS Code's API ${leanCalls.map((x) => x.toFixed(2)).join(', ')} ms; ` +
      `activated by VS Code on its event before the benchmark asked in ${byEvent} of ${samples.length}`,
  });
}

/**
 * The reference extension's own figures in the activation starts: that VS Code activated it on its event (the host's
 * log line and VS Code's stats), its require() and activate(), and the API calls its activate() made.
 */
function referenceRow(c: Collected, rows: Row[]): void {
  const refs = c.activation.map((r) => r.result?.sample?.reference);
  const ok = refs.filter((r): r is NonNullable<typeof r> => !!r);
  if (!ok.length) {
    rows.push({ figure: '2 Activation: the reference extension', measured: 'n/a', budget: '—', status: 'n/a', note: 'not loaded in the fresh starts' });
    return;
  }
  const num = (xs: Array<number | undefined>) => xs.filter((x): x is number => x !== undefined);
  const req = num(ok.map((r) => r.timed?.requireMs));
  const act = num(ok.map((r) => r.timed?.activateMs));
  const byEvent = ok.filter((r) => r.activeBeforeAsked && /onStartupFinished/.test(r.logLine ?? '')).length;
  const calls = [...new Set(ok.flatMap((r) => (r.activateCalls ?? []).map((x) => `${x.api}×${x.count}`)))].join(', ');
  rows.push({
    figure: '2 Activation: the reference extension',
    measured: `median ${fmtMs(median(req))} + ${fmtMs(median(act))}`,
    budget: '—',
    status: byEvent === refs.length ? 'info' : 'n/a',
    note:
      `test/bench/reference (one view, one command, a tree data provider; onStartupFinished), loaded beside Content Docs in the same ${refs.length} start(s), first in every other one; ` +
      `activated by VS Code on onStartupFinished before the benchmark asked, by the extension host's log, in ${byEvent} of ${refs.length}; require() ${req.map((x) => x.toFixed(2)).join(', ')} ms, activate() ${act.map((x) => x.toFixed(2)).join(', ')} ms (timed in the host), ` +
      `of the require() VS Code building its API object for it ${num(ok.map((r) => r.timed?.vscodeApiMs)).map((x) => x.toFixed(2)).join(', ')} ms; marks ${ok.map((r) => `${r.marks.requireMs ?? '?'}+${r.marks.activateMs ?? '?'}`).join(', ')} ms; ` +
      `VS Code's Load Code + Call Activate ${ok.map((r) => (r.vscode ? `${r.vscode.loadCode}+${r.vscode.callActivate}` : '?')).join(', ')} ms; activate() calls ${calls || 'n/a'}`,
  });
}

function requestRows(m: MainResult, rows: Row[]): void {
  for (const rc of m.requests) {
    const n = rc.requests.length;
    const failedChecks = (rc.checks ?? []).filter((x) => !x.ok);
    const ok = n <= rc.allowed && (rc.expected === undefined || n >= rc.expected) && failedChecks.length === 0;
    const budget = rc.expected !== undefined && rc.expected === rc.allowed ? `= ${rc.allowed}` : `≤ ${rc.allowed}`;
    const notes = [rc.requests.join(', ') || 'no request'];
    for (const ch of rc.checks ?? []) notes.push(`${ch.what}: ${ch.ok ? 'yes' : `NO (${ch.detail ?? ''})`}`);
    if (rc.note) notes.push(rc.note);
    rows.push({ figure: `3 Requests: ${rc.action}`, measured: String(n), budget, status: ok ? 'met' : 'MISSED', note: notes.join('; ') });
  }
}

function latencyRows(m: MainResult, rows: Row[]): void {
  // The first open of the views has rows of its own, beside the reference's (firstOpenRows).
  const actions = [...new Set(m.latency.map((l) => l.action))].filter((a) => a !== 'Open the views');
  for (const action of actions) {
    const ls = m.latency.filter((l) => l.action === action);
    const first = ls.find((l) => l.first);
    const rest = ls.filter((l) => l !== first);
    const worst = Math.max(...ls.map((l) => l.ownMs));
    const restMed = median(rest.map((l) => l.ownMs));
    const measured = first && rest.length ? `${fmtMs(first.ownMs)} first, ${fmtMs(restMed)} then` : fmtMs(ls[0].ownMs);
    const limit = BUDGET.ownMs;
    const ok = (first ? first.ownMs <= limit : true) && (rest.length ? restMed <= limit : true);
    const detail = ls
      .map(
        (l) =>
          `${l.totalMs.toFixed(0)} = ${l.trips === 1 ? 'trip' : `${l.trips} trips`} ${l.serverMs.toFixed(0)}${l.designedWaitMs ? ` + debounce ${l.designedWaitMs}` : ''} + VS Code ${(l.vscodeMs ?? 0).toFixed(0)} + own ${l.ownMs.toFixed(0)}`,
      )
      .join('; ');
    const cause = ok ? '' : latencyCause(action, ls, m);
    const s0 = ls[0];
    const how = s0.ownWhat ? `own = ${s0.ownWhat}` : `VS Code = ${s0.vscodeWhat ?? '?'}`;
    rows.push({
      figure: `4 Own time: ${action}`,
      measured,
      budget: `≤ ${limit} ms`,
      status: ok ? 'met' : 'MISSED',
      note: `${cause ? `${cause}; ` : ''}ms: ${detail} (${how}; end = ${s0.end})${worst > limit && ok ? `; worst sample ${fmtMs(worst)}` : ''}`,
    });
  }
}

/** How the lazy bundles loaded in a start: "core: used, api: used" (V8 took their code cache), "none" (a first window). */
function bundleCaches(m: MainResult): string {
  return bundleCachesOf(m.bundleLoads);
}

function bundleCachesOf(loads: MainResult['bundleLoads']): string {
  return (loads ?? []).map((l) => `${l.name}.js ${fmtMs(l.ms)} (code cache: ${l.cache})`).join(', ') || 'not recorded';
}

/** One start's first open of the views, Content Docs' and the reference's. */
interface OpenPair {
  where: string;
  ours: LatencySample;
  /** How the lazy bundles loaded in that start (a fresh start's). */
  bundles?: MainResult['bundleLoads'];
  reference?: ReferenceOpen;
  load?: number[];
  rows?: number;
}

const ratioOf = (p: OpenPair) => (p.reference?.open ? p.ours.ownMs / p.reference.open.ownMs : NaN);

function fmtPair(p: OpenPair): string {
  const ref = p.reference?.open;
  return (
    `${p.where}: ${fmtMs(p.ours.ownMs)}${p.rows !== undefined ? ` (${p.rows} rows)` : ''} / ${ref ? `${fmtMs(ref.ownMs)} (${ref.rows} rows)` : `n/a (${p.reference?.error ?? 'no reference'})`}` +
    `${ref ? ` ${fmtRatio(ratioOf(p))}` : ''}${p.reference ? `, ${p.reference.first === 'reference' ? 'reference first' : 'Content Docs first'}` : ''}${p.load ? `, load ${p.load[0].toFixed(1)}` : ''}`
  );
}

/**
 * The first open of the views as a ratio to the reference extension's first open (its view's getChildren and
 * TreeItems, timed the same way), with the milliseconds beside it, in the fresh starts of the activation item, each
 * signed in with the services not built, so that the views' first request for rows builds them and waits for the
 * account of the stored key as a restored window does: the later windows (the even starts, in the storage the start
 * before left: the lazy bundles load with their code cache) and the first windows (the odd starts: no code cache, as
 * after an install or update). The main run's first open (a later window whose services are built, and the account of
 * its key made, before the views open: that build timed apart and added) and the main item's first window are shown
 * beside them, not counted (the budget row takes the main run's when no later window was timed: --runs=1). The
 * reference's figure is its median over every start of this run that opened it: the view opened first in a window
 * pays about a millisecond more (measured), as much as the reference's whole figure, and the starts alternate which
 * view opens first (half and half in each kind of window with the default --runs).
 */
function firstOpenRows(c: Collected, rows: Row[]): void {
  const oursIn = (run: HostRun<MainResult> | undefined) => run?.result?.latency?.find((l) => l.action === 'Open the views' && l.first);
  const firstWindows: OpenPair[] = [];
  const laterWindows: OpenPair[] = [];
  c.activation.forEach((r, i) => {
    const f = r.result?.sample?.firstOpen;
    if (f?.ours) (f.window === 'later' ? laterWindows : firstWindows).push({ where: `start ${i + 1}`, ours: f.ours, reference: f.reference, load: r.load?.start, rows: f.rows, bundles: f.bundleLoads });
  });
  const fw = oursIn(c.firstWindow);
  const builtBefore: OpenPair | undefined = fw && { where: "the main item's first window", ours: fw, reference: c.firstWindow?.result?.reference, load: c.firstWindow?.load?.start, rows: c.firstWindow?.result?.firstOpenRows };
  const m = c.main?.result;
  const mainOpen = oursIn(c.main);
  const mainPair: OpenPair | undefined = mainOpen && m ? { where: 'main run', ours: mainOpen, reference: m.reference, load: c.main?.load?.start, rows: m.firstOpenRows } : undefined;
  const refOpens = [...firstWindows, ...laterWindows, ...(builtBefore ? [builtBefore] : []), ...(mainPair ? [mainPair] : [])].filter((p) => p.reference?.open);
  const refMs = refOpens.length ? median(refOpens.map((p) => p.reference!.open!.ownMs)) : undefined;
  const refFirst = refOpens.filter((p) => p.reference!.first === 'reference').length;
  const refNote = refOpens.length
    ? `the reference: median ${fmtMs(refMs)} over ${refOpens.length} starts (${refOpens.map((p) => `${fmtMs(p.reference!.open!.ownMs)} ${p.reference!.first === 'reference' ? 'first' : 'second'}`).join(', ')}; its view opened first in ${refFirst}, after Content Docs' in ${refOpens.length - refFirst})`
    : 'no reference figure';
  let mainNote = '';
  if (c.main && (!mainPair || !m)) mainNote = `the main run: ${c.main.error ?? m?.errors?.[0]?.split('\n')[0] ?? 'no result'}`;
  else if (mainPair && m) {
    const cause = latencyCause('Open the views', [mainPair.ours], m);
    mainNote =
      `${fmtPair(mainPair)}; ${mainPair.ours.totalMs.toFixed(0)} = ${mainPair.ours.trips} trips ${mainPair.ours.serverMs.toFixed(0)} + VS Code ${(mainPair.ours.vscodeMs ?? 0).toFixed(0)} + own ${mainPair.ours.ownMs.toFixed(0)} ` +
      `(own = ${mainPair.ours.ownWhat}; end = ${mainPair.ours.end})${cause ? `; ${cause}` : ''}` +
      `${m.apiLoadMs !== undefined ? `; require() of dist/api.js on this first request ${fmtMs(m.apiLoadMs)}` : ''}${m.servicesMs !== undefined ? `; building the services (dist/core.js) ${fmtMs(m.servicesMs)}${m.coreLoadMs !== undefined ? `, of which its require() ${fmtMs(m.coreLoadMs)}` : ''}` : ''}; bundles: ${bundleCaches(m)}`;
  }
  if (laterWindows.length) {
    const later = median(laterWindows.map((p) => p.ours.ownMs));
    rows.push({
      ...ratioRow('4 Own time: Open the views', later, refMs, refMs ? later / refMs : NaN, BUDGET.firstOpenRatio, BUDGET.firstOpenMs),
      note:
        `median of ${laterWindows.length} later windows (the storage an earlier window left: the lazy bundles' code cache; signed in, the services built by the views' first request for rows, as in a restored window), ours / the reference in the same start: ${laterWindows.map((p) => `${fmtPair(p)}, bundles: ${bundleCachesOf(p.bundles)}`).join('; ')}; ${refNote}` +
        (mainNote ? `; not counted, the main run (its services built before the views opened, timed apart and added): ${mainNote}` : ''),
    });
  } else if (c.main) {
    if (!mainPair || !m) rows.push({ figure: '4 Own time: Open the views', measured: 'n/a', budget: '—', status: 'n/a', note: mainNote });
    else rows.push({ ...ratioRow('4 Own time: Open the views', mainPair.ours.ownMs, refMs, refMs ? mainPair.ours.ownMs / refMs : NaN, BUDGET.firstOpenRatio, BUDGET.firstOpenMs), note: `${mainNote}; ${refNote}` });
  }
  if (!firstWindows.length) {
    const why = c.activation.map((r) => r.result?.sample?.firstOpen?.error).find(Boolean) ?? c.firstWindow?.error;
    if (c.firstWindow || c.activation.length) rows.push({ figure: '4 Own time: Open the views, first window', measured: 'n/a', budget: '—', status: 'n/a', note: why?.split('\n')[0] ?? 'no result' });
    return;
  }
  const ours = median(firstWindows.map((p) => p.ours.ownMs));
  const fwm = c.firstWindow?.result;
  rows.push({
    ...ratioRow('4 Own time: Open the views, first window', ours, refMs, refMs ? ours / refMs : NaN, BUDGET.firstOpenRatio, BUDGET.firstOpenMs),
    note:
      `median of ${firstWindows.length} first windows (fresh storage, no code cache of the lazy bundles; signed in, the services built by the views' first request for rows, as in a restored window), ours / the reference in the same start: ${firstWindows.map(fmtPair).join('; ')}; ${refNote}` +
      (builtBefore && fwm ? `; not counted, the main item's first window with its services built and its account made before the views opened: ${fmtPair(builtBefore)}, building the services ${fmtMs(fwm.servicesMs)}, bundles: ${bundleCaches(fwm)}` : ''),
  });
  leanOpenRow([...firstWindows, ...laterWindows], ours, laterWindows.length ? median(laterWindows.map((p) => p.ours.ownMs)) : undefined, rows);
}

/**
 * Information beside the first-open budgets: Content Docs' first open (`first`: the first windows' median; `later`:
 * the later windows') to the lean-surface reference's two views in the same starts (see openLeanViews in inHost.ts):
 * what a lean extension pays to show these views from this server, with none of the accounts, validation, paging and
 * state Content Docs has.
 */
function leanOpenRow(starts: readonly OpenPair[], first: number, later: number | undefined, rows: Row[]): void {
  const pairs = starts.filter((p) => p.reference?.lean);
  const errors = starts.map((p) => p.reference?.leanError).filter(Boolean);
  if (!pairs.length) {
    if (errors.length) rows.push({ figure: '4 Own time: Open the views, to lean views', measured: 'n/a', budget: '— (information)', status: 'n/a', note: errors[0]!.split('\n')[0] });
    return;
  }
  const leanMs = median(pairs.map((p) => p.reference!.lean!.ownMs));
  rows.push({
    figure: '4 Own time: Open the views, to lean views',
    measured: `first window ${fmtRatio(first / leanMs)}${later !== undefined ? `, later ${fmtRatio(later / leanMs)}` : ''}: ${fmtMs(first)}${later !== undefined ? ` and ${fmtMs(later)}` : ''} / lean views ${fmtMs(leanMs)}`,
    budget: '— (information)',
    status: 'info',
    note:
      `the lean-surface reference's two views in the same starts, given the same server and key: the Documents view's groups from memory, the Projects view's first page with one GET through the host's https and JSON.parse, a row per project (no validation, accounts, paging or state); their own time per start: ` +
      pairs.map((p) => `${p.where}: ${fmtMs(p.reference!.lean!.ownMs)} (${p.reference!.lean!.rows} rows; ours ${fmtMs(p.ours.ownMs)})`).join('; '),
  });
}

/** ×2.4 */
function fmtRatio(r: number): string {
  return Number.isNaN(r) ? 'n/a' : `×${r < 10 ? r.toFixed(2) : r.toFixed(1)}`;
}

/**
 * A row whose budget is a ratio to the reference extension's figure in the same starts, with the milliseconds beside
 * it: the figure in ms, the reference's, the ratio (of the medians over the same starts), and what the budget allows
 * in ms on this machine in this run. The former budget in ms is shown for comparison only.
 */
function ratioRow(figure: string, oursMs: number, refMs: number | undefined, ratio: number, budgetRatio: number, formerMs: number): Omit<Row, 'note'> {
  if (refMs === undefined || Number.isNaN(ratio)) {
    return { figure, measured: `${fmtMs(oursMs)}; no reference figure`, budget: `≤ ${fmtRatio(budgetRatio)} the reference`, status: 'n/a' };
  }
  return {
    figure,
    measured: `${fmtRatio(ratio)}: ${fmtMs(oursMs)} / reference ${fmtMs(refMs)}`,
    budget: `≤ ${fmtRatio(budgetRatio)} the reference (${fmtMs(budgetRatio * refMs)} here; was ≤ ${formerMs} ms)`,
    status: ratio <= budgetRatio ? 'met' : 'MISSED',
  };
}

/** The measured cause of a missed latency budget, where the data shows it. */
function latencyCause(action: string, ls: readonly LatencySample[], m: MainResult): string {
  const first = ls.find((l) => l.first);
  const after = ls.map((l) => l.afterLastAnswerMs).filter((x): x is number => x !== undefined);
  const medAfter = median(after);
  if (action === 'Open the views' && m.apiLoadMs !== undefined && first && m.apiLoadMs > BUDGET.firstOpenMs / 2) {
    return `first use: the require() of dist/api.js (undici + zod) took ${fmtMs(m.apiLoadMs)} of it`;
  }
  const before = ls.map((l) => l.beforeFirstRequestMs).filter((x): x is number => x !== undefined);
  const medOwn = median(ls.map((l) => l.ownMs));
  if (before.length && median(before) >= medOwn / 2 && median(before) > 10) {
    return `the request leaves only ${fmtMs(median(before))} (median) after the action starts: the command awaits other work before sending it`;
  }
  if (after.length && medAfter >= 150 && /re-fetched/.test(ls[0].end)) {
    return `${medAfter.toFixed(0)} ms pass between the server's answer and the view taking the rows: VS Code's tree view delivers a change event at most every 200 ms (debounced after the previous event), and the extension fired one just before the request`;
  }
  if (first && first.ownMs > BUDGET.ownMs && ls.filter((l) => !l.first).every((l) => l.ownMs <= BUDGET.ownMs)) {
    const parts = first.parts
      ? ` (${Object.entries(first.parts)
          .map(([k, v]) => `${{ beforeRequest: 'before the request left', answerToShow: 'from the answer to asking VS Code to show it', fileSystem: 'in stat/readFile' }[k] ?? k} ${fmtMs(v)}`)
          .join(', ')})`
      : '';
    return `only the first use is slow: ${fmtMs(first.ownMs)}${parts}; code run for the first time (compiling, the first parse with each response schema)`;
  }
  return '';
}

function largeRows(m: MainResult, rows: Row[]): void {
  const L = m.large;
  if (!L) return;
  const mem = L.memory;
  const growth = mem.afterClosing.heapUsedMB + mem.afterClosing.externalMB - (mem.baseline.heapUsedMB + mem.baseline.externalMB);
  const rss = mem.afterClosing.rssMB - mem.baseline.rssMB;
  rows.push({
    figure: `5 10k documents: memory growth after closing editors`,
    measured: `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB heap`,
    budget: `≤ ${BUDGET.memoryMB} MB`,
    status: growth <= BUDGET.memoryMB ? 'met' : 'MISSED',
    note: `heap used + external, ${mem.gc}; after paging +${(mem.afterPaging.heapUsedMB + mem.afterPaging.externalMB - mem.baseline.heapUsedMB - mem.baseline.externalMB).toFixed(1)} MB, with ${L.opens.length} editors open +${(mem.withEditorsOpen.heapUsedMB + mem.withEditorsOpen.externalMB - mem.baseline.heapUsedMB - mem.baseline.externalMB).toFixed(1)} MB; rss ${rss >= 0 ? '+' : ''}${rss.toFixed(1)} MB; ${L.documentsLeftOpen} document(s) still open in the host`,
  });
  const pages = L.pages.filter((p) => p.page > 1 && p.extensionMs !== undefined);
  if (pages.length >= 6) {
    const k = Math.max(2, Math.floor(pages.length / 3));
    const firstK = pages.slice(0, k);
    const lastK = pages.slice(-k);
    const ext = (p: (typeof pages)[number]) => p.extensionMs!;
    const a = median(firstK.map(ext));
    const b = median(lastK.map(ext));
    // Theil–Sen: the median of all pairwise slopes (robust to the odd slow page on a busy machine).
    const slopes: number[] = [];
    for (let i = 0; i < pages.length; i++) for (let j = i + 1; j < pages.length; j++) slopes.push((ext(pages[j]) - ext(pages[i])) / (pages[j].page - pages[i].page));
    const slope = median(slopes);
    const flat = b <= a * 1.5 + 5;
    const ti = (p: (typeof pages)[number]) => p.treeItemMs ?? 0;
    rows.push({
      figure: `5 10k documents: time per page (${L.template})`,
      measured: `${fmtMs(a)} → ${fmtMs(b)}`,
      budget: 'flat',
      status: flat ? 'met' : 'MISSED',
      note: `the extension's code per Load more (command without network + answering the view + the rows' TreeItems), median of the first vs last ${k} of ${L.pages.length} pages (${L.pageSize} per page, up to ${pages[pages.length - 1].rows} rows), trend ${slope >= 0 ? '+' : ''}${slope.toFixed(3)} ms per page (Theil–Sen); VS Code re-reads every row of the group per page (${median(lastK.map((p) => p.treeItems))} TreeItems at the end, ${fmtMs(median(firstK.map(ti)))} → ${fmtMs(median(lastK.map(ti)))} in getTreeItem); until the view had the rows, network excluded, incl. VS Code: ${fmtMs(median(firstK.map((p) => p.ownMs)))} → ${fmtMs(median(lastK.map((p) => p.ownMs)))}${flat ? '' : '; grows with the rows already shown'}`,
    });
  }
  if (L.opens.length) {
    const own = L.opens.map((o) => o.ownMs ?? o.ms - o.serverMs);
    rows.push({
      figure: '5 10k documents: open a document (no added latency)',
      measured: `median ${fmtMs(median(L.opens.map((o) => o.ms)))}`,
      budget: '—',
      status: 'info',
      note: `${L.opens.length} documents opened one after another in their own tabs; own time median ${fmtMs(median(own))}, max ${fmtMs(Math.max(...own))}`,
    });
  }
}

function rateRows(m: MainResult, rows: Row[]): void {
  const R = m.rateLimit;
  if (!R) return;
  rows.push({
    figure: `6 ${R.limitPerMinute}/min burst: 429s the user saw`,
    measured: String(R.userVisible.length),
    budget: '0',
    status: R.userVisible.length === 0 ? 'met' : 'MISSED',
    note: R.userVisible.length
      ? R.userVisible.slice(0, 3).join(' | ')
      : `no message, error row, view message or Go to Document error about it; ${R.otherErrorsShown.length} other error(s) shown${R.otherErrorsShown.length ? `: ${R.otherErrorsShown.slice(0, 2).join(' | ')}` : ''}`,
  });
  const answered = R.gotoAnswerMs !== undefined && R.gotoAnswerMs <= BUDGET.burstAnswerMs;
  const underLimit = R.status429 === 0 && R.maxInAnyMinute <= R.limitPerMinute;
  rows.push({
    figure: `6 ${R.limitPerMinute}/min burst: Go to Document answer`,
    measured: `${R.gotoAnswerMs === undefined ? 'none in 60 s' : `${(R.gotoAnswerMs / 1000).toFixed(1)} s`}; ${R.status429} 429, at most ${R.maxInAnyMinute} requests in a minute`,
    budget: `≤ ${(BUDGET.burstAnswerMs / 1000).toFixed(1)} s, no 429, ≤ ${R.limitPerMinute} a minute`,
    status: answered && underLimit ? 'met' : 'MISSED',
    note: `from the last keystroke of a query typed while template counts, a backup and Refreshes ran until the Quick Pick had its items (the client holds requests back to stay under the limit; the longest wait it logged was ${(R.longestPacingWaitMs / 1000).toFixed(1)} s); the backup: ${R.backup ? `${R.backup.listRequests} list requests, ${R.backup.outcome}` : 'not run'}`,
  });
  rows.push({
    figure: `6 ${R.limitPerMinute}/min burst: 429s at the sandbox`,
    measured: String(R.status429),
    budget: '—',
    status: 'info',
    note: `${R.requests} requests in ${R.windowMs / 1000} s, at most ${R.maxInAnyMinute} to one server in any minute; the client paced ${R.pacingLogLines} request(s), the longest wait ${(R.longestPacingWaitMs / 1000).toFixed(1)} s${R.longestGap && R.longestGap.ms >= 5000 ? ` (no request for ${(R.longestGap.ms / 1000).toFixed(1)} s, then ${R.longestGap.request})` : ''}; ${Object.entries(R.byRoute).map(([k, v]) => `${k} ${v}`).join(', ')}; burst: ${R.steps.map((s) => s.replace(/^\S+ s /, '')).join(', ')}`,
  });
}

/**
 * Generate: a writing action (Rewrite Selection on a file:// Markdown file) against a server that takes its time to
 * write. Requests per run (exactly one store, at most one account read) and the extension's own time, the server's
 * generation excluded. Figures only: a slow run never fails the benchmark.
 */
function generateRows(m: MainResult, rows: Row[]): void {
  const g = m.generate;
  if (!g) return;
  if (!g.runs.length) {
    rows.push({ figure: '7 Generate', measured: 'n/a', budget: '—', status: 'n/a', note: g.error ?? 'no run' });
    return;
  }
  const badRuns = g.runs.filter((r) => r.stores !== 1 || r.accountReads > 1 || r.requests.length !== r.stores + r.accountReads);
  const reads = g.runs.map((r) => r.accountReads);
  rows.push({
    figure: `7 Requests: Generate, ${g.action}`,
    measured: `${g.runs[0].stores} store + ${reads[0]} account read${reads.length > 1 ? `, then ${reads.slice(1).join('/')}` : ''}`,
    budget: '= 1 store + ≤ 1 account read',
    status: badRuns.length ? 'MISSED' : 'met',
    note: `${g.runs.length} runs; ${badRuns.length ? `runs off budget: ${badRuns.map((r) => r.requests.join(', ')).join(' | ')}` : `first run: ${g.runs[0].requests.join(', ')}`}`,
  });
  const first = g.runs.find((r) => r.first);
  const rest = g.runs.filter((r) => !r.first);
  const restMed = median(rest.map((r) => r.ownMs));
  const ok = (first ? first.ownMs <= BUDGET.ownMs : true) && (rest.length ? restMed <= BUDGET.ownMs : true);
  rows.push({
    figure: `7 Own time: Generate, ${g.action}`,
    measured: first && rest.length ? `${fmtMs(first.ownMs)} first, ${fmtMs(restMed)} then` : fmtMs(g.runs[0].ownMs),
    budget: `≤ ${BUDGET.ownMs} ms`,
    status: ok ? 'met' : 'MISSED',
    note: `the server writes for ${g.generationMs} ms per store (+ ${g.latencyMs} ms on every answer); ms per run: ${g.runs
      .map((r) => `${r.totalMs.toFixed(0)} = network ${r.networkMs.toFixed(0)} + VS Code ${r.vscodeMs.toFixed(0)} + own ${r.ownMs.toFixed(0)}`)
      .join('; ')} (own = from the command until its proposal diff is open, less the HTTP exchanges and the VS Code calls it waits for: the progress notification, opening the proposal, the diff editor)${g.error ? `; stopped: ${g.error}` : ''}`,
  });
}

// --- The browser build (dist/web/extension.js): size and activation in the web worker ------------------------

interface WebSample {
  activeAtStart: boolean;
  apiActivateMs: number;
  runsInWebWorker: boolean;
  requireMs?: number;
  activateMs?: number;
  marks: number;
}

interface WebFigures {
  bytes?: number;
  gzipBytes?: number;
  samples: WebSample[];
  error?: string;
}

/**
 * The browser build beside the Node build: its size, and N fresh starts of code-server with the extension forced
 * into the web-worker extension host (user setting remote.extensionKind), each activating it through the API from
 * test/bench/inWebWorker.ts (bundled here for the browser) once the workbench settled.
 */
async function webBuildFigures(repo: string, runDir: string, stage: string, distDir: string, runs: number, henv: HarnessEnv): Promise<WebFigures> {
  const web = path.join(distDir, 'web', 'extension.js');
  if (!fs.existsSync(web)) return { samples: [], error: `no browser build at ${web}` };
  fs.mkdirSync(path.join(stage, 'dist', 'web'), { recursive: true });
  fs.copyFileSync(web, path.join(stage, 'dist', 'web', 'extension.js'));
  const figures: WebFigures = { bytes: fs.statSync(web).size, gzipBytes: gzipSize(web), samples: [] };
  progress(`web: dist/web/extension.js ${fmtKB(figures.bytes!)}${isProduction(web) ? '' : ' (not a production build)'}`);
  // Inside the extension's folder: VS Code runs an extensionTestsPath in the host of the extension that holds it.
  const probe = path.join(stage, 'web-probe', 'index.js');
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(repo, 'test', 'bench', 'inWebWorker.ts')],
    bundle: true,
    outfile: probe,
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const { startCodeServer, launchChromium } = await import('../harness/lib');
  for (let i = 1; i <= runs && !interrupted; i++) {
    progress(`web: fresh start ${i} of ${runs} (web-worker extension host)`);
    const dir = path.join(runDir, `web-${i}`);
    let cs: Awaited<ReturnType<typeof startCodeServer>> | undefined;
    let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
    try {
      cs = await startCodeServer({ harnessEnv: henv, runDir: dir, settings: { 'remote.extensionKind': { 'content-docs.content-docs': ['web'] } } });
      browser = await launchChromium({ harnessEnv: henv, runDir: dir });
      const page = browser.page;
      let sample: WebSample | undefined;
      let done!: () => void;
      const finished = new Promise<void>((r) => (done = r));
      await page.exposeFunction('codeAutomationExit', () => done());
      await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown) => {
        const text = Array.isArray(args) ? args.map(String).join(' ') : String(args);
        if (process.env.HARNESS_VERBOSE) progress(`  web log: ${text.slice(0, 300)}`);
        const m = /\[\[bench-web (\{.*\})\]\]/.exec(text);
        if (m) sample = JSON.parse(m[1]) as WebSample;
      });
      const payload = [['extensionDevelopmentPath', cs.remoteUri(stage)], ['extensionTestsPath', cs.remoteUri(probe)], ['skipWelcome', 'true']];
      await page.goto(`${cs.url}?${new URLSearchParams({ ew: 'true', payload: JSON.stringify(payload) }).toString()}`);
      await Promise.race([finished, new Promise((r) => setTimeout(r, 90_000))]);
      if (!sample) throw new Error('the probe reported nothing');
      if (!sample.runsInWebWorker) throw new Error('the extension did not run in the web worker');
      progress(`  web: activate() ${sample.apiActivateMs} ms from the API; marks require ${sample.requireMs ?? '?'} + activate ${sample.activateMs ?? '?'} ms`);
      figures.samples.push(sample);
    } catch (e) {
      figures.error = (e as Error).message;
      progress(`  web: failed: ${figures.error}`);
    } finally {
      await browser?.close();
      await cs?.stop();
    }
  }
  return figures;
}

function webRows(c: Collected, rows: Row[]): void {
  const w = c.web;
  if (!w) return;
  const node = c.bundle;
  rows.push({
    figure: '7 Browser build (dist/web/extension.js)',
    measured: w.bytes !== undefined ? `${fmtKB(w.bytes)} (gzip ${fmtKB(w.gzipBytes ?? 0)})` : 'n/a',
    budget: '—',
    status: w.bytes !== undefined ? 'info' : 'n/a',
    note: node
      ? `one bundle, loaded whole at activation in the web worker (only 'vscode' resolves there); the Node build loads ${fmtKB(node.activation.bytes)} at activation and ${fmtKB(node.later.reduce((n, l) => n + l.bytes, 0))} later (${node.later.map((l) => l.file).join(', ')}); fetch replaces undici`
      : 'one bundle, loaded whole at activation (only vscode resolves in the web worker); fetch replaces undici',
  });
  const s = w.samples;
  const nodeApi = c.activation.map((r) => r.result?.sample?.apiActivateMs).filter((x): x is number => x !== undefined);
  const nodeMarks = c.activation
    .map((r) => r.result?.sample?.marks)
    .filter((m): m is NonNullable<typeof m> => !!m && m.requireMs !== undefined && m.activateMs !== undefined)
    .map((m) => m.requireMs! + m.activateMs!);
  const webMarks = s.filter((x) => x.requireMs !== undefined && x.activateMs !== undefined).map((x) => x.requireMs! + x.activateMs!);
  rows.push({
    figure: '7 Browser build: activation in the web worker',
    // The host's marks first: once activated at startup (onStartupFinished), awaiting activate() only reads a settled promise.
    measured: webMarks.length ? `median ${fmtMs(median(webMarks))} require() + activate()` : s.length ? `median ${fmtMs(median(s.map((x) => x.apiActivateMs)))} (await activate())` : 'n/a',
    budget: '—',
    status: s.length ? 'info' : 'n/a',
    note: s.length
      ? `${s.length} fresh start(s): ${s.map((x) => x.apiActivateMs.toFixed(1)).join(', ')} ms awaiting activate() from the API` +
        (webMarks.length ? `; host marks require() + activate() ${webMarks.map((x) => x.toFixed(0)).join(', ')} ms` : '; the worker kept no host marks') +
        `. Node build beside it: ${nodeApi.length ? `median ${fmtMs(median(nodeApi))} awaiting activate()` : 'not measured in this run'}${nodeMarks.length ? `, marks ${fmtMs(median(nodeMarks))}` : ''}`
      : (w.error ?? 'not run'),
  });
}

function backupRows(c: Collected, rows: Row[]): void {
  const b = c.backup;
  if (!b) return;
  const r = b.result;
  if (!r || r.mode !== 'backup') {
    rows.push({ figure: '8 Backup of 10,000 documents', measured: 'n/a', budget: '—', status: 'n/a', note: b.error ?? 'no result' });
    return;
  }
  for (const run of r.runs) {
    const n = run.report?.seen ?? r.documents ?? 0;
    const perThousand = n ? run.seconds / (n / 1000) : NaN;
    const counts = run.report
      ? `${run.report.new} new, ${run.report.changed} changed, ${run.report.deleted} deleted, ${run.report.unchanged} unchanged`
      : 'no report';
    // The budgets: at a server's limit, within 1.2× of what the limit allows for its list requests; unthrottled, within
    // 2× of its list requests' own time plus writing its files as fast as the disk takes them (r.disk). A rerun: info.
    let budget = '—';
    let status: Status = run.error ? 'n/a' : 'info';
    let floorNote = '';
    const first = run.report ? run.report.new === run.report.seen && run.report.seen > 0 : false;
    if (!run.error && run.rateLimit) {
      const allowed = (run.listRequests / run.rateLimit) * 60;
      budget = `≤ ${BUDGET.backupLimitRatio}× what the limit allows (${(BUDGET.backupLimitRatio * allowed).toFixed(0)} s)`;
      status = run.seconds <= BUDGET.backupLimitRatio * allowed ? 'met' : 'MISSED';
      floorNote = `the limit allows ${run.listRequests} requests in ${allowed.toFixed(0)} s (${run.rateLimit} a minute), ×${(run.seconds / allowed).toFixed(2)}; `;
    } else if (!run.error && first && r.disk && run.listSeconds !== undefined) {
      // The disk takes a file written through VS Code's file system API once it is flushed: vscode.workspace.fs flushes
      // every file it writes (fdatasync on close), and the backup writes through it (remote and virtual folders too).
      const flushedFloor = run.listSeconds + (r.disk.flushedSeconds ?? NaN);
      const plainFloor = run.listSeconds + r.disk.writeSeconds;
      budget = `≤ ${BUDGET.backupFloorRatio}× its list requests + the disk (${(BUDGET.backupFloorRatio * flushedFloor).toFixed(1)} s)`;
      status = run.seconds <= BUDGET.backupFloorRatio * flushedFloor ? 'met' : 'MISSED';
      floorNote =
        `the floor: its list requests ${run.listSeconds.toFixed(1)} s + writing its ${r.disk.files} files (${fmtKB(r.disk.bytes)}) with fs.promises, ${r.disk.atOnce} at a time, each to a temporary file flushed to the disk and renamed into place, as VS Code's file system API writes them, ${(r.disk.flushedSeconds ?? NaN).toFixed(1)} s = ${flushedFloor.toFixed(1)} s, ×${(run.seconds / flushedFloor).toFixed(2)}; ` +
        `without the flush ${r.disk.writeRenameSeconds.toFixed(1)} s, as plain writes ${r.disk.writeSeconds.toFixed(1)} s (list + plain writes ${plainFloor.toFixed(1)} s, ×${(run.seconds / plainFloor).toFixed(2)}); `;
    }
    rows.push({
      figure: `8 Backup: ${run.what}`,
      measured: `${run.listRequests} list requests; ${run.seconds.toFixed(1)} s (${Number.isNaN(perThousand) ? 'n/a' : perThousand.toFixed(2)} s per 1,000 documents); peak RSS ${run.peak.rssMB} MB, heap ${run.peak.heapUsedMB} MB`,
      budget,
      status,
      note:
        floorNote +
        `${n} documents, ${counts}; ${run.showRequests} read by id; ${run.tooMany} answered 429; ` +
        `${run.rateLimit ? `the sandbox at ${run.rateLimit} requests a minute` : 'the sandbox unthrottled (the extension\'s own pace)'}; ` +
        `peak growth over the start of the run: RSS +${run.peak.rssGrowthMB} MB, heap +${run.peak.heapGrowthMB} MB; after it (GC): heap ${run.after.heapUsedMB} MB, RSS ${run.after.rssMB} MB` +
        (run.error ? `; error: ${run.error}` : ''),
    });
  }
  for (const e of r.errors) rows.push({ figure: 'Backup run error', measured: 'n/a', budget: '—', status: 'n/a', note: e.split('\n')[0] });
}

function buildRows(c: Collected): Row[] {
  const rows: Row[] = [];
  bundleRows(c, rows);
  activationRows(c, rows);
  firstOpenRows(c, rows);
  webRows(c, rows);
  backupRows(c, rows);
  const m = c.main?.result;
  if (!c.main) return rows;
  if (!m || m.mode !== 'main') {
    rows.push({ figure: '3–6 Main run', measured: 'n/a', budget: '—', status: 'n/a', note: c.main.error ?? 'no result' });
    return rows;
  }
  requestRows(m, rows);
  latencyRows(m, rows);
  largeRows(m, rows);
  rateRows(m, rows);
  generateRows(m, rows);
  for (const e of m.errors ?? []) rows.push({ figure: 'Run error', measured: 'n/a', budget: '—', status: 'n/a', note: e.split('\n')[0] });
  return rows;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out.length ? out : [''];
}

function renderTable(rows: readonly Row[]): string {
  const head: Row = { figure: 'Figure', measured: 'Measured', budget: 'Budget', status: 'Status' as Status, note: 'Note' };
  const cols = ['figure', 'measured', 'budget', 'status'] as const;
  const width = Object.fromEntries(cols.map((k) => [k, Math.max(...[head, ...rows].map((r) => String(r[k]).length))])) as Record<(typeof cols)[number], number>;
  const noteWidth = Math.max(40, (process.stdout.columns || Number(process.env.COLUMNS) || 200) - cols.reduce((a, k) => a + width[k] + 3, 0) - 4);
  const line = (r: Row) => {
    const notes = wrap(r.note, noteWidth);
    return notes
      .map((n, i) => `| ${cols.map((k) => (i === 0 ? String(r[k]) : '').padEnd(width[k])).join(' | ')} | ${n.padEnd(Math.min(noteWidth, Math.max(...notes.map((x) => x.length))))}`)
      .join('\n');
  };
  const sep = `|${cols.map((k) => '-'.repeat(width[k] + 2)).join('|')}|${'-'.repeat(Math.min(noteWidth + 2, 60))}`;
  return [line(head), sep, ...rows.map(line)].join('\n');
}

// --- Main --------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  // The backup item (about 4 minutes more) runs only when asked for: --only=backup.
  const want = (step: string) => (args.only ? args.only.has(step) : step !== 'backup');
  const repo = repoRoot();
  const harness = harnessEnvOrReport();
  if (!harness) return 2;
  const distDir = path.resolve(process.env.BENCH_DIST || path.join(repo, 'dist'));
  const act = path.join(distDir, 'extension.js');
  if (!fs.existsSync(act)) {
    console.error(`No bundle in ${distDir}. Build it first: node esbuild.mjs --production (npm run bench does).`);
    return 2;
  }
  const runDir = createRunDir('bench');
  const stage = path.join(runDir, 'extension');
  const loadAtStart = loadNow();
  progress(`run folder ${path.relative(repo, runDir)}; code-server ${harness.version}; ${os.cpus().length} CPU(s), load average ${fmtLoad(loadAtStart)}; sandbox served ${servedOverTls() ? 'over TLS (https://127.0.0.1, a test authority trusted through NODE_EXTRA_CA_CERTS)' : 'as plain http://127.0.0.1 (BENCH_TLS=0)'}`);

  // The production bundle, copied once; another build of dist/ during the run changes nothing here.
  if (!isProduction(act)) {
    progress('dist/extension.js is not a production build (another build replaced it?): rebuilding with --production');
    const b = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: repo, encoding: 'utf8' });
    if (b.status !== 0) {
      console.error(`node esbuild.mjs --production failed:\n${b.stderr}`);
      return 2;
    }
  }
  stageExtension(repo, distDir, stage);
  const productionBundle = isProduction(path.join(stage, 'dist', 'extension.js'));
  if (!productionBundle) progress('WARNING: the staged dist/extension.js still does not look like a production build');

  const reference = referenceExtension(repo, runDir);
  const collected: Collected = { activation: [], harness, loadAtStart };
  if (want('bundle')) {
    collected.bundle = await bundleFigures(repo, stage, runDir);
    progress(`bundle: extension.js ${fmtKB(collected.bundle.activation.bytes)}; ${collected.bundle.later.map((l) => `${l.file} ${fmtKB(l.bytes)}`).join(', ')}`);
    collected.vsix = packageVsix(repo, stage);
    progress(`vsix: ${collected.vsix.bytes !== undefined ? fmtKB(collected.vsix.bytes) : collected.vsix.reason}`);
  }

  let exit = 0;
  if (want('activation')) {
    const timing = timingExtension(runDir);
    const lean = leanSurfaceExtension(stage, runDir);
    const manifest = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8')) as { publisher: string; name: string };
    for (let i = 1; i <= args.runs; i++) {
      // The starts go in pairs: a first window (the extension's storage fresh: no code cache of the lazy bundles, as
      // after an install or update), then a later window in the storage it left (its code cache), as a user's next
      // window. The reference is loaded, activated and opened first in starts 1, 4, 5, 8…, after Content Docs in the
      // others: each kind of window has it first in half of its starts.
      const window = i % 2 === 1 ? 'first' : 'later';
      const referenceFirst = i % 4 === 1 || i % 4 === 0;
      const storage = path.join(runDir, `activation-storage-${Math.ceil(i / 2)}`);
      progress(`activation: fresh start ${i} of ${args.runs}, a ${window} window (the reference extension ${referenceFirst ? 'first' : 'second'}; load average ${fmtLoad(loadNow())})`);
      // Each start also opens the views of both against a sandbox of its own, after the activation figures were read.
      const sandbox = await servedSandbox({ rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
      let run: HostRun<ActivationResult>;
      try {
        // The in-host code stays outside the extension's folder here: the extension's first require('vscode')
        // (VS Code building its API object for it) then happens during activation, as it does for users.
        run = await hostRun<ActivationResult>(
          repo,
          runDir,
          `activation-${i}`,
          withReference([stage, timing], reference, referenceFirst, lean),
          path.join(__dirname, 'inHost.js'),
          {
            [ENV.mode]: 'activation',
            [ENV.referenceFirst]: referenceFirst ? '1' : '0',
            [ENV.window]: window,
            HARNESS_EXTENSION_STORAGE: `${manifest.publisher}.${manifest.name}=${storage}`,
            ...sandbox.env,
          },
          180,
        );
      } finally {
        await sandbox.close();
      }
      if (run.error || run.result?.error) {
        progress(`  failed: ${run.error ?? run.result?.error?.split('\n')[0]}`);
        exit = 1;
      }
      const ref = run.result?.sample?.reference;
      if (run.result?.sample && (!ref || !ref.activeBeforeAsked || ref.error)) {
        progress(`  the reference extension ${ref ? (ref.error ?? 'was not activated by VS Code on its event') : 'was not loaded'}`);
        exit = 1;
      }
      collected.activation.push(run);
      if (interrupted) break;
    }
  }

  if (want('web') && !interrupted) {
    collected.web = await webBuildFigures(repo, runDir, stage, distDir, args.runs, harness);
    if (collected.web.error) exit = 1;
  }

  if (want('main') && !interrupted) {
    const stageMain = path.join(runDir, 'extension-main');
    fs.cpSync(stage, stageMain, { recursive: true });
    const outRoot = path.resolve(__dirname, '..', '..');
    copyWithRequires(outRoot, path.join(__dirname, 'inHost.js'), path.join(stageMain, 'out'));
    // Two starts share the extension's global storage, as a user's windows do: the first window after installing
    // (the user actions only) has no code cache of the lazy bundles yet and leaves one (src/activation/codeCache.ts);
    // the main run is a later window, which loads them with it. Each start has a sandbox of its own (fresh data).
    const manifest = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8')) as { publisher: string; name: string };
    const storageEnv = { HARNESS_EXTENSION_STORAGE: `${manifest.publisher}.${manifest.name}=${path.join(runDir, 'extension-storage')}` };
    const start = async (name: string, env: Record<string, string>, timeoutSec: number, referenceFirst: boolean): Promise<HostRun<MainResult>> => {
      const sandbox = await servedSandbox({ rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
      try {
        progress(`${name}: sandbox on ${sandbox.docsUrl} and ${sandbox.seoUrl}`);
        return await hostRun<MainResult>(
          repo,
          runDir,
          name,
          withReference([stageMain], reference, referenceFirst),
          path.join(stageMain, 'out', 'test', 'bench', 'inHost.js'),
          {
            [ENV.mode]: 'main',
            [ENV.referenceFirst]: referenceFirst ? '1' : '0',
            ...sandbox.env,
            [ENV.debounceMs]: String(gotoDebounceMs(repo)),
            ...storageEnv,
            ...env,
          },
          timeoutSec,
        );
      } finally {
        await sandbox.close();
      }
    };
    // The reference's view opens before Content Docs' in the first window, after them in the main run.
    collected.firstWindow = await start('main-first-window', { BENCH_PHASES: 'user' }, 240, true);
    if (collected.firstWindow.error || collected.firstWindow.result?.errors?.length) exit = 1;
    if (!interrupted) {
      collected.main = await start('main', {}, 480, false);
      if (collected.main.error || collected.main.result?.errors?.length) exit = 1;
    }
  }

  if (want('backup') && !interrupted) {
    const stageBackup = path.join(runDir, 'extension-backup');
    fs.cpSync(stage, stageBackup, { recursive: true });
    const outRoot = path.resolve(__dirname, '..', '..');
    copyWithRequires(outRoot, path.join(__dirname, 'inHost.js'), path.join(stageBackup, 'out'));
    const sandbox = await servedSandbox({ rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    try {
      progress(`backup run: sandbox on ${sandbox.docsUrl}`);
      collected.backup = await hostRun<BackupResult>(
        repo,
        runDir,
        'backup',
        stageBackup,
        path.join(stageBackup, 'out', 'test', 'bench', 'inHost.js'),
        { [ENV.mode]: 'backup', ...sandbox.env },
        // A first backup of 10,000 files took 394 s on a machine at load 20 (2 cores), and there are two.
        1500,
      );
      if (collected.backup.error || collected.backup.result?.errors?.length) exit = 1;
    } finally {
      await sandbox.close();
    }
  }

  authority?.dispose();
  if (interrupted) {
    console.error('[bench] interrupted');
    console.error(`Run folder kept: ${runDir}`);
    return 130;
  }
  const rows = buildRows(collected);
  const elapsed = (Date.now() - T_START) / 1000;
  const loadAtEnd = loadNow();
  const table = renderTable(rows);
  const jsonFile = path.join(repo, '.test-runs', 'bench.json');
  const json = {
    date: new Date().toISOString(),
    elapsedSeconds: r1(elapsed),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavg: { start: loadAtStart, end: loadAtEnd }, node: process.version },
    vscode: `code-server ${harness.version}`,
    productionBundle,
    budgets: BUDGET,
    rows,
    raw: {
      bundle: collected.bundle,
      web: collected.web,
      vsix: collected.vsix,
      activation: collected.activation.map((r) => ({ ms: r.ms, code: r.code, error: r.error, load: r.load, ...r.result })),
      main: collected.main ? { ms: collected.main.ms, code: collected.main.code, error: collected.main.error, result: collected.main.result } : undefined,
      firstWindow: collected.firstWindow
        ? { ms: collected.firstWindow.ms, code: collected.firstWindow.code, error: collected.firstWindow.error, result: collected.firstWindow.result }
        : undefined,
      backup: collected.backup ? { ms: collected.backup.ms, code: collected.backup.code, error: collected.backup.error, result: collected.backup.result } : undefined,
    },
  };
  fs.mkdirSync(path.dirname(jsonFile), { recursive: true });
  fs.writeFileSync(jsonFile, JSON.stringify(json, null, 2) + '\n');

  const missed = rows.filter((r) => r.status === 'MISSED').length;
  const met = rows.filter((r) => r.status === 'met').length;
  console.log('');
  console.log(`Machine: ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? '?'}); load average (1, 5, 15 min) at the start ${fmtLoad(loadAtStart)}, at the end ${fmtLoad(loadAtEnd)}.`);
  console.log(table);
  console.log('');
  const howLines = [
    `Sizes: the production bundle copied from ${path.relative(repo, distDir) || distDir}/ to a private folder; "largest parts" from esbuild's metafile of an identical build.`,
    'Ratios: the reference extension (test/bench/reference: one view, one command, a tree data provider, activated onStartupFinished as Content Docs is) is loaded into the same starts, first in every other one; a ratio is Content Docs\' median over the starts / the reference\'s median over the same starts, so that a slower or busier machine slows both (each start\'s own ratio is in the notes; it swings with which of the two went first). The budgets are ratios; the ms beside them is what the ratio allows with this run\'s reference figure.',
    "Activation: every start is a new code-server, chromium and extension host; VS Code activates the extension by itself once startup finished (onStartupFinished; else the benchmark activates it through the API once the workbench is idle). require() and activate() come from the extension host's own performance marks (VS Code's records, whole ms), checked against a sub-millisecond timing in the host and VS Code's \"Extension Activation Stats\" (Developer: Startup Performance). require.cache shows what activation loaded.",
    'Requests: counted in the sandbox request log per action, until no request came for 0.7 s (follow-ups included).',
    `Own time: the sandbox adds ${collected.main?.result?.latencyMs ?? 100} ms to every answer. An action is timed from its start until the result is shown (a tree: the view got the new rows and read their TreeItems; an editor: VS Code's open/save resolved), then split into network (the HTTP exchanges), the extension's own time (its code on the critical path: answering the views, its command, the file system calls VS Code made; network excluded) and the rest (VS Code and the workbench). For Load more, where the view waits on the extension's change events, own = total − network − VS Code's refresh time measured alone.`,
    'Memory: process.memoryUsage() in the extension host after forced garbage collections, before the 10,000-document scenario and after closing its editors.',
    'Backup: Back Up Account to Folder… run through its command into a new folder on the machine\'s disk; peak memory is the highest process.memoryUsage() of the extension host sampled every 50 ms while it ran; list requests counted at the sandbox.',
  ];
  console.log('How it was measured:');
  for (const l of howLines) console.log(wrap(l, 130).map((x, i) => `${i ? '  ' : '- '}${x}`).join('\n'));
  console.log('');
  console.log(`${met} met, ${missed} missed, ${rows.length - met - missed} informational; ${elapsed.toFixed(0)} s in all.`);
  console.log(`JSON: ${jsonFile}`);
  if (exit === 0 && !args.keep) removeDir(runDir);
  else console.log(`Run folder kept (logs, staged extension${collected.vsix?.bytes ? ', .vsix' : ''}): ${runDir}`);
  return exit;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error('[bench] error:', e);
    process.exit(2);
  },
);
