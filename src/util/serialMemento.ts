/**
 * The extension's globalState, written one change at a time. VS Code's Memento takes every echo of a write to its
 * storage as its whole value (microsoft/vscode#171827): a write made while the echo of an earlier one is on its way
 * is overwritten in memory when that echo arrives, and the next write then stores the state without it. Measured in
 * VS Code 1.139: of 300 writes of distinct keys made 0–2 ms apart, 238 were lost (test/integration/serialMemento.test.ts).
 * Here each write waits for the one before to be stored (its echo arrives before the store is acknowledged), and
 * what a write stores is read back at once while it waits, as VS Code's Memento does.
 *
 * Writes of other windows and Settings Sync still arrive as VS Code brings them. No `vscode` at runtime.
 */
import type * as vscode from 'vscode';

/** The Memento of globalState (with its Settings Sync keys). */
export type GlobalMemento = vscode.Memento & { setKeysForSync(keys: readonly string[]): void };

export class SerialMemento implements GlobalMemento {
  /** Values written and not yet stored, by key (the newest write of each key). */
  readonly #pending = new Map<string, unknown>();
  /** The last write in the queue while it waits for the one before: its key and the value it will store. */
  #last: { key: string; value: unknown; done: Promise<void> } | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly real: GlobalMemento) {}

  keys(): readonly string[] {
    const keys = new Set(this.real.keys());
    for (const [key, value] of this.#pending) {
      if (value === undefined) keys.delete(key);
      else keys.add(key);
    }
    return [...keys];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    if (this.#pending.has(key)) {
      const value = this.#pending.get(key) as T | undefined;
      return value === undefined ? defaultValue : value;
    }
    const value = this.real.get<T>(key);
    return value === undefined ? defaultValue : value;
  }

  update(key: string, value: unknown): Promise<void> {
    // A copy, as VS Code's Memento keeps: a caller changing its object afterwards changes nothing stored.
    const kept: unknown = value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
    this.#pending.set(key, kept);
    // The last write in the queue, of this key and not started, stores this newer value instead (a view's state written
    // per page of a long list): one store, not one per write each waiting for all before it. Writes keep their order.
    const last = this.#last;
    if (last?.key === key) {
      last.value = kept;
      return last.done;
    }
    const entry: { key: string; value: unknown; done: Promise<void> } = { key, value: kept, done: Promise.resolve() };
    this.#last = entry;
    const write = this.#queue.then(() => {
      if (this.#last === entry) this.#last = undefined;
      return this.real.update(key, entry.value);
    });
    entry.done = write.finally(() => {
      if (this.#pending.get(key) === entry.value) this.#pending.delete(key);
    });
    this.#queue = entry.done.catch(() => undefined);
    return entry.done;
  }

  /** Resolves once every write made so far is stored (or refused): what deactivation waits for. */
  stored(): Promise<void> {
    return this.#queue.then(() => undefined);
  }

  setKeysForSync(keys: readonly string[]): void {
    this.real.setKeysForSync(keys);
  }
}
