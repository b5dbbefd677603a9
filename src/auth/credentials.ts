import * as vscode from 'vscode';
import { CTX, SECRET_KEY } from '../constants';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';

/**
 * The API key, kept only in SecretStorage. Reads are cached; a change made in another window
 * arrives through SecretStorage.onDidChange and updates the `contentDocs.signedIn` context key.
 */
export class Credentials extends Disposable {
  private cached: Promise<string | undefined> | undefined;
  /** The key as last seen by refreshContext (null: not read yet). */
  private lastSeen: string | undefined | null = null;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<boolean>());
  /** Fires with whether a key is now set. */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Logger,
  ) {
    super();
    this._register(
      secrets.onDidChange((e) => {
        if (e.key !== SECRET_KEY) return;
        this.cached = undefined;
        void this.refreshContext(true);
      }),
    );
  }

  getKey(): Promise<string | undefined> {
    this.cached ??= Promise.resolve(this.secrets.get(SECRET_KEY)).then(
      (k) => {
        this.log.setSecret(k);
        return k || undefined;
      },
      () => undefined,
    );
    return this.cached;
  }

  async hasKey(): Promise<boolean> {
    return !!(await this.getKey());
  }

  async setKey(key: string): Promise<void> {
    await this.secrets.store(SECRET_KEY, key);
    this.cached = Promise.resolve(key);
    this.log.setSecret(key);
    await this.refreshContext(true);
  }

  async clearKey(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
    this.cached = Promise.resolve(undefined);
    await this.refreshContext(true);
  }

  /**
   * Sets the context key from SecretStorage; when asked to, fires onDidChange if the key is not the one
   * last seen (SecretStorage also reports this window's own store, later: that one is not a change). Local, no network.
   */
  async refreshContext(fire = false): Promise<boolean> {
    const key = await this.getKey();
    const has = !!key;
    await vscode.commands.executeCommand('setContext', CTX.signedIn, has);
    const changed = this.lastSeen === null || this.lastSeen !== key;
    this.lastSeen = key;
    if (fire && changed) this._onDidChange.fire(has);
    return has;
  }

}
