/**
 * Loads the lazy bundles (dist/<name>.js) with a V8 code cache kept in the extension's global storage, the way VS Code
 * keeps one for its own code: the first window that loads a bundle compiles it as Node's require() would and, a few
 * seconds later, writes what V8 compiled of it by then; later windows hand that to V8 and skip most of the parsing
 * and compiling. Measured with npm run bench (README "Performance"): the HTTP client's require() (dist/api.js, 222 KB)
 * from 10–13 to 6–7 ms on the first open of the views.
 *
 * A bundle's cache holds a hash of the text it was made from, so an updated extension never runs an older bundle's
 * code (V8's own check only compares the length), and a hash of itself, so a damaged file never reaches V8; V8 also
 * refuses a cache from another V8 version or flags. In each case the bundle is compiled as without a cache and its
 * cache written again. The module is registered in require.cache before it runs, so a
 * plain require() of the same file gets the same module. Whatever goes wrong with the cache (no folder, a file that
 * cannot be read or written) only costs the speed: the bundle loads as require() loads it.
 *
 * Node only and `vscode`-free: the browser build (codeCache.browser.ts) has no separate bundles to load. Only the
 * activation bundle holds this module (checked by test/unit/bundles.test.ts); the others get loadBundle from it.
 */
import type * as Crypto from 'crypto';
import type * as Fs from 'fs';
import type NodeModule = require('module');
import type * as Path from 'path';
import type * as Vm from 'vm';

/** Node's built-ins this needs, required when the first bundle loads: activation requires none of them. */
/* eslint-disable @typescript-eslint/no-require-imports */
const node = {
  get crypto(): typeof Crypto {
    return require('crypto') as typeof Crypto;
  },
  get fs(): typeof Fs {
    return require('fs') as typeof Fs;
  },
  get Module(): typeof NodeModule {
    return require('module') as typeof NodeModule;
  },
  get path(): typeof Path {
    return require('path') as typeof Path;
  },
  get vm(): typeof Vm {
    return require('vm') as typeof Vm;
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

function sha1(data: string | Buffer): Buffer {
  return node.crypto.createHash('sha1').update(data).digest();
}

/** One bundle load, as the log and the benchmark tell it. */
export interface BundleLoad {
  name: string;
  /**
   * `used`: V8 took the cache; `none`: there was none yet; `outdated`: it was made from another text of the bundle (an
   * update); `rejected`: V8 refused it (another V8 or flags); `damaged`: the file is not what was written; `off`: no
   * cache folder. Only a `used` cache is kept as it is; every other is written again.
   */
  cache: 'used' | 'none' | 'outdated' | 'rejected' | 'damaged' | 'off';
  ms: number;
}

export interface CodeCacheOptions {
  /** The folder for the cache files (the extension's global storage + /code-cache); none: bundles load with require(). */
  dir: string | undefined;
  /** The folder the bundles are in (dist/). */
  bundlesDir: string;
  /** After how long a newly compiled bundle's cache is written (what V8 compiled until then is in it). */
  writeAfterMs?: number;
  onLoad?: (load: BundleLoad) => void;
  onError?: (message: string) => void;
  onDispose?: () => void;
}

type CommonJsWrapper = (exports: unknown, require: NodeJS.Require, module: NodeModule, filename: string, dirname: string) => void;

const WRITE_AFTER_MS = 5_000;

/**
 * A cache file (`<name>.v8`): the SHA-1 of the bundle's text it was made from (V8's own check compares only the
 * length: an updated bundle must never run an older one's code), the SHA-1 of what V8 wrote (V8 checks only its
 * header: a damaged body would run altered code, or crash the host), then what V8 wrote.
 */
const DIGEST_BYTES = 20;
const HEADER_BYTES = 2 * DIGEST_BYTES;
/** A temporary file this old is a write that stopped (its window closed): the next write removes it. */
const STALE_TEMP_MS = 60_000;

export class CodeCache {
  /** Every bundle this loader loaded, in order (the log tells them too; the benchmark reads them). */
  readonly loads: BundleLoad[] = [];
  /** Caches still to write: the bundle's script, to ask V8 for what it compiled. */
  readonly #pending = new Map<string, { script: Vm.Script; source: string; file: string; timer: ReturnType<typeof setTimeout> }>();

  #bundlesDir: string | undefined;

  constructor(private readonly options: CodeCacheOptions) {}

  /** The bundles' folder by its real path, as Node's require() names its modules (a link would make two of one). */
  get #dir(): string {
    if (this.#bundlesDir === undefined) {
      try {
        this.#bundlesDir = node.fs.realpathSync(this.options.bundlesDir);
      } catch {
        this.#bundlesDir = this.options.bundlesDir;
      }
    }
    return this.#bundlesDir;
  }

  /**
   * The bundle `name`'s exports. `plain` loads it as Node would (a require() of the bundle's file): used when there is
   * no cache folder, and what the browser build bundles in instead.
   */
  load<T>(name: string, plain: () => T): T {
    const file = node.path.join(this.#dir, `${name}.js`);
    const loaded = require.cache[file];
    if (loaded) return loaded.exports as T;
    const { fs, Module, path, vm } = node;
    const t0 = performance.now();
    if (!this.options.dir) {
      const exports = plain();
      this.#loaded({ name, cache: 'off', ms: performance.now() - t0 });
      return exports;
    }
    let script: Vm.Script;
    let source: string;
    const cacheFile = path.join(this.options.dir, `${name}.v8`);
    let cachedData: Buffer | undefined;
    let found: 'none' | 'outdated' | 'damaged' | 'whole' = 'none';
    try {
      source = fs.readFileSync(file, 'utf8');
      let stored: Buffer | undefined;
      try {
        stored = fs.readFileSync(cacheFile);
      } catch {
        // none yet (nothing is hashed then: the first window's load costs what require() costs)
      }
      if (stored) {
        const body = stored.subarray(HEADER_BYTES);
        if (stored.length <= HEADER_BYTES || !sha1(body).equals(stored.subarray(DIGEST_BYTES, HEADER_BYTES))) found = 'damaged';
        else if (!sha1(source).equals(stored.subarray(0, DIGEST_BYTES))) found = 'outdated';
        else {
          found = 'whole';
          cachedData = body;
        }
      }
      // The wrapper Node gives a CommonJS module, on a line of its own: the source's lines and columns stay the file's.
      script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
        filename: file,
        lineOffset: -1,
        cachedData,
        // import() in a bundle resolves as under require() (Node 21.7 and later; before, it is not available to it).
        importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch (e) {
      this.options.onError?.(`[bundles] ${name}.js loads without its code cache: ${e instanceof Error ? e.message : String(e)}`);
      return plain();
    }
    const m = new Module(file, module);
    m.filename = file;
    m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
    require.cache[file] = m;
    try {
      (script.runInThisContext() as CommonJsWrapper).call(m.exports, m.exports, Module.createRequire(file), m, file, path.dirname(file));
      m.loaded = true;
    } catch (e) {
      delete require.cache[file];
      throw e;
    }
    const cache = found !== 'whole' ? found : script.cachedDataRejected ? 'rejected' : 'used';
    this.#loaded({ name, cache, ms: performance.now() - t0 });
    if (cache !== 'used') this.#schedule(name, script, source, cacheFile);
    return m.exports as T;
  }

  #loaded(load: BundleLoad): void {
    this.loads.push(load);
    this.options.onLoad?.(load);
  }

  #schedule(name: string, script: Vm.Script, source: string, file: string): void {
    const timer = setTimeout(() => void this.#write(name), this.options.writeAfterMs ?? WRITE_AFTER_MS);
    timer.unref?.();
    this.#pending.set(name, { script, source, file, timer });
  }

  /** Writes the caches still to write now (the tests and the benchmark; a window that closes first leaves them to the next). */
  async flush(): Promise<void> {
    await Promise.all([...this.#pending.keys()].map((name) => this.#write(name)));
  }

  /** Forgets the caches still to write (the extension is deactivated). */
  dispose(): void {
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
    this.options.onDispose?.();
  }

  async #write(name: string): Promise<void> {
    const pending = this.#pending.get(name);
    if (!pending) return;
    this.#pending.delete(name);
    clearTimeout(pending.timer);
    const { fs, path } = node;
    const dir = path.dirname(pending.file);
    const temp = `${pending.file}.${process.pid}.tmp`;
    try {
      const data = pending.script.createCachedData();
      await fs.promises.mkdir(dir, { recursive: true });
      // Written under another name and renamed: another window reading it meanwhile sees the old file or the new one.
      await fs.promises.writeFile(temp, Buffer.concat([sha1(pending.source), sha1(data), data]));
      await fs.promises.rename(temp, pending.file);
      // A write of this bundle that stopped long ago (its window closed) leaves nothing behind. Another window's write
      // in progress is younger (and may be renamed meanwhile: no stat, not stale).
      for (const other of await fs.promises.readdir(dir)) {
        if (!other.startsWith(`${name}.v8.`) || !other.endsWith('.tmp')) continue;
        const at = path.join(dir, other);
        const age = Date.now() - ((await fs.promises.stat(at).catch(() => undefined))?.mtimeMs ?? Date.now());
        if (age > STALE_TEMP_MS) await fs.promises.rm(at, { force: true });
      }
    } catch (e) {
      await fs.promises.rm(temp, { force: true }).catch(() => undefined);
      this.options.onError?.(`[bundles] the code cache of ${name}.js was not written: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** Loads a bundle (see CodeCache.load); what the other bundles get from the activation bundle (Core's loadBundle). */
export type { LoadBundle } from '../util/loadBundle';

let current: CodeCache | undefined;

/**
 * Loads the bundle `name` with this window's code cache (see startCodeCache); before it is started, or from a copy of
 * this module in another bundle, as `plain` (require()) does.
 */
export function loadBundle<T>(name: string, plain: () => T): T {
  return current ? current.load(name, plain) : plain();
}

/**
 * Starts this window's code cache, in `storageDir`/code-cache (the extension's global storage; none: the bundles load
 * with require()). The bundles are beside this file's bundle (dist/). Disposing it forgets the caches not yet written.
 */
export function startCodeCache(storageDir: string | undefined, log: { debug(line: string): void; warn(line: string): void }): CodeCache {
  current?.dispose();
  const cache = new CodeCache({
    dir: storageDir ? `${storageDir}/code-cache` : undefined,
    bundlesDir: __dirname,
    onLoad: (l) => log.debug(`[bundles] ${l.name}.js loaded in ${l.ms.toFixed(1)} ms (code cache: ${l.cache})`),
    onError: (message) => log.warn(message),
    onDispose: () => {
      if (current === cache) current = undefined;
    },
  });
  current = cache;
  return cache;
}
