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
    const write = this.#queue.then(() => this.real.update(key, kept));
    const done = write.finally(() => {
      if (this.#pending.get(key) === kept) this.#pending.delete(key);
    });
    this.#queue = done.catch(() => undefined);
    return done;
  }

  setKeysForSync(keys: readonly string[]): void {
    this.real.setKeysForSync(keys);
  }
}
