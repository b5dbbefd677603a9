import type { ContentDocument, Project } from '../api/index';
import type { DocumentSearchField, ProjectSortField, SortOrder } from '../api/validate';
import type { DocumentSortSetting } from '../util/config';

/**
 * The tree nodes of both views: plain data, a discriminated union on `kind` (STYLE §3.4).
 * Rendering lives in the providers' getTreeItem. Node objects are kept in the providers' caches and
 * handed out again, so an event for one of them updates exactly that row.
 */

// --- Documents view --------------------------------------------------------------------------------

export interface DocumentSearch {
  readonly text: string;
  readonly by: DocumentSearchField;
}

export interface TemplateGroupNode {
  readonly kind: 'template';
  /** Cache key and id part: `t<templateId>`. */
  readonly key: string;
  readonly templateId: number;
  /** The server's name once a document showed it, else the table's (changed in place). */
  name: string;
  /** A template id the local table does not know (named by the server). */
  readonly custom: boolean;
}

export interface FavoritesGroupNode {
  readonly kind: 'favorites';
  readonly key: 'favorites';
}

export interface SearchGroupNode {
  readonly kind: 'searchResults';
  readonly key: 'search';
  readonly search: DocumentSearch;
}

/** Every document of the account, in the view's order: reachable whatever its template. */
export interface AllGroupNode {
  readonly kind: 'all';
  readonly key: 'all';
}

/**
 * Documents whose template is not in the table: custom templates (ids above 52) and deleted ones (the
 * server sends `"template": []`). The API cannot filter on that, so this group reads the whole list page
 * by page and keeps those documents.
 */
export interface OtherGroupNode {
  readonly kind: 'other';
  readonly key: 'other';
}

export type GroupNode = TemplateGroupNode | FavoritesGroupNode | SearchGroupNode | AllGroupNode | OtherGroupNode;

export interface DocumentNode {
  readonly kind: 'document';
  readonly parent: GroupNode;
  /** Replaced in place when the document changes (the row is then refreshed by itself). */
  doc: ContentDocument;
}

export interface LoadMoreNode<P> {
  readonly kind: 'loadMore';
  readonly parent: P;
}

export interface ErrorNode<P> {
  readonly kind: 'error';
  /** The parent whose loading failed (undefined: the view's root); Retry reloads only that. */
  readonly parent: P | undefined;
  readonly error: unknown;
  readonly at: number;
}

export interface EmptyNode<P> {
  readonly kind: 'empty';
  readonly parent: P | undefined;
}

export type DocNode = GroupNode | DocumentNode | LoadMoreNode<GroupNode> | ErrorNode<GroupNode> | EmptyNode<GroupNode>;

export interface DocumentsViewState {
  sort?: DocumentSortSetting;
  favoritesOnly?: boolean;
  search?: DocumentSearch;
  /** Template ids above the table's, as the server named them: shown as groups. */
  customTemplates?: Array<[number, string]>;
  /** The table's templates the server names otherwise (its version's word). */
  templateNames?: Array<[number, string]>;
  /** The documents server the templates above were learned from (another server: another account's). */
  templatesServer?: string;
}

// --- Projects view ---------------------------------------------------------------------------------

export interface ProjectItemNode {
  readonly kind: 'project';
  project: Project;
  /** False when the name contains "/": the server cannot address it. */
  readonly addressable: boolean;
}

export interface ProjectSearchNode {
  readonly kind: 'searchResults';
  readonly text: string;
}

export type ProjectNode = ProjectItemNode | ProjectSearchNode | LoadMoreNode<undefined> | ErrorNode<undefined> | EmptyNode<undefined>;

export interface ProjectsViewState {
  sortBy?: ProjectSortField;
  sort?: SortOrder;
  search?: string;
}
