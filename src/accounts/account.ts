import type { ContentDocument } from '../api/index';
import { displayLabel, hostOf } from './accountNames';
import type { AccountService } from '../usage/accountService';
import type { ApiProvider } from './apiProvider';
import type { DocumentService } from '../documents/documentService';
import type { ProjectService } from '../projects/projectService';
import { Disposable } from '../util/disposable';
import type { AccountRecord } from './records';
import type { AccountDocumentsModel } from '../documents/modelOfAccount';
import type { AccountProjectsModel } from '../projects/modelOfAccount';

/** What an account owns: its API client and the services that read and change its documents, usage and projects. */
export interface AccountParts {
  readonly api: ApiProvider;
  readonly documents: DocumentService;
  readonly usage: AccountService;
  readonly projects: ProjectService;
}

/**
 * How an account's models are built from its services (core.ts: with its view state and, for the first account, the
 * user settings). Each is built when its view first shows the account, and disposed with the account.
 */
export interface AccountModelsOf {
  documents(account: Account): AccountDocumentsModel;
  projects(account: Account): AccountProjectsModel;
}

/**
 * One installation of the service as the user signed in to it: a local label (what its URIs carry), its server
 * addresses, and the client and services that talk to it. Nothing of one account is ever asked of another's services.
 *
 * The first account is the one of "Set API Key…" and the user settings: its label follows its key and server (a
 * change makes it another account, see DocumentService). An account added with "Add Account…" has a fixed label,
 * addresses and key; removing it disposes everything it owns, so a late answer has nowhere to land.
 */
export class Account extends Disposable implements AccountParts {
  readonly api: ApiProvider;
  readonly documents: DocumentService;
  readonly usage: AccountService;
  readonly projects: ProjectService;
  #documentsModel: AccountDocumentsModel | undefined;
  #projectsModel: AccountProjectsModel | undefined;

  constructor(
    parts: AccountParts,
    /** Whether this is the account of "Set API Key…" and the user settings. */
    readonly primary: boolean,
    private readonly where: { documentsUrl(): string; name(): string | undefined },
    /** Whether disposing the account disposes its parts (the first account's are the extension's own). */
    owned: boolean,
    /** Builds the account's models (what its views show). */
    private readonly modelsOf: AccountModelsOf,
    /** An added account's record (what globalState keeps of it). */
    readonly record?: AccountRecord,
  ) {
    super();
    this.api = parts.api;
    this.documents = parts.documents;
    this.usage = parts.usage;
    this.projects = parts.projects;
    if (owned) {
      this._register(parts.usage);
      this._register(parts.documents);
      this._register(parts.api);
    }
  }

  /**
   * The account's Documents model (its groups, pages, counts and view state), built on first use from its document
   * service. The Documents view shows it; the account owns it: removing the account disposes it, its view does not.
   */
  get documentsModel(): AccountDocumentsModel {
    this.#checkLive();
    return (this.#documentsModel ??= this._register(this.modelsOf.documents(this)));
  }

  /** The account's Projects model, built on first use from its project service; owned as {@link documentsModel} is. */
  get projectsModel(): AccountProjectsModel {
    this.#checkLive();
    return (this.#projectsModel ??= this._register(this.modelsOf.projects(this)));
  }

  #checkLive(): void {
    if (this.isDisposed) throw new Error('This account was removed from VS Code: it has no documents or projects to show.');
  }

  /** The local label of the account now (undefined: the first account while signed out or before its label is read). */
  get label(): string | undefined {
    return this.documents.accountLabel;
  }

  get documentsUrl(): string {
    return this.where.documentsUrl();
  }

  /** "name @ host" (the host alone while the user's name is not known). */
  get displayName(): string {
    return displayLabel(hostOf(this.documentsUrl), this.usage.cached?.name ?? this.where.name());
  }

  /** Whether this account's services read the document (its object carries the account, see DocumentService.accountOf). */
  owns(doc: ContentDocument): boolean {
    return this.documents.readThis(doc);
  }
}
