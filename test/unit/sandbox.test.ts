/**
 * The sandbox against the API contract (test/sandbox answers as CONTRACT.md says), point by point.
 * Each `it` names the contract point it checks. Real HTTP over 127.0.0.1 with Node's global fetch.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import {
  DEFAULT_KEY,
  DEFAULT_PLAN,
  BANNED_NAME_MESSAGE,
  BANNED_WORD,
  collate,
  DOCUMENTS_LIMIT_MESSAGE,
  startSandbox,
  WORDS_LIMIT_MESSAGE,
  type Sandbox,
  type SandboxReport,
} from '../sandbox/server';
import { countWords, generateSeed, SEED_BASE_DATE } from '../sandbox/seed';
import { TEMPLATES } from '../sandbox/templates';

interface Res {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

interface Opts {
  method?: string;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** false: no Authorization header; a string: that key. */
  auth?: boolean | string;
  /** null: fetch's default Accept (*\/*). */
  accept?: string | null;
  signal?: AbortSignal;
}

async function call(url: string, o: Opts = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (o.auth !== false) headers.Authorization = `Bearer ${typeof o.auth === 'string' ? o.auth : DEFAULT_KEY}`;
  if (o.accept !== null) headers.Accept = o.accept ?? 'application/json';
  let body: string | undefined;
  if (o.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(o.form).toString();
  }
  if (o.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(o.json);
  }
  Object.assign(headers, o.headers);
  const r = await fetch(url, { method: o.method ?? 'GET', headers, body, redirect: 'manual', signal: o.signal });
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
}

const ISO_MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/;
/** Zero-width space and byte-order mark: Laravel's TrimStrings removes both at the ends. */
const ZWSP = '\u200B';
const BOM = '\uFEFF';
const rlHeaders = (h: Headers) => [...h.keys()].filter((k) => k.startsWith('x-ratelimit-'));
const corsHeaders = (h: Headers) => [...h.keys()].filter((k) => k.startsWith('access-control-'));
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

describe('sandbox server (CONTRACT.md)', function () {
  this.timeout(15000);
  let sb: Sandbox;
  const docs = (p: string, o?: Opts) => call(sb.docsUrl + '/api/v1' + p, o);
  const seo = (p: string, o?: Opts) => call(sb.seoUrl + '/api/v1' + p, o);
  const docByName = (name: string) => [...sb.documents.values()].find((d) => d.name === name)!;

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.reseed('default'); // also resets the account (plan and counters)
    sb.clearFaults();
    sb.setLatency(0);
    sb.setCors(true);
    sb.setRateLimit(0);
    sb.setProjectsDoubleCount(false);
    sb.resetRequests();
  });
  /** Stores documents with these names, in this order, over HTTP; returns their ids. */
  const storeAll = async (names: string[]): Promise<number[]> => {
    const ids: number[] = [];
    for (const name of names) {
      const r = await docs('/documents', { method: 'POST', form: { name, prompt: `About ${name}`, creativity: '0.5' } });
      assert.equal(r.status, 201, name);
      ids.push(r.json.data.id);
    }
    return ids;
  };
  /** The collation's order as CONTRACT.md spells it out for these names (punctuation, symbols, digits, letters). */
  const COLLATION_NAMES_SHUFFLED = ['zebra', '2 things', 'Banana', '~tilde', 'apple', '(paren', '10 things', '_under', 'Äpfel', '-dash', '{brace', '<less'];
  const COLLATION_ORDER = ['_under', '-dash', '(paren', '{brace', '<less', '~tilde', '10 things', '2 things', 'Äpfel', 'apple', 'Banana', 'zebra'];

  describe('transport', () => {
    it('base addresses: two servers on 127.0.0.1, every path under /api/v1', async () => {
      assert.match(sb.docsUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(sb.seoUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(sb.docsUrl, sb.seoUrl);
      assert.equal((await docs('/documents')).status, 200);
      assert.equal((await seo('/projects')).status, 200);
    });

    it('loopback only: a non-loopback host is refused', async () => {
      await assert.rejects(startSandbox({ host: '0.0.0.0' }), /loopback/);
      await assert.rejects(startSandbox({ host: '192.168.1.10' }), /loopback/);
    });

    it('Bearer key with Accept: application/json gets JSON', async () => {
      const r = await docs('/account');
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(r.json.status, 200);
    });

    it('missing key with JSON Accept: 401 {"message":"Unauthenticated."} without a status field', async () => {
      const r = await docs('/documents', { auth: false });
      assert.equal(r.status, 401);
      assert.deepEqual(r.json, { message: 'Unauthenticated.' });
    });

    it('wrong key: 401 as well (documents and projects servers)', async () => {
      assert.equal((await docs('/documents', { auth: 'not-the-key' })).status, 401);
      const p = await seo('/projects', { auth: 'not-the-key' });
      assert.equal(p.status, 401);
      assert.deepEqual(p.json, { message: 'Unauthenticated.' });
    });

    it('invalid key without JSON Accept: 302 to the HTML login page', async () => {
      const r = await docs('/documents', { auth: 'nope', accept: null });
      assert.equal(r.status, 302);
      assert.equal(r.headers.get('location'), `${sb.docsUrl}/login`);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(r.text, /Redirecting to/);
    });

    it('Accept with JSON not first: still the 302 redirect', async () => {
      const r = await docs('/documents', { auth: false, accept: 'text/html, application/json' });
      assert.equal(r.status, 302);
    });

    it('Accept with JSON first (or highest quality): 401 JSON', async () => {
      assert.equal((await docs('/documents', { auth: false, accept: 'application/json, text/html' })).status, 401);
      assert.equal((await docs('/documents', { auth: false, accept: 'text/html;q=0.5, application/json' })).status, 401);
    });

    it('projects server redirects to its own /login', async () => {
      const r = await seo('/projects', { auth: false, accept: 'text/html' });
      assert.equal(r.status, 302);
      assert.equal(r.headers.get('location'), `${sb.seoUrl}/login`);
    });

    it('the login page is HTML (200)', async () => {
      const r = await call(`${sb.docsUrl}/login`, { auth: false, accept: 'text/html' });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(r.text, /<html/i);
    });

    it('the servers also accept api_token as a query parameter', async () => {
      const r = await docs(`/documents?api_token=${DEFAULT_KEY}`, { auth: false });
      assert.equal(r.status, 200);
      assert.equal(sb.requests.at(-1)?.authorized, true);
    });

    it('the servers also accept api_token as a body parameter', async () => {
      const id = [...sb.documents.keys()][0];
      const r = await docs(`/documents/${id}`, { method: 'PATCH', auth: false, form: { api_token: DEFAULT_KEY, favorite: '1' } });
      assert.equal(r.status, 200);
      assert.equal(r.json.data.favorite, true);
    });

    it('request bodies: application/x-www-form-urlencoded is parsed (JSON bodies too)', async () => {
      const id = [...sb.documents.keys()][1];
      const a = await docs(`/documents/${id}`, { method: 'PATCH', form: { name: 'Form body' } });
      assert.equal(a.json.data.name, 'Form body');
      const b = await docs(`/documents/${id}`, { method: 'PATCH', json: { name: 'JSON body' } });
      assert.equal(b.json.data.name, 'JSON body');
    });

    it('every input string is trimmed; an all-blank required value is a 422', async () => {
      const ok = await docs('/documents', { method: 'POST', form: { name: '  Padded  ', prompt: ' p ', creativity: ' 0.5 ' } });
      assert.equal(ok.status, 201);
      assert.equal(ok.json.data.name, 'Padded');
      const blank = await docs('/documents', { method: 'POST', form: { name: '   ', prompt: 'p', creativity: '0.5' } });
      assert.equal(blank.status, 422);
      assert.ok(Array.isArray(blank.json.message.name));
    });

    it('trimming strips Unicode white space, U+FEFF and U+200B included (name, prompt, result)', async () => {
      const r = await docs('/documents', {
        method: 'POST',
        form: { name: `${BOM}${ZWSP}\u00A0\u3000 Zero width ${ZWSP}\u2003${BOM}`, prompt: `${ZWSP}tea${ZWSP}`, creativity: `${ZWSP}0.5${BOM}` },
      });
      assert.equal(r.status, 201);
      assert.equal(r.json.data.name, 'Zero width');
      assert.equal(sb.documents.get(r.json.data.id)!.prompt, 'tea');
      assert.equal(sb.documents.get(r.json.data.id)!.creativity, 0.5);
      const d = docByName('a');
      const u = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { result: `${ZWSP}\n Body ${BOM}\n${ZWSP}` } });
      assert.equal(u.status, 200);
      assert.equal(u.json.data.result, 'Body');
      // Inside the text they stay.
      const inner = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { name: `a${ZWSP}b` } });
      assert.equal(inner.json.data.name, `a${ZWSP}b`);
    });

    it('a value made only of U+200B / U+FEFF is blank: 422 when required (store name, update result and name)', async () => {
      const store = await docs('/documents', { method: 'POST', form: { name: `${ZWSP}${ZWSP}`, prompt: `${BOM}`, creativity: '0.5' } });
      assert.equal(store.status, 422);
      assert.deepEqual(store.json.message, { name: ['The name field is required.'], prompt: ['The prompt field is required.'] });
      const d = docByName('a');
      const before = d.result;
      const result = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { result: `${ZWSP} ${ZWSP}\n` } });
      assert.equal(result.status, 422);
      assert.deepEqual(result.json.message, { result: ['The result field is required.'] });
      assert.equal(sb.documents.get(d.id)!.result, before);
      const name = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { name: `${BOM}${ZWSP}` } });
      assert.equal(name.status, 422);
      assert.deepEqual(Object.keys(name.json.message), ['name']);
    });

    it('length limits count the trimmed value in characters (code points)', async () => {
      const name = `${ZWSP.repeat(5)}${'é'.repeat(127)}😀${BOM.repeat(3)}`;
      const r = await docs('/documents', { method: 'POST', form: { name, prompt: 'p', creativity: '0.5' } });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.data.name, `${'é'.repeat(127)}😀`);
      const over = await docs('/documents', { method: 'POST', form: { name: `${'é'.repeat(128)}😀`, prompt: 'p', creativity: '0.5' } });
      assert.equal(over.status, 422);
      assert.deepEqual(over.json.message, { name: ['The name must not be greater than 128 characters.'] });
    });

    it('query strings are trimmed too: search of only U+200B is no search; page and per_page trimmed', async () => {
      const all = await docs('/documents?per_page=25');
      const zw = await docs(`/documents?per_page=25&search=${encodeURIComponent(`${ZWSP}${BOM} ${ZWSP}`)}`);
      assert.equal(zw.json.meta.total, sb.documents.size);
      assert.deepEqual(zw.json.data, all.json.data);
      const padded = await docs(`/documents?search=${encodeURIComponent(`${ZWSP}untitled${BOM}`)}`);
      assert.deepEqual(padded.json.data.map((d: { name: string }) => d.name), ['Untitled', 'Untitled', 'Untitled']);
      const page = await docs(`/documents?per_page=${encodeURIComponent(`${ZWSP}25 `)}&page=${encodeURIComponent(` 2${BOM}`)}`);
      assert.equal(page.json.meta.per_page, 25);
      assert.equal(page.json.meta.current_page, 2);
      const fav = await docs(`/documents?per_page=100&favorite=${encodeURIComponent(`${ZWSP}1`)}`);
      assert.ok(fav.json.data.length > 0 && fav.json.data.every((d: { favorite: boolean }) => d.favorite));
      const projects = await seo(`/projects?search=${encodeURIComponent(`${ZWSP}acme${ZWSP}`)}`);
      assert.deepEqual(projects.json.data.map((p: { project: string }) => p.project), ['Acme']);
    });

    it('JSON is escaped PHP-style (\\/ and \\u00e9)', async () => {
      const d = docByName('Café crème — menu copy');
      const r = await docs(`/documents/${d.id}`);
      assert.ok(r.text.includes('Caf\\u00e9 cr\\u00e8me \\u2014 menu copy'), r.text.slice(0, 200));
      const list = await docs('/documents');
      assert.ok(list.text.includes('http:\\/\\/127.0.0.1'));
      assert.equal(r.json.data.name, 'Café crème — menu copy');
    });
  });

  describe('rate limit: off unless configured', () => {
    it('by default throttling is off: no X-RateLimit-* headers on any answer, never a 429', async () => {
      const plain = await startSandbox({ seed: 'empty', storeDelayMs: 0 });
      try {
        const u = (p: string, o?: Opts) => call(`${plain.docsUrl}/api/v1${p}`, o);
        const answers = [
          await u('/documents'),
          await u('/documents', { auth: false }),
          await u('/documents/1'),
          await u('/documents', { method: 'POST', form: {} }),
          await u('/documents', { method: 'PUT' }),
          await u('/documents', { accept: 'text/html', auth: false }),
          await call(`${plain.seoUrl}/api/v1/projects`),
        ];
        assert.deepEqual(answers.map((a) => a.status), [200, 401, 404, 422, 405, 302, 200]);
        for (const a of answers) assert.deepEqual(rlHeaders(a.headers), []);
        for (let i = 0; i < 65; i++) {
          const a = await u('/documents', { auth: i % 2 === 0 });
          assert.notEqual(a.status, 429, `request ${i + 1}`);
          assert.deepEqual(rlHeaders(a.headers), []);
        }
        const status = await call(`${plain.docsUrl}/__sandbox/status`);
        assert.deepEqual(status.json.rateLimit, { documents: 0, projects: 0 });
      } finally {
        await plain.close();
      }
    });

    it('setRateLimit(0) switches it off again: no headers', async () => {
      const s2 = await startSandbox({ seed: 'empty', rateLimit: 2 });
      try {
        assert.equal((await call(`${s2.docsUrl}/api/v1/documents`)).headers.get('x-ratelimit-limit'), '2');
        s2.setRateLimit(0);
        for (let i = 0; i < 4; i++) {
          const a = await call(`${s2.docsUrl}/api/v1/documents`);
          assert.equal(a.status, 200);
          assert.deepEqual(rlHeaders(a.headers), []);
        }
      } finally {
        await s2.close();
      }
    });
  });

  describe('rate limit (configured)', () => {
    let rl: Sandbox;
    const r = (p: string, o?: Opts) => call(rl.docsUrl + '/api/v1' + p, o);
    before(async () => {
      rl = await startSandbox({ seed: 'empty', rateLimit: 5, seoRateLimit: 3, storeDelayMs: 0 });
    });
    after(async () => {
      await rl.close();
    });
    beforeEach(() => {
      rl.setRateLimit(5, 'documents');
      rl.setRateLimit(3, 'projects');
      rl.resetRateLimit();
    });

    it('every answer carries X-RateLimit-Limit and X-RateLimit-Remaining (counting down)', async () => {
      const a = await r('/documents');
      const b = await r('/documents/999');
      const c = await r('/documents', { auth: false });
      const d = await r('/documents', { method: 'POST', form: {} });
      assert.deepEqual([a.status, b.status, c.status, d.status], [200, 404, 401, 422]);
      assert.deepEqual(
        [a, b, c, d].map((x) => [x.headers.get('x-ratelimit-limit'), x.headers.get('x-ratelimit-remaining')]),
        [['5', '4'], ['5', '3'], ['5', '2'], ['5', '1']],
      );
      // Only a 429 adds Retry-After and X-RateLimit-Reset.
      for (const x of [a, b, c, d]) assert.equal(x.headers.get('retry-after') ?? x.headers.get('x-ratelimit-reset'), null);
    });

    it('counted before authentication: 401s use up the limit', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await r('/documents', { auth: false })).status, 401);
      assert.equal((await r('/documents')).status, 429);
    });

    it('429: Retry-After, X-RateLimit-Reset and {"message":"Too Many Attempts."}', async () => {
      for (let i = 0; i < 5; i++) await r('/documents');
      const t = await r('/documents');
      assert.equal(t.status, 429);
      assert.deepEqual(t.json, { message: 'Too Many Attempts.' });
      const retry = Number(t.headers.get('retry-after'));
      assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${retry}`);
      const reset = Number(t.headers.get('x-ratelimit-reset'));
      const now = Date.now() / 1000;
      assert.ok(reset >= now - 1 && reset <= now + 61, `reset ${reset}`);
      assert.equal(t.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(t.headers.get('x-ratelimit-limit'), '5');
    });

    it('a rate-limited request without JSON Accept gets an HTML page', async () => {
      for (let i = 0; i < 5; i++) await r('/documents');
      const t = await r('/documents', { accept: 'text/html' });
      assert.equal(t.status, 429);
      assert.match(t.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(t.headers.get('retry-after'));
    });

    it('the projects server has a limit of its own', async () => {
      for (let i = 0; i < 5; i++) await r('/documents');
      assert.equal((await r('/documents')).status, 429);
      const p = await call(rl.seoUrl + '/api/v1/projects');
      assert.equal(p.status, 200);
      assert.equal(p.headers.get('x-ratelimit-limit'), '3');
      assert.equal(p.headers.get('x-ratelimit-remaining'), '2');
    });

    it('405s, /login and control routes are not counted', async () => {
      await r('/documents', { method: 'PUT' });
      await call(`${rl.docsUrl}/login`, { accept: 'text/html' });
      await call(`${rl.docsUrl}/__sandbox/requests`);
      const a = await r('/documents');
      assert.equal(a.headers.get('x-ratelimit-remaining'), '4');
    });

    it('resetRateLimit() forgets counted requests; setRateLimit(0) means off (no headers)', async () => {
      for (let i = 0; i < 5; i++) await r('/documents');
      assert.equal((await r('/documents')).status, 429);
      rl.resetRateLimit();
      assert.equal((await r('/documents')).status, 200);
      rl.setRateLimit(0);
      for (let i = 0; i < 8; i++) assert.equal((await r('/documents')).status, 200);
      assert.deepEqual(rlHeaders((await r('/documents')).headers), []);
    });

    it('60 a minute: the 61st request of the window is a 429', async () => {
      rl.setRateLimit(60, 'documents');
      for (let i = 1; i <= 60; i++) {
        const a = await r('/documents', { auth: i % 3 !== 0 });
        assert.equal(a.headers.get('x-ratelimit-remaining'), String(60 - i));
      }
      const t = await r('/documents');
      assert.equal(t.status, 429);
      assert.equal(t.headers.get('x-ratelimit-limit'), '60');
    });

    it('projectsDoubleCount: the projects server counts each request twice (documents server once)', async () => {
      const dbl = await startSandbox({ seed: 'empty', rateLimit: 6, seoRateLimit: 6, projectsDoubleCount: true });
      try {
        const p = () => call(`${dbl.seoUrl}/api/v1/projects`);
        const seen = [];
        for (let i = 0; i < 4; i++) {
          const a = await p();
          seen.push([a.status, a.headers.get('x-ratelimit-remaining')]);
        }
        assert.deepEqual(seen, [[200, '4'], [200, '2'], [200, '0'], [429, '0']]);
        const d = await call(`${dbl.docsUrl}/api/v1/documents`);
        assert.equal(d.headers.get('x-ratelimit-remaining'), '5', 'the documents server counts once');
        // An odd limit: the second count of the third request hits it (the first count stays spent).
        dbl.setRateLimit(5, 'projects');
        dbl.resetRateLimit();
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await call(`${dbl.seoUrl}/api/v1/projects`, { auth: false })).status);
        assert.deepEqual(statuses, [401, 401, 429]);
        // Off again: counted once.
        dbl.setProjectsDoubleCount(false);
        dbl.resetRateLimit();
        assert.equal((await p()).headers.get('x-ratelimit-remaining'), '4');
        const c = await call(`${dbl.docsUrl}/__sandbox/projects-double-count`, { method: 'POST', json: { on: true } });
        assert.equal(c.status, 200);
        assert.equal((await p()).headers.get('x-ratelimit-remaining'), '2');
        assert.equal((await call(`${dbl.docsUrl}/__sandbox/status`)).json.projectsDoubleCount, true);
      } finally {
        await dbl.close();
      }
    });

    it('control: POST /__sandbox/rate-limit sets a server\'s limit', async () => {
      const c = await call(`${rl.seoUrl}/__sandbox/rate-limit`, { method: 'POST', json: { perMinute: 1, server: 'documents' } });
      assert.equal(c.status, 200);
      assert.equal((await r('/documents')).status, 200);
      assert.equal((await r('/documents')).status, 429);
    });
  });

  describe('CORS (Laravel defaults)', () => {
    const ORIGIN = 'https://vscode.dev';
    const preflight = (url: string, method: string, headers?: string) =>
      fetch(url, {
        method: 'OPTIONS',
        headers: {
          Origin: ORIGIN,
          'Access-Control-Request-Method': method,
          ...(headers !== undefined ? { 'Access-Control-Request-Headers': headers } : {}),
        },
      });

    it('every /api/* answer carries Access-Control-Allow-Origin: * (200, 201, 302, 401, 403, 404, 405, 422), nothing exposed', async () => {
      const answers: Array<[number, Res]> = [
        [200, await docs('/documents', { headers: { Origin: ORIGIN } })],
        [200, await docs('/documents')],
        [201, await docs('/documents', { method: 'POST', form: { name: 'c', prompt: 'p', creativity: '0.5' } })],
        [302, await docs('/documents', { auth: false, accept: 'text/html' })],
        [401, await docs('/documents', { auth: 'wrong', headers: { Origin: ORIGIN } })],
        [401, await seo('/projects', { auth: false })],
        [404, await docs('/documents/999999')],
        [404, await docs('/nothing-here')],
        [404, await call(`${sb.docsUrl}/api/other`)],
        [405, await docs('/documents', { method: 'PUT' })],
        [422, await docs('/documents', { method: 'POST', form: {} })],
        [200, await seo('/projects')],
        [200, await seo('/account')],
      ];
      sb.setAccount({ plan: { features: { api: 0 } } });
      answers.push([403, await docs('/documents')]);
      for (const [status, a] of answers) {
        assert.equal(a.status, status);
        assert.equal(a.headers.get('access-control-allow-origin'), '*', `${status}`);
        assert.deepEqual(corsHeaders(a.headers), ['access-control-allow-origin'], `${status}: only the origin header`);
      }
    });

    it('429s (limiter and fault) carry it too; a preflight is not counted by the limiter', async () => {
      const rl = await startSandbox({ seed: 'empty', rateLimit: 2 });
      try {
        const url = `${rl.docsUrl}/api/v1/documents`;
        for (let i = 0; i < 3; i++) assert.equal((await preflight(url, 'GET', 'authorization')).status, 204);
        const a = await call(url);
        assert.equal(a.headers.get('x-ratelimit-remaining'), '1', 'preflights did not count');
        await call(url);
        const t = await call(url);
        assert.equal(t.status, 429);
        assert.equal(t.headers.get('access-control-allow-origin'), '*');
        assert.equal(t.headers.get('access-control-expose-headers'), null);
        const html = await call(url, { accept: 'text/html' });
        assert.equal(html.status, 429);
        assert.equal(html.headers.get('access-control-allow-origin'), '*');
        const p = await preflight(url, 'GET');
        assert.equal(p.status, 204, 'a preflight is answered even when the limit is used up');
      } finally {
        await rl.close();
      }
      sb.setFault('documents.list', { kind: 'rateLimit', count: 1 });
      const f = await docs('/documents');
      assert.equal(f.status, 429);
      assert.equal(f.headers.get('access-control-allow-origin'), '*');
    });

    it('preflight: 204 at once, Allow-Origin *, the requested method and headers echoed, before routing and auth', async () => {
      const r = await preflight(`${sb.docsUrl}/api/v1/documents/12`, 'put', 'authorization, content-type, x-custom');
      assert.equal(r.status, 204);
      assert.equal(await r.text(), '');
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.equal(r.headers.get('access-control-allow-methods'), 'PUT');
      assert.equal(r.headers.get('access-control-allow-headers'), 'authorization, content-type, x-custom');
      assert.equal(r.headers.get('access-control-allow-credentials'), null);
      assert.equal(r.headers.get('access-control-expose-headers'), null);
      assert.equal(r.headers.get('access-control-max-age'), '0');
      assert.deepEqual(rlHeaders(r.headers), []);
      // Any path under /api/, any method asked for, no key needed.
      const unknown = await preflight(`${sb.seoUrl}/api/v1/nothing/here`, 'DELETE', 'Authorization');
      assert.equal(unknown.status, 204);
      assert.equal(unknown.headers.get('access-control-allow-methods'), 'DELETE');
      assert.equal(unknown.headers.get('access-control-allow-headers'), 'Authorization');
      const del = await preflight(`${sb.seoUrl}/api/v1/projects/${encodeURIComponent('Café Ünïcode')}`, 'DELETE', 'authorization');
      assert.equal(del.status, 204);
      assert.ok(sb.reports.some((x) => x.project === 'Café Ünïcode'), 'a preflight changes nothing');
      // Kept apart from the API requests: a browser sends one before each request, the limiter counts none.
      assert.deepEqual(sb.requests.filter((x) => x.method === 'OPTIONS'), []);
      assert.deepEqual(sb.preflights.map((x) => [x.method, x.status, x.path]), [
        ['OPTIONS', 204, '/api/v1/documents/12'],
        ['OPTIONS', 204, '/api/v1/nothing/here'],
        ['OPTIONS', 204, `/api/v1/projects/${encodeURIComponent('Café Ünïcode')}`],
      ]);
      const listed = await call(`${sb.docsUrl}/__sandbox/preflights`);
      assert.equal(listed.json.length, 3);
      sb.resetRequests();
      assert.equal(sb.preflights.length, 0, 'resetRequests clears the preflights too');
    });

    it('a preflight before each request leaves the request count and the order of API requests as without it', async () => {
      const url = `${sb.docsUrl}/api/v1/documents`;
      assert.equal((await preflight(url, 'GET', 'authorization')).status, 204);
      assert.equal((await docs('/documents', { headers: { Origin: ORIGIN } })).status, 200);
      assert.equal((await preflight(`${url}/1`, 'PATCH', 'authorization, content-type')).status, 204);
      assert.equal((await docs('/documents/1', { method: 'PATCH', form: { name: 'x' }, headers: { Origin: ORIGIN } })).status, 200);
      assert.deepEqual(sb.requests.map((x) => [x.method, x.route]), [['GET', 'documents.list'], ['PATCH', 'documents.update']]);
      assert.equal(sb.preflights.length, 2);
    });

    it('a plain OPTIONS (no Access-Control-Request-Method) is the router\'s: 200 with Allow, no auth', async () => {
      const r = await call(`${sb.docsUrl}/api/v1/documents`, { method: 'OPTIONS', auth: false });
      assert.equal(r.status, 200);
      assert.equal(r.text, '');
      assert.equal(r.headers.get('allow'), 'GET,HEAD,POST');
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.equal(r.headers.get('access-control-allow-methods'), null);
    });

    it('outside /api/ (login page, control routes) and web-server answers (encoded slash, gateway errors): no CORS headers', async () => {
      const answers = [
        await call(`${sb.docsUrl}/login`, { accept: 'text/html' }),
        await call(`${sb.docsUrl}/`, { accept: 'text/html' }),
        await call(`${sb.docsUrl}/__sandbox/status`),
        await seo(`/projects/${encodeURIComponent('a/b testing')}`, { method: 'DELETE' }),
      ];
      sb.setFault('documents.list', { kind: 'status502', count: 1 });
      answers.push(await docs('/documents'));
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 404, 502]);
      for (const a of answers) assert.deepEqual(corsHeaders(a.headers), [], String(a.status));
    });

    it('CORS switched off (a server whose CORS settings were changed): no CORS headers, preflight not answered with them', async () => {
      const off = await startSandbox({ seed: 'empty', cors: false });
      try {
        const url = `${off.docsUrl}/api/v1/documents`;
        for (const a of [await call(url), await call(url, { auth: false }), await call(`${url}/1`)]) {
          assert.deepEqual(corsHeaders(a.headers), [], String(a.status));
        }
        const p = await preflight(url, 'POST', 'authorization, content-type');
        assert.notEqual(p.status, 204);
        assert.deepEqual(corsHeaders(p.headers), []);
        assert.equal((await call(`${off.docsUrl}/__sandbox/status`)).json.cors, false);
      } finally {
        await off.close();
      }
      // At run time, and through the control route.
      sb.setCors(false);
      assert.deepEqual(corsHeaders((await docs('/documents')).headers), []);
      assert.deepEqual(corsHeaders((await preflight(`${sb.docsUrl}/api/v1/documents`, 'GET')).headers), []);
      const on = await call(`${sb.docsUrl}/__sandbox/cors`, { method: 'POST', json: { enabled: true } });
      assert.equal(on.status, 200);
      assert.equal((await docs('/documents')).headers.get('access-control-allow-origin'), '*');
      assert.equal((await call(`${sb.docsUrl}/__sandbox/cors`, { method: 'POST', json: { enabled: 'yes' } })).status, 400);
    });

    it('a proxy that refuses OPTIONS: every preflight gets the web server\'s 405 without CORS headers, other answers keep theirs', async () => {
      const blocked = await startSandbox({ seed: 'empty', cors: 'proxy-blocks-options', rateLimit: 5 });
      try {
        const url = `${blocked.docsUrl}/api/v1/documents`;
        const p = await preflight(url, 'GET', 'authorization');
        assert.equal(p.status, 405);
        assert.deepEqual(corsHeaders(p.headers), []);
        assert.deepEqual(rlHeaders(p.headers), [], 'the application never saw it');
        assert.match(p.headers.get('content-type') ?? '', /text\/html/);
        const plain = await call(url, { method: 'OPTIONS', auth: false });
        assert.equal(plain.status, 405, 'a plain OPTIONS is refused by the proxy as well');
        const a = await call(url);
        assert.equal(a.status, 200);
        assert.equal(a.headers.get('access-control-allow-origin'), '*');
        assert.equal(a.headers.get('x-ratelimit-remaining'), '4', 'the refused OPTIONS were not counted');
        assert.equal((await call(`${blocked.docsUrl}/__sandbox/status`)).json.cors, 'proxy-blocks-options');
        assert.equal(blocked.preflights.length, 1);
      } finally {
        await blocked.close();
      }
      const viaControl = await call(`${sb.docsUrl}/__sandbox/cors`, { method: 'POST', json: { enabled: 'proxy-blocks-options' } });
      assert.equal(viaControl.status, 200);
      assert.equal((await preflight(`${sb.docsUrl}/api/v1/documents`, 'GET')).status, 405);
      assert.throws(() => sb.setCors('sometimes' as never), /cors must be/);
    });

    it('control routes answer browsers only when controlCors is set (test plumbing, not the API)', async () => {
      const status = await call(`${sb.docsUrl}/__sandbox/status`);
      assert.deepEqual(corsHeaders(status.headers), []);
      const withCors = await startSandbox({ seed: 'empty', controlCors: true, cors: false });
      try {
        const p = await fetch(`${withCors.docsUrl}/__sandbox/fault`, {
          method: 'OPTIONS',
          headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
        });
        assert.equal(p.status, 204);
        assert.equal(p.headers.get('access-control-allow-origin'), '*');
        assert.equal(p.headers.get('access-control-allow-headers'), 'content-type');
        const s2 = await call(`${withCors.docsUrl}/__sandbox/status`);
        assert.equal(s2.headers.get('access-control-allow-origin'), '*');
        assert.deepEqual(corsHeaders((await call(`${withCors.docsUrl}/api/v1/documents`)).headers), [], 'the API still follows cors: false');
        assert.equal(withCors.preflights.length + withCors.requests.length, 1, 'control calls are never recorded');
      } finally {
        await withCors.close();
      }
    });
  });

  describe('envelopes', () => {
    it('list: Laravel\'s paginated resource collection plus status', async () => {
      const r = await docs('/documents');
      assert.deepEqual(Object.keys(r.json), ['data', 'links', 'meta', 'status']);
      assert.deepEqual(Object.keys(r.json.links), ['first', 'last', 'prev', 'next']);
      assert.deepEqual(Object.keys(r.json.meta), ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
      assert.equal(r.json.status, 200);
      assert.equal(r.json.meta.path, `${sb.docsUrl}/api/v1/documents`);
      assert.equal(r.json.meta.total, sb.documents.size);
    });

    it('links are full URLs carrying every filter plus page; prev null on page 1', async () => {
      const q = 'search=e&search_by=name&template_id=4&favorite=0&sort_by=name&sort=asc&per_page=10';
      const r = await docs(`/documents?${q}`);
      assert.equal(r.json.links.prev, null);
      assert.equal(r.json.links.first, `${sb.docsUrl}/api/v1/documents?${q}&page=1`);
      assert.equal(r.json.links.next, `${sb.docsUrl}/api/v1/documents?${q}&page=2`);
      const next = await call(r.json.links.next);
      assert.equal(next.json.meta.current_page, 2);
      assert.ok(next.json.data.every((d: { template: { id: number }; favorite: boolean }) => d.template.id === 4 && !d.favorite));
    });

    it('links.next is null on the last page', async () => {
      const first = await docs('/documents?template_id=4');
      const last = await call(first.json.links.last);
      assert.equal(last.json.meta.current_page, last.json.meta.last_page);
      assert.equal(last.json.links.next, null);
      assert.ok(last.json.links.prev);
    });

    it('from/to count items; both null on an empty page (page beyond the last: empty data)', async () => {
      const p2 = await docs('/documents?page=2');
      assert.deepEqual([p2.json.meta.from, p2.json.meta.to], [11, 20]);
      const beyond = await docs('/documents?page=999');
      assert.deepEqual(beyond.json.data, []);
      assert.equal(beyond.json.meta.from, null);
      assert.equal(beyond.json.meta.to, null);
      assert.equal(beyond.json.meta.current_page, 999);
      assert.equal(beyond.json.links.next, null);
    });

    it('meta.links: « Previous, page numbers (one active, ... gaps), Next »', async () => {
      const r = await docs('/documents?page=15');
      const links = r.json.meta.links as Array<{ url: string | null; label: string; active: boolean }>;
      assert.equal(links[0].label, '&laquo; Previous');
      assert.equal(links.at(-1)?.label, 'Next &raquo;');
      assert.deepEqual(links.filter((l) => l.active).map((l) => l.label), ['15']);
      assert.ok(links.some((l) => l.label === '...' && l.url === null));
      assert.equal(links.find((l) => l.label === '16')?.url, `${sb.docsUrl}/api/v1/documents?page=16`);
    });

    it('per_page 10|25|50|100; any other value silently falls back to 10', async () => {
      assert.equal((await docs('/documents?per_page=25')).json.data.length, 25);
      assert.equal((await docs('/documents?per_page=100')).json.meta.per_page, 100);
      for (const bad of ['7', 'abc', '1000', '25.0']) {
        const r = await docs(`/documents?per_page=${bad}`);
        assert.equal(r.status, 200);
        assert.equal(r.json.meta.per_page, 10);
        assert.equal(r.json.data.length, 10);
      }
    });

    it('pages chosen with page (1-based): following links.next visits every record once', async () => {
      const seen = new Set<number>();
      let url: string | null = `${sb.docsUrl}/api/v1/documents?per_page=100`;
      while (url) {
        const r: Res = await call(url);
        for (const d of r.json.data as Array<{ id: number }>) {
          assert.ok(!seen.has(d.id));
          seen.add(d.id);
        }
        url = r.json.links.next;
      }
      assert.equal(seen.size, sb.documents.size);
    });

    it('one record: {"data":{...},"status":200}', async () => {
      const id = [...sb.documents.keys()][0];
      const r = await docs(`/documents/${id}`);
      assert.deepEqual(Object.keys(r.json), ['data', 'status']);
      assert.equal(r.json.status, 200);
      assert.equal(r.json.data.id, id);
    });

    it('422: message is an object of field -> list of messages, no errors key', async () => {
      const r = await docs('/documents', { method: 'POST', form: {} });
      assert.equal(r.status, 422);
      assert.deepEqual(Object.keys(r.json), ['message', 'status']);
      assert.equal(r.json.status, 422);
      assert.deepEqual(Object.keys(r.json.message).sort(), ['creativity', 'name', 'prompt']);
      for (const v of Object.values(r.json.message)) assert.ok(Array.isArray(v) && v.every((s) => typeof s === 'string'));
    });

    it('404 {"message":"Resource not found.","status":404} for an unknown path (after auth)', async () => {
      const r = await docs('/nothing-here');
      assert.equal(r.status, 404);
      assert.deepEqual(r.json, { message: 'Resource not found.', status: 404 });
      assert.equal((await docs('/nothing-here', { auth: false })).status, 401);
      assert.equal((await docs('/projects')).status, 404, 'projects live on the other server');
    });

    it('a wrong method on an /api/v1 path: 405 JSON before authentication', async () => {
      const a = await docs('/documents', { method: 'PUT', auth: false });
      assert.equal(a.status, 405);
      assert.equal(a.json.status, 405);
      assert.equal(typeof a.json.message, 'string');
      assert.match(a.headers.get('allow') ?? '', /POST/);
      assert.equal((await docs('/account', { method: 'POST', auth: false })).status, 405);
      assert.equal((await docs('/documents/1', { method: 'POST', auth: false })).status, 405);
      assert.equal((await seo('/projects/Acme', { method: 'GET', auth: false })).status, 405);
    });
  });

  describe('documents: records', () => {
    it('record fields: id, name, template, result, words, favorite, created_at, updated_at (never prompt/creativity)', async () => {
      const r = await docs('/documents?per_page=100');
      for (const d of r.json.data) {
        assert.deepEqual(Object.keys(d), ['id', 'name', 'template', 'result', 'words', 'favorite', 'created_at', 'updated_at']);
        assert.equal(typeof d.id, 'number');
        assert.equal(typeof d.favorite, 'boolean');
        assert.equal(typeof d.words, 'number');
      }
      assert.ok(!r.text.includes('"prompt"') && !r.text.includes('"creativity"'));
    });

    it('timestamps: UTC with microseconds, 1 s resolution', async () => {
      const r = await docs('/documents?per_page=100');
      for (const d of r.json.data) {
        assert.match(d.created_at, ISO_MICRO);
        assert.match(d.updated_at, ISO_MICRO);
      }
    });

    it('template may be [] when its template was deleted', async () => {
      const deleted = [...sb.documents.values()].filter((d) => d.templateId === null);
      assert.equal(deleted.length, 2);
      const r = await docs(`/documents/${deleted[0].id}`);
      assert.deepEqual(r.json.data.template, []);
      assert.ok(r.text.includes('"template":[]'));
    });

    it('custom templates have ids above 52 and a name of their own', async () => {
      const custom = [...sb.documents.values()].filter((d) => d.templateId === 60);
      assert.equal(custom.length, 2);
      const r = await docs(`/documents/${custom[0].id}`);
      assert.deepEqual(r.json.data.template, { id: 60, name: 'Custom: Landing page' });
    });

    it('result can be null', async () => {
      const nulls = [...sb.documents.values()].filter((d) => d.result === null);
      assert.ok(nulls.length >= 3);
      const r = await docs(`/documents/${nulls[0].id}`);
      assert.equal(r.json.data.result, null);
      assert.ok(r.text.includes('"result":null'));
    });

    it('template ids and names follow the 52-template table', async () => {
      const r = await docs('/documents?template_id=24');
      assert.ok(r.json.data.length > 0);
      assert.deepEqual(r.json.data[0].template, { id: 24, name: 'Pain-Agitate-Solution' });
      assert.equal(TEMPLATES.length, 52);
    });
  });

  describe('documents: list filters', () => {
    const list = async (q: string) => (await docs(`/documents?per_page=100&${q}`)).json;
    const names = (body: { data: Array<{ name: string }> }) => body.data.map((d) => d.name);

    it('default order: sort_by id, sort desc', async () => {
      const ids = (await list('')).data.map((d: { id: number }) => d.id);
      const all = [...sb.documents.keys()].sort((a, b) => b - a);
      assert.deepEqual(ids, all.slice(0, 100));
    });

    it('sort=asc', async () => {
      const ids = (await list('sort=asc')).data.map((d: { id: number }) => d.id);
      assert.deepEqual(ids, [...sb.documents.keys()].sort((a, b) => a - b).slice(0, 100));
    });

    it('sort_by=name is utf8mb4_unicode_ci: punctuation and symbols, then digits, then letters; case/accent-insensitive', async () => {
      sb.reseed('empty');
      await storeAll(COLLATION_NAMES_SHUFFLED);
      assert.deepEqual(names(await list('sort_by=name&sort=asc')), COLLATION_ORDER);
      assert.deepEqual(names(await list('sort_by=name&sort=desc')), [...COLLATION_ORDER].reverse());
      // Not code-unit order, not a plain lower-case fold.
      assert.notDeepEqual(COLLATION_ORDER, [...COLLATION_ORDER].sort());
      assert.notDeepEqual(COLLATION_ORDER, [...COLLATION_ORDER].sort((a, b) => (fold(a) < fold(b) ? -1 : fold(a) > fold(b) ? 1 : 0)));
    });

    it('sort_by=name: names equal under the collation (case, accents, trailing spaces) tie, and ties have no order by id', async () => {
      sb.reseed('empty');
      const cafes = ['café', 'Cafe', 'CAFÉ', 'cafe  ', 'Café', 'cafÉ', 'CAFE', 'cafe'];
      const ids = await storeAll(['d', ...cafes, 'a']);
      sb.documents.get(ids[4])!.name = 'cafe  '; // trailing spaces do not count (PAD SPACE)
      const tie = new Set(ids.slice(1, 1 + cafes.length));
      const order = async (q: string) => (await docs(`/documents?sort_by=name&${q}`)).json.data.map((d: { id: number }) => d.id) as number[];
      const asc = await order('sort=asc&per_page=25');
      assert.deepEqual([asc[0], asc[asc.length - 1]], [ids[ids.length - 1], ids[0]], 'a, the tie, then d');
      assert.deepEqual(new Set(asc.slice(1, -1)), tie);
      const desc = await order('sort=desc&per_page=25');
      assert.deepEqual([desc[0], desc[desc.length - 1]], [ids[0], ids[ids.length - 1]]);
      const ascTie = asc.slice(1, -1);
      const descTie = desc.slice(1, -1);
      // The server has no tie-break: neither direction lists the tie by id (as a client assuming one would expect).
      assert.notDeepEqual(ascTie, [...ascTie].sort((x, y) => x - y));
      assert.notDeepEqual(descTie, [...descTie].sort((x, y) => y - x));
      // The same order again for the same page size, another one for another page size.
      assert.deepEqual(await order('sort=asc&per_page=25'), asc);
      const sizes = await Promise.all(['10', '50', '100'].map((n) => order(`sort=asc&per_page=${n}`)));
      assert.ok(sizes.some((o) => o.slice(1, -1).join() !== ascTie.join()), 'page sizes disagree on the tie');
    });

    it('sort_by=name on the seed: in the collation\'s order (collate, checked against MariaDB by nameOrder.test.ts)', async () => {
      const body = (await docs('/documents?per_page=100&sort_by=name&sort=asc')).json;
      const rows = body.data as Array<{ id: number; name: string }>;
      for (let i = 1; i < rows.length; i++) assert.ok(collate(rows[i - 1].name, rows[i].name) <= 0, `${rows[i - 1].name} / ${rows[i].name}`);
      const untitled = await list('search=Untitled&sort_by=name&sort=asc');
      assert.equal(untitled.data.length, 3);
    });

    it('search is LIKE under the collation: character by character, case- and accent-insensitive, punctuation literal', async () => {
      sb.reseed('empty');
      const ids = await storeAll(['Straße', 'STRASSE', 'Café crème', 'Cafe\u0301 decomposed', 'Launch - plan', '🚀 Launch']);
      const found = async (term: string) =>
        ((await list(`search=${encodeURIComponent(term)}`)).data as Array<{ id: number }>).map((d) => d.id).sort((a, b) => a - b);
      assert.deepEqual(await found('Strasse'), [ids[1]], '`Strasse` does not find `Straße` (they sort as equal, LIKE does not expand ß)');
      assert.deepEqual(await found('straße'), [ids[0]]);
      assert.deepEqual(await found('CAFE'), [ids[2], ids[3]]);
      assert.deepEqual(await found('café c'), [ids[2]], 'the combining accent is a character of its own for LIKE');
      assert.deepEqual(await found('-'), [ids[4]], 'a hyphen is an ordinary character');
      assert.deepEqual(await found('🚀'), [ids[5]]);
      assert.deepEqual(await found('😀'), [], 'characters outside the BMP match only themselves');
    });

    it('invalid sort_by / sort fall back to id / desc silently', async () => {
      const a = await list('sort_by=words&sort=sideways');
      const b = await list('');
      assert.deepEqual(a.data, b.data);
    });

    it('search: substring, case-insensitive', async () => {
      const found = names(await list('search=UNTITLED'));
      assert.deepEqual(found, ['Untitled', 'Untitled', 'Untitled']);
    });

    it('search: accent-insensitive both ways', async () => {
      const a = names(await list('search=cafe'));
      assert.ok(a.includes('Café crème — menu copy') && a.includes('CAFE TERRACE advertisement'));
      const b = names(await list('search=CAFÉ'));
      assert.deepEqual(b.sort(), a.sort());
      assert.ok(names(await list('search=naive resume')).includes('Ünïcode naïve résumé tips'));
    });

    it('search is trimmed', async () => {
      assert.equal((await list(`search=${encodeURIComponent('   untitled  ')}`)).meta.total, 3);
    });

    it('search: % acts as a wildcard unless escaped with a backslash', async () => {
      assert.ok(names(await list(`search=${encodeURIComponent('Launch%tweet')}`)).includes('🚀 Launch day tweet 🎉'));
      assert.equal((await list(`search=${encodeURIComponent('Launch\\%tweet')}`)).meta.total, 0);
      assert.deepEqual(names(await list(`search=${encodeURIComponent('50\\% off')}`)), ['50% off spring sale']);
    });

    it('search: _ matches one character unless escaped', async () => {
      assert.ok(names(await list('search=sn_ke')).includes('snake_case naming guide'));
      assert.equal((await list(`search=${encodeURIComponent('sn\\_ke')}`)).meta.total, 0);
      assert.deepEqual(names(await list(`search=${encodeURIComponent('snake\\_case')}`)), ['snake_case naming guide']);
    });

    it('search=0 means no search', async () => {
      assert.equal((await list('search=0')).meta.total, sb.documents.size);
    });

    it('search_by=result searches the result text (accent-insensitive)', async () => {
      const r = await list('search_by=result&search=delicieux');
      assert.equal(r.meta.total, 1);
      assert.match(r.data[0].result, /délicieux/);
      assert.equal((await list('search_by=name&search=delicieux')).meta.total, 0);
    });

    it('invalid search_by falls back to name', async () => {
      assert.equal((await list('search_by=prompt&search=Untitled')).meta.total, 3);
    });

    it('template_id filters by template', async () => {
      const r = await list('template_id=4');
      const expected = [...sb.documents.values()].filter((d) => d.templateId === 4).length;
      assert.equal(r.meta.total, expected);
      assert.ok(r.data.every((d: { template: { id: number } }) => d.template.id === 4));
    });

    it('favorite=1 / favorite=0 filter; favorite=true is ignored', async () => {
      const favs = [...sb.documents.values()].filter((d) => d.favorite).length;
      const one = await list('favorite=1');
      assert.equal(one.meta.total, favs);
      assert.ok(one.data.every((d: { favorite: boolean }) => d.favorite));
      assert.equal((await list('favorite=0')).meta.total, sb.documents.size - favs);
      assert.equal((await list('favorite=true')).meta.total, sb.documents.size);
    });
  });

  describe('documents: show, store, update, delete', () => {
    it('show: the record, or 404 for an unknown id', async () => {
      const d = docByName('a');
      const r = await docs(`/documents/${d.id}`);
      assert.equal(r.json.data.name, 'a');
      assert.equal(r.json.data.words, d.words);
      const missing = await docs('/documents/999999');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.json, { message: 'Resource not found.', status: 404 });
      assert.equal((await docs('/documents/abc')).status, 404);
    });

    it('store: 201 with the record (body status 200), result generated from the prompt', async () => {
      const r = await docs('/documents', { method: 'POST', form: { name: 'New one', prompt: 'Write about tea', creativity: '0.75' } });
      assert.equal(r.status, 201);
      assert.equal(r.json.status, 200);
      const d = r.json.data;
      assert.equal(d.name, 'New one');
      assert.match(d.result, /^\[sandbox\] Generated for: Write about tea/);
      assert.equal(d.words, countWords(d.result));
      assert.equal(d.favorite, false);
      assert.deepEqual(d.template, { id: 1, name: 'Freestyle' });
      assert.ok(d.id > Math.max(...[...sb.documents.keys()].filter((k) => k !== d.id)));
      assert.equal((await docs(`/documents/${d.id}`)).json.data.result, d.result);
      const again = await docs('/documents', { method: 'POST', form: { name: 'Twin', prompt: 'Write about tea', creativity: '0.75' } });
      assert.equal(again.json.data.result, d.result, 'deterministic');
    });

    it('store: prompt and creativity are write-only (kept in state, never returned)', async () => {
      const r = await docs('/documents', { method: 'POST', form: { name: 'W', prompt: 'secret prompt', creativity: '0.25' } });
      assert.ok(!('prompt' in r.json.data) && !('creativity' in r.json.data));
      const raw = sb.documents.get(r.json.data.id)!;
      assert.equal(raw.prompt, 'secret prompt');
      assert.equal(raw.creativity, 0.25);
    });

    it('store: name ≤128 and prompt ≤2048 characters', async () => {
      const base = { prompt: 'p', creativity: '0.5' };
      assert.equal((await docs('/documents', { method: 'POST', form: { ...base, name: 'é'.repeat(128) } })).status, 201);
      const long = await docs('/documents', { method: 'POST', form: { ...base, name: 'n'.repeat(129) } });
      assert.equal(long.status, 422);
      assert.ok(long.json.message.name);
      const p = await docs('/documents', { method: 'POST', form: { name: 'n', prompt: 'p'.repeat(2049), creativity: '0.5' } });
      assert.equal(p.status, 422);
      assert.ok(p.json.message.prompt);
    });

    it('store: creativity required, any number from 0 to 1', async () => {
      const f = (creativity: string) => docs('/documents', { method: 'POST', form: { name: 'c', prompt: 'p', creativity } });
      assert.equal((await f('0.3')).status, 201);
      assert.equal((await f('1')).status, 201);
      for (const bad of ['abc', '1.5', '-0.1']) {
        const r = await f(bad);
        assert.equal(r.status, 422, bad);
        assert.deepEqual(Object.keys(r.json.message), ['creativity']);
      }
      const missing = await docs('/documents', { method: 'POST', form: { name: 'c', prompt: 'p' } });
      assert.deepEqual(Object.keys(missing.json.message), ['creativity']);
    });

    it('store: template_id optional (default 1, Freestyle); a custom template (id > 52) keeps its name', async () => {
      const base = { name: 't', prompt: 'p', creativity: '0.5' };
      assert.deepEqual((await docs('/documents', { method: 'POST', form: base })).json.data.template, { id: 1, name: 'Freestyle' });
      assert.deepEqual((await docs('/documents', { method: 'POST', form: { ...base, template_id: '5' } })).json.data.template, { id: 5, name: 'Blog intro' });
      const custom = await docs('/documents', { method: 'POST', form: { ...base, template_id: '60' } });
      assert.equal(custom.status, 201);
      assert.deepEqual(custom.json.data.template, { id: 60, name: 'Custom: Landing page' });
      assert.deepEqual((await docs(`/documents/${custom.json.data.id}`)).json.data.template, { id: 60, name: 'Custom: Landing page' });
    });

    it('store: template_id is not validated: an unknown or non-numeric id still creates the document (201, template [])', async () => {
      const base = { name: 't', prompt: 'p', creativity: '0.5' };
      for (const template_id of ['999', '53', '0', '-3', 'abc', '4.5', 'Blog post']) {
        const size = sb.documents.size;
        const r = await docs('/documents', { method: 'POST', form: { ...base, template_id } });
        assert.equal(r.status, 201, template_id);
        assert.equal(r.json.status, 200);
        assert.deepEqual(r.json.data.template, [], template_id);
        assert.ok(r.text.includes('"template":[]'), 'an empty JSON array, not an object');
        assert.equal(sb.documents.size, size + 1);
        assert.deepEqual((await docs(`/documents/${r.json.data.id}`)).json.data.template, []);
      }
    });

    it('store: variations 1–4 gets a 404, anything else a 422 (nothing created)', async () => {
      const size = sb.documents.size;
      const base = { name: 'v', prompt: 'p', creativity: '0.5' };
      const a = await docs('/documents', { method: 'POST', form: { ...base, variations: '2' } });
      assert.equal(a.status, 404);
      const b = await docs('/documents', { method: 'POST', form: { ...base, variations: '7' } });
      assert.equal(b.status, 422);
      assert.ok(b.json.message.variations);
      assert.equal(sb.documents.size, size);
    });

    it('store: documents_month_count reaching the plan limit is a 422 on name ("You created too many documents.")', async () => {
      sb.setAccount({ plan: { features: { documents: 3 } }, counters: { documents_month_count: 1 } });
      const f = { name: 'q', prompt: 'p', creativity: '0.5' };
      assert.equal((await docs('/documents', { method: 'POST', form: f })).status, 201);
      assert.equal((await docs('/documents', { method: 'POST', form: f })).status, 201);
      const size = sb.documents.size;
      const r = await docs('/documents', { method: 'POST', form: f });
      assert.equal(r.status, 422);
      assert.deepEqual(r.json, { message: { name: [DOCUMENTS_LIMIT_MESSAGE] }, status: 422 });
      assert.equal(DOCUMENTS_LIMIT_MESSAGE, 'You created too many documents.');
      assert.equal(sb.documents.size, size, 'nothing created');
      assert.equal(sb.account.counters.documents_month_count, 3);
    });

    it('store: words_month_count reaching the limit is a 422 on name ("You have reached the words limit."); -1 is unlimited', async () => {
      sb.setAccount({ plan: { features: { words: 100 } }, counters: { words_month_count: 99 } });
      const f = { name: 'q', prompt: 'p', creativity: '0.5' };
      const ok = await docs('/documents', { method: 'POST', form: f });
      assert.equal(ok.status, 201, 'under the limit before the store');
      assert.equal(sb.account.counters.words_month_count, 99 + ok.json.data.words);
      const r = await docs('/documents', { method: 'POST', form: f });
      assert.equal(r.status, 422);
      assert.deepEqual(r.json.message, { name: [WORDS_LIMIT_MESSAGE] });
      assert.equal(WORDS_LIMIT_MESSAGE, 'You have reached the words limit.');
      // Both reached: both messages; other fields' errors come in the same answer.
      sb.setAccount({ plan: { features: { documents: 1 } }, counters: { documents_month_count: 1 } });
      const both = await docs('/documents', { method: 'POST', form: { name: 'q', prompt: 'p' } });
      assert.deepEqual(both.json.message, { name: [WORDS_LIMIT_MESSAGE, DOCUMENTS_LIMIT_MESSAGE], creativity: ['The creativity field is required.'] });
      // -1: unlimited, whatever the counters say.
      sb.setAccount({ plan: { features: { words: -1, documents: -1 } }, counters: { words_month_count: 10_000_000, documents_month_count: 1_000_000 } });
      assert.equal((await docs('/documents', { method: 'POST', form: f })).status, 201);
    });

    it("store: a name with one of the administrator's banned keywords (any case) is a 422 on name; the control route POST /__sandbox/account", async () => {
      const size = sb.documents.size;
      const r = await docs('/documents', { method: 'POST', form: { name: `My ${BANNED_WORD.toUpperCase()} plan`, prompt: 'p', creativity: '0.5' } });
      assert.equal(r.status, 422);
      assert.deepEqual(r.json.message, { name: [BANNED_NAME_MESSAGE] });
      assert.equal(sb.documents.size, size);
      const c = await call(`${sb.seoUrl}/__sandbox/account`, {
        method: 'POST',
        json: { plan: { features: { words: 50 } }, counters: { words_month_count: 50 } },
      });
      assert.equal(c.status, 200);
      assert.equal(c.json.account.plan.features.words, 50);
      const w = await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'p', creativity: '0.5' } });
      assert.deepEqual(w.json.message, { name: [WORDS_LIMIT_MESSAGE] });
      const bad = await call(`${sb.docsUrl}/__sandbox/account`, { method: 'POST', json: { counters: { nope: 1 } } });
      assert.equal(bad.status, 400);
      const got = await call(`${sb.docsUrl}/__sandbox/account`);
      assert.equal(got.json.counters.words_month_count, 50);
    });

    it('store: the prompt reaches the model flattened (newlines, tabs, white-space runs -> one space); the result derives from it', async () => {
      const prompt = 'Write a post.\n\nParagraph two:\tkeep it   short.\r\n- a list\n- of items';
      const flat = 'Write a post. Paragraph two: keep it short. - a list - of items';
      const r = await docs('/documents', { method: 'POST', form: { name: 'Flat', prompt, creativity: '0.25' } });
      assert.equal(r.status, 201);
      assert.equal(sb.lastModelPrompt, flat);
      const rec = sb.requests.find((x) => x.route === 'documents.store')!;
      assert.equal(rec.modelPrompt, flat);
      assert.equal(rec.body?.prompt, prompt, 'the request itself is recorded as sent');
      assert.ok(r.json.data.result.startsWith(`[sandbox] Generated for: ${flat}\n`), r.json.data.result);
      assert.equal(r.json.data.result, r.json.data.result.trim(), 'the stored result is trimmed');
      // Same flattened prompt and creativity: the same text (the template only labels the document).
      const same = await docs('/documents', { method: 'POST', form: { name: 'Flat 2', prompt: flat, creativity: '0.25', template_id: '9' } });
      assert.equal(same.json.data.result, r.json.data.result);
      const other = await docs('/documents', { method: 'POST', form: { name: 'Flat 3', prompt: flat, creativity: '0.75' } });
      assert.notEqual(other.json.data.result, r.json.data.result);
      assert.equal((await call(`${sb.docsUrl}/__sandbox/account`)).json.lastModelPrompt, flat);
      // A prompt refused by validation never reaches the model.
      await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'never\nsent' } });
      assert.equal(sb.lastModelPrompt, flat);
    });

    it('store: generation takes time (storeDelayMs) during the request', async () => {
      const slow = await startSandbox({ seed: 'empty', rateLimit: 0, storeDelayMs: 300 });
      try {
        const t0 = Date.now();
        const r = await call(`${slow.docsUrl}/api/v1/documents`, { method: 'POST', form: { name: 's', prompt: 'p', creativity: '0' } });
        assert.equal(r.status, 201);
        assert.ok(Date.now() - t0 >= 280, `took ${Date.now() - t0} ms`);
      } finally {
        await slow.close();
      }
    });

    it('update (PUT/PATCH): 200 with the updated record', async () => {
      const d = docByName('a');
      const wasFavorite = d.favorite;
      const put = await docs(`/documents/${d.id}`, { method: 'PUT', form: { name: 'Renamed' } });
      assert.equal(put.status, 200);
      assert.equal(put.json.status, 200);
      assert.equal(put.json.data.name, 'Renamed');
      const patch = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { favorite: wasFavorite ? '0' : '1' } });
      assert.equal(patch.json.data.favorite, !wasFavorite);
      assert.equal(patch.json.data.name, 'Renamed');
    });

    it('update: result is trimmed, final newline included', async () => {
      const d = docByName('a');
      const r = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { result: '\n  Hello world.\n\n' } });
      assert.equal(r.json.data.result, 'Hello world.');
      assert.equal(sb.documents.get(d.id)!.result, 'Hello world.');
    });

    it('update: an empty (after trim) result or name is a 422', async () => {
      const d = docByName('a');
      const a = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { result: ' \n\t ' } });
      assert.equal(a.status, 422);
      assert.deepEqual(Object.keys(a.json.message), ['result']);
      const b = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { name: '' } });
      assert.equal(b.status, 422);
      assert.deepEqual(Object.keys(b.json.message), ['name']);
    });

    it('update: name 1–128 and result 1–20,480 characters', async () => {
      const d = docByName('a');
      assert.equal((await docs(`/documents/${d.id}`, { method: 'PATCH', form: { result: 'r'.repeat(20480) } })).status, 200);
      assert.equal((await docs(`/documents/${d.id}`, { method: 'PATCH', form: { result: 'r'.repeat(20481) } })).status, 422);
      assert.equal((await docs(`/documents/${d.id}`, { method: 'PATCH', form: { name: 'n'.repeat(128) } })).status, 200);
      assert.equal((await docs(`/documents/${d.id}`, { method: 'PATCH', form: { name: 'n'.repeat(129) } })).status, 422);
    });

    it('update: favorite 1|0 only, favorite=true is a 422', async () => {
      const d = docByName('a');
      for (const bad of ['true', 'yes', '2']) {
        const r = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { favorite: bad } });
        assert.equal(r.status, 422, bad);
        assert.deepEqual(Object.keys(r.json.message), ['favorite']);
      }
      assert.equal((await docs(`/documents/${d.id}`, { method: 'PATCH', form: { favorite: '1' } })).json.data.favorite, true);
      assert.equal((await docs(`/documents/${d.id}`, { method: 'PATCH', form: { favorite: '0' } })).json.data.favorite, false);
    });

    it('update: validation runs before the id lookup (bad body on unknown id is 422, good body 404)', async () => {
      assert.equal((await docs('/documents/999999', { method: 'PATCH', form: { favorite: 'true' } })).status, 422);
      assert.equal((await docs('/documents/999999', { method: 'PATCH', form: { favorite: '1' } })).status, 404);
    });

    it('update: updated_at changes only when a value really changes, truncated to the second', async () => {
      const d = docByName('a');
      const before = (await docs(`/documents/${d.id}`)).json.data.updated_at;
      const same = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { name: 'a', favorite: d.favorite ? '1' : '0' } });
      assert.equal(same.json.data.updated_at, before);
      const t0 = Math.floor(Date.now() / 1000) * 1000;
      const changed = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { name: 'b' } });
      const t1 = Math.floor(Date.now() / 1000) * 1000;
      const at = Date.parse(changed.json.data.updated_at);
      assert.match(changed.json.data.updated_at, ISO_MICRO);
      assert.ok(at >= t0 && at <= t1, `${changed.json.data.updated_at}`);
      assert.equal(sb.documents.get(d.id)!.updatedAt.getTime() % 1000, 0);
    });

    it('update: words is not recounted', async () => {
      const d = docByName('a');
      const r = await docs(`/documents/${d.id}`, { method: 'PATCH', form: { result: 'one two three four five six seven eight nine ten eleven' } });
      assert.equal(r.json.data.words, d.words);
    });

    it('update: no version check, the last write wins; unknown fields are ignored', async () => {
      const d = docByName('a');
      await docs(`/documents/${d.id}`, { method: 'PATCH', form: { name: 'First' } });
      await docs(`/documents/${d.id}`, { method: 'PUT', form: { name: 'Second', words: '1', updated_at: '2020-01-01' } });
      const r = await docs(`/documents/${d.id}`);
      assert.equal(r.json.data.name, 'Second');
      assert.equal(r.json.data.words, d.words);
    });

    it('delete: {"id":<int>,"object":"document","deleted":true,"status":200}, then 404', async () => {
      const id = [...sb.documents.keys()][5];
      const r = await docs(`/documents/${id}`, { method: 'DELETE' });
      assert.equal(r.status, 200);
      assert.deepEqual(r.json, { id, object: 'document', deleted: true, status: 200 });
      assert.equal(sb.documents.has(id), false);
      assert.equal((await docs(`/documents/${id}`)).status, 404);
      assert.equal((await docs(`/documents/${id}`, { method: 'DELETE' })).status, 404);
    });
  });

  describe('projects', () => {
    type P = { project: string; reports: number; result: number | string; created_at: string };
    const all = async (q = ''): Promise<P[]> => (await seo(`/projects?per_page=100&${q}`)).json.data;

    it('list envelope on the projects server, record {project, reports, result, created_at}', async () => {
      const r = await seo('/projects');
      assert.deepEqual(Object.keys(r.json), ['data', 'links', 'meta', 'status']);
      assert.equal(r.json.meta.path, `${sb.seoUrl}/api/v1/projects`);
      for (const p of r.json.data) {
        assert.deepEqual(Object.keys(p), ['project', 'reports', 'result', 'created_at']);
        assert.equal(typeof p.project, 'string');
        assert.ok(Number.isInteger(p.reports) && p.reports > 0);
        assert.match(p.created_at, ISO_MICRO);
      }
    });

    it('the reports page a project links to ({seo_url}/reports?project=<name>): its reports, matched under the collation, escaped; not on the documents server', async () => {
      const name = '<b>Café</b> & Co';
      const at = new Date(Date.UTC(2026, 10, 2));
      sb.reports.push({ id: 990_101, project: name, result: 91.5, createdAt: at }, { id: 990_102, project: '<B>CAFE</B> & co ', result: 70.5, createdAt: at });
      const r = await call(`${sb.seoUrl}/reports?project=${encodeURIComponent('<b>cafe</b> & CO')}`, { auth: false, accept: 'text/html' });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(!r.text.includes('<b>'), 'the name is escaped');
      assert.match(r.text, /<h1>Reports: &#60;b&#62;cafe&#60;\/b&#62; &#38; CO<\/h1>/);
      assert.match(r.text, /2 reports, average score 81\.0 of 100: <strong>Good<\/strong>/);
      assert.match(r.text, /<td>91\.5<\/td><td>2026-11-02<\/td>/);
      assert.equal((r.text.match(/<tr><td>/g) ?? []).length, 2, 'that project\'s reports only');
      const none = await call(`${sb.seoUrl}/reports?project=nothing%20by%20this%20name`, { auth: false, accept: 'text/html' });
      assert.equal(none.status, 200);
      assert.match(none.text, /No reports\./);
      const every = await call(`${sb.seoUrl}/reports`, { auth: false, accept: 'text/html' });
      assert.equal((every.text.match(/<tr><td>/g) ?? []).length, sb.reports.length);
      assert.equal((await call(`${sb.docsUrl}/reports?project=x`, { auth: false, accept: 'text/html' })).status, 404, 'a page of the projects server');
      assert.equal(sb.requests.filter((q) => q.route !== undefined).length, 0, 'no API request');
    });

    it('result is a number or a numeric string (both occur)', async () => {
      const ps = await all();
      assert.ok(ps.some((p) => typeof p.result === 'number'));
      assert.ok(ps.some((p) => typeof p.result === 'string'));
      for (const p of ps) assert.ok(Number.isFinite(Number(p.result)), String(p.result));
    });

    const addReports = (names: string[]): void => {
      let id = Math.max(...sb.reports.map((r) => r.id));
      let at = Date.parse('2026-07-01T00:00:00Z');
      for (const project of names) {
        const r: SandboxReport = { id: ++id, project, result: 50, createdAt: new Date((at += 1000)) };
        sb.reports.push(r);
      }
    };

    it('names match under the collation: case, accents and trailing spaces ignored (`Café ` = `cafe`), one project', async () => {
      addReports(['Café Crème ', 'cafe creme', 'CAFÉ CRÈME', 'Cafe Creme  ']);
      const found = (await all(`search=${encodeURIComponent('creme')}`));
      assert.deepEqual(found.map((p) => [p.project, p.reports]), [['Café Crème ', 4]], 'named as the first created report');
      const r = await seo(`/projects/${encodeURIComponent('cafe creme')}`, { method: 'DELETE' });
      assert.deepEqual(r.json, { id: 'cafe creme', object: 'report', deleted: true, status: 200 });
      assert.equal(sb.reports.filter((x) => fold(x.project).includes('creme')).length, 0);
      // The name as sent, with an accent and a trailing space, matches too.
      addReports(['cafe']);
      const t = await seo(`/projects/${encodeURIComponent('Café ')}`, { method: 'DELETE' });
      assert.deepEqual(t.json, { id: 'Café ', object: 'report', deleted: true, status: 200 });
      assert.equal(sb.reports.filter((x) => x.project === 'cafe').length, 0);
      // Different words are different projects.
      addReports(['Cafés']);
      assert.equal((await seo(`/projects/${encodeURIComponent('Café')}`, { method: 'DELETE' })).status, 404);
    });

    it('sort_by=project is the collation order too (punctuation, symbols, digits, letters)', async () => {
      sb.reports.length = 0;
      addReports(COLLATION_NAMES_SHUFFLED);
      assert.deepEqual((await all('sort_by=project&sort=asc')).map((p) => p.project), COLLATION_ORDER);
      assert.deepEqual((await all('sort_by=project&sort=desc')).map((p) => p.project), [...COLLATION_ORDER].reverse());
    });

    it('a project is the reports sharing a name, case-insensitively (named as first created)', async () => {
      const acme = (await all('search=acme')).filter((p) => p.project.toLowerCase() === 'acme');
      assert.equal(acme.length, 1);
      assert.equal(acme[0].project, 'Acme');
      const reports = sb.reports.filter((r) => r.project.toLowerCase() === 'acme');
      assert.ok(new Set(reports.map((r) => r.project)).size > 1, 'seed has mixed-case reports');
      assert.equal(acme[0].reports, reports.length);
      const earliest = Math.min(...reports.map((r) => r.createdAt.getTime()));
      assert.equal(Date.parse(acme[0].created_at), earliest);
    });

    it('default order: created_at desc; sort=asc; invalid values fall back', async () => {
      const desc = (await all()).map((p) => Date.parse(p.created_at));
      assert.deepEqual(desc, [...desc].sort((a, b) => b - a));
      const asc = (await all('sort=asc')).map((p) => Date.parse(p.created_at));
      assert.deepEqual(asc, [...asc].sort((a, b) => a - b));
      assert.deepEqual(await all('sort_by=reports&sort=nope'), await all());
    });

    it('sort_by=project on the seed: in the collation\'s order (collate, checked against MariaDB by nameOrder.test.ts)', async () => {
      const names = (await all('sort_by=project&sort=asc')).map((p) => p.project);
      assert.ok(names.length > 30);
      assert.deepEqual(names, [...names].sort(collate));
    });

    it('search on the project name: case/accent-insensitive, LIKE wildcards unless escaped', async () => {
      assert.deepEqual((await all('search=cafe%20unicode')).map((p) => p.project), ['Café Ünïcode']);
      assert.deepEqual((await all(`search=${encodeURIComponent('C_ tips')}`)).map((p) => p.project), ['C# tips']);
      assert.deepEqual(await all(`search=${encodeURIComponent('C\\_ tips')}`), []);
      assert.deepEqual((await all(`search=${encodeURIComponent('100\\%')}`)).map((p) => p.project), ['100% organic']);
      assert.deepEqual((await all('search_by=project&search=ACME')).map((p) => p.project), ['Acme']);
    });

    it('per_page and page as for documents; links carry the filters', async () => {
      const r = await seo('/projects?sort_by=project&per_page=25&search=e');
      assert.equal(r.json.meta.per_page, 25);
      if (r.json.links.next) assert.equal(r.json.links.next, `${sb.seoUrl}/api/v1/projects?sort_by=project&per_page=25&search=e&page=2`);
      assert.equal((await seo('/projects?per_page=3')).json.meta.per_page, 10);
    });

    it('delete: name percent-encoded as one segment; envelope id echoes the name', async () => {
      for (const name of ['C# tips', 'What? Why?', '日本語プロジェクト', '100% organic', 'Percent%20literal', 'plus+sign']) {
        const r = await seo(`/projects/${encodeURIComponent(name)}`, { method: 'DELETE' });
        assert.equal(r.status, 200, name);
        assert.deepEqual(r.json, { id: name, object: 'report', deleted: true, status: 200 });
        assert.equal(sb.reports.filter((x) => x.project.toLowerCase() === name.toLowerCase()).length, 0, name);
      }
    });

    it('delete: matches case-insensitively and deletes every report of the project', async () => {
      const before = sb.reports.length;
      const n = sb.reports.filter((r) => r.project.toLowerCase() === 'acme').length;
      const r = await seo('/projects/aCmE', { method: 'DELETE' });
      assert.deepEqual(r.json, { id: 'aCmE', object: 'report', deleted: true, status: 200 });
      assert.equal(sb.reports.length, before - n);
      assert.equal((await all('search=acme')).length, 0);
    });

    it('delete: unknown project is a 404', async () => {
      const r = await seo('/projects/No%20such%20project', { method: 'DELETE' });
      assert.equal(r.status, 404);
      assert.deepEqual(r.json, { message: 'Resource not found.', status: 404 });
    });

    it('delete: an encoded slash gets an HTML 404 from the web server', async () => {
      const before = sb.reports.length;
      const r = await seo(`/projects/${encodeURIComponent('a/b testing')}`, { method: 'DELETE' });
      assert.equal(r.status, 404);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(sb.reports.length, before);
    });

    it('delete: a raw slash (extra segment) gets a 405 JSON', async () => {
      const before = sb.reports.length;
      const r = await seo('/projects/a/b%20testing', { method: 'DELETE' });
      assert.equal(r.status, 405);
      assert.equal(r.json.status, 405);
      assert.equal(sb.reports.length, before);
    });

    it('delete: the known bug can delete one unrelated report as well (projectDeleteBug)', async () => {
      const buggy = await startSandbox({ rateLimit: 0, seoRateLimit: 0, projectDeleteBug: true });
      try {
        const before = buggy.reports.length;
        const n = buggy.reports.filter((r) => r.project === 'Backlinks').length;
        const r = await call(`${buggy.seoUrl}/api/v1/projects/Backlinks`, { method: 'DELETE' });
        assert.equal(r.status, 200);
        assert.equal(buggy.reports.length, before - n - 1);
      } finally {
        await buggy.close();
      }
      // Without the option, only the project's reports go.
      const before = sb.reports.length;
      const n = sb.reports.filter((r) => r.project === 'Backlinks').length;
      await seo('/projects/Backlinks', { method: 'DELETE' });
      assert.equal(sb.reports.length, before - n);
    });
  });

  describe('account', () => {
    const USER_KEYS = ['id', 'name', 'email', 'avatar_url', 'locale', 'timezone'];
    const COUNTERS = ['documents_month_count', 'documents_total_count', 'words_month_count', 'words_total_count', 'images_month_count', 'images_total_count'];

    it('GET /api/v1/account (documents): the user, the plan with its features, defaults and the usage counters', async () => {
      const r = await docs('/account');
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.json), ['data', 'status']);
      assert.equal(r.json.status, 200);
      const a = r.json.data;
      assert.deepEqual(Object.keys(a), [
        ...USER_KEYS, 'plan', 'default_variations', 'default_creativity', 'default_language', ...COUNTERS, 'created_at',
      ]);
      assert.ok(Number.isInteger(a.id));
      for (const k of ['name', 'email', 'avatar_url', 'locale', 'timezone', 'default_language']) assert.equal(typeof a[k], 'string', k);
      assert.deepEqual(Object.keys(a.plan), ['id', 'name', 'features']);
      assert.deepEqual(Object.keys(a.plan.features), ['words', 'documents', 'images', 'templates', 'custom_templates', 'data_export', 'api']);
      assert.deepEqual(a.plan.features, DEFAULT_PLAN.features);
      for (const v of Object.values(a.plan.features)) assert.ok(Number.isInteger(v) && (v as number) >= -1);
      assert.equal(a.plan.features.api, 1);
      assert.equal(a.default_creativity, 0.5);
      assert.ok(Number.isInteger(a.default_variations));
      for (const k of COUNTERS) assert.ok(Number.isInteger(a[k]) && a[k] >= 0, k);
      assert.match(a.created_at, ISO_MICRO);
      // Totals start from the seed.
      assert.equal(a.documents_total_count, sb.documents.size);
      assert.equal(a.words_total_count, [...sb.documents.values()].reduce((n, d) => n + d.words, 0));
    });

    it('counters really count: a store adds one document and its words to the month and total counts', async () => {
      const before = (await docs('/account')).json.data;
      const s1 = await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'count me', creativity: '0.5' } });
      const s2 = await docs('/documents', { method: 'POST', form: { name: 'y', prompt: 'and me', creativity: '1' } });
      const words = s1.json.data.words + s2.json.data.words;
      assert.ok(words > 0);
      const after = (await docs('/account')).json.data;
      assert.equal(after.documents_month_count, before.documents_month_count + 2);
      assert.equal(after.documents_total_count, before.documents_total_count + 2);
      assert.equal(after.words_month_count, before.words_month_count + words);
      assert.equal(after.words_total_count, before.words_total_count + words);
      assert.equal(after.images_month_count, before.images_month_count);
      // A refused store counts nothing.
      await docs('/documents', { method: 'POST', form: { name: 'z', prompt: 'p', creativity: '7' } });
      assert.deepEqual((await docs('/account')).json.data, after);
    });

    it('setAccount(): plan limits and counters as GET /account shows them', async () => {
      sb.setAccount({ plan: { name: 'Starter', features: { words: 10000, documents: -1 } }, counters: { words_month_count: 9000 }, defaultCreativity: 0.75 });
      const a = (await docs('/account')).json.data;
      assert.equal(a.plan.name, 'Starter');
      assert.equal(a.plan.features.words, 10000);
      assert.equal(a.plan.features.documents, -1);
      assert.equal(a.plan.features.images, DEFAULT_PLAN.features.images, 'what is left out is kept');
      assert.equal(a.words_month_count, 9000);
      assert.equal(a.default_creativity, 0.75);
      assert.throws(() => sb.setAccount({ counters: { words_month_count: 'many' as unknown as number } }), /number/);
    });

    it('the projects server answers /api/v1/account with the user and its own plan (projects, reports, api), no counters', async () => {
      const r = await seo('/account');
      assert.equal(r.status, 200);
      assert.equal(r.json.status, 200);
      const a = r.json.data;
      assert.deepEqual(Object.keys(a), [...USER_KEYS, 'plan', 'created_at']);
      assert.deepEqual(Object.keys(a.plan), ['id', 'name', 'features']);
      assert.deepEqual(Object.keys(a.plan.features), ['projects', 'reports', 'api']);
      assert.equal(a.plan.features.api, 1);
      for (const k of COUNTERS) assert.ok(!(k in a), k);
      assert.equal(a.email, (await docs('/account')).json.data.email, 'the same user');
      assert.equal(sb.requests.at(-2)?.route, 'projects.account');
      assert.equal((await seo('/account', { auth: false })).status, 401);
      assert.equal((await seo('/account', { method: 'POST', auth: false })).status, 405);
    });

    it('403 {"message":"You don\'t have access to this feature.","status":403} when the plan has no API access', async () => {
      sb.setAccount({ plan: { features: { api: 0 } } });
      for (const r of [await docs('/documents'), await docs('/account'), await docs('/documents', { method: 'POST', form: { name: 'n', prompt: 'p', creativity: '0' } })]) {
        assert.equal(r.status, 403);
        assert.deepEqual(r.json, { message: "You don't have access to this feature.", status: 403 });
      }
      assert.equal((await docs('/documents', { auth: false })).status, 401, 'authentication first');
      assert.equal((await seo('/projects')).status, 200, 'the projects server has its own plan');
      sb.setAccount({ plan: { features: { api: 1 } }, seoPlan: { features: { api: 0 } } });
      assert.equal((await seo('/projects')).status, 403);
      assert.equal((await docs('/documents')).status, 200);
    });

    it('account needs the key like everything else', async () => {
      assert.equal((await docs('/account', { auth: false })).status, 401);
    });
  });

  describe('faults', () => {
    it('status500: {"message":"An unexpected error has occurred, please try again.","status":500}', async () => {
      sb.setFault('documents.store', { kind: 'status500' });
      const r = await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'p', creativity: '0.5' } });
      assert.equal(r.status, 500);
      assert.deepEqual(r.json, { message: 'An unexpected error has occurred, please try again.', status: 500 });
    });

    it('status502/503/504: gateway HTML pages', async () => {
      for (const [kind, code] of [['status502', 502], ['status503', 503], ['status504', 504]] as const) {
        sb.setFault('documents.list', { kind });
        const r = await docs('/documents');
        assert.equal(r.status, code);
        assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(r.text, new RegExp(String(code)));
      }
    });

    it('hang: never answers (a client timeout fires; close() does not block)', async () => {
      sb.setFault('documents.show', { kind: 'hang' });
      await assert.rejects(docs('/documents/1', { signal: AbortSignal.timeout(300) }));
      assert.equal(sb.requests.at(-1)?.status, 0);
    });

    it('reset: headers and half a body, then the connection drops', async () => {
      sb.setFault('documents.list', { kind: 'reset' });
      await assert.rejects(docs('/documents'));
    });

    it('malformedJson: 200 with a truncated JSON body', async () => {
      sb.setFault('projects.list', { kind: 'malformedJson' });
      const r = await seo('/projects');
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /json/);
      assert.throws(() => JSON.parse(r.text));
    });

    it('html200: 200 with an HTML page', async () => {
      sb.setFault('account', { kind: 'html200' });
      const r = await docs('/account');
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    });

    it('redirectLogin: 302 to /login even with a valid key', async () => {
      sb.setFault('documents.list', { kind: 'redirectLogin' });
      const r = await docs('/documents');
      assert.equal(r.status, 302);
      assert.equal(r.headers.get('location'), `${sb.docsUrl}/login`);
    });

    it('wrongShape: {"data":"nope","status":200}', async () => {
      sb.setFault('documents.show', { kind: 'wrongShape' });
      const r = await docs('/documents/1');
      assert.deepEqual(r.json, { data: 'nope', status: 200 });
    });

    it('oversized: a valid-looking JSON body of about 20 MB', async () => {
      sb.setFault('documents.list', { kind: 'oversized' });
      const r = await docs('/documents');
      assert.equal(r.status, 200);
      assert.ok(Buffer.byteLength(r.text) >= 20 * 1024 * 1024, String(r.text.length));
      assert.ok(Array.isArray(r.json.data));
    });

    it('rateLimit: 429 with Retry-After = retryAfter (default 2)', async () => {
      sb.setFault('documents.list', { kind: 'rateLimit', retryAfter: 7, count: 1 });
      const a = await docs('/documents');
      assert.equal(a.status, 429);
      assert.equal(a.headers.get('retry-after'), '7');
      assert.ok(a.headers.get('x-ratelimit-reset'));
      assert.deepEqual(a.json, { message: 'Too Many Attempts.' });
      sb.setFault('documents.list', { kind: 'rateLimit' });
      assert.equal((await docs('/documents')).headers.get('retry-after'), '2');
    });

    it('count: the fault hits only the next N matching requests', async () => {
      sb.setFault('documents.list', { kind: 'status503', count: 2 });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await docs('/documents')).status);
      assert.deepEqual(statuses, [503, 503, 200]);
    });

    it('faults apply after auth (a 401 does not consume them) and only to their route', async () => {
      sb.setFault('documents.list', { kind: 'status500', count: 1 });
      assert.equal((await docs('/documents', { auth: false })).status, 401);
      assert.equal((await docs('/documents/1')).status, 200);
      assert.equal((await docs('/documents')).status, 500);
      assert.equal((await docs('/documents')).status, 200);
    });

    it('a faulted store creates nothing; setFault(route, undefined) and clearFaults() remove faults', async () => {
      const size = sb.documents.size;
      sb.setFault('documents.store', { kind: 'status502' });
      sb.setFault('documents.list', { kind: 'status502' });
      assert.equal((await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'p', creativity: '0.5' } })).status, 502);
      assert.equal(sb.documents.size, size);
      sb.setFault('documents.store', undefined);
      assert.equal((await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'p', creativity: '0.5' } })).status, 201);
      sb.clearFaults();
      assert.equal((await docs('/documents')).status, 200);
    });
  });

  describe('the text generator and validation faults', () => {
    afterEach(() => {
      sb.setModelAnswer(undefined);
      sb.setStoreDelay(0);
    });

    it('status422: {"message":{field:[messages]},"status":422} with the fields given; nothing is created', async () => {
      const size = sb.documents.size;
      const fields = { name: ['You have reached the words limit.'], prompt: ['The prompt is invalid.', 'The prompt is too long.'] };
      sb.setFault('documents.store', { kind: 'status422', count: 1, fields });
      const r = await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'p', creativity: '0.5' } });
      assert.equal(r.status, 422);
      assert.deepEqual(r.json, { message: fields, status: 422 });
      assert.equal(sb.documents.size, size);
    });

    it('the model answer: empty, null (result null, 0 words) or HTML, stored trimmed as the server stores the model\'s text', async () => {
      for (const [answer, stored] of [
        ['', ''],
        [null, null],
        ['  <p>Hello <b>world</b></p>\n', '<p>Hello <b>world</b></p>'],
      ] as const) {
        sb.setModelAnswer(answer);
        const r = await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'p', creativity: '0.5' } });
        assert.equal(r.status, 201);
        assert.equal(r.json.data.result, stored);
        assert.equal(r.json.data.words, countWords(stored));
      }
      sb.setModelAnswer(undefined);
      const r = await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'echo me', creativity: '0.5' } });
      assert.match(r.json.data.result, /^\[sandbox\] Generated for: echo me/);
    });

    it('control: POST /__sandbox/model-answer and /__sandbox/store-delay', async () => {
      const control = (route: string, body: unknown) => call(`${sb.docsUrl}/__sandbox/${route}`, { method: 'POST', json: body, auth: false });
      assert.equal((await control('model-answer', { answer: null })).status, 200);
      assert.equal((await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'p', creativity: '0.5' } })).json.data.result, null);
      assert.equal((await control('model-answer', {})).status, 200);
      assert.equal((await control('model-answer', { answer: 5 })).status, 400);
      assert.equal((await control('store-delay', { ms: 200 })).status, 200);
      const t0 = Date.now();
      const r = await docs('/documents', { method: 'POST', form: { name: 'x', prompt: 'p', creativity: '0.5' } });
      assert.equal(r.status, 201);
      assert.ok(Date.now() - t0 >= 190, 'the generator took its time');
      assert.match(r.json.data.result, /^\[sandbox\] Generated for: p/);
    });
  });

  describe('latency, requests log and control surface', () => {
    it('latency is added to every /api/v1 answer', async () => {
      sb.setLatency(150);
      const t0 = Date.now();
      assert.equal((await docs('/documents', { auth: false })).status, 401);
      assert.ok(Date.now() - t0 >= 140);
    });

    it('requests: every request in order with route, status, auth header and Accept (control excluded)', async () => {
      await docs('/documents?search=x');
      await seo('/projects', { auth: false });
      await call(`${sb.docsUrl}/__sandbox/requests`);
      await docs('/documents/1', { method: 'PATCH', form: { name: 'z' } });
      assert.equal(sb.requests.length, 3);
      const [a, b, c] = sb.requests;
      assert.deepEqual([a.server, a.method, a.path, a.route, a.status, a.authorized], ['documents', 'GET', '/api/v1/documents', 'documents.list', 200, true]);
      assert.deepEqual(a.query, { search: 'x' });
      assert.equal(a.authorizationHeader, `Bearer ${DEFAULT_KEY}`);
      assert.equal(a.accept, 'application/json');
      assert.deepEqual([b.server, b.route, b.status, b.authorized], ['projects', 'projects.list', 401, false]);
      assert.equal(c.contentType, 'application/x-www-form-urlencoded');
      assert.deepEqual(c.body, { name: 'z' });
    });

    it('control: GET /__sandbox/requests and POST /__sandbox/reset-requests (no auth)', async () => {
      await docs('/documents');
      const r = await call(`${sb.seoUrl}/__sandbox/requests`, { auth: false });
      assert.equal(r.status, 200);
      assert.equal(r.json.length, 1);
      assert.equal(r.json[0].route, 'documents.list');
      await call(`${sb.docsUrl}/__sandbox/reset-requests`, { method: 'POST', auth: false });
      assert.equal(sb.requests.length, 0);
    });

    it('control: POST /__sandbox/fault sets and clears a fault; clear-faults', async () => {
      const set = await call(`${sb.docsUrl}/__sandbox/fault`, { method: 'POST', auth: false, json: { route: 'projects.list', fault: { kind: 'wrongShape' } } });
      assert.equal(set.status, 200);
      assert.deepEqual((await seo('/projects')).json, { data: 'nope', status: 200 });
      await call(`${sb.docsUrl}/__sandbox/fault`, { method: 'POST', json: { route: 'projects.list', fault: null } });
      assert.equal((await seo('/projects')).json.status, 200);
      await call(`${sb.seoUrl}/__sandbox/fault`, { method: 'POST', json: { route: 'account', fault: { kind: 'status500' } } });
      await call(`${sb.seoUrl}/__sandbox/clear-faults`, { method: 'POST' });
      assert.equal((await docs('/account')).status, 200);
      const bad = await call(`${sb.docsUrl}/__sandbox/fault`, { method: 'POST', json: { route: 'nope', fault: { kind: 'hang' } } });
      assert.equal(bad.status, 400);
    });

    it('control: POST /__sandbox/latency and /__sandbox/reseed', async () => {
      await call(`${sb.docsUrl}/__sandbox/latency`, { method: 'POST', json: { ms: 120 } });
      const t0 = Date.now();
      await docs('/account');
      assert.ok(Date.now() - t0 >= 110);
      await call(`${sb.docsUrl}/__sandbox/latency`, { method: 'POST', json: { ms: 0 } });
      const r = await call(`${sb.docsUrl}/__sandbox/reseed`, { method: 'POST', json: { seed: 'empty' } });
      assert.equal(r.status, 200);
      assert.equal((await docs('/documents')).json.meta.total, 0);
      assert.equal((await seo('/projects')).json.meta.total, 0);
      await call(`${sb.docsUrl}/__sandbox/reseed`, { method: 'POST', json: { seed: { documents: 12, projects: 3 } } });
      assert.equal((await docs('/documents')).json.meta.total, 12);
      assert.equal((await seo('/projects')).json.meta.total, 3);
    });

    it('control: GET /__sandbox/documents/:id returns raw state including prompt', async () => {
      const id = [...sb.documents.keys()][3];
      const r = await call(`${sb.docsUrl}/__sandbox/documents/${id}`, { auth: false });
      assert.equal(r.status, 200);
      assert.equal(r.json.id, id);
      assert.equal(typeof r.json.prompt, 'string');
      assert.equal(r.json.result, sb.documents.get(id)!.result);
      assert.equal((await call(`${sb.docsUrl}/__sandbox/documents/999999`)).status, 404);
    });

    it('live state: tests may mutate documents and the API reflects it', async () => {
      const d = docByName('a');
      d.name = 'Mutated directly';
      assert.equal((await docs(`/documents/${d.id}`)).json.data.name, 'Mutated directly');
    });

    it('close() returns promptly even with a hung request open', async () => {
      const s = await startSandbox({ seed: 'empty', rateLimit: 0 });
      s.setFault('documents.list', { kind: 'hang' });
      const pending = call(`${s.docsUrl}/api/v1/documents`).catch(() => 'dropped');
      await new Promise((res) => setTimeout(res, 100));
      const t0 = Date.now();
      await s.close();
      assert.ok(Date.now() - t0 < 1000);
      assert.equal(await pending, 'dropped');
    });
  });

  describe('seed data', () => {
    it('default: ~300 documents, every template 1..52 used, a few over 60, Freestyle ~40', () => {
      const { documents } = generateSeed('default');
      assert.ok(documents.length >= 250 && documents.length <= 350, String(documents.length));
      const counts = new Map<number | null, number>();
      for (const d of documents) counts.set(d.templateId, (counts.get(d.templateId) ?? 0) + 1);
      for (const t of TEMPLATES) assert.ok((counts.get(t.id) ?? 0) >= 1, `template ${t.id}`);
      assert.ok([...counts.values()].filter((n) => n > 60).length >= 2);
      assert.ok(Math.abs((counts.get(1) ?? 0) - 40) <= 5);
      assert.equal(counts.get(null), 2);
      assert.equal(counts.get(60), 2);
    });

    it('default: results are plain text or HTML (documents edited in the web UI)', async () => {
      const html = [...sb.documents.values()].filter((d) => d.result !== null && /^<p>.*<\/p>$/s.test(d.result));
      assert.ok(html.length >= 3, String(html.length));
      const r = await docs(`/documents/${html[0].id}`);
      assert.match(r.json.data.result, /^<p>/);
      assert.ok([...sb.documents.values()].some((d) => d.result !== null && !d.result.startsWith('<')));
    });

    it('default: ~15% favorites, a few null results, awkward names (emoji, accents, RTL)', () => {
      const { documents } = generateSeed('default');
      const favs = documents.filter((d) => d.favorite).length / documents.length;
      assert.ok(favs > 0.08 && favs < 0.22, String(favs));
      assert.ok(documents.filter((d) => d.result === null).length >= 3);
      const names = documents.map((d) => d.name);
      assert.ok(names.some((n) => /\p{Extended_Pictographic}/u.test(n)));
      assert.ok(names.some((n) => /[\u0590-\u06ff]/.test(n)));
      assert.ok(names.some((n) => /é/.test(n)));
    });

    it('default: ~36 projects from ~150 reports, with awkward names and mixed-case duplicates', () => {
      const { reports } = generateSeed('default');
      assert.ok(reports.length >= 100 && reports.length <= 200, String(reports.length));
      const projects = new Set(reports.map((r) => r.project.toLowerCase()));
      assert.ok(projects.size >= 30 && projects.size <= 40, String(projects.size));
      for (const n of ['Site audit 2024', '100% organic', 'C# tips', 'What? Why?', 'Café Ünïcode', '日本語プロジェクト', 'a/b testing']) {
        assert.ok(reports.some((r) => r.project === n), n);
      }
      assert.ok(reports.some((r) => r.project === 'ACME') && reports.some((r) => r.project === 'Acme'));
    });

    it('deterministic, dated over the two years before 2026-06-01 at one-second resolution', () => {
      const a = generateSeed('default');
      const b = generateSeed('default');
      assert.deepEqual(a, b);
      const base = SEED_BASE_DATE.getTime();
      for (const d of a.documents) {
        const t = d.createdAt.getTime();
        assert.ok(t < base && t > base - 731 * 86400_000);
        assert.equal(t % 1000, 0);
        assert.ok(d.updatedAt.getTime() >= t);
      }
      const ids = a.documents.map((d) => d.id);
      assert.deepEqual(ids, [...ids].sort((x, y) => x - y), 'ids follow creation order');
    });

    it('large: 10,000 documents and 200 projects in under a second; empty: none', () => {
      const t0 = Date.now();
      const large = generateSeed('large');
      assert.ok(Date.now() - t0 < 1000, `${Date.now() - t0} ms`);
      assert.equal(large.documents.length, 10_000);
      assert.equal(new Set(large.reports.map((r) => r.project.toLowerCase())).size, 200);
      const empty = generateSeed('empty');
      assert.deepEqual(empty, { documents: [], reports: [] });
    });
  });

  describe('cli', () => {
    it('node out/test/sandbox/cli.js prints both URLs and the key and stops on SIGTERM', async function () {
      this.timeout(10000);
      const child = spawn(process.execPath, [path.join(__dirname, '..', 'sandbox', 'cli.js'), '--port=0', '--seo-port=0', '--rate-limit=0', '--latency=0'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 8000);
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (/API key:/.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const docsUrl = /Documents server: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const seoUrl = /Projects server: +(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      assert.ok(docsUrl && seoUrl, out);
      assert.ok(out.includes(DEFAULT_KEY));
      assert.equal((await call(`${docsUrl}/api/v1/documents`)).status, 200);
      const code = await new Promise<number | null>((resolve) => {
        child.removeAllListeners('exit');
        child.on('exit', (c) => resolve(c));
        child.kill('SIGTERM');
      });
      assert.equal(code, 0);
    });
  });
});
