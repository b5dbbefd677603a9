import vscode = require('vscode');
import { CTX } from '../constants';
import type { DocumentService } from '../documents/documentService';
import { Disposable } from '../util/disposable';

/** Keeps `contentDocs.activeIsFavorite` in step with the active editor's document, whichever account it is of. */
export class ActiveFavoriteContext extends Disposable {
  private last: boolean | undefined;
  private readonly watched = new WeakSet<DocumentService>();

  constructor(private readonly documentOf: (uri: vscode.Uri) => { account: { readonly documents: DocumentService }; id: number } | undefined) {
    super();
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    this.update();
  }

  /** Follows the changes of an account's documents (once per service). */
  watch(documents: DocumentService): void {
    if (this.watched.has(documents)) return;
    this.watched.add(documents);
    this._register(documents.onDidChange(() => this.update()));
    this._register(documents.onDidDelete(() => this.update()));
    this.update();
  }

  private update(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const target = uri ? this.documentOf(uri) : undefined;
    const favorite = target !== undefined && target.account.documents.get(target.id)?.favorite === true;
    if (favorite === this.last) return;
    this.last = favorite;
    void vscode.commands.executeCommand('setContext', CTX.activeIsFavorite, favorite);
  }
}
