/**
 * Networking as VS Code sets it (inside code-server, a real extension host): the sandbox served over TLS on
 * 127.0.0.2 (a loopback address VS Code does send through a proxy: it exempts only localhost, 127.0.0.1 and ::1) with
 * a certificate from an authority this suite makes and installs in the system's store, and a logging CONNECT proxy
 * on 127.0.0.1 (test/unit/networkKit.ts).
 *
 * - `http.proxy` set: signing in, listing and opening go through the proxy, every connection a TLS tunnel, and the
 *   bytes the proxy carried hold no key, no Authorization header in clear text;
 * - `http.noProxy` and `http.proxySupport: "off"` send them directly;
 * - an http:// server on a loopback address is never sent through the proxy (it would carry the key in clear text);
 * - a server whose authority is in the system store is trusted; one whose authority is not fails with a message that
 *   names the server and says what to do, after one attempt; a proxy that refuses connections is named.
 *
 * What it proves of VS Code: requests go through its patched `https.request` (its PacProxyAgent: a direct connection,
 * or a CONNECT tunnel, chosen by its settings) with the system certificates it adds to each request
 * (`http.systemCertificates`). Needs root, as CI has, to install the authority (update-ca-certificates); the
 * authority and its links are removed afterwards. The extension host reads the system store once (docs/networking.md):
 * the suite turns `http.systemCertificatesNode` off, so that VS Code reads the store file itself, once, after the
 * authority was installed.
 */
import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { promisify } from 'util';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { makeAuthority, startConnectProxy, startTlsFront, wireForms, type Authority, type ConnectProxy, type TlsFront } from '../unit/networkKit';
import { closedPort, configure, LogCapture, RecordingPrompter, services, until } from './reliabilityKit';

const run = promisify(execFile);
const STORE_DIR = '/usr/local/share/ca-certificates';
const CERTS_DIR = '/etc/ssl/certs';
const KEY = 'sk-net-4b1d2c3e5f60718293a4b5c6';

/** Installs an authority in Debian's system store (as update-ca-certificates documents it); returns what removes it. */
async function installAuthority(authority: Authority): Promise<() => Promise<void>> {
  const file = path.join(STORE_DIR, `${authority.name}.crt`);
  fs.writeFileSync(file, authority.caPem);
  await run('update-ca-certificates');
  return async () => {
    fs.rmSync(file, { force: true });
    await run('update-ca-certificates');
    // update-ca-certificates leaves the links of a removed certificate behind (dangling): remove ours.
    for (const entry of fs.readdirSync(CERTS_DIR)) {
      const link = path.join(CERTS_DIR, entry);
      let target: string;
      try {
        target = fs.readlinkSync(link);
      } catch {
        continue;
      }
      if (target === `${authority.name}.pem` || target === file) fs.rmSync(link, { force: true });
    }
  };
}

/** Sets one of VS Code's `http.*` user settings and waits until the extension host sees it. */
async function setHttp(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(key, value, vscode.ConfigurationTarget.Global);
  await until(`http.${key} to be ${JSON.stringify(value)}`, () => JSON.stringify(vscode.workspace.getConfiguration('http').inspect(key)?.globalValue) === JSON.stringify(value), 5_000);
}

describe('networking: proxies and certificates as VS Code sets them', function () {
  this.timeout(60_000);
  let s: TestServices;
  let sandbox: Sandbox;
  let trusted: Authority;
  let unknown: Authority;
  let front: TlsFront;
  let seoFront: TlsFront;
  let untrustedFront: TlsFront;
  let proxy: ConnectProxy;
  let uninstall: (() => Promise<void>) | undefined;
  let logs: LogCapture;
  let savedPrompter: TestServices['prompter']['current'] | undefined;
  const HTTP_SETTINGS = ['proxy', 'noProxy', 'proxySupport', 'systemCertificatesNode'];
  const saved = new Map<string, unknown>();
  const savedServers = new Map<string, unknown>();

  /** Signs in with the key through Set API Key… (the key box's check is the sign-in request); what the box said. */
  async function signIn(documentsUrl: string, projectsUrl = documentsUrl): Promise<{ ok: boolean; problem: string | undefined }> {
    await configure('documents.baseUrl', documentsUrl);
    await configure('projects.baseUrl', projectsUrl);
    await s.credentials.clearKey();
    const prompter = new RecordingPrompter();
    prompter.inputs = [KEY];
    s.prompter.current = prompter;
    const ok = Boolean(await vscode.commands.executeCommand<boolean>(CMD.signIn));
    return { ok, problem: prompter.checked[0]?.problem };
  }

  /** Signs in, lists a page and opens a document: three requests. */
  async function signInListOpen(documentsUrl: string, projectsUrl?: string): Promise<void> {
    const signedIn = await signIn(documentsUrl, projectsUrl);
    assert.ok(signedIn.ok, `signed in: ${signedIn.problem}`);
    const page = await s.api.get().listDocuments({ perPage: 10 });
    assert.ok(page.items.length > 0, 'a page of documents');
    const doc = await s.api.get().showDocument(page.items[0].id);
    assert.equal(doc.id, page.items[0].id);
  }

  before(async function () {
    this.timeout(120_000);
    assert.ok(
      typeof process.getuid === 'function' && process.getuid() === 0,
      'this suite installs a test authority in the system certificate store (update-ca-certificates), which needs root, as CI has',
    );
    s = await services();
    savedPrompter = s.prompter.current;
    logs = new LogCapture().install(s);
    for (const k of HTTP_SETTINGS) saved.set(k, vscode.workspace.getConfiguration('http').inspect(k)?.globalValue);
    for (const k of ['documents.baseUrl', 'projects.baseUrl']) savedServers.set(k, vscode.workspace.getConfiguration('contentDocs').inspect(k)?.globalValue);
    trusted = makeAuthority();
    unknown = makeAuthority('Content Docs Unknown Authority');
    sandbox = await startSandbox({ host: '127.0.0.2', key: KEY, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    front = await startTlsFront(sandbox.docsUrl, trusted);
    seoFront = await startTlsFront(sandbox.seoUrl, trusted);
    untrustedFront = await startTlsFront(sandbox.docsUrl, unknown);
    proxy = await startConnectProxy();
    // Before any request reads the store with VS Code's own reader (see the header).
    await setHttp('systemCertificatesNode', false);
    uninstall = await installAuthority(trusted);
  });

  after(async function () {
    this.timeout(60_000);
    if (savedPrompter) s.prompter.current = savedPrompter;
    logs?.dispose();
    for (const [k, v] of saved) await setHttp(k, v);
    for (const [k, v] of savedServers) await configure(k, v);
    await uninstall?.();
    await s.credentials.clearKey();
    for (const c of [front, seoFront, untrustedFront, proxy, sandbox]) await c?.close();
    trusted?.dispose();
    unknown?.dispose();
  });

  beforeEach(async () => {
    await setHttp('proxy', undefined);
    await setHttp('noProxy', undefined);
    await setHttp('proxySupport', undefined);
    sandbox.resetRequests();
    proxy.reset();
    front.connections.length = 0;
    logs.lines.length = 0;
  });

  it('with http.proxy set, signing in, listing and opening go through the proxy: TLS tunnels only, no key in clear text', async () => {
    await setHttp('proxy', proxy.url);
    await signInListOpen(front.url, seoFront.url);
    const requests = sandbox.requests.filter((r) => r.path.startsWith('/api/v1'));
    assert.ok(requests.length >= 3, `the requests reached the server: ${requests.map((r) => r.path).join(', ')}`);
    assert.ok(front.connections.length >= 1);
    const direct = front.connections.filter((c) => !proxy.carried(c.remotePort));
    assert.deepEqual(direct, [], 'every connection to the server came out of the proxy');
    const target = new URL(front.url).host;
    assert.ok(proxy.tunnels.length >= 1 && proxy.tunnels.every((t) => t.target === target), JSON.stringify(proxy.tunnels.map((t) => t.target)));
    assert.deepEqual(proxy.forwarded, [], 'nothing was sent to the proxy as plain HTTP');
    const carried = proxy.sent().toString('latin1');
    for (const form of wireForms(KEY)) assert.ok(!carried.includes(form), 'the key never passed the proxy in clear text');
    assert.doesNotMatch(carried, /authorization|bearer/i, 'no Authorization header in clear text');
    const port = new URL(proxy.url).port;
    assert.ok(logs.lines.some((l) => l.includes(`via proxy 127.0.0.1:${port}`)), `the log names the proxy: ${logs.lines.filter((l) => l.includes('[api]')).join(' | ')}`);
  });

  it('http.noProxy naming the server, and http.proxySupport "off", send the requests directly', async () => {
    await setHttp('proxy', proxy.url);
    await setHttp('noProxy', ['127.0.0.2']);
    await signInListOpen(front.url);
    assert.equal(proxy.tunnels.length, 0, 'noProxy: no tunnel');
    assert.ok(front.connections.length >= 1 && front.connections.every((c) => !proxy.carried(c.remotePort)));
    await setHttp('noProxy', undefined);
    await setHttp('proxySupport', 'off');
    proxy.reset();
    front.connections.length = 0;
    await signInListOpen(front.url);
    assert.equal(proxy.tunnels.length, 0, 'proxySupport off: no tunnel');
    assert.ok(front.connections.length >= 1 && front.connections.every((c) => !proxy.carried(c.remotePort)));
  });

  it('an http:// server on a loopback address is never sent through the proxy, which would see the key in clear text', async () => {
    await setHttp('proxy', proxy.url);
    await signInListOpen(sandbox.docsUrl, sandbox.seoUrl);
    assert.equal(proxy.tunnels.length + proxy.forwarded.length, 0, 'the proxy was not used');
    assert.ok(!proxy.sent().toString('latin1').includes(KEY));
    assert.ok(sandbox.requests.filter((r) => r.path.startsWith('/api/v1')).length >= 3);
  });

  it('a server whose authority is not in the system store: one attempt, and a message that names it and says what to do', async () => {
    const box = await signIn(untrustedFront.url);
    assert.equal(box.ok, false);
    const origin = untrustedFront.url;
    assert.match(box.problem ?? '', new RegExp(`^Couldn't check the API key: the certificate of ${origin.replace(/\./g, '\\.')} is not trusted`), box.problem);
    assert.match(box.problem ?? '', /system's certificate store/);
    assert.match(box.problem ?? '', /reload the window/i);
    assert.match(box.problem ?? '', /http\.proxy/);
    assert.doesNotMatch(box.problem ?? '', /rejectUnauthorized|NODE_TLS_REJECT_UNAUTHORIZED|strictSSL/i, 'nothing offers to turn verification off');
    // Nothing got through the untrusted front (no handshake completed): the sandbox's own record would also hold what
    // the account signed in before, at the sandbox's plain address, reads meanwhile (its views, the status bar).
    assert.deepEqual(untrustedFront.connections, [], 'nothing reached the server');
    // A read is retried after a network failure; not after this one, which a retry cannot mend.
    await s.credentials.setKey(KEY);
    const attempts = untrustedFront.attempts;
    const err = await s.api.get().listDocuments().then(
      () => assert.fail('the list succeeded'),
      (e: unknown) => e as { kind?: string; code?: string },
    );
    assert.equal(err.kind, 'certificate');
    assert.equal(untrustedFront.attempts - attempts, 1, 'one attempt');
  });

  it('a proxy that refuses connections is named in the message', async () => {
    const port = await closedPort();
    await setHttp('proxy', `http://127.0.0.1:${port}`);
    const box = await signIn(front.url);
    assert.equal(box.ok, false);
    assert.match(box.problem ?? '', new RegExp(`^Couldn't check the API key: could not connect to the proxy 127\\.0\\.0\\.1:${port}`), box.problem);
    assert.match(box.problem ?? '', /http\.proxy/);
    // Nothing got through to the server's front: the account signed in before is at the sandbox's plain loopback
    // address (never sent through a proxy), and what it reads meanwhile reaches the sandbox directly.
    assert.deepEqual(front.connections, [], 'nothing reached the server');
  });
});
