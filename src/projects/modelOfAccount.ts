/**
 * One account's Projects model as the extension sets it up: the settings it follows, the view state it keeps and what
 * it hears of the view that shows it. Built by the account beside its project service (see Account.models) and
 * disposed with the account; the Projects view only shows it.
 */
import vscode = require('vscode');
import { STATE } from '../constants';
import * as config from '../util/config';
import { disposingWith } from '../util/disposable';
import type { Logger } from '../util/log';
import { ProjectsModel, type ProjectSource } from './projectsModel';

/** An event that never fires. */
const NEVER = (): vscode.Disposable => new vscode.Disposable(() => undefined);

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
export function projectsModelOf(projects: ProjectSource, state: vscode.Memento, log: Logger): AccountProjectsModel {
  const link: ProjectsViewLink = {};
  const model = new ProjectsModel(
    projects,
    {
      // An account has its key for its whole life (another key is another account, with its own model).
      hasKey: () => Promise.resolve(true),
      onDidChangeSignIn: NEVER,
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
  // The setting the model follows: the page size (an account's servers are its own: others are another account).
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (config.affects(e, 'projects.pageSize')) model.refresh();
  });
  return disposingWith({ model, link }, settings, model);
}
