/**
 * The operations an agent can run on an account: search, read, list the templates, create, update, delete, read the
 * plan usage, list and delete projects. One set, three front ends: the VS Code language-model tools
 * (src/agents/tools/), the @content chat participant (src/agents/chat/) and the MCP server (src/mcp/). Each takes an
 * input already checked (./inputs.ts: the UI's limits, src/api/validate.ts) and an account (./port.ts), makes as many
 * requests as a person clicking would, and answers with data: what was found or done, or why not (a Problem). The
 * front ends word it (./format.ts for a model, Markdown for the chat). No `vscode` import: the MCP server runs it in
 * plain Node.
 */
import type { AccountInfo, ContentDocument } from '../api/index';
import { PAGE_SIZES, nearestCreativity, type PageSize } from '../api/validate';
import { TEMPLATES, templateName } from '../api/templates';
import { sameDocument } from '../documents/document';
import { errorKind, isCancellation } from '../util/errors';
import { documentData, projectData, type DocumentData, type ProjectData, type SearchSummary } from './format';
import type { CreateInput, SearchInput, ToolInputs, UpdateInput } from './inputs';
import type { AccountPort, TemplateData } from './port';

export type { AccountPort, DocumentsPort, TemplateData } from './port';
export { ReadMemory } from './port';

/** An update trusts an agent's read of the document this recent; otherwise it reads it again first (as a save does). */
export const UPDATE_CHECK_MS = 2_000;

/** Why an operation did nothing, or failed. */
export type Problem =
  /** A template named by the input that the account does not have: nothing was sent. */
  | { readonly kind: 'noTemplate'; readonly template: string }
  /** The document changed since the agent read it: nothing was changed. */
  | { readonly kind: 'changed'; readonly current: ContentDocument }
  /** The server no longer has the document. */
  | { readonly kind: 'gone' }
  | { readonly kind: 'cancelled' }
  /** The request failed: the error says why, in the UI's words. */
  | { readonly kind: 'failed'; readonly error: unknown };

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem };

function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

/** A failure as data; `document`: the document the request was about (a 404 then means the server no longer has it). */
function failed<T>(e: unknown, document?: { port: AccountPort; id: number }): Outcome<T> {
  if (isCancellation(e)) return { ok: false, problem: { kind: 'cancelled' } };
  if (document && errorKind(e) === 'notFound') {
    // Dropped from the views, as the UI does.
    document.port.documents.markDeleted(document.id);
    return { ok: false, problem: { kind: 'gone' } };
  }
  return { ok: false, problem: { kind: 'failed', error: e } };
}

/** The 52 built-in templates and the ones the account is known to have, with the server's names. */
export function templatesOf(port: AccountPort): TemplateData[] {
  const all = new Map<number, TemplateData>(TEMPLATES.map((t) => [t.id, { id: t.id, name: t.name, custom: false }]));
  for (const t of port.templates()) all.set(t.id, t);
  return [...all.values()].sort((a, b) => a.id - b.id);
}

/** A document's template as the account names it. */
export function templateOf(port: AccountPort, doc: ContentDocument): string {
  const id = doc.template?.id;
  return templateName(id, doc.template?.name || (id === undefined ? undefined : port.templates().find((t) => t.id === id)?.name));
}

/** The creativity a creation uses when the input gives none: the account's own default, else 0.5 (Original). */
export function creativityFor(port: AccountPort, v: Pick<CreateInput, 'creativity'>): number {
  return v.creativity ?? nearestCreativity(port.cachedUsage()?.defaultCreativity) ?? 0.5;
}

/** The smallest page the server offers that holds `limit` rows: one request. */
function pageFor(limit: number): PageSize {
  return PAGE_SIZES.find((n) => n >= limit) ?? 100;
}

const DOCUMENT_ORDER = {
  newest: { sortBy: 'id', sort: 'desc' },
  oldest: { sortBy: 'id', sort: 'asc' },
  nameAsc: { sortBy: 'name', sort: 'asc' },
  nameDesc: { sortBy: 'name', sort: 'desc' },
} as const;

const PROJECT_ORDER = {
  newest: { sortBy: 'created_at', sort: 'desc' },
  oldest: { sortBy: 'created_at', sort: 'asc' },
  nameAsc: { sortBy: 'project', sort: 'asc' },
  nameDesc: { sortBy: 'project', sort: 'desc' },
} as const;

export interface SearchResult {
  /** What was searched for (the account's name left to the front end). */
  readonly summary: Omit<SearchSummary, 'account'>;
  readonly documents: readonly DocumentData[];
  /** Whether the server has more than the page read. */
  readonly hasMore: boolean;
}

/** Search: one list request, of the smallest page that holds `limit` rows. */
export async function searchDocuments(port: AccountPort, v: Omit<SearchInput, 'account'>, signal?: AbortSignal): Promise<Outcome<SearchResult>> {
  let template: TemplateData | undefined;
  if (v.template !== undefined) {
    const all = templatesOf(port);
    template =
      typeof v.template === 'number'
        ? (all.find((t) => t.id === v.template) ?? { id: v.template, name: templateName(v.template), custom: true })
        : all.find((t) => t.name.toLowerCase() === String(v.template).toLowerCase());
    if (!template) return { ok: false, problem: { kind: 'noTemplate', template: String(v.template) } };
  }
  try {
    const page = await port.documents.list(
      {
        search: v.query,
        searchBy: v.query === undefined ? undefined : v.searchIn,
        templateId: template?.id,
        favorite: v.favoritesOnly ? true : undefined,
        ...DOCUMENT_ORDER[v.sort],
        perPage: pageFor(v.limit),
        page: 1,
      },
      signal,
    );
    const at = Date.now();
    const documents = page.items.slice(0, v.limit).map((d) => {
      port.seen.remember(d, at);
      return documentData(d, templateOf(port, d), 'excerpt');
    });
    const summary = { query: v.query, searchIn: v.searchIn, template: template?.name, favoritesOnly: v.favoritesOnly, sort: v.sort, total: page.total };
    return ok({ summary, documents, hasMore: page.hasMore || page.items.length > documents.length });
  } catch (e) {
    return failed(e);
  }
}

/** Read: one GET; the document with its whole text. */
export async function readDocument(port: AccountPort, id: number, signal?: AbortSignal): Promise<Outcome<DocumentData>> {
  try {
    const doc = await port.documents.fetch(id, signal);
    port.seen.remember(doc);
    return ok(documentData(doc, templateOf(port, doc), 'text'));
  } catch (e) {
    return failed(e, { port, id });
  }
}

/** The templates: no request. */
export function listTemplates(port: AccountPort): Outcome<TemplateData[]> {
  return ok(templatesOf(port));
}

/** Create: one store request; the new document with the text the service wrote. */
export async function createDocument(port: AccountPort, v: Omit<CreateInput, 'account'>, signal?: AbortSignal): Promise<Outcome<DocumentData>> {
  const creativity = creativityFor(port, v) as NonNullable<CreateInput['creativity']>;
  try {
    const doc = await port.documents.create({ name: v.name, prompt: v.prompt, creativity, templateId: v.template ?? 1 }, signal);
    port.seen.remember(doc);
    return ok(documentData(doc, templateOf(port, doc), 'text'));
  } catch (e) {
    return failed(e);
  }
}

export interface UpdateResult {
  /** What the document was before (as known), for the words of what changed. */
  readonly before: ContentDocument | undefined;
  readonly document: DocumentData;
}

/**
 * Update, with the same conflict rule as a save: refused when the document changed since the agent read it (the
 * `updated_at` it quotes). What is known decides without a request (a newer copy, read by a view or another answer:
 * refused; the agent's own read within {@link UPDATE_CHECK_MS}: sent); otherwise one GET first, compared with what
 * the agent read. Then one PATCH.
 */
export async function updateDocument(port: AccountPort, v: Omit<UpdateInput, 'account'>): Promise<Outcome<UpdateResult>> {
  const documents = port.documents;
  const known = documents.known(v.id);
  const mine = port.seen.get(v.id);
  const refused = (doc: ContentDocument): Outcome<UpdateResult> => ({ ok: false, problem: { kind: 'changed', current: doc } });
  /** Whether `doc` is the version the agent read: its updated_at, and its content when an answer showed that version. */
  const isRead = (doc: ContentDocument) => doc.updated_at === v.updated_at && (!mine || mine.doc.updated_at !== v.updated_at || sameDocument(mine.doc, doc));
  try {
    if (known && !isRead(known)) return refused(known);
    const fresh = known && mine && mine.doc.updated_at === v.updated_at && Date.now() - mine.at <= UPDATE_CHECK_MS;
    if (!fresh) {
      const now = await documents.fetch(v.id);
      if (!isRead(now)) return refused(now);
    }
    const before = documents.known(v.id);
    const doc = await documents.update(v.id, v.changes);
    port.seen.remember(doc);
    return ok({ before, document: documentData(doc, templateOf(port, doc), 'excerpt') });
  } catch (e) {
    return failed(e, { port, id: v.id });
  }
}

/** Delete: one DELETE. `name`: the document's name as known before, if it was. */
export async function deleteDocument(port: AccountPort, id: number): Promise<Outcome<{ readonly name?: string }>> {
  const known = port.documents.known(id);
  try {
    await port.documents.delete(id);
    port.seen.forget(id);
    return ok({ name: known?.name });
  } catch (e) {
    return failed(e);
  }
}

/** The plan usage: as last read, else one request. */
export async function planUsage(port: AccountPort): Promise<Outcome<AccountInfo>> {
  try {
    return ok(port.cachedUsage() ?? (await port.usage()));
  } catch (e) {
    return failed(e);
  }
}

export interface ProjectsResult {
  readonly projects: readonly ProjectData[];
  readonly total: number | undefined;
  readonly search: string | undefined;
}

/** The projects: one list request, of the smallest page that holds `limit` rows. */
export async function listProjects(port: AccountPort, v: Omit<ToolInputs['projects'], 'account'>, signal?: AbortSignal): Promise<Outcome<ProjectsResult>> {
  try {
    const page = await port.listProjects({ search: v.search, ...PROJECT_ORDER[v.sort], perPage: pageFor(v.limit), page: 1 }, signal);
    return ok({ projects: page.items.slice(0, v.limit).map((p) => projectData(p)), total: page.total, search: v.search });
  } catch (e) {
    return failed(e);
  }
}

/** Delete a project and its reports: one DELETE on the projects server. `gone`: the server no longer had it. */
export async function deleteProject(port: AccountPort, project: string): Promise<Outcome<'deleted' | 'gone'>> {
  try {
    return ok(await port.deleteProject(project));
  } catch (e) {
    return failed(e);
  }
}
