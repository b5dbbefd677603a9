import * as vscode from 'vscode';
import type { ContentDocument, DocumentListQuery, Page } from '../api/index';
import { isKnownTemplate, TEMPLATES, templateName } from '../api/templates';
import type { DocumentSortField, SortOrder } from '../api/validate';
import type { Credentials } from '../auth/credentials';
import { CMD, CTX, STATE, VIEW } from '../constants';
import type { ApiProvider } from '../services/apiProvider';
import type { DocumentService } from '../services/documentService';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { dateTime, errorPresentation, formatCount, fromNow, kindOf, md, parseDate, reason, words } from './format';
import { compareNames, searchFinds } from '../api/collation';
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
} from './nodes';
import { PagedList } from './pagedList';

export type { DocNode } from './nodes';

/** The page size of the background count requests (only `meta.total` is needed). */
const COUNT_PAGE_SIZE = 10;
/** A count that is known to be non-zero, but not exactly. */
const SOME = -1;

export const DOCUMENT_SORTS: ReadonlyArray<{ value: config.DocumentSortSetting; label: string; sortBy: DocumentSortField; sort: SortOrder }> = [
  { value: 'newest', label: 'Date created, newest first', sortBy: 'id', sort: 'desc' },
  { value: 'oldest', label: 'Date created, oldest first', sortBy: 'id', sort: 'asc' },
  { value: 'nameAsc', label: 'Name, A to Z', sortBy: 'name', sort: 'asc' },
  { value: 'nameDesc', label: 'Name, Z to A', sortBy: 'name', sort: 'desc' },
];

const SORT_SHORT: Record<config.DocumentSortSetting, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  nameAsc: 'Name A–Z',
  nameDesc: 'Name Z–A',
};

type CountState = 'idle' | 'running' | 'done' | 'failed';

/** Other templates: pages of the whole list read per expand or Load more, at most, to find some rows. */
const OTHER_SCAN_PAGES = 3;
/** Other templates: the page size of that reading (the largest the server allows). */
const OTHER_SCAN_PAGE_SIZE = 100;

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
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
 * The Documents view: a Search results group (when searching), Favorites, and one group per template
 * (the 52 of the table plus custom ones seen). Opening the view costs no request: a group fetches its
 * first page when expanded, then one page per "Load more…". Lists are cached per group with the
 * in-flight promise; Refresh drops the cache. DocumentService events update rows in place.
 */
export class DocumentsTreeProvider extends Disposable implements vscode.TreeDataProvider<DocNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<DocNode | DocNode[] | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  private view: vscode.TreeView<DocNode> | undefined;
  private generation = new AbortController();
  /** Loaded pages per group key. */
  private readonly lists = new Map<string, PagedList<DocumentNode>>();
  /** Counts learned without loading the group (background counting), per group key. */
  private readonly counts = new Map<string, number>();
  private readonly groupNodes = new Map<string, TemplateGroupNode | FavoritesGroupNode>();
  private readonly allNode: AllGroupNode = { kind: 'all', key: 'all' };
  private readonly otherNode: OtherGroupNode = { kind: 'other', key: 'other' };
  private searchNode: SearchGroupNode | undefined;
  /** Every node this provider handed out: commands trust only these (anything else is re-read). */
  private readonly owned = new WeakSet<object>();
  private viewState: DocumentsViewState;

  private countState: CountState = 'idle';
  private countError: unknown;
  private countAbort: AbortController | undefined;
  private countProgress = { done: 0, of: 0 };
  /** Pause between two background count requests (leaves the rate limit to the user). Tests set 0. */
  countIntervalMs = 2000;

  private pendingFires = new Set<DocNode>();
  private pendingRoot = false;
  private fireTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly documents: DocumentService,
    readonly api: ApiProvider,
    readonly credentials: Credentials,
    readonly state: vscode.Memento,
    readonly log: Logger,
  ) {
    super();
    this.viewState = readState(state.get(STATE.documentsView));
    this.groupNodes.set('favorites', { kind: 'favorites', key: 'favorites' });
    for (const t of TEMPLATES) this.addTemplateGroup(t.id, t.name, false);
    for (const [id, name] of this.viewState.customTemplates ?? []) this.addTemplateGroup(id, name, true);
    if (this.viewState.search) this.searchNode = { kind: 'searchResults', key: 'search', search: this.viewState.search };

    this._register(credentials.onDidChange((signedIn) => this.reset(signedIn ? 'signed in' : 'signed out', !signedIn)));
    this._register(documents.onDidChange(({ doc, previous }) => this.onDocumentChanged(doc, previous)));
    this._register(documents.onDidDelete((d) => this.onDocumentDeleted(d)));
    this._register(documents.onDidCreate((doc) => this.onDocumentCreated(doc)));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'documents.baseUrl')) this.reset('server changed', false);
        else if (config.affects(e, 'documents.pageSize')) this.clearLists();
        else if (config.affects(e, 'documents.defaultSort') && !this.viewState.sort) this.clearLists();
        if (config.affects(e, 'documents.hideEmptyTemplates')) this.onHideEmptyChanged();
        if (config.affects(e, 'files.language')) this.fire(undefined);
      }),
    );
    this._register({
      dispose: () => {
        this.abortAll();
        if (this.fireTimer) clearTimeout(this.fireTimer);
        this.fireTimer = undefined;
      },
    });
    void this.updateContext();
  }

  attach(view: vscode.TreeView<DocNode>): vscode.TreeView<DocNode> {
    this.view = view;
    this.updateViewText();
    return view;
  }

  /** The TreeView, once attached (tests reveal nodes through it). */
  get treeView(): vscode.TreeView<DocNode> | undefined {
    return this.view;
  }

  owns(node: unknown): node is DocNode {
    return typeof node === 'object' && node !== null && this.owned.has(node);
  }

  // --- View choices (persisted) -------------------------------------------------------------------

  get sort(): config.DocumentSortSetting {
    return this.viewState.sort ?? config.defaultDocumentSort();
  }

  get favoritesOnly(): boolean {
    return this.viewState.favoritesOnly === true;
  }

  get search(): DocumentSearch | undefined {
    return this.viewState.search;
  }

  get hideEmpty(): boolean {
    return config.hideEmptyTemplates();
  }

  /** What the view title says below its name (also what tests read). */
  get message(): string | undefined {
    return this.viewMessage();
  }

  async setSort(sort: config.DocumentSortSetting): Promise<void> {
    if (sort === this.sort && this.viewState.sort) return;
    this.viewState = { ...this.viewState, sort };
    await this.saveState();
    this.clearLists();
  }

  async setFavoritesOnly(on: boolean): Promise<void> {
    if (on === this.favoritesOnly) return;
    this.viewState = { ...this.viewState, favoritesOnly: on || undefined };
    await this.saveState();
    // Every template count means something else now.
    this.stopCounting();
    this.counts.clear();
    this.clearLists();
    this.countState = 'idle';
    this.updateViewText();
  }

  /** Sets (or clears, with undefined) the search; the Search results group loads when shown. */
  setSearch(search: DocumentSearch | undefined): Promise<SearchGroupNode | undefined> {
    const text = search?.text.trim();
    const next = text ? { text, by: search!.by } : undefined;
    this.viewState = { ...this.viewState, search: next };
    this.lists.delete('search');
    this.searchNode = next ? { kind: 'searchResults', key: 'search', search: next } : undefined;
    // Not awaited: the search request need not wait for the context keys and the saved state to reach the workbench.
    void this.saveState().then(undefined, (e: unknown) => this.log.warn(`[documents] couldn't keep the search: ${reason(e)}`));
    this.fire(undefined);
    return Promise.resolve(this.searchNode);
  }

  get searchGroup(): SearchGroupNode | undefined {
    return this.searchNode;
  }

  // --- TreeDataProvider -------------------------------------------------------------------------

  getParent(node: DocNode): DocNode | undefined {
    switch (node.kind) {
      case 'document':
      case 'loadMore':
      case 'empty':
      case 'error':
        return node.parent;
      default:
        return undefined;
    }
  }

  async getChildren(node?: DocNode): Promise<DocNode[]> {
    let children: DocNode[];
    if (!node) children = await this.rootChildren();
    else if (isGroup(node)) children = await this.groupChildren(node);
    else children = [];
    for (const c of children) this.owned.add(c);
    return children;
  }

  getTreeItem(node: DocNode): vscode.TreeItem {
    switch (node.kind) {
      case 'template':
      case 'favorites':
      case 'searchResults':
      case 'all':
      case 'other':
        return this.groupItem(node);
      case 'document':
        return this.documentItem(node);
      case 'loadMore':
        return this.loadMoreItem(node);
      case 'error':
        return this.errorItem(node);
      case 'empty':
        return this.emptyItem(node);
    }
  }

  resolveTreeItem(item: vscode.TreeItem, node: DocNode): vscode.TreeItem {
    if (node.kind === 'document') item.tooltip = documentTooltip(node.doc);
    return item;
  }

  // --- Root and groups ----------------------------------------------------------------------------

  private async rootChildren(): Promise<DocNode[]> {
    if (!(await this.credentials.hasKey())) return [];
    const hide = this.hideEmpty;
    if (hide && this.countState === 'idle') this.startCounting();
    const shown = (g: GroupNode) => {
      if (!hide) return true;
      const n = this.countOf(g.key);
      // Other templates cannot be counted with one request: shown until its count is known.
      return n === undefined ? this.countState === 'failed' || g.kind === 'other' : n !== 0;
    };
    const out: DocNode[] = [];
    if (this.searchNode) out.push(this.searchNode);
    if (shown(this.allNode)) out.push(this.allNode);
    if (!this.favoritesOnly) {
      const fav = this.groupNodes.get('favorites')!;
      if (shown(fav)) out.push(fav);
    }
    for (const g of this.templateGroups()) if (shown(g)) out.push(g);
    if (shown(this.otherNode)) out.push(this.otherNode);
    return out;
  }

  /** Template groups, by name: the table's 52 and custom ones the server named. */
  templateGroups(): TemplateGroupNode[] {
    const groups = [...this.groupNodes.values()].filter((g): g is TemplateGroupNode => g.kind === 'template');
    return groups.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.templateId - b.templateId);
  }

  templateGroup(templateId: number): TemplateGroupNode | undefined {
    const g = this.groupNodes.get(`t${templateId}`);
    return g?.kind === 'template' ? g : undefined;
  }

  get favoritesGroup(): FavoritesGroupNode {
    return this.groupNodes.get('favorites') as FavoritesGroupNode;
  }

  get allGroup(): AllGroupNode {
    return this.allNode;
  }

  get otherGroup(): OtherGroupNode {
    return this.otherNode;
  }

  /** The count a group shows: from its loaded list, else from background counting. SOME = non-zero. */
  countOf(key: string): number | undefined {
    const list = this.lists.get(key);
    if (list?.loaded && list.total !== undefined) return list.total;
    if (list?.loaded && !list.hasMore) return list.items.length;
    if (key === 'other' && !this.counts.has(key)) return this.otherCount();
    return this.counts.get(key);
  }

  /** Every document is in All Documents and in one table template or in Other templates: the difference, once all are counted. */
  private otherCount(): number | undefined {
    const all = this.countOf('all');
    if (all === undefined || all < 0) return undefined;
    let inTable = 0;
    for (const t of TEMPLATES) {
      const n = this.countOf(`t${t.id}`);
      if (n === undefined || n < 0) return undefined;
      inTable += n;
    }
    return Math.max(0, all - inTable);
  }

  private isCurrent(g: GroupNode): boolean {
    if (g.kind === 'all') return g === this.allNode;
    if (g.kind === 'other') return g === this.otherNode;
    return g.kind === 'searchResults' ? g === this.searchNode : this.groupNodes.get(g.key) === g;
  }

  private listFor(g: GroupNode): PagedList<DocumentNode> {
    let list = this.lists.get(g.key);
    if (!list) {
      const signal = this.generation.signal;
      const perPage = config.documentsPageSize();
      const fetch = g.kind === 'other' ? this.otherScanner(g) : (page: number, sig: AbortSignal) => this.fetchPage(g, page, perPage, sig);
      list = new PagedList<DocumentNode>(
        fetch,
        (n) => n.doc.id,
        perPage,
        signal,
      );
      this.lists.set(g.key, list);
    }
    return list;
  }

  private async fetchPage(g: GroupNode, page: number, perPage: config.PageSize, signal: AbortSignal): Promise<Page<DocumentNode>> {
    const query: DocumentListQuery = { ...this.queryFor(g), perPage, page };
    const p = await this.documents.list(query, signal);
    this.seen(p, g);
    return { ...p, items: p.items.map((doc) => ({ kind: 'document', parent: g, doc })) };
  }

  /**
   * Other templates: the whole list in the view's order, read a page of 100 at a time from where the last
   * reading stopped, keeping the documents whose template is not in the table. One expand or Load more reads
   * up to {@link OTHER_SCAN_PAGES} pages, stopping as soon as it has rows to show.
   */
  private otherScanner(g: OtherGroupNode): (page: number, signal: AbortSignal) => Promise<Page<DocumentNode>> {
    let read = 0;
    return async (_page, signal) => {
      const items: DocumentNode[] = [];
      let hasMore = true;
      for (let i = 0; i < OTHER_SCAN_PAGES && hasMore && items.length === 0; i++) {
        const p = await this.documents.list({ ...this.queryFor(g), perPage: OTHER_SCAN_PAGE_SIZE, page: read + 1 }, signal);
        read++;
        hasMore = p.hasMore;
        this.seen(p, g);
        for (const doc of p.items) if (isOtherTemplate(doc)) items.push({ kind: 'document', parent: g, doc });
      }
      return { items, hasMore, page: read, perPage: undefined, total: undefined, lastPage: undefined };
    };
  }

  private queryFor(g: GroupNode): DocumentListQuery {
    const sort = DOCUMENT_SORTS.find((s) => s.value === this.sort) ?? DOCUMENT_SORTS[0];
    const q: DocumentListQuery = { sortBy: sort.sortBy, sort: sort.sort };
    const favorite = this.favoritesOnly ? true : undefined;
    if (g.kind === 'template') return { ...q, templateId: g.templateId, favorite };
    if (g.kind === 'favorites') return { ...q, favorite: true };
    if (g.kind === 'all' || g.kind === 'other') return { ...q, favorite };
    return { ...q, search: g.search.text, searchBy: g.search.by, favorite };
  }

  private async groupChildren(g: GroupNode): Promise<DocNode[]> {
    if (!this.isCurrent(g) || !(await this.credentials.hasKey())) return [];
    const list = this.listFor(g);
    if (!list.loaded && !list.failed) {
      const before = this.countOf(g.key);
      await this.withProgress(list.ensure());
      if (this.lists.get(g.key) !== list) return this.isCurrent(g) ? this.groupChildren(g) : [];
      this.afterLoad(g, list, before);
    }
    return this.render(g, list);
  }

  private render(g: GroupNode, list: PagedList<DocumentNode>): DocNode[] {
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
  private afterLoad(g: GroupNode, list: PagedList<DocumentNode>, before: number | undefined): void {
    if (list.failed) {
      const e = list.error;
      if (kindOf(e) !== 'cancelled') this.log.warn(`[documents] loading ${g.key} failed: ${reason(e)}`);
      return;
    }
    const after = this.countOf(g.key);
    if (after !== before) {
      if (g.kind !== 'searchResults') this.counts.delete(g.key);
      if (this.hideEmpty && (after === 0) !== (before === 0)) this.fire(undefined);
      else this.fire(g);
    }
  }

  /** Load more…: one request for the next page of that group; only that group is refreshed. */
  async loadMore(node: LoadMoreNode<GroupNode> | GroupNode): Promise<void> {
    const g = node.kind === 'loadMore' ? node.parent : node;
    if (!this.isCurrent(g)) return;
    const list = this.lists.get(g.key);
    if (!list || !list.loaded) {
      await this.getChildren(g);
      return;
    }
    if (!list.hasMore && !list.failed) return;
    const before = this.countOf(g.key);
    const p = list.failed ? list.retry() : list.next();
    await this.loading(g, p);
    if (this.lists.get(g.key) !== list) return;
    this.afterLoad(g, list, before);
    this.fire(g);
  }

  /** Retry on an error item: reloads only the group that failed. */
  async retry(node: ErrorNode<GroupNode>): Promise<void> {
    const g = node.parent;
    if (!g) {
      this.fire(undefined);
      return;
    }
    if (!this.isCurrent(g)) return;
    const list = this.lists.get(g.key);
    if (!list) {
      this.fire(g);
      return;
    }
    const before = this.countOf(g.key);
    const p = list.retry();
    await this.loading(g, p);
    if (this.lists.get(g.key) !== list) return;
    this.afterLoad(g, list, before);
    this.fire(g);
  }

  /** Refresh: drops every cached list and count (and stops counting); the view reloads what it shows. */
  refresh(): void {
    this.reset('refresh', false);
  }

  /** Loads a group's first page (deduped with the view's own request) and returns its children. */
  async load(g: GroupNode): Promise<DocNode[]> {
    return this.getChildren(g);
  }

  // --- Rendering ----------------------------------------------------------------------------------

  private groupItem(g: GroupNode): vscode.TreeItem {
    const n = this.countOf(g.key);
    const count = n !== undefined && n >= 0 ? formatCount(n) : undefined;
    const look = this.groupLook(g, n);
    const item = new vscode.TreeItem(
      look.label,
      g.kind === 'searchResults' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.iconPath = new vscode.ThemeIcon(look.icon);
    item.description = count;
    item.tooltip = look.tooltip;
    item.contextValue = look.contextValue;
    item.id = `group:${g.key}`;
    return item;
  }

  /** What sets one group's row apart: its label, codicon, tooltip and context value. */
  private groupLook(g: GroupNode, n: number | undefined): { label: string; icon: string; tooltip: string; contextValue: string } {
    switch (g.kind) {
      case 'searchResults':
        return {
          label:
            g.search.by === 'result'
              ? vscode.l10n.t('Search results in text: "{0}"', g.search.text)
              : vscode.l10n.t('Search results: "{0}"', g.search.text),
          icon: 'search',
          tooltip:
            (g.search.by === 'result'
              ? vscode.l10n.t('Documents whose text contains "{0}"', g.search.text)
              : vscode.l10n.t('Documents whose name contains "{0}"', g.search.text)) +
            (this.favoritesOnly ? vscode.l10n.t(' (favorites only)') : ''),
          contextValue: 'searchResults',
        };
      case 'all':
        return {
          label: vscode.l10n.t('All Documents'),
          icon: 'files',
          tooltip: this.favoritesOnly ? vscode.l10n.t('Every favorite document, whatever its template') : vscode.l10n.t('Every document of the account, whatever its template'),
          contextValue: 'allDocuments',
        };
      case 'other':
        return {
          label: vscode.l10n.t('Other templates'),
          icon: 'folder-library',
          tooltip: vscode.l10n.t('Documents on custom templates, or on templates that were deleted'),
          contextValue: 'otherTemplates',
        };
      case 'favorites':
        return { label: vscode.l10n.t('Favorites'), icon: 'star-full', tooltip: vscode.l10n.t('Documents you marked as favorite'), contextValue: 'favorites' };
      case 'template': {
        const what = this.favoritesOnly ? vscode.l10n.t('favorite documents') : vscode.l10n.t('documents');
        return {
          label: g.name,
          icon: g.custom ? 'folder-library' : 'folder',
          tooltip:
            n === undefined || n < 0
              ? vscode.l10n.t('{0}: expand to list its {1}', g.name, what)
              : vscode.l10n.t('{0}: {1} {2}', g.name, formatCount(n), what) + (g.custom ? vscode.l10n.t(' (custom template)') : ''),
          contextValue: g.custom ? 'template:custom' : 'template',
        };
      }
    }
  }

  private documentItem(node: DocumentNode): vscode.TreeItem {
    const d = node.doc;
    const item = new vscode.TreeItem(d.name.trim() ? d.name : vscode.l10n.t('Untitled'), vscode.TreeItemCollapsibleState.None);
    item.id = `doc:${node.parent.key}:${d.id}`;
    const updated = parseDate(d.updated_at) ?? parseDate(d.created_at);
    item.description = updated ? `${words(d.words)} · ${vscode.l10n.t('updated {0}', fromNow(updated))}` : words(d.words);
    // Where the group does not say the template, the row does.
    if (node.parent.kind === 'other' || node.parent.kind === 'all') item.description = `${templateLabel(d)} · ${item.description}`;
    item.iconPath = new vscode.ThemeIcon(d.favorite ? 'star-full' : config.fileLanguage() === 'markdown' ? 'markdown' : 'file-text');
    item.contextValue = d.favorite ? 'document:favorite' : 'document';
    item.command = { command: CMD.documentOpen, title: vscode.l10n.t('Open'), arguments: [{ id: d.id }] };
    item.accessibilityInformation = { label: `${item.label as string}, ${item.description}${d.favorite ? ', favorite' : ''}` };
    return item;
  }

  private loadMoreItem(node: LoadMoreNode<GroupNode>): vscode.TreeItem {
    const list = this.lists.get(node.parent.key);
    const loading = list?.loading === true;
    const item = new vscode.TreeItem(loading ? vscode.l10n.t('Loading more…') : vscode.l10n.t('Load more…'));
    item.id = `more:${node.parent.key}`;
    const total = this.countOf(node.parent.key);
    if (list && total !== undefined && total >= 0) item.description = vscode.l10n.t('{0} of {1}', formatCount(list.items.length), formatCount(total));
    item.iconPath = new vscode.ThemeIcon(loading ? 'loading~spin' : 'unfold');
    item.contextValue = 'loadMore';
    if (!loading) item.command = { command: CMD.documentsLoadMore, title: vscode.l10n.t('Load More'), arguments: [node] };
    return item;
  }

  private errorItem(node: ErrorNode<GroupNode>): vscode.TreeItem {
    const action =
      node.parent?.kind === 'searchResults'
        ? vscode.l10n.t("Couldn't search the documents")
        : node.parent?.kind === 'favorites'
          ? vscode.l10n.t("Couldn't load the favorite documents")
          : vscode.l10n.t("Couldn't load the documents");
    const p = errorPresentation(action, node.error, node.at);
    const item = new vscode.TreeItem(p.label);
    item.id = `error:${node.parent?.key ?? 'root'}`;
    item.description = p.description;
    item.tooltip = p.tooltip;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.contextValue = 'error';
    item.command = p.signIn
      ? { command: CMD.signIn, title: vscode.l10n.t('Set API Key') }
      : { command: CMD.retry, title: vscode.l10n.t('Retry'), arguments: [node] };
    return item;
  }

  private emptyItem(node: EmptyNode<GroupNode>): vscode.TreeItem {
    const g = node.parent;
    const label =
      g?.kind === 'searchResults'
        ? vscode.l10n.t('No documents match')
        : g?.kind === 'favorites'
          ? vscode.l10n.t('No favorites yet')
          : g?.kind === 'other'
            ? vscode.l10n.t('No documents on custom or deleted templates')
          : this.favoritesOnly
            ? vscode.l10n.t('No favorite documents')
            : vscode.l10n.t('No documents');
    const item = new vscode.TreeItem(label);
    item.id = `empty:${g?.key ?? 'root'}`;
    item.contextValue = 'empty';
    return item;
  }

  // --- Keeping rows true to the server, without refetching ------------------------------------------

  /** Whether a document belongs in a group: true/false, or undefined when only the server can tell (a search on unusual letters). */
  private matches(g: GroupNode, d: ContentDocument, listed: boolean): boolean | undefined {
    if (g.kind === 'template') return d.template?.id === g.templateId && (!this.favoritesOnly || d.favorite);
    if (g.kind === 'favorites') return d.favorite;
    if (g.kind === 'all') return !this.favoritesOnly || d.favorite;
    if (g.kind === 'other') return isOtherTemplate(d) && (!this.favoritesOnly || d.favorite);
    if (this.favoritesOnly && !d.favorite) return false;
    return listed ? true : searchFinds(g.search.by === 'name' ? d.name : d.result, g.search.text);
  }

  private compare = (a: DocumentNode, b: DocumentNode): number => {
    const byId = a.doc.id - b.doc.id;
    switch (this.sort) {
      case 'oldest':
        return byId;
      case 'nameAsc':
        return compareNames(a.doc.name, b.doc.name) || byId;
      case 'nameDesc':
        return -(compareNames(a.doc.name, b.doc.name) || byId);
      default:
        return -byId;
    }
  };

  private groupsFor(...docs: Array<{ template?: { id: number } | undefined } | undefined>): GroupNode[] {
    const out: GroupNode[] = [];
    if (this.searchNode) out.push(this.searchNode);
    out.push(this.allNode, this.otherNode);
    if (!this.favoritesOnly) out.push(this.favoritesGroup);
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

  private adjustCount(g: GroupNode, delta: number): boolean {
    const before = this.countOf(g.key);
    const list = this.lists.get(g.key);
    if (list?.loaded) list.adjustTotal(delta);
    else {
      const n = this.counts.get(g.key);
      if (n !== undefined && n >= 0) this.counts.set(g.key, Math.max(0, n + delta));
      else if (n === SOME && delta < 0) this.counts.delete(g.key);
    }
    const after = this.countOf(g.key);
    return this.hideEmpty && (before === 0) !== (after === 0);
  }

  private onDocumentChanged(doc: ContentDocument, previous: ContentDocument | undefined): void {
    let root = this.noteTemplate(doc);
    for (const g of this.groupsFor(doc, previous)) {
      const list = this.lists.get(g.key);
      const node = list?.find(doc.id);
      const now = this.matches(g, doc, node !== undefined);
      if (list && node) {
        if (now === false) {
          list.remove(doc.id);
          root = this.adjustCount(g, -1) || root;
          this.fire(g);
        } else {
          const renamed = previous !== undefined && previous.name !== doc.name;
          node.doc = doc;
          if (renamed && (this.sort === 'nameAsc' || this.sort === 'nameDesc')) {
            list.remove(doc.id);
            list.place(node, this.compare);
            this.fire(g);
          } else {
            this.fire(node);
          }
        }
        continue;
      }
      const was = previous ? this.matches(g, previous, false) : undefined;
      if (was === false && now === true) {
        if (list?.loaded) list.place({ kind: 'document', parent: g, doc }, this.compare);
        root = this.adjustCount(g, +1) || root;
        this.fire(g);
      } else if (was !== false && now === true && list?.loaded && !list.failed) {
        // A document of this group the list does not have (created elsewhere since it loaded, then opened or
        // changed here). Where the server's order puts it inside what is loaded, it is new since the load: the
        // server would have listed it. By name, it may instead have been renamed into that range: shown, not counted.
        const complete = !list.hasMore;
        if (list.place({ kind: 'document', parent: g, doc }, this.compare)) {
          if (complete || this.sort === 'newest' || this.sort === 'oldest') root = this.adjustCount(g, +1) || root;
          this.fire(g);
        }
      } else if (was === true && now === false) {
        root = this.adjustCount(g, -1) || root;
        this.fire(g);
      }
    }
    if (root) this.fire(undefined);
  }

  private onDocumentDeleted(d: ContentDocument | { id: number }): void {
    const full = 'name' in d ? d : undefined;
    let root = false;
    const groups = new Set<GroupNode>(this.groupsFor(full));
    for (const key of this.lists.keys()) {
      const g = key === 'search' ? this.searchNode : this.groupNodes.get(key);
      if (g) groups.add(g);
    }
    for (const g of groups) {
      const list = this.lists.get(g.key);
      if (list?.remove(d.id)) {
        root = this.adjustCount(g, -1) || root;
        this.fire(g);
      } else if (full && this.matches(g, full, false) === true) {
        root = this.adjustCount(g, -1) || root;
        this.fire(g);
      }
    }
    if (root) this.fire(undefined);
  }

  /** A new document goes where the server's order puts it, in every group it belongs to (the search too, when it finds the document). */
  private onDocumentCreated(doc: ContentDocument): void {
    let root = this.noteTemplate(doc);
    for (const g of this.groupsFor(doc)) {
      if (this.matches(g, doc, false) !== true) continue;
      const list = this.lists.get(g.key);
      if (list?.loaded && !list.find(doc.id)) list.place({ kind: 'document', parent: g, doc }, this.compare);
      root = this.adjustCount(g, +1) || root;
      this.fire(g);
    }
    if (root) this.fire(undefined);
  }

  /** Documents a page brought (remembered by the service): custom templates noted, other rows of changed documents redrawn. */
  private seen({ items, changed }: { items: readonly ContentDocument[]; changed: readonly ContentDocument[] }, from: GroupNode): void {
    let root = false;
    for (const d of items) root = this.noteTemplate(d) || root;
    for (const d of changed) {
      for (const [key, list] of this.lists) {
        if (key === from.key) continue;
        const node = list.find(d.id);
        if (node) {
          node.doc = d;
          this.fire(node);
        }
      }
    }
    if (root) this.fire(undefined);
  }

  /** A template id the table does not know becomes a group, named by the server (and remembered). */
  private noteTemplate(doc: ContentDocument): boolean {
    const t = doc.template;
    if (!t || isKnownTemplate(t.id) || this.groupNodes.has(`t${t.id}`)) return false;
    const name = templateName(t.id, t.name);
    this.addTemplateGroup(t.id, name, true);
    if (!this.counts.has(`t${t.id}`)) this.counts.set(`t${t.id}`, SOME);
    const custom = (this.viewState.customTemplates ?? []).filter(([id]) => id !== t.id);
    this.viewState = { ...this.viewState, customTemplates: [...custom, [t.id, name]] };
    void this.saveState();
    return true;
  }

  private addTemplateGroup(id: number, name: string, custom: boolean): void {
    this.groupNodes.set(`t${id}`, { kind: 'template', key: `t${id}`, templateId: id, name, custom });
  }

  // --- Hide Empty Templates: counts in the background --------------------------------------------

  private onHideEmptyChanged(): void {
    void this.updateContext();
    if (!this.hideEmpty) {
      this.stopCounting();
      this.countState = 'idle';
    }
    this.updateViewText();
    this.fire(undefined);
  }

  private stopCounting(): void {
    this.countAbort?.abort();
    this.countAbort = undefined;
  }

  /** Whether background counting is under way (tests wait for it). */
  get countingDone(): Promise<void> {
    return this.countRun ?? Promise.resolve();
  }
  private countRun: Promise<void> | undefined;

  private startCounting(): void {
    if (this.countAbort) return;
    const ac = new AbortController();
    this.countAbort = ac;
    this.countState = 'running';
    this.countError = undefined;
    const run = this.countAll(ac.signal).finally(() => {
      if (this.countAbort === ac) this.countAbort = undefined;
      if (this.countRun === run) this.countRun = undefined;
    });
    this.countRun = run;
  }

  /**
   * Counts each group whose count is unknown: one small request at a time (never a burst), paced by
   * {@link countIntervalMs} on top of the client's own rate-limit pacing, stopped by Refresh,
   * sign-out or turning the option off.
   */
  private async countAll(signal: AbortSignal): Promise<void> {
    // Other templates is not counted by a request: its count follows from the others (see otherCount).
    const groups: GroupNode[] = [this.allNode, ...(this.favoritesOnly ? [] : [this.favoritesGroup]), ...this.templateGroups()];
    const todo = groups.filter((g) => this.countOf(g.key) === undefined);
    this.countProgress = { done: 0, of: todo.length };
    this.updateViewText();
    let asked = false;
    for (const g of todo) {
      if (signal.aborted) return;
      const list = this.lists.get(g.key);
      if (list?.inFlight) await list.inFlight;
      if (this.countOf(g.key) === undefined) {
        if (asked) await abortableSleep(this.countIntervalMs, signal);
        if (signal.aborted) return;
        asked = true;
        try {
          const { sortBy: _sb, sort: _s, ...query } = this.queryFor(g);
          const p = await this.documents.list({ ...query, perPage: COUNT_PAGE_SIZE, page: 1 }, signal);
          if (signal.aborted) return;
          const n = p.total ?? (p.hasMore ? SOME : p.items.length);
          if (this.countOf(g.key) === undefined) this.counts.set(g.key, n);
          if (n !== 0) this.fire(undefined);
        } catch (e) {
          if (signal.aborted || kindOf(e) === 'cancelled') return;
          this.countState = 'failed';
          this.countError = e;
          this.log.warn(`[documents] counting stopped: ${reason(e)}`);
          this.updateViewText();
          this.fire(undefined);
          return;
        }
      }
      this.countProgress = { done: this.countProgress.done + 1, of: todo.length };
      this.updateViewText();
    }
    this.countState = 'done';
    this.updateViewText();
    this.fire(undefined);
  }

  // --- Plumbing ------------------------------------------------------------------------------------

  private viewMessage(): string | undefined {
    if (!this.hideEmpty) return undefined;
    if (this.countState === 'running') {
      return vscode.l10n.t('Counting the documents of each template ({0} of {1})… empty templates are hidden.', this.countProgress.done, this.countProgress.of);
    }
    if (this.countState === 'failed') {
      return vscode.l10n.t("Couldn't count every template ({0}); templates not counted yet are shown. Refresh to try again.", reason(this.countError));
    }
    return undefined;
  }

  private updateViewText(): void {
    if (!this.view) return;
    this.view.message = this.viewMessage();
    const parts: string[] = [];
    if (this.favoritesOnly) parts.push(vscode.l10n.t('Favorites only'));
    parts.push(SORT_SHORT[this.sort]);
    this.view.description = parts.join(' · ');
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', CTX.documentsSearching, this.viewState.search !== undefined);
    await vscode.commands.executeCommand('setContext', CTX.favoritesOnly, this.favoritesOnly);
    await vscode.commands.executeCommand('setContext', CTX.hideEmpty, this.hideEmpty);
  }

  private async saveState(): Promise<void> {
    this.updateViewText();
    // The memento holds the new value as soon as update() is called; both then reach the workbench together.
    await Promise.all([this.state.update(STATE.documentsView, this.viewState), this.updateContext()]);
  }

  /**
   * Waits for a group's page with the view's progress bar; its row turns to "Loading more…" only when the
   * answer is slow. VS Code passes a tree's change events on at most every 200 ms, so a change made just
   * before the request would hold back the one that brings the rows.
   */
  private async loading(g: GroupNode, p: Promise<void>): Promise<void> {
    const slow = setTimeout(() => this.fire(g), 300);
    try {
      await this.withProgress(p);
    } finally {
      clearTimeout(slow);
    }
  }

  private withProgress(p: Promise<void>): Promise<void> {
    if (!this.view?.visible) return p;
    return Promise.resolve(vscode.window.withProgress({ location: { viewId: VIEW.documents } }, () => p));
  }

  /** Drops loaded pages (counts stay: a sort does not change them). */
  private clearLists(): void {
    this.generation.abort();
    this.generation = new AbortController();
    this.lists.clear();
    this.updateViewText();
    this.fire(undefined);
  }

  private abortAll(): void {
    this.generation.abort();
    this.stopCounting();
  }

  private reset(why: string, forgetAccount: boolean): void {
    this.log.debug(`[documents] reset (${why})`);
    this.abortAll();
    this.generation = new AbortController();
    this.lists.clear();
    this.counts.clear();
    this.countState = 'idle';
    this.countError = undefined;
    if (forgetAccount && this.viewState.customTemplates?.length) {
      for (const [id] of this.viewState.customTemplates) this.groupNodes.delete(`t${id}`);
      this.viewState = { ...this.viewState, customTemplates: undefined };
      void this.state.update(STATE.documentsView, this.viewState);
    }
    this.updateViewText();
    this.fire(undefined);
  }

  /** Batches change events (one per tick); a root change covers everything. */
  private fire(node: DocNode | undefined): void {
    if (this.isDisposed) return;
    if (node === undefined) this.pendingRoot = true;
    else this.pendingFires.add(node);
    this.fireTimer ??= setTimeout(() => {
      this.fireTimer = undefined;
      const nodes = [...this.pendingFires];
      const root = this.pendingRoot;
      this.pendingFires.clear();
      this.pendingRoot = false;
      if (root) this._onDidChangeTreeData.fire(undefined);
      else if (nodes.length) this._onDidChangeTreeData.fire(nodes);
    }, 0);
  }
}

function isGroup(node: DocNode): node is GroupNode {
  return node.kind === 'template' || node.kind === 'favorites' || node.kind === 'searchResults' || node.kind === 'all' || node.kind === 'other';
}

/** A template the table does not know: a custom one (named by the server) or a deleted one (`"template": []`). */
function isOtherTemplate(d: ContentDocument): boolean {
  return !d.template || !isKnownTemplate(d.template.id);
}

function templateLabel(d: ContentDocument): string {
  return d.template ? templateName(d.template.id, d.template.name) : vscode.l10n.t('deleted template');
}

function documentTooltip(d: ContentDocument): vscode.MarkdownString {
  const created = parseDate(d.created_at);
  const updated = parseDate(d.updated_at);
  const lines = [
    `**${md(d.name.trim() || 'Untitled')}**${d.favorite ? ' $(star-full)' : ''}`,
    '',
    `${vscode.l10n.t('Template')}: ${md(templateName(d.template?.id, d.template?.name))}`,
    '',
    `${vscode.l10n.t('Words')}: ${formatCount(d.words)}`,
  ];
  if (created) lines.push('', `${vscode.l10n.t('Created')}: ${dateTime(created)} (${fromNow(created)})`);
  if (updated) lines.push('', `${vscode.l10n.t('Updated')}: ${dateTime(updated)} (${fromNow(updated)})`);
  if (d.resultIsNull) lines.push('', `_${vscode.l10n.t('No text was generated for this document.')}_`);
  const tip = new vscode.MarkdownString(lines.join('\n'), true);
  tip.supportHtml = false;
  return tip;
}

/** The persisted view state, checked field by field (globalState can hold anything). */
function readState(raw: unknown): DocumentsViewState {
  const out: DocumentsViewState = {};
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  if (typeof r.sort === 'string' && DOCUMENT_SORTS.some((s) => s.value === r.sort)) out.sort = r.sort as config.DocumentSortSetting;
  if (r.favoritesOnly === true) out.favoritesOnly = true;
  const s = r.search as Record<string, unknown> | undefined;
  if (s && typeof s === 'object' && typeof s.text === 'string' && s.text.trim() && (s.by === 'name' || s.by === 'result')) {
    out.search = { text: s.text.trim(), by: s.by };
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
  return out;
}
