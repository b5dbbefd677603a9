/**
 * dist/tools.js: what the language-model tools do (registered at activation by register.ts, loaded on the first
 * invocation). Every input is checked first (inputs.ts): a bad one, a signed-out extension or an unknown account is
 * answered in words a model can act on, with no request. Then as many requests as a person clicking would make,
 * through the same services as the views and commands, so what a tool reads or changes shows in the views at once.
 */
import vscode = require('vscode');
import type { Account } from '../../accounts/account';
import type { ContentDocument } from '../../api/index';
import { PAGE_SIZES, nearestCreativity, type PageSize } from '../../api/validate';
import { TEMPLATES, templateName } from '../../api/templates';
import { hostOf } from '../../accounts/accountNames';
import { STATE } from '../../constants';
import { sameDocument } from '../../documents/document';
import type { DocumentService } from '../../documents/documentService';
import { figureLine } from '../../model/usageFormat';
import type { DocumentsTreeProvider } from '../../documents/documentsTree';
import { averageScore } from '../../projects/projectScore';
import type { ProjectsTreeProvider } from '../../projects/projectsTree';
import * as config from '../../util/config';
import { describeError, errorKind, isCancellation, reason } from '../../util/errors';
import * as format from './format';
import { parseToolInput, type ToolInputs } from './inputs';
import { toolKey } from './names';
import type { AccountRegistry } from '../../accounts/registry';
import type { AccountRootsTree } from '../../tree/accountRoots';
import type { DocNode } from '../../model/nodes';
import type { LoadBundle } from '../../util/loadBundle';
import type { Logger } from '../../util/log';
import type { ProjectNode } from '../../model/nodes';

/** What the language-model tools take. */
export type ToolNeeds = { readonly state: vscode.Memento; readonly documentsView: AccountRootsTree<DocNode>; readonly projectsView: AccountRootsTree<ProjectNode>; readonly registry: AccountRegistry; readonly log: Logger; readonly loadBundle: LoadBundle };

type BackupModule = typeof import('../../backup/command');

/** dist/backup.js: the backup, shared with Back Up Account to Folder… (loaded on the backup tool's first run, with the window's code cache). */
function loadBackup(s: ToolNeeds): BackupModule {
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return s.loadBundle('backup', () => require('./backup.js') as BackupModule);
}


/** An update trusts a read of the document this recent; otherwise it reads it again first (as a save does, see WRITE_CHECK_MS). */
export const UPDATE_CHECK_MS = 2_000;

const SIGNED_OUT = 'You are not signed in to Content Docs: run "Content Docs: Set API Key…" (or "Content Docs: Add Account…") first. Nothing was sent.';

type Options = vscode.LanguageModelToolInvocationOptions<unknown>;
type PrepareOptions = vscode.LanguageModelToolInvocationPrepareOptions<unknown>;

/**
 * A tool's answer: text only. Its lines carry every fact (ids, updated_at, formats, scores); a JSON data part would
 * repeat them for the model and shows in the chat as an unnamed "file.bin" under the tool call.
 */
function answer(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

const DISABLED = 'The Content Docs tools are turned off (the setting "contentDocs.agents.enabled"). Nothing was sent.';

// --- Which account ----------------------------------------------------------------------------------------------

/**
 * The account a tool works in: the one `wanted` names (its name as the views show it, its host, or its local label),
 * else the one the user last worked in, else the first. A string: why there is none (nothing is sent). Local.
 */
export async function accountFor(s: ToolNeeds, wanted: string | undefined): Promise<Account | string> {
  await s.registry.settled();
  const shown = s.registry.all();
  if (shown.length === 0) return SIGNED_OUT;
  let account: Account;
  if (wanted !== undefined) {
    const w = wanted.toLowerCase();
    const names = (a: Account) => [a.displayName, a.label, hostOf(a.documentsUrl)];
    const matches = shown.filter((a) => names(a).some((n) => n?.toLowerCase() === w));
    if (matches.length !== 1) {
      // Two accounts on one host with the same user's name (two keys) look alike: each such one is given with its
      // local label (not secret: the views' URIs carry it), which names it as `account`.
      const same = (a: Account) => shown.filter((o) => o.displayName.toLowerCase() === a.displayName.toLowerCase()).length > 1;
      const list = shown.map((a) => JSON.stringify(a.displayName) + (same(a) && a.label ? ` (label ${JSON.stringify(a.label)})` : '')).join(', ');
      const alike = shown.some((a) => same(a) && a.label) ? ' Accounts that share a name are named by their label as `account`.' : '';
      const what = matches.length ? `Several accounts match ${JSON.stringify(wanted)}` : `There is no account named ${JSON.stringify(wanted)}`;
      return `${what}; ${shown.length === 1 ? 'the account is' : 'the accounts are'} ${list}.${alike} Nothing was sent.`;
    }
    account = matches[0];
  } else {
    const last = s.state.get<string>(STATE.lastAccount);
    account = shown.find((a) => a.label !== undefined && a.label === last) ?? shown[0];
  }
  return withKey(account);
}

/** The account, when its key is on this machine; else what to do first. */
async function withKey(account: Account): Promise<Account | string> {
  if (!(await account.hasKey())) {
    return `The API key of ${account.displayName} is not on this machine: run "Content Docs: Enter API Key of an Added Account…" first. Nothing was sent.`;
  }
  return account;
}

/**
 * The account each confirmation named, per tool and input: invoke acts there, not in the account the user last worked
 * in by the time the question is answered, nor in another account the input's name or host names by then (the same id
 * there is another document).
 */
const confirmed = new Map<string, { account: Account; at: number }>();

/** How long a confirmation's account is kept for its invocation (a question may wait; one never answered goes). */
const CONFIRMED_MS = 60 * 60_000;

function confirmedKey(name: string, input: unknown): string {
  return `${name}\n${JSON.stringify(input)}`;
}

/** The account its confirmation named; without one (no confirmation), the account of the input (see {@link accountFor}). */
async function accountOfInvocation(s: ToolNeeds, name: string, input: unknown, wanted: string | undefined): Promise<Account | string> {
  const key = confirmedKey(name, input);
  const pin = confirmed.get(key);
  confirmed.delete(key);
  if (pin && Date.now() - pin.at <= CONFIRMED_MS) {
    // The account the question named, as it was then: gone since (removed, signed out, another key or server), nothing is done anywhere.
    if (!s.registry.isLive(pin.account)) return 'The account this was confirmed in is no longer signed in. Nothing was sent.';
    return withKey(pin.account);
  }
  return accountFor(s, wanted);
}


function treeOf(s: ToolNeeds, account: Account): DocumentsTreeProvider {
  return s.documentsView.treeOf(account) as DocumentsTreeProvider;
}

/** A document's template as the Documents view names it in this account. */
function templateOf(s: ToolNeeds, account: Account, doc: ContentDocument): string {
  const id = doc.template?.id;
  return templateName(id, doc.template?.name || (id === undefined ? undefined : treeOf(s, account).templateGroup(id)?.name));
}

/** The 52 templates and the custom ones this account's Documents view has seen, with the server's names. */
function templatesOf(s: ToolNeeds, account: Account): format.TemplateData[] {
  const all = new Map<number, format.TemplateData>(TEMPLATES.map((t) => [t.id, { id: t.id, name: t.name, custom: false }]));
  for (const g of treeOf(s, account).templateGroups()) all.set(g.templateId, { id: g.templateId, name: g.name, custom: g.custom });
  return [...all.values()].sort((a, b) => a.id - b.id);
}

// --- What the tools read: the copy each answer showed (the update's conflict check) ------------------------------

interface Seen {
  readonly doc: ContentDocument;
  readonly at: number;
}

/** Per account's document service: the copy of each document a tool's answer last showed, and when it was read. */
const seen = new WeakMap<DocumentService, Map<number, Seen>>();

function remember(documents: DocumentService, doc: ContentDocument, at = Date.now()): void {
  let m = seen.get(documents);
  if (!m) seen.set(documents, (m = new Map<number, Seen>()));
  m.set(doc.id, { doc, at });
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const c = new AbortController();
  if (token.isCancellationRequested) c.abort();
  else token.onCancellationRequested(() => c.abort());
  return c.signal;
}

/** A failure in the UI's words; a document the server no longer has is dropped from the views, as the UI does. */
function failure(action: string, e: unknown, gone?: { account: Account; id: number }): vscode.LanguageModelToolResult {
  if (isCancellation(e)) return answer(`${action}: cancelled.`);
  if (errorKind(e) === 'notFound' && gone) {
    gone.account.documents.markDeleted(gone.id);
    return answer(`${action}: it no longer exists on the server.`);
  }
  return answer(describeError(action, e));
}

// --- Confirmations ------------------------------------------------------------------------------------------------

/**
 * What VS Code shows before a tool runs: for the tools that create, change or delete, a confirmation naming what
 * they do (and a creation's quota); nothing to confirm for a bad input, which invoke answers without a request.
 */
export async function prepare(s: ToolNeeds, name: string, options: PrepareOptions, _token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation> {
  const key = toolKey(name);
  const parsed = parseToolInput(key, options.input);
  if (!config.agentsEnabled() || !parsed.ok) return { invocationMessage: vscode.l10n.t('Content Docs') };
  const account = await accountFor(s, parsed.value.account);
  if (typeof account === 'string') return { invocationMessage: vscode.l10n.t('Content Docs') };
  const now = Date.now();
  for (const [k, v] of confirmed) if (now - v.at > CONFIRMED_MS) confirmed.delete(k);
  confirmed.set(confirmedKey(name, options.input), { account, at: now });
  const where = account.displayName;
  switch (key) {
    case 'search':
      return { invocationMessage: vscode.l10n.t('Searching the documents of {0}', where) };
    case 'read':
      return { invocationMessage: vscode.l10n.t('Reading document {0} of {1}', (parsed.value as ToolInputs['read']).id, where) };
    case 'templates':
      return { invocationMessage: vscode.l10n.t('Listing the templates of {0}', where) };
    case 'usage':
      return { invocationMessage: vscode.l10n.t('Reading the plan usage of {0}', where) };
    case 'projects':
      return { invocationMessage: vscode.l10n.t('Listing the projects of {0}', where) };
    case 'create': {
      const v = parsed.value as ToolInputs['create'];
      const template = templateName(v.template ?? 1, treeOf(s, account).templateGroup(v.template ?? 1)?.name);
      const creativity = v.creativity ?? nearestCreativity(account.usage.cached?.defaultCreativity) ?? 0.5;
      const message = new vscode.MarkdownString(
        [
          vscode.l10n.t(
            'Create the document {0} in **{1}** with the template {2} (creativity {3}), written by the service from this prompt:',
            JSON.stringify(v.name),
            where,
            template,
            creativity,
          ),
          '',
          `> ${v.prompt.replace(/\s+/g, ' ')}`,
          '',
          format.quotaText(account.usage.cached, figureLine),
        ].join('\n'),
      );
      return {
        invocationMessage: vscode.l10n.t('Creating {0} in {1}', JSON.stringify(v.name), where),
        confirmationMessages: { title: vscode.l10n.t('Create a document with Content Docs?'), message },
      };
    }
    case 'update': {
      const v = parsed.value as ToolInputs['update'];
      const before = account.documents.get(v.id);
      const lines = format.changeLines(before, v.changes).map((l) => `- ${l}`);
      const head = before
        ? vscode.l10n.t('Change {0} (#{1}) in **{2}**:', JSON.stringify(before.name), v.id, where)
        : vscode.l10n.t('Change document #{0} in **{1}**:', v.id, where);
      const message = new vscode.MarkdownString([head, '', ...lines].join('\n'));
      return {
        invocationMessage: before
          ? vscode.l10n.t('Updating {0} (#{1}) in {2}', JSON.stringify(before.name), v.id, where)
          : vscode.l10n.t('Updating document #{0} in {1}', v.id, where),
        confirmationMessages: { title: vscode.l10n.t('Change a document with Content Docs?'), message },
      };
    }
    case 'delete': {
      const v = parsed.value as ToolInputs['delete'];
      // Named in the question: what is known of it, else one read (as Delete… from a command does).
      let doc = account.documents.get(v.id);
      let unread: string | undefined;
      if (!doc) {
        try {
          doc = await account.documents.fetch(v.id);
          remember(account.documents, doc);
        } catch (e) {
          unread = reason(e);
        }
      }
      const name = doc
        ? vscode.l10n.t('{0} (#{1}, {2})', JSON.stringify(doc.name), v.id, templateOf(s, account, doc))
        : unread !== undefined
          ? vscode.l10n.t('document #{0} (its name could not be read: {1})', v.id, unread)
          : vscode.l10n.t('document #{0}', v.id);
      const message = new vscode.MarkdownString(vscode.l10n.t('Delete {0} from **{1}**? This cannot be undone.', name, where));
      return {
        invocationMessage: vscode.l10n.t('Deleting {0} in {1}', name, where),
        confirmationMessages: { title: vscode.l10n.t('Delete a document with Content Docs?'), message },
      };
    }
    case 'backup': {
      const v = parsed.value as ToolInputs['backup'];
      const message = new vscode.MarkdownString(
        [
          vscode.l10n.t('Back up every document of **{0}** to the folder {1}?', where, codeSpan(v.folder)),
          '',
          vscode.l10n.t(
            'It writes one file per document there (`<Template>/<Name>.md` or `.html`, with front matter) and its state in `.content-docs-backup/`; run again on that folder, it rewrites only what changed. It deletes nothing: the files of documents deleted on the server move to `_deleted/`, a file edited in the folder is kept under a name that says so (`<Name> (edited locally <date>).md`) rather than replaced, and a file it did not write is never overwritten. It reads the list 100 documents a request.',
          ),
        ].join('\n'),
      );
      return {
        invocationMessage: vscode.l10n.t('Backing up {0} to {1}', where, v.folder),
        confirmationMessages: { title: vscode.l10n.t('Back up an account to a folder with Content Docs?'), message },
      };
    }
    case 'deleteProject': {
      const v = parsed.value as ToolInputs['deleteProject'];
      const count = (s.projectsView.treeOf(account) as ProjectsTreeProvider).model.findProject(v.project)?.project.reports;
      const project = JSON.stringify(v.project);
      const question =
        count === undefined
          ? vscode.l10n.t('Delete the project {0} and every report in it from **{1}**? This cannot be undone.', project, where)
          : count === 1
            ? vscode.l10n.t('Delete the project {0} and its 1 report from **{1}**? This cannot be undone.', project, where)
            : vscode.l10n.t('Delete the project {0} and all {1} of its reports from **{2}**? This cannot be undone.', project, count, where);
      const message = new vscode.MarkdownString(question);
      return {
        invocationMessage: vscode.l10n.t('Deleting the project {0} in {1}', project, where),
        confirmationMessages: { title: vscode.l10n.t('Delete a project with Content Docs?'), message },
      };
    }
  }
}

// --- The tools ------------------------------------------------------------------------------------------------------

export async function invoke(s: ToolNeeds, name: string, options: Options, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
  const key = toolKey(name);
  if (!config.agentsEnabled()) return answer(DISABLED);
  const parsed = parseToolInput(key, options.input);
  if (!parsed.ok) return answer(parsed.message);
  const account = await accountOfInvocation(s, name, options.input, parsed.value.account);
  if (typeof account === 'string') return answer(account);
  const signal = signalOf(token);
  switch (key) {
    case 'search':
      return search(s, account, parsed.value as ToolInputs['search'], signal);
    case 'read':
      return read(s, account, (parsed.value as ToolInputs['read']).id, signal);
    case 'templates': {
      const templates = templatesOf(s, account);
      return answer(format.templatesText(account.displayName, templates));
    }
    case 'create':
      return create(s, account, parsed.value as ToolInputs['create'], signal);
    case 'update':
      return update(s, account, parsed.value as ToolInputs['update']);
    case 'delete':
      return remove(account, (parsed.value as ToolInputs['delete']).id);
    case 'deleteProject':
      return removeProject(s, account, (parsed.value as ToolInputs['deleteProject']).project);
    case 'usage':
      return usage(account);
    case 'projects':
      return projects(account, parsed.value as ToolInputs['projects'], signal);
    case 'backup':
      return backup(s, account, parsed.value as ToolInputs['backup'], token);
  }
}

/** Text as Markdown code, whatever backticks it holds (a fence longer than its longest run of them). */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest ? ` ${text} ` : text}${fence}`;
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

async function search(s: ToolNeeds, account: Account, v: ToolInputs['search'], signal: AbortSignal): Promise<vscode.LanguageModelToolResult> {
  let template: format.TemplateData | undefined;
  if (v.template !== undefined) {
    const all = templatesOf(s, account);
    template =
      typeof v.template === 'number'
        ? (all.find((t) => t.id === v.template) ?? { id: v.template, name: templateName(v.template), custom: true })
        : all.find((t) => t.name.toLowerCase() === String(v.template).toLowerCase());
    if (!template) {
      return answer(`\`template\`: ${account.displayName} has no template named ${JSON.stringify(v.template)}; contentTemplates lists them (give the id). Nothing was sent.`);
    }
  }
  const action = `Couldn't search the documents of ${account.displayName}`;
  try {
    const page = await account.documents.list(
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
      { announce: true },
    );
    const at = Date.now();
    const docs = page.items.slice(0, v.limit).map((d) => {
      remember(account.documents, d, at);
      return format.documentData(d, templateOf(s, account, d), 'excerpt');
    });
    const summary = { account: account.displayName, query: v.query, searchIn: v.searchIn, template: template?.name, favoritesOnly: v.favoritesOnly, sort: v.sort, total: page.total };
    return answer(format.searchText(summary, docs));
  } catch (e) {
    return failure(action, e);
  }
}

async function read(s: ToolNeeds, account: Account, id: number, signal: AbortSignal): Promise<vscode.LanguageModelToolResult> {
  const action = `Couldn't read document ${id} of ${account.displayName}`;
  try {
    const doc = await account.documents.fetch(id, signal);
    remember(account.documents, doc);
    const data = format.documentData(doc, templateOf(s, account, doc), 'text');
    return answer(format.readText(account.displayName, data));
  } catch (e) {
    return failure(action, e, { account, id });
  }
}

async function create(s: ToolNeeds, account: Account, v: ToolInputs['create'], signal: AbortSignal): Promise<vscode.LanguageModelToolResult> {
  const action = `Couldn't create "${v.name}" in ${account.displayName}`;
  const creativity = v.creativity ?? nearestCreativity(account.usage.cached?.defaultCreativity) ?? 0.5;
  try {
    const doc = await account.documents.create({ name: v.name, prompt: v.prompt, creativity, templateId: v.template ?? 1 }, signal);
    remember(account.documents, doc);
    const data = format.documentData(doc, templateOf(s, account, doc), 'text');
    return answer(`Created.\n${format.readText(account.displayName, data)}`);
  } catch (e) {
    return failure(action, e);
  }
}

/**
 * The same conflict rule as a save: refused when the document changed since the agent read it. What the services
 * know decides without a request (a newer copy, read by a view or another tool: refused; the agent's read within
 * {@link UPDATE_CHECK_MS}: sent); otherwise one read first, compared with what the agent read.
 */
async function update(s: ToolNeeds, account: Account, v: ToolInputs['update']): Promise<vscode.LanguageModelToolResult> {
  const documents = account.documents;
  const known = documents.get(v.id);
  const mine = seen.get(documents)?.get(v.id);
  const name = (known ?? mine?.doc)?.name;
  const action = `Couldn't change ${name === undefined ? `document ${v.id}` : `"${name}"`} in ${account.displayName}`;
  const refused = (doc: ContentDocument) =>
    answer(
      `${action}: it changed since you read it (it was last changed at ${doc.updated_at ?? 'an unknown time'}, not ${v.updated_at}), so nothing was changed. Read it again with contentRead, then decide.`,
    );
  /** Whether `doc` is the version the agent read: its updated_at, and its content when a tool showed that version. */
  const isRead = (doc: ContentDocument) => doc.updated_at === v.updated_at && (!mine || mine.doc.updated_at !== v.updated_at || sameDocument(mine.doc, doc));
  try {
    if (known && !isRead(known)) return refused(known);
    const fresh = known && mine && mine.doc.updated_at === v.updated_at && Date.now() - mine.at <= UPDATE_CHECK_MS;
    if (!fresh) {
      const now = await documents.fetch(v.id);
      if (!isRead(now)) return refused(now);
    }
    const before = documents.get(v.id);
    const doc = await documents.update(v.id, v.changes);
    remember(documents, doc);
    const data = format.documentData(doc, templateOf(s, account, doc), 'excerpt');
    const changed = format.changeLines(before, v.changes).join('; ');
    return answer(
      `Changed: ${changed}.\nAccount: ${account.displayName}\nDocument ${format.documentLine(data)}\n(Use this updated_at for a further change.)`,
    );
  } catch (e) {
    return failure(action, e, { account, id: v.id });
  }
}

async function remove(account: Account, id: number): Promise<vscode.LanguageModelToolResult> {
  const known = account.documents.get(id);
  const what = known ? `"${known.name}" (#${id})` : `document ${id}`;
  try {
    await account.documents.delete(id);
    seen.get(account.documents)?.delete(id);
    return answer(`Deleted ${what} from ${account.displayName}.`);
  } catch (e) {
    return failure(`Couldn't delete ${what} in ${account.displayName}`, e);
  }
}

async function removeProject(s: ToolNeeds, account: Account, project: string): Promise<vscode.LanguageModelToolResult> {
  const tree = s.projectsView.treeOf(account) as ProjectsTreeProvider;
  try {
    const outcome = await tree.model.delete(project);
    const text =
      outcome === 'gone'
        ? `The project "${project}" no longer exists on the server of ${account.displayName}: nothing was deleted.`
        : `Deleted the project "${project}" and its reports from ${account.displayName}.`;
    return answer(text);
  } catch (e) {
    return failure(`Couldn't delete the project "${project}" in ${account.displayName}`, e);
  }
}

async function usage(account: Account): Promise<vscode.LanguageModelToolResult> {
  try {
    const info = account.usage.cached ?? (await account.usage.get());
    return answer(format.usageText(account.displayName, info));
  } catch (e) {
    return failure(`Couldn't read the plan usage of ${account.displayName}`, e);
  }
}

const PROJECT_ORDER = {
  newest: { sortBy: 'created_at', sort: 'desc' },
  oldest: { sortBy: 'created_at', sort: 'asc' },
  nameAsc: { sortBy: 'project', sort: 'asc' },
  nameDesc: { sortBy: 'project', sort: 'desc' },
} as const;

async function projects(account: Account, v: ToolInputs['projects'], signal: AbortSignal): Promise<vscode.LanguageModelToolResult> {
  try {
    const page = await account.projects.list({ search: v.search, ...PROJECT_ORDER[v.sort], perPage: pageFor(v.limit), page: 1 }, signal);
    const rows = page.items.slice(0, v.limit).map((p) => format.projectData(p, averageScore(p)));
    return answer(format.projectsText(account.displayName, rows, page.total, v.search));
  } catch (e) {
    return failure(`Couldn't list the projects of ${account.displayName}`, e);
  }
}

/**
 * The account backed up into the folder by the command's own run (dist/backup.js): the same files, state and refusals,
 * with its progress notification and Cancel; the outcome is said here rather than in a message.
 */
async function backup(s: ToolNeeds, account: Account, v: ToolInputs['backup'], token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
  const head = `Account: ${account.displayName}\nFolder: ${v.folder}\n`;
  try {
    const backups = loadBackup(s);
    const out = await backups.backupTo(s, account, vscode.Uri.file(v.folder), { token, notify: false });
    const r = out.report;
    if (out.error) {
      const resume = backups.goesOn(out.error.kind);
      const nothing = resume || out.error.kind === 'accountGone' ? '' : ' Nothing was written.';
      const again =
        out.error.kind === 'accountGone'
          ? ' Once the user signs in to that account again, call this tool again with the same folder to go on from there.'
          : resume
            ? ' Call this tool again with the same folder to go on from there.'
            : '';
      return answer(`${head}${out.error.message}${nothing}${again}`);
    }
    if (!r) return answer(`${head}The backup was cancelled before it began. Nothing was written.`);
    const counts = `${backups.summary(r)} (${r.seen} documents, ${r.requests} requests)`;
    if (r.cancelled) return answer(`${head}Stopped (cancelled): ${counts} so far. Call this tool again with the same folder to finish; it goes on from there.`);
    const changing = r.listChanged
      ? '\nThe list of documents changed on the server while it was read, so one may be missing: call this tool again with the same folder to complete it.'
      : '';
    return answer(`${head}Backed up: ${counts}.${changing}`);
  } catch (e) {
    return failure(`Couldn't back up ${account.displayName} to ${v.folder}`, e);
  }
}
