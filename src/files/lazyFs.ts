import vscode = require('vscode');
import type { ContentDocument } from '../api/index';
import { SCHEME } from '../constants';
import type { Event } from '../model/emitter';
import type { DocumentService } from '../documents/documentService';
import type { Prompter } from '../ui/prompter';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { ActiveFavoriteContext } from './activeFavoriteContext';
import type { DocumentFileSystem } from './documentFs';
import type { SaveEvent } from './saveWindow';
import { accountOfUri, documentIdFromUri } from './uris';

type FsModule = typeof import('./documentFs');

/** The accounts added with "Add Account…", as the file system finds them: by the label a URI carries. */
export interface AddedAccounts {
  documentsOf(label: string): DocumentService | undefined;
  /** The label of the added account whose services read the document object (undefined: none of them). */
  addedLabelOf(doc: ContentDocument): string | undefined;
  readonly onDidChange: Event<void>;
}

/** A document as the commands act on it: its id in the account whose services it goes through. */
export interface DocumentTarget {
  readonly documents: DocumentService;
  readonly id: number;
}

/**
 * The `content-docs:` file system as registered at activation. Every URI names its account (see uris.ts): a URI of an
 * account added with "Add Account…" goes to that account's own file system (its own records, listing and versions);
 * any other goes to the first account's, which serves the label it has now and refuses any other. Each real file
 * system (dist/fs.js: versions, conflict checks, the account listing) is loaded and built on its first call, when a
 * document of its account is first opened.
 */
export class LazyDocumentFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this._onDidChangeFile.event;
  private readonly _onDidSaveState = this._register(new vscode.EventEmitter<SaveEvent>());
  /** Each save of a document's text, in any account (the status bar's "Saving…" / "Saved"). */
  readonly onDidSaveState = this._onDidSaveState.event;
  private impl: DocumentFileSystem | undefined;
  /** The file systems of added accounts, by label (built on first use, disposed with their account). */
  private readonly added = new Map<string, { documents: DocumentService; fs: DocumentFileSystem }>();
  private favorite: ActiveFavoriteContext | undefined;

  constructor(
    private readonly documents: DocumentService,
    private readonly log: Logger,
    private readonly prompter: Prompter,
    // The file system is a bundle of its own, loaded when a document is first opened: a runtime require on purpose.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    private readonly load: () => FsModule = () => require('./fs.js') as FsModule,
    private readonly accounts?: AddedAccounts,
  ) {
    super();
    if (accounts) this._register(accounts.onDidChange(() => this.prune()));
    this._register({ dispose: () => this.added.forEach((a) => a.fs.dispose()) });
  }

  /** The first account's file system, built on first use. */
  get real(): DocumentFileSystem {
    if (!this.impl) this.impl = this.build(this.documents);
    return this.impl;
  }

  private build(documents: DocumentService): DocumentFileSystem {
    const t0 = Date.now();
    const impl = new (this.load().DocumentFileSystem)(documents, this.log, this.prompter);
    const sub = impl.onDidChangeFile((e) => this._onDidChangeFile.fire(e));
    const saves = impl.onDidSaveState((e) => this._onDidSaveState.fire(e));
    this._register({
      dispose: () => {
        sub.dispose();
        saves.dispose();
      },
    });
    if (documents === this.documents) this._register(impl);
    this.favorite ??= this._register(new ActiveFavoriteContext((uri) => this.documentOf(uri)));
    this.favorite.watch(documents);
    this.log.debug(`[fs] file system ready in ${Date.now() - t0} ms`);
    return impl;
  }

  /** The file system of the account a URI names: an added account's, else the first account's. */
  private fsFor(uri: vscode.Uri): DocumentFileSystem {
    const label = accountOfUri(uri);
    const documents = label !== undefined ? this.accounts?.documentsOf(label) : undefined;
    if (!documents || label === undefined) return this.real;
    const known = this.added.get(label);
    if (known?.documents === documents) return known.fs;
    known?.fs.dispose();
    const fs = this.build(documents);
    this.added.set(label, { documents, fs });
    return fs;
  }

  /** Drops the file systems of accounts that were removed (their editors' URIs are then refused as the first account's). */
  private prune(): void {
    for (const [label, a] of this.added) {
      if (this.accounts?.documentsOf(label) === a.documents) continue;
      a.fs.dispose();
      this.added.delete(label);
    }
  }

  /**
   * The document a `content-docs:` URI stands for, and the services of its account, without any request (see
   * DocumentFileSystem.documentIdOf); undefined for a URI of an account that is not signed in.
   */
  documentOf(uri: vscode.Uri): DocumentTarget | undefined {
    const label = accountOfUri(uri);
    const added = label !== undefined ? this.accounts?.documentsOf(label) : undefined;
    if (added) {
      const id = this.fsFor(uri).documentIdOf(uri);
      return id === undefined ? undefined : { documents: added, id };
    }
    const id = this.documentIdOf(uri);
    return id === undefined ? undefined : { documents: this.documents, id };
  }

  /** The first account's document a `content-docs:` URI stands for, without any request (see DocumentFileSystem.documentIdOf). */
  documentIdOf(uri: vscode.Uri): number | undefined {
    // Before the first use no account listing exists, so only single-document URIs of the account used now resolve.
    if (this.impl) return this.impl.documentIdOf(uri);
    const account = this.documents.accountLabel;
    return account !== undefined && accountOfUri(uri) === account ? documentIdFromUri(uri) : undefined;
  }

  /** Records a document read elsewhere in the file system of the account that read it. */
  remember(doc: ContentDocument): void {
    const label = this.accounts?.addedLabelOf(doc);
    if (label === undefined) return this.real.remember(doc);
    this.fsFor(vscode.Uri.from({ scheme: SCHEME, authority: `${doc.id}.${label}`, path: '/' })).remember(doc);
  }

  reloadIfStale(uri: vscode.Uri, id: number): Promise<void> {
    return this.fsFor(uri).reloadIfStale(uri, id);
  }

  watch(): vscode.Disposable {
    // Changes are pushed for every URI, watched or not (see DocumentFileSystem.watch): nothing to load for this.
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return this.fsFor(uri).stat(uri);
  }
  readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    return this.fsFor(uri).readDirectory(uri);
  }
  createDirectory(uri: vscode.Uri): Promise<void> {
    return this.fsFor(uri).createDirectory(uri);
  }
  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.fsFor(uri).readFile(uri);
  }
  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    return this.fsFor(uri).writeFile(uri, content, options);
  }
  delete(uri: vscode.Uri): Promise<void> {
    return this.fsFor(uri).delete(uri);
  }
  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    // A move between accounts is refused by the file system of the source (the target's label is not its account).
    return this.fsFor(oldUri).rename(oldUri, newUri, options);
  }
}
