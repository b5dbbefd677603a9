/**
 * dist/backup.js: Back Up Account to Folder… — the account and the folder asked for (or given by the caller: an
 * agent, a test), the documents read 100 a page, written with vscode.workspace.fs, progress with Cancel, the
 * outcome in one message. Loaded when the command first runs (see BUNDLES in esbuild.mjs). The work itself is
 * src/backup/backup.ts (no vscode).
 */
import vscode = require('vscode');
import type { Account } from '../accounts/account';
import { chooseAccount, useAccount } from '../accounts/pick';
import { isApiError, isNotFound } from '../api/errors';
import { isCancellation, reason } from '../util/errors';
import { formatList } from '../util/lists';
import { showError } from '../util/run';
import { diskBackupFs } from './diskFs';
import { STATE } from '../constants';
import type { Prompter } from '../ui/prompter';
import {
  backupOwner,
  BackupError,
  DELETED_FOLDER,
  runBackup,
  STATE_FILE,
  type BackupDocument,
  type BackupErrorKind,
  type BackupFs,
  type BackupIdentity,
  type BackupReport,
  type BackupSource,
} from './backup';
import type { AccountPickNeeds } from '../accounts/pick';
import type { Logger } from '../util/log';

/** What Back Up Account to Folder… takes. */
export type BackupNeeds = { readonly log: Logger } & AccountPickNeeds;

/** What a run of the backup takes: the log, and where each account's last backup folder is remembered (globalState). */
export type BackupRunNeeds = { readonly log: Logger; readonly state?: vscode.Memento };

/** What a caller (an agent, a test) may pass instead of answering the questions. */
export interface BackupArgs {
  /** The folder: a URI, or an absolute path on the machine the extension runs on. */
  folder?: vscode.Uri | string;
  /** The account's local label (its URIs carry it); default: asked, as for New Document…. */
  account?: string;
  /** Stops the run as the progress notification's Cancel does. */
  token?: vscode.CancellationToken;
}

/** What the command returns: the folder, what the run did, and why it stopped when it failed. */
export interface BackupOutcome {
  folder: string;
  report: BackupReport | undefined;
  /**
   * `folder`: the folder given is a file. `accountGone`: the account was removed, signed out or made anew (another key
   * or server) during the run. `message` says what happened and nothing of what to run next: each caller adds its own
   * advice (see {@link goesOn}). `cause`: what failed underneath, for the actions of a message.
   */
  error?: { kind: BackupErrorKind | 'folder' | 'accountGone'; message: string; cause?: unknown };
}

/** Whether a run stopped by this error goes on from where it stopped when run again on the same folder. */
export function goesOn(kind: BackupErrorKind | 'folder' | 'accountGone'): boolean {
  return kind === 'write' || kind === 'server';
}

const PER_PAGE = 100;

function isArgs(arg: unknown): arg is BackupArgs {
  return typeof arg === 'object' && arg !== null && ('folder' in arg || 'account' in arg || 'token' in arg) && !('kind' in arg);
}

async function pickAccount(s: BackupNeeds, arg: unknown): Promise<Account | undefined> {
  if (isArgs(arg) && arg.account !== undefined) {
    const named = s.registry.byLabel(arg.account);
    if (!named) throw new Error(vscode.l10n.t('There is no account "{0}".', arg.account));
    await useAccount(s, named);
    return named;
  }
  return chooseAccount(s, vscode.l10n.t('Back Up Account to Folder: Account'), isArgs(arg) ? undefined : arg);
}

/** A folder as the user reads it: its path on the disk, else its address. */
function shown(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

/** The folder an account was last backed up to (see {@link rememberFolder}), when it is still a folder. */
async function lastFolder(state: vscode.Memento, account: Account): Promise<vscode.Uri | undefined> {
  const all = state.get<unknown>(STATE.backupFolders);
  const kept = all && typeof all === 'object' ? (all as Record<string, unknown>)[account.label] : undefined;
  if (typeof kept !== 'string') return undefined;
  try {
    const uri = vscode.Uri.parse(kept, true);
    return (await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory ? uri : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the folder an account was backed up to: the next Back Up Account to Folder… opens its picker there. */
async function rememberFolder(state: vscode.Memento | undefined, account: Account, root: vscode.Uri): Promise<void> {
  if (!state) return;
  const all = state.get<unknown>(STATE.backupFolders);
  const next = { ...(all && typeof all === 'object' ? (all as Record<string, string>) : {}), [account.label]: root.toString() };
  await Promise.resolve(state.update(STATE.backupFolders, next)).then(undefined, () => undefined);
}

/**
 * The folder, asked with VS Code's folder picker. It opens at the folder this account was last backed up to (Git's
 * clone and GitLens remember the last parent folder so), not beside the active file: with a backed-up file open, that
 * would be inside the backup itself.
 */
async function pickFolder(s: BackupNeeds, arg: unknown, account: Account): Promise<vscode.Uri | undefined> {
  if (isArgs(arg) && arg.folder !== undefined) {
    if (typeof arg.folder !== 'string') return arg.folder;
    return /^[a-z][a-z0-9+.-]+:/i.test(arg.folder) && !/^[a-z]:[\\/]/i.test(arg.folder) ? vscode.Uri.parse(arg.folder) : vscode.Uri.file(arg.folder);
  }
  const last = await lastFolder(s.state, account);
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Back Up Here'),
    title: last
      ? vscode.l10n.t('Back Up {0} to Folder (last backed up to {1})', account.displayName, shown(last))
      : vscode.l10n.t('Back Up {0} to Folder', account.displayName),
    defaultUri: last,
  });
  return picked?.[0];
}

/** A backup folder that holds `root` (its state file is in a folder above it): where, and whose backup it is. */
interface Containing {
  readonly folder: vscode.Uri;
  readonly id: string;
  readonly account: string;
}

/** The nearest folder above `root` that holds a backup, if any (a few reads of the disk, no request). */
async function containingBackup(root: vscode.Uri): Promise<Containing | undefined> {
  let folder = root;
  for (let depth = 0; depth < 64; depth++) {
    const parent = vscode.Uri.joinPath(folder, '..');
    if (parent.path === folder.path) return undefined;
    folder = parent;
    let raw: Uint8Array;
    try {
      raw = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, ...STATE_FILE.split('/')));
    } catch {
      continue;
    }
    const owner = backupOwner(raw);
    if (owner) return { folder, ...owner };
  }
  return undefined;
}

/** What the user chose about a folder inside a backup: that backup's folder, the folder as chosen, or nothing (undefined). */
type NestedChoice = 'there' | 'here' | undefined;

/**
 * Asks before backing up into a folder inside a backup (a second copy of every document would land inside the first):
 * of this account, to back up to that backup's folder instead (bring it up to date) or here anyway; of another
 * account, here anyway or not at all. The extension already refuses a folder that holds another account's backup.
 */
async function askNested(prompter: Prompter, name: string, root: vscode.Uri, outer: Containing, same: boolean): Promise<NestedChoice> {
  const there = vscode.l10n.t('Back Up to That Folder');
  const here = vscode.l10n.t('Back Up Here Anyway');
  const answer = same
    ? await prompter.ask(
        vscode.l10n.t('"{0}" is inside the backup of {1} in "{2}".', shown(root), name, shown(outer.folder)),
        vscode.l10n.t(
          'Backing up here writes a second copy of every document inside that backup. To bring that backup up to date, back up to its folder.',
        ),
        [there, here],
      )
    : await prompter.ask(
        vscode.l10n.t('"{0}" is inside the backup of another account ({1}) in "{2}".', shown(root), outer.account, shown(outer.folder)),
        vscode.l10n.t("Backing up {0} here puts its files among that backup's. Choose a folder outside it, unless that is what you want.", name),
        [here],
      );
  return answer === there ? 'there' : answer === here ? 'here' : undefined;
}

/** The account as the folder's state names it: the documents server and the user's id there (a key changes, the user does not). */
async function identityOf(account: Account): Promise<BackupIdentity> {
  const server = account.documentsUrl.replace(/\/+$/, '');
  let origin = server;
  try {
    const u = new URL(server);
    origin = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    // Not a URL: as it is.
  }
  const info = await account.usage.get();
  const user = info.id !== undefined ? `user ${info.id}` : info.email !== undefined ? `email ${info.email}` : `label ${account.label}`;
  return { id: `${origin} ${user}`, server, account: account.displayName };
}

/**
 * The longest a backup waits when the server answers "too many requests" (429) with a Retry-After longer than the
 * client waits for a click (10 s): the server's window is a minute, and a backup runs in the background with Cancel.
 */
const RATE_LIMIT_WAIT_S = 65;
/** How many such waits one request may take before the run stops with the server's answer. */
const RATE_LIMIT_WAITS = 3;

/** Waits `ms`, or less when the signal aborts (the request that follows then fails as cancelled). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done);
  });
}

/**
 * A request of the backup, tried again after a 429 that asks to wait longer than the client waits by itself (it waits
 * out up to 10 s, for a click): a backup of 10,000 documents should not stop because someone else used the minute's
 * requests. `onWait` hears how long it waits.
 */
async function patiently<T>(request: () => Promise<T>, signal: AbortSignal | undefined, onWait: ((seconds: number) => void) | undefined): Promise<T> {
  for (let waits = 0; ; waits++) {
    try {
      return await request();
    } catch (e) {
      const seconds = isApiError(e) && e.kind === 'rateLimited' ? e.retryAfter : undefined;
      if (seconds === undefined || seconds > RATE_LIMIT_WAIT_S || waits >= RATE_LIMIT_WAITS || signal?.aborted) throw e;
      onWait?.(seconds);
      await wait(seconds * 1000, signal);
    }
  }
}

/**
 * The account's documents, read with its own client (not through the DocumentService: a backup of 10,000 documents
 * is not kept in memory, nor told to the views). The account is the one chosen when the run began: its requests go
 * to its server with its key, and once it is gone (removed, signed out, another key or server) none is sent.
 */
function sourceOf(account: Account, onWait?: (seconds: number) => void): BackupSource {
  return {
    page(page, signal) {
      // Background work: it waits behind the writer's own requests and leaves part of the server's minute to them.
      return patiently(() => account.api.get().listDocuments({ perPage: PER_PAGE, sortBy: 'id', sort: 'asc', page }, { signal, priority: 'background' }), signal, onWait);
    },
    async show(id, signal): Promise<BackupDocument | undefined> {
      try {
        return await patiently(() => account.api.get().showDocument(id, { signal, priority: 'background' }), signal, onWait);
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
  };
}

/** vscode.workspace.fs under the folder: the desktop's disk, the remote machine's, or the browser's. */
class WorkspaceBackupFs implements BackupFs {
  readonly #made = new Set<string>();
  constructor(private readonly root: vscode.Uri) {}

  #uri(path: string): vscode.Uri {
    return path ? vscode.Uri.joinPath(this.root, ...path.split('/')) : this.root;
  }

  async #folderOf(path: string): Promise<void> {
    const i = path.lastIndexOf('/');
    const folder = i < 0 ? '' : path.slice(0, i);
    if (this.#made.has(folder)) return;
    await vscode.workspace.fs.createDirectory(this.#uri(folder)).then(undefined, plain);
    this.#made.add(folder);
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    try {
      return await vscode.workspace.fs.readFile(this.#uri(path));
    } catch (e) {
      if (notFound(e)) return undefined;
      return plain(e);
    }
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    await this.#folderOf(path);
    await vscode.workspace.fs.writeFile(this.#uri(path), data).then(undefined, plain);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.#folderOf(to);
    await vscode.workspace.fs.rename(this.#uri(from), this.#uri(to), { overwrite: true }).then(undefined, plain);
  }

  async delete(path: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.#uri(path), { recursive: false, useTrash: false });
    } catch (e) {
      if (!notFound(e)) plain(e);
    }
  }

  async list(folder: string): Promise<string[]> {
    try {
      return (await vscode.workspace.fs.readDirectory(this.#uri(folder))).map(([name]) => name);
    } catch (e) {
      if (notFound(e)) return [];
      return plain(e);
    }
  }
}

function notFound(e: unknown): boolean {
  return e instanceof vscode.FileSystemError && e.code === 'FileNotFound';
}

/** A file system error in plain words (VS Code's carry the error code and the path in their message). */
function plain(e: unknown): never {
  const text = reason(e);
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  if ((e instanceof vscode.FileSystemError && e.code === 'NoPermissions') || code === 'EACCES' || code === 'EPERM') throw new Error(vscode.l10n.t('permission denied ({0})', text));
  if (/ENOSPC|no space left/i.test(text)) throw new Error(vscode.l10n.t('the disk is full ({0})', text));
  if (/EROFS|read-only file system/i.test(text)) throw new Error(vscode.l10n.t('the disk is read-only ({0})', text));
  throw e instanceof Error ? e : new Error(text);
}

/**
 * "3 new, 1 changed, 1 deleted (moved to _deleted), and 245 unchanged", with the files edited in the folder that the
 * run kept: "1 kept: edited in the folder, moved aside as “Blog post/Plan (edited locally 2026-11-28).md”"; each a list
 * of the display language (formatList).
 */
export function summary(r: BackupReport): string {
  const parts = [vscode.l10n.t('{0} new', r.new), vscode.l10n.t('{0} changed', r.changed)];
  if (r.restored) parts.push(vscode.l10n.t('{0} restored', r.restored));
  parts.push(r.deleted ? vscode.l10n.t('{0} deleted (moved to {1})', r.deleted, DELETED_FOLDER) : vscode.l10n.t('0 deleted'), vscode.l10n.t('{0} unchanged', r.unchanged));
  if (r.kept) {
    // “a”, “a” and “b”, “a”, “b”, and “c”, or “a”, “b”, “c”, and 4 more (the paths known, at most 3 of them named).
    const shown = r.keptAs.slice(0, 3).map((p) => `“${p}”`);
    const more = r.kept - shown.length;
    const names = formatList(more > 0 ? [...shown, vscode.l10n.t('{0} more', more)] : shown, vscode.env.language);
    parts.push(vscode.l10n.t('{0} kept: edited in the folder, moved aside as {1}', r.kept, names));
  }
  return formatList(parts, vscode.env.language);
}

/** Back Up Account to Folder…: see the file's comment. Undefined when the user pressed Escape. */
export async function backupAccount(s: BackupNeeds, arg?: unknown): Promise<BackupOutcome | undefined> {
  const account = await pickAccount(s, arg);
  if (!account) return undefined;
  const root = await pickFolder(s, arg, account);
  if (!root) return undefined;
  const out = await backupTo(s, account, root, {
    token: isArgs(arg) ? arg.token : undefined,
    notify: true,
    nested: (outer, same) => askNested(s.prompter, account.displayName, root, outer, same),
  });
  if (!out) return undefined;
  if (!out.error) return out;
  const advice =
    out.error.kind === 'accountGone'
      ? ' ' + vscode.l10n.t('Sign in to that account again, then run Back Up Account to Folder… on the same folder to go on from there.')
      : goesOn(out.error.kind)
        ? ' ' + vscode.l10n.t('Run Back Up Account to Folder… again to go on from there.')
        : '';
  const message = out.error.message + advice;
  void showError(s.log, message, out.error.cause);
  return { ...out, error: { ...out.error, message } };
}

/**
 * The end of a backup that went through: the message, with the folder to open, as Git's clone ends (Open in New Window,
 * Add to Workspace; a folder in the workspace already is shown in the Explorer).
 */
function tellDone(text: string, root: vscode.Uri): void {
  const open = vscode.l10n.t('Open in New Window');
  const add = vscode.l10n.t('Add to Workspace');
  void vscode.window.showInformationMessage(text, open, add).then(async (choice) => {
    if (choice === open) {
      await vscode.commands.executeCommand('vscode.openFolder', root, { forceNewWindow: true });
    } else if (choice === add) {
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (!folders.some((f) => f.uri.toString() === root.toString())) vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri: root });
      await vscode.commands.executeCommand('workbench.view.explorer');
    }
  });
}

/** Whether `root` cannot hold a backup because it is a file (a folder, or nothing yet, can: it is created). */
async function notAFolder(root: vscode.Uri): Promise<boolean> {
  try {
    const stat = await vscode.workspace.fs.stat(root);
    return !(stat.type & vscode.FileType.Directory);
  } catch {
    return false;
  }
}

/**
 * The account backed up into `root`, with progress and Cancel: the one run of the command and of the backup tool.
 * `notify`: say how it went in a message (the command); the tool says it in its answer instead. A failure is never said
 * here: it comes back in the outcome, without advice, and each caller says it with its own (or logged, without `notify`).
 * `nested`: asked when `root` lies inside a backup folder (see askNested); without it (the tool) such a folder is
 * refused. Undefined when the user answered that question with Cancel: nothing was done.
 */
export async function backupTo(
  s: BackupRunNeeds,
  account: Account,
  chosen: vscode.Uri,
  options: { token?: vscode.CancellationToken; notify: boolean; nested?: (outer: Containing, same: boolean) => Promise<NestedChoice> },
): Promise<BackupOutcome | undefined> {
  let root = chosen;
  let folder = shown(root);
  const name = account.displayName;
  if (await notAFolder(root)) {
    const message = vscode.l10n.t(
      "Couldn't back up {0} to {1}: it is a file, not a folder. Choose a folder (an empty one, or this account's backup folder).",
      name,
      folder,
    );
    if (!options.notify) s.log.warn(`[backup] ${message}`);
    return { folder, report: undefined, error: { kind: 'folder', message } };
  }
  const identity = await identityOf(account);
  const outer = await containingBackup(root);
  if (outer) {
    const same = outer.id === identity.id;
    if (!options.nested) {
      const message = same
        ? vscode.l10n.t(
            "Couldn't back up {0} to {1}: that folder is inside the backup of {0} in {2}, and backing up there would write a second copy of every document inside it. Back up to {2} to bring that backup up to date, or choose a folder outside it.",
            name,
            folder,
            shown(outer.folder),
          )
        : vscode.l10n.t(
            "Couldn't back up {0} to {1}: that folder is inside the backup of another account ({2}) in {3}. Choose a folder outside it.",
            name,
            folder,
            outer.account,
            shown(outer.folder),
          );
      s.log.warn(`[backup] ${message}`);
      return { folder, report: undefined, error: { kind: 'folder', message } };
    }
    const choice = await options.nested(outer, same);
    if (choice === undefined) return undefined;
    if (choice === 'there') {
      root = outer.folder;
      folder = shown(root);
    }
  }
  const tell = (text: string) => {
    if (options.notify) void vscode.window.showInformationMessage(text);
  };
  const finished = (text: string) => {
    if (options.notify) tellDone(text, root);
  };
  const outside = options.token;
  try {
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Backing up {0}', name), cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const subs = [token.onCancellationRequested(() => controller.abort()), outside?.onCancellationRequested(() => controller.abort())];
        if (outside?.isCancellationRequested) controller.abort();
        let shown = 0;
        try {
          return await runBackup({
            // A folder on the extension host's own disk is written with Node's file system (see diskFs.ts).
            fs: (root.scheme === 'file' ? diskBackupFs(root.fsPath, plain) : undefined) ?? new WorkspaceBackupFs(root),
            source: sourceOf(account, (seconds) => {
              s.log.info(`[backup] ${name}: the server asked to wait ${seconds} s (too many requests); waiting`);
              progress.report({ message: vscode.l10n.t('waiting {0} s: the server had too many requests', seconds) });
            }),
            identity,
            signal: controller.signal,
            onProgress({ seen, total, phase }) {
              const part = total ? (seen / total) * 100 : 0;
              progress.report({
                message:
                  phase === 'check'
                    ? vscode.l10n.t('checking documents missing from the list…')
                    : total
                      ? vscode.l10n.t('{0} of {1} documents', seen, total)
                      : seen === 1
                        ? vscode.l10n.t('1 document')
                        : vscode.l10n.t('{0} documents', seen),
                increment: Math.max(0, Math.min(100, part) - shown),
              });
              shown = Math.max(shown, Math.min(100, part));
            },
          });
        } finally {
          for (const sub of subs) sub?.dispose();
        }
      },
    );
    s.log.info(`[backup] ${name} → ${folder}: ${summary(report)}${report.cancelled ? ' (cancelled)' : ''}; ${report.requests} requests`);
    // The folder holds this account's backup now (whole as far as it went): the next run's picker opens there.
    await rememberFolder(s.state, account, root);
    if (report.cancelled) {
      tell(
        vscode.l10n.t(
          'Backup of {0} stopped: {1} so far. Run Back Up Account to Folder… on the same folder to finish; it goes on from there.',
          name,
          summary(report),
        ),
      );
    } else if (report.listChanged) {
      s.log.info(`[backup] ${name}: the list of documents changed while it was read; a rerun completes the backup`);
      finished(
        vscode.l10n.t(
          'Backed up {0} to {1}: {2}. The list of documents changed on the server during the run, so one may be missing: run Back Up Account to Folder… on the same folder again to complete it.',
          name,
          folder,
          summary(report),
        ),
      );
    } else {
      finished(vscode.l10n.t('Backed up {0} to {1}: {2}.', name, folder, summary(report)));
    }
    return { folder, report };
  } catch (e) {
    // The account went during the run: what was written is whole and kept, and nothing more was sent.
    if (account.gone) {
      const report = e instanceof BackupError ? e.report : undefined;
      const done = report && (report.new || report.changed || report.deleted) ? ' ' + vscode.l10n.t('Before that: {0}.', summary(report)) : '';
      const message =
        vscode.l10n.t(
          'The backup of {0} to {1} stopped: the account was removed, signed out, or its API key or server changed during the run, and nothing more was sent. The files written so far are whole and kept.',
          name,
          folder,
        ) + done;
      if (!options.notify) s.log.warn(`[backup] ${message}`);
      if (report) await rememberFolder(s.state, account, root);
      return { folder, report, error: { kind: 'accountGone', message, cause: e } };
    }
    if (!(e instanceof BackupError)) {
      if (isCancellation(e)) return { folder, report: undefined };
      throw e;
    }
    const before = e.report && (e.report.new || e.report.changed || e.report.deleted || e.report.kept) ? summary(e.report) : undefined;
    const message = !goesOn(e.kind)
      ? vscode.l10n.t("Couldn't back up {0} to {1}: {2}", name, folder, e.message)
      : before
        ? vscode.l10n.t("Couldn't back up {0} to {1}: {2} No file was left half-written. Before that: {3}.", name, folder, e.message, before)
        : vscode.l10n.t("Couldn't back up {0} to {1}: {2} No file was left half-written.", name, folder, e.message);
    if (!options.notify) s.log.warn(`[backup] ${message}`);
    // The folder holds this account's backup, whole as far as it went: the next run goes on there.
    if (goesOn(e.kind)) await rememberFolder(s.state, account, root);
    return { folder, report: e.report, error: { kind: e.kind, message, cause: e.cause ?? e } };
  }
}
