/**
 * The desktop transport's route (docs/networking.md), in plain Node against the real mechanisms: the sandbox served
 * over TLS with a certificate from an authority the test makes (openssl), and a logging CONNECT proxy
 * (test/unit/networkKit.ts).
 *
 * - An https:// server is asked through the `https` module's `request`, looked up when the request is made, with no
 *   `agent` and no `ca` of the client's own: VS Code's extension host replaces that function with one that adds its
 *   proxy and the system's certificates (an agent of ours would turn its proxy off under `http.proxySupport: "on"`,
 *   a `ca` of ours would drop the system's certificates). The test replaces it the same way, with one that adds the
 *   test's authority, as VS Code adds the system store.
 * - An http:// server, which must be on a loopback address, is reached directly: neither through the `http` module
 *   (VS Code proxies it for 127.0.0.2) nor through a proxy the environment names.
 * - A certificate that cannot be verified fails in plain words that name the server and say what to do, after one
 *   attempt (kind `certificate`: nothing was sent).
 */
import assert from 'node:assert/strict';
// The modules themselves (not copies of their exports): a test replaces their request as VS Code does.
import http = require('node:http');
import https = require('node:https');
import { createApi, isApiError, type ApiError, type ClientOptions, type ContentApi } from '../../src/api';
import { describeNetworkFailure, proxyAddress } from '../../src/api/networkErrors';
import { SendFailure } from '../../src/api/transport';
import { describeError } from '../../src/util/errors';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { server } from './apiKit';
import { makeAuthority, startConnectProxy, startTlsFront, type Authority, type ConnectProxy, type TlsFront } from './networkKit';

type RequestFn = typeof https.request;

describe('the desktop transport: https through the host\'s https module, loopback http direct, certificate failures in plain words', function () {
  this.timeout(20000);
  let sb: Sandbox;
  let authority: Authority;
  let front: TlsFront;
  let wrongName: TlsFront;
  let proxy: ConnectProxy;
  let apis: ContentApi[] = [];
  let logs: string[] = [];
  const realHttps = https.request;
  const realHttp = http.request;

  function client(documentsUrl: string, o: Partial<ClientOptions> = {}): ContentApi {
    const api = createApi({ documentsUrl, projectsUrl: documentsUrl, getKey: () => sb.key, timeoutMs: 5000, log: (l, line) => logs.push(`${l} ${line}`), ...o });
    apis.push(api);
    return api;
  }

  /** The https module's request as VS Code's extension host replaces it: the system's certificates added to each call. */
  function hostAddsAuthority(calls: Array<{ url: string; options: https.RequestOptions }>): void {
    https.request = function (url: string | URL, options: https.RequestOptions, callback?: (res: http.IncomingMessage) => void) {
      calls.push({ url: String(url), options });
      return realHttps(url, { ...options, ca: authority.caPem }, callback);
    } as RequestFn;
  }

  async function failure(p: Promise<unknown>): Promise<ApiError> {
    try {
      await p;
    } catch (e) {
      assert.ok(isApiError(e), String(e));
      return e;
    }
    assert.fail('the request succeeded');
  }

  before(async () => {
    sb = await startSandbox({ host: '127.0.0.2', storeDelayMs: 0 });
    authority = makeAuthority();
    front = await startTlsFront(sb.docsUrl, authority);
    // The same certificate (127.0.0.1, 127.0.0.2, localhost) served on an address it does not name.
    wrongName = await startTlsFront(sb.docsUrl, authority, '127.0.0.3');
    proxy = await startConnectProxy();
  });
  after(async () => {
    for (const c of [front, wrongName, proxy, sb]) await c.close();
    authority.dispose();
  });
  afterEach(() => {
    https.request = realHttps;
    http.request = realHttp;
    for (const a of apis) a.dispose();
    apis = [];
    logs = [];
    sb.resetRequests();
    proxy.reset();
    front.connections.length = 0;
    front.failedHandshakes.length = 0;
    delete process.env.HTTPS_PROXY;
    delete process.env.HTTP_PROXY;
  });

  it('an https:// server is asked through the https module\'s request, with no agent and no ca of the client\'s own', async () => {
    const calls: Array<{ url: string; options: https.RequestOptions }> = [];
    hostAddsAuthority(calls);
    const api = client(front.url);
    const account = await api.getAccountUsage();
    assert.ok(account, 'the account was read over TLS, trusted through the host\'s request');
    const page = await api.listDocuments({ perPage: 10 });
    assert.ok(page.items.length > 0);
    assert.deepEqual(calls.map((c) => new URL(c.url).pathname), ['/api/v1/account', '/api/v1/documents']);
    for (const { options } of calls) {
      assert.equal(options.agent, undefined, 'no agent of the client\'s own: the host chooses direct or proxy');
      assert.equal(options.ca, undefined, 'no ca of the client\'s own: the host adds the system\'s');
      assert.equal(options.rejectUnauthorized, undefined, 'verification is never touched');
      assert.equal((options.headers as Record<string, string>).authorization, `Bearer ${sb.key}`);
    }
    assert.equal(sb.requests.filter((r) => r.path.startsWith('/api/v1')).length, 2);
  });

  it('an http:// server on a loopback address is reached directly: not through the http module, not through a proxy the environment names', async () => {
    let httpCalls = 0;
    http.request = function (...args: Parameters<typeof http.request>) {
      httpCalls++;
      return (realHttp as (...a: unknown[]) => http.ClientRequest)(...args);
    } as typeof http.request;
    process.env.HTTPS_PROXY = proxy.url;
    process.env.HTTP_PROXY = proxy.url;
    const api = client(sb.docsUrl);
    await api.getAccountUsage();
    await api.listDocuments({ perPage: 10 });
    assert.equal(httpCalls, 0, 'the http module (which VS Code routes through its proxy) was not used');
    assert.equal(proxy.tunnels.length + proxy.forwarded.length, 0, 'the proxy saw nothing');
    assert.equal(sb.requests.filter((r) => r.path.startsWith('/api/v1')).length, 2);
  });

  it('a server whose authority is not trusted: one attempt, kind certificate, a message that names the server and says what to do', async () => {
    const before = front.attempts;
    const err = await failure(client(front.url, { retries: 2 }).listDocuments());
    assert.equal(err.kind, 'certificate');
    assert.equal((err as ApiError & { code?: string }).code, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    assert.equal(
      err.message,
      `The certificate of ${front.url} is not trusted: the authority that issued it is not in the system's certificate store (UNABLE_TO_VERIFY_LEAF_SIGNATURE). ` +
        "If your organization has its own certificate authority, or its network inspects HTTPS, install that authority in the system's certificate store, then reload the window. " +
        'If your network reaches servers through a proxy, set it in VS Code\'s "http.proxy" setting.',
    );
    assert.match(describeError("Couldn't check the API key", err), /^Couldn't check the API key: the certificate of https:\/\/127\.0\.0\.2:\d+ is not trusted: /);
    assert.equal(front.attempts - before, 1, 'one connection: not retried, a retry cannot mend it');
    assert.equal(sb.requests.length, 0, 'nothing reached the server');
  });

  it('a certificate issued for another name says so (the address, or the administrator), not to install anything', async () => {
    hostAddsAuthority([]);
    const err = await failure(client(wrongName.url).listDocuments());
    assert.equal(err.kind, 'certificate');
    assert.equal((err as ApiError & { code?: string }).code, 'ERR_TLS_CERT_ALTNAME_INVALID');
    assert.equal(
      err.message,
      `The certificate of ${wrongName.url} is issued for another name (ERR_TLS_CERT_ALTNAME_INVALID). Check the server address in the settings (use the name its certificate is issued for), or ask the server's administrator.`,
    );
  });
});

describe('a proxy in plain words: one that cannot be reached, one that asks for a sign-in', function () {
  this.timeout(10000);

  it('a proxy the host could not reach is named, with where VS Code takes it from; its credentials never show', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const failure = new SendFailure(new Error('Failed to establish a socket connection to proxies: PROXY <credentials>@127.0.0.1:9'), proxyAddress('PROXY user:secret@127.0.0.1:9; DIRECT'), refused);
    const err = describeNetworkFailure(failure, 'https://writer.example.com/api/v1/account');
    assert.equal(err.kind, 'network');
    assert.equal(err.code, 'ECONNREFUSED');
    assert.equal(
      err.message,
      'Could not connect to the proxy 127.0.0.1:9: the connection was refused. VS Code\'s proxy settings give it for this server (the "http.proxy" setting, the HTTPS_PROXY variable or the system\'s proxy settings): check it, or ask your administrator.',
    );
    assert.equal(proxyAddress('DIRECT'), undefined);
    assert.equal(proxyAddress('SOCKS u:p@10.0.0.1:1080'), 'SOCKS 10.0.0.1:1080');
    assert.equal(proxyAddress('HTTPS proxy.corp:8443'), 'HTTPS proxy.corp:8443');
  });

  it('a certificate failure inside a proxy\'s tunnel is a certificate failure of the server', () => {
    const tls = Object.assign(new Error('unable to verify the first certificate'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    const err = describeNetworkFailure(new SendFailure(tls, '127.0.0.1:3128'), 'https://writer.example.com/api/v1/documents');
    assert.equal(err.kind, 'certificate');
    assert.match(err.message, /^The certificate of https:\/\/writer\.example\.com is not trusted/);
  });

  it('a 407 from a proxy says what to do and is not retried', async () => {
    let requests = 0;
    const proxyAnswer = await server((_req, res) => {
      requests++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"', 'content-type': 'text/html' });
      res.end('<html>Proxy Authentication Required</html>');
    });
    const api = createApi({ documentsUrl: proxyAnswer.url, projectsUrl: proxyAnswer.url, getKey: () => 'k-1', retries: 2 });
    try {
      const err = await api.listDocuments().then(
        () => assert.fail('the list succeeded'),
        (e: unknown) => e as ApiError,
      );
      assert.equal(err.kind, 'network');
      assert.equal(err.status, 407);
      assert.match(err.message, /^The proxy between VS Code and the server asks for a sign-in \(HTTP 407\) that it did not get\. .*"http\.proxy"/);
      assert.equal(requests, 1, 'not retried');
    } finally {
      api.dispose();
      await proxyAnswer.close();
    }
  });
});
