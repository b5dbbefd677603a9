#!/usr/bin/env node
// `npm test`: runs every test tier in order (npm's `pretest` has already built dist/ and out/) and
// ends with exactly one line, alone: `N passed, M failed` summed over the tiers. Exit code 1 if any failed.
//
// A tier is { name, run(): Promise<{ passed, failed, failures?: string[] }> }. To add one, append it to TIERS.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

const REPO = path.resolve(__dirname, '..');
const OUT = path.join(REPO, 'out', 'test');

/** All files under dir whose name ends with suffix, sorted (no glob dependency). */
function findFiles(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findFiles(full, suffix));
    else if (entry.isFile() && entry.name.endsWith(suffix)) out.push(full);
  }
  return out.sort();
}

/** Mocha in this process; counts come from the runner's events. Honours `ui` and `require` of test/.mocharc.unit.json. */
function runMochaTier(files, options = {}) {
  const Mocha = require('mocha');
  let rc = {};
  try { rc = JSON.parse(fs.readFileSync(path.join(__dirname, '.mocharc.unit.json'), 'utf8')); } catch { /* none */ }
  for (const r of [].concat(rc.require || [])) require(path.resolve(REPO, r));
  const mocha = new Mocha({ timeout: 20000, reporter: 'spec', ...(rc.ui ? { ui: rc.ui } : {}), ...options });
  if (process.env.CONTENT_DOCS_GREP) mocha.grep(process.env.CONTENT_DOCS_GREP);
  for (const f of files) mocha.addFile(f);
  const result = { passed: 0, failed: 0, failures: [] };
  return new Promise(resolve => {
    let runner;
    try {
      runner = mocha.run(() => resolve(result));
    } catch (e) {
      result.failed++;
      result.failures.push(`loading the tests: ${e && e.message}`);
      console.error(e);
      return resolve(result);
    }
    runner.on('pass', () => { result.passed++; });
    runner.on('fail', test => { result.failed++; result.failures.push(test.fullTitle()); });
  });
}

/** test/harness/progress.ts as built by pretest (loaded when a child tier runs: lint and unit need no build of it). */
function progressLib() {
  return require(path.join(OUT, 'harness', 'progress.js'));
}

/**
 * A node script as a child process (stdio inherited, its own process group) that writes {passed, failed, failures}
 * to a results file, after every test when it can (test/harness/progress.ts). A child that dies or hangs keeps the
 * counts it wrote, plus one failure naming the test that was running. The tiers have their own watchdogs, which
 * stop what they started; this one is the backstop behind them (options.limits: sized from the tier's progress,
 * options.fixedMs: a fixed limit), and stops the whole process group.
 */
function runChildTier(name, script, args = [], options = {}) {
  const { hungReason, readProgress, finalResults } = progressLib();
  const results = options.results || path.join(REPO, '.test-runs', `${name}-results.json`);
  fs.mkdirSync(path.dirname(results), { recursive: true });
  fs.rmSync(results, { force: true });
  return new Promise(resolve => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [script, ...args], {
      cwd: REPO,
      stdio: 'inherit',
      detached: true, // its own process group: a hung tier is stopped with everything it started
      env: { ...process.env, CONTENT_DOCS_TEST_RESULTS: results },
    });
    const signalGroup = sig => {
      try { process.kill(-child.pid, sig); } catch { try { child.kill(sig); } catch { /* gone */ } }
    };
    const forward = sig => signalGroup(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    let timedOut = false;
    let killTimer;
    const watch = setInterval(() => {
      const fixedMs = options.fixedMs ?? (options.limits ? undefined : BACKSTOP_MS);
      const reason = hungReason(readProgress(results), startedAt, Date.now(), options.limits || BACKSTOP_LIMITS, fixedMs);
      if (reason === undefined) return;
      clearInterval(watch);
      timedOut = true;
      console.error(`[${name}] TIMEOUT: ${reason}; stopping the tier`);
      signalGroup('SIGTERM');
      killTimer = setTimeout(() => signalGroup('SIGKILL'), options.killAfterMs ?? 20_000);
    }, options.everyMs ?? 5_000);
    let done = false;
    const finish = code => {
      if (done) return;
      done = true;
      clearInterval(watch);
      clearTimeout(killTimer);
      process.removeListener('SIGINT', forward);
      process.removeListener('SIGTERM', forward);
      resolve(finalResults(name, readProgress(results), { code, timedOut }));
    };
    child.on('error', e => { console.error(e); finish(-1); });
    child.on('exit', (code, signal) => finish(code ?? signal));
  });
}

/** The backstop of a tier sized by nothing here (package stops itself after 3 minutes, e2e after about 7, web after its budget). */
const BACKSTOP_MS = 15 * 60_000;
/** With BACKSTOP_MS only the grace counts: the time a tier may take to end after its last test. */
const BACKSTOP_LIMITS = { startupMs: BACKSTOP_MS, perTestMs: 0, slackMs: 0, graceMs: 120_000, defaultTestMs: BACKSTOP_MS };

/**
 * The integration tier's backstop: hostRunner's own limits plus two minutes everywhere (so hostRunner, which stops
 * code-server and chromium itself, is the one that acts), or HARNESS_TIMEOUT plus five minutes when that is set.
 */
function integrationBackstop() {
  const l = progressLib().INTEGRATION_LIMITS;
  const fixed = Number(process.env.HARNESS_TIMEOUT);
  return {
    limits: { ...l, startupMs: l.startupMs + 120_000, graceMs: l.graceMs + 120_000, slackMs: l.slackMs + 120_000 },
    ...(fixed > 0 ? { fixedMs: (fixed + 300) * 1000 } : {}),
  };
}

/** ESLint over src/ and test/ as `npm run lint` (type-aware; zero problems allowed, warnings included): one check that passes or fails. */
function runLintTier() {
  return new Promise(resolve => {
    const bin = path.join(REPO, 'node_modules', 'eslint', 'bin', 'eslint.js');
    const child = spawn(process.execPath, [bin, '--max-warnings', '0', 'src', 'test'], { cwd: REPO, stdio: 'inherit' });
    child.on('error', e => resolve({ passed: 0, failed: 1, failures: [`lint: ${e.message}`] }));
    child.on('exit', code => {
      if (code === 0) console.log('lint: src/ and test/ have no problems');
      resolve(code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1, failures: ['lint: eslint found problems in src/ or test/ (npm run lint)'] });
    });
  });
}

const TIERS = [
  { name: 'lint', run: runLintTier },
  { name: 'unit', run: () => runMochaTier(findFiles(path.join(OUT, 'unit'), '.test.js')) },
  { name: 'integration', run: () => runChildTier('integration', path.join(OUT, 'harness', 'runIntegration.js'), [], integrationBackstop()) },
  // The .vsix built by `npm run package`, installed into code-server and used from its workbench.
  { name: 'package', run: () => runChildTier('package', path.join(OUT, 'package', 'runPackage.js')) },
  // The extension driven through the workbench UI (clicks, keys, menus, dialog) against the sandbox.
  { name: 'e2e', run: () => runChildTier('e2e', path.join(OUT, 'e2e', 'runE2e.js')) },
  // The same workbench started in German (--locale de): the views, a question, an error and the status bar in German.
  { name: 'e2e-locale', run: () => runChildTier('e2e-locale', path.join(OUT, 'e2e', 'runLocale.js')) },
  // The pseudo-locale (every string accented, 30 % longer, "[!! … !!]"): no English left on the screens a test reads.
  { name: 'pseudo-locale', run: () => runChildTier('pseudo-locale', path.join(OUT, 'pseudo', 'runPseudo.js'), [], integrationBackstop()) },
  // The browser build (dist/web) in code-server's web-worker extension host, against a sandbox answering CORS.
  { name: 'web', run: () => runChildTier('web', path.join(OUT, 'web', 'runWeb.js')) },
];

async function main() {
  const only = process.env.CONTENT_DOCS_TIERS ? process.env.CONTENT_DOCS_TIERS.split(',').map(s => s.trim()) : undefined;
  const totals = { passed: 0, failed: 0 };
  const lines = [];
  for (const tier of TIERS) {
    if (only && !only.includes(tier.name)) continue;
    const t0 = Date.now();
    console.log(`\n===== ${tier.name} =====`);
    let r;
    try {
      r = await tier.run();
    } catch (e) {
      console.error(e);
      r = { passed: 0, failed: 1, failures: [`${tier.name}: ${e && e.message}`] };
    }
    totals.passed += r.passed;
    totals.failed += r.failed;
    lines.push(`  ${tier.name}: ${r.passed} passed, ${r.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    for (const f of r.failures || []) lines.push(`    ✗ ${f}`);
  }
  console.log('\n===== summary =====');
  for (const l of lines) console.log(l);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  return totals.failed > 0 ? 1 : 0;
}

module.exports = { runChildTier };

if (require.main === module) {
  main().then(
    code => process.exit(code),
    e => { console.error(e); console.log('0 passed, 1 failed'); process.exit(1); },
  );
}
