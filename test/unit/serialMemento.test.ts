import * as assert from 'assert';
import { SerialMemento, type GlobalMemento } from '../../src/util/serialMemento';

/** A Memento whose writes take a while, recording how many were on their way at once. */
function slowMemento(failKey?: string) {
  const values = new Map<string, unknown>();
  const log = { started: [] as string[], concurrent: 0, maxConcurrent: 0, synced: [] as readonly string[] };
  const real: GlobalMemento = {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => {
      log.started.push(key);
      log.maxConcurrent = Math.max(log.maxConcurrent, ++log.concurrent);
      await new Promise((r) => setTimeout(r, 5));
      log.concurrent--;
      if (key === failKey) throw new Error('storage refused');
      if (value === undefined) values.delete(key);
      else values.set(key, value);
    },
    setKeysForSync: (keys) => void (log.synced = keys),
  };
  return { real, values, log };
}

describe('SerialMemento: globalState written one change at a time', () => {
  it('writes one at a time, in the order made, and each is read back at once while it waits', async () => {
    const { real, values, log } = slowMemento();
    const state = new SerialMemento(real);
    const done = [state.update('a', 1), state.update('b', { n: 2 }), state.update('a', 3)];
    assert.strictEqual(state.get('a'), 3, 'the newest write of a key is read');
    assert.deepStrictEqual(state.get('b'), { n: 2 });
    assert.deepStrictEqual([...state.keys()].sort(), ['a', 'b']);
    assert.deepStrictEqual([...values.keys()], [], 'nothing stored yet');
    await Promise.all(done);
    assert.strictEqual(log.maxConcurrent, 1, 'never two writes on their way');
    assert.deepStrictEqual(log.started, ['a', 'b', 'a']);
    assert.deepStrictEqual(Object.fromEntries(values), { a: 3, b: { n: 2 } });
  });

  it('keeps a copy of what it was given; a removed key reads as the default', async () => {
    const { real } = slowMemento();
    const state = new SerialMemento(real);
    const record = { label: 'x' };
    const written = state.update('r', record);
    record.label = 'changed afterwards';
    assert.deepStrictEqual(state.get('r'), { label: 'x' });
    await written;
    assert.deepStrictEqual(state.get('r'), { label: 'x' });
    const removed = state.update('r', undefined);
    assert.strictEqual(state.get('r', 'default'), 'default');
    assert.deepStrictEqual([...state.keys()], [], 'a key being removed is not listed');
    await removed;
    assert.strictEqual(state.get('r'), undefined);
  });

  it('a write the storage refuses is told to its caller, reads fall back to what is stored, and the next write goes on', async () => {
    const { real, values } = slowMemento('bad');
    const state = new SerialMemento(real);
    const bad = state.update('bad', 1);
    const next = state.update('good', 2);
    await assert.rejects(bad, /storage refused/);
    await next;
    assert.strictEqual(state.get('bad'), undefined);
    assert.strictEqual(values.get('good'), 2);
  });

  it('a key written again and again while a write is on its way is stored once more, with its newest value', async function () {
    this.timeout(30_000);
    const { real, values, log } = slowMemento();
    const state = new SerialMemento(real);
    const first = state.update('other', 0);
    // A view's state written per page of a long list: a thousand writes of one key made while another is stored.
    const writes = Array.from({ length: 1000 }, (_, i) => state.update('view', { page: i }));
    assert.deepStrictEqual(state.get('view'), { page: 999 });
    await Promise.all([first, ...writes]);
    assert.deepStrictEqual(values.get('view'), { page: 999 });
    assert.strictEqual(log.started.length, 2, 'one store of the other key, one of the view state');
    assert.deepStrictEqual(log.started, ['other', 'view']);
  });

  it('two writes of a key queued behind a write the storage refuses store the newer value', async () => {
    const { real, values } = slowMemento('bad');
    const state = new SerialMemento(real);
    const bad = state.update('bad', 1);
    const a1 = state.update('a', 1);
    const a2 = state.update('a', 2);
    await assert.rejects(bad, /storage refused/);
    await Promise.all([a1, a2]);
    assert.strictEqual(values.get('a'), 2);
    assert.strictEqual(state.get('a'), 2);
  });

  it('Settings Sync keys go to the real globalState', () => {
    const { real, log } = slowMemento();
    new SerialMemento(real).setKeysForSync(['accounts']);
    assert.deepStrictEqual(log.synced, ['accounts']);
  });
});
