/**
 * Harness library: a real VS Code (code-server = VS Code's server + web workbench) driven by
 * Debian's chromium through playwright-core, fully offline.
 *
 *  - readHarnessEnv()     where `bash test/harness/install.sh` put Node 24, code-server and chromium
 *  - startCodeServer()    loopback-only, `--auth none`, throwaway dirs, its own process group
 *  - launchChromium()     headless Debian chromium with a throwaway profile
 *  - freePort(), repoRoot(), createRunDir()
 *
 * Everything a run writes (user data, extensions, logs, TMPDIR, XDG_* dirs, the browser profile)
 * lives in one run folder under `<repo>/.test-runs/` (gitignored), removed when the run succeeds
 * and kept (with code-server.log) when it fails.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import type { BrowserContext, Page } from 'playwright-core';

export const INSTALL_COMMAND = 'bash test/harness/install.sh';

export interface HarnessEnv {
  /** Node 24 binary that runs code-server. */
  node: string;
  /** code-server's `out/node/entry.js`. */
  codeServer: string;
  /** Debian chromium binary. */
  chromium: string;
  /** code-server version, e.g. 4.139.1 (= VS Code 1.139.1). */
  version: string;
  /** The cache folder env.json was read from. */
  cacheDir: string;
}

export class HarnessNotInstalledError extends Error {
  constructor(detail: string) {
    super(`The integration-test harness is not installed (${detail}).\n` +
      `Install it once (about 3 minutes; needs apt + the npm registry), then try again:\n\n    ${INSTALL_COMMAND}\n`);
    this.name = 'HarnessNotInstalledError';
  }
}

/** The repository root: the nearest ancestor of this file whose package.json is the extension's. */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if (JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'content-docs') return dir;
      } catch { /* keep looking */ }
    }
    const up = path.dirname(dir);
    if (up === dir) return path.resolve(__dirname, '..', '..', '..');
    dir = up;
  }
}

export function harnessCacheDir(): string {
  if (process.env.CONTENT_DOCS_HARNESS_CACHE) return path.resolve(process.env.CONTENT_DOCS_HARNESS_CACHE);
  const xdg = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'content-docs-harness');
}

/** readHarnessEnv() for a runner's main(): undefined (the reason printed) when the harness is not installed. */
export function harnessEnvOrReport(): HarnessEnv | undefined {
  try {
    return readHarnessEnv();
  } catch (e) {
    if (e instanceof HarnessNotInstalledError) {
      console.error(e.message);
      return undefined;
    }
    throw e;
  }
}

/** Reads `<cache>/env.json` written by install.sh; throws HarnessNotInstalledError if anything is missing. */
export function readHarnessEnv(): HarnessEnv {
  const cacheDir = harnessCacheDir();
  const file = path.join(cacheDir, 'env.json');
  if (!fs.existsSync(file)) throw new HarnessNotInstalledError(`${file} does not exist`);
  let raw: Partial<HarnessEnv>;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new HarnessNotInstalledError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  for (const key of ['node', 'codeServer', 'chromium'] as const) {
    const p = raw[key];
    if (!p || !fs.existsSync(p)) throw new HarnessNotInstalledError(`${key} ${p ? `${p} is missing` : 'is not set'} in ${file}`);
  }
  return { node: raw.node!, codeServer: raw.codeServer!, chromium: raw.chromium!, version: raw.version || 'unknown', cacheDir };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh folder `<repo>/.test-runs/<prefix>-XXXXXX`. */
export function createRunDir(prefix: string): string {
  const base = path.join(repoRoot(), '.test-runs');
  fs.mkdirSync(base, { recursive: true });
  return fs.mkdtempSync(path.join(base, `${prefix}-`));
}

export function removeDir(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 200 });
  } catch { /* best effort */ }
}

const sleep = (ms: number) => new Promise<void>(r => setTimeout(r, ms));

function httpReachable(url: string): Promise<boolean> {
  return new Promise(resolve => {
    const req = http.get(url, res => { res.resume(); resolve((res.statusCode ?? 0) > 0 && (res.statusCode ?? 0) < 500); });
    req.on('error', () => resolve(false));
    req.setTimeout(2000, () => { req.destroy(); resolve(false); });
  });
}

/** Is any process of process group `pgid` still alive? */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try { process.kill(-pgid, signal); } catch { /* already gone */ }
}

/**
 * Settings for the throwaway user profile: no welcome page, tips, telemetry, update checks, chat,
 * secondary side bar or git prompts, so the workbench is quiet and screenshots are deterministic.
 */
export const QUIET_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.colorTheme': 'Default Dark Modern',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'git.autoRepositoryDetection': false,
  'window.commandCenter': false,
};

/**
 * The languagepacks.json entry that makes code-server start in `locale` (`--locale` alone stays English): written into
 * `<runDir>/user-data`, the user data folder startCodeServer uses. The entry's translations of VS Code itself are
 * empty, so the workbench stays English; vscode.env.language is the locale, and an extension's
 * l10n/bundle.l10n.<locale>.json and package.nls.<locale>.json are read. Returns the flags to start code-server with.
 */
export function writeLanguagePack(runDir: string, locale: string): string[] {
  const userData = path.join(runDir, 'user-data');
  const translations = path.join(runDir, `vscode-${locale}.json`);
  fs.mkdirSync(userData, { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ contents: {} }));
  fs.writeFileSync(
    path.join(userData, 'languagepacks.json'),
    // One extension named (the server's language list reads the first), though none is installed.
    JSON.stringify({
      [locale]: { hash: `test-${locale}`, extensions: [{ extensionIdentifier: { id: `test.language-pack-${locale}` }, version: '1.0.0' }], translations: { vscode: translations }, label: locale },
    }),
  );
  return ['--locale', locale];
}

export interface CodeServerOptions {
  /** Use this folder for everything the run writes (kept afterwards). Default: a fresh `.test-runs/cs-*`, removed by `stop({ cleanup: true })`. */
  runDir?: string;
  port?: number;
  /** Merged over QUIET_SETTINGS into the user settings.json. */
  settings?: Record<string, unknown>;
  /**
   * An extension's global storage kept outside the throwaway profile (`id`: publisher.name; `dir`: the folder): what it
   * writes there is still there in the next start given the same folder, as in a user's next window.
   */
  extensionStorage?: { id: string; dir: string };
  /** Added to code-server's environment, which the extension host inherits. `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** More code-server flags. */
  extraArgs?: string[];
  /** VS Code's display language (vscode.env.language): `--locale` with its languagepacks.json entry (writeLanguagePack). */
  locale?: string;
  startTimeoutMs?: number;
  harnessEnv?: HarnessEnv;
}

export interface CodeServer {
  port: number;
  /** `http://127.0.0.1:PORT/` */
  url: string;
  pid: number;
  runDir: string;
  logFile: string;
  userDataDir: string;
  extensionsDir: string;
  /** Time from spawn to a healthy /healthz. */
  startupMs: number;
  /** `vscode-remote://127.0.0.1:PORT<absPath>`: how the workbench names a file on the server. */
  remoteUri(absPath: string): string;
  /** SIGTERM the whole process group, SIGKILL what is left after 5 s, and wait for it. `cleanup` removes an owned run folder. */
  stop(opts?: { cleanup?: boolean }): Promise<void>;
}

/** Environment variables that would make code-server behave as a CLI talking to another VS Code. */
function isInheritedVsCodeVar(name: string): boolean {
  return name.startsWith('VSCODE_') || name === 'ELECTRON_RUN_AS_NODE' || name === 'ELECTRON_NO_ATTACH_CONSOLE';
}

export async function startCodeServer(opts: CodeServerOptions = {}): Promise<CodeServer> {
  const henv = opts.harnessEnv ?? readHarnessEnv();
  const ownsRunDir = !opts.runDir;
  const runDir = opts.runDir ? path.resolve(opts.runDir) : createRunDir('cs');
  fs.mkdirSync(runDir, { recursive: true });
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = path.join(runDir, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...(opts.settings ?? {}) }, null, 2));
  const localeArgs = opts.locale ? writeLanguagePack(runDir, opts.locale) : [];
  if (opts.extensionStorage) {
    const globalStorage = path.join(userDataDir, 'User', 'globalStorage');
    fs.mkdirSync(globalStorage, { recursive: true });
    fs.mkdirSync(opts.extensionStorage.dir, { recursive: true });
    fs.symlinkSync(path.resolve(opts.extensionStorage.dir), path.join(globalStorage, opts.extensionStorage.id), 'dir');
  }

  // Keep what code-server and VS Code write (heartbeat, logs, ipc sockets, node compile cache) in the run folder.
  const sandboxEnv: Record<string, string> = {};
  for (const [name, sub] of [['TMPDIR', 'tmp'], ['XDG_DATA_HOME', 'xdg-data'], ['XDG_CONFIG_HOME', 'xdg-config'],
    ['XDG_CACHE_HOME', 'xdg-cache'], ['XDG_STATE_HOME', 'xdg-state'], ['XDG_RUNTIME_DIR', 'xdg-runtime']] as const) {
    sandboxEnv[name] = path.join(runDir, sub);
    fs.mkdirSync(sandboxEnv[name], { recursive: true, mode: 0o700 });
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !isInheritedVsCodeVar(k)) env[k] = v;
  Object.assign(env, sandboxEnv);
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k]; else env[k] = v;
  }

  const logFile = path.join(runDir, 'code-server.log');
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = opts.port ?? await freePort();
    const args = [
      henv.codeServer,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--user-data-dir', userDataDir,
      '--extensions-dir', extensionsDir,
      '--config', path.join(runDir, 'config.yaml'), // else it writes ~/.config/code-server/config.yaml
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      // A built VS Code only honours ?payload=[["extensionTestsPath",..]] with the smoke-test driver enabled.
      '--vscode-option', 'enable-smoke-test-driver',
      ...localeArgs,
      ...(opts.extraArgs ?? []),
    ];
    const logFd = fs.openSync(logFile, 'a');
    const t0 = Date.now();
    const proc: ChildProcess = spawn(henv.node, args, {
      cwd: runDir,
      env,
      stdio: ['ignore', logFd, logFd],
      detached: true, // own process group: stop() ends server, extension host and helpers together
    });
    fs.closeSync(logFd);
    let exited = false;
    const exitedPromise = new Promise<void>(resolve => proc.once('exit', () => { exited = true; resolve(); }));
    proc.once('error', () => { exited = true; });
    const pid = proc.pid!;
    // Last resort if our process dies without calling stop().
    const onExit = () => killGroup(pid, 'SIGKILL');
    process.once('exit', onExit);

    const url = `http://127.0.0.1:${port}/`;
    let healthy = false;
    while (!exited && Date.now() - t0 < (opts.startTimeoutMs ?? 60_000)) {
      if (await httpReachable(`${url}healthz`)) { healthy = true; break; }
      await sleep(100);
    }
    let stopped: Promise<void> | undefined;
    const stop = (stopOpts: { cleanup?: boolean } = {}): Promise<void> => {
      stopped ??= (async () => {
        killGroup(pid, 'SIGTERM');
        const deadline = Date.now() + 5000;
        await Promise.race([exitedPromise, sleep(5000)]);
        while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
        if (groupAlive(pid)) {
          killGroup(pid, 'SIGKILL');
          await Promise.race([exitedPromise, sleep(2000)]);
        }
        process.removeListener('exit', onExit);
      })();
      return stopped.then(() => { if (stopOpts.cleanup && ownsRunDir) removeDir(runDir); });
    };
    if (healthy) {
      return {
        port, url, pid, runDir, logFile, userDataDir, extensionsDir,
        startupMs: Date.now() - t0,
        remoteUri: (p: string) => `vscode-remote://127.0.0.1:${port}${path.resolve(p).split(path.sep).map(encodeURIComponent).join('/')}`,
        stop,
      };
    }
    await stop();
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    lastError = exited ? `code-server exited early (log: ${logFile}):\n${log.slice(-4000)}` : `code-server did not answer on ${url}healthz in time (log: ${logFile})`;
    if (!(exited && /EADDRINUSE/.test(log) && opts.port === undefined)) break; // retry only a lost port race
  }
  throw new Error(lastError);
}

/** Flags for headless Debian chromium (no sandbox as root in containers, no GPU, no network chatter). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage', '--disable-breakpad', '--disable-crash-reporter',
];

export interface ChromiumOptions {
  /** The profile goes to `<runDir>/chromium-profile` (left for the owner of runDir). Default: a fresh `.test-runs/chromium-*`, removed on close. */
  runDir?: string;
  viewport?: { width: number; height: number };
  harnessEnv?: HarnessEnv;
}

export interface Chromium {
  context: BrowserContext;
  /** The page the persistent context opened with. */
  page: Page;
  profileDir: string;
  close(): Promise<void>;
}

export async function launchChromium(opts: ChromiumOptions = {}): Promise<Chromium> {
  const henv = opts.harnessEnv ?? readHarnessEnv();
  const { chromium } = await import('playwright-core');
  const ownsProfile = !opts.runDir;
  const profileDir = opts.runDir ? path.join(opts.runDir, 'chromium-profile') : createRunDir('chromium');
  const sandbox: Record<string, string> = {};
  for (const [name, sub] of [['XDG_CONFIG_HOME', 'xdg-config'], ['XDG_CACHE_HOME', 'xdg-cache']] as const) {
    sandbox[name] = path.join(profileDir, sub);
    fs.mkdirSync(sandbox[name], { recursive: true });
  }
  // Chromium makes a Unix socket in TMPDIR, and a socket path has at most 107 bytes: a deep clone's run
  // folder is too long, so its temp folder is a short one in the harness cache (or /tmp), removed on close.
  const tmpBase = harnessCacheDir().length <= 60 ? harnessCacheDir() : os.tmpdir();
  fs.mkdirSync(tmpBase, { recursive: true });
  const tmpDir = fs.mkdtempSync(path.join(tmpBase, 'chr-'));
  sandbox.TMPDIR = tmpDir;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, sandbox);
  // launchPersistentContext = explicit, throwaway user-data-dir (plain launch() would use /tmp).
  const context = await chromium.launchPersistentContext(path.join(profileDir, 'user-data'), {
    executablePath: henv.chromium,
    headless: true,
    args: [...CHROMIUM_ARGS],
    env,
    viewport: opts.viewport ?? { width: 1400, height: 900 },
    handleSIGINT: false, // the runner shuts down in order (browser, then code-server)
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const page = context.pages()[0] ?? await context.newPage();
  let closed: Promise<void> | undefined;
  return {
    context, page, profileDir,
    close: () => closed ??= (async () => {
      await context.close().catch(() => undefined);
      removeDir(tmpDir);
      if (ownsProfile) removeDir(profileDir);
    })(),
  };
}
