/**
 * The response schemas (src/api/schemas.ts), built on first use: one set, and the servers' odd values read as
 * CONTRACT.md describes them.
 */
import assert from 'node:assert/strict';
import { schemas } from '../../src/api/schemas';

describe('the response schemas, built lazily', () => {
  it('are built once and read the servers\' odd values as before (template [], result null, string ids and flags, 422 bodies, deletions)', () => {
    const s = schemas();
    assert.equal(schemas(), s, 'one set of schemas');
    const doc = s.documentOne.parse({ data: { id: '12', name: null, template: [], result: null, words: null, favorite: '1', created_at: null } });
    assert.deepEqual(doc, { id: 12, name: '', template: undefined, result: '', resultIsNull: true, words: 0, favorite: true, created_at: undefined, updated_at: undefined });
    assert.equal(s.documentOne.parse({ id: 3, template: { id: '4', name: null } }).template?.id, 4, 'a bare record, a string template id');
    assert.equal(s.documentOne.safeParse({ data: { id: 1, template: [1] } }).success, false, 'a non-empty template array is refused');
    const projects = s.projectList.parse({ data: [{ project: 'p', reports: '3', result: '12.5' }, { project: 'q', result: 'n/a' }], meta: { per_page: '10', total: 2 } });
    assert.deepEqual(projects.data.map((p) => [p.reports, p.result]), [[3, 12.5], [0, undefined]]);
    assert.equal(s.deleted.safeParse({ id: '5' }).success, true);
    assert.equal(s.deleted.safeParse({ deleted: true }).success, true);
    assert.equal(s.deleted.safeParse({ deleted: false, id: 5 }).success, false);
    assert.equal(s.deleted.safeParse({ id: null }).success, false);
    const err = s.errorBody.parse({ message: { name: ['The name field is required.'], creativity: 'too high' } });
    assert.deepEqual(err.message, { name: ['The name field is required.'], creativity: 'too high' });
    const usage = s.accountInfo.parse({ data: { plan: { name: 'Pro', features: { words: '-1' } }, words_month_count: '17', images_month_count: 'many' } });
    assert.deepEqual([usage.plan?.name, usage.limits.words, usage.month.words, usage.month.images], ['Pro', undefined, 17, undefined]);
  });
});
