/**
 * DocumentRecords (src/files/documentRecords.ts): what the file system knows of each document, in plain Node. The
 * rules that keep opening a document at one request and never let a save-time check use a stale read.
 */
import assert from 'node:assert/strict';
import type { ContentDocument } from '../../src/api/index';
import { listAccount } from '../../src/files/accountIndex';
import { DocumentRecords, REUSE_MS, WRITE_CHECK_MS } from '../../src/files/documentRecords';

const AT = '2026-01-01T10:00:00.000000Z';
const T = 1_000_000;

function doc(id: number, result: string, name = `Doc ${id}`): ContentDocument {
  return { id, name, template: { id: 1, name: 'Freestyle' }, result, resultIsNull: false, words: 1, favorite: false, created_at: AT, updated_at: AT };
}

/** A URI stand-in: only its string form is used. */
const uri = (s: string) => ({ toString: () => s });

describe('DocumentRecords (the file system\'s per-document record)', () => {
  it('one read serves one stat and one readFile (opening a document is one request); a second readFile asks again', () => {
    const r = new DocumentRecords();
    r.observe(doc(1, 'a'), false, T);
    assert.ok(r.reuse(1, 'stat', false, T + 10), 'the stat uses the read');
    assert.ok(r.reuse(1, 'read', false, T + 20), 'the readFile uses it');
    assert.equal(r.reuse(1, 'read', false, T + 30), undefined, 'a second readFile asks the server');
    assert.ok(r.reuse(1, 'stat', false, T + 40), 'a clean editor may stat again from it');
  });

  it('the stat right after a save that sent nothing is answered with the version the editor holds, once, for that URI only', () => {
    const r = new DocumentRecords();
    r.observe(doc(1, 'a'), false, T);
    const held = r.versions.get(1)!;
    r.savedUnchanged(1, 'content-docs://1.acct/Freestyle/Doc 1.md', held);
    assert.equal(r.afterUnchangedSave(1, 'content-docs://acct/Freestyle/Doc 1.md'), undefined, 'another URI of the document');
    // A newer text read meanwhile is not what the editor shows: the stat still tells the version it holds.
    r.observe(doc(1, 'b'), false, T + 10);
    assert.equal(r.afterUnchangedSave(1, 'content-docs://1.acct/Freestyle/Doc 1.md'), held);
    assert.equal(r.afterUnchangedSave(1, 'content-docs://1.acct/Freestyle/Doc 1.md'), undefined, 'once');
    r.savedUnchanged(1, 'content-docs://1.acct/Freestyle/Doc 1.md', held);
    r.forgetReads();
    assert.equal(r.afterUnchangedSave(1, 'content-docs://1.acct/Freestyle/Doc 1.md'), undefined, 'another account was used meanwhile');
  });

  it('a read older than the reuse window serves nothing', () => {
    const r = new DocumentRecords();
    r.observe(doc(1, 'a'), false, T);
    assert.equal(r.reuse(1, 'stat', false, T + REUSE_MS + 1), undefined);
    assert.equal(r.reuse(1, 'read', false, T + REUSE_MS + 1), undefined);
  });

  it('the stat before a save (unsaved edits) never uses someone else\'s read; the answer to our own save serves it once', () => {
    const r = new DocumentRecords();
    r.observe(doc(1, 'a'), false, T);
    assert.equal(r.reuse(1, 'stat', true, T + 1), undefined, 'a fresh read of the server that was not our save');
    r.observe(doc(1, 'b'), true, T + 2);
    assert.ok(r.reuse(1, 'stat', true, T + 3), 'our own save');
    assert.equal(r.reuse(1, 'stat', true, T + 4), undefined, 'only once');
  });

  it('readAgain lets the read just made serve the editor about to be shown; dropRead makes the next call ask', () => {
    const r = new DocumentRecords();
    r.observe(doc(1, 'a'), false, T);
    r.reuse(1, 'read', false, T);
    r.readAgain(1);
    assert.ok(r.reuse(1, 'read', false, T + 1));
    r.dropRead(1);
    assert.equal(r.reuse(1, 'stat', false, T + 2), undefined);
  });

  it('a stat counts as recent for the write check within its window, and not while a new one runs', () => {
    const r = new DocumentRecords();
    assert.equal(r.statRecent(1, T), false);
    r.statOk(1, T);
    assert.equal(r.statRecent(1, T + WRITE_CHECK_MS), true);
    assert.equal(r.statRecent(1, T + WRITE_CHECK_MS + 1), false);
    r.statOk(1, T);
    r.statStarted(1);
    assert.equal(r.statRecent(1, T), false);
  });

  it('names: each name a document had; URIs: one per string form', () => {
    const r = new DocumentRecords<{ toString(): string }>();
    r.observe(doc(1, 'a', 'Old/Name'), false, T);
    r.addName(1, 'Read under');
    assert.deepEqual([...(r.names(1) ?? [])], ['Old\u2215Name', 'Read under']);
    r.track(1, uri('content-docs://1/x'));
    r.track(1, uri('content-docs://1/x'));
    r.track(1, uri('content-docs://account/F/x.md'));
    assert.deepEqual(r.uris(1).map(String), ['content-docs://1/x', 'content-docs://account/F/x.md']);
  });

  it('forget drops the record and the versions (a deleted document); forgetReads keeps URIs, names and versions, drops reads and stats', () => {
    const r = new DocumentRecords<{ toString(): string }>();
    r.observe(doc(1, 'a'), false, T);
    r.track(1, uri('u1'));
    r.statOk(1, T);
    r.forgetReads();
    assert.equal(r.reuse(1, 'stat', false, T), undefined);
    assert.equal(r.statRecent(1, T), false);
    assert.deepEqual([...(r.names(1) ?? [])], ['Doc 1']);
    assert.equal(r.uris(1).length, 1);
    assert.ok(r.versions.get(1));
    r.setWriting(1, true);
    assert.equal(r.isWriting(1), true);
    r.forget(1);
    assert.equal(r.isWriting(1), false);
    assert.equal(r.uris(1).length, 0);
    assert.equal(r.versions.get(1), undefined);
  });
});

describe('DocumentRecords across a change of account', () => {
  it('reads go; the names, URIs and versions stay (the records are one account\'s: back in it, its tabs resolve as before)', () => {
    const r = new DocumentRecords<{ toString(): string }>();
    r.observe(doc(1, 'a', 'Letter'), false, T);
    r.track(1, uri('content-docs://1.abcdefgh/F/Letter.md'));
    const version = r.versions.get(1);
    r.forgetReads();
    assert.deepEqual([...(r.names(1) ?? [])], ['Letter'], 'the names its tabs were opened under');
    assert.equal(r.reuse(1, 'read', false, T), undefined, 'no read is reused');
    assert.equal(r.uris(1).length, 1);
    assert.deepEqual(r.versions.get(1), version);
  });
});

describe('listAccount (the account folder\'s listing)', () => {
  it('walks every page until the last, one request each', async () => {
    const asked: number[] = [];
    const all = await listAccount(async (n) => {
      asked.push(n);
      return { items: [{ id: n, name: `D${n}`, template: undefined }], hasMore: n < 3 };
    }, () => true);
    assert.deepEqual(asked, [1, 2, 3]);
    assert.deepEqual(all.docs.map((d) => d.id), [1, 2, 3]);
  });

  it('fails when the account changed during the walk (its pages are not this account\'s documents)', async () => {
    let current = true;
    await assert.rejects(
      listAccount(async (n) => {
        if (n === 2) current = false;
        return { items: [], hasMore: true };
      }, () => current),
      /account changed/,
    );
  });
});

describe('DocumentRecords when a save ends after its document was forgotten', () => {
  const doc = (id: number, name: string): ContentDocument => ({
    id,
    name,
    template: { id: 1, name: 'Freestyle' },
    result: 'Text',
    resultIsNull: false,
    words: 1,
    favorite: false,
    created_at: '2026-01-01T10:00:00.000000Z',
    updated_at: '2026-01-01T10:00:00.000000Z',
  });
  const uri = (s: string) => ({ toString: () => s });

  it('the record the end of the save makes again knows no name, URI, read or stat of the forgotten document (as if never seen)', () => {
    const r = new DocumentRecords<{ toString(): string }>();
    const T = 5_000_000;
    r.observe(doc(3, 'Old'), false, T);
    r.track(3, uri('content-docs://3/Freestyle/Old.md'));
    r.statOk(3, T);
    r.setWriting(3, true);
    r.forget(3); // deleted while the save was on the wire
    assert.equal(r.isWriting(3), false, 'a forgotten document is not being written');
    r.setWriting(3, false); // the save's finally
    // A single-document URI of a document with no known names resolves by its id alone (targets.ts checks names' size).
    assert.ok(!r.names(3)?.size, 'no names');
    assert.deepEqual(r.uris(3), []);
    assert.equal(r.reuse(3, 'stat', false, T + 1), undefined);
    assert.equal(r.statRecent(3, T + 1), false);
    assert.equal(r.versions.get(3), undefined);
  });
});
