/**
 * What the API client takes from its host: on Node, undici. The browser build (esbuild.mjs, `browser` in
 * package.json) replaces this module with ./platform.browser.ts, so undici never enters the web bundle.
 */
import type { Dispatcher } from './http';
import { UndiciTransport } from './nodeTransport';
import type { Transport } from './transport';

export const HOST: 'node' | 'browser' = 'node';

export function defaultTransport(dispatcher?: Dispatcher): Transport {
  return new UndiciTransport(dispatcher);
}

/** Added to the refusal of an http:// address of another machine (nothing to add on Node). */
export const INSECURE_HTTP_NOTE = '';
