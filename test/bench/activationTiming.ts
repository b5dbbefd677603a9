/**
 * The benchmark's timing of the extension's require() and activate() in a fresh start (BENCH_MODE=activation), and of
 * the reference extension's (test/bench/reference) in the same start. Once startup finished VS Code activates both by
 * itself (onStartupFinished), before it even loads the benchmark's in-host code (test/bench/inHost.ts), so this module
 * is loaded by a small extension that VS Code activates at the host's start (`*`; bench.ts writes it beside the staged
 * extension) and puts the timing in place then; inHost.ts reads it from the same module. Whether a main file was
 * loaded before is told (`loadedBeforeTiming`): its require() and activate() then cannot be timed here, only by VS
 * Code's marks.
 */
import * as fs from 'fs';
import * as inspector from 'inspector';
import * as path from 'path';
import { performance } from 'perf_hooks';
import * as vscode from 'vscode';
import { ENV, LEAN_ID, REFERENCE_ID, type ActivationSample } from './shared';

/** The extension under test (publisher.name of package.json). */
const EXTENSION_ID = 'content-docs.content-docs';

const now = () => performance.now();
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
/**
 * The CPU time the extension host's process used since `from` (user + system, ms): unlike the wall time it leaves out
 * the time the host waited for a core on a busy machine (it does count the process's other threads, e.g. the GC's).
 */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return round((d.user + d.system) / 1000, 3);
};

type Timed = NonNullable<ActivationSample['timed']>;
type ApiCalls = Map<string, { count: number; ms: number; maxMs: number }>;

/**
 * The API object VS Code hands the main file, seen through forwarders that time each call of a namespace's function
 * (`window.createTreeView`, `lm.registerTool`…) while `counting()` holds. The forwarders are fresh objects, not proxies
 * of VS Code's own (a proxy must answer a frozen property with its very value). Classes, enums and values pass through.
 */
function timedApi(api: object, calls: ApiCalls, counting: () => boolean): object {
  const forward = (real: object, wrap: (key: string | symbol, value: unknown) => unknown): object =>
    new Proxy(
      {},
      {
        get: (_, key) => wrap(key, Reflect.get(real, key)),
        has: (_, key) => key in real,
        ownKeys: () => Reflect.ownKeys(real),
        getOwnPropertyDescriptor: (_, key) => {
          const d = Reflect.getOwnPropertyDescriptor(real, key);
          return d && { configurable: true, enumerable: d.enumerable, writable: false, value: wrap(key, Reflect.get(real, key)) };
        },
      },
    );
  const namespaces = new Map<string | symbol, object>();
  return forward(api, (ns, value) => {
    if (typeof ns !== 'string' || !/^[a-z]/.test(ns) || typeof value !== 'object' || value === null) return value;
    let wrapped = namespaces.get(ns);
    if (!wrapped) {
      const fns = new Map<string | symbol, unknown>();
      wrapped = forward(value, (key, member) => {
        if (typeof member !== 'function' || typeof key !== 'string') return member;
        let fn = fns.get(key);
        if (!fn) {
          const name = `${ns}.${key}`;
          fn = function (this: unknown, ...args: unknown[]) {
            if (!counting()) return (member as (...a: unknown[]) => unknown).apply(value, args);
            const t = now();
            try {
              return (member as (...a: unknown[]) => unknown).apply(value, args);
            } finally {
              const c = calls.get(name) ?? { count: 0, ms: 0, maxMs: 0 };
              const ms = now() - t;
              c.count++;
              c.ms += ms;
              c.maxMs = Math.max(c.maxMs, ms);
              calls.set(name, c);
            }
          };
          fns.set(key, fn);
        }
        return fn;
      });
      namespaces.set(ns, wrapped);
    }
    return wrapped;
  });
}

/** One main file being timed: what it measured and the API calls its activate() made. */
interface Target {
  readonly timed: Timed;
  readonly calls: ApiCalls;
  /** A CPU profile of this file's require() and activate() (BENCH_PROFILE_FROM=activation: Content Docs' only). */
  readonly profile?: { start(): void; stop(): void };
  activating: boolean;
}

/**
 * Times the require() and activate() of each main file in `targets` with sub-millisecond resolution (VS Code's marks
 * are whole milliseconds): wraps Node's loader for .js files and Module._load, for those files only, and hands VS
 * Code each module's exports behind a proxy whose activate() is timed; the API object a main file requires counts
 * the calls its activate() makes (`calls`). One pair of hooks serves every file (hooks stacked per file would undo
 * each other when the first is removed); they are removed once every file's activate() returned. Measurement only.
 * In place before VS Code loads the extensions: once startup finished, VS Code activates them by itself
 * (onStartupFinished), often while the benchmark still waits for the workbench to go quiet.
 */
function timeMainModules(targets: ReadonlyMap<string, Target>): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('module') as {
    _extensions: Record<string, (m: { exports: unknown }, filename: string) => void>;
    _load: (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;
  };
  const originalJs = Module._extensions['.js'];
  const originalLoad = Module._load;
  let pending = targets.size;
  Module._load = function (request, parent, isMain) {
    const target = request === 'vscode' && parent?.filename ? targets.get(parent.filename) : undefined;
    if (!target) return originalLoad.call(this, request, parent, isMain);
    const t = now();
    let api: unknown;
    try {
      api = originalLoad.call(this, request, parent, isMain);
    } finally {
      target.timed.vscodeApiMs = round(target.timed.vscodeApiMs! + now() - t, 3);
    }
    return typeof api === 'object' && api !== null ? timedApi(api, target.calls, () => target.activating) : api;
  };
  const js = function (this: unknown, module: { exports: unknown }, filename: string) {
    const target = targets.get(filename);
    if (!target || target.timed.requireMs !== undefined) return originalJs.call(this, module, filename);
    const { timed, profile } = target;
    profile?.start();
    const t = now();
    const cpu = process.cpuUsage();
    try {
      return originalJs.call(this, module, filename);
    } finally {
      timed.requireMs = round(now() - t, 3);
      timed.requireCpuMs = cpuMs(cpu);
      const exports = module.exports as Record<string, unknown>;
      module.exports = new Proxy(exports, {
        get(obj, prop) {
          if (prop !== 'activate' || typeof obj.activate !== 'function') return Reflect.get(obj, prop);
          const activate = obj.activate as (...a: unknown[]) => unknown;
          return function (this: unknown, ...args: unknown[]) {
            const t1 = now();
            const cpu1 = process.cpuUsage();
            target.activating = true;
            try {
              return activate.apply(this, args);
            } finally {
              target.activating = false;
              timed.activateMs = round(now() - t1, 3);
              timed.activateCpuMs = cpuMs(cpu1);
              profile?.stop();
              if (--pending === 0) {
                if (Module._load === load) Module._load = originalLoad;
                if (Module._extensions['.js'] === js) Module._extensions['.js'] = originalJs;
              }
            }
          };
        },
      });
    }
  };
  const load = Module._load;
  Module._extensions['.js'] = js;
}

/**
 * A CPU profile of the main file's require() and activate() alone (BENCH_PROFILE_FROM=activation, BENCH_PROFILE=<file>;
 * each fresh start writes the file again), for Chrome DevTools. An in-process inspector session answers synchronously,
 * so the profile starts and stops exactly around them. Profiling slows them: read it for shares, not for times.
 */
function profileSync(file: string | undefined): { start(): void; stop(): void } | undefined {
  if (!file) return undefined;
  const session = new inspector.Session();
  session.connect();
  let result: unknown;
  const post = (method: string, params?: object) => session.post(method, params ?? {}, (err, res) => void (result = err ?? res));
  return {
    start() {
      post('Profiler.enable');
      post('Profiler.setSamplingInterval', { interval: 25 });
      post('Profiler.start');
    },
    stop() {
      post('Profiler.stop');
      const profile = (result as { profile?: unknown } | undefined)?.profile;
      session.disconnect();
      if (!profile) return;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
    },
  };
}

export interface ActivationTiming {
  readonly timed: Timed;
  /** The VS Code API calls made inside activate(), by name. */
  readonly calls: ApiCalls;
  /** The main file was in require.cache before the timing was in place (VS Code had loaded it already). */
  readonly loadedBeforeTiming: boolean;
}

/** The main file of an installed extension as Node's require.cache names it, or undefined without the extension. */
function mainFile(id: string): string | undefined {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) return undefined;
  const main = path.join(ext.extensionPath, ext.packageJSON.main as string);
  // Node knows a module by its real path; VS Code may reach the extension through a link (several under development).
  return fs.realpathSync(/\.js$/.test(main) ? main : `${main}.js`);
}

/** Content Docs' timing and, when the reference extensions are installed too, theirs (keyed by id). */
function install(): Map<string, ActivationTiming> {
  const out = new Map<string, ActivationTiming>();
  const targets = new Map<string, Target>();
  for (const id of [EXTENSION_ID, REFERENCE_ID, LEAN_ID]) {
    const file = mainFile(id);
    if (!file) continue;
    const profile = id === EXTENSION_ID && process.env.BENCH_PROFILE_FROM === 'activation' ? profileSync(process.env.BENCH_PROFILE) : undefined;
    const target: Target = { timed: { vscodeApiMs: 0 }, calls: new Map(), profile, activating: false };
    out.set(id, { timed: target.timed, calls: target.calls, loadedBeforeTiming: require.cache[file] !== undefined });
    if (!require.cache[file]) targets.set(file, target);
  }
  if (targets.size) timeMainModules(targets);
  return out;
}

/** In place from this module's load on, in an activation run only (empty otherwise), by extension id. */
export const activationTimings: ReadonlyMap<string, ActivationTiming> = process.env[ENV.mode] === 'activation' ? install() : new Map();
/** Content Docs' (undefined outside an activation run, or without the extension). */
export const activationTiming: ActivationTiming | undefined = activationTimings.get(EXTENSION_ID);
