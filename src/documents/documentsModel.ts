import type { ContentDocument, DocumentListQuery, Page } from '../api/index';
import { compareNames, searchFinds, serverOrder } from '../api/collation';
import { isKnownTemplate, TEMPLATES, templateName } from '../api/templates';
import { isBlank, serverTrim, type DocumentSortField, type SortOrder } from '../api/validate';
import type { DocumentSortSetting, PageSize } from '../util/config';
import { errorKind, reason } from '../util/errors';
import { Emitter, type Disposable, type Event } from '../model/emitter';
import type {
  AllGroupNode,
  DocNode,
  DocumentNode,
  DocumentSearch,
  DocumentsViewState,
  EmptyNode,
  ErrorNode,
  FavoritesGroupNode,
  GroupNode,
  LoadMoreNode,
  OtherGroupNode,
  SearchGroupNode,
  TemplateGroupNode,
} from '../model/nodes';
import { PagedList } from '../model/pagedList';

/** The page size of the background count requests (only `meta.total` is needed). */
const COUNT_PAGE_SIZE = 10;
/** The page size of the walk of All Documents that counts a small account (the largest the server allows). */
const WALK_PAGE_SIZE = 100;
/** Other templates: pages of the whole list read per expand or Load more, at most, while they bring no row. */
const OTHER_SCAN_PAGES = 3;
/** Other templates: the page size of that reading (the largest the server allows). */
const OTHER_SCAN_PAGE_SIZE = 100;

/** The list request's order for each sort the view offers. */
const SORT_QUERY: Record<DocumentSortSetting, { sortBy: DocumentSortField; sort: SortOrder }> = {
  newest: { sortBy: 'id', sort: 'desc' },
  oldest: { sortBy: 'id', sort: 'asc' },
  nameAsc: { sortBy: 'name', sort: 'asc' },
  nameDesc: { sortBy: 'name', sort: 'desc' },
};

/**
 * A group's count: exactly `n` documents, `'some'` (the server said there are more than one page, but not
 * how many: a custom template seen in a page, or a count without a total), or unknown (undefined).
 */
export type Count = number | 'some';

/** Background counting (Hide Empty Templates): where it stands. */
export interface Counting {
  readonly state: 'idle' | 'running' | 'done' | 'failed';
  readonly done: number;
  readonly of: number;
  readonly error: unknown;
}

/** One page of documents, as `DocumentService.list` gives it: `changed` are documents that differ from what was known. */
export type DocumentPage = Page<ContentDocument> & {
  readonly changed: readonly ContentDocument[];
  /** What was known of the changed documents before the page. */
  readonly previous?: ReadonlyMap<number, ContentDocument>;
};

/** Where the documents come from and what happens to them (`DocumentService`). */
export interface DocumentSource {
  /** One page; `call`: its signal, or its signal and priority (`background`: counts, which the writer did not ask for). */
  list(query: DocumentListQuery, call?: AbortSignal | { signal?: AbortSignal; priority?: 'user' | 'background' }): Promise<DocumentPage>;
  readonly onDidChange: Event<{ doc: ContentDocument; previous: ContentDocument | undefined }>;
  readonly onDidDelete: Event<ContentDocument | { id: number }>;
  readonly onDidCreate: Event<ContentDocument>;
}

/** What the model needs from its surroundings: the key, the settings, where the view state is kept, the log. */
export interface DocumentsModelHost {
  hasKey(): Promise<boolean>;
  readonly onDidChangeSignIn: Event<boolean>;
  pageSize(): PageSize;
  defaultSort(): DocumentSortSetting;
  hideEmpty(): boolean;
  /** Whether the groups' counts are wanted without Hide Empty Templates (the view is on screen). */
  countsWanted?(): boolean;
  /** The documents server's address (what the saved template names were learned from). */
  server?(): string | undefined;
  /** Keeps the view state (and shows what it implies); the model does not wait for it unless it must. */
  persist(state: DocumentsViewState): Promise<void>;
  /** Runs a load the user is waiting for (the view shows its progress bar). */
  progress(p: Promise<void>): Promise<void>;
  readonly log: { warn(line: string): void; debug(line: string): void };
}

/** Waits `ms` (or until `signal` aborts); `always`: waits for the next turn of the event loop even at 0 ms. */
function abortableSleep(ms: number, signal: AbortSignal, always = false): Promise<void> {
  return new Promise((resolve) => {
    if ((ms <= 0 && !always) || signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * What the Documents view knows, without `vscode`: a Search results group (when searching), All Documents,
 * Favorites, one group per template (the 52 of the table plus custom ones seen) and Other templates; the
 * loaded pages of each group (cached with the in-flight promise; Refresh drops them); each group's count,
 * from its loaded list or else from background counting; and the documents' events (created, renamed,
 * favorited, deleted) applied to every group without refetching.
 *
 * `onDidChange` says which node to redraw (undefined: the whole view); `onDidChangeCounting` that the
 * view's description or message may say something else now.
 */
export class DocumentsModel implements Disposable {
  readonly #_onDidChange = new Emitter<DocNode | undefined>();
  readonly onDidChange = this.#_onDidChange.event;
  readonly #_onDidChangeCounting = new Emitter<void>();
  /** The counting progress, the sort or Favorites only changed (what the view says under its title). */
  readonly onDidChangeCounting = this.#_onDidChangeCounting.event;
  readonly #subscriptions: Disposable[] = [this.#_onDidChange, this.#_onDidChangeCounting];
  #disposed = false;

  #generation = new AbortController();
  /** Loaded pages per group key. */
  readonly #lists = new Map<string, PagedList<DocumentNode>>();
  /** Counts learned without loading the group (background counting, custom templates seen), per group key. */
  readonly #counts = new Map<string, Count>();
  readonly #groupNodes = new Map<string, TemplateGroupNode | FavoritesGroupNode>();
  readonly #allNode: AllGroupNode = { kind: 'all', key: 'all' };
  readonly #otherNode: OtherGroupNode = { kind: 'other', key: 'other' };
  #searchNode: SearchGroupNode | undefined;
  #viewState: DocumentsViewState;

  #countState: Counting['state'] = 'idle';
  #countError: unknown;
  #countAbort: AbortController | undefined;
  #countProgress = { done: 0, of: 0 };
  #countRun: Promise<void> | undefined;
  /** Pause between two background count requests (leaves the rate limit to the user). Tests set 0. */
  countIntervalMs = 2000;
  /**
   * An account of at most this many pages of {@link WALK_PAGE_SIZE} is counted from one walk of All Documents
   * (a few requests) instead of one request per group (more than 50).
   */
  countWalkMaxPages = 5;
  /** Bumped by every document created, changed or deleted: a walk that saw one is not a count. */
  #events = 0;

  readonly #documents: DocumentSource;
  readonly #host: DocumentsModelHost;

  constructor(
    documents: DocumentSource,
    host: DocumentsModelHost,
    savedState: unknown,
  ) {
    this.#documents = documents;
    this.#host = host;
    this.#viewState = readState(savedState);
    // Template names learned from another server (changed while no window was open) are another account's.
    const server = host.server?.();
    if (server !== undefined && this.#viewState.templatesServer !== undefined && this.#viewState.templatesServer !== server) {
      this.#viewState = { ...this.#viewState, customTemplates: undefined, templateNames: undefined, templatesServer: undefined };
    }
    this.#groupNodes.set('favorites', { kind: 'favorites', key: 'favorites' });
    const named = new Map(this.#viewState.templateNames ?? []);
    for (const t of TEMPLATES) this.#addTemplateGroup(t.id, named.get(t.id) ?? t.name, false);
    for (const [id, name] of this.#viewState.customTemplates ?? []) this.#addTemplateGroup(id, name, true);
    if (this.#viewState.search) this.#searchNode = { kind: 'searchResults', key: 'search', search: this.#viewState.search };

    this.#subscriptions.push(
      // Signed out, or another key: what was learned of the account (its template names) goes with it.
      host.onDidChangeSignIn((signedIn) => this.#reset(signedIn ? 'another key' : 'signed out', true)),
      documents.onDidChange(({ doc, previous }) => {
        this.#events++;
        this.#onDocumentChanged(doc, previous);
      }),
      documents.onDidDelete((d) => {
        this.#events++;
        this.#onDocumentDeleted(d);
      }),
      documents.onDidCreate((doc) => {
        this.#events++;
        this.#onDocumentCreated(doc);
      }),
    );
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#abortAll();
    for (const d of this.#subscriptions.splice(0)) d.dispose();
  }

  // --- View choices (persisted) -------------------------------------------------------------------

  get sort(): DocumentSortSetting {
    return this.#viewState.sort ?? (this.#defaultSort ??= this.#host.defaultSort());
  }

  /**
   * The default sort setting as last read: every row asks for the sort on every draw (its date says the one the list
   * is sorted by), and VS Code draws every row of a group again on each Load more. Read again when it changes.
   */
  #defaultSort: DocumentSortSetting | undefined;

  get favoritesOnly(): boolean {
    return this.#favoritesOnly;
  }

  get #favoritesOnly(): boolean {
    return this.#viewState.favoritesOnly === true;
  }

  get search(): DocumentSearch | undefined {
    return this.#viewState.search;
  }

  get hideEmpty(): boolean {
    return this.#hideEmpty;
  }

  get #hideEmpty(): boolean {
    return this.#host.hideEmpty();
  }

  get #countsWanted(): boolean {
    return this.#hideEmpty || this.#host.countsWanted?.() === true;
  }

  /**
   * The view came on screen: its counts are wanted now, so the root is read again and counting starts. It left the
   * screen (Hide Empty off): counting stops, nothing more is sent; what it counted stays, the rest is counted when the
   * view is shown again.
   */
  visibilityChanged(): void {
    if (this.#countsWanted) {
      if (this.#countState === 'idle') this.#fire(undefined);
    } else if (this.#countAbort) {
      this.#stopCounting();
      this.#countState = 'idle';
      this.#_onDidChangeCounting.fire();
    }
  }

  get counting(): Counting {
    return { state: this.#countState, done: this.#countProgress.done, of: this.#countProgress.of, error: this.#countError };
  }

  async setSort(sort: DocumentSortSetting): Promise<void> {
    if (sort === this.sort && this.#viewState.sort) return;
    this.#viewState = { ...this.#viewState, sort };
    await this.#saveState();
    this.#clearLists(true);
  }

  async setFavoritesOnly(on: boolean): Promise<void> {
    if (on === this.#favoritesOnly) return;
    this.#viewState = { ...this.#viewState, favoritesOnly: on || undefined };
    await this.#saveState();
    // Every template count means something else now.
    this.#stopCounting();
    this.#counts.clear();
    this.#clearLists(false);
    this.#countState = 'idle';
    this.#_onDidChangeCounting.fire();
  }

  /** Sets (or clears, with undefined) the search; the Search results group loads when shown. */
  setSearch(search: DocumentSearch | undefined): SearchGroupNode | undefined {
    // Trimmed as the server trims: a search of only U+200B or U+FEFF is no search (the client would drop it and list everything).
    const text = search && serverTrim(search.text);
    const next = text ? { text, by: search.by } : undefined;
    this.#viewState = { ...this.#viewState, search: next };
    this.#lists.delete('search');
    this.#searchNode = next ? { kind: 'searchResults', key: 'search', search: next } : undefined;
    // Not awaited: the search request need not wait for the saved state to reach the workbench.
    void this.#saveState().then(undefined, (e: unknown) => this.#host.log.warn(`[documents] couldn't keep the search: ${reason(e)}`));
    this.#fire(undefined);
    return this.#searchNode;
  }

  get searchGroup(): SearchGroupNode | undefined {
    return this.#searchNode;
  }

  // --- Settings that changed ----------------------------------------------------------------------

  /** The server changed: nothing loaded, counted or named holds (it is another account). */
  serverChanged(): void {
    this.#reset('server changed', true);
  }

  pageSizeChanged(): void {
    this.#clearLists(true);
  }

  defaultSortChanged(): void {
    this.#defaultSort = undefined;
    if (!this.#viewState.sort) this.#clearLists(true);
  }

  hideEmptyChanged(): void {
    if (!this.#countsWanted) {
      this.#stopCounting();
      if (this.#countState !== 'done') this.#countState = 'idle';
    }
    this.#_onDidChangeCounting.fire();
    this.#fire(undefined);
  }

  // --- Groups -------------------------------------------------------------------------------------

  /**
   * The view's top level (nothing when signed out). Starts counting when the counts are wanted (Hide Empty, or the
   * view on screen); with Hide Empty, leaves out the templates counted empty (never a group not counted yet, nor
   * All Documents, Favorites or Search results).
   */
  async rootChildren(): Promise<GroupNode[]> {
    if (!(await this.#host.hasKey())) return [];
    const hide = this.#hideEmpty;
    if (this.#countState === 'idle' && this.#countsWanted) this.#startCounting();
    const shown = (g: GroupNode) => !hide || !(g.kind === 'template' || g.kind === 'other') || this.#count(g.key) !== 0;
    const out: GroupNode[] = [];
    if (this.#searchNode) out.push(this.#searchNode);
    if (shown(this.#allNode)) out.push(this.#allNode);
    if (!this.#favoritesOnly) {
      const fav = this.favoritesGroup;
      if (shown(fav)) out.push(fav);
    }
    for (const g of this.templateGroups()) if (shown(g)) out.push(g);
    if (shown(this.#otherNode)) out.push(this.#otherNode);
    return out;
  }

  /** Template groups, by name as the server orders names: the table's 52 and custom ones the server named. */
  templateGroups(): TemplateGroupNode[] {
    const groups = [...this.#groupNodes.values()].filter((g): g is TemplateGroupNode => g.kind === 'template');
    return groups.sort((a, b) => compareNames(a.name, b.name) || a.templateId - b.templateId);
  }

  templateGroup(templateId: number): TemplateGroupNode | undefined {
    const g = this.#groupNodes.get(`t${templateId}`);
    return g?.kind === 'template' ? g : undefined;
  }

  get favoritesGroup(): FavoritesGroupNode {
    return this.#groupNodes.get('favorites') as FavoritesGroupNode;
  }

  get allGroup(): AllGroupNode {
    return this.#allNode;
  }

  get otherGroup(): OtherGroupNode {
    return this.#otherNode;
  }

  /** The count a group shows: from its loaded list, else from background counting. */
  count(key: string): Count | undefined {
    return this.#count(key);
  }

  #count(key: string): Count | undefined {
    const list = this.#lists.get(key);
    if (list?.loaded && list.total !== undefined) return list.total;
    if (list?.loaded && !list.hasMore) return list.items.length;
    if (key === 'other' && !this.#counts.has(key)) return this.#otherCount();
    return this.#counts.get(key);
  }

  /** The exact count a group shows, when known. */
  countOf(key: string): number | undefined {
    const n = this.#count(key);
    return typeof n === 'number' ? n : undefined;
  }

  /** Every document is in All Documents and in one table template or in Other templates: the difference, once all are counted. */
  #otherCount(): number | undefined {
    const all = this.#count('all');
    if (typeof all !== 'number') return undefined;
    let inTable = 0;
    for (const t of TEMPLATES) {
      const n = this.#count(`t${t.id}`);
      if (typeof n !== 'number') return undefined;
      inTable += n;
    }
    return Math.max(0, all - inTable);
  }

  /** Whether the node is still one this model shows (not a group of a previous search, or of a forgotten account). */
  #isCurrent(g: GroupNode): boolean {
    if (g.kind === 'all') return g === this.#allNode;
    if (g.kind === 'other') return g === this.#otherNode;
    return g.kind === 'searchResults' ? g === this.#searchNode : this.#groupNodes.get(g.key) === g;
  }

  /** The rows of a document in the groups' pages loaded so far (none read for it): one per group that lists it. */
  loadedRows(id: number): DocumentNode[] {
    const rows: DocumentNode[] = [];
    for (const list of this.#lists.values()) {
      const row = list.find(id);
      if (row && this.#isCurrent(row.parent)) rows.push(row);
    }
    return rows;
  }

  /** How far a group's list got: rows shown, and whether a page is on the wire. */
  listState(key: string): { shown: number; loading: boolean } | undefined {
    const list = this.#lists.get(key);
    return list && { shown: list.items.length, loading: list.loading };
  }

  #listFor(g: GroupNode): PagedList<DocumentNode> {
    let list = this.#lists.get(g.key);
    if (!list) {
      const perPage = this.#host.pageSize();
      list =
        g.kind === 'other'
          ? // The whole list in the view's order, a page of 100 at a time, keeping the documents whose template is not in the table.
            new PagedList<DocumentNode>((page, sig) => this.#fetchPage(g, page, OTHER_SCAN_PAGE_SIZE, sig), (n) => n.doc.id, OTHER_SCAN_PAGE_SIZE, this.#generation.signal, {
              keep: (n) => isOtherTemplate(n.doc),
              maxReads: OTHER_SCAN_PAGES,
              order: this.#compare,
            })
          : new PagedList<DocumentNode>((page, sig) => this.#fetchPage(g, page, perPage, sig), (n) => n.doc.id, perPage, this.#generation.signal, {
              order: this.#compare,
            });
      this.#lists.set(g.key, list);
    }
    return list;
  }

  async #fetchPage(g: GroupNode, page: number, perPage: PageSize | typeof OTHER_SCAN_PAGE_SIZE, signal: AbortSignal): Promise<Page<DocumentNode>> {
    const p = await this.#documents.list({ ...this.#queryFor(g), perPage, page }, signal);
    this.#seen(p, g);
    return { ...p, items: p.items.map((doc) => ({ kind: 'document', parent: g, doc })) };
  }

  /** The list request behind a group, in the view's order. */
  #queryFor(g: GroupNode): DocumentListQuery {
    const q: DocumentListQuery = { ...(SORT_QUERY[this.sort] ?? SORT_QUERY.newest) };
    const favorite = this.#favoritesOnly ? true : undefined;
    if (g.kind === 'template') return { ...q, templateId: g.templateId, favorite };
    if (g.kind === 'favorites') return { ...q, favorite: true };
    if (g.kind === 'all' || g.kind === 'other') return { ...q, favorite };
    return { ...q, search: g.search.text, searchBy: g.search.by, favorite };
  }

  /** A group's rows: its first page loaded when needed, then an error, Load more or empty row as it stands. */
  async children(g: GroupNode): Promise<DocNode[]> {
    if (!this.#isCurrent(g) || !(await this.#host.hasKey())) return [];
    const list = this.#listFor(g);
    if (!list.loaded && !list.failed) {
      const before = this.#count(g.key);
      await this.#host.progress(list.ensure());
      if (this.#lists.get(g.key) !== list) return this.#isCurrent(g) ? this.children(g) : [];
      this.#afterLoad(g, list, before);
    }
    const out: DocNode[] = [...list.items];
    if (list.failed) {
      out.push({ kind: 'error', parent: g, error: list.error, at: list.errorAt } satisfies ErrorNode<GroupNode>);
    } else if (list.loaded && (list.hasMore || list.loading)) {
      out.push({ kind: 'loadMore', parent: g } satisfies LoadMoreNode<GroupNode>);
    } else if (list.loaded && list.items.length === 0) {
      out.push({ kind: 'empty', parent: g } satisfies EmptyNode<GroupNode>);
    }
    return out;
  }

  /** After a page: the group's count may be new (its row shows it); with Hide Empty, a zero hides it. */
  #afterLoad(g: GroupNode, list: PagedList<DocumentNode>, before: Count | undefined): void {
    if (list.failed) {
      const e = list.error;
      if (errorKind(e) !== 'cancelled') this.#host.log.warn(`[documents] loading ${g.key} failed: ${reason(e)}`);
      return;
    }
    const after = this.#count(g.key);
    if (after !== before) {
      if (g.kind !== 'searchResults') this.#counts.delete(g.key);
      if (this.#hideEmpty && (after === 0) !== (before === 0)) this.#fire(undefined);
      else this.#fire(g);
    }
  }

  /** Load more…: one request for the next page of that group; only that group is redrawn. */
  async loadMore(node: LoadMoreNode<GroupNode> | GroupNode): Promise<void> {
    const g = node.kind === 'loadMore' ? node.parent : node;
    if (!this.#isCurrent(g)) return;
    const list = this.#lists.get(g.key);
    if (!list || !list.loaded) {
      await this.children(g);
      return;
    }
    if (!list.hasMore && !list.failed) return;
    await this.#reload(g, list, list.failed ? list.retry() : list.next());
  }

  /** Retry on an error row: reloads only the group that failed. */
  async retry(node: ErrorNode<GroupNode>): Promise<void> {
    const g = node.parent;
    if (!g) {
      this.#fire(undefined);
      return;
    }
    if (!this.#isCurrent(g)) return;
    const list = this.#lists.get(g.key);
    if (!list) {
      this.#fire(g);
      return;
    }
    await this.#reload(g, list, list.retry());
  }

  /**
   * Waits for a group's page with the view's progress bar; its row turns to "Loading more…" only when the
   * answer is slow. VS Code passes a tree's change events on at most every 200 ms, so a change made just
   * before the request would hold back the one that brings the rows.
   */
  async #reload(g: GroupNode, list: PagedList<DocumentNode>, p: Promise<void>): Promise<void> {
    const before = this.#count(g.key);
    const slow = setTimeout(() => this.#fire(g), 300);
    try {
      await this.#host.progress(p);
    } finally {
      clearTimeout(slow);
    }
    if (this.#lists.get(g.key) !== list) return;
    this.#afterLoad(g, list, before);
    this.#fire(g);
  }

  /** Refresh: drops every cached list and count (and stops counting); the view reloads what it shows. */
  refresh(): void {
    this.#reset('refresh', false);
  }

  // --- Keeping rows true to the server, without refetching ------------------------------------------

  /** Whether a document belongs in a group: true/false, or undefined when only the server can tell (a search on unusual letters). */
  #matches(g: GroupNode, d: ContentDocument): boolean | undefined {
    if (g.kind === 'template') return d.template?.id === g.templateId && (!this.#favoritesOnly || d.favorite);
    if (g.kind === 'favorites') return d.favorite;
    if (g.kind === 'all') return !this.#favoritesOnly || d.favorite;
    if (g.kind === 'other') return isOtherTemplate(d) && (!this.#favoritesOnly || d.favorite);
    if (this.#favoritesOnly && !d.favorite) return false;
    const text = g.search.by === 'name' ? d.name : d.result;
    // A listed row is no evidence: a rename since may have taken it out of the search.
    return text === null || text === undefined ? false : searchFinds(text, g.search.text);
  }

  /**
   * The server's order of two rows, or undefined where the client cannot prove it: by name, only plain names
   * that differ under the collation (the server has no tie-break, so equal names come back in any order).
   */
  #compare = (a: DocumentNode, b: DocumentNode): number | undefined => {
    switch (this.sort) {
      case 'oldest':
        return a.doc.id - b.doc.id;
      case 'nameAsc':
        return serverOrder(a.doc.name, b.doc.name);
      case 'nameDesc': {
        const o = serverOrder(a.doc.name, b.doc.name);
        return o === undefined ? undefined : -o;
      }
      default:
        return b.doc.id - a.doc.id;
    }
  };

  #groupsFor(...docs: Array<{ template?: { id: number } | undefined } | undefined>): GroupNode[] {
    const out: GroupNode[] = [];
    if (this.#searchNode) out.push(this.#searchNode);
    out.push(this.#allNode, this.#otherNode);
    if (!this.#favoritesOnly) out.push(this.favoritesGroup);
    const seen = new Set<number>();
    for (const d of docs) {
      const id = d?.template?.id;
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      const g = this.templateGroup(id);
      if (g) out.push(g);
    }
    return out;
  }

  /** Moves a group's count; returns whether, with Hide Empty, the group appears or disappears (the root changes). */
  #adjustCount(g: GroupNode, delta: number): boolean {
    const before = this.#count(g.key);
    const list = this.#lists.get(g.key);
    if (list?.loaded) list.adjustTotal(delta);
    else {
      const n = this.#counts.get(g.key);
      if (typeof n === 'number') this.#counts.set(g.key, Math.max(0, n + delta));
      else if (n === 'some' && delta < 0) this.#counts.delete(g.key);
    }
    const after = this.#count(g.key);
    return this.#hideEmpty && (before === 0) !== (after === 0);
  }

  /** `except`: a group whose page brought the change (that page places the row itself). */
  #onDocumentChanged(doc: ContentDocument, previous: ContentDocument | undefined, except?: GroupNode): void {
    let root = this.#noteTemplate(doc);
    for (const g of this.#groupsFor(doc, previous)) {
      if (g === except) continue;
      const list = this.#lists.get(g.key);
      const node = list?.find(doc.id);
      const now = this.#matches(g, doc);
      if (list && node) {
        if (now === false) {
          list.remove(doc.id);
          root = this.#adjustCount(g, -1) || root;
          this.#fire(g);
        } else if (now === undefined) {
          // Only the server can tell whether the search still finds it: not claimed. Its next read of the
          // list shows it again if it does (the count stays the server's until then).
          list.remove(doc.id);
          this.#fire(g);
        } else {
          const renamed = previous !== undefined && previous.name !== doc.name;
          node.doc = doc;
          if (renamed && (this.sort === 'nameAsc' || this.sort === 'nameDesc')) {
            // Placed again only where its place is provable; otherwise Load more reaches it where the server lists it.
            list.remove(doc.id);
            list.place(node, this.#compare);
            this.#fire(g);
          } else {
            this.#fire(node);
          }
        }
        continue;
      }
      const was = previous ? this.#matches(g, previous) : undefined;
      if (was === false && now === true) {
        if (list?.loaded) list.place({ kind: 'document', parent: g, doc }, this.#compare);
        root = this.#adjustCount(g, +1) || root;
        this.#fire(g);
      } else if (was !== false && now === true && list?.loaded && !list.failed) {
        // A document of this group the list does not have (created elsewhere since it loaded, then opened or
        // changed here). Where the server's order puts it inside what is loaded, it is new since the load: the
        // server would have listed it. By name, it may instead have been renamed into that range: shown, not counted.
        const complete = !list.hasMore;
        if (list.place({ kind: 'document', parent: g, doc }, this.#compare)) {
          if (complete || this.sort === 'newest' || this.sort === 'oldest') root = this.#adjustCount(g, +1) || root;
          this.#fire(g);
        } else if (complete) {
          this.#fire(g);
        }
      } else if (was === true && now === false) {
        root = this.#adjustCount(g, -1) || root;
        this.#fire(g);
      }
    }
    if (root) this.#fire(undefined);
  }

  #onDocumentDeleted(d: ContentDocument | { id: number }): void {
    const full = 'name' in d ? d : undefined;
    let root = false;
    const groups = new Set<GroupNode>(this.#groupsFor(full));
    for (const key of this.#lists.keys()) {
      const g = key === 'search' ? this.#searchNode : this.#groupNodes.get(key);
      if (g) groups.add(g);
    }
    for (const g of groups) {
      const list = this.#lists.get(g.key);
      if (list?.remove(d.id)) {
        root = this.#adjustCount(g, -1) || root;
        this.#fire(g);
      } else if (full && this.#matches(g, full) === true) {
        root = this.#adjustCount(g, -1) || root;
        this.#fire(g);
      } else if (full && g.kind === 'other' && this.#inWholeList(full)) {
        // Other templates pages the whole list: a row it does not keep went from it too.
        list?.serverRowsChanged(-1, d.id);
      }
    }
    if (root) this.#fire(undefined);
  }

  /** A new document goes where the server's order puts it, in every group it belongs to (the search too, when it finds the document). */
  #onDocumentCreated(doc: ContentDocument): void {
    let root = this.#noteTemplate(doc);
    for (const g of this.#groupsFor(doc)) {
      const list = this.#lists.get(g.key);
      if (this.#matches(g, doc) !== true) {
        if (g.kind === 'other' && this.#inWholeList(doc)) list?.serverRowsChanged(+1, doc.id);
        continue;
      }
      if (list?.loaded && !list.find(doc.id)) list.place({ kind: 'document', parent: g, doc }, this.#compare);
      root = this.#adjustCount(g, +1) || root;
      this.#fire(g);
    }
    if (root) this.#fire(undefined);
  }

  /** Whether the list Other templates pages (All Documents, or its favorites) has the document. */
  #inWholeList(d: ContentDocument): boolean {
    return !this.#favoritesOnly || d.favorite;
  }

  /**
   * Documents a page brought (remembered by the service): custom templates noted; a document changed elsewhere
   * (renamed, favorited, moved to another template) leaves, joins or moves in the other groups as a change made here
   * would. In the page's own group (`from`) the row takes the new content, and, renamed under a name sort, the place
   * the page gives it.
   */
  #seen(p: DocumentPage, from?: GroupNode): void {
    let root = false;
    for (const d of p.items) root = this.#noteTemplate(d) || root;
    const byName = this.sort === 'nameAsc' || this.sort === 'nameDesc';
    for (const d of p.changed) {
      const list = from && this.#lists.get(from.key);
      const own = list?.find(d.id);
      if (own && byName && own.doc.name !== d.name) {
        // Renamed elsewhere: its row's place is stale; the page being merged puts it where the server lists it now.
        list!.remove(d.id);
        this.#fire(from);
      } else if (own) {
        own.doc = d;
        this.#fire(own);
      }
      this.#onDocumentChanged(d, p.previous?.get(d.id), from);
    }
    if (root) this.#fire(undefined);
  }

  /**
   * A template id the table does not know becomes a group, named by the server; a table template the server names
   * otherwise (its version's word) takes that name. Both are remembered for this account. Returns whether the root changed.
   */
  #noteTemplate(doc: ContentDocument): boolean {
    const t = doc.template;
    if (!t) return false;
    const group = this.#groupNodes.get(`t${t.id}`);
    if (isKnownTemplate(t.id)) {
      const name = t.name?.trim();
      if (!name || group?.kind !== 'template' || group.name === name) return false;
      group.name = name;
      const names = (this.#viewState.templateNames ?? []).filter(([id]) => id !== t.id);
      this.#remember({ templateNames: [...names, [t.id, name]] });
      return true;
    }
    if (group) return false;
    const name = templateName(t.id, t.name);
    this.#addTemplateGroup(t.id, name, true);
    if (!this.#counts.has(`t${t.id}`)) this.#counts.set(`t${t.id}`, 'some');
    // Counting that is over counts the new group when the root is next shown.
    if (this.#countState === 'done') this.#countState = 'idle';
    const custom = (this.#viewState.customTemplates ?? []).filter(([id]) => id !== t.id);
    this.#remember({ customTemplates: [...custom, [t.id, name]] });
    return true;
  }

  /** Keeps what was learned of the account's templates, with the server it was learned from. */
  #remember(learned: Pick<DocumentsViewState, 'customTemplates' | 'templateNames'>): void {
    this.#viewState = { ...this.#viewState, ...learned, templatesServer: this.#host.server?.() };
    void this.#saveState();
  }

  #addTemplateGroup(id: number, name: string, custom: boolean): void {
    this.#groupNodes.set(`t${id}`, { kind: 'template', key: `t${id}`, templateId: id, name, custom });
  }

  // --- Hide Empty Templates: counts in the background --------------------------------------------

  #stopCounting(): void {
    this.#countAbort?.abort();
    this.#countAbort = undefined;
  }

  /** Settles when background counting is over (or at once when none runs; tests wait for it). */
  get countingDone(): Promise<void> {
    return this.#countRun ?? Promise.resolve();
  }

  #startCounting(): void {
    if (this.#countAbort) return;
    const ac = new AbortController();
    this.#countAbort = ac;
    this.#countState = 'running';
    this.#countError = undefined;
    const run = this.#countAll(ac.signal).finally(() => {
      if (this.#countAbort === ac) this.#countAbort = undefined;
      if (this.#countRun === run) this.#countRun = undefined;
    });
    this.#countRun = run;
  }

  /** The groups counting is for whose count is not exact yet (Other templates follows from the others). */
  #uncounted(skip: ReadonlySet<string>): GroupNode[] {
    const groups: GroupNode[] = [this.#allNode, ...(this.#favoritesOnly ? [] : [this.favoritesGroup]), ...this.templateGroups()];
    return groups.filter((g) => !skip.has(g.key) && typeof this.#count(g.key) !== 'number');
  }

  /**
   * Counts each group whose count is not known: a small account from one walk of All Documents, else one small
   * request per group. One request at a time (never a burst), paced by {@link countIntervalMs} on top of the
   * client's own rate-limit pacing; groups found meanwhile (a custom template) are counted too. Stopped by
   * Refresh, sign-out or the counts no longer wanted.
   */
  async #countAll(signal: AbortSignal): Promise<void> {
    // Asked this run (a count without a total is not asked again).
    const asked = new Set<string>();
    /** Asked again because the list changed while their count was on the wire. */
    const again = new Set<string>();
    let requests = 0;
    const pace = async () => {
      if (requests++ > 0) await abortableSleep(this.countIntervalMs, signal);
    };
    const progress = () => {
      const left = this.#uncounted(asked).length;
      this.#countProgress = { done: asked.size, of: asked.size + left };
      this.#_onDidChangeCounting.fire();
    };
    try {
      progress();
      // Background work: the rows this count was started with are handed to the view first, and what the views ask
      // in the same moment (the Projects view's rows, opened with this one) leaves before the count's first request.
      await abortableSleep(0, signal, true);
      if (signal.aborted) return;
      if (this.#uncounted(asked).length > this.countWalkMaxPages) {
        await this.#countByWalk(signal, pace);
        if (signal.aborted) return;
        progress();
      }
      for (;;) {
        const g = this.#uncounted(asked)[0];
        if (!g || signal.aborted) break;
        asked.add(g.key);
        const list = this.#lists.get(g.key);
        if (list?.inFlight) await list.inFlight;
        if (this.#count(g.key) === undefined || this.#count(g.key) === 'some') {
          await pace();
          if (signal.aborted) return;
          const { sortBy: _sb, sort: _s, ...query } = this.#queryFor(g);
          const events = this.#events;
          const p = await this.#documents.list({ ...query, perPage: COUNT_PAGE_SIZE, page: 1 }, { signal, priority: 'background' });
          if (signal.aborted) return;
          if (this.#events !== events) {
            // A document was created, changed or deleted while the answer was on the wire: the answer may predate
            // it (the change could not move a count not known yet). Asked once more; else left uncounted (shown).
            if (!again.has(g.key)) {
              again.add(g.key);
              asked.delete(g.key);
            }
            progress();
            continue;
          }
          const n: Count = p.total ?? (p.hasMore ? 'some' : p.items.length);
          const now = this.#count(g.key);
          if (now === undefined || now === 'some') this.#counts.set(g.key, n);
          this.#fire(n === 0 ? undefined : g);
        }
        progress();
      }
    } catch (e) {
      if (signal.aborted || errorKind(e) === 'cancelled') return;
      this.#countState = 'failed';
      this.#countError = e;
      this.#host.log.warn(`[documents] counting stopped: ${reason(e)}`);
      this.#_onDidChangeCounting.fire();
      this.#fire(undefined);
      return;
    }
    if (signal.aborted) return;
    this.#countState = 'done';
    this.#_onDidChangeCounting.fire();
    this.#fire(undefined);
  }

  /**
   * Counts every group from one walk of All Documents by id, {@link WALK_PAGE_SIZE} a page, when its first page
   * says the account has at most {@link countWalkMaxPages} pages (else only All Documents is counted, from that
   * page). Documents are told apart by id; a walk that saw the list move (its total changed, the ids seen are not
   * the total, or a document was created, changed or deleted meanwhile) counts nothing and is walked again, once.
   */
  async #countByWalk(signal: AbortSignal, pace: () => Promise<void>): Promise<void> {
    const { sortBy: _sb, sort: _s, ...filter } = this.#queryFor(this.#allNode);
    const query = { ...filter, sortBy: 'id', sort: 'asc', perPage: WALK_PAGE_SIZE } as const;
    for (let attempt = 0; attempt < 2; attempt++) {
      const events = this.#events;
      await pace();
      if (signal.aborted) return;
      const first = await this.#documents.list({ ...query, page: 1 }, { signal, priority: 'background' });
      if (signal.aborted) return;
      this.#seen(first);
      const total = first.total;
      if (total === undefined) return;
      if (total > this.countWalkMaxPages * WALK_PAGE_SIZE) {
        if (typeof this.#count('all') !== 'number') this.#counts.set('all', total);
        this.#fire(this.#allNode);
        return;
      }
      const seen = new Map<number, ContentDocument>();
      for (const d of first.items) seen.set(d.id, d);
      let moved = false;
      let hasMore = first.hasMore;
      for (let page = 2; hasMore && page <= this.countWalkMaxPages + 1; page++) {
        await pace();
        if (signal.aborted) return;
        const p = await this.#documents.list({ ...query, page }, { signal, priority: 'background' });
        if (signal.aborted) return;
        this.#seen(p);
        if (p.total !== total) moved = true;
        for (const d of p.items) seen.set(d.id, d);
        hasMore = p.hasMore;
      }
      if (moved || hasMore || seen.size !== total || this.#events !== events) continue;
      const perTemplate = new Map<number, number>();
      let favorites = 0;
      for (const d of seen.values()) {
        if (d.favorite) favorites++;
        if (d.template) perTemplate.set(d.template.id, (perTemplate.get(d.template.id) ?? 0) + 1);
      }
      this.#counts.set('all', total);
      if (!this.#favoritesOnly) this.#counts.set('favorites', favorites);
      for (const g of this.templateGroups()) this.#counts.set(g.key, perTemplate.get(g.templateId) ?? 0);
      this.#fire(undefined);
      return;
    }
  }

  // --- Plumbing ------------------------------------------------------------------------------------

  #saveState(): Promise<void> {
    this.#_onDidChangeCounting.fire();
    return this.#persist();
  }

  /** Keeps the view state, unless the model was disposed (its account removed: what it kept was cleared with it). */
  #persist(): Promise<void> {
    return this.#disposed ? Promise.resolve() : this.#host.persist(this.#viewState);
  }

  /** Drops loaded pages; `keepCounts` (a sort, a page size): the counts they gave stay, as none changed. */
  #clearLists(keepCounts: boolean): void {
    if (keepCounts) {
      for (const key of this.#lists.keys()) {
        const n = key === 'search' ? undefined : this.#count(key);
        if (n !== undefined) this.#counts.set(key, n);
      }
    }
    this.#generation.abort();
    this.#generation = new AbortController();
    this.#lists.clear();
    this.#_onDidChangeCounting.fire();
    this.#fire(undefined);
  }

  #abortAll(): void {
    this.#generation.abort();
    this.#stopCounting();
  }

  /** Drops what is loaded and counted; `forgetAccount` (signed out, another key or server): that account's template names too. */
  #reset(why: string, forgetAccount: boolean): void {
    this.#host.log.debug(`[documents] reset (${why})`);
    this.#abortAll();
    this.#generation = new AbortController();
    this.#lists.clear();
    this.#counts.clear();
    this.#countState = 'idle';
    this.#countError = undefined;
    if (forgetAccount && (this.#viewState.customTemplates?.length || this.#viewState.templateNames?.length)) {
      for (const [id] of this.#viewState.customTemplates ?? []) this.#groupNodes.delete(`t${id}`);
      for (const [id] of this.#viewState.templateNames ?? []) {
        const g = this.templateGroup(id);
        if (g) g.name = templateName(id);
      }
      this.#viewState = { ...this.#viewState, customTemplates: undefined, templateNames: undefined, templatesServer: undefined };
      void this.#persist();
    }
    this.#_onDidChangeCounting.fire();
    this.#fire(undefined);
  }

  #fire(node: DocNode | undefined): void {
    if (!this.#disposed) this.#_onDidChange.fire(node);
  }
}

export function isGroup(node: DocNode): node is GroupNode {
  return node.kind === 'template' || node.kind === 'favorites' || node.kind === 'searchResults' || node.kind === 'all' || node.kind === 'other';
}

/** A template the table does not know: a custom one (named by the server) or a deleted one (`"template": []`). */
export function isOtherTemplate(d: ContentDocument): boolean {
  return !d.template || !isKnownTemplate(d.template.id);
}

/** The persisted view state, checked field by field (globalState can hold anything). */
export function readState(raw: unknown): DocumentsViewState {
  const out: DocumentsViewState = {};
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  if (typeof r.sort === 'string' && Object.hasOwn(SORT_QUERY, r.sort)) out.sort = r.sort as DocumentSortSetting;
  if (r.favoritesOnly === true) out.favoritesOnly = true;
  const s = r.search as Record<string, unknown> | undefined;
  if (s && typeof s === 'object' && typeof s.text === 'string' && !isBlank(s.text) && (s.by === 'name' || s.by === 'result')) {
    out.search = { text: serverTrim(s.text), by: s.by };
  }
  if (Array.isArray(r.customTemplates)) {
    const list: Array<[number, string]> = [];
    for (const e of r.customTemplates as unknown[]) {
      if (!Array.isArray(e)) continue;
      const [id, name] = e as unknown[];
      if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0 && !isKnownTemplate(id) && typeof name === 'string') list.push([id, name]);
    }
    if (list.length) out.customTemplates = list;
  }
  if (Array.isArray(r.templateNames)) {
    const list: Array<[number, string]> = [];
    for (const e of r.templateNames as unknown[]) {
      if (!Array.isArray(e)) continue;
      const [id, name] = e as unknown[];
      if (typeof id === 'number' && isKnownTemplate(id) && typeof name === 'string' && name.trim()) list.push([id, name.trim()]);
    }
    if (list.length) out.templateNames = list;
  }
  if (typeof r.templatesServer === 'string') out.templatesServer = r.templatesServer;
  return out;
}
