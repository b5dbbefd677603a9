/**
 * http:// requests on Node, which the client allows only to a loopback address (a server on this machine), directly
 * through undici's connection pool (loaded by deep paths, src/api/http.ts): never through a proxy, which would see the
 * key in clear text and cannot reach this machine's loopback address anyway. A bundle of its own (dist/http.js,
 * esbuild.mjs), loaded by the first http:// request (src/api/nodeTransport.ts): a writer whose servers are https://
 * never loads undici.
 */
import { Agent, request, type Dispatcher } from './http';
// Types only: this bundle must not carry a copy of the client's errors. An ApiError made here would be another class
// than the one the client knows (`instanceof` fails, so "too large" read as "could not reach the server") and its
// words would miss the translations handed to the client's copy. The caller gives what makes the error.
import type { tooLarge as TooLarge, Transport, TransportRequest, TransportResponse } from './transport';

/** UTF-8 as a browser's fetch reads it (a leading byte-order mark is dropped), so both builds read one answer alike. */
const utf8 = new TextDecoder('utf-8');

export class UndiciTransport implements Transport {
  readonly rateLimitHeadersReadable = true;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;

  /** `tooLarge`: the client's own (src/api/transport.ts), passed in by src/api/nodeTransport.ts. */
  constructor(
    private readonly tooLarge: typeof TooLarge,
    dispatcher?: Dispatcher,
  ) {
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
      throw this.tooLarge(res.statusCode, declared, r.maxBodyBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > r.maxBodyBytes) {
        res.body.destroy();
        throw this.tooLarge(res.statusCode, undefined, r.maxBodyBytes);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, headers: res.headers, text: utf8.decode(Buffer.concat(chunks)) };
  }

  dispose(): void {
    if (this.ownsDispatcher) void this.dispatcher.close().catch(() => undefined);
  }
}
