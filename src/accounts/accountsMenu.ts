import vscode = require('vscode');
import type { Account } from './account';
import { parseRecords } from './records';
import { AUTH_PROVIDER, STATE } from '../constants';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { displayLabel, hostOf, parseRemembered, rememberedName, type RememberedName } from './accountNames';
import type { Credentials } from './credentials';

/**
 * What a session carries instead of a token. A session is handed to any extension the user lets use the account,
 * and the API key must only ever travel from this extension to the user's own server (it stays in SecretStorage):
 * these sessions only name the account in the Accounts menu, so they carry nothing secret.
 */
const NO_TOKEN = 'content-docs-accounts-menu-only';

/** How long the menu waits to tell VS Code of the accounts' changes, so that a burst of them is told as one. */
const UPDATE_DELAY_MS = 150;

/** What the menu takes of the accounts (dist/core.js), once they are built. */
export interface MenuServices {
  all(): readonly Account[];
  remove(account: Account): Promise<void>;
  /** Resolves once the changes heard so far have made their accounts (the settings' one is made after it is built). */
  settled(): Promise<void>;
  readonly onDidChange: vscode.Event<void>;
  /** An account's user's name was learned: its entry says it. */
  readonly onDidRename: vscode.Event<Account>;
}

/** An account signed in, as the menu names it, with its server addresses. */
export interface MenuAccount {
  readonly label: string;
  /** "name @ host" (the host alone while the user's name is not known). */
  readonly name: string;
  readonly documentsUrl: string;
  readonly projectsUrl: string;
}

/** An account's session: its label as id, and its name. */
const sessionOf = (a: MenuAccount): vscode.AuthenticationSession => ({ id: a.label, accessToken: NO_TOKEN, account: { id: a.label, label: a.name }, scopes: [] });

/** getSessions' options in newer VS Code (one account of several). */
interface SessionOptions {
  readonly account?: { readonly id: string };
}

/**
 * The signed-in accounts in VS Code's Accounts menu, as "name @ host (Content Docs)", with the menu's Sign Out doing
 * what "Content Docs: Remove Account…" does (for the account of "Set API Key…": a sign-out). A window onto the keys in
 * SecretStorage, not a second place for them: one session per account, its id the account's local label
 * (Credentials.accountLabel). The user's name comes from the account as read for another reason (never a request of
 * its own) and is remembered in globalState (see AccountRegistry), so the menu names the account after a restart
 * without asking the server; before it is known, the host alone. The extension never asks VS Code for a session of
 * its own (that asks the user's consent).
 *
 * Registered at activation, as VS Code asks for the sessions from startup on, and built from local state only: the
 * key and labels in SecretStorage, the added accounts and the remembered names in globalState. The accounts are built
 * on first use (dist/core.js); once they are (connect), the menu shows them and hears of every change.
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

  /** The accounts, once built (until then none was read this session, and none was added or removed). */
  private services: MenuServices | undefined;

  constructor(
    private readonly credentials: Credentials,
    private readonly state: vscode.Memento,
    private readonly log: Logger,
    /** Builds the services (they then connect here): for the menu's Sign Out of an added account before they were. */
    private readonly load: () => void = () => undefined,
  ) {
    super();
    // Until the accounts are built, the menu follows the key and the settings' server itself.
    this._register(credentials.onDidChange(() => (this.services ? undefined : this.updateSoon())));
    this._register({ dispose: () => clearTimeout(this.updateTimer) });
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!this.services && config.affects(e, 'documents.baseUrl')) this.updateSoon();
      }),
    );
    // What the menu shows from the start (local: SecretStorage and globalState), the base the later changes are told against.
    void this.update();
  }

  /** The accounts, built after activation: from then on the menu shows them, and hears of every change. */
  connect(services: MenuServices): void {
    if (this.services) return;
    this.services = services;
    this._register(services.onDidChange(() => this.updateSoon()));
    this._register(services.onDidRename(() => this.updateSoon()));
    void this.update();
  }

  /**
   * Every account signed in: its label, its name in the menu and its server addresses. Local, no network (the MCP
   * servers VS Code's agents are offered, src/mcp/register.ts, are these too).
   */
  async list(): Promise<MenuAccount[]> {
    if (this.services) {
      // Built just now (the first use of the window), the account of the key is made a moment later: until then the
      // services list none, and the menu would drop the signed-in account and add it back.
      await this.services.settled();
      return this.services.all().map((a) => ({ ...a.spec, name: a.displayName }));
    }
    const out: MenuAccount[] = [];
    const url = config.documentsBaseUrl();
    const label = await this.credentials.accountLabel(url);
    const added = parseRecords(this.state.get(STATE.accounts));
    // The server and key of an added account (the settings changed to them): that account's session is the one.
    if (label && !added.some((a) => a.label === label)) {
      const host = hostOf(url);
      out.push({ label, name: displayLabel(host, rememberedName(this.remembered(), label, host)), documentsUrl: url, projectsUrl: config.projectsBaseUrl() });
    }
    for (const r of added) out.push({ ...r, name: displayLabel(hostOf(r.documentsUrl), r.name) });
    return out;
  }

  /** The sessions of every account signed in. Local, no network. */
  async accounts(): Promise<vscode.AuthenticationSession[]> {
    return (await this.list()).map(sessionOf);
  }

  async getSessions(scopes?: readonly string[], options?: SessionOptions): Promise<vscode.AuthenticationSession[]> {
    // These sessions have no scopes: a request for some is not for them.
    if (scopes?.length) return [];
    const all = await this.accounts();
    return options?.account ? all.filter((s) => s.account.id === options.account!.id) : all;
  }

  createSession(): Promise<vscode.AuthenticationSession> {
    return Promise.reject(
      new Error(vscode.l10n.t('Content Docs signs in with its own command: run "Content Docs: Set API Key…" from the Command Palette or the Content Docs view.')),
    );
  }

  /** The menu's Sign Out: the account is removed as "Content Docs: Remove Account…" does it (VS Code asked the user first). */
  async removeSession(sessionId: string): Promise<void> {
    // Changes not told yet (the account signed out may be one of them) are told first: the removal is then told
    // against what the menu shows, and no entry of it stays behind.
    if (this.updateTimer) {
      clearTimeout(this.updateTimer);
      this.updateTimer = undefined;
      await this.update();
    }
    if (!this.services) this.load();
    // Built just now, the account of the settings is made a moment later: the Sign Out waits for it.
    await this.services?.settled();
    const account = this.services?.all().find((a) => a.label === sessionId);
    if (account) {
      await this.services?.remove(account);
      this.log.info(`[auth] ${account.origin === 'settings' ? 'signed out' : 'removed an added account'} from the Accounts menu`);
    }
    await this.update();
  }

  /**
   * Tells the menu of the accounts' changes a moment later, in one go: an account signed in and named an instant later
   * (its usage read by the key check) is one session added, not one added and renamed — VS Code's menu adds an account
   * only after an await, and a rename (a removal and an addition of the same id) told meanwhile left it two entries
   * of one account, one of which its Sign Out never removed.
   */
  private updateSoon(): void {
    if (this.updateTimer) clearTimeout(this.updateTimer);
    this.updateTimer = setTimeout(() => {
      this.updateTimer = undefined;
      void this.update();
    }, UPDATE_DELAY_MS);
  }

  private updateTimer: ReturnType<typeof setTimeout> | undefined;

  private remembered(): RememberedName[] {
    return parseRemembered(this.state.get(STATE.accountNames));
  }

  /**
   * Tells the menu what changed since it was last told. A session whose label changed is told as removed and added
   * again: the menu finds an account to update by its label and removes one by its id, so "changed" would list it twice.
   */
  private update(): Promise<void> {
    const run = this.queue.then(async () => {
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
