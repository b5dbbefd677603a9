/**
 * The one place the API client's HTTP differs between hosts: undici on Node (src/api/nodeTransport.ts), the
 * platform's fetch in a browser's web worker (src/api/fetchTransport.ts). Everything above a transport — URLs,
 * keys, pacing, retries, schemas, errors — is shared. A transport sends one request, reads at most
 * `maxBodyBytes` of the answer and hands back status, readable headers and text; it never follows redirects.
 */
import { ApiError } from './errors';
import { l10n } from '../util/l10n';

export interface TransportRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  maxBodyBytes: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case names; only what this host lets the client read. */
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The proxy the host sent the request through (`host:port`, never its credentials), when it says so. */
  proxy?: string;
}

/**
 * A request that got no answer, with what the host said of the way it took: the proxy it went through (or tried),
 * and that proxy's own failure (the host's proxy agent reports a proxy it could not reach apart from the request's
 * error, which then only says that no proxy worked).
 */
export class SendFailure extends Error {
  constructor(
    override readonly cause: unknown,
    readonly proxy?: string,
    readonly proxyError?: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'SendFailure';
  }
}

export interface Transport {
  /**
   * Whether answers' X-RateLimit-* and Retry-After can be read. A browser cannot (the servers expose no headers
   * to CORS): then pacing relies on the client's own count, and a 429 backs off on a fixed, capped schedule.
   */
  readonly rateLimitHeadersReadable: boolean;
  send(request: TransportRequest): Promise<TransportResponse>;
  /**
   * A failure that got no answer at all, in plain words for this host (undefined: the common wording, from the
   * error's code). Never called for timeouts or cancellations.
   */
  explainFailure?(error: unknown, url: string): ApiError | undefined;
  /**
   * Calls `callback` once, as soon as a request has left and the host only waits for its answer (Node: the first
   * connection is open and its request written; a browser: fetch was called), so that work the answer will need
   * can use that wait instead of following it. Never called when no request gets that far. Returns what cancels
   * it (a client calls that when disposed: the transport, or the dispatcher under it, may be shared and outlive it).
   */
  whenWaiting(callback: () => void): () => void;
  dispose(): void;
}

export function tooLarge(status: number, bytes: number | undefined, max: number): ApiError {
  return new ApiError(
    'badResponse',
    bytes !== undefined
      ? l10n.t("The server's answer is too large ({0} KB, HTTP {1}).", Math.round(bytes / 1024), status)
      : l10n.t("The server's answer is too large (over {0} KB, HTTP {1}).", Math.round(max / 1024), status),
    { status },
  );
}
