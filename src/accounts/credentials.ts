import vscode = require('vscode');
import { ACCOUNT_LABEL, CTX, SECRET_ACCOUNT_LABELS, SECRET_KEY } from '../constants';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';

/** Whether an account has a key, and when that changes (what the views need of a sign-in). */
export interface SignIn {
  hasKey(): Promise<boolean>;
  readonly onDidChange: vscode.Event<boolean>;
}

/**
 * The API key, kept only in SecretStorage. Reads are cached; a change made in another window
 * arrives through SecretStorage.onDidChange and updates the `contentDocs.signedIn` context key.
 */
export class Credentials extends Disposable implements SignIn {
  private cached: Promise<string | undefined> | undefined;
  /** The labels as last read (see accountLabel); undefined: read them again. */
  private labels: Promise<[digest: string, label: string][]> | undefined;
  /** Label changes are made one at a time (a read, then a store). */
  private labelQueue: Promise<unknown> = Promise.resolve();
  /** Whether an account added with "Add Account…" is signed in (the views then show, whatever this key is). */
  alsoSignedIn: () => boolean = () => false;
  /** Resolves once a change of the key has made its account (see AccountRegistry.settled). */
  settled: () => Promise<void> = () => Promise.resolve();
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
        if (e.key === SECRET_ACCOUNT_LABELS) this.labels = undefined;
        if (e.key !== SECRET_KEY) return;
        this.cached = undefined;
        void this.refreshContext(true);
      }),
    );
  }

  getKey(): Promise<string | undefined> {
    this.cached ??= Promise.resolve(this.secrets.get(SECRET_KEY)).then(
      (k) => {
        this.log.setSecret(k, 'settings');
        return k || undefined;
      },
      () => undefined,
    );
    return this.cached;
  }

  /** Whether a key was set when last seen (sync; false before the first look, made at activation). */
  get signedIn(): boolean {
    return typeof this.lastSeen === 'string' && this.lastSeen.length > 0;
  }

  async hasKey(): Promise<boolean> {
    return !!(await this.getKey());
  }

  /** Stores the key of "Set API Key…"; resolves once the account of that key and the settings' server is made. */
  async setKey(key: string): Promise<void> {
    await this.secrets.store(SECRET_KEY, key);
    this.cached = Promise.resolve(key);
    this.log.setSecret(key, 'settings');
    await this.refreshContext(true);
    await this.settled();
  }

  /** Deletes the key of "Set API Key…" (a sign-out); resolves once its account is gone. */
  async clearKey(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
    this.cached = Promise.resolve(undefined);
    await this.refreshContext(true);
    await this.settled();
  }

  /**
   * Sets the context key from SecretStorage; when asked to, fires onDidChange if the key is not the one
   * last seen (SecretStorage also reports this window's own store, later: that one is not a change). Local, no network.
   */
  async refreshContext(fire = false): Promise<boolean> {
    const key = await this.getKey();
    const has = !!key;
    await vscode.commands.executeCommand('setContext', CTX.signedIn, has || this.alsoSignedIn());
    const changed = this.lastSeen === null || this.lastSeen !== key;
    this.lastSeen = key;
    if (fire && changed) this._onDidChange.fire(has);
    return has;
  }

  /**
   * The account's local label: a lowercase letter and seven letters or digits, made at random the first time a
   * documents server and key are used together and kept for them in SecretStorage (as a SHA-256 digest of both:
   * no copy of the key). Every URI of a document carries it, so a tab opened in one account is never read or
   * saved in another: the same server and key (signed out and in again, a restart) are the same label; another key
   * or server is another. Undefined when signed out or no server is set. Local, no network. `key`: another key than
   * the one set with "Set API Key…" (an account added with "Add Account…"). `mint: false` only looks: a pair seen for
   * the first time has no label yet (a key being checked must not make one). `as`: the pair gets this label (an
   * account added with "Add Account…" whose key is entered on this machine keeps the label its record and URIs carry).
   */
  async accountLabel(
    documentsUrl = config.documentsBaseUrl(),
    key?: string,
    { mint = true, as }: { mint?: boolean; as?: string } = {},
  ): Promise<string | undefined> {
    key ??= await this.getKey();
    if (!key || !documentsUrl) return undefined;
    // One server written two ways (`https://Host/api/`, `https://host/api`) is one server: its digest is the address
    // as requests use it. A pair kept under the address as typed (before it was normalized) keeps its label.
    const server = sameServer(documentsUrl);
    const digest = await sha256Hex(`${server}\n${key}`);
    const typed = server === documentsUrl ? undefined : await sha256Hex(`${documentsUrl}\n${key}`);
    const labels = await this.readLabels();
    const known = labels.find(([d]) => d === digest) ?? labels.find(([d]) => d === typed);
    if (known && (as === undefined || known[1] === as)) return known[1];
    // Only looking (a candidate key, not yet accepted): nothing is kept for it.
    if (!mint) return undefined;
    const next = this.labelQueue.then(async () => {
      this.labels = undefined;
      const labels = await this.readLabels();
      const found = labels.find(([d]) => d === digest) ?? labels.find(([d]) => d === typed);
      if (found && (as === undefined || found[1] === as)) return found[1];
      // `as`: the label an added account already has (its key entered on this machine): the pair is given that one.
      const label = as ?? newLabel();
      // The most recent first; old pairs go after a while (an account not used for 50 sign-ins).
      const kept = [[digest, label] as [string, string], ...labels.filter(([d]) => d !== digest)].slice(0, 50);
      this.labels = Promise.resolve(kept);
      await Promise.resolve(this.secrets.store(SECRET_ACCOUNT_LABELS, JSON.stringify(kept))).catch((e: unknown) =>
        this.log.warn(`[auth] couldn't keep the account's label: ${(e as Error)?.message ?? e}`),
      );
      return label;
    });
    this.labelQueue = next.catch(() => undefined);
    return next;
  }

  private readLabels(): Promise<[string, string][]> {
    this.labels ??= Promise.resolve(this.secrets.get(SECRET_ACCOUNT_LABELS)).then(
      (raw) => {
        try {
          const parsed: unknown = JSON.parse(raw ?? '[]');
          return Array.isArray(parsed)
            ? parsed.filter(
                (e: unknown): e is [string, string] =>
                  Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string' && ACCOUNT_LABEL.test(e[1]),
              )
            : [];
        } catch {
          return [];
        }
      },
      () => [],
    );
    return this.labels;
  }
}

/** A server address as requests use it: no trailing slash, the scheme and host in lowercase (as the URL parser writes them). */
export function sameServer(address: string): string {
  try {
    const url = new URL(address.trim());
    return url.origin + url.pathname.replace(/\/+$/, '');
  } catch {
    return address;
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new account label: a letter, then seven letters or digits (about 41 bits of randomness). */
function newLabel(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const chars = letters + '0123456789';
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  return letters[bytes[0] % 26] + Array.from(bytes.slice(1), (b) => chars[b % 36]).join('');
}
