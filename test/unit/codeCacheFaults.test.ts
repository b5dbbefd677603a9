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
import type { BundleLoad } from '../../src/activation/codeCache';

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
});
