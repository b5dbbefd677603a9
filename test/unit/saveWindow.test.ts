/**
 * SaveWindow (src/files/saveWindow.ts): which stats start an auto-save, and how long one is held, in plain Node.
 */
import assert from 'node:assert/strict';
import { AUTO_SAVE_WINDOW_MS, SaveWindow } from '../../src/files/saveWindow';

const T = 1_000_000;
const A = 'content-docs://7.acct/Blog/Post.md';

describe('SaveWindow (auto-saves of a document, paced)', () => {
  it('the stat after an announced save starts it, once, with its reason; an unannounced stat starts none', () => {
    const w = new SaveWindow();
    assert.equal(w.startsSave(A, T), undefined, 'a stat VS Code makes for another reason');
    w.announce(A, 'auto', T);
    assert.equal(w.startsSave('content-docs://8.acct/Blog/Other.md', T), undefined, 'another document');
    assert.equal(w.startsSave(A, T + 10), 'auto');
    assert.equal(w.startsSave(A, T + 20), undefined, 'one stat per announced save');
    w.announce(A, 'manual', T + 30);
    assert.equal(w.startsSave(A, T + 40), 'manual', 'Ctrl+S: a save, never held');
    w.announce(A, 'auto', T);
    assert.equal(w.startsSave(A, T + 10_000), undefined, 'an announcement no stat followed belongs to no later stat');
  });

  it('an auto-save within the window of the last PATCH waits for its end; none before the first PATCH or after the window', () => {
    const w = new SaveWindow();
    assert.equal(w.waitMs(7, T), 0, 'nothing sent yet');
    w.sending(7);
    assert.equal(w.waitMs(7, T + 100), AUTO_SAVE_WINDOW_MS, 'while a PATCH is on the wire: at least until it ends');
    w.sent(7, T + 300);
    assert.equal(w.waitMs(7, T + 1_300), AUTO_SAVE_WINDOW_MS - 1_000);
    assert.equal(w.waitMs(8, T + 1_300), 0, 'each document has its own window');
    assert.equal(w.waitMs(7, T + 300 + AUTO_SAVE_WINDOW_MS), 0);
  });
});
