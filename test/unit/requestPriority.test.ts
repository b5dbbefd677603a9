/**
 * The writer's request first (the pacing of src/api/client.ts against the sandbox's rate limit, 60 a minute on the
 * documents server, over real HTTP on 127.0.0.1): a request the writer asked for (`priority: 'user'`, the default)
 * goes ahead of every background one waiting (counts, backup pages, prefetches: `priority: 'background'`), and
 * background work leaves part of the server's minute to the writer — as many requests as the writer made in the
 * minute before, at least a twelfth of it and at most a third — also when the server says another client (a second
 * window on the same address) has used it.
 *
 * The clock is virtual: a pacing wait returns at once and moves Date.now() (the client's and the sandbox's) forward by
 * what it asked, when it ends; a wait cut short by a request that goes first moves nothing.
 */
import assert from 'node:assert/strict';
import { createApi, isApiError, type ContentApi, type Priority } from '../../src/api';
import { NodeTransport } from '../../src/api/nodeTransport';
import type { Transport } from '../../src/api/transport';
import { startSandbox, type RequestRecord, type Sandbox } from '../sandbox/server';

/**
 * Runs `fn` with the client's sleeps virtual: each ends on a next turn and then moves the clock (the client's and the
 * sandbox's) by its length, once no request is on its way (`idle`): a jump of the clock while one is would count it
 * in the server's next minute.
 */
async function withVirtualWaits<T>(idle: () => boolean, fn: () => Promise<T>): Promise<T> {
  const realTimeout = globalThis.setTimeout;
  const realNow = Date.now;
  let offset = 0;
  const landed = (then: () => void) => {
    const check = () => (idle() ? then() : realTimeout(check, 2));
    check();
  };
  const realClear = globalThis.clearTimeout;
  const cancels = new Map<unknown, () => void>();
  Date.now = () => realNow() + offset;
  globalThis.setTimeout = function (this: unknown, cb: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) {
    if (/at sleep \([^)]*[\\/]api[\\/]client\.[jt]s/.test(new Error().stack ?? '')) {
      let cancelled = false;
      const handle = realTimeout(() => {
        landed(() => {
          if (cancelled) return;
          offset += ms ?? 0;
          cb(...args);
        });
      }, 0);
      // A wait cut short (clearTimeout) must not move the clock once its landing check ends.
      cancels.set(handle, () => (cancelled = true));
      return handle;
    }
    return realTimeout(cb, ms, ...args);
  } as unknown as typeof setTimeout;
  globalThis.clearTimeout = function (handle?: Parameters<typeof clearTimeout>[0]) {
    cancels.get(handle)?.();
    cancels.delete(handle);
    return realClear(handle);
  };
  try {
    return await fn();
  } finally {
    globalThis.setTimeout = realTimeout;
    globalThis.clearTimeout = realClear;
    Date.now = realNow;
  }
}

describe("the writer's request first: background work waits behind it and leaves room in the server's minute", function () {
  this.timeout(30000);
  let sb: Sandbox;
  let apis: ContentApi[] = [];
  const LIMIT = 60;
  /** Background work starts only while fewer than this many requests started in the minute before (a third left free). */
  const BACKGROUND_SHARE = LIMIT - 1 - Math.ceil(LIMIT / 3);
  /** The same while the writer made no request in the minute before: a twelfth left free. */
  const IDLE_SHARE = LIMIT - 1 - Math.ceil(LIMIT / 12);
  /** Sooner than this (virtual ms) is at once: a pacing wait is for the next minute, and real time passes too on a busy machine. */
  const AT_ONCE = 30_000;

  /** Requests handed to the transport and not answered yet. */
  let inFlight = 0;
  let transports: Transport[] = [];

  /** A client over the desktop transport, counting the requests on their way. */
  function client(): ContentApi {
    const inner = new NodeTransport();
    const transport: Transport = {
      rateLimitHeadersReadable: inner.rateLimitHeadersReadable,
      whenWaiting: (callback) => inner.whenWaiting(callback),
      dispose: () => inner.dispose(),
      send: async (r) => {
        inFlight++;
        try {
          return await inner.send(r);
        } finally {
          inFlight--;
        }
      },
    };
    transports.push(transport);
    const api = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0, transport });
    apis.push(api);
    return api;
  }
  const list = (api: ContentApi, search: string, priority: Priority) => api.listDocuments({ search }, { priority });
  const lists = (): RequestRecord[] => sb.requests.filter((r) => r.route === 'documents.list');
  const bySearch = (prefix: string) => lists().filter((r) => r.query.search?.startsWith(prefix));

  before(async () => {
    sb = await startSandbox({ storeDelayMs: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.setRateLimit(LIMIT, 'documents');
    sb.resetRateLimit();
    sb.resetRequests();
  });
  afterEach(() => {
    for (const a of apis) a.dispose();
    for (const t of transports) t.dispose();
    apis = [];
    transports = [];
  });

  it('requests the writer makes while background work waits for the next minute go before it, at once; no 429', async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      const api = client();
      const t0 = Date.now();
      const background = Array.from({ length: 70 }, (_, i) => list(api, `bg-${i}`, 'background'));
      const user = Array.from({ length: 3 }, (_, i) => list(api, `user-${i}`, 'user'));
      const results = await Promise.allSettled([...background, ...user]);
      assert.deepEqual(results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason)), []);
      assert.equal(lists().filter((r) => r.status === 429).length, 0, 'no 429');
      const users = bySearch('user-');
      assert.equal(users.length, 3);
      for (const u of users) assert.ok(u.at - t0 < AT_ONCE, `a writer's request waited ${u.at - t0} ms (virtual)`);
      const firstWaiting = bySearch('bg-').find((r) => r.at - t0 >= AT_ONCE);
      assert.ok(firstWaiting, 'some background work waited for the next minute');
      const order = lists();
      for (const u of users) assert.ok(order.indexOf(u) < order.indexOf(firstWaiting), 'the writer\'s requests went before the background work that waited');
    });
  });

  it(`background work alone (the writer idle) leaves a twelfth of the minute free: ${IDLE_SHARE} at once, 100 within two minutes; no 429`, async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      const api = client();
      const t0 = Date.now();
      await Promise.all(Array.from({ length: 100 }, (_, i) => list(api, `bg-${i}`, 'background')));
      const all = lists();
      assert.equal(all.filter((r) => r.status === 429).length, 0);
      for (const [i, r] of all.entries()) {
        const before = all.slice(0, i).filter((p) => r.at - p.at < 60_000).length;
        assert.ok(before < IDLE_SHARE, `request ${i + 1} started with ${before} requests in the minute before it`);
      }
      assert.equal(all.filter((r) => r.at - t0 < AT_ONCE).length, IDLE_SHARE, "the first minute's share went at once");
      assert.ok(Math.max(...all.map((r) => r.at)) - t0 < 2 * 60_000, 'the last of 100 went within two minutes');
    });
  });

  it(`after 25 requests of the writer's, background work leaves a third of the minute free: ${BACKGROUND_SHARE} at once in all`, async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      const api = client();
      const t0 = Date.now();
      await Promise.all(Array.from({ length: 25 }, (_, i) => list(api, `user-${i}`, 'user')));
      await Promise.all(Array.from({ length: 40 }, (_, i) => list(api, `bg-${i}`, 'background')));
      const all = lists();
      assert.equal(all.filter((r) => r.status === 429).length, 0);
      assert.equal(all.filter((r) => r.at - t0 < AT_ONCE).length, BACKGROUND_SHARE, "the writer's 25 and the background work's share went at once");
    });
  });

  it("while the writer works, background work leaves as many requests free as the writer made in the minute before: the writer's next ones go at once", async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      const api = client();
      const t0 = Date.now();
      await Promise.all(Array.from({ length: 10 }, (_, i) => list(api, `user-${i}`, 'user')));
      const background = Array.from({ length: 60 }, (_, i) => list(api, `bg-${i}`, 'background'));
      await new Promise((r) => setImmediate(r));
      await Promise.all(Array.from({ length: 10 }, (_, i) => list(api, `more-${i}`, 'user')));
      await Promise.all(background);
      const all = lists();
      assert.equal(all.filter((r) => r.status === 429).length, 0);
      for (const r of bySearch('more-')) assert.ok(r.at - t0 < AT_ONCE, `a writer's request waited ${r.at - t0} ms (virtual)`);
      assert.equal(bySearch('bg-').filter((r) => r.at - t0 < AT_ONCE).length, LIMIT - 1 - 10 - 10, 'background work left the writer ten');
    });
  });

  it("a writer's requests alone are held only at the server's limit (one left for another window)", async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      const fresh = client();
      await Promise.all(Array.from({ length: LIMIT - 1 }, (_, i) => list(fresh, `user-${i}`, 'user')));
      const t = lists().map((r) => r.at);
      assert.ok(Math.max(...t) - Math.min(...t) < AT_ONCE, 'the writer\'s 59 requests went at once');
    });
  });

  it('when the server says another window used most of its minute, background work waits for the next one; the writer\'s requests still go', async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      // Another VS Code window on the same address, paced by its own client: 54 of the server's 60.
      for (let i = 0; i < 54; i++) {
        const res = await fetch(`${sb.docsUrl}/api/v1/documents?search=other-${i}`, { headers: { authorization: `Bearer ${sb.key}`, accept: 'application/json' } });
        assert.equal(res.status, 200);
        await res.arrayBuffer();
      }
      const api = client();
      const t0 = Date.now();
      await list(api, 'bg-0', 'background');
      const second = list(api, 'bg-1', 'background');
      await list(api, 'user-0', 'user');
      await second;
      const [bg1] = bySearch('bg-1');
      const [u0] = bySearch('user-0');
      assert.ok(u0.at - t0 < AT_ONCE, `the writer's request went at once (${u0.at - t0} ms)`);
      assert.ok(bg1.at - t0 >= AT_ONCE, `the second background request waited for the server's next minute (${bg1.at - t0} ms)`);
      assert.equal(lists().filter((r) => r.status === 429).length, 0);
    });
  });

  it("a writer's read the same as a background one that waits shares it, and it goes at once", async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      const api = client();
      const t0 = Date.now();
      const filler = Array.from({ length: BACKGROUND_SHARE }, (_, i) => list(api, `bg-${i}`, 'background'));
      const waiting = list(api, 'same', 'background');
      const mine = list(api, 'same', 'user');
      const [a, b] = await Promise.all([waiting, mine, ...filler]);
      assert.deepEqual(a, b);
      const same = bySearch('same');
      assert.equal(same.length, 1, 'one request for both');
      assert.ok(same[0].at - t0 < AT_ONCE, `it went at once (${same[0].at - t0} ms)`);
    });
  });

  it('reads the writer asks for again within the minute (Refresh reloading what the views show) leave part of it to new asks: a query typed meanwhile goes at once; no 429', async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      const api = client();
      const t0 = Date.now();
      const groups = Array.from({ length: 15 }, (_, i) => `group-${i}`);
      const load = (search: string) => api.listDocuments({ search }, { signal: new AbortController().signal });
      // Fifteen groups expanded, then four refreshes, each reloading every one (each load the view's own: a signal).
      await Promise.all(groups.map(load));
      const reloads: Array<Promise<unknown>> = [];
      for (let round = 0; round < 4; round++) reloads.push(...groups.map(load));
      const counts = Array.from({ length: 20 }, (_, i) => list(api, `count-${i}`, 'background'));
      // The rounds and the counts have left; those over their share wait for the next minute. Then the writer types.
      await new Promise((r) => setImmediate(r));
      const typed = await list(api, 'typed', 'user');
      assert.ok(typed, 'the typed query was answered');
      const [query] = bySearch('typed');
      assert.ok(query.at - t0 < AT_ONCE, `the typed query went at once (${query.at - t0} ms, virtual)`);
      const results = await Promise.allSettled([...reloads, ...counts]);
      assert.deepEqual(results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason)), []);
      const all = lists();
      assert.equal(all.filter((r) => r.status === 429).length, 0, 'no 429');
      const waited = bySearch('group-').filter((r) => r.at - t0 >= AT_ONCE);
      assert.ok(waited.length > 0, 'some reloads waited for the next minute');
      // Reloads and counts leave the writer as many requests as the writer's new asks in the minute before (15).
      for (const [i, r] of all.entries()) {
        if (r.query.search === 'typed' || all.slice(0, i).every((p) => p.query.search !== r.query.search)) continue;
        const before = all.slice(0, i).filter((p) => r.at - p.at < 60_000).length;
        assert.ok(before < LIMIT - 1 - groups.length, `the reload ${r.query.search} started with ${before} requests in the minute before it`);
      }
    });
  });

  it('a background request cancelled while it waits is dropped without a request', async () => {
    await withVirtualWaits(() => inFlight === 0, async () => {
      const api = client();
      const filler = Array.from({ length: BACKGROUND_SHARE }, (_, i) => list(api, `bg-${i}`, 'background'));
      const ac = new AbortController();
      const waiting = api.listDocuments({ search: 'cancelled' }, { signal: ac.signal, priority: 'background' });
      ac.abort();
      await assert.rejects(waiting, (e: unknown) => isApiError(e) && e.kind === 'cancelled');
      await Promise.all(filler);
      assert.equal(bySearch('cancelled').length, 0);
    });
  });
});
