/**
 * dist/tools.js: what the language-model tools do (registered at activation by register.ts, loaded on the first
 * invocation). Every input is checked first (src/operations/inputs.ts): a bad one, a signed-out extension or an
 * unknown account is answered in words a model can act on, with no request. Then the operation (src/operations/, the
 * MCP server's too) on the account chosen, through that account's own services (as the views and commands use them),
 * so what a tool reads or changes shows in the views at once; it makes as many requests as a person clicking would.
 */
import vscode = require('vscode');
import type { Account } from '../../accounts/account';
import { templateName } from '../../api/templates';
import { hostOf } from '../../accounts/accountNames';
import { STATE } from '../../constants';
import type { DocumentService } from '../../documents/documentService';
import { figureLine } from '../../model/usageFormat';
import type { DocumentsTreeProvider } from '../../documents/documentsTree';
import type { ProjectsTreeProvider } from '../../projects/projectsTree';
import * as config from '../../util/config';
import { describeError, isCancellation, reason } from '../../util/errors';
import { answer as operationAnswer } from '../../operations/answers';
import * as format from '../../operations/format';
import { creativityFor, templateOf, ReadMemory, type AccountPort } from '../../operations/index';
import { parseToolInput, type ToolInputs } from '../../operations/inputs';
import { VSCODE_TOOL_WORDS } from '../../operations/words';
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
    // The name as the views show it ("name @ host", with its label when another account reads alike), without the
    // label, the label alone, or the host.
    const names = (a: Account) => [a.displayName, a.baseName, a.label, hostOf(a.documentsUrl)];
    const matches = shown.filter((a) => names(a).some((n) => n?.toLowerCase() === w));
    if (matches.length !== 1) {
      // Two accounts on one host with the same user's name (two keys) look alike: each such one is given with its
      // local label (not secret: the views' URIs carry it), which names it as `account`.
      const same = (a: Account) => shown.filter((o) => o.baseName.toLowerCase() === a.baseName.toLowerCase()).length > 1;
      const list = shown.map((a) => (same(a) && a.label ? `${JSON.stringify(a.baseName)} (label ${JSON.stringify(a.label)})` : JSON.stringify(a.displayName))).join(', ');
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
 * The accounts the confirmations named, per tool and input, oldest first: invoke acts there, not in the account the
 * user last worked in by the time the question is answered, nor in another account the input's name or host names by
 * then (the same id there is another document). VS Code does not tell which confirmation an invocation answers: while
 * confirmations of one input named different accounts (two chat requests at once), each of their invocations is
 * refused with nothing sent, as neither can be told to be the one confirmed in its account.
 */
const confirmed = new Map<string, Pin[]>();

interface Pin {
  readonly account: Account;
  readonly at: number;
  /** Why its invocation is refused: another confirmation of the same input named another account meanwhile. */
  clash?: string;
}

/** How long a confirmation's account is kept for its invocation (a question may wait; one never answered goes). */
const CONFIRMED_MS = 60 * 60_000;

function confirmedKey(name: string, input: unknown): string {
  return `${name}\n${JSON.stringify(input)}`;
}

function pinConfirmation(name: string, input: unknown, account: Account): void {
  const now = Date.now();
  for (const [k, pins] of confirmed) {
    const kept = pins.filter((p) => now - p.at <= CONFIRMED_MS);
    if (kept.length) confirmed.set(k, kept);
    else confirmed.delete(k);
  }
  const key = confirmedKey(name, input);
  confirmed.set(key, [...(confirmed.get(key) ?? []), { account, at: now }]);
}

/** The account its confirmation named; without one (no confirmation), the account of the input (see {@link accountFor}). */
async function accountOfInvocation(s: ToolNeeds, name: string, input: unknown, wanted: string | undefined): Promise<Account | string> {
  const key = confirmedKey(name, input);
  const now = Date.now();
  const pins = (confirmed.get(key) ?? []).filter((p) => now - p.at <= CONFIRMED_MS);
  const pin = pins.shift();
  if (pins.length) confirmed.set(key, pins);
  else confirmed.delete(key);
  if (!pin) return accountFor(s, wanted);
  if (pin.clash) return pin.clash;
  const others = pins.filter((p) => !p.clash && p.account !== pin.account);
  if (others.length > 0) {
    const names = [...new Set([pin, ...pins].filter((p) => !p.clash).map((p) => JSON.stringify(p.account.displayName + (p.account.label ? ` (label ${p.account.label})` : ''))))];
    const clash = `This was confirmed more than once at the same time, in different accounts (${names.join(', ')}), and which of those confirmations this run answers cannot be told. Nothing was sent. Ask again with \`account\` naming the account.`;
    // Each invocation still to come for these confirmations is refused as well.
    for (const p of pins) p.clash ??= clash;
    return clash;
  }
  // The account the question named, as it was then: gone since (removed, signed out, another key or server), nothing is done anywhere.
  // With no account signed in at all, what to do first (a confirmation never answered may have been the last one asked).
  if (!s.registry.isLive(pin.account)) {
    await s.registry.settled();
    return s.registry.all().length === 0 ? SIGNED_OUT : 'The account this was confirmed in is no longer signed in. Nothing was sent.';
  }
  return withKey(pin.account);
}


function treeOf(s: ToolNeeds, account: Account): DocumentsTreeProvider {
  return s.documentsView.treeOf(account) as DocumentsTreeProvider;
}

// --- The account as the operations see it ---------------------------------------------------------------------------

/** Per account's document service: what the tools' answers showed of each document, and when (the update's conflict check). */
const seen = new WeakMap<DocumentService, ReadMemory>();

function memoryOf(documents: DocumentService): ReadMemory {
  let m = seen.get(documents);
  if (!m) seen.set(documents, (m = new ReadMemory()));
  return m;
}

/**
 * The account for the operations (src/operations/): its own services, so that a list, a read or a change reaches the
 * views as the UI's own would (a search's changes announced, a 404 dropped from the views, a project deleted from its
 * view's model), and the templates its Documents view has seen, with the server's names.
 */
export function portOf(s: ToolNeeds, account: Account): AccountPort {
  const documents = account.documents;
  return {
    get name() {
      return account.displayName;
    },
    documents: {
      known: (id) => documents.get(id),
      list: (query, signal) => documents.list(query, signal, { announce: true }),
      fetch: (id, signal) => documents.fetch(id, signal),
      create: (input, signal) => documents.create(input, signal),
      update: (id, changes) => documents.update(id, changes),
      delete: (id) => documents.delete(id),
      markDeleted: (id) => documents.markDeleted(id),
    },
    cachedUsage: () => account.usage.cached,
    usage: () => account.usage.get(),
    listProjects: (query, signal) => account.projects.list(query, signal),
    deleteProject: (name) => (s.projectsView.treeOf(account) as ProjectsTreeProvider).model.delete(name),
    templates: () => treeOf(s, account).templateGroups().map((g) => ({ id: g.templateId, name: g.name, custom: g.custom })),
    seen: memoryOf(documents),
  };
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const c = new AbortController();
  if (token.isCancellationRequested) c.abort();
  else token.onCancellationRequested(() => c.abort());
  return c.signal;
}

/** A failure in the UI's words. */
function failure(action: string, e: unknown): vscode.LanguageModelToolResult {
  if (isCancellation(e)) return answer(`${action}: cancelled.`);
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
  pinConfirmation(name, options.input, account);
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
      const creativity = creativityFor(portOf(s, account), v);
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
          memoryOf(account.documents).remember(doc);
        } catch (e) {
          unread = reason(e);
        }
      }
      const name = doc
        ? vscode.l10n.t('{0} (#{1}, {2})', JSON.stringify(doc.name), v.id, templateOf(portOf(s, account), doc))
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
  if (key === 'backup') return backup(s, account, parsed.value as ToolInputs['backup'], token);
  const out = await operationAnswer(key, portOf(s, account), parsed.value, VSCODE_TOOL_WORDS, signalOf(token));
  return answer(out.text);
}

/** Text as Markdown code, whatever backticks it holds (a fence longer than its longest run of them). */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest ? ` ${text} ` : text}${fence}`;
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
    // Undefined only when the user was asked about the folder and cancelled (the tool asks nothing: never here).
    if (!out) return answer(`${head}Nothing was done.`);
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
