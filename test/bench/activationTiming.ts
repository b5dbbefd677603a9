/**
 * The benchmark's timing of the extension's require() and activate() in a fresh start (BENCH_MODE=activation). Once
 * startup finished VS Code activates the extension by itself (onStartupFinished), before it even loads the
 * benchmark's in-host code (test/bench/inHost.ts), so this module is loaded by a small extension that VS Code
 * activates at the host's start (`*`; bench.ts writes it beside the staged extension) and puts the timing in place
 * then; inHost.ts reads it from the same module. Whether the main file was loaded before is told
 * (`loadedBeforeTiming`): its require() and activate() then cannot be timed here, only by VS Code's marks.
 */
import * as fs from 'fs';
import * as inspector from 'inspector';
import * as path from 'path';
import { performance } from 'perf_hooks';
import * as vscode from 'vscode';
import { ENV, type ActivationSample } from './shared';

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

/**
 * Times the extension's require() and activate() with sub-millisecond resolution (VS Code's marks are
 * whole milliseconds): wraps Node's loader for .js files and Module._load, for the main file only, and
 * hands VS Code the module's exports behind a proxy whose activate() is timed; the API object the main file
 * requires counts the calls activate() makes (`calls`). Measurement only. In place before VS Code loads the
 * extension: once startup finished, VS Code activates it by itself (onStartupFinished), often while the
 * benchmark still waits for the workbench to go quiet.
 */
function timeMainModule(main: string, calls: ApiCalls): Timed {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('module') as {
    _extensions: Record<string, (m: { exports: unknown }, filename: string) => void>;
    _load: (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;
  };
  const timed: Timed = { vscodeApiMs: 0 };
  const originalJs = Module._extensions['.js'];
  const originalLoad = Module._load;
  let activating = false;
  const profile = process.env.BENCH_PROFILE_FROM === 'activation' ? profileSync(process.env.BENCH_PROFILE) : undefined;
  Module._load = function (request, parent, isMain) {
    if (request !== 'vscode' || parent?.filename !== main) return originalLoad.call(this, request, parent, isMain);
    const t = now();
    let api: unknown;
    try {
      api = originalLoad.call(this, request, parent, isMain);
    } finally {
      timed.vscodeApiMs = round(timed.vscodeApiMs! + now() - t, 3);
    }
    return typeof api === 'object' && api !== null ? timedApi(api, calls, () => activating) : api;
  };
  Module._extensions['.js'] = function (module, filename) {
    if (filename !== main) return originalJs.call(this, module, filename);
    profile?.start();
    const t = now();
    const cpu = process.cpuUsage();
    try {
      return originalJs.call(this, module, filename);
    } finally {
      timed.requireMs = round(now() - t, 3);
      timed.requireCpuMs = cpuMs(cpu);
      Module._extensions['.js'] = originalJs;
      const exports = module.exports as Record<string, unknown>;
      module.exports = new Proxy(exports, {
        get(target, prop) {
          if (prop !== 'activate' || typeof target.activate !== 'function') return Reflect.get(target, prop);
          const activate = target.activate as (...a: unknown[]) => unknown;
          return function (this: unknown, ...args: unknown[]) {
            const t1 = now();
            const cpu1 = process.cpuUsage();
            activating = true;
            try {
              return activate.apply(this, args);
            } finally {
              activating = false;
              timed.activateMs = round(now() - t1, 3);
              timed.activateCpuMs = cpuMs(cpu1);
              Module._load = originalLoad;
              profile?.stop();
            }
          };
        },
      });
    }
  };
  return timed;
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

function install(): ActivationTiming | undefined {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) return undefined;
  const main = path.join(ext.extensionPath, ext.packageJSON.main as string);
  // Node knows a module by its real path; VS Code may reach the extension through a link (several under development).
  const file = fs.realpathSync(/\.js$/.test(main) ? main : `${main}.js`);
  const loadedBeforeTiming = require.cache[file] !== undefined;
  const calls: ApiCalls = new Map();
  return { timed: timeMainModule(file, calls), calls, loadedBeforeTiming };
}

/** In place from this module's load on, in an activation run only (undefined otherwise, or without the extension). */
export const activationTiming: ActivationTiming | undefined = process.env[ENV.mode] === 'activation' ? install() : undefined;
