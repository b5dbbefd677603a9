import vscode = require('vscode');
import type { Account } from '../accounts/account';
import type { AccountRegistry } from '../accounts/registry';
import { CMD } from '../constants';
import { Disposable } from '../util/disposable';
import type { PagedTreeBase } from './pagedTree';

/** An account's row at the top of a view while there are several accounts. */
export interface AccountRootNode {
  readonly kind: 'accountRoot';
  readonly account: Account;
}

export function isAccountRoot(node: unknown): node is AccountRootNode {
  return typeof node === 'object' && node !== null && (node as { kind?: unknown }).kind === 'accountRoot';
}

/**
 * The one row of an added account whose key is not in this machine's SecretStorage (its record came from another
 * machine's globalState): it says so, and a click asks for that account's key.
 */
export interface AccountKeyMissingNode {
  readonly kind: 'accountKeyMissing';
  readonly account: Account;
}

export function isAccountKeyMissing(node: unknown): node is AccountKeyMissingNode {
  return typeof node === 'object' && node !== null && (node as { kind?: unknown }).kind === 'accountKeyMissing';
}

/**
 * A view over every account: with one account, exactly that account's tree (as it always was); with several, one
 * root per account ("name @ host"), each holding that account's own tree, built from its own services. Every row
 * knows its account (see {@link accountOf}), so a command on a row acts in the account the row came from, and rows of
 * two accounts with the same ids never share a tree item id.
 */
export class AccountRootsTree<N extends object> extends Disposable implements vscode.TreeDataProvider<N | AccountRootNode> {
  readonly #_onDidChangeTreeData = this._register(new vscode.EventEmitter<N | AccountRootNode | (N | AccountRootNode)[] | undefined>());
  readonly onDidChangeTreeData = this.#_onDidChangeTreeData.event;
  /** Per account: its tree, made when the view first shows the account. */
  readonly #trees = new Map<Account, PagedTreeBase<N>>();
  /**
   * The trees of accounts removed since (disposed): VS Code may still ask for the item, tooltip or parent of a row it
   * shows as the view refreshes, and a removed account has no model to build another tree from.
   */
  readonly #removed = new WeakMap<Account, PagedTreeBase<N>>();
  readonly #roots = new Map<Account, AccountRootNode>();
  /** Per account with a tree: the subscription to its tree's changes (dropped with the tree, so the account can be let go). */
  readonly #treeEvents = new Map<Account, vscode.Disposable>();
  /** Which account's tree handed out a row. */
  readonly #ownerOf = new WeakMap<object, Account>();
  #view: vscode.TreeView<N | AccountRootNode> | undefined;
  /** Requests for the root rows between their wait for the accounts being made and their reading them. */
  #rootsReading = 0;
  /** Whether a request for the root rows has read them (the view may show them since). */
  #rootsRead = false;

  constructor(
    private readonly registry: AccountRegistry,
    private readonly make: (account: Account) => PagedTreeBase<N>,
  ) {
    super();
    this._register(registry.onDidChange(() => this.#accountsChanged()));
    // A name learned: only the roots say it (their rows are as they were); every root, as another account named
    // alike now shows its label (see Account.displayName).
    this._register(
      registry.onDidRename(() => {
        if (!this.registry.several) return;
        for (const root of this.#roots.values()) this.#_onDidChangeTreeData.fire(root);
      }),
    );
    this._register({ dispose: () => this.#trees.forEach((t) => t.dispose()) });
    this._register({ dispose: () => this.#treeEvents.forEach((d) => void d.dispose()) });
  }

  attach(view: vscode.TreeView<N | AccountRootNode>): vscode.TreeView<N | AccountRootNode> {
    this.#view = view;
    for (const tree of this.#trees.values()) tree.attach(view as unknown as vscode.TreeView<N>);
    this.#showViewText();
    return view;
  }

  /**
   * Beside the view's title, what shapes the list shown (its search, filters and sort), as Source Control's title
   * names the one repository it shows: with one account, that account's; with several, none (each account's root row
   * says its own: the lists are sorted and filtered apart); with none, nothing (the welcome shows). Under the title,
   * the message of the account shown, or of the first account that has one, named when there are several.
   */
  #showViewText(): void {
    const view = this.#view;
    if (!view) return;
    const accounts = this.registry.all();
    if (accounts.length <= 1) {
      const text = accounts[0] && this.#trees.get(accounts[0])?.viewText;
      view.description = text?.description;
      view.message = text?.message;
      return;
    }
    view.description = undefined;
    const withMessage = accounts.find((a) => this.#trees.get(a)?.viewText.message !== undefined);
    view.message = withMessage && vscode.l10n.t('{0}: {1}', withMessage.displayName, this.#trees.get(withMessage)!.viewText.message!);
  }

  /** What an account's root says beside its name: the search, filters and sort of that account's list. */
  #rootDescription(account: Account): string | undefined {
    return this.#trees.get(account)?.viewText.description;
  }

  /**
   * What a key pressed in the view acts on, as in the Explorer: the row in focus, and the selected rows when the row in
   * focus is one of several selected (Delete then acts on each of them, F2 on the row in focus). The arrow keys move a
   * tree's focus, not its selection, and the API tells only the selection: the focused row is found by toggling its
   * selection (`list.toggleSelection` acts on the focused list, which a key scoped to this view makes ours). A row in
   * focus among several selected is toggled back (the selection stays as it was); any other becomes the one selected
   * row. `row` is undefined when the view has no row in focus.
   */
  async keyTarget(): Promise<{ row: N | AccountRootNode | undefined; selection?: readonly (N | AccountRootNode)[] }> {
    const view = this.#view;
    if (!view) return { row: undefined };
    const before = view.selection;
    const after = await toggleFocused(view);
    const row = after.find((n) => !before.includes(n)) ?? before.find((n) => !after.includes(n));
    if (row === undefined) return { row: before[0] };
    if (before.length > 1 && before.includes(row)) {
      await toggleFocused(view);
      return { row, selection: before };
    }
    await Promise.resolve(view.reveal(row, { select: true, focus: true })).then(undefined, () => undefined);
    return { row };
  }

  /** The tree of an account (made on first use; an account removed since has the one it had, and none is made for it). */
  treeOf(account: Account): PagedTreeBase<N> {
    const known = this.#trees.get(account) ?? this.#removed.get(account);
    if (known) return known;
    const tree = this.make(account);
    this.#adopt(account, tree);
    if (this.#view) tree.attach(this.#view as unknown as vscode.TreeView<N>);
    return tree;
  }

  /** The trees of every account signed in, in the view's order. */
  trees(): PagedTreeBase<N>[] {
    return this.registry.all().map((a) => this.treeOf(a));
  }

  /**
   * Whether a row came from one of the accounts' trees (through this view, or asked of that tree itself), its account
   * removed since or not: such a row never stands for a document of another account (see {@link accountOf}).
   */
  owns(node: unknown): node is N {
    if (isAccountRoot(node) || typeof node !== 'object' || node === null) return false;
    return this.#ownerOf.has(node) || [...this.#trees.values()].some((tree) => tree.owns(node));
  }

  /**
   * The account whose tree handed out a row (undefined: not a row of this view, or a row of an account removed since:
   * a command on it acts nowhere).
   */
  accountOf(node: unknown): Account | undefined {
    if (isAccountRoot(node)) return this.#isLive(node.account) ? node.account : undefined;
    if (typeof node !== 'object' || node === null) return undefined;
    const known = this.#ownerOf.get(node);
    if (known) return this.#isLive(known) ? known : undefined;
    for (const [account, tree] of this.#trees) if (tree.owns(node)) return account;
    return undefined;
  }

  /** Whether an account is still signed in (not removed, signed out, or made anew with another key or server). */
  #isLive(account: Account): boolean {
    return this.registry.isLive(account);
  }

  #adopt(account: Account, tree: PagedTreeBase<N>): void {
    this.#trees.set(account, tree);
    let described = tree.viewText.description;
    const textChanged = tree.onDidChangeViewText(() => {
      if (!this.#trees.has(account)) return;
      this.#showViewText();
      // With several accounts, the account's root says its search, filters and sort: redrawn when they changed.
      const now = tree.viewText.description;
      if (now === described) return;
      described = now;
      const root = this.#roots.get(account);
      if (root && this.registry.several) this.#_onDidChangeTreeData.fire(root);
    });
    this.#treeEvents.set(
      account,
      vscode.Disposable.from(
        tree.onDidChangeTreeData((e) => {
          if (!this.#trees.has(account)) return;
          // A root change of one account (a sign-in, a refresh) may also show or hide its root: the whole view is read
          // again, from what the models hold (no request).
          this.#_onDidChangeTreeData.fire(e);
        }),
        textChanged,
      ),
    );
    this.#showViewText();
  }

  #rootOf(account: Account): AccountRootNode {
    let root = this.#roots.get(account);
    if (!root) this.#roots.set(account, (root = { kind: 'accountRoot', account }));
    return root;
  }

  #accountsChanged(): void {
    for (const [account, tree] of this.#trees) {
      if (this.#isLive(account)) continue;
      this.#trees.delete(account);
      this.#roots.delete(account);
      this.#treeEvents.get(account)?.dispose();
      this.#treeEvents.delete(account);
      this.#removed.set(account, tree);
      tree.dispose();
    }
    this.#showViewText();
    // A request for the root rows waiting for the accounts being made reads them as they are now: its answer has them.
    // Told as a change too, it would make VS Code drop that answer on its way and ask again (a window's first open,
    // the account of the stored key made while the views wait for it, showed its rows a refresh later). Only until
    // the rows were first read: the view may show them since, and a later request may be one VS Code does not show (a
    // reveal's) — a removed account's rows would stay in the view.
    if (this.#rootsReading > 0 && !this.#rootsRead) return;
    this.#_onDidChangeTreeData.fire(undefined);
  }

  async getChildren(node?: N | AccountRootNode): Promise<(N | AccountRootNode)[]> {
    if (!node) {
      // The accounts of the key and settings heard so far, made first: the views' first request for rows in a window
      // builds the services, and the account of a key stored earlier is made then (its label read from SecretStorage).
      // The first answer has its rows, not an empty view followed by a refresh.
      this.#rootsReading++;
      try {
        await this.registry.settled();
      } finally {
        this.#rootsReading--;
      }
      this.#rootsRead = true;
      if (!this.registry.several) {
        // One account: its tree, with no root row. None: nothing (the view's welcome asks to sign in).
        const only = this.registry.all()[0];
        if (!only) return [];
        if (!(await only.hasKey())) return [this.#keyMissing(only) as unknown as N];
        // Removed while its key was looked for: the view is read again (see #accountsChanged).
        if (!this.#isLive(only)) return [];
        return this.#live(only, await this.treeOf(only).getChildren());
      }
      return this.registry.all().map((a) => {
        const root = this.#rootOf(a);
        this.#ownerOf.set(root, a);
        return root;
      });
    }
    // A root or row of an account removed since (VS Code expanding it as it goes away): nothing to list, no request.
    if (isAccountKeyMissing(node)) return [];
    const account = this.accountOf(node);
    if (!account) return [];
    // An added account without its key on this machine: no request, one row that asks for that account's key.
    if (isAccountRoot(node) && !(await account.hasKey())) return [this.#keyMissing(account) as unknown as N];
    // The account may have been removed while its key was looked for, or while its rows were read: nothing to list.
    if (!this.#isLive(account)) return [];
    if (isAccountRoot(node)) return this.#live(account, await this.treeOf(account).getChildren());
    return this.#live(account, await this.treeOf(account).getChildren(node));
  }

  /** An account's rows, unless the account was removed while they were read (then none: no row of a removed account). */
  #live(account: Account, rows: N[]): N[] {
    return this.#isLive(account) ? this.#own(account, rows) : [];
  }

  #keyMissing(account: Account): AccountKeyMissingNode {
    const row: AccountKeyMissingNode = { kind: 'accountKeyMissing', account };
    this.#ownerOf.set(row, account);
    return row;
  }

  /** The account whose tree handed out a row (every row VS Code asks about was handed out by one). */
  #ownerOfRow(node: N): Account {
    const owner = this.#ownerOf.get(node) ?? [...this.#trees].find(([, tree]) => tree.owns(node))?.[0];
    if (!owner) throw new Error('A row of the view that no account handed out.');
    return owner;
  }

  #own(account: Account, rows: N[]): N[] {
    for (const r of rows) this.#ownerOf.set(r, account);
    return rows;
  }

  getTreeItem(node: N | AccountRootNode): vscode.TreeItem {
    if (isAccountKeyMissing(node)) {
      const item = new vscode.TreeItem(vscode.l10n.t('The API key of this account is not on this machine'));
      item.id = `account:${node.account.label}/key-missing`;
      item.description = vscode.l10n.t('Click to enter it');
      item.tooltip = vscode.l10n.t(
        '{0}: this account was added on another machine, and its API key is kept in that machine\'s secret storage only. Click to enter the key of this account.',
        node.account.displayName,
      );
      item.iconPath = new vscode.ThemeIcon('key');
      item.contextValue = 'accountKeyMissing';
      item.command = { command: CMD.accountEnterKey, title: vscode.l10n.t('Enter API Key'), arguments: [node.account.label] };
      return item;
    }
    if (isAccountRoot(node)) {
      const item = new vscode.TreeItem(node.account.displayName, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `account:${node.account.label}`;
      item.description = this.#rootDescription(node.account);
      item.iconPath = new vscode.ThemeIcon('account');
      item.contextValue = 'account';
      item.tooltip =
        node.account.origin === 'settings'
          ? vscode.l10n.t('{0}: the account of "Set API Key…"', node.account.displayName)
          : vscode.l10n.t('{0}: an account added with "Add Account…"', node.account.displayName);
      return item;
    }
    const account = this.#ownerOfRow(node);
    const item = this.treeOf(account).getTreeItem(node);
    // Two accounts' rows can have the same ids: each row's id says its account.
    if (this.registry.several && item.id !== undefined) item.id = `${account.label}/${item.id}`;
    // A row's own command (Open) names the account its document is in.
    const arg: unknown = item.command?.arguments?.[0];
    if (arg && typeof arg === 'object' && !Array.isArray(arg) && 'id' in arg && !('account' in arg)) {
      const rest: unknown[] = item.command!.arguments!.slice(1);
      item.command!.arguments = [{ ...arg, account: account.label }, ...rest];
    }
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: N | AccountRootNode, token: vscode.CancellationToken): vscode.ProviderResult<vscode.TreeItem> {
    if (isAccountRoot(node) || isAccountKeyMissing(node)) return item;
    const tree = this.treeOf(this.#ownerOfRow(node)) as vscode.TreeDataProvider<N>;
    return tree.resolveTreeItem ? tree.resolveTreeItem(item, node, token) : item;
  }

  getParent(node: N | AccountRootNode): N | AccountRootNode | undefined {
    if (isAccountRoot(node)) return undefined;
    if (isAccountKeyMissing(node)) return this.registry.several ? this.#rootOf(node.account) : undefined;
    const account = this.#ownerOfRow(node);
    const parent = (this.treeOf(account) as vscode.TreeDataProvider<N>).getParent?.(node) as N | undefined;
    if (parent !== undefined && parent !== null) return parent;
    return this.registry.several ? this.#rootOf(account) : undefined;
  }
}

/** Toggles the selection of the row in focus in a view (whose list has the focus); resolves to the selection then. */
function toggleFocused<T>(view: vscode.TreeView<T>): Promise<readonly T[]> {
  return new Promise<readonly T[]>((resolve) => {
    const done = (selection: readonly T[]) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(selection);
    };
    const sub = view.onDidChangeSelection((e) => done(e.selection));
    const timer = setTimeout(() => done(view.selection), 1000);
    void vscode.commands.executeCommand('list.toggleSelection').then(undefined, () => done(view.selection));
  });
}
