/**
 * The web tier: the extension's browser build (dist/web/extension.js) in code-server's **web-worker** extension
 * host — forced with the user setting `remote.extensionKind` — driven by headless Debian chromium, against three
 * sandboxes on 127.0.0.1: one with Laravel's default CORS, one whose CORS settings were changed, and a second server
 * with the default CORS and another key (the account added with "Add Account…"). The suites
 * (test/web/suites.ts) are bundled here by esbuild for the browser and run by mocha's browser build inside the
 * worker (test/web/index.ts). Builds the test bundle itself; run `node esbuild.mjs && npx tsc -p tsconfig.test.json`
 * first (npm's pretest does).
 *
 *   node out/test/web/runWeb.js [--grep=PATTERN]
 *
 * Env: CONTENT_DOCS_GREP, CONTENT_DOCS_TEST_RESULTS (default <repo>/.test-runs/web-results.json),
 *      CONTENT_DOCS_SCREENSHOTS (default <repo>/test-screenshots), HARNESS_VERBOSE, HARNESS_TIMEOUT (s: a fixed limit for
 *      the whole run; without it the watchdog is sized from the suites, see WEB_LIMITS).
 * The results file is rewritten after every test (test/harness/progress.ts): a run that times out keeps its counts
 * plus one failure naming the test that was running.
 * Exit code: 0 all passed, 1 a test failed, 2 harness error, 3 timeout.
 *
 * Bridge (the worker cannot reach the browser page): a console line `[[web:<verb> <arg> <ack path>]]` is run here
 * and answered with a JSON file at the ack path, which the worker reads through vscode.workspace.fs:
 *   screenshot <abs .png>             a PNG of the workbench (also copied to the screenshots folder)
 *   running-extensions <display name> the text of that extension's row in *Running Extensions*
 *   press <key>                       page.keyboard.press(key), e.g. Enter, Escape
 *   read <css selector>               whether the first match is visible now, and its text ("visible", "text")
 * (the argument percent-encoded: it is one word on the line)
 * and `[[web:progress {"event","title","limitMs","total"}]]` each test's start and end, `[[web:results {"passed","failed","failures"}]]`
 * mocha's final counts.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import * as esbuild from 'esbuild';
import type { Page } from 'playwright-core';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { createRunDir, harnessEnvOrReport, launchChromium, removeDir, repoRoot, startCodeServer, type Chromium, type CodeServer } from '../harness/lib';
import { finalResults, hungReason, ProgressWriter, type Limits, type Results } from '../harness/progress';

const EXTENSION_ID = 'content-docs.content-docs';
/** The second sandbox's key: not a substring of the first's (sandbox-key-0123456789), so a request carrying it is found by its text. */
const SECOND_KEY = 'second-account-key-5f3a9c7e';
const BRIDGE = /\[\[web:(screenshot|running-extensions|press|read) (\S+) (\S+)\]\]/;
const RESULTS = /\[\[web:results (\{.*\})\]\]/;
const PROGRESS = /\[\[web:progress (\{.*\})\]\]/;
/** About 11 tests, mocha's 30 s each; a run takes about 45 s on a quiet machine. */
const WEB_LIMITS: Limits = { startupMs: 120_000, perTestMs: 10_000, slackMs: 120_000, graceMs: 30_000, defaultTestMs: 120_000 };
const NOISE: readonly RegExp[] = [
  /open-vsx\.org/, /^Resolv(ing|ed) connection token/, /^Creating a socket/, /^\[reconnection-grace-time\]/, /^\[Service Worker\]/,
  /^\[AgentHost/, /^\[AccountPolicyGate\]/, /^\[ChatModelSelection\]/, /^Canceled: Canceled/, /^\[driver\] /,
  /^Updating additional builtin extensions cache/, /ENOTFOUND/,
];

/** Applies one `[[web:progress …]]` event to the results file's progress. */
function applyProgress(progress: ProgressWriter, e: { event?: string; title?: string; limitMs?: number; total?: number }): void {
  const title = e.title ?? '';
  if (e.event === 'total' && typeof e.total === 'number') progress.setTotal(e.total);
  else if (e.event === 'test') progress.startTest(title, e.limitMs);
  else if (e.event === 'hook') progress.startHook(title, e.limitMs);
  else if (e.event === 'hook end') progress.endHook();
  else if (e.event === 'pass') progress.pass(title);
  else if (e.event === 'fail') progress.fail(title);
}

function grepFromArgs(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--grep=')) return a.slice('--grep='.length);
    if (a === '--grep' || a === '-g') return argv[i + 1];
  }
  return process.env.CONTENT_DOCS_GREP || undefined;
}

function writeAck(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value));
  fs.renameSync(tmp, file);
}

/** The row of *Running Extensions* that names `name` (the editor was opened by the worker; the list is virtual, so it is scrolled). */
async function runningExtensionRow(page: Page, name: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  const seen = new Set<string>();
  for (;;) {
    const rows = await page.$$eval('.runtime-extensions-editor .monaco-list-row', (els) => els.map((e) => (e as unknown as { innerText: string }).innerText));
    for (const r of rows) seen.add(r.split('\n')[0]);
    const row = rows.find((r) => r.includes(name));
    if (row) return row.replace(/\s+/g, ' ').trim();
    if (Date.now() > deadline) throw new Error(`no row for ${name} in Running Extensions (seen: ${[...seen].join(', ')})`);
    const list = await page.$('.runtime-extensions-editor .monaco-list');
    const box = await list?.boundingBox();
    if (box) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 400);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const repo = repoRoot();
  const henv = harnessEnvOrReport();
  if (!henv) return 2;
  const webBundle = path.join(repo, 'dist', 'web', 'extension.js');
  if (!fs.existsSync(webBundle)) {
    console.error(`Missing the browser build (${webBundle}). Build first:\n\n    node esbuild.mjs && npx tsc -p tsconfig.test.json\n`);
    return 2;
  }
  const resultsFile = path.resolve(process.env.CONTENT_DOCS_TEST_RESULTS || path.join(repo, '.test-runs', 'web-results.json'));
  const shots = path.resolve(process.env.CONTENT_DOCS_SCREENSHOTS || path.join(repo, 'test-screenshots'));
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.rmSync(resultsFile, { force: true });
  const progress = new ProgressWriter(resultsFile);
  fs.mkdirSync(shots, { recursive: true });
  const grep = grepFromArgs(process.argv.slice(2));
  const verbose = !!process.env.HARNESS_VERBOSE;
  const fixedMs = Number(process.env.HARNESS_TIMEOUT) > 0 ? Number(process.env.HARNESS_TIMEOUT) * 1000 : undefined;

  // The suites, bundled for the browser: only 'vscode' resolves in the worker.
  const testsEntry = path.join(repo, 'out', 'web-tests', 'index.js');
  await esbuild.build({
    entryPoints: [path.join(repo, 'test', 'web', 'index.ts')],
    bundle: true,
    outfile: testsEntry,
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });

  const runDir = createRunDir('web');
  const ws = path.join(runDir, 'ws');
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, 'README.md'), '# Content Docs web-tier workspace\n');
  let sandbox: Sandbox | undefined;
  let noCors: Sandbox | undefined;
  let second: Sandbox | undefined;
  let cs: CodeServer | undefined;
  let browser: Chromium | undefined;
  let results: Results | undefined;
  let code: number;
  const stop = async () => {
    await browser?.close();
    await cs?.stop();
    await sandbox?.close();
    await noCors?.close();
    await second?.close();
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void stop().finally(() => process.exit(130)));

  try {
    sandbox = await startSandbox({ storeDelayMs: 0, controlCors: true });
    noCors = await startSandbox({ storeDelayMs: 0, controlCors: true, cors: false, seed: 'empty' });
    second = await startSandbox({ storeDelayMs: 0, controlCors: true, key: SECOND_KEY });
    cs = await startCodeServer({
      harnessEnv: henv,
      runDir,
      settings: {
        // The web worker, for this extension only (the settings schema lists ui/workspace; the code accepts web).
        'remote.extensionKind': { [EXTENSION_ID]: ['web'] },
        // VS Code for the Web saves after a delay by default: the tests save themselves, at known moments.
        'files.autoSave': 'off',
        'contentDocs.documents.baseUrl': sandbox.docsUrl,
        'contentDocs.projects.baseUrl': sandbox.seoUrl,
        contentDocsWebTest: {
          docsUrl: sandbox.docsUrl,
          seoUrl: sandbox.seoUrl,
          key: sandbox.key,
          noCorsUrl: noCors.docsUrl,
          second: { docsUrl: second.docsUrl, seoUrl: second.seoUrl, key: second.key },
          runDir,
          grep,
        },
      },
    });
    console.error(`[web] code-server ${henv.version} on ${cs.url} in ${cs.startupMs} ms; sandboxes ${sandbox.docsUrl} (CORS), ${noCors.docsUrl} (no CORS) and ${second.docsUrl} (CORS, a second account)`);
    browser = await launchChromium({ harnessEnv: henv, runDir });
    const page = browser.page;

    let resolveExit!: (c: number) => void;
    const exited = new Promise<number>((r) => (resolveExit = r));
    let bridgeQueue: Promise<void> = Promise.resolve();
    await page.exposeFunction('codeAutomationExit', (c: unknown) => resolveExit(Number(c)));
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const text = Array.isArray(args) ? util.format(...(args as unknown[])) : String(args);
      const e = PROGRESS.exec(text);
      if (e) {
        try { applyProgress(progress, JSON.parse(e[1]) as Parameters<typeof applyProgress>[1]); } catch { /* the final counts still come */ }
        return;
      }
      const r = RESULTS.exec(text);
      if (r) {
        try { results = JSON.parse(r[1]) as Results; } catch { /* reported as missing below */ }
        return;
      }
      const m = BRIDGE.exec(text);
      if (m) {
        const [, verb, arg, ack] = m;
        bridgeQueue = bridgeQueue.then(async () => {
          try {
            if (verb === 'screenshot') {
              if (!path.isAbsolute(arg) || !arg.endsWith('.png') || !arg.startsWith(runDir)) throw new Error(`not a .png in the run folder: ${arg}`);
              fs.mkdirSync(path.dirname(arg), { recursive: true });
              await page.screenshot({ path: arg });
              fs.copyFileSync(arg, path.join(shots, path.basename(arg)));
              console.error(`[web] screenshot ${path.join(shots, path.basename(arg))}`);
              writeAck(ack, { ok: true });
            } else if (verb === 'press') {
              await page.keyboard.press(decodeURIComponent(arg));
              writeAck(ack, { ok: true });
            } else if (verb === 'read') {
              const first = page.locator(decodeURIComponent(arg)).first();
              const visible = await first.isVisible();
              writeAck(ack, { ok: true, visible, text: visible ? await first.innerText({ timeout: 2_000 }) : '' });
            } else {
              writeAck(ack, { ok: true, text: await runningExtensionRow(page, decodeURIComponent(arg)) });
            }
          } catch (e) {
            writeAck(ack, { ok: false, error: (e as Error).message.split('\n')[0] });
          }
        });
        return;
      }
      if (!verbose && text.split('\n').some((l) => NOISE.some((re) => re.test(l)))) return;
      (type === 'error' ? console.error : console.log)(text);
    });
    if (verbose) {
      page.on('console', (msg) => console.error('[browser console]', msg.text().replace(/%c/g, '')));
      page.on('pageerror', (e) => console.error('[browser pageerror]', e.message));
    }

    const payload = [
      ['extensionDevelopmentPath', cs.remoteUri(repo)],
      ['extensionTestsPath', cs.remoteUri(testsEntry)],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    const q = new URLSearchParams({ folder: ws, payload: JSON.stringify(payload) });
    const tPage = Date.now();
    // Only the navigation itself is awaited: the watchdog below gives the workbench's startup its allowance.
    await page.goto(`${cs.url}?${q.toString()}`, { waitUntil: 'commit', timeout: WEB_LIMITS.startupMs });
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<string>((r) => {
      timer = setInterval(() => {
        const reason = hungReason(progress.progress, tPage, Date.now(), WEB_LIMITS, fixedMs);
        if (reason !== undefined) r(reason);
      }, 1_000);
    });
    const outcome = await Promise.race([exited, hung]);
    clearInterval(timer);
    await bridgeQueue;
    if (typeof outcome === 'string') {
      await page.screenshot({ path: path.join(runDir, 'timeout.png') }).catch(() => undefined);
      const running = progress.progress.running;
      console.error(`[web] TIMEOUT: ${outcome}${running ? `; running: ${running.title}` : ''} (screenshot: ${path.join(runDir, 'timeout.png')})`);
      code = 3;
    } else {
      code = outcome === 0 ? 0 : 1;
    }
  } catch (e) {
    console.error('[web] error:', (e as Error)?.stack ?? e);
    code = 2;
  }
  await stop();

  // The final counts when the suites sent them; otherwise the counts so far and the test that was running.
  const r: Results = results
    ? finalResults('web', { ...progress.progress, ...results, finished: true }, { code })
    : finalResults('web', progress.progress, { code, timedOut: code === 3 });
  if (r.failed > 0 && code === 0) code = 1;
  progress.finish();
  fs.writeFileSync(resultsFile, JSON.stringify({ ...r, finished: true }, null, 2) + '\n');
  if (code === 0) removeDir(runDir);
  else console.error(`[web] run folder kept: ${runDir}`);
  console.error(`[web] ${r.passed} passed, ${r.failed} failed; exit code ${code}; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return code;
}

main().then((c) => process.exit(c), (e) => { console.error('[web] error:', e); process.exit(2); });
