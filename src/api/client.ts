import type { Dispatcher } from './http';
import { ApiError, firstSentence, summarizeFields } from './errors';
import { defaultTransport, insecureHttpNote } from './platform';
import type { Schemas, ZodSchema } from './schemas';
import type * as SchemasModule from './schemas';
import { SendFailure, type Transport, type TransportResponse } from './transport';
import { describeNetworkFailure, proxySignInRequired } from './networkErrors';
import { serverTrim } from './validate';
import { l10n } from '../util/l10n';

export type Service = 'documents' | 'projects';

/**
 * The response schemas' module (zod), loaded while the session's first request waits for its answer (prepareSchemas,
 * see HttpClient), or by the first answer: the client itself sends the first request without it. esbuild.mjs maps this
 * require to the bundle dist/schemas.js (a runtime require of the file beside dist/api.js); compiled by tsc (the
 * tests), it is the module itself. Measured with npm run bench: zod was half of dist/api.js, 72 KB, whose require()
 * came before the first request of the first open of the views.
 */
function schemasModule(): typeof SchemasModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./schemas') as typeof SchemasModule;
}
const schemas = (): Schemas => schemasModule().schemas();
const prepareSchemas = (): boolean => schemasModule().prepareSchemas();

/**
 * Whose request it is, for the pacing of a server's requests per minute: `user` (the default), one the writer asked
 * for (a click, a typed query, a save), goes ahead of every `background` one waiting (counts, backup pages,
 * prefetches); background work also leaves part of the server's minute to the writer.
 *
 * A read the writer asks for again within the minute (the same address: a Refresh reloading every group a view shows,
 * a document opened again) goes after the writer's new asks and, like background work, leaves them part of the
 * minute: measured with npm run bench, a query typed into Go to Document while four Refreshes reloaded fifteen open
 * groups waited 34 s for the next minute behind those reloads.
 */
export type Priority = 'user' | 'background';

/** How one call is made: its cancellation and its priority. */
export interface CallOptions {
  signal?: AbortSignal;
  priority?: Priority;
}

/** A call's last argument: a signal alone (as before), or the call's options. */
export type Call = AbortSignal | CallOptions;

/** The options of a call given as a signal alone or as options. */
export function callOptions(call: Call | undefined): CallOptions {
  if (call === undefined) return {};
  const maybe = call as Partial<AbortSignal>;
  return typeof maybe.aborted === 'boolean' && typeof maybe.addEventListener === 'function' ? { signal: call as AbortSignal } : (call as CallOptions);
}
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface ClientOptions {
  /** Base address of the documents server, e.g. https://example.com (the client adds /api/v1). */
  documentsUrl: string;
  /** Base address of the projects (SEO) server. */
  projectsUrl: string;
  /** Returns the API key; called for every request so a changed key is used at once. */
  getKey: () => Promise<string | undefined> | string | undefined;
  /** Per-request timeout for reads and small writes (ms). Default 30 s. */
  timeoutMs?: number;
  /** Timeout for creating a document: the server generates text while the request is open. Default 180 s. */
  storeTimeoutMs?: number;
  /** How many times a read is retried after 429, 502/503/504 or a network error. Default 2. */
  retries?: number;
  /** A 429 asking to wait longer than this (s) is not waited out but reported. Default 10. */
  maxRetryWaitSeconds?: number;
  /** Bodies larger than this are refused. Default 8 MiB. */
  maxBodyBytes?: number;
  log?: (level: LogLevel, line: string) => void;
  /** How requests travel (default: undici on Node, fetch in a browser; see src/api/platform.ts). */
  transport?: Transport;
  /** The undici dispatcher of the default Node transport. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  /** Keep under the servers' per-minute limit by pacing requests on our side. Default true. */
  pacing?: boolean;
  /**
   * Whether answers' X-RateLimit-* headers can be read (default: what the transport says). Then an answer without
   * them means the server does not throttle, and nothing is paced. A transport that cannot read them (a browser:
   * the servers expose no headers to CORS) paces by its own count at the servers' usual 60 a minute, and at 30 a
   * minute on the projects server, which may count each request twice.
   */
  rateLimitHeadersReadable?: boolean;
  /** Observes each HTTP exchange (tests and the benchmark count requests with it). */
  onExchange?: (e: Exchange) => void;
  /**
   * Called once, while the client's first request waits for its answer (after the client has built its response
   * schemas in that wait): for work the first answer will need, such as the formatters its rows use. An exception
   * it throws is logged (as a warning) and goes no further.
   */
  onFirstWait?: () => void;
}

export interface Exchange {
  service: Service;
  method: string;
  path: string;
  status: number | undefined;
  ms: number;
  attempt: number;
  /** Whose request it was (see Priority): a background one (a count, a backup page) is nobody's wait on screen. */
  priority: Priority;
}

export interface RequestSpec<T> {
  service: Service;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below /api/v1, already percent-encoded: `/documents/12`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  form?: Record<string, string | number | undefined>;
  /** The answer's schema, picked from the response schemas (built on first use). */
  schema: (s: Schemas) => ZodSchema<T>;
  signal?: AbortSignal;
  /** Default `user`. */
  priority?: Priority;
  timeoutMs?: number;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** Which server address a refusal is about: the documents (content service) one or the projects (SEO) one. */
export type AddressOf = 'documents' | 'projects';

/**
 * An address named by the caller in English ("documents server address (CONTENT_DOCS_DOCUMENTS_URL)"): for callers
 * outside VS Code, which speak English only (the MCP server names its environment variable). VS Code's callers name
 * an {@link AddressOf}, whose sentences are translated.
 */
export interface NamedAddress {
  readonly label: string;
}

/** Why checkBaseUrl refuses an address, in English, for a {@link NamedAddress}. */
function namedRefusal(label: string, why: 'invalid' | 'credentials' | 'query' | 'http' | 'scheme', value: string): string {
  switch (why) {
    case 'invalid':
      return `The ${label} "${value}" is not a valid URL.`;
    case 'credentials':
      return `The ${label} must not contain a user name or password.`;
    case 'query':
      return `The ${label} must not contain a query or fragment.`;
    case 'http':
      return `The ${label} ${value} uses http:// to another machine, which would send the API key unencrypted. Use https://, or http:// only for localhost / 127.0.0.1.`;
    case 'scheme':
      return `The ${label} must start with https:// (got ${value}).`;
  }
}

/** Why checkBaseUrl refuses an address, one whole sentence per address. */
function addressRefusal(which: AddressOf | NamedAddress, why: 'invalid' | 'credentials' | 'query' | 'http' | 'scheme', value: string): string {
  if (typeof which === 'object') return namedRefusal(which.label, why, value);
  const documents = which === 'documents';
  switch (why) {
    case 'invalid':
      return documents ? l10n.t('The server address "{0}" is not a valid URL.', value) : l10n.t('The projects server address "{0}" is not a valid URL.', value);
    case 'credentials':
      return documents ? l10n.t('The server address must not contain a user name or password.') : l10n.t('The projects server address must not contain a user name or password.');
    case 'query':
      return documents ? l10n.t('The server address must not contain a query or fragment.') : l10n.t('The projects server address must not contain a query or fragment.');
    case 'http':
      return documents
        ? l10n.t('The server address {0} uses http:// to another machine, which would send the API key unencrypted. Use https://, or http:// only for localhost / 127.0.0.1.', value)
        : l10n.t('The projects server address {0} uses http:// to another machine, which would send the API key unencrypted. Use https://, or http:// only for localhost / 127.0.0.1.', value);
    case 'scheme':
      return documents ? l10n.t('The server address must start with https:// (got {0}).', value) : l10n.t('The projects server address must start with https:// (got {0}).', value);
  }
}

/**
 * Checks that a base URL may receive the key: https anywhere, http only to this machine.
 * Returns the normalized base (no trailing slash).
 */
export function checkBaseUrl(raw: string, which: AddressOf | NamedAddress = 'documents'): string {
  let url: URL;
  try {
    url = new URL(String(raw).trim());
  } catch {
    throw new ApiError('insecure', addressRefusal(which, 'invalid', raw));
  }
  if (url.username || url.password) throw new ApiError('insecure', addressRefusal(which, 'credentials', ''));
  if (url.search || url.hash) throw new ApiError('insecure', addressRefusal(which, 'query', ''));
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw new ApiError('insecure', `${addressRefusal(which, 'http', url.origin)}${insecureHttpNote()}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApiError('insecure', addressRefusal(which, 'scheme', url.protocol));
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function cancelled(): ApiError {
  return new ApiError('cancelled', l10n.t('The request was cancelled.'));
}

/** One header's value (the first, if it came more than once). */
function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Retry-After as seconds: a number of seconds (what Laravel sends) or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Record<string, string | string[] | undefined>, now = Date.now()): number | undefined {
  const v = header(headers, 'retry-after')?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : undefined;
}

/**
 * The wait before retry `attempt + 1` after a 429 that did not say how long to wait (no Retry-After):
 * 2, 4, 8 s, then 10 s, never more than `maxWaitSeconds`.
 */
export function rateLimitBackoffSeconds(attempt: number, maxWaitSeconds: number): number {
  return Math.min(2 * 2 ** (attempt - 1), 10, maxWaitSeconds);
}

/**
 * Where a redirect points, for a message: scheme, host and path only (credentials, query and fragment
 * dropped: they may carry tokens), at most 200 characters.
 */
export function redirectTarget(url: URL): string {
  const shown = url.protocol === 'http:' || url.protocol === 'https:' ? `${url.protocol}//${url.host}${url.pathname}` : `a ${url.protocol} address`;
  return shown.length > 200 ? `${shown.slice(0, 199)}…` : shown;
}

/** One request the pacer counts: when it started, then (once answered or failed) when its answer came. */
interface Slot {
  at: number;
  /** A writer's new ask (not background work, not a read asked again): what the writer's reserve is sized by. */
  writer: boolean;
}

/**
 * Client-side pacing: a sliding one-minute window of our own requests, per server. A request counts from its start
 * until its answer comes, then from the answer: the server counted it somewhere between, and a request can wait in
 * the connection pool before it leaves. A 429's Retry-After says when the server's window ends: the server counts
 * afresh from then on, and so does this count. Background work (see Priority) starts only while the writer's reserve
 * stays free: as many requests as the writer asked for in the last minute, at least a twelfth of the minute and at
 * most a third. A writer who is away leaves background work most of the minute (a backup of 10,000 documents, 100
 * pages, in about 100 s at 60 a minute instead of 150); one who works keeps as much room as they have been using.
 */
class Pacer {
  private slots: Slot[] = [];
  /** Until an answer says otherwise, the servers' usual limit (or less, when that is all that can be assumed). */
  private limit: number;
  constructor(
    /** The limit to assume when an answer carries no X-RateLimit-Limit (throttling off, or headers unreadable). */
    private readonly withoutHeaders: number,
  ) {
    this.limit = Math.min(60, withoutHeaders);
  }

  private remaining: number | undefined;
  private remainingAt = 0;
  /** When the server said its window ends (from a 429's Retry-After), epoch ms. */
  private resetAt: number | undefined;
  /** When the window of the last 429 ends (its Retry-After), epoch ms: requests started before then are not counted after it. */
  private windowEnds = 0;

  /**
   * Learns from an answer's headers. A server with throttling switched off sends no X-RateLimit-* headers:
   * then only our own count paces, and a count the server reported earlier is dropped rather than counted
   * down to a wait the server never asked for.
   */
  observe(headers: Record<string, string | string[] | undefined>, status: number): void {
    const rawLimit = header(headers, 'x-ratelimit-limit');
    const limit = Number(rawLimit);
    if (rawLimit !== undefined && Number.isFinite(limit) && limit > 0) this.limit = limit;
    else if (rawLimit === undefined) this.limit = this.withoutHeaders;
    const rawRemaining = header(headers, 'x-ratelimit-remaining');
    const remaining = Number(rawRemaining);
    if (rawRemaining !== undefined && rawRemaining.trim() !== '' && Number.isFinite(remaining)) {
      this.remaining = remaining;
      this.remainingAt = Date.now();
      this.resetAt = undefined;
    } else {
      this.remaining = undefined;
      this.resetAt = undefined;
    }
    const retryAfter = retryAfterSeconds(headers);
    if (retryAfter !== undefined) {
      this.resetAt = Date.now() + retryAfter * 1000;
      if (status === 429) this.windowEnds = this.resetAt;
    }
  }

  /**
   * The part of the server's minute background work leaves to the writer: as many requests as the writer's new asks
   * counted now, at least a twelfth of the minute (a query typed while the writer was away goes at once) and at most
   * a third. Called once the slots of the minute are the current ones (see delay).
   */
  private reserve(): number {
    if (!Number.isFinite(this.limit)) return 0;
    const writer = this.slots.filter((s) => s.writer).length;
    return Math.min(Math.ceil(this.limit / 3), Math.max(Math.ceil(this.limit / 12), writer));
  }

  /** How long to wait before the next request of this priority may start. */
  delay(now = Date.now(), priority: Priority = 'user'): number {
    // The requests of the last minute, less those before the end of a 429's wait once it has passed: the server no longer counts them.
    const from = now >= this.windowEnds ? this.windowEnds : 0;
    this.slots = this.slots.filter((s) => now - s.at < 60_000 && s.at >= from);
    // Leave one request of headroom for another window or tool sharing the key; background work, the writer's reserve more.
    const budget = Math.max(1, this.limit - 1);
    const allowed = priority === 'user' ? budget : Math.max(1, budget - this.reserve());
    if (this.slots.length >= allowed) {
      const times = this.slots.map((s) => s.at).sort((a, b) => a - b);
      const wait = times[times.length - allowed] + 60_000 - now + 5;
      // Before that end, the count holds a request no longer than the server asked (a retry may wake a moment early).
      return now < this.windowEnds ? Math.min(wait, this.windowEnds - now + 5) : wait;
    }
    const floor = priority === 'user' ? 0 : this.reserve();
    if (this.remaining !== undefined && this.remaining <= floor && now - this.remainingAt < 60_000 && this.slots.length > 0) {
      // The server said when its window ends: wait that long, not a whole minute.
      if (this.resetAt !== undefined) return this.resetAt > now ? this.resetAt - now + 5 : 0;
      return Math.min(...this.slots.map((s) => s.at)) + 60_000 - now + 5;
    }
    return 0;
  }

  /** A request starts: counted from now until its answer (see settle). `writer`: a writer's new ask (see reserve). */
  started(now = Date.now(), writer = true): Slot {
    const slot = { at: now, writer };
    this.slots.push(slot);
    if (this.remaining !== undefined) this.remaining--;
    return slot;
  }

  /** The request's answer (or failure) came: it counts from now. */
  settle(slot: Slot, now = Date.now()): void {
    slot.at = Math.max(slot.at, now);
  }

  /** After a 429 whose wait could not be read (a browser): until then the next request waits. */
  private heldUntil = 0;
  /** Such 429s reported in a row, with no other answer between: each one doubles the wait. */
  private limitedInARow = 0;

  /** A 429 that could not say how long to wait was reported: hold the next requests back 2, 4, 8, then 10 s. */
  holdAfterRateLimit(maxWaitSeconds: number, now = Date.now()): void {
    this.limitedInARow++;
    this.heldUntil = now + rateLimitBackoffSeconds(this.limitedInARow, Math.max(1, maxWaitSeconds)) * 1000;
  }

  /** An answer that is no 429: the server takes requests again. */
  answered(): void {
    this.limitedInARow = 0;
    this.heldUntil = 0;
  }

  /** How long to wait before the next request of this priority may start: the count's pacing, or a hold after a 429. */
  wait(now = Date.now(), priority: Priority = 'user'): number {
    return Math.max(this.delay(now, priority), this.heldUntil - now);
  }
}

/** How urgent a request is; a writer's read joining a background one that waits makes it the writer's. */
interface Urgency {
  priority: Priority;
  /** A writer's read of an address asked for less than a minute before (see Priority): after new asks, within the background share. */
  again?: boolean;
}

/** The pacing class of a request: 0, a writer's new ask; 1, a writer's read asked again; 2, background work. */
function rankOf(u: Urgency): number {
  return u.priority === 'background' ? 2 : u.again ? 1 : 0;
}

/** What the pacer allows a request: the writer's whole share, or the part left when the writer's reserve is kept. */
function shareOf(u: Urgency): Priority {
  return rankOf(u) === 0 ? 'user' : 'background';
}

/** A request waiting for its turn in a server's pacing queue. */
interface Waiter {
  urgency: Urgency;
  /** Arrival order: first come, first served within a priority. */
  seq: number;
  go: (slot: Slot) => void;
  log: (level: LogLevel, line: string) => void;
  /** Whether the wait was logged already (once per request). */
  logged?: boolean;
}

/** A server's pacing, shared by its clients: the count, the requests waiting their turn, and the loop that lets them go. */
interface SharedPacer {
  pacer: Pacer;
  waiting: Waiter[];
  seq: number;
  /** The addresses the writer read in the last minute, and when each was last asked for (see Priority). */
  asked: Map<string, number>;
  /** Whether the loop runs; `wake` cuts its current wait short (a request arrived that may go first, or one left). */
  pumping: boolean;
  wake?: AbortController;
  users: number;
}

/** The next to go: the writer's new asks, then the reads asked again, then background work, each in arrival order. */
function nextWaiter(waiting: readonly Waiter[]): Waiter {
  let best = waiting[0];
  for (const w of waiting) {
    const rank = (x: Waiter) => rankOf(x.urgency);
    if (rank(w) < rank(best) || (rank(w) === rank(best) && w.seq < best.seq)) best = w;
  }
  return best;
}

/** How long an address counts as asked for: the servers' window. */
const ASKED_AGAIN_MS = 60_000;

/** Whether the writer read `url` in the last minute; records this read. Background reads are not the writer's asks. */
function askedAgain(shared: SharedPacer, url: string, priority: Priority, now = Date.now()): boolean {
  if (priority !== 'user') return false;
  for (const [u, at] of shared.asked) {
    if (now - at < ASKED_AGAIN_MS) break;
    shared.asked.delete(u);
  }
  const before = shared.asked.get(url);
  shared.asked.delete(url);
  shared.asked.set(url, now);
  return before !== undefined && now - before < ASKED_AGAIN_MS;
}

/** Lets the waiting requests go, one at a time, each when the pacer allows its priority (one loop per server). */
async function pump(shared: SharedPacer, service: Service): Promise<void> {
  if (shared.pumping) {
    shared.wake?.abort();
    return;
  }
  shared.pumping = true;
  try {
    while (shared.waiting.length) {
      const next = nextWaiter(shared.waiting);
      const wait = shared.pacer.wait(Date.now(), shareOf(next.urgency));
      if (wait <= 0) {
        shared.waiting.splice(shared.waiting.indexOf(next), 1);
        next.go(shared.pacer.started(Date.now(), rankOf(next.urgency) === 0));
        continue;
      }
      if (!next.logged) {
        next.logged = true;
        const why = next.urgency.priority === 'background' ? ' (background work, behind yours)' : next.urgency.again ? ' (asked again within the minute, behind new requests)' : '';
        next.log('info', `[api] pacing ${service} requests: waiting ${wait} ms to stay under the rate limit${why}`);
      }
      const wake = new AbortController();
      shared.wake = wake;
      let woken = false;
      try {
        await sleep(wait, wake.signal);
      } catch {
        woken = true;
      }
      shared.wake = undefined;
      // The wait the pacer asked for is over: the request it was for goes, as long as none went ahead of it meanwhile.
      // Woken early (a request arrived that may go first, or one left), the loop looks again.
      if (!woken && shared.waiting.includes(next) && nextWaiter(shared.waiting) === next) {
        shared.waiting.splice(shared.waiting.indexOf(next), 1);
        next.go(shared.pacer.started(Date.now(), rankOf(next.urgency) === 0));
      }
    }
  } finally {
    shared.pumping = false;
  }
}

/**
 * The pacers in use, one per server origin and service: the servers count requests per client address, whatever
 * the key (CONTRACT.md, transport), so every client of one origin (two accounts on one server) shares one count and
 * one queue. Kept while a client uses it.
 */
const sharedPacers = new Map<string, SharedPacer>();

/** The shared pacer of a server (made for its first client): released when the client is disposed. */
function sharePacer(service: Service, url: string, withoutHeaders: number): { entry: SharedPacer; release: () => void } {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = url;
  }
  const key = `${service} ${withoutHeaders} ${origin}`;
  let entry = sharedPacers.get(key);
  if (!entry) sharedPacers.set(key, (entry = { pacer: new Pacer(withoutHeaders), waiting: [], seq: 0, asked: new Map(), pumping: false, users: 0 }));
  entry.users++;
  const kept = entry;
  let released = false;
  return {
    entry,
    release: () => {
      if (released) return;
      released = true;
      if (--kept.users === 0 && sharedPacers.get(key) === kept) sharedPacers.delete(key);
    },
  };
}

type RawResponse = TransportResponse;

export class HttpClient {
  private readonly transport: Transport;
  private readonly ownsTransport: boolean;
  /** Each server's pacer and pacing queue, shared with the other clients of its origin (see sharedPacers). */
  private readonly pacers: Record<Service, SharedPacer>;
  private readonly releasePacers: () => void;
  /** Whether answers' rate-limit headers can be read (not in a browser: the servers expose none to CORS). */
  private readonly headersReadable: boolean;
  /** Identical reads without a signal share one request; a writer's read joining a background one makes it the writer's. */
  private readonly inflight = new Map<string, { promise: Promise<unknown>; urgency: Urgency }>();
  private readonly stopWaiting: () => void;
  private disposed = false;

  constructor(private readonly options: ClientOptions) {
    this.ownsTransport = !options.transport;
    this.transport = options.transport ?? defaultTransport(options.dispatcher);
    const readable = options.rateLimitHeadersReadable ?? this.transport.rateLimitHeadersReadable;
    this.headersReadable = readable;
    // Unread counts: 60 a minute, and the projects server may count each request twice (its throttle applied twice).
    const documents = sharePacer('documents', options.documentsUrl, readable ? Number.POSITIVE_INFINITY : 60);
    const projects = sharePacer('projects', options.projectsUrl, readable ? Number.POSITIVE_INFINITY : 30);
    this.pacers = { documents: documents.entry, projects: projects.entry };
    this.releasePacers = () => {
      documents.release();
      projects.release();
    };
    // Work for the answer's sake only: it runs outside any request, so a failure is logged, never thrown (it would be uncaught).
    this.stopWaiting = this.transport.whenWaiting(() => {
      if (this.disposed) return;
      for (const work of [prepareSchemas, () => options.onFirstWait?.()]) {
        try {
          work();
        } catch (e) {
          this.log('warn', `[api] preparing for the first answer failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    });
  }

  /** The base URL for a service, checked: the key is never sent to an insecure address. */
  baseUrl(service: Service): string {
    return service === 'documents'
      ? checkBaseUrl(this.options.documentsUrl, 'documents')
      : checkBaseUrl(this.options.projectsUrl, 'projects');
  }

  async send<T>(spec: RequestSpec<T>): Promise<T> {
    const url = this.buildUrl(spec);
    const urgency: Urgency = { priority: spec.priority ?? 'user' };
    if (spec.method !== 'GET') return this.sendOnce(spec, url, 1, urgency);
    urgency.again = askedAgain(this.pacers[spec.service], url, urgency.priority);
    // A cancellable read is the caller's own; identical reads without a signal share one request.
    if (spec.signal) return this.sendWithRetry(spec, url, urgency);
    const key = url;
    const shared = this.inflight.get(key);
    if (shared) {
      if (rankOf(urgency) < rankOf(shared.urgency)) {
        shared.urgency.priority = urgency.priority;
        shared.urgency.again = urgency.again;
        // It may be waiting behind background work: let the queue look again.
        this.pacers[spec.service].wake?.abort();
      }
      return shared.promise as Promise<T>;
    }
    const promise = this.sendWithRetry(spec, url, urgency).finally(() => this.inflight.delete(key));
    this.inflight.set(key, { promise, urgency });
    return promise;
  }

  dispose(): void {
    this.disposed = true;
    this.releasePacers();
    // A dispatcher or transport passed in may serve other clients after this one: take this client's callback away.
    this.stopWaiting();
    if (this.ownsTransport) this.transport.dispose();
  }

  private buildUrl(spec: RequestSpec<unknown>): string {
    const base = this.baseUrl(spec.service);
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) qs.append(k, String(v));
    const q = qs.toString();
    return `${base}/api/v1${spec.path}${q ? `?${q}` : ''}`;
  }

  private async sendWithRetry<T>(spec: RequestSpec<T>, url: string, urgency: Urgency): Promise<T> {
    const retries = this.options.retries ?? 2;
    const maxWait = this.options.maxRetryWaitSeconds ?? 10;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sendOnce(spec, url, attempt, urgency);
      } catch (e) {
        const err = e as ApiError;
        // A 429 without Retry-After is waited out on a fixed, capped schedule (a server need not send the header).
        const rateWait =
          err.kind !== 'rateLimited' ? undefined : err.retryAfter !== undefined ? err.retryAfter : rateLimitBackoffSeconds(attempt, maxWait);
        const retryable =
          (rateWait !== undefined && rateWait <= maxWait && (err.retryAfter !== undefined || rateWait > 0)) ||
          (err.kind === 'server' && [502, 503, 504].includes(err.status ?? 0)) ||
          (err.kind === 'network' && err.status !== 407);
        if (!retryable || attempt > retries) {
          // The caller hears of it now; the next requests (the caller's or any other) must not follow at once.
          if (err.kind === 'rateLimited' && err.retryAfter === undefined && !this.headersReadable) {
            this.pacers[spec.service].pacer.holdAfterRateLimit(maxWait);
          }
          throw err;
        }
        const wait =
          rateWait !== undefined ? rateWait * 1000 : Math.min(2000, 250 * 2 ** (attempt - 1)) + Math.floor(Math.random() * 100);
        this.log('warn', `[api] ${spec.method} ${spec.path} ${err.status ?? err.kind}: retrying in ${wait} ms (attempt ${attempt + 1} of ${retries + 1})`);
        await sleep(wait, spec.signal);
      }
    }
  }

  /** Waits for this request's turn (see pump); what it returns counts the request until its answer is settled. */
  private pace(service: Service, urgency: Urgency, signal?: AbortSignal): Promise<Slot | undefined> {
    if (this.options.pacing === false) return Promise.resolve(undefined);
    const shared = this.pacers[service];
    return new Promise<Slot | undefined>((resolve, reject) => {
      if (signal?.aborted) return reject(cancelled());
      const onAbort = () => {
        const i = shared.waiting.indexOf(waiter);
        if (i < 0) return;
        shared.waiting.splice(i, 1);
        reject(cancelled());
        shared.wake?.abort();
      };
      const waiter: Waiter = {
        urgency,
        seq: shared.seq++,
        go: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        log: (level, line) => this.log(level, line),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      shared.waiting.push(waiter);
      void pump(shared, service);
    });
  }

  private async sendOnce<T>(spec: RequestSpec<T>, url: string, attempt: number, urgency: Urgency): Promise<T> {
    // Trimmed like any pasted text (a copied key can carry a zero-width space or a byte-order mark).
    const rawKey = await this.options.getKey();
    const key = rawKey === undefined ? undefined : serverTrim(rawKey);
    if (!key) throw new ApiError('auth', l10n.t('No API key is set. Run "Content Docs: Set API Key…" first.'));
    if (/[^\x21-\x7e]/.test(key)) throw new ApiError('auth', l10n.t('The API key contains spaces, control or invisible characters; set it again.'));
    const slot = await this.pace(spec.service, urgency, spec.signal);

    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    if (spec.signal?.aborted) controller.abort();

    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'content-docs-vscode',
    };
    let body: string | undefined;
    if (spec.form) {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(spec.form)) if (v !== undefined) form.append(k, String(v));
      body = form.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }

    const t0 = Date.now();
    const logPath = url.slice(url.indexOf('/api/v1') + '/api/v1'.length);
    let raw: RawResponse | undefined;
    try {
      raw = await this.exchange(url, spec.method, headers, body, controller.signal, spec.service);
    } catch (e) {
      const err = this.transportError(e, timedOut, spec.signal, timeoutMs, url);
      const via = e instanceof SendFailure && e.proxy ? ` via proxy ${e.proxy}` : '';
      this.log(err.kind === 'cancelled' ? 'debug' : 'warn', `[api] ${spec.method} ${logPath} ${err.kind}${err.code ? ` ${err.code}` : ''} ${Date.now() - t0}ms${via}`);
      this.options.onExchange?.({ service: spec.service, method: spec.method, path: logPath, status: undefined, ms: Date.now() - t0, attempt, priority: spec.priority ?? 'user' });
      throw err;
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      if (slot) this.pacers[spec.service].pacer.settle(slot);
    }
    const ms = Date.now() - t0;
    this.options.onExchange?.({ service: spec.service, method: spec.method, path: logPath, status: raw.status, ms, attempt, priority: spec.priority ?? 'user' });
    this.log(raw.status < 400 ? 'info' : 'warn', `[api] ${spec.method} ${logPath} ${raw.status} ${ms}ms${raw.proxy ? ` via proxy ${raw.proxy}` : ''}`);
    try {
      return this.interpret(raw, spec.schema(schemas()), url, spec.service, key);
    } catch (e) {
      if (e instanceof ApiError && e.detail) this.log('warn', `[api] ${spec.method} ${logPath} ${raw.status}: the server said: ${e.detail.replace(/\s+/g, ' ')}`);
      throw e;
    }
  }

  private async exchange(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
    service: Service,
  ): Promise<RawResponse> {
    const maxBodyBytes = this.options.maxBodyBytes ?? 8 * 1024 * 1024;
    const res = await this.transport.send({ url, method, headers, body, signal, maxBodyBytes });
    this.pacers[service].pacer.observe(res.headers, res.status);
    if (res.status !== 429) this.pacers[service].pacer.answered();
    return res;
  }

  private transportError(e: unknown, timedOut: boolean, callerSignal: AbortSignal | undefined, timeoutMs: number, url: string): ApiError {
    if (e instanceof ApiError) return e;
    if (timedOut) return new ApiError('timeout', l10n.t('The server did not answer within {0} seconds.', Math.round(timeoutMs / 1000)), { cause: e });
    if (callerSignal?.aborted) return cancelled();
    return this.transport.explainFailure?.(e, url) ?? describeNetworkFailure(e, url);
  }

  private interpret<T>(raw: RawResponse, schema: ZodSchema<T>, requestUrl: string, service: Service, key: string): T {
    const { status } = raw;
    const contentType = String(raw.headers['content-type'] ?? '');
    let json: unknown;
    let parsed = false;
    if (raw.text.length > 0 && !/text\/html/i.test(contentType)) {
      try {
        json = JSON.parse(raw.text);
        parsed = true;
      } catch {
        parsed = false;
      }
    }
    if (status >= 200 && status < 300) {
      if (/text\/html/i.test(contentType) || /^\s*</.test(raw.text)) {
        throw new ApiError('badResponse', l10n.t('The server answered with a web page instead of data (HTTP {0}). Check the server address.', status), { status });
      }
      if (!parsed) throw new ApiError('badResponse', l10n.t("The server's answer could not be read: it is not valid JSON (HTTP {0}).", status), { status });
      const result = schema.safeParse(json);
      if (!result.success) {
        const issue = result.error.issues[0];
        const where = issue?.path.length ? issue.path.join('.') : 'body';
        throw new ApiError('badResponse', l10n.t("The server's answer did not have the expected shape (HTTP {0}; {1}: {2}).", status, where, issue?.message ?? 'invalid'), {
          status,
          cause: result.error,
        });
      }
      return result.data;
    }
    const errBody = parsed ? schemas().errorBody.safeParse(json) : undefined;
    const message = errBody?.success ? errBody.data.message : undefined;
    const serverText = typeof message === 'string' ? message : undefined;
    if (status >= 300 && status < 400) return this.redirected(raw, requestUrl, service);
    switch (status) {
      case 401:
        return fail('auth', l10n.t('The server did not accept the API key (HTTP 401). Set a valid key.'), { status });
      case 403:
        return fail('forbidden', serverText ? l10n.t('Your plan has no access to this feature (HTTP 403): {0}', serverText) : l10n.t('Your plan has no access to this feature (HTTP 403).'), { status });
      case 407:
        // From a proxy between VS Code and the server (it answers the CONNECT that would open the tunnel).
        throw proxySignInRequired(raw.proxy);
      case 404:
        return fail('notFound', l10n.t('Not found on the server (HTTP 404): it may have been deleted.'), { status });
      case 422: {
        const fields: Record<string, string[]> = {};
        const src = (message && typeof message === 'object' ? message : undefined) ?? (errBody?.success ? errBody.data.errors : undefined);
        for (const [k, v] of Object.entries(src ?? {})) fields[k] = Array.isArray(v) ? v : [String(v)];
        const summary = summarizeFields(fields);
        const refused = summary
          ? l10n.t('The server refused the input: {0}', summary)
          : serverText
            ? l10n.t('The server refused the input (HTTP 422): {0}', serverText)
            : l10n.t('The server refused the input (HTTP 422).');
        return fail('validation', refused, {
          status,
          fields,
        });
      }
      case 429: {
        const retryAfter = retryAfterSeconds(raw.headers);
        if (retryAfter === undefined) {
          return fail(
            'rateLimited',
            this.headersReadable
              ? l10n.t('Too many requests (HTTP 429), and the server did not say how long to wait: try again in a minute.')
              : l10n.t('Too many requests (HTTP 429). The browser does not let Content Docs read how long the server asked to wait: try again in a minute.'),
            { status },
          );
        }
        const wait = retryAfter === 1 ? l10n.t('Too many requests (HTTP 429): try again in 1 second.') : l10n.t('Too many requests (HTTP 429): try again in {0} seconds.', retryAfter);
        return fail('rateLimited', wait, {
          status,
          retryAfter,
        });
      }
      default:
        if (status >= 500) {
          // The real server appends its AI provider's failure (address, status, JSON) to its first sentence: that
          // sentence is the writer's, the rest goes to the log (CONTRACT.md, error body).
          const said = typeof message === 'string' ? message : message !== undefined ? JSON.stringify(message) : undefined;
          const sentence = said === undefined ? undefined : firstSentence(withoutKey(said, key));
          const detail = said !== undefined && said.trim() !== sentence ? withoutKey(said, key).slice(0, 4000) : undefined;
          return fail('server', sentence ? l10n.t('The server had a problem (HTTP {0}): "{1}"', status, sentence) : l10n.t('The server had a problem (HTTP {0}). Try again.', status), {
            status,
            detail,
          });
        }
        return fail('badResponse', serverText ? l10n.t('The server answered HTTP {0}: {1}', status, serverText) : l10n.t('The server answered HTTP {0}.', status), { status });
    }
  }

  /**
   * A 3xx is never followed (the key must not travel to wherever it points). Laravel answers a request it
   * does not take as an API call with a redirect to its own login page: that alone means "key not accepted".
   * Any other target (another host, port, scheme or path, or none) means the address has moved.
   */
  private redirected(raw: RawResponse, requestUrl: string, service: Service): never {
    const { status } = raw;
    const location = header(raw.headers, 'location')?.trim();
    let target: URL | undefined;
    try {
      target = location ? new URL(location, requestUrl) : undefined;
    } catch {
      target = undefined;
    }
    if (!target) {
      const documents = service === 'documents';
      const said = location
        ? documents
          ? l10n.t('The server answered with a redirect (HTTP {0}) without a valid address to go to; it was not followed. Check the documents server address (contentDocs.documents.baseUrl).', status)
          : l10n.t('The server answered with a redirect (HTTP {0}) without a valid address to go to; it was not followed. Check the projects server address (contentDocs.projects.baseUrl).', status)
        : documents
          ? l10n.t('The server answered with a redirect (HTTP {0}) without an address to go to; it was not followed. Check the documents server address (contentDocs.documents.baseUrl).', status)
          : l10n.t('The server answered with a redirect (HTTP {0}) without an address to go to; it was not followed. Check the projects server address (contentDocs.projects.baseUrl).', status);
      return fail('moved', said, { status });
    }
    const base = new URL(this.baseUrl(service));
    if (target.origin === base.origin && /\/login\/?$/.test(target.pathname)) {
      return fail('auth', l10n.t('The server redirected to its login page (HTTP {0}): the API key was not accepted.', status), { status });
    }
    const where = redirectTarget(target);
    const moved =
      service === 'documents'
        ? l10n.t(
            'The server says its address has moved (HTTP {0}) to {1}. The request and the API key were not sent there; if the server really moved, change the documents server address (contentDocs.documents.baseUrl).',
            status,
            where,
          )
        : l10n.t(
            'The server says its address has moved (HTTP {0}) to {1}. The request and the API key were not sent there; if the server really moved, change the projects server address (contentDocs.projects.baseUrl).',
            status,
            where,
          );
    return fail('moved', moved, { status, location: where });
  }

  private log(level: LogLevel, line: string): void {
    this.options.log?.(level, line);
  }
}

/** A server's text with the API key taken out, should the server echo it. */
function withoutKey(text: string, key: string): string {
  return key ? text.split(key).join('[the API key]') : text;
}

function fail(kind: ApiError['kind'], message: string, details: ConstructorParameters<typeof ApiError>[2]): never {
  throw new ApiError(kind, message, details);
}
