/**
 * What the API client takes from its host: on Node, the host's `https` for https:// and undici (loaded by the first
 * http:// request) for loopback http:// (src/api/nodeTransport.ts). The browser build (esbuild.mjs, `browser` in
 * package.json) replaces this module with ./platform.browser.ts, so neither enters the web bundle.
 */
import type { Dispatcher } from './http';
import { NodeTransport, undiciTransport } from './nodeTransport';
import type { Transport } from './transport';

export const HOST: 'node' | 'browser' = 'node';

/** A dispatcher given (tests, the benchmark) carries every request, https:// too; else the host's way (see NodeTransport). */
export function defaultTransport(dispatcher?: Dispatcher): Transport {
  return dispatcher ? undiciTransport(dispatcher) : new NodeTransport();
}

/** Added to the refusal of an http:// address of another machine (nothing to add on Node). */
export function insecureHttpNote(): string {
  return '';
}
