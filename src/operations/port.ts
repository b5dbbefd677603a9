/**
 * What an operation needs of one account: its documents, its plan usage, its projects and what is known of them
 * without a request. Two front ends give it: in VS Code the account's own services (src/agents/tools/), so that what an
 * agent reads or changes shows in the views at once; in the MCP server a plain API client (./apiPort.ts). No `vscode`.
 */
import type { AccountInfo, ContentDocument, DocumentChanges, DocumentListQuery, NewDocument, Page, Project, ProjectListQuery } from '../api/index';

export interface DocumentsPort {
  /** The copy of a document known without a request (read by a view, a tool or an earlier answer), if any. */
  known(id: number): ContentDocument | undefined;
  /** One page of a list (one request). */
  list(query: DocumentListQuery, signal?: AbortSignal): Promise<Page<ContentDocument>>;
  /** One GET. */
  fetch(id: number, signal?: AbortSignal): Promise<ContentDocument>;
  /** One store request: the service writes the text meanwhile. */
  create(input: NewDocument, signal?: AbortSignal): Promise<ContentDocument>;
  /** One PATCH. */
  update(id: number, changes: DocumentChanges): Promise<ContentDocument>;
  /** One DELETE; a document the server no longer has counts as deleted. */
  delete(id: number): Promise<void>;
  /** The server answered that it no longer has the document: forget it (the views drop it). */
  markDeleted(id: number): void;
}

/** A template as an answer lists it. */
export interface TemplateData {
  id: number;
  name: string;
  custom: boolean;
}

export interface AccountPort {
  /** The account as the answers name it ("name @ host", the host alone while the user's name is not known). */
  readonly name: string;
  readonly documents: DocumentsPort;
  /** The plan usage as last read, no request. */
  cachedUsage(): AccountInfo | undefined;
  /** The plan usage: as last read, else one request. */
  usage(): Promise<AccountInfo>;
  /** One page of projects (one request). */
  listProjects(query: ProjectListQuery, signal?: AbortSignal): Promise<Page<Project>>;
  /** One DELETE of a project and its reports; `gone`: the server no longer had it. */
  deleteProject(name: string): Promise<'deleted' | 'gone'>;
  /** The templates this account is known to have with the server's names (custom ones included), no request. */
  templates(): readonly TemplateData[];
  /** What an agent was shown of each document, and when: the update's conflict check. */
  readonly seen: ReadMemory;
}

/** The copy of each document an answer last showed an agent, and when it was read. */
export class ReadMemory {
  readonly #seen = new Map<number, { doc: ContentDocument; at: number }>();

  remember(doc: ContentDocument, at = Date.now()): void {
    this.#seen.set(doc.id, { doc, at });
  }

  get(id: number): { readonly doc: ContentDocument; readonly at: number } | undefined {
    return this.#seen.get(id);
  }

  forget(id: number): void {
    this.#seen.delete(id);
  }
}
