/**
 * Back Up Account to Folder: every document of an account as a file `<Template>/<Name>.md|.html` with front matter,
 * brought up to date incrementally. No `vscode` import: the file system and the server come in through the small
 * interfaces below (the command gives vscode.workspace.fs and the account's client; the unit tests a memory file
 * system with faults and a fake server).
 *
 * What keeps the folder true:
 * - A state file (`.content-docs-backup/state.json`) keyed by document id: the file's path, the document's
 *   `updated_at` and a hash of the file's text (two writes can share one `updated_at`). A document whose text, name,
 *   template and fields are as the state says, and whose file is there, is not written again.
 * - Every file is written to a temporary file, then renamed over its place: a file is the old one or the new one,
 *   never half of either. The state is saved after the files it describes (never ahead of them): a run that stops
 *   anywhere leaves files the next run recognises, by the state or by the id in their front matter.
 * - A file the backup wrote is replaced, moved or removed only while it is as the backup wrote it (the state's hash;
 *   line endings turned to CRLF alone change no word, so they do not count). One edited in the folder since is kept:
 *   renamed `<Name> (edited locally <day>).<ext>` where it is (under `_deleted/` when its document was deleted), never
 *   touched again, and the document's file is then written as usual. Nothing is deleted: a renamed document's file is
 *   moved, then replaced. A folder in place of a file, or a file whose front matter no longer names the document, is
 *   not the backup's any more: it stays as it is, and the document takes another name.
 * - A document missing from the list is not taken for deleted: a list read page by page while others create and
 *   delete documents can skip one. Only after a complete pass is each missing document asked for by id, and only a
 *   404 moves its file to `_deleted/` (never erased); one the server still has is backed up from that answer. A run
 *   that was cancelled or failed moves nothing.
 * - A deletion between two pages shifts the later rows left: the first row of the next page was on the page already
 *   read, and a first run has no state to find it by id. So when the list's total changed between the pages of a
 *   pass, the list is read once more (and at most once again after that), and what that pass brings is backed up.
 *   When it still changed, the report says so (`listChanged`) and the run is not recorded as complete: a rerun
 *   completes it. Creations append at the end in id order and shift nothing (they change the total too, which costs
 *   one pass more and skips nothing). A creation and a deletion in the same gap keep the total, so that pass is
 *   taken as whole and a shifted document can be missed: the next run repairs it (the list then shows it).
 * - The state names the account (its server and the user's id there): a folder holding another account's backup is
 *   refused before anything is read or written.
 */
import type { Page } from '../api/paging';
import { templateName } from '../api/templates';
import { detectFormat, FORMAT_EXTENSION } from '../content/format';
import { l10n } from '../util/l10n';
import { sha1Hex } from '../util/sha1';
import { documentIdOf, renderDocument, type BackupDocument } from './frontMatter';
import { candidateNames, isKeptName, keptNames, pathKey, safeStem, splitExtension, splitPath } from './names';

export type { BackupDocument } from './frontMatter';

/** The backup folder, as paths relative to it (`/`-separated, '' for the folder itself). */
export interface BackupFs {
  /** The file's bytes, or undefined when there is no such file. */
  read(path: string): Promise<Uint8Array | undefined>;
  /** Writes the whole file, creating its folders. */
  write(path: string, data: Uint8Array): Promise<void>;
  /** Moves a file over whatever `to` held, creating `to`'s folders. */
  rename(from: string, to: string): Promise<void>;
  /** Deletes a file; none there is no error. */
  delete(path: string): Promise<void>;
  /** The names in a folder; none (no such folder) is an empty list. */
  list(folder: string): Promise<string[]>;
}

/** The account's documents on the server. */
export interface BackupSource {
  /** One page of every document in ascending id order (100 a page: one request). */
  page(page: number, signal?: AbortSignal): Promise<Page<BackupDocument>>;
  /** The document, or undefined when the server says it does not exist (404): one request. */
  show(id: number, signal?: AbortSignal): Promise<BackupDocument | undefined>;
}

/** Whose documents these are. */
export interface BackupIdentity {
  /** What tells this account from any other, anywhere: its server and the user's id there. */
  readonly id: string;
  /** The documents server's address. */
  readonly server: string;
  /** The account as the user knows it ("Ann @ writer.example.com"). */
  readonly account: string;
}

export const STATE_FOLDER = '.content-docs-backup';
export const STATE_FILE = `${STATE_FOLDER}/state.json`;
export const DELETED_FOLDER = '_deleted';
const STATE_FORMAT = 'content-docs-backup';

interface Entry {
  /** Where the document's file is. */
  path: string;
  /** The path the document's name and template ask for (before a suffix made it unique): while it stays, so does `path`. */
  want: string;
  updated: string | null;
  /** SHA-1 of the file's text. */
  hash: string;
}

interface State {
  format: typeof STATE_FORMAT;
  version: 1;
  account: { id: string; server: string; label: string };
  /** When a run last went through every document. */
  completed?: string;
  documents: Record<string, Entry>;
}

export interface BackupReport {
  /** Documents written for the first time. */
  new: number;
  /** Documents written again: changed on the server (text, name, template, favorite, …). */
  changed: number;
  /** Documents unchanged whose file was missing (removed by hand) and was written again. */
  restored: number;
  unchanged: number;
  /** Documents the server no longer has: their files moved to `_deleted/`. */
  deleted: number;
  /**
   * Files edited in the folder (their text no longer the one the backup wrote) that the run would have replaced, moved
   * or removed: each was renamed `<Name> (edited locally <date>).<ext>` instead, and the document's file written anew.
   */
  kept: number;
  /** Where those files are now, as paths in the folder. */
  keptAs: string[];
  /** Requests made: list pages and documents asked for by id. */
  requests: number;
  /** Documents seen on the server in this run. */
  seen: number;
  /** The server's count of documents, from the first page. */
  total: number | undefined;
  /** Cancelled before the end: what was written is kept, and the next run goes on from there. */
  cancelled: boolean;
  /** The list still changed while its last pass was read: a document may have been skipped, and a rerun completes it. */
  listChanged: boolean;
}

export type BackupErrorKind = 'otherAccount' | 'state' | 'write' | 'server';

/** A run that could not go on. `report`: what it did before (its files are whole, and the state says so). */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly kind: BackupErrorKind,
    readonly report: BackupReport | undefined,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface BackupOptions {
  fs: BackupFs;
  source: BackupSource;
  identity: BackupIdentity;
  signal?: AbortSignal;
  /** After each page and each check of a missing document: documents seen so far, of `total`. */
  onProgress?(p: { seen: number; total: number | undefined; phase: 'list' | 'check' }): void;
  /** The state is saved after a page once this long has passed since the last save (and always at the end). */
  saveEveryMs?: number;
  now?: () => number;
}

/** How many times more the list is read when its total changed while it was read (each pass costs ⌈N/100⌉ requests). */
const PASSES_AGAIN = 2;

/**
 * How many files are written at once (vscode.workspace.fs answers each call asynchronously, often over IPC), across
 * pages: the next page is asked for as soon as a page comes, and its files start as the ones before end. Measured with
 * npm run bench (README "Performance"): 10,000 documents took 58 s with 8 at a time, a page's files all written before
 * the next page was asked for.
 */
const WRITERS = 16;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The day `ms` falls on, in local time: `2026-11-28`. */
function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Whether a read failed because the path is a folder (VS Code's FileSystemError code, or Node's). */
function isFolderError(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return code === 'FileIsADirectory' || code === 'EISDIR';
}

/**
 * What is at a path where a document's file is, or is to be: nothing; the file as the backup wrote it; that file
 * edited since; or something not (or no longer) the backup's: a folder, a file whose front matter names no document
 * or another one.
 */
type Found = 'none' | 'written' | 'edited' | 'foreign';

/** An edited file set aside before the document's file is written: from where, to its kept name. */
interface Aside {
  from: string;
  to: string;
}

/**
 * Whose backup a folder's state file (`.content-docs-backup/state.json`, its bytes) says the folder holds: the account's
 * identity and its name as the user knew it then. Undefined for a file this version cannot read.
 */
export function backupOwner(raw: Uint8Array): { id: string; account: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(raw));
  } catch {
    return undefined;
  }
  const s = parsed as Partial<State> | undefined;
  if (!s || s.format !== STATE_FORMAT || typeof s.account?.id !== 'string') return undefined;
  const account = typeof s.account.label === 'string' && s.account.label ? s.account.label : typeof s.account.server === 'string' ? s.account.server : s.account.id;
  return { id: s.account.id, account };
}

/** Backs the account up into the folder; see the file's comment. Throws a {@link BackupError}. */
export async function runBackup(options: BackupOptions): Promise<BackupReport> {
  const run = new Run(options, await readState(options.fs, options.identity));
  return run.go();
}

async function readState(fs: BackupFs, identity: BackupIdentity): Promise<State> {
  let raw: Uint8Array | undefined;
  try {
    raw = await fs.read(STATE_FILE);
  } catch (e) {
    throw new BackupError(l10n.t("Couldn't read the folder's backup state ({0}): {1}", STATE_FILE, message(e)), 'state', undefined, e);
  }
  const fresh: State = { format: STATE_FORMAT, version: 1, account: { id: identity.id, server: identity.server, label: identity.account }, documents: {} };
  if (raw === undefined) return fresh;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(raw));
  } catch {
    parsed = undefined;
  }
  const s = parsed as Partial<State> | undefined;
  if (!s || s.format !== STATE_FORMAT || s.version !== 1 || typeof s.account?.id !== 'string' || typeof s.documents !== 'object' || !s.documents) {
    throw new BackupError(
      l10n.t(
        "The folder's backup state ({0}) is not one this version can read. Choose another folder, or move that file away to start the backup over.",
        STATE_FILE,
      ),
      'state',
      undefined,
    );
  }
  if (s.account.id !== identity.id) {
    const who = typeof s.account.label === 'string' && s.account.label ? s.account.label : s.account.server;
    throw new BackupError(
      l10n.t("This folder holds the backup of another account ({0}). Choose an empty folder or this account's backup folder.", who),
      'otherAccount',
      undefined,
    );
  }
  const documents: Record<string, Entry> = {};
  for (const [id, e] of Object.entries(s.documents)) {
    if (/^\d+$/.test(id) && e && typeof e.path === 'string' && ownPath(e.path) && typeof e.want === 'string' && typeof e.hash === 'string') {
      documents[id] = { path: e.path, want: e.want, updated: typeof e.updated === 'string' ? e.updated : null, hash: e.hash };
    }
  }
  return { ...fresh, completed: s.completed, documents };
}

/**
 * Whether a path of the state is one a run writes: `<Template>/<Name>` inside the folder, outside its own folders. A
 * state edited by hand could name `../elsewhere/file`, which a rename or a move to `_deleted/` would then reach.
 */
function ownPath(path: string): boolean {
  const parts = path.split('/');
  if (parts.length !== 2 || parts.some((p) => !p || p === '.' || p === '..' || p.includes('\\'))) return false;
  return ![DELETED_FOLDER, STATE_FOLDER].includes(pathKey(parts[0]));
}

/**
 * The writes of a pass, `max` at a time (each file is its own: its own temporary file, a path no other document of
 * the run was given). Each document's state follows its own file; the first failure stops the rest, once those
 * already started have ended.
 */
class Writers {
  readonly #underWay = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;

  constructor(
    private readonly max: number,
    private readonly cancelled: () => boolean,
  ) {}

  /** Starts `write` once fewer than `max` are under way; throws the first failure of any (and starts nothing more then). */
  async add(write: () => Promise<void>): Promise<void> {
    while (this.#underWay.size >= this.max && !this.#failure) await Promise.race(this.#underWay);
    this.#throwFailure();
    if (this.cancelled()) return;
    const running: Promise<void> = write().then(
      () => void this.#underWay.delete(running),
      (e: unknown) => {
        this.#failure ??= { error: e };
        this.#underWay.delete(running);
      },
    );
    this.#underWay.add(running);
  }

  /** Waits for every write under way; throws the first failure. */
  async drain(): Promise<void> {
    await this.settled();
    this.#throwFailure();
  }

  /** Waits for every write under way, whatever became of them. */
  async settled(): Promise<void> {
    while (this.#underWay.size) await Promise.race(this.#underWay);
  }

  #throwFailure(): void {
    if (this.#failure) throw this.#failure.error;
  }
}

class Run {
  readonly #fs: BackupFs;
  readonly #source: BackupSource;
  readonly #identity: BackupIdentity;
  readonly #signal: AbortSignal | undefined;
  readonly #options: BackupOptions;
  readonly #state: State;
  readonly #report: BackupReport = { new: 0, changed: 0, restored: 0, unchanged: 0, deleted: 0, kept: 0, keptAs: [], requests: 0, seen: 0, total: undefined, cancelled: false, listChanged: false };
  readonly #seen = new Set<number>();
  /** Per path (as a case-insensitive file system sees it): the document whose file it is; -1: a file not ours. */
  readonly #owner = new Map<string, number>();
  /** Per folder key: the folder's name as first used (a template named "Blog post" and one named "blog post" share it). */
  readonly #folderName = new Map<string, string>();
  /** Per folder key: the keys of the names in it, read once a run. */
  readonly #listings = new Map<string, Promise<Set<string>>>();
  #dirty = false;
  #savedAt: number;
  /** The day kept copies are named after. */
  readonly #day: string;

  constructor(options: BackupOptions, state: State) {
    this.#options = options;
    this.#fs = options.fs;
    this.#source = options.source;
    this.#identity = options.identity;
    this.#signal = options.signal;
    this.#state = state;
    this.#state.account = { id: options.identity.id, server: options.identity.server, label: options.identity.account };
    this.#savedAt = this.#now();
    this.#day = localDay(this.#now());
    for (const [id, e] of Object.entries(state.documents)) {
      this.#owner.set(pathKey(e.path), Number(id));
      const { folder } = splitPath(e.path);
      if (!this.#folderName.has(pathKey(folder))) this.#folderName.set(pathKey(folder), folder);
    }
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  get #cancelled(): boolean {
    return this.#signal?.aborted === true;
  }

  async go(): Promise<BackupReport> {
    try {
      await this.#clearTemporaryFiles();
      let changed = await this.#pass();
      if (changed === undefined) return await this.#stop();
      // The list's total changed between pages: a row may have shifted onto a page already read. Read it again.
      for (let again = 0; changed && again < PASSES_AGAIN; again++) {
        changed = await this.#pass();
        if (changed === undefined) return await this.#stop();
      }
      this.#report.listChanged = changed;
      if (!(await this.#checkMissing())) return await this.#stop();
      if (!changed) {
        this.#state.completed = new Date(this.#now()).toISOString();
        this.#dirty = true;
      }
      await this.#save();
      return this.#report;
    } catch (e) {
      // What was written is whole; the state catches up with it (if the disk lets it), so the next run goes on.
      await this.#save().catch(() => undefined);
      if (e instanceof BackupError) throw new BackupError(e.message, e.kind, this.#report, e.cause);
      if (this.#cancelled) return { ...this.#report, cancelled: true };
      throw new BackupError(l10n.t("Couldn't read the documents from the server: {0}", message(e)), 'server', this.#report, e);
    }
  }

  async #stop(): Promise<BackupReport> {
    this.#report.cancelled = true;
    await this.#save();
    return this.#report;
  }

  /**
   * Every page of the list, each document written where it changed (one seen by an earlier pass of this run is not
   * looked at again). Whether the list's total changed between its pages; undefined when cancelled.
   */
  async #pass(): Promise<boolean | undefined> {
    let first: number | undefined;
    let changed = false;
    const writers = new Writers(WRITERS, () => this.#cancelled);
    let next: Promise<Page<BackupDocument>> | undefined = this.#source.page(1, this.#signal);
    try {
      for (let page = 1; next && page <= 100_000; page++) {
        if (this.#cancelled) return undefined;
        const p = await next;
        next = undefined;
        this.#report.requests++;
        if (page === 1) {
          first = p.total;
          this.#report.total = p.total;
        } else if (p.total !== first) changed = true;
        // The next page is asked for now: its answer comes while this page's files are written. A pass that stops
        // before reading it drops it (a cancelled run's signal ends it).
        if (p.hasMore && page < 100_000) {
          next = this.#source.page(page + 1, this.#signal);
          next.catch(() => undefined);
        }
        for (const doc of p.items) {
          if (this.#cancelled) return undefined;
          // A document created elsewhere meanwhile can show a row twice across pages: once is enough.
          if (this.#seen.has(doc.id)) continue;
          const write = await this.#prepare(doc);
          if (write) await writers.add(write);
        }
        if (this.#cancelled) return undefined;
        this.#options.onProgress?.({ seen: this.#seen.size, total: this.#report.total, phase: 'list' });
        // A save waits for the writes under way: a file moved while the state is being written would leave the state
        // naming where it was.
        if (this.#now() - this.#savedAt >= (this.#options.saveEveryMs ?? 5000)) {
          await writers.drain();
          await this.#save();
        }
      }
      await writers.drain();
      return this.#cancelled ? undefined : changed;
    } finally {
      // However the pass ends, the writes under way end first: their files and the state's entries are whole.
      await writers.settled();
    }
  }

  /** After a complete pass: each document of the state the pass did not see, asked for by id. False when cancelled. */
  async #checkMissing(): Promise<boolean> {
    const missing = Object.keys(this.#state.documents).map(Number).filter((id) => !this.#seen.has(id));
    for (const id of missing) {
      if (this.#cancelled) return false;
      const doc = await this.#source.show(id, this.#signal);
      this.#report.requests++;
      // Still there: the list skipped it (others changed the list while it was read).
      if (doc) await (await this.#prepare(doc))?.();
      else await this.#moveToDeleted(id);
      this.#options.onProgress?.({ seen: this.#seen.size, total: this.#report.total, phase: 'check' });
    }
    return true;
  }

  /**
   * What a document's file needs: nothing (it is as the state says, and there: counted unchanged), or the write
   * returned. Every path is chosen here, one document at a time (the writes run several at once): the document's, and
   * the kept names of the edited files it sets aside, taken now so no other file of the run is given them.
   */
  async #prepare(doc: BackupDocument): Promise<(() => Promise<void>) | undefined> {
    this.#seen.add(doc.id);
    this.#report.seen = this.#seen.size;
    const format = detectFormat(doc.result);
    const ext = FORMAT_EXTENSION[format];
    const text = renderDocument(doc, format, { account: this.#identity.account, server: this.#identity.server });
    const hash = sha1Hex(text);
    const entry = this.#state.documents[doc.id] as Entry | undefined;
    let { want, path } = await this.#place(doc, ext, entry);
    const present = entry !== undefined && (await this.#listed(entry.path));
    if (entry && entry.path === path && entry.hash === hash && present) {
      this.#report.unchanged++;
      return undefined;
    }
    // The file the state names: as a run wrote it (this one's text too: a run that stopped before saving its state),
    // edited since, or no longer the backup's (its name is then not the document's any more).
    const old = entry && present ? await this.#inspect(entry.path, doc.id, [entry.hash, hash]) : 'none';
    if (entry && old === 'foreign') {
      this.#owner.set(pathKey(entry.path), -1);
      ({ want, path } = await this.#place(doc, ext, entry));
    }
    const aside: Aside[] = [];
    if (entry && old === 'edited') aside.push({ from: entry.path, to: await this.#keptPath(entry.path) });
    // A file the state does not name where the document goes, which #freeName found to hold it (a run stopped before
    // saving its state, or the state was moved away): replaced when it holds this text, kept when it differs.
    while (!entry || pathKey(entry.path) !== pathKey(path)) {
      const there = await this.#inspect(path, doc.id, [hash]);
      if (there === 'edited') aside.push({ from: path, to: await this.#keptPath(path) });
      if (there !== 'foreign') break;
      this.#owner.set(pathKey(path), -1);
      ({ want, path } = await this.#place(doc, ext, entry));
    }
    this.#owner.set(pathKey(path), doc.id);
    return () => this.#write(doc, entry, { want, path, text, hash }, old, aside);
  }

  async #write(doc: BackupDocument, entry: Entry | undefined, file: { want: string; path: string; text: string; hash: string }, old: Found, aside: readonly Aside[]): Promise<void> {
    const { want, path, text, hash } = file;
    for (const { from, to } of aside) {
      await this.#fsStep((why) => l10n.t("Couldn't move the edited file “{0}” aside to “{1}”: {2}", from, to, why), () => this.#fs.rename(from, to));
      this.#unlist(from);
      this.#report.kept++;
      this.#report.keptAs.push(to);
      // The state stops naming it at once: it never names a file that is not there.
      if (entry && from === entry.path) {
        delete this.#state.documents[doc.id];
        this.#dirty = true;
      }
    }
    if (entry && old === 'written' && entry.path !== path) {
      // Renamed, or its template renamed: the file moves, then the new text replaces it. (A new file written and the
      // old one deleted would delete it for good; a move of a name's case only is one file on Windows and macOS.)
      await this.#fsStep((why) => l10n.t("Couldn't move “{0}” to “{1}”: {2}", entry.path, path, why), () => this.#fs.rename(entry.path, path));
      this.#unlist(entry.path);
      const { folder, file: name } = splitPath(path);
      (await this.#listing(folder)).add(pathKey(name));
      this.#state.documents[doc.id] = { ...entry, path, want };
      this.#dirty = true;
    }
    await this.#writeWhole(path, text, doc.id);
    if (entry && pathKey(entry.path) !== pathKey(path) && this.#owner.get(pathKey(entry.path)) === doc.id) this.#owner.delete(pathKey(entry.path));
    this.#owner.set(pathKey(path), doc.id);
    this.#state.documents[doc.id] = { path, want, updated: doc.updated_at ?? null, hash };
    this.#dirty = true;
    if (!entry) this.#report.new++;
    else if (entry.hash === hash && entry.path === path) this.#report.restored++;
    else this.#report.changed++;
  }

  /**
   * What is at `path` for document `id` (see {@link Found}). `hashes`: the texts the backup may have written there.
   * Line endings turned to CRLF (an editor or Git on Windows) change no word: such a file is as written.
   */
  async #inspect(path: string, id: number, hashes: readonly string[]): Promise<Found> {
    if (!(await this.#listed(path))) return 'none';
    const bytes = await this.#read(path);
    // A folder, or listed but not there to read (removed meanwhile): its name is left alone.
    if (bytes === 'folder' || bytes === undefined) return 'foreign';
    const text = decoder.decode(bytes);
    if (documentIdOf(text) !== id) return 'foreign';
    if (hashes.includes(sha1Hex(text))) return 'written';
    return text.includes('\r\n') && hashes.includes(sha1Hex(text.replace(/\r\n/g, '\n'))) ? 'written' : 'edited';
  }

  /** A file's bytes; 'folder' when the path is a folder; undefined when nothing is there. */
  async #read(path: string): Promise<Uint8Array | 'folder' | undefined> {
    try {
      return await this.#fs.read(path);
    } catch (e) {
      if (isFolderError(e)) return 'folder';
      throw new BackupError(l10n.t("Couldn't read “{0}”: {1}", path, message(e)), 'write', undefined, e);
    }
  }

  /** The name an edited file at `path` is kept under, in its folder (taken now). */
  #keptPath(path: string): Promise<string> {
    const { folder, file } = splitPath(path);
    return this.#take(folder, keptNames(file, this.#day));
  }

  /** The first of `names` that no file in `folder` has and no document of the run was given, taken now. */
  async #take(folder: string, names: Iterable<string>): Promise<string> {
    const listing = await this.#listing(folder);
    for (const name of names) {
      const path = folder ? `${folder}/${name}` : name;
      if (listing.has(pathKey(name)) || this.#owner.has(pathKey(path))) continue;
      listing.add(pathKey(name));
      return path;
    }
    throw new Error('unreachable');
  }

  /** The path a document's file takes: where it is, while its name, template and format ask for the same. */
  async #place(doc: BackupDocument, ext: string, entry: Entry | undefined): Promise<{ want: string; path: string }> {
    let folderStem = safeStem(templateName(doc.template?.id, doc.template?.name), 'No template');
    if ([DELETED_FOLDER, STATE_FOLDER].includes(pathKey(folderStem))) folderStem = `${folderStem}_`;
    const folder = this.#folderName.get(pathKey(folderStem)) ?? folderStem;
    this.#folderName.set(pathKey(folder), folder);
    const stem = safeStem(doc.name);
    const want = `${folder}/${stem}${ext}`;
    if (entry && entry.want === want && this.#owner.get(pathKey(entry.path)) === doc.id) return { want, path: entry.path };
    return { want, path: await this.#freeName(folder, stem, ext, doc.id) };
  }

  /** A name in `folder` for document `id` that no other document's file and no file of someone else's holds. */
  async #freeName(folder: string, stem: string, ext: string, id: number): Promise<string> {
    for (const name of candidateNames(stem, ext, id)) {
      const path = `${folder}/${name}`;
      const owner = this.#owner.get(pathKey(path));
      if (owner === id) return path;
      if (owner !== undefined) continue;
      if (!(await this.#listed(path))) return path;
      // A kept copy of an edited file is the user's from then on, whatever its front matter says.
      if (isKeptName(name)) {
        this.#owner.set(pathKey(path), -1);
        continue;
      }
      // A file the state does not know: this document's when a run stopped between its file and the state.
      const bytes = await this.#read(path);
      const holder = bytes instanceof Uint8Array ? documentIdOf(decoder.decode(bytes.subarray(0, 4096))) : undefined;
      if (holder === id) return path;
      // Another document's file from such a run (it finds it there when its turn comes), or a file not ours: kept.
      this.#owner.set(pathKey(path), holder ?? -1);
    }
    throw new Error('unreachable');
  }

  #listing(folder: string): Promise<Set<string>> {
    const key = pathKey(folder);
    let names = this.#listings.get(key);
    if (!names) {
      names = this.#fsStep(
        (why) => l10n.t("Couldn't read the folder “{0}”: {1}", folder || '.', why),
        () => this.#fs.list(folder),
      ).then((listed) => new Set(listed.map(pathKey)));
      // A failed read is not kept: the run stops on it, and the next run reads again.
      names.catch(() => this.#listings.delete(key));
      this.#listings.set(key, names);
    }
    return names;
  }

  async #listed(path: string): Promise<boolean> {
    const { folder, file } = splitPath(path);
    return (await this.#listing(folder)).has(pathKey(file));
  }

  #unlist(path: string): void {
    const { folder, file } = splitPath(path);
    void this.#listings.get(pathKey(folder))?.then((names) => names.delete(pathKey(file)), () => undefined);
  }

  async #writeWhole(path: string, text: string, id: number): Promise<void> {
    const temp = `${STATE_FOLDER}/tmp/${id}.part`;
    try {
      await this.#fs.write(temp, encoder.encode(text));
      await this.#fs.rename(temp, path);
    } catch (e) {
      await this.#fs.delete(temp).catch(() => undefined);
      throw new BackupError(l10n.t("Couldn't write “{0}”: {1}", path, message(e)), 'write', undefined, e);
    }
    const { folder, file } = splitPath(path);
    (await this.#listing(folder)).add(pathKey(file));
  }

  /**
   * The file of a document the server no longer has, moved under `_deleted/` (its own name there, unique); edited in
   * the folder since, under its kept name there. A folder or a file no longer the backup's stays where it is.
   */
  async #moveToDeleted(id: number): Promise<void> {
    const entry = this.#state.documents[id];
    const found = await this.#inspect(entry.path, id, [entry.hash]);
    if (found === 'written' || found === 'edited') {
      const { folder, file } = splitPath(`${DELETED_FOLDER}/${entry.path}`);
      const [stem, ext] = splitExtension(file);
      const target = await this.#take(folder, found === 'edited' ? keptNames(file, this.#day) : candidateNames(stem, ext, id));
      await this.#fsStep((why) => l10n.t("Couldn't move “{0}” to “{1}”: {2}", entry.path, target, why), () => this.#fs.rename(entry.path, target));
      this.#unlist(entry.path);
      this.#report.deleted++;
      if (found === 'edited') {
        this.#report.kept++;
        this.#report.keptAs.push(target);
      }
    }
    this.#owner.delete(pathKey(entry.path));
    delete this.#state.documents[id];
    this.#dirty = true;
  }

  /**
   * Temporary files a run that stopped left behind: `<id>.part`, each the text of a document the server has and its
   * file either the old one or the new one. Nothing else there is the backup's: it stays.
   */
  async #clearTemporaryFiles(): Promise<void> {
    const left = await this.#fsStep((why) => l10n.t("Couldn't read the backup state folder: {0}", why), () => this.#fs.list(`${STATE_FOLDER}/tmp`));
    for (const name of left) if (/^\d+\.part$/.test(name)) await this.#fs.delete(`${STATE_FOLDER}/tmp/${name}`).catch(() => undefined);
  }

  /** Saves the state (written whole, then renamed over the last one), if anything changed since the last save. */
  async #save(): Promise<void> {
    this.#savedAt = this.#now();
    if (!this.#dirty) return;
    const temp = `${STATE_FILE}.part`;
    try {
      await this.#fs.write(temp, encoder.encode(JSON.stringify(this.#state)));
      await this.#fs.rename(temp, STATE_FILE);
    } catch (e) {
      await this.#fs.delete(temp).catch(() => undefined);
      throw new BackupError(l10n.t("Couldn't save the backup state ({0}): {1}", STATE_FILE, message(e)), 'write', undefined, e);
    }
    this.#dirty = false;
  }

  /** A step on the folder; when it fails, the error says so in the sentence `fail` makes of the reason. */
  async #fsStep<T>(fail: (why: string) => string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (e) {
      throw new BackupError(fail(message(e)), 'write', undefined, e);
    }
  }
}
