/**
 * The transport in a browser's web worker: the platform's `fetch`. Also runs on Node (which has fetch) for the
 * unit tests; there `emulateCors` makes it behave as a browser does against a server's CORS answers, so the
 * tests prove the browser's behaviour (preflight, unreadable headers, the opaque failure) without a browser.
 */
import { ApiError } from './errors';
import { l10n } from '../util/l10n';
import { tooLarge, type Transport, type TransportRequest, type TransportResponse } from './transport';

/** Response headers any CORS answer lets browser code read (the Fetch standard's safelist). The servers expose nothing more. */
const SAFELISTED_RESPONSE = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);
/** Request headers a browser sends without asking in a preflight (for the values the client sends). */
const SIMPLE_REQUEST = new Set(['accept', 'content-type']);
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface FetchTransportOptions {
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /**
   * Behave as a browser page of this origin does (for tests on Node): send the preflight, fail opaquely as
   * `TypeError: Failed to fetch` without the CORS headers a browser needs, and hide every response header the
   * server did not expose.
   */
  emulateCors?: { origin: string };
  /** The page's protocol (default: the worker's own location), for the mixed-content explanation. */
  pageProtocol?: string;
}

export class FetchTransport implements Transport {
  readonly rateLimitHeadersReadable = false;
  private readonly fetch: FetchLike;
  private waiting: Array<() => void> = [];

  constructor(private readonly options: FetchTransportOptions = {}) {
    this.fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  }

  async send(r: TransportRequest): Promise<TransportResponse> {
    // A browser decides the User-Agent itself; asking for another would only add a header to every preflight.
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) if (k.toLowerCase() !== 'user-agent') headers[k] = v;
    if (this.options.emulateCors) await this.preflight(r, headers, this.options.emulateCors.origin);
    const init: RequestInit & { cache?: string } = {
      method: r.method,
      headers: this.options.emulateCors ? { ...headers, origin: this.options.emulateCors.origin } : headers,
      body: r.body,
      signal: r.signal,
      // Never followed: a redirect's target must not receive the key (the client reports a 3xx itself).
      redirect: 'manual',
      credentials: 'omit',
      // Answers depend on the key: never from or into the browser's HTTP cache.
      cache: 'no-store',
      mode: 'cors',
    };
    const answer = this.fetch(r.url, init);
    // The browser sends it on its own threads: from the next task on, this worker only waits.
    for (const callback of this.waiting.splice(0)) setTimeout(callback, 0);
    const res = await answer;
    const emulated = this.options.emulateCors !== undefined;
    if (emulated && !allowsOrigin(res.headers, this.options.emulateCors!.origin)) {
      await res.body?.cancel().catch(() => undefined);
      throw new TypeError('Failed to fetch');
    }
    // In a browser a redirect answers as an opaque response: status 0, no headers (no Location either).
    if (res.type === 'opaqueredirect' || (emulated && res.status >= 300 && res.status < 400)) {
      await res.body?.cancel().catch(() => undefined);
      return { status: 302, headers: {}, text: '' };
    }
    const readable: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      const n = name.toLowerCase();
      if (!emulated || SAFELISTED_RESPONSE.has(n) || exposed(res.headers).has(n)) readable[n] = value;
    });
    const declared = Number(readable['content-length']);
    if (Number.isFinite(declared) && declared > r.maxBodyBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw tooLarge(res.status, declared, r.maxBodyBytes);
    }
    return { status: res.status, headers: readable, text: await readText(res, r.maxBodyBytes) };
  }

  whenWaiting(callback: () => void): () => void {
    this.waiting.push(callback);
    return () => {
      this.waiting = this.waiting.filter((c) => c !== callback);
    };
  }

  explainFailure(error: unknown, url: string): ApiError | undefined {
    // Node's fetch names the cause (ECONNREFUSED...): the common wording says it better.
    if (!(error instanceof TypeError) || (error as { cause?: { code?: unknown } }).cause?.code !== undefined) return undefined;
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return undefined;
    }
    const page = this.options.pageProtocol ?? (globalThis as { location?: { protocol?: string } }).location?.protocol;
    if (target.protocol === 'http:' && page === 'https:' && !LOOPBACK.test(target.hostname)) {
      return new ApiError(
        'network',
        l10n.t(
          "The browser blocked the request to {0}: this page is https:// and the server address is http:// (mixed content). Use the server's https:// address, or the desktop VS Code.",
          target.origin,
        ),
        { cause: error },
      );
    }
    return new ApiError(
      'network',
      target.protocol === 'http:' && page === 'https:'
        ? l10n.t(
            'Could not reach {0} from the browser. Either the server refuses browser access (its CORS settings, or a proxy in front of it that blocks OPTIONS requests), or it is not running or not reachable from here (an https:// page calling an http:// address can also be blocked as mixed content). The desktop VS Code does not need browser access: it works with this server.',
            target.origin,
          )
        : l10n.t(
            'Could not reach {0} from the browser. Either the server refuses browser access (its CORS settings, or a proxy in front of it that blocks OPTIONS requests), or it is not running or not reachable from here. The desktop VS Code does not need browser access: it works with this server.',
            target.origin,
          ),
      { cause: error },
    );
  }

  dispose(): void {
    // fetch keeps no pool of its own.
  }

  /** What a browser sends before a request that carries Authorization, and what it needs in the answer. */
  private async preflight(r: TransportRequest, headers: Record<string, string>, origin: string): Promise<void> {
    const asked = Object.keys(headers)
      .map((h) => h.toLowerCase())
      .filter((h) => !(SIMPLE_REQUEST.has(h) && (h !== 'content-type' || /^application\/x-www-form-urlencoded\b/i.test(headers[h]))))
      .sort();
    if (asked.length === 0 && ['GET', 'HEAD', 'POST'].includes(r.method)) return;
    let res: Response;
    try {
      res = await this.fetch(r.url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': r.method, ...(asked.length ? { 'access-control-request-headers': asked.join(',') } : {}) },
        signal: r.signal,
        redirect: 'manual',
      });
    } catch (e) {
      if (r.signal.aborted) throw e;
      throw new TypeError('Failed to fetch', { cause: e });
    }
    await res.body?.cancel().catch(() => undefined);
    const methods = listHeader(res.headers.get('access-control-allow-methods'));
    const allowed = listHeader(res.headers.get('access-control-allow-headers'));
    const ok =
      res.status >= 200 &&
      res.status < 300 &&
      allowsOrigin(res.headers, origin) &&
      (['GET', 'HEAD', 'POST'].includes(r.method) || methods.has(r.method.toLowerCase()) || methods.has('*')) &&
      // A wildcard never covers Authorization: it must be named.
      asked.every((h) => allowed.has(h) || (allowed.has('*') && h !== 'authorization'));
    if (!ok) throw new TypeError('Failed to fetch');
  }
}

function allowsOrigin(headers: Headers, origin: string): boolean {
  const v = headers.get('access-control-allow-origin');
  return v === '*' || v === origin;
}

function listHeader(v: string | null): Set<string> {
  return new Set((v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
}

function exposed(headers: Headers): Set<string> {
  return listHeader(headers.get('access-control-expose-headers'));
}

/** The body as UTF-8 text, refusing more than `max` bytes. */
async function readText(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done || !value) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(res.status, undefined, max);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
