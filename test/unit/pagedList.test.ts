/**
 * PagedList (src/model/pagedList.ts): the loaded part of one server-side list. Driven by a list that behaves
 * like the server's (pages of `per_page` over an array that can change between requests).
 */
import assert from 'node:assert/strict';
import type { Page } from '../../src/api/paging';
import { compareNames, serverOrder } from '../../src/api/collation';
import { PagedList } from '../../src/model/pagedList';

interface Item {
  id: number;
}

/** A server list of ids, newest first, paged as the server pages it; records the pages asked for. */
function server(ids: number[], perPage: number) {
  const asked: number[] = [];
  let fail: Error | undefined;
  const fetch = (page: number): Promise<Page<Item>> => {
    asked.push(page);
    if (fail) {
      const e = fail;
      fail = undefined;
      return Promise.reject(e);
    }
    const items = ids.slice((page - 1) * perPage, page * perPage).map((id) => ({ id }));
    return Promise.resolve({ items, total: ids.length, lastPage: Math.ceil(ids.length / perPage), hasMore: page * perPage < ids.length, perPage, page });
  };
  return { ids, asked, fetch, failNext: (e: Error) => (fail = e) };
}

const ids = (l: PagedList<Item>) => l.items.map((i) => i.id);

describe('PagedList (one tree parent’s pages)', () => {
  it('loads the first page once, however many callers ask while it is in flight', async () => {
    const srv = server([9, 8, 7, 6, 5], 2);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, new AbortController().signal);
    assert.equal(l.loading, false);
    const a = l.ensure();
    const b = l.ensure();
    const c = l.next();
    assert.equal(l.loading, true);
    await Promise.all([a, b, c]);
    assert.deepEqual(srv.asked, [1]);
    assert.deepEqual(ids(l), [9, 8]);
    assert.equal(l.total, 5);
    assert.equal(l.hasMore, true);
    await l.ensure();
    assert.deepEqual(srv.asked, [1], 'a loaded list is not read again by ensure');
  });

  it('continues where the server’s order does after a local removal, dropping the item it already has', async () => {
    const srv = server([9, 8, 7, 6, 5], 2);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, new AbortController().signal);
    await l.ensure();
    // Deleted here and on the server: 7 slides onto page 1, 6 and 5 onto page 2.
    l.remove(8);
    srv.ids.splice(1, 1);
    await l.next();
    assert.deepEqual(srv.asked, [1, 1], 'with one item shown of a page of 2, page 1 is read again');
    assert.deepEqual(ids(l), [9, 7]);
    await l.next();
    assert.deepEqual(ids(l), [9, 7, 6, 5]);
    assert.equal(l.hasMore, false);
  });

  it('keeps one row per key when a page repeats an item shown (an insert on the server shifted it)', async () => {
    const srv = server([9, 8, 7, 6], 2);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, new AbortController().signal);
    await l.ensure();
    srv.ids.unshift(10); // created elsewhere: 8 slides onto page 2
    await l.next();
    assert.deepEqual(ids(l), [9, 8, 7]);
  });

  it('a failure is kept (not retried by ensure) until retry, which asks for the page that failed', async () => {
    const srv = server([9, 8, 7], 2);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, new AbortController().signal);
    await l.ensure();
    srv.failNext(new Error('HTTP 500'));
    await l.next();
    assert.equal(l.failed, true);
    assert.match(String(l.error), /HTTP 500/);
    assert.ok(l.errorAt > 0);
    assert.deepEqual(ids(l), [9, 8], 'the rows shown stay');
    await l.ensure();
    assert.deepEqual(srv.asked, [1, 2], 'ensure does not retry a failure by itself');
    await l.retry();
    assert.equal(l.failed, false);
    assert.deepEqual(srv.asked, [1, 2, 2]);
    assert.deepEqual(ids(l), [9, 8, 7]);
  });

  it('an aborted list asks for nothing more and ignores an answer that lands after the abort', async () => {
    const srv = server([9, 8, 7], 2);
    const ac = new AbortController();
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, ac.signal);
    const first = l.ensure();
    ac.abort();
    await first;
    assert.deepEqual(ids(l), [], 'the answer to an aborted request is dropped');
    assert.equal(l.loaded, false);
    await l.next();
    assert.deepEqual(srv.asked, [1]);
  });

  it('without a total, one is known only once the last page has arrived', async () => {
    const fetch = (page: number): Promise<Page<Item>> =>
      Promise.resolve({ items: page === 1 ? [{ id: 2 }, { id: 1 }] : [{ id: 0 }], total: undefined, lastPage: undefined, hasMore: page === 1, perPage: 2, page });
    const l = new PagedList<Item>(fetch, (i) => i.id, 2, new AbortController().signal);
    await l.ensure();
    assert.equal(l.total, undefined);
    await l.next();
    assert.equal(l.total, 3);
  });

  it('place: an item goes where the order puts it, or waits for a later page when it would come after the loaded rows', async () => {
    const srv = server([9, 7, 5, 3], 2);
    const newestFirst = (a: Item, b: Item) => b.id - a.id;
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, new AbortController().signal, { order: newestFirst });
    await l.ensure();
    // Each placed item is one the server has too (the caller moves the total).
    srv.ids.splice(1, 0, 8);
    assert.equal(l.place({ id: 8 }, newestFirst), true);
    l.adjustTotal(+1);
    assert.deepEqual(ids(l), [9, 8, 7]);
    srv.ids.push(1);
    assert.equal(l.place({ id: 1 }, newestFirst), false, 'beyond the loaded range while more pages exist');
    l.adjustTotal(+1);
    assert.deepEqual(ids(l), [9, 8, 7]);
    await l.next();
    await l.next();
    assert.equal(l.hasMore, false);
    assert.deepEqual(ids(l), [9, 8, 7, 5, 3, 1], 'the later page brought it');
    srv.ids.push(0);
    assert.equal(l.place({ id: 0 }, newestFirst), true, 'at the end once the whole list is loaded');
    assert.deepEqual(ids(l), [9, 8, 7, 5, 3, 1, 0]);
    l.adjustTotal(+1);
    assert.equal(l.total, 7);
    l.adjustTotal(-10);
    assert.equal(l.total, 0, 'never below zero');
  });

  /** Load more until the list says it is complete (bounded: a list that never completes fails the test). */
  async function toTheEnd(l: PagedList<Item>): Promise<void> {
    for (let i = 0; i < 30 && (l.hasMore || !l.loaded); i++) await l.next();
    assert.equal(l.hasMore, false, 'the list reaches its end');
  }

  it('Load more reaches the end with exactly the server’s rows after a create elsewhere and a delete here', async () => {
    const srv = server(Array.from({ length: 60 }, (_, i) => 60 - i), 10);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 10, new AbortController().signal);
    await l.ensure();
    await l.next();
    srv.ids.unshift(61); // created elsewhere: every row slides one place down
    srv.ids.splice(srv.ids.indexOf(55), 1); // deleted here
    l.remove(55);
    l.adjustTotal(-1);
    const before = srv.asked.length;
    await toTheEnd(l);
    assert.deepEqual(ids(l), srv.ids);
    assert.ok(srv.asked.length - before <= 12, `a bounded number of reads (${srv.asked.length - before})`);
  });

  it('a page that brings nothing new is not progress: the next one is read in the same Load more', async () => {
    const srv = server([9, 8, 7, 6, 5, 4], 2);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, new AbortController().signal);
    await l.ensure();
    srv.ids.unshift(12, 11, 10); // three created elsewhere: page 2 now repeats 9 and 8
    await l.next();
    assert.ok(ids(l).length > 2, `Load more showed a new row (${ids(l).join(',')})`);
    await toTheEnd(l);
    assert.deepEqual(ids(l), srv.ids);
  });

  it('a row deleted elsewhere on a page already read does not make the walk skip the row that slid up', async () => {
    const srv = server([9, 8, 7, 6, 5, 4, 3], 2);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, new AbortController().signal);
    await l.ensure();
    srv.ids.splice(0, 1); // 9 deleted elsewhere: 7 slides onto page 1
    await toTheEnd(l);
    assert.deepEqual(ids(l), [8, 7, 6, 5, 4, 3], 'the row that slid up is shown; the one the server lost is not');
    assert.equal(l.total, 6);
  });

  it('a row created elsewhere inside the pages already read is shown where the server lists it', async () => {
    const srv = server([9, 7, 5, 3, 1], 2);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 2, new AbortController().signal);
    await l.ensure();
    srv.ids.splice(1, 0, 8);
    await toTheEnd(l);
    assert.deepEqual(ids(l), [9, 8, 7, 5, 3, 1]);
  });

  it('place: a row whose order cannot be decided is not placed, and a complete list reads again to reach it', async () => {
    const srv = server([9, 7, 5], 10);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 10, new AbortController().signal);
    await l.ensure();
    assert.equal(l.hasMore, false);
    const undecided = (a: Item, b: Item) => (a.id === 6 || b.id === 6 ? undefined : b.id - a.id);
    srv.ids.splice(2, 0, 6);
    l.adjustTotal(+1);
    assert.equal(l.place({ id: 6 }, undecided), false);
    assert.deepEqual(ids(l), [9, 7, 5]);
    assert.equal(l.hasMore, true, 'Load more shows again: the group lacks a row the server has');
    await toTheEnd(l);
    assert.deepEqual(ids(l), [9, 7, 6, 5]);
    assert.equal(l.place({ id: 8 }, (a, b) => (a.id === 7 || b.id === 7 ? undefined : b.id - a.id)), false, 'between 9 and 7 it cannot be told from 7');
  });

  it('a filtered list (rows kept from a whole list) does not skip a kept row after a delete on a page read', async () => {
    // The whole list, newest first; the list keeps odd ids only.
    const srv = server([10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 4);
    const l = new PagedList<Item>(srv.fetch, (i) => i.id, 4, new AbortController().signal, { keep: (i) => i.id % 2 === 1, maxReads: 1 });
    await l.ensure();
    assert.deepEqual(ids(l), [9, 7]);
    srv.ids.splice(0, 1); // 10 deleted here: 6 and 5 slide onto page 1
    l.serverRowsChanged(-1, 10);
    await toTheEnd(l);
    assert.deepEqual(ids(l), [9, 7, 5, 3, 1]);
    assert.equal(l.total, 5);
  });
});

interface Row {
  id: number;
  name: string;
}

/**
 * A list by name with equal names in an order of each page's own (the server has no tie-break, and a query with
 * another offset may order equal names otherwise): the tie order of page `p` is ids by `(id * (p + 2)) % 11`.
 */
function tiedServer(rows: Row[], perPage: number) {
  const asked: number[] = [];
  const fetch = (page: number): Promise<Page<Row>> => {
    asked.push(page);
    const sorted = [...rows].sort((a, b) => compareNames(a.name, b.name) || ((a.id * (page + 2)) % 11) - ((b.id * (page + 2)) % 11));
    const items = sorted.slice((page - 1) * perPage, page * perPage).map((r) => ({ ...r }));
    return Promise.resolve({ items, total: rows.length, lastPage: Math.ceil(rows.length / perPage), hasMore: page * perPage < rows.length, perPage, page });
  };
  return { rows, asked, fetch };
}

const idsOf = (l: PagedList<Row>) => l.items.map((r) => r.id);
const byName = (a: Row, b: Row) => serverOrder(a.name, b.name);

/** Load more until the list says it is complete (at most `clicks` clicks). */
async function toEnd(l: PagedList<Row>, clicks = 50): Promise<number> {
  let n = 0;
  while ((l.hasMore || !l.loaded) && n < clicks) {
    await l.next();
    n++;
  }
  return n;
}

/**
 * Against a server that changes while the list is read, at the edges the contract allows: equal names whose order
 * differs from one page's query to the next (`ORDER BY name` with no tie-break, LIMIT/OFFSET), and renames and
 * deletes made elsewhere between two walks.
 */
describe('PagedList by name: equal names ordered per page, renames and deletes elsewhere', () => {
  it('a list whose walks never add up (equal names ordered per page) does not end complete with a row deleted elsewhere', async () => {
    const rows: Row[] = [1, 2, 3, 4, 5, 6].map((id) => ({ id, name: 'Solar panels' }));
    rows.push({ id: 7, name: 'Zeta' });
    const srv = tiedServer(rows, 2);
    const l = new PagedList<Row>(srv.fetch, (r) => r.id, 2, new AbortController().signal, { order: byName, maxReads: 1 });
    // The first walk: every page once (it lists a tie twice and skips another, so it does not add up).
    for (let i = 0; i < 4; i++) if ((await l.next(), !l.hasMore)) break;
    assert.equal(l.hasMore, true, `the walk did not add up: the list reads on (pages ${srv.asked.join(',')}: ${idsOf(l).join(',')})`);
    // Someone else deletes a document the list shows; the user reads on (Load more) until the list says it is complete.
    const gone = idsOf(l).find((id) => id !== 7)!;
    srv.rows.splice(
      srv.rows.findIndex((r) => r.id === gone),
      1,
    );
    await toEnd(l);
    assert.equal(l.hasMore, false, 'the list ends (no endless Load more)');
    assert.ok(!idsOf(l).includes(gone), `document ${gone}, deleted on the server, is still a row of a list that says it is complete: ${idsOf(l).join(',')}`);
    assert.ok(l.items.length <= srv.rows.length, `more rows (${l.items.length}) than the server has (${srv.rows.length})`);
  });

  it('a page that lists a row renamed elsewhere before rows shown above it moves that row up, instead of leaving it below rows the page lists after it', async () => {
    // By name, 3 a page: Apple Banana Cherry | Date Elder Fig | Grape Honey Kiwi.
    const names = ['Apple', 'Banana', 'Cherry', 'Date', 'Elder', 'Fig', 'Grape', 'Honey', 'Kiwi'];
    const rows: Row[] = names.map((name, i) => ({ id: i + 1, name }));
    const srv = tiedServer(rows, 3);
    const l = new PagedList<Row>(srv.fetch, (r) => r.id, 3, new AbortController().signal, { order: byName, maxReads: 1 });
    await toEnd(l);
    assert.deepEqual(idsOf(l), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Someone else renames Fig to a name that sorts before every letter (a quote), which the client cannot place itself.
    srv.rows[5].name = '\u2018Fig\u2019';
    // The user creates a document whose place only the server knows: the list reads again from page 1.
    const omega = { id: 10, name: '\u03a9mega' };
    srv.rows.push(omega);
    assert.equal(l.place({ ...omega }), false);
    assert.equal(l.hasMore, true);
    // The model updates a shown row's content from the page before the page is merged (DocumentsModel's own group).
    l.find(6)!.name = srv.rows[5].name;
    await l.next();
    assert.deepEqual(srv.asked.slice(-1), [1]);
    // Page 1 now reads ‘Fig’ Apple Banana: the server puts Fig before Apple, and so must the rows shown.
    const shown = idsOf(l);
    assert.ok(shown.indexOf(6) < shown.indexOf(1), `page 1 lists 6 before 1, the rows show ${shown.join(',')}`);
  });
});

describe('PagedList: the cost of a page does not grow with the rows shown', () => {
  /**
   * Load more at 10,000 documents: the 34th page of 50 must cost what the 2nd does. Time-free: counts the calls of
   * `keyOf` and `order` (every row the merge looks at goes through one of them) per page, newest first as the
   * Documents view pages a template, with the order the view gives.
   */
  it('each page looks at about as many rows at row 1,700 as at row 50 (keys and order calls per page)', async () => {
    const perPage = 50;
    const srv = server(Array.from({ length: 2000 }, (_, i) => 10_000 - i), perPage);
    let calls = 0;
    const keyOf = (i: Item) => {
      calls++;
      return i.id;
    };
    const order = (a: Item, b: Item) => {
      calls++;
      return b.id - a.id;
    };
    const l = new PagedList<Item>(srv.fetch, keyOf, perPage, new AbortController().signal, { order });
    const perPageCalls: number[] = [];
    for (let p = 0; p < 35; p++) {
      calls = 0;
      await l.next();
      perPageCalls.push(calls);
    }
    assert.equal(l.items.length, 35 * perPage);
    const second = perPageCalls[1];
    const last = perPageCalls[perPageCalls.length - 1];
    assert.ok(last <= second * 1.5, `page 35 made ${last} calls, page 2 made ${second} (all: ${perPageCalls.join(', ')})`);
  });
});
