/**
 * The parts of undici the client uses, loaded by their own paths: the connection pool (Agent, which brings
 * the HTTP/1.1 client and its llhttp parser) and `request`. The package's entry point also builds fetch,
 * WebSocket, EventSource, the cache stores and the mock agents when it loads, which roughly doubles the size
 * and load time of dist/api.js for nothing the client calls. test/unit/undiciPaths.test.ts fails when an
 * undici update moves these paths.
 */
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent';
import undiciRequest from 'undici/lib/api/api-request';

export { Agent };
export type { Dispatcher };

/** The deep paths above, for the test that checks they still resolve after an undici update. */
export const UNDICI_PATHS = ['undici/lib/dispatcher/agent', 'undici/lib/api/api-request'] as const;

export interface RequestOptions {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  dispatcher: Dispatcher;
}

/**
 * `undici.request(url, options)` without the package's entry point: splits the URL into origin and path the
 * way the entry point does and calls the request API with the given dispatcher. Redirects are not followed
 * (no redirect interceptor is installed; the client reports a 3xx itself).
 */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  const { dispatcher, ...rest } = options;
  return undiciRequest.call(dispatcher, { ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
}
