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

/** A node script as a child process (stdio inherited) that writes {passed, failed, failures} to a results file. */
function runChildTier(name, script, args = []) {
  const results = path.join(REPO, '.test-runs', `${name}-results.json`);
  fs.mkdirSync(path.dirname(results), { recursive: true });
  fs.rmSync(results, { force: true });
  return new Promise(resolve => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: REPO,
      stdio: 'inherit',
      env: { ...process.env, CONTENT_DOCS_TEST_RESULTS: results },
    });
    const forward = sig => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const finish = code => {
      process.removeListener('SIGINT', forward);
      process.removeListener('SIGTERM', forward);
      let r;
      try { r = JSON.parse(fs.readFileSync(results, 'utf8')); } catch { r = undefined; }
      if (!r || typeof r.passed !== 'number' || typeof r.failed !== 'number') {
        return resolve({ passed: 0, failed: 1, failures: [`${name}: the harness failed before reporting results (exit code ${code})`] });
      }
      const out = { passed: r.passed, failed: r.failed, failures: Array.isArray(r.failures) ? r.failures : [] };
      if (code !== 0 && out.failed === 0) { out.failed = 1; out.failures.push(`${name}: exited with code ${code} after all tests passed`); }
      resolve(out);
    };
    child.on('error', e => { console.error(e); finish(-1); });
    child.on('exit', (code, signal) => finish(code ?? signal));
  });
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
  { name: 'integration', run: () => runChildTier('integration', path.join(OUT, 'harness', 'runIntegration.js')) },
  // The .vsix built by `npm run package`, installed into code-server and used from its workbench.
  { name: 'package', run: () => runChildTier('package', path.join(OUT, 'package', 'runPackage.js')) },
  // The extension driven through the workbench UI (clicks, keys, menus, dialog) against the sandbox.
  { name: 'e2e', run: () => runChildTier('e2e', path.join(OUT, 'e2e', 'runE2e.js')) },
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

main().then(
  code => process.exit(code),
  e => { console.error(e); console.log('0 passed, 1 failed'); process.exit(1); },
);
