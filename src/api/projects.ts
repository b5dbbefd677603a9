import { callOptions, type Call, type HttpClient } from './client';
import type { Project } from './schemas';
import { toPage, type Page } from './paging';
import { encodeSearch } from './documents';
import { checkOneOf, isBlank, checkPositiveInt, checkProjectName, PAGE_SIZES, PROJECT_SORT_FIELDS, SORT_ORDERS, type PageSize, type ProjectSortField, type SortOrder } from './validate';

export interface ProjectListQuery {
  search?: string;
  sortBy?: ProjectSortField;
  sort?: SortOrder;
  perPage?: PageSize;
  page?: number;
}

export function projectListParams(q: ProjectListQuery): Record<string, string | number | undefined> {
  const params: Record<string, string | number | undefined> = {};
  if (q.search !== undefined && !isBlank(q.search)) {
    params.search = encodeSearch(q.search);
    params.search_by = 'project';
  }
  if (q.sortBy !== undefined) params.sort_by = checkOneOf('sort_by', q.sortBy, PROJECT_SORT_FIELDS);
  if (q.sort !== undefined) params.sort = checkOneOf('sort', q.sort, SORT_ORDERS);
  if (q.perPage !== undefined) params.per_page = checkOneOf('per_page', q.perPage, PAGE_SIZES);
  if (q.page !== undefined) params.page = checkPositiveInt('page', q.page);
  return params;
}

export async function listProjects(http: HttpClient, q: ProjectListQuery = {}, call?: Call): Promise<Page<Project>> {
  const body = await http.send({ service: 'projects', method: 'GET', path: '/projects', query: projectListParams(q), schema: (s) => s.projectList, ...callOptions(call) });
  return toPage(body, q.page ?? 1, q.perPage);
}

/** Deletes every report of a project. The name travels as one percent-encoded path segment; a "/" cannot. */
export async function deleteProject(http: HttpClient, name: string, call?: Call): Promise<void> {
  const segment = encodeURIComponent(checkProjectName(name));
  await http.send({ service: 'projects', method: 'DELETE', path: `/projects/${segment}`, schema: (s) => s.deleted, ...callOptions(call) });
}
