/**
 * AccountIndex (src/files/accountIndex.ts): the account as folders and files. The property that matters
 * most: a path once given to a document keeps meaning that document, so an editor showing it can never
 * save into another document — after a delete, after a rename onto its name, after a reload.
 */
import assert from 'node:assert/strict';
import { AccountIndex, listAccount, type AccountListing, type IndexedDocument } from '../../src/files/accountIndex';
import { PathMemory, type PathStore } from '../../src/files/pathMemory';

const ARTICLE = { id: 4, name: 'Article' };
const CUSTOM = { id: 60, name: 'My template' };

function doc(id: number, name: string, template: IndexedDocument['template'] = ARTICLE): IndexedDocument {
  return { id, name, template };
}

/** GET /documents/{id} on a server holding `server`: the record, or null (404). */
function readFrom(server: readonly IndexedDocument[]): (id: number) => Promise<IndexedDocument | null> {
  return async (id) => server.find((d) => d.id === id) ?? null;
}

async function indexOf(docs: IndexedDocument[]): Promise<{ index: AccountIndex; server: IndexedDocument[] }> {
  const server = [...docs];
  const index = new AccountIndex(async () => ({ docs: [...server], unsure: [] }), '.md', readFrom(server));
  await index.ensure();
  return { index, server };
}

describe('AccountIndex (the account folder)', () => {
  it('duplicate names: the oldest keeps Name.md, the others Name (id).md', async () => {
    const { index } = await indexOf([doc(61, 'Dup'), doc(62, 'Dup'), doc(63, 'Other')]);
    assert.equal(index.resolve('Article', 'Dup.md'), 61);
    assert.equal(index.resolve('Article', 'Dup (62).md'), 62);
    assert.deepEqual(index.files('Article')?.map(([f]) => f).sort(), ['Dup (62).md', 'Dup.md', 'Other.md']);
  });

  it('a deleted document keeps its path: Dup.md never comes to mean the other Dup', async () => {
    const { index } = await indexOf([doc(61, 'Dup'), doc(62, 'Dup')]);
    index.remove(61);
    assert.equal(index.resolve('Article', 'Dup.md'), 61, 'the path still means the deleted document');
    assert.equal(index.isGone(61), true);
    assert.equal(index.isGone(62), false);
    assert.equal(index.pathOf(62), 'Article/Dup (62).md', 'the other document keeps its own path');
    assert.deepEqual(index.files('Article')?.map(([f]) => f), ['Dup (62).md']);
  });

  it('a document deleted by someone else (gone at the next reload) keeps its path too', async () => {
    const { index, server } = await indexOf([doc(61, 'Dup'), doc(62, 'Dup')]);
    server.splice(0, 1);
    const diff = await index.reload();
    assert.deepEqual(diff.removedFiles, ['Article/Dup.md']);
    assert.deepEqual(diff.goneIds, [61], 'the reload says which document it no longer lists');
    assert.equal(index.resolve('Article', 'Dup.md'), 61);
    assert.equal(index.isGone(61), true);
    assert.equal(index.pathOf(62), 'Article/Dup (62).md');
  });

  it('a reload asked for while another is on the wire lists again after it (that answer predates the ask)', async () => {
    const server = [doc(61, 'Dup'), doc(62, 'Dup')];
    const calls: Array<() => void> = [];
    let listings = 0;
    const index = new AccountIndex(
      () =>
        new Promise<AccountListing>((resolve) => {
          listings++;
          const snapshot = [...server]; // what the server holds when the request arrives
          calls.push(() => resolve({ docs: snapshot, unsure: [] }));
        }),
      '.md',
      readFrom(server),
    );
    const first = index.ensure();
    calls.shift()!();
    await first;
    const a = index.reload(); // on the wire: answers with both documents
    await Promise.resolve();
    server.splice(0, 1); // someone else deletes 61, then the user refreshes
    const b = index.reload();
    const c = index.reload(); // a third ask shares the queued listing
    calls.shift()!();
    await a;
    for (let i = 0; i < 10 && !calls.length; i++) await Promise.resolve();
    assert.equal(calls.length, 1, 'one more listing after the one on the wire');
    calls.shift()!();
    const [diffB] = await Promise.all([b, c]);
    assert.equal(listings, 3);
    assert.deepEqual(diffB.removedFiles, ['Article/Dup.md']);
    assert.equal(index.isGone(61), true);
  });

  it('renaming an older document onto a shown name does not take that name’s path', async () => {
    const { index } = await indexOf([doc(1, 'First'), doc(55, 'Target')]);
    assert.equal(index.resolve('Article', 'Target.md'), 55);
    index.upsert(doc(1, 'Target'));
    assert.equal(index.resolve('Article', 'Target.md'), 55, 'Target.md still means document 55');
    assert.equal(index.pathOf(1), 'Article/Target (1).md');
    assert.equal(index.resolve('Article', 'First.md'), 1, 'the old path of the renamed document still means it');
  });

  it('a path freed by a rename is not handed to a newcomer with that name', async () => {
    const { index } = await indexOf([doc(10, 'Foo')]);
    index.upsert(doc(10, 'Bar'));
    index.upsert(doc(11, 'Foo'));
    assert.equal(index.resolve('Article', 'Foo.md'), 10);
    assert.equal(index.pathOf(11), 'Article/Foo (11).md');
  });

  it('claim: a reserved path is taken only when its document left it and nothing shows it', async () => {
    const { index } = await indexOf([doc(10, 'Foo'), doc(11, 'Baz'), doc(12, 'Qux')]);
    // The current path of another document: never.
    assert.equal(index.claim('Article', 'Baz.md', 10, () => false), undefined);
    index.upsert(doc(11, 'Renamed'));
    // Baz.md was left by 11, but an editor still shows it.
    assert.equal(index.claim('Article', 'Baz.md', 12, () => true), undefined);
    const undo = index.claim('Article', 'Baz.md', 12, () => false);
    assert.ok(undo);
    index.upsert(doc(12, 'Baz'));
    assert.equal(index.pathOf(12), 'Article/Baz.md');
    assert.equal(index.resolve('Article', 'Baz.md'), 12);
  });

  it('claim undo gives the path back when the rename failed', async () => {
    const { index } = await indexOf([doc(10, 'Foo'), doc(11, 'Baz')]);
    index.remove(11);
    const undo = index.claim('Article', 'Baz.md', 10, () => false);
    assert.ok(undo);
    undo();
    assert.equal(index.resolve('Article', 'Baz.md'), 11);
  });

  it('custom and deleted templates get folders of their own; look-alike template names are told apart', async () => {
    const { index } = await indexOf([doc(1, 'A'), doc(2, 'B', CUSTOM), { id: 3, name: 'C', template: undefined }, doc(4, 'D', { id: 61, name: 'Article' })]);
    assert.deepEqual(index.folderNames().sort(), ['Article', 'Article (template 61)', 'My template', 'No template']);
    assert.equal(index.resolve('No template', 'C.md'), 3);
    assert.equal(index.resolve('Article (template 61)', 'D.md'), 4);
  });

  it('another account forgets every path', async () => {
    const { index } = await indexOf([doc(61, 'Dup'), doc(62, 'Dup')]);
    index.remove(61);
    index.unload();
    assert.equal(index.resolve('Article', 'Dup.md'), undefined);
  });

  it('the paths given out under an account mean their documents again when that account is back (never the other account\'s)', async () => {
    // Account A: 16008 "Dup" keeps Dup.md; renamed to "Plan", its old path still means it (an editor shows it).
    const server = [doc(16008, 'Dup'), doc(16009, 'Dup')];
    const index = new AccountIndex(async () => ({ docs: [...server], unsure: [] }), '.md', readFrom(server));
    index.forAccount('aaaaaaaa');
    await index.ensure();
    index.upsert(doc(16008, 'Plan'));
    assert.equal(index.resolve('Article', 'Dup.md'), 16008);
    // Account B (same ids and names on its server): A's paths mean nothing there.
    index.unload();
    index.forAccount('bbbbbbbb');
    server.splice(0, 2, doc(16008, 'Dup'), doc(16009, 'Dup'));
    await index.ensure();
    assert.equal(index.resolve('Article', 'Dup.md'), 16008, 'B lists its own Dup.md');
    index.upsert(doc(16008, 'Other'));
    // Back to A, where 16008 is still "Plan": the Dup.md an editor showed for it is still 16008's, never 16009's.
    index.unload();
    index.forAccount('aaaaaaaa');
    server.splice(0, 2, doc(16008, 'Plan'), doc(16009, 'Dup'));
    await index.ensure();
    assert.equal(index.resolve('Article', 'Dup.md'), 16008, 'the path given to 16008 before the switch still means it');
    assert.equal(index.pathOf(16009), 'Article/Dup (16009).md', 'the other Dup never takes it');
    assert.equal(index.resolve('Article', 'Other.md'), undefined, 'a path given out under B means nothing in A');
  });
});

/**
 * A server's account listing as the real one pages it: `sort_by=id`, 100 a page, chosen by offset. A document
 * deleted on a page already read moves every later row one place up, so the next page starts one row later.
 */
class PagedServer {
  readonly docs = new Map<number, IndexedDocument>();
  /** Runs after page `n` of a walk was answered, before the next request (someone else changing the account). */
  afterPage: (n: number) => void = () => undefined;
  pagesRead = 0;
  readonly reads: number[] = [];
  /** A read that fails as a network error would (the server's answer unknown). */
  readFails = false;

  constructor(count: number) {
    for (let id = 1; id <= count; id++) this.docs.set(id, doc(id, `Doc ${id}`));
  }

  page = async (n: number): Promise<{ items: IndexedDocument[]; hasMore: boolean; total: number }> => {
    await Promise.resolve();
    const all = [...this.docs.values()].sort((a, b) => a.id - b.id);
    const items = all.slice((n - 1) * 100, n * 100);
    this.pagesRead++;
    const answer = { items, hasMore: n * 100 < all.length, total: all.length };
    this.afterPage(n);
    return answer;
  };

  /** GET /documents/{id}: the record, or null for a 404. */
  read = async (id: number): Promise<IndexedDocument | null> => {
    await Promise.resolve();
    this.reads.push(id);
    if (this.readFails) throw new Error('connect ECONNREFUSED 127.0.0.1');
    return this.docs.get(id) ?? null;
  };

  index(): AccountIndex {
    return new AccountIndex((current) => listAccount(this.page, current), '.md', this.read);
  }

  /** Deletes `id` once, right after page 1 of the next walk was read. */
  deleteAfterFirstPage(id: number): void {
    let done = false;
    this.afterPage = (n) => {
      if (n !== 1 || done) return;
      done = true;
      this.docs.delete(id);
    };
  }
}

function assertHoldsEveryLive(index: AccountIndex, server: PagedServer): void {
  const missing = [...server.docs.keys()].filter((id) => index.get(id) === undefined || index.isGone(id) || index.pathOf(id) === undefined);
  assert.deepEqual(missing, [], 'every document the server has is in the account folder');
}

describe('AccountIndex: the listing walked page by page while the account changes', () => {
  it('a delete on an already-read page during a reload: only that document is reported gone, never the one the next page skipped', async () => {
    const server = new PagedServer(150);
    const index = server.index();
    await index.ensure();
    assertHoldsEveryLive(index, server);
    assert.equal(server.pagesRead, 2, 'a list that holds still is walked once');
    server.pagesRead = 0;
    server.deleteAfterFirstPage(10); // document 101 moves onto page 1, which was read already
    const diff = await index.reload();
    assert.deepEqual(diff.goneIds, [10], 'only the deleted document is reported gone (and so marked deleted)');
    assert.equal(index.isGone(101), false, 'the document the walk skipped is not gone');
    assert.equal(index.resolve('Article', 'Doc 101.md'), 101);
    assert.equal(index.isGone(10), true);
    assertHoldsEveryLive(index, server);
    assert.equal(server.pagesRead, 4, 'the walk whose total changed is walked again, once');
    assert.deepEqual(server.reads, [10], 'one read, for the document the listing lacks');
  });

  it('the first listing with a delete between its page reads still holds every live document', async () => {
    const server = new PagedServer(150);
    server.deleteAfterFirstPage(10);
    const index = server.index();
    await index.ensure();
    assertHoldsEveryLive(index, server);
    assert.equal(index.get(10), undefined, 'the deleted document is not listed');
  });

  it('a list that moves on every walk: what the last walk missed is asked for by id; a 200 keeps it with the server’s record', async () => {
    const server = new PagedServer(150);
    const index = server.index();
    await index.ensure();
    // Someone deletes one document of page 1 after every page 1 read (the list never holds still).
    let next = 1;
    server.afterPage = (n) => {
      if (n === 1) server.docs.delete(next++);
    };
    server.docs.set(120, doc(120, 'Renamed elsewhere'));
    const diff = await index.reload();
    // The document deleted after the last walk read its page is listed until the next reload: stale, not lost.
    assert.deepEqual(
      diff.goneIds.sort((a, b) => a - b),
      [...Array(next - 2).keys()].map((i) => i + 1),
      'the documents deleted before the last walk are reported gone, and no other',
    );
    assertHoldsEveryLive(index, server);
    assert.ok(server.reads.length > 0 && server.reads.length <= 2 * (next - 1) + 2, `reads only for documents the walk missed: ${server.reads.join(', ')}`);
    assert.equal(index.get(120)?.name, 'Renamed elsewhere');
  });

  it('a document missing from the listing whose read fails (network) is kept; the next reload that reads 404 lets it go', async () => {
    const server = new PagedServer(150);
    const index = server.index();
    await index.ensure();
    server.docs.delete(10);
    server.readFails = true;
    const kept = await index.reload();
    assert.deepEqual(kept.goneIds, [], 'an unanswered read is no evidence');
    assert.equal(index.isGone(10), false);
    assert.deepEqual(server.reads, [10], 'only the document the listing lacks is read');
    server.readFails = false;
    const gone = await index.reload();
    assert.deepEqual(gone.goneIds, [10]);
    assert.equal(index.isGone(10), true);
  });

  it('a document deleted in this window during a reload is not read again', async () => {
    const server = new PagedServer(150);
    const index = server.index();
    await index.ensure();
    server.afterPage = (n) => {
      if (n !== 1) return;
      server.docs.delete(20);
      index.remove(20); // the service's delete event, heard while the walk is on the wire
    };
    const diff = await index.reload();
    assert.deepEqual(diff.goneIds, [20]);
    assert.deepEqual(server.reads, []);
    assertHoldsEveryLive(index, server);
  });
});

/** An index whose next listing waits until the test lets it go (a slow server during a refresh). */
async function slowIndex(docs: IndexedDocument[]) {
  let release: ((docs: IndexedDocument[]) => void) | undefined;
  let slow = false;
  const index = new AccountIndex(
    async () => ({ docs: slow ? await new Promise<IndexedDocument[]>((r) => (release = r)) : [...docs], unsure: [] }),
    '.md',
    async (id) => docs.find((d) => d.id === id) ?? null,
  );
  await index.ensure();
  slow = true;
  return {
    index,
    /** Lets the pending listing answer with what the server had when it was read. */
    answer: async (listing: IndexedDocument[]) => {
      while (!release) await new Promise((r) => setTimeout(r, 1));
      release(listing);
    },
  };
}

/** What the document service reports while a reload is listing is not lost when that listing (read before the change) lands. */
describe('AccountIndex: changes made here while a reload is listing', () => {
  it('a rename made while a reload is listing is not undone by that listing (the old name would point at the renamed document)', async () => {
    const before = [doc(1, 'Quarterly plan'), doc(2, 'Draft')];
    const { index, answer } = await slowIndex(before);
    const reloading = index.reload();
    // While the listing is on the wire: 1 is renamed, then 2 takes 1's old name (both through this window).
    index.upsert(doc(1, 'Archived plan'));
    index.upsert(doc(2, 'Quarterly plan'));
    await answer(before); // the pages were read before the renames
    await reloading;
    assert.equal(index.get(1)?.name, 'Archived plan', 'the index knows document 1 by its name now');
    assert.equal(index.get(2)?.name, 'Quarterly plan');
    const files = index.files('Article')?.map(([f]) => f).sort();
    assert.ok(files?.includes('Archived plan.md'), `document 1 is listed under its new name: ${files?.join(', ')}`);
    assert.ok(!files?.includes('Draft.md'), `no file for a name no document has: ${files?.join(', ')}`);
  });

  it('a document created while a reload is listing is listed once it lands', async () => {
    const before = [doc(1, 'One')];
    const { index, answer } = await slowIndex(before);
    const reloading = index.reload();
    index.upsert(doc(7, 'Created here'));
    await answer(before);
    await reloading;
    assert.equal(index.isGone(7), false, 'the new document is not reported gone');
    assert.equal(index.pathOf(7), 'Article/Created here.md');
  });

  it('a document deleted while a reload is listing stays gone', async () => {
    const before = [doc(1, 'One'), doc(2, 'Two')];
    const { index, answer } = await slowIndex(before);
    const reloading = index.reload();
    index.remove(2);
    await answer(before);
    await reloading;
    assert.equal(index.isGone(2), true);
    assert.deepEqual(index.files('Article')?.map(([f]) => f), ['One.md']);
  });
});

/** A store as the window's workspaceState is: what was written last, as JSON would keep it. */
function memoryStore(initial?: unknown): PathStore & { value: unknown; writes: number } {
  const store = {
    value: initial === undefined ? undefined : (JSON.parse(JSON.stringify(initial)) as unknown),
    writes: 0,
    read: () => store.value,
    write: (entries: Array<[string, number]>) => {
      store.value = JSON.parse(JSON.stringify(entries)) as unknown;
      store.writes++;
    },
  };
  return store;
}

describe('PathMemory (the paths handed to editors, kept across sessions)', () => {
  it('keeps the most recent paths up to its limit, ids and paths only; a path handed to another document means that one', () => {
    const store = memoryStore();
    const memory = new PathMemory(store, 3);
    memory.note('Article/A.md', 1);
    memory.note('Article/B.md', 2);
    memory.note('Article/C.md', 3);
    memory.note('Article/D.md', 4);
    assert.equal(memory.get('Article/A.md'), undefined, 'the oldest went');
    memory.note('Article/B.md', 22);
    assert.deepEqual(store.value, [['Article/C.md', 3], ['Article/D.md', 4], ['Article/B.md', 22]]);
    // The next session reads what was kept.
    const next = new PathMemory(memoryStore(store.value), 3);
    assert.equal(next.get('Article/B.md'), 22);
    assert.equal(next.hasFolder('Article'), true);
    assert.equal(next.hasFolder('Blog post'), false);
  });

  it('a path handed out again moves to the end once a session (a tab restored session after session stays), written only when something changed', () => {
    const store = memoryStore([['Article/Kept.md', 1], ['Article/B.md', 2], ['Article/C.md', 3]]);
    const memory = new PathMemory(store, 3);
    memory.note('Article/Kept.md', 1);
    assert.equal(store.writes, 1);
    memory.note('Article/Kept.md', 1);
    memory.note('Article/Kept.md', 1);
    assert.equal(store.writes, 1, 'the same path and document again this session: nothing to write');
    memory.note('Article/D.md', 4);
    assert.equal(memory.get('Article/Kept.md'), 1, 'the path restored this session outlived older ones');
    assert.equal(memory.get('Article/B.md'), undefined);
  });

  it('a stored value of another shape (an earlier version, damaged) is read as far as it makes sense', () => {
    assert.equal(new PathMemory(memoryStore('nonsense')).get('Article/A.md'), undefined);
    const memory = new PathMemory(memoryStore([['Article/A.md', 1], ['no folder.md', 2], ['Article/B.md', -3], ['Article/C.md', '4'], 5, ['Article/D.md', 6, 7], ['Article/E.md', 8]]));
    assert.equal(memory.get('Article/A.md'), 1);
    assert.equal(memory.get('Article/E.md'), 8);
    for (const path of ['no folder.md', 'Article/B.md', 'Article/C.md', 'Article/D.md']) assert.equal(memory.get(path), undefined, path);
  });
});

describe('AccountIndex across sessions: a path handed to an editor keeps finding its document', () => {
  /** A session: a new index (nothing listed, nothing given out) over the server, with the memory kept in `store`. */
  async function session(server: IndexedDocument[], store: PathStore, reads: number[] = [], ext = '.md'): Promise<AccountIndex> {
    const index = new AccountIndex(
      async () => ({ docs: [...server], unsure: [] }),
      ext,
      async (id) => {
        reads.push(id);
        return server.find((d) => d.id === id) ?? null;
      },
      new PathMemory(store),
    );
    await index.ensure();
    return index;
  }

  it('renamed, turned HTML or the extension switched meanwhile: the path the listing no longer gives is recalled (no request: the listing has the document)', async () => {
    const server = [doc(1, 'Plan'), doc(2, 'Page'), doc(3, 'Notes')];
    const store = memoryStore();
    const first = await session(server, store);
    for (const file of ['Plan.md', 'Page.md', 'Notes.md']) first.handOut('Article', file, first.resolve('Article', file)!);

    server.splice(0, 3, doc(1, 'Plan, final'), { id: 2, name: 'Page', template: ARTICLE, html: true }, doc(3, 'Notes'));
    const reads: number[] = [];
    const next = await session(server, store, reads, '.txt');
    assert.equal(next.resolve('Article', 'Plan.md'), undefined, 'neither this session nor the listing knows the old path');
    assert.deepEqual(next.files('Article')?.map(([f]) => f).sort(), ['Notes.txt', 'Page.html', 'Plan, final.txt']);
    for (const [file, id] of [['Plan.md', 1], ['Page.md', 2], ['Notes.md', 3]] as const) {
      assert.deepEqual(await next.recall('Article', file), { id, diff: { addedFolders: [], removedFolders: [], addedFiles: [], removedFiles: [], goneIds: [] } }, file);
      assert.equal(next.remembered('Article', file), id);
    }
    assert.deepEqual(reads, [], 'the listing had every document: nothing read by id');
    assert.equal(next.knowsFolder('Article'), true);
  });

  it('a remembered document the listing lacks is read by id: a 404 makes it gone, a record lists it (a walk skipped it)', async () => {
    const server = [doc(1, 'Gone'), doc(2, 'Skipped')];
    const store = memoryStore();
    const first = await session(server, store);
    first.handOut('Article', 'Gone.md', 1);
    first.handOut('Article', 'Skipped.md', 2);

    server.splice(0, 2);
    const reads: number[] = [];
    const next = await session(server, store, reads);
    // Document 2 is still on the server; the listing of this session missed it.
    server.push(doc(2, 'Skipped'));
    assert.equal((await next.recall('Article', 'Gone.md'))?.id, 1);
    assert.equal(next.isGone(1), true, 'the server answered 404');
    assert.equal((await next.recall('Article', 'Gone.md'))?.id, 1);
    const skipped = await next.recall('Article', 'Skipped.md');
    assert.equal(skipped?.id, 2);
    assert.deepEqual(skipped?.diff.addedFiles, ['Article/Skipped.md']);
    assert.equal(next.isGone(2), false);
    assert.deepEqual(reads, [1, 2], 'each read once (a 404 is not asked again)');
    // With nothing listed in it any more, the folder of a remembered path is still there for the file's save.
    assert.equal(next.knowsFolder('Article'), true);
  });

  it('a read that fails (network) throws and decides nothing', async () => {
    const store = memoryStore([['Article/Away.md', 9]]);
    const index = new AccountIndex(async () => ({ docs: [], unsure: [] }), '.md', () => Promise.reject(new Error('offline')), new PathMemory(store));
    await index.ensure();
    await assert.rejects(index.recall('Article', 'Away.md'), /offline/);
    assert.equal(index.remembered('Article', 'Away.md'), 9);
  });

  it('another document renamed onto the path: the listing gives it to that one, the memory still says which document the editor was opened on', async () => {
    const server = [doc(1, 'Digest'), doc(2, 'Draft')];
    const store = memoryStore();
    const first = await session(server, store);
    first.handOut('Article', 'Digest.md', 1);

    server.splice(0, 2, doc(1, 'Digest, archived'), doc(2, 'Digest'));
    const next = await session(server, store);
    assert.equal(next.resolve('Article', 'Digest.md'), 2, 'the listing gives the path to the other document');
    assert.equal(next.remembered('Article', 'Digest.md'), 1, 'the path was handed to an editor of document 1');
    assert.equal(next.pathOf(1), 'Article/Digest, archived.md');
    // Once an editor is handed the path for document 2 (it read it), the path means 2 in later sessions.
    next.handOut('Article', 'Digest.md', 2);
    assert.equal((await session(server, store)).remembered('Article', 'Digest.md'), 2);
  });

  it('a path recalled and handed out again means its document for the rest of the session: a newcomer of that name is told apart', async () => {
    const server = [doc(1, 'Plan')];
    const store = memoryStore();
    (await session(server, store)).handOut('Article', 'Plan.md', 1);
    server.splice(0, 1, doc(1, 'Plan, final'));
    const next = await session(server, store);
    const id = (await next.recall('Article', 'Plan.md'))!.id;
    next.handOut('Article', 'Plan.md', id);
    assert.equal(next.resolve('Article', 'Plan.md'), 1);
    next.upsert(doc(5, 'Plan'));
    assert.equal(next.pathOf(5), 'Article/Plan (5).md');
    assert.equal(next.resolve('Article', 'Plan.md'), 1);
  });

  it('claim: a path an editor was opened on in an earlier session is taken only when nothing shows it, and is then remembered as the new document\'s', async () => {
    const server = [doc(1, 'Old name'), doc(2, 'Taker')];
    const store = memoryStore();
    (await session(server, store)).handOut('Article', 'Old name.md', 1);
    server.splice(0, 2, doc(1, 'New name'), doc(2, 'Taker'));
    const next = await session(server, store);
    assert.equal(next.claim('Article', 'Old name.md', 2, () => true), undefined, 'a restored tab still shows it');
    const undo = next.claim('Article', 'Old name.md', 2, () => false);
    assert.ok(undo);
    assert.equal(next.remembered('Article', 'Old name.md'), 2);
    undo();
    assert.equal(next.remembered('Article', 'Old name.md'), 1, 'the rename failed: the path means document 1 again');
    assert.ok(next.claim('Article', 'Old name.md', 2, () => false));
    next.upsert(doc(2, 'Old name'));
    assert.equal(next.resolve('Article', 'Old name.md'), 2);
    assert.equal((await session(server, store)).remembered('Article', 'Old name.md'), 2);
  });

  it('one memory per account label: another label\'s index knows none of these paths (same paths, same ids)', async () => {
    const server = [doc(1, 'Plan')];
    const a = memoryStore();
    (await session(server, a)).handOut('Article', 'Plan.md', 1);
    const b = await session([doc(1, 'Theirs')], memoryStore());
    assert.equal(b.remembered('Article', 'Plan.md'), undefined);
    assert.equal(await b.recall('Article', 'Plan.md'), undefined);
  });
});
