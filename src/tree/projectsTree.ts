import * as vscode from 'vscode';
import type { ProjectSortField, SortOrder } from '../api/validate';
import type { Credentials } from '../auth/credentials';
import { CMD, CTX, STATE, VIEW } from '../constants';
import type { ApiProvider } from '../services/apiProvider';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { dateTime, errorPresentation, formatCount, kindOf, md, parseDate, reason, reports, shortDate } from './format';
import type { EmptyNode, ErrorNode, LoadMoreNode, ProjectItemNode, ProjectNode, ProjectSearchNode, ProjectsViewState } from './nodes';
import { PagedList } from './pagedList';

export type { ProjectNode } from './nodes';

export const PROJECT_SORTS: ReadonlyArray<{ label: string; short: string; sortBy: ProjectSortField; sort: SortOrder }> = [
  { label: 'Date created, newest first', short: 'Newest first', sortBy: 'created_at', sort: 'desc' },
  { label: 'Date created, oldest first', short: 'Oldest first', sortBy: 'created_at', sort: 'asc' },
  { label: 'Name, A to Z', short: 'Name A–Z', sortBy: 'project', sort: 'asc' },
  { label: 'Name, Z to A', short: 'Name Z–A', sortBy: 'project', sort: 'desc' },
];

/** Projects are named case-insensitively on the server: one key per project. */
export function projectKey(name: string): string {
  return name.toLowerCase();
}

/**
 * The Projects view: one page of projects at a time (sorted and searched on the server), "Load more…",
 * an error item with Retry, and a Search results header with its own Clear action while searching.
 * One request when the view opens; a delete removes the row without refetching.
 */
export class ProjectsTreeProvider extends Disposable implements vscode.TreeDataProvider<ProjectNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<ProjectNode | ProjectNode[] | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  private view: vscode.TreeView<ProjectNode> | undefined;
  private generation = new AbortController();
  private list: PagedList<ProjectItemNode> | undefined;
  private searchNode: ProjectSearchNode | undefined;
  private readonly owned = new WeakSet<object>();
  private viewState: ProjectsViewState;
  private fireTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly api: ApiProvider,
    readonly credentials: Credentials,
    readonly state: vscode.Memento,
    readonly log: Logger,
  ) {
    super();
    this.viewState = readState(state.get(STATE.projectsView));
    if (this.viewState.search) this.searchNode = { kind: 'searchResults', text: this.viewState.search };
    this._register(credentials.onDidChange(() => this.refresh()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'projects.baseUrl') || config.affects(e, 'documents.baseUrl') || config.affects(e, 'projects.pageSize')) this.refresh();
      }),
    );
    this._register({
      dispose: () => {
        this.generation.abort();
        if (this.fireTimer) clearTimeout(this.fireTimer);
      },
    });
    void this.updateContext();
  }

  attach(view: vscode.TreeView<ProjectNode>): vscode.TreeView<ProjectNode> {
    this.view = view;
    this.updateViewText();
    return view;
  }

  get treeView(): vscode.TreeView<ProjectNode> | undefined {
    return this.view;
  }

  owns(node: unknown): node is ProjectNode {
    return typeof node === 'object' && node !== null && this.owned.has(node);
  }

  // --- View choices (persisted) ---------------------------------------------------------------------

  get sort(): { sortBy: ProjectSortField; sort: SortOrder } {
    return { sortBy: this.viewState.sortBy ?? 'created_at', sort: this.viewState.sort ?? 'desc' };
  }

  get search(): string | undefined {
    return this.viewState.search;
  }

  async setSort(sortBy: ProjectSortField, sort: SortOrder): Promise<void> {
    this.viewState = { ...this.viewState, sortBy, sort };
    await this.saveState();
    this.refresh();
  }

  async setSearch(text: string | undefined): Promise<void> {
    const t = text?.trim() || undefined;
    this.viewState = { ...this.viewState, search: t };
    this.searchNode = t ? { kind: 'searchResults', text: t } : undefined;
    await this.saveState();
    this.refresh();
  }

  /** Refresh: drops the loaded pages; the view reloads the first one. */
  refresh(): void {
    this.generation.abort();
    this.generation = new AbortController();
    this.list = undefined;
    this.fire();
  }

  // --- TreeDataProvider ------------------------------------------------------------------------------

  getParent(): ProjectNode | undefined {
    return undefined;
  }

  async getChildren(node?: ProjectNode): Promise<ProjectNode[]> {
    if (node) return [];
    const children = await this.rootChildren();
    for (const c of children) this.owned.add(c);
    return children;
  }

  getTreeItem(node: ProjectNode): vscode.TreeItem {
    switch (node.kind) {
      case 'project':
        return this.projectItem(node);
      case 'searchResults':
        return this.searchItem(node);
      case 'loadMore':
        return this.loadMoreItem();
      case 'error':
        return this.errorItem(node);
      case 'empty':
        return this.emptyItem();
    }
  }

  resolveTreeItem(item: vscode.TreeItem, node: ProjectNode): vscode.TreeItem {
    if (node.kind === 'project') item.tooltip = projectTooltip(node);
    return item;
  }

  private async rootChildren(): Promise<ProjectNode[]> {
    if (!(await this.credentials.hasKey())) return [];
    const list = this.currentList();
    if (!list.loaded && !list.failed) {
      await this.withProgress(list.ensure());
      if (this.list !== list) return this.rootChildren();
      if (list.failed && kindOf(list.error) !== 'cancelled') this.log.warn(`[projects] loading failed: ${reason(list.error)}`);
    }
    const out: ProjectNode[] = [];
    if (this.searchNode) out.push(this.searchNode);
    out.push(...list.items);
    if (list.failed) out.push({ kind: 'error', parent: undefined, error: list.error, at: list.errorAt } satisfies ErrorNode<undefined>);
    else if (list.loaded && (list.hasMore || list.loading)) out.push({ kind: 'loadMore', parent: undefined } satisfies LoadMoreNode<undefined>);
    else if (list.loaded && list.items.length === 0) out.push({ kind: 'empty', parent: undefined } satisfies EmptyNode<undefined>);
    return out;
  }

  /** The loaded list, created (not loaded) when needed. */
  private currentList(): PagedList<ProjectItemNode> {
    if (!this.list) {
      const perPage = config.projectsPageSize();
      const { sortBy, sort } = this.sort;
      const search = this.viewState.search;
      this.list = new PagedList<ProjectItemNode>(
        async (page, signal) => {
          const p = await this.api.get().listProjects({ search, sortBy, sort, perPage, page }, signal);
          return { ...p, items: p.items.map((project) => ({ kind: 'project', project, addressable: !project.project.includes('/') })) };
        },
        (n) => projectKey(n.project.project),
        perPage,
        this.generation.signal,
      );
    }
    return this.list;
  }

  /** The total the server reported (adjusted for local deletes), when known. */
  get total(): number | undefined {
    return this.list?.loaded ? this.list.total : undefined;
  }

  /** Load more…: one request for the next page. */
  async loadMore(): Promise<void> {
    const list = this.list;
    if (!list || !list.loaded) {
      await this.getChildren();
      return;
    }
    if (!list.hasMore && !list.failed) return;
    await this.loading(list.failed ? list.retry() : list.next());
    this.fire();
  }

  /** Retry on the error item: reloads the page that failed. */
  async retry(): Promise<void> {
    const list = this.list;
    if (!list) {
      this.fire();
      return;
    }
    await this.loading(list.retry());
    this.fire();
  }

  /** After a delete: the row goes and the total drops, without a request. */
  removeProject(name: string): void {
    const list = this.list;
    if (list?.remove(projectKey(name))) {
      list.adjustTotal(-1);
      this.fire();
    }
  }

  /** A project row currently loaded (by name, case-insensitively). */
  findProject(name: string): ProjectItemNode | undefined {
    return this.list?.find(projectKey(name));
  }

  // --- Rendering ---------------------------------------------------------------------------------------

  private projectItem(node: ProjectItemNode): vscode.TreeItem {
    const p = node.project;
    const item = new vscode.TreeItem(p.project.trim() ? p.project : vscode.l10n.t('(no name)'), vscode.TreeItemCollapsibleState.None);
    item.id = `project:${projectKey(p.project)}`;
    const parts = [reports(p.reports)];
    if (p.result !== undefined) parts.push(formatResult(p.result));
    const created = parseDate(p.created_at);
    if (created) parts.push(shortDate(created));
    item.description = parts.join(' · ');
    item.iconPath = new vscode.ThemeIcon(node.addressable ? 'project' : 'warning');
    item.contextValue = node.addressable ? 'project' : 'project:unaddressable';
    return item;
  }

  private searchItem(node: ProjectSearchNode): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Search results: "{0}"', node.text));
    item.id = 'searchResults';
    const total = this.total;
    if (total !== undefined) item.description = total === 1 ? vscode.l10n.t('1 project') : vscode.l10n.t('{0} projects', formatCount(total));
    item.tooltip = vscode.l10n.t('Projects whose name contains "{0}". Clear the search to see every project.', node.text);
    item.iconPath = new vscode.ThemeIcon('search');
    item.contextValue = 'searchResults';
    return item;
  }

  private loadMoreItem(): vscode.TreeItem {
    const loading = this.list?.loading === true;
    const item = new vscode.TreeItem(loading ? vscode.l10n.t('Loading more…') : vscode.l10n.t('Load more…'));
    item.id = 'more';
    const total = this.total;
    if (this.list && total !== undefined) item.description = vscode.l10n.t('{0} of {1}', formatCount(this.list.items.length), formatCount(total));
    item.iconPath = new vscode.ThemeIcon(loading ? 'loading~spin' : 'unfold');
    item.contextValue = 'loadMore';
    if (!loading) item.command = { command: CMD.projectsLoadMore, title: vscode.l10n.t('Load More'), arguments: [{ kind: 'loadMore' }] };
    return item;
  }

  private errorItem(node: ErrorNode<undefined>): vscode.TreeItem {
    const p = errorPresentation(this.searchNode ? vscode.l10n.t("Couldn't search the projects") : vscode.l10n.t("Couldn't load the projects"), node.error, node.at);
    const item = new vscode.TreeItem(p.label);
    item.id = 'error';
    item.description = p.description;
    item.tooltip = p.tooltip;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.contextValue = 'error';
    item.command = p.signIn
      ? { command: CMD.signIn, title: vscode.l10n.t('Set API Key') }
      : { command: CMD.retry, title: vscode.l10n.t('Retry'), arguments: [node] };
    return item;
  }

  private emptyItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.searchNode ? vscode.l10n.t('No projects match') : vscode.l10n.t('No projects'));
    item.id = 'empty';
    item.contextValue = 'empty';
    return item;
  }

  // --- Plumbing --------------------------------------------------------------------------------------

  private updateViewText(): void {
    if (!this.view) return;
    const { sortBy, sort } = this.sort;
    this.view.description = PROJECT_SORTS.find((s) => s.sortBy === sortBy && s.sort === sort)?.short;
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', CTX.projectsSearching, this.viewState.search !== undefined);
  }

  private async saveState(): Promise<void> {
    this.updateViewText();
    await this.updateContext();
    await this.state.update(STATE.projectsView, this.viewState);
  }

  /** Waits with the progress bar; the row says "Loading more…" only when slow (see DocumentsTreeProvider.loading). */
  private async loading(p: Promise<void>): Promise<void> {
    const slow = setTimeout(() => this.fire(), 300);
    try {
      await this.withProgress(p);
    } finally {
      clearTimeout(slow);
    }
  }

  private withProgress(p: Promise<void>): Promise<void> {
    if (!this.view?.visible) return p;
    return Promise.resolve(vscode.window.withProgress({ location: { viewId: VIEW.projects } }, () => p));
  }

  /** Every change in this view is at the root (one event per tick). */
  private fire(): void {
    if (this.isDisposed) return;
    this.fireTimer ??= setTimeout(() => {
      this.fireTimer = undefined;
      this._onDidChangeTreeData.fire(undefined);
    }, 0);
  }
}

function formatResult(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function projectTooltip(node: ProjectItemNode): vscode.MarkdownString {
  const p = node.project;
  const created = parseDate(p.created_at);
  const lines = [`**${md(p.project)}**`, '', `${vscode.l10n.t('Reports')}: ${formatCount(p.reports)}`];
  if (p.result !== undefined) lines.push('', `${vscode.l10n.t('Result')}: ${formatResult(p.result)}`);
  if (created) lines.push('', `${vscode.l10n.t('Created')}: ${dateTime(created)}`);
  if (!node.addressable) {
    lines.push('', `$(warning) ${vscode.l10n.t('The name contains "/", which the projects server cannot address: this project can only be deleted on the website.')}`);
  }
  return new vscode.MarkdownString(lines.join('\n'), true);
}

function readState(raw: unknown): ProjectsViewState {
  const out: ProjectsViewState = {};
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  if (r.sortBy === 'created_at' || r.sortBy === 'project') out.sortBy = r.sortBy;
  if (r.sort === 'asc' || r.sort === 'desc') out.sort = r.sort;
  if (typeof r.search === 'string' && r.search.trim()) out.search = r.search.trim();
  return out;
}
