/**
 * The Documents view's model (src/documents/documentsModel.ts) in plain Node: the real DocumentService and API
 * client against the sandbox over HTTP on 127.0.0.1. Lists per group, counts, paging, reconciliation of
 * created/renamed/favorited/deleted documents, background counting and account switches.
 */
import assert from 'node:assert/strict';
import { createApi, type ContentApi, type DocumentListQuery } from '../../src/api';
import { DocumentsModel, readState, type DocumentsModelHost } from '../../src/documents/documentsModel';
import { Emitter } from '../../src/model/emitter';
import type { DocNode, DocumentNode, DocumentsViewState, GroupNode } from '../../src/model/nodes';
import type { ApiProvider } from '../../src/accounts/apiProvider';
import { DocumentService } from '../../src/documents/documentService';
import type { DocumentSortSetting, PageSize } from '../../src/util/config';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';

const AT = new Date('2026-06-01T10:00:00Z');

function put(sb: Sandbox, id: number, name: string, templateId: number | null, extra: Partial<SandboxDocument> = {}): void {
  sb.documents.set(id, { id, name, templateId, result: `Text of ${name}`, words: 3, favorite: false, createdAt: AT, updatedAt: AT, ...extra });
}

/** A model on the real service and client, with settings and a saved state the test controls. */
function setup(sb: Sandbox, opts: { pageSize?: PageSize; sort?: DocumentSortSetting; hideEmpty?: boolean; saved?: unknown } = {}) {
  const client: ContentApi = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
  const server = new Emitter<void>();
  const signIn = new Emitter<boolean>();
  const api = { get: () => client, onDidChangeServer: server.event } as unknown as ApiProvider;
  const service = new DocumentService(api);
  const settings = { pageSize: opts.pageSize ?? 10, sort: opts.sort ?? 'newest', hideEmpty: opts.hideEmpty ?? false, key: true };
  const persisted: DocumentsViewState[] = [];
  const warnings: string[] = [];
  const host: DocumentsModelHost = {
    hasKey: () => Promise.resolve(settings.key),
    onDidChangeSignIn: signIn.event,
    pageSize: () => settings.pageSize,
    defaultSort: () => settings.sort,
    hideEmpty: () => settings.hideEmpty,
    persist: (s) => {
      persisted.push(s);
      return Promise.resolve();
    },
    progress: (p) => p,
    log: { warn: (l) => warnings.push(l), debug: () => undefined },
  };
  const model = new DocumentsModel(service, host, opts.saved);
  model.countIntervalMs = 0;
  const changes: Array<DocNode | undefined> = [];
  model.onDidChange((n) => changes.push(n));
  return {
    model,
    host,
    service,
    settings,
    persisted,
    warnings,
    changes,
    signIn,
    server,
    dispose() {
      model.dispose();
      service.dispose();
      client.dispose();
    },
  };
}

const names = (rows: DocNode[]) => rows.filter((r): r is DocumentNode => r.kind === 'document').map((r) => r.doc.name);
const kinds = (rows: DocNode[]) => rows.map((r) => r.kind);
const listRequests = (sb: Sandbox) => sb.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/documents');

/** Every row the server lists for a query, in its order (pages of 100, read while nothing changes). */
async function serverRows(sb: Sandbox, q: DocumentListQuery): Promise<string[]> {
  const client = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
  try {
    const out: string[] = [];
    for (let page = 1; ; page++) {
      const p = await client.listDocuments({ ...q, perPage: 100, page });
      out.push(...p.items.map((d) => d.name));
      if (!p.hasMore) return out;
    }
  } finally {
    client.dispose();
  }
}

/** Load more until the group shows no Load more row (bounded: a group that never completes fails the test). */
async function loadToTheEnd(model: DocumentsModel, g: GroupNode): Promise<DocNode[]> {
  for (let i = 0; i < 40; i++) {
    const rows = await model.children(g);
    if (rows.at(-1)?.kind !== 'loadMore') return rows;
    await model.loadMore(g);
  }
  assert.fail('the group never reached its end');
}

describe('DocumentsModel (the Documents view without vscode, against the sandbox)', () => {
  let sb: Sandbox;
  let env: ReturnType<typeof setup> | undefined;

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.reseed('empty');
    sb.clearFaults();
    sb.resetRequests();
  });
  afterEach(() => {
    env?.dispose();
    env = undefined;
  });

  it('a group loads its first page when asked (one request), then one page per Load more; the count is the server total', async () => {
    for (let i = 1; i <= 25; i++) put(sb, i, `Doc ${String(i).padStart(2, '0')}`, 4);
    put(sb, 26, 'Elsewhere', 5);
    env = setup(sb);
    const g = env.model.templateGroup(4)!;
    assert.equal(env.model.countOf(g.key), undefined, 'nothing is known before the group loads');
    assert.equal(listRequests(sb).length, 0, 'building the model asks nothing');

    const [first, again] = await Promise.all([env.model.children(g), env.model.children(g)]);
    assert.equal(listRequests(sb).length, 1, 'two callers, one request');
    assert.deepEqual(listRequests(sb)[0].query, { template_id: '4', sort_by: 'id', sort: 'desc', per_page: '10', page: '1' });
    assert.deepEqual(names(first), names(again));
    assert.deepEqual(names(first).slice(0, 2), ['Doc 25', 'Doc 24'], 'newest first');
    assert.equal(kinds(first).at(-1), 'loadMore');
    assert.equal(env.model.countOf(g.key), 25);
    assert.ok(env.changes.includes(g), 'the group row is redrawn (its count is new)');

    await env.model.loadMore({ kind: 'loadMore', parent: g });
    await env.model.loadMore(g);
    const rows = await env.model.children(g);
    assert.equal(names(rows).length, 25);
    assert.equal(kinds(rows).at(-1), 'document', 'no Load more once everything is shown');
    assert.deepEqual(
      listRequests(sb).map((r) => r.query.page),
      ['1', '2', '3'],
    );
    assert.deepEqual(env.model.listState(g.key), { shown: 25, loading: false });
  });

  it('an empty group shows an empty row; a failed one an error row, and Retry reloads only that group', async () => {
    put(sb, 1, 'Only', 4);
    env = setup(sb);
    assert.deepEqual(kinds(await env.model.children(env.model.templateGroup(5)!)), ['empty']);
    sb.setFault('documents.list', { kind: 'status500', count: 1 });
    const g = env.model.templateGroup(4)!;
    const failed = await env.model.children(g);
    assert.deepEqual(kinds(failed), ['error']);
    assert.match(env.warnings.join('\n'), /loading t4 failed/);
    await env.model.retry(failed[0] as never);
    assert.deepEqual(names(await env.model.children(g)), ['Only']);
  });

  it('a rename re-sorts the row by name; a favorite joins Favorites; counts follow without a list request', async () => {
    put(sb, 1, 'Alpha', 4);
    put(sb, 2, 'Bravo', 4);
    put(sb, 3, 'Charlie', 4);
    put(sb, 4, 'Starred', 4, { favorite: true });
    env = setup(sb, { sort: 'nameAsc' });
    const t4 = env.model.templateGroup(4)!;
    const fav = env.model.favoritesGroup;
    await env.model.children(t4);
    await env.model.children(fav);
    assert.equal(env.model.countOf(fav.key), 1);
    sb.resetRequests();

    await env.service.rename(1, 'Zulu');
    assert.deepEqual(names(await env.model.children(t4)), ['Bravo', 'Charlie', 'Starred', 'Zulu']);
    await env.service.setFavorite(2, true);
    assert.deepEqual(names(await env.model.children(fav)), ['Bravo', 'Starred']);
    assert.equal(env.model.countOf(fav.key), 2);
    await env.service.setFavorite(4, false);
    assert.deepEqual(names(await env.model.children(fav)), ['Bravo']);
    assert.equal(env.model.countOf(fav.key), 1);
    assert.equal(env.model.countOf(t4.key), 4, 'the template group keeps all four');
    assert.equal(listRequests(sb).length, 0, 'only PATCHes went out');
  });

  it('a delete leaves every loaded group and its count; a new document goes where the server order puts it', async () => {
    for (let i = 1; i <= 3; i++) put(sb, i, `Doc ${i}`, 4, { favorite: i === 2 });
    env = setup(sb);
    const all = env.model.allGroup;
    const t4 = env.model.templateGroup(4)!;
    const fav = env.model.favoritesGroup;
    await Promise.all([env.model.children(all), env.model.children(t4), env.model.children(fav)]);

    await env.service.delete(2);
    assert.deepEqual(names(await env.model.children(all)), ['Doc 3', 'Doc 1']);
    assert.deepEqual(kinds(await env.model.children(fav)), ['empty']);
    assert.deepEqual([env.model.countOf('all'), env.model.countOf(t4.key), env.model.countOf(fav.key)], [2, 2, 0]);

    const created = await env.service.create({ name: 'Fresh', templateId: 4, prompt: 'Write something', creativity: 0.5 });
    assert.deepEqual(names(await env.model.children(t4)), ['Fresh', 'Doc 3', 'Doc 1']);
    assert.equal(env.model.countOf('all'), 3);
    assert.equal(env.model.countOf(fav.key), 0, 'not a favorite: Favorites does not change');
    assert.ok(created.id > 3);
  });

  it('a page that shows a document changed redraws its rows in the other groups', async () => {
    put(sb, 1, 'Before', 4);
    env = setup(sb);
    const t4 = env.model.templateGroup(4)!;
    await env.model.children(t4);
    sb.documents.get(1)!.name = 'After';
    sb.documents.get(1)!.updatedAt = new Date(AT.getTime() + 60_000);
    env.changes.length = 0;
    await env.model.children(env.model.allGroup);
    const row = (await env.model.children(t4))[0] as DocumentNode;
    assert.equal(row.doc.name, 'After');
    assert.ok(env.changes.includes(row), 'that row is redrawn by itself');
  });

  it('Hide Empty: counts every group in the background (a small account: one walk of All Documents); templates counted empty leave the root', async () => {
    put(sb, 1, 'A', 4);
    put(sb, 2, 'B', 4, { favorite: true });
    put(sb, 3, 'C', 9);
    put(sb, 4, 'Custom one', 77, { templateName: 'My Template' });
    env = setup(sb, { hideEmpty: true });
    const first = await env.model.rootChildren();
    assert.ok(first.filter((g) => g.kind === 'template').length >= 52, 'before anything is counted, nothing is hidden');
    assert.equal(env.model.counting.state, 'running');
    await env.model.countingDone;
    assert.equal(env.model.counting.state, 'done');
    const counts = listRequests(sb);
    assert.equal(counts.length, 1, 'one page of All Documents counts every group');
    assert.deepEqual(counts[0].query, { sort_by: 'id', sort: 'asc', per_page: '100', page: '1' });
    const root = await env.model.rootChildren();
    assert.deepEqual(
      root.map((g) => (g).key),
      ['all', 'favorites', 't4', 't9', 't77', 'other'],
    );
    assert.equal(env.model.countOf('other'), 1, 'Other templates: All minus the table templates');
    assert.equal(env.model.countOf('all'), 4);
    assert.equal(env.model.countOf('favorites'), 1);
    assert.equal(env.model.countOf('t77'), 1);
  });

  it('the default sort setting is read once, and again only when it changes (every row asks for the sort on every draw)', async () => {
    env = setup(sb, { sort: 'newest' });
    let reads = 0;
    const settings = env.settings;
    const readSetting = () => {
      reads++;
      return settings.sort;
    };
    env.model.dispose();
    env.model = new DocumentsModel(env.service, { ...env.host, defaultSort: readSetting }, undefined);
    for (let i = 0; i < 1000; i++) assert.equal(env.model.sort, 'newest');
    assert.equal(reads, 1, 'read once for a thousand rows');
    env.settings.sort = 'nameAsc';
    env.model.defaultSortChanged();
    assert.equal(env.model.sort, 'nameAsc', 'the changed setting is read');
    assert.equal(env.model.sort, 'nameAsc');
    assert.equal(reads, 2);
  });

  it("the background count asks the server only after the view has its rows and the views' own requests of that moment left", async () => {
    put(sb, 1, 'A', 4);
    env = setup(sb, { hideEmpty: true });
    const order: string[] = [];
    const list = env.service.list.bind(env.service);
    env.service.list = (q, call) => {
      order.push(`documents list (${call && 'priority' in call ? call.priority : 'user'})`);
      return list(q, call);
    };
    await env.model.rootChildren();
    order.push('rows handed to the view');
    // What another view asks in the same moment (the Projects view's rows, asked with the Documents view's).
    await Promise.resolve();
    order.push("the Projects view's request");
    await env.model.countingDone;
    assert.deepEqual(order, ['rows handed to the view', "the Projects view's request", 'documents list (background)']);
    assert.equal(env.model.countOf('all'), 1, 'and it counts');
  });

  it('in the turn before the background count\'s first request, its account removed, Hide Empty turned off or a Refresh: nothing is sent', async () => {
    put(sb, 1, 'A', 4);
    const backgroundLists = (e: NonNullable<typeof env>) => {
      const sent: string[] = [];
      const list = e.service.list.bind(e.service);
      e.service.list = (q, call) => {
        if (call && 'priority' in call && call.priority === 'background') sent.push(JSON.stringify(q));
        return list(q, call);
      };
      return sent;
    };
    const settle = () => new Promise((r) => setTimeout(r, 50));

    // The account removed (its model disposed) while the count waits its turn.
    const removed = setup(sb, { hideEmpty: true });
    const sentRemoved = backgroundLists(removed);
    await removed.model.rootChildren();
    assert.equal(removed.model.counting.state, 'running');
    removed.dispose();
    await removed.model.countingDone;
    await settle();
    assert.deepEqual(sentRemoved, [], 'a removed account sends nothing');

    // Hide Empty turned off (the view not on screen): the counts are no longer wanted.
    env = setup(sb, { hideEmpty: true });
    const sent = backgroundLists(env);
    await env.model.rootChildren();
    env.settings.hideEmpty = false;
    env.model.hideEmptyChanged();
    await env.model.countingDone;
    await settle();
    assert.deepEqual(sent, [], 'counts no longer wanted: nothing sent');
    assert.equal(env.model.counting.state, 'idle');

    // A Refresh: the count of before sends nothing; the one the view's next read starts counts once.
    env.settings.hideEmpty = true;
    env.model.hideEmptyChanged();
    await env.model.rootChildren();
    env.model.refresh();
    await settle();
    assert.deepEqual(sent, [], 'the count a Refresh stopped sent nothing');
    await env.model.rootChildren();
    await env.model.countingDone;
    assert.equal(sent.length, 1, `one count after the Refresh: ${sent.join(' ')}`);
    assert.equal(env.model.countOf('all'), 1);
    assert.equal(listRequests(sb).length, 1, 'the server heard one request in all');
  });

  it('a custom template seen in a page becomes a group counted as "some", and is remembered in the saved state', async () => {
    put(sb, 1, 'Custom one', 77, { templateName: 'My Template' });
    env = setup(sb);
    await env.model.children(env.model.allGroup);
    const g = env.model.templateGroup(77);
    assert.ok(g?.custom);
    assert.equal(g.name, 'My Template');
    assert.equal(env.model.count(g.key), 'some');
    assert.equal(env.model.countOf(g.key), undefined, 'not an exact count');
    assert.deepEqual(env.persisted.at(-1)?.customTemplates, [[77, 'My Template']]);
    const reloaded = setup(sb, { saved: env.persisted.at(-1) });
    assert.equal(reloaded.model.templateGroup(77)?.name, 'My Template');
    reloaded.dispose();
  });

  it('signing out drops lists, counts and the account\'s custom templates; a page in flight never lands', async () => {
    put(sb, 1, 'Custom one', 77, { templateName: 'My Template' });
    put(sb, 2, 'Plain', 4);
    env = setup(sb);
    await env.model.children(env.model.allGroup);
    assert.ok(env.model.templateGroup(77));
    sb.setLatency(300);
    const t4 = env.model.templateGroup(4)!;
    const pending = env.model.children(t4);
    await new Promise((r) => setTimeout(r, 50));
    env.settings.key = false;
    env.signIn.fire(false);
    assert.equal(env.model.templateGroup(77), undefined, 'the custom template went with the account');
    assert.equal(env.persisted.at(-1)?.customTemplates, undefined);
    assert.deepEqual(await pending, [], 'the old account\'s page is not shown');
    assert.equal(env.model.countOf('all'), undefined);
    assert.deepEqual(await env.model.rootChildren(), [], 'signed out: no groups');
    sb.setLatency(0);
    env.settings.key = true;
    env.signIn.fire(true);
    assert.deepEqual(names(await env.model.children(t4)), ['Plain'], 'signed in again: loads afresh');
  });

  it('the sort and Favorites only are kept and change what is asked; the search is its own group', async () => {
    put(sb, 1, 'banana', 4, { favorite: true });
    put(sb, 2, 'apple', 4);
    env = setup(sb);
    await env.model.setSort('nameAsc');
    assert.equal(env.persisted.at(-1)?.sort, 'nameAsc');
    assert.deepEqual(names(await env.model.children(env.model.templateGroup(4)!)), ['apple', 'banana']);
    await env.model.setFavoritesOnly(true);
    assert.deepEqual(names(await env.model.children(env.model.templateGroup(4)!)), ['banana']);
    assert.equal(listRequests(sb).at(-1)?.query.favorite, '1');
    const search = env.model.setSearch({ text: '  app ', by: 'name' })!;
    assert.deepEqual(search.search, { text: 'app', by: 'name' });
    assert.deepEqual(kinds(await env.model.children(search)), ['empty'], 'favorites only: apple is not a favorite');
    assert.equal(env.model.setSearch({ text: '   ', by: 'name' }), undefined, 'blank clears the search');
  });

  it('readState keeps only what it understands', () => {
    assert.deepEqual(readState({ sort: 'nameDesc', favoritesOnly: true, search: { text: ' x ', by: 'result' }, customTemplates: [[60, 'T'], [3, 'table'], ['x', 'y']] }), {
      sort: 'nameDesc',
      favoritesOnly: true,
      search: { text: 'x', by: 'result' },
      customTemplates: [[60, 'T']],
    });
    assert.deepEqual(readState({ sort: 'sideways', favoritesOnly: 'yes', search: { text: '', by: 'name' } }), {});
    assert.deepEqual(readState(null), {});
  });

  it('All Documents: Load more after a create elsewhere and a delete here reaches every row, in the server’s order', async () => {
    for (let i = 1; i <= 30; i++) put(sb, i, `Doc ${String(i).padStart(2, '0')}`, 4);
    env = setup(sb);
    const all = env.model.allGroup;
    await env.model.children(all);
    await env.model.loadMore(all);
    put(sb, 31, 'Made elsewhere', 5);
    await env.service.delete(25);
    const rows = await loadToTheEnd(env.model, all);
    assert.deepEqual(names(rows), await serverRows(sb, { sortBy: 'id', sort: 'desc' }));
    assert.equal(env.model.countOf('all'), 30);
  });

  it('by name, a row renamed to a name whose place the client cannot prove is not guessed, and Load more brings it where the server lists it', async () => {
    for (let i = 1; i <= 25; i++) put(sb, i, `Doc ${String(i).padStart(2, '0')}`, 4);
    env = setup(sb, { sort: 'nameDesc' });
    const g = env.model.templateGroup(4)!;
    await env.model.children(g);
    await env.service.rename(20, '🚀 Launch plan');
    const shown = names(await env.model.children(g));
    const server = await serverRows(sb, { templateId: 4, sortBy: 'name', sort: 'desc' });
    // Whatever is shown is in the server's order.
    assert.deepEqual(shown, server.filter((n) => shown.includes(n)));
    const rows = await loadToTheEnd(env.model, g);
    assert.deepEqual(names(rows), server);
    assert.equal(env.model.countOf(g.key), 25);
  });

  it('by name, a renamed row is placed locally only between neighbours whose order is provable', async () => {
    put(sb, 1, 'Alpha', 4);
    put(sb, 2, 'Bravo', 4);
    put(sb, 3, 'Delta', 4);
    put(sb, 4, 'Echo', 4);
    env = setup(sb, { sort: 'nameAsc' });
    const g = env.model.templateGroup(4)!;
    await env.model.children(g);
    sb.resetRequests();
    await env.service.rename(4, 'Charlie');
    assert.deepEqual(names(await env.model.children(g)), ['Alpha', 'Bravo', 'Charlie', 'Delta'], 'plain names: placed at once');
    await env.service.rename(4, 'bravo');
    const rows = await env.model.children(g);
    assert.deepEqual(names(rows), ['Alpha', 'Bravo', 'Delta'], 'equal to a neighbour under the collation: the server has no tie-break, so it is not placed');
    assert.equal(rows.at(-1)?.kind, 'loadMore', 'Load more reaches it');
    assert.equal(env.model.countOf(g.key), 4);
    const all = await loadToTheEnd(env.model, g);
    assert.deepEqual(names(all), await serverRows(sb, { templateId: 4, sortBy: 'name', sort: 'asc' }));
  });

  it('Other templates: a delete on a page already scanned does not make the scan skip a document, nor end early', async () => {
    // 150 documents, newest first: ids 150…51 on the first page of 100, 50…1 on the second.
    for (let i = 1; i <= 150; i++) put(sb, i, `Doc ${i}`, 4);
    put(sb, 140, 'Custom near the top', 77, { templateName: 'Mine' });
    put(sb, 50, 'Custom at the page edge', 77, { templateName: 'Mine' });
    env = setup(sb);
    const other = env.model.otherGroup;
    assert.deepEqual(names(await env.model.children(other)), ['Custom near the top']);
    await env.service.delete(145);
    const rows = await loadToTheEnd(env.model, other);
    assert.deepEqual(names(rows), ['Custom near the top', 'Custom at the page edge']);
    assert.equal(env.model.countOf('other'), 2);
  });

  it('search results: a rename the search no longer finds leaves them, and Load more still shows every match', async () => {
    for (let i = 1; i <= 15; i++) put(sb, i, `Plan ${String(i).padStart(2, '0')}`, 4);
    env = setup(sb);
    const g = env.model.setSearch({ text: 'plan', by: 'name' })!;
    assert.equal(names(await env.model.children(g)).length, 10);
    await env.service.rename(15, 'Budget');
    assert.ok(!names(await env.model.children(g)).includes('Budget'), 'the search does not find it: not a result');
    const rows = await loadToTheEnd(env.model, g);
    assert.deepEqual(names(rows), await serverRows(sb, { search: 'plan', searchBy: 'name' }));
    assert.equal(env.model.countOf('search'), 14);
  });

  it('a search of only characters the server trims (U+200B, U+FEFF, NEL) is no search, set or restored', () => {
    env = setup(sb);
    assert.equal(env.model.setSearch({ text: '\u200b', by: 'name' }), undefined);
    assert.equal(env.model.search, undefined);
    assert.equal(env.model.setSearch({ text: ' \ufeff\u0085 ', by: 'result' }), undefined);
    assert.deepEqual(env.model.setSearch({ text: '\u200bplan\u200b', by: 'name' })?.search, { text: 'plan', by: 'name' });
    assert.deepEqual(readState({ search: { text: '\u200b', by: 'name' } }), {});
    assert.deepEqual(readState({ search: { text: '\u200bx\u180e', by: 'name' } }), { search: { text: 'x', by: 'name' } });
  });
});
