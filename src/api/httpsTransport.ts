/**
 * https:// requests on Node through the `https` module as the host provides it (docs/networking.md). In VS Code's
 * extension host `https.request` is VS Code's: it sends each request directly or through the proxy its settings give
 * (`http.proxy`, `http.noProxy`, `http.proxySupport`, HTTPS_PROXY/NO_PROXY, PAC and the system's proxy, proxy sign-in)
 * and adds the system's certificates to Node's own (`http.systemCertificates`; NODE_EXTRA_CA_CERTS stays). So the
 * request is made with no `agent` and no `ca` of ours, which would turn either off; and `https.request` is looked up
 * when each request is made. In plain Node it is Node's own. Redirects are never followed (the module does not).
 */
import https = require('https');
import type { IncomingMessage } from 'http';
import { ApiError } from './errors';
import { proxyAddress } from './networkErrors';
import { SendFailure, tooLarge, type Transport, type TransportRequest, type TransportResponse } from './transport';

/** UTF-8 as a browser's fetch reads it (a leading byte-order mark is dropped), as the other transports read it. */
const utf8 = new TextDecoder('utf-8');

export class HttpsTransport implements Transport {
  readonly rateLimitHeadersReadable = true;
  private waiting: Array<() => void> = [];

  send(r: TransportRequest): Promise<TransportResponse> {
    return new Promise<TransportResponse>((resolve, reject) => {
      /** What VS Code's proxy agent said of the way it took (its 'proxy' event): the proxy, and its failure. */
      let proxy: string | undefined;
      let proxyError: unknown;
      let settled = false;
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        reject(e instanceof ApiError ? e : new SendFailure(e, proxy, proxyError));
      };
      const headers: Record<string, string> = { ...r.headers };
      if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
      const onResponse = (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > r.maxBodyBytes) {
          res.destroy();
          return fail(tooLarge(status, declared, r.maxBodyBytes));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > r.maxBodyBytes) {
            res.destroy();
            return fail(tooLarge(status, undefined, r.maxBodyBytes));
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          resolve({ status, headers: res.headers, text: utf8.decode(Buffer.concat(chunks)), proxy });
        });
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(Object.assign(new Error('The connection was closed before the answer was complete.'), { code: 'ECONNRESET' }));
        });
      };
      let req: ReturnType<typeof https.request>;
      try {
        req = https.request(r.url, { method: r.method, headers, signal: r.signal }, onResponse);
      } catch (e) {
        return fail(e);
      }
      req.on('proxy', (event: { proxy?: unknown; error?: unknown }) => {
        proxy = proxyAddress(event?.proxy);
        if (event?.error !== undefined) proxyError = event.error;
      });
      req.on('error', fail);
      // Written out: from the next turn on, this host only waits for the answer.
      req.on('finish', () => {
        for (const callback of this.waiting.splice(0)) setImmediate(callback);
      });
      req.end(r.body);
    });
  }

  whenWaiting(callback: () => void): () => void {
    this.waiting.push(callback);
    return () => {
      this.waiting = this.waiting.filter((c) => c !== callback);
    };
  }

  dispose(): void {
    // The module's connections are the host's (its globalAgent, or its proxy agent's tunnels).
  }
}
