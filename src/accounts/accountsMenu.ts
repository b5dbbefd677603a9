import vscode = require('vscode');
import type { AccountInfo } from '../api/index';
import type { AccountRegistry } from './registry';
import { parseRecords } from './records';
import { AUTH_PROVIDER, CMD, STATE } from '../constants';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { displayLabel, hostOf, parseRemembered, remember, rememberedName, type RememberedName } from './accountNames';
import type { Credentials } from './credentials';

/**
 * What a session carries instead of a token. A session is handed to any extension the user lets use the account,
 * and the API key must only ever travel from this extension to the user's own server (it stays in SecretStorage):
 * these sessions only name the account in the Accounts menu, so they carry nothing secret.
 */
const NO_TOKEN = 'content-docs-accounts-menu-only';

/**
 * What the menu takes of the services (dist/core.js), once they are built: the first account as read this session
 * (src/usage/accountService.ts) and the accounts added with "Add Account…".
 */
export interface MenuServices {
  readonly account: {
    readonly cached: AccountInfo | undefined;
    readonly onDidChange: vscode.Event<AccountInfo | undefined>;
  };
  readonly registry: Pick<AccountRegistry, 'added' | 'remove' | 'onDidChange'>;
}

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
 *
 * Registered at activation, as VS Code asks for the sessions from startup on, and built from local state only: the
 * key and labels in SecretStorage, the added accounts and the remembered names in globalState. The services load on
 * first use (dist/core.js); once they are built (connect), the menu hears of the account as read and of accounts
 * added or removed.
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

  /** The services, once built (until then no account was read this session, and none was added or removed). */
  private services: MenuServices | undefined;

  constructor(
    private readonly credentials: Credentials,
    private readonly state: vscode.Memento,
    private readonly log: Logger,
    /** Builds the services (they then connect here): for the menu's Sign Out of an added account before they were. */
    private readonly load: () => void = () => undefined,
  ) {
    super();
    this._register(credentials.onDidChange(() => void this.update()));
    // Another documents server is another first account (see ApiProvider.onDidChangeServer).
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'documents.baseUrl')) void this.update();
      }),
    );
    // What the menu shows from the start (local: SecretStorage and globalState), the base the later changes are told against.
    void this.update();
  }

  /** The services, built after activation: the user's name as the account is read, and the accounts added or removed. */
  connect(services: MenuServices): void {
    if (this.services) return;
    this.services = services;
    this._register(services.registry.onDidChange(() => void this.update()));
    this._register(services.account.onDidChange((info) => void (info ? this.learn(info) : undefined)));
    if (services.account.cached) void this.learn(services.account.cached);
  }

  /** The sessions of every account: the first while signed in, then those added with "Add Account…". Local, no network. */
  async accounts(): Promise<vscode.AuthenticationSession[]> {
    const out: vscode.AuthenticationSession[] = [];
    const url = config.documentsBaseUrl();
    const label = await this.credentials.accountLabel(url);
    // The server and key of an added account (the settings changed to them): that account's session is the one.
    if (label && !this.added().some((a) => a.label === label)) {
      const host = hostOf(url);
      const name = this.services?.account.cached?.name ?? rememberedName(this.remembered(), label, host);
      out.push({ id: label, accessToken: NO_TOKEN, account: { id: label, label: displayLabel(host, name) }, scopes: [] });
    }
    for (const added of this.added()) out.push({ id: added.label, accessToken: NO_TOKEN, account: { id: added.label, label: added.displayName }, scopes: [] });
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
    if (this.added().some((a) => a.label === sessionId)) {
      // VS Code asked the user before calling this: the account is removed as Remove Account… does it.
      if (!this.services) this.load();
      await this.services?.registry.remove(sessionId);
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
      if (!label || this.services?.account.cached !== info) return;
      const next = remember(this.remembered(), { label, name, host: hostOf(url) });
      if (next) await this.state.update(STATE.accountNames, next);
    });
  }

  /**
   * The accounts added with "Add Account…": as the registry has them, or as globalState keeps them until the services
   * are built (no account was read or added meanwhile: the name is the one the key check read).
   */
  private added(): { label: string; displayName: string }[] {
    if (this.services) {
      return this.services.registry.added().flatMap((a) => (a.record ? [{ label: a.record.label, displayName: a.displayName }] : []));
    }
    return parseRecords(this.state.get(STATE.accounts)).map((r) => ({ label: r.label, displayName: displayLabel(hostOf(r.documentsUrl), r.name) }));
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

/**
 * Registers the accounts in VS Code's Accounts menu, which VS Code asks for sessions from startup on: local
 * (SecretStorage and globalState; its Sign Out is ours). It hears of the accounts from the services once they are built.
 */
export function registerAccountsMenu(
  subscriptions: vscode.Disposable[],
  credentials: Credentials,
  state: vscode.Memento,
  log: Logger,
  load: () => void,
): AccountsMenu {
  const menu = new AccountsMenu(credentials, state, log, load);
  subscriptions.push(menu, vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER.id, AUTH_PROVIDER.label, menu, { supportsMultipleAccounts: true }));
  return menu;
}
