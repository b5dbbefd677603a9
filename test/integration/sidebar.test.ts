/**
 * The sidebar inside a real VS Code against the sandbox: sign-in (good and bad key) and sign-out, the
 * Documents view (template groups with counts, paging, Favorites, search by name and in the text, each
 * sort, Favorites only, Hide Empty Templates with paced background counts), the document commands
 * (rename, favorite, copy, delete with its confirmation), error items with Retry, the requests each
 * action costs on the wire, and a screenshot of both views.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { CMD, STATE } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { DocumentsTreeProvider } from '../../src/documents/documentsTree';
import { documentsModelOf } from '../../src/documents/modelOfAccount';
import type { DocNode, DocumentNode, GroupNode, TemplateGroupNode } from '../../src/model/nodes';
import type { Prompter } from '../../src/ui/prompter';
import { documentOrder, likeMatcher, startSandbox, type RequestRecord, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { press, read, screenshot } from './harness';
import { accountNow, configure, labelText, MessageCapture, openDocument, questionText, RecordingPrompter, SCHEME, services, sleep, until } from './reliabilityKit';

const PAGE = 10;

let sandbox: Sandbox;
let s: TestServices;
/** The models this suite counts without pause, and the pause a model has by default (put back at the end). */
const unpaced = new WeakSet<object>();
let defaultInterval: number | undefined;

/**
 * The Documents tree of the settings' account as it is now, counting without pause. Signing in again, another key or
 * another server makes another account with its own tree and model: a tree (or a group or row of it) held across such
 * a change is the old account's, which the view no longer shows. So it is read again at every use, only while signed
 * in (signed out, there is no account to have a tree: the view itself lists nothing).
 */
function tree(): DocumentsTreeProvider {
  const t = s.documentsTree;
  if (!unpaced.has(t.model)) {
    unpaced.add(t.model);
    defaultInterval ??= t.model.countIntervalMs;
    t.model.countIntervalMs = 0;
  }
  return t;
}

/** The view's state as the settings' account keeps it in globalState (under its label: each account keeps its own). */
function savedState(): { sort?: string; search?: unknown } | undefined {
  return s.context.globalState.get(`${STATE.documentsView}.${s.first.label}`);
}

// --- The scripted user ---------------------------------------------------------------------------------

/** Answers the extension's questions from its queues; a confirmation nobody scripted is declined. */
const prompter = new RecordingPrompter();

/** Captures the messages the product shows through vscode.window (and dismisses them). */
const messages = new MessageCapture();

// --- Reading the sandbox and the tree ----------------------------------------------------------------

function lists(filter: (q: Record<string, string>) => boolean = () => true): RequestRecord[] {
  return sandbox.requests.filter((r) => r.route === 'documents.list' && filter(r.query));
}

function allDocs(): SandboxDocument[] {
  return [...sandbox.documents.values()];
}

/** Whether the server's search (`LIKE '%term%'` under the collation) finds a text. */
function finds(text: string, term: string): boolean {
  return likeMatcher(`%${term}%`)(text);
}

/** The ids the server lists for a filter and sort, in its order (ties as it orders them for this page size). */
function expected(filter: (d: SandboxDocument) => boolean, sort: 'newest' | 'oldest' | 'nameAsc' | 'nameDesc'): number[] {
  const dir = sort === 'oldest' || sort === 'nameAsc' ? 'asc' : 'desc';
  const byName = sort === 'nameAsc' || sort === 'nameDesc';
  return allDocs()
    .filter(filter)
    .sort(documentOrder(byName ? 'name' : 'id', dir, PAGE))
    .map((d) => d.id);
}

function group(templateId: number): TemplateGroupNode {
  const g = tree().templateGroup(templateId);
  assert.ok(g, `a group for template ${templateId}`);
  return g;
}

async function children(node?: DocNode): Promise<DocNode[]> {
  return (await tree().getChildren(node)) ?? [];
}

async function docNodes(g: GroupNode): Promise<DocumentNode[]> {
  return (await children(g)).filter((n): n is DocumentNode => n.kind === 'document');
}

function label(n: DocNode): string {
  const l = tree().getTreeItem(n).label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

function describe_(n: DocNode): string {
  const d = tree().getTreeItem(n).description;
  return typeof d === 'string' ? d : '';
}

function icon(n: DocNode): string | undefined {
  const i = tree().getTreeItem(n).iconPath;
  return i instanceof vscode.ThemeIcon ? i.id : undefined;
}

/** Loads every page of a group through Load more. */
async function loadAll(g: GroupNode): Promise<DocumentNode[]> {
  for (let i = 0; i < 100; i++) {
    const more = (await children(g)).find((n) => n.kind === 'loadMore');
    if (!more) break;
    await vscode.commands.executeCommand(CMD.documentsLoadMore, more);
  }
  return docNodes(g);
}

/** A template with `min`..`max` documents, none of them special. */
function templateWith(min: number, max: number, not: number[] = []): number {
  for (let id = 2; id <= 52; id++) {
    if (not.includes(id)) continue;
    const n = allDocs().filter((d) => d.templateId === id).length;
    if (n >= min && n <= max) return id;
  }
  throw new Error('no such template in the seed');
}

const used = new Set<number>();
function plainDocument(predicate: (d: SandboxDocument) => boolean): SandboxDocument {
  for (const d of allDocs().sort((a, b) => b.id - a.id)) {
    if (used.has(d.id) || d.templateId === null || d.templateId > 52 || !d.result || !/^[\p{L}\p{N} ,.:'–-]+$/u.test(d.name) || d.name !== d.name.trim()) continue;
    if (!predicate(d)) continue;
    used.add(d.id);
    return d;
  }
  throw new Error('no document left in the seed for this test');
}

/** Puts the view back to its defaults, with empty caches and a fresh request log. */
async function resetView(): Promise<void> {
  sandbox.clearFaults();
  // Signed out there is no account, hence no view state to put back.
  if (s.firstOrNone) {
    tree().model.setSearch(undefined);
    await tree().model.setFavoritesOnly(false);
    await tree().model.setSort('newest');
  }
  await configure('documents.hideEmptyTemplates', undefined);
  if (s.firstOrNone) tree().model.refresh();
  prompter.reset();
  messages.clear();
  await sleep(20);
  sandbox.resetRequests();
}

const measured: Record<string, number> = {};

describe('sidebar: sign-in, the Documents view and the document commands', function () {
  this.timeout(60_000);
  let previousPrompter: Prompter | undefined;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
    await configure('documents.pageSize', PAGE);
    await configure('documents.defaultSort', undefined);
    previousPrompter = s.prompter.current;
    s.prompter.current = prompter;
    assert.ok(messages.install().patched, 'the messages the extension shows can be observed in this host');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  after(async () => {
    messages.dispose();
    if (previousPrompter) s.prompter.current = previousPrompter;
    if (s.firstOrNone) {
      tree().model.setSearch(undefined);
      await tree().model.setFavoritesOnly(false);
      if (defaultInterval !== undefined) tree().model.countIntervalMs = defaultInterval;
    }
    await configure('documents.pageSize', undefined);
    await configure('documents.hideEmptyTemplates', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // A Documents view left on screen reads its counts in the background: the next suites' requests would include them.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    console.log(`[sidebar] requests measured: ${JSON.stringify(measured)}`);
    await sandbox?.close();
  });

  describe('sign-in', () => {
    it('a bad key: one probe, answered 401; nothing stored; the user is told under the key box', async () => {
      await s.credentials.clearKey();
      await resetView();
      prompter.inputs = ['not-the-right-key'];
      const ok = await vscode.commands.executeCommand(CMD.signIn);
      assert.strictEqual(ok, false);
      assert.strictEqual(prompter.asked[0]?.password, true, 'the key is asked with a password input');
      assert.deepStrictEqual(
        sandbox.requests.map((r) => [r.route, r.status, r.authorized]),
        [['account', 401, false]],
      );
      assert.strictEqual(await s.credentials.getKey(), undefined, 'nothing stored');
      assert.deepStrictEqual(prompter.checked.map((c) => c.value), ['not-the-right-key'], 'the key box closed on Escape after one try');
      assert.match(prompter.checked[0].problem ?? '', /did not accept this API key/i);
      assert.ok(!messages.shown.some((m) => m.level === 'error'), JSON.stringify(messages.shown));
      // Signed out there is no account (hence no tree of it): the view itself lists nothing.
      assert.strictEqual(s.firstOrNone, undefined, 'no account signed in');
      assert.deepStrictEqual(await s.documentsView.getChildren(), [], 'signed out: the view is empty (the welcome view shows)');
    });

    it('a good key: one probe on /account, then stored in SecretStorage; the view fills without a request', async () => {
      await resetView();
      prompter.inputs = [sandbox.key];
      const ok = await vscode.commands.executeCommand(CMD.signIn);
      assert.strictEqual(ok, true);
      assert.deepStrictEqual(
        sandbox.requests.map((r) => [r.route, r.status, r.authorized]),
        [['account', 200, true]],
      );
      assert.strictEqual(sandbox.requests[0].authorizationHeader, `Bearer ${sandbox.key}`);
      assert.strictEqual(await s.credentials.getKey(), sandbox.key);
      sandbox.resetRequests();
      const root = await children();
      assert.ok(root.length >= 53, `groups shown: ${root.length}`);
      assert.strictEqual(sandbox.requests.length, 0, 'opening the Documents view costs no request');
    });

    it('Sign Out: the key goes, the view empties and its cache is dropped', async () => {
      await resetView();
      const signedOut = tree();
      // The group as the view shows it (a row the view handed out, as VS Code holds it).
      const g = (await s.documentsView.getChildren()).find((n) => n.kind === 'template' && n.templateId === 1);
      assert.ok(g, 'the Freestyle group is shown');
      await s.documentsView.getChildren(g);
      assert.strictEqual(lists().length, 1);
      await vscode.commands.executeCommand(CMD.signOut);
      assert.strictEqual(await s.credentials.getKey(), undefined);
      assert.strictEqual(s.firstOrNone, undefined, 'no account signed in');
      assert.deepStrictEqual(await s.documentsView.getChildren(), []);
      assert.deepStrictEqual(await s.documentsView.getChildren(g), [], 'a row of the account signed out lists nothing');
      assert.strictEqual(lists().length, 1, 'signed out: no request');
      await s.credentials.setKey(sandbox.key);
      await until('the view back', async () => (await s.documentsView.getChildren()).length > 0);
      // The same server and key again: the same label, but a new account, with its own tree and an empty cache.
      // (Under the old model the tree and its groups stayed the same objects and only the cache was dropped.)
      assert.notStrictEqual(tree(), signedOut, 'signed in again: a new account, with its own tree');
      assert.deepStrictEqual(await s.documentsView.getChildren(g), [], 'the old account\'s group still lists nothing');
      assert.strictEqual(lists().length, 1, 'nor asks anything');
      await children(group(1));
      assert.strictEqual(lists().length, 2, 'signed in again: the group is read again (the cache was dropped)');
    });
  });

  describe('Documents view', () => {
    beforeEach(resetView);

    it('lists the 52 templates and Favorites by name, from the local table: no request, counts unknown', async () => {
      const root = await children();
      const groups = root.filter((n): n is TemplateGroupNode => n.kind === 'template');
      assert.ok(groups.length >= 52);
      const names = groups.map((g) => g.name);
      for (const n of ['Freestyle', 'Article', 'Blog post', 'Feature section', 'Pain-Agitate-Solution']) assert.ok(names.includes(n), n);
      const sorted = [...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
      assert.deepStrictEqual(names, sorted, 'sorted by name');
      assert.strictEqual(root[0].kind, 'all');
      assert.strictEqual(label(root[0]), 'All Documents');
      assert.strictEqual(icon(root[0]), 'files');
      assert.strictEqual(root[1].kind, 'favorites');
      assert.strictEqual(label(root[1]), 'Favorites');
      assert.strictEqual(icon(root[1]), 'star-full');
      assert.strictEqual(root[root.length - 1].kind, 'other');
      assert.strictEqual(label(root[root.length - 1]), 'Other templates');
      for (const g of groups.slice(0, 5)) {
        const item = tree().getTreeItem(g);
        assert.strictEqual(item.description, undefined, 'no count before it is known');
        assert.strictEqual(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
        assert.strictEqual(item.id, `group:${g.key}`);
      }
      assert.strictEqual(sandbox.requests.length, 0);
      measured.openDocumentsView = sandbox.requests.length;
    });

    it('expanding a template: one request (template_id, page size from the settings), its count, rows as specified', async () => {
      const article = group(4);
      const total = allDocs().filter((d) => d.templateId === 4).length;
      const kids = await children(article);
      assert.strictEqual(lists().length, 1);
      measured.expandTemplate = lists().length;
      const q = lists()[0].query;
      assert.deepStrictEqual(
        { template_id: q.template_id, per_page: q.per_page, page: q.page, sort_by: q.sort_by, sort: q.sort },
        { template_id: '4', per_page: String(PAGE), page: '1', sort_by: 'id', sort: 'desc' },
      );
      const docs = kids.filter((n): n is DocumentNode => n.kind === 'document');
      assert.strictEqual(docs.length, PAGE);
      assert.strictEqual(kids[kids.length - 1].kind, 'loadMore');
      assert.strictEqual(describe_(article), String(total), 'the group shows its count');
      assert.deepStrictEqual(docs.map((d) => d.doc.id), expected((d) => d.templateId === 4, 'newest').slice(0, PAGE));

      const d = docs[0];
      const src = sandbox.documents.get(d.doc.id)!;
      const item = tree().getTreeItem(d);
      assert.strictEqual(item.label, src.name.trim() || 'Untitled');
      assert.match(String(item.description), /^\d+ words? · created .+/);
      assert.ok(String(item.description).startsWith(`${src.words} word`));
      assert.strictEqual(item.id, `doc:t4:${src.id}`);
      assert.strictEqual(item.contextValue, src.favorite ? 'document:favorite' : 'document');
      assert.strictEqual(icon(d), src.favorite ? 'star-full' : 'markdown');
      assert.strictEqual(item.command?.command, CMD.documentOpen);
      assert.deepStrictEqual(item.command?.arguments, [{ id: src.id }]);
      const resolved = tree().resolveTreeItem(item, d);
      const tip = resolved.tooltip as vscode.MarkdownString;
      assert.ok(tip instanceof vscode.MarkdownString);
      for (const part of ['Template: Article', 'Words:', 'Created:', 'Updated:']) assert.ok(tip.value.includes(part), `${part} in ${tip.value}`);

      // Expanding again, and a second caller while the first is in flight, cost nothing more.
      await children(article);
      const blog = group(9);
      await Promise.all([children(blog), children(blog), children(blog)]);
      assert.strictEqual(lists().length, 2, 'cached per group; concurrent loads deduped');
    });

    it('Load more: one request per page, appended to that group only; the last page has no Load more', async () => {
      const article = group(4);
      const freestyle = group(1);
      await children(freestyle);
      await children(article);
      sandbox.resetRequests();
      const more = (await children(article)).find((n) => n.kind === 'loadMore')!;
      const total = allDocs().filter((d) => d.templateId === 4).length;
      assert.strictEqual(describe_(more), `${PAGE} of ${total}`);
      assert.strictEqual(tree().getTreeItem(more).command?.command, CMD.documentsLoadMore);
      await vscode.commands.executeCommand(CMD.documentsLoadMore, more);
      assert.deepStrictEqual(lists().map((r) => [r.query.template_id, r.query.page]), [['4', '2']]);
      measured.loadMore = lists().length;
      assert.strictEqual((await docNodes(article)).length, 2 * PAGE);
      const all = await loadAll(article);
      assert.deepStrictEqual(all.map((d) => d.doc.id), expected((d) => d.templateId === 4, 'newest'), 'every document once, in order');
      assert.ok(!(await children(article)).some((n) => n.kind === 'loadMore'));
      assert.strictEqual(lists().length, Math.ceil(total / PAGE) - 1, 'one request per further page');
      assert.ok(lists().every((r) => r.query.template_id === '4'), 'no other group was read');
    });

    it('a custom template (id above 52) seen in a list becomes a group named by the server; an empty group says so; a blank name reads "Untitled"', async () => {
      const custom = allDocs().find((d) => d.templateId === 60)!;
      prompter.picks = [(items) => items[0]];
      prompter.inputs = [custom.name];
      await vscode.commands.executeCommand(CMD.documentsSearch);
      const g = tree().templateGroup(60);
      assert.ok(g, 'a group for template 60');
      assert.strictEqual(g.name, 'Custom: Landing page');
      assert.ok((await children()).includes(g));
      assert.strictEqual(tree().getTreeItem(g).contextValue, 'template:custom');
      sandbox.resetRequests();
      const docs = await docNodes(g);
      assert.deepStrictEqual(docs.map((d) => d.doc.id), expected((d) => d.templateId === 60, 'newest'));
      assert.strictEqual(lists()[0].query.template_id, '60');

      // Empty a small template on the server, blank one name elsewhere.
      const emptyId = templateWith(1, 2);
      for (const d of allDocs()) if (d.templateId === emptyId) sandbox.documents.delete(d.id);
      const blank = plainDocument((d) => d.templateId === templateWith(2, 4, [emptyId]));
      const oldName = blank.name;
      blank.name = '   ';
      try {
        tree().model.refresh();
        const kids = await children(group(emptyId));
        assert.strictEqual(kids.length, 1);
        assert.strictEqual(kids[0].kind, 'empty');
        assert.strictEqual(label(kids[0]), 'No documents');
        assert.strictEqual(describe_(group(emptyId)), '0');
        const row = (await docNodes(group(blank.templateId!))).find((d) => d.doc.id === blank.id)!;
        assert.strictEqual(label(row), 'Untitled');
      } finally {
        blank.name = oldName;
      }
    });

    it('Favorites: one request (favorite=1), every row starred, count shown', async () => {
      const fav = tree().model.favoritesGroup;
      const docs = await loadAll(fav);
      const want = expected((d) => d.favorite, 'newest');
      assert.deepStrictEqual(docs.map((d) => d.doc.id), want);
      assert.ok(lists().every((r) => r.query.favorite === '1' && r.query.template_id === undefined));
      assert.strictEqual(lists().length, Math.ceil(want.length / PAGE));
      assert.strictEqual(describe_(fav), String(want.length));
      for (const d of docs) {
        assert.strictEqual(icon(d), 'star-full');
        assert.strictEqual(tree().getTreeItem(d).contextValue, 'document:favorite');
        assert.strictEqual(tree().getTreeItem(d).id, `doc:favorites:${d.doc.id}`, 'row ids are unique per group');
      }
    });

    it('Search by name: one box, the words first (by name unless its toggle says in the text), Enter searches; one request; results in their own group, cleared with one click', async () => {
      prompter.inputs = ['café'];
      await vscode.commands.executeCommand(CMD.documentsSearch);
      assert.deepStrictEqual(prompter.asked.map((a) => a.kind), ['input'], 'one question: the words');
      assert.strictEqual(prompter.asked[0].title, 'Search Documents');
      assert.deepStrictEqual(prompter.asked[0].toggles, { text: false }, 'by name by default: the "in the text" toggle is off');
      assert.match(prompter.asked[0].prompt ?? '', /^Searching the documents' names/, 'the line under the box says what is searched');
      assert.strictEqual(lists().length, 1);
      measured.search = lists().length;
      assert.strictEqual(lists()[0].query.search, 'café');
      assert.strictEqual(lists()[0].query.search_by, 'name');
      const root = await children();
      const g = root[0];
      assert.strictEqual(g.kind, 'searchResults');
      const item = tree().getTreeItem(g);
      assert.strictEqual(item.label, 'Search results: "café"');
      assert.strictEqual(item.contextValue, 'searchResults');
      assert.strictEqual(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
      const want = expected((d) => finds(d.name, 'cafe'), 'newest');
      assert.ok(want.length >= 2, 'the seed has accented and unaccented matches');
      assert.deepStrictEqual((await docNodes(g as GroupNode)).map((d) => d.doc.id), want);
      assert.strictEqual(item.description, String(want.length));
      assert.strictEqual(lists().length, 1, 'showing the results costs nothing more');
      assert.deepStrictEqual(savedState()?.search, { text: 'café', by: 'name' });

      await vscode.commands.executeCommand(CMD.documentsClearSearch);
      assert.ok(!(await children()).some((n) => n.kind === 'searchResults'));
      assert.strictEqual(tree().model.search, undefined);
      assert.strictEqual(lists().length, 1, 'clearing costs nothing');
    });

    it('Search in the text: the words, then the toggle, then Enter: search_by=result, accent-insensitive; a search with no match says so', async () => {
      prompter.toggled = [{ value: 'DELICIEUX', press: ['text'] }];
      const toggles: Array<{ id: string; icon: string; tooltip: string }> = [];
      const ask = prompter.inputToggled.bind(prompter);
      prompter.inputToggled = (o) => (toggles.push(...o.toggles), ask(o));
      try {
        await vscode.commands.executeCommand(CMD.documentsSearch);
      } finally {
        prompter.inputToggled = ask;
      }
      assert.deepStrictEqual(
        toggles.map((t) => [t.id, t.tooltip]),
        [['text', 'Search in the Text']],
      );
      assert.notStrictEqual(toggles[0].icon, 'whole-word', 'the toggle does not wear Match Whole Word\'s icon (ab̲ in Find and Search)');
      assert.strictEqual(toggles[0].icon, 'file-text');
      assert.deepStrictEqual(prompter.asked.map((a) => a.kind), ['input'], 'one question: the words, with the toggle in the same box');
      assert.strictEqual(lists().length, 1);
      assert.strictEqual(lists()[0].query.search_by, 'result');
      const g = tree().searchGroup!;
      assert.strictEqual(label(g), 'Search results in text: "DELICIEUX"');
      const want = expected((d) => d.result !== null && finds(d.result, 'delicieux'), 'newest');
      assert.strictEqual(want.length, 1);
      const [hit] = await docNodes(g);
      assert.deepStrictEqual([hit.doc.id], want);
      // Where the words are: the passage around them leads the row's description, and the tooltip has them in bold.
      const found = sandbox.documents.get(hit.doc.id)!.result!;
      const passage = describe_(hit).split(' · ')[0];
      assert.match(passage, /délicieux/i, `${describe_(hit)}: the passage with the words found`);
      assert.ok(found.replace(/\s+/g, ' ').includes(passage.replace(/^…|…$/g, '')), `${passage}: a passage of the text`);
      const tip = tree().resolveTreeItem(tree().getTreeItem(hit), hit).tooltip as vscode.MarkdownString;
      assert.match(tip.value, /Found in the text: .*\*\*délicieux\*\*/i, tip.value);

      // The next search opens as the last one was made: its words selected, the toggle still on.
      prompter.inputs = ['no document has this name zzqx'];
      await vscode.commands.executeCommand(CMD.documentsSearch);
      assert.deepStrictEqual(prompter.asked[1].toggles, { text: true });
      assert.match(prompter.asked[1].prompt ?? '', /^Searching the documents' text/);
      assert.strictEqual(lists()[1].query.search_by, 'result');
      const kids = await children(tree().searchGroup);
      assert.strictEqual(kids.length, 1);
      assert.strictEqual(kids[0].kind, 'empty');
      assert.strictEqual(label(kids[0]), 'No documents match');
      assert.strictEqual(prompter.asked.filter((a) => a.kind === 'input')[1].value, 'DELICIEUX', 'the last search is prefilled');
    });

    for (const [sort, sortBy, dir] of [
      ['oldest', 'id', 'asc'],
      ['nameAsc', 'name', 'asc'],
      ['nameDesc', 'name', 'desc'],
      ['newest', 'id', 'desc'],
    ] as const) {
      it(`Sort: ${sort} (sort_by=${sortBy}, sort=${dir}), kept in globalState; unexpanded groups are not read`, async () => {
        if (sort === 'newest') await tree().model.setSort('oldest');
        sandbox.resetRequests();
        const labels: string[] = [];
        prompter.picks = [
          (items) => {
            labels.push(...items.map((i) => i.label));
            return items[['newest', 'oldest', 'nameAsc', 'nameDesc'].indexOf(sort)];
          },
        ];
        await vscode.commands.executeCommand(CMD.documentsSort);
        assert.strictEqual(labels.length, 4);
        assert.strictEqual(tree().model.sort, sort);
        assert.strictEqual(lists().length, 0, 'a sort reads nothing by itself');
        const freestyle = group(1);
        const docs = await docNodes(freestyle);
        assert.strictEqual(lists().length, 1);
        assert.deepStrictEqual([lists()[0].query.sort_by, lists()[0].query.sort], [sortBy, dir]);
        assert.deepStrictEqual(docs.map((d) => d.doc.id), expected((d) => d.templateId === 1, sort).slice(0, PAGE));
        assert.strictEqual(savedState()?.sort, sort);
      });
    }

    it('a row says the date its list is sorted by: created under the date sorts (a favorite, which bumps the update, leaves it), updated under the name sorts', async () => {
      // A document updated days after it was created (the two dates differ).
      const d = plainDocument((x) => !x.favorite && x.updatedAt.getTime() - x.createdAt.getTime() > 24 * 3600 * 1000);
      const rowOf = async () => (await loadAll(group(d.templateId!))).find((n) => n.doc.id === d.id)!;
      const before = describe_(await rowOf());
      assert.match(before, /^\d+ words? · created .+ ago$/, 'newest first is by creation: the row says when it was created');
      await vscode.commands.executeCommand(CMD.documentFavorite, await rowOf());
      assert.ok(sandbox.documents.get(d.id)!.updatedAt.getTime() > Date.now() - 60_000, 'the server bumped the update');
      assert.strictEqual(describe_(await rowOf()), before, 'the favorite left the date the list is sorted by');
      await tree().model.setSort('nameAsc');
      assert.match(describe_(await rowOf()), /^\d+ words? · updated just now$/, 'by name: the row says when it was last updated');
      await vscode.commands.executeCommand(CMD.documentUnfavorite, await rowOf());
    });

    it('a right-to-left name is isolated in its row (its word count stays on the left), and a left-to-right one is left as it is', async () => {
      const rtl = allDocs().find((x) => x.name === 'שלום – עמוד נחיתה');
      assert.ok(rtl && rtl.templateId, 'the seed has the right-to-left name');
      const row = (await loadAll(group(rtl.templateId))).find((n) => n.doc.id === rtl.id)!;
      assert.strictEqual(label(row), '\u2068שלום – עמוד נחיתה\u2069', 'the name between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE');
      assert.match(describe_(row), /^\d+ words? · /);
      const item = tree().getTreeItem(row);
      assert.ok(item.accessibilityInformation?.label.startsWith('שלום – עמוד נחיתה,'), 'a screen reader reads the name without the marks');
      const ltr = (await docNodes(group(4)))[0];
      assert.strictEqual(label(ltr), ltr.doc.name.trim() || 'Untitled', 'a left-to-right name is not wrapped (typing to find a row still matches it)');
    });

    it('New Document…\'s template step lists the templates in the view\'s order and under its names (Blog listicle beside Blog intro, not 41st)', async () => {
      const shown = tree().templateGroups().filter((g) => !g.custom).map((g) => g.name);
      let offered: string[] = [];
      prompter.inputs = ['Template order'];
      prompter.picks = [
        (items) => {
          offered = items.map((i) => i.label);
          return undefined;
        },
      ];
      await vscode.commands.executeCommand(CMD.documentNew);
      assert.strictEqual(offered.length, 52, 'the table\'s templates');
      assert.deepStrictEqual(offered, shown);
      assert.deepStrictEqual(offered.slice(offered.indexOf('Blog intro'), offered.indexOf('Blog intro') + 3), ['Blog intro', 'Blog listicle', 'Blog outline']);
      assert.deepStrictEqual(sandbox.requests.filter((r) => r.route === 'documents.store'), [], 'Escape at the template step creates nothing');
    });

    it('Favorites only: a title-bar toggle; every group lists favorites (favorite=1); the Favorites group steps aside', async () => {
      await vscode.commands.executeCommand(CMD.documentsFavoritesOnly);
      assert.strictEqual(tree().model.favoritesOnly, true);
      const root = await children();
      assert.ok(!root.some((n) => n.kind === 'favorites'));
      const freestyle = group(1);
      const docs = await loadAll(freestyle);
      assert.deepStrictEqual(docs.map((d) => d.doc.id), expected((d) => d.templateId === 1 && d.favorite, 'newest'));
      assert.ok(lists().every((r) => r.query.favorite === '1' && r.query.template_id === '1'));
      assert.strictEqual(describe_(freestyle), String(docs.length));
      await vscode.commands.executeCommand(CMD.documentsShowAll);
      assert.strictEqual(tree().model.favoritesOnly, false);
      assert.ok((await children()).some((n) => n.kind === 'favorites'));
      await children(freestyle);
      assert.strictEqual(lists().at(-1)!.query.favorite, undefined, 'all documents again');
    });

    it('sort, filter and search survive a restart (a new model and view over the same globalState); the model is its account\'s, not its view\'s', async () => {
      await tree().model.setSort('nameDesc');
      await tree().model.setFavoritesOnly(true);
      tree().model.setSearch({ text: 'launch', by: 'result' });
      // The extension's globalState (its writes are stored one at a time: what a restart reads once they are).
      const state = s.state;
      const own: vscode.Memento = {
        keys: () => state.keys(),
        get: <T>(key: string, fallback?: T) => state.get<T>(`${key}.${s.first.label}`, fallback as T),
        update: (key: string, value: unknown) => state.update(`${key}.${s.first.label}`, value),
      };
      const built = documentsModelOf(s.first, own, s.log);
      const restarted = new DocumentsTreeProvider(built.model, built.link, s.credentials, own, s.log);
      try {
        assert.strictEqual(restarted.model.sort, 'nameDesc');
        assert.strictEqual(restarted.model.favoritesOnly, true);
        assert.deepStrictEqual(restarted.model.search, { text: 'launch', by: 'result' });
        assert.strictEqual((await restarted.getChildren())[0].kind, 'searchResults');
        // The model is the account's, not the view's: a view that goes away leaves it working.
        restarted.dispose();
        let changes = 0;
        const heard = built.model.onDidChange(() => changes++);
        await built.model.setSort('newest');
        heard.dispose();
        assert.ok(changes > 0, 'the model still tells of its changes after its view was disposed');
        assert.strictEqual(s.documentsTree.model, s.first.documentsModel.model, "the Documents view shows its account's model");
        assert.strictEqual(s.projectsTree.model, s.first.projectsModel.model, "the Projects view shows its account's model");
      } finally {
        restarted.dispose();
        built.dispose();
      }
    });

    it('Hide Empty Templates: counts read in the background (this account: one walk of All Documents, a page at a time), empty templates hidden, cancelled by Refresh', async () => {
      const emptyId = templateWith(1, 4, [1, 4, 9]);
      for (const d of allDocs()) if (d.templateId === emptyId) sandbox.documents.delete(d.id);
      sandbox.setLatency(15);
      try {
        await vscode.commands.executeCommand(CMD.documentsHideEmpty);
        assert.strictEqual(tree().model.hideEmpty, true);
        await children();
        await until('counting to start', () => tree().message !== undefined || lists().length > 0);
        await tree().model.countingDone;
        const counted = lists();
        // A few hundred documents: All Documents read by id, 100 a page, counts every group (not one request per group).
        const pages = Math.ceil(allDocs().length / 100);
        assert.strictEqual(counted.length, pages, `one walk of All Documents: ${counted.length} requests`);
        assert.deepStrictEqual(
          counted.map((r) => [r.query.per_page, r.query.page, r.query.sort_by, r.query.sort]),
          Array.from({ length: pages }, (_, i) => ['100', String(i + 1), 'id', 'asc']),
        );
        // Sequential: each request arrived after the previous one's answer (>= the 15 ms latency).
        for (let i = 1; i < counted.length; i++) assert.ok(counted[i].at - counted[i - 1].at >= 14, `request ${i} overlapped the previous one`);
        const root = await children();
        const shown = root.filter((n): n is TemplateGroupNode => n.kind === 'template');
        assert.ok(!shown.some((g) => g.templateId === emptyId), 'the empty template is hidden');
        const nonEmpty = new Set(allDocs().map((d) => d.templateId));
        assert.strictEqual(shown.length, [...nonEmpty].filter((id) => id !== null).length);
        for (const g of shown) assert.strictEqual(describe_(g), String(allDocs().filter((d) => d.templateId === g.templateId).length), g.name);
        // Other templates: counted without a request, as All Documents minus the table's templates.
        const others = allDocs().filter((d) => d.templateId === null || d.templateId > 52).length;
        assert.strictEqual(describe_(tree().model.otherGroup), String(others));
        assert.strictEqual(describe_(tree().model.allGroup), String(allDocs().length));
        assert.strictEqual(tree().message, undefined);

        // Refresh starts over and stops a count under way.
        sandbox.setLatency(60);
        sandbox.resetRequests();
        await vscode.commands.executeCommand(CMD.documentsRefresh);
        await children();
        await until('a count request', () => lists().length > 0);
        assert.match(tree().message ?? '', /Counting/);
        await vscode.commands.executeCommand(CMD.documentsShowEmpty);
        await sleep(150);
        const n = lists().length;
        await sleep(200);
        assert.strictEqual(lists().length, n, 'no count request after the option is off');
        assert.ok(n < 10, `stopped early (${n})`);
        assert.ok((await children()).some((g) => g.kind === 'template' && g.templateId === emptyId), 'shown again');
      } finally {
        sandbox.setLatency(0);
        await configure('documents.hideEmptyTemplates', undefined);
      }
    });
  });

  describe('document commands', () => {
    beforeEach(resetView);
    afterEach(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('Rename…: prefilled, validated (blank, over 128 characters), one PATCH, only that row changes', async () => {
      const d = plainDocument((x) => x.templateId === 4);
      const oldName = d.name;
      const article = group(4);
      await loadAll(article);
      const fav = tree().model.favoritesGroup;
      await children(fav);
      sandbox.resetRequests();
      const row = (await docNodes(article)).find((n) => n.doc.id === d.id)!;

      prompter.inputs = ['   '];
      await vscode.commands.executeCommand(CMD.documentRename, row);
      prompter.inputs = ['x'.repeat(129)];
      await vscode.commands.executeCommand(CMD.documentRename, row);
      assert.strictEqual(prompter.validationProblems.length, 2, prompter.validationProblems.join(' | '));
      assert.match(prompter.validationProblems[1], /128/);
      assert.strictEqual(sandbox.requests.length, 0, 'refused before sending');

      await sleep(20); // let the change events of the loads above go out first
      const changes: unknown[] = [];
      const sub = tree().onDidChangeTreeData((e) => changes.push(e));
      prompter.inputs = ['Renamed from the sidebar'];
      await vscode.commands.executeCommand(CMD.documentRename, row);
      await sleep(30);
      sub.dispose();
      assert.strictEqual(prompter.asked.at(-1)?.value, oldName, 'prefilled with the current name');
      assert.deepStrictEqual(sandbox.requests.map((r) => [r.method, r.route, r.body]), [['PATCH', 'documents.update', { name: 'Renamed from the sidebar' }]]);
      measured.rename = sandbox.requests.length;
      assert.strictEqual(sandbox.documents.get(d.id)!.name, 'Renamed from the sidebar');
      assert.strictEqual(label(row), 'Renamed from the sidebar', 'the same row object shows the new name');
      assert.deepStrictEqual(changes, [[row]], 'only that row was refreshed');
      await docNodes(article);
      await children(fav);
      assert.strictEqual(sandbox.requests.length, 1, 'no group was read again');
    });

    it('Add to / Remove from Favorites: one PATCH each; the star and the Favorites group follow without a refetch', async () => {
      const d = plainDocument((x) => x.templateId === 9 && !x.favorite);
      const blog = group(9);
      await loadAll(blog);
      const fav = tree().model.favoritesGroup;
      await loadAll(fav);
      const favCount = allDocs().filter((x) => x.favorite).length;
      assert.strictEqual(describe_(fav), String(favCount));
      sandbox.resetRequests();
      const row = (await docNodes(blog)).find((n) => n.doc.id === d.id)!;
      assert.strictEqual(tree().getTreeItem(row).contextValue, 'document');

      await vscode.commands.executeCommand(CMD.documentFavorite, row);
      assert.deepStrictEqual(sandbox.requests.map((r) => [r.method, r.body]), [['PATCH', { favorite: '1' }]]);
      measured.favorite = sandbox.requests.length;
      assert.strictEqual(sandbox.documents.get(d.id)!.favorite, true);
      assert.strictEqual(icon(row), 'star-full');
      assert.strictEqual(tree().getTreeItem(row).contextValue, 'document:favorite');
      const favIds = (await docNodes(fav)).map((n) => n.doc.id);
      assert.deepStrictEqual(favIds, expected((x) => x.favorite, 'newest'), 'the Favorites group follows, in order');
      assert.strictEqual(describe_(fav), String(favCount + 1));

      await vscode.commands.executeCommand(CMD.documentUnfavorite, row);
      assert.strictEqual(sandbox.requests.length, 2);
      assert.strictEqual(sandbox.documents.get(d.id)!.favorite, false);
      assert.strictEqual(icon(row), 'markdown');
      assert.ok(!(await docNodes(fav)).some((n) => n.doc.id === d.id));
      assert.strictEqual(describe_(fav), String(favCount));
      assert.strictEqual(sandbox.requests.filter((r) => r.method === 'GET').length, 0, 'nothing was read again');
    });

    it('from the active content-docs editor (no argument): favorite, rename and copy act on that document', async () => {
      const d = plainDocument((x) => !x.favorite);
      await vscode.commands.executeCommand(CMD.documentOpen, { id: d.id });
      await until('the editor', () => vscode.window.activeTextEditor?.document.uri.scheme === SCHEME && vscode.window.activeTextEditor.document.uri.authority.split('.')[0] === String(d.id));
      sandbox.resetRequests();
      await vscode.commands.executeCommand(CMD.documentFavorite);
      // (The editor may re-read its file meanwhile: only writes are this command's.)
      const writes = () => sandbox.requests.filter((r) => r.method !== 'GET').map((r) => [r.method, r.path]);
      assert.deepStrictEqual(writes(), [['PATCH', `/api/v1/documents/${d.id}`]]);
      assert.strictEqual(sandbox.documents.get(d.id)!.favorite, true);
      await vscode.commands.executeCommand(CMD.documentUnfavorite, vscode.window.activeTextEditor!.document.uri);
      assert.strictEqual(sandbox.documents.get(d.id)!.favorite, false);
      const copied = await vscode.commands.executeCommand(CMD.documentCopyResult);
      assert.strictEqual(copied, d.result);
      assert.strictEqual(await vscode.env.clipboard.readText(), d.result);
    });

    it('Copy Result: the text to the clipboard, no request', async () => {
      const d = plainDocument((x) => x.templateId === 1);
      const row = (await loadAll(group(1))).find((n) => n.doc.id === d.id)!;
      sandbox.resetRequests();
      await vscode.env.clipboard.writeText('');
      await vscode.commands.executeCommand(CMD.documentCopyResult, row);
      assert.strictEqual(await vscode.env.clipboard.readText(), d.result);
      assert.strictEqual(sandbox.requests.length, 0);
    });

    it('Delete…: a modal naming the document; declining deletes nothing; confirming removes the row and lowers the counts', async () => {
      const d = plainDocument((x) => x.templateId === 4 && x.favorite);
      const article = group(4);
      await children(article);
      const fav = tree().model.favoritesGroup;
      await children(fav);
      const articleCount = allDocs().filter((x) => x.templateId === 4).length;
      const favCount = allDocs().filter((x) => x.favorite).length;
      const all = await loadAll(article);
      const row = all.find((n) => n.doc.id === d.id)!;
      sandbox.resetRequests();

      prompter.confirms = [false];
      assert.strictEqual(await vscode.commands.executeCommand(CMD.documentDelete, row), false);
      assert.strictEqual(prompter.asked.length, 1);
      assert.match(questionText(prompter.asked[0]), new RegExp(`Delete "${d.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\?`));
      assert.match(questionText(prompter.asked[0]), /cannot be undone/);
      assert.strictEqual(sandbox.requests.length, 0);
      assert.ok(sandbox.documents.has(d.id));

      prompter.confirms = [true];
      assert.strictEqual(await vscode.commands.executeCommand(CMD.documentDelete, row), true);
      assert.deepStrictEqual(sandbox.requests.map((r) => [r.method, r.path, r.status]), [['DELETE', `/api/v1/documents/${d.id}`, 200]]);
      assert.ok(!sandbox.documents.has(d.id));
      assert.ok(!(await docNodes(article)).some((n) => n.doc.id === d.id), 'the row is gone');
      assert.strictEqual(describe_(article), String(articleCount - 1));
      assert.ok(!(await docNodes(fav)).some((n) => n.doc.id === d.id));
      assert.strictEqual(describe_(fav), String(favCount - 1));
      assert.strictEqual(sandbox.requests.length, 1, 'no list was read again');
    });

    it('Delete… with a crafted argument ({ id } from a link or another extension) still asks, naming the document as the server knows it', async () => {
      const d = plainDocument((x) => x.templateId === 1);
      sandbox.resetRequests();
      prompter.confirms = [false];
      const crafted = { kind: 'document', id: d.id, doc: { id: d.id, name: 'Harmless draft' } };
      assert.strictEqual(await vscode.commands.executeCommand(CMD.documentDelete, crafted), false);
      assert.strictEqual(prompter.asked.length, 1, 'the confirmation was asked');
      assert.ok(questionText(prompter.asked[0]).includes(`"${d.name}"`), questionText(prompter.asked[0]));
      assert.ok(!questionText(prompter.asked[0]).includes('Harmless'), 'the name comes from the server, not the argument');
      assert.ok(sandbox.documents.has(d.id));
      assert.ok(sandbox.requests.every((r) => r.method === 'GET'), 'nothing but a read');
      for (const arg of [d.id, String(d.id), vscode.Uri.parse(`${SCHEME}://${d.id}.${accountNow()}/x/y.md`)]) {
        prompter.confirms = [false];
        await vscode.commands.executeCommand(CMD.documentDelete, arg);
      }
      assert.strictEqual(prompter.asked.length, 4);
      assert.ok(sandbox.documents.has(d.id));
      assert.ok(!sandbox.requests.some((r) => r.method === 'DELETE'));
    });
  });

  describe('the view title and the keys of the Documents view', () => {
    before(() => s.credentials.setKey(sandbox.key));
    beforeEach(resetView);
    afterEach(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
    });

    it('the title says the search, the filter and the sort beside the view name; nothing on either view while signed out', async () => {
      const view = tree().treeView!;
      // The view on screen, as where its title is read: signed in again, VS Code asks it for its rows, and the new
      // account's tree (the account is made anew on sign-in) says its state there.
      await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
      await until('the Documents view visible', () => view.visible);
      await until('the description of the defaults', () => view.description === 'Newest first');
      tree().model.setSearch({ text: 'solar', by: 'name' });
      await tree().model.setFavoritesOnly(true);
      await tree().model.setSort('nameAsc');
      await until('the description of a search, the filter and a sort', () => view.description === '“solar” in names · Favorites only · Name A–Z', 5000);
      tree().model.setSearch({ text: 'coffee', by: 'result' });
      await until('a search in the texts', () => view.description === '“coffee” in texts · Favorites only · Name A–Z', 5000);
      const projects = s.projectsTree.treeView!;
      await until('the Projects view says its sort', () => projects.description === 'Newest first', 5000);
      await s.credentials.clearKey();
      try {
        await until('no description while signed out', () => !view.description, 5000);
        await until('nor on the Projects view (nothing to sort)', () => !projects.description, 5000);
      } finally {
        await s.credentials.setKey(sandbox.key);
      }
      await until('the description back once signed in', () => view.description === '“coffee” in texts · Favorites only · Name A–Z', 5000);
    });

    it('Hide Empty Templates shows that it is on: the title says so, and the "…" menu shows it checked (a click turns it off)', async () => {
      const view = tree().treeView!;
      await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
      await until('the Documents view visible', () => view.visible);
      await until('the description of the defaults', () => view.description === 'Newest first');
      await vscode.commands.executeCommand(CMD.documentsHideEmpty);
      await until(`the title to say empty templates are hidden (it says ${JSON.stringify(view.description)})`, () => view.description === 'Empty templates hidden · Newest first', 5000);
      await tree().model.setFavoritesOnly(true);
      await until('with the favorites filter', () => view.description === 'Favorites only · Empty templates hidden · Newest first', 5000);
      // Extensions get no checked menu items (microsoft/vscode#109306): while it is on, the "…" menu holds a
      // "✓ Hide Empty Templates" that turns it off, in place of the "Hide Empty Templates" that turns it on.
      const ext = vscode.extensions.all.find((e) => e.packageJSON?.contributes?.views?.contentDocs);
      const contributes = ext?.packageJSON.contributes as { commands: { command: string; title: string }[]; menus: Record<string, { command: string; when?: string }[]> };
      const inMenu = (on: boolean) =>
        contributes.menus['view/title']
          .filter((m) => m.when?.includes('view == contentDocs.documents') && m.when.includes('contentDocs.documents.hideEmpty'))
          .filter((m) => (on ? !m.when!.includes('!contentDocs.documents.hideEmpty') : m.when!.includes('!contentDocs.documents.hideEmpty')))
          .map((m) => contributes.commands.find((c) => c.command === m.command)!);
      assert.deepStrictEqual(inMenu(false).map((c) => c.title), ['Hide Empty Templates'], 'off: the menu offers to hide them');
      assert.deepStrictEqual(inMenu(true).map((c) => c.title), ['✓ Hide Empty Templates'], 'on: the menu shows it checked');
      await vscode.commands.executeCommand(inMenu(true)[0].command);
      await until('off again: the title says the filter and the sort only', () => view.description === 'Favorites only · Newest first', 5000);
      assert.strictEqual(vscode.workspace.getConfiguration('contentDocs').get('documents.hideEmptyTemplates'), false);
    });

    it('with another account added, each account root says its own search, filter and sort and the title none of them; once it is removed, the title says the sort the list has', async () => {
      const view = tree().treeView!;
      await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
      await until('the Documents view visible', () => view.visible);
      await tree().model.setSort('nameAsc');
      await until('the title says the sort by name', () => view.description === 'Name A–Z', 5000);
      const other = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
      try {
        prompter.inputs = [other.docsUrl, other.seoUrl, other.key];
        assert.strictEqual(await vscode.commands.executeCommand(CMD.accountAdd), true, `Add Account… failed: ${JSON.stringify(prompter.checked)}`);
        const added = s.registry.added().at(-1)!;
        // A root per account; VS Code expands both (each account's tree is made, with its own view state).
        const roots = await until('two account roots', async () => {
          const r = await s.documentsView.getChildren();
          return r.length === 2 ? r : undefined;
        });
        for (const r of roots) await s.documentsView.getChildren(r);
        const rootText = () => roots.map((r) => String(s.documentsView.getTreeItem(r).description ?? ''));
        await until(`each account root to say the sort of its own list (they say ${JSON.stringify(rootText())})`, () => rootText().join('|') === 'Name A–Z|Newest first', 5000);
        await sleep(300);
        assert.strictEqual(view.description, undefined, 'the title does not say one account\'s sort for both lists');
        await s.registry.remove(added);
        await until('one account again', async () => (await s.documentsView.getChildren()).every((n) => (n as { kind: string }).kind !== 'accountRoot'));
        // The list is the settings account's again (by name), and so is the title.
        await sleep(300);
        await until(`the title to say "Name A–Z" (it says ${JSON.stringify(view.description)})`, () => view.description === 'Name A–Z', 5000);
      } finally {
        for (const a of s.registry.added()) await s.registry.remove(a);
        await other.close();
      }
    });

    it('the view contributes F2, Delete, Ctrl+Enter and a favorite key, each for the row selected in the view only', () => {
      const ext = vscode.extensions.all.find((e) => e.packageJSON?.contributes?.views?.contentDocs);
      const keys = (ext?.packageJSON.contributes.keybindings ?? []) as { command: string; key: string; when: string; args?: unknown }[];
      const byCommand = new Map(keys.map((k) => [k.command, k]));
      for (const [command, key] of [[CMD.documentRename, 'f2'], [CMD.documentDelete, 'delete'], [CMD.documentOpenBeside, 'ctrl+enter'], [CMD.documentFavoriteToggle, 'ctrl+alt+f']]) {
        const k = byCommand.get(command);
        assert.ok(k, `no keybinding for ${command}`);
        assert.strictEqual(k.key, key);
        assert.strictEqual(k.when, 'focusedView == contentDocs.documents', `${command} is scoped to the Documents view`);
        assert.deepStrictEqual(k.args, { selection: true }, `${command} acts on the selected row`);
      }
      const title = (ext?.packageJSON.contributes.menus['view/title'] ?? []) as { command: string; when: string; group?: string }[];
      const inline = title.filter((m) => m.when.includes('view == contentDocs.documents') && m.group?.startsWith('navigation'));
      const shownTogether = new Set(inline.map((m) => m.command.replace('documentsShowAll', 'documentsFavoritesOnly')));
      assert.ok(shownTogether.size <= 4, `${shownTogether.size} inline title actions: ${[...shownTogether].join(', ')}`);
      assert.ok(inline.every((m) => m.when.includes('contentDocs.signedIn')), 'no inline title action while signed out');
    });

    /** Selects a row as a click would (a reveal made while the view's first rows still load selects nothing: again then). */
    async function select(node: DocNode): Promise<void> {
      for (let i = 0; i < 10 && tree().treeView!.selection[0] !== node; i++) {
        await tree().treeView!.reveal(node, { select: true, focus: true });
        await sleep(200);
      }
      assert.strictEqual(tree().treeView!.selection[0], node, 'the row is selected in the view');
    }

    it('Ctrl+Alt+F pressed in the view toggles the row in focus (the key its menu shows beside Add to and Remove from Favorites)', async () => {
      const d = plainDocument((x) => x.templateId === 4 && !x.favorite);
      await loadAll(group(4));
      const row = (await docNodes(group(4))).find((n) => n.doc.id === d.id)!;
      await vscode.commands.executeCommand('contentDocs.documents.focus');
      await sleep(300);
      await select(row);
      await until('the focus on the row', async () => (await read('.monaco-list-row.focused .label-name')).text === label(row));
      await press('Control+Alt+KeyF');
      await until('the document to be a favorite', () => sandbox.documents.get(d.id)!.favorite);
      await until('the focus on the row', async () => (await read('.monaco-list-row.focused .label-name')).text === label(row));
      await press('Control+Alt+KeyF');
      await until('the document to be a favorite no more (the key toggles, it does not only add)', () => !sandbox.documents.get(d.id)!.favorite);
    });

    it('a key pressed in the view acts on the row in focus there (moved with the arrows from the selected one), never on the active editor\'s document; on a group row it does nothing', async () => {
      const inEditor = plainDocument((x) => x.templateId === 4 && !x.favorite);
      const selected = plainDocument((x) => x.templateId === 4 && !x.favorite);
      await loadAll(group(4));
      const rows = await docNodes(group(4));
      const at = rows.findIndex((n) => n.doc.id === selected.id);
      const row = rows[at];
      // The row next to it is the selected one; the arrow key then moves the focus (not the selection) onto the row.
      const [anchor, key] = at > 0 ? [rows[at - 1], 'ArrowDown'] : [rows[at + 1], 'ArrowUp'];
      await openDocument(inEditor.id);
      assert.ok(vscode.window.activeTextEditor?.document.uri.authority.startsWith(`${inEditor.id}.`), 'the other document is the active editor');
      // The view on screen, as a key can only be pressed there.
      await vscode.commands.executeCommand('contentDocs.documents.focus');
      await sleep(300);
      await select(anchor);
      await press(key);
      await until('the focus on the row', async () => (await read('.monaco-list-row.focused .label-name')).text === label(row));
      assert.strictEqual(tree().treeView!.selection[0], anchor, 'the arrow moved the focus only');
      sandbox.resetRequests();

      await vscode.commands.executeCommand(CMD.documentFavoriteToggle, { selection: true });
      assert.strictEqual(sandbox.documents.get(selected.id)!.favorite, true, 'the focused row\'s document is a favorite');
      assert.strictEqual(sandbox.documents.get(anchor.doc.id)!.favorite, anchor.doc.favorite, 'the selected row\'s document is untouched');
      assert.strictEqual(tree().treeView!.selection[0], row, 'the row in focus is now the selected one, as in the Explorer');
      assert.strictEqual(sandbox.documents.get(inEditor.id)!.favorite, false, 'the active editor\'s document is untouched');
      await vscode.commands.executeCommand(CMD.documentFavoriteToggle, { selection: true });
      assert.strictEqual(sandbox.documents.get(selected.id)!.favorite, false, 'toggled back');

      prompter.inputs = ['Renamed with F2'];
      await vscode.commands.executeCommand(CMD.documentRename, { selection: true });
      assert.strictEqual(sandbox.documents.get(selected.id)!.name, 'Renamed with F2');
      assert.strictEqual(sandbox.documents.get(inEditor.id)!.name, inEditor.name);

      // On a group row: no question, no request, no message.
      await select(group(4));
      sandbox.resetRequests();
      messages.clear();
      const asked = prompter.asked.length;
      await vscode.commands.executeCommand(CMD.documentDelete, { selection: true });
      await vscode.commands.executeCommand(CMD.documentRename, { selection: true });
      assert.strictEqual(prompter.asked.length, asked, 'nothing asked');
      assert.deepStrictEqual(sandbox.requests.map((r) => r.route), [], 'nothing sent');
      assert.deepStrictEqual(messages.shown.map((m) => m.message), [], 'no message');
    });
  });

  describe('errors in the Documents view', () => {
    beforeEach(resetView);

    it('a 500: an error item (reason in plain words, Retry) in that group only; Retry reloads only it', async () => {
      await children(group(1));
      sandbox.resetRequests();
      sandbox.setFault('documents.list', { kind: 'status500', count: 1 });
      const g = group(4);
      const kids = await children(g);
      assert.strictEqual(kids.length, 1);
      const err = kids[0];
      assert.strictEqual(err.kind, 'error');
      const item = tree().getTreeItem(err);
      assert.strictEqual(item.contextValue, 'error');
      assert.strictEqual(icon(err), 'error');
      assert.match(labelText(item.label), /Couldn't load the documents/);
      assert.match(String(item.description), /server had a problem \(HTTP 500\)/);
      assert.strictEqual(item.command?.command, CMD.retry);
      assert.deepStrictEqual(item.command?.arguments, [err]);
      assert.strictEqual((await docNodes(group(1))).length, PAGE, 'other groups keep their rows');
      assert.strictEqual(lists().length, 1, 'a 500 is not retried on its own');

      await vscode.commands.executeCommand(CMD.retry, err);
      assert.strictEqual(lists().length, 2);
      assert.ok(lists().every((r) => r.query.template_id === '4'), 'only the failed group was read');
      assert.strictEqual((await docNodes(g)).length, PAGE);
      assert.strictEqual(describe_(g), String(allDocs().filter((d) => d.templateId === 4).length));
    });

    it('a 503 three times (the client retries twice), then Retry; a failed Load more keeps the rows', async () => {
      sandbox.setFault('documents.list', { kind: 'status503', count: 3 });
      const g = group(9);
      const [err] = await children(g);
      assert.strictEqual(err.kind, 'error');
      assert.strictEqual(lists().length, 3);
      assert.match(describe_(err), /HTTP 503/);
      await vscode.commands.executeCommand(CMD.retry, err);
      assert.strictEqual((await docNodes(g)).length, PAGE);

      sandbox.setFault('documents.list', { kind: 'status500', count: 1 });
      const more = (await children(g)).find((n) => n.kind === 'loadMore')!;
      await vscode.commands.executeCommand(CMD.documentsLoadMore, more);
      const kids = await children(g);
      assert.strictEqual(kids.filter((n) => n.kind === 'document').length, PAGE, 'the loaded rows stay');
      const err2 = kids[kids.length - 1];
      assert.strictEqual(err2.kind, 'error');
      await vscode.commands.executeCommand(CMD.retry, err2);
      assert.strictEqual((await docNodes(g)).length, 2 * PAGE);
    });

    it('a 429 says when to retry; a 401 leads to Set API Key', async () => {
      sandbox.setFault('documents.list', { kind: 'rateLimit', retryAfter: 30, count: 3 });
      const [err] = await children(group(1));
      assert.strictEqual(err.kind, 'error');
      const item = tree().getTreeItem(err);
      assert.match(labelText(item.label), /too many requests/i);
      assert.match(String(item.description), /retry after .+ \(30 s\)/);
      assert.strictEqual(item.command?.command, CMD.retry);
      sandbox.clearFaults();
      // The client now waits out the server's window before its next request: start a fresh client.
      await configure('network.timeoutSeconds', 31);
      await configure('network.timeoutSeconds', undefined);

      await s.credentials.setKey('a-key-the-server-does-not-know');
      try {
        const [auth] = await children(group(1));
        assert.strictEqual(auth.kind, 'error');
        const a = tree().getTreeItem(auth);
        assert.match(labelText(a.label), /API key was not accepted/);
        assert.strictEqual(a.command?.command, 'contentDocs.signIn');
      } finally {
        await s.credentials.setKey(sandbox.key);
      }
    });
  });

  describe('screenshot', () => {
    before(resetView);

    it('both views with seeded data, a template expanded (sidebar-documents.png)', async () => {
      await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
      const view = tree().treeView!;
      await until('the Documents view visible', () => view.visible);
      await vscode.commands.executeCommand('contentDocs.documents.focus');
      // Room for the rows' descriptions: widen the side bar (the focused part) a little.
      for (let i = 0; i < 3; i++) await Promise.resolve(vscode.commands.executeCommand('workbench.action.increaseViewWidth')).catch(() => undefined);
      // The workbench renders the root first; reveal once it has.
      const reveal = async (node: DocNode, options: { expand?: boolean; select?: boolean; focus?: boolean }) => {
        for (let i = 0; ; i++) {
          try {
            await view.reveal(node, options);
            return;
          } catch (e) {
            if (i >= 20) throw e;
            await sleep(100);
          }
        }
      };
      const g = group(4);
      await reveal(g, { expand: true, select: false, focus: false });
      const second = (await docNodes(g))[1];
      await reveal(second, { select: true, focus: true });
      await sleep(500);
      await reveal(tree().model.favoritesGroup, { select: false, focus: false });
      await until('the Projects view loaded', async () => ((await s.projectsTree.getChildren()) ?? []).length > 0);
      await sleep(1500);
      const file = await screenshot('sidebar-documents');
      assert.ok(fs.statSync(file).size > 10 * 1024);
    });
  });
});
