import vscode = require('vscode');
import type { ContentDocument } from '../api/index';
import type { Credentials } from './credentials';
import { SECRET_ACCOUNT_KEY_PREFIX, STATE } from '../constants';
import { Emitter } from '../model/emitter';
import { AccountService } from '../usage/accountService';
import { ApiProvider } from './apiProvider';
import { DocumentService } from '../documents/documentService';
import { ProjectService } from '../projects/projectService';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { Account, type AccountModelsOf } from './account';
import { MAX_ACCOUNTS, parseRecords, type AccountRecord } from './records';

/** An account added with "Add Account…" never hears of a sign-in change: removing it is its end. */
const NEVER = { onDidChange: (): vscode.Disposable => new vscode.Disposable(() => undefined) };

/**
 * Every account the user signed in to: the first (the key of "Set API Key…" and the user settings) and those added
 * with "Add Account…" (addresses in globalState, each key in SecretStorage under its label). Building an account costs
 * no request and loads nothing: its client is made on its first request.
 */
export class AccountRegistry extends Disposable {
  readonly #added = new Map<string, Account>();
  readonly #_onDidChange = this._register(new Emitter<void>());
  /** An account was added or removed. */
  readonly onDidChange = this.#_onDidChange.event;

  constructor(
    readonly primary: Account,
    private readonly credentials: Credentials,
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly log: Logger,
    /** How each added account's models are built (see Account). */
    private readonly modelsOf: AccountModelsOf,
    private readonly onFirstWait?: () => void,
    /** Loads the HTTP client's bundle (dist/api.js) for the added accounts' API providers (see ApiProvider). */
    private readonly loadApi?: () => typeof import('../api/index'),
  ) {
    super();
    for (const record of parseRecords(state.get(STATE.accounts))) this.#added.set(record.label, this.#build(record));
    this._register({ dispose: () => this.#added.forEach((a) => a.dispose()) });
  }

  /** The accounts added with "Add Account…", in the order they were added. */
  added(): Account[] {
    return [...this.#added.values()];
  }

  /**
   * Every account to show: the first while it is signed in, then the added ones. The first is left out while its
   * server and key are those of an added account (its settings changed to them): one account, shown once, as the
   * added one its addresses name (byLabel finds that one too).
   */
  shown(): Account[] {
    if (this.#added.size > 0 && this.primary.label !== undefined && this.#added.has(this.primary.label)) return this.added();
    const first = this.primary.label !== undefined || this.credentials.signedIn || this.#added.size === 0;
    return first ? [this.primary, ...this.#added.values()] : this.added();
  }

  /** Whether more than one account is to be shown (the views then show a root per account). */
  get several(): boolean {
    return this.shown().length > 1;
  }

  /** The account a label names now (a URI's account), if any. */
  byLabel(label: string | undefined): Account | undefined {
    if (label === undefined) return undefined;
    return this.#added.get(label) ?? (this.primary.label === label ? this.primary : undefined);
  }

  /** The account whose services read the document object (undefined: made up elsewhere). */
  forDocument(doc: ContentDocument): Account | undefined {
    if (this.primary.owns(doc)) return this.primary;
    return this.added().find((a) => a.owns(doc));
  }

  /** The documents service of an added account (see LazyDocumentFileSystem). */
  documentsOf(label: string): DocumentService | undefined {
    return this.#added.get(label)?.documents;
  }

  /** The label of the added account whose services read the document object. */
  addedLabelOf(doc: ContentDocument): string | undefined {
    return this.added().find((a) => a.owns(doc))?.record?.label;
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
    if (!label) throw new Error("Couldn't make a label for the account.");
    if (this.byLabel(label)) throw new Error(`This account is already signed in (${this.byLabel(label)!.displayName}).`);
    if (this.#added.size >= MAX_ACCOUNTS) throw new Error(`At most ${MAX_ACCOUNTS} accounts can be added: remove one first.`);
    this.log.setSecret(key, label);
    await this.secrets.store(SECRET_ACCOUNT_KEY_PREFIX + label, key);
    const full: AccountRecord = { label, ...record };
    const account = this.#build(full);
    this.#added.set(label, account);
    await this.#persist();
    this.log.info(`[accounts] added ${label}`);
    this.#_onDidChange.fire();
    return account;
  }

  /** Removes an added account: its key is deleted, and everything it owns is disposed. */
  async remove(label: string): Promise<void> {
    const account = this.#added.get(label);
    if (!account) return;
    this.#added.delete(label);
    account.dispose();
    this.log.setSecret(undefined, label);
    await this.#persist();
    // Its views' state (kept under its label) goes with it.
    await Promise.all([STATE.documentsView, STATE.projectsView].map((k) => this.state.update(`${k}.${label}`, undefined)));
    await Promise.resolve(this.secrets.delete(SECRET_ACCOUNT_KEY_PREFIX + label)).catch((e: unknown) =>
      this.log.warn(`[accounts] couldn't delete the key of ${label}: ${(e as Error)?.message ?? e}`),
    );
    this.log.info(`[accounts] removed ${label}`);
    this.#_onDidChange.fire();
  }

  /**
   * Whether an added account's key is in SecretStorage (false: its record came without it, e.g. globalState synced
   * from another machine, whose SecretStorage is not). The first account's key is Set API Key…'s (true here).
   */
  async hasKey(account: Account): Promise<boolean> {
    if (account.primary || !account.record) return true;
    return Boolean(await Promise.resolve(this.secrets.get(SECRET_ACCOUNT_KEY_PREFIX + account.record.label)).catch(() => undefined));
  }

  /**
   * Stores a checked key for an added account whose key is missing, under that account's label (its record and its
   * URIs keep it); the server and key are given that label from now on. The views hear of it.
   */
  async setKey(account: Account, key: string): Promise<void> {
    const record = account.record;
    if (!record || this.#added.get(record.label) !== account) throw new Error('This account is not one added with "Add Account…".');
    await this.credentials.accountLabel(record.documentsUrl, key, { as: record.label });
    this.log.setSecret(key, record.label);
    await this.secrets.store(SECRET_ACCOUNT_KEY_PREFIX + record.label, key);
    this.log.info(`[accounts] key entered for ${record.label}`);
    this.#_onDidChange.fire();
  }

  #records(): AccountRecord[] {
    return [...this.#added.values()].map((a) => a.record!);
  }

  #persist(): Thenable<void> {
    return this.state.update(STATE.accounts, this.#records());
  }

  #build(record: AccountRecord): Account {
    let key: Promise<string | undefined> | undefined;
    // A key read is kept; a missing one is looked for again next time (it may be entered, see setKey).
    const getKey = () =>
      (key ??= Promise.resolve(this.secrets.get(SECRET_ACCOUNT_KEY_PREFIX + record.label)).then(
        (k) => {
          this.log.setSecret(k, record.label);
          if (!k) key = undefined;
          return k || undefined;
        },
        () => {
          key = undefined;
          return undefined;
        },
      ));
    const api = new ApiProvider(
      { documentsUrl: () => record.documentsUrl, projectsUrl: () => record.projectsUrl, getKey, fromSettings: false },
      this.log,
      this.onFirstWait,
      this.loadApi,
    );
    const documents = new DocumentService(api, NEVER, () => Promise.resolve(record.label));
    const usage = new AccountService(api, NEVER, documents, this.log);
    return new Account({ api, documents, usage, projects: new ProjectService(api) }, false, { documentsUrl: () => record.documentsUrl, name: () => record.name }, true, this.modelsOf, record);
  }
}
