/**
 * VersionTracker (src/files/versions.ts): the mtime/size the file system reports, which VS Code's own
 * "newer on disk" check compares (a save is refused when the mtime is later AND the size differs).
 */
import assert from 'node:assert/strict';
import { isStoredText, VersionTracker } from '../../src/files/versions';

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

describe('isStoredText (a save that would leave the server with the text it has sends nothing)', () => {
  const version = (result: string) => new VersionTracker().observe(1, { result, updated_at: T0 }).version;

  it('the same text, or one the server trims to it (a final newline, white space at either end), is the stored text', () => {
    const v = version('Line one.\n\nLine two.');
    assert.equal(isStoredText('Line one.\n\nLine two.', v), true);
    assert.equal(isStoredText('Line one.\n\nLine two.\n', v), true, 'a final newline VS Code adds');
    assert.equal(isStoredText('\uFEFF  Line one.\n\nLine two.\u200B\n\n', v), true, 'what the server trims, U+FEFF and U+200B too');
  });

  it('any other text is a change: a letter, other line endings (the server keeps them), white space inside', () => {
    const v = version('Line one.\n\nLine two.');
    assert.equal(isStoredText('Line one.\n\nLine two!', v), false);
    assert.equal(isStoredText('Line one.\r\n\r\nLine two.', v), false, 'CRLF is stored as sent');
    assert.equal(isStoredText('Line one.\n\n\nLine two.', v), false);
    assert.equal(isStoredText('Line one.\r\n\r\nLine two.', version('Line one.\r\n\r\nLine two.')), true);
  });

  it('HTML as stored: unchanged only when every tag is', () => {
    const html = '<p>One &amp; <strong>two</strong></p><p><br></p><ul><li>three</li></ul>';
    assert.equal(isStoredText(html, version(html)), true);
    assert.equal(isStoredText(html.replace('<strong>', '<b>').replace('</strong>', '</b>'), version(html)), false);
  });

  it('a NUL the editor shows as U+FFFD is no change; an empty (null) result and an empty editor are the same text', () => {
    assert.equal(isStoredText('a\uFFFDb', version('a\u0000b')), true);
    assert.equal(isStoredText('a\u0000b', version('a\u0000b')), false, 'the editor never holds a NUL it was given');
    assert.equal(isStoredText('\n', version('')), true);
    assert.equal(isStoredText('x', version('')), false);
  });
});
