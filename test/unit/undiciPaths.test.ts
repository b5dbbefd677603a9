/**
 * The client loads undici by two of its internal module paths (src/api/http.ts), not by the package's entry
 * point, so that dist/http.js (the loopback http:// client, loaded by the first http:// request) holds only the connection pool and `request`. undici does not promise these
 * paths: this suite fails when an update moves them or changes what they export, and proves over real HTTP
 * on 127.0.0.1 that the pieces still do what the client relies on (keep-alive, redirects not followed, abort,
 * error codes). The last part checks the built bundle (dist/api.js, from `npm run build` or `npm run pretest`):
 * self-contained, without the SIMD llhttp build that esbuild.mjs leaves out, and able to make a request.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Agent, request, UNDICI_PATHS, type Dispatcher } from '../../src/api/http';

const REPO = path.resolve(__dirname, '..', '..', '..');
/** Loads what is only known at run time (undici's internal paths, the built bundle). */
const load = createRequire(__filename);

interface Server {
  url: string;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

/** A plain node:http server on 127.0.0.1 that counts connections and records each request's method and path. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Server> {
  const server = http.createServer((req, res) => {
    s.requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  const s: Server = {
    url: '',
    connections: 0,
    requests: [],
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', () => s.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function text(res: Dispatcher.ResponseData): Promise<string> {
  let out = '';
  for await (const chunk of res.body) out += (chunk as Buffer).toString('utf8');
  return out;
}

const GET = (dispatcher: Dispatcher, signal = new AbortController().signal) => ({ method: 'GET' as const, headers: { accept: 'application/json' }, signal, dispatcher });

describe('undici by its module paths (src/api/http.ts)', () => {
  let agent: InstanceType<typeof Agent>;
  beforeEach(() => {
    agent = new Agent({ keepAliveTimeout: 10_000, connections: 6 });
  });
  afterEach(async () => {
    await agent.close();
  });

  it('every deep path still resolves inside the installed undici and exports what the client calls', () => {
    const root = path.dirname(require.resolve('undici/package.json'));
    for (const p of UNDICI_PATHS) {
      let file: string;
      try {
        file = require.resolve(p);
      } catch (e) {
        assert.fail(`${p} no longer resolves (undici ${(load('undici/package.json') as { version: string }).version}): ${(e as Error).message}`);
      }
      assert.ok(file.startsWith(root + path.sep), `${p} resolves inside the undici package (${file})`);
    }
    const AgentClass = load(UNDICI_PATHS[0]) as unknown;
    assert.equal(typeof AgentClass, 'function', 'undici/lib/dispatcher/agent exports the Agent class itself');
    assert.equal(AgentClass, Agent);
    for (const method of ['dispatch', 'close', 'destroy']) {
      assert.equal(typeof (Agent.prototype as unknown as Record<string, unknown>)[method], 'function', `Agent.prototype.${method}`);
    }
    assert.equal(typeof load(UNDICI_PATHS[1]), 'function', 'undici/lib/api/api-request exports the request function itself');
  });

  it('loading the client does not load the package entry point (fetch, WebSocket, …)', () => {
    load('../../src/api/index');
    const entry = require.resolve('undici');
    assert.equal(require.cache[entry], undefined, `${entry} was loaded`);
  });

  it('a request answers with status, headers and body, and the next one reuses the kept-alive connection', async () => {
    const srv = await serve((req, res) => json(res, 200, { path: req.url, auth: req.headers.authorization }, { 'x-ratelimit-limit': '60' }));
    try {
      const first = await request(`${srv.url}/api/v1/documents?page=2&search=caf%C3%A9`, {
        ...GET(agent),
        headers: { authorization: 'Bearer k-1' },
      });
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['x-ratelimit-limit'], '60');
      assert.deepEqual(JSON.parse(await text(first)), { path: '/api/v1/documents?page=2&search=caf%C3%A9', auth: 'Bearer k-1' });
      // The pool takes the connection back once the answer was read (a turn of the event loop later).
      await new Promise(setImmediate);
      const second = await request(`${srv.url}/api/v1/account`, GET(agent));
      assert.equal(second.statusCode, 200);
      await text(second);
      assert.deepEqual(srv.requests, ['GET /api/v1/documents?page=2&search=caf%C3%A9', 'GET /api/v1/account']);
      assert.equal(srv.connections, 1, 'both requests went over one connection');
    } finally {
      await srv.close();
    }
  });

  it('sends a form body with its method', async () => {
    let body = '';
    const srv = await serve((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => json(res, 201, { ok: true }));
    });
    try {
      const res = await request(`${srv.url}/api/v1/documents/7`, {
        ...GET(agent),
        method: 'PATCH',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=Q3+plan',
      });
      assert.equal(res.statusCode, 201);
      await text(res);
      assert.deepEqual(srv.requests, ['PATCH /api/v1/documents/7']);
      assert.equal(body, 'name=Q3+plan');
    } finally {
      await srv.close();
    }
  });

  it('a redirect is returned as it is, never followed', async () => {
    const target = await serve((_req, res) => json(res, 200, { followed: true }));
    const srv = await serve((_req, res) => json(res, 302, {}, { location: `${target.url}/steal` }));
    try {
      const res = await request(`${srv.url}/api/v1/account`, GET(agent));
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, `${target.url}/steal`);
      await text(res);
      assert.deepEqual(target.requests, [], 'nothing was sent to the redirect target');
    } finally {
      await srv.close();
      await target.close();
    }
  });

  it('an aborted signal ends a request that waits for its answer', async () => {
    const srv = await serve(() => undefined /* never answers */);
    try {
      const controller = new AbortController();
      const pending = request(`${srv.url}/api/v1/account`, GET(agent, controller.signal));
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(pending, (e: Error & { code?: string }) => e.name === 'AbortError' || e.code === 'UND_ERR_ABORTED');
      assert.deepEqual(srv.requests, ['GET /api/v1/account']);
    } finally {
      await srv.close();
    }
  });

  it('a refused connection fails with ECONNREFUSED, a reset mid-answer with an UND_ERR_ code or ECONNRESET', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(request(`http://127.0.0.1:${port}/api/v1/account`, GET(agent)), (e: { code?: string }) => e.code === 'ECONNREFUSED');

    const reset = net.createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial":')));
    await new Promise<void>((resolve) => reset.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(reset.address() as AddressInfo).port}/api/v1/account`;
      await assert.rejects(
        (async () => text(await request(url, GET(agent))))(),
        (e: { code?: string }) => /^(UND_ERR_SOCKET|ECONNRESET)$/.test(e.code ?? ''),
      );
    } finally {
      await new Promise<void>((resolve) => reset.close(() => resolve()));
    }
  });
});

describe('the built API bundle (dist/api.js) and its loopback client (dist/http.js)', () => {
  const bundle = path.join(REPO, 'dist', 'api.js');
  const httpBundle = path.join(REPO, 'dist', 'http.js');
  let source: string;
  before(function () {
    for (const file of [bundle, httpBundle]) assert.ok(fs.existsSync(file), `${file} is missing: build first (npm run build)`);
    source = fs.readFileSync(bundle, 'utf8');
  });

  /** The base64 text of one of undici's llhttp WebAssembly builds. */
  function wasmBase64(file: string): string {
    const m = /wasmBase64 = '([A-Za-z0-9+/=]+)'/.exec(fs.readFileSync(require.resolve(`undici/lib/llhttp/${file}`), 'utf8'));
    assert.ok(m, `the WebAssembly of ${file} is where it was`);
    return m[1];
  }

  it('is self-contained: it requires no package at run time, only the loopback client\'s bundle (dist/http.js) and the response schemas\' (dist/schemas.js)', () => {
    for (const file of [bundle, httpBundle, path.join(REPO, 'dist', 'schemas.js')]) {
      const required = [...fs.readFileSync(file, 'utf8').matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
      const packages = required.filter((m) => !m.startsWith('node:') && !BUILTINS.has(m) && !(file === bundle && (m === './http.js' || m === './schemas.js')));
      assert.deepEqual([...new Set(packages)], [], path.basename(file));
    }
  });

  it('holds no undici: the loopback http:// client is dist/http.js, loaded by the first http:// request', () => {
    assert.ok(!source.includes(wasmBase64('llhttp-wasm.js')), 'no llhttp in dist/api.js');
    const inputs = (JSON.parse(fs.readFileSync(path.join(REPO, 'dist', 'bundles.json'), 'utf8')) as { bundles: Record<string, { inputs: string[] }> }).bundles.api.inputs;
    assert.deepEqual(inputs.filter((i) => i.includes('node_modules/undici/')), [], 'no module of undici in dist/api.js (esbuild\'s report, dist/bundles.json)');
    assert.match(source, /require\(["']\.\/http\.js["']\)/, 'dist/api.js loads dist/http.js at run time');
  });

  it('dist/http.js holds the plain llhttp build, and neither the SIMD one, HTTP/2 nor fetch\'s FormData bodies (left out by esbuild.mjs)', () => {
    const http1 = fs.readFileSync(httpBundle, 'utf8');
    assert.ok(http1.includes(wasmBase64('llhttp-wasm.js')), 'the plain build is in the bundle');
    assert.ok(!http1.includes(wasmBase64('llhttp_simd-wasm.js')), 'the SIMD build is left out');
    assert.doesNotMatch(http1, /require\(["'](node:)?http2["']\)/, 'node:http2 is not required');
    assert.doesNotMatch(http1, /multipart\/form-data/, "fetch's body extraction (FormData, multipart) is left out");
  });

  it('sends a request without zod: the response schemas (dist/schemas.js) load while it waits for its answer', async () => {
    // In a process of its own: this suite's other tests load the schemas.
    const srv = await serve((_req, res) => void setTimeout(() => res.end(JSON.stringify({ data: { id: 7, name: 'n' } })), 150));
    try {
      const schemasBundle = path.join(REPO, 'dist', 'schemas.js');
      const script = `
        const loaded = () => Object.keys(require.cache).some((f) => f === ${JSON.stringify(schemasBundle)} || /[\\\\/]zod[\\\\/]/.test(f));
        const api = require(${JSON.stringify(bundle)});
        const seen = { required: loaded() };
        const client = api.createApi({ documentsUrl: process.argv[1], projectsUrl: process.argv[1], getKey: () => 'k', pacing: false, retries: 0, timeoutMs: 3000 });
        const answer = client.getAccount();
        seen.sent = loaded();
        answer.then((a) => {
          seen.answered = loaded();
          seen.id = a.id;
          client.dispose();
          process.stdout.write(JSON.stringify(seen));
        }, (e) => { process.stdout.write(JSON.stringify({ error: String(e) })); });`;
      // Asynchronously: the server answers from this process.
      const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, srv.url], { encoding: 'utf8', timeout: 15_000 });
      const seen = JSON.parse(stdout) as Record<string, unknown>;
      assert.deepEqual(seen, { required: false, sent: false, answered: true, id: 7 });
    } finally {
      await srv.close();
    }
  });

  it('a request to an https:// server loads no undici (dist/http.js stays unloaded); an http:// one loads it', () => {
    // In a process of its own: this suite's other tests load dist/http.js.
    const script = `
      const api = require(${JSON.stringify(bundle)}).createApi({ documentsUrl: process.argv[1], projectsUrl: process.argv[1], getKey: () => 'k', pacing: false, retries: 0, timeoutMs: 3000 });
      api.getAccount().catch(() => undefined).then(() => {
        const loaded = Object.keys(require.cache).filter((f) => f === ${JSON.stringify(httpBundle)} || /undici/.test(f));
        api.dispose();
        process.stdout.write(JSON.stringify(loaded));
      });`;
    const loadedFor = (url: string) => JSON.parse(execFileSync(process.execPath, ['-e', script, url], { encoding: 'utf8', timeout: 15_000 })) as string[];
    assert.deepEqual(loadedFor('https://127.0.0.1:9'), [], 'https:// (here a closed port) loads no undici');
    assert.deepEqual(loadedFor('http://127.0.0.1:9'), [httpBundle], 'loopback http:// loads dist/http.js');
  });

  it('an answer too large, read by dist/http.js, is the client\'s own error (too large), not a network failure', async () => {
    // dist/http.js is a bundle of its own: an error class of its own copy would not be the client's ApiError.
    const srv = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 * 1024) });
      res.end('{"data":' + ' '.repeat(1024 * 1024 - 10) + 'null}');
    });
    const api = (load(bundle) as typeof import('../../src/api/index')).createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k', pacing: false, retries: 0, maxBodyBytes: 64 * 1024 });
    try {
      const failure = await api.getAccount().then(() => undefined, (e: unknown) => e as { kind?: string; message?: string });
      assert.ok(failure, 'the answer is refused');
      assert.equal(failure.kind, 'badResponse', `the kind of the error: ${failure.message}`);
      assert.match(failure.message ?? '', /too large/);
    } finally {
      api.dispose();
      await srv.close();
    }
  });

  it('sends a form body with that build (the path that no longer has fetch\'s body extraction)', async () => {
    let received = '';
    const srv = await serve((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (c: string) => (received += c));
      req.on('end', () => json(res, 201, { data: { id: 9, name: 'N', template: { id: 1, name: 'Freestyle' }, result: 'R', favorite: false } }));
    });
    const api = (load(bundle) as typeof import('../../src/api/index')).createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k', pacing: false, retries: 0 });
    try {
      const doc = await api.storeDocument({ name: 'N', templateId: 1, creativity: 0.5, prompt: 'Write ✓' });
      assert.equal(doc.id, 9);
      assert.deepEqual(Object.fromEntries(new URLSearchParams(received)), { name: 'N', template_id: '1', creativity: '0.5', prompt: 'Write ✓' });
    } finally {
      api.dispose();
      await srv.close();
    }
  });

  it('makes a request and reads its answer with that parser', async () => {
    const srv = await serve((req, res) => json(res, 200, { data: { path: req.url, key: req.headers.authorization } }));
    const api = (load(bundle) as typeof import('../../src/api/index')).createApi({
      documentsUrl: srv.url,
      projectsUrl: srv.url,
      getKey: () => 'bundle-key',
      pacing: false,
      retries: 0,
    });
    try {
      assert.deepEqual(await api.getAccount(), { path: '/api/v1/account', key: 'Bearer bundle-key' });
    } finally {
      api.dispose();
      await srv.close();
    }
  });
});

const BUILTINS = new Set(builtinModules);
