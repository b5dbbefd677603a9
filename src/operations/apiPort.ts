/**
 * An account as the operations see it (./port.ts), over a plain API client (src/api): the MCP server's, which has no
 * views. It remembers what its own answers read (the newest copy of each document, the templates its documents
 * named, the plan usage), so that an update checks against it and the requests are the VS Code tools' own: a search
 * one list, a read one GET, an update right after a read one PATCH, the plan usage once. No `vscode` import.
 */
import type { AccountInfo, ContentApi, ContentDocument } from '../api/index';
import { isKnownTemplate } from '../api/templates';
import { displayLabel, hostOf } from '../accounts/accountNames';
import { errorKind } from '../util/errors';
import { ReadMemory, type AccountPort, type TemplateData } from './port';

/** The client calls the operations make. */
export type OperationsApi = Pick<
  ContentApi,
  'listDocuments' | 'showDocument' | 'storeDocument' | 'updateDocument' | 'deleteDocument' | 'listProjects' | 'deleteProject' | 'getAccountUsage'
>;

/** How long the plan usage read is used before it is read again (the server's counters move with the writer's work elsewhere). */
export const USAGE_MAX_AGE_MS = 60_000;

export function apiPort(api: OperationsApi, documentsUrl: string): AccountPort {
  const known = new Map<number, ContentDocument>();
  const custom = new Map<number, TemplateData>();
  let usage: { info: AccountInfo; at: number } | undefined;
  let reading: Promise<AccountInfo> | undefined;

  /** A copy read: kept unless an older answer than the one known (its updated_at earlier). */
  const seen = (doc: ContentDocument): ContentDocument => {
    const before = known.get(doc.id);
    if (!(before?.updated_at && doc.updated_at && before.updated_at > doc.updated_at)) known.set(doc.id, doc);
    const t = doc.template;
    if (t && !isKnownTemplate(t.id) && t.name) custom.set(t.id, { id: t.id, name: t.name, custom: true });
    return doc;
  };
  const cached = () => (usage && Date.now() - usage.at <= USAGE_MAX_AGE_MS ? usage.info : undefined);

  return {
    get name() {
      return displayLabel(hostOf(documentsUrl), usage?.info.name);
    },
    documents: {
      known: (id) => known.get(id),
      async list(query, signal) {
        const page = await api.listDocuments(query, signal);
        page.items.forEach(seen);
        return page;
      },
      fetch: async (id, signal) => seen(await api.showDocument(id, signal)),
      async create(input, signal) {
        const doc = seen(await api.storeDocument(input, signal));
        // The counters the plan usage showed no longer hold: the next question reads them again.
        usage = undefined;
        return doc;
      },
      update: async (id, changes) => seen(await api.updateDocument(id, changes)),
      async delete(id) {
        try {
          await api.deleteDocument(id);
        } catch (e) {
          // Already gone on the server: the outcome asked for.
          if (errorKind(e) !== 'notFound') throw e;
        }
        known.delete(id);
      },
      markDeleted: (id) => void known.delete(id),
    },
    cachedUsage: cached,
    usage() {
      const c = cached();
      if (c) return Promise.resolve(c);
      reading ??= api.getAccountUsage().then(
        (info) => {
          usage = { info, at: Date.now() };
          reading = undefined;
          return info;
        },
        (e: unknown) => {
          reading = undefined;
          throw e;
        },
      );
      return reading;
    },
    listProjects: (query, signal) => api.listProjects(query, signal),
    async deleteProject(name) {
      try {
        await api.deleteProject(name);
        return 'deleted';
      } catch (e) {
        if (errorKind(e) === 'notFound') return 'gone';
        throw e;
      }
    },
    templates: () => [...custom.values()],
    seen: new ReadMemory(),
  };
}
