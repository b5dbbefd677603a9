/**
 * The API layer's entry point, bundled as dist/api.js and loaded on the first request so that
 * activation never pays for the HTTP client and the schemas. No `vscode` import anywhere below src/api.
 */
import { HttpClient, type Call, type ClientOptions } from './client';
import * as documents from './documents';
import * as projects from './projects';
import { getAccount, getAccountUsage } from './account';

export type { AddressOf, Call, CallOptions, ClientOptions, Exchange, LogLevel, Priority, Service } from './client';
export type { AccountInfo, ContentDocument, Project, UsageFigures } from './schemas';
export type { Page } from './paging';
export type { DocumentListQuery, NewDocument, DocumentChanges } from './documents';
export type { ProjectListQuery } from './projects';
export { ApiError, isApiError } from './errors';
export { checkBaseUrl } from './client';
export { walkPages } from './paging';
// How plan usage reads (vscode-free): shipped with the client, so activation does not load it (figures exist only after a request).
export { statusFigure, statusText, tooltipText, usageLevel } from '../model/usageFormat';
export { serverTrim, isBlank } from './validate';
// The trees sort with these: import them from './collation' directly (no dependencies) so activation does not load this bundle.
export { compareNames, sameName } from './collation';

export function createApi(options: ClientOptions) {
  const http = new HttpClient(options);
  return {
    listDocuments: (q?: documents.DocumentListQuery, call?: Call) => documents.listDocuments(http, q, call),
    showDocument: (id: number, call?: Call) => documents.showDocument(http, id, call),
    storeDocument: (doc: documents.NewDocument, call?: Call) =>
      documents.storeDocument(http, doc, call, options.storeTimeoutMs ?? 180_000),
    updateDocument: (id: number, changes: documents.DocumentChanges, call?: Call) =>
      documents.updateDocument(http, id, changes, call),
    deleteDocument: (id: number, call?: Call) => documents.deleteDocument(http, id, call),
    listProjects: (q?: projects.ProjectListQuery, call?: Call) => projects.listProjects(http, q, call),
    deleteProject: (name: string, call?: Call) => projects.deleteProject(http, name, call),
    getAccount: (call?: Call) => getAccount(http, call),
    getAccountUsage: (call?: Call) => getAccountUsage(http, call),
    dispose: () => http.dispose(),
  };
}

export type ContentApi = ReturnType<typeof createApi>;
