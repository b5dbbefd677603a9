import * as vscode from 'vscode';
import { CTX } from '../constants';
import type { DocumentService } from '../services/documentService';
import { Disposable } from '../util/disposable';

/** Keeps `contentDocs.activeIsFavorite` in step with the active editor's document. */
export class ActiveFavoriteContext extends Disposable {
  private last: boolean | undefined;

  constructor(
    private readonly documentIdOf: (uri: vscode.Uri) => number | undefined,
    private readonly documents: DocumentService,
  ) {
    super();
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    this._register(documents.onDidChange(() => this.update()));
    this._register(documents.onDidDelete(() => this.update()));
    this.update();
  }

  private update(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const id = uri ? this.documentIdOf(uri) : undefined;
    const favorite = id !== undefined && this.documents.get(id)?.favorite === true;
    if (favorite === this.last) return;
    this.last = favorite;
    void vscode.commands.executeCommand('setContext', CTX.activeIsFavorite, favorite);
  }
}
