/**
 * One account's Projects model as the extension sets it up: the settings it follows, the view state it keeps and what
 * it hears of the view that shows it. Built by the account beside its project service (see Account.models) and
 * disposed with the account; the Projects view only shows it.
 */
import vscode = require('vscode');
import type { SignIn } from '../accounts/credentials';
import { STATE } from '../constants';
import * as config from '../util/config';
import { disposingWith } from '../util/disposable';
import type { Logger } from '../util/log';
import { ProjectsModel, type ProjectSource } from './projectsModel';

/** What a Projects model hears of the view that shows it, once that view is built (the model is built first). */
export interface ProjectsViewLink {
  view?: { progress(p: Promise<void>): Promise<void>; persisted(): Promise<void> };
}

/** An account's Projects model and its link to the view that shows it (the view fills the link in). */
export interface AccountProjectsModel extends vscode.Disposable {
  readonly model: ProjectsModel;
  readonly link: ProjectsViewLink;
}

/** One account's Projects model: one page of projects at a time, its search and sort, kept in the view state. */
export function projectsModelOf(
  projects: ProjectSource,
  credentials: SignIn,
  state: vscode.Memento,
  log: Logger,
  /** Whether the account's servers are the user settings' (an added account's are its own). */
  fromSettings = true,
): AccountProjectsModel {
  const link: ProjectsViewLink = {};
  const model = new ProjectsModel(
    projects,
    {
      hasKey: () => credentials.hasKey(),
      onDidChangeSignIn: credentials.onDidChange,
      pageSize: config.projectsPageSize,
      persist: async (s) => {
        await link.view?.persisted();
        await state.update(STATE.projectsView, s);
      },
      progress: (p) => link.view?.progress(p) ?? p,
      log,
    },
    state.get(STATE.projectsView),
  );
  // The settings the model follows: the page size, and the server addresses for the account of the user settings
  // (the projects server, or the documents server when no projects server is set).
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    const server = fromSettings && (config.affects(e, 'projects.baseUrl') || config.affects(e, 'documents.baseUrl'));
    if (server || config.affects(e, 'projects.pageSize')) model.refresh();
  });
  return disposingWith({ model, link }, settings, model);
}
