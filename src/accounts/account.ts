import type { ContentDocument } from '../api/index';
import { displayLabel, hostOf } from './accountNames';
import type { AccountService } from '../usage/accountService';
import type { ApiProvider } from './apiProvider';
import type { DocumentService } from '../documents/documentService';
import type { ProjectService } from '../projects/projectService';
import { Disposable } from '../util/disposable';
import type { AccountRecord } from './records';

/** What an account owns: its API client and the services that read and change its documents, usage and projects. */
export interface AccountParts {
  readonly api: ApiProvider;
  readonly documents: DocumentService;
  readonly usage: AccountService;
  readonly projects: ProjectService;
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

  constructor(
    parts: AccountParts,
    /** Whether this is the account of "Set API Key…" and the user settings. */
    readonly primary: boolean,
    private readonly where: { documentsUrl(): string; name(): string | undefined },
    /** Whether disposing the account disposes its parts (the first account's are the extension's own). */
    owned: boolean,
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
