/**
 * hostRunner: runs an extension's tests inside a REAL VS Code extension host (code-server's Node
 * remote extension host), with the web workbench in headless Debian chromium. It accepts a VS Code
 * command line, so `test/harness/code-shim` (which execs this file) can be `vscodeExecutablePath`
 * for @vscode/test-electron:
 *
 *   node out/test/harness/hostRunner.js --extensionDevelopmentPath=DIR [--extensionDevelopmentPath=DIR2]
 *        --extensionTestsPath=FILE [FOLDER] [--timeout=SECONDS]
 *
 * --locale=LANG starts VS Code in that display language (startCodeServer's `locale`: vscode.env.language is LANG).
 * Other flags (--no-sandbox, --disable-updates, --skip-welcome, --user-data-dir=…, --extensions-dir=…)
 * are accepted and ignored: the profile is always throwaway.
 * Exit code: the tests' exit code (0 passed, 1 failed), 2 harness error, 3 timeout, 130 interrupted.
 * Watchdog: sized from the suite through the results file the tests rewrite after every test
 * (CONTENT_DOCS_TEST_RESULTS, test/harness/progress.ts): a test may run its own mocha timeout plus a grace, the
 * whole run a budget per test times the number of tests. HARNESS_TIMEOUT (or --timeout) seconds is a fixed limit
 * for the whole run instead (the only one when there is no results file).
 * After a timeout the results file still holds the counts so far and the test that was running.
 * The environment given to this process reaches the extension host; it also gets
 * CONTENT_DOCS_HARNESS_BRIDGE=1 so test helpers know the UI bridge below is listening.
 * HARNESS_VERBOSE=1 shows the filtered workbench noise and browser console.
 *
 * UI bridge (tests in the extension host cannot reach the browser): the runner watches extension-host
 * console lines for one command per line, runs them one at a time in order, and then writes an ack
 * file containing `{"ok":true}` or `{"ok":false,"error":"…"}` (written to a temp name, then renamed):
 *
 *   [[harness:screenshot /abs/path/name.png]]         full-page PNG (folders created); ack: /abs/path/name.png.done
 *   [[harness:click <css selector> /abs/ack.done]]    page.click(selector) (10 s to appear); ack: the last token
 *   [[harness:press <key> /abs/ack.done]]             page.keyboard.press(key), e.g. Escape, Enter, Control+P
 *   [[harness:type <text> /abs/ack.done]]             page.keyboard.type(text): the keys one right after the other
 *   [[harness:read <css selector> /abs/ack.done]]     whether the first match is visible and its text (no waiting):
 *                                                     the ack also holds "visible" and "text"
 *
 * test/integration/harness.ts wraps these as screenshot(name), click(selector), press(key), typeText(text) and
 * read(selector).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import type { Page } from 'playwright-core';
import { CodeServer, Chromium, HarnessNotInstalledError, launchChromium, readHarnessEnv, startCodeServer } from './lib';
import { INTEGRATION_LIMITS, readProgress, watchProgress } from './progress';

/** Workbench/extension-host lines that are pure noise in an offline run (shown with HARNESS_VERBOSE=1). */
const NOISE: readonly RegExp[] = [
  /^Resolv(ing|ed) connection token/, /^Creating a socket/, /^\[reconnection-grace-time\]/,
  /^Updating additional builtin extensions cache/, /^\[Service Worker\]/, /^\[AgentHost/,
  /^\[AccountPolicyGate\]/, /ENOTFOUND open-vsx\.org/, /open-vsx\.org/, /^\[ChatModelSelection\]/,
  /^Canceled: Canceled/, // benign race while the workbench shuts the extension hosts down after the run
  /^\[driver\] /,
  // Copilot Chat, which starts while a suite turns the chat's AI features on, cannot sign in offline.
  /extensions\/copilot\/dist\//, /^GitHubLoginFailed/,
];

const BRIDGE_LINE = /\[\[harness:(screenshot|click|press|type|read) (.+)\]\]/;

interface Args {
  dev: string[];
  tests?: string;
  folder?: string;
  /** VS Code's display language (--locale). */
  locale?: string;
  /** A fixed limit for the whole run (HARNESS_TIMEOUT, --timeout); otherwise the watchdog is sized from the suite. */
  timeoutSec?: number;
}

const VALUE_FLAGS = new Set(['extensionDevelopmentPath', 'extensionTestsPath', 'timeout', 'folder',
  'user-data-dir', 'extensions-dir', 'locale', 'log', 'inspect-extensions', 'inspect-brk-extensions']);

export function parseArgs(argv: readonly string[]): Args {
  const envTimeout = Number(process.env.HARNESS_TIMEOUT);
  const o: Args = { dev: [], ...(envTimeout > 0 ? { timeoutSec: envTimeout } : {}) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) { o.folder = a; continue; }
    const eq = a.indexOf('=');
    const key = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    let value = eq >= 0 ? a.slice(eq + 1) : undefined;
    if (value === undefined && VALUE_FLAGS.has(key)) value = argv[++i];
    switch (key) {
      case 'extensionDevelopmentPath': if (value) o.dev.push(path.resolve(value)); break;
      case 'extensionTestsPath': if (value) o.tests = path.resolve(value); break;
      case 'folder': if (value) o.folder = value; break;
      case 'locale': if (value) o.locale = value; break;
      case 'timeout': if (Number(value) > 0) o.timeoutSec = Number(value); break;
      default: break; // Electron / VS Code flags that mean nothing here
    }
  }
  if (o.folder) o.folder = path.resolve(o.folder);
  return o;
}

/**
 * The one extensionDevelopmentPath the workbench is given: it reads its payload into a Map, so a second entry would
 * replace the first. Several extensions go in as one folder holding a link to each, which VS Code scans as several
 * extensions under development.
 */
export function developmentLocation(dev: readonly string[], runDir: string): string {
  if (dev.length === 1) return dev[0];
  const dir = path.join(runDir, 'development-extensions');
  fs.mkdirSync(dir, { recursive: true });
  dev.forEach((d, i) => fs.symlinkSync(d, path.join(dir, `${i}-${path.basename(d)}`), 'dir'));
  return dir;
}

function writeAck(file: string, result: { ok: boolean; error?: string; visible?: boolean; text?: string }): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(result));
  fs.renameSync(tmp, file); // the test side never sees a half-written ack
}

/** Runs one bridge command; returns the ack path (undefined if the line is malformed and has none). */
async function runBridgeCommand(page: Page, verb: string, rest: string): Promise<void> {
  const t0 = Date.now();
  let ack: string | undefined;
  try {
    if (verb === 'screenshot') {
      const file = rest.trim();
      if (!path.isAbsolute(file) || !file.endsWith('.png')) throw new Error(`screenshot path must be an absolute .png path: ${file}`);
      ack = `${file}.done`;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file, fullPage: true });
      console.error(`[harness] screenshot ${file} (${Date.now() - t0} ms)`);
    } else {
      const cut = rest.trimEnd().lastIndexOf(' ');
      const target = cut > 0 ? rest.slice(0, cut).trim() : '';
      ack = cut > 0 ? rest.slice(cut + 1).trim() : undefined;
      if (!ack || !path.isAbsolute(ack)) { ack = undefined; throw new Error(`bridge ${verb} needs "<arg> <absolute ack path>": ${rest}`); }
      if (!target) throw new Error(`bridge ${verb} without a selector/key`);
      if (verb === 'read') {
        const first = page.locator(target).first();
        let visible = await first.isVisible();
        // The element may go between the two looks (a row a wrap toggled away): then it is not visible.
        const text = visible
          ? await first.innerText({ timeout: 2_000 }).catch(async (e: unknown) => {
              if (await first.isVisible()) throw e;
              visible = false;
              return '';
            })
          : '';
        console.error(`[harness] read ${target}: ${visible ? JSON.stringify(text) : 'not visible'} (${Date.now() - t0} ms)`);
        writeAck(ack, { ok: true, visible, text });
        return;
      }
      if (verb === 'click') await page.click(target, { timeout: 10_000 });
      else if (verb === 'type') await page.keyboard.type(target);
      else await page.keyboard.press(target);
      console.error(`[harness] ${verb} ${target} (${Date.now() - t0} ms)`);
    }
    writeAck(ack, { ok: true });
  } catch (e) {
    const error = (e as Error).message?.split('\n')[0] ?? String(e);
    console.error(`[harness] bridge ${verb} failed: ${error}`);
    if (ack) writeAck(ack, { ok: false, error });
  }
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const o = parseArgs(process.argv.slice(2));
  if (!o.dev.length || !o.tests) {
    console.error('usage: hostRunner.js --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [FOLDER] [--timeout=SECONDS]');
    return 2;
  }
  const verbose = !!process.env.HARNESS_VERBOSE;
  let cs: CodeServer | undefined;
  let browser: Chromium | undefined;
  let exitCode: number;
  let shuttingDown = false;
  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    await browser?.close();
    await cs?.stop({ cleanup: code === 0 });
    if (cs && code !== 0) console.error(`[harness] run folder kept: ${cs.runDir} (code-server.log is there)`);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      console.error(`[harness] ${sig}: stopping code-server and chromium`);
      void shutdown(130).finally(() => process.exit(130));
    });
  }

  try {
    const henv = readHarnessEnv();
    // HARNESS_EXTENSION_STORAGE=<publisher.name>=<folder>: that extension's global storage outlives this start (see
    // CodeServerOptions.extensionStorage; the benchmark's second window).
    const storage = /^([^=]+)=(.+)$/.exec(process.env.HARNESS_EXTENSION_STORAGE ?? '');
    cs = await startCodeServer({
      harnessEnv: henv,
      env: { CONTENT_DOCS_HARNESS_BRIDGE: '1' },
      ...(o.locale ? { locale: o.locale } : {}),
      extensionStorage: storage ? { id: storage[1], dir: storage[2] } : undefined,
    });
    console.error(`[harness] code-server ${henv.version} up on ${cs.url} in ${cs.startupMs} ms (run folder: ${cs.runDir})`);
    browser = await launchChromium({ harnessEnv: henv, runDir: cs.runDir });
    const page = browser.page;

    let resolveExit!: (code: number) => void;
    const exited = new Promise<number>(r => (resolveExit = r));
    let bridgeQueue: Promise<void> = Promise.resolve();

    // The workbench calls this when the extension tests' run() settled (0 resolved, 1 rejected).
    await page.exposeFunction('codeAutomationExit', (code: unknown) => { resolveExit(Number(code)); });
    // Extension-host and workbench log output (mocha's reporter included) arrives here.
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const text = Array.isArray(args) ? util.format(...args) : String(args);
      const lines = text.split('\n');
      let bridged = false;
      for (const line of lines) {
        const m = BRIDGE_LINE.exec(line);
        if (!m) continue;
        const [, verb, rest] = m;
        bridgeQueue = bridgeQueue.then(() => runBridgeCommand(page, verb, rest));
        bridged = true;
      }
      if (bridged) {
        const others = lines.filter(l => !BRIDGE_LINE.test(l) && l.trim());
        if (!others.length) return;
      }
      // A message is noise as a whole (e.g. the offline gallery error and its stack trace).
      if (!verbose && lines.some(line => NOISE.some(re => re.test(line)))) return;
      (type === 'error' ? console.error : console.log)(bridged ? lines.filter(l => !BRIDGE_LINE.test(l)).join('\n') : text);
    });
    if (verbose) {
      page.on('console', msg => console.error('[browser console]', msg.text().replace(/%c/g, '')));
      page.on('pageerror', e => console.error('[browser pageerror]', e.message));
    }

    const payload: [string, string][] = [
      ['extensionDevelopmentPath', cs.remoteUri(developmentLocation(o.dev, cs.runDir))],
      ['extensionTestsPath', cs.remoteUri(o.tests)],
      ['enableProposedApi', ''],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    const q = new URLSearchParams();
    if (o.folder && fs.existsSync(o.folder) && fs.statSync(o.folder).isFile()) q.set('workspace', o.folder);
    else if (o.folder) q.set('folder', o.folder);
    else q.set('ew', 'true');
    q.set('payload', JSON.stringify(payload));
    const tPage = Date.now();
    // Only the navigation itself is awaited: on a busy machine the workbench may take longer than playwright's
    // 30 s to load, and the watchdog below gives the startup its own allowance.
    await page.goto(`${cs.url}?${q.toString()}`, { waitUntil: 'commit', timeout: INTEGRATION_LIMITS.startupMs });

    let hung!: (reason: string) => void;
    const timeout = new Promise<string>(r => (hung = r));
    const fixedMs = o.timeoutSec !== undefined ? o.timeoutSec * 1000 : undefined;
    const resultsFile = process.env.CONTENT_DOCS_TEST_RESULTS;
    let stopWatch: () => void;
    if (resultsFile) {
      stopWatch = watchProgress(resultsFile, INTEGRATION_LIMITS, hung, { fixedMs, startedAt: tPage });
    } else {
      // No results file to follow: the fixed limit, or the startup allowance plus the slack.
      const limitMs = fixedMs ?? INTEGRATION_LIMITS.startupMs + INTEGRATION_LIMITS.slackMs;
      const t = setTimeout(() => hung(`the run took longer than ${limitMs / 1000} s`), limitMs);
      stopWatch = () => clearTimeout(t);
    }
    const result = await Promise.race([exited, timeout]);
    stopWatch();
    await bridgeQueue;
    if (typeof result === 'string') {
      const shot = path.join(cs.runDir, 'timeout.png');
      await page.screenshot({ path: shot }).catch(() => undefined);
      const running = resultsFile ? readProgress(resultsFile)?.running : undefined;
      console.error(`[harness] TIMEOUT: ${result}${running ? `; running: ${running.title}` : ''} (screenshot: ${shot})`);
      exitCode = 3;
    } else {
      exitCode = Number.isInteger(result) ? result : 1;
      console.error(`[harness] tests finished with exit code ${exitCode}: ${Date.now() - tPage} ms from opening the workbench, ${Date.now() - t0} ms in all`);
    }
  } catch (e) {
    if (e instanceof HarnessNotInstalledError) console.error(e.message);
    else console.error('[harness] error:', (e as Error)?.stack ?? e);
    exitCode = 2;
  }
  await shutdown(exitCode);
  return exitCode;
}

if (require.main === module) {
  main().then(code => process.exit(code), e => { console.error(e); process.exit(2); });
}
