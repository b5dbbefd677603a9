/**
 * Adversary (AccountIndex, src/fs/accountIndex.ts): what the document service reports while a reload is
 * listing the account must not be lost when that listing (read before the change) lands.
 */
import assert from 'node:assert/strict';
import { AccountIndex, type IndexedDocument } from '../../src/fs/accountIndex';

const ARTICLE = { id: 4, name: 'Article' };

function doc(id: number, name: string): IndexedDocument {
  return { id, name, template: ARTICLE };
}

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

describe('adversary: AccountIndex during a reload', () => {
  it('adversary: a rename made while a reload is listing is not undone by that listing (the old name would point at the renamed document)', async () => {
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

  it('adversary: a document created while a reload is listing is listed once it lands', async () => {
    const before = [doc(1, 'One')];
    const { index, answer } = await slowIndex(before);
    const reloading = index.reload();
    index.upsert(doc(7, 'Created here'));
    await answer(before);
    await reloading;
    assert.equal(index.isGone(7), false, 'the new document is not reported gone');
    assert.equal(index.pathOf(7), 'Article/Created here.md');
  });

  it('adversary: a document deleted while a reload is listing stays gone', async () => {
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
