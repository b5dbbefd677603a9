import vscode = require('vscode');
import { CMD } from '../constants';
import { Disposable } from '../util/disposable';
import { errorPresentation, formatCount } from './format';

/**
 * What both views share: the TreeView they are attached to, the nodes they handed out (commands trust only
 * those), change events batched to one per tick (a root change covers everything), the progress bar while
 * the user waits for a page, the text under the title, and the Load more / error rows. A view adds its
 * children, its own rows and its model.
 */
export abstract class PagedTreeBase<N extends object> extends Disposable implements vscode.TreeDataProvider<N> {
  readonly #_onDidChangeTreeData = this._register(new vscode.EventEmitter<N | N[] | undefined>());
  readonly onDidChangeTreeData = this.#_onDidChangeTreeData.event;
  readonly #_onDidChangeViewText = this._register(new vscode.EventEmitter<void>());
  /** What the tree says beside and under the view's title changed (see {@link viewText}). */
  readonly onDidChangeViewText = this.#_onDidChangeViewText.event;

  #view: vscode.TreeView<N> | undefined;
  /** Every node this view handed out: commands trust only these (anything else is re-read). */
  readonly #owned = new WeakSet<object>();
  readonly #pendingFires = new Set<N>();
  #pendingRoot = false;
  #fireTimer: ReturnType<typeof setTimeout> | undefined;

  readonly #viewId: string;

  constructor(viewId: string) {
    super();
    this.#viewId = viewId;
    this._register({
      dispose: () => {
        if (this.#fireTimer) clearTimeout(this.#fireTimer);
        this.#fireTimer = undefined;
        // A tree of an account that went no longer speaks for the view (another account's tree, or none, does).
        this.#view = undefined;
      },
    });
  }

  /**
   * The view the tree is shown in. The view's title is not the tree's to write: the view shows one tree or a root per
   * account, and says what fits (see AccountRootsTree), from each tree's {@link viewText}.
   */
  attach(view: vscode.TreeView<N>): vscode.TreeView<N> {
    this.#view = view;
    return view;
  }

  /**
   * What this tree says beside the view's title (its search, filters and sort) and under it (undefined: nothing). With
   * several accounts, each account's root row says its description.
   */
  get viewText(): { readonly description: string | undefined; readonly message: string | undefined } {
    return { description: this.viewDescription(), message: this.viewMessage() };
  }

  /** The TreeView, once attached (tests reveal nodes through it). */
  get treeView(): vscode.TreeView<N> | undefined {
    return this.#view;
  }

  owns(node: unknown): node is N {
    return typeof node === 'object' && node !== null && this.#owned.has(node);
  }

  /** What the view title says below its name (also what tests read). */
  get message(): string | undefined {
    return this.viewMessage();
  }

  async getChildren(node?: N): Promise<N[]> {
    const children = await this.children(node);
    for (const c of children) this.#owned.add(c);
    return children;
  }

  abstract getTreeItem(node: N): vscode.TreeItem;

  protected abstract children(node?: N): Promise<N[]>;

  /** The message under the view's title (undefined: none). */
  protected viewMessage(): string | undefined {
    return undefined;
  }

  /** The description beside the view's title. */
  protected abstract viewDescription(): string | undefined;

  /** Its search, filters, sort or message changed: the view says them again. */
  protected updateViewText(): void {
    if (!this.isDisposed) this.#_onDidChangeViewText.fire();
  }

  /** Runs a load with the view's progress bar, when the view is visible. */
  protected withProgress(p: Promise<void>): Promise<void> {
    if (!this.#view?.visible) return p;
    return Promise.resolve(vscode.window.withProgress({ location: { viewId: this.#viewId } }, () => p));
  }

  /** Batches change events (one per tick); a root change (undefined) covers everything. */
  protected fire(node: N | undefined): void {
    if (this.isDisposed) return;
    if (node === undefined) this.#pendingRoot = true;
    else this.#pendingFires.add(node);
    this.#fireTimer ??= setTimeout(() => {
      this.#fireTimer = undefined;
      const nodes = [...this.#pendingFires];
      const root = this.#pendingRoot;
      this.#pendingFires.clear();
      this.#pendingRoot = false;
      if (root) this.#_onDidChangeTreeData.fire(undefined);
      else if (nodes.length) this.#_onDidChangeTreeData.fire(nodes);
    }, 0);
  }

  /** "Load more…" ("Loading more…" while a page is on the wire), with "shown of total" when the total is known. */
  protected loadMoreRow(id: string, list: { shown: number; loading: boolean } | undefined, total: number | undefined, command: string, arg: unknown): vscode.TreeItem {
    const loading = list?.loading === true;
    const item = new vscode.TreeItem(loading ? vscode.l10n.t('Loading more…') : vscode.l10n.t('Load more…'));
    item.id = id;
    if (list && total !== undefined && total >= 0) item.description = vscode.l10n.t('{0} of {1}', formatCount(list.shown), formatCount(total));
    item.iconPath = new vscode.ThemeIcon(loading ? 'loading~spin' : 'unfold');
    item.contextValue = 'loadMore';
    if (!loading) item.command = { command, title: vscode.l10n.t('Load More'), arguments: [arg] };
    return item;
  }

  /** A failed load: what failed and why; its command retries (or asks for the key when the key was refused). */
  protected errorRow(id: string, action: string, node: { error: unknown; at: number }): vscode.TreeItem {
    const p = errorPresentation(action, node.error, node.at);
    const item = new vscode.TreeItem(p.label);
    item.id = id;
    item.description = p.description;
    item.tooltip = p.tooltip;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.contextValue = 'error';
    item.command = p.signIn
      ? { command: CMD.signIn, title: vscode.l10n.t('Set API Key') }
      : { command: CMD.retry, title: vscode.l10n.t('Retry'), arguments: [node] };
    return item;
  }

  /** The row of a list that loaded empty. */
  protected emptyRow(id: string, label: string): vscode.TreeItem {
    const item = new vscode.TreeItem(label);
    item.id = id;
    item.contextValue = 'empty';
    return item;
  }
}
