/**
 * attack4: the first request's wait (Transport.whenWaiting, ClientOptions.onFirstWait), the lazily built response
 * schemas and the Node transport's UTF-8 reading, attacked where they meet a throwing callback, a dispatcher or
 * transport shared by several clients, a client disposed before it connects, a browser's preflight and odd bytes.
 * Real HTTP on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi, isApiError, type ClientOptions, type ContentApi } from '../../src/api';
import { FetchTransport } from '../../src/api/fetchTransport';
import { Agent } from '../../src/api/http';
import { UndiciTransport } from '../../src/api/nodeTransport';
import { schemas } from '../../src/api/schemas';
import type { Transport } from '../../src/api/transport';

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, DELETE', 'Access-Control-Allow-Headers': 'authorization' };

/** A server on 127.0.0.1: answers OPTIONS as a CORS preflight and everything else with `handler`. */
async function server(handler: http.RequestListener = (_req, res) => json(res, { data: { name: 'me' } })): Promise<{ url: string; close: () => Promise<void> }> {
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

function json(res: http.ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { ...CORS, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Runs `fn` with this process's uncaught-exception handlers (mocha's) replaced by a collector; returns what reached it. */
async function uncaughtDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const caught: unknown[] = [];
  const previous = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  const collect = (e: unknown) => caught.push(e);
  process.on('uncaughtException', collect);
  try {
    await fn();
    // Past any setImmediate / setTimeout(0) the transports schedule the work with.
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off('uncaughtException', collect);
    for (const h of previous) process.on('uncaughtException', h);
  }
  return caught;
}

describe('attack4: the first request\'s wait', function () {
  this.timeout(20000);
  let srv: { url: string; close: () => Promise<void> };
  let apis: ContentApi[] = [];
  function client(o: Partial<ClientOptions>): ContentApi {
    const api = createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k-123', timeoutMs: 5000, retries: 0, ...o });
    apis.push(api);
    return api;
  }
  before(async () => {
    srv = await server();
  });
  after(async () => {
    await srv.close();
  });
  afterEach(() => {
    for (const a of apis) a.dispose();
    apis = [];
  });

  for (const [name, transport] of [
    ['Node (undici)', () => new UndiciTransport()],
    ['the browser (fetch)', () => new FetchTransport()],
  ] as Array<[string, () => Transport]>) {
    it(`attack4: ${name}: first-wait work that throws is not an uncaught exception, and the request still answers`, async () => {
      let ran = 0;
      const lines: string[] = [];
      const api = client({
        transport: transport(),
        log: (_level, line) => lines.push(line),
        onFirstWait: () => {
          ran++;
          throw new Error('formatter trouble');
        },
      });
      let answer: Record<string, unknown> | undefined;
      const caught = await uncaughtDuring(async () => {
        answer = await api.getAccount();
      });
      assert.equal(ran, 1, 'the work ran');
      assert.deepEqual(caught.map(String), [], 'nothing escaped as an uncaught exception');
      assert.deepEqual(answer, { name: 'me' }, 'the request answered');
      assert.ok(lines.some((l) => l.includes('formatter trouble')), `the failure is logged: ${JSON.stringify(lines)}`);
    });
  }

  it('attack4: clients sharing one dispatcher leave no \'connect\' listener (and no MaxListenersExceededWarning) once disposed', async () => {
    const agent = new Agent({ keepAliveTimeout: 10_000 });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      // The first client opens the connection; every later one reuses it, so none of them sees a 'connect'.
      const first = client({ dispatcher: agent });
      await first.getAccount();
      const baseline = agent.listenerCount('connect');
      for (let i = 0; i < 12; i++) {
        const api = createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k-123', retries: 0, dispatcher: agent });
        await api.getAccount();
        api.dispose();
      }
      await new Promise((r) => setImmediate(r));
      assert.equal(agent.listenerCount('connect'), baseline, 'each disposed client took its listener away');
      assert.deepEqual(
        warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
        [],
      );
    } finally {
      process.off('warning', onWarning);
      await agent.close();
    }
  });

  it('attack4: a client disposed before its first request never runs its first-wait work when another client on the same dispatcher connects', async () => {
    const agent = new Agent({ keepAliveTimeout: 10_000 });
    try {
      let disposedRan = 0;
      const gone = createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k-123', retries: 0, dispatcher: agent, onFirstWait: () => disposedRan++ });
      gone.dispose();
      let liveRan = 0;
      const live = client({ dispatcher: agent, onFirstWait: () => liveRan++ });
      await live.getAccount();
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(liveRan, 1, 'the live client\'s work ran');
      assert.equal(disposedRan, 0, 'the disposed client\'s did not');
    } finally {
      await agent.close();
    }
  });

  it('attack4: a client disposed before its first request never runs its first-wait work when another client on the same fetch transport sends', async () => {
    const transport = new FetchTransport();
    let disposedRan = 0;
    const gone = createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k-123', retries: 0, transport, onFirstWait: () => disposedRan++ });
    gone.dispose();
    let liveRan = 0;
    await client({ transport, onFirstWait: () => liveRan++ }).getAccount();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(liveRan, 1, 'the live client\'s work ran');
    assert.equal(disposedRan, 0, 'the disposed client\'s did not');
  });

  it('attack4: the browser (emulated CORS): the work runs after the request itself was sent, not after the preflight alone', async () => {
    const order: string[] = [];
    const transport = new FetchTransport({
      emulateCors: { origin: 'https://vscode.dev' },
      fetch: (url, init) => {
        order.push(String(init.method));
        return globalThis.fetch(url, init);
      },
    });
    await client({ transport, onFirstWait: () => order.push('work') }).getAccount();
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(order, ['OPTIONS', 'GET', 'work']);
  });

  it('attack4: the browser: a fetch that throws at once does not use up the work; the next request that leaves runs it, once', async () => {
    let calls = 0;
    const transport = new FetchTransport({
      fetch: (url, init) => {
        if (++calls === 1) throw new TypeError('Failed to fetch');
        return globalThis.fetch(url, init);
      },
    });
    let ran = 0;
    const api = client({ transport, onFirstWait: () => ran++ });
    await assert.rejects(api.getAccount(), (e: unknown) => isApiError(e) && e.kind === 'network');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(ran, 0, 'nothing left: no work');
    await api.getAccount();
    await api.getAccount();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(ran, 1, 'the first request that left ran it, and only once');
  });
});

describe('attack4: answers read the same on Node and in the browser', function () {
  this.timeout(20000);

  /** showDocument(7) over both transports against one answer's bytes. */
  async function both(bytes: Buffer): Promise<{ node: string; browser: string }> {
    const srv = await server((_req, res) => {
      res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
      res.end(bytes);
    });
    const outcome = async (transport: Transport) => {
      const api = createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k-123', timeoutMs: 3000, retries: 0, transport });
      try {
        return `ok ${JSON.stringify((await api.showDocument(7)).result)}`;
      } catch (e) {
        return isApiError(e) ? `${e.kind} ${e.message}` : `crash ${String(e)}`;
      } finally {
        api.dispose();
      }
    };
    try {
      return { node: await outcome(new UndiciTransport()), browser: await outcome(new FetchTransport({ emulateCors: { origin: 'https://vscode.dev' } })) };
    } finally {
      await srv.close();
    }
  }
  const record = (result: string) => ({ data: { id: 7, name: 'n', template: [], result, words: 1, favorite: '1', created_at: null, updated_at: null } });

  it('attack4: a byte-order mark inside the text is kept, on both (only a leading one is dropped)', async () => {
    const r = await both(Buffer.from(JSON.stringify(record('a\uFEFFb')), 'utf8'));
    assert.equal(r.browser, `ok ${JSON.stringify('a\uFEFFb')}`);
    assert.equal(r.node, r.browser);
  });

  it('attack4: two leading UTF-8 byte-order marks: one is dropped and the second fails as JSON, on both', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const r = await both(Buffer.concat([bom, bom, Buffer.from(JSON.stringify(record('x')))]));
    assert.match(r.browser, /^badResponse .*not valid JSON/);
    assert.equal(r.node, r.browser);
  });

  it('attack4: a UTF-16 answer (with its byte-order mark) is not read as UTF-8 JSON, on both', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(record('x')), 'utf16le')]);
    const r = await both(utf16);
    assert.match(r.browser, /^badResponse .*not valid JSON/);
    assert.equal(r.node, r.browser);
  });
});

describe('attack4: the lazily built response schemas', () => {
  it('attack4: are built once and read the servers\' odd values as before (template [], result null, string ids and flags, 422 bodies, deletions)', () => {
    const s = schemas();
    assert.equal(schemas(), s, 'one set of schemas');
    const doc = s.documentOne.parse({ data: { id: '12', name: null, template: [], result: null, words: null, favorite: '1', created_at: null } });
    assert.deepEqual(doc, { id: 12, name: '', template: undefined, result: '', resultIsNull: true, words: 0, favorite: true, created_at: undefined, updated_at: undefined });
    assert.equal(s.documentOne.parse({ id: 3, template: { id: '4', name: null } }).template?.id, 4, 'a bare record, a string template id');
    assert.equal(s.documentOne.safeParse({ data: { id: 1, template: [1] } }).success, false, 'a non-empty template array is refused');
    const projects = s.projectList.parse({ data: [{ project: 'p', reports: '3', result: '12.5' }, { project: 'q', result: 'n/a' }], meta: { per_page: '10', total: 2 } });
    assert.deepEqual(projects.data.map((p) => [p.reports, p.result]), [[3, 12.5], [0, undefined]]);
    assert.equal(s.deleted.safeParse({ id: '5' }).success, true);
    assert.equal(s.deleted.safeParse({ deleted: true }).success, true);
    assert.equal(s.deleted.safeParse({ deleted: false, id: 5 }).success, false);
    assert.equal(s.deleted.safeParse({ id: null }).success, false);
    const err = s.errorBody.parse({ message: { name: ['The name field is required.'], creativity: 'too high' } });
    assert.deepEqual(err.message, { name: ['The name field is required.'], creativity: 'too high' });
    const usage = s.accountInfo.parse({ data: { plan: { name: 'Pro', features: { words: '-1' } }, words_month_count: '17', images_month_count: 'many' } });
    assert.deepEqual([usage.plan?.name, usage.limits.words, usage.month.words, usage.month.images], ['Pro', undefined, 17, undefined]);
  });
});
