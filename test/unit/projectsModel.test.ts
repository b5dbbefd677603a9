/**
 * The Projects view's model (src/projects/projectsModel.ts) in plain Node: ProjectService and the real API client
 * against the sandbox's projects server over HTTP on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { createApi, type ContentApi } from '../../src/api';
import { Emitter } from '../../src/model/emitter';
import type { ProjectItemNode, ProjectNode, ProjectsViewState } from '../../src/model/nodes';
import { ProjectsModel, readProjectsState } from '../../src/projects/projectsModel';
import { ProjectService } from '../../src/projects/projectService';
import type { PageSize } from '../../src/util/config';
import { startSandbox, type Sandbox } from '../sandbox/server';

function putProject(sb: Sandbox, name: string, reports: number, day: number): void {
  for (let i = 0; i < reports; i++) {
    sb.reports.push({ id: sb.reports.length + 1, project: name, result: 50, createdAt: new Date(Date.UTC(2026, 0, day, 10, i)) });
  }
}

function setup(sb: Sandbox, opts: { pageSize?: PageSize; saved?: unknown } = {}) {
  const client: ContentApi = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
  const signIn = new Emitter<boolean>();
  const persisted: ProjectsViewState[] = [];
  const settings = { key: true };
  const model = new ProjectsModel(
    new ProjectService({ get: () => client }),
    {
      hasKey: () => Promise.resolve(settings.key),
      onDidChangeSignIn: signIn.event,
      pageSize: () => opts.pageSize ?? 10,
      persist: (s) => {
        persisted.push(s);
        return Promise.resolve();
      },
      progress: (p) => p,
      log: { warn: () => undefined },
    },
    opts.saved,
  );
  let changes = 0;
  model.onDidChange(() => changes++);
  return {
    model,
    persisted,
    settings,
    signIn,
    changes: () => changes,
    dispose() {
      model.dispose();
      client.dispose();
    },
  };
}

const names = (rows: ProjectNode[]) => rows.filter((r): r is ProjectItemNode => r.kind === 'project').map((r) => r.project.project);
const lists = (sb: Sandbox) => sb.requests.filter((r) => r.server === 'projects' && r.method === 'GET' && r.path === '/api/v1/projects');

describe('ProjectsModel (the Projects view without vscode, against the sandbox)', () => {
  let sb: Sandbox;
  let env: ReturnType<typeof setup> | undefined;

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.reseed('empty');
    sb.clearFaults();
    sb.resetRequests();
  });
  afterEach(() => {
    env?.dispose();
    env = undefined;
  });

  it('one request for the first page, one per Load more; the total is the server’s', async () => {
    for (let i = 1; i <= 12; i++) putProject(sb, `Project ${String(i).padStart(2, '0')}`, 1, i);
    env = setup(sb);
    const [rows, same] = await Promise.all([env.model.rootChildren(), env.model.rootChildren()]);
    assert.equal(lists(sb).length, 1);
    assert.deepEqual(names(rows), names(same));
    assert.equal(names(rows)[0], 'Project 12', 'newest first');
    assert.equal(rows.at(-1)?.kind, 'loadMore');
    assert.equal(env.model.total, 12);
    await env.model.loadMore();
    const all = await env.model.rootChildren();
    assert.equal(names(all).length, 12);
    assert.equal(all.at(-1)?.kind, 'project');
    assert.deepEqual(
      lists(sb).map((r) => r.query.page),
      ['1', '2'],
    );
  });

  it('the sort and search are kept and asked of the server; the search has its header row', async () => {
    putProject(sb, 'banana', 1, 1);
    putProject(sb, 'Apple pie', 2, 2);
    putProject(sb, 'apple', 1, 3);
    env = setup(sb);
    await env.model.setSort('project', 'asc');
    assert.deepEqual(names(await env.model.rootChildren()), ['apple', 'Apple pie', 'banana']);
    await env.model.setSearch('  apple ');
    assert.deepEqual(env.persisted.at(-1), { sortBy: 'project', sort: 'asc', search: 'apple' });
    const rows = await env.model.rootChildren();
    assert.equal(rows[0].kind, 'searchResults');
    assert.deepEqual(names(rows), ['apple', 'Apple pie']);
    assert.equal(lists(sb).at(-1)?.query.search_by, 'project');
    const again = setup(sb, { saved: env.persisted.at(-1) });
    assert.deepEqual(again.model.sort, { sortBy: 'project', sort: 'asc' });
    assert.equal(again.model.search, 'apple');
    again.dispose();
    await env.model.setSearch('zzz');
    assert.deepEqual(
      (await env.model.rootChildren()).map((r) => r.kind),
      ['searchResults', 'empty'],
    );
  });

  it('a search of only characters the server trims (U+200B, U+FEFF) is no search, set or restored', async () => {
    putProject(sb, 'apple', 1, 1);
    env = setup(sb);
    await env.model.setSearch('\u200b');
    assert.equal(env.model.search, undefined);
    assert.equal(env.model.searchGroup, undefined);
    await env.model.setSearch('\ufeffapple\u200b');
    assert.equal(env.model.search, 'apple');
    assert.deepEqual(readProjectsState({ search: '\u200b' }), {});
    assert.deepEqual(readProjectsState({ search: '\u200bapple\u0085' }), { search: 'apple' });
  });

  it('a delete removes the row and drops the total without a list request; a project already gone goes too', async () => {
    putProject(sb, 'Keep', 1, 1);
    putProject(sb, 'Drop Me', 3, 2);
    env = setup(sb);
    await env.model.rootChildren();
    sb.resetRequests();
    assert.equal(await env.model.delete('drop me'), 'deleted', 'names are case-insensitive');
    assert.deepEqual(names(await env.model.rootChildren()), ['Keep']);
    assert.equal(env.model.total, 1);
    assert.equal(lists(sb).length, 0);
    sb.reports.splice(0);
    assert.equal(await env.model.delete('Keep'), 'gone');
    assert.deepEqual(
      (await env.model.rootChildren()).map((r) => r.kind),
      ['empty'],
    );
  });

  it('a failed page shows an error row; Retry asks again; signing in again reloads', async () => {
    putProject(sb, 'One', 1, 1);
    env = setup(sb);
    sb.setFault('projects.list', { kind: 'status503', count: 1 });
    assert.deepEqual(
      (await env.model.rootChildren()).map((r) => r.kind),
      ['error'],
    );
    await env.model.retry();
    assert.deepEqual(names(await env.model.rootChildren()), ['One']);
    const before = env.changes();
    env.signIn.fire(true);
    assert.ok(env.changes() > before, 'the view is told to reload');
    await env.model.rootChildren();
    assert.equal(lists(sb).length, 3);
    env.settings.key = false;
    env.signIn.fire(false);
    assert.deepEqual(await env.model.rootChildren(), [], 'signed out: no rows, no request');
    assert.equal(lists(sb).length, 3);
  });

  it('disposed with its account: a refresh, a sort, a search or the view asking for rows sends nothing, keeps nothing and tells nothing', async () => {
    putProject(sb, 'Kept apart', 1, 1);
    env = setup(sb);
    assert.deepEqual(names(await env.model.rootChildren()), ['Kept apart']);
    env.model.dispose();
    sb.resetRequests();
    const changes = env.changes();
    env.model.refresh();
    await env.model.setSort('project', 'asc');
    await env.model.setSearch('kept');
    assert.deepEqual(await env.model.rootChildren(), []);
    assert.equal(lists(sb).length, 0, 'no request');
    assert.deepEqual(env.persisted, [], 'no view state kept (its account\'s was cleared with it)');
    assert.equal(env.changes(), changes, 'no change told');
  });

  it('readProjectsState keeps only what it understands', () => {
    assert.deepEqual(readProjectsState({ sortBy: 'project', sort: 'asc', search: ' x ' }), { sortBy: 'project', sort: 'asc', search: 'x' });
    assert.deepEqual(readProjectsState({ sortBy: 'reports', sort: 'up', search: '  ' }), {});
  });
});
