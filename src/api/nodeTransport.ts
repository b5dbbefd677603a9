/**
 * The transports on Node (desktop, Remote-SSH, code-server; docs/networking.md): https:// through the host's `https`
 * module, so that VS Code's proxy and certificate settings apply (src/api/httpsTransport.ts); http://, which the
 * client allows only to a loopback address, directly through undici (src/api/undiciTransport.ts): never through a
 * proxy, which would see the key in clear text and cannot reach this machine's loopback address anyway.
 *
 * undici is a bundle of its own (dist/http.js, 160 KB with its WebAssembly HTTP parser, compiled on its first
 * request), loaded by the first http:// request: a writer's servers are https://, and their window never loads it.
 * Measured with npm run bench (README "Performance"): its require() and first parse were 13–20 ms of the first open of
 * the views.
 */
import type { Dispatcher } from './http';
import { HttpsTransport } from './httpsTransport';
import { tooLarge, type Transport, type TransportRequest, type TransportResponse } from './transport';
import type * as UndiciModule from './undiciTransport';

/**
 * The undici transport's module, loaded on first use. esbuild.mjs maps this require to the bundle dist/http.js (a
 * runtime require of the file beside dist/api.js); compiled by tsc (the tests), it is the module itself.
 */
export function loadUndici(): typeof UndiciModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./undiciTransport') as typeof UndiciModule;
}

/** A transport over the given undici dispatcher (tests, tools): every request, https:// too. */
export function undiciTransport(dispatcher?: Dispatcher): Transport {
  return new (loadUndici().UndiciTransport)(tooLarge, dispatcher);
}

/** One whenWaiting() of the caller: its callback, once, and what cancels it on each transport it was given to. */
interface Waiter {
  callback: () => void;
  stops: Array<() => void>;
}

/** The default transport on Node: https:// the host's way (proxy, system certificates), http:// (loopback) directly. */
export class NodeTransport implements Transport {
  readonly rateLimitHeadersReadable = true;
  private readonly secure = new HttpsTransport();
  /** Made by the first http:// request (loads dist/http.js). */
  private direct: Transport | undefined;
  private readonly waiters = new Set<Waiter>();

  send(r: TransportRequest): Promise<TransportResponse> {
    return new URL(r.url).protocol === 'https:' ? this.secure.send(r) : this.directTransport().send(r);
  }

  private directTransport(): Transport {
    if (!this.direct) {
      const direct = undiciTransport();
      this.direct = direct;
      for (const w of this.waiters) w.stops.push(direct.whenWaiting(w.callback));
    }
    return this.direct;
  }

  whenWaiting(callback: () => void): () => void {
    let called = false;
    const waiter: Waiter = { callback: () => undefined, stops: [] };
    const stop = () => {
      this.waiters.delete(waiter);
      for (const s of waiter.stops.splice(0)) s();
    };
    waiter.callback = () => {
      if (called) return;
      called = true;
      stop();
      callback();
    };
    this.waiters.add(waiter);
    waiter.stops.push(this.secure.whenWaiting(waiter.callback));
    if (this.direct) waiter.stops.push(this.direct.whenWaiting(waiter.callback));
    return stop;
  }

  dispose(): void {
    this.secure.dispose();
    this.direct?.dispose();
  }
}
