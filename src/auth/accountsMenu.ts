import * as vscode from 'vscode';
import type { AccountInfo } from '../api/index';
import { CMD, STATE } from '../constants';
import type { AccountService } from '../services/accountService';
import type { ApiProvider } from '../services/apiProvider';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { displayLabel, hostOf, parseRemembered, remember, rememberedName, type RememberedName } from './accountNames';
import type { Credentials } from './credentials';
import type { AccountRegistry } from '../accounts/registry';

/**
 * What a session carries instead of a token. A session is handed to any extension the user lets use the account,
 * and the API key must only ever travel from this extension to the user's own server (it stays in SecretStorage):
 * these sessions only name the account in the Accounts menu, so they carry nothing secret.
 */
const NO_TOKEN = 'content-docs-accounts-menu-only';

/** getSessions' options in newer VS Code (one account of several). */
interface SessionOptions {
  readonly account?: { readonly id: string };
}

/**
 * The signed-in account in VS Code's Accounts menu, as "name @ host (Content Docs)", with the menu's Sign Out doing
 * what "Content Docs: Sign Out" does. A window onto the key in SecretStorage, not a second place for it: one session
 * per account (today the one account in use), its id the account's local label (Credentials.accountLabel). The
 * user's name comes from the account as read for another reason (never a request of its own) and is remembered in
 * globalState, so the menu names the account after a restart without asking the server; before it is known, the
 * host alone. The extension never asks VS Code for a session of its own (that asks the user's consent).
 */
export class AccountsMenu extends Disposable implements vscode.AuthenticationProvider {
  private readonly _onDidChangeSessions = this._register(
    new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>(),
  );
  readonly onDidChangeSessions = this._onDidChangeSessions.event;
  /** The sessions as last reported: what the menu shows. */
  private shown: readonly vscode.AuthenticationSession[] = [];
  /** Updates run one at a time, so the menu hears of the changes in the order they happened. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly credentials: Credentials,
    private readonly account: AccountService,
    api: ApiProvider,
    private readonly state: vscode.Memento,
    private readonly log: Logger,
    /** The accounts added with "Add Account…" (each is a session of its own). */
    private readonly registry?: AccountRegistry,
  ) {
    super();
    if (registry) this._register(registry.onDidChange(() => void this.update()));
    this._register(credentials.onDidChange(() => void this.update()));
    this._register(api.onDidChangeServer(() => void this.update()));
    this._register(account.onDidChange((info) => void (info ? this.learn(info) : undefined)));
    // What the menu shows from the start (local: SecretStorage and globalState), the base the later changes are told against.
    void this.update();
  }

  /** The sessions of every account: the first while signed in, then those added with "Add Account…". Local, no network. */
  async accounts(): Promise<vscode.AuthenticationSession[]> {
    const out: vscode.AuthenticationSession[] = [];
    const url = config.documentsBaseUrl();
    const label = await this.credentials.accountLabel(url);
    // The server and key of an added account (the settings changed to them): that account's session is the one.
    if (label && !this.registry?.added().some((a) => a.record?.label === label)) {
      const host = hostOf(url);
      const name = this.account.cached?.name ?? rememberedName(this.remembered(), label, host);
      out.push({ id: label, accessToken: NO_TOKEN, account: { id: label, label: displayLabel(host, name) }, scopes: [] });
    }
    for (const added of this.registry?.added() ?? []) {
      if (added.record) out.push({ id: added.record.label, accessToken: NO_TOKEN, account: { id: added.record.label, label: added.displayName }, scopes: [] });
    }
    return out;
  }

  async getSessions(scopes?: readonly string[], options?: SessionOptions): Promise<vscode.AuthenticationSession[]> {
    // These sessions have no scopes: a request for some is not for them.
    if (scopes?.length) return [];
    const all = await this.accounts();
    return options?.account ? all.filter((s) => s.account.id === options.account!.id) : all;
  }

  createSession(): Promise<vscode.AuthenticationSession> {
    return Promise.reject(
      new Error('Content Docs signs in with its own command: run "Content Docs: Set API Key…" from the Command Palette or the Content Docs view.'),
    );
  }

  /** The menu's Sign Out: the account is signed out as "Content Docs: Sign Out" does it (its key is removed). */
  async removeSession(sessionId: string): Promise<void> {
    // An added account first: the menu shows its session also while the first account's settings name the same
    // server and key (see accounts()).
    if (this.registry?.added().some((a) => a.record?.label === sessionId)) {
      // VS Code asked the user before calling this: the account is removed as Remove Account… does it.
      await this.registry.remove(sessionId);
      this.log.info('[auth] removed an added account from the Accounts menu');
    } else if (sessionId === (await this.credentials.accountLabel())) {
      await vscode.commands.executeCommand(CMD.signOut);
      this.log.info('[auth] signed out from the Accounts menu');
    }
    await this.update();
  }

  /** The user's name as the account was read: remembered for the next session, and shown. */
  private learn(info: AccountInfo): Promise<void> {
    return this.update(async () => {
      const name = info.name?.trim();
      const url = config.documentsBaseUrl();
      if (!name || !url) return;
      const label = await this.credentials.accountLabel(url);
      // Forgotten meanwhile (signed out, another key or server): the name is not this account's.
      if (!label || this.account.cached !== info) return;
      const next = remember(this.remembered(), { label, name, host: hostOf(url) });
      if (next) await this.state.update(STATE.accountNames, next);
    });
  }

  private remembered(): RememberedName[] {
    return parseRemembered(this.state.get(STATE.accountNames));
  }

  /**
   * Tells the menu what changed since it was last told. A session whose label changed is told as removed and added
   * again: the menu finds an account to update by its label and removes one by its id, so "changed" would list it twice.
   */
  private update(before?: () => Promise<void>): Promise<void> {
    const run = this.queue.then(async () => {
      await before?.();
      const next = await this.accounts();
      const same = (a: vscode.AuthenticationSession, b: vscode.AuthenticationSession) => a.id === b.id && a.account.label === b.account.label;
      const removed = this.shown.filter((s) => !next.some((n) => same(n, s)));
      const added = next.filter((n) => !this.shown.some((s) => same(n, s)));
      this.shown = next;
      if ((removed.length || added.length) && !this.isDisposed) this._onDidChangeSessions.fire({ added, removed, changed: [] });
    });
    this.queue = run.catch((e: unknown) => this.log.warn(`[auth] couldn't update the Accounts menu: ${(e as Error)?.message ?? e}`));
    return this.queue;
  }
}
