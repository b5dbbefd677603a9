/**
 * One account's Documents model as the extension sets it up: the settings it follows, the view state it keeps and
 * what it hears of the view that shows it. Built by the account beside its document service (see Account.models) and
 * disposed with the account; the Documents view only shows it.
 */
import vscode = require('vscode');
import { STATE } from '../constants';
import * as config from '../util/config';
import { disposingWith } from '../util/disposable';
import type { Logger } from '../util/log';
import { DocumentsModel, type DocumentSource } from './documentsModel';

/** An event that never fires. */
const NEVER = (): vscode.Disposable => new vscode.Disposable(() => undefined);

/** What a Documents model hears of the view that shows it, once that view is built (the model is built first). */
export interface DocumentsViewLink {
  view?: { visible(): boolean; progress(p: Promise<void>): Promise<void>; persisted(): Promise<void> };
}

/** An account's Documents model and its link to the view that shows it (the view fills the link in). */
export interface AccountDocumentsModel extends vscode.Disposable {
  readonly model: DocumentsModel;
  readonly link: DocumentsViewLink;
}

/** One account's Documents model: its pages, groups and counts, the settings it follows and the view state it keeps. */
export function documentsModelOf(
  account: { readonly documents: DocumentSource; readonly documentsUrl: string },
  state: vscode.Memento,
  log: Logger,
): AccountDocumentsModel {
  const link: DocumentsViewLink = {};
  const model = new DocumentsModel(
    account.documents,
    {
      // An account has its key for its whole life (another key is another account, with its own model).
      hasKey: () => Promise.resolve(true),
      onDidChangeSignIn: NEVER,
      pageSize: config.documentsPageSize,
      defaultSort: config.defaultDocumentSort,
      hideEmpty: config.hideEmptyTemplates,
      // On screen, the groups show their counts: they are read in the background.
      countsWanted: () => link.view?.visible() === true,
      server: () => account.documentsUrl,
      persist: (s) => Promise.all([state.update(STATE.documentsView, s), link.view?.persisted()]).then(() => undefined),
      progress: (p) => link.view?.progress(p) ?? p,
      log,
    },
    state.get(STATE.documentsView),
  );
  // The settings the model follows (an account's server is its own: another server is another account).
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    // Settings Sync may change several at once: each is followed.
    if (config.affects(e, 'documents.pageSize')) model.pageSizeChanged();
    if (config.affects(e, 'documents.defaultSort')) model.defaultSortChanged();
    if (config.affects(e, 'documents.hideEmptyTemplates')) model.hideEmptyChanged();
  });
  return disposingWith({ model, link }, settings, model);
}
