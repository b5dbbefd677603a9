/**
 * VersionTracker (src/files/versions.ts): the mtime/size the file system reports, which VS Code's own
 * "newer on disk" check compares (a save is refused when the mtime is later AND the size differs).
 */
import assert from 'node:assert/strict';
import { VersionTracker } from '../../src/files/versions';

const T0 = '2026-01-01T10:00:00.000000Z';
const T0_MS = Date.parse(T0);

/** What VS Code would decide on save, given the stat it last read and the stat it reads now. */
function conflict(before: { mtime: number; size: number }, now: { mtime: number; size: number }): boolean {
  return before.mtime < now.mtime && before.size !== now.size;
}

describe('VersionTracker (stat mtime/size for VS Code conflict checks)', () => {
  it('first read: mtime = updated_at, size = UTF-8 byte length', () => {
    const v = new VersionTracker().observe(1, { result: 'héllo', updated_at: T0 }).version;
    assert.equal(v.mtime, T0_MS);
    assert.equal(v.size, Buffer.byteLength('héllo'));
  });

  it('a change within the same second to a text of the same length still reads as newer and different', () => {
    const t = new VersionTracker();
    const a = t.observe(1, { result: 'abc', updated_at: T0 }).version;
    const obs = t.observe(1, { result: 'abd', updated_at: T0 });
    assert.equal(obs.textChanged, true);
    assert.ok(conflict(a, obs.version), `${JSON.stringify(a)} → ${JSON.stringify(obs.version)}`);
  });

  it('the same text keeps its mtime and size (no false conflict)', () => {
    const t = new VersionTracker();
    const a = t.observe(1, { result: 'abc', updated_at: T0 }).version;
    const b = t.observe(1, { result: 'abc', updated_at: T0 }).version;
    assert.equal(conflict(a, b), false);
    assert.deepEqual([b.mtime, b.size], [a.mtime, a.size]);
  });

  it('after forget (a delete), another text under the same id is newer and of another size, even with an older updated_at', () => {
    const t = new VersionTracker();
    const a = t.observe(7, { result: 'teh text', updated_at: '2026-06-01T00:00:00.000000Z' }).version;
    t.forget(7);
    const b = t.observe(7, { result: 'the text', updated_at: T0 }).version;
    assert.ok(conflict(a, b), `${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  });

  it('after forget, the same text comes back with the mtime and size last reported', () => {
    const t = new VersionTracker();
    const a = t.observe(7, { result: 'same', updated_at: '2026-06-01T00:00:00.000000Z' }).version;
    t.forget(7);
    const b = t.observe(7, { result: 'same', updated_at: T0 }).version;
    assert.deepEqual([b.mtime, b.size], [a.mtime, a.size]);
  });

  it('a NUL reads as U+FFFD, and the size is that of the bytes returned', () => {
    const v = new VersionTracker().observe(1, { result: 'a\u0000b', updated_at: T0 }).version;
    assert.equal(new TextDecoder().decode(v.bytes), 'a\uFFFDb');
    assert.equal(v.size, v.bytes.byteLength);
  });
});
