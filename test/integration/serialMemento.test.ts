/**
 * The extension's globalState in a real VS Code: VS Code's Memento takes every echo of its storage as its whole value
 * (microsoft/vscode#171827), so a write made while the echo of an earlier one is on its way can be lost. The
 * extension's own writes (the added accounts' records, the views' choices, the names learned, the last account used)
 * go through one globalState that writes a change at a time (src/util/serialMemento.ts).
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import { EXTENSION_ID, services, sleep } from './reliabilityKit';

/** Writes keys 0–2 ms apart, as bursts of the extension's own writes come; returns those not kept once all settled. */
async function burst(state: vscode.Memento, prefix: string): Promise<string[]> {
  const lost: string[] = [];
  const writes: Thenable<void>[] = [];
  for (let round = 0; round < 5; round++) {
    const keys: string[] = [];
    for (let i = 0; i < 30; i++) {
      const key = `${prefix}.${round}.${i}`;
      keys.push(key);
      writes.push(state.update(key, i));
      await sleep(i % 3);
    }
    await Promise.all(writes);
    await sleep(200);
    for (const key of keys) if (state.get(key) === undefined) lost.push(key);
  }
  for (let round = 0; round < 5; round++) for (let i = 0; i < 30; i++) void state.update(`${prefix}.${round}.${i}`, undefined);
  await sleep(200);
  return lost;
}

describe("globalState: the extension's own writes are all kept", function () {
  this.timeout(60_000);
  let s: TestServices;

  before(async () => {
    s = await services();
  });

  it('150 writes of distinct keys made 0–2 ms apart are all kept, and read back at once while they wait', async () => {
    const lost = await burst(s.state, 'serialMemento.test');
    assert.deepStrictEqual(lost, [], `${lost.length} of 150 writes lost`);
    void s.state.update('serialMemento.readBack', { n: 1 });
    assert.deepStrictEqual(s.state.get('serialMemento.readBack'), { n: 1 }, 'a write is read back before it is stored');
    await s.state.update('serialMemento.readBack', undefined);
    assert.strictEqual(s.state.get('serialMemento.readBack'), undefined);
  });

  it('writes still waiting when the extension is deactivated are stored before its deactivate() is done', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    // The module VS Code activated (the extension host requires it: the same module).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const main = require(path.join(extension.extensionPath, 'dist', 'extension.js')) as { deactivate(): unknown };
    const keys = Array.from({ length: 30 }, (_, i) => `serialMemento.deactivate.${i}`);
    for (const [i, key] of keys.entries()) void s.state.update(key, i);
    await main.deactivate();
    const stored = keys.filter((key) => s.context.globalState.get(key) !== undefined);
    await Promise.all(keys.map((key) => s.state.update(key, undefined)));
    assert.strictEqual(stored.length, keys.length, 'every write handed to VS Code by the end of deactivate()');
  });
});
