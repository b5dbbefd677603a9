import vscode = require('vscode');
import type { ContentDocument } from '../api/index';
import { displayLabel, hostOf } from './accountNames';
import { AccountService } from '../usage/accountService';
import { ApiProvider, type ApiLibrary } from './apiProvider';
import { DocumentService } from '../documents/documentService';
import { ProjectService } from '../projects/projectService';
import { Disposable } from '../util/disposable';
import type { AccountDocumentsModel } from '../documents/modelOfAccount';
import type { AccountProjectsModel } from '../projects/modelOfAccount';

/**
 * Where an account comes from, which decides only where its key is kept and how it is removed: `settings` is the
 * account of "Set API Key…" and the user settings' server addresses (kept for compatibility; its key is the one
 * "Set API Key…" stores, removing it signs out), `added` one added with "Add Account…" (its addresses in globalState,
 * its key in SecretStorage under its label, removing it deletes both). Everything else is the same for both.
 */
export type AccountOrigin = 'settings' | 'added';

/** What an account is: fixed for its life. Another server or key is another account. */
export interface AccountSpec {
  /** The local label of its documents server and key (see Credentials.accountLabel): what its URIs carry. */
  readonly label: string;
  readonly documentsUrl: string;
  readonly projectsUrl: string;
  /** The user's name as last known (shown until the account is read this session). */
  readonly name?: string;
  readonly origin: AccountOrigin;
}

/**
 * How an account's models are built from its services (with its view state and the settings they follow). Each is
 * built when its view first shows the account, and disposed with the account.
 */
export interface AccountModelsOf {
  documents(account: Account): AccountDocumentsModel;
  projects(account: Account): AccountProjectsModel;
}

/** What building an account takes, the same for every account. */
export interface AccountParts {
  /** The HTTP client's bundle, shared by the window's accounts. */
  readonly library: ApiLibrary;
  readonly modelsOf: AccountModelsOf;
  /** Whether another account signed in now has the same name and host (then its label tells them apart). */
  readonly namedAlike?: (account: Account) => boolean;
}

/**
 * One installation of the service as the user signed in to it: a local label (what its URIs carry), its server
 * addresses and its key, and the client and services that talk to it — a value, never changed. A change of key or
 * server, from anywhere (Set API Key… here or in another window, Settings Sync, the settings), disposes the account and
 * makes another; the same server and key again have the same label. A disposed account refuses every request before
 * it leaves ("nothing was sent"), and a late answer has nowhere to land.
 *
 * Every read or change of a document, project or plan usage goes through an account's own services
 * ({@link documents}, {@link usage}, {@link projects}), reached only through the account: an operation names its account
 * by construction, the one its user chose (a row, a URI's label, a pick, a confirmation).
 */
export class Account extends Disposable {
  readonly label: string;
  readonly documentsUrl: string;
  readonly projectsUrl: string;
  readonly origin: AccountOrigin;
  readonly api: ApiProvider;
  readonly documents: DocumentService;
  readonly usage: AccountService;
  readonly projects: ProjectService;
  #documentsModel: AccountDocumentsModel | undefined;
  #projectsModel: AccountProjectsModel | undefined;

  constructor(
    readonly spec: AccountSpec,
    /** The account's key (its SecretStorage entry; undefined: not on this machine). */
    readonly getKey: () => Promise<string | undefined>,
    private readonly parts: AccountParts,
  ) {
    super();
    this.label = spec.label;
    this.documentsUrl = spec.documentsUrl;
    this.projectsUrl = spec.projectsUrl;
    this.origin = spec.origin;
    this.api = this._register(
      new ApiProvider({ documentsUrl: spec.documentsUrl, projectsUrl: spec.projectsUrl, getKey }, parts.library, () => this.goneMessage()),
    );
    this.documents = this._register(new DocumentService(this.api));
    this.usage = this._register(new AccountService(this.api, this.documents, parts.library.log));
    this.projects = new ProjectService(this.api);
  }

  /** Whether the account was disposed: signed out, removed, or its key or server changed (then it is another account). */
  get gone(): boolean {
    return this.isDisposed;
  }

  /** The words of a refusal once the account is gone: nothing was sent. */
  goneMessage(): string {
    return vscode.l10n.t(
      'The account {0} is no longer signed in here (signed out, removed, or its API key or server changed since): nothing was sent.',
      this.displayName,
    );
  }

  /**
   * The account's Documents model (its groups, pages, counts and view state), built on first use from its document
   * service. The Documents view shows it; the account owns it: disposing the account disposes it, its view does not.
   */
  get documentsModel(): AccountDocumentsModel {
    this.#checkLive();
    return (this.#documentsModel ??= this._register(this.parts.modelsOf.documents(this)));
  }

  /** The account's Projects model, built on first use from its project service; owned as {@link documentsModel} is. */
  get projectsModel(): AccountProjectsModel {
    this.#checkLive();
    return (this.#projectsModel ??= this._register(this.parts.modelsOf.projects(this)));
  }

  #checkLive(): void {
    if (this.isDisposed) throw new Error(this.goneMessage());
  }

  /** Whether its key is on this machine (an added account's record may come from another machine, its key not). */
  async hasKey(): Promise<boolean> {
    return Boolean(await this.getKey().catch(() => undefined));
  }

  /**
   * "name @ host" (the host alone while the user's name is not known); with its label after it while another account
   * signed in has the same name and host (two keys of one user on one server), so that no two accounts read alike.
   */
  get displayName(): string {
    return this.parts.namedAlike?.(this) ? `${this.baseName} · ${this.label}` : this.baseName;
  }

  /** "name @ host", or the host alone while the user's name is not known. */
  get baseName(): string {
    return displayLabel(hostOf(this.documentsUrl), this.usage.cached?.name ?? this.spec.name);
  }

  /** Whether this account's services read the document object (see DocumentService.readThis). */
  owns(doc: ContentDocument): boolean {
    return this.documents.readThis(doc);
  }
}
