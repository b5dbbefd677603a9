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
