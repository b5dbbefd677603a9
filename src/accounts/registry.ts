import vscode = require('vscode');
import type { ContentDocument, Exchange } from '../api/index';
import type { Credentials } from './credentials';
import { SECRET_ACCOUNT_KEY_PREFIX, STATE } from '../constants';
import { Emitter } from '../model/emitter';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { Account, type AccountParts, type AccountSpec } from './account';
import { hostOf, parseRemembered, remember, rememberedName } from './accountNames';
import { MAX_ACCOUNTS, parseRecords, type AccountRecord } from './records';

/** An HTTP exchange and the account it was made for. */
export interface AccountExchange {
  readonly account: Account;
  readonly exchange: Exchange;
}

/**
 * How long a use waits at most for the accounts being made (see AccountRegistry.settled): their key and label are read
 * from SecretStorage, which may not answer (a locked keyring), and no command, view or link waits for it forever.
 */
export const ACCOUNTS_WAIT_MS = 5_000;

/** The view state keys kept per account (under `<key>.<label>`). */
const VIEW_STATE = [STATE.documentsView, STATE.projectsView] as const;

/**
 * Every account the user signed in to, each an immutable {@link Account} built by the same code: the account of
 * "Set API Key…" and the user settings' server addresses (origin `settings`), and those added with "Add Account…"
 * (origin `added`: addresses in globalState, each key in SecretStorage under its label). A change of the settings'
 * key or server — in this window, another window (SecretStorage is shared) or by Settings Sync — disposes that account
 * and builds another; so does entering or removing an added account's key. There is no "current account": an action
 * works in the account its user chose, which it holds. Building an account costs no request and loads nothing.
 */
export class AccountRegistry extends Disposable {
  /** The account of "Set API Key…" and the user settings, while one is signed in. */
  #settings: Account | undefined;
  readonly #added = new Map<string, Account>();
  /** The labels of the records as this window last read or wrote them (see readRecords). */
  #recorded = new Set<string>();
  /** The key each added account was built with or has read (undefined: none yet). */
  readonly #keyOf = new WeakMap<Account, () => string | undefined>();
  /** Changes of the settings' account are worked out one at a time, in the order they came. */
  #queue: Promise<void> = Promise.resolve();
  readonly #_onDidChange = this._register(new Emitter<void>());
  /** An account was added, removed, signed in or out, or made anew (another key or server). */
  readonly onDidChange = this.#_onDidChange.event;
  readonly #_onDidRename = this._register(new Emitter<Account>());
  /** An account's user's name was learned (the Accounts menu and the account's root in the views name it so). */
  readonly onDidRename = this.#_onDidRename.event;
  readonly #_onDidExchange = this._register(new Emitter<AccountExchange>());
  /** Every HTTP exchange of every account (the status bar, the tests and the bench hear them). */
  readonly onDidExchange = this.#_onDidExchange.event;

  constructor(
    private readonly credentials: Credentials,
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly log: Logger,
    private readonly parts: AccountParts,
  ) {
    super();
    for (const record of parseRecords(state.get(STATE.accounts))) this.#added.set(record.label, this.#buildAdded(record));
    this.#recorded = new Set(this.#added.keys());
    this._register({
      dispose: () => {
        this.#settings?.dispose();
        this.#added.forEach((a) => a.dispose());
      },
    });
    // The settings' key (Set API Key… or Sign Out, here or in another window) or server changed: another account, or none.
    this._register(credentials.onDidChange(() => void this.#refreshSettings()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'documents.baseUrl') || config.affects(e, 'projects.baseUrl')) void this.#refreshSettings();
      }),
    );
    // An added account's key entered or deleted in another window: that account anew (or without its key).
    this._register(
      secrets.onDidChange((e) => {
        if (!e.key.startsWith(SECRET_ACCOUNT_KEY_PREFIX)) return;
        const account = this.#added.get(e.key.slice(SECRET_ACCOUNT_KEY_PREFIX.length));
        if (account) void this.#addedKeyChanged(account);
        else this.readRecords();
      }),
    );
    // Another window of this machine, or Settings Sync from another machine, may have added or removed accounts: the
    // records are read again when the window gains the focus (globalState has no change event).
    this._register(
      vscode.window.onDidChangeWindowState((e) => {
        if (e.focused) this.readRecords();
      }),
    );
    void this.#refreshSettings();
  }

  /**
   * Every account signed in: the settings' account first, then the added ones in the order they were added. One
   * account per label: the settings naming the server and key of an added account make no second account of it.
   */
  all(): Account[] {
    const settings = this.#settings;
    return settings && !this.#added.has(settings.label) ? [settings, ...this.#added.values()] : [...this.#added.values()];
  }

  /** The accounts added with "Add Account…", in the order they were added. */
  added(): Account[] {
    return [...this.#added.values()];
  }

  /** Whether more than one account is signed in (the views then show a root per account). */
  get several(): boolean {
    return this.all().length > 1;
  }

  /** Whether `account` is one of the accounts signed in now (false once it is gone). */
  isLive(account: Account): boolean {
    return !account.gone && this.all().includes(account);
  }

  /** The account a label names now (a URI's account), if one is signed in. */
  byLabel(label: string | undefined): Account | undefined {
    if (label === undefined) return undefined;
    return this.all().find((a) => a.label === label);
  }

  /** The account whose services read the document object (undefined: made up elsewhere, or its account is gone). */
  forDocument(doc: ContentDocument): Account | undefined {
    return this.all().find((a) => a.owns(doc));
  }

  /**
   * Resolves once the changes heard so far (a key set, a server setting) have made their accounts, or after
   * {@link ACCOUNTS_WAIT_MS} if they have not (SecretStorage not answering): the accounts made by then are the ones.
   */
  settled(): Promise<void> {
    const queue = this.#queue;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.log.warn(`[accounts] the accounts of the key and settings are not made after ${ACCOUNTS_WAIT_MS / 1000} s (SecretStorage has not answered): going on without them`);
        resolve();
      }, ACCOUNTS_WAIT_MS);
    });
    return Promise.race([queue, late]).finally(() => clearTimeout(timer));
  }

  /**
   * The label a documents server and key have (the same pair again is the same label; see Credentials.accountLabel).
   * `mint: false` only looks (undefined for a pair never used).
   */
  labelFor(documentsUrl: string, key: string, options?: { mint?: boolean }): Promise<string | undefined> {
    return this.credentials.accountLabel(documentsUrl, key, options);
  }

  /**
   * Adds an account whose key was checked: its key goes to SecretStorage, its addresses to globalState. Refused when
   * it is an account already there (the same server and key).
   */
  async add(record: Omit<AccountRecord, 'label'>, key: string): Promise<Account> {
    const label = await this.labelFor(record.documentsUrl, key);
    if (!label) throw new Error(vscode.l10n.t("Couldn't make a label for the account."));
    const existing = this.byLabel(label);
    if (existing) throw new Error(vscode.l10n.t('This account is already signed in ({0}).', existing.displayName));
    if (this.#added.size >= MAX_ACCOUNTS) throw new Error(vscode.l10n.t('At most {0} accounts can be added: remove one first.', MAX_ACCOUNTS));
    this.log.setSecret(key, label);
    await this.secrets.store(SECRET_ACCOUNT_KEY_PREFIX + label, key);
    const account = this.#buildAdded({ label, ...record }, key);
    this.#added.set(label, account);
    await this.#persist({ add: { label, ...record } });
    this.log.info(`[accounts] added ${label}`);
    this.#_onDidChange.fire();
    return account;
  }

  /**
   * Removes an account, whichever its origin, after the caller asked: it is disposed (everything it owns, and nothing
   * more is sent for it), its view state goes, and its key is deleted — the key of "Set API Key…" (a sign-out) or the
   * added account's own, with its record. Nothing is deleted on the server.
   */
  async remove(account: Account): Promise<void> {
    if (account.origin === 'settings') {
      if (this.#settings !== account) return;
      this.#settings = undefined;
      account.dispose();
      this.#_onDidChange.fire();
      await this.#forgetViewState(account.label);
      await this.credentials.clearKey();
      await this.settled();
      this.log.info(`[accounts] signed out of ${account.label}`);
      return;
    }
    if (this.#added.get(account.label) !== account) return;
    this.#added.delete(account.label);
    account.dispose();
    this.log.setSecret(undefined, account.label);
    await this.#persist({ remove: account.label });
    await this.#forgetViewState(account.label);
    await Promise.resolve(this.secrets.delete(SECRET_ACCOUNT_KEY_PREFIX + account.label)).catch((e: unknown) =>
      this.log.warn(`[accounts] couldn't delete the key of ${account.label}: ${(e as Error)?.message ?? e}`),
    );
    this.log.info(`[accounts] removed ${account.label}`);
    this.#_onDidChange.fire();
    // The settings may name this server and key too: that account shows again, as the settings' own.
    void this.#refreshSettings();
  }

  /**
   * Stores a checked key for an added account whose key is missing on this machine, under that account's label (its
   * record and its URIs keep it); the server and key are given that label from now on. The account is made anew
   * with its key.
   */
  async setKey(account: Account, key: string): Promise<Account> {
    if (account.origin !== 'added') throw new Error(vscode.l10n.t('This account is not one added with "Add Account…".'));
    // The label is what the user chose: made anew meanwhile (its key entered in another window) it is still that account.
    const removed = () => new Error(vscode.l10n.t('The account {0} was removed meanwhile: its key was not stored.', account.displayName));
    // The records as they are now (Settings Sync or another window may have removed it while its key was asked and
    // checked, and this window reads them again only when it gains the focus): no key is stored for an account removed.
    this.readRecords();
    if (!this.#added.get(account.label)) throw removed();
    await this.credentials.accountLabel(account.documentsUrl, key, { as: account.label });
    this.readRecords();
    const live = this.#added.get(account.label);
    if (!live) throw removed();
    this.log.setSecret(key, account.label);
    await this.secrets.store(SECRET_ACCOUNT_KEY_PREFIX + account.label, key);
    this.log.info(`[accounts] key entered for ${account.label}`);
    // Storing the key may have made the account anew already (the secret's change is heard): the one live now is returned.
    const now = this.#added.get(account.label);
    if (!now) throw removed();
    return this.#keyOf.get(now)?.() === key ? now : this.#replaceAdded(now, key);
  }

  /**
   * Follows the records as globalState holds them now. Another window of this machine or Settings Sync (from another
   * machine) changes them: an account added there is built here (an account added on another machine has no key here:
   * its root says so and asks for it, see setKey); an account removed there is removed here too, with its key on this
   * machine and its view state. Only a record this window had read goes: an account this window is adding is not yet
   * recorded. Local, no network.
   */
  readRecords(): void {
    if (this.isDisposed) return;
    const records = parseRecords(this.state.get(STATE.accounts));
    const now = new Set(records.map((r) => r.label));
    let changed = false;
    for (const record of records) {
      if (this.#added.has(record.label)) continue;
      this.#added.set(record.label, this.#buildAdded(record));
      this.log.info(`[accounts] ${record.label} was added in another window or on another machine`);
      changed = true;
    }
    for (const [label, account] of [...this.#added]) {
      if (now.has(label) || !this.#recorded.has(label)) continue;
      this.#added.delete(label);
      account.dispose();
      this.log.setSecret(undefined, label);
      this.log.info(`[accounts] ${label} was removed in another window or on another machine`);
      void this.#forgetViewState(label);
      void Promise.resolve(this.secrets.delete(SECRET_ACCOUNT_KEY_PREFIX + label)).then(undefined, (e: unknown) =>
        this.log.warn(`[accounts] couldn't delete the key of ${label}: ${(e as Error)?.message ?? e}`),
      );
      changed = true;
    }
    this.#recorded = now;
    if (!changed) return;
    this.#_onDidChange.fire();
    // An account removed elsewhere may be the settings' server and key too: that account shows again, as the settings' own.
    void this.#refreshSettings();
  }

  /** An added account's key as stored now differs from the one it was built with: it is made anew with that key. */
  async #addedKeyChanged(account: Account): Promise<void> {
    const now = (await Promise.resolve(this.secrets.get(SECRET_ACCOUNT_KEY_PREFIX + account.label)).catch(() => undefined)) || undefined;
    if (now === this.#keyOf.get(account)?.()) return;
    this.#replaceAdded(account, now);
  }

  #replaceAdded(account: Account, key: string | undefined): Account {
    if (this.#added.get(account.label) !== account) return account;
    const { label, documentsUrl, projectsUrl, name } = account.spec;
    const next = this.#buildAdded({ label, documentsUrl, projectsUrl, ...(name ? { name } : {}) }, key);
    this.#added.set(account.label, next);
    account.dispose();
    this.#_onDidChange.fire();
    return next;
  }

  /** Works out the settings' account again (queued): another key or server disposes it and makes the new one. */
  #refreshSettings(): Promise<void> {
    const run = this.#queue.then(() => this.#settingsAccount());
    this.#queue = run.catch((e: unknown) => this.log.warn(`[accounts] couldn't read the account of the settings: ${(e as Error)?.message ?? e}`));
    return this.#queue;
  }

  async #settingsAccount(): Promise<void> {
    if (this.isDisposed) return;
    const documentsUrl = config.documentsBaseUrl();
    const projectsUrl = config.projectsBaseUrl();
    const key = await this.credentials.getKey();
    const label = key && documentsUrl ? await this.credentials.accountLabel(documentsUrl, key) : undefined;
    const current = this.#settings;
    if (this.isDisposed) return;
    if (current && current.label === label && current.documentsUrl === documentsUrl && current.projectsUrl === projectsUrl) return;
    if (!current && !label) return;
    this.#settings = undefined;
    current?.dispose();
    if (label && key) {
      await this.#migrateViewState(label);
      const name = rememberedName(parseRemembered(this.state.get(STATE.accountNames)), label, hostOf(documentsUrl));
      this.#settings = this.#build({ label, documentsUrl, projectsUrl, origin: 'settings', ...(name ? { name } : {}) }, () => Promise.resolve(key));
      this.log.info(`[accounts] the account of the settings is ${label}`);
    } else {
      this.log.info('[accounts] no account in the settings (signed out, or no server address)');
    }
    this.#_onDidChange.fire();
  }

  /** An added account, with its key when it is known (just stored), else read from SecretStorage on first use. */
  #buildAdded(record: AccountRecord, known?: string): Account {
    let seen = known;
    let read: Promise<string | undefined> | undefined = known !== undefined ? Promise.resolve(known) : undefined;
    if (known !== undefined) this.log.setSecret(known, record.label);
    // A key read is kept; a missing one is looked for again next time (it may be entered, see setKey).
    const getKey = () =>
      (read ??= Promise.resolve(this.secrets.get(SECRET_ACCOUNT_KEY_PREFIX + record.label)).then(
        (k) => {
          this.log.setSecret(k, record.label);
          if (!k) read = undefined;
          else seen = k;
          return k || undefined;
        },
        () => {
          read = undefined;
          return undefined;
        },
      ));
    const account = this.#build({ ...record, origin: 'added' }, getKey);
    this.#keyOf.set(account, () => seen);
    return account;
  }

  /** Every account is built here, whatever its origin. */
  #build(spec: AccountSpec, getKey: () => Promise<string | undefined>): Account {
    const account = new Account(spec, getKey, { ...this.parts, namedAlike: (a) => this.all().some((o) => o.label !== a.label && o.baseName === a.baseName) });
    account.api.onDidExchange((exchange) => this.#_onDidExchange.fire({ account, exchange }));
    // The user's name, as the account is read for another reason: remembered for the next session (the Accounts
    // menu and the views name the account with it before it is read again), and kept in an added account's record.
    // A name learned anew renames the account where it is shown (the Accounts menu, its root in the views).
    let named = account.spec.name;
    account.usage.onDidChange((info) => {
      const name = info?.name?.trim();
      if (!name || account.gone) return;
      void this.#learnName(account, name);
      if (name === named) return;
      named = name;
      this.#_onDidRename.fire(account);
    });
    return account;
  }

  async #learnName(account: Account, name: string): Promise<void> {
    const next = remember(parseRemembered(this.state.get(STATE.accountNames)), { label: account.label, name, host: hostOf(account.documentsUrl) });
    if (next) await this.state.update(STATE.accountNames, next);
    if (account.origin === 'added' && this.#added.get(account.label) === account && account.spec.name !== name) await this.#persist({ rename: { label: account.label, name } });
  }

  /**
   * Writes one change to the records as globalState keeps them now: every window of the machine shares them, and
   * another window may have added or removed an account since this one read them (its accounts are kept as they are).
   */
  #persist(change: { add?: AccountRecord; remove?: string; rename?: { label: string; name: string } }): Thenable<void> {
    let records = parseRecords(this.state.get(STATE.accounts));
    const { add, remove, rename } = change;
    if (remove !== undefined) records = records.filter((r) => r.label !== remove);
    if (add) records = [...records.filter((r) => r.label !== add.label), add];
    if (rename) records = records.map((r) => (r.label === rename.label ? { ...r, name: rename.name } : r));
    if (add) this.#recorded.add(add.label);
    if (remove !== undefined) this.#recorded.delete(remove);
    return this.state.update(STATE.accounts, records);
  }

  /**
   * Each account keeps its view state (its choices, the template names its server taught) under its label. Earlier
   * versions kept the settings' account's under the plain keys: the first account of the settings built after the
   * update takes them.
   */
  async #migrateViewState(label: string): Promise<void> {
    for (const key of VIEW_STATE) {
      const old = this.state.get(key);
      if (old === undefined) continue;
      if (this.state.get(`${key}.${label}`) === undefined) await this.state.update(`${key}.${label}`, old);
      await this.state.update(key, undefined);
    }
  }

  async #forgetViewState(label: string): Promise<void> {
    await Promise.all(VIEW_STATE.map((k) => this.state.update(`${k}.${label}`, undefined)));
  }
}
