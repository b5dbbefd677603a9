/**
 * The first request's wait (Transport.whenWaiting, ClientOptions.onFirstWait): work the first answer will need (the
 * response schemas, the views' formatters) runs while that request is on the wire, never before it has left. The
 * server is a separate process on 127.0.0.1, so it receives the request while this process is busy.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createApi } from '../../src/api';
import { FetchTransport } from '../../src/api/fetchTransport';
import { UndiciTransport } from '../../src/api/nodeTransport';
import { prepareSchemas } from '../../src/api/schemas';

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
    let answered = false;
    const api = createApi({
      documentsUrl: server.url,
      projectsUrl: server.url,
      getKey: () => 'k',
      retries: 0,
      transport: new UndiciTransport(),
      onFirstWait: () => {
        ran.push(Date.now());
        assert.equal(answered, false, 'runs before the answer');
        busy(250);
      },
    });
    try {
      const first = (await api.getAccount()) as { arrivedAt: number };
      answered = true;
      assert.equal(ran.length, 1, 'ran once');
      // Had the work run before the request left, the server would have seen it 250 ms after the work started.
      assert.ok(first.arrivedAt <= ran[0] + 100, `the request reached the server (${first.arrivedAt}) before the work ended (started ${ran[0]})`);
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
