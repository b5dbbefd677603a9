/**
 * Package tier: the .vsix a user installs, end to end.
 *
 *  1. `npm run package` builds content-docs-<version>.vsix offline, in a copy of the working tree
 *     (so it never rewrites the dist/ that other runs are using; the copy keeps the stale dev build,
 *     source maps, tests, out/ … so .vscodeignore is tested against a real working tree).
 *  2. The archive holds only the allowed files (bundle without maps, manifest, nls, README,
 *     CHANGELOG, LICENSE, media).
 *  3. code-server --install-extension puts it into a throwaway extensions dir.
 *  4. code-server starts WITHOUT any development path, so the installed copy is what runs; the
 *     sandbox addresses are in the user settings; signing in goes through the command palette (F1),
 *     typing the sandbox key; the extension activates (sandbox log: the key check).
 *  5. The Documents view lists documents from the sandbox (sandbox log: the list request).
 *
 *   node out/test/package/runPackage.js   (build first: node esbuild.mjs && npx tsc -p tsconfig.test.json)
 *
 * Env: CONTENT_DOCS_TEST_RESULTS (runAll.js sets it), CONTENT_DOCS_PACKAGE_SHOTS (default
 * <repo>/test-screenshots/package). Exit code 0 all passed, 1 otherwise, 2 harness not installed.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createRunDir, harnessEnvOrReport, repoRoot } from '../harness/lib';
import { assert, extensionManifest, extensionsDirOf, installGuards, startWorkbench, Steps, waitFor, type Workbench } from '../e2e/support';

/** Working-tree entries (top level) not copied into the staging folder: big, or not the tree's own. */
const NOT_STAGED = new Set(['node_modules', '.git', '.test-runs', '.bench', 'test-screenshots']);

/** What the .vsix may hold (paths inside the zip). vsce itself adds the two manifests and renames LICENSE. */
const ALLOWED: readonly RegExp[] = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[a-z-]+)?\.json$/,
  /^extension\/l10n\/bundle\.l10n(\.[a-z-]+)?\.json$/,
  /^extension\/readme\.md$/,
  /^extension\/changelog\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/(web\/)?[\w-]+\.js$/,
  /^extension\/dist\/package\.json$/,
  /^extension\/media\/(walkthrough\/)?[\w.-]+\.(png|svg)$/,
];
const REQUIRED = [
  'extension.vsixmanifest', 'extension/package.json', 'extension/package.nls.json', 'extension/l10n/bundle.l10n.json', 'extension/package.nls.de.json', 'extension/l10n/bundle.l10n.de.json', 'extension/readme.md',
  'extension/changelog.md', 'extension/LICENSE.txt', 'extension/dist/extension.js', 'extension/dist/package.json', 'extension/dist/api.js', 'extension/dist/mcp.js', 'extension/dist/web/extension.js',
  'extension/media/icon.png', 'extension/media/content-docs.svg',
];
/** Compressed size budget of the .vsix (production bundles: about 300 KB today). */
const MAX_VSIX_BYTES = 1_500_000;

interface ZipEntry {
  name: string;
  size: number;
  compressedSize: number;
}

/** The entries of a zip archive, from its central directory (no unzip needed). */
export function listZip(file: string): ZipEntry[] {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip archive (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${i}`);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    entries.push({ name: buf.toString('utf8', at + 46, at + 46 + nameLen), size, compressedSize });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The whole tier, start to stop (a normal run takes about 25 s). */
const LIMIT_MS = 180_000;
/** Process groups of the commands running now (stopped by the guards on Ctrl+C or the watchdog). */
const running = new Set<number>();

/** Runs a command; resolves with its output; rejects on a non-zero exit or after timeoutMs. */
function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid) running.add(child.pid);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
      reject(new Error(`${cmd} ${args.join(' ')} took longer than ${(opts.timeoutMs ?? 120_000) / 1000} s:\n${out.slice(-3000)}`));
    }, opts.timeoutMs ?? 120_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (child.pid) running.delete(child.pid);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}:\n${out.slice(-3000)}`));
    });
  });
}

/** The environment for child tools: no VS Code CLI variables (code-server would talk to another VS Code). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('VSCODE_') && k !== 'ELECTRON_RUN_AS_NODE') env[k] = v;
  }
  return { ...env, ...extra };
}

async function main(): Promise<number> {
  const henv = harnessEnvOrReport();
  if (!henv) return 2;
  const repo = repoRoot();
  const manifest = extensionManifest();
  const vsixName = `${manifest.name}-${manifest.version}.vsix`;
  const steps = new Steps({ tier: 'package', screenshotDir: process.env.CONTENT_DOCS_PACKAGE_SHOTS || path.join(repo, 'test-screenshots', 'package') });
  const runDir = createRunDir('pkg');
  const stage = path.join(runDir, 'stage');
  const csDir = runDir; // code-server's dirs (extensions, user-data, …) next to the staging folder
  let vsix = '';
  let wb: Workbench | undefined;
  console.log(`[package] run folder ${runDir}`);
  installGuards(steps, LIMIT_MS, async () => {
    for (const pgid of running) {
      try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ }
    }
    await wb?.stop();
  });

  try {
    await steps.step('build', `npm run package builds ${vsixName} offline`, async () => {
      fs.mkdirSync(stage, { recursive: true });
      for (const entry of fs.readdirSync(repo)) {
        if (NOT_STAGED.has(entry) || entry.endsWith('.vsix')) continue;
        fs.cpSync(path.join(repo, entry), path.join(stage, entry), { recursive: true, verbatimSymlinks: true });
      }
      fs.symlinkSync(path.join(repo, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
      // Leftovers a working tree has: a dev build's source maps, compiled tests. None may get in.
      fs.mkdirSync(path.join(stage, 'dist'), { recursive: true });
      fs.writeFileSync(path.join(stage, 'dist', 'extension.js.map'), '{"version":3,"sources":[],"mappings":""}');
      const out = await run('npm', ['run', 'package'], {
        cwd: stage,
        env: cleanEnv({ npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }),
        timeoutMs: 150_000,
      });
      vsix = path.join(stage, vsixName);
      assert(fs.existsSync(vsix), `no ${vsixName} in the staging folder; npm run package said:\n${out.slice(-2000)}`);
      console.log(`      ${vsixName}: ${(fs.statSync(vsix).size / 1024).toFixed(0)} KB`);
    });

    await steps.step('contents', 'the .vsix holds only the bundle, manifest, nls, README, CHANGELOG, LICENSE and media', async () => {
      const entries = listZip(vsix);
      const names = entries.map((e) => e.name).filter((n) => !n.endsWith('/'));
      const stray = names.filter((n) => !ALLOWED.some((r) => r.test(n)));
      assert(stray.length === 0, `files that must not be packaged: ${stray.join(', ')}`);
      // Every picture of the Getting Started walkthrough (contributes.walkthroughs) ships with it.
      const { contributes } = manifest as { contributes?: { walkthroughs?: Array<{ steps: Array<{ media: Record<string, unknown> }> }> } };
      const walkthroughs = contributes?.walkthroughs ?? [];
      const pictures = walkthroughs.flatMap((w) => w.steps.flatMap((s) => ['svg', 'image', 'markdown'].map((k) => s.media[k]).filter((m): m is string => typeof m === 'string')));
      const missing = [...REQUIRED, ...pictures.map((m) => `extension/${path.posix.normalize(m)}`)].filter((n) => !names.includes(n));
      assert(missing.length === 0, `missing from the package: ${missing.join(', ')}`);
      assert(names.includes(`extension/${path.posix.normalize(manifest.main.replace(/^\.\//, ''))}`), `package.json "main" (${manifest.main}) is not in the package`);
      assert(names.includes(`extension/${path.posix.normalize(String(manifest.browser).replace(/^\.\//, ''))}`), `package.json "browser" (${manifest.browser}) is not in the package`);
      const size = fs.statSync(vsix).size;
      assert(size <= MAX_VSIX_BYTES, `the .vsix is ${size} bytes (budget ${MAX_VSIX_BYTES})`);
      // Every packaged bundle is the production build just made: minified, no source-map reference.
      for (const entry of entries.filter((e) => /^extension\/dist\/.*\.js$/.test(e.name))) {
        const js = entry.name.slice('extension/'.length);
        const text = fs.readFileSync(path.join(stage, js), 'utf8');
        assert(entry.size === Buffer.byteLength(text), `the packaged ${js} is not the one just built`);
        assert(!/sourceMappingURL=/.test(text), `${js} refers to a source map (not a production build)`);
        const lines = text.split('\n').length;
        assert(lines < 200, `${js} has ${lines} lines: not minified`);
      }
      console.log(`      ${names.length} files: ${names.join(', ')}`);
    });

    await steps.step('install', 'code-server --install-extension installs the .vsix into a fresh extensions dir', async () => {
      const extDir = extensionsDirOf(csDir);
      fs.mkdirSync(extDir, { recursive: true });
      const home = path.join(runDir, 'install-home');
      const xdg: Record<string, string> = {};
      for (const [k, sub] of [['XDG_DATA_HOME', 'data'], ['XDG_CONFIG_HOME', 'config'], ['XDG_CACHE_HOME', 'cache'], ['TMPDIR', 'tmp']]) {
        xdg[k] = path.join(home, sub);
        fs.mkdirSync(xdg[k], { recursive: true });
      }
      const out = await run(henv.node, [henv.codeServer,
        '--install-extension', vsix,
        '--extensions-dir', extDir,
        '--user-data-dir', path.join(home, 'user-data'),
        '--config', path.join(home, 'config.yaml'),
        '--disable-telemetry'], { cwd: runDir, env: cleanEnv(xdg), timeoutMs: 60_000 });
      assert(/successfully installed/i.test(out), `code-server said:\n${out}`);
      const installed = path.join(extDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
      assert(fs.existsSync(installed) && !fs.lstatSync(installed).isSymbolicLink(), `not installed as a folder: ${installed}`);
      const files = fs.readdirSync(installed).sort();
      assert(!files.includes('src') && !files.includes('test') && !files.includes('node_modules'), `the installed folder holds ${files.join(', ')}`);
      assert(fs.existsSync(path.join(installed, 'dist', 'extension.js')), 'the installed folder has no dist/extension.js');
    });

    await steps.step('activate', 'the installed extension activates and signs in through the command palette', async (shot) => {
      wb = await startWorkbench({ harnessEnv: henv, runDir: csDir, extension: 'preinstalled', viewport: { width: 1280, height: 800 } });
      steps.setPage(wb.page);
      const { ui, page, sandbox } = wb;
      await ui.openContentDocs();
      await ui.pane('Documents').locator('.welcome-view-content a.monaco-button', { hasText: 'Set API Key' }).waitFor();
      await ui.runCommand('Content Docs: Set API Key', () => shot('palette'));
      await waitFor('the key input box', async () => (await ui.quickInputBox.getAttribute('placeholder')) === 'API key', 20_000);
      await page.keyboard.type(sandbox.key, { delay: 5 });
      await shot('typing');
      await page.keyboard.press('Enter');
      await ui.row('Documents', 'Favorites').waitFor({ timeout: 20_000 });
      const probes = sandbox.requests.filter((r) => r.route === 'account');
      assert(probes.length >= 1 && probes.every((r) => r.authorized && r.status === 200), 'no successful key check in the sandbox log');
      // The extension host ran the INSTALLED copy: its log names the extension, and only that copy exists.
      const logs = path.join(wb.cs.userDataDir, 'logs');
      const hostLog = await waitFor('the extension host log to record the activation', () => {
        for (const session of fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
          for (const host of fs.readdirSync(path.join(logs, session))) {
            const f = path.join(logs, session, host, 'remoteexthost.log');
            if (fs.existsSync(f) && /_doActivateExtension content-docs\.content-docs\b/.test(fs.readFileSync(f, 'utf8'))) return f;
          }
        }
        return undefined;
      }, 10_000);
      assert(!/extensionDevelopmentPath/.test(fs.readFileSync(wb.cs.logFile, 'utf8')), 'code-server ran with a development path');
      console.log(`      activation recorded in ${path.relative(repo, hostLog)}`);
    });

    await steps.step('list', 'the Documents view of the installed extension lists documents from the sandbox', async () => {
      assert(wb, 'no workbench');
      const { ui, sandbox } = wb;
      const article = [...sandbox.documents.values()].filter((d) => d.templateId === 4).sort((a, b) => b.id - a.id);
      await ui.row('Documents', 'Article').click();
      const first = ui.row('Documents', article[0].name);
      await first.waitFor({ timeout: 20_000 });
      const lists = sandbox.requests.filter((r) => r.route === 'documents.list' && r.query.template_id === '4');
      assert(lists.length >= 1 && lists.every((r) => r.status === 200 && r.authorized), `list requests: ${JSON.stringify(lists.map((r) => [r.status, r.query]))}`);
      const shown = await ui.labelsAtLevel('Documents', 2);
      assert(shown.length >= 5, `only ${shown.length} document rows`);
      await ui.rows('Projects').first().waitFor();
    });
  } catch (e) {
    steps.fail('unexpected error', e);
  } finally {
    await wb?.stop().catch((e) => steps.fail('stopping', e));
    if (steps.ok) fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    else console.log(`[package] run folder kept: ${runDir} (stage/, code-server.log, user-data/logs)`);
  }
  steps.report();
  return steps.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error('[package] error:', e);
    process.exit(2);
  },
);
