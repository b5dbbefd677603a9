/**
 * The operations (src/operations/) on an account given as a value (a port that records every call): the calls each
 * makes (a person clicking's own), the update's conflict rule, a 404 dropping the document, and the answers in the
 * words of the front end that asked (its tools' names). Plain Node, no server.
 */
import assert from 'node:assert/strict';
import type { AccountInfo, ContentDocument, Page } from '../../src/api/index';
import { ApiError } from '../../src/api/errors';
import { answer } from '../../src/operations/answers';
import { ReadMemory, UPDATE_CHECK_MS, createDocument, deleteDocument, planUsage, readDocument, searchDocuments, templateOf, updateDocument, type AccountPort } from '../../src/operations/index';
import { parseToolInput, type ToolInputs } from '../../src/operations/inputs';
import { VSCODE_TOOL_WORDS } from '../../src/operations/words';

function doc(id: number, extra: Partial<ContentDocument> = {}): ContentDocument {
  return {
    id,
    name: `Doc ${id}`,
    template: { id: 1, name: 'Freestyle' },
    result: 'Words.',
    resultIsNull: false,
    words: 1,
    favorite: false,
    created_at: '2026-01-01T00:00:00.000000Z',
    updated_at: '2026-01-02T00:00:00.000000Z',
    ...extra,
  };
}

function page<T>(items: T[]): Page<T> {
  return { items, page: 1, perPage: 10, total: items.length, lastPage: 1, hasMore: false };
}

/** An account whose server holds `server`; `known`: the copies its views hold; `calls`: every call, in order. */
function port(server: Map<number, ContentDocument>, name = 'Ann @ writer.example.com') {
  const calls: string[] = [];
  const known = new Map<number, ContentDocument>();
  const dropped: number[] = [];
  const usage: AccountInfo = { name: 'Ann' } as AccountInfo;
  let cached: AccountInfo | undefined;
  const notFound = (id: number) => new ApiError('notFound', `Document ${id} not found.`, { status: 404 });
  const p: AccountPort = {
    name,
    documents: {
      known: (id) => known.get(id),
      list: async (query) => {
        calls.push(`list ${JSON.stringify(query)}`);
        return page([...server.values()]);
      },
      fetch: async (id) => {
        calls.push(`fetch ${id}`);
        const d = server.get(id);
        if (!d) throw notFound(id);
        return d;
      },
      create: async (input) => {
        calls.push(`create ${JSON.stringify(input)}`);
        const d = doc(99, { name: input.name, template: { id: input.templateId ?? 1, name: '' } });
        server.set(99, d);
        return d;
      },
      update: async (id, changes) => {
        calls.push(`update ${id} ${JSON.stringify(changes)}`);
        const d = server.get(id);
        if (!d) throw notFound(id);
        const next = { ...d, ...changes, updated_at: '2026-01-03T00:00:00.000000Z' };
        server.set(id, next);
        known.set(id, next);
        return next;
      },
      delete: async (id) => {
        calls.push(`delete ${id}`);
        server.delete(id);
      },
      markDeleted: (id) => void dropped.push(id),
    },
    cachedUsage: () => cached,
    usage: async () => {
      calls.push('usage');
      return (cached = usage);
    },
    listProjects: async () => page([]),
    deleteProject: async () => 'deleted',
    templates: () => [{ id: 700, name: 'House style', custom: true }],
    seen: new ReadMemory(),
  };
  return { port: p, calls, known, dropped };
}

describe('operations: one set, an account given with every call', () => {
  it('search: one list request of the smallest page holding `limit`, the filters the server takes, and what it showed remembered', async () => {
    const server = new Map([[1, doc(1)], [2, doc(2)]]);
    const a = port(server);
    const o = await searchDocuments(a.port, { query: 'doc', searchIn: 'result', template: 'house style', favoritesOnly: true, sort: 'nameAsc', limit: 12 });
    assert.ok(o.ok);
    assert.deepEqual(a.calls, [`list ${JSON.stringify({ search: 'doc', searchBy: 'result', templateId: 700, favorite: true, sortBy: 'name', sort: 'asc', perPage: 25, page: 1 })}`]);
    assert.equal(o.value.summary.template, 'House style', "a custom template found by the account's own name");
    assert.deepEqual(o.value.documents.map((d) => d.id), [1, 2]);
    assert.ok(a.port.seen.get(1) && a.port.seen.get(2));
  });

  it('search: a template name the account does not have is refused with no request', async () => {
    const a = port(new Map());
    const o = await searchDocuments(a.port, { searchIn: 'name', template: 'Nope', favoritesOnly: false, sort: 'newest', limit: 10 });
    assert.deepEqual(o, { ok: false, problem: { kind: 'noTemplate', template: 'Nope' } });
    assert.deepEqual(a.calls, []);
  });

  it('update right after a read of the version known: one PATCH, no second read', async () => {
    const server = new Map([[1, doc(1)]]);
    const a = port(server);
    const read = await readDocument(a.port, 1);
    assert.ok(read.ok);
    a.known.set(1, server.get(1)!);
    a.calls.length = 0;
    const o = await updateDocument(a.port, { id: 1, updated_at: read.value.updated_at!, changes: { favorite: true } });
    assert.ok(o.ok);
    assert.deepEqual(a.calls, ['update 1 {"favorite":true}']);
  });

  it('update: refused with no request when the copy known is newer than the version read', async () => {
    const server = new Map([[1, doc(1)]]);
    const a = port(server);
    await readDocument(a.port, 1);
    a.known.set(1, doc(1, { updated_at: '2026-01-05T00:00:00.000000Z' }));
    a.calls.length = 0;
    const o = await updateDocument(a.port, { id: 1, updated_at: '2026-01-02T00:00:00.000000Z', changes: { name: 'X' } });
    assert.equal(o.ok, false);
    assert.equal(!o.ok && o.problem.kind, 'changed');
    assert.deepEqual(a.calls, []);
  });

  it(`update: a read older than ${UPDATE_CHECK_MS} ms is checked with one GET; the same updated_at with other text is refused`, async () => {
    const server = new Map([[1, doc(1)]]);
    const a = port(server);
    await readDocument(a.port, 1);
    a.port.seen.remember(a.port.seen.get(1)!.doc, Date.now() - UPDATE_CHECK_MS - 1);
    a.known.set(1, server.get(1)!);
    server.set(1, doc(1, { result: 'Changed within the same second.' }));
    a.calls.length = 0;
    const o = await updateDocument(a.port, { id: 1, updated_at: '2026-01-02T00:00:00.000000Z', changes: { name: 'X' } });
    assert.equal(!o.ok && o.problem.kind, 'changed');
    assert.deepEqual(a.calls, ['fetch 1'], 'read once, not changed');
  });

  it('a document the server no longer has: said gone, and dropped from what the account shows', async () => {
    const a = port(new Map());
    const o = await readDocument(a.port, 5);
    assert.deepEqual(o, { ok: false, problem: { kind: 'gone' } });
    assert.deepEqual(a.dropped, [5]);
  });

  it("create: the account's default creativity when none is given; delete forgets what the agent read", async () => {
    const server = new Map([[1, doc(1)]]);
    const a = port(server);
    await a.port.usage();
    (a.port.cachedUsage() as { defaultCreativity?: number }).defaultCreativity = 0.8;
    a.calls.length = 0;
    const c = await createDocument(a.port, { name: 'New', prompt: 'Write.' });
    assert.ok(c.ok);
    assert.deepEqual(a.calls, [`create ${JSON.stringify({ name: 'New', prompt: 'Write.', creativity: 0.75, templateId: 1 })}`]);
    await readDocument(a.port, 1);
    const d = await deleteDocument(a.port, 1);
    assert.ok(d.ok);
    assert.equal(a.port.seen.get(1), undefined);
  });

  it('plan usage: one request, then the figures already read', async () => {
    const a = port(new Map());
    await planUsage(a.port);
    await planUsage(a.port);
    assert.deepEqual(a.calls, ['usage']);
  });

  it("a template's name: the document's, else the account's, else the built-in's", () => {
    const a = port(new Map());
    assert.equal(templateOf(a.port, doc(1, { template: { id: 700, name: '' } })), 'House style');
    assert.equal(templateOf(a.port, doc(1, { template: { id: 9, name: '' } })), 'Blog post');
  });

  it("answers name the account and the tools as the front end that asked names them; a refusal is an error", async () => {
    const server = new Map([[1, doc(1)]]);
    const other = { search: 'search_documents', read: 'read_document', templates: 'list_templates', projects: 'list_projects' };
    for (const words of [VSCODE_TOOL_WORDS, other]) {
      const a = port(server, 'Bob @ other.example.com');
      const input = parseToolInput('search', { query: 'doc' }, { account: false, words });
      assert.ok(input.ok);
      const found = await answer('search', a.port, input.value, words);
      assert.equal(found.isError, false);
      assert.match(found.text, /^Account: Bob @ other\.example\.com\n/);
      assert.ok(found.text.includes(`Read one with ${words.read}`), found.text);
      const stale: ToolInputs['update'] = { id: 1, updated_at: '2025-01-01T00:00:00.000000Z', changes: { favorite: true } };
      const refused = await answer('update', a.port, stale, words);
      assert.equal(refused.isError, true);
      assert.ok(refused.text.endsWith(`Read it again with ${words.read}, then decide.`), refused.text);
    }
  });
});
