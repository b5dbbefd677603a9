/**
 * The API client (src/api) against the sandbox (test/sandbox), over real HTTP on 127.0.0.1.
 * Every request the client makes is checked where it lands: the sandbox keeps a request log
 * (`sb.requests`: method, raw path, query, form body, Authorization, Accept, Content-Type).
 * Answers the sandbox cannot give (403, a redirect to another host, a reset before any answer)
 * come from small plain `node:http` servers started here, also on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import {
  ApiError,
  checkBaseUrl,
  createApi,
  isApiError,
  walkPages,
  type ClientOptions,
  type ContentApi,
  type ContentDocument,
  type Exchange,
  type Page,
  type Project,
} from '../../src/api';
import { isKnownTemplate, templateName, TEMPLATES } from '../../src/api/templates';
import { listAccount } from '../../src/files/accountIndex';
import { collate, fold, likeMatcher, startSandbox, type RequestRecord, type Sandbox } from '../sandbox/server';
import { CUSTOM_TEMPLATES, TEMPLATES as SANDBOX_TEMPLATES } from '../sandbox/templates';
import { withFastClientSleeps, withVirtualClock } from './apiKit';

// ---------------------------------------------------------------------------------------------------
// Helpers

/** Calls `fn` and returns the ApiError it throws (synchronously or as a rejection); fails otherwise. */
async function apiError(fn: () => unknown): Promise<ApiError> {
  let caught: unknown;
  let resolved = false;
  try {
    await fn();
    resolved = true;
  } catch (e) {
    caught = e;
  }
  assert.ok(!resolved, 'expected the call to fail, but it succeeded');
  assert.ok(isApiError(caught), `expected an ApiError, got ${caught instanceof Error ? caught.stack : String(caught)}`);
  assert.ok(caught instanceof ApiError, 'the error is an instance of ApiError');
  assert.equal((caught).name, 'ApiError');
  return caught;
}

/** A message a user can read: a sentence, no object dumps. */
function assertReadable(err: ApiError): void {
  assert.equal(typeof err.message, 'string');
  assert.ok(err.message.length >= 15, `message too short: "${err.message}"`);
  assert.doesNotMatch(err.message, /\[object |NaN|^\s*[{[<]/, `unreadable message: "${err.message}"`);
}

interface Stub {
  url: string;
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  /** TCP connections accepted (a TLS or other attempt that never becomes an HTTP request still counts). */
  readonly connections: number;
  close(): Promise<void>;
}

/** A plain node http server on 127.0.0.1 that records what it receives. */
async function startStub(handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void): Promise<Stub> {
  const requests: Stub['requests'] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------

describe('API client (src/api) against the sandbox', function () {
  this.timeout(10000);
  let sb: Sandbox;
  let apis: ContentApi[] = [];
  let stubs: Stub[] = [];
  let logs: string[] = [];
  let exchanges: Exchange[] = [];

  /** A client for the sandbox; fresh per call so pacing and in-flight state never leak between tests. */
  function client(o: Partial<ClientOptions> = {}): ContentApi {
    const api = createApi({
      documentsUrl: sb.docsUrl,
      projectsUrl: sb.seoUrl,
      getKey: () => sb.key,
      timeoutMs: 5000,
      log: (level, line) => logs.push(`${level} ${line}`),
      onExchange: (e) => exchanges.push(e),
      ...o,
    });
    apis.push(api);
    return api;
  }
  async function stub(handler: Parameters<typeof startStub>[0]): Promise<Stub> {
    const s = await startStub(handler);
    stubs.push(s);
    return s;
  }
  const reqs = (): RequestRecord[] => sb.requests;
  const apiReqs = (): RequestRecord[] => sb.requests.filter((r) => r.path.startsWith('/api/v1'));
  const allDocs = () => [...sb.documents.values()];
  const projectReports = (name: string) => sb.reports.filter((r) => r.project.toLowerCase() === name.toLowerCase());

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.reseed('default');
    sb.clearFaults();
    sb.setLatency(0);
    sb.setRateLimit(0);
    sb.resetRateLimit();
    sb.resetRequests();
    logs = [];
    exchanges = [];
  });
  afterEach(async () => {
    for (const a of apis) a.dispose();
    apis = [];
    await Promise.all(stubs.map((s) => s.close()));
    stubs = [];
  });

  // -------------------------------------------------------------------------------------------------
  describe('documents: every operation', () => {
    it('list: GET /api/v1/documents, parsed into a Page (server defaults: page 1, 10 per page, newest first)', async () => {
      const page = await client().listDocuments();
      assert.equal(reqs().length, 1);
      const r = reqs()[0];
      assert.equal(r.server, 'documents');
      assert.equal(r.method, 'GET');
      assert.equal(r.path, '/api/v1/documents');
      assert.deepEqual(r.query, {});
      assert.equal(r.status, 200);
      const expectedIds = allDocs().map((d) => d.id).sort((a, b) => b - a).slice(0, 10);
      assert.deepEqual(page.items.map((d) => d.id), expectedIds);
      assert.equal(page.page, 1);
      assert.equal(page.perPage, 10);
      assert.equal(page.total, sb.documents.size);
      assert.equal(page.lastPage, Math.ceil(sb.documents.size / 10));
      assert.equal(page.hasMore, true);
      for (const d of page.items) {
        const s = sb.documents.get(d.id)!;
        assert.equal(d.name, s.name);
        assert.equal(d.favorite, s.favorite);
        assert.equal(typeof d.favorite, 'boolean');
        assert.equal(d.words, s.words);
      }
    });

    it('show: GET /api/v1/documents/{id}, the record with every field', async () => {
      const s = allDocs().find((d) => d.templateId === 4 && d.result !== null)!;
      const d = await client().showDocument(s.id);
      const r = reqs()[0];
      assert.equal(r.method, 'GET');
      assert.equal(r.path, `/api/v1/documents/${s.id}`);
      assert.equal(d.id, s.id);
      assert.equal(d.name, s.name);
      assert.equal(d.result, s.result);
      assert.equal(d.resultIsNull, false);
      assert.equal(d.words, s.words);
      assert.equal(d.favorite, s.favorite);
      assert.deepEqual(d.template, { id: 4, name: 'Article' });
      assert.equal(d.created_at, s.createdAt.toISOString().replace(/\.\d{3}Z$/, '.000000Z'));
      assert.equal(d.updated_at, s.updatedAt.toISOString().replace(/\.\d{3}Z$/, '.000000Z'));
      assert.ok(!('prompt' in d) && !('creativity' in d), 'prompt and creativity are write-only');
    });

    it('show: a null result reads as empty text (resultIsNull), a deleted template ([]) as no template', async () => {
      const api = client();
      const nullDoc = allDocs().find((d) => d.result === null)!;
      const a = await api.showDocument(nullDoc.id);
      assert.equal(a.result, '');
      assert.equal(a.resultIsNull, true);
      const orphan = allDocs().find((d) => d.templateId === null)!;
      const b = await api.showDocument(orphan.id);
      assert.equal(b.template, undefined);
      assert.equal(b.name, orphan.name);
    });

    it('show: an unknown id is notFound (404)', async () => {
      const err = await apiError(() => client().showDocument(999_999));
      assert.equal(err.kind, 'notFound');
      assert.equal(err.status, 404);
      assert.equal(reqs()[0].path, '/api/v1/documents/999999');
      assertReadable(err);
    });

    it('store: POST /api/v1/documents with name, prompt, creativity, template_id as a form; 201 with the record', async () => {
      const before = sb.documents.size;
      const d = await client().storeDocument({ name: 'My new article', prompt: 'Write about bikes', creativity: 0.75, templateId: 4 });
      const r = reqs()[0];
      assert.equal(r.method, 'POST');
      assert.equal(r.path, '/api/v1/documents');
      assert.equal(r.status, 201);
      assert.equal(r.contentType, 'application/x-www-form-urlencoded');
      assert.deepEqual(r.body, { name: 'My new article', prompt: 'Write about bikes', creativity: '0.75', template_id: '4' });
      assert.deepEqual(r.query, {});
      assert.equal(sb.documents.size, before + 1);
      const s = sb.documents.get(d.id)!;
      assert.equal(s.prompt, 'Write about bikes');
      assert.equal(s.creativity, 0.75);
      assert.equal(s.templateId, 4);
      assert.equal(d.name, 'My new article');
      assert.deepEqual(d.template, { id: 4, name: 'Article' });
      assert.match(d.result, /Generated for: Write about bikes/);
      assert.equal(d.favorite, false);
    });

    it('store: template_id is left out when not given (server default Freestyle); name and prompt are sent trimmed', async () => {
      const d = await client().storeDocument({ name: '  Padded name  ', prompt: '\n Prompt text \t', creativity: 0.5 });
      const body = reqs()[0].body!;
      assert.deepEqual(body, { name: 'Padded name', prompt: 'Prompt text', creativity: '0.5' });
      assert.ok(!('template_id' in body));
      assert.deepEqual(d.template, { id: 1, name: 'Freestyle' });
    });

    it('store: each of the five creativity levels is sent as its number (0 included, not dropped)', async () => {
      const api = client();
      const levels = [0, 0.25, 0.5, 0.75, 1] as const;
      for (const c of levels) {
        const d = await api.storeDocument({ name: `Creativity ${c}`, prompt: 'p', creativity: c });
        assert.equal(sb.documents.get(d.id)!.creativity, c);
      }
      assert.deepEqual(
        reqs().map((r) => r.body!.creativity),
        ['0', '0.25', '0.5', '0.75', '1'],
      );
    });

    it('update: PATCH /api/v1/documents/{id} with name, result and favorite (1) as a form; the updated record', async () => {
      const s = allDocs().find((d) => !d.favorite)!;
      const d = await client().updateDocument(s.id, { name: 'Renamed', result: 'New body text', favorite: true });
      const r = reqs()[0];
      assert.equal(r.method, 'PATCH');
      assert.equal(r.path, `/api/v1/documents/${s.id}`);
      assert.equal(r.contentType, 'application/x-www-form-urlencoded');
      assert.deepEqual(r.body, { name: 'Renamed', result: 'New body text', favorite: '1' });
      assert.equal(d.name, 'Renamed');
      assert.equal(d.result, 'New body text');
      assert.equal(d.favorite, true);
      assert.equal(sb.documents.get(s.id)!.name, 'Renamed');
      assert.equal(sb.documents.get(s.id)!.favorite, true);
    });

    it('update: only the given fields are sent; favorite false goes as 0; result is trimmed before sending', async () => {
      const s = allDocs().find((d) => d.favorite)!;
      const api = client();
      const a = await api.updateDocument(s.id, { favorite: false });
      assert.deepEqual(reqs()[0].body, { favorite: '0' });
      assert.equal(a.favorite, false);
      assert.equal(sb.documents.get(s.id)!.favorite, false);
      const b = await api.updateDocument(s.id, { result: '  Body with spaces\n' });
      assert.deepEqual(reqs()[1].body, { result: 'Body with spaces' });
      assert.equal(b.result, 'Body with spaces');
      const c = await api.updateDocument(s.id, { name: 'Only the name' });
      assert.deepEqual(reqs()[2].body, { name: 'Only the name' });
      assert.equal(c.result, 'Body with spaces');
    });

    it('update: an unknown id is notFound (404)', async () => {
      const err = await apiError(() => client().updateDocument(999_999, { name: 'x' }));
      assert.equal(err.kind, 'notFound');
      assert.equal(err.status, 404);
    });

    it('delete: DELETE /api/v1/documents/{id}; the document is gone; deleting again is notFound', async () => {
      const s = allDocs()[5];
      const api = client();
      const result = await api.deleteDocument(s.id);
      assert.equal(result, undefined);
      const r = reqs()[0];
      assert.equal(r.method, 'DELETE');
      assert.equal(r.path, `/api/v1/documents/${s.id}`);
      assert.equal(r.body, undefined, 'no body on a delete');
      assert.ok(!sb.documents.has(s.id));
      const err = await apiError(() => api.deleteDocument(s.id));
      assert.equal(err.kind, 'notFound');
      assert.equal(err.status, 404);
      const err2 = await apiError(() => api.showDocument(s.id));
      assert.equal(err2.kind, 'notFound');
    });

    it('account probe: GET /api/v1/account on the documents server returns the plan and usage', async () => {
      const acc = await client().getAccount();
      const r = reqs()[0];
      assert.equal(r.server, 'documents');
      assert.equal(r.method, 'GET');
      assert.equal(r.path, '/api/v1/account');
      const plan = acc.plan as Record<string, unknown>;
      assert.equal(plan.name, 'Sandbox');
      assert.equal((plan.features as Record<string, unknown>).api, 1);
      assert.equal(typeof acc.documents_month_count, 'number');
      assert.equal(typeof acc.words_month_count, 'number');
    });

    it('account probe with a wrong key: auth (401)', async () => {
      const err = await apiError(() => client({ getKey: () => 'not-the-key' }).getAccount());
      assert.equal(err.kind, 'auth');
      assert.equal(err.status, 401);
    });

    it('identical concurrent reads without a signal share one request; reads with a signal do not', async () => {
      const api = client();
      const [a, b] = await Promise.all([api.listDocuments({ perPage: 25 }), api.listDocuments({ perPage: 25 })]);
      assert.equal(apiReqs().length, 1);
      assert.deepEqual(a.items.map((d) => d.id), b.items.map((d) => d.id));
      sb.resetRequests();
      await Promise.all([
        api.listDocuments({ perPage: 25 }, new AbortController().signal),
        api.listDocuments({ perPage: 25 }, new AbortController().signal),
      ]);
      assert.equal(apiReqs().length, 2);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('projects: every operation', () => {
    it('list: GET /api/v1/projects on the projects server; result as a number even when the server sends a string', async () => {
      const page = await client().listProjects({ perPage: 100 });
      const r = reqs()[0];
      assert.equal(r.server, 'projects');
      assert.equal(r.method, 'GET');
      assert.equal(r.path, '/api/v1/projects');
      assert.deepEqual(r.query, { per_page: '100' });
      const names = new Set(sb.reports.map((x) => x.project.toLowerCase()));
      assert.equal(page.total, names.size);
      assert.equal(page.items.length, names.size);
      assert.equal(page.hasMore, false);
      for (const p of page.items) {
        assert.equal(typeof p.project, 'string');
        assert.equal(p.reports, projectReports(p.project).length);
        assert.equal(typeof p.result, 'number', `result of ${p.project}`);
        assert.ok(Number.isFinite(p.result));
        assert.match(p.created_at ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/);
      }
      // The default order is newest first.
      const times = page.items.map((p) => Date.parse(p.created_at!));
      assert.deepEqual(times, [...times].sort((x, y) => y - x));
    });

    it('delete: DELETE /api/v1/projects/{name} on the projects server removes every report of the project', async () => {
      const before = sb.reports.length;
      const n = projectReports('Blog relaunch').length;
      assert.ok(n > 0);
      const result = await client().deleteProject('Blog relaunch');
      assert.equal(result, undefined);
      const r = reqs()[0];
      assert.equal(r.server, 'projects');
      assert.equal(r.method, 'DELETE');
      assert.equal(r.path, '/api/v1/projects/Blog%20relaunch');
      assert.equal(r.status, 200);
      assert.equal(projectReports('Blog relaunch').length, 0);
      assert.equal(sb.reports.length, before - n);
    });

    it('delete: names match case-insensitively (every casing of the project goes)', async () => {
      assert.ok(sb.reports.some((x) => x.project === 'ACME') && sb.reports.some((x) => x.project === 'Acme'));
      await client().deleteProject('acme');
      assert.equal(projectReports('acme').length, 0);
    });

    it('delete: an unknown project is notFound (404)', async () => {
      const err = await apiError(() => client().deleteProject('No such project'));
      assert.equal(err.kind, 'notFound');
      assert.equal(err.status, 404);
      assert.equal(reqs()[0].path, '/api/v1/projects/No%20such%20project');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('list query parameters (what the sandbox received, and the results)', () => {
    it('per_page 10, 25, 50, 100: sent, honoured, reported in Page.perPage', async () => {
      const api = client();
      for (const pp of [10, 25, 50, 100] as const) {
        const page = await api.listDocuments({ perPage: pp });
        assert.equal(page.items.length, pp);
        assert.equal(page.perPage, pp);
        assert.equal(page.lastPage, Math.ceil(sb.documents.size / pp));
      }
      assert.deepEqual(reqs().map((r) => r.query.per_page), ['10', '25', '50', '100']);
    });

    it('page: sent, and it selects the right slice', async () => {
      const page = await client().listDocuments({ page: 3, perPage: 10 });
      assert.deepEqual(reqs()[0].query, { per_page: '10', page: '3' });
      const ids = allDocs().map((d) => d.id).sort((a, b) => b - a);
      assert.deepEqual(page.items.map((d) => d.id), ids.slice(20, 30));
      assert.equal(page.page, 3);
    });

    it('sort asc / desc and sort_by id / name', async () => {
      const api = client();
      const asc = await api.listDocuments({ sort: 'asc', perPage: 25 });
      assert.deepEqual(reqs()[0].query, { sort: 'asc', per_page: '25' });
      const ids = allDocs().map((d) => d.id).sort((a, b) => a - b);
      assert.deepEqual(asc.items.map((d) => d.id), ids.slice(0, 25));

      const byName = await api.listDocuments({ sortBy: 'name', sort: 'asc', perPage: 100 });
      assert.deepEqual(reqs()[1].query, { sort_by: 'name', sort: 'asc', per_page: '100' });
      for (let i = 1; i < byName.items.length; i++) {
        const a = byName.items[i - 1];
        const b = byName.items[i];
        assert.ok(collate(a.name, b.name) <= 0, `${a.name} before ${b.name}`);
      }

      const byNameDesc = await api.listDocuments({ sortBy: 'name', sort: 'desc', perPage: 10 });
      assert.deepEqual(reqs()[2].query, { sort_by: 'name', sort: 'desc', per_page: '10' });
      assert.ok(collate(byNameDesc.items[0].name, byNameDesc.items[9].name) >= 0);

      const byId = await api.listDocuments({ sortBy: 'id', sort: 'desc', perPage: 10 });
      assert.deepEqual(reqs()[3].query, { sort_by: 'id', sort: 'desc', per_page: '10' });
      assert.deepEqual(byId.items.map((d) => d.id), [...ids].reverse().slice(0, 10));
    });

    it('template_id: sent, and every result has that template', async () => {
      const page = await client().listDocuments({ templateId: 4, perPage: 100 });
      assert.deepEqual(reqs()[0].query, { template_id: '4', per_page: '100' });
      const expected = allDocs().filter((d) => d.templateId === 4).length;
      assert.equal(page.total, expected);
      assert.equal(page.items.length, expected);
      assert.ok(page.items.every((d) => d.template?.id === 4 && d.template.name === 'Article'));
    });

    it('favorite: true is sent as 1, false as 0 (never "true"/"false"), and filters', async () => {
      const api = client();
      const fav = await api.listDocuments({ favorite: true, perPage: 100 });
      const notFav = await api.listDocuments({ favorite: false, perPage: 100 });
      assert.equal(reqs()[0].query.favorite, '1');
      assert.equal(reqs()[1].query.favorite, '0');
      const favCount = allDocs().filter((d) => d.favorite).length;
      assert.ok(favCount > 0);
      assert.equal(fav.total, favCount);
      assert.ok(fav.items.every((d) => d.favorite === true));
      assert.equal(notFav.total, sb.documents.size - favCount);
      assert.ok(notFav.items.every((d) => d.favorite === false));
    });

    it('search (by name, the default): sent as typed, reserved URL characters and non-ASCII intact', async () => {
      const api = client();
      const a = await api.listDocuments({ search: 'Q&A: what/why' });
      assert.equal(reqs()[0].query.search, 'Q&A: what/why');
      assert.equal(reqs()[0].query.search_by, undefined);
      assert.deepEqual(a.items.map((d) => d.name), ['Q&A: what/why/how']);
      const b = await api.listDocuments({ search: 'café', perPage: 100 });
      assert.equal(reqs()[1].query.search, 'café');
      assert.ok(b.items.some((d) => d.name === 'Café crème — menu copy'));
      assert.ok(b.items.some((d) => d.name === 'CAFE TERRACE advertisement'), 'accent-insensitive');
      assert.ok(b.items.every((d) => fold(d.name).includes('cafe')));
    });

    it('search: the LIKE wildcards % and _ and the backslash are escaped so they match literally', async () => {
      const api = client();
      const literal = (needle: string) => allDocs().filter((d) => fold(d.name).includes(fold(needle))).map((d) => d.id).sort((x, y) => x - y);
      const wildcard = (needle: string) => allDocs().filter((d) => likeMatcher(`%${needle}%`)(d.name)).map((d) => d.id).sort((x, y) => x - y);
      const cases: Array<[string, string]> = [
        ['% o', '\\% o'],
        ['e_c', 'e\\_c'],
        ['Back\\slash', 'Back\\\\slash'],
      ];
      for (const [typed, sent] of cases) {
        sb.resetRequests();
        const page = await api.listDocuments({ search: typed, perPage: 100 });
        assert.equal(reqs()[0].query.search, sent, `sent form of ${typed}`);
        const got = page.items.map((d) => d.id).sort((x, y) => x - y);
        assert.ok(got.length > 0, `${typed} finds something`);
        assert.deepEqual(got, literal(typed), `${typed} matches literally`);
        if (typed !== 'Back\\slash') assert.notDeepEqual(literal(typed), wildcard(typed), `the seed distinguishes ${typed} as a wildcard`);
      }
    });

    it('search: "0" is sent escaped (a bare 0 means "no search" to the server); blank search is not sent', async () => {
      const api = client();
      const zero = await api.listDocuments({ search: '0', perPage: 100 });
      assert.equal(reqs()[0].query.search, '\\0');
      const withZero = allDocs().filter((d) => d.name.includes('0')).length;
      assert.ok(withZero > 0 && withZero < sb.documents.size);
      assert.equal(zero.total, withZero);
      await api.listDocuments({ search: '   ' });
      assert.deepEqual(reqs()[1].query, {});
    });

    it('a search of only U+200B / U+FEFF is no search (nothing sent); a padded one is sent trimmed as the server would', async () => {
      const api = client();
      const all = await api.listDocuments();
      await api.listDocuments({ search: '\u200b' });
      await api.listProjects({ search: '\ufeff\u200b ' });
      assert.deepEqual(reqs()[1].query, {});
      assert.deepEqual(reqs()[2].query, {});
      const padded = await api.listDocuments({ search: '\u200bcafé\ufeff' });
      assert.deepEqual(reqs()[3].query, { search: 'café' });
      assert.ok(padded.items.length > 0 && padded.total !== undefined && all.total !== undefined && padded.total < all.total);
    });

    it('store and update send name, prompt and result trimmed as the server trims them (U+200B and U+FEFF too)', async () => {
      const api = client();
      const d = await api.storeDocument({ name: '\u200b Plan \ufeff', prompt: '\u200bWrite.\u200b', creativity: 0.5 });
      assert.equal(reqs()[0].body!.name, 'Plan');
      assert.equal(reqs()[0].body!.prompt, 'Write.');
      await api.updateDocument(d.id, { name: '\ufeffRenamed\u200b', result: '\u200bBody\n\u200b' });
      assert.deepEqual(reqs()[1].body, { name: 'Renamed', result: 'Body' });
    });

    it('search_by result: sent, and it searches the result text (accent-insensitive)', async () => {
      const api = client();
      const byResult = await api.listDocuments({ search: 'DELICIEUX', searchBy: 'result' });
      assert.deepEqual(reqs()[0].query, { search: 'DELICIEUX', search_by: 'result' });
      assert.ok(byResult.items.length >= 1);
      assert.ok(byResult.items.every((d) => fold(d.result).includes('delicieux')));
      const byName = await api.listDocuments({ search: 'DELICIEUX', searchBy: 'name' });
      assert.deepEqual(reqs()[1].query, { search: 'DELICIEUX', search_by: 'name' });
      assert.equal(byName.items.length, 0);
    });

    it('every documents parameter at once: all sent, all applied', async () => {
      const page = await client().listDocuments({
        search: 'a',
        searchBy: 'name',
        templateId: 4,
        favorite: false,
        sortBy: 'name',
        sort: 'asc',
        perPage: 25,
        page: 1,
      });
      assert.deepEqual(reqs()[0].query, {
        search: 'a',
        search_by: 'name',
        template_id: '4',
        favorite: '0',
        sort_by: 'name',
        sort: 'asc',
        per_page: '25',
        page: '1',
      });
      const expected = allDocs().filter((d) => d.templateId === 4 && !d.favorite && fold(d.name).includes('a'));
      assert.equal(page.total, expected.length);
      assert.ok(page.items.every((d) => d.template?.id === 4 && !d.favorite && fold(d.name).includes('a')));
      for (let i = 1; i < page.items.length; i++) assert.ok(collate(page.items[i - 1].name, page.items[i].name) <= 0);
    });

    it('projects: search (with search_by=project), sort_by, sort, per_page, page: all sent, all applied', async () => {
      const api = client();
      const found = await api.listProjects({ search: 'SITE', perPage: 100 });
      assert.deepEqual(reqs()[0].query, { search: 'SITE', search_by: 'project', per_page: '100' });
      assert.ok(found.items.length >= 2);
      assert.ok(found.items.every((p) => fold(p.project).includes('site')));
      assert.ok(found.items.some((p) => p.project === 'Site audit 2024'));

      const pct = await api.listProjects({ search: '100%' });
      assert.equal(reqs()[1].query.search, '100\\%');
      assert.deepEqual(pct.items.map((p) => p.project), ['100% organic']);

      const sorted = await api.listProjects({ sortBy: 'project', sort: 'asc', perPage: 10, page: 2 });
      assert.deepEqual(reqs()[2].query, { sort_by: 'project', sort: 'asc', per_page: '10', page: '2' });
      assert.equal(sorted.page, 2);
      assert.equal(sorted.items.length, 10);
      for (let i = 1; i < sorted.items.length; i++) assert.ok(collate(sorted.items[i - 1].project, sorted.items[i].project) <= 0);
      const firstPage = await api.listProjects({ sortBy: 'project', sort: 'asc', perPage: 10, page: 1 });
      assert.ok(collate(firstPage.items[9].project, sorted.items[0].project) <= 0);

      const byDate = await api.listProjects({ sortBy: 'created_at', sort: 'asc', perPage: 25 });
      assert.deepEqual(reqs()[4].query, { sort_by: 'created_at', sort: 'asc', per_page: '25' });
      const t = byDate.items.map((p) => Date.parse(p.created_at!));
      assert.deepEqual(t, [...t].sort((x, y) => x - y));
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('the pager (walkPages)', () => {
    async function collect<T>(gen: AsyncGenerator<Page<T>>): Promise<Page<T>[]> {
      const pages: Page<T>[] = [];
      for await (const p of gen) pages.push(p);
      return pages;
    }

    it('walks every page of the documents once, stops on the last, and keeps the filters on every page', async () => {
      const api = client();
      const pages = await collect(walkPages((page) => api.listDocuments({ perPage: 50, sort: 'asc', page })));
      const n = sb.documents.size;
      assert.equal(pages.length, Math.ceil(n / 50));
      const ids = pages.flatMap((p) => p.items.map((d) => d.id));
      assert.equal(ids.length, n);
      assert.equal(new Set(ids).size, n);
      assert.deepEqual(ids, allDocs().map((d) => d.id).sort((a, b) => a - b));
      assert.deepEqual(pages.map((p) => p.hasMore), pages.map((_, i) => i < pages.length - 1));
      assert.deepEqual(reqs().map((r) => r.query.page), pages.map((_, i) => String(i + 1)));
      assert.ok(reqs().every((r) => r.query.per_page === '50' && r.query.sort === 'asc'));
    });

    it('a filtered walk: only the matching documents, as many pages as they fill', async () => {
      const api = client();
      const pages = await collect(walkPages((page) => api.listDocuments({ templateId: 4, perPage: 25, page })));
      const expected = allDocs().filter((d) => d.templateId === 4).length;
      assert.equal(pages.length, Math.ceil(expected / 25));
      assert.equal(pages.flatMap((p) => p.items).length, expected);
      assert.ok(reqs().every((r) => r.query.template_id === '4'));
    });

    it('an empty list is one page with no items; maxPages and a start page are honoured', async () => {
      const api = client();
      sb.reseed('empty');
      const empty = await collect(walkPages((page) => api.listDocuments({ page })));
      assert.equal(empty.length, 1);
      assert.equal(empty[0].items.length, 0);
      assert.equal(empty[0].hasMore, false);
      assert.equal(reqs().length, 1);

      sb.reseed('default');
      sb.resetRequests();
      const two = await collect(walkPages((page) => api.listDocuments({ perPage: 10, page }), 3, 2));
      assert.equal(two.length, 2);
      assert.deepEqual(reqs().map((r) => r.query.page), ['3', '4']);
    });

    it('walks the projects too', async () => {
      const api = client();
      const pages = await collect(walkPages((page) => api.listProjects({ perPage: 10, sortBy: 'project', page })));
      const names = new Set(sb.reports.map((r) => r.project.toLowerCase()));
      const got: Project[] = pages.flatMap((p) => p.items);
      assert.equal(got.length, names.size);
      assert.deepEqual(new Set(got.map((p) => p.project.toLowerCase())), names);
      assert.equal(pages.length, Math.ceil(names.size / 10));
      assert.ok(reqs().every((r) => r.server === 'projects' && r.query.sort_by === 'project'));
    });

    it('a failing page ends the walk with the error (not a silent short list)', async () => {
      const api = client({ retries: 0 });
      const seen: number[] = [];
      const err = await apiError(async () => {
        for await (const p of walkPages((page) => {
          if (page === 2) sb.setFault('documents.list', { kind: 'status500', count: 1 });
          return api.listDocuments({ perPage: 10, page });
        })) {
          seen.push(p.page);
        }
      });
      assert.deepEqual(seen, [1]);
      assert.equal(err.kind, 'server');
      assert.equal(err.status, 500);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('validation before sending (no request reaches the sandbox)', () => {
    async function refused(call: (api: ContentApi) => unknown, field: string, mentions: Array<string | RegExp>): Promise<ApiError> {
      let keyCalls = 0;
      const api = client({
        getKey: () => {
          keyCalls++;
          return sb.key;
        },
      });
      const err = await apiError(() => call(api));
      assert.equal(err.kind, 'validation');
      assert.equal(err.status, undefined, 'a local refusal has no HTTP status');
      assert.ok(err.fields && Array.isArray(err.fields[field]) && err.fields[field].length > 0, `fields.${field}: ${JSON.stringify(err.fields)}`);
      assert.ok(err.message.includes(field), `"${err.message}" names ${field}`);
      for (const m of mentions) {
        if (typeof m === 'string') assert.ok(err.message.includes(m), `"${err.message}" mentions ${m}`);
        else assert.match(err.message, m);
      }
      assertReadable(err);
      assert.equal(reqs().length, 0, 'nothing was sent');
      assert.equal(keyCalls, 0, 'the key was not even read');
      return err;
    }

    it('per_page not in 10/25/50/100 (documents and projects)', async () => {
      for (const pp of [0, 5, 20, 101, 1000, 25.5]) {
        await refused((a) => a.listDocuments({ perPage: pp as never }), 'per_page', ['10, 25, 50, 100', String(pp)]);
      }
      await refused((a) => a.listDocuments({ perPage: '25' as never }), 'per_page', ['10, 25, 50, 100']);
      await refused((a) => a.listProjects({ perPage: 30 as never }), 'per_page', ['10, 25, 50, 100']);
    });

    it('creativity not in 0/0.25/0.5/0.75/1', async () => {
      for (const c of [0.3, -0.25, 1.25, 2, 0.1, NaN]) {
        await refused((a) => a.storeDocument({ name: 'n', prompt: 'p', creativity: c as never }), 'creativity', [
          /0 \(Repetitive\)/,
          /0\.25 \(Deterministic\)/,
          /0\.5 \(Original\)/,
          /0\.75 \(Creative\)/,
          /1 \(Imaginative\)/,
        ]);
      }
      await refused((a) => a.storeDocument({ name: 'n', prompt: 'p', creativity: '0.5' as never }), 'creativity', ['0.5']);
      await refused((a) => a.storeDocument({ name: 'n', prompt: 'p' } as never), 'creativity', ['Imaginative']);
    });

    it('bad sort, sort_by, search_by (documents and projects)', async () => {
      await refused((a) => a.listDocuments({ sort: 'up' as never }), 'sort', ['asc, desc', 'up']);
      await refused((a) => a.listDocuments({ sort: 'ASC' as never }), 'sort', ['asc, desc']);
      await refused((a) => a.listDocuments({ sortBy: 'date' as never }), 'sort_by', ['id, name', 'date']);
      await refused((a) => a.listDocuments({ searchBy: 'title' as never, search: 'x' }), 'search_by', ['name, result', 'title']);
      await refused((a) => a.listProjects({ sortBy: 'name' as never }), 'sort_by', ['created_at, project']);
      await refused((a) => a.listProjects({ sort: 'newest' as never }), 'sort', ['asc, desc']);
    });

    it('page, template_id and id must be whole numbers of at least 1', async () => {
      await refused((a) => a.listDocuments({ page: 0 }), 'page', ['at least 1']);
      await refused((a) => a.listProjects({ page: 1.5 }), 'page', ['at least 1']);
      await refused((a) => a.listDocuments({ templateId: 0 }), 'template_id', ['at least 1']);
      await refused((a) => a.storeDocument({ name: 'n', prompt: 'p', creativity: 0.5, templateId: -4 }), 'template_id', ['at least 1']);
      await refused((a) => a.showDocument(0), 'id', ['at least 1']);
      await refused((a) => a.updateDocument(-1, { name: 'x' }), 'id', ['at least 1']);
      await refused((a) => a.deleteDocument(1.5), 'id', ['at least 1']);
    });

    it('name over 128 characters (store and update), counted in characters not UTF-16 units', async () => {
      await refused((a) => a.storeDocument({ name: 'x'.repeat(129), prompt: 'p', creativity: 0.5 }), 'name', ['128', '129']);
      await refused((a) => a.updateDocument(1, { name: 'é'.repeat(129) }), 'name', ['128']);
      // 128 emoji are 256 UTF-16 units but 128 characters: allowed, and the sandbox (which counts characters) agrees.
      const emoji = '🚀'.repeat(128);
      const d = await client().storeDocument({ name: emoji, prompt: 'p', creativity: 0.5 });
      assert.equal(d.name, emoji);
      assert.equal(reqs().length, 1);
    });

    it('prompt over 2048 characters', async () => {
      await refused((a) => a.storeDocument({ name: 'n', prompt: 'p'.repeat(2049), creativity: 0.5 }), 'prompt', ['2048', '2049']);
      const d = await client().storeDocument({ name: 'n', prompt: 'p'.repeat(2048), creativity: 0.5 });
      assert.ok(d.id > 0);
    });

    it('result over 20480 characters, or empty / blank', async () => {
      await refused((a) => a.updateDocument(1, { result: 'r'.repeat(20481) }), 'result', ['20480', '20481']);
      await refused((a) => a.updateDocument(1, { result: '' }), 'result', [/empty/i]);
      await refused((a) => a.updateDocument(1, { result: ' \n\t ' }), 'result', [/empty/i]);
      const s = allDocs()[0];
      const d = await client().updateDocument(s.id, { result: 'r'.repeat(20480) });
      assert.equal(d.result.length, 20480);
    });

    it('empty name or prompt on store, empty name on update, nothing to change, favorite not a boolean', async () => {
      await refused((a) => a.storeDocument({ name: '   ', prompt: 'p', creativity: 0.5 }), 'name', [/empty/i]);
      await refused((a) => a.storeDocument({ name: 'n', prompt: '', creativity: 0.5 }), 'prompt', [/empty/i]);
      await refused((a) => a.updateDocument(1, { name: '' }), 'name', [/empty/i]);
      await refused((a) => a.updateDocument(1, {}), 'document', [/nothing/i]);
      await refused((a) => a.updateDocument(1, { favorite: 'true' as never }), 'favorite', ['true or false']);
    });

    it('a name, prompt or result of only U+200B / U+FEFF (which the server trims away) is refused as empty', async () => {
      await refused((a) => a.storeDocument({ name: '\u200b', prompt: 'p', creativity: 0.5 }), 'name', [/empty/i]);
      await refused((a) => a.storeDocument({ name: 'n', prompt: '\ufeff\u200b\n', creativity: 0.5 }), 'prompt', [/empty/i]);
      await refused((a) => a.updateDocument(1, { name: '\u200b\u200b' }), 'name', [/empty/i]);
      await refused((a) => a.updateDocument(1, { result: '\u200b' }), 'result', [/empty/i]);
      await refused((a) => a.deleteProject('\u200b'), 'project', [/empty/i]);
      await refused((a) => a.storeDocument({ name: `\u200b${'x'.repeat(129)}`, prompt: 'p', creativity: 0.5 }), 'name', ['128', '129']);
    });

    it('a project name with "/" (or "." / "..", or blank) cannot be addressed: refused with an explanation', async () => {
      await refused((a) => a.deleteProject('a/b testing'), 'project', ['"/"', /website/]);
      await refused((a) => a.deleteProject('.'), 'project', [/folder/]);
      await refused((a) => a.deleteProject('..'), 'project', [/folder/]);
      await refused((a) => a.deleteProject('   '), 'project', [/empty/i]);
      assert.ok(projectReports('a/b testing').length > 0, 'the project is untouched');
    });

    it('validation failures arrive as rejected promises, never as synchronous throws', async () => {
      const api = client();
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['listDocuments', () => api.listDocuments({ perPage: 7 as never })],
        ['listProjects', () => api.listProjects({ perPage: 7 as never })],
        ['showDocument', () => api.showDocument(0)],
        ['storeDocument', () => api.storeDocument({ name: '', prompt: 'p', creativity: 0.5 })],
        ['updateDocument', () => api.updateDocument(1, {})],
        ['deleteDocument', () => api.deleteDocument(0)],
        ['deleteProject', () => api.deleteProject('a/b')],
      ];
      const syncThrowers: string[] = [];
      for (const [name, call] of calls) {
        let p: Promise<unknown> | undefined;
        try {
          p = call();
        } catch {
          syncThrowers.push(name);
          continue;
        }
        await assert.rejects(p, (e: unknown) => isApiError(e) && e.kind === 'validation');
      }
      assert.deepEqual(syncThrowers, [], `these throw synchronously instead of returning a rejected promise: ${syncThrowers.join(', ')}`);
      assert.equal(reqs().length, 0);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('headers and encoding', () => {
    it('every operation sends Authorization: Bearer <key> and Accept: application/json; the key never in the query or body', async () => {
      const api = client();
      const s = allDocs()[0];
      await api.listDocuments({ search: 'a' });
      await api.showDocument(s.id);
      const d = await api.storeDocument({ name: 'n', prompt: 'p', creativity: 0.5 });
      await api.updateDocument(d.id, { favorite: true });
      await api.deleteDocument(d.id);
      await api.listProjects();
      await api.deleteProject('Acme');
      await api.getAccount();
      assert.equal(reqs().length, 8);
      for (const r of reqs()) {
        assert.equal(r.authorizationHeader, `Bearer ${sb.key}`, `${r.method} ${r.path}`);
        assert.equal(r.accept, 'application/json', `${r.method} ${r.path}`);
        assert.equal(r.authorized, true);
        assert.ok(!('api_token' in r.query), 'no api_token in the query');
        assert.ok(!r.body || !('api_token' in r.body), 'no api_token in the body');
        assert.ok(!JSON.stringify(r.query).includes(sb.key));
      }
    });

    it('bodies are application/x-www-form-urlencoded (store, update); reads and deletes send none', async () => {
      const api = client();
      const d = await api.storeDocument({ name: 'A & B = C?', prompt: 'Ünïcode + 100% #1', creativity: 1 });
      await api.updateDocument(d.id, { name: 'x/y?z#w&v=1 ü', favorite: false });
      await api.showDocument(d.id);
      await api.deleteDocument(d.id);
      const [store, update, show, del] = reqs();
      assert.equal(store.contentType, 'application/x-www-form-urlencoded');
      assert.deepEqual(store.body, { name: 'A & B = C?', prompt: 'Ünïcode + 100% #1', creativity: '1' });
      assert.equal(update.contentType, 'application/x-www-form-urlencoded');
      assert.deepEqual(update.body, { name: 'x/y?z#w&v=1 ü', favorite: '0' });
      assert.equal(show.contentType, undefined);
      assert.equal(show.body, undefined);
      assert.equal(del.contentType, undefined);
      assert.equal(del.body, undefined);
    });

    it('the key comes from the injected getter on every request (sync or async); a changed key is used at once', async () => {
      let key: string | undefined = sb.key;
      let calls = 0;
      const api = client({
        getKey: async () => {
          calls++;
          await sleep(1);
          return key;
        },
      });
      await api.listDocuments();
      assert.equal(calls, 1);
      key = 'another-key';
      const err = await apiError(() => api.listDocuments({ page: 2 }));
      assert.equal(err.kind, 'auth');
      assert.equal(reqs()[1].authorizationHeader, 'Bearer another-key');
      key = `  ${sb.key}\n`;
      await api.listDocuments({ page: 3 });
      assert.equal(reqs()[2].authorizationHeader, `Bearer ${sb.key}`, 'the key is trimmed');
      assert.equal(calls, 3);
    });

    it('no key, or a key with spaces or control characters inside: auth error, nothing sent', async () => {
      for (const k of [undefined, '', '   ', '\u200b', '\ufeff\u200b', 'abc def', 'abc\u0007def', 'abc\u200bdef', 'abc\u00e9def']) {
        const err = await apiError(() => client({ getKey: () => k }).listDocuments());
        assert.equal(err.kind, 'auth', `key ${JSON.stringify(k)}`);
        assertReadable(err);
      }
      assert.equal(reqs().length, 0);
    });

    it('a pasted key with a byte-order mark or zero-width spaces around it is trimmed like any input and works', async () => {
      const api = client({ getKey: () => `\ufeff\u200b${sb.key}\u200b\n` });
      await api.getAccount();
      assert.equal(reqs()[0].authorizationHeader, `Bearer ${sb.key}`);
      assert.equal(reqs()[0].status, 200);
    });

    it('project names are percent-encoded as one path segment (space, %, #, ?, +, non-ASCII) and reach the right project', async () => {
      const api = client();
      const cases: Array<[string, string]> = [
        ['Site audit 2024', 'Site%20audit%202024'],
        ['100% organic', '100%25%20organic'],
        ['C# tips', 'C%23%20tips'],
        ['What? Why?', 'What%3F%20Why%3F'],
        ['Café Ünïcode', 'Caf%C3%A9%20%C3%9Cn%C3%AFcode'],
        ['日本語プロジェクト', '%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%83%97%E3%83%AD%E3%82%B8%E3%82%A7%E3%82%AF%E3%83%88'],
        ['plus+sign', 'plus%2Bsign'],
        ['Percent%20literal', 'Percent%2520literal'],
        ['Recipes & more', 'Recipes%20%26%20more'],
      ];
      for (const [name, encoded] of cases) {
        const before = sb.reports.length;
        const n = projectReports(name).length;
        assert.ok(n > 0, `seed has ${name}`);
        sb.resetRequests();
        await api.deleteProject(name);
        assert.equal(reqs().length, 1);
        assert.equal(reqs()[0].path, `/api/v1/projects/${encoded}`, name);
        assert.equal(reqs()[0].status, 200, name);
        assert.deepEqual(reqs()[0].query, {}, `${name}: nothing leaked into the query`);
        assert.equal(projectReports(name).length, 0, `${name} deleted`);
        assert.equal(sb.reports.length, before - n, `${name}: only its own reports went`);
      }
    });

    it('a base URL with a trailing slash still yields /api/v1/... (no double slash)', async () => {
      await client({ documentsUrl: sb.docsUrl + '/', projectsUrl: sb.seoUrl + '///' }).listDocuments();
      await client({ documentsUrl: sb.docsUrl + '/', projectsUrl: sb.seoUrl + '///' }).listProjects();
      assert.deepEqual(reqs().map((r) => r.path), ['/api/v1/documents', '/api/v1/projects']);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('errors: one ApiError type, a kind, the HTTP status and a readable message', () => {
    it('auth: a wrong key is 401 (documents and projects)', async () => {
      const api = client({ getKey: () => 'wrong-key', retries: 2 });
      const size = sb.documents.size;
      for (const call of [() => api.listDocuments(), () => api.listProjects(), () => api.storeDocument({ name: 'n', prompt: 'p', creativity: 0 })]) {
        const err = await apiError(call);
        assert.equal(err.kind, 'auth');
        assert.equal(err.status, 401);
        assertReadable(err);
      }
      assert.equal(reqs().length, 3, 'a 401 is not retried');
      assert.equal(sb.documents.size, size, 'nothing stored with a wrong key');
    });

    it('auth: a 302 redirect to the login page is an auth error, and it is not followed', async () => {
      sb.setFault('documents.list', { kind: 'redirectLogin' });
      const err = await apiError(() => client().listDocuments());
      assert.equal(err.kind, 'auth');
      assert.equal(err.status, 302);
      assertReadable(err);
      assert.equal(reqs().length, 1);
      assert.ok(!reqs().some((r) => r.path === '/login'), 'the login page was not requested');
    });

    it('forbidden: 403 (plan without API access), with the server text', async () => {
      const s = await stub((_req, res) => {
        res.writeHead(403, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: "You don't have access to this feature.", status: 403 }));
      });
      const err = await apiError(() => client({ documentsUrl: s.url }).listDocuments());
      assert.equal(err.kind, 'forbidden');
      assert.equal(err.status, 403);
      assert.match(err.message, /You don't have access to this feature\./);
      assertReadable(err);
      assert.equal(s.requests.length, 1, 'a 403 is not retried');
    });

    it('notFound: 404 on show, update, delete and project delete', async () => {
      const api = client();
      for (const call of [
        () => api.showDocument(424242),
        () => api.updateDocument(424242, { favorite: true }),
        () => api.deleteDocument(424242),
        () => api.deleteProject('Nope'),
      ]) {
        const err = await apiError(call);
        assert.equal(err.kind, 'notFound');
        assert.equal(err.status, 404);
        assertReadable(err);
      }
    });

    it('validation: 422 with per-field messages (words quota on name, documents quota on name)', async () => {
      const api = client();
      sb.setAccount({ plan: { features: { words: 1000 } }, counters: { words_month_count: 1000 } });
      const err = await apiError(() => api.storeDocument({ name: 'n', prompt: 'p', creativity: 0.5 }));
      sb.setAccount({ counters: { words_month_count: 0 } });
      assert.equal(err.kind, 'validation');
      assert.equal(err.status, 422);
      assert.deepEqual(err.fields, { name: ['You have reached the words limit.'] });
      assert.match(err.message, /name: You have reached the words limit\./);
      assert.equal(err.fieldSummary, 'name: You have reached the words limit.');
      assert.doesNotMatch(err.message, /\[object |undefined/);

      const banned = await apiError(() => api.storeDocument({ name: 'A bannedword plan', prompt: 'p', creativity: 0.5 }));
      assert.equal(banned.kind, 'validation');
      assert.equal(banned.status, 422);
      assert.deepEqual(Object.keys(banned.fields ?? {}), ['name']);
      assert.match(banned.fields!.name[0], /keyword that is banned/);
      assert.equal(reqs().length, 2);
    });

    it('validation: a 422 field with an empty message list is named, never shown as a dangling "prompt: "', async () => {
      sb.setFault('documents.store', { kind: 'status422', count: 1, fields: { prompt: [], name: ['  The name is too long.  '] } });
      const err = await apiError(() => client().storeDocument({ name: 'n', prompt: 'p', creativity: 0.5 }));
      assert.equal(err.kind, 'validation');
      assert.equal(err.message, 'The server refused the input: prompt (no reason given); name: The name is too long.');
      assert.equal(err.fieldSummary, 'prompt (no reason given); name: The name is too long.');
      assert.deepEqual(err.fields, { prompt: [], name: ['  The name is too long.  '] });
    });

    it('rateLimited: 429 with retryAfter from Retry-After; a wait over maxRetryWaitSeconds is reported, not waited out', async () => {
      sb.setFault('documents.list', { kind: 'rateLimit', retryAfter: 30 });
      const t0 = Date.now();
      const err = await apiError(() => client({ maxRetryWaitSeconds: 10 }).listDocuments());
      assert.ok(Date.now() - t0 < 1000, 'not waited out');
      assert.equal(err.kind, 'rateLimited');
      assert.equal(err.status, 429);
      assert.equal(err.retryAfter, 30);
      assert.match(err.message, /30 seconds/);
      assertReadable(err);
      assert.equal(reqs().length, 1);
    });

    it("rateLimited: the sandbox's own limiter (counted per minute) is reported with its Retry-After", async () => {
      sb.setRateLimit(1, 'documents');
      sb.resetRateLimit();
      const api = client({ pacing: false, maxRetryWaitSeconds: 5 });
      await api.listDocuments();
      const err = await apiError(() => api.listDocuments({ page: 2 }));
      assert.equal(err.kind, 'rateLimited');
      assert.equal(err.status, 429);
      assert.ok(err.retryAfter! > 5 && err.retryAfter! <= 60, String(err.retryAfter));
      assert.equal(reqs().length, 2);
    });

    it('server: 500 with the server text; a 500 on a read is not retried', async () => {
      sb.setFault('documents.list', { kind: 'status500' });
      const err = await apiError(() => client({ retries: 3 }).listDocuments());
      assert.equal(err.kind, 'server');
      assert.equal(err.status, 500);
      assert.match(err.message, /An unexpected error has occurred/);
      assertReadable(err);
      assert.equal(reqs().length, 1);
    });

    it('server: 502 / 503 / 504 (HTML gateway pages) once retries are used up', async () => {
      for (const [kind, status] of [['status502', 502], ['status503', 503], ['status504', 504]] as const) {
        sb.resetRequests();
        sb.setFault('projects.list', { kind });
        const err = await apiError(() => client({ retries: 0 }).listProjects());
        assert.equal(err.kind, 'server');
        assert.equal(err.status, status);
        assertReadable(err);
        assert.doesNotMatch(err.message, /<html|nginx/i, 'no HTML in the message');
        assert.equal(reqs().length, 1);
      }
    });

    it('network: connection refused', async () => {
      const port = await closedPort();
      const err = await apiError(() => client({ documentsUrl: `http://127.0.0.1:${port}`, retries: 0 }).listDocuments());
      assert.equal(err.kind, 'network');
      assert.equal(err.status, undefined);
      assert.match(err.message, /refused/);
      assertReadable(err);
    });

    it('network: connection reset halfway through the answer', async () => {
      sb.setFault('documents.list', { kind: 'reset' });
      const err = await apiError(() => client({ retries: 0 }).listDocuments());
      assert.equal(err.kind, 'network');
      assert.match(err.message, /closed|reset|network/i);
      assertReadable(err);
      assert.equal(reqs().length, 1);
    });

    it('network: connection closed before any answer', async () => {
      const s = await stub((req) => req.socket.destroy());
      const err = await apiError(() => client({ projectsUrl: s.url, retries: 0 }).listProjects());
      assert.equal(err.kind, 'network');
      assertReadable(err);
      assert.equal(s.requests.length, 1);
    });

    it('timeout: a server that never answers; a timeout is not retried', async () => {
      sb.setFault('documents.show', { kind: 'hang' });
      const t0 = Date.now();
      const err = await apiError(() => client({ timeoutMs: 300, retries: 2 }).showDocument(allDocs()[0].id));
      const ms = Date.now() - t0;
      assert.ok(ms >= 280 && ms < 2000, `${ms} ms`);
      assert.equal(err.kind, 'timeout');
      assert.equal(err.status, undefined);
      assert.match(err.message, /did not answer within/);
      assertReadable(err);
      assert.equal(reqs().length, 1);
    });

    it('timeout: a store gets its own (longer) timeout, since the server generates text during the request', async () => {
      sb.setLatency(500);
      const api = client({ timeoutMs: 200, storeTimeoutMs: 5000 });
      const err = await apiError(() => api.listDocuments());
      assert.equal(err.kind, 'timeout');
      const d = await api.storeDocument({ name: 'Slow', prompt: 'p', creativity: 0.5 });
      assert.ok(sb.documents.has(d.id));
      sb.setLatency(0);
      sb.setFault('documents.store', { kind: 'hang' });
      const t0 = Date.now();
      const err2 = await apiError(() => client({ timeoutMs: 5000, storeTimeoutMs: 300 }).storeDocument({ name: 'Hang', prompt: 'p', creativity: 0.5 }));
      assert.equal(err2.kind, 'timeout');
      assert.ok(Date.now() - t0 < 2000);
    });

    it('badResponse: malformed JSON, an HTML page with 200, a wrong shape (list, show, delete, account)', async () => {
      const api = client({ retries: 0 });
      const s = allDocs()[0];
      const cases: Array<[Parameters<Sandbox['setFault']>[0], Parameters<Sandbox['setFault']>[1], () => Promise<unknown>, RegExp]> = [
        ['documents.list', { kind: 'malformedJson' }, () => api.listDocuments(), /not valid JSON/],
        ['documents.show', { kind: 'malformedJson' }, () => api.showDocument(s.id), /not valid JSON/],
        ['documents.list', { kind: 'html200' }, () => api.listDocuments(), /web page/],
        ['projects.list', { kind: 'html200' }, () => api.listProjects(), /web page/],
        ['account', { kind: 'html200' }, () => api.getAccount(), /web page/],
        ['documents.list', { kind: 'wrongShape' }, () => api.listDocuments(), /expected shape/],
        ['documents.show', { kind: 'wrongShape' }, () => api.showDocument(s.id), /expected shape/],
        ['documents.update', { kind: 'wrongShape' }, () => api.updateDocument(s.id, { favorite: true }), /expected shape/],
        ['projects.list', { kind: 'wrongShape' }, () => api.listProjects(), /expected shape/],
        ['account', { kind: 'wrongShape' }, () => api.getAccount(), /expected shape/],
      ];
      for (const [route, fault, call, re] of cases) {
        sb.clearFaults();
        sb.setFault(route, fault);
        const err = await apiError(call);
        assert.equal(err.kind, 'badResponse', `${route} ${fault!.kind}`);
        assert.equal(err.status, 200, `${route} ${fault!.kind}`);
        assert.match(err.message, re);
        assert.doesNotMatch(err.message, /<html|<!DOCTYPE|Truncat/i, 'no raw body in the message');
      }
    });

    it('badResponse: a delete whose answer is not a deletion confirmation is not reported as done', async () => {
      const s = allDocs()[0];
      sb.setFault('documents.delete', { kind: 'wrongShape' });
      const err = await apiError(() => client().deleteDocument(s.id));
      assert.equal(err.kind, 'badResponse');
      sb.setFault('projects.delete', { kind: 'html200' });
      const err2 = await apiError(() => client().deleteProject('Acme'));
      assert.equal(err2.kind, 'badResponse');
    });

    it('badResponse: an answer larger than maxBodyBytes is refused', async function () {
      this.timeout(90_000);
      sb.setFault('documents.show', { kind: 'oversized' });
      // The sandbox builds its 20 MB answer in this process: on a busy machine that alone can outlast the usual timeout.
      const err = await apiError(() => client({ maxBodyBytes: 1024 * 1024, retries: 0, timeoutMs: 60_000 }).showDocument(allDocs()[0].id));
      assert.equal(err.kind, 'badResponse');
      assert.equal(err.status, 200);
      assert.match(err.message, /too large/);
    });

    it('every error message with an HTTP status names it (readable in the UI as is)', async () => {
      const api = client({ retries: 0, maxBodyBytes: 1024 * 1024 });
      const s = allDocs()[0];
      const failures: string[] = [];
      for (const kind of ['malformedJson', 'html200', 'redirectLogin', 'wrongShape', 'oversized', 'status500', 'status503'] as const) {
        sb.clearFaults();
        sb.setFault('documents.show', { kind });
        const err = await apiError(() => api.showDocument(s.id));
        assert.equal(typeof err.status, 'number', kind);
        if (!err.message.includes(`HTTP ${err.status}`)) failures.push(`${kind}: "${err.message}"`);
      }
      assert.deepEqual(failures, [], 'messages without their HTTP status');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('retries', () => {
    it('a read is retried after 429, honouring Retry-After (seconds)', async () => {
      sb.setFault('documents.show', { kind: 'rateLimit', retryAfter: 1, count: 1 });
      const s = allDocs()[0];
      const t0 = Date.now();
      const d = await client().showDocument(s.id);
      const ms = Date.now() - t0;
      assert.equal(d.id, s.id);
      assert.ok(ms >= 950 && ms < 3000, `waited ${ms} ms`);
      assert.deepEqual(reqs().map((r) => r.status), [429, 200]);
      assert.ok(reqs()[1].at - reqs()[0].at >= 950, 'the second request came after Retry-After');
      assert.ok(logs.some((l) => /retrying in 1000 ms/.test(l)), logs.join('\n'));
    });

    it('the wait is exactly Retry-After seconds, and 429s stop after the configured retries', async () => {
      sb.setFault('documents.list', { kind: 'rateLimit', retryAfter: 3 });
      const { delays, outcome } = await withFastClientSleeps(() => client({ retries: 2, pacing: false }).listDocuments());
      const err = await apiError(() => outcome);
      assert.equal(err.kind, 'rateLimited');
      assert.equal(err.retryAfter, 3);
      assert.deepEqual(delays, [3000, 3000]);
      assert.equal(reqs().length, 3);
    });

    it('a 429 with Retry-After after a busy minute on a server that does not throttle otherwise: each retry waits the Retry-After alone, then the account listing', async () => {
      // The account folder's listing (pages of 100 by id) after 70 requests in a minute, none paced: the server sends
      // no rate-limit headers. Then two 429s that name a limit of 60 and a wait of 1 second.
      const api = client();
      await withVirtualClock(async (waits) => {
        for (let i = 1; i <= 70; i++) await api.listDocuments({ page: i });
        assert.deepEqual(waits, [], 'nothing paced while the server sends no rate-limit headers');
        sb.resetRequests();
        sb.setFault('documents.list', { kind: 'rateLimit', retryAfter: 1, count: 2 });
        const t0 = Date.now();
        const listing = await listAccount((page) => api.listDocuments({ perPage: 100, sortBy: 'id', sort: 'asc', page }), () => true);
        const elapsed = Date.now() - t0;
        assert.equal(listing.docs.length, sb.documents.size, 'the whole account is listed');
        const pages = Math.ceil(sb.documents.size / 100);
        assert.deepEqual(
          reqs().map((r) => [r.query.page, r.status]),
          [['1', 429], ['1', 429], ...Array.from({ length: pages }, (_, i) => [String(i + 1), 200])],
          'two refused, then each page once',
        );
        // The server said when to come back: the 70 requests of the minute before it hold nothing back past that.
        assert.deepEqual(waits, [1000, 1000], `the waits: the Retry-After of each 429 and nothing else (${elapsed} ms in all)`);
        assert.ok(elapsed < 3000, `the listing took ${elapsed} ms (virtual)`);
      });
    });

    it('a request made during the wait a 429 named (one not waited out: over maxRetryWaitSeconds) waits for its end, not for the count of the minute before', async () => {
      const api = client({ maxRetryWaitSeconds: 2 });
      await withVirtualClock(async (waits) => {
        for (let i = 1; i <= 70; i++) await api.listDocuments({ page: i });
        sb.resetRequests();
        sb.setFault('documents.list', { kind: 'rateLimit', retryAfter: 5, count: 1 });
        const err = await apiError(() => api.listDocuments({ page: 1 }));
        assert.equal(err.retryAfter, 5, 'reported, not waited out');
        assert.equal(waits.length, 0, `no wait yet: ${JSON.stringify(waits)}`);
        const t0 = Date.now();
        await api.listDocuments({ page: 1 });
        assert.equal(waits.length, 1, `one pacing wait: ${JSON.stringify(waits)}`);
        assert.ok(waits[0] > 4000 && waits[0] <= 5005, `paced until the server's window ends, 5 s after the 429: ${waits[0]} ms`);
        assert.ok(Date.now() - t0 <= 5005 + 1000, `${Date.now() - t0} ms (virtual)`);
        assert.deepEqual(reqs().map((r) => r.status), [429, 200]);
      });
    });

    it('a read is retried on 502 / 503 / 504 with growing back-off, then succeeds', async () => {
      sb.setFault('documents.list', { kind: 'status503', count: 1 });
      sb.setFault('projects.list', { kind: 'status502', count: 1 });
      sb.setFault('account', { kind: 'status504', count: 2 });
      const api = client({ retries: 2 });
      const t0 = Date.now();
      const page = await api.listDocuments();
      assert.equal(page.items.length, 10);
      await api.listProjects();
      const t1 = Date.now();
      await api.getAccount();
      const t2 = Date.now();
      assert.deepEqual(reqs().map((r) => [r.route, r.status]), [
        ['documents.list', 503],
        ['documents.list', 200],
        ['projects.list', 502],
        ['projects.list', 200],
        ['account', 504],
        ['account', 504],
        ['account', 200],
      ]);
      assert.ok(t1 - t0 >= 2 * 250, `${t1 - t0} ms for two single retries`);
      assert.ok(t2 - t1 >= 250 + 500, `${t2 - t1} ms for two retries (250 then 500 ms)`);
      assert.deepEqual(exchanges.filter((e) => e.path === '/account').map((e) => e.attempt), [1, 2, 3]);
    });

    it('a read is retried on network errors (refused, reset) and gives up after `retries`', async () => {
      const port = await closedPort();
      const err = await apiError(() => client({ documentsUrl: `http://127.0.0.1:${port}`, retries: 2 }).listDocuments());
      assert.equal(err.kind, 'network');
      assert.deepEqual(exchanges.map((e) => [e.attempt, e.status]), [[1, undefined], [2, undefined], [3, undefined]]);

      sb.setFault('documents.show', { kind: 'reset', count: 1 });
      const s = allDocs()[0];
      const d = await client({ retries: 1 }).showDocument(s.id);
      assert.equal(d.id, s.id);
      assert.equal(reqs().filter((r) => r.route === 'documents.show').length, 2);
    });

    it('back-off between attempts doubles from 250 ms and is capped at 2 s', async () => {
      const port = await closedPort();
      const { delays, outcome } = await withFastClientSleeps(() =>
        client({ documentsUrl: `http://127.0.0.1:${port}`, retries: 6, pacing: false }).listDocuments(),
      );
      const err = await apiError(() => outcome);
      assert.equal(err.kind, 'network');
      assert.equal(delays.length, 6, `delays ${JSON.stringify(delays)}`);
      const base = [250, 500, 1000, 2000, 2000, 2000];
      delays.forEach((d, i) => assert.ok(d >= base[i] && d < base[i] + 100, `delay ${i + 1}: ${d} ms, expected ${base[i]}..${base[i] + 99}`));
      assert.equal(exchanges.length, 7);
    });

    it('a store is NEVER retried: 503, 502, 429, reset and 500 each reach the sandbox exactly once', async () => {
      const api = client({ retries: 3 });
      const cases = [
        [{ kind: 'status503', count: 1 }, 'server'],
        [{ kind: 'status502', count: 1 }, 'server'],
        [{ kind: 'rateLimit', retryAfter: 0, count: 1 }, 'rateLimited'],
        [{ kind: 'reset', count: 1 }, 'network'],
        [{ kind: 'status500', count: 1 }, 'server'],
      ] as const;
      for (const [fault, kind] of cases) {
        sb.resetRequests();
        const size = sb.documents.size;
        sb.setFault('documents.store', { ...fault });
        const err = await apiError(() => api.storeDocument({ name: 'Once', prompt: 'p', creativity: 0.5 }));
        assert.equal(err.kind, kind, fault.kind);
        await sleep(50);
        assert.equal(reqs().filter((r) => r.route === 'documents.store').length, 1, `${fault.kind}: exactly one store request`);
        assert.equal(sb.documents.size, size, `${fault.kind}: no document created`);
      }
    });

    it('retries: 0 means one attempt only', async () => {
      sb.setFault('documents.list', { kind: 'status503', count: 1 });
      const err = await apiError(() => client({ retries: 0 }).listDocuments());
      assert.equal(err.kind, 'server');
      assert.equal(reqs().length, 1);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('a server that sends no rate-limit headers (throttling off, or a 429 without Retry-After)', () => {
    /** A stub answering a document list; `plan(n)` gives the n-th answer's status and headers (1-based). */
    function listStub(plan: (n: number) => { status: number; headers?: Record<string, string | undefined> }) {
      let n = 0;
      return stub((_req, res) => {
        const { status, headers = {} } = plan(++n);
        const sent: Record<string, string> = { 'Content-Type': 'application/json' };
        for (const [k, v] of Object.entries(headers)) if (v !== undefined) sent[k] = v;
        res.writeHead(status, sent);
        res.end(JSON.stringify(status === 429 ? { message: 'Too Many Attempts.' } : { data: [], status: 200 }));
      });
    }

    it('a 429 without Retry-After or X-RateLimit-* is retried after 2 s (a fixed wait, not 0 and not a guessed minute), then succeeds', async () => {
      const s = await listStub((n) => ({ status: n === 1 ? 429 : 200 }));
      const { delays, outcome } = await withFastClientSleeps(() => client({ documentsUrl: s.url, retries: 2 }).listDocuments());
      const page = await outcome;
      assert.equal(page.items.length, 0);
      assert.deepEqual(delays, [2000]);
      assert.equal(s.requests.length, 2);
      assert.ok(logs.some((l) => /429: retrying in 2000 ms/.test(l)), logs.join('\n'));
    });

    it('429s without headers back off 2, 4, 8 s then 10 s (capped), and at most maxRetryWaitSeconds; then reported plainly', async () => {
      const s = await listStub(() => ({ status: 429 }));
      const run = await withFastClientSleeps(() => client({ documentsUrl: s.url, retries: 5, pacing: false }).listDocuments());
      const err = await apiError(() => run.outcome);
      assert.deepEqual(run.delays, [2000, 4000, 8000, 10000, 10000]);
      assert.equal(s.requests.length, 6);
      assert.equal(err.kind, 'rateLimited');
      assert.equal(err.status, 429);
      assert.equal(err.retryAfter, undefined, 'no wait invented when the server named none');
      assert.match(err.message, /HTTP 429/);
      assert.match(err.message, /did not say how long/);
      assertReadable(err);

      const capped = await withFastClientSleeps(() =>
        client({ documentsUrl: s.url, retries: 3, pacing: false, maxRetryWaitSeconds: 3 }).listDocuments(),
      );
      await apiError(() => capped.outcome);
      assert.deepEqual(capped.delays, [2000, 3000, 3000]);
    });

    it('with maxRetryWaitSeconds 0 a header-less 429 is reported at once; a store is never retried', async () => {
      const s = await listStub(() => ({ status: 429 }));
      const t0 = Date.now();
      const err = await apiError(() => client({ documentsUrl: s.url, retries: 3, maxRetryWaitSeconds: 0 }).listDocuments());
      assert.ok(Date.now() - t0 < 1000);
      assert.equal(err.kind, 'rateLimited');
      assert.equal(s.requests.length, 1);
      const store = await apiError(() => client({ documentsUrl: s.url, retries: 3 }).storeDocument({ name: 'n', prompt: 'p', creativity: 0 }));
      assert.equal(store.kind, 'rateLimited');
      assert.equal(s.requests.length, 2);
    });

    it('Retry-After as an HTTP date is honoured too', async () => {
      const s = await listStub((n) => ({ status: n === 1 ? 429 : 200, headers: n === 1 ? { 'Retry-After': new Date(Date.now() + 3000).toUTCString() } : {} }));
      const { delays, outcome } = await withFastClientSleeps(() => client({ documentsUrl: s.url, pacing: false }).listDocuments());
      await outcome;
      assert.equal(delays.length, 1);
      assert.ok(delays[0] >= 2000 && delays[0] <= 3000, String(delays[0]));
    });

    it('pacing goes by its own count once the server has named its limit: 59 requests a minute at once, the 60th waits out the window', async () => {
      // A limit, but no Remaining (a proxy that strips it): our own count keeps us under.
      const s = await listStub(() => ({ status: 200, headers: { 'X-RateLimit-Limit': '60' } }));
      const api = client({ documentsUrl: s.url });
      const { delays, outcome } = await withFastClientSleeps(async () => {
        for (let i = 1; i <= 60; i++) await api.listDocuments({ page: i });
      });
      await outcome;
      assert.equal(s.requests.length, 60);
      assert.equal(delays.length, 1, `one pacing wait: ${JSON.stringify(delays)}`);
      assert.ok(delays[0] > 55_000 && delays[0] <= 60_005, String(delays[0]));
      assert.ok(logs.some((l) => /pacing documents requests/.test(l)));
    });

    it('a server that sends no rate-limit headers does not throttle: nothing is paced', async () => {
      const s = await listStub(() => ({ status: 200 }));
      const api = client({ documentsUrl: s.url });
      const { delays, outcome } = await withFastClientSleeps(async () => {
        for (let i = 1; i <= 70; i++) await api.listDocuments({ page: i });
      });
      await outcome;
      assert.equal(s.requests.length, 70);
      assert.deepEqual(delays, [], 'no pacing wait');
    });

    it('where the headers cannot be read (a browser), the own count paces at 60 a minute', async () => {
      const s = await listStub(() => ({ status: 200 }));
      const api = client({ documentsUrl: s.url, rateLimitHeadersReadable: false });
      const { delays, outcome } = await withFastClientSleeps(async () => {
        for (let i = 1; i <= 60; i++) await api.listDocuments({ page: i });
      });
      await outcome;
      assert.equal(s.requests.length, 60);
      assert.equal(delays.length, 1, `one pacing wait: ${JSON.stringify(delays)}`);
    });

    it('headers that stop coming (throttling switched off) leave no stale count behind: no waits the server never asked for', async () => {
      const s = await listStub((n) => ({ status: 200, headers: n === 1 ? { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '1' } : {} }));
      const api = client({ documentsUrl: s.url });
      const { delays, outcome } = await withFastClientSleeps(async () => {
        for (let i = 1; i <= 6; i++) await api.listDocuments({ page: i });
      });
      await outcome;
      assert.equal(s.requests.length, 6);
      assert.deepEqual(delays, [], 'no pacing wait');
    });

    it('a server that does send X-RateLimit-Remaining: 0 with a Retry-After is still waited out before the next request', async () => {
      const s = await listStub((n) => ({ status: 200, headers: n === 1 ? { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'Retry-After': '4' } : {} }));
      const api = client({ documentsUrl: s.url });
      const { delays, outcome } = await withFastClientSleeps(async () => {
        await api.listDocuments({ page: 1 });
        await api.listDocuments({ page: 2 });
      });
      await outcome;
      assert.equal(delays.length, 1, JSON.stringify(delays));
      assert.ok(delays[0] > 3000 && delays[0] <= 4005, String(delays[0]));
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('cancellation (AbortSignal)', () => {
    it('aborting a hanging read ends it at once as "cancelled" (not a timeout)', async () => {
      sb.setFault('documents.list', { kind: 'hang' });
      const ac = new AbortController();
      const t0 = Date.now();
      const p = client({ timeoutMs: 5000 }).listDocuments({}, ac.signal);
      setTimeout(() => ac.abort(), 100);
      const err = await apiError(() => p);
      assert.equal(err.kind, 'cancelled');
      assert.ok(Date.now() - t0 < 1500, `${Date.now() - t0} ms`);
      assert.equal(reqs().length, 1);
    });

    it('an already aborted signal sends nothing', async () => {
      const ac = new AbortController();
      ac.abort();
      const err = await apiError(() => client().listDocuments({}, ac.signal));
      assert.equal(err.kind, 'cancelled');
      await sleep(50);
      assert.equal(reqs().length, 0);
    });

    it('aborting during the back-off between retries stops the retries', async () => {
      sb.setFault('documents.list', { kind: 'status503' });
      const ac = new AbortController();
      const api = client({ retries: 3, onExchange: () => ac.abort() });
      const t0 = Date.now();
      const err = await apiError(() => api.listDocuments({}, ac.signal));
      assert.equal(err.kind, 'cancelled');
      assert.ok(Date.now() - t0 < 200, 'the back-off sleep ended at once');
      await sleep(400);
      assert.equal(reqs().length, 1);
    });

    it('aborting a store in flight: cancelled, sent once, never repeated', async () => {
      sb.setFault('documents.store', { kind: 'hang' });
      const ac = new AbortController();
      const p = client({ retries: 3 }).storeDocument({ name: 'n', prompt: 'p', creativity: 0.5 }, ac.signal);
      setTimeout(() => ac.abort(), 100);
      const err = await apiError(() => p);
      assert.equal(err.kind, 'cancelled');
      await sleep(300);
      assert.equal(reqs().length, 1);
    });

    it('every operation accepts a signal', async () => {
      const api = client();
      const ac = new AbortController();
      ac.abort();
      const s = allDocs()[0];
      const calls = [
        () => api.showDocument(s.id, ac.signal),
        () => api.storeDocument({ name: 'n', prompt: 'p', creativity: 0.5 }, ac.signal),
        () => api.updateDocument(s.id, { favorite: true }, ac.signal),
        () => api.deleteDocument(s.id, ac.signal),
        () => api.listProjects({}, ac.signal),
        () => api.deleteProject('Acme', ac.signal),
        () => api.getAccount(ac.signal),
      ];
      for (const call of calls) assert.equal((await apiError(call)).kind, 'cancelled');
      await sleep(50);
      assert.equal(reqs().length, 0);
      assert.ok(sb.documents.has(s.id));
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('redirects and where the key goes', () => {
    it('a redirect to another host is not followed: the target gets no request and never the key (GET and POST, 301/302/303/307/308)', async () => {
      const target = await stub((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ data: [], status: 200 }));
      });
      for (const code of [301, 302, 303, 307, 308]) {
        const redirector = await stub((req, res) => {
          res.writeHead(code, { Location: `${target.url}${req.url}`, 'Content-Type': 'text/html' });
          res.end(`<html><body>Moved to <a href="${target.url}">there</a></body></html>`);
        });
        const api = client({ documentsUrl: redirector.url, projectsUrl: redirector.url, retries: 2 });
        const e1 = await apiError(() => api.listDocuments());
        const e2 = await apiError(() => api.storeDocument({ name: 'n', prompt: 'p', creativity: 0.5 }));
        const e3 = await apiError(() => api.deleteProject('Acme'));
        for (const [e, path] of [[e1, '/api/v1/documents'], [e2, '/api/v1/documents'], [e3, '/api/v1/projects/Acme']] as const) {
          assert.equal(e.kind, 'moved', `${code}`);
          assert.equal(e.status, code);
          assert.equal(e.location, `${target.url}${path}`);
          assert.ok(e.message.includes(`to ${target.url}${path}`), `${code}: "${e.message}" names where`);
          assert.doesNotMatch(e.message, /API key was not accepted|set (a valid|the) key/i, 'not sent to re-enter the key');
          assertReadable(e);
        }
        assert.equal(redirector.requests.length, 3, `${code}: one request per call, no retries`);
        assert.ok(redirector.requests.every((r) => r.headers.authorization === `Bearer ${sb.key}`));
      }
      assert.equal(target.requests.length, 0, 'the redirect target got no request at all');
      assert.equal(target.connections, 0, 'the redirect target was not even connected to');
    });

    describe('what a redirect means: only the own login page is "key not accepted"; anything else is "moved", never followed', () => {
      /** A server that answers every request with `code` and the given Location (none when undefined). */
      async function redirector(code: number, location: (self: string) => string | undefined): Promise<Stub> {
        let self = '';
        const s = await stub((_req, res) => {
          const loc = location(self);
          res.writeHead(code, { 'Content-Type': 'text/html; charset=UTF-8', ...(loc === undefined ? {} : { Location: loc }) });
          res.end('<!DOCTYPE html><html><body>Redirecting…</body></html>');
        });
        self = s.url;
        return s;
      }
      /** Lists the documents once through `from` and checks it was the only exchange, with the key, to `from` only. */
      async function once(from: Stub, other?: Stub): Promise<ApiError> {
        const err = await apiError(() => client({ documentsUrl: from.url, retries: 3 }).listDocuments());
        assert.equal(from.requests.length, 1, 'exactly one request');
        assert.equal(from.connections, 1, 'exactly one connection (nothing else dialled on this port, TLS included)');
        assert.equal(from.requests[0].headers.authorization, `Bearer ${sb.key}`);
        assert.equal(exchanges.length, 1, 'the client made one exchange');
        if (other) {
          assert.equal(other.requests.length, 0, 'the other host received no request');
          assert.equal(other.connections, 0, 'the other host was not connected to');
        }
        assertReadable(err);
        return err;
      }
      const otherHost = () =>
        stub((_req, res) => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ data: [], status: 200 }));
        });

      it('301 to another host: moved, naming the new address (credentials, query and fragment left out)', async () => {
        const other = await otherHost();
        const host = other.url.replace('http://', '');
        const from = await redirector(301, () => `http://user:secret@${host}/api/v1/documents?api_token=leak&x=1#frag`);
        const err = await once(from, other);
        assert.equal(err.kind, 'moved');
        assert.equal(err.status, 301);
        assert.equal(err.location, `${other.url}/api/v1/documents`);
        assert.ok(err.message.includes(`${other.url}/api/v1/documents`), err.message);
        assert.match(err.message, /HTTP 301/);
        assert.match(err.message, /moved/);
        assert.match(err.message, /contentDocs\.documents\.baseUrl/, 'says which setting to change');
        assert.doesNotMatch(err.message, /secret|user|api_token|leak|frag|x=1/, 'nothing from the credentials, query or fragment');
        assert.doesNotMatch(err.message, /not accepted/);
      });

      it('302 to the same host\'s /login: auth (the key was not accepted), the login page not requested', async () => {
        const from = await redirector(302, (self) => `${self}/login`);
        const err = await once(from);
        assert.equal(err.kind, 'auth');
        assert.equal(err.status, 302);
        assert.equal(err.location, undefined);
        assert.match(err.message, /API key was not accepted/);
        assert.ok(!from.requests.some((r) => r.url === '/login'));
      });

      it('302 to /login on another host, or to another path of the same host: moved, not auth', async () => {
        const other = await otherHost();
        const a = await once(await redirector(302, () => `${other.url}/login`), other);
        assert.equal(a.kind, 'moved');
        assert.equal(a.location, `${other.url}/login`);
        exchanges = [];
        const from = await redirector(302, (self) => `${self}/home`);
        const b = await once(from);
        assert.equal(b.kind, 'moved');
        assert.equal(b.location, `${from.url}/home`);
        assert.ok(b.message.includes(`${from.url}/home`), b.message);
      });

      it('307 to https:// of the same host: moved (a scheme change), naming the https address; nothing dialled', async () => {
        const from = await redirector(307, (self) => `${self.replace('http://', 'https://')}/api/v1/documents?page=1`);
        const err = await once(from);
        const https = `${from.url.replace('http://', 'https://')}/api/v1/documents`;
        assert.equal(err.kind, 'moved');
        assert.equal(err.status, 307);
        assert.equal(err.location, https);
        assert.ok(err.message.includes(https), err.message);
        assert.doesNotMatch(err.message, /page=1/);
      });

      it('308 with a relative Location: resolved against the request URL, named, not followed', async () => {
        const from = await redirector(308, () => '../v2/documents?api_token=leak');
        const err = await once(from);
        assert.equal(err.kind, 'moved');
        assert.equal(err.status, 308);
        assert.equal(err.location, `${from.url}/api/v2/documents`, 'resolved against /api/v1/documents, not the base');
        assert.ok(err.message.includes(`${from.url}/api/v2/documents`), err.message);
        assert.doesNotMatch(err.message, /leak/);
        exchanges = [];
        const abs = await redirector(308, () => '/api/v2/documents');
        const err2 = await once(abs);
        assert.equal(err2.location, `${abs.url}/api/v2/documents`);
      });

      it('a redirect without a Location (or an unusable one): moved, saying there was no address; not auth', async () => {
        const from = await redirector(301, () => undefined);
        const err = await once(from);
        assert.equal(err.kind, 'moved');
        assert.equal(err.status, 301);
        assert.equal(err.location, undefined);
        assert.match(err.message, /HTTP 301/);
        assert.match(err.message, /without an address/);
        assert.doesNotMatch(err.message, /not accepted/);
        exchanges = [];
        const bad = await redirector(302, () => 'http://[bad');
        const err2 = await once(bad);
        assert.equal(err2.kind, 'moved');
        assert.match(err2.message, /without a valid address/);
      });

      it('a moved error is not retried and is the same for a store (sent once) and the projects server (its own setting named)', async () => {
        const other = await otherHost();
        const from = await redirector(308, () => `${other.url}/x`);
        const api = client({ documentsUrl: from.url, projectsUrl: from.url, retries: 3 });
        const store = await apiError(() => api.storeDocument({ name: 'n', prompt: 'p', creativity: 0.5 }));
        const projects = await apiError(() => api.listProjects());
        assert.equal(store.kind, 'moved');
        assert.equal(projects.kind, 'moved');
        assert.match(projects.message, /contentDocs\.projects\.baseUrl/);
        assert.equal(from.requests.length, 2);
        assert.equal(other.connections, 0);
      });
    });

    it('the key is never sent over http:// to another machine, nor to a URL with credentials', async () => {
      for (const url of ['http://example.com', 'http://10.0.0.1:8080', 'https://user:pw@example.com', 'ftp://127.0.0.1', 'not a url']) {
        let keyCalls = 0;
        const api = client({
          documentsUrl: url,
          getKey: () => {
            keyCalls++;
            return sb.key;
          },
        });
        const err = await apiError(() => api.listDocuments());
        assert.equal(err.kind, 'insecure', url);
        assertReadable(err);
        assert.equal(keyCalls, 0, `${url}: the key was not read`);
      }
      assert.equal(checkBaseUrl('https://example.com/'), 'https://example.com');
      assert.equal(checkBaseUrl('http://localhost:8000'), 'http://localhost:8000');
      assert.equal(checkBaseUrl('http://127.0.0.1:9/app/'), 'http://127.0.0.1:9/app');
    });

    it('documents requests go only to the documents server, projects requests only to the projects server', async () => {
      const api = client();
      await api.listDocuments();
      await api.getAccount();
      await api.listProjects();
      await api.deleteProject('Acme');
      assert.deepEqual(reqs().map((r) => `${r.server} ${r.path}`), [
        'documents /api/v1/documents',
        'documents /api/v1/account',
        'projects /api/v1/projects',
        'projects /api/v1/projects/Acme',
      ]);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('what the client tells of each exchange (onExchange)', () => {
    it("each exchange says the priority it was asked with: the writer's by default, background when asked so", async () => {
      const api = client();
      await api.listDocuments({ perPage: 10 });
      await api.listDocuments({ perPage: 25 }, { priority: 'background' });
      assert.deepEqual(
        exchanges.map((e) => [e.path.split('?')[0], e.priority]),
        [
          ['/documents', 'user'],
          ['/documents', 'background'],
        ],
      );
    });
  });

  describe('templates', () => {
    it('52 known ids, 1..52, with the names of the interface table', () => {
      assert.equal(TEMPLATES.length, 52);
      assert.deepEqual(TEMPLATES.map((t) => t.id), Array.from({ length: 52 }, (_, i) => i + 1));
      assert.deepEqual(TEMPLATES.map((t) => ({ id: t.id, name: t.name })), SANDBOX_TEMPLATES.map((t) => ({ id: t.id, name: t.name })));
      assert.equal(templateName(1), 'Freestyle');
      assert.equal(templateName(24), 'Pain-Agitate-Solution');
      assert.equal(templateName(45), 'Content grammar');
      assert.equal(templateName(52), 'Feature section');
      for (let id = 1; id <= 52; id++) assert.ok(isKnownTemplate(id));
      for (const id of [0, 53, 60, -1, 1.5, NaN]) assert.equal(isKnownTemplate(id), false, String(id));
    });

    it('unknown ids: the server name, else a neutral fallback; no template ([]) has a name too', () => {
      assert.equal(templateName(60, 'Custom: Landing page'), 'Custom: Landing page');
      assert.equal(templateName(60, '  Spaced  '), 'Spaced');
      assert.equal(templateName(60), 'Template 60');
      assert.equal(templateName(53, '   '), 'Template 53');
      assert.equal(templateName(undefined), 'No template');
      assert.equal(templateName(4, 'Something else'), 'Something else', "the server's word for known ids too (it differs by server version)");
    });

    it('documents from the server: known, custom (id > 52) and deleted ([]) templates all get a name', async () => {
      const api = client();
      const docs: ContentDocument[] = [];
      for await (const p of walkPages((page) => api.listDocuments({ perPage: 100, page }))) docs.push(...p.items);
      assert.equal(docs.length, sb.documents.size);
      const custom = docs.filter((d) => d.template && d.template.id > 52);
      const none = docs.filter((d) => d.template === undefined);
      assert.ok(custom.length > 0 && none.length > 0);
      for (const d of custom) {
        assert.deepEqual(d.template, { id: CUSTOM_TEMPLATES[0].id, name: CUSTOM_TEMPLATES[0].name });
        assert.equal(templateName(d.template.id, d.template.name), 'Custom: Landing page');
      }
      for (const d of none) {
        assert.equal(sb.documents.get(d.id)!.templateId, null);
        assert.equal(templateName(d.template?.id, d.template?.name), 'No template');
      }
      for (const d of docs.filter((x) => x.template && x.template.id <= 52)) {
        assert.equal(templateName(d.template!.id, d.template!.name), d.template!.name);
      }
    });
  });
});
