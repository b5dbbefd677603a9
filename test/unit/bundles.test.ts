/**
 * The Node bundles as esbuild.mjs declares them (BUNDLES) and as `node esbuild.mjs` built them (dist/bundles.json):
 * the activation bundle, which every window loads once startup finished, holds only the source files it lists and
 * stays under its size (of its production build); no bundle holds an npm package it does not name; and the only
 * runtime requires of dist/extension.js are vscode and the declared lazy bundles.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.join(__dirname, '..', '..', '..');

interface BundleReport {
  entry: string;
  loads: string;
  maxKB?: number;
  packages: string[];
  contains?: string[];
  bytes: number;
  inputs: string[];
}
interface Report {
  production: boolean;
  bundles: Record<string, BundleReport>;
}

function packageOf(input: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
}

/** What a bundle holds beyond its declaration. */
export function bundleProblems(name: string, b: Pick<BundleReport, 'packages' | 'contains' | 'inputs'>): string[] {
  const problems: string[] = [];
  for (const input of b.inputs) {
    const pkg = packageOf(input);
    if (pkg !== undefined) {
      if (!b.packages.includes(pkg)) problems.push(`dist/${name}.js holds ${input} of the package ${pkg}, which esbuild.mjs does not declare for it`);
    } else if (b.contains && !b.contains.includes(input)) {
      problems.push(`dist/${name}.js holds ${input}, which esbuild.mjs does not list for it`);
    }
  }
  return [...new Set(problems)];
}

/** The activation bundle's production size: its entry built minified in memory, as `node esbuild.mjs --production` does. */
async function productionBytes(entry: string, lazy: readonly string[]): Promise<number> {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    outfile: path.join(ROOT, 'out', 'bundle-size-check.js'),
    format: 'cjs',
    platform: 'node',
    target: 'node18',
    external: ['vscode', ...lazy.map((n) => `./${n}.js`)],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    // One require('vscode') for the whole bundle, as esbuild.mjs's plugin vscode-once makes it.
    plugins: [
      {
        name: 'vscode-once',
        setup(build) {
          build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
          build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "module.exports = require('vscode');\n", loader: 'js' }));
        },
      },
    ],
  });
  return result.outputFiles.find((f) => f.path.endsWith('.js'))!.contents.length;
}

describe('the Node bundles hold what esbuild.mjs declares', () => {
  const file = path.join(ROOT, 'dist', 'bundles.json');
  const report = (): Report => {
    assert.ok(fs.existsSync(file), `${file} is missing: run node esbuild.mjs`);
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
  };

  it('package.json "main" is the declared activation bundle, and it lists its files and its size', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main: string };
    const act = report().bundles.extension;
    assert.ok(act, 'esbuild.mjs declares an "extension" bundle');
    assert.equal(pkg.main, './dist/extension.js');
    assert.ok(act.contains?.length, 'the activation bundle lists the source files it may hold');
    assert.ok(act.maxKB !== undefined && act.maxKB > 0, 'the activation bundle declares its size');
  });

  it('the activation bundle holds only its listed source files and no package', () => {
    const act = report().bundles.extension;
    assert.deepEqual(bundleProblems('extension', act), []);
  });

  it('no bundle holds a package it does not declare (undici only in dist/http.js, zod in dist/schemas.js and dist/tools.js)', () => {
    const problems = Object.entries(report().bundles).flatMap(([name, b]) => bundleProblems(name, { ...b, contains: undefined }));
    assert.deepEqual(problems, []);
  });

  it('the activation bundle, minified, stays within its declared size', async () => {
    const r = report();
    const act = r.bundles.extension;
    const bytes = r.production ? act.bytes : await productionBytes(act.entry, Object.keys(r.bundles).filter((n) => n !== 'extension'));
    assert.ok(bytes <= act.maxKB! * 1024, `dist/extension.js is ${(bytes / 1024).toFixed(1)} KB minified; esbuild.mjs allows ${act.maxKB} KB`);
  });

  it('dist/extension.js requires nothing but vscode, the declared lazy bundles and the code cache\'s Node built-ins', () => {
    const r = report();
    const js = fs.readFileSync(path.join(ROOT, 'dist', 'extension.js'), 'utf8');
    // src/activation/codeCache.ts requires these in its `node` getters, when the first lazy bundle loads, not at activation.
    const codeCache = ['crypto', 'fs', 'module', 'path', 'vm'];
    const allowed = new Set(['vscode', ...codeCache, ...Object.keys(r.bundles).filter((n) => n !== 'extension').map((n) => `./${n}.js`)]);
    const required = [...js.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(required.filter((x) => !allowed.has(x)))], []);
    for (const lazy of ['./core.js', './commands.js']) assert.ok(required.includes(lazy), `the activation bundle loads ${lazy} on demand`);
  });

  it("no bundle copies VS Code's API object: every require('vscode') is a plain assignment, not a re-export", () => {
    const files = [...Object.keys(report().bundles).map((n) => `dist/${n}.js`), 'dist/web/extension.js'];
    const copies = files.flatMap((f) =>
      [...fs.readFileSync(path.join(ROOT, f), 'utf8').matchAll(/(.{0,40})\brequire\(\s*["']vscode["']\s*\)/g)]
        .filter((m) => !/=\s*$/.test(m[1]))
        .map((m) => `${f}: …${m[0]}`),
    );
    assert.deepEqual(copies, []);
  });

  it("every Node bundle requires vscode once (each require goes through the extension host's module interceptor)", () => {
    const many = Object.keys(report().bundles)
      .map((n) => [n, [...fs.readFileSync(path.join(ROOT, 'dist', `${n}.js`), 'utf8').matchAll(/\brequire\(\s*["']vscode["']\s*\)/g)].length] as const)
      .filter(([, count]) => count > 1)
      .map(([n, count]) => `dist/${n}.js: ${count}`);
    assert.deepEqual(many, []);
  });

  it('only the activation bundle holds the code cache\'s loader (a copy in another bundle would load without the cache)', () => {
    const holders = Object.entries(report().bundles)
      .filter(([, b]) => b.inputs.includes('src/activation/codeCache.ts'))
      .map(([name]) => name);
    assert.deepEqual(holders, ['extension']);
  });

  it('dist/package.json gives the bundles\' module type, so Node does not parse the 56 KB manifest for it on their require()', () => {
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ROOT, 'dist', 'package.json'), 'utf8')), { type: 'commonjs' });
  });

  it('the check catches a file or a package that is not declared', () => {
    const declared = { packages: [], contains: ['src/extension.ts'] };
    assert.deepEqual(bundleProblems('extension', { ...declared, inputs: ['src/extension.ts'] }), []);
    assert.equal(bundleProblems('extension', { ...declared, inputs: ['src/extension.ts', 'src/documents/documentsModel.ts'] }).length, 1);
    assert.equal(bundleProblems('extension', { ...declared, inputs: ['node_modules/zod/v4/core/api.js'] }).length, 1);
    assert.deepEqual(bundleProblems('api', { packages: ['zod'], inputs: ['node_modules/zod/v4/core/api.js'] }), []);
  });
});
