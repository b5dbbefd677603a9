/**
 * The Projects view inside a real VS Code against the sandbox: one request to open, paging, search,
 * each sort, delete with its confirmation for awkward names (space, %, #, ?, non-ASCII), a name with
 * "/" refused without a request, error items with Retry, and a screenshot.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { CMD, STATE } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { ProjectItemNode, ProjectNode } from '../../src/model/nodes';
import type { ProjectsTreeProvider } from '../../src/projects/projectsTree';
import type { Prompter } from '../../src/ui/prompter';
import { collate, startSandbox, type RequestRecord, type Sandbox } from '../sandbox/server';
import { screenshot } from './harness';
import { configure, labelText, MessageCapture, RecordingPrompter, services, sleep } from './reliabilityKit';

const PAGE = 10;

let sandbox: Sandbox;
let s: TestServices;

/**
 * The Projects tree of the settings' account as it is now. Another key or server, or signing in again, makes another
 * account with its own tree: a tree held across such a change is the old account's, which lists nothing (so it is read
 * again at every use, never kept in a variable).
 */
function tree(): ProjectsTreeProvider {
  return s.projectsTree;
}

/** The view state the settings' account keeps in globalState (under its label: each account keeps its own). */
function savedState(): { search?: string; sortBy?: string; sort?: string } {
  return s.context.globalState.get(`${STATE.projectsView}.${s.first.label}`) as { search?: string; sortBy?: string; sort?: string };
}

const prompter = new RecordingPrompter();
const messages = new MessageCapture();

/** The warnings and information messages the product showed since the last reset (dismissed at once). */
function warnings(): string[] {
  return messages.shown.filter((m) => m.level !== 'error').map((m) => m.message);
}

function projectLists(): RequestRecord[] {
  return sandbox.requests.filter((r) => r.route === 'projects.list');
}

/**
 * The requests to the projects server, where the Projects view and its commands send theirs. The documents server of
 * the same sandbox also hears the account's Documents view (its rows and background counts, read when the account is
 * made anew) and the status bar's usage read: not this view's.
 */
function toProjects(): RequestRecord[] {
  return sandbox.requests.filter((r) => r.server === 'projects');
}

/** The projects as the sandbox groups them: canonical (first) name, case-insensitive key. */
function projects(): Array<{ name: string; key: string; reports: number; created: number; sum: number }> {
  const map = new Map<string, { name: string; key: string; reports: number; created: number; sum: number }>();
  for (const r of [...sandbox.reports].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)) {
    const key = r.project.toLowerCase();
    const p = map.get(key);
    if (p) {
      p.reports++;
      p.sum += r.result;
    } else map.set(key, { name: r.project, key, reports: 1, created: r.createdAt.getTime(), sum: r.result });
  }
  return [...map.values()];
}

async function children(): Promise<ProjectNode[]> {
  return (await tree().getChildren()) ?? [];
}

async function rows(): Promise<ProjectItemNode[]> {
  return (await children()).filter((n): n is ProjectItemNode => n.kind === 'project');
}

async function loadAll(): Promise<ProjectItemNode[]> {
  for (let i = 0; i < 50; i++) {
    if (!(await children()).some((n) => n.kind === 'loadMore')) break;
    await vscode.commands.executeCommand(CMD.projectsLoadMore);
  }
  return rows();
}

function item(n: ProjectNode): vscode.TreeItem {
  return tree().getTreeItem(n);
}

async function reset(): Promise<void> {
  sandbox.clearFaults();
  await tree().model.setSearch(undefined);
  await tree().model.setSort('created_at', 'desc');
  tree().model.refresh();
  prompter.reset();
  messages.clear();
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  await sleep(20);
  sandbox.resetRequests();
}

describe('sidebar: the Projects view', function () {
  this.timeout(60_000);
  let previousPrompter: Prompter | undefined;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
    await configure('projects.pageSize', PAGE);
    await s.credentials.setKey(sandbox.key);
    previousPrompter = s.prompter.current;
    s.prompter.current = prompter;
    assert.ok(messages.install().patched, 'the messages the extension shows can be observed in this host');
  });

  after(async () => {
    messages.dispose();
    if (previousPrompter) s.prompter.current = previousPrompter;
    if (s.firstOrNone) {
      await tree().model.setSearch(undefined);
      await tree().model.setSort('created_at', 'desc');
    }
    await configure('projects.pageSize', undefined);
    await sandbox?.close();
  });

  beforeEach(reset);

  it('opening the view: one request (newest first, page size from the settings); rows say the average score with its badge, reports and date', async () => {
    const kids = await children();
    assert.strictEqual(toProjects().length, 1);
    const q = projectLists()[0].query;
    assert.deepStrictEqual({ sort_by: q.sort_by, sort: q.sort, per_page: q.per_page, page: q.page }, { sort_by: 'created_at', sort: 'desc', per_page: String(PAGE), page: '1' });
    console.log(`[projects] requests to open the view: ${toProjects().length}`);
    const list = kids.filter((n): n is ProjectItemNode => n.kind === 'project');
    assert.strictEqual(list.length, PAGE);
    assert.strictEqual(kids.at(-1)!.kind, 'loadMore');
    const want = projects().sort((a, b) => b.created - a.created);
    assert.deepStrictEqual(list.map((n) => n.project.project.toLowerCase()), want.slice(0, PAGE).map((p) => p.key));
    const first = item(list[0]);
    assert.match(String(first.description), /^(Good|Decent|Bad) \d+(\.\d)? · \d+ reports? · [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    // The average of the reports' scores (the server's result is their sum), with the product's badge.
    const average = want[0].sum / want[0].reports;
    const badge = average > 79 ? 'Good' : average > 49 ? 'Decent' : 'Bad';
    const shown = Number.isInteger(Math.round(average * 10) / 10) ? String(Math.round(average * 10) / 10) : (Math.round(average * 10) / 10).toFixed(1);
    assert.ok(String(first.description).startsWith(`${badge} `), `${first.description}: the average ${average} is ${badge}`);
    assert.ok(Math.abs(Number(String(first.description).split(' ')[1]) - average) < 0.06, `${first.description}: not the average ${shown}`);
    assert.ok(String(first.description).includes(` · ${want[0].reports} report`));
    assert.strictEqual(first.contextValue, 'project');
    assert.strictEqual(first.id, `project:${want[0].key}`);
    const tip = tree().resolveTreeItem(first, list[0]).tooltip as vscode.MarkdownString;
    for (const part of ['Reports:', 'Average score:', 'Created:', 'in the browser']) assert.ok(tip.value.includes(part), tip.value);
    const scoreLine = tip.value.split('\n').find((l) => l.startsWith('Average score:'));
    assert.strictEqual(scoreLine, `Average score: ${String(first.description).split(' ')[1]} of 100: ${badge} (Good above 79, Decent above 49)`, 'the score, its badge, then how badges are given');
    await children();
    assert.strictEqual(toProjects().length, 1, 'cached');
  });

  it('a project goes somewhere: a click (and Open in Browser) opens its reports page on its projects server, the name encoded', async () => {
    // The newest project, named with what a query must encode.
    const name = 'Café & Co 100% = sure? #1';
    const report = { id: 990_001, project: name, result: 91.5, createdAt: new Date() };
    sandbox.reports.push(report);
    const opened: unknown[] = [];
    const env = vscode.env as { openExternal: (u: unknown) => Thenable<boolean> };
    const original = env.openExternal;
    try {
      tree().model.refresh();
      const row = (await rows())[0];
      assert.strictEqual(row.project.project, name);
      assert.strictEqual(item(row).command?.command, CMD.projectOpenInBrowser, 'a click opens it');
      assert.deepStrictEqual(item(row).command?.arguments, [row]);
      assert.match(String(item(row).description), /^Good 91\.5 · 1 report · /);
      // A screen reader reads the score badge in words; the row stays a tree item (VS Code picks the role of a row in a
      // tree: a row given another one is no longer a treeitem to the screen reader's tree navigation, nor to the e2e tier).
      assert.match(item(row).accessibilityInformation?.label ?? '', /^Café & Co 100% = sure\? #1, average score 91\.5 of 100 \(Good\), 1 report, created [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
      assert.strictEqual(item(row).accessibilityInformation?.role, undefined);
      env.openExternal = (u) => {
        opened.push(u);
        return Promise.resolve(true);
      };
      assert.notStrictEqual(vscode.env.openExternal, original, 'the browser can be stood in for in this host');
      sandbox.resetRequests();
      await vscode.commands.executeCommand(CMD.projectOpenInBrowser, row);
    } finally {
      env.openExternal = original;
      sandbox.reports.splice(sandbox.reports.indexOf(report), 1);
      tree().model.refresh();
    }
    assert.strictEqual(opened.length, 1);
    // The exact address (a string: a vscode.Uri would be opened as encodeURI(uri.toString(true)), "&" and "#" unencoded).
    assert.strictEqual(typeof opened[0], 'string');
    const url = new URL(String(opened[0]));
    assert.strictEqual(`${url.origin}${url.pathname}`, `${sandbox.seoUrl.replace(/\/+$/, '')}/reports`);
    assert.strictEqual(url.searchParams.get('project'), name, `${String(opened[0])} names the project`);
    assert.deepStrictEqual([...url.searchParams.keys()], ['project']);
    assert.strictEqual(toProjects().length, 0, 'nothing asked of the server');
    // The address leads to the project's reports page (the sandbox serves it, as the real projects server does).
    sandbox.reports.push(report);
    try {
      const page = await fetch(String(opened[0]), { headers: { accept: 'text/html' } });
      assert.strictEqual(page.status, 200, `${String(opened[0])}: not a 404`);
      const html = await page.text();
      assert.match(html, /<h1>Reports: Caf/, html);
      assert.match(html, /1 report, average score 91\.5 of 100: <strong>Good<\/strong>/, html);
    } finally {
      sandbox.reports.splice(sandbox.reports.indexOf(report), 1);
    }
  });

  it('Load more: one request per page until every project is listed once', async () => {
    await children();
    sandbox.resetRequests();
    const total = projects().length;
    const more = (await children()).at(-1)!;
    assert.strictEqual(item(more).description, `${PAGE} of ${total}`);
    await vscode.commands.executeCommand(CMD.projectsLoadMore);
    assert.deepStrictEqual(projectLists().map((r) => r.query.page), ['2']);
    const all = await loadAll();
    assert.strictEqual(all.length, total);
    assert.strictEqual(new Set(all.map((n) => n.project.project.toLowerCase())).size, total);
    assert.strictEqual(projectLists().length, Math.ceil(total / PAGE) - 1);
  });

  it('Search…: one request (search_by=project), a header with Clear; wildcards match literally; Clear shows everything again', async () => {
    prompter.inputs = ['cafe'];
    await vscode.commands.executeCommand(CMD.projectsSearch);
    assert.strictEqual(projectLists().length, 1);
    assert.strictEqual(projectLists()[0].query.search, 'cafe');
    assert.strictEqual(projectLists()[0].query.search_by, 'project');
    const kids = await children();
    assert.strictEqual(kids[0].kind, 'searchResults');
    assert.strictEqual(item(kids[0]).label, 'Search results: "cafe"');
    assert.strictEqual(item(kids[0]).contextValue, 'searchResults');
    assert.strictEqual(item(kids[0]).description, '1 project');
    assert.deepStrictEqual((await rows()).map((n) => n.project.project), ['Café Ünïcode']);

    prompter.inputs = ['%'];
    await vscode.commands.executeCommand(CMD.projectsSearch);
    const want = projects().filter((p) => p.name.includes('%')).map((p) => p.name).sort();
    assert.deepStrictEqual((await rows()).map((n) => n.project.project).sort(), want);
    assert.strictEqual(prompter.asked.at(-1)!.value, 'cafe', 'prefilled with the current search');

    prompter.inputs = ['nothing is called this'];
    await vscode.commands.executeCommand(CMD.projectsSearch);
    const none = await children();
    assert.deepStrictEqual(none.map((n) => n.kind), ['searchResults', 'empty']);
    assert.strictEqual(item(none[1]).label, 'No projects match');

    await vscode.commands.executeCommand(CMD.projectsClearSearch);
    assert.strictEqual(tree().model.search, undefined);
    assert.strictEqual((await children())[0].kind, 'project');
    assert.strictEqual(savedState().search, undefined);
  });

  for (const [i, sortBy, dir] of [
    [1, 'created_at', 'asc'],
    [2, 'project', 'asc'],
    [3, 'project', 'desc'],
    [0, 'created_at', 'desc'],
  ] as const) {
    it(`Sort: ${sortBy} ${dir}: one request, the server's order, kept in globalState`, async () => {
      if (i === 0) await tree().model.setSort('project', 'asc');
      sandbox.resetRequests();
      prompter.picks = [(items) => items[i]];
      await vscode.commands.executeCommand(CMD.projectsSort);
      const list = await rows();
      assert.strictEqual(projectLists().length, 1);
      assert.deepStrictEqual([projectLists()[0].query.sort_by, projectLists()[0].query.sort], [sortBy, dir]);
      const d = dir === 'asc' ? 1 : -1;
      const want = projects()
        .sort((a, b) => {
          const byDate = a.created - b.created;
          const byName = collate(a.name, b.name) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
          return d * (sortBy === 'project' ? byName || byDate : byDate || byName);
        })
        .slice(0, PAGE)
        .map((p) => p.key);
      assert.deepStrictEqual(list.map((n) => n.project.project.toLowerCase()), want);
      const saved = savedState();
      assert.deepStrictEqual([saved.sortBy, saved.sort], [sortBy, dir]);
    });
  }

  for (const name of ['Site audit 2024', '100% organic', 'C# tips', 'What? Why?', 'Café Ünïcode', '日本語プロジェクト']) {
    it(`Delete Project… "${name}": a modal naming it and its reports; one DELETE, the name as one encoded segment; the row goes`, async () => {
      const all = await loadAll();
      const row = all.find((n) => n.project.project === name);
      assert.ok(row, `${name} is listed`);
      const reports = projects().find((p) => p.key === name.toLowerCase())!.reports;
      sandbox.resetRequests();

      prompter.confirms = [false];
      assert.strictEqual(await vscode.commands.executeCommand(CMD.projectDelete, row), false);
      assert.strictEqual(toProjects().length, 0, 'declined: nothing sent');
      assert.strictEqual(prompter.asked[0].kind, 'confirm');
      assert.ok(prompter.asked[0].message!.includes(`"${name}"`), prompter.asked[0].message);
      assert.match(prompter.asked[0].message!, reports === 1 ? /its 1 report/ : new RegExp(`all ${reports} of its reports`));

      prompter.confirms = [true];
      assert.strictEqual(await vscode.commands.executeCommand(CMD.projectDelete, row), true);
      assert.deepStrictEqual(
        toProjects().map((r) => [r.method, r.path, r.status]),
        [['DELETE', `/api/v1/projects/${encodeURIComponent(name)}`, 200]],
      );
      assert.ok(!sandbox.reports.some((r) => r.project.toLowerCase() === name.toLowerCase()), 'every report of it is gone');
      assert.ok(!(await rows()).some((n) => n.project.project === name), 'the row is gone');
      assert.strictEqual(tree().model.total, projects().length);
      assert.strictEqual(projectLists().length, 0, 'no refetch');
    });
  }

  it('a name with "/" is explained, never sent; its row says so', async () => {
    const row = (await loadAll()).find((n) => n.project.project === 'a/b testing')!;
    assert.ok(row);
    assert.strictEqual(item(row).contextValue, 'project:unaddressable');
    sandbox.resetRequests();
    prompter.confirms = [true];
    assert.strictEqual(await vscode.commands.executeCommand(CMD.projectDelete, row), false);
    assert.strictEqual(await vscode.commands.executeCommand(CMD.projectDelete, 'a/b testing'), false);
    assert.strictEqual(await vscode.commands.executeCommand(CMD.projectDelete, { project: { project: 'a/b testing' } }), false);
    assert.strictEqual(toProjects().length, 0, 'no request');
    assert.strictEqual(prompter.asked.length, 0, 'nothing to confirm');
    assert.strictEqual(warnings().length, 3, warnings().join(' | '));
    assert.match(warnings()[0], /"a\/b testing" can't be deleted from VS Code.*"\/"/);
    assert.ok(sandbox.reports.some((r) => r.project === 'a/b testing'));
  });

  it('a crafted argument still asks first; a project already gone is dropped from the list', async () => {
    const all = await loadAll();
    const name = 'Backlinks';
    assert.ok(all.some((n) => n.project.project === name));
    sandbox.resetRequests();
    prompter.confirms = [false];
    await vscode.commands.executeCommand(CMD.projectDelete, { project: name });
    assert.strictEqual(prompter.asked.length, 1);
    assert.strictEqual(toProjects().length, 0);
    for (let i = sandbox.reports.length - 1; i >= 0; i--) if (sandbox.reports[i].project === name) sandbox.reports.splice(i, 1);
    prompter.confirms = [true];
    await vscode.commands.executeCommand(CMD.projectDelete, name);
    assert.deepStrictEqual(toProjects().map((r) => r.status), [404]);
    assert.ok(!(await rows()).some((n) => n.project.project === name));
    assert.ok(warnings().some((w) => /no longer exists/.test(w)));
  });

  it('errors: an error item with the reason and Retry; a 401 leads to Set API Key', async () => {
    sandbox.setFault('projects.list', { kind: 'status500', count: 1 });
    const [err] = await children();
    assert.strictEqual(err.kind, 'error');
    const it_ = item(err);
    assert.strictEqual(it_.contextValue, 'error');
    assert.match(labelText(it_.label), /Couldn't load the projects/);
    assert.match(String(it_.description), /HTTP 500/);
    assert.strictEqual(it_.command?.command, CMD.retry);
    await vscode.commands.executeCommand(CMD.retry, err);
    assert.strictEqual((await rows()).length, PAGE);
    assert.strictEqual(projectLists().length, 2);

    await s.credentials.setKey('wrong-key-for-projects');
    try {
      await sleep(20);
      const [auth] = await children();
      assert.strictEqual(auth.kind, 'error');
      assert.strictEqual(item(auth).command?.command, 'contentDocs.signIn');
    } finally {
      await s.credentials.setKey(sandbox.key);
    }
  });

  it('signed out: the view is empty (the welcome view shows)', async () => {
    // Signing out disposes the settings' account (there is no tree of "no account" to ask): the view lists nothing.
    await s.credentials.clearKey();
    try {
      assert.strictEqual(s.firstOrNone, undefined, 'no account of the settings');
      assert.deepStrictEqual(await s.projectsView.getChildren(), []);
      assert.strictEqual(toProjects().length, 0);
    } finally {
      await s.credentials.setKey(sandbox.key);
    }
  });

  it('screenshot of the Projects view with seeded data (sidebar-projects.png)', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
    await vscode.commands.executeCommand('contentDocs.projects.focus');
    await sleep(300);
    const shown = await rows();
    const first = shown[0];
    assert.ok(first, 'the Projects view lists no project to show');
    // What the picture shows: the server's newest projects first, each row labelled by its name.
    const want = projects().sort((a, b) => b.created - a.created);
    assert.deepStrictEqual(shown.slice(0, PAGE).map((n) => n.project.project.toLowerCase()), want.slice(0, PAGE).map((p) => p.key));
    assert.equal(item(first).label, first.project.project);
    await tree().treeView?.reveal(first, { select: true, focus: true });
    assert.equal(tree().treeView?.selection[0], first, 'the first project is selected in the picture');
    await sleep(1200);
    const file = await screenshot('sidebar-projects');
    const size = fs.statSync(file).size;
    assert.ok(size > 10 * 1024, `${file} is only ${size} bytes`);
  });
});
