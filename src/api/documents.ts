import { callOptions, type Call, type HttpClient } from './client';
import { l10n } from '../util/l10n';
import { invalidInput } from './errors';
import type { ContentDocument } from './schemas';
import { toPage, type Page } from './paging';
import {
  checkCreativity,
  checkOneOf,
  checkPositiveInt,
  checkText,
  isBlank,
  serverTrim,
  DOCUMENT_SEARCH_FIELDS,
  DOCUMENT_SORT_FIELDS,
  LIMITS,
  PAGE_SIZES,
  SORT_ORDERS,
  type Creativity,
  type DocumentSearchField,
  type DocumentSortField,
  type PageSize,
  type SortOrder,
} from './validate';

export interface DocumentListQuery {
  search?: string;
  searchBy?: DocumentSearchField;
  templateId?: number;
  favorite?: boolean;
  sortBy?: DocumentSortField;
  sort?: SortOrder;
  perPage?: PageSize;
  page?: number;
}

export interface NewDocument {
  name: string;
  prompt: string;
  creativity: Creativity;
  templateId?: number;
}

export interface DocumentChanges {
  name?: string;
  result?: string;
  favorite?: boolean;
}

/**
 * The search text as the server should see it: `%`, `_` and `\` are LIKE wildcards/escapes on the
 * server, so they are escaped to match literally; a search for "0" is sent escaped because the
 * server reads a bare "0" as "no search". Trimmed as the server trims (serverTrim): a search of only
 * white space, U+200B or U+FEFF is no search, and callers leave it out (isBlank).
 */
export function encodeSearch(search: string): string {
  const escaped = serverTrim(search).replace(/[\\%_]/g, (c) => `\\${c}`);
  return escaped === '0' ? '\\0' : escaped;
}

export function documentListParams(q: DocumentListQuery): Record<string, string | number | undefined> {
  const params: Record<string, string | number | undefined> = {};
  if (q.search !== undefined && !isBlank(q.search)) params.search = encodeSearch(q.search);
  if (q.searchBy !== undefined) params.search_by = checkOneOf('search_by', q.searchBy, DOCUMENT_SEARCH_FIELDS);
  if (q.templateId !== undefined) params.template_id = checkPositiveInt('template_id', q.templateId);
  if (q.favorite !== undefined) params.favorite = q.favorite ? 1 : 0;
  if (q.sortBy !== undefined) params.sort_by = checkOneOf('sort_by', q.sortBy, DOCUMENT_SORT_FIELDS);
  if (q.sort !== undefined) params.sort = checkOneOf('sort', q.sort, SORT_ORDERS);
  if (q.perPage !== undefined) params.per_page = checkOneOf('per_page', q.perPage, PAGE_SIZES);
  if (q.page !== undefined) params.page = checkPositiveInt('page', q.page);
  return params;
}

function checkId(id: unknown): number {
  return checkPositiveInt('id', id);
}

export async function listDocuments(http: HttpClient, q: DocumentListQuery = {}, call?: Call): Promise<Page<ContentDocument>> {
  const query = documentListParams(q);
  const body = await http.send({ service: 'documents', method: 'GET', path: '/documents', query, schema: (s) => s.documentList, ...callOptions(call) });
  return toPage(body, q.page ?? 1, q.perPage);
}

export async function showDocument(http: HttpClient, id: number, call?: Call): Promise<ContentDocument> {
  return http.send({ service: 'documents', method: 'GET', path: `/documents/${checkId(id)}`, schema: (s) => s.documentOne, ...callOptions(call) });
}

/** Creates a document; the server generates its result during the request. Never retried (it would duplicate). */
export async function storeDocument(http: HttpClient, doc: NewDocument, call?: Call, timeoutMs?: number): Promise<ContentDocument> {
  const form = {
    name: checkText('name', doc.name, LIMITS.name),
    prompt: checkText('prompt', doc.prompt, LIMITS.prompt),
    creativity: checkCreativity(doc.creativity),
    template_id: doc.templateId === undefined ? undefined : checkPositiveInt('template_id', doc.templateId),
  };
  return http.send({ service: 'documents', method: 'POST', path: '/documents', form, schema: (s) => s.documentOne, ...callOptions(call), timeoutMs });
}

export async function updateDocument(http: HttpClient, id: number, changes: DocumentChanges, call?: Call): Promise<ContentDocument> {
  const form: Record<string, string | number | undefined> = {};
  if (changes.name !== undefined) form.name = checkText('name', changes.name, LIMITS.name);
  if (changes.result !== undefined) form.result = checkText('result', changes.result, LIMITS.result);
  if (changes.favorite !== undefined) {
    if (typeof changes.favorite !== 'boolean') throw invalidInput('favorite', l10n.t('must be true or false.'));
    form.favorite = changes.favorite ? 1 : 0;
  }
  if (Object.keys(form).length === 0) throw invalidInput('document', l10n.t('Nothing to change.'));
  return http.send({ service: 'documents', method: 'PATCH', path: `/documents/${checkId(id)}`, form, schema: (s) => s.documentOne, ...callOptions(call) });
}

export async function deleteDocument(http: HttpClient, id: number, call?: Call): Promise<void> {
  await http.send({ service: 'documents', method: 'DELETE', path: `/documents/${checkId(id)}`, schema: (s) => s.deleted, ...callOptions(call) });
}
