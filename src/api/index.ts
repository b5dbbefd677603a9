/**
 * The API layer's entry point, bundled as dist/api.js and loaded on the first request so that
 * activation never pays for the HTTP client and the schemas. No `vscode` import anywhere below src/api.
 */
import { HttpClient, type ClientOptions } from './client';
import * as documents from './documents';
import * as projects from './projects';
import { getAccount, getAccountUsage } from './account';

export type { ClientOptions, Exchange, LogLevel, Service } from './client';
export type { AccountInfo, ContentDocument, Project, UsageFigures } from './schemas';
export type { Page } from './paging';
export type { DocumentListQuery, NewDocument, DocumentChanges } from './documents';
export type { ProjectListQuery } from './projects';
export { ApiError, isApiError } from './errors';
export { checkBaseUrl } from './client';
export { walkPages } from './paging';
// How plan usage reads (vscode-free): shipped with the client, so activation does not load it (figures exist only after a request).
export { statusText, tooltipText, usageLevel } from '../model/usageFormat';
export { serverTrim, isBlank } from './validate';
// The trees sort with these: import them from './collation' directly (no dependencies) so activation does not load this bundle.
export { compareNames, sameName } from './collation';

export function createApi(options: ClientOptions) {
  const http = new HttpClient(options);
  return {
    listDocuments: (q?: documents.DocumentListQuery, signal?: AbortSignal) => documents.listDocuments(http, q, signal),
    showDocument: (id: number, signal?: AbortSignal) => documents.showDocument(http, id, signal),
    storeDocument: (doc: documents.NewDocument, signal?: AbortSignal) =>
      documents.storeDocument(http, doc, signal, options.storeTimeoutMs ?? 180_000),
    updateDocument: (id: number, changes: documents.DocumentChanges, signal?: AbortSignal) =>
      documents.updateDocument(http, id, changes, signal),
    deleteDocument: (id: number, signal?: AbortSignal) => documents.deleteDocument(http, id, signal),
    listProjects: (q?: projects.ProjectListQuery, signal?: AbortSignal) => projects.listProjects(http, q, signal),
    deleteProject: (name: string, signal?: AbortSignal) => projects.deleteProject(http, name, signal),
    getAccount: (signal?: AbortSignal) => getAccount(http, signal),
    getAccountUsage: (signal?: AbortSignal) => getAccountUsage(http, signal),
    dispose: () => http.dispose(),
  };
}

export type ContentApi = ReturnType<typeof createApi>;
