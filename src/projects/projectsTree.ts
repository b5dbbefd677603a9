import vscode = require('vscode');
import type { SignIn } from '../accounts/credentials';
import { CMD, CTX, VIEW } from '../constants';
import { projectKey, type ProjectsModel } from './projectsModel';
import type { ProjectsViewLink } from './modelOfAccount';
import type { ErrorNode, ProjectItemNode, ProjectNode, ProjectSearchNode } from '../model/nodes';
import type { Logger } from '../util/log';
import { dateTime, formatCount, formatScore, md, parseDate, reports, shortDate } from '../tree/format';
import { PagedTreeBase } from '../tree/pagedTree';
import { averageScore, BADGE } from './projectScore';
import { isolateName } from '../tree/bidi';

export type { ProjectNode } from '../model/nodes';
export { projectKey } from './projectsModel';

/** What the view's description says for each sort. */
function sortShort(sortBy: string, sort: string): string | undefined {
  switch (`${sortBy}:${sort}`) {
    case 'created_at:desc':
      return vscode.l10n.t('Newest first');
    case 'created_at:asc':
      return vscode.l10n.t('Oldest first');
    case 'project:asc':
      return vscode.l10n.t('Name A–Z');
    case 'project:desc':
      return vscode.l10n.t('Name Z–A');
  }
  return undefined;
}

/**
 * The Projects view: renders what {@link ProjectsModel} knows (one page of projects at a time, "Load more…",
 * an error row with Retry, and a Search results header with its own Clear action while searching).
 * One request when the view opens; a delete removes the row without refetching.
 */
export class ProjectsTreeProvider extends PagedTreeBase<ProjectNode> {
  constructor(
    /** The account's Projects model (the account owns it: see Account.models); the view shows it, never disposes it. */
    readonly model: ProjectsModel,
    link: ProjectsViewLink,
    readonly credentials: SignIn,
    readonly state: vscode.Memento,
    readonly log: Logger,
  ) {
    super(VIEW.projects);
    link.view = {
      progress: (p) => this.withProgress(p),
      persisted: async () => {
        this.updateViewText();
        await this.#updateContext();
      },
    };
    this._register(this.model.onDidChange(() => this.fire(undefined)));
    void this.#updateContext();
  }

  // --- TreeDataProvider ------------------------------------------------------------------------------

  getParent(): ProjectNode | undefined {
    return undefined;
  }

  protected children(node?: ProjectNode): Promise<ProjectNode[]> {
    return node ? Promise.resolve([]) : this.model.rootChildren();
  }

  getTreeItem(node: ProjectNode): vscode.TreeItem {
    switch (node.kind) {
      case 'project':
        return this.#projectItem(node);
      case 'searchResults':
        return this.#searchItem(node);
      case 'loadMore':
        return this.#loadMoreItem(node);
      case 'error':
        return this.#errorItem(node);
      case 'empty':
        return this.#emptyItem();
    }
  }

  resolveTreeItem(item: vscode.TreeItem, node: ProjectNode): vscode.TreeItem {
    if (node.kind === 'project') item.tooltip = projectTooltip(node);
    return item;
  }

  // --- Rendering ---------------------------------------------------------------------------------------

  #projectItem(node: ProjectItemNode): vscode.TreeItem {
    const p = node.project;
    const name = p.project.trim() ? p.project : vscode.l10n.t('(no name)');
    // Shown isolated (a right-to-left name keeps its description where it belongs); read aloud as it is.
    const item = new vscode.TreeItem(p.project.trim() ? isolateName(p.project) : name, vscode.TreeItemCollapsibleState.None);
    item.id = `project:${projectKey(p.project)}`;
    const score = averageScore(p);
    const parts = [];
    if (score) parts.push(`${score.badge} ${formatScore(score.average)}`);
    parts.push(reports(p.reports));
    const created = parseDate(p.created_at);
    if (created) parts.push(shortDate(created));
    item.description = parts.join(' · ');
    // A screen reader reads the badge in words. The role stays VS Code's (a tree item: its API asks a TreeItem in a tree to
    // set none), so the row keeps its place in the tree's keyboard and screen-reader navigation.
    item.accessibilityInformation = {
      label: spokenProject(name, score && { average: formatScore(score.average), badge: score.badge }, reports(p.reports), created && shortDate(created)),
    };
    // The product's badge colours: green for Good, yellow for Decent, red for Bad.
    const colour = score && new vscode.ThemeColor(score.badge === BADGE.good ? 'charts.green' : score.badge === BADGE.decent ? 'charts.yellow' : 'charts.red');
    item.iconPath = node.addressable ? new vscode.ThemeIcon('project', colour) : new vscode.ThemeIcon('warning');
    item.contextValue = node.addressable ? 'project' : 'project:unaddressable';
    // A click opens the project's reports on the website, as the product's own list links it.
    item.command = { command: CMD.projectOpenInBrowser, title: vscode.l10n.t('Open in Browser'), arguments: [node] };
    return item;
  }

  #searchItem(node: ProjectSearchNode): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Search results: "{0}"', node.text));
    item.id = 'searchResults';
    const total = this.model.total;
    if (total !== undefined) item.description = total === 1 ? vscode.l10n.t('1 project') : vscode.l10n.t('{0} projects', formatCount(total));
    item.tooltip = vscode.l10n.t('Projects whose name contains "{0}". Clear the search to see every project.', node.text);
    item.iconPath = new vscode.ThemeIcon('search');
    item.contextValue = 'searchResults';
    return item;
  }

  #loadMoreItem(node: ProjectNode): vscode.TreeItem {
    // The row itself is the argument: Load More reads the next page in the account the row is of.
    return this.loadMoreRow('more', this.model.listState, this.model.total, CMD.projectsLoadMore, node);
  }

  #errorItem(node: ErrorNode<undefined>): vscode.TreeItem {
    const action = this.model.searchGroup ? vscode.l10n.t("Couldn't search the projects") : vscode.l10n.t("Couldn't load the projects");
    return this.errorRow('error', action, node);
  }

  #emptyItem(): vscode.TreeItem {
    return this.emptyRow('empty', this.model.searchGroup ? vscode.l10n.t('No projects match') : vscode.l10n.t('No projects'));
  }

  // --- Plumbing --------------------------------------------------------------------------------------

  protected viewDescription(): string | undefined {
    const { sortBy, sort } = this.model.sort;
    return sortShort(sortBy, sort);
  }

  async #updateContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', CTX.projectsSearching, this.model.search !== undefined);
  }
}

/** A project row as a screen reader says it: its name, its score in words, its reports and when it was created. */
function spokenProject(name: string, score: { average: string; badge: string } | undefined, reportCount: string, created: string | undefined): string {
  if (score) {
    return created
      ? vscode.l10n.t('{0}, average score {1} of 100 ({2}), {3}, created {4}', name, score.average, score.badge, reportCount, created)
      : vscode.l10n.t('{0}, average score {1} of 100 ({2}), {3}', name, score.average, score.badge, reportCount);
  }
  return created ? vscode.l10n.t('{0}, no score yet, {1}, created {2}', name, reportCount, created) : vscode.l10n.t('{0}, no score yet, {1}', name, reportCount);
}

function projectTooltip(node: ProjectItemNode): vscode.MarkdownString {
  const p = node.project;
  const created = parseDate(p.created_at);
  const lines = [`**${md(p.project)}**`, '', `${vscode.l10n.t('Reports')}: ${formatCount(p.reports)}`];
  const score = averageScore(p);
  if (score) {
    // The score, its badge, then how the product gives the badges (CONTRACT.md: above 79 Good, above 49 Decent, else Bad).
    lines.push('', vscode.l10n.t('Average score: {0} of 100: {1} (Good above 79, Decent above 49)', formatScore(score.average), score.badge));
  }
  lines.push('', vscode.l10n.t('Click to open its reports in the browser.'));
  if (created) lines.push('', `${vscode.l10n.t('Created')}: ${dateTime(created)}`);
  if (!node.addressable) {
    lines.push('', `$(warning) ${vscode.l10n.t('The name contains "/", which the projects server cannot address: this project can only be deleted on the website.')}`);
  }
  return new vscode.MarkdownString(lines.join('\n'), true);
}
