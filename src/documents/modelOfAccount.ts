/**
 * One account's Documents model as the extension sets it up: the settings it follows, the view state it keeps and
 * what it hears of the view that shows it. Built by the account beside its document service (see Account.models) and
 * disposed with the account; the Documents view only shows it.
 */
import vscode = require('vscode');
import type { SignIn } from '../accounts/credentials';
import { STATE } from '../constants';
import * as config from '../util/config';
import { disposingWith } from '../util/disposable';
import type { Logger } from '../util/log';
import { DocumentsModel, type DocumentSource } from './documentsModel';

/** The documents server of an account: an added account's own address, or the user settings' (which may change). */
export interface DocumentsServer {
  server(): string;
  readonly fromSettings: boolean;
}
export const SETTINGS_SERVER: DocumentsServer = { server: config.documentsBaseUrl, fromSettings: true };

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
  documents: DocumentSource,
  credentials: SignIn,
  state: vscode.Memento,
  log: Logger,
  where: DocumentsServer = SETTINGS_SERVER,
): AccountDocumentsModel {
  const link: DocumentsViewLink = {};
  const model = new DocumentsModel(
    documents,
    {
      hasKey: () => credentials.hasKey(),
      onDidChangeSignIn: credentials.onDidChange,
      pageSize: config.documentsPageSize,
      defaultSort: config.defaultDocumentSort,
      hideEmpty: config.hideEmptyTemplates,
      // On screen, the groups show their counts: they are read in the background.
      countsWanted: () => link.view?.visible() === true,
      server: () => where.server(),
      persist: (s) => Promise.all([state.update(STATE.documentsView, s), link.view?.persisted()]).then(() => undefined),
      progress: (p) => link.view?.progress(p) ?? p,
      log,
    },
    state.get(STATE.documentsView),
  );
  // The settings the model follows. The server address only for the account of the user settings: an added account's is its own.
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (where.fromSettings && config.affects(e, 'documents.baseUrl')) model.serverChanged();
    else if (config.affects(e, 'documents.pageSize')) model.pageSizeChanged();
    else if (config.affects(e, 'documents.defaultSort')) model.defaultSortChanged();
    if (config.affects(e, 'documents.hideEmptyTemplates')) model.hideEmptyChanged();
  });
  return disposingWith({ model, link }, settings, model);
}
