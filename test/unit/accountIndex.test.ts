/**
 * AccountIndex (src/fs/accountIndex.ts): the account as folders and files. The property that matters
 * most: a path once given to a document keeps meaning that document, so an editor showing it can never
 * save into another document — after a delete, after a rename onto its name, after a reload.
 */
import assert from 'node:assert/strict';
import { AccountIndex, type IndexedDocument } from '../../src/fs/accountIndex';

const ARTICLE = { id: 4, name: 'Article' };
const CUSTOM = { id: 60, name: 'My template' };

function doc(id: number, name: string, template: IndexedDocument['template'] = ARTICLE): IndexedDocument {
  return { id, name, template };
}

async function indexOf(docs: IndexedDocument[]): Promise<{ index: AccountIndex; server: IndexedDocument[] }> {
  const server = [...docs];
  const index = new AccountIndex(async () => [...server], '.md');
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
        new Promise<IndexedDocument[]>((resolve) => {
          listings++;
          const snapshot = [...server]; // what the server holds when the request arrives
          calls.push(() => resolve(snapshot));
        }),
      '.md',
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
});
