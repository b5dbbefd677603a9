/**
 * Shared helpers of the unit suites on the API client and its transports: the client's own sleeps made fast or
 * virtual, and a small server on 127.0.0.1 that answers a browser's CORS preflight.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Runs `fn` with the client's own back-off sleeps (the `sleep` helper of src/api/client.ts) shortened
 * to 1 ms, recording the delays it asked for. Nothing else's timers are touched.
 */
export async function withFastClientSleeps<T>(fn: () => Promise<T>): Promise<{ delays: number[]; outcome: Promise<T> }> {
  const real = globalThis.setTimeout;
  const delays: number[] = [];
  const patched = function (this: unknown, cb: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) {
    const stack = new Error().stack ?? '';
    if (/at sleep \([^)]*[\\/]api[\\/]client\.[jt]s/.test(stack)) {
      delays.push(ms ?? 0);
      return real(cb, 1, ...args);
    }
    return real(cb, ms, ...args);
  } as unknown as typeof setTimeout;
  globalThis.setTimeout = patched;
  let outcome: Promise<T>;
  try {
    const v = await fn();
    outcome = Promise.resolve(v);
  } catch (e) {
    outcome = Promise.reject(e instanceof Error ? e : new Error(String(e)));
    outcome.catch(() => undefined);
  } finally {
    globalThis.setTimeout = real;
  }
  return { delays, outcome };
}

/**
 * A virtual clock for the client and the sandbox (one process): every sleep the client asks for (pacing, back-off)
 * returns at once and moves Date.now() forward by what it asked, so the sandbox's one-minute window passes too.
 */
export async function withVirtualClock<T>(fn: (waits: number[]) => Promise<T>): Promise<T> {
  const realTimeout = globalThis.setTimeout;
  const realNow = Date.now;
  let offset = 0;
  const waits: number[] = [];
  Date.now = () => realNow() + offset;
  globalThis.setTimeout = function (this: unknown, cb: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) {
    if (/at sleep \([^)]*[\\/]api[\\/]client\.[jt]s/.test(new Error().stack ?? '')) {
      waits.push(ms ?? 0);
      offset += ms ?? 0;
      return realTimeout(cb, 0, ...args);
    }
    return realTimeout(cb, ms, ...args);
  } as unknown as typeof setTimeout;
  try {
    return await fn(waits);
  } finally {
    globalThis.setTimeout = realTimeout;
    Date.now = realNow;
  }
}

/** The CORS headers of {@link server}'s answers. */
export const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, DELETE', 'Access-Control-Allow-Headers': 'authorization' };

/** A server on 127.0.0.1: answers OPTIONS as a CORS preflight and everything else with `handler`. */
export async function server(handler: http.RequestListener = (_req, res) => json(res, { data: { name: 'me' } })): Promise<{ url: string; close: () => Promise<void> }> {
  const srv = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  };
}

export function json(res: http.ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { ...CORS, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
