/**
 * PagedList (src/model/pagedList.ts): the loaded part of one server-side list. Driven by a list that behaves
 * like the server's (pages of `per_page` over an array that can change between requests).
 */
import assert from 'node:assert/strict';
import type { Page } from '../../src/api/paging';
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
