import vscode = require('vscode');
import type { AccountInfo, Exchange } from '../api/index';
import type { Credentials } from '../accounts/credentials';
import { CMD } from '../constants';
import type { AccountService } from './accountService';
import type { ApiProvider } from '../accounts/apiProvider';
import { Disposable } from '../util/disposable';
import type { UsageLevel } from './usageFormat';

/** After a failed read, the next request of the session tries again only after this long. */
const RETRY_AFTER_FAILURE_MS = 60_000;
const WARNING_BACKGROUND = 'statusBarItem.warningBackground';

/** What the status bar item shows (the API cannot read a status bar item back: tests read this). */
export interface UsageItemState {
  readonly visible: boolean;
  readonly text: string;
  readonly tooltip: string;
  readonly level: UsageLevel;
  /** The theme colour of the background, when there is one. */
  readonly background: string | undefined;
}

/**
 * Plan usage in the status bar: words used this month against the plan's limit. Hidden until the account
 * is known, which happens on the first successful request the user's own actions make (a list, an open, a
 * create): activation sends nothing, and no request is made just to show the item before the user talks to
 * the server. Follows the account service: re-read after each created document, gone on sign-out, and read
 * again on the next request after a switch of key or server.
 */
export class UsageStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private level: UsageLevel = 'normal';
  private visible = false;
  /** A read was asked for in this account session (or failed at this time, epoch ms). */
  private asked = false;
  private failedAt = 0;
  /** Bumped when the key or the server changes: a read asked for before belongs to the account used then. */
  private epoch = 0;
  /** How the account page is opened (tests put their own here). */
  openExternal: (uri: vscode.Uri) => Thenable<boolean> = (uri) => vscode.env.openExternal(uri);

  /** The account whose usage is shown instead of the first's (the active editor's document is of that account). */
  private other: { readonly usage: AccountService; readonly name: string } | undefined;

  constructor(
    private readonly account: AccountService,
    private readonly api: ApiProvider,
    private readonly credentials: Credentials,
  ) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('contentDocs.usage', vscode.StatusBarAlignment.Right, 100));
    this.item.name = 'Content Docs Plan Usage';
    this.item.command = CMD.usageShow;
    this._register(api.onDidExchange((e) => this.onExchange(e)));
    // Another account, even while its first read is still on the wire (no figures to forget yet): ask afresh.
    this._register(credentials.onDidChange(() => this.newAccount()));
    this._register(api.onDidChangeServer(() => this.newAccount()));
    this._register(
      account.onDidChange((info) => {
        if (!info) this.newAccount();
        if (!this.other) this.render(info);
      }),
    );
  }

  /**
   * Follows the active editor: while it shows a document of an account added with "Add Account…" (`accountOf` says
   * which), that account's usage is shown, named in the tooltip; else the first account's. Its figures are read once
   * when first needed (a document of it was just opened: the user is working there).
   */
  followActiveEditor(
    accountOf: (uri: vscode.Uri) => { readonly usage: AccountService; readonly name: string; readonly primary: boolean } | undefined,
    /** The accounts changed (one added or removed), and whether an account's usage is still one of them. */
    accounts?: { readonly onDidChange: vscode.Event<unknown>; isLive(usage: AccountService): boolean },
  ): void {
    const watched = new WeakSet<AccountService>();
    // A removed account's usage is never shown: back to the first account's.
    if (accounts) {
      this._register(
        accounts.onDidChange(() => {
          if (!this.other || accounts.isLive(this.other.usage)) return;
          this.other = undefined;
          this.render(this.account.cached);
        }),
      );
    }
    const update = () => {
      const uri = vscode.window.activeTextEditor?.document.uri;
      const found = uri ? accountOf(uri) : undefined;
      // Another kind of editor (a file, the output) keeps what was shown: the account last worked in.
      if (!found) return;
      this.other = found.primary ? undefined : found;
      if (!this.other) return this.render(this.account.cached);
      const other = this.other;
      if (!watched.has(other.usage)) {
        watched.add(other.usage);
        this._register(other.usage.onDidChange((info) => (this.other?.usage === other.usage ? this.render(info) : undefined)));
      }
      this.render(other.usage.cached);
      if (!other.usage.cached && !other.usage.busy) other.usage.get().catch(() => undefined);
    };
    this._register(vscode.window.onDidChangeActiveTextEditor(update));
    update();
  }

  get state(): UsageItemState {
    return {
      visible: this.visible,
      text: this.item.text,
      tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : '',
      level: this.level,
      background: this.level === 'warning' ? WARNING_BACKGROUND : undefined,
    };
  }

  /** The first successful request of the account session (other than an account read) brings the figures. */
  private onExchange(e: Exchange): void {
    if (e.service !== 'documents' || e.status === undefined || e.status < 200 || e.status >= 300) return;
    if (e.path === '/account' || e.path.startsWith('/account?')) return;
    if (this.account.cached || this.account.busy) return;
    if (this.asked && (this.failedAt === 0 || Date.now() - this.failedAt < RETRY_AFTER_FAILURE_MS)) return;
    this.asked = true;
    this.failedAt = 0;
    const epoch = this.epoch;
    void this.credentials.hasKey().then((signedIn) => {
      if (epoch !== this.epoch) return;
      if (!signedIn) {
        this.asked = false;
        return;
      }
      this.account.get().catch(() => {
        // A read abandoned for another account is not this account's failure.
        if (epoch === this.epoch) this.failedAt = Date.now();
      });
    });
  }

  private newAccount(): void {
    this.epoch++;
    this.asked = false;
    this.failedAt = 0;
  }

  private render(info: AccountInfo | undefined): void {
    // The formatting ships in the API bundle, loaded by the request that brought the figures.
    const text = info && this.api.lib().statusText(info);
    if (!info || !text) {
      this.visible = false;
      this.level = 'normal';
      this.item.hide();
      return;
    }
    const { tooltipText, usageLevel } = this.api.lib();
    this.level = usageLevel(info);
    this.item.text = text;
    this.item.tooltip = this.other ? `${this.other.name}\n\n${tooltipText(info)}` : tooltipText(info);
    this.item.backgroundColor = this.level === 'warning' ? new vscode.ThemeColor(WARNING_BACKGROUND) : undefined;
    this.visible = true;
    this.item.show();
  }
}
