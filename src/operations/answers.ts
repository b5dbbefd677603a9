/**
 * The operations' outcomes in a model's words: what the VS Code language-model tools and the MCP server answer, the
 * same lines from both (./format.ts), each naming the tools as its front end names them (./words.ts). No `vscode`.
 */
import { describeError } from '../util/errors';
import * as format from './format';
import type { ToolInputs } from './inputs';
import {
  createDocument,
  deleteDocument,
  deleteProject,
  listProjects,
  listTemplates,
  planUsage,
  readDocument,
  searchDocuments,
  updateDocument,
  type Outcome,
  type Problem,
} from './index';
import type { AccountPort } from './port';
import type { ToolWords } from './words';

/** The keys of the operations an agent calls as tools. */
export type OperationKey = 'search' | 'read' | 'templates' | 'create' | 'update' | 'delete' | 'deleteProject' | 'usage' | 'projects';

export const OPERATION_KEYS: readonly OperationKey[] = ['search', 'read', 'templates', 'create', 'update', 'delete', 'deleteProject', 'usage', 'projects'];

/** What a tool answers: its text, and whether it reports a failure or refusal (an MCP tool result's `isError`). */
export interface ModelAnswer {
  readonly text: string;
  readonly isError: boolean;
}

function done(text: string): ModelAnswer {
  return { text, isError: false };
}

function refused(text: string): ModelAnswer {
  return { text, isError: true };
}

/** A failure in the UI's words: `Couldn't read document 12 of Ann @ host: the server had a problem (HTTP 500)…`. */
function problemText(action: string, problem: Problem): string {
  switch (problem.kind) {
    case 'cancelled':
      return `${action}: cancelled.`;
    case 'gone':
      return `${action}: it no longer exists on the server.`;
    case 'failed':
      return describeError(action, problem.error);
    case 'changed':
    case 'noTemplate':
      // Worded by the operation's own answer.
      return `${action}.`;
  }
}

function outcome<T>(o: Outcome<T>, action: () => string, text: (value: T) => string): ModelAnswer {
  return o.ok ? done(text(o.value)) : refused(problemText(action(), o.problem));
}

/** Runs an operation on the account and words its outcome for a model. `value`: the input as parseToolInput checked it. */
export async function answer<K extends OperationKey>(
  key: K,
  port: AccountPort,
  value: ToolInputs[K],
  words: ToolWords,
  signal?: AbortSignal,
): Promise<ModelAnswer> {
  switch (key) {
    case 'search': {
      const v = value as ToolInputs['search'];
      const o = await searchDocuments(port, v, signal);
      if (!o.ok && o.problem.kind === 'noTemplate') {
        return refused(
          `\`template\`: ${port.name} has no template named ${JSON.stringify(o.problem.template)}; ${words.templates} lists them (give the id). Nothing was sent.`,
        );
      }
      return outcome(o, () => `Couldn't search the documents of ${port.name}`, (r) => format.searchText({ account: port.name, ...r.summary }, r.documents, words));
    }
    case 'read': {
      const { id } = value as ToolInputs['read'];
      const o = await readDocument(port, id, signal);
      return outcome(o, () => `Couldn't read document ${id} of ${port.name}`, (d) => format.readText(port.name, d));
    }
    case 'templates': {
      const o = listTemplates(port);
      return outcome(o, () => `Couldn't list the templates of ${port.name}`, (t) => format.templatesText(port.name, t));
    }
    case 'create': {
      const v = value as ToolInputs['create'];
      const o = await createDocument(port, v, signal);
      return outcome(o, () => `Couldn't create "${v.name}" in ${port.name}`, (d) => `Created.\n${format.readText(port.name, d)}`);
    }
    case 'update': {
      const v = value as ToolInputs['update'];
      const name = (port.documents.known(v.id) ?? port.seen.get(v.id)?.doc)?.name;
      const action = () => `Couldn't change ${name === undefined ? `document ${v.id}` : `"${name}"`} in ${port.name}`;
      const o = await updateDocument(port, v);
      if (!o.ok && o.problem.kind === 'changed') {
        const at = o.problem.current.updated_at ?? 'an unknown time';
        return refused(
          `${action()}: it changed since you read it (it was last changed at ${at}, not ${v.updated_at}), so nothing was changed. Read it again with ${words.read}, then decide.`,
        );
      }
      return outcome(o, action, (r) => {
        const changed = format.changeLines(r.before, v.changes).join('; ');
        return `Changed: ${changed}.\nAccount: ${port.name}\nDocument ${format.documentLine(r.document)}\n(Use this updated_at for a further change.)`;
      });
    }
    case 'delete': {
      const { id } = value as ToolInputs['delete'];
      const known = port.documents.known(id);
      const what = known ? `"${known.name}" (#${id})` : `document ${id}`;
      const o = await deleteDocument(port, id);
      return outcome(o, () => `Couldn't delete ${what} in ${port.name}`, () => `Deleted ${what} from ${port.name}.`);
    }
    case 'deleteProject': {
      const { project } = value as ToolInputs['deleteProject'];
      const o = await deleteProject(port, project);
      return outcome(
        o,
        () => `Couldn't delete the project "${project}" in ${port.name}`,
        (r) =>
          r === 'gone'
            ? `The project "${project}" no longer exists on the server of ${port.name}: nothing was deleted.`
            : `Deleted the project "${project}" and its reports from ${port.name}.`,
      );
    }
    case 'usage': {
      const o = await planUsage(port);
      return outcome(o, () => `Couldn't read the plan usage of ${port.name}`, (info) => format.usageText(port.name, info));
    }
    case 'projects': {
      const v = value as ToolInputs['projects'];
      const o = await listProjects(port, v, signal);
      return outcome(o, () => `Couldn't list the projects of ${port.name}`, (r) => format.projectsText(port.name, r.projects, r.total, r.search));
    }
  }
  throw new Error(`No operation ${String(key)}.`);
}
