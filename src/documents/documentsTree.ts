import vscode = require('vscode');
import type { ContentDocument } from '../api/index';
import { templateName } from '../api/templates';
import { templateIcon } from '../api/templateCategories';
import type { SignIn } from '../accounts/credentials';
import { CMD, CTX, VIEW } from '../constants';
import { isGroup, type Counting, type DocumentsModel } from './documentsModel';
import type { DocumentsViewLink } from './modelOfAccount';
import type {
  DocNode,
  DocumentNode,
  EmptyNode,
  ErrorNode,
  GroupNode,
  LoadMoreNode,
  SearchGroupNode,
  TemplateGroupNode,
} from '../model/nodes';
import * as config from '../util/config';
import type { Logger } from '../util/log';
import { dateTime, formatCount, fromNow, md, parseDate, reason, words } from '../tree/format';
import { PagedTreeBase } from '../tree/pagedTree';
import { isHtmlDocument } from '../files/names';
import { isolateName } from '../tree/bidi';
import { excerptOf, type Excerpt } from '../tree/excerpt';

export type { DocNode } from '../model/nodes';

/** What the view's description says of each sort. */
function sortShort(sort: config.DocumentSortSetting): string {
  switch (sort) {
    case 'newest':
      return vscode.l10n.t('Newest first');
    case 'oldest':
      return vscode.l10n.t('Oldest first');
    case 'nameAsc':
      return vscode.l10n.t('Name A–Z');
    case 'nameDesc':
      return vscode.l10n.t('Name Z–A');
  }
}

/**
 * The Documents view: renders what {@link DocumentsModel} knows (groups, their pages and counts, kept true
 * to the documents' events) and passes its changes on to VS Code, batched. Opening the view costs no
 * request: a group fetches its first page when expanded, then one page per "Load more…".
 */
/** A document row's icon for the file language setting (read once per change, not once per row). */
function fileIcon(): string {
  return config.fileLanguage() === 'markdown' ? 'markdown' : 'file-text';
}

export class DocumentsTreeProvider extends PagedTreeBase<DocNode> {
  #fileIcon = fileIcon();
  /** Whether the account has a key, as last heard (the title's description is empty without one). */
  #signedIn = false;

  constructor(
    /** The account's Documents model (the account owns it: see Account.models); the view shows it, never disposes it. */
    readonly model: DocumentsModel,
    link: DocumentsViewLink,
    readonly credentials: SignIn,
    readonly state: vscode.Memento,
    readonly log: Logger,
  ) {
    super(VIEW.documents);
    link.view = {
      visible: () => this.treeView?.visible === true,
      progress: (p) => this.withProgress(p),
      persisted: () => this.#updateContext(),
    };
    this._register(this.model.onDidChange((node) => this.fire(node)));
    this._register(this.model.onDidChangeCounting(() => this.updateViewText()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        // The model follows its own settings (see documentsModelOf); the view, what it shows of them.
        if (config.affects(e, 'documents.hideEmptyTemplates')) void this.#updateContext();
        if (config.affects(e, 'files.language')) {
          this.#fileIcon = fileIcon();
          this.fire(undefined);
        }
      }),
    );
    void this.#updateContext();
    const signIn = (has: boolean) => {
      this.#signedIn = has;
      this.updateViewText();
    };
    this._register(credentials.onDidChange(signIn));
    void credentials.hasKey().then(signIn, () => undefined);
  }

  override attach(view: vscode.TreeView<DocNode>): vscode.TreeView<DocNode> {
    this._register(view.onDidChangeVisibility(() => this.model.visibilityChanged()));
    return super.attach(view);
  }

  // --- Asked of the view by the commands that create documents and by tests ------------------------

  templateGroups(): TemplateGroupNode[] {
    return this.model.templateGroups();
  }
  templateGroup(templateId: number): TemplateGroupNode | undefined {
    return this.model.templateGroup(templateId);
  }
  get searchGroup(): SearchGroupNode | undefined {
    return this.model.searchGroup;
  }
  /** Loads a group's first page (deduped with the view's own request) and returns its children. */
  load(g: GroupNode): Promise<DocNode[]> {
    return this.getChildren(g);
  }

  // --- TreeDataProvider -------------------------------------------------------------------------

  getParent(node: DocNode): DocNode | undefined {
    return 'parent' in node ? node.parent : undefined;
  }

  protected children(node?: DocNode): Promise<DocNode[]> {
    if (!node) return this.model.rootChildren();
    return isGroup(node) ? this.model.children(node) : Promise.resolve([]);
  }

  getTreeItem(node: DocNode): vscode.TreeItem {
    switch (node.kind) {
      case 'template':
      case 'favorites':
      case 'searchResults':
      case 'all':
      case 'other':
        return this.#groupItem(node);
      case 'document':
        return this.#documentItem(node);
      case 'loadMore':
        return this.#loadMoreItem(node);
      case 'error':
        return this.#errorItem(node);
      case 'empty':
        return this.#emptyItem(node);
    }
  }

  resolveTreeItem(item: vscode.TreeItem, node: DocNode): vscode.TreeItem {
    if (node.kind === 'document') item.tooltip = documentTooltip(node.doc, this.#excerpt(node));
    return item;
  }

  /** Each result's passage, found once per record and search (a row is drawn again on every refresh of the view). */
  readonly #excerpts = new WeakMap<ContentDocument, { term: string; excerpt: Excerpt | undefined }>();

  /** In the results of a search in the text, where the words are in this document's text (as VS Code's Search shows). */
  #excerpt(node: DocumentNode): Excerpt | undefined {
    const g = node.parent;
    if (g.kind !== 'searchResults' || g.search.by !== 'result') return undefined;
    const known = this.#excerpts.get(node.doc);
    if (known?.term === g.search.text) return known.excerpt;
    const excerpt = excerptOf(node.doc.result, g.search.text);
    this.#excerpts.set(node.doc, { term: g.search.text, excerpt });
    return excerpt;
  }

  // --- Rendering ----------------------------------------------------------------------------------

  #groupItem(g: GroupNode): vscode.TreeItem {
    const n = this.model.countOf(g.key);
    const count = n !== undefined && n >= 0 ? formatCount(n) : undefined;
    const look = this.#groupLook(g, n);
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
  #groupLook(g: GroupNode, n: number | undefined): { label: string; icon: string; tooltip: string; contextValue: string } {
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
            (this.model.favoritesOnly ? vscode.l10n.t(' (favorites only)') : ''),
          contextValue: 'searchResults',
        };
      case 'all':
        return {
          label: vscode.l10n.t('All Documents'),
          icon: 'files',
          tooltip: this.model.favoritesOnly ? vscode.l10n.t('Every favorite document, whatever its template') : vscode.l10n.t('Every document of the account, whatever its template'),
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
        const what = this.model.favoritesOnly ? vscode.l10n.t('favorite documents') : vscode.l10n.t('documents');
        return {
          label: g.name,
          icon: g.custom ? 'folder-library' : (templateIcon(g.templateId) ?? 'folder'),
          tooltip:
            n === undefined || n < 0
              ? vscode.l10n.t('{0}: expand to list its {1}', g.name, what)
              : vscode.l10n.t('{0}: {1} {2}', g.name, formatCount(n), what) + (g.custom ? vscode.l10n.t(' (custom template)') : ''),
          contextValue: g.custom ? 'template:custom' : 'template',
        };
      }
    }
  }

  #documentItem(node: DocumentNode): vscode.TreeItem {
    const d = node.doc;
    const name = d.name.trim() ? d.name : vscode.l10n.t('Untitled');
    const item = new vscode.TreeItem(isolateName(name), vscode.TreeItemCollapsibleState.None);
    item.id = `doc:${node.parent.key}:${d.id}`;
    item.description = `${words(d.words)}${this.#rowDate(d)}`;
    // Where the group does not say the template, the row does (many documents share a name).
    if (node.parent.kind !== 'template') item.description = `${this.#templateLabel(d)} · ${item.description}`;
    // A search in the text: the passage with the words found leads the description (the rest is cut first when narrow).
    const excerpt = this.#excerpt(node);
    if (excerpt) item.description = `${excerpt.text} · ${item.description}`;
    // A text from the web editor opens as HTML: its row says so, as its tab does.
    item.iconPath = new vscode.ThemeIcon(d.favorite ? 'star-full' : isHtmlDocument(d) ? 'file-code' : this.#fileIcon);
    item.contextValue = d.favorite ? 'document:favorite' : 'document';
    item.command = { command: CMD.documentOpen, title: vscode.l10n.t('Open'), arguments: [{ id: d.id }] };
    item.accessibilityInformation = {
      label: d.favorite ? vscode.l10n.t('{0}, {1}, favorite', name, item.description) : vscode.l10n.t('{0}, {1}', name, item.description),
    };
    return item;
  }

  /**
   * The date a row says is the one its list is sorted by: the creation under Newest and Oldest first (the server orders
   * them by id), the last update under the name sorts (CONTRACT.md: a record has `created_at` and `updated_at`, and a
   * favorite or a rename bumps the update). The tooltip says both.
   */
  #rowDate(d: ContentDocument): string {
    const byCreation = this.model.sort === 'newest' || this.model.sort === 'oldest';
    const created = parseDate(d.created_at);
    const updated = parseDate(d.updated_at);
    if (byCreation && created) return ` · ${vscode.l10n.t('created {0}', fromNow(created))}`;
    if (!byCreation && updated) return ` · ${vscode.l10n.t('updated {0}', fromNow(updated))}`;
    return '';
  }

  #loadMoreItem(node: LoadMoreNode<GroupNode>): vscode.TreeItem {
    const key = node.parent.key;
    return this.loadMoreRow(`more:${key}`, this.model.listState(key), this.model.countOf(key), CMD.documentsLoadMore, node);
  }

  #errorItem(node: ErrorNode<GroupNode>): vscode.TreeItem {
    const action =
      node.parent?.kind === 'searchResults'
        ? vscode.l10n.t("Couldn't search the documents")
        : node.parent?.kind === 'favorites'
          ? vscode.l10n.t("Couldn't load the favorite documents")
          : vscode.l10n.t("Couldn't load the documents");
    return this.errorRow(`error:${node.parent?.key ?? 'root'}`, action, node);
  }

  #emptyItem(node: EmptyNode<GroupNode>): vscode.TreeItem {
    const g = node.parent;
    const label =
      g?.kind === 'searchResults'
        ? vscode.l10n.t('No documents match')
        : g?.kind === 'favorites'
          ? vscode.l10n.t('No favorites yet')
          : g?.kind === 'other'
            ? vscode.l10n.t('No documents on custom or deleted templates')
          : this.model.favoritesOnly
            ? vscode.l10n.t('No favorite documents')
            : vscode.l10n.t('No documents');
    return this.emptyRow(`empty:${g?.key ?? 'root'}`, label);
  }

  /** The document's template as its group is named (the server's word once seen). */
  #templateLabel(d: ContentDocument): string {
    if (!d.template) return vscode.l10n.t('deleted template');
    return templateName(d.template.id, d.template.name || this.model.templateGroup(d.template.id)?.name);
  }

  // --- What the view says under its title ----------------------------------------------------------

  protected override viewMessage(): string | undefined {
    return this.model.hideEmpty ? countingMessage(this.model.counting) : undefined;
  }

  /**
   * Beside the view's title, what shapes the list: the search, the filters and the sort ("“solar” in names · Favorites
   * only · Empty templates hidden · Newest first"); nothing while signed out (the welcome shows then, with nothing to
   * sort). Each part is a phrase of its own, as VS Code's views list their filters.
   */
  protected viewDescription(): string | undefined {
    if (!this.#signedIn) return undefined;
    const parts: string[] = [];
    const search = this.model.search;
    if (search) parts.push(search.by === 'result' ? vscode.l10n.t('“{0}” in texts', search.text) : vscode.l10n.t('“{0}” in names', search.text));
    if (this.model.favoritesOnly) parts.push(vscode.l10n.t('Favorites only'));
    if (this.model.hideEmpty) parts.push(vscode.l10n.t('Empty templates hidden'));
    parts.push(sortShort(this.model.sort));
    return parts.join(' · ');
  }

  async #updateContext(): Promise<void> {
    // The view's state changed (search, sort, filters): the title's description says it.
    this.updateViewText();
    await vscode.commands.executeCommand('setContext', CTX.documentsSearching, this.model.search !== undefined);
    await vscode.commands.executeCommand('setContext', CTX.favoritesOnly, this.model.favoritesOnly);
    await vscode.commands.executeCommand('setContext', CTX.hideEmpty, this.model.hideEmpty);
  }
}

function countingMessage(c: Counting): string | undefined {
  if (c.state === 'running') {
    return vscode.l10n.t('Counting the documents of each template ({0} of {1})… empty templates are hidden.', c.done, c.of);
  }
  if (c.state === 'failed') {
    return vscode.l10n.t("Couldn't count every template ({0}); templates not counted yet are shown. Refresh to try again.", reason(c.error));
  }
  return undefined;
}


function documentTooltip(d: ContentDocument, excerpt?: Excerpt): vscode.MarkdownString {
  const created = parseDate(d.created_at);
  const updated = parseDate(d.updated_at);
  const lines = [
    `**${md(d.name.trim() || 'Untitled')}**${d.favorite ? ' $(star-full)' : ''}`,
    '',
  ];
  if (excerpt) {
    // The words found in bold within their passage, as VS Code's Search highlights them.
    const passage = `${md(excerpt.text.slice(0, excerpt.start))}**${md(excerpt.text.slice(excerpt.start, excerpt.end))}**${md(excerpt.text.slice(excerpt.end))}`;
    lines.push(vscode.l10n.t('Found in the text: {0}', passage), '');
  }
  lines.push(
    `${vscode.l10n.t('Template')}: ${md(templateName(d.template?.id, d.template?.name))}`,
    '',
    `${vscode.l10n.t('Words')}: ${formatCount(d.words)}`,
  );
  if (created) lines.push('', `${vscode.l10n.t('Created')}: ${dateTime(created)} (${fromNow(created)})`);
  if (updated) lines.push('', `${vscode.l10n.t('Updated')}: ${dateTime(updated)} (${fromNow(updated)})`);
  if (d.resultIsNull) lines.push('', `_${vscode.l10n.t('No text was generated for this document.')}_`);
  const tip = new vscode.MarkdownString(lines.join('\n'), true);
  tip.supportHtml = false;
  return tip;
}

