import type { Page } from '../api/paging';

/**
 * The loaded part of one server-side list (one tree parent): the items shown so far, the total the
 * server reported, whether more pages exist, and the last failure. Loading is deduped: while a page is
 * in flight, every caller gets the same promise.
 *
 * The next page is chosen from how many items are shown, not from a page counter, so a list that
 * changed locally (an item removed by a delete, or inserted by a favorite) still continues where the
 * server's order does: after k removals the next request re-reads the page that now holds the items
 * that slid up; duplicates are dropped by key.
 */
export class PagedList<T> {
  items: T[] = [];
  /** The server's total for the whole list, once a page has said it. */
  total: number | undefined;
  hasMore = false;
  /** The first page has arrived. */
  loaded = false;
  /** The last load failed with this (cleared when a load starts). */
  error: unknown = undefined;
  /** When the last failure happened (epoch ms), for "retry after …". */
  errorAt = 0;
  #pending: Promise<void> | undefined;
  #perPage: number;

  readonly #fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>;
  readonly #keyOf: (item: T) => string | number;
  readonly #signal: AbortSignal;

  constructor(
    fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>,
    keyOf: (item: T) => string | number,
    perPage: number,
    signal: AbortSignal,
  ) {
    this.#fetchPage = fetchPage;
    this.#keyOf = keyOf;
    this.#signal = signal;
    this.#perPage = perPage;
  }

  get loading(): boolean {
    return this.#pending !== undefined;
  }

  get failed(): boolean {
    return this.error !== undefined;
  }

  /** The page in flight, if any. */
  get inFlight(): Promise<void> | undefined {
    return this.#pending;
  }

  /** Loads the first page unless it is loaded, loading, or failed (a failure waits for an explicit retry). */
  ensure(): Promise<void> {
    if (this.#pending) return this.#pending;
    if (this.loaded || this.failed) return Promise.resolve();
    return this.next();
  }

  /** Loads the next page (the first one when nothing is loaded). Deduped while in flight. */
  next(): Promise<void> {
    if (this.#pending) return this.#pending;
    if (this.#signal.aborted) return Promise.resolve();
    const page = this.loaded ? Math.floor(this.items.length / this.#perPage) + 1 : 1;
    this.error = undefined;
    // Started on the next microtask, so `pending` is set before anything can finish.
    const run: Promise<void> = Promise.resolve().then(async () => {
      try {
        const p = await this.#fetchPage(page, this.#signal);
        if (this.#signal.aborted) return;
        const seen = new Set(this.items.map(this.#keyOf));
        for (const item of p.items) {
          const k = this.#keyOf(item);
          if (seen.has(k)) continue;
          seen.add(k);
          this.items.push(item);
        }
        if (p.perPage && p.perPage > 0) this.#perPage = p.perPage;
        this.total = p.total ?? (p.hasMore ? undefined : this.items.length);
        this.hasMore = p.hasMore;
        this.loaded = true;
      } catch (e) {
        this.error = e;
        this.errorAt = Date.now();
      } finally {
        if (this.#pending === run) this.#pending = undefined;
      }
    });
    this.#pending = run;
    return run;
  }

  /** Retries after a failure: the first page, or the page that failed. */
  retry(): Promise<void> {
    if (this.#pending) return this.#pending;
    this.error = undefined;
    return this.next();
  }

  indexOf(key: string | number): number {
    return this.items.findIndex((i) => this.#keyOf(i) === key);
  }

  find(key: string | number): T | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : this.items[i];
  }

  /** Removes the item locally. The total is not changed (the caller knows why it went). */
  remove(key: string | number): T | undefined {
    const i = this.indexOf(key);
    if (i < 0) return undefined;
    const [removed] = this.items.splice(i, 1);
    return removed;
  }

  /** Moves the total by `delta` when it is known. */
  adjustTotal(delta: number): void {
    if (this.total !== undefined) this.total = Math.max(0, this.total + delta);
  }

  /**
   * Inserts an item where the server's order puts it: before the first item `compare` says it
   * precedes. When it would come after everything loaded while more pages exist, it is left for a
   * later page. Returns whether it was inserted. The total is not changed (the caller knows why).
   */
  place(item: T, compare: (a: T, b: T) => number): boolean {
    let i = this.items.findIndex((other) => compare(item, other) < 0);
    if (i < 0) {
      if (this.hasMore) return false;
      i = this.items.length;
    }
    this.items.splice(i, 0, item);
    return true;
  }
}
