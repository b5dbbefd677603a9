/**
 * attack3: the browser build's transport (src/api/fetchTransport.ts) and the client above it, attacked where a
 * browser differs from Node. Real HTTP on 127.0.0.1 (the sandbox, or a one-answer server for a case the sandbox
 * does not model). `emulateCors` makes Node's fetch behave as a browser page does against CORS answers.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi, isApiError, type ClientOptions, type ContentApi } from '../../src/api';
import { FetchTransport, type FetchTransportOptions } from '../../src/api/fetchTransport';
import { UndiciTransport } from '../../src/api/nodeTransport';
import type { Transport } from '../../src/api/transport';
import { startSandbox, type Sandbox } from '../sandbox/server';

const ORIGIN = 'https://vscode.dev';

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

describe('attack3: the same answer gives the same outcome on Node (undici) and in the browser (fetch)', function () {
  this.timeout(20000);
  const RECORD = {
    data: {
      id: 7, name: 'Café', template: { id: 1, name: 'Freestyle' }, result: 'Déjà vu — ✓ 😀', words: 3, favorite: false,
      created_at: '2023-03-21T15:30:06.000000Z', updated_at: '2023-03-21T15:30:06.000000Z',
    },
    status: 200,
  };
  const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Headers': 'authorization' };

  /** showDocument(7) over both transports against one answer: the record's result, or the error's kind and message. */
  async function both(handler: http.RequestListener): Promise<{ node: string; browser: string }> {
    const srv = await oneAnswer((req, res) => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      handler(req, res);
    });
    const outcome = async (transport: Transport) => {
      const api = createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k-123', timeoutMs: 3000, retries: 0, transport });
      try {
        return `ok ${(await api.showDocument(7)).result}`;
      } catch (e) {
        return isApiError(e) ? `${e.kind} ${e.message}` : `crash ${String(e)}`;
      } finally {
        api.dispose();
      }
    };
    try {
      return { node: await outcome(new UndiciTransport()), browser: await outcome(new FetchTransport({ emulateCors: { origin: ORIGIN } })) };
    } finally {
      await srv.close();
    }
  }

  it('attack3: JSON after a UTF-8 byte-order mark (a PHP file saved with a BOM prints one) reads the same on both', async () => {
    const r = await both((_req, res) => {
      res.writeHead(200, { ...CORS, 'Content-Type': 'application/json' });
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(RECORD))]));
    });
    assert.equal(r.browser, `ok ${RECORD.data.result}`, 'the browser (TextDecoder drops the BOM)');
    assert.equal(r.node, r.browser, 'Node gives the same outcome');
  });

  it('attack3: UTF-8 split inside a character across chunks, and an HTML page from a proxy, read the same on both', async () => {
    const bytes = Buffer.from(JSON.stringify(RECORD), 'utf8');
    const cut = bytes.indexOf(Buffer.from('😀')) + 2;
    const split = await both((_req, res) => {
      res.writeHead(200, { ...CORS, 'Content-Type': 'application/json' });
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 30);
    });
    assert.equal(split.browser, `ok ${RECORD.data.result}`);
    assert.equal(split.node, split.browser);
    const html = await both((_req, res) => {
      res.writeHead(200, { ...CORS, 'Content-Type': 'text/html; charset=UTF-8' });
      res.end('<!doctype html><title>Sign in to the proxy</title>');
    });
    assert.match(html.browser, /^badResponse .*web page/);
    assert.equal(html.node, html.browser);
  });
});
