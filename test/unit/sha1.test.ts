/** The pure-TypeScript SHA-1 and basename the browser build uses instead of Node's crypto and path. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { sha1Hex } from '../../src/util/sha1';
import { baseName } from '../../src/util/paths';

describe('sha1Hex and baseName (no Node built-ins)', () => {
  it('sha1Hex equals Node crypto for empty, short, block-boundary, long and non-ASCII texts', () => {
    const texts = ['', 'a', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(63), 'x'.repeat(64), 'y'.repeat(20_480), 'Café ✓ 😀 \u0000 \uFEFF', 'line\r\nline\n'];
    for (let n = 0; n < 200; n++) texts.push(String.fromCharCode(...Array.from({ length: n }, (_, i) => 32 + ((i * 7919 + n) % 20000))));
    for (const t of texts) assert.equal(sha1Hex(t), createHash('sha1').update(t, 'utf8').digest('hex'), JSON.stringify(t.slice(0, 20)));
  });

  it('baseName equals path.posix.basename for URI paths', () => {
    for (const p of ['/a/b/c.md', 'c.md', '/', '', '/a/b/', '/12/Name with spaces.md', '//x//y//', 'Untitled-1']) {
      assert.equal(baseName(p), path.posix.basename(p), p);
    }
  });
});
