import type { Page } from '../api/paging';

type Key = string | number;

export interface PagedListOptions<T> {
  /** The rows of the server's list this list shows (a filter over a whole list); every row when left out. */
  keep?: (item: T) => boolean;
  /** Pages one load may read while they bring no new row (default 5). */
  maxReads?: number;
  /** The server's order of two items, or undefined where only the server can tell: places new rows of a page. */
  order?: (a: T, b: T) => number | undefined;
}

/**
 * The loaded part of one server-side list (one tree parent): the items shown so far, the total the
 * server reported, whether more pages exist, and the last failure. Loading is deduped: while a page is
 * in flight, every caller gets the same promise.
 *
 * The server pages by offset, and its list moves between two reads: a row deleted before the offset makes
 * the next page skip one, a row created before it makes the next page repeat one. So the list keeps the
 * server's page number (the last page read), merges each page by id where the page puts its rows, and
 * treats a page that brings nothing new as no progress (it reads on). Rows removed here move the next read
 * back to the page they slid onto. A walk (page 1 to the last page) is trusted only when the server's total
 * never moved except by the changes made here, and the rows it listed add up to that total; otherwise the
 * walk starts again from page 1 (keeping the rows shown), and rows a trusted walk did not list are dropped.
 */
export class PagedList<T> {
  /** The rows shown, in the server's order. */
  get items(): readonly T[] {
    return this.#items;
  }
  #items: T[] = [];
  /**
   * The keys of the rows shown, kept with them: a page's rows are looked up here, so that merging a page costs the
   * same at row 1,700 as at row 50 (a search of the rows for each of a page's rows grew with every page).
   */
  #shown = new Set<Key>();
  /** The server's total for the whole list, once a page has said it (a filtered list: once it is complete). */
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

  /** The last page read in this walk, as the server numbered it; 0 when the next read starts a walk. */
  #page = 0;
  /** Rows removed here (less rows placed) since the last read: the later rows slid up by that many. */
  #shift = 0;
  /** The server's total for the list it pages (before `keep`), as last read, moved by the changes made here. */
  #serverTotal: number | undefined;
  /** No read of this walk found the server's total moved by someone else. */
  #clean = true;
  /** Keys of the rows this walk found on the server (before `keep`), and of rows placed here since. */
  #listed = new Set<Key>();
  /** The keys the walk before this one had listed (and placed) when it ended. */
  #listedBefore = new Set<Key>();
  /** The order in which this walk listed each row (a row listed again takes its later place); rows placed here have none. */
  #seq = new Map<Key, number>();
  #nextSeq = 0;
  /** Rows this walk added to the list. */
  #added = 0;
  /** Walks in a row that ended clean, added nothing and did not add up, with no change made here since. */
  #fruitless = 0;

  readonly #fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>;
  readonly #keyOf: (item: T) => Key;
  readonly #signal: AbortSignal;
  readonly #keep: ((item: T) => boolean) | undefined;
  readonly #maxReads: number;
  readonly #order: ((a: T, b: T) => number | undefined) | undefined;

  constructor(
    fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>,
    keyOf: (item: T) => Key,
    perPage: number,
    signal: AbortSignal,
    options: PagedListOptions<T> = {},
  ) {
    this.#fetchPage = fetchPage;
    this.#keyOf = keyOf;
    this.#signal = signal;
    this.#perPage = perPage;
    this.#keep = options.keep;
    this.#maxReads = Math.max(1, options.maxReads ?? 5);
    this.#order = options.order;
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

  /** Loads the next page (the first one when nothing is loaded), reading on while pages bring nothing new. Deduped while in flight. */
  next(): Promise<void> {
    if (this.#pending) return this.#pending;
    if (this.#signal.aborted) return Promise.resolve();
    this.error = undefined;
    // Started on the next microtask, so `pending` is set before anything can finish.
    const run: Promise<void> = Promise.resolve().then(async () => {
      try {
        for (let reads = 0; reads < this.#maxReads; reads++) {
          const page = this.#nextPage();
          const p = await this.#fetchPage(page, this.#signal);
          if (this.#signal.aborted) return;
          if (this.#take(page, p) > 0 || !this.hasMore) return;
        }
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

  /** The page to read: the one after the last read, or the page the rows after it slid onto when rows were removed here. */
  #nextPage(): number {
    if (!this.loaded || this.#page === 0) return 1;
    if (this.#shift < 0) return Math.max(1, this.#page - Math.ceil(-this.#shift / this.#perPage) + 1);
    return this.#page + 1;
  }

  /** Merges one page; returns how many rows it added. */
  #take(asked: number, p: Page<T>): number {
    const page = p.page > 0 ? p.page : asked;
    if (page === 1) {
      // A walk starts: what it lists is checked against the total at its end.
      this.#clean = true;
      this.#listedBefore = this.#listed;
      this.#listed = new Set();
      this.#seq.clear();
      this.#nextSeq = 0;
      this.#added = 0;
    }
    // Someone else created or deleted since the last read: the offsets moved by an amount not known here.
    const movedElsewhere = page > 1 && this.#serverTotal !== undefined && p.total !== undefined && p.total !== this.#serverTotal;
    if (movedElsewhere) this.#clean = false;
    // How many rows already listed can show up again on this page: on a page read again, or after someone
    // else's changes, any number; else as many as rows placed here since the last read pushed down.
    const repeats = movedElsewhere || page <= this.#page ? Infinity : Math.max(0, this.#shift);
    this.#shift = 0;
    const kept = this.#keep ? p.items.filter(this.#keep) : p.items;
    const added = this.#merge(kept, repeats);
    for (const item of p.items) {
      const key = this.#keyOf(item);
      this.#listed.add(key);
      this.#seq.set(key, this.#nextSeq++);
    }
    this.#added += added;
    if (p.perPage && p.perPage > 0) this.#perPage = p.perPage;
    this.#serverTotal = p.total;
    this.#page = page;
    this.loaded = true;
    if (p.hasMore) {
      this.hasMore = true;
    } else if (this.#clean && (p.total === undefined || this.#listed.size === p.total) && this.#trust()) {
      this.hasMore = false;
    } else if (this.#clean && this.#added === 0 && ++this.#fruitless >= 2) {
      // Two walks alike, nothing changed here between them, and still not adding up (rows equal under the
      // server's order can fall between two pages): nothing more can be learnt by reading again. A row shown that
      // neither walk listed is not in the list as the server pages it now (deleted elsewhere since): it goes.
      this.#setItems(this.#items.filter((row) => this.#listed.has(this.#keyOf(row)) || this.#listedBefore.has(this.#keyOf(row))));
      this.hasMore = false;
    } else {
      this.#restart();
    }
    if (this.#added > 0 || !this.#clean) this.#fruitless = 0;
    if (this.#keep) this.total = this.hasMore ? undefined : this.#items.length;
    else this.total = p.total ?? (this.hasMore ? undefined : this.#items.length);
    return added;
  }

  /**
   * Puts a page's kept rows in the list. A new row goes where `order` proves its place among the rows shown;
   * else after the row before it in the page, or right before the first row of the page already shown, or
   * (none shown) after the rows this walk listed. A row shown earlier than the page now lists it moves
   * there (renamed elsewhere, or equal names ordered otherwise this time): after the row before it in the page,
   * or to where the page begins, unless it is one of the last `repeats` rows before that (pushed onto this page
   * by rows added before it: then the page's rows before it go before it).
   */
  #merge(kept: T[], repeats: number): number {
    // The page continues the rows this walk has listed: it begins after the last of them shown (page 1: at the top).
    let start = this.#items.length;
    while (start > 0 && !this.#listed.has(this.#keyOf(this.#items[start - 1]))) start--;
    let pos: number | undefined;
    let added = 0;
    let waiting: T[] = [];
    // The rows waiting for a place go right before the row at `at`; returns that row's index after them.
    const before = (at: number): number => {
      if (!waiting.length) return at;
      this.#items.splice(at, 0, ...waiting);
      for (const row of waiting) this.#shown.add(this.#keyOf(row));
      added += waiting.length;
      at += waiting.length;
      waiting = [];
      return at;
    };
    // Where each row is in the page: a row shown further down than the page goes on, above rows the page lists
    // after it, moved up on the server (renamed elsewhere); the rows it passes did not move down.
    const inPage = new Map(kept.map((item, k) => [this.#keyOf(item), k]));
    const listsLater = (k: number, from: number, to: number): boolean => {
      for (let i = from; i < to; i++) if ((inPage.get(this.#keyOf(this.#items[i])) ?? -1) > k) return true;
      return false;
    };
    for (const [k, item] of kept.entries()) {
      const j = this.indexOf(this.#keyOf(item));
      if (j >= 0) {
        if (pos === undefined && j < start - repeats && this.#movable(j, start - 1)) {
          const [shown] = this.#items.splice(j, 1);
          this.#items.splice(start - 1, 0, shown);
          pos = before(start - 1) + 1;
        } else if (j > (pos ?? start) && listsLater(k, pos ?? start, j) && this.#movable(j, pos ?? start)) {
          const at = pos ?? start;
          const [shown] = this.#items.splice(j, 1);
          this.#items.splice(at, 0, shown);
          pos = before(at) + 1;
        } else if (pos === undefined || j >= pos) {
          pos = before(j) + 1;
        } else if (this.#movable(j, pos - 1)) {
          const [shown] = this.#items.splice(j, 1);
          this.#items.splice(pos - 1, 0, shown);
        }
        continue;
      }
      const slot = this.#slot(item, true, this.#order, this.#items, pos ?? start);
      if (slot !== undefined) {
        this.#items.splice(slot, 0, item);
        this.#shown.add(this.#keyOf(item));
        added++;
        pos = before(slot) + 1;
      } else if (pos !== undefined) {
        pos = this.#consistent(item, pos);
        this.#items.splice(pos++, 0, item);
        this.#shown.add(this.#keyOf(item));
        added++;
      } else {
        waiting.push(item);
      }
    }
    if (waiting.length) before(start);
    return added;
  }

  /**
   * Whether the row at `from` can move to `to` (its index once moved) without passing a row that `order` says
   * it comes after, or before (a page's place is no proof where equal names were ordered otherwise this time).
   */
  #movable(from: number, to: number): boolean {
    const order = this.#order;
    if (!order) return true;
    const row = this.#items[from];
    for (let i = from + 1; i <= to; i++) if ((order(row, this.#items[i]) ?? 0) < 0) return false;
    for (let i = to; i < from; i++) if ((order(this.#items[i], row) ?? 0) < 0) return false;
    return true;
  }

  /**
   * The index nearest `at` where a new row contradicts no order `order` knows: the nearest row before it that
   * `order` orders against it comes before it, and the nearest after it comes after it.
   */
  #consistent(item: T, at: number): number {
    const order = this.#order;
    if (!order) return at;
    const rows = this.#items;
    const ok = (i: number): boolean => {
      for (let k = i - 1; k >= 0; k--) {
        const o = order(rows[k], item);
        if (o !== undefined) {
          if (o >= 0) return false;
          break;
        }
      }
      for (let k = i; k < rows.length; k++) {
        const o = order(item, rows[k]);
        if (o !== undefined) return o < 0;
      }
      return true;
    };
    for (let d = 0; d <= rows.length; d++) {
      if (at + d <= rows.length && ok(at + d)) return at + d;
      if (at - d >= 0 && ok(at - d)) return at - d;
    }
    return at;
  }

  /**
   * Where `order` proves an item goes among the rows shown: between two neighbours it orders it against, or at
   * the top; after the last row only when `atEnd` (the page being merged lists it, or the list is complete).
   */
  #slot(item: T, atEnd: boolean, order = this.#order, rows = this.#items, first?: number): number | undefined {
    if (!order) return undefined;
    const precedes = (a: T, b: T) => (order(a, b) ?? 0) < 0;
    const n = rows.length;
    const fits = (i: number) => (i === 0 || precedes(rows[i - 1], item)) && (i < n ? precedes(item, rows[i]) : atEnd);
    // Where the page goes on is where a new row usually belongs: tried first, before every place in turn.
    if (first !== undefined && first <= n && fits(first)) return first;
    for (let i = 0; i <= n; i++) if (fits(i)) return i;
    return undefined;
  }

  /**
   * A clean walk that adds up: the server lists exactly the rows it listed, in that order, and the rows placed
   * here since it listed their neighbours, where `order` proves. Rows shown that it did not list are gone from
   * it. False (nothing changed) when a row placed here cannot be placed again among the rows as listed.
   */
  #trust(): boolean {
    const listed: T[] = [];
    const placed: T[] = [];
    for (const row of this.#items) {
      const key = this.#keyOf(row);
      if (!this.#listed.has(key)) continue;
      (this.#seq.has(key) ? listed : placed).push(row);
    }
    listed.sort((a, b) => this.#seq.get(this.#keyOf(a))! - this.#seq.get(this.#keyOf(b))!);
    for (const row of placed) {
      const i = this.#slot(row, true, this.#order, listed);
      if (i === undefined) return false;
      listed.splice(i, 0, row);
    }
    this.#setItems(listed);
    return true;
  }

  /** The next read starts a walk from page 1 (the rows shown stay until a trusted walk says otherwise). */
  #restart(): void {
    this.#page = 0;
    this.#shift = 0;
    this.hasMore = true;
  }

  /** Replaces the rows shown (and their keys). */
  #setItems(rows: T[]): void {
    this.#items = rows;
    this.#shown = new Set(rows.map((row) => this.#keyOf(row)));
  }

  indexOf(key: Key): number {
    if (!this.#shown.has(key)) return -1;
    return this.#items.findIndex((i) => this.#keyOf(i) === key);
  }

  find(key: Key): T | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : this.#items[i];
  }

  /** Removes the item locally (the rows after it slid up on the server). The total is not changed (the caller knows why it went). */
  remove(key: Key): T | undefined {
    const i = this.indexOf(key);
    if (i < 0) return undefined;
    const [removed] = this.#items.splice(i, 1);
    this.#shown.delete(key);
    this.#listed.delete(key);
    this.#seq.delete(key);
    this.#shift--;
    this.#fruitless = 0;
    return removed;
  }

  /** Moves the total by `delta` when it is known. */
  adjustTotal(delta: number): void {
    this.#fruitless = 0;
    if (this.total !== undefined) this.total = Math.max(0, this.total + delta);
    if (this.#serverTotal !== undefined) this.#serverTotal = Math.max(0, this.#serverTotal + delta);
  }

  /**
   * A row this list does not keep was created (+1) or deleted (-1) in the list the server pages (a filtered
   * list only): the server's total moves, and a delete may slide later rows up.
   */
  serverRowsChanged(delta: 1 | -1, key: Key): void {
    this.#fruitless = 0;
    if (this.#serverTotal !== undefined) this.#serverTotal = Math.max(0, this.#serverTotal + delta);
    if (delta > 0) this.#listed.add(key);
    else if (this.#listed.delete(key)) this.#shift--;
  }

  /**
   * Inserts an item where the server's order puts it: between two neighbours (or at an end of the list) that
   * `compare` orders it against (undefined: only the server can tell). After the last row only when the whole
   * list is loaded. Returns whether it was inserted; when not, and the list was complete, Load more shows
   * again so the server's next read reaches it. The total is not changed (the caller knows why).
   */
  place(item: T, compare = this.#order): boolean {
    const i = this.#slot(item, !this.hasMore, compare);
    this.#fruitless = 0;
    if (i === undefined) {
      if (this.loaded && !this.hasMore) this.#restart();
      return false;
    }
    this.#items.splice(i, 0, item);
    this.#shown.add(this.#keyOf(item));
    this.#listed.add(this.#keyOf(item));
    this.#seq.delete(this.#keyOf(item));
    this.#shift++;
    return true;
  }
}
