/**
 * The browser build (dist/web/extension.js, `browser` in package.json) as `npm run pretest` / `node esbuild.mjs`
 * leaves it: one bundle whose only runtime require is 'vscode' (in a browser's web worker nothing else resolves),
 * with no Node built-in, no undici and no Node globals; and a manifest whose hosts are chosen on purpose.
 */
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  main?: string;
  browser?: string;
  extensionKind?: string[];
};

/** Problems a browser bundle's text has: requires other than 'vscode', Node built-ins, undici, Node globals. */
export function webBundleProblems(js: string): string[] {
  const problems: string[] = [];
  const required = new Set<string>();
  for (const m of js.matchAll(/\brequire\s*\(\s*(["'`])([^"'`]+)\1\s*\)/g)) required.add(m[2]);
  for (const m of js.matchAll(/\bimport\s*\(\s*(["'`])([^"'`]+)\1\s*\)/g)) required.add(m[2]);
  const builtins = new Set(builtinModules.flatMap((b) => [b, `node:${b}`]));
  for (const r of required) {
    if (r === 'vscode') continue;
    problems.push(builtins.has(r) || r.startsWith('node:') ? `requires the Node built-in '${r}'` : `requires '${r}' (only 'vscode' resolves in a web worker)`);
  }
  if (/undici/i.test(js)) problems.push('contains undici');
  if (/\bBuffer\s*[.(]/.test(js)) problems.push('uses Buffer');
  if (/\bprocess\s*\.\s*(env|platform|versions?|cwd|nextTick|argv|exit)\b/.test(js)) problems.push('uses process');
  if (/\b(__dirname|__filename|setImmediate)\b/.test(js)) problems.push('uses a Node-only global');
  return problems;
}

describe('browser build (dist/web/extension.js)', () => {
  const file = path.join(ROOT, pkg.browser ?? 'dist/web/extension.js');

  it('exists where package.json "browser" points, beside the Node "main"', () => {
    assert.equal(pkg.browser, './dist/web/extension.js');
    assert.equal(pkg.main, './dist/extension.js');
    assert.ok(fs.existsSync(file), `${file} is missing: run node esbuild.mjs`);
  });

  it('requires nothing but vscode, and holds no Node built-in, undici, Buffer or process', () => {
    const js = fs.readFileSync(file, 'utf8');
    assert.deepEqual(webBundleProblems(js), []);
    assert.ok(/require\(["']vscode["']\)/.test(js), 'vscode is external');
    assert.ok(js.includes('Failed to fetch') || js.includes('refuses browser access'), 'the fetch transport is in it');
  });

  it('the check catches what must not be there', () => {
    assert.deepEqual(webBundleProblems('require("vscode");'), []);
    assert.equal(webBundleProblems('const f = require("fs");').length, 1);
    assert.equal(webBundleProblems('const c = require("node:crypto");').length, 1);
    assert.equal(webBundleProblems('require("./api.js")').length, 1);
    assert.equal(webBundleProblems('var x = "undici/lib/dispatcher/agent"').length, 1);
    assert.equal(webBundleProblems('Buffer.concat(a)').length, 1);
    assert.equal(webBundleProblems('process.env.HOME').length, 1);
    assert.deepEqual(webBundleProblems('typeof process === "undefined"'), []);
  });

  it('extensionKind is chosen on purpose: ["workspace", "ui"] (next to the workspace where it is installed there, else on this computer; the web worker only where there is no Node host)', () => {
    // "workspace" first: in a remote window it runs on the remote machine when installed there (requests leave from
    // there, as the workspace's tools do). "ui" second: installed on this computer only, it runs here in a remote
    // window instead of not at all, and reaches a server only this computer reaches (README, "Remote windows").
    // ["ui","workspace"] would run it on this computer even when installed on the remote.
    assert.deepEqual(pkg.extensionKind, ['workspace', 'ui']);
  });
});
