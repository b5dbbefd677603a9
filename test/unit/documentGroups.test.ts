/**
 * The Documents view's groups (src/documents/documentsModel.ts) in plain Node, against the sandbox over HTTP on
 * 127.0.0.1: which groups the root shows (Hide Empty Templates, a sort), the counts arriving by themselves
 * (one walk of All Documents for a small account, paced requests otherwise), the names of the templates
 * (the server's word over the seed table) and the account they belong to (a change of key or server).
 */
import assert from 'node:assert/strict';
import { createApi, type ContentApi, type ContentDocument, type DocumentListQuery } from '../../src/api';
import { templateName } from '../../src/api/templates';
import { DocumentsModel, type DocumentPage, type DocumentSource, type DocumentsModelHost } from '../../src/documents/documentsModel';
import { Emitter } from '../../src/model/emitter';
import type { DocNode, DocumentsViewState, GroupNode } from '../../src/model/nodes';
import type { ApiProvider } from '../../src/accounts/apiProvider';
import { DocumentService } from '../../src/documents/documentService';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';

const AT = new Date('2026-06-01T10:00:00Z');

function put(sb: Sandbox, id: number, name: string, templateId: number | null, extra: Partial<SandboxDocument> = {}): void {
  sb.documents.set(id, { id, name, templateId, result: `Text of ${name}`, words: 3, favorite: false, createdAt: AT, updatedAt: AT, ...extra });
}

interface Options {
  hideEmpty?: boolean;
  /** Whether the view is on screen (counts are then wanted without Hide Empty). */
  visible?: boolean;
  saved?: unknown;
  server?: string;
  /** Runs after each list page the model gets (to change the server while a walk is under way). */
  afterList?: (query: DocumentListQuery, page: DocumentPage) => void;
}

/** A model on the real service and client, with settings the test controls. */
function setup(sb: Sandbox, opts: Options = {}) {
  const client: ContentApi = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
  const serverChange = new Emitter<void>();
  const signIn = new Emitter<boolean>();
  const api = { get: () => client, onDidChangeServer: serverChange.event } as unknown as ApiProvider;
  const service = new DocumentService(api);
  const source: DocumentSource = {
    list: async (query, signal) => {
      const page = await service.list(query, signal);
      opts.afterList?.(query, page);
      return page;
    },
    onDidChange: service.onDidChange,
    onDidDelete: service.onDidDelete,
    onDidCreate: service.onDidCreate,
  };
  const settings = { hideEmpty: opts.hideEmpty ?? false, visible: opts.visible ?? false, key: true, server: opts.server ?? 'https://one.example' };
  const persisted: DocumentsViewState[] = [];
  const host: DocumentsModelHost = {
    hasKey: () => Promise.resolve(settings.key),
    onDidChangeSignIn: signIn.event,
    pageSize: () => 10,
    defaultSort: () => 'newest',
    hideEmpty: () => settings.hideEmpty,
    countsWanted: () => settings.visible,
    server: () => settings.server,
    persist: (s) => {
      persisted.push(s);
      return Promise.resolve();
    },
    progress: (p) => p,
    log: { warn: () => undefined, debug: () => undefined },
  };
  const model = new DocumentsModel(source, host, opts.saved);
  model.countIntervalMs = 0;
  return {
    model,
    service,
    settings,
    persisted,
    signIn,
    serverChange,
    dispose() {
      model.dispose();
      service.dispose();
      client.dispose();
    },
  };
}

const keys = (groups: GroupNode[]) => groups.map((g) => g.key);
const listRequests = (sb: Sandbox) => sb.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/documents');
const docs = (rows: DocNode[]) => rows.filter((r) => r.kind === 'document');

describe('Documents view groups: counts, Hide Empty, template names, the account they belong to', () => {
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
    sb.setLatency(0);
    sb.resetRequests();
  });
  afterEach(() => {
    env?.dispose();
    env = undefined;
    sb.setLatency(0);
  });

  describe('the account the custom templates belong to', () => {
    it('another API key forgets the previous account\'s custom templates (groups and saved state)', async () => {
      put(sb, 1, 'Custom one', 77, { templateName: 'My Template' });
      env = setup(sb);
      await env.model.children(env.model.allGroup);
      assert.ok(env.model.templateGroup(77), 'learned from the page');
      // Another key: still signed in, another account.
      env.signIn.fire(true);
      assert.equal(env.model.templateGroup(77), undefined, 'the custom template went with the previous account');
      assert.ok(!env.model.templateGroups().some((g) => g.custom), 'no custom group left');
      assert.equal(env.persisted.at(-1)?.customTemplates, undefined, 'nor in the saved state');
    });

    it('another documents server forgets them too', async () => {
      put(sb, 1, 'Custom one', 77, { templateName: 'My Template' });
      env = setup(sb);
      await env.model.children(env.model.allGroup);
      assert.ok(env.model.templateGroup(77));
      env.settings.server = 'https://two.example';
      env.model.serverChanged();
      assert.equal(env.model.templateGroup(77), undefined);
      assert.equal(env.persisted.at(-1)?.customTemplates, undefined);
    });

    it('templates saved for another server are not restored (the address changed while no window was open)', async () => {
      put(sb, 1, 'Custom one', 77, { templateName: 'My Template' });
      env = setup(sb);
      await env.model.children(env.model.allGroup);
      const saved = env.persisted.at(-1);
      assert.deepEqual(saved?.customTemplates, [[77, 'My Template']]);
      const same = setup(sb, { saved });
      assert.equal(same.model.templateGroup(77)?.name, 'My Template', 'same server: restored');
      same.dispose();
      const other = setup(sb, { saved, server: 'https://two.example' });
      assert.equal(other.model.templateGroup(77), undefined, 'another server: not this account\'s');
      other.dispose();
    });
  });

  describe('template names', () => {
    it('a built-in template takes the server\'s name once a document shows it; kept per account, the seed table otherwise', async () => {
      assert.equal(templateName(33), 'Tweet', 'the seed table is the fallback');
      assert.equal(templateName(33, 'Social media quote'), 'Social media quote', 'the server\'s word first');
      put(sb, 1, 'A quote', 33, { templateName: 'Social media quote' });
      put(sb, 2, 'A bio', 34, { templateName: 'Social media bio' });
      env = setup(sb);
      assert.equal(env.model.templateGroup(33)?.name, 'Tweet');
      await env.model.children(env.model.allGroup);
      assert.equal(env.model.templateGroup(33)?.name, 'Social media quote');
      assert.equal(env.model.templateGroup(34)?.name, 'Social media bio');
      const names = env.model.templateGroups().map((g) => g.name);
      assert.ok(names.indexOf('Social media bio') < names.indexOf('Social post'), 'placed by its new name');
      assert.ok(!names.includes('Tweet'));
      const saved = env.persisted.at(-1);
      const reloaded = setup(sb, { saved });
      assert.equal(reloaded.model.templateGroup(33)?.name, 'Social media quote', 'remembered');
      reloaded.dispose();
      env.signIn.fire(true);
      assert.equal(env.model.templateGroup(33)?.name, 'Tweet', 'another account: the seed table again');
    });
  });

  describe('Hide Empty Templates and the sort', () => {
    it('a sort keeps every group and its count: Favorites stays with Hide Empty on, and keeps its count when shown again', async () => {
      for (let i = 1; i <= 12; i++) put(sb, i, `Doc ${i}`, 4, { favorite: i % 2 === 0 });
      env = setup(sb);
      // Favorites read first (its count comes from its list), then Hide Empty turned on.
      await env.model.children(env.model.favoritesGroup);
      assert.equal(env.model.countOf('favorites'), 6);
      env.settings.hideEmpty = true;
      env.model.hideEmptyChanged();
      await env.model.rootChildren();
      await env.model.countingDone;
      await env.model.setSort('nameAsc');
      const root = keys(await env.model.rootChildren());
      assert.ok(root.includes('favorites'), `Favorites still shown: ${root.join(' ')}`);
      assert.equal(env.model.countOf('favorites'), 6, 'with its count');
      assert.ok(root.includes('t4'));
      env.settings.hideEmpty = false;
      env.model.hideEmptyChanged();
      assert.ok(keys(await env.model.rootChildren()).includes('favorites'));
      assert.equal(env.model.countOf('favorites'), 6, 'Show Empty: still counted');
    });

    it('a filter hides empty templates only: All Documents, Favorites and Search results stay when empty', async () => {
      put(sb, 1, 'Plain', 4);
      env = setup(sb, { hideEmpty: true });
      await env.model.rootChildren();
      await env.model.countingDone;
      env.model.setSearch({ text: 'nothing like it', by: 'name' });
      await env.model.children(env.model.searchGroup!);
      const root = keys(await env.model.rootChildren());
      assert.equal(env.model.countOf('favorites'), 0);
      assert.deepEqual(root.slice(0, 3), ['search', 'all', 'favorites']);
      assert.ok(root.includes('t4'));
      assert.ok(!root.includes('t9'), 'an empty template is hidden');
    });

    it('nothing is hidden before it is counted: the first root shows every template', async () => {
      put(sb, 1, 'Plain', 4);
      sb.setLatency(30);
      env = setup(sb, { hideEmpty: true });
      const first = await env.model.rootChildren();
      assert.equal(env.model.counting.state, 'running');
      assert.ok(first.filter((g) => g.kind === 'template').length >= 52, `templates shown while not counted: ${first.length}`);
      await env.model.countingDone;
      const root = keys(await env.model.rootChildren());
      assert.deepEqual(root, ['all', 'favorites', 't4']);
    });

    it('a custom template found after counting started is counted and shown', async () => {
      put(sb, 1, 'Plain', 4);
      put(sb, 2, 'Custom one', 77, { templateName: 'My Template' });
      put(sb, 3, 'Custom two', 77, { templateName: 'My Template' });
      sb.setLatency(20);
      env = setup(sb, { hideEmpty: true });
      env.model.countWalkMaxPages = 0; // one request per group
      await env.model.rootChildren();
      assert.equal(env.model.counting.state, 'running');
      await env.model.children(env.model.allGroup);
      assert.ok(env.model.templateGroup(77), 'found while counting');
      await env.model.countingDone;
      assert.equal(env.model.countOf('t77'), 2, 'counted');
      assert.ok(keys(await env.model.rootChildren()).includes('t77'), 'and shown');

      // Found after counting ended: counted too.
      put(sb, 4, 'Later', 88, { templateName: 'Later Template' });
      await env.service.fetch(4);
      assert.ok(env.model.templateGroup(88));
      assert.ok(keys(await env.model.rootChildren()).includes('t88'), 'shown before it is counted');
      await env.model.countingDone;
      assert.equal(env.model.countOf('t88'), 1);
    });
  });

  describe('counts that arrive by themselves', () => {
    it('a small account is counted from one walk of All Documents, 100 a page, when the view is shown', async () => {
      let id = 0;
      for (let i = 0; i < 130; i++) put(sb, ++id, `A ${i}`, 4, { favorite: i < 7 });
      for (let i = 0; i < 40; i++) put(sb, ++id, `B ${i}`, 9);
      put(sb, ++id, 'Mine', 77, { templateName: 'My Template' });
      put(sb, id + 1, 'Gone', null);
      env = setup(sb, { visible: true });
      await env.model.rootChildren();
      await env.model.countingDone;
      const asked = listRequests(sb);
      assert.equal(asked.length, 2, `two pages of 100: ${asked.map((r) => JSON.stringify(r.query)).join(' ')}`);
      assert.ok(asked.every((r) => r.query.per_page === '100' && r.query.sort_by === 'id'));
      assert.equal(env.model.countOf('all'), 172);
      assert.equal(env.model.countOf('favorites'), 7);
      assert.equal(env.model.countOf('t4'), 130);
      assert.equal(env.model.countOf('t9'), 40);
      assert.equal(env.model.countOf('t1'), 0);
      assert.equal(env.model.countOf('t77'), 1);
      assert.equal(env.model.countOf('other'), 2);
      for (const g of env.model.templateGroups()) assert.equal(typeof env.model.countOf(g.key), 'number', g.name);
    });

    it('the view hidden in the turn before the count\'s first request (Hide Empty off): nothing is sent; shown again, it counts', async () => {
      put(sb, 1, 'Plain', 4);
      env = setup(sb, { visible: true });
      await env.model.rootChildren();
      assert.equal(env.model.counting.state, 'running');
      env.settings.visible = false;
      env.model.visibilityChanged();
      await env.model.countingDone;
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(listRequests(sb).map((r) => JSON.stringify(r.query)), [], 'counts no longer wanted: nothing sent');
      assert.equal(env.model.counting.state, 'idle');
      env.settings.visible = true;
      env.model.visibilityChanged();
      await env.model.rootChildren();
      await env.model.countingDone;
      assert.equal(env.model.countOf('t4'), 1);
      assert.equal(listRequests(sb).length, 1, 'one walk of All Documents');
    });

    it('not shown and Hide Empty off: nothing is counted', async () => {
      put(sb, 1, 'Plain', 4);
      env = setup(sb);
      await env.model.rootChildren();
      await env.model.countingDone;
      assert.equal(listRequests(sb).length, 0);
    });

    it('a walk that saw the list move is done again: the counts are the server\'s after the change', async () => {
      let id = 0;
      for (let i = 0; i < 150; i++) put(sb, ++id, `A ${i}`, i < 50 ? 4 : 9);
      let changed = false;
      env = setup(sb, {
        visible: true,
        afterList: (q) => {
          // Someone else deletes a document of the first page and creates one, while page 2 is still to come.
          if (!changed && q.perPage === 100 && q.page === 1) {
            changed = true;
            sb.documents.delete(3);
            put(sb, 1000, 'New', 9);
            put(sb, 1001, 'Newer', 9);
          }
        },
      });
      await env.model.rootChildren();
      await env.model.countingDone;
      assert.ok(changed);
      assert.equal(env.model.countOf('all'), 151);
      assert.equal(env.model.countOf('t4'), 49);
      assert.equal(env.model.countOf('t9'), 102);
    });

    it('a large account is counted one group at a time (the walk\'s first page gives All Documents)', async () => {
      let id = 0;
      for (let i = 0; i < 120; i++) put(sb, ++id, `A ${i}`, 4);
      env = setup(sb, { visible: true });
      env.model.countWalkMaxPages = 1;
      await env.model.rootChildren();
      await env.model.countingDone;
      const asked = listRequests(sb);
      assert.equal(asked[0].query.per_page, '100');
      assert.ok(asked.slice(1).every((r) => r.query.per_page === '10'));
      assert.ok(!asked.slice(1).some((r) => r.query.template_id === undefined && r.query.favorite === undefined), 'All Documents is not asked again');
      assert.equal(env.model.countOf('all'), 120);
      assert.equal(env.model.countOf('t4'), 120);
      assert.equal(env.model.countOf('t5'), 0);
      assert.equal(docs(await env.model.children(env.model.templateGroup(4)!)).length, 10);
    });
  });
});

describe('Documents view groups: a count asked while a document is created', () => {
  it('a template count asked while the user creates its first document counts that document (Hide Empty does not hide the group)', async () => {
    const doc = (id: number, templateId: number): ContentDocument =>
      ({ id, name: `Doc ${id}`, template: { id: templateId, name: '' }, favorite: false, result: 'x', words: 1, created_at: null, updated_at: null }) as unknown as ContentDocument;
    const docs: ContentDocument[] = [doc(1, 1), doc(2, 1)];
    const changed = new Emitter<{ doc: ContentDocument; previous: ContentDocument | undefined }>();
    const deleted = new Emitter<ContentDocument | { id: number }>();
    const created = new Emitter<ContentDocument>();
    const source: DocumentSource = {
      onDidChange: changed.event,
      onDidDelete: deleted.event,
      onDidCreate: created.event,
      list(q: DocumentListQuery): Promise<DocumentPage> {
        // The server answers from what it has now...
        const rows = docs.filter((d) => q.templateId === undefined || d.template?.id === q.templateId);
        const page: DocumentPage = { items: rows.slice(0, q.perPage ?? 10), page: 1, perPage: q.perPage, total: rows.length, lastPage: 1, hasMore: false, changed: [] };
        // ...and while that answer is on the wire, the user creates the first document of template 2 here.
        if (q.templateId === 2 && !docs.some((d) => d.id === 3)) {
          const d = doc(3, 2);
          docs.push(d);
          created.fire(d);
        }
        return Promise.resolve(page);
      },
    };
    const model = new DocumentsModel(
      source,
      {
        hasKey: () => Promise.resolve(true),
        onDidChangeSignIn: new Emitter<boolean>().event,
        pageSize: () => 10,
        defaultSort: () => 'newest',
        hideEmpty: () => true,
        persist: () => Promise.resolve(),
        progress: (p) => p,
        log: { warn: () => undefined, debug: () => undefined },
      },
      undefined,
    );
    model.countIntervalMs = 0;
    // One request per group (the walk of All Documents is for small accounts; here it is turned off).
    model.countWalkMaxPages = 0;
    try {
      await model.rootChildren();
      await model.countingDone;
      assert.equal(docs.filter((d) => d.template?.id === 2).length, 1, 'the server has one document of template 2');
      assert.equal(model.count('t2'), 1, `template 2 is counted ${String(model.count('t2'))}: its document created while the count was on the wire is left out`);
      const shown = (await model.rootChildren()).map((g) => g.key);
      assert.ok(shown.includes('t2'), 'Hide Empty Templates hides a template that has a document');
    } finally {
      model.dispose();
    }
  });
});
