import vscode = require('vscode');
import { CMD } from '../constants';
import type { ProjectSortField, SortOrder } from '../api/validate';
import type { ProjectNode } from '../model/nodes';
import type { ProjectsTreeProvider } from './projectsTree';
import { describeError, isCancellation } from '../util/errors';
import { showError } from '../util/run';
import type { CommandParts } from '../util/commandTypes';
import type { AccountRegistry } from '../accounts/registry';
import type { AccountRootsTree } from '../tree/accountRoots';
import type { Logger } from '../util/log';
import type { Prompter } from '../ui/prompter';

/** What the Projects view's commands take. */
export type ProjectsNeeds = { readonly log: Logger; readonly projectsView: AccountRootsTree<ProjectNode>; readonly prompter: Prompter; readonly registry: AccountRegistry };

/** The Projects view's commands: Refresh, Search…, Clear Search, Sort…, Load More, Delete Project…. */
export function projectCommands(s: ProjectsNeeds) {
  return {
    [CMD.projectsRefresh]: () => projectTrees(s).forEach((t) => t.model.refresh()),
    [CMD.projectsSearch]: () => searchProjects(s),
    [CMD.projectsClearSearch]: () => Promise.all(projectTrees(s).map((t) => t.model.setSearch(undefined))),
    [CMD.projectsSort]: () => sortProjects(s),
    [CMD.projectsLoadMore]: (node: unknown) => treeOfRow(s, node)?.model.loadMore(),
    [CMD.projectDelete]: (arg: unknown) => deleteProject(s, arg),
    [CMD.projectOpenInBrowser]: (arg: unknown) => openProjectInBrowser(s, arg),
  } satisfies CommandParts;
}

/** The Projects trees of every account shown: the view's title actions apply to each. */
export function projectTrees(s: ProjectsNeeds): ProjectsTreeProvider[] {
  return s.projectsView.trees() as ProjectsTreeProvider[];
}

/**
 * The Projects tree a row came from; for anything else (a name from another extension), the only account's while
 * exactly one is signed in. Undefined for a row of an account that is gone, which never stands for a project of
 * another account, and for a name while several accounts could mean it.
 */
function treeOfRow(s: ProjectsNeeds, node: unknown): ProjectsTreeProvider | undefined {
  const account = s.projectsView.accountOf(node);
  if (account) return s.projectsView.treeOf(account) as ProjectsTreeProvider;
  if (s.projectsView.owns(node)) return undefined;
  const all = s.registry.all();
  return all.length === 1 ? (s.projectsView.treeOf(all[0]) as ProjectsTreeProvider) : undefined;
}

/**
 * Open in Browser: the project's reports page on its account's projects server, `{seo_url}/reports?project=<name>`,
 * as the product's own projects list links it (CONTRACT.md, projects). Returns the address opened.
 */
export async function openProjectInBrowser(s: ProjectsNeeds, arg: unknown): Promise<string> {
  if (!s.projectsView.owns(arg) || arg.kind !== 'project') throw new Error('Choose a project in the Projects view to open it in the browser.');
  const account = s.projectsView.accountOf(arg);
  if (!account) throw new Error('This project\'s account was removed from VS Code.');
  const url = new URL(account.api.projectsUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/reports`;
  url.search = '';
  url.searchParams.set('project', arg.project.project);
  // Handed over as the string itself: VS Code opens a Uri as encodeURI(uri.toString(true)), which decodes the query
  // and so cannot carry "&", "#" or "+" inside a name ("Sales & Marketing" would lose "& Marketing"). Its window API
  // takes a string too and then opens exactly that address (extHostWindow.openUri; MainThreadWindow.$openUri).
  const address = url.toString();
  await vscode.env.openExternal(address as unknown as vscode.Uri);
  return address;
}

export async function searchProjects(s: ProjectsNeeds): Promise<ProjectNode[] | undefined> {
  const text = await s.prompter.input({
    title: vscode.l10n.t('Search Projects'),
    prompt: vscode.l10n.t('Part of a project name (case and accents do not matter). Leave empty to show every project.'),
    value: projectTrees(s)[0]?.model.search,
  });
  if (text === undefined) return undefined;
  await Promise.all(projectTrees(s).map((t) => t.model.setSearch(text.trim() || undefined)));
  return projectTrees(s)[0]?.getChildren();
}

/** The sorts Sort… offers, in its order. */
export const PROJECT_SORTS: ReadonlyArray<{ label: () => string; sortBy: ProjectSortField; sort: SortOrder }> = [
  { label: () => vscode.l10n.t('Date created, newest first'), sortBy: 'created_at', sort: 'desc' },
  { label: () => vscode.l10n.t('Date created, oldest first'), sortBy: 'created_at', sort: 'asc' },
  { label: () => vscode.l10n.t('Name, A to Z'), sortBy: 'project', sort: 'asc' },
  { label: () => vscode.l10n.t('Name, Z to A'), sortBy: 'project', sort: 'desc' },
];

type SortItem = vscode.QuickPickItem & { sort: (typeof PROJECT_SORTS)[number] };

export async function sortProjects(s: ProjectsNeeds): Promise<void> {
  const current = projectTrees(s)[0]?.model.sort;
  const items: SortItem[] = PROJECT_SORTS.map((o) => {
    const isCurrent = o.sortBy === current?.sortBy && o.sort === current?.sort;
    return {
      label: isCurrent ? `$(check) ${o.label()}` : o.label(),
      description: isCurrent ? vscode.l10n.t('current') : undefined,
      sort: o,
    };
  });
  const picked = await s.prompter.pick(items, { title: vscode.l10n.t('Sort Projects'), placeHolder: vscode.l10n.t('How should the projects be sorted?') });
  if (picked) await Promise.all(projectTrees(s).map((t) => t.model.setSort(picked.sort.sortBy, picked.sort.sort)));
}

/**
 * The project a command argument names: a row of the Projects view, a name, or `{ project }`.
 * Whatever it is, the delete is confirmed by the user, naming the project.
 */
function projectNameOf(s: ProjectsNeeds, arg: unknown): string | undefined {
  if (s.projectsView.owns(arg)) return arg.kind === 'project' ? arg.project.project : undefined;
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object') {
    const p = (arg as { project?: unknown }).project;
    if (typeof p === 'string') return p;
    if (p && typeof p === 'object' && typeof (p as { project?: unknown }).project === 'string') return (p as { project: string }).project;
  }
  return undefined;
}

/**
 * Delete Project…: a name with "/" is explained, never sent (the server cannot address it). Otherwise a
 * modal names the project and says its reports go too; one DELETE; the row goes without a refetch.
 */
export async function deleteProject(s: ProjectsNeeds, arg: unknown): Promise<boolean> {
  const name = projectNameOf(s, arg);
  if (name === undefined || !name.trim()) {
    throw new Error(vscode.l10n.t('There is no project to delete: choose one in the Projects view.'));
  }
  if (name.includes('/')) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The project "{0}" can\'t be deleted from VS Code: the projects server finds a project by its name in the web address, and a name containing "/" cannot be sent that way. Nothing was deleted. Delete it on the website instead.',
        name,
      ),
    );
    s.log.info('[projects] refused to delete a project whose name contains "/"');
    return false;
  }
  // A row of the view is deleted in its own account; a name alone, in the only account signed in.
  const tree = treeOfRow(s, arg);
  if (!tree) {
    throw new Error(
      s.projectsView.owns(arg)
        ? vscode.l10n.t('The project "{0}" is of an account that was removed: nothing was deleted.', name)
        : vscode.l10n.t('Choose the project "{0}" in the Projects view: several accounts are signed in, and nothing was deleted.', name),
    );
  }
  const row = tree.model.findProject(name);
  const count = row?.project.reports;
  const detail =
    count === undefined
      ? vscode.l10n.t('Every report in the project "{0}" is deleted from your account too. This cannot be undone.', name)
      : count === 1
        ? vscode.l10n.t('The project "{0}" and its 1 report are deleted from your account. This cannot be undone.', name)
        : vscode.l10n.t('The project "{0}" and all {1} of its reports are deleted from your account. This cannot be undone.', name, count);
  const ok = await s.prompter.confirm(vscode.l10n.t('Delete the project "{0}" and every report in it?', name), detail, vscode.l10n.t('Delete Project'));
  if (!ok) return false;
  try {
    if ((await tree.model.delete(name)) === 'gone') {
      void vscode.window.showInformationMessage(vscode.l10n.t('The project "{0}" no longer exists on the server.', name));
      return false;
    }
  } catch (e) {
    if (isCancellation(e)) return false;
    void showError(s.log, describeError(vscode.l10n.t('Couldn\'t delete the project "{0}"', name), e), e);
    return false;
  }
  s.log.info('[projects] deleted a project');
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(trash) Deleted the project "{0}"', name), 4000);
  return true;
}
