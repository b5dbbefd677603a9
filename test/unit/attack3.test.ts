/**
 * attack3: the browser build's transport (src/api/fetchTransport.ts) and the client above it, attacked where a
 * browser differs from Node. Real HTTP on 127.0.0.1 (the sandbox, or a one-answer server for a case the sandbox
 * does not model). `emulateCors` makes Node's fetch behave as a browser page does against CORS answers.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi, isApiError, type ApiError, type ClientOptions, type ContentApi } from '../../src/api';
import { FetchTransport, type FetchTransportOptions } from '../../src/api/fetchTransport';
import { UndiciTransport } from '../../src/api/nodeTransport';
import type { Transport } from '../../src/api/transport';
import { startSandbox, type Sandbox } from '../sandbox/server';

const ORIGIN = 'https://vscode.dev';

async function apiError(fn: () => unknown): Promise<ApiError> {
  try {
    await fn();
  } catch (e) {
    assert.ok(isApiError(e), `expected an ApiError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail, but it succeeded');
}

/**
 * A virtual clock for the client and the sandbox (one process): every sleep the client asks for (pacing, back-off)
 * returns at once and moves Date.now() forward by what it asked, so the sandbox's one-minute window passes too.
 */
async function withVirtualClock<T>(fn: (waits: number[]) => Promise<T>): Promise<T> {
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

/** A server on 127.0.0.1 that gives every request the same answer. */
async function oneAnswer(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const srv = http.createServer(handler);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => srv.close(() => r())),
  };
}

describe('attack3: the browser build\'s transport', function () {
  this.timeout(20000);
  let sb: Sandbox;
  let apis: ContentApi[] = [];

  function client(o: Partial<ClientOptions> = {}, t: FetchTransportOptions = { emulateCors: { origin: ORIGIN } }): ContentApi {
    return clientOver(new FetchTransport(t), o);
  }
  function clientOver(transport: Transport, o: Partial<ClientOptions> = {}): ContentApi {
    const api = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, transport, ...o });
    apis.push(api);
    return api;
  }

  before(async () => {
    sb = await startSandbox({ storeDelayMs: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.reseed('default');
    sb.clearFaults();
    sb.setCors(true);
    sb.setRateLimit(0);
    sb.setProjectsDoubleCount(false);
    sb.resetRateLimit();
    sb.resetRequests();
  });
  afterEach(() => {
    for (const a of apis) a.dispose();
    apis = [];
  });

  it('attack3: the projects server counts each request twice (CONTRACT): a browser, which cannot read the count, paces projects so no request is refused', async () => {
    sb.setRateLimit(60, 'projects');
    sb.setProjectsDoubleCount(true);
    const api = client({ retries: 0 });
    const statuses: Array<number | undefined> = [];
    await withVirtualClock(async (waits) => {
      for (let i = 1; i <= 45; i++) {
        await api.listProjects({ search: `p${i}` }).catch((e: unknown) => statuses.push(isApiError(e) ? e.status : -1));
      }
      assert.ok(waits.some((w) => w > 55_000), `a pacing wait of about a minute: ${JSON.stringify(waits)}`);
    });
    assert.deepEqual(statuses, [], 'no projects request failed (429s answered)');
    assert.equal(sb.requests.filter((r) => r.status === 429).length, 0);
    assert.equal(sb.requests.filter((r) => r.route === 'projects.list' && r.status === 200).length, 45);
  });
});
