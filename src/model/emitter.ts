/**
 * Events without `vscode`: the same shape as `vscode.Event` (a `vscode.Event` can be passed where an
 * {@link Event} is expected, and the other way round), so the models and the services they read run in
 * plain Node.
 */

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

/**
 * Delivers each `fire` synchronously to the listeners subscribed at that moment, in subscription order.
 * A listener that throws does not keep the others from hearing the event (as `vscode.EventEmitter`).
 */
export class Emitter<T> implements Disposable {
  #listeners: Array<(e: T) => unknown> = [];
  #disposed = false;

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : (e: T) => listener.call(thisArgs, e);
    if (!this.#disposed) this.#listeners = [...this.#listeners, bound];
    const sub = {
      dispose: () => {
        this.#listeners = this.#listeners.filter((l) => l !== bound);
      },
    };
    disposables?.push(sub);
    return sub;
  };

  fire(e: T): void {
    for (const l of this.#listeners) {
      try {
        l(e);
      } catch (err) {
        console.error(err);
      }
    }
  }

  dispose(): void {
    this.#disposed = true;
    this.#listeners = [];
  }
}
