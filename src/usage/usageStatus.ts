import vscode = require('vscode');
import type { AccountInfo, Exchange } from '../api/index';
import type { Account } from '../accounts/account';
import { CMD } from '../constants';
import type { Event } from '../model/emitter';
import { Disposable } from '../util/disposable';
import type { StatusFigure, UsageLevel } from '../model/usageFormat';

/** After a failed read, the next request of the account tries again only after this long. */
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
  /** What a screen reader says of the item: the figures whole ("12,345 of 50,000 words used this month"). */
  readonly accessibility: vscode.AccessibilityInformation;
}

/** What the status bar hears of the accounts. */
export interface UsageAccounts {
  all(): readonly Account[];
  /** Resolves once the accounts of the key and settings heard so far are made (see AccountRegistry.settled). */
  settled(): Promise<void>;
  /** Every HTTP exchange, with its account. */
  readonly onDidExchange: Event<{ readonly account: Account; readonly exchange: Exchange }>;
  /** An account was added, removed or made anew. */
  readonly onDidChange: Event<void>;
  isLive(account: Account): boolean;
  readonly several: boolean;
}

/**
 * Plan usage in the status bar: words used this month against the plan's limit, of one account — the account of the
 * active editor's document, else the account last worked in (the last one shown). Hidden until an account is known,
 * which happens on the first successful request the user's own actions make in it (a list, an open, a create):
 * activation sends nothing, and no request is made just to show the item before the user talks to a server. Follows
 * that account's figures: re-read after each created document, gone with the account (signed out, removed, another
 * key or server). With several accounts the tooltip names the account.
 */
export class UsageStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private level: UsageLevel = 'normal';
  private visible = false;
  /** The account whose figures are shown (or will be, once read). */
  private shown: Account | undefined;
  /** Per account: a read was asked for after one of its requests (or failed at this time, epoch ms). */
  private readonly asked = new WeakMap<Account, { failedAt: number }>();
  /** Per account signed in: the subscription to its figures (dropped once it goes, so that it can be let go). */
  private readonly watched = new Map<Account, vscode.Disposable>();
  /** How the account page is opened (tests put their own here). */
  openExternal: (uri: vscode.Uri) => Thenable<boolean> = (uri) => vscode.env.openExternal(uri);

  constructor(
    private readonly accounts: UsageAccounts,
    /** The account a `content-docs:` editor's document belongs to, if it is signed in. */
    private readonly accountOfEditor: (uri: vscode.Uri) => Account | undefined,
  ) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('contentDocs.usage', vscode.StatusBarAlignment.Right, 100));
    this.item.name = vscode.l10n.t('Content Docs Plan Usage');
    this.item.command = CMD.usageShow;
    this._register(accounts.onDidExchange(({ account, exchange }) => this.onExchange(account, exchange)));
    this._register(
      accounts.onDidChange(() => {
        this.watchAll();
        // A gone account's figures are never shown.
        if (this.shown && !accounts.isLive(this.shown)) this.show(undefined);
        else this.render();
      }),
    );
    this.watchAll();
    this._register({
      dispose: () => {
        this.watched.forEach((sub) => void sub.dispose());
        this.watched.clear();
      },
    });
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.followEditor()));
    this.followEditor();
    // Built by a window's first use, the account of the key stored is made a moment later: the active editor (a tab
    // restored) is of that account, and is followed once it is made (not the account of the first request made).
    void accounts.settled().then(() => {
      if (!this.isDisposed) this.followEditor();
    });
  }

  get state(): UsageItemState {
    return {
      visible: this.visible,
      text: this.item.text,
      tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : '',
      level: this.level,
      background: this.level === 'warning' ? WARNING_BACKGROUND : undefined,
      accessibility: this.item.accessibilityInformation ?? { label: '' },
    };
  }

  /** The account whose figures the item shows (undefined: none yet). */
  get account(): Account | undefined {
    return this.shown;
  }

  /**
   * The active editor's document is of an account: its figures are shown, read once when there are none yet (a
   * document of it was just opened: the user is working there). Another kind of editor keeps what was shown.
   */
  private followEditor(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const account = uri ? this.accountOfEditor(uri) : undefined;
    if (!account) return;
    this.show(account);
    if (!account.usage.cached && !account.usage.busy) account.usage.get().catch(() => undefined);
  }

  /** A successful request of an account (other than an account read): its figures, when it is the one shown or none is. */
  private onExchange(account: Account, e: Exchange): void {
    if (e.service !== 'documents' || e.status === undefined || e.status < 200 || e.status >= 300) return;
    if (e.path === '/account' || e.path.startsWith('/account?')) return;
    if (!this.accounts.isLive(account)) return;
    if (this.shown === undefined) this.show(account);
    if (this.shown !== account || account.usage.cached || account.usage.busy) return;
    const asked = this.asked.get(account);
    if (asked && (asked.failedAt === 0 || Date.now() - asked.failedAt < RETRY_AFTER_FAILURE_MS)) return;
    const mark = { failedAt: 0 };
    this.asked.set(account, mark);
    account.usage.get().catch(() => {
      if (!account.gone) mark.failedAt = Date.now();
    });
  }

  /**
   * Hears every account's figures: those of the account shown are shown; an account read while none is shown (the
   * key check of Set API Key… or Add Account… read it: the user just signed in there) becomes the one shown.
   */
  private watchAll(): void {
    for (const [account, sub] of this.watched) {
      if (this.accounts.isLive(account)) continue;
      sub.dispose();
      this.watched.delete(account);
    }
    for (const account of this.accounts.all()) {
      if (this.watched.has(account)) continue;
      this.watched.set(
        account,
        account.usage.onDidChange((info) => {
          if (this.shown === undefined && info && this.accounts.isLive(account)) this.shown = account;
          if (this.shown === account) this.render();
        }),
      );
    }
  }

  private show(account: Account | undefined): void {
    this.shown = account;
    this.watchAll();
    this.render();
  }

  private render(): void {
    const account = this.shown;
    const info: AccountInfo | undefined = account && !account.gone ? account.usage.cached : undefined;
    // The formatting ships in the API bundle, loaded by the request that brought the figures.
    const lib = info && account ? account.api.lib() : undefined;
    const text = info && lib?.statusText(info);
    if (!info || !lib || !text || !account) {
      this.visible = false;
      this.level = 'normal';
      this.item.hide();
      return;
    }
    this.level = lib.usageLevel(info);
    this.item.text = text;
    const tooltip = lib.tooltipText(info);
    this.item.tooltip = this.accounts.several ? `${account.displayName}\n\n${tooltip}` : tooltip;
    this.item.backgroundColor = this.level === 'warning' ? new vscode.ThemeColor(WARNING_BACKGROUND) : undefined;
    const figure = lib.statusFigure(info);
    if (figure) {
      const spoken = spokenUsage(figure, this.level);
      this.item.accessibilityInformation = { label: this.accounts.several ? vscode.l10n.t('{0}, in the account {1}', spoken, account.displayName) : spoken, role: 'button' };
    }
    this.visible = true;
    this.item.show();
  }
}

/**
 * The item as a screen reader says it: the figures whole, in the user's language ("12,345 of 50,000 words used this
 * month"), rather than the compact text ("12.3k / 50k words"), and the warning its colour shows.
 */
export function spokenUsage(f: StatusFigure, level: UsageLevel): string {
  const n = (v: number) => v.toLocaleString(vscode.env.language);
  const used = n(f.used);
  if (f.limit === undefined) {
    if (f.counter === 'words') return f.used === 1 ? vscode.l10n.t('1 word used this month, with no monthly limit') : vscode.l10n.t('{0} words used this month, with no monthly limit', used);
    return f.used === 1 ? vscode.l10n.t('1 document used this month, with no monthly limit') : vscode.l10n.t('{0} documents used this month, with no monthly limit', used);
  }
  const limit = n(f.limit);
  if (level === 'warning') {
    return f.counter === 'words'
      ? vscode.l10n.t("{0} of {1} words used this month: the plan's monthly limit is nearly reached", used, limit)
      : vscode.l10n.t("{0} of {1} documents used this month: the plan's monthly limit is nearly reached", used, limit);
  }
  return f.counter === 'words' ? vscode.l10n.t('{0} of {1} words used this month', used, limit) : vscode.l10n.t('{0} of {1} documents used this month', used, limit);
}
