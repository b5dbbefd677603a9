import * as vscode from 'vscode';
import type { ContentDocument } from '../api/index';
import { charLength, LIMITS, serverTrim } from '../api/validate';
import { SCHEME } from '../constants';
import type { DocumentService } from '../services/documentService';
import { VsCodePrompter, type Prompter } from '../ui/prompter';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import { describeError, errorKind } from '../util/errors';
import type { Logger } from '../util/log';
import { ActiveFavoriteContext } from './activeFavoriteContext';
import { AccountIndex, PREVIOUS_ACCOUNT, type IndexDiff, type IndexedDocument } from './accountIndex';
import {
  ACCOUNT_AUTHORITY,
  ACCOUNT_ROOT,
  documentFileName,
  documentIdFromUri,
  documentNameFromFileName,
  fileExtension,
  isAccountUri,
  nameFromFileName,
  safeSegment,
  segments,
  tabUris,
  templateFolderName,
} from './uris';
import { VersionTracker, type Observation, type Version } from './versions';

/**
 * A server read serves at most one stat and one readFile, within this time: opening a document is
 * stat + readFile = one GET, and the stat VS Code makes before a save always asks the server again.
 */
const REUSE_MS = 2_000;
/** writeFile trusts a successful stat this recent (the one VS Code makes before writing); otherwise it checks the server itself. */
const WRITE_CHECK_MS = 2_000;
/** Page size for walking the account listing (the largest the server allows). */
const LIST_PAGE_SIZE = 100;

type Target =
  | { kind: 'accountRoot' }
  | { kind: 'accountFolder'; folder: string }
  | { kind: 'documentDir'; id: number; depth: number }
  | { kind: 'file'; id: number };

const DIRECTORY: vscode.FileStat = { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };

/** The last server read of a document, and whether a stat / a readFile has already used it. */
interface Read {
  at: number;
  statUsed: boolean;
  readUsed: boolean;
  /** The answer to our own save. */
  ownSave: boolean;
}

/**
 * What the file system knows of one document besides its versions. Created when first needed, dropped in
 * one place ({@link DocumentFileSystem.forget}); an account switch drops what was read ({@link DocumentFileSystem.forgetReads}).
 */
interface DocumentRecord {
  /** Every URI VS Code asked about, so that changes reach each of them. */
  readonly uris: Map<string, vscode.Uri>;
  /**
   * The file names (without extension) the document has had this session, or that a URI for it was
   * successfully read under. A single-document URI resolves by its id, but a name the document never
   * had is "not found" — that is what lets VS Code rename `…/Old.md` to `…/New.md` (it checks the
   * target does not exist), while a tab opened before a rename keeps working.
   */
  readonly names: Set<string>;
  read?: Read;
  /** When a stat last succeeded. */
  statOkAt?: number;
  /** This provider is PATCHing its result right now (its change event is our own). */
  writing: boolean;
}

/**
 * Documents as files (scheme `content-docs`, see uris.ts).
 *
 * Reading: `stat` asks the server (one GET serves one stat and one readFile, see {@link REUSE_MS}) and
 * reports `updated_at` as mtime and the byte length of the text as size; `readFile` returns the text as UTF-8.
 *
 * Saving and conflicts: VS Code stats a file before writing it and, when `stat.mtime` is later than
 * the mtime it read and the size differs, refuses the save with its own "The content of the file is
 * newer" Compare / Overwrite notification (Overwrite saves again without that check). So the save-time
 * stat fetches the server's copy, and {@link VersionTracker} makes its mtime/size move whenever the text
 * changed, even within updated_at's one second and even to a text of the same length. `writeFile`
 * PATCHes `result`; the server trims it, and the stored text is what the next read returns. Texts are
 * compared as stored, never with an editor's buffer, so the trim never looks like a conflict.
 *
 * Failures: `writeFile` throws a FileSystemError carrying the reason (refused locally when empty or over
 * 20,480 characters); VS Code then keeps the editor dirty with its text and offers Retry / Save As.
 */
export class DocumentFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this._onDidChangeFile.event;

  private readonly versions = new VersionTracker();
  private readonly index: AccountIndex;
  /** One record per document this provider has dealt with. */
  private readonly records = new Map<number, DocumentRecord>();
  private prompter: Prompter = new VsCodePrompter();
  private pending: vscode.FileChangeEvent[] = [];
  private fireTimer: ReturnType<typeof setTimeout> | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly documents: DocumentService,
    readonly log: Logger,
  ) {
    super();
    this.index = new AccountIndex((current) => this.listAll(current), fileExtension());
    this._register(documents.onDidChange(({ doc, previous }) => this.onServiceChange(doc, previous)));
    this._register(documents.onDidDelete((d) => this.onServiceDelete(d.id)));
    this._register(documents.onDidCreate((doc) => this.onServiceCreate(doc)));
    this._register(documents.onDidForget((e) => this.onServiceForget(e.account)));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'files.language')) this.fireIndexDiff(this.index.setExtension(fileExtension()));
      }),
    );
    this._register(new ActiveFavoriteContext((uri) => this.documentIdOf(uri), documents));
    this._register({
      dispose: () => {
        if (this.fireTimer) clearTimeout(this.fireTimer);
        if (this.reloadTimer) clearTimeout(this.reloadTimer);
      },
    });
  }

  /** The questions (delete confirmation) go through the extension's prompter, which tests can answer. */
  setPrompter(prompter: Prompter): void {
    this.prompter = prompter;
  }

  /** The document a `content-docs:` URI stands for, without any request: single-document and account URIs. */
  documentIdOf(uri: vscode.Uri): number | undefined {
    if (uri.scheme !== SCHEME) return undefined;
    const id = documentIdFromUri(uri);
    if (id !== undefined) return id;
    if (!isAccountUri(uri)) return undefined;
    const segs = segments(uri);
    const found = segs.length === 2 ? this.index.resolve(segs[0], segs[1]) : undefined;
    return found === PREVIOUS_ACCOUNT ? undefined : found;
  }

  /** Records a document fetched elsewhere (a command that just read or created it), so the next stat reuses it. */
  remember(doc: ContentDocument): void {
    this.accept(doc, false);
  }

  /**
   * VS Code keeps the models of closed editors for a while and shows one again as it was, reloading it
   * only later. When such a model's text is not what the server just returned (changed elsewhere, or
   * another account), it is reloaded first — from the read just made, without another request.
   */
  async reloadIfStale(uri: vscode.Uri, id: number): Promise<void> {
    const model = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const v = this.versions.get(id);
    if (!model || model.isDirty || !v) return;
    // Compared as the server stores a text (trimmed): a model saved with a final newline is not stale.
    const expected = serverTrim(new TextDecoder('utf-8').decode(v.bytes).replace(/\r\n/g, '\n'));
    if (serverTrim(model.getText().replace(/\r\n/g, '\n')) === expected) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, 3_000);
      const sub = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === model) done();
      });
      this.fireSoon({ type: vscode.FileChangeType.Changed, uri });
    });
    // The editor about to be shown checks the file again: it may use the same read, still fresh.
    const r = this.records.get(id)?.read;
    if (r) r.statUsed = r.readUsed = false;
  }

  // --- FileSystemProvider ------------------------------------------------------------------------

  watch(): vscode.Disposable {
    // Changes are pushed from the document service's events for every URI, watched or not.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const target = await this.resolve(uri, 'open');
    if (target.kind !== 'file') return DIRECTORY;
    this.track(target.id, uri);
    this.record(target.id).statOkAt = undefined;
    const v = await this.current(target.id, 'stat', `Couldn't open "${this.label(target.id, uri)}"`);
    this.record(target.id).statOkAt = Date.now();
    this.confirmUri(target.id, uri);
    return { type: vscode.FileType.File, ctime: v.ctime, mtime: v.mtime, size: v.size };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const target = await this.resolve(uri, 'open');
    if (target.kind !== 'file') throw vscode.FileSystemError.FileIsADirectory(uri);
    this.track(target.id, uri);
    const v = await this.current(target.id, 'read', `Couldn't open "${this.label(target.id, uri)}"`);
    this.confirmUri(target.id, uri);
    return v.bytes;
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const target = await this.resolve(uri, 'list');
    switch (target.kind) {
      case 'accountRoot':
        return this.index.folderNames().map((f) => [f, vscode.FileType.Directory]);
      case 'accountFolder':
        return (this.index.files(target.folder) ?? []).map(([f]) => [f, vscode.FileType.File]);
      case 'documentDir': {
        const doc = this.documents.get(target.id) ?? (await this.fetch(target.id, `Couldn't list "${uri.path}"`));
        return target.depth === 0
          ? [[templateFolderName(doc.template), vscode.FileType.Directory]]
          : [[documentFileName(doc.name), vscode.FileType.File]];
      }
      case 'file':
        throw vscode.FileSystemError.FileNotADirectory(uri);
    }
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('Template folders come from the server: they cannot be created here.');
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, _options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    let target: Target;
    try {
      target = await this.resolve(uri, 'write');
    } catch (e) {
      const [folder, file] = segments(uri);
      const neverGiven = file !== undefined && this.index.resolve(folder, file) === undefined;
      if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound' && isAccountUri(uri) && neverGiven) {
        throw vscode.FileSystemError.NoPermissions(
          `Couldn't save "${nameFromFileName(uri.path.split('/').pop() ?? '')}": new documents are made with "Content Docs: New Document…", not by creating files.`,
        );
      }
      throw e;
    }
    if (target.kind !== 'file') throw vscode.FileSystemError.FileIsADirectory(uri);
    const id = target.id;
    this.track(id, uri);
    const action = `Couldn't save "${this.label(id, uri)}"`;

    const text = new TextDecoder('utf-8').decode(content).replace(/^\uFEFF/, '');
    const trimmed = serverTrim(text);
    if (!trimmed) {
      throw this.refuse(`${action}: the text is empty, and the server keeps no empty document. Type some text, or delete the document instead.`);
    }
    const length = charLength(trimmed);
    if (length > LIMITS.result) {
      throw this.refuse(
        `${action}: the text is longer than ${LIMITS.result.toLocaleString('en-US')} characters (${length.toLocaleString('en-US')}). Shorten it and save again.`,
      );
    }

    // VS Code's own check needs a fresh stat. It ignores a stat that failed, so check here when the
    // last read is not recent: a text changed on the server that nobody has seen yet is never overwritten.
    const base = this.versions.get(id);
    if (!base || Date.now() - (this.records.get(id)?.statOkAt ?? 0) > WRITE_CHECK_MS) {
      const obs = this.accept(await this.fetch(id, action), false);
      if (!base || obs.textChanged) {
        throw this.refuse(
          `${action}: the document may have changed on the server since you opened it. Save again to compare your text with the server's and choose whether to overwrite it.`,
          'unavailable',
        );
      }
    }

    const record = this.record(id);
    record.writing = true;
    let saved: ContentDocument;
    try {
      saved = await this.documents.saveResult(id, text);
    } catch (e) {
      throw this.toFileSystemError(e, action, id);
    } finally {
      record.writing = false;
    }
    const obs = this.accept(saved, true);
    this.log.info(`[fs] saved document ${id} (${obs.version.size} bytes stored${obs.version.text === text ? '' : ', trimmed by the server'})`);
    // Other editors on the same document (another URI for it) learn of the new text. Always: the service's
    // own change event may already have recorded this version, so "changed since the last observation" is
    // no test of whether those editors have seen it.
    this.fireForDocument(id, vscode.FileChangeType.Changed, uri);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const target = await this.resolve(uri, 'delete');
    if (target.kind !== 'file') {
      throw vscode.FileSystemError.NoPermissions(
        target.kind === 'accountRoot' ? 'The account folder cannot be deleted.' : 'A template folder cannot be deleted: delete its documents one by one.',
      );
    }
    const id = target.id;
    const label = this.label(id, uri);
    const confirmed = await this.prompter.confirm(
      `Delete "${label}"?`,
      'The document is deleted on the server, with its text. This cannot be undone.',
      'Delete',
    );
    if (!confirmed) throw vscode.FileSystemError.NoPermissions(`"${label}" was not deleted: the deletion was not confirmed.`);
    try {
      await this.documents.delete(id);
    } catch (e) {
      throw this.toFileSystemError(e, `Couldn't delete "${label}"`, id);
    }
  }

  async rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    const source = await this.resolve(oldUri, 'rename');
    if (source.kind !== 'file') throw vscode.FileSystemError.NoPermissions('Template folders cannot be renamed.');
    const id = source.id;
    const label = this.label(id, oldUri);
    const action = `Couldn't rename "${label}"`;
    const oldDir = oldUri.path.slice(0, oldUri.path.lastIndexOf('/'));
    const newDir = newUri.path.slice(0, newUri.path.lastIndexOf('/'));
    if (newUri.scheme !== oldUri.scheme || newUri.authority !== oldUri.authority || newDir !== oldDir) {
      throw vscode.FileSystemError.NoPermissions(`${action}: a document can be renamed, but not moved to another folder (its template cannot change).`);
    }
    const name = documentNameFromFileName(newUri.path.slice(newUri.path.lastIndexOf('/') + 1), this.documents.get(id)?.name ?? this.index.get(id)?.name);
    if (!name) throw this.refuse(`${action}: the name cannot be empty.`);
    const length = charLength(name);
    if (length > LIMITS.name) throw this.refuse(`${action}: the name can be at most ${LIMITS.name} characters (this one has ${length}).`);
    let release: (() => void) | undefined = () => undefined;
    if (isAccountUri(newUri)) {
      const [folder, file] = segments(newUri);
      const other = this.documentIdOf(newUri);
      if (!options.overwrite && other !== undefined && other !== id && this.index.pathOf(other) === `${folder}/${file}`) {
        throw vscode.FileSystemError.FileExists(newUri);
      }
      // A path given to another document this session is taken only when nothing shows it any more.
      release = this.index.claim(folder, file, id, (p) => this.isShown(p));
      if (!release) {
        throw this.refuse(`${action}: "${file}" is still open for another document. Close that editor first, or choose another name.`);
      }
    }
    try {
      await this.documents.rename(id, name);
    } catch (e) {
      release();
      throw this.toFileSystemError(e, action, id);
    }
    this.track(id, newUri);
  }

  // --- internals ---------------------------------------------------------------------------------

  private async resolve(uri: vscode.Uri, _why: string): Promise<Target> {
    if (uri.scheme !== SCHEME) throw vscode.FileSystemError.FileNotFound(uri);
    const segs = segments(uri);
    if (segs.some((s) => s.startsWith('.'))) throw vscode.FileSystemError.FileNotFound(uri); // .vscode, .editorconfig, …
    if (uri.authority === ACCOUNT_AUTHORITY) {
      if (segs.length === 0) {
        await this.ensureIndex();
        return { kind: 'accountRoot' };
      }
      if (segs.length > 2) throw vscode.FileSystemError.FileNotFound(uri);
      // A path given out this session resolves without loading the listing.
      if (segs.length === 2) {
        const known = this.index.resolve(segs[0], segs[1]);
        if (known !== undefined) return this.fileTarget(uri, known);
      }
      await this.ensureIndex();
      if (segs.length === 1) {
        if (this.index.hasFolder(segs[0])) return { kind: 'accountFolder', folder: segs[0] };
        throw vscode.FileSystemError.FileNotFound(uri);
      }
      const id = this.index.resolve(segs[0], segs[1]);
      if (id === undefined) throw vscode.FileSystemError.FileNotFound(uri);
      return this.fileTarget(uri, id);
    }
    const id = documentIdFromUri(uri);
    if (id === undefined || segs.length > 2) throw vscode.FileSystemError.FileNotFound(uri);
    if (segs.length < 2) return { kind: 'documentDir', id, depth: segs.length };
    const known = this.records.get(id)?.names;
    const current = this.documents.get(id)?.name;
    const name = nameFromFileName(segs[1]);
    if ((known?.size || current !== undefined) && !known?.has(name) && (current === undefined || safeSegment(current) !== name)) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return { kind: 'file', id };
  }

  /**
   * An account path means the document it was given to. When that document is gone, the path is "not
   * found" — it never falls through to another document that now has the same name.
   */
  private fileTarget(uri: vscode.Uri, id: number): Target {
    if (id === PREVIOUS_ACCOUNT) {
      throw vscode.FileSystemError.FileNotFound(
        `"${nameFromFileName(segments(uri)[1] ?? '')}" belongs to the account used before the API key or server changed. Your text, if any, is still in the editor.`,
      );
    }
    if (this.index.isGone(id)) {
      throw vscode.FileSystemError.FileNotFound(
        `"${nameFromFileName(segments(uri)[1] ?? '')}" was deleted on the server: this file no longer has a document behind it. Your text, if any, is still in the editor.`,
      );
    }
    // A path its document left (renamed) means that document only for an editor still showing it; to anything
    // else it is not there — so it can't be deleted, written or stand in the way of a rename onto it.
    const path = segments(uri).join('/');
    const now = this.index.pathOf(id);
    if (now !== undefined && now !== path && !this.isShown(path)) throw vscode.FileSystemError.FileNotFound(uri);
    return { kind: 'file', id };
  }

  /** Whether an editor model (open or kept by VS Code) shows this account path. */
  private isShown(path: string): boolean {
    return vscode.workspace.textDocuments.some((d) => isAccountUri(d.uri) && segments(d.uri).join('/') === path);
  }

  private hasUnsavedEdits(id: number): boolean {
    return vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.scheme === SCHEME && this.documentIdOf(d.uri) === id);
  }

  private addName(id: number, name: string): void {
    this.record(id).names.add(name);
  }

  /** The record of a document, made on first use. */
  private record(id: number): DocumentRecord {
    let r = this.records.get(id);
    if (!r) this.records.set(id, (r = { uris: new Map(), names: new Set(), writing: false }));
    return r;
  }

  /** The one place a document is forgotten (it was deleted): its record and its versions. */
  private forget(id: number): void {
    this.records.delete(id);
    this.versions.forget(id);
  }

  /**
   * Another account: what was read of the documents goes (reads, stats, the names they were read under).
   * The URIs and versions stay: the next read of an id is compared with what VS Code was last told of it.
   */
  private forgetReads(): void {
    for (const r of this.records.values()) {
      r.read = undefined;
      r.statOkAt = undefined;
      r.names.clear();
    }
  }

  /** A single-document URI that was read successfully keeps resolving under its name. */
  private confirmUri(id: number, uri: vscode.Uri): void {
    const segs = segments(uri);
    if (documentIdFromUri(uri) !== undefined && segs.length === 2) this.addName(id, nameFromFileName(segs[1]));
  }

  private async ensureIndex(): Promise<void> {
    try {
      await this.index.ensure();
    } catch (e) {
      throw this.toFileSystemError(e, `Couldn't list the documents of the account`);
    }
  }

  /** The whole listing, page by page (one request each), remembered by the document service. */
  private async listAll(current: () => boolean): Promise<IndexedDocument[]> {
    const out: IndexedDocument[] = [];
    for (let page = 1; page <= 10_000; page++) {
      const p = await this.documents.list({ perPage: LIST_PAGE_SIZE, sortBy: 'id', sort: 'asc', page }, undefined, { announce: true });
      // Another account since the listing started: its pages are not this account's documents.
      if (!current()) throw new Error('The account changed while its documents were being listed.');
      for (const d of p.items) out.push({ id: d.id, name: d.name, template: d.template });
      if (!p.hasMore) break;
    }
    this.log.info(`[fs] account listing: ${out.length} documents`);
    return out;
  }

  /**
   * The server's copy: a recent read not yet used by this kind of call, else a new GET. A stat of a
   * document with no unsaved edits may reuse a recent read again (VS Code stats a file it just opened more
   * than once); the stat VS Code makes before a save (the editor is dirty then) always asks the server.
   */
  private async current(id: number, use: 'stat' | 'read', action: string): Promise<Version> {
    const v = this.versions.get(id);
    const r = this.records.get(id)?.read;
    const key = use === 'stat' ? 'statUsed' : 'readUsed';
    // With unsaved edits a stat is the one before a save: it asks the server (even a second-old answer, say of a
    // favorite's PATCH, may predate someone else's edit). Only the answer to our own save serves it: that is the
    // stat VS Code makes right after the write, while the editor still counts as dirty.
    const dirtyStat = use === 'stat' && this.hasUnsavedEdits(id);
    const reusable = dirtyStat ? r?.ownSave === true && !r.statUsed : !r?.[key] || use === 'stat';
    if (v && r && reusable && Date.now() - r.at <= REUSE_MS) {
      r[key] = true;
      return v;
    }
    const fetched = this.accept(await this.fetch(id, action), false).version;
    const after = this.records.get(id)?.read;
    if (after) after[key] = true;
    return fetched;
  }

  private async fetch(id: number, action: string): Promise<ContentDocument> {
    try {
      return await this.documents.fetch(id);
    } catch (e) {
      throw this.toFileSystemError(e, action, id);
    }
  }

  /** Records a server copy; when it differs from the last one and is not our own save, editors hear of it. */
  private accept(doc: ContentDocument, own: boolean): Observation {
    const obs = this.versions.observe(doc.id, doc);
    this.addName(doc.id, safeSegment(doc.name));
    this.record(doc.id).read = { at: Date.now(), statUsed: false, readUsed: false, ownSave: own };
    if (!own && !obs.first && obs.statChanged) this.fireForDocument(doc.id, vscode.FileChangeType.Changed);
    return obs;
  }

  private label(id: number, uri?: vscode.Uri): string {
    const name = this.documents.get(id)?.name ?? this.index.get(id)?.name;
    if (name) return name;
    const last = uri?.path.split('/').pop();
    return last ? nameFromFileName(last) : `document ${id}`;
  }

  private refuse(message: string, kind: 'noPermissions' | 'unavailable' = 'noPermissions'): vscode.FileSystemError {
    this.log.warn(`[fs] ${message}`);
    return kind === 'unavailable' ? vscode.FileSystemError.Unavailable(message) : vscode.FileSystemError.NoPermissions(message);
  }

  private toFileSystemError(e: unknown, action: string, id?: number): vscode.FileSystemError {
    if (e instanceof vscode.FileSystemError) return e;
    const message = describeError(action, e);
    this.log.warn(`[fs] ${message}`);
    switch (errorKind(e)) {
      case 'notFound':
        if (id !== undefined) this.documents.markDeleted(id);
        return vscode.FileSystemError.FileNotFound(message);
      case 'auth':
      case 'forbidden':
      case 'validation':
        return vscode.FileSystemError.NoPermissions(message);
      default:
        if (errorKind(e) === undefined && e instanceof Error) this.log.error(e);
        return vscode.FileSystemError.Unavailable(message);
    }
  }

  private track(id: number, uri: vscode.Uri): void {
    this.record(id).uris.set(uri.toString(), uri);
  }

  private urisOf(id: number): vscode.Uri[] {
    const out = new Map<string, vscode.Uri>(this.records.get(id)?.uris);
    const path = this.index.pathOf(id);
    if (path) {
      const uri = vscode.Uri.from({ scheme: SCHEME, authority: ACCOUNT_AUTHORITY, path: `/${path}` });
      out.set(uri.toString(), uri);
    }
    return [...out.values()];
  }

  private fireForDocument(id: number, type: vscode.FileChangeType, except?: vscode.Uri): void {
    const skip = except?.toString();
    this.fireSoon(...this.urisOf(id).filter((u) => u.toString() !== skip).map((uri) => ({ type, uri })));
  }

  private fireIndexDiff(d: IndexDiff): void {
    const uri = (p: string) => vscode.Uri.from({ scheme: SCHEME, authority: ACCOUNT_AUTHORITY, path: `/${p}` });
    this.fireSoon(
      ...d.removedFiles.map((p) => ({ type: vscode.FileChangeType.Deleted, uri: uri(p) })),
      ...d.removedFolders.map((p) => ({ type: vscode.FileChangeType.Deleted, uri: uri(p) })),
      ...d.addedFolders.map((p) => ({ type: vscode.FileChangeType.Created, uri: uri(p) })),
      ...d.addedFiles.map((p) => ({ type: vscode.FileChangeType.Created, uri: uri(p) })),
    );
  }

  /** Buffered like the samples' `_fireSoon`: events of one burst arrive together. */
  private fireSoon(...events: vscode.FileChangeEvent[]): void {
    if (events.length === 0) return;
    this.pending.push(...events);
    if (this.fireTimer) clearTimeout(this.fireTimer);
    this.fireTimer = setTimeout(() => {
      this.fireTimer = undefined;
      const seen = new Set<string>();
      const batch = this.pending.filter((e) => {
        const k = `${e.type}:${e.uri.toString()}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      this.pending = [];
      if (!this.isDisposed) this._onDidChangeFile.fire(batch);
    }, 5);
  }

  private onServiceChange(doc: ContentDocument, previous: ContentDocument | undefined): void {
    if (previous) this.addName(doc.id, safeSegment(previous.name));
    const obs = this.accept(doc, this.records.get(doc.id)?.writing === true);
    if (!previous || previous.name !== doc.name || previous.template?.id !== doc.template?.id) {
      // Every URI of the document hears of a rename (its editors keep working under the old name).
      if (previous && !obs.statChanged) this.fireForDocument(doc.id, vscode.FileChangeType.Changed);
      this.fireIndexDiff(this.index.upsert(doc));
    }
  }

  private onServiceDelete(id: number): void {
    this.fireForDocument(id, vscode.FileChangeType.Deleted);
    this.fireIndexDiff(this.index.remove(id));
    this.forget(id);
  }

  private onServiceCreate(doc: ContentDocument): void {
    this.accept(doc, true);
    this.fireIndexDiff(this.index.upsert(doc));
  }

  /**
   * A refresh: open editors check their document again, and the account folder is listed again. Another
   * account (key or server changed): the versions seen so far belong to other documents and are dropped too.
   */
  private onServiceForget(account: boolean): void {
    if (account) {
      // The versions stay: the next read of an id is compared with what VS Code was last told of it, so an
      // editor's "newer on disk" check holds across the switch (and a changed text reloads clean editors).
      this.forgetReads();
      // The account folder lists again only if someone looks at it (its root changed). A path an editor shows
      // never comes to mean a document of the new account (editors hear of it below and find it gone).
      const shown = vscode.workspace.textDocuments.filter((d) => isAccountUri(d.uri)).map((d) => segments(d.uri).join('/'));
      const diff = this.index.unload(shown);
      if (diff.removedFolders.length) {
        this.fireIndexDiff(diff);
        this.fireSoon({ type: vscode.FileChangeType.Changed, uri: ACCOUNT_ROOT });
      }
    }
    for (const uri of tabUris()) {
      const id = this.documentIdOf(uri);
      if (id === undefined && !isAccountUri(uri)) continue;
      const r = id === undefined ? undefined : this.records.get(id);
      if (r) r.read = undefined;
      this.fireSoon({ type: vscode.FileChangeType.Changed, uri });
    }
    if (!this.index.loaded) return;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      this.index.reload().then(
        (d) => {
          this.fireIndexDiff(d);
          // A document the new listing no longer has was deleted elsewhere: the views and editors hear of it too,
          // so the folder and the Documents view never disagree about it.
          for (const id of d.goneIds) this.documents.markDeleted(id);
        },
        (e: unknown) => this.log.warn(`[fs] ${describeError("Couldn't list the documents of the account again", e)}`),
      );
    }, 500);
  }
}
