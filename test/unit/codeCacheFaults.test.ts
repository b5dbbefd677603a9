/**
 * The lazy bundles' code cache (src/activation/codeCache.ts) where things go wrong: a cache file damaged past V8's
 * header, what a bundle does that require() allows (import(), stack traces), leftovers of a window that stopped
 * mid-write, a bundles folder reached through a symlink.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CodeCache, type BundleLoad } from '../../src/activation/codeCache';

interface Folders {
  bundles: string;
  cache: string;
}

function folders(): Folders {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-faults-'));
  const f = { bundles: path.join(root, 'dist'), cache: path.join(root, 'storage', 'code-cache') };
  fs.mkdirSync(f.bundles, { recursive: true });
  return f;
}

interface WindowResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  loads: BundleLoad[];
  errors: string[];
  probe: unknown;
}

/**
 * A window of its own (a new Node process: a new V8 isolate that has compiled nothing yet) that loads `name`, calls
 * the bundle's probe() (so what it runs is compiled before the cache is written) and writes the cache.
 */
function windowLoads(f: Folders, name: string): WindowResult {
  const script = `
    const { CodeCache } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'src', 'activation', 'codeCache.js'))});
    const loads = [], errors = [];
    const cache = new CodeCache({ dir: process.argv[1], bundlesDir: process.argv[2], writeAfterMs: 60000, onLoad: (l) => loads.push(l), onError: (m) => errors.push(m) });
    const b = cache.load(process.argv[3], () => { throw new Error('plain require'); });
    const probe = b.probe();
    cache.flush().then(() => console.log(JSON.stringify({ loads, errors, probe })));`;
  const r = spawnSync(process.execPath, ['-e', script, f.cache, f.bundles, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const out = r.status === 0 ? (JSON.parse(r.stdout) as Omit<WindowResult, 'status' | 'signal'>) : { loads: [], errors: [r.stderr.slice(0, 300)], probe: undefined };
  return { status: r.status, signal: r.signal, ...out };
}

function onlyCacheFile(f: Folders): string {
  const names = fs.readdirSync(f.cache).filter((n) => n.endsWith('.v8'));
  assert.equal(names.length, 1, names.join(', '));
  return path.join(f.cache, names[0]);
}

describe('code cache of the lazy bundles: faults (codeCache.ts)', () => {
  const files: string[] = [];
  afterEach(() => files.splice(0).forEach((file) => delete require.cache[file]));

  it('a cache damaged past V8\'s header (same size) never runs: the bundle runs the code its file holds', () => {
    const f = folders();
    fs.writeFileSync(path.join(f.bundles, 'api.js'), '"use strict";\nmodule.exports = { probe() { return 123456789; } };\n');
    assert.equal(windowLoads(f, 'api').probe, 123456789);
    const file = onlyCacheFile(f);
    const data = fs.readFileSync(file);
    const constant = Buffer.alloc(4);
    constant.writeInt32LE(123456789);
    const at = data.indexOf(constant);
    assert.ok(at > 0, 'the compiled probe() is in the cache');
    // One changed constant in the compiled code, as a damaged block or another writer would leave it.
    data.writeInt32LE(987654321, at);
    fs.writeFileSync(file, data);
    const second = windowLoads(f, 'api');
    assert.equal(second.status, 0, second.errors.join('\n'));
    assert.equal(second.probe, 123456789, `the code that ran is not the file's (code cache: ${second.loads.map((l) => l.cache).join(', ')})`);
    assert.deepEqual(second.loads.map((l) => l.cache), ['damaged']);
    assert.equal(windowLoads(f, 'api').loads[0].cache, 'used', 'the damaged file was written again');
  });

  it('a cache whose second half is zeros (same size, header intact) costs only the speed: the window does not crash', function () {
    this.timeout(60_000);
    const f = folders();
    let source = '"use strict";\n';
    for (let i = 0; i < 300; i++) source += `function f${i}(a) { let t = 0; for (let j = 0; j < a; j++) t += (j * ${i}) % 7; return t + ${i}; }\n`;
    source += 'let sum = 0;\n';
    for (let i = 0; i < 300; i++) source += `sum += f${i}(3);\n`;
    source += 'module.exports = { probe() { return sum; } };\n';
    fs.writeFileSync(path.join(f.bundles, 'core.js'), source);
    const first = windowLoads(f, 'core');
    assert.equal(first.status, 0, first.errors.join('\n'));
    const file = onlyCacheFile(f);
    const data = fs.readFileSync(file);
    data.fill(0, Math.floor(data.length / 2));
    fs.writeFileSync(file, data);
    const second = windowLoads(f, 'core');
    assert.equal(second.signal, null, `the window was killed by ${second.signal}: ${second.errors.join('\n')}`);
    assert.equal(second.status, 0, second.errors.join('\n'));
    assert.equal(second.probe, first.probe);
  });

  it('a bundle\'s import() works as under require()', async () => {
    const f = folders();
    const file = path.join(f.bundles, 'tools.js');
    fs.writeFileSync(file, '"use strict";\nmodule.exports = { probe() { return import("node:path").then((p) => typeof p.join); } };\n');
    files.push(file);
    const cache = new CodeCache({ dir: f.cache, bundlesDir: f.bundles, writeAfterMs: 60_000 });
    try {
      const b = cache.load<{ probe(): Promise<string> }>('tools', () => assert.fail('no plain require'));
      assert.equal(await b.probe(), 'function');
    } finally {
      cache.dispose();
    }
  });

  it('a stack trace gives the file\'s column on the bundle\'s first line (a minified bundle is nearly all one line)', () => {
    const f = folders();
    const file = path.join(f.bundles, 'commands.js');
    const source = '"use strict";module.exports={probe(){return new Error("x").stack.split("\\n")[1]}};\n';
    fs.writeFileSync(file, source);
    files.push(file);
    const cache = new CodeCache({ dir: f.cache, bundlesDir: f.bundles, writeAfterMs: 60_000 });
    try {
      const b = cache.load<{ probe(): string }>('commands', () => assert.fail('no plain require'));
      const column = source.indexOf('new Error') + 1;
      assert.match(b.probe(), new RegExp(`commands\\.js:1:${column}\\)$`));
    } finally {
      cache.dispose();
    }
  });

  it('a temporary file left by a window that stopped mid-write (an older build\'s) is removed by the next write', async () => {
    const f = folders();
    const file = path.join(f.bundles, 'backup.js');
    fs.writeFileSync(file, '"use strict";\nmodule.exports = { probe() { return 1; } };\n');
    files.push(file);
    fs.mkdirSync(f.cache, { recursive: true });
    const stale = path.join(f.cache, 'backup.v8.424242.tmp');
    fs.writeFileSync(stale, Buffer.alloc(64 * 1024));
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
    fs.utimesSync(stale, dayAgo, dayAgo);
    const cache = new CodeCache({ dir: f.cache, bundlesDir: f.bundles, writeAfterMs: 60_000 });
    cache.load('backup', () => assert.fail('no plain require'));
    await cache.flush();
    const left = fs.readdirSync(f.cache);
    assert.equal(left.filter((n) => n.endsWith('.v8')).length, 1);
    assert.deepEqual(left.filter((n) => n.endsWith('.tmp')), [], 'the leftover stays in the storage for good');
  });

  it('is one module when the bundles folder is reached through a symlink (os.tmpdir() on macOS is one)', () => {
    const f = folders();
    const real = path.join(f.bundles, 'core.js');
    fs.writeFileSync(real, '"use strict";\nglobalThis.__codeCacheLinkRuns = (globalThis.__codeCacheLinkRuns || 0) + 1;\nmodule.exports = { probe() { return 1; } };\n');
    const link = path.join(path.dirname(f.bundles), 'linked-dist');
    fs.symlinkSync(f.bundles, link, 'dir');
    const viaLink = path.join(link, 'core.js');
    files.push(real, viaLink);
    const g = globalThis as { __codeCacheLinkRuns?: number };
    const cache = new CodeCache({ dir: f.cache, bundlesDir: link, writeAfterMs: 60_000 });
    try {
      const loaded = cache.load('core', () => assert.fail('no plain require'));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      assert.equal(require(viaLink), loaded, 'a plain require() of the same file gives another instance');
      assert.equal(g.__codeCacheLinkRuns, 1);
    } finally {
      cache.dispose();
      delete g.__codeCacheLinkRuns;
    }
  });
});
