/**
 * The sandbox: a local stand-in for the two API servers (documents and SEO projects) that answers
 * exactly as the API contract describes (Laravel 9 style), with deterministic seeded data, added
 * latency, per-route fault injection and a per-server rate limit.
 *
 * Node's `http` module only. Both listeners bind a loopback address (127.0.0.1 by default).
 *
 * Order of processing for a request under /api/v1 (mirrors the real stack):
 *   1. added latency (every /api/v1 answer),
 *   2. an encoded slash (%2F) in the path: HTML 404 from the "web server" (not counted, no app headers),
 *   3. CORS (Laravel's HandleCors, global middleware, paths `api/*`): a preflight (OPTIONS with
 *      Access-Control-Request-Method) is answered 204 at once, before routing, throttling and auth;
 *      every other answer under /api/ gets `Access-Control-Allow-Origin: *` (401, 404, 405, 422, 429 too).
 *      Preflights are kept apart from the API requests (`preflights`, not `requests`): a browser sends one
 *      before each request, and the per-action request counts stay what the servers' limiter counts.
 *      `cors: false` is a server whose CORS settings were changed (no CORS headers at all);
 *      `cors: 'proxy-blocks-options'` a proxy in front that refuses every OPTIONS (405 from the web server),
 *   4. routing: a wrong method on a known path is a 405 JSON answer (before rate limit and auth, not counted);
 *      a plain OPTIONS on a known path is Laravel's automatic 200 with `Allow`,
 *   5. rate limit, when configured (counted before authentication, so 401s count): 429 JSON, or HTML when
 *      Accept is not JSON,
 *   6. authentication: 401 JSON when Accept starts with JSON, else a 302 to /login with an HTML body,
 *   7. unknown path: 404 JSON,
 *   8. the plan: 403 when the account's plan has no API access,
 *   9. an injected fault for the route, if any,
 *  10. the handler.
 *
 * Every input string (query and body) is trimmed as Laravel's TrimStrings does it (Unicode white space,
 * U+FEFF and U+200B included), then an empty string becomes null (ConvertEmptyStringsToNull).
 *
 * Rate limiting is off unless configured (`rateLimit` / `seoRateLimit` > 0, or setRateLimit): a server with
 * throttling off sends no `X-RateLimit-*` headers at all. When on, it is a fixed window per server, as
 * Laravel's cache-based limiter does it: the first counted request opens a 60-second window, at most
 * `perMinute` hits are allowed in it, a refused request is not counted, and the count starts again when the
 * window (60 s after it opened) ends. `X-RateLimit-Reset` is that end (epoch seconds), `Retry-After` the
 * seconds left. `projectsDoubleCount` makes the projects server count each request twice (its throttle
 * middleware applied twice, as on the real server).
 *
 * Control routes live under /__sandbox/ on both servers (JSON in and out, no auth, no latency, never
 * counted, never recorded) so a process that did not start the sandbox can steer it.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  countWords,
  generatedResult,
  generateSeed,
  hashString,
  type SandboxDocument,
  type SandboxReport,
  type SeedSpec,
} from './seed';
import { collate, collationKey, compareKeys, likeMatcher } from './collation';
import { findTemplate } from './templates';

export { collate, collationKey, compareKeys, likeMatcher };

export type { SandboxDocument, SandboxReport, SeedSpec } from './seed';

export type FaultKind =
  | 'status500'
  | 'status502'
  | 'status503'
  | 'status504'
  | 'hang'
  | 'reset'
  | 'malformedJson'
  | 'html200'
  | 'redirectLogin'
  | 'wrongShape'
  | 'oversized'
  | 'rateLimit'
  | 'status422';

export type RouteName =
  | 'account'
  | 'documents.list'
  | 'documents.show'
  | 'documents.store'
  | 'documents.update'
  | 'documents.delete'
  | 'projects.account'
  | 'projects.list'
  | 'projects.delete';

export interface Fault {
  kind: FaultKind;
  /** Only the next N matching requests; default: until cleared. */
  count?: number;
  /** Seconds, for `rateLimit` (default 2). */
  retryAfter?: number;
  /**
   * Field -> messages, for `status422` (a validation answer as CONTRACT.md shapes it; e.g. a server whose rules
   * or limits differ from the ones the client checks). Default: a `name` message.
   */
  fields?: Record<string, string[]>;
}

export interface SandboxOptions {
  /** Always a loopback address; default 127.0.0.1. Anything else is refused. */
  host?: string;
  /** Documents server port, 0 = any free (default 0). */
  port?: number;
  /** Projects server port, 0 = any free (default 0). */
  seoPort?: number;
  /** The valid API key; default 'sandbox-key-0123456789'. */
  key?: string;
  seed?: SeedSpec;
  /** Added to every /api/v1 answer (default 0). */
  latencyMs?: number;
  /** Extra delay while "generating" on store (default 300). */
  storeDelayMs?: number;
  /** Per minute on the documents server; 0 = throttling off, no X-RateLimit-* headers (default 0). */
  rateLimit?: number;
  /** Per minute on the projects server; 0 = throttling off, no X-RateLimit-* headers (default 0). */
  seoRateLimit?: number;
  /** The projects server counts every request twice against its limit (default false). */
  projectsDoubleCount?: boolean;
  /**
   * Laravel's default CORS settings (default true); false: a server whose CORS settings were changed (no CORS
   * headers); 'proxy-blocks-options': the default settings behind a proxy that refuses every OPTIONS request.
   */
  cors?: CorsMode;
  /**
   * The control routes (/__sandbox/) answer browser calls too (preflight and Access-Control-Allow-Origin), for
   * tests that run in a browser's web worker. Test plumbing only: the API's CORS follows `cors`. Default false.
   */
  controlCors?: boolean;
  /** The account: plan limits and usage counters (default: the sandbox plan, counters from the seed). */
  account?: AccountSettings;
  /** Simulate the known bug: deleting a project also deletes one unrelated report (default false). */
  projectDeleteBug?: boolean;
  /** The administrator's banned keywords: a store whose name contains one (any case) is refused, 422 on `name` (default: "bannedword"). */
  bannedWords?: string[];
  /** Receives one line per answered request (never the Authorization header or api_token). Default: silent. */
  log?: (line: string) => void;
}

/** How the server answers browsers: see SandboxOptions.cors. */
export type CorsMode = boolean | 'proxy-blocks-options';

export interface RequestRecord {
  server: 'documents' | 'projects';
  method: string;
  /** The raw path as sent (still percent-encoded), without the query. */
  path: string;
  query: Record<string, string>;
  route?: RouteName;
  /** The status answered; 0 while unanswered (or never: a `hang` fault). */
  status: number;
  /** Whether the request carried the valid key (Bearer header or api_token). */
  authorized: boolean;
  authorizationHeader?: string;
  /** The User-Agent the client sent (the extension and the MCP server name themselves apart). */
  userAgent?: string;
  accept?: string;
  contentType?: string;
  body?: Record<string, string>;
  /** On a store that reached the "model": the prompt as the model saw it (white space runs collapsed). */
  modelPrompt?: string;
  /** Arrival time, epoch ms. */
  at: number;
}

/** The documents plan's limits (`-1` = unlimited; `api` 0/1), as `plan.features` in GET /account. */
export interface PlanFeatures {
  words: number;
  documents: number;
  images: number;
  templates: number;
  custom_templates: number;
  data_export: number;
  api: number;
}

/** The projects server's own plan (`-1` = unlimited; `api` 0/1). */
export interface SeoPlanFeatures {
  projects: number;
  reports: number;
  api: number;
}

/** The documents account's usage counters, as GET /account answers them. */
export interface AccountCounters {
  documents_month_count: number;
  documents_total_count: number;
  words_month_count: number;
  words_total_count: number;
  images_month_count: number;
  images_total_count: number;
}

/** Partial settings for setAccount() (and the `account` option): anything left out is kept. */
export interface AccountSettings {
  plan?: { id?: number; name?: string; features?: Partial<PlanFeatures> };
  seoPlan?: { id?: number; name?: string; features?: Partial<SeoPlanFeatures> };
  counters?: Partial<AccountCounters>;
  defaultCreativity?: number;
}

export interface AccountState {
  plan: { id: number; name: string; features: PlanFeatures };
  seoPlan: { id: number; name: string; features: SeoPlanFeatures };
  counters: AccountCounters;
  defaultCreativity: number;
}

/** The sandbox user (the same user on both servers). */
export const SANDBOX_USER = {
  id: 1,
  name: 'Sandbox User',
  email: 'sandbox@example.test',
  avatar_url: 'https://www.gravatar.com/avatar/0?s=128&d=mp',
  locale: 'en',
  timezone: 'UTC',
  created_at: '2024-05-01T09:00:00.000000Z',
} as const;

/** The user's fields both servers' /account answers open with (created_at closes them). */
function userFields() {
  const { id, name, email, avatar_url, locale, timezone } = SANDBOX_USER;
  return { id, name, email, avatar_url, locale, timezone };
}

export const DEFAULT_PLAN: AccountState['plan'] = {
  id: 1,
  name: 'Sandbox',
  features: { words: 500000, documents: 1000, images: 100, templates: -1, custom_templates: 10, data_export: 1, api: 1 },
};
export const DEFAULT_SEO_PLAN: AccountState['seoPlan'] = {
  id: 1,
  name: 'Sandbox SEO',
  features: { projects: -1, reports: 500, api: 1 },
};

/** The 422 texts of the store's quota gates (on `name`). */
export const WORDS_LIMIT_MESSAGE = 'You have reached the words limit.';
export const DOCUMENTS_LIMIT_MESSAGE = 'You created too many documents.';
/** The 422 text on `name` of a store whose name contains one of the administrator's banned keywords. */
export const BANNED_NAME_MESSAGE = 'The name contains a keyword that is banned.';
/** The sandbox's banned keyword unless `bannedWords` says otherwise. */
export const BANNED_WORD = 'bannedword';

export interface Sandbox {
  readonly docsUrl: string;
  readonly seoUrl: string;
  /** The valid API key (see {@link Sandbox.regenerateKey}). */
  readonly key: string;
  /** The user made a new API key in their account settings: from now on only `key` is accepted, the old one gets 401. */
  regenerateKey(key: string): void;
  /** The user made a second API key: it is accepted too, for the same user (the valid `key` stays). */
  addKey(key: string): void;
  /**
   * The server goes down (`false`: stops listening, open connections dropped, so a connection is refused) or comes
   * back on the same address (`true`). The address, the key and the data stay: it is the same installation.
   */
  setListening(name: 'documents' | 'projects', on: boolean): Promise<void>;
  readonly documents: Map<number, SandboxDocument>;
  readonly reports: SandboxReport[];
  readonly requests: RequestRecord[];
  /** CORS preflights (OPTIONS with Access-Control-Request-Method under /api/), kept apart from `requests`. */
  readonly preflights: RequestRecord[];
  setFault(route: RouteName, fault: Fault | undefined): void;
  clearFaults(): void;
  setLatency(ms: number): void;
  /**
   * Answers on `route` wait (after authentication, before faults and the handler) until the returned function is
   * called: a request stays on the wire for exactly as long as a test needs, whatever the machine's speed.
   */
  hold(route: RouteName): () => void;
  /** `server` omitted: both servers. 0 = throttling off (no X-RateLimit-* headers). */
  setRateLimit(perMinute: number, server?: 'documents' | 'projects'): void;
  resetRateLimit(): void;
  /** The projects server counts each request twice (its limit is reached after half as many requests). */
  setProjectsDoubleCount(on: boolean): void;
  /** Laravel's default CORS (true), a server whose CORS settings were changed (false: no CORS headers), or a proxy that refuses OPTIONS. */
  setCors(mode: CorsMode): void;
  /** Plan limits and usage counters; what is left out is kept. */
  setAccount(settings: AccountSettings): void;
  /** The administrator's banned keywords (see SandboxOptions.bannedWords). */
  bannedWords: string[];
  readonly account: AccountState;
  /** The prompt the "model" saw on the last store that reached it (white space runs collapsed). */
  readonly lastModelPrompt: string | undefined;
  /**
   * What the text generator writes on the following stores: a text (stored trimmed, as the server does; it may be
   * empty, or HTML), `null` (a generation that produced nothing: the record's `result` is null), or `undefined`
   * for the default (the sandbox's own text, which echoes the prompt).
   */
  setModelAnswer(answer: string | null | undefined): void;
  /** How long the text generator takes on a store (the `storeDelayMs` option). */
  setStoreDelay(ms: number): void;
  resetRequests(): void;
  reseed(seed?: SandboxOptions['seed']): void;
  /**
   * Runs `hook` (undefined: none) just before an API request is answered, after routing, throttling,
   * authentication and faults: a test may change the store there, so that the answer is computed after
   * that change (someone else's edit landing while a client reads a list page by page).
   */
  onRequest(hook: RequestHook | undefined): void;
  close(): Promise<void>;
}

/** See Sandbox.onRequest. */
export type RequestHook = (request: RequestRecord) => void | Promise<void>;

export const DEFAULT_KEY = 'sandbox-key-0123456789';
export const ROUTE_NAMES: readonly RouteName[] = [
  'account', 'documents.list', 'documents.show', 'documents.store', 'documents.update', 'documents.delete',
  'projects.account', 'projects.list', 'projects.delete',
];
export const FAULT_KINDS: readonly FaultKind[] = [
  'status500', 'status502', 'status503', 'status504', 'hang', 'reset', 'malformedJson', 'html200',
  'redirectLogin', 'wrongShape', 'oversized', 'rateLimit', 'status422',
];
const PER_PAGE = new Set(['10', '25', '50', '100']);
const MAX_BODY = 8 * 1024 * 1024;
const OVERSIZED_BYTES = 20 * 1024 * 1024;

type ServerName = 'documents' | 'projects';
type Input = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------
// Serialization and formatting

/** JSON as PHP's json_encode writes it by default: `/` as `\/`, non-ASCII as `\uXXXX` (UTF-16 units). */
export function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff/]/g, (c) =>
    c === '/' ? '\\/' : '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

/** `2023-03-21T15:30:06.000000Z`: UTC, microseconds, one-second resolution. */
export function isoMicro(d: Date): string {
  return new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, '.000000Z');
}

/** A case- and accent-free form of a text (a key for varying data; the collation itself is in collation.ts). */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Where names tie under the collation, the order the server gives them: none it guarantees (`ORDER BY name` has no
 * tie-break; seen: ascending id under `sort=desc`, and two page sizes disagreeing). Here a shuffle seeded by the
 * page size: the same for every page of one walk, different for another page size, never simply by id.
 */
function tieOrder(a: number, b: number, perPage: number): number {
  return hashString(`${perPage}:${a}`) - hashString(`${perPage}:${b}`) || a - b;
}

/**
 * The order of a documents list as the server gives it: by id, or by name with ties in the order of `tieOrder`
 * for that page size. Exported so tests can say where the server puts a row.
 */
export function documentOrder(sortBy: 'id' | 'name', sort: 'asc' | 'desc', perPage: number): (a: SandboxDocument, b: SandboxDocument) => number {
  const dir = sort === 'asc' ? 1 : -1;
  if (sortBy === 'id') return (a, b) => dir * (a.id - b.id);
  const keys = new Map<string, number[]>();
  const key = (name: string) => keys.get(name) ?? keys.set(name, collationKey(name)).get(name) ?? [];
  return (a, b) => dir * compareKeys(key(a.name), key(b.name)) || tieOrder(a.id, b.id, perPage);
}

/** The page size a list request gets (an invalid `per_page` falls back to 10). */
function pageSize(q: Record<string, string>): number {
  return PER_PAGE.has(q.per_page ?? '') ? Number(q.per_page) : 10;
}

/** Laravel's TrimStrings: leading/trailing Unicode white space, U+FEFF and U+200B included (PCRE \s with /u). */
const TRIM_RE = /^[\s\u0085\u180E\u200B\uFEFF]+|[\s\u0085\u180E\u200B\uFEFF]+$/gu;

export function laravelTrim(s: string): string {
  return s.replace(TRIM_RE, '');
}

/** What the store hands the model: every newline, tab and run of white space collapsed into one space. */
export function flattenPrompt(prompt: string): string {
  return prompt.replace(/\s+/gu, ' ');
}

function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n    <meta charset="utf-8">\n    <meta name="viewport" content="width=device-width, initial-scale=1">\n    <title>${title}</title>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

function errorPage(code: number, text: string): string {
  return htmlPage(text, `    <div class="flex-center">\n        <div class="code">${code}</div>\n        <div class="message">${text}</div>\n    </div>`);
}

function gatewayPage(code: number, text: string): string {
  return `<html>\r\n<head><title>${code} ${text}</title></head>\r\n<body>\r\n<center><h1>${code} ${text}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

function redirectPage(url: string): string {
  const u = htmlEscape(url);
  return `<!DOCTYPE html>\n<html>\n    <head>\n        <meta charset="UTF-8" />\n        <meta http-equiv="refresh" content="0;url='${u}'" />\n\n        <title>Redirecting to ${u}</title>\n    </head>\n    <body>\n        Redirecting to <a href="${u}">${u}</a>.\n    </body>\n</html>`;
}

function loginPage(): string {
  return htmlPage(
    'Login',
    '    <h1>Sign in</h1>\n    <p>This is the sandbox\'s stand-in for the login page. API clients should never land here.</p>\n    <form method="POST" action="/login"><input name="email" type="email"><input name="password" type="password"><button>Login</button></form>',
  );
}

/** Laravel's expectsJson(): Accept's first (highest-quality) type is JSON, or an XHR accepting anything. */
export function wantsJson(accept: string | undefined, requestedWith?: string): boolean {
  const types = (accept ?? '')
    .split(',')
    .map((part, index) => {
      const [type, ...params] = part.trim().split(';');
      let q = 1;
      for (const p of params) {
        const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
        if (m) q = Number(m[1]);
      }
      return { type: type.trim().toLowerCase(), q, index };
    })
    .filter((t) => t.type !== '')
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const first = types[0]?.type;
  if (first && (first.includes('/json') || first.includes('+json'))) return true;
  const xhr = (requestedWith ?? '').toLowerCase() === 'xmlhttprequest';
  return xhr && (first === undefined || first === '*/*');
}

// ---------------------------------------------------------------------------------------------------
// Rate limiting

class FixedWindowLimiter {
  private windowStart = 0;
  private count = 0;
  constructor(public perMinute: number) {}

  reset(): void {
    this.windowStart = 0;
    this.count = 0;
  }

  /**
   * Counts one request (`passes` throttle middlewares on the same key, each: refuse if the count has
   * reached the limit, else count one); says whether it may pass and what to advertise. Off (0): always
   * allowed, no headers.
   */
  hit(now: number, passes = 1): { allowed: boolean; headers: Record<string, string>; retryAfter: number; resetAt: number } {
    if (this.perMinute <= 0) return { allowed: true, headers: {}, retryAfter: 0, resetAt: 0 };
    if (now >= this.windowStart + 60_000) {
      this.windowStart = now;
      this.count = 0;
    }
    const resetAt = Math.ceil((this.windowStart + 60_000) / 1000);
    const retryAfter = Math.max(1, Math.ceil((this.windowStart + 60_000 - now) / 1000));
    const limit = this.perMinute;
    for (let i = 0; i < passes; i++) {
      if (this.count >= limit) {
        return {
          allowed: false,
          retryAfter,
          resetAt,
          headers: { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': '0' },
        };
      }
      this.count++;
    }
    return {
      allowed: true,
      retryAfter,
      resetAt,
      headers: { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(Math.max(0, limit - this.count)) },
    };
  }
}

// ---------------------------------------------------------------------------------------------------
// The sandbox

interface Ctx {
  server: ServerName;
  base: string;
  req: http.IncomingMessage;
  res: http.ServerResponse;
  record: RequestRecord;
  /** The query as the application sees it: trimmed, empty values dropped (null). */
  query: Record<string, string>;
  /** The query as sent (for the paginator's links). */
  rawQuery: Record<string, string>;
  queryOrder: string[];
  input: Input;
  json: boolean;
  /** Rate-limit headers, once counted. */
  rl: Record<string, string>;
  /** CORS headers for this answer (empty outside /api/ or with CORS off). */
  cors: Record<string, string>;
}

type Match =
  | { kind: 'route'; route: RouteName; params: string[] }
  | { kind: 'method'; allow: string }
  | { kind: 'options'; allow: string }
  | { kind: 'unknown' };

interface ActiveFault {
  fault: Fault;
  remaining?: number;
}

function validPort(p: number | undefined, name: string): number {
  const v = p ?? 0;
  if (!Number.isInteger(v) || v < 0 || v > 65535) throw new Error(`sandbox: invalid ${name} ${String(p)}`);
  return v;
}

function loopbackHost(host: string | undefined): string {
  const h = (host ?? '127.0.0.1').trim();
  if (h === 'localhost') return '127.0.0.1';
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::1') return h;
  throw new Error(`sandbox: refusing to listen on ${h}: only loopback addresses (127.0.0.1, ::1) are allowed`);
}

class SandboxImpl implements Sandbox {
  docsUrl = '';
  seoUrl = '';
  key: string;
  /** Further keys of the same user (see {@link addKey}). */
  private readonly otherKeys = new Set<string>();
  readonly documents = new Map<number, SandboxDocument>();
  readonly reports: SandboxReport[] = [];
  readonly requests: RequestRecord[] = [];
  readonly preflights: RequestRecord[] = [];

  private readonly host: string;
  private latencyMs: number;
  private storeDelayMs: number;
  /** See hold(): the routes whose answers wait, and what lets them go (all of it on close). */
  private readonly holds = new Map<RouteName, Promise<void>>();
  private readonly releases = new Set<() => void>();
  private readonly projectDeleteBug: boolean;
  /** See SandboxOptions.bannedWords. */
  bannedWords: string[];
  private projectsDoubleCount: boolean;
  private cors: CorsMode;
  private readonly controlCors: boolean;
  private accountState!: AccountState;
  private modelPrompt: string | undefined;
  /** See Sandbox.setModelAnswer. */
  private modelAnswer: string | null | undefined;
  private readonly log?: (line: string) => void;
  private readonly limiters: Record<ServerName, FixedWindowLimiter>;
  private readonly faults = new Map<RouteName, ActiveFault>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly servers: http.Server[] = [];
  private lastIssuedId = 0;
  private closed = false;
  private closing?: Promise<void>;
  private oversizedCache = new Map<string, Buffer>();
  private requestHook: RequestHook | undefined;

  constructor(private readonly options: SandboxOptions) {
    this.host = loopbackHost(options.host);
    this.key = options.key ?? DEFAULT_KEY;
    this.latencyMs = Math.max(0, options.latencyMs ?? 0);
    this.storeDelayMs = Math.max(0, options.storeDelayMs ?? 300);
    this.projectDeleteBug = options.projectDeleteBug ?? false;
    this.bannedWords = [...(options.bannedWords ?? [BANNED_WORD])];
    this.projectsDoubleCount = options.projectsDoubleCount ?? false;
    this.cors = corsMode(options.cors ?? true);
    this.controlCors = options.controlCors ?? false;
    this.log = options.log;
    this.limiters = {
      documents: new FixedWindowLimiter(Math.max(0, Math.floor(options.rateLimit ?? 0))),
      projects: new FixedWindowLimiter(Math.max(0, Math.floor(options.seoRateLimit ?? 0))),
    };
    this.reseed(options.seed ?? 'default');
  }

  get account(): AccountState {
    return this.accountState;
  }

  get lastModelPrompt(): string | undefined {
    return this.modelPrompt;
  }

  async start(): Promise<void> {
    const docsPort = validPort(this.options.port, 'port');
    const seoPort = validPort(this.options.seoPort, 'seoPort');
    try {
      this.docsUrl = await this.listen('documents', docsPort);
      this.seoUrl = await this.listen('projects', seoPort);
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  private listen(name: ServerName, port: number): Promise<string> {
    const server = http.createServer((req, res) => {
      this.handle(name, req, res).catch((err: unknown) => {
        this.log?.(`[sandbox] internal error: ${err instanceof Error ? err.message : String(err)}`);
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(phpJson({ message: 'An unexpected error has occurred, please try again.', status: 500 }));
        }
      });
    });
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.host, () => {
        server.off('error', reject);
        const addr = server.address() as AddressInfo;
        const host = addr.family === 'IPv6' || this.host.includes(':') ? `[${this.host}]` : this.host;
        resolve(`http://${host}:${addr.port}`);
      });
    });
  }

  // --- public controls -------------------------------------------------------------------------------

  setFault(route: RouteName, fault: Fault | undefined): void {
    if (!ROUTE_NAMES.includes(route)) throw new Error(`sandbox: unknown route ${String(route)}`);
    if (!fault) {
      this.faults.delete(route);
      return;
    }
    if (!FAULT_KINDS.includes(fault.kind)) throw new Error(`sandbox: unknown fault kind ${String(fault.kind)}`);
    if (fault.count !== undefined && fault.count <= 0) {
      this.faults.delete(route);
      return;
    }
    this.faults.set(route, { fault: { ...fault }, remaining: fault.count });
  }

  clearFaults(): void {
    this.faults.clear();
  }

  setLatency(ms: number): void {
    this.latencyMs = Math.max(0, Number(ms) || 0);
  }

  hold(route: RouteName): () => void {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    this.holds.set(route, held);
    this.releases.add(release);
    return () => {
      if (this.holds.get(route) === held) this.holds.delete(route);
      this.releases.delete(release);
      release();
    };
  }

  setRateLimit(perMinute: number, server?: ServerName): void {
    const n = Math.max(0, Math.floor(Number(perMinute) || 0));
    if (server === undefined || server === 'documents') this.limiters.documents.perMinute = n;
    if (server === undefined || server === 'projects') this.limiters.projects.perMinute = n;
  }

  resetRateLimit(): void {
    this.limiters.documents.reset();
    this.limiters.projects.reset();
  }

  setProjectsDoubleCount(on: boolean): void {
    this.projectsDoubleCount = Boolean(on);
  }

  setCors(mode: CorsMode): void {
    this.cors = corsMode(mode);
  }

  setAccount(settings: AccountSettings): void {
    const a = this.accountState;
    const num = (v: unknown, what: string): number => {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`sandbox: ${what} must be a number`);
      return v;
    };
    const merge = <T extends object>(target: T, patch: object | undefined, what: string): void => {
      if (patch === undefined || patch === null) return;
      if (typeof patch !== 'object') throw new Error(`sandbox: ${what} must be an object`);
      for (const [k, v] of Object.entries(patch)) {
        if (!(k in target)) throw new Error(`sandbox: unknown ${what} field ${k}`);
        (target as Record<string, unknown>)[k] = num(v, `${what}.${k}`);
      }
    };
    const plan = (target: { id: number; name: string; features: object }, patch: AccountSettings['plan'], what: string) => {
      if (!patch) return;
      if (patch.id !== undefined) target.id = num(patch.id, `${what}.id`);
      if (patch.name !== undefined) target.name = String(patch.name);
      merge(target.features, patch.features, `${what}.features`);
    };
    plan(a.plan, settings.plan, 'plan');
    plan(a.seoPlan, settings.seoPlan, 'seoPlan');
    merge(a.counters, settings.counters, 'counters');
    if (settings.defaultCreativity !== undefined) a.defaultCreativity = num(settings.defaultCreativity, 'defaultCreativity');
  }

  onRequest(hook: RequestHook | undefined): void {
    this.requestHook = hook;
  }

  resetRequests(): void {
    this.requests.length = 0;
    this.preflights.length = 0;
  }

  setStoreDelay(ms: number): void {
    this.storeDelayMs = Math.max(0, Number(ms) || 0);
  }

  setModelAnswer(answer: string | null | undefined): void {
    if (answer !== undefined && answer !== null && typeof answer !== 'string') throw new Error('sandbox: a model answer is a string, null or undefined');
    this.modelAnswer = answer;
  }

  reseed(seed: SandboxOptions['seed'] = 'default'): void {
    const data = generateSeed(seed);
    this.documents.clear();
    for (const d of data.documents) this.documents.set(d.id, d);
    this.reports.length = 0;
    this.reports.push(...data.reports);
    this.lastIssuedId = data.documents.reduce((m, d) => Math.max(m, d.id), 0);
    this.modelPrompt = undefined;
    // The account: the sandbox plan, counters as the seed's documents make them (the month: this UTC month).
    const now = new Date();
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const counters: AccountCounters = {
      documents_month_count: 0,
      documents_total_count: data.documents.length,
      words_month_count: 0,
      words_total_count: 0,
      images_month_count: 0,
      images_total_count: 0,
    };
    for (const d of data.documents) {
      counters.words_total_count += d.words;
      if (d.createdAt.getTime() >= monthStart) {
        counters.documents_month_count++;
        counters.words_month_count += d.words;
      }
    }
    this.accountState = {
      plan: { ...DEFAULT_PLAN, features: { ...DEFAULT_PLAN.features } },
      seoPlan: { ...DEFAULT_SEO_PLAN, features: { ...DEFAULT_SEO_PLAN.features } },
      counters,
      defaultCreativity: 0.5,
    };
    if (this.options.account) this.setAccount(this.options.account);
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const release of this.releases) release();
    this.releases.clear();
    this.closing = (async () => {
      const done = this.servers.map(
        (s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve())),
      );
      for (const s of this.sockets) s.destroy();
      this.sockets.clear();
      await Promise.all(done);
    })();
    return this.closing;
  }

  // --- plumbing ----------------------------------------------------------------------------------------

  private sleep(ms: number): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(!this.closed);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve(!this.closed);
      }, ms);
      this.timers.add(t);
    });
  }

  private readBody(req: http.IncomingMessage): Promise<{ raw: Buffer; tooLarge: boolean }> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) tooLarge = true;
        else chunks.push(c);
      });
      req.on('end', () => resolve({ raw: Buffer.concat(chunks), tooLarge }));
      req.on('error', () => resolve({ raw: Buffer.concat(chunks), tooLarge }));
      req.on('close', () => resolve({ raw: Buffer.concat(chunks), tooLarge }));
    });
  }

  private send(ctx: Ctx, status: number, body: string | Buffer, headers: Record<string, string>, withRl = true): void {
    ctx.record.status = status;
    const { res } = ctx;
    if (res.destroyed || res.headersSent) return;
    const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    res.writeHead(status, {
      ...(withRl ? ctx.rl : {}),
      ...headers,
      ...ctx.cors,
      'Content-Length': String(buf.length),
    });
    res.end(buf);
  }

  /** An answer made by the web server in front of the application: no application (CORS, rate-limit) headers. */
  private sendFromWebServer(ctx: Ctx, status: number, html: string): void {
    ctx.cors = {};
    this.sendHtml(ctx, status, html, {}, false);
  }

  private sendJson(ctx: Ctx, status: number, value: unknown, extra: Record<string, string> = {}): void {
    this.send(ctx, status, phpJson(value), { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', ...extra });
  }

  private sendHtml(ctx: Ctx, status: number, html: string, extra: Record<string, string> = {}, withRl = true): void {
    this.send(ctx, status, html, { 'Content-Type': 'text/html; charset=UTF-8', 'Cache-Control': 'no-cache, private', ...extra }, withRl);
  }

  private redirectToLogin(ctx: Ctx): void {
    const url = `${ctx.base}/login`;
    this.sendHtml(ctx, 302, redirectPage(url), { Location: url });
  }

  private tooMany(ctx: Ctx, retryAfter: number, resetAt: number): void {
    const headers = {
      'X-RateLimit-Limit': ctx.rl['X-RateLimit-Limit'] ?? String(this.limiters[ctx.server].perMinute),
      'X-RateLimit-Remaining': '0',
      'Retry-After': String(retryAfter),
      'X-RateLimit-Reset': String(resetAt),
    };
    if (ctx.json) this.sendJson(ctx, 429, { message: 'Too Many Attempts.' }, headers);
    else this.sendHtml(ctx, 429, errorPage(429, 'Too Many Requests'), headers);
  }

  private notFound(ctx: Ctx): void {
    this.sendJson(ctx, 404, { message: 'Resource not found.', status: 404 });
  }

  private invalid(ctx: Ctx, errors: Record<string, string[]>): void {
    this.sendJson(ctx, 422, { message: errors, status: 422 });
  }

  // --- the request pipeline -----------------------------------------------------------------------------

  private async handle(server: ServerName, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const qIndex = rawUrl.indexOf('?');
    const rawPath = qIndex >= 0 ? rawUrl.slice(0, qIndex) : rawUrl;
    const params = new URLSearchParams(qIndex >= 0 ? rawUrl.slice(qIndex + 1) : '');
    const query: Record<string, string> = {};
    const queryOrder: string[] = [];
    for (const [k, v] of params) {
      if (!(k in query)) queryOrder.push(k);
      query[k] = v; // PHP: the last one wins
    }
    const base = server === 'documents' ? this.docsUrl : this.seoUrl;

    const { raw, tooLarge } = await this.readBody(req);

    if (rawPath === '/__sandbox' || rawPath.startsWith('/__sandbox/')) {
      this.control(req, res, method, rawPath, raw);
      return;
    }

    const contentType = header(req, 'content-type');
    const input = parseBody(raw, contentType);
    const record: RequestRecord = {
      server,
      method,
      path: rawPath,
      query: { ...query },
      status: 0,
      authorized: false,
      at: started,
    };
    const authorization = header(req, 'authorization');
    if (authorization !== undefined) record.authorizationHeader = authorization;
    const userAgent = header(req, 'user-agent');
    if (userAgent !== undefined) record.userAgent = userAgent;
    const accept = header(req, 'accept');
    if (accept !== undefined) record.accept = accept;
    if (contentType !== undefined) record.contentType = contentType;
    if (raw.length > 0) record.body = stringifyInput(input);
    record.authorized = this.isAuthorized(authorization, query, input);
    const requestMethod = header(req, 'access-control-request-method');
    const isPreflight = method === 'OPTIONS' && requestMethod !== undefined && rawPath.startsWith('/api/');
    (isPreflight ? this.preflights : this.requests).push(record);

    const trimmedQuery = trimInput(query);
    const appQuery: Record<string, string> = {};
    for (const [k, v] of Object.entries(trimmedQuery)) if (typeof v === 'string') appQuery[k] = v;
    const ctx: Ctx = {
      server,
      base,
      req,
      res,
      record,
      query: appQuery,
      rawQuery: query,
      queryOrder,
      input: { ...trimmedQuery, ...trimInput(input) },
      json: wantsJson(accept, header(req, 'x-requested-with')),
      rl: {},
      // Laravel's HandleCors with the default config/cors.php: paths ['api/*'], any origin, no credentials.
      cors: this.cors !== false && rawPath.startsWith('/api/') ? { 'Access-Control-Allow-Origin': '*' } : {},
    };
    if (this.log) {
      const log = this.log;
      res.on('close', () => {
        const safeQuery = queryOrder.filter((k) => k !== 'api_token').map((k) => `${k}=${query[k]}`).join('&');
        log(`[sandbox] ${server} ${method} ${rawPath}${safeQuery ? '?' + safeQuery : ''} -> ${record.status || 'no answer'} (${Date.now() - started} ms)`);
      });
    }

    if (tooLarge) {
      this.sendHtml(ctx, 413, errorPage(413, 'Payload Too Large'), {}, false);
      return;
    }

    const apiPath = rawPath === '/api/v1' || rawPath.startsWith('/api/v1/');
    if (!apiPath) {
      if (rawPath === '/login' && (method === 'GET' || method === 'HEAD')) {
        this.sendHtml(ctx, 200, loginPage(), {}, false);
      } else if (rawPath === '/reports' && server === 'projects' && (method === 'GET' || method === 'HEAD')) {
        this.sendHtml(ctx, 200, this.reportsPage(appQuery.project ?? null), {}, false);
      } else if (rawPath === '/' && (method === 'GET' || method === 'HEAD')) {
        this.sendHtml(ctx, 200, htmlPage('Sandbox', `    <h1>Content Docs sandbox (${server})</h1>\n    <p>The API is under /api/v1.</p>`), {}, false);
      } else {
        this.sendHtml(ctx, 404, errorPage(404, 'Not Found'), {}, false);
      }
      return;
    }

    // 1. latency
    if (!(await this.sleep(this.latencyMs))) return;

    // 2. the web server refuses encoded slashes before the application sees the request
    if (/%2f/i.test(rawPath)) {
      this.sendFromWebServer(ctx, 404, gatewayPage(404, 'Not Found'));
      return;
    }

    // A proxy in front that refuses OPTIONS: the application never sees the request.
    if (this.cors === 'proxy-blocks-options' && method === 'OPTIONS') {
      this.sendFromWebServer(ctx, 405, gatewayPage(405, 'Method Not Allowed'));
      return;
    }

    // 3. CORS preflight: answered at once by the global middleware (fruitcake/php-cors), before routing,
    //    throttling and authentication; allowed_methods/allowed_headers '*' echo what was asked for.
    if (this.cors !== false && isPreflight) {
      const requestHeaders = header(req, 'access-control-request-headers') ?? '';
      ctx.record.status = 204;
      res.writeHead(204, {
        'Cache-Control': 'no-cache, private',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': requestMethod.toUpperCase(),
        'Access-Control-Allow-Headers': requestHeaders,
        'Access-Control-Max-Age': '0',
        Vary: 'Access-Control-Request-Method, Access-Control-Request-Headers',
      });
      res.end();
      return;
    }

    // 4. routing
    const segments = rawPath.slice('/api/v1'.length).split('/').filter((s) => s !== '').map(decodeSegment);
    const match = matchRoute(server, method, segments);
    if (match.kind === 'route') record.route = match.route;
    if (match.kind === 'options') {
      // Laravel's router answers a plain OPTIONS on a known path itself: 200, empty, Allow (no auth, not counted).
      this.send(ctx, 200, '', { 'Content-Type': 'text/html; charset=UTF-8', 'Cache-Control': 'no-cache, private', Allow: match.allow }, false);
      return;
    }
    if (match.kind === 'method') {
      this.send(
        ctx,
        405,
        phpJson({
          message: `The ${method} method is not supported for route ${rawPath.replace(/^\//, '')}. Supported methods: ${match.allow}.`,
          status: 405,
        }),
        { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', Allow: match.allow },
        false,
      );
      return;
    }

    // 5. rate limit, when configured (before authentication)
    const hit = this.limiters[server].hit(Date.now(), server === 'projects' && this.projectsDoubleCount ? 2 : 1);
    ctx.rl = hit.headers;
    if (!hit.allowed) {
      this.tooMany(ctx, hit.retryAfter, hit.resetAt);
      return;
    }

    // 6. authentication
    if (!record.authorized) {
      if (ctx.json) this.sendJson(ctx, 401, { message: 'Unauthenticated.' });
      else this.redirectToLogin(ctx);
      return;
    }

    // 7. unknown path
    if (match.kind === 'unknown') {
      this.notFound(ctx);
      return;
    }

    // 8. the plan: no API access
    const planApi = server === 'documents' ? this.accountState.plan.features.api : this.accountState.seoPlan.features.api;
    if (!planApi) {
      this.sendJson(ctx, 403, { message: "You don't have access to this feature.", status: 403 });
      return;
    }

    // A test's hold on the route (see hold()).
    const held = this.holds.get(match.route);
    if (held) {
      await held;
      if (this.closed) return;
    }

    // 9. fault
    const fault = this.takeFault(match.route);
    if (fault) {
      this.applyFault(ctx, match.route, fault);
      return;
    }

    // 10. a test's hook (see Sandbox.onRequest), then the handler
    if (this.requestHook) {
      await this.requestHook(record);
      if (this.closed) return;
    }
    switch (match.route) {
      case 'account': return this.showAccount(ctx);
      case 'projects.account': return this.showSeoAccount(ctx);
      case 'documents.list': return this.listDocuments(ctx);
      case 'documents.show': return this.showDocument(ctx, match.params[0]);
      case 'documents.store': return this.storeDocument(ctx);
      case 'documents.update': return this.updateDocument(ctx, match.params[0]);
      case 'documents.delete': return this.deleteDocument(ctx, match.params[0]);
      case 'projects.list': return this.listProjects(ctx);
      case 'projects.delete': return this.deleteProject(ctx, match.params[0]);
    }
  }

  regenerateKey(key: string): void {
    this.key = key;
    this.otherKeys.clear();
  }

  addKey(key: string): void {
    this.otherKeys.add(key);
  }

  async setListening(name: ServerName, on: boolean): Promise<void> {
    const i = name === 'documents' ? 0 : 1;
    const server = this.servers[i];
    if (!server || this.closed) throw new Error('sandbox: not started, or closed');
    if (on === server.listening) return;
    const port = Number(new URL(name === 'documents' ? this.docsUrl : this.seoUrl).port);
    if (!on) {
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of this.sockets) if (socket.localPort === port) socket.destroy();
      await done;
      // A client in this process hears of its dropped connections on a later turn: until then it would send on one.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return;
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  private isAuthorized(authorization: string | undefined, query: Record<string, string>, body: Input): boolean {
    // Laravel's token guard: api_token in the query, then in the body, then the Bearer header.
    let token: string | undefined;
    if (typeof query.api_token === 'string' && query.api_token !== '') token = query.api_token;
    else if (typeof body.api_token === 'string' && body.api_token !== '') token = body.api_token;
    else if (authorization) {
      const m = /^Bearer\s+(.+)$/i.exec(authorization.trim());
      if (m) token = m[1].trim();
    }
    return token !== undefined && (token === this.key || this.otherKeys.has(token));
  }

  private takeFault(route: RouteName): Fault | undefined {
    const active = this.faults.get(route);
    if (!active) return undefined;
    if (active.remaining !== undefined) {
      active.remaining--;
      if (active.remaining <= 0) this.faults.delete(route);
    }
    return active.fault;
  }

  private applyFault(ctx: Ctx, route: RouteName, fault: Fault): void {
    const list = route === 'documents.list' || route === 'projects.list';
    switch (fault.kind) {
      case 'status500':
        return this.sendJson(ctx, 500, { message: 'An unexpected error has occurred, please try again.', status: 500 });
      case 'status502':
        return this.sendFromWebServer(ctx, 502, gatewayPage(502, 'Bad Gateway'));
      case 'status503':
        return this.sendFromWebServer(ctx, 503, gatewayPage(503, 'Service Temporarily Unavailable'));
      case 'status504':
        return this.sendFromWebServer(ctx, 504, gatewayPage(504, 'Gateway Time-out'));
      case 'hang':
        // Never answers; close() destroys the socket.
        ctx.record.status = 0;
        return;
      case 'reset': {
        const full = Buffer.from(
          phpJson({ data: Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `Partial answer ${i + 1}` })), status: 200 }),
        );
        ctx.record.status = 200;
        ctx.res.writeHead(200, { ...ctx.rl, ...ctx.cors, 'Content-Type': 'application/json', 'Content-Length': String(full.length) });
        ctx.res.write(full.subarray(0, Math.floor(full.length / 2)), () => ctx.res.socket?.destroy());
        return;
      }
      case 'malformedJson':
        return this.send(ctx, 200, list ? '{"data":[{"id":1,"name":"Truncat' : '{"data":{"id":1,"name":"Truncat', {
          'Content-Type': 'application/json',
        });
      case 'html200':
        return this.sendHtml(
          ctx,
          200,
          htmlPage('Welcome', '    <h1>Welcome to the network</h1>\n    <p>Please accept the terms of use to continue.</p>'),
        );
      case 'redirectLogin':
        return this.redirectToLogin(ctx);
      case 'wrongShape':
        return this.sendJson(ctx, 200, { data: 'nope', status: 200 });
      case 'oversized':
        return this.send(ctx, 200, this.oversized(list), { 'Content-Type': 'application/json' });
      case 'status422':
        return this.invalid(ctx, fault.fields && Object.keys(fault.fields).length ? fault.fields : { name: ['The name field is invalid.'] });
      case 'rateLimit': {
        const retryAfter = fault.retryAfter ?? 2;
        ctx.rl = { 'X-RateLimit-Limit': ctx.rl['X-RateLimit-Limit'] ?? '60', 'X-RateLimit-Remaining': '0' };
        return this.tooMany(ctx, retryAfter, Math.ceil(Date.now() / 1000) + retryAfter);
      }
    }
  }

  /** A valid, ~20 MB JSON answer: a huge list, or one record with a huge result. */
  private oversized(list: boolean): Buffer {
    const key = list ? 'list' : 'record';
    const cached = this.oversizedCache.get(key);
    if (cached) return cached;
    const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';
    const record = (id: number, result: string) =>
      phpJson({
        id,
        name: `Oversized ${id}`,
        template: { id: 1, name: 'Freestyle' },
        result,
        words: countWords(result),
        favorite: false,
        created_at: '2026-01-01T00:00:00.000000Z',
        updated_at: '2026-01-01T00:00:00.000000Z',
      });
    let body: string;
    if (list) {
      const one = record(1, filler.repeat(36));
      const n = Math.ceil(OVERSIZED_BYTES / one.length);
      const items: string[] = [];
      for (let i = 1; i <= n; i++) items.push(record(i, filler.repeat(36)));
      body = `{"data":[${items.join(',')}],"status":200}`;
    } else {
      body = `{"data":${record(1, filler.repeat(Math.ceil(OVERSIZED_BYTES / filler.length)))},"status":200}`;
    }
    const buf = Buffer.from(body);
    this.oversizedCache.set(key, buf);
    return buf;
  }

  // --- control surface ----------------------------------------------------------------------------------

  private control(req: http.IncomingMessage, res: http.ServerResponse, method: string, path: string, raw: Buffer): void {
    const browser: Record<string, string> = this.controlCors ? { 'Access-Control-Allow-Origin': '*' } : {};
    if (this.controlCors && method === 'OPTIONS') {
      res.writeHead(204, {
        ...browser,
        'Access-Control-Allow-Methods': header(req, 'access-control-request-method') ?? 'GET, POST',
        'Access-Control-Allow-Headers': header(req, 'access-control-request-headers') ?? '',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    const reply = (status: number, value: unknown) => {
      const body = Buffer.from(JSON.stringify(value));
      res.writeHead(status, { ...browser, 'Content-Type': 'application/json', 'Content-Length': String(body.length), 'Cache-Control': 'no-store' });
      res.end(body);
    };
    let body: Record<string, unknown> = {};
    if (raw.length > 0) {
      try {
        const parsed: unknown = JSON.parse(raw.toString('utf8'));
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
        else return reply(400, { error: 'expected a JSON object' });
      } catch {
        return reply(400, { error: 'invalid JSON' });
      }
    }
    const action = path.replace(/^\/__sandbox\/?/, '').replace(/\/$/, '');
    try {
      if (method === 'GET' && action === 'requests') return reply(200, this.requests);
      if (method === 'GET' && action === 'preflights') return reply(200, this.preflights);
      if (method === 'GET' && (action === 'status' || action === '')) {
        return reply(200, {
          docsUrl: this.docsUrl,
          seoUrl: this.seoUrl,
          documents: this.documents.size,
          reports: this.reports.length,
          latencyMs: this.latencyMs,
          rateLimit: { documents: this.limiters.documents.perMinute, projects: this.limiters.projects.perMinute },
          projectsDoubleCount: this.projectsDoubleCount,
          cors: this.cors,
          faults: Object.fromEntries([...this.faults].map(([r, f]) => [r, { ...f.fault, remaining: f.remaining }])),
        });
      }
      if (method === 'GET' && action === 'account') return reply(200, { ...this.accountState, lastModelPrompt: this.modelPrompt ?? null });
      const docMatch = /^documents\/(\d+)$/.exec(action);
      if (method === 'GET' && docMatch) {
        const doc = this.documents.get(Number(docMatch[1]));
        if (!doc) return reply(404, { error: 'no such document' });
        return reply(200, doc);
      }
      if (method !== 'POST') return reply(404, { error: `unknown control route ${method} ${path}` });
      switch (action) {
        case 'reset-requests':
          this.resetRequests();
          return reply(200, { ok: true });
        case 'fault': {
          const route = body.route as RouteName;
          const fault = body.fault as Fault | null | undefined;
          this.setFault(route, fault ?? undefined);
          return reply(200, { ok: true });
        }
        case 'clear-faults':
          this.clearFaults();
          return reply(200, { ok: true });
        case 'latency':
          if (typeof body.ms !== 'number' || !(body.ms >= 0)) return reply(400, { error: 'ms must be a number >= 0' });
          this.setLatency(body.ms);
          return reply(200, { ok: true });
        case 'rate-limit': {
          if (typeof body.perMinute !== 'number' || !(body.perMinute >= 0)) return reply(400, { error: 'perMinute must be a number >= 0' });
          const server = body.server;
          if (server !== undefined && server !== 'documents' && server !== 'projects') return reply(400, { error: 'server must be documents or projects' });
          this.setRateLimit(body.perMinute, server);
          return reply(200, { ok: true });
        }
        case 'reset-rate-limit':
          this.resetRateLimit();
          return reply(200, { ok: true });
        case 'projects-double-count':
          if (typeof body.on !== 'boolean') return reply(400, { error: 'on must be true or false' });
          this.setProjectsDoubleCount(body.on);
          return reply(200, { ok: true });
        case 'cors':
          if (typeof body.enabled !== 'boolean' && body.enabled !== 'proxy-blocks-options') {
            return reply(400, { error: "enabled must be true, false or 'proxy-blocks-options'" });
          }
          this.setCors(body.enabled);
          return reply(200, { ok: true });
        case 'store-delay':
          if (typeof body.ms !== 'number' || !(body.ms >= 0)) return reply(400, { error: 'ms must be a number >= 0' });
          this.setStoreDelay(body.ms);
          return reply(200, { ok: true });
        case 'model-answer':
          // { answer: string | null } sets what the text generator writes; {} goes back to the default.
          if ('answer' in body && body.answer !== null && typeof body.answer !== 'string') return reply(400, { error: 'answer must be a string or null' });
          this.setModelAnswer('answer' in body ? (body.answer as string | null) : undefined);
          return reply(200, { ok: true });
        case 'account':
          // { plan?: {id?, name?, features?}, seoPlan?: {...}, counters?: {...}, defaultCreativity? }
          this.setAccount(body);
          return reply(200, { ok: true, account: this.accountState });
        case 'reseed': {
          const seed = body.seed as SandboxOptions['seed'] | undefined;
          if (
            seed !== undefined &&
            seed !== 'default' &&
            seed !== 'large' &&
            seed !== 'empty' &&
            !(seed && typeof seed === 'object' && typeof seed.documents === 'number' && typeof seed.projects === 'number')
          ) {
            return reply(400, { error: 'seed must be default, large, empty or {documents, projects}' });
          }
          this.reseed(seed ?? 'default');
          return reply(200, { ok: true, documents: this.documents.size, reports: this.reports.length });
        }
        default:
          return reply(404, { error: `unknown control route ${method} ${path}` });
      }
    } catch (err) {
      return reply(400, { error: err instanceof Error ? err.message : String(err) });
    }
  }

  // --- documents ---------------------------------------------------------------------------------------

  private record(d: SandboxDocument): Record<string, unknown> {
    // [] when the template does not exist (deleted, or an unknown id given on store).
    let template: unknown = [];
    if (d.templateId !== null) {
      const name = d.templateName ?? findTemplate(d.templateId)?.name;
      if (name !== undefined) template = { id: d.templateId, name };
    }
    return {
      id: d.id,
      name: d.name,
      template,
      result: d.result,
      words: d.words,
      favorite: d.favorite,
      created_at: isoMicro(d.createdAt),
      updated_at: isoMicro(d.updatedAt),
    };
  }

  private showAccount(ctx: Ctx): void {
    const a = this.accountState;
    this.sendJson(ctx, 200, {
      data: {
        ...userFields(),
        plan: { id: a.plan.id, name: a.plan.name, features: { ...a.plan.features } },
        default_variations: 1,
        default_creativity: a.defaultCreativity,
        default_language: 'en',
        ...a.counters,
        created_at: SANDBOX_USER.created_at,
      },
      status: 200,
    });
  }

  /** The projects server's /account: the user and its own plan, no usage counters. */
  private showSeoAccount(ctx: Ctx): void {
    const p = this.accountState.seoPlan;
    this.sendJson(ctx, 200, {
      data: {
        ...userFields(),
        plan: { id: p.id, name: p.name, features: { ...p.features } },
        created_at: SANDBOX_USER.created_at,
      },
      status: 200,
    });
  }

  private listDocuments(ctx: Ctx): void {
    const q = ctx.query;
    const search = listSearch(q.search);
    const searchBy = q.search_by === 'result' ? 'result' : 'name';
    const sortBy = q.sort_by === 'name' ? 'name' : 'id';
    let docs = [...this.documents.values()];
    if (search !== null) {
      const like = likeMatcher(`%${search}%`);
      docs = docs.filter((d) => {
        const text = searchBy === 'name' ? d.name : d.result;
        return text !== null && like(text);
      });
    }
    const templateId = (q.template_id ?? '').trim();
    if (templateId !== '' && templateId !== '0') {
      const id = /^\d+$/.test(templateId) ? Number(templateId) : NaN; // non-numeric: matches nothing
      docs = docs.filter((d) => d.templateId === id);
    }
    if (q.favorite === '1' || q.favorite === '0') {
      const want = q.favorite === '1';
      docs = docs.filter((d) => d.favorite === want);
    }
    docs.sort(documentOrder(sortBy, q.sort === 'asc' ? 'asc' : 'desc', pageSize(q)));
    this.sendJson(ctx, 200, this.paginate(ctx, docs, (d) => this.record(d)));
  }

  private showDocument(ctx: Ctx, id: string): void {
    const doc = /^\d+$/.test(id) ? this.documents.get(Number(id)) : undefined;
    if (!doc) return this.notFound(ctx);
    this.sendJson(ctx, 200, { data: this.record(doc), status: 200 });
  }

  private async storeDocument(ctx: Ctx): Promise<void> {
    const input = ctx.input;
    const errors: Record<string, string[]> = {};
    const add = (field: string, text: string) => (errors[field] ??= []).push(text);

    const name = input.name;
    if (name === null || name === undefined) add('name', 'The name field is required.');
    else if (typeof name !== 'string') add('name', 'The name must be a string.');
    else if (codePoints(name) > 128) add('name', 'The name must not be greater than 128 characters.');
    // The administrator's banned keywords, then the plan's quota gates: rules on `name` (-1 = unlimited), after its other rules.
    if (typeof name === 'string' && !errors.name && this.bannedWords.some((w) => w && name.toLowerCase().includes(w.toLowerCase()))) {
      add('name', BANNED_NAME_MESSAGE);
    }
    if (typeof name === 'string' && !errors.name) {
      const { features } = this.accountState.plan;
      const { counters } = this.accountState;
      const reached = (count: number, limit: number) => limit !== -1 && count >= limit;
      if (reached(counters.words_month_count, features.words)) add('name', WORDS_LIMIT_MESSAGE);
      if (reached(counters.documents_month_count, features.documents)) add('name', DOCUMENTS_LIMIT_MESSAGE);
    }

    const prompt = input.prompt;
    if (prompt === null || prompt === undefined) add('prompt', 'The prompt field is required.');
    else if (typeof prompt !== 'string') add('prompt', 'The prompt must be a string.');
    else if (codePoints(prompt) > 2048) add('prompt', 'The prompt must not be greater than 2048 characters.');

    const creativityRaw = input.creativity;
    let creativity = NaN;
    if (creativityRaw === null || creativityRaw === undefined) add('creativity', 'The creativity field is required.');
    else if (!isNumeric(creativityRaw)) add('creativity', 'The creativity must be a number.');
    else {
      creativity = Number(creativityRaw);
      if (creativity < 0 || creativity > 1) add('creativity', 'The creativity must be between 0 and 1.');
    }

    // template_id is not validated: an unknown or non-numeric id still creates the document, whose
    // template is then [] (a numeric id is kept, so the list's template_id filter still finds it).
    let templateId: number | null = 1;
    const templateRaw = input.template_id;
    if (templateRaw !== null && templateRaw !== undefined) {
      templateId = isInteger(templateRaw) ? Number(templateRaw) : null;
    }

    const variations = input.variations;
    const hasVariations = variations !== null && variations !== undefined;
    if (hasVariations) {
      if (!isInteger(variations)) add('variations', 'The variations must be an integer.');
      else if (Number(variations) < 1 || Number(variations) > 4) add('variations', 'The variations must be between 1 and 4.');
    }

    if (Object.keys(errors).length > 0) return this.invalid(ctx, errors);
    if (hasVariations) return this.notFound(ctx);

    // "Generating": the real server calls the text generator synchronously during this request, with the
    // prompt flattened (every newline, tab and run of white space made one space) as the one user message
    // and creativity as the temperature; template_id only labels the document.
    const modelPrompt = flattenPrompt(prompt as string);
    this.modelPrompt = modelPrompt;
    ctx.record.modelPrompt = modelPrompt;
    if (!(await this.sleep(this.storeDelayMs))) return;
    const template = templateId === null ? undefined : findTemplate(templateId);
    const answer = this.modelAnswer === undefined ? generatedResult(modelPrompt, creativity) : this.modelAnswer;
    const result = answer === null ? null : laravelTrim(answer);
    const maxId = [...this.documents.keys()].reduce((m, k) => Math.max(m, k), 0);
    const id = Math.max(this.lastIssuedId, maxId) + 1;
    this.lastIssuedId = id;
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const doc: SandboxDocument = {
      id,
      name: name as string,
      templateId,
      result,
      words: countWords(result),
      favorite: false,
      createdAt: now,
      updatedAt: now,
      prompt: prompt as string,
      creativity,
    };
    if (templateId !== null && templateId > 52 && template) doc.templateName = template.name;
    this.documents.set(id, doc);
    const { counters } = this.accountState;
    counters.documents_month_count++;
    counters.documents_total_count++;
    counters.words_month_count += doc.words;
    counters.words_total_count += doc.words;
    // Even if the client gave up waiting, the document now exists (as on the real server).
    this.sendJson(ctx, 201, { data: this.record(doc), status: 200 });
  }

  private updateDocument(ctx: Ctx, id: string): void {
    const input = ctx.input;
    const errors: Record<string, string[]> = {};
    const add = (field: string, text: string) => (errors[field] ??= []).push(text);
    const has = (k: string) => Object.prototype.hasOwnProperty.call(input, k);

    if (has('name')) {
      const v = input.name;
      if (v === null || v === undefined) add('name', 'The name field is required.');
      else if (typeof v !== 'string') add('name', 'The name must be a string.');
      else if (codePoints(v) > 128) add('name', 'The name must not be greater than 128 characters.');
    }
    if (has('result')) {
      const v = input.result;
      if (v === null || v === undefined) add('result', 'The result field is required.');
      else if (typeof v !== 'string') add('result', 'The result must be a string.');
      else if (codePoints(v) > 20480) add('result', 'The result must not be greater than 20480 characters.');
    }
    let favorite: boolean | undefined;
    if (has('favorite')) {
      const v = input.favorite;
      if (v === true || v === 1 || v === '1') favorite = true;
      else if (v === false || v === 0 || v === '0') favorite = false;
      else add('favorite', 'The favorite field must be true or false.');
    }
    if (Object.keys(errors).length > 0) return this.invalid(ctx, errors);

    const doc = /^\d+$/.test(id) ? this.documents.get(Number(id)) : undefined;
    if (!doc) return this.notFound(ctx);

    let changed = false;
    if (has('name') && input.name !== doc.name) {
      doc.name = input.name as string;
      changed = true;
    }
    if (has('result') && input.result !== doc.result) {
      doc.result = input.result as string; // words are not recounted
      changed = true;
    }
    if (favorite !== undefined && favorite !== doc.favorite) {
      doc.favorite = favorite;
      changed = true;
    }
    if (changed) doc.updatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    this.sendJson(ctx, 200, { data: this.record(doc), status: 200 });
  }

  private deleteDocument(ctx: Ctx, id: string): void {
    const doc = /^\d+$/.test(id) ? this.documents.get(Number(id)) : undefined;
    if (!doc) return this.notFound(ctx);
    this.documents.delete(doc.id);
    this.sendJson(ctx, 200, { id: doc.id, object: 'document', deleted: true, status: 200 });
  }

  // --- projects ----------------------------------------------------------------------------------------

  /**
   * Projects: the reports grouped by name under the collation (case, accents and trailing spaces ignored),
   * each named as its first created report names it.
   */
  projects(): Array<{ key: string; project: string; reports: number; result: number | string; createdAt: Date }> {
    const sorted = [...this.reports].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
    const groups: Array<{ project: string; reports: number; sum: number; createdAt: Date }> = [];
    for (const r of sorted) {
      const g = groups.find((x) => collate(x.project, r.project) === 0);
      if (g) {
        g.reports++;
        g.sum += r.result;
      } else {
        groups.push({ project: r.project, reports: 1, sum: r.result, createdAt: r.createdAt });
      }
    }
    return groups.map((g) => {
      const key = fold(g.project.replace(/ +$/, ''));
      const avg = Math.round((g.sum / g.reports) * 10) / 10;
      // The real server answers some results as numeric strings: vary it, deterministically per project.
      const result = hashString(key) % 3 === 0 ? avg.toFixed(1) : avg;
      return { key, project: g.project, reports: g.reports, result, createdAt: g.createdAt };
    });
  }

  /**
   * The web UI's reports page, `{seo_url}/reports?project=<name>`, where the product links a project (CONTRACT.md,
   * projects): the project's reports (its name matched under the collation), newest first, with their average and its
   * badge; every report without `project`. The real page is behind the web UI's login; the sandbox has no sessions and
   * shows it at once, so the demo's project links lead somewhere.
   */
  reportsPage(project: string | null): string {
    const chosen = project === null ? [...this.reports] : this.reports.filter((r) => collate(r.project, project) === 0);
    chosen.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    const title = project === null ? 'Reports' : `Reports: ${project}`;
    const rows = chosen.map((r) => `        <tr><td>${htmlEscape(r.project)}</td><td>${r.result.toFixed(1)}</td><td>${isoMicro(r.createdAt).slice(0, 10)}</td></tr>`);
    const sum = chosen.reduce((n, r) => n + r.result, 0);
    const average = chosen.length ? Math.round((sum / chosen.length) * 10) / 10 : undefined;
    const badge = average === undefined ? '' : average > 79 ? 'Good' : average > 49 ? 'Decent' : 'Bad';
    const summary =
      average === undefined
        ? '    <p>No reports.</p>'
        : `    <p>${chosen.length} ${chosen.length === 1 ? 'report' : 'reports'}, average score ${average.toFixed(1)} of 100: <strong>${badge}</strong></p>\n` +
          `    <table>\n        <tr><th>Project</th><th>Score</th><th>Date</th></tr>\n${rows.join('\n')}\n    </table>`;
    return htmlPage(htmlEscape(title), `    <h1>${htmlEscape(title)}</h1>\n${summary}`);
  }

  private listProjects(ctx: Ctx): void {
    const q = ctx.query;
    const search = listSearch(q.search);
    const sortBy = q.sort_by === 'project' ? 'project' : 'created_at';
    const dir = q.sort === 'asc' ? 1 : -1;
    let list = this.projects();
    if (search !== null) {
      const like = likeMatcher(`%${search}%`);
      list = list.filter((p) => like(p.project));
    }
    list.sort((a, b) => {
      const byDate = a.createdAt.getTime() - b.createdAt.getTime();
      const byName = collate(a.project, b.project);
      return dir * (sortBy === 'project' ? byName || byDate : byDate || byName);
    });
    this.sendJson(
      ctx,
      200,
      this.paginate(ctx, list, (p) => ({ project: p.project, reports: p.reports, result: p.result, created_at: isoMicro(p.createdAt) })),
    );
  }

  private deleteProject(ctx: Ctx, name: string): void {
    // The name matches under the collation: `Café ` = `cafe`.
    const same = (r: SandboxReport) => collate(r.project, name) === 0;
    if (!this.reports.some(same)) return this.notFound(ctx);
    for (let i = this.reports.length - 1; i >= 0; i--) {
      if (same(this.reports[i])) this.reports.splice(i, 1);
    }
    if (this.projectDeleteBug && this.reports.length > 0) {
      // The known server bug: one unrelated report (the oldest remaining) goes as well.
      let victim = 0;
      for (let i = 1; i < this.reports.length; i++) {
        const a = this.reports[i];
        const b = this.reports[victim];
        if (a.createdAt.getTime() < b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id < b.id)) victim = i;
      }
      this.reports.splice(victim, 1);
    }
    this.sendJson(ctx, 200, { id: name, object: 'report', deleted: true, status: 200 });
  }

  // --- paging ------------------------------------------------------------------------------------------

  /** Laravel's paginated resource collection, with `status` added. */
  private paginate<T>(ctx: Ctx, all: T[], toJson: (item: T) => unknown): Record<string, unknown> {
    const q = ctx.query;
    const perPage = pageSize(q);
    const pageRaw = (q.page ?? '').trim();
    const page = /^\d+$/.test(pageRaw) && Number(pageRaw) >= 1 ? Number(pageRaw) : 1;
    const total = all.length;
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const items = all.slice((page - 1) * perPage, page * perPage);
    const path = `${ctx.base}${ctx.record.path.replace(/\/+$/, '')}`;
    const keep = ctx.queryOrder.filter((k) => k !== 'page');
    const url = (p: number) => {
      const sp = new URLSearchParams();
      for (const k of keep) sp.append(k, q[k]);
      sp.append('page', String(p));
      return `${path}?${sp.toString()}`;
    };
    const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
    const to = from !== null ? from + items.length - 1 : null;
    const prev = page > 1 ? url(page - 1) : null;
    const next = page < lastPage ? url(page + 1) : null;
    const links: Array<{ url: string | null; label: string; active: boolean }> = [{ url: prev, label: '&laquo; Previous', active: false }];
    for (const el of pageWindow(page, lastPage)) {
      if (el === '...') links.push({ url: null, label: '...', active: false });
      else links.push({ url: url(el), label: String(el), active: el === page });
    }
    links.push({ url: next, label: 'Next &raquo;', active: false });
    return {
      data: items.map(toJson),
      links: { first: url(1), last: url(lastPage), prev, next },
      meta: { current_page: page, from, last_page: lastPage, links, path, per_page: perPage, to, total },
      status: 200,
    };
  }
}

/** Laravel's UrlWindow (onEachSide = 3): page numbers and '...' gaps. */
export function pageWindow(current: number, last: number): Array<number | '...'> {
  const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => a + i);
  const onEachSide = 3;
  if (last < onEachSide * 2 + 8) return range(1, last);
  const window = onEachSide + 4;
  if (current <= window) return [...range(1, window + onEachSide), '...', last - 1, last];
  if (current > last - window) return [1, 2, '...', ...range(last - (window + (onEachSide - 1)), last)];
  return [1, 2, '...', ...range(current - onEachSide, current + onEachSide), '...', last - 1, last];
}

function matchRoute(server: ServerName, method: string, seg: string[]): Match {
  const found = matchRouteMethod(server, method, seg);
  // A plain OPTIONS on a path that exists for other methods: Laravel's router answers it (200 + Allow).
  if (method === 'OPTIONS' && found.kind === 'method') return { kind: 'options', allow: found.allow.replace(/, /g, ',') };
  return found;
}

function matchRouteMethod(server: ServerName, method: string, seg: string[]): Match {
  const m = method === 'HEAD' ? 'GET' : method;
  if (server === 'documents') {
    if (seg.length === 1 && seg[0] === 'documents') {
      if (m === 'GET') return { kind: 'route', route: 'documents.list', params: [] };
      if (m === 'POST') return { kind: 'route', route: 'documents.store', params: [] };
      return { kind: 'method', allow: 'GET, HEAD, POST' };
    }
    if (seg.length === 2 && seg[0] === 'documents') {
      if (m === 'GET') return { kind: 'route', route: 'documents.show', params: [seg[1]] };
      if (m === 'PUT' || m === 'PATCH') return { kind: 'route', route: 'documents.update', params: [seg[1]] };
      if (m === 'DELETE') return { kind: 'route', route: 'documents.delete', params: [seg[1]] };
      return { kind: 'method', allow: 'GET, HEAD, PUT, PATCH, DELETE' };
    }
    if (seg.length === 1 && seg[0] === 'account') {
      if (m === 'GET') return { kind: 'route', route: 'account', params: [] };
      return { kind: 'method', allow: 'GET, HEAD' };
    }
    return { kind: 'unknown' };
  }
  if (seg.length === 1 && seg[0] === 'account') {
    if (m === 'GET') return { kind: 'route', route: 'projects.account', params: [] };
    return { kind: 'method', allow: 'GET, HEAD' };
  }
  if (seg.length === 1 && seg[0] === 'projects') {
    if (m === 'GET') return { kind: 'route', route: 'projects.list', params: [] };
    return { kind: 'method', allow: 'GET, HEAD' };
  }
  if (seg.length === 2 && seg[0] === 'projects') {
    if (m === 'DELETE') return { kind: 'route', route: 'projects.delete', params: [seg[1]] };
    return { kind: 'method', allow: 'DELETE' };
  }
  if (seg.length > 2 && seg[0] === 'projects') {
    // A raw slash in a project name: the extra segment lands on a GET-only route of the SEO product.
    if (m === 'GET') return { kind: 'unknown' };
    return { kind: 'method', allow: 'GET, HEAD' };
  }
  return { kind: 'unknown' };
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Form bodies (and JSON bodies, as Laravel also accepts them). Other types: no input. */
function parseBody(raw: Buffer, contentType: string | undefined): Input {
  if (raw.length === 0) return {};
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const text = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') {
    const out: Input = {};
    for (const [k, v] of new URLSearchParams(text)) out[k] = v;
    return out;
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      const v: unknown = JSON.parse(text);
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Input) : {};
    } catch {
      return {};
    }
  }
  return {};
}

/** Laravel's TrimStrings + ConvertEmptyStringsToNull. */
function trimInput(input: Input): Input {
  const out: Input = {};
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string') {
      const t = laravelTrim(v);
      out[k] = t === '' ? null : t;
    } else {
      out[k] = v;
    }
  }
  return out;
}

function stringifyInput(input: Input): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(input)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/** The list's search term (already trimmed, blank dropped); "0" (PHP-falsy) means no search. */
function listSearch(s: string | undefined): string | null {
  return s === undefined || s === '' || s === '0' ? null : s;
}

function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v);
}

function isInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  return typeof v === 'string' && /^[+-]?\d+$/.test(v);
}

function corsMode(mode: CorsMode): CorsMode {
  if (mode === true || mode === false || mode === 'proxy-blocks-options') return mode;
  throw new Error(`sandbox: cors must be true, false or 'proxy-blocks-options' (got ${String(mode)})`);
}

/** Starts the sandbox's two servers on a loopback address. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = new SandboxImpl(options);
  await sandbox.start();
  return sandbox;
}
