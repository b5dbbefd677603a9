/**
 * The pieces of the lists' model-based test (listsModel.test.ts): the client stack without `vscode` (the real
 * API client, DocumentService, DocumentsModel and the account folder's AccountIndex, wired as
 * src/files/documentFs.ts wires it), the server's own answers read over HTTP (the oracle), and a seeded PRNG.
 */
import { createApi, type ContentApi } from '../../src/api';
import type { ContentDocument } from '../../src/api/index';
import { AccountIndex, listAccount } from '../../src/files/accountIndex';
import { DocumentsModel, type DocumentsModelHost } from '../../src/documents/documentsModel';
import { Emitter } from '../../src/model/emitter';
import type { DocNode, DocumentNode, GroupNode } from '../../src/model/nodes';
import type { ApiProvider } from '../../src/accounts/apiProvider';
import { DocumentService } from '../../src/documents/documentService';
import { errorKind } from '../../src/util/errors';
import type { DocumentSortSetting, PageSize } from '../../src/util/config';
import { mulberry32 } from '../sandbox/seed';
import type { Sandbox } from '../sandbox/server';
import { TEMPLATES as SERVER_TEMPLATES } from '../sandbox/templates';

// --- A seeded PRNG ------------------------------------------------------------------------------------------

export class Rng {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = mulberry32(seed * 7919 + 101);
  }
  float(): number {
    return this.#next();
  }
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  weighted<T extends string>(weights: ReadonlyArray<readonly [T, number]>): T {
    const total = weights.reduce((s, [, w]) => s + w, 0);
    let r = this.#next() * total;
    for (const [k, w] of weights) if ((r -= w) < 0) return k;
    return weights[weights.length - 1][0];
  }
}

/** An element of `xs` chosen by a float in [0, 1) drawn beforehand (so a step keeps its choice when others are left out). */
export function choose<T>(xs: readonly T[], r: number): T | undefined {
  return xs.length ? xs[Math.min(xs.length - 1, Math.floor(r * xs.length))] : undefined;
}

// --- The server's answers -----------------------------------------------------------------------------------

/** A document as the server's list answers it (the JSON record). */
export interface ServerDoc {
  id: number;
  name: string;
  template: { id: number; name: string } | [];
  result: string | null;
  favorite: boolean;
}

const TABLE_IDS = new Set(SERVER_TEMPLATES.map((t) => t.id));

/** Other templates, by the server's record: no template (`[]`) or one the table of 52 does not have. */
export function serverIsOther(d: ServerDoc): boolean {
  return Array.isArray(d.template) || !TABLE_IDS.has(d.template.id);
}

/** What a row shows of a document, comparable between the server's record and the client's copy. */
export function serverSig(d: ServerDoc): string {
  return [d.name, Array.isArray(d.template) ? '-' : d.template.id, d.favorite ? 1 : 0, d.result ?? ''].join('\u0001');
}

export function clientSig(d: ContentDocument): string {
  return [d.name, d.template?.id ?? '-', d.favorite ? 1 : 0, d.result].join('\u0001');
}

/**
 * Lists as the sandbox answers them, read over HTTP with the plain key (not through the client under test), to
 * the end at 100 a page. Requests carry `oracle=1` (a parameter the server ignores) so that the test's request
 * hook and request counts can tell them apart. Answers are cached per store version (the test bumps it after
 * every change it makes).
 */
export class ServerLists {
  version = 0;
  readonly #cache = new Map<string, Promise<ServerDoc[]>>();

  constructor(private readonly sb: Sandbox) {}

  bump(): void {
    this.version++;
    this.#cache.clear();
    this.#consistent.clear();
  }

  /** The whole list for these parameters, page after page at `perPage`. */
  list(params: Record<string, string>, perPage = 100): Promise<ServerDoc[]> {
    const key = `${perPage}?${new URLSearchParams(params).toString()}`;
    let p = this.#cache.get(key);
    if (!p) {
      p = this.#walk(params, perPage);
      this.#cache.set(key, p);
    }
    return p;
  }

  /** Whether the last page of the walk for these parameters was read (cached) and agreed with its `meta.total`, without a repeat. */
  consistent(params: Record<string, string>, perPage = 100): boolean {
    return this.#consistent.get(`${perPage}?${new URLSearchParams(params).toString()}`) === true;
  }
  readonly #consistent = new Map<string, boolean>();

  async #walk(params: Record<string, string>, perPage: number): Promise<ServerDoc[]> {
    const out: ServerDoc[] = [];
    let total = -1;
    for (let page = 1; page < 10_000; page++) {
      const q = new URLSearchParams({ ...params, per_page: String(perPage), page: String(page), oracle: '1' });
      const res = await fetch(`${this.sb.docsUrl}/api/v1/documents?${q.toString()}`, {
        headers: { Authorization: `Bearer ${this.sb.key}`, Accept: 'application/json' },
      });
      if (res.status !== 200) throw new Error(`oracle: ${res.status} for ${q.toString()}`);
      const body = (await res.json()) as { data: ServerDoc[]; links: { next: string | null }; meta: { total: number } };
      out.push(...body.data);
      total = body.meta.total;
      if (!body.links.next || body.data.length === 0) break;
    }
    const key = `${perPage}?${new URLSearchParams(params).toString()}`;
    if (this.#cache.has(key)) this.#consistent.set(key, out.length === total && new Set(out.map((d) => d.id)).size === total);
    return out;
  }

  /** Someone else, on the website: a new document (the server issues its id). */
  async create(name: string, templateId: number | 'none', prompt: string): Promise<ServerDoc> {
    const res = await fetch(`${this.sb.docsUrl}/api/v1/documents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.sb.key}`, Accept: 'application/json', 'Content-Type': 'application/json' },
      // A template id that is not a number creates a document whose template is `[]` (a deleted one).
      body: JSON.stringify({ name, prompt, creativity: 0.5, template_id: templateId === 'none' ? 'deleted' : templateId }),
    });
    if (res.status !== 201) throw new Error(`someone else's create: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: ServerDoc }).data;
  }
}

// --- The client stack ---------------------------------------------------------------------------------------

export interface ClientStack {
  readonly client: ContentApi;
  readonly service: DocumentService;
  readonly model: DocumentsModel;
  /** The account folder's listing, wired to the service as the file system provider wires it. */
  readonly index: AccountIndex;
  readonly warnings: string[];
  /** The reload a Refresh started (as the file system provider does, without its 500 ms wait), with its outcome. */
  reloading: Promise<void> | undefined;
  group(key: string): GroupNode | undefined;
  /** Refresh of the Documents view: the view's lists, then everything the service knew (the account folder lists again). */
  refresh(): Promise<void>;
  /** Ids the account folder lists now (every file of every folder). */
  indexIds(): Set<number>;
  dispose(): void;
}

export function clientStack(sb: Sandbox, pageSize: PageSize, sort: DocumentSortSetting): ClientStack {
  const client = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 10_000, retries: 0, pacing: false });
  const serverChange = new Emitter<void>();
  const signIn = new Emitter<boolean>();
  const api = { get: () => client, onDidChangeServer: serverChange.event } as unknown as ApiProvider;
  const service = new DocumentService(api);
  const warnings: string[] = [];
  const host: DocumentsModelHost = {
    hasKey: () => Promise.resolve(true),
    onDidChangeSignIn: signIn.event,
    pageSize: () => pageSize,
    defaultSort: () => sort,
    hideEmpty: () => false,
    persist: () => Promise.resolve(),
    progress: (p) => p,
    log: { warn: (l) => warnings.push(l), debug: () => undefined },
  };
  const model = new DocumentsModel(service, host, undefined);
  model.countIntervalMs = 0;

  // As src/files/documentFs.ts: the whole listing in pages of 100 by id, announced to the other listeners; a document
  // the listing lacks is read by id (a 404 lets it go, any other failure keeps it).
  const index = new AccountIndex(
    (current) => listAccount((page) => service.list({ perPage: 100, sortBy: 'id', sort: 'asc', page }, undefined, { announce: true }), current),
    '.md',
    (id) => service.fetch(id).then((doc) => doc, (e: unknown) => (errorKind(e) === 'notFound' ? null : Promise.reject(e instanceof Error ? e : new Error(String(e))))),
  );
  const stack: ClientStack = {
    client,
    service,
    model,
    index,
    warnings,
    reloading: undefined,
    group(key) {
      if (key === 'all') return model.allGroup;
      if (key === 'favorites') return model.favoritesGroup;
      if (key === 'other') return model.otherGroup;
      if (key === 'search') return model.searchGroup;
      return model.templateGroup(Number(key.slice(1)));
    },
    async refresh() {
      model.refresh();
      service.forgetAll();
      await stack.reloading;
    },
    indexIds() {
      const ids = new Set<number>();
      for (const f of index.folderNames()) for (const [, id] of index.files(f) ?? []) ids.add(id);
      return ids;
    },
    dispose() {
      subs.forEach((d) => d.dispose());
      model.dispose();
      service.dispose();
      client.dispose();
    },
  };
  const subs = [
    service.onDidChange(({ doc, previous }) => {
      if (!previous || previous.name !== doc.name || previous.template?.id !== doc.template?.id) index.upsert(doc);
    }),
    service.onDidDelete((d) => index.remove(d.id)),
    service.onDidCreate((doc) => index.upsert(doc)),
    service.onDidForget(() => {
      if (!index.loaded) return;
      // A document the new listing no longer has is reported deleted to the views and editors (documentFs.ts).
      stack.reloading = index.reload().then((d) => {
        for (const id of d.goneIds) service.markDeleted(id);
      });
    }),
  ];
  return stack;
}

/** The document rows of a group's children, and whether the group still offers Load more (or shows an error). */
export function rowsOf(children: readonly DocNode[]): { rows: DocumentNode[]; more: boolean; error: unknown } {
  const rows = children.filter((c): c is DocumentNode => c.kind === 'document');
  const err = children.find((c) => c.kind === 'error');
  return { rows, more: children.some((c) => c.kind === 'loadMore'), error: err && err.kind === 'error' ? err.error : undefined };
}
