/**
 * The first request's wait (Transport.whenWaiting, ClientOptions.onFirstWait): work the first answer will need (the
 * response schemas, the views' formatters) runs while that request is on the wire, never before it has left. The
 * server is a separate process on 127.0.0.1, so it receives the request while this process is busy. Then that work
 * where it meets a throwing callback, a dispatcher or transport shared by several clients, a client disposed before
 * it connects, and a browser's preflight (a server in this process, on 127.0.0.1).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createApi, isApiError, type ClientOptions, type ContentApi } from '../../src/api';
import { FetchTransport } from '../../src/api/fetchTransport';
import { Agent } from '../../src/api/http';
import { undiciTransport } from '../../src/api/nodeTransport';
import { prepareSchemas } from '../../src/api/schemas';
import type { Transport } from '../../src/api/transport';
import { server } from './apiKit';

/** Answers every request after `delayMs` with `{"data": {"arrivedAt": <epoch ms when its headers arrived>}}`. */
const SERVER = `
const http = require('node:http');
const delay = Number(process.argv[1]);
const srv = http.createServer((req, res) => {
  const arrivedAt = Date.now();
  req.resume();
  req.on('end', () => setTimeout(() => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { arrivedAt } }));
  }, delay));
});
srv.listen(0, '127.0.0.1', () => process.stdout.write(String(srv.address().port) + '\\n'));
`;

async function startServer(delayMs: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', SERVER, String(delayMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // keep this process's only thread busy, as building formatters does
  }
}

describe('the first request\'s wait', function () {
  this.timeout(20000);
  let server: { url: string; child: ChildProcess };
  before(async () => {
    server = await startServer(400);
  });
  after(() => {
    server.child.kill();
  });

  it('Node (undici): the work runs once, after the first request reached the server and before its answer, and does not delay it', async () => {
    const ran: number[] = [];
    let ended = 0;
    let answered = false;
    const api = createApi({
      documentsUrl: server.url,
      projectsUrl: server.url,
      getKey: () => 'k',
      retries: 0,
      transport: undiciTransport(),
      onFirstWait: () => {
        ran.push(Date.now());
        assert.equal(answered, false, 'runs before the answer');
        busy(600);
        ended = Date.now();
      },
    });
    try {
      const first = (await api.getAccount()) as { arrivedAt: number };
      answered = true;
      assert.equal(ran.length, 1, 'ran once');
      // Had the work run before the request left, the server would have seen it only after the work ended (this
      // process's one thread was busy): its arrival before the end shows the request left first, whatever the load.
      assert.ok(first.arrivedAt < ended, `the request reached the server (${first.arrivedAt}) before the work ended (${ran[0]} to ${ended})`);
      await api.getAccount();
      assert.equal(ran.length, 1, 'a later request does not run it again');
    } finally {
      api.dispose();
    }
  });

  it('the browser (fetch): the work runs once, after fetch was called and before its answer', async () => {
    const order: string[] = [];
    const transport = new FetchTransport({
      fetch: async (url, init) => {
        order.push('fetch called');
        const res = await globalThis.fetch(url, init);
        order.push('answered');
        return res;
      },
    });
    const api = createApi({ documentsUrl: server.url, projectsUrl: server.url, getKey: () => 'k', retries: 0, transport, onFirstWait: () => order.push('work') });
    try {
      await api.getAccount();
      await api.getAccount();
      assert.deepEqual(order, ['fetch called', 'work', 'answered', 'fetch called', 'answered']);
    } finally {
      api.dispose();
    }
  });

  it('the schemas\' warm-up samples are valid answers, so every field\'s parser runs in the wait', () => {
    assert.equal(prepareSchemas(), true);
  });

  it('a request that never leaves (a refused connection) does not run it', async () => {
    let ran = 0;
    const refused = createApi({ documentsUrl: 'http://127.0.0.1:9', projectsUrl: 'http://127.0.0.1:9', getKey: () => 'k', retries: 0, onFirstWait: () => ran++ });
    try {
      await assert.rejects(refused.getAccount());
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(ran, 0);
    } finally {
      refused.dispose();
    }
  });
});

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

describe('the first request\'s wait: work that throws, clients sharing a dispatcher or transport, a browser\'s preflight', function () {
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
    ['Node (undici)', () => undiciTransport()],
    ['the browser (fetch)', () => new FetchTransport()],
  ] as Array<[string, () => Transport]>) {
    it(`${name}: first-wait work that throws is not an uncaught exception, and the request still answers`, async () => {
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

  it('clients sharing one dispatcher leave no \'connect\' listener (and no MaxListenersExceededWarning) once disposed', async () => {
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

  it('a client disposed before its first request never runs its first-wait work when another client on the same dispatcher connects', async () => {
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

  it('a client disposed before its first request never runs its first-wait work when another client on the same fetch transport sends', async () => {
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

  it('the browser (emulated CORS): the work runs after the request itself was sent, not after the preflight alone', async () => {
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

  it('the browser: a fetch that throws at once does not use up the work; the next request that leaves runs it, once', async () => {
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
