/**
 * Types for the two undici modules the client loads directly (see src/api/http.ts). undici ships no
 * declarations for its internal paths; these borrow the package's own public types.
 */
declare module 'undici/lib/dispatcher/agent' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export = AgentClass;
}

declare module 'undici/lib/api/api-request' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.prototype.request as the package installs it: `this` is the dispatcher, opts carry origin and path. */
  function request(this: Dispatcher, opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}
