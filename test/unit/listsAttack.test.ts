/**
 * Lists against a server that changes while they are read, at the edges the contract allows: equal names whose
 * order differs from one page's query to the next (`ORDER BY name` with no tie-break, LIMIT/OFFSET), deletes made
 * elsewhere between two walks, and failures in the middle of a walk.
 */
import assert from 'node:assert/strict';
import type { Page } from '../../src/api/paging';
import { compareNames, serverOrder } from '../../src/api/collation';
import type { ContentDocument, DocumentListQuery } from '../../src/api';
import { DocumentsModel, type DocumentPage, type DocumentSource } from '../../src/model/documentsModel';
import { Emitter } from '../../src/model/emitter';
import { PagedList } from '../../src/model/pagedList';

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

describe('Lists attacked: ties, deletes elsewhere, failures mid-walk', () => {
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

  it('a template count asked while the user creates its first document counts that document (Hide Empty does not hide the group)', async () => {
    const doc = (id: number, templateId: number): ContentDocument =>
      ({ id, name: `Doc ${id}`, template: { id: templateId, name: '' }, favorite: false, result: 'x', words: 1, created_at: null, updated_at: null }) as unknown as ContentDocument;
    const docs: ContentDocument[] = [doc(1, 1), doc(2, 1)];
    const changed = new Emitter<{ doc: ContentDocument; previous: ContentDocument | undefined }>();
    const deleted = new Emitter<ContentDocument | { id: number }>();
    const created = new Emitter<ContentDocument>();
    const source: DocumentSource = {
      onDidChange: changed.event,
      onDidDelete: deleted.event,
      onDidCreate: created.event,
      list(q: DocumentListQuery): Promise<DocumentPage> {
        // The server answers from what it has now...
        const rows = docs.filter((d) => q.templateId === undefined || d.template?.id === q.templateId);
        const page: DocumentPage = { items: rows.slice(0, q.perPage ?? 10), page: 1, perPage: q.perPage, total: rows.length, lastPage: 1, hasMore: false, changed: [] };
        // ...and while that answer is on the wire, the user creates the first document of template 2 here.
        if (q.templateId === 2 && !docs.some((d) => d.id === 3)) {
          const d = doc(3, 2);
          docs.push(d);
          created.fire(d);
        }
        return Promise.resolve(page);
      },
    };
    const model = new DocumentsModel(
      source,
      {
        hasKey: () => Promise.resolve(true),
        onDidChangeSignIn: new Emitter<boolean>().event,
        pageSize: () => 10,
        defaultSort: () => 'newest',
        hideEmpty: () => true,
        persist: () => Promise.resolve(),
        progress: (p) => p,
        log: { warn: () => undefined, debug: () => undefined },
      },
      undefined,
    );
    model.countIntervalMs = 0;
    // One request per group (the walk of All Documents is for small accounts; here it is turned off).
    model.countWalkMaxPages = 0;
    try {
      await model.rootChildren();
      await model.countingDone;
      assert.equal(docs.filter((d) => d.template?.id === 2).length, 1, 'the server has one document of template 2');
      assert.equal(model.count('t2'), 1, `template 2 is counted ${String(model.count('t2'))}: its document created while the count was on the wire is left out`);
      const shown = (await model.rootChildren()).map((g) => g.key);
      assert.ok(shown.includes('t2'), 'Hide Empty Templates hides a template that has a document');
    } finally {
      model.dispose();
    }
  });
});

