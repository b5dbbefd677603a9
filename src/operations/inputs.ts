/**
 * The operations' inputs as an agent gives them, checked before anything is sent: the VS Code language-model tools'
 * and the MCP server's (src/mcp/). Neither VS Code nor an MCP host enforces a tool's input schema (nor does a `when`
 * clause stop another extension from invoking a tool), so every input is parsed here: a bad one gets one sentence per
 * problem that a model can act on, and no request. The texts' limits are the UI's (validate.ts).
 * No `vscode` import: unit-tested in plain Node (test/unit/toolInputs.test.ts).
 */
import * as z from 'zod/mini';
import { isApiError } from '../api/errors';
import { CREATIVITY_LEVELS, LIMITS, checkCreativity, checkProjectName, checkText, serverTrim, type Creativity } from '../api/validate';
import { VSCODE_TOOL_WORDS, type ToolWords } from './words';

/** The inputs this module checks: one per operation, and the VS Code backup tool's. */
export type ToolKey = 'search' | 'read' | 'templates' | 'create' | 'update' | 'delete' | 'deleteProject' | 'usage' | 'projects' | 'backup';

export const DOCUMENT_SORTS = ['newest', 'oldest', 'nameAsc', 'nameDesc'] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];
export const PROJECT_SORTS = ['newest', 'oldest', 'nameAsc', 'nameDesc'] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];

/** What a list tool returns when no `limit` is given. */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** What each input must be, as the answer to a bad one says it (`limit` must be 1–100); the tools named as the front end names them. */
export function rules(words: ToolWords = VSCODE_TOOL_WORDS): Record<string, string> {
  return {
  account: "must be an account's name as the Documents view shows it (or its host, or its label)",
  query: 'must be text',
  searchIn: 'must be "name" or "result"',
  template: `must be a template id (a whole number from 1; ${words.templates} lists them)`,
  favoritesOnly: 'must be true or false',
  favorite: 'must be true or false',
  sort: `must be one of ${DOCUMENT_SORTS.join(', ')}`,
  limit: `must be 1–${MAX_LIMIT}`,
  id: 'must be a document id (a whole number from 1)',
  updated_at: `must be the \`updated_at\` the document had when you read it (${words.read} or ${words.search} say it)`,
  name: 'must be text',
  prompt: 'must be text',
  result: 'must be text',
  creativity: `must be one of ${CREATIVITY_LEVELS.map((c) => `${c.value} (${c.label})`).join(', ')}`,
  project: `must be the project's name (${words.projects} lists them)`,
  search: 'must be text',
  folder: 'must be the absolute path of a folder on the disk of the machine VS Code runs its extensions on (e.g. /home/me/Backups/content or C:\\Backups\\content)',
  };
}

/** The rules in the VS Code tools' words. */
export const RULES: Record<string, string> = rules();

const account = z.optional(z.string());
const id = z.int().check(z.minimum(1));
const limit = z.optional(z.int().check(z.minimum(1), z.maximum(MAX_LIMIT)));

/**
 * The shapes (types and ranges), without `account`; the texts are checked after, with the UI's validators. Unknown
 * inputs are refused.
 */
const FIELDS = {
  search: {
    query: z.optional(z.string()),
    searchIn: z.optional(z.enum(['name', 'result'])),
    template: z.optional(z.union([z.int().check(z.minimum(1)), z.string()])),
    favoritesOnly: z.optional(z.boolean()),
    sort: z.optional(z.enum(DOCUMENT_SORTS)),
    limit,
  },
  read: { id },
  templates: {},
  create: {
    name: z.string(),
    prompt: z.string(),
    template: z.optional(z.int().check(z.minimum(1))),
    creativity: z.optional(z.number()),
  },
  update: {
    id,
    updated_at: z.string(),
    name: z.optional(z.string()),
    result: z.optional(z.string()),
    favorite: z.optional(z.boolean()),
  },
  delete: { id },
  deleteProject: { project: z.string() },
  usage: {},
  projects: { search: z.optional(z.string()), sort: z.optional(z.enum(PROJECT_SORTS)), limit },
  backup: { folder: z.string() },
} satisfies Record<ToolKey, Record<string, z.ZodMiniType>>;

/** The shape of a tool's input: in VS Code with `account` (the window has several), in the MCP server without (it serves one). */
function shapeOf(key: ToolKey, withAccount: boolean): z.ZodMiniObject {
  return z.strictObject(withAccount ? { ...FIELDS[key], account } : FIELDS[key]);
}

/** The names of a tool's inputs, as the front end offers them. */
export function inputNames(key: ToolKey, withAccount = true): string[] {
  return [...Object.keys(FIELDS[key]), ...(withAccount ? ['account'] : [])];
}

export interface SearchInput {
  query?: string;
  searchIn: 'name' | 'result';
  /** A template id, or a name to find among the account's templates. */
  template?: number | string;
  favoritesOnly: boolean;
  sort: DocumentSort;
  limit: number;
  account?: string;
}
export interface CreateInput {
  name: string;
  prompt: string;
  template?: number;
  creativity?: Creativity;
  account?: string;
}
export interface UpdateInput {
  id: number;
  updated_at: string;
  changes: { name?: string; result?: string; favorite?: boolean };
  account?: string;
}

/** Each tool's input once checked. */
export interface ToolInputs {
  search: SearchInput;
  read: { id: number; account?: string };
  templates: { account?: string };
  create: CreateInput;
  update: UpdateInput;
  delete: { id: number; account?: string };
  deleteProject: { project: string; account?: string };
  usage: { account?: string };
  projects: { search?: string; sort: ProjectSort; limit: number; account?: string };
  backup: BackupInput;
}

export interface BackupInput {
  /** An absolute path on the extension host's disk (a `file:` URI given is turned into its path). */
  folder: string;
  account?: string;
}

export type Parsed<K extends ToolKey> = { ok: true; value: ToolInputs[K] } | { ok: false; message: string };

const NOTHING_SENT = 'Nothing was sent; correct the input and call the tool again.';

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const s = JSON.stringify(value) ?? typeof value;
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** One sentence per problem zod found: `limit` must be 1–100 (got 500). */
function shapeProblems(inputs: readonly string[], rule: Record<string, string>, raw: Record<string, unknown>, issues: readonly z.core.$ZodIssue[]): string[] {
  const out = new Set<string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) {
        out.add(`\`${k}\` is not an input of this tool; its inputs are ${inputs.map((i) => `\`${i}\``).join(', ')}.`);
      }
      continue;
    }
    const field = String(issue.path[0] ?? '');
    const says = rule[field] ?? 'is not valid';
    out.add(raw[field] === undefined ? `\`${field}\` is required: it ${says}.` : `\`${field}\` ${says} (got ${shown(raw[field])}).`);
  }
  return [...out];
}

/** A check of validate.ts, its refusal as a sentence about the input: `name`: The name cannot be empty. */
function checked<T>(problems: string[], field: string, check: () => T): T | undefined {
  try {
    return check();
  } catch (e) {
    if (!isApiError(e)) throw e;
    const message = e.fields?.[field]?.join(' ') ?? e.message;
    problems.push(`\`${field}\`: ${/[.!?]$/.test(message) ? message : `${message}.`}`);
    return undefined;
  }
}

/** The text of a search, as the server will see it (trimmed; a blank one is no search). */
function searchText(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const t = serverTrim(s);
  return t || undefined;
}

/** How a front end takes inputs: whether its tools take `account`, and how its answers name its tools. */
export interface InputOptions {
  /** Default true (VS Code: several accounts); the MCP server serves one account and takes none. */
  readonly account?: boolean;
  /** Default the VS Code tools' names. */
  readonly words?: ToolWords;
}

/**
 * A tool's input, checked: its shape (types, ranges, no unknown inputs) with zod, then its texts with the UI's
 * validators. A refusal names every problem and says that nothing was sent.
 */
export function parseToolInput<K extends ToolKey>(key: K, input: unknown, options: InputOptions = {}): Parsed<K> {
  const withAccount = options.account ?? true;
  const rule = options.words ? rules(options.words) : RULES;
  const raw = (input ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, message: `The input must be an object of named inputs (got ${shown(input)}). ${NOTHING_SENT}` };
  }
  const result = z.safeParse(shapeOf(key, withAccount), raw);
  if (!result.success) return { ok: false, message: `${shapeProblems(inputNames(key, withAccount), rule, raw, result.error.issues).join(' ')} ${NOTHING_SENT}` };
  const v = result.data as Record<string, never>;
  const problems: string[] = [];
  const value = normalise(key, v, problems, rule);
  if (problems.length) return { ok: false, message: `${problems.join(' ')} ${NOTHING_SENT}` };
  return { ok: true, value: value as ToolInputs[K] };
}

function normalise(key: ToolKey, v: Record<string, never>, problems: string[], rule: Record<string, string>): unknown {
  const account = v.account === undefined ? undefined : serverTrim(v.account) || undefined;
  switch (key) {
    case 'search':
      return {
        query: searchText(v.query),
        searchIn: v.searchIn ?? 'name',
        template: typeof v.template === 'string' ? serverTrim(v.template) || undefined : v.template,
        favoritesOnly: v.favoritesOnly ?? false,
        sort: v.sort ?? 'newest',
        limit: v.limit ?? DEFAULT_LIMIT,
        account,
      } satisfies SearchInput;
    case 'projects':
      return { search: searchText(v.search), sort: v.sort ?? 'newest', limit: v.limit ?? DEFAULT_LIMIT, account };
    case 'create': {
      const name = checked(problems, 'name', () => checkText('name', v.name, LIMITS.name));
      const prompt = checked(problems, 'prompt', () => checkText('prompt', v.prompt, LIMITS.prompt));
      const creativity = v.creativity === undefined ? undefined : checked(problems, 'creativity', () => checkCreativity(v.creativity));
      return { name, prompt, template: v.template, creativity, account };
    }
    case 'update': {
      const changes: UpdateInput['changes'] = {};
      if (v.name !== undefined) changes.name = checked(problems, 'name', () => checkText('name', v.name, LIMITS.name));
      if (v.result !== undefined) changes.result = checked(problems, 'result', () => checkText('result', v.result, LIMITS.result));
      if (v.favorite !== undefined) changes.favorite = v.favorite;
      if (v.name === undefined && v.result === undefined && v.favorite === undefined) {
        problems.push('Nothing to change: give at least one of `name`, `result` or `favorite`.');
      }
      if (!Number.isFinite(Date.parse(v.updated_at))) problems.push(`\`updated_at\` ${rule.updated_at} (got ${shown(v.updated_at)}).`);
      return { id: v.id, updated_at: v.updated_at, changes, account } satisfies UpdateInput;
    }
    case 'deleteProject':
      return { project: checked(problems, 'project', () => checkProjectName(v.project)), account };
    case 'backup': {
      const folder = backupFolder(v.folder, problems);
      return { folder, account } satisfies Partial<BackupInput>;
    }
    default:
      return { ...v, account };
  }
}

/** `/…`, `\\\\server\\share…` or a drive `C:\\…` / `C:/…`: a path that does not depend on a current folder. */
const ABSOLUTE = /^(\/|\\\\[^\\]|[a-z]:[\\/])/i;
/** A URI's scheme (`https:`, `vscode-remote:`), but not a drive letter. */
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;

/**
 * The backup's folder: an absolute path on the disk, or a `file:` URI (its path). A relative path would depend on a
 * current folder the extension does not have, and another scheme (a web address, a remote's or a virtual file system)
 * is not a folder the user can open as files: both refused with what to give instead. Undefined when refused.
 */
export function backupFolder(raw: string, problems: string[]): string | undefined {
  const given = raw.trim();
  if (!given) {
    problems.push(`\`folder\` ${RULES.folder}; it was empty.`);
    return undefined;
  }
  const scheme = SCHEME.exec(given)?.[1].toLowerCase();
  if (scheme === 'file') {
    let path: string;
    try {
      const u = new URL(given);
      path = decodeURIComponent(u.pathname);
      if (/^\/[a-z]:\//i.test(path)) path = path.slice(1);
      if (u.host) path = `//${u.host}${path}`;
    } catch {
      problems.push(`\`folder\` ${RULES.folder} (got ${shown(raw)}, which is not a valid file: URI).`);
      return undefined;
    }
    return path;
  }
  if (scheme !== undefined) {
    problems.push(`\`folder\` ${RULES.folder} (got ${shown(raw)}, a ${scheme}: address, which is not a folder on the disk).`);
    return undefined;
  }
  if (!ABSOLUTE.test(given)) {
    const home = given.startsWith('~') ? ' (`~` is not expanded: give the home folder\'s full path)' : '';
    problems.push(`\`folder\` ${RULES.folder} (got ${shown(raw)}, a relative path${home}).`);
    return undefined;
  }
  return given;
}
