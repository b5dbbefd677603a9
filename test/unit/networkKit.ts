/**
 * The network a writer's company puts between VS Code and the server, made real on loopback addresses for the
 * networking tests (unit and integration):
 *
 *  - makeAuthority(): a certificate authority of the test's own (openssl, as on Debian) and a server certificate it
 *    signed for 127.0.0.1, 127.0.0.2 and localhost;
 *  - startTlsFront(): the sandbox served over TLS with that certificate, as a web server in front of the application
 *    (it decrypts and passes the bytes on), recording every connection it accepts and every handshake that failed;
 *  - startConnectProxy(): an HTTP proxy on 127.0.0.1 that logs what passes through it: the CONNECT tunnels it opens
 *    (and the bytes the client sent into them, which must be TLS, never the key), and any plain-HTTP request it is
 *    asked to forward (which would carry the key in clear text).
 *
 * Everything binds loopback addresses only. Nothing here depends on VS Code.
 */
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';

export interface Authority {
  /** A name for messages and files: `content-docs-test-<random>`. */
  readonly name: string;
  /** The authority's certificate (PEM): what a system store, NODE_EXTRA_CA_CERTS or a `ca` option would hold. */
  readonly caPem: string;
  /** The server's certificate (PEM), signed by the authority, and its key. */
  readonly certPem: string;
  readonly keyPem: string;
  /** The folder holding the files (removed by dispose(), with the authority's private key). */
  readonly dir: string;
  dispose(): void;
}

/**
 * A new certificate authority and a server certificate it signed (for 127.0.0.1, 127.0.0.2 and localhost, valid two
 * days), made with openssl. The authority's private key is deleted once the server certificate is signed: a copy of
 * the authority's certificate left behind (a crashed run) can sign nothing.
 */
export function makeAuthority(label = 'Content Docs Test Authority'): Authority {
  const name = `content-docs-test-${crypto.randomBytes(6).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const file = (f: string) => path.join(dir, f);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl(
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-keyout', file('ca.key'), '-out', file('ca.crt'),
    '-subj', `/O=Content Docs tests/CN=${label} ${name.slice(-6)}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.2');
  fs.writeFileSync(
    file('server.ext'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.2,IP:127.0.0.1,DNS:localhost\n',
  );
  openssl(
    'x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-CAcreateserial',
    '-days', '2', '-extfile', file('server.ext'), '-out', file('server.crt'),
  );
  fs.rmSync(file('ca.key'));
  const authority: Authority = {
    name,
    caPem: fs.readFileSync(file('ca.crt'), 'utf8'),
    certPem: fs.readFileSync(file('server.crt'), 'utf8'),
    keyPem: fs.readFileSync(file('server.key'), 'utf8'),
    dir,
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  return authority;
}

export interface TlsFront {
  /** `https://<host>:<port>`: the sandbox's documents server over TLS. */
  readonly url: string;
  /** The connections it accepted (after a successful handshake): the client's address and port. */
  readonly connections: Array<{ remoteAddress: string; remotePort: number }>;
  /** Handshakes that failed (the client refused the certificate, or spoke no TLS): reported a moment after the client's error. */
  readonly failedHandshakes: string[];
  /** TCP connections accepted, whatever became of them: the client's attempts. */
  readonly attempts: number;
  close(): Promise<void>;
}

/** Serves `target` (an http://127.x.x.x:port address) over TLS on `host` with the authority's server certificate. */
export async function startTlsFront(target: string, authority: Authority, host = '127.0.0.2'): Promise<TlsFront> {
  const to = new URL(target);
  const connections: TlsFront['connections'] = [];
  const failedHandshakes: string[] = [];
  const sockets = new Set<net.Socket>();
  let attempts = 0;
  const server = tls.createServer({ key: authority.keyPem, cert: authority.certPem }, (clear) => {
    connections.push({ remoteAddress: clear.remoteAddress ?? '', remotePort: clear.remotePort ?? 0 });
    const upstream = net.connect(Number(to.port), to.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    clear.pipe(upstream).pipe(clear);
    const end = () => {
      clear.destroy();
      upstream.destroy();
    };
    clear.on('error', end);
    upstream.on('error', end);
    clear.on('close', end);
  });
  server.on('connection', (s: net.Socket) => {
    attempts++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('tlsClientError', (e: Error & { code?: string }) => failedHandshakes.push(e.code ?? e.message));
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `https://${host}:${port}`,
    connections,
    failedHandshakes,
    get attempts() {
      return attempts;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

export interface ProxyLog {
  /** CONNECT tunnels: the target asked for, the request's headers, the proxy's own port toward the target. */
  readonly tunnels: Array<{ target: string; head: string; upstreamLocalPort: number }>;
  /** Plain-HTTP requests it was asked to forward (absolute-form request lines), with their whole head. */
  readonly forwarded: Array<{ requestLine: string; head: string }>;
  /** Every byte clients sent through it (heads and tunnelled data), for searching: never the key in clear. */
  sent(): Buffer;
  /** Whether a connection to a target came out of this proxy (by the port it connected from). */
  carried(remotePort: number): boolean;
}

export interface ConnectProxy extends ProxyLog {
  /** `http://127.0.0.1:<port>`: the value for `http.proxy` or HTTPS_PROXY. */
  readonly url: string;
  reset(): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy on 127.0.0.1: CONNECT opens a tunnel to the target (any loopback address); an absolute-form request
 * (`GET http://host/path`) is forwarded as a plain-HTTP proxy does. It logs both; it answers 403 to a target that is
 * not a loopback address, so a test can never send anything off this machine.
 */
export async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnels: ProxyLog['tunnels'] = [];
  const forwarded: ProxyLog['forwarded'] = [];
  const upstreamPorts = new Set<number>();
  let bytes: Buffer[] = [];
  let size = 0;
  const record = (b: Buffer) => {
    if (size > 4 * 1024 * 1024) return;
    bytes.push(b);
    size += b.length;
  };
  const sockets = new Set<net.Socket>();
  const loopback = (h: string) => /^127\.\d+\.\d+\.\d+$/.test(h) || h === 'localhost' || h === '[::1]' || h === '::1';
  const server = net.createServer((client) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      record(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      const text = head.subarray(0, end).toString('latin1');
      const rest = head.subarray(end + 4);
      const [method, target] = text.split('\r\n')[0].split(' ');
      if (method === 'CONNECT') {
        const cut = target.lastIndexOf(':');
        const host = target.slice(0, cut).replace(/^\[|\]$/g, '');
        if (!loopback(host)) return void client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
        const upstream = net.connect(Number(target.slice(cut + 1)), host, () => {
          upstreamPorts.add(upstream.localPort ?? 0);
          tunnels.push({ target, head: text, upstreamLocalPort: upstream.localPort ?? 0 });
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (rest.length) upstream.write(rest);
          client.on('data', record);
          client.pipe(upstream).pipe(client);
        });
        watch(upstream, client);
        return;
      }
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return void client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      }
      forwarded.push({ requestLine: text.split('\r\n')[0], head: text });
      if (!loopback(url.hostname)) return void client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      const upstream = net.connect(Number(url.port || 80), url.hostname.replace(/^\[|\]$/g, ''), () => {
        upstreamPorts.add(upstream.localPort ?? 0);
        upstream.write(head);
        client.on('data', record);
        client.pipe(upstream).pipe(client);
      });
      watch(upstream, client);
    };
    client.on('data', onData);
    client.on('error', () => client.destroy());
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
  });
  const watch = (upstream: net.Socket, client: net.Socket) => {
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    forwarded,
    sent: () => Buffer.concat(bytes),
    carried: (remotePort) => upstreamPorts.has(remotePort),
    reset: () => {
      tunnels.length = 0;
      forwarded.length = 0;
      upstreamPorts.clear();
      bytes = [];
      size = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Every form a key could take on the wire or in a log: as is, URL-encoded, base64. */
export function wireForms(key: string): string[] {
  return [key, encodeURIComponent(key), Buffer.from(key).toString('base64')];
}
