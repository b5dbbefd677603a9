/**
 * The browser's transport (src/api/fetchTransport.ts, the platform's fetch) on Node 24 against the sandbox, over
 * real HTTP on 127.0.0.1. `emulateCors` makes it act as a browser page does against the servers' CORS answers:
 * a preflight before each request, an opaque `TypeError: Failed to fetch` when the CORS headers are missing, and
 * only the safelisted response headers readable (the servers expose none). The same client, schemas, errors,
 * retries and pacing as on Node (src/api/client.ts); only the transport differs.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createApi, isApiError, type ClientOptions, type ContentApi } from '../../src/api';
import { FetchTransport, type FetchTransportOptions } from '../../src/api/fetchTransport';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { withFastClientSleeps } from './apiKit';

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

describe('fetch transport (the browser build\'s HTTP) against the sandbox', function () {
  this.timeout(15000);
  let sb: Sandbox;
  let apis: ContentApi[] = [];
  let logs: string[] = [];

  function client(o: Partial<ClientOptions> = {}, t: FetchTransportOptions = { emulateCors: { origin: ORIGIN } }, box = sb): ContentApi {
    const api = createApi({
      documentsUrl: box.docsUrl,
      projectsUrl: box.seoUrl,
      getKey: () => box.key,
      timeoutMs: 5000,
      transport: new FetchTransport(t),
      log: (level, line) => logs.push(`${level} ${line}`),
      ...o,
    });
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
    sb.resetRateLimit();
    sb.resetRequests();
    logs = [];
  });
  afterEach(() => {
    for (const a of apis) a.dispose();
    apis = [];
  });

  it('every operation works as on Node: one preflight before each request, the same requests as undici sends', async () => {
    const api = client();
    const page = await api.listDocuments({ perPage: 10 });
    assert.equal(page.items.length, 10);
    const doc = await api.showDocument(page.items[0].id);
    assert.equal(doc.id, page.items[0].id);
    const created = await api.storeDocument({ name: 'From the browser', prompt: 'About browsers', creativity: 0.5 });
    assert.equal(sb.documents.get(created.id)?.name, 'From the browser');
    const updated = await api.updateDocument(created.id, { result: 'Édité — in the browser ✓' });
    assert.equal(updated.result, 'Édité — in the browser ✓');
    assert.equal(sb.documents.get(created.id)?.result, 'Édité — in the browser ✓', 'the PATCH landed, UTF-8 intact');
    const account = await api.getAccount();
    assert.equal(account.email, 'sandbox@example.test');
    const projects = await api.listProjects();
    assert.ok(projects.items.length > 0);
    await api.deleteDocument(created.id);
    assert.equal(sb.documents.has(created.id), false);

    const methods = sb.requests.map((r) => `${r.method} ${r.route}`);
    assert.deepEqual(methods, [
      'GET documents.list', 'GET documents.show', 'POST documents.store', 'PATCH documents.update', 'GET account', 'GET projects.list', 'DELETE documents.delete',
    ]);
    assert.deepEqual(sb.preflights.map((p) => p.status), [204, 204, 204, 204, 204, 204, 204], 'one preflight per request (max-age 0)');
    for (const r of sb.requests) {
      assert.equal(r.authorizationHeader, `Bearer ${sb.key}`);
      assert.match(r.accept ?? '', /^application\/json/);
    }
    assert.equal(sb.requests.find((r) => r.method === 'PATCH')?.contentType, 'application/x-www-form-urlencoded');
  });

  it('hides what a browser cannot read: a 429 (Retry-After unreadable) backs off on the fixed, capped schedule, then succeeds', async () => {
    sb.setFault('documents.list', { kind: 'rateLimit', count: 2, retryAfter: 1 });
    const { delays, outcome } = await withFastClientSleeps(() => client({ retries: 3 }).listDocuments());
    const page = await outcome;
    assert.ok(page.items.length > 0);
    assert.deepEqual(delays, [2000, 4000], 'the fixed schedule, not the Retry-After of 1 s the browser cannot read');
    assert.equal(sb.requests.length, 3);
    // The same 429 with the headers readable (plain Node fetch, no CORS): Retry-After is honoured.
    sb.setFault('documents.list', { kind: 'rateLimit', count: 1, retryAfter: 1 });
    const readable = await withFastClientSleeps(() => client({ retries: 3 }, {}).listDocuments());
    await readable.outcome;
    assert.equal(readable.delays[0], 1000);
  });

  it('a 429 that outlasts the retries is reported in plain words, without a wait the browser could not read', async () => {
    sb.setRateLimit(1, 'documents');
    const api = client({ retries: 1, maxRetryWaitSeconds: 3 });
    await api.listDocuments();
    const run = await withFastClientSleeps(() => api.listDocuments({ page: 2 }));
    const err = await apiError(() => run.outcome);
    assert.equal(err.kind, 'rateLimited');
    assert.equal(err.status, 429);
    assert.equal(err.retryAfter, undefined);
    assert.match(err.message, /HTTP 429.*The browser does not let Content Docs read how long/);
    assert.deepEqual(run.delays, [2000]);
    assert.equal(sb.preflights.length, sb.requests.length, 'preflights are answered even when the limit is used up');
  });

  it('after a 429 it cannot read, says the browser hides the wait, and holds the next requests back (2, 4, 8, 10 s) instead of sending them into more 429s', async () => {
    sb.setRateLimit(1, 'documents');
    const api = client({ retries: 0 });
    await api.listDocuments();
    const first = await withFastClientSleeps(() => api.listDocuments({ page: 2 }));
    const err = await apiError(() => first.outcome);
    assert.equal(err.kind, 'rateLimited');
    assert.match(err.message, /HTTP 429/);
    assert.match(err.message, /browser/, err.message);
    assert.doesNotMatch(err.message, /did not say how long/, 'the server may well have said it: the browser hides the header');
    const sent = sb.requests.length;
    // The next request waits before it goes out; a second 429 in a row doubles the wait.
    const second = await withFastClientSleeps(() => api.listDocuments({ page: 3 }));
    await apiError(() => second.outcome);
    assert.ok(second.delays.some((d) => d > 1900), `held back about 2 s before sending: ${JSON.stringify(second.delays)}`);
    assert.equal(sb.requests.length, sent + 1);
    const third = await withFastClientSleeps(() => api.listDocuments({ page: 4 }));
    await apiError(() => third.outcome);
    assert.ok(third.delays.some((d) => d > 3900), `then about 4 s: ${JSON.stringify(third.delays)}`);
    // An answer that is no 429 ends the holding back.
    sb.setRateLimit(0);
    const fourth = await withFastClientSleeps(() => api.listDocuments({ page: 5 }));
    await fourth.outcome;
    const fifth = await withFastClientSleeps(() => api.listDocuments({ page: 6 }));
    await fifth.outcome;
    assert.deepEqual(fifth.delays.filter((d) => d >= 1000), [], 'no wait once the server answers again');
  });

  it('paces by its own count (60 a minute): the rate-limit headers it cannot read do not switch pacing off', async () => {
    const api = client();
    const { delays, outcome } = await withFastClientSleeps(async () => {
      for (let i = 1; i <= 60; i++) await api.listDocuments({ page: 1 + (i % 3), perPage: 10, search: `q${i}` });
    });
    await outcome;
    assert.equal(sb.requests.length, 60);
    assert.equal(delays.length, 1, `one pacing wait: ${JSON.stringify(delays)}`);
    assert.ok(delays[0] > 55_000, String(delays[0]));
  });

  it('a server whose CORS settings were changed: refused in plain words (browser access, the desktop VS Code works), nothing crashes', async () => {
    sb.setCors(false);
    const err = await apiError(() => client({ retries: 0 }).listDocuments());
    assert.equal(err.kind, 'network');
    assert.match(err.message, /refuses browser access/);
    assert.match(err.message, /CORS settings, or a proxy .* blocks OPTIONS/);
    assert.match(err.message, /desktop VS Code/);
    assert.ok(err.message.includes(sb.docsUrl), err.message);
    assert.doesNotMatch(err.message, /Failed to fetch|TypeError/);
    assert.equal(sb.requests.length, 0, 'the preflight failed: the request itself never left the browser');
  });

  it('a proxy that blocks OPTIONS: the same plain-words refusal; a write is never sent', async () => {
    sb.setCors('proxy-blocks-options');
    const api = client({ retries: 0 });
    const before = sb.documents.get(1)?.result;
    const err = await apiError(() => api.updateDocument(1, { result: 'lost?' }));
    assert.equal(err.kind, 'network');
    assert.match(err.message, /refuses browser access/);
    assert.equal(sb.documents.get(1)?.result, before);
    assert.equal(sb.requests.length, 0);
    assert.equal(sb.preflights.length, 1);
  });

  it('without CORS emulation (plain Node fetch) the same server answers: the refusal is the browser\'s, not the client\'s', async () => {
    sb.setCors(false);
    const page = await client({}, {}).listDocuments();
    assert.ok(page.items.length > 0);
  });

  it('mixed content: an http:// address from an https:// page is explained; the key rules stay (no http:// to another machine)', async () => {
    const t = new FetchTransport({ pageProtocol: 'https:' });
    const mixed = t.explainFailure(new TypeError('Failed to fetch'), 'http://docs.example.com/api/v1/documents');
    assert.ok(mixed);
    assert.match(mixed.message, /https:\/\/ and the server address is http:\/\/ \(mixed content\)/);
    const local = t.explainFailure(new TypeError('Failed to fetch'), 'http://127.0.0.1:9/api/v1/documents');
    assert.match(local?.message ?? '', /refuses browser access.*mixed content/);
    assert.equal(t.explainFailure(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), 'http://127.0.0.1:9/'), undefined);

    let fetched = 0;
    const spy = client({ documentsUrl: 'http://docs.example.com' }, { fetch: () => { fetched++; return Promise.reject(new TypeError('Failed to fetch')); } });
    const refused = await apiError(() => spy.listDocuments());
    assert.equal(refused.kind, 'insecure');
    assert.equal(fetched, 0, 'nothing was sent');
  });

  it('on Node a refused connection keeps the common wording; a redirect is reported, never followed; an oversized answer is refused', async function () {
    this.timeout(90_000);
    const srv = http.createServer((_req, res) => {
      res.writeHead(302, { Location: 'https://elsewhere.example/api/v1/documents', 'Access-Control-Allow-Origin': '*' });
      res.end();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
      const moved = await apiError(() => client({ documentsUrl: url }, {}).listDocuments());
      assert.equal(moved.kind, 'moved');
      assert.equal(moved.location, 'https://elsewhere.example/api/v1/documents');
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
    sb.setFault('documents.show', { kind: 'oversized' });
    // The sandbox builds its 20 MB answer in this process: on a busy machine that alone can outlast the usual 5 s.
    const big = await apiError(() => client({ maxBodyBytes: 64 * 1024, timeoutMs: 60_000 }).showDocument(1));
    assert.equal(big.kind, 'badResponse');
    assert.match(big.message, /too large/);
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = await apiError(() => client({ documentsUrl: `http://127.0.0.1:${port}`, retries: 0 }, {}).listDocuments());
    assert.equal(refused.kind, 'network');
    assert.match(refused.message, /refused/);
  });
});
