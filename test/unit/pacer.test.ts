/**
 * The client's pacing (the Pacer of src/api/client.ts) where the rate-limit headers cannot be read: the browser
 * build's transport (src/api/fetchTransport.ts) against the sandbox over real HTTP on 127.0.0.1, `emulateCors`
 * making Node's fetch behave as a browser page does against CORS answers.
 */
import assert from 'node:assert/strict';
import { createApi, isApiError, type ClientOptions, type ContentApi } from '../../src/api';
import { FetchTransport, type FetchTransportOptions } from '../../src/api/fetchTransport';
import type { Transport } from '../../src/api/transport';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { withVirtualClock } from './apiKit';

const ORIGIN = 'https://vscode.dev';

describe('pacing: the projects server counting each request twice, in a browser', function () {
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

  it('the projects server counts each request twice (CONTRACT): a browser, which cannot read the count, paces projects so no request is refused', async () => {
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

/**
 * Two accounts on one server (CONTRACT.md, transport): the server counts requests per client address, whatever the key,
 * so two clients of one origin pace together. A burst from both at once stays within the limit: no 429.
 */
describe('pacing: two clients of one server share its count', function () {
  this.timeout(20000);
  let sb: Sandbox;
  let apis: ContentApi[] = [];

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
    sb.setRateLimit(60, 'documents');
    sb.resetRateLimit();
    sb.resetRequests();
  });
  afterEach(() => {
    for (const a of apis) a.dispose();
    apis = [];
  });

  /** Two clients of the same documents server, each with its own transport (as two accounts have). */
  function twoClients(transport: () => Transport | undefined): [ContentApi, ContentApi] {
    const make = () => {
      const t = transport();
      const api = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0, ...(t ? { transport: t } : {}) });
      apis.push(api);
      return api;
    };
    return [make(), make()];
  }

  /** 45 reads from each client, the two clients' reads two at a time; what failed, by status. */
  async function burst(clients: ContentApi[]): Promise<{ failed: Array<number | undefined>; waits: number[] }> {
    const failed: Array<number | undefined> = [];
    const waits = await withVirtualClock(async (w) => {
      for (let i = 0; i < 45; i++) {
        await Promise.all(clients.map((api, c) => api.listDocuments({ search: `c${c}-${i}` }).catch((e: unknown) => failed.push(isApiError(e) ? e.status : -1))));
      }
      return w;
    });
    return { failed, waits };
  }

  for (const [name, transport] of [
    ['Node (the rate-limit headers read)', () => undefined],
    ['a browser (no header readable)', () => new FetchTransport({ emulateCors: { origin: ORIGIN } })],
  ] as const) {
    it(`${name}: 90 reads from two clients, two at a time, get no 429 (the rest wait for the next minute)`, async () => {
      const { failed, waits } = await burst(twoClients(transport));
      assert.deepEqual(failed, [], `no read failed: ${failed.length} did (429s: ${failed.filter((s) => s === 429).length})`);
      assert.equal(sb.requests.filter((r) => r.status === 429).length, 0);
      assert.equal(sb.requests.filter((r) => r.route === 'documents.list' && r.status === 200).length, 90);
      assert.ok(waits.some((w) => w > 30_000), `the second minute was waited for: ${JSON.stringify(waits)}`);
    });
  }
});
