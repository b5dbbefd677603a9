/**
 * Auto-saves of one document, paced (issue 20). With `files.autoSave` on (VS Code for the Web's default: afterDelay,
 * one second), every pause in the typing saves: each save would be a PATCH, and the server takes 60 requests a minute
 * from one address. The user's setting is kept; the saves of a document are coalesced instead.
 *
 * VS Code saves one editor at a time: a save asked for while one is running is queued, and every further one folds
 * into that queued save, which writes the editor's text as it is when it runs. So holding a save makes the saves asked
 * for meanwhile one. An auto-save of a document whose last PATCH ended less than {@link AUTO_SAVE_WINDOW_MS} ago is
 * held until that window has passed; the save that runs after it carries the last text typed. It is held before its
 * stat (the read VS Code makes to check that nobody changed the document), so the check is as fresh as the PATCH.
 *
 * A save the user asks for (Ctrl+S, Save All) is never held. Which stat starts a save is known from
 * `onWillSaveTextDocument`, which VS Code fires just before it, with the reason. No `vscode` import: unit-tested in
 * plain Node (test/unit/saveWindow.test.ts).
 */

/** Auto-saves of one document go out at most once in this long (ms): at most 12 a minute, with their stats 24. */
export const AUTO_SAVE_WINDOW_MS = 5_000;
/** The stat of a save VS Code announced comes at once; an announcement older than this belongs to no stat (ms). */
const ANNOUNCED_MS = 3_000;

export type SaveReason = 'manual' | 'auto';

export class SaveWindow {
  /** Saves VS Code announced and whose stat has not come yet, by URI. */
  readonly #announced = new Map<string, { readonly at: number; readonly reason: SaveReason }>();
  /** When each document's last PATCH of its text ended (answered or failed), epoch ms. */
  readonly #lastSent = new Map<number, number>();
  /** Documents whose text is being PATCHed now. */
  readonly #sending = new Set<number>();

  constructor(readonly windowMs = AUTO_SAVE_WINDOW_MS) {}

  /** VS Code is about to save the document at `uri` (its stat comes next). */
  announce(uri: string, reason: SaveReason, now = Date.now()): void {
    this.#announced.set(uri, { at: now, reason });
    // Announcements nobody consumed (VS Code found nothing to write) are dropped as others come.
    for (const [k, a] of this.#announced) if (now - a.at > ANNOUNCED_MS) this.#announced.delete(k);
  }

  /**
   * Whether this stat of `uri` starts a save VS Code announced, and why (consumes the announcement: one stat per save).
   * Undefined for a stat VS Code makes for any other reason. Only an auto-save may be held; the stat of any save whose
   * text is the server's already is answered without a request (see documentFs.ts).
   */
  startsSave(uri: string, now = Date.now()): SaveReason | undefined {
    const a = this.#announced.get(uri);
    this.#announced.delete(uri);
    return a !== undefined && now - a.at <= ANNOUNCED_MS ? a.reason : undefined;
  }

  /**
   * How long an auto-save of document `id` still waits: until the window after its last PATCH has passed, and
   * while one of its PATCHes is on the wire (another editor of it saving), at least until that ends.
   */
  waitMs(id: number, now = Date.now()): number {
    if (this.#sending.has(id)) return this.windowMs;
    const last = this.#lastSent.get(id);
    return last === undefined ? 0 : Math.max(0, last + this.windowMs - now);
  }

  /** A PATCH of the document's text leaves. */
  sending(id: number): void {
    this.#sending.add(id);
  }

  /** That PATCH ended (answered or failed: either way it counted against the limit). */
  sent(id: number, now = Date.now()): void {
    this.#sending.delete(id);
    this.#lastSent.set(id, now);
  }
}

/** A save of a document's text, as the status bar hears of it (`uri`: the editor's URI as a string). */
export interface SaveEvent {
  readonly uri: string;
  /** `saving`: held for the window or on the wire; `saved`: the server has the text; `failed`: it does not. */
  readonly state: 'saving' | 'saved' | 'failed';
  /** Why it failed (the message VS Code shows too). */
  readonly message?: string;
  /** Saved without a request: the server already had the text. */
  readonly unchanged?: boolean;
}
