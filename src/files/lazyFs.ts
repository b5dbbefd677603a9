import vscode = require('vscode');
import type { Account } from '../accounts/account';
import { STATE } from '../constants';
import type { ContentDocument } from '../api/index';
import type { Event } from '../model/emitter';
import type { Prompter } from '../ui/prompter';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { ActiveFavoriteContext } from './activeFavoriteContext';
import type { DocumentFileSystem } from './documentFs';
import type { PathStore } from './pathMemory';
import type { SaveEvent } from './saveWindow';
import { accountOfUri, documentIdFromUri, isAccountUri } from './uris';

type FsModule = typeof import('./documentFs');

/** The accounts signed in, as the file system finds them: by the label a URI carries. */
export interface FsAccounts {
  byLabel(label: string | undefined): Account | undefined;
  /** The account whose services read the document object (undefined: none of those signed in). */
  forDocument(doc: ContentDocument): Account | undefined;
  readonly onDidChange: Event<void>;
  /**
   * Resolves once the accounts of the key, the settings and the added accounts heard so far are made: in a window just
   * opened they are made after the first call of a restored tab or folder reaches the file system.
   */
  settled(): Promise<void>;
}

/** A document as the commands act on it: its id in the account it belongs to (the account chosen, which it carries). */
export interface DocumentTarget {
  readonly account: Account;
  readonly id: number;
}

/**
 * The `content-docs:` file system as registered at activation. Every URI names its account (see uris.ts); each label
 * has its own file system (its records, listing and versions), which serves that label's documents while an account
 * is signed in under it and refuses everything, sending nothing, while none is (signed out, removed, or its key or
 * server changed). Each real file system (dist/fs.js: versions, conflict checks, the account listing) is loaded and
 * built on its first call, when a document of its account is first opened.
 */
export class LazyDocumentFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this._onDidChangeFile.event;
  private readonly _onDidSaveState = this._register(new vscode.EventEmitter<SaveEvent>());
  /** Each save of a document's text, in any account (the status bar's "Saving…" / "Saved"). */
  readonly onDidSaveState = this._onDidSaveState.event;
  /** The file systems, per label a URI carried ('' for URIs that name no account: those are refused). */
  private readonly byLabel = new Map<string, DocumentFileSystem>();
  private readonly favorite: ActiveFavoriteContext;

  constructor(
    private readonly accounts: FsAccounts,
    private readonly log: Logger,
    private readonly prompter: Prompter,
    /** The window's state (workspaceState): each label's file system keeps there the paths it handed to editors. */
    private readonly windowState: vscode.Memento,
    // The file system is a bundle of its own, loaded when a document is first opened: a runtime require on purpose.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    private readonly load: () => FsModule = () => require('./fs.js') as FsModule,
  ) {
    super();
    this.favorite = this._register(new ActiveFavoriteContext((uri) => this.documentOf(uri)));
    const watch = () => this.byLabel.forEach((_, label) => this.watchFavorites(label));
    this._register(accounts.onDidChange(watch));
    this._register({ dispose: () => this.byLabel.forEach((fs) => fs.dispose()) });
  }

  private watchFavorites(label: string): void {
    const account = this.accounts.byLabel(label);
    if (account) this.favorite.watch(account.documents);
  }

  /** The file system of a label, built on first use. */
  private fsOf(label: string): DocumentFileSystem {
    const known = this.byLabel.get(label);
    if (known) return known;
    const t0 = Date.now();
    const fs = new (this.load().DocumentFileSystem)(
      label,
      () => (label ? this.accounts.byLabel(label) : undefined),
      this.accounts.onDidChange,
      this.log,
      this.prompter,
      this.pathStore(label),
      () => this.accounts.settled(),
    );
    this._register(fs.onDidChangeFile((e) => this._onDidChangeFile.fire(e)));
    this._register(fs.onDidSaveState((e) => this._onDidSaveState.fire(e)));
    this.byLabel.set(label, fs);
    this.watchFavorites(label);
    this.log.debug(`[fs] file system ready in ${Date.now() - t0} ms`);
    return fs;
  }

  /** The paths a label's file system handed to editors, kept in the window's state under the label (ids and paths only). */
  private pathStore(label: string): PathStore {
    const key = `${STATE.accountFolderPaths}.${label}`;
    return {
      read: () => this.windowState.get<unknown>(key),
      write: (entries) => {
        Promise.resolve(this.windowState.update(key, entries)).catch((e: unknown) =>
          this.log.warn(`[fs] couldn't keep the account folder's paths for a restart: ${(e as Error)?.message ?? e}`),
        );
      },
    };
  }

  /** The file system of the account a URI names (a URI that names none is refused by the one for '' as it asks). */
  private fsFor(uri: vscode.Uri): DocumentFileSystem {
    return this.fsOf(accountOfUri(uri) ?? '');
  }

  /**
   * The document a `content-docs:` URI stands for, and the account it belongs to, without any request; undefined for a
   * URI of an account that is not signed in (or that names none).
   */
  documentOf(uri: vscode.Uri): DocumentTarget | undefined {
    const label = accountOfUri(uri);
    const account = this.accounts.byLabel(label);
    if (!account || label === undefined) return undefined;
    // Before the file system of the label is built, only single-document URIs resolve (no listing yet).
    const fs = this.byLabel.get(label);
    const id = fs ? fs.documentIdOf(uri) : isAccountUri(uri) ? undefined : documentIdFromUri(uri);
    return id === undefined ? undefined : { account, id };
  }

  /** The id of the document a URI stands for, in its account (see {@link documentOf}). */
  documentIdOf(uri: vscode.Uri): number | undefined {
    return this.documentOf(uri)?.id;
  }

  /** The URIs of a document of an account that its file system knows (none before that file system is built). */
  urisOf(label: string, id: number): vscode.Uri[] {
    return this.byLabel.get(label)?.urisOf(id) ?? [];
  }

  /** Records a document read elsewhere in the file system of the account that read it. */
  remember(doc: ContentDocument): void {
    const account = this.accounts.forDocument(doc);
    if (account) this.fsOf(account.label).remember(doc);
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
