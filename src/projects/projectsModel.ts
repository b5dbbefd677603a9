import type { Page, Project, ProjectListQuery } from '../api/index';
import { isBlank, serverTrim, type PageSize, type ProjectSortField, type SortOrder } from '../api/validate';
import { errorKind, reason } from '../util/errors';
import { Emitter, type Disposable, type Event } from '../model/emitter';
import type { EmptyNode, ErrorNode, LoadMoreNode, ProjectItemNode, ProjectNode, ProjectSearchNode, ProjectsViewState } from '../model/nodes';
import { PagedList } from '../model/pagedList';

/** Projects are named case-insensitively on the server: one key per project. */
export function projectKey(name: string): string {
  return name.toLowerCase();
}

/** Where the projects come from (`ProjectService`). */
export interface ProjectSource {
  list(query: ProjectListQuery, signal?: AbortSignal): Promise<Page<Project>>;
  delete(name: string, signal?: AbortSignal): Promise<void>;
}

/** What the model needs from its surroundings (see DocumentsModelHost). */
export interface ProjectsModelHost {
  hasKey(): Promise<boolean>;
  readonly onDidChangeSignIn: Event<boolean>;
  pageSize(): PageSize;
  persist(state: ProjectsViewState): Promise<void>;
  progress(p: Promise<void>): Promise<void>;
  readonly log: { warn(line: string): void };
}

/**
 * What the Projects view knows, without `vscode`: one list of projects (sorted and searched on the server)
 * loaded a page at a time, its total, the sort and search (kept), and deletes applied without refetching.
 * `onDidChange` fires when the view should be redrawn (every change is at its root).
 */
export class ProjectsModel implements Disposable {
  readonly #_onDidChange = new Emitter<void>();
  readonly onDidChange = this.#_onDidChange.event;
  readonly #subscriptions: Disposable[] = [this.#_onDidChange];

  #generation = new AbortController();
  #list: PagedList<ProjectItemNode> | undefined;
  #searchNode: ProjectSearchNode | undefined;
  #viewState: ProjectsViewState;

  readonly #projects: ProjectSource;
  readonly #host: ProjectsModelHost;

  constructor(
    projects: ProjectSource,
    host: ProjectsModelHost,
    savedState: unknown,
  ) {
    this.#projects = projects;
    this.#host = host;
    this.#viewState = readProjectsState(savedState);
    if (this.#viewState.search) this.#searchNode = { kind: 'searchResults', text: this.#viewState.search };
    this.#subscriptions.push(host.onDidChangeSignIn(() => this.refresh()));
  }

  /** Disposed with its account: no request, no view state kept, no change told from then on. */
  #disposed = false;

  dispose(): void {
    this.#disposed = true;
    this.#generation.abort();
    for (const d of this.#subscriptions.splice(0)) d.dispose();
  }

  #persist(): Promise<void> {
    return this.#disposed ? Promise.resolve() : this.#host.persist(this.#viewState);
  }

  get sort(): { sortBy: ProjectSortField; sort: SortOrder } {
    return { sortBy: this.#viewState.sortBy ?? 'created_at', sort: this.#viewState.sort ?? 'desc' };
  }

  get search(): string | undefined {
    return this.#viewState.search;
  }

  get searchGroup(): ProjectSearchNode | undefined {
    return this.#searchNode;
  }

  async setSort(sortBy: ProjectSortField, sort: SortOrder): Promise<void> {
    this.#viewState = { ...this.#viewState, sortBy, sort };
    await this.#persist();
    this.refresh();
  }

  async setSearch(text: string | undefined): Promise<void> {
    // Trimmed as the server trims: only U+200B or U+FEFF is no search.
    const t = (text && serverTrim(text)) || undefined;
    this.#viewState = { ...this.#viewState, search: t };
    this.#searchNode = t ? { kind: 'searchResults', text: t } : undefined;
    await this.#persist();
    this.refresh();
  }

  /** Refresh: drops the loaded pages; the view reloads the first one. */
  refresh(): void {
    if (this.#disposed) return;
    this.#generation.abort();
    this.#generation = new AbortController();
    this.#list = undefined;
    this.#_onDidChange.fire();
  }

  /** The view's rows: the Search results header, the projects loaded, then an error, Load more or empty row. */
  async rootChildren(): Promise<ProjectNode[]> {
    if (this.#disposed || !(await this.#host.hasKey()) || this.#disposed) return [];
    const list = this.#currentList();
    if (!list.loaded && !list.failed) {
      await this.#host.progress(list.ensure());
      if (this.#list !== list) return this.rootChildren();
      if (list.failed && errorKind(list.error) !== 'cancelled') this.#host.log.warn(`[projects] loading failed: ${reason(list.error)}`);
    }
    const out: ProjectNode[] = [];
    if (this.#searchNode) out.push(this.#searchNode);
    out.push(...list.items);
    if (list.failed) out.push({ kind: 'error', parent: undefined, error: list.error, at: list.errorAt } satisfies ErrorNode<undefined>);
    else if (list.loaded && (list.hasMore || list.loading)) out.push({ kind: 'loadMore', parent: undefined } satisfies LoadMoreNode<undefined>);
    else if (list.loaded && list.items.length === 0) out.push({ kind: 'empty', parent: undefined } satisfies EmptyNode<undefined>);
    return out;
  }

  /** The loaded list, created (not loaded) when needed. */
  #currentList(): PagedList<ProjectItemNode> {
    if (!this.#list) {
      const perPage = this.#host.pageSize();
      const { sortBy, sort } = this.sort;
      const search = this.#viewState.search;
      this.#list = new PagedList<ProjectItemNode>(
        async (page, signal) => {
          const p = await this.#projects.list({ search, sortBy, sort, perPage, page }, signal);
          return { ...p, items: p.items.map((project) => ({ kind: 'project', project, addressable: !project.project.includes('/') })) };
        },
        (n) => projectKey(n.project.project),
        perPage,
        this.#generation.signal,
      );
    }
    return this.#list;
  }

  /** The total the server reported (adjusted for local deletes), when known. */
  get total(): number | undefined {
    return this.#list?.loaded ? this.#list.total : undefined;
  }

  /** How far the list got: rows shown, and whether a page is on the wire. */
  get listState(): { shown: number; loading: boolean } | undefined {
    return this.#list && { shown: this.#list.items.length, loading: this.#list.loading };
  }

  /** Load more…: one request for the next page. */
  async loadMore(): Promise<void> {
    const list = this.#list;
    if (!list || !list.loaded) {
      await this.rootChildren();
      return;
    }
    if (!list.hasMore && !list.failed) return;
    await this.#loading(list.failed ? list.retry() : list.next());
    this.#_onDidChange.fire();
  }

  /** Retry on the error row: reloads the page that failed. */
  async retry(): Promise<void> {
    const list = this.#list;
    if (!list) {
      this.#_onDidChange.fire();
      return;
    }
    await this.#loading(list.retry());
    this.#_onDidChange.fire();
  }

  /** Waits with the progress bar; the row says "Loading more…" only when slow (see DocumentsModel.reload). */
  async #loading(p: Promise<void>): Promise<void> {
    const slow = setTimeout(() => this.#_onDidChange.fire(), 300);
    try {
      await this.#host.progress(p);
    } finally {
      clearTimeout(slow);
    }
  }

  /**
   * Deletes the project (one DELETE); the row goes and the total drops, without a request. `gone`: the server
   * no longer had it (the row goes too).
   */
  async delete(name: string): Promise<'deleted' | 'gone'> {
    try {
      await this.#projects.delete(name);
    } catch (e) {
      if (errorKind(e) !== 'notFound') throw e;
      this.removeProject(name);
      return 'gone';
    }
    this.removeProject(name);
    return 'deleted';
  }

  /** After a delete: the row goes and the total drops, without a request. */
  removeProject(name: string): void {
    const list = this.#list;
    if (list?.remove(projectKey(name))) {
      list.adjustTotal(-1);
      this.#_onDidChange.fire();
    }
  }

  /** A project row currently loaded (by name, case-insensitively). */
  findProject(name: string): ProjectItemNode | undefined {
    return this.#list?.find(projectKey(name));
  }
}

/** The persisted view state, checked field by field. */
export function readProjectsState(raw: unknown): ProjectsViewState {
  const out: ProjectsViewState = {};
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  if (r.sortBy === 'created_at' || r.sortBy === 'project') out.sortBy = r.sortBy;
  if (r.sort === 'asc' || r.sort === 'desc') out.sort = r.sort;
  if (typeof r.search === 'string' && !isBlank(r.search)) out.search = serverTrim(r.search);
  return out;
}
