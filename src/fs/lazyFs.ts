import * as vscode from 'vscode';
import type { ContentDocument } from '../api/index';
import type { DocumentService } from '../services/documentService';
import type { Prompter } from '../ui/prompter';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import type { DocumentFileSystem } from './documentFs';
import { accountOfUri, documentIdFromUri } from './uris';

type FsModule = typeof import('./documentFs');

/**
 * The `content-docs:` file system as registered at activation: the real one (dist/fs.js: versions,
 * conflict checks, the account listing) is loaded and built on the first call, when a document is opened.
 * Until then no editor shows a document, so there is nothing for it to track.
 */
export class LazyDocumentFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this._onDidChangeFile.event;
  private impl: DocumentFileSystem | undefined;

  constructor(
    private readonly documents: DocumentService,
    private readonly log: Logger,
    private readonly prompter: Prompter,
    // The file system is a bundle of its own, loaded when a document is first opened: a runtime require on purpose.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    private readonly load: () => FsModule = () => require('./fs.js') as FsModule,
  ) {
    super();
  }

  /** The real file system, built on first use. */
  get real(): DocumentFileSystem {
    if (!this.impl) {
      const t0 = Date.now();
      const impl = this._register(new (this.load().DocumentFileSystem)(this.documents, this.log));
      impl.setPrompter(this.prompter);
      this._register(impl.onDidChangeFile((e) => this._onDidChangeFile.fire(e)));
      this.impl = impl;
      this.log.debug(`[fs] file system ready in ${Date.now() - t0} ms`);
    }
    return this.impl;
  }

  /** The document a `content-docs:` URI stands for, without any request (see DocumentFileSystem.documentIdOf). */
  documentIdOf(uri: vscode.Uri): number | undefined {
    // Before the first use no account listing exists, so only single-document URIs of the account used now resolve.
    if (this.impl) return this.impl.documentIdOf(uri);
    const account = this.documents.accountLabel;
    return account !== undefined && accountOfUri(uri) === account ? documentIdFromUri(uri) : undefined;
  }

  remember(doc: ContentDocument): void {
    this.real.remember(doc);
  }

  reloadIfStale(uri: vscode.Uri, id: number): Promise<void> {
    return this.real.reloadIfStale(uri, id);
  }

  watch(): vscode.Disposable {
    // Changes are pushed for every URI, watched or not (see DocumentFileSystem.watch): nothing to load for this.
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return this.real.stat(uri);
  }
  readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    return this.real.readDirectory(uri);
  }
  createDirectory(uri: vscode.Uri): Promise<void> {
    return this.real.createDirectory(uri);
  }
  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.real.readFile(uri);
  }
  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    return this.real.writeFile(uri, content, options);
  }
  delete(uri: vscode.Uri): Promise<void> {
    return this.real.delete(uri);
  }
  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    return this.real.rename(oldUri, newUri, options);
  }
}
