import vscode = require('vscode');
import type { AccountInfo, ContentDocument } from '../api/index';
import { Disposable } from '../util/disposable';
import { describeError, isCancellation } from '../util/errors';
import type { Logger } from '../util/log';
import type { ApiProvider } from '../accounts/apiProvider';
import type { DocumentService } from '../documents/documentService';

/** Creations closer together than this share one account read. */
export const USAGE_COALESCE_MS = 300;

/**
 * The account (GET /account, typed): the plan, this month's usage and the user's defaults. Read on demand
 * and cached for the session; never at activation. At most one request is on the wire: a refresh asked for
 * while one is, runs once after it (that answer may predate the ask). A created document makes the cached
 * counters stale: one read follows, shared by every creation of a burst. One per account (see Account): disposing
 * the account abandons a read on the wire.
 */
export class AccountService extends Disposable {
  private info: AccountInfo | undefined;
  private inFlight: Promise<AccountInfo> | undefined;
  private queued: Promise<AccountInfo> | undefined;
  private controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private countLocally = false;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<AccountInfo | undefined>());
  /** The account was read (its figures). */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly api: Pick<ApiProvider, 'get'>,
    documents: Pick<DocumentService, 'onDidCreate'>,
    private readonly log: Logger,
  ) {
    super();
    this._register(documents.onDidCreate((doc) => this.onCreated(doc)));
    this._register({ dispose: () => this.forget(false) });
  }

  /**
   * The account as a request made for another reason just read it (the key check of Set API Key…), so the
   * session's first request need not read it again. Ignored while a read of its own is on the wire.
   */
  seed(info: AccountInfo): void {
    if (this.inFlight || this.timer) return;
    this.info = info;
    this._onDidChange.fire(info);
  }

  /** What was last read this session (no request). */
  get cached(): AccountInfo | undefined {
    return this.info;
  }

  /** The account: as cached, else one read (shared with a read already on the wire). */
  get(): Promise<AccountInfo> {
    if (this.info) return Promise.resolve(this.info);
    return this.inFlight ?? this.refresh();
  }

  /** Reads the account again; while a read is on the wire, once after it. */
  refresh(): Promise<AccountInfo> {
    if (!this.inFlight) return this.read();
    const { signal } = this.controller;
    this.queued ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        // The account went meanwhile: nothing more is read.
        if (signal.aborted) throw new vscode.CancellationError();
        this.queued = undefined;
        return this.inFlight ?? this.read();
      });
    return this.queued;
  }

  /**
   * The next document created was preceded, in the same action, by a read of this account (a writing action that
   * needed its defaults): that creation is counted in locally instead of read again, so the action makes one
   * account request, not two. `false` withdraws it (the action created nothing).
   */
  countNextCreationLocally(on = true): void {
    this.countLocally = on;
  }

  private onCreated(doc: ContentDocument): void {
    const local = this.countLocally;
    this.countLocally = false;
    const info = this.info;
    if (!local || !info) return this.refreshSoon();
    const month = { ...info.month };
    if (month.documents !== undefined) month.documents += 1;
    if (month.words !== undefined && typeof doc.words === 'number') month.words += doc.words;
    this.info = { ...info, month };
    this._onDidChange.fire(this.info);
  }

  /** A refresh after a short pause: a burst of asks makes one read. Failures are logged, not shown. */
  refreshSoon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A failure is logged by read(); the next creation or request tries again.
      this.refresh().catch(() => undefined);
    }, USAGE_COALESCE_MS);
  }

  /** Whether a read is on the wire or about to start. */
  get busy(): boolean {
    return this.inFlight !== undefined || this.timer !== undefined;
  }

  private read(): Promise<AccountInfo> {
    const p: Promise<AccountInfo> = this.fetch(this.controller.signal).finally(() => {
      if (this.inFlight === p) this.inFlight = undefined;
    });
    this.inFlight = p;
    return p;
  }

  private async fetch(signal: AbortSignal): Promise<AccountInfo> {
    try {
      const info = await this.api.get().getAccountUsage(signal);
      if (signal.aborted) throw new vscode.CancellationError();
      this.info = info;
      this._onDidChange.fire(info);
      return info;
    } catch (e) {
      if (!isCancellation(e)) this.log.warn(`[account] ${describeError("Couldn't read the account's plan usage", e)}`);
      throw e;
    }
  }

  /** Drops what was read; a read on the wire is abandoned (the account went). */
  private forget(fire = true): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.controller.abort();
    this.controller = new AbortController();
    this.inFlight = undefined;
    this.queued = undefined;
    const had = this.info !== undefined;
    this.info = undefined;
    if (fire && had) this._onDidChange.fire(undefined);
  }
}
