/**
 * The lazy bundles' code cache (src/activation/codeCache.ts), in plain Node over small bundles written to a temporary
 * folder: a later load takes what an earlier one compiled, a changed bundle never runs with an older bundle's cache,
 * a cache V8 refuses, a damaged cache or a folder that cannot be written only costs the speed (never runs other code,
 * never crashes), and a bundle is one module whichever way it is required, with import() and stack traces as under
 * require().
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CodeCache, loadBundle, startCodeCache, type BundleLoad, type CodeCacheOptions } from '../../src/activation/codeCache';

interface Folders {
  bundles: string;
  cache: string;
}

function folders(): Folders {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
  const f = { bundles: path.join(root, 'dist'), cache: path.join(root, 'storage', 'code-cache') };
  fs.mkdirSync(f.bundles, { recursive: true });
  return f;
}

/** A bundle whose exports tell what ran: its version, its file names, and a function compiled only when called. */
function writeBundle(f: Folders, name: string, version: number, extra = ''): string {
  const file = path.join(f.bundles, `${name}.js`);
  fs.writeFileSync(
    file,
    `"use strict";\nconst dep = require('./dep.js');\nglobalThis.__codeCacheRuns = (globalThis.__codeCacheRuns || 0) + 1;\n` +
      `module.exports = { version: ${version}, filename: __filename, dirname: __dirname, dep, add(a, b) { return a + b + ${version} - ${version}; } };\n${extra}`,
  );
  fs.writeFileSync(path.join(f.bundles, 'dep.js'), 'module.exports = "dep";\n');
  return file;
}

/** Forgets a loaded bundle (and its dependency), as a new window starts without it. */
function newWindow(file: string): void {
  delete require.cache[file];
  delete require.cache[path.join(path.dirname(file), 'dep.js')];
}

function loader(f: Folders, over: Partial<CodeCacheOptions> = {}): { cache: CodeCache; loads: BundleLoad[]; errors: string[] } {
  const loads: BundleLoad[] = [];
  const errors: string[] = [];
  const cache = new CodeCache({ dir: f.cache, bundlesDir: f.bundles, writeAfterMs: 60_000, onLoad: (l) => loads.push(l), onError: (m) => errors.push(m), ...over });
  return { cache, loads, errors };
}

interface WindowResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  loads: BundleLoad[];
  errors: string[];
  /** The bundle's exports, each function called (`add(2, 3)`, `probe()`) so that what it runs is compiled before the write. */
  bundle: Record<string, unknown>;
}

/**
 * A window of its own: a new Node process (a new V8 isolate, which has compiled nothing yet: in one process V8 would
 * find the bundle's code in its own memory and never look at the cache) that loads `name` and writes its cache.
 */
function windowLoads(f: Folders, name: string): WindowResult {
  const script = `
    const { CodeCache } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'src', 'activation', 'codeCache.js'))});
    const loads = [], errors = [];
    const cache = new CodeCache({ dir: process.argv[1], bundlesDir: process.argv[2], writeAfterMs: 60000, onLoad: (l) => loads.push(l), onError: (m) => errors.push(m) });
    const b = cache.load(process.argv[3], () => { throw new Error('plain require'); });
    const bundle = {};
    for (const [k, v] of Object.entries(b)) bundle[k] = typeof v === 'function' ? (k === 'add' ? v(2, 3) : v()) : v;
    cache.flush().then(() => console.log(JSON.stringify({ loads, errors, bundle })));`;
  const r = spawnSync(process.execPath, ['-e', script, f.cache, f.bundles, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const out = r.status === 0 ? (JSON.parse(r.stdout) as Omit<WindowResult, 'status' | 'signal'>) : { loads: [], errors: [r.stderr.slice(0, 300)], bundle: {} };
  return { status: r.status, signal: r.signal, ...out };
}

type Bundle = { version: number; filename: string; dirname: string; dep: string; add(a: number, b: number): number };

const g = globalThis as { __codeCacheRuns?: number };

describe('code cache of the lazy bundles (codeCache.ts)', () => {
  const files: string[] = [];
  afterEach(() => files.splice(0).forEach(newWindow));

  it('a later window takes the cache an earlier one wrote, and the bundle runs the same', () => {
    const f = folders();
    const file = writeBundle(f, 'api', 1);
    const first = windowLoads(f, 'api');
    assert.deepEqual(first.loads.map((l) => l.cache), ['none']);
    assert.deepEqual(first.errors, []);
    const written = fs.readdirSync(f.cache);
    assert.equal(written.length, 1);
    assert.deepEqual(written, ['api.v8']);
    const before = fs.statSync(path.join(f.cache, written[0])).mtimeMs;

    const second = windowLoads(f, 'api');
    assert.deepEqual(second.loads.map((l) => l.cache), ['used']);
    assert.deepEqual(second.bundle, { version: 1, filename: file, dirname: f.bundles, dep: 'dep', add: 5 });
    assert.deepEqual(fs.readdirSync(f.cache), written);
    assert.equal(fs.statSync(path.join(f.cache, written[0])).mtimeMs, before, 'a cache V8 took is not written again');
  });

  it('nothing is written before the delay or a flush', () => {
    const f = folders();
    files.push(writeBundle(f, 'api', 1));
    const { cache, loads } = loader(f);
    cache.load('api', () => assert.fail('the cache folder is set: no plain require'));
    assert.deepEqual(loads.map((l) => l.cache), ['none']);
    assert.equal(fs.existsSync(f.cache), false);
    cache.dispose();
  });

  it('is one module: a plain require() of the bundle after the load, or a second load, gives the same exports and runs nothing again', () => {
    const f = folders();
    const file = writeBundle(f, 'core', 1);
    files.push(file);
    const { cache } = loader(f);
    const runs = g.__codeCacheRuns ?? 0;
    const loaded = cache.load<Bundle>('core', () => assert.fail('no plain require'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    assert.equal(require(file), loaded);
    assert.equal(cache.load('core', () => assert.fail('no plain require')), loaded);
    assert.equal(g.__codeCacheRuns, runs + 1);
    assert.equal(cache.loads.length, 1);
  });

  it('a changed bundle never runs with the older bundle\'s cache (same length, other code): the cache is told outdated and written again', () => {
    const f = folders();
    writeBundle(f, 'fs', 1);
    windowLoads(f, 'fs');
    const old = fs.readFileSync(path.join(f.cache, 'fs.v8'));
    writeBundle(f, 'fs', 2);
    const second = windowLoads(f, 'fs');
    assert.equal(second.bundle.version, 2);
    assert.deepEqual(second.loads.map((l) => l.cache), ['outdated']);
    assert.deepEqual(fs.readdirSync(f.cache), ['fs.v8']);
    assert.ok(!fs.readFileSync(path.join(f.cache, 'fs.v8')).equals(old), 'the cache is the new text\'s');
    const third = windowLoads(f, 'fs');
    assert.deepEqual(third.loads.map((l) => l.cache), ['used']);
    assert.equal(third.bundle.version, 2);
  });

  it('a cache V8 refuses is not used: the bundle loads as without one, and its cache is written again', () => {
    const f = folders();
    writeBundle(f, 'commands', 1);
    windowLoads(f, 'commands');
    const [name] = fs.readdirSync(f.cache);
    const good = fs.readFileSync(path.join(f.cache, name));
    // What another V8 would have written of this text, whole: V8's header (after the SHA-1s of the text and of what
    // V8 wrote) says which version and flags made it.
    const v8 = Buffer.from(good.subarray(40));
    v8.writeUInt32LE(v8.readUInt32LE(4) ^ 0xffff, 4);
    const other = Buffer.concat([good.subarray(0, 20), createHash('sha1').update(v8).digest(), v8]);
    fs.writeFileSync(path.join(f.cache, name), other);
    const second = windowLoads(f, 'commands');
    assert.equal(second.bundle.add, 5);
    assert.deepEqual(second.loads.map((l) => l.cache), ['rejected']);
    assert.ok(!fs.readFileSync(path.join(f.cache, name)).equals(other), 'the refused file was replaced by what V8 compiled');
    assert.deepEqual(windowLoads(f, 'commands').loads.map((l) => l.cache), ['used']);
  });

  it('without a cache folder the bundle loads as require() loads it', () => {
    const f = folders();
    const file = writeBundle(f, 'tools', 1);
    files.push(file);
    const { cache, loads } = loader(f, { dir: undefined });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const b = cache.load<Bundle>('tools', () => require(file) as Bundle);
    assert.equal(b.version, 1);
    assert.deepEqual(loads.map((l) => l.cache), ['off']);
  });

  it('a cache folder that cannot be written costs only the speed: the bundle loads, the write is told as a warning', async () => {
    const f = folders();
    const file = writeBundle(f, 'backup', 1);
    files.push(file);
    fs.mkdirSync(path.dirname(f.cache), { recursive: true });
    fs.writeFileSync(f.cache, 'a file where the folder should be');
    const { cache, loads, errors } = loader(f);
    assert.equal(cache.load<Bundle>('backup', () => assert.fail('no plain require')).version, 1);
    assert.deepEqual(loads.map((l) => l.cache), ['none']);
    await cache.flush();
    assert.equal(errors.length, 1);
    assert.match(errors[0], /the code cache of backup\.js was not written/);
  });

  it('a missing bundle falls back to the plain require (its error is the one the user sees)', () => {
    const f = folders();
    const { cache, errors } = loader(f);
    assert.throws(() => cache.load('api', () => { throw new Error('Cannot find module ./api.js'); }), /Cannot find module/);
    assert.equal(errors.length, 1);
  });

  it('a bundle that throws while it loads is not kept: the error reaches the caller, and the next load runs it again', () => {
    const f = folders();
    const file = writeBundle(f, 'core', 1, 'if (!globalThis.__codeCacheFixed) throw new Error("broken on load");\n');
    files.push(file);
    const { cache } = loader(f);
    assert.throws(() => cache.load('core', () => assert.fail('no plain require')), /broken on load/);
    assert.equal(require.cache[file], undefined);
    (globalThis as { __codeCacheFixed?: boolean }).__codeCacheFixed = true;
    try {
      assert.equal(cache.load<Bundle>('core', () => assert.fail('no plain require')).version, 1);
    } finally {
      delete (globalThis as { __codeCacheFixed?: boolean }).__codeCacheFixed;
    }
  });

  it('writes by itself after the delay, and forgets what it had still to write when disposed', async () => {
    const f = folders();
    const file = writeBundle(f, 'api', 1);
    const other = writeBundle(f, 'fs', 1);
    files.push(file, other);
    const soon = loader(f, { writeAfterMs: 20 });
    soon.cache.load('api', () => assert.fail('no plain require'));
    const disposed = loader(f, { writeAfterMs: 20 });
    disposed.cache.load('fs', () => assert.fail('no plain require'));
    disposed.cache.dispose();
    const deadline = Date.now() + 5_000;
    while (!(fs.existsSync(f.cache) && fs.readdirSync(f.cache).some((n) => n === 'api.v8')) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(fs.readdirSync(f.cache).map((n) => n.replace(/\..*/, '')), ['api']);
  });

  it('loadBundle goes through the started cache, and as require() once it is disposed (or before it starts)', () => {
    const f = folders();
    const file = writeBundle(f, 'plain', 1);
    files.push(file);
    let plain = 0;
    const viaPlain = () => {
      plain++;
      return { version: -1 };
    };
    assert.equal(loadBundle('plain', viaPlain).version, -1);
    const started = startCodeCache(path.dirname(f.cache), { debug: () => undefined, warn: () => undefined });
    try {
      // The started cache loads beside its own file (dist/): a bundle that is not there falls back to the plain require.
      assert.equal(loadBundle('plain', viaPlain).version, -1);
      assert.equal(started.loads.length, 0);
    } finally {
      started.dispose();
    }
    assert.equal(loadBundle('plain', viaPlain).version, -1);
    assert.equal(plain, 3);
  });
});

function onlyCacheFile(f: Folders): string {
  const names = fs.readdirSync(f.cache).filter((n) => n.endsWith('.v8'));
  assert.equal(names.length, 1, names.join(', '));
  return path.join(f.cache, names[0]);
}

// Where things go wrong: a cache file damaged past V8's header, what a bundle does that require() allows (import(),
// stack traces), leftovers of a window that stopped mid-write, a bundles folder reached through a symlink.
describe('code cache of the lazy bundles: faults (codeCache.ts)', () => {
  const files: string[] = [];
  afterEach(() => files.splice(0).forEach(newWindow));

  it('a cache damaged past V8\'s header (same size) never runs: the bundle runs the code its file holds', () => {
    const f = folders();
    fs.writeFileSync(path.join(f.bundles, 'api.js'), '"use strict";\nmodule.exports = { probe() { return 123456789; } };\n');
    assert.equal(windowLoads(f, 'api').bundle.probe, 123456789);
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
    assert.equal(second.bundle.probe, 123456789, `the code that ran is not the file's (code cache: ${second.loads.map((l) => l.cache).join(', ')})`);
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
    assert.equal(second.bundle.probe, first.bundle.probe);
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
