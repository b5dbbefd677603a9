/**
 * The transports on Node (desktop, Remote-SSH, code-server; docs/networking.md): https:// through the host's `https`
 * module, so that VS Code's proxy and certificate settings apply (src/api/httpsTransport.ts); http://, which the
 * client allows only to a loopback address, directly through undici's connection pool (loaded by deep paths,
 * src/api/http.ts): never through a proxy, which would see the key in clear text and cannot reach this machine's
 * loopback address anyway.
 */
import { Agent, request, type Dispatcher } from './http';
import { HttpsTransport } from './httpsTransport';
import { tooLarge, type Transport, type TransportRequest, type TransportResponse } from './transport';

/** UTF-8 as a browser's fetch reads it (a leading byte-order mark is dropped), so both builds read one answer alike. */
const utf8 = new TextDecoder('utf-8');

export class UndiciTransport implements Transport {
  readonly rateLimitHeadersReadable = true;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;

  constructor(dispatcher?: Dispatcher) {
    this.ownsDispatcher = !dispatcher;
    this.dispatcher = dispatcher ?? new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 6, allowH2: false });
  }

  whenWaiting(callback: () => void): () => void {
    // undici emits 'connect' just before it writes the requests queued for the new connection: the next turn of
    // the event loop finds them sent.
    const onConnect = () => setImmediate(callback);
    this.dispatcher.once('connect', onConnect);
    return () => this.dispatcher.off('connect', onConnect);
  }

  async send(r: TransportRequest): Promise<TransportResponse> {
    const res = await request(r.url, {
      method: r.method,
      headers: r.headers,
      body: r.body,
      signal: r.signal,
      dispatcher: this.dispatcher,
    });
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > r.maxBodyBytes) {
      res.body.destroy();
      throw tooLarge(res.statusCode, declared, r.maxBodyBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > r.maxBodyBytes) {
        res.body.destroy();
        throw tooLarge(res.statusCode, undefined, r.maxBodyBytes);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, headers: res.headers, text: utf8.decode(Buffer.concat(chunks)) };
  }

  dispose(): void {
    if (this.ownsDispatcher) void this.dispatcher.close().catch(() => undefined);
  }
}

/** The default transport on Node: https:// the host's way (proxy, system certificates), http:// (loopback) directly. */
export class NodeTransport implements Transport {
  readonly rateLimitHeadersReadable = true;
  private readonly secure = new HttpsTransport();
  private readonly direct = new UndiciTransport();

  send(r: TransportRequest): Promise<TransportResponse> {
    return new URL(r.url).protocol === 'https:' ? this.secure.send(r) : this.direct.send(r);
  }

  whenWaiting(callback: () => void): () => void {
    let called = false;
    const stops: Array<() => void> = [];
    const stop = () => {
      for (const s of stops.splice(0)) s();
    };
    const once = () => {
      if (called) return;
      called = true;
      stop();
      callback();
    };
    stops.push(this.secure.whenWaiting(once), this.direct.whenWaiting(once));
    return stop;
  }

  dispose(): void {
    this.secure.dispose();
    this.direct.dispose();
  }
}
