import vscode = require('vscode');
import type { ContentDocument } from '../api/index';
import { serverTrim } from '../api/validate';
import { SCHEME } from '../constants';
import type { DocumentService } from '../documents/documentService';
import type { Event } from '../model/emitter';
import type { Prompter } from '../ui/prompter';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import { describeError, errorKind } from '../util/errors';
import type { Logger } from '../util/log';
import { AccountIndex, listAccount, type IndexDiff } from './accountIndex';
import { DocumentRecords, type Use } from './documentRecords';
import { FileChangeBatcher } from './fileEvents';
import { refusal, toFileSystemError, unsavableText, unusableName } from './fsErrors';
import { extensionOf, extensionOfFileName } from './names';
import { PathMemory, type PathStore } from './pathMemory';
import { SaveWindow, type SaveEvent } from './saveWindow';
import { documentIdOf, documentUris, isAccountRefusal, isShown, resolveTarget, type Target } from './targets';
import {
  accountOfUri,
  documentFileNameOf,
  documentIdFromUri,
  documentNameFromFileName,
  fileExtension,
  fileNameOf,
  hostFolderName,
  isAccountUri,
  isHtmlDocument,
  nameFromFileName,
  safeSegment,
  segments,
  tabUris,
  templateFolderName,
} from './uris';
import { isStoredText, type Observation, type Version } from './versions';

const DIRECTORY: vscode.FileStat = { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
/** How long a call waits for the accounts being made before it says its account is not signed in (ms). */
const ACCOUNTS_WAIT_MS = 5_000;

/** What a stat tells VS Code of a version (mtime and size move whenever the text changed, see versions.ts). */
function fileStat(v: Version): vscode.FileStat {
  return { type: vscode.FileType.File, ctime: v.ctime, mtime: v.mtime, size: v.size };
}

/**
 * Documents as files (scheme `content-docs`, see uris.ts).
 *
 * Reading: `stat` asks the server (one GET serves one stat and one readFile, see documentRecords.ts) and
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
 *
 * Auto-save: an auto-save that comes within a few seconds of the document's last PATCH is held before its stat until
 * that window has passed, and VS Code folds the saves asked for meanwhile into the next one (see saveWindow.ts).
 * Each save is told on {@link onDidSaveState} (the status bar's "Saving…" / "Saved").
 *
 * A save that changes nothing sends nothing: when the text saved is what the server last gave for the document in the
 * URI's account, as the server would store it (see isStoredText), the save makes no request — its stat (the save
 * VS Code announced with `onWillSaveTextDocument` and whose editor holds that text) and the stat after the write are
 * answered with that version, and `writeFile` sends no PATCH. The editor ends clean, showing the text it showed. Had
 * the server changed the document meanwhile, nothing of it is overwritten (nothing is sent), and the editor, clean,
 * takes the newer text as soon as the extension hears of it (a refresh, a list or read that carries it, opening the
 * document again), as any clean editor does; a real edit saved before that is checked against the server as always.
 */
/**
 * The account a file system serves, while it is signed in: the one its label names now (the same server and key again,
 * made anew after a sign-out and in, are the same label and the same documents).
 */
export interface FsAccount {
  readonly label: string;
  /** Its documents server: its host is the first folder of its documents' own URIs (see uris.ts). */
  readonly documentsUrl: string;
  readonly documents: DocumentService;
}

export class DocumentFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly events = this._register(new FileChangeBatcher());
  readonly onDidChangeFile = this.events.onDidChangeFile;
  private readonly saveEvents = this._register(new vscode.EventEmitter<SaveEvent>());
  /** Each save of a document's text: held or sent, saved, failed. */
  readonly onDidSaveState = this.saveEvents.event;
  private readonly saveWindow = new SaveWindow();

  private readonly index: AccountIndex;
  /**
   * One record per document this provider has dealt with (the names its tabs were opened under, the versions VS Code
   * was told of). The account's label is the file system's: another account's documents are another file system's.
   */
  private readonly records = new DocumentRecords<vscode.Uri>();
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** The account whose document service's events this file system follows (the one signed in under its label). */
  private bound: FsAccount | undefined;
  private boundEvents: { dispose(): void }[] = [];

  constructor(
    /** The label of the account whose documents these are: every URI it serves carries it. */
    readonly accountLabel: string,
    /** The account signed in under that label now, if any (none: every request is refused, nothing is sent). */
    private readonly live: () => FsAccount | undefined,
    onDidChangeAccounts: Event<void>,
    readonly log: Logger,
    /** The questions (delete confirmation) go through the extension's prompter, which tests can answer. */
    private readonly prompter: Prompter,
    /**
     * Where the account-folder paths handed to editors are kept across sessions, for this label (the window's
     * workspaceState): a tab restored after a restart finds its document by the path it shows (see PathMemory).
     */
    paths: PathStore,
    /** Resolves once the accounts being made are made (a window just opened: the label's account may be on its way). */
    private readonly settled: () => Promise<void> = () => Promise.resolve(),
  ) {
    super();
    // The account listing walks pages of 100 (the largest the server allows), remembered by the document service.
    // A document it lacks is read by id: only a 404 lets it go (a page walk can skip a live document).
    this.index = new AccountIndex(
      async (current) => {
        const { documents } = this.account();
        this.index.forAccount(accountLabel);
        const listing = await listAccount((page) => documents.list({ perPage: 100, sortBy: 'id', sort: 'asc', page }, undefined, { announce: true }), current);
        log.info(`[fs] account listing: ${listing.docs.length} documents`);
        return listing;
      },
      fileExtension(),
      (id) =>
        this.account().documents.fetch(id).then(
          (doc) => doc,
          (e: unknown) => {
            if (errorKind(e) === 'notFound') return null;
            log.warn(`[fs] ${describeError(`Couldn't check whether document ${id} still exists (it stays in the account folder)`, e)}`);
            throw e;
          },
        ),
      new PathMemory(paths),
    );
    this.bind();
    this._register(onDidChangeAccounts(() => this.bind()));
    this._register({ dispose: () => this.boundEvents.forEach((d) => d.dispose()) });
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'files.language')) this.indexDiff(this.index.setExtension(fileExtension()));
      }),
    );
    this._register({ dispose: () => clearTimeout(this.reloadTimer) });
    // An editor of an account path that has nothing unsaved any more (reverted: it shows what the path holds now) is
    // handed that path: its next edits are meant for the document it shows.
    this._register(
      vscode.workspace.onDidChangeTextDocument(({ document: { isDirty, uri } }) => {
        if (isDirty || !isAccountUri(uri) || uri.authority !== accountLabel) return;
        const [folder, file, ...more] = segments(uri);
        const id = file === undefined || more.length > 0 ? undefined : this.index.resolve(folder, file);
        if (id !== undefined) this.handOut(uri, id, false);
      }),
    );
    // VS Code says why it saves just before the save's stat: an auto-save may be held, a save the user asked for never.
    this._register(
      vscode.workspace.onWillSaveTextDocument((e) => {
        if (e.document.uri.scheme !== SCHEME) return;
        this.saveWindow.announce(e.document.uri.toString(), e.reason === vscode.TextDocumentSaveReason.Manual ? 'manual' : 'auto');
      }),
    );
  }

  /**
   * Follows the account signed in under the label now: its document service's events. An account made anew under the
   * same label (signed out and in again with the same key and server) is the same documents: what was read is read
   * again when next needed, the paths and names its tabs use stay.
   */
  private bind(): void {
    const now = this.live();
    if (now === this.bound) return;
    const before = this.bound;
    this.boundEvents.forEach((d) => d.dispose());
    this.boundEvents = [];
    this.bound = now;
    if (now) {
      const { documents } = now;
      this.boundEvents.push(
        documents.onDidChange(({ doc, previous }) => this.onServiceChange(doc, previous)),
        documents.onDidDelete((d) => this.onServiceDelete(d.id)),
        documents.onDidCreate((doc) => this.onServiceCreate(doc)),
        documents.onDidForget(() => this.onServiceForget(false)),
      );
    }
    // Another account under the label, or one signed in again (none before): its tabs and listing are read again.
    if (before || now) this.onServiceForget(true);
  }

  /** The account signed in under the label, or the refusal that says nothing was sent. */
  private account(): FsAccount {
    const now = this.live();
    if (now) return now;
    throw vscode.FileSystemError.Unavailable(
      vscode.l10n.t(
        'This document belongs to an account that is not signed in here (signed out, removed, or its API key or server changed since): nothing was sent. Sign in to that account again to open or save it; your text, if any, is still in the editor.',
      ),
    );
  }

  /**
   * Waits until the accounts being made are made (at most {@link ACCOUNTS_WAIT_MS}: a call never hangs on them). In a
   * window just opened, its restored tabs and account folders ask before the accounts of the key and the settings are
   * made (a few hundred ms): refused then, a tab would show an error and the Explorer the folder as failed.
   */
  private async accountsMade(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.settled(), new Promise<void>((r) => (timer = setTimeout(r, ACCOUNTS_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** The document service of the account signed in under the label (undefined: none is). */
  private get documents(): DocumentService | undefined {
    return this.live()?.documents;
  }

  /**
   * The document a `content-docs:` URI of this account stands for, without any request: its single-document and
   * account-folder URIs (a URI of another account stands for no document here).
   */
  documentIdOf(uri: vscode.Uri): number | undefined {
    return documentIdOf(uri, this.index, this.accountLabel);
  }

  /** Every URI of a document this file system knows: those VS Code asked about, and its path in the account folder. */
  urisOf(id: number): vscode.Uri[] {
    return documentUris(id, this.records.uris(id), this.index, this.accountLabel);
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
    const records = this.records;
    const v = records.versions.get(id);
    if (!model || model.isDirty || !v) return;
    // Compared as the server stores a text (trimmed): a model saved with a final newline is not stale.
    const expected = serverTrim(new TextDecoder('utf-8').decode(v.bytes).replace(/\r\n/g, '\n'));
    if (serverTrim(model.getText().replace(/\r\n/g, '\n')) === expected) return;
    await this.events.reload(model);
    // The editor about to be shown checks the file again: it may use the same read, still fresh.
    records.readAgain(id);
  }

  // --- FileSystemProvider ------------------------------------------------------------------------

  watch(): vscode.Disposable {
    // Changes are pushed from the document service's events for every URI, watched or not.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    // The stat VS Code makes right after a write whose account went while it was on the wire: answered with what that
    // write stored (no request; the account's server has that text), so the save is reported as the success it was.
    if (!this.live()) {
      const id = this.documentIdOf(uri);
      const stored = id === undefined ? undefined : this.records.afterUnchangedSave(id, uri.toString());
      if (stored) return fileStat(stored);
    }
    const key = uri.toString();
    // Whether this stat starts a save VS Code announced (a save's stat is a write's, to whom the path may refuse it).
    const save = this.saveWindow.startsSave(key);
    const target = await this.resolve(uri, save ? 'save' : 'open');
    if (target.kind !== 'file') return DIRECTORY;
    const id = target.id;
    const records = this.records;
    records.track(id, uri);
    // A tab's path (the Explorer stats every file it lists: those are no editor's).
    this.handOut(uri, id, true);
    // A save whose text is the server's asks nothing: neither its own stat nor the one VS Code makes after the write.
    // Such a stat is no check of the server: a write of another text after it checks for itself (see write).
    const known = records.afterUnchangedSave(id, key) ?? (save && this.unchangedSave(uri, id, records));
    if (known) {
      records.statStarted(id);
      return fileStat(known);
    }
    if (save === 'auto') {
      await this.holdAutoSave(uri, id);
      // Typed back to the server's text while held: nothing to send after all.
      const unchanged = this.unchangedSave(uri, id, records);
      if (unchanged) {
        records.statStarted(id);
        return fileStat(unchanged);
      }
    }
    records.statStarted(id);
    const v = await this.current(id, 'stat', vscode.l10n.t('Couldn\'t open "{0}"', this.label(id, uri)), uri);
    records.statOk(id);
    this.confirmUri(id, uri);
    return fileStat(v);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const target = await this.resolve(uri, 'read');
    if (target.kind !== 'file') throw vscode.FileSystemError.FileIsADirectory(uri);
    this.records.track(target.id, uri);
    this.handOut(uri, target.id, false);
    const v = await this.current(target.id, 'read', vscode.l10n.t('Couldn\'t open "{0}"', this.label(target.id, uri)), uri);
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
        // Its listing names the document: only while its account is signed in (a stat of it costs nothing and is not checked).
        const account = this.account();
        const doc = account.documents.get(target.id) ?? (await this.fetch(target.id, vscode.l10n.t('Couldn\'t list "{0}"', uri.path), uri));
        // `/` holds the host folder, `/<host>` the template folder, and `/<host>/<Template>` the file; in the form of
        // earlier versions `/<Template>` holds the file.
        const host = hostFolderName(account.documentsUrl);
        if (target.depth === 0) return [[host, vscode.FileType.Directory]];
        if (target.depth === 1 && segments(uri)[0] === host) return [[templateFolderName(doc.template), vscode.FileType.Directory]];
        return [[documentFileNameOf(doc), vscode.FileType.File]];
      }
      case 'file':
        throw vscode.FileSystemError.FileNotADirectory(uri);
    }
  }

  /**
   * Never made here. VS Code asks for the folder of a file it could not find before saving it: a URI of another
   * account is refused as that (the save then says why), not as a folder that cannot be made.
   */
  async createDirectory(uri: vscode.Uri): Promise<void> {
    await this.resolve(uri, 'write').catch((e: unknown) => {
      if (isAccountRefusal(e)) throw e;
    });
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Template folders come from the server: they cannot be created here.'));
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    const key = uri.toString();
    this.saveEvents.fire({ uri: key, state: 'saving' });
    let sent: boolean;
    try {
      sent = await this.write(uri, content, options);
    } catch (e) {
      this.saveEvents.fire({ uri: key, state: 'failed', message: e instanceof Error ? e.message : String(e) });
      throw e;
    }
    this.saveEvents.fire({ uri: key, state: 'saved', unchanged: !sent });
  }

  /** Saves the text; false when nothing had to be sent (the server already has it). */
  private async write(uri: vscode.Uri, content: Uint8Array, _options: { readonly create: boolean; readonly overwrite: boolean }): Promise<boolean> {
    const target = await this.resolve(uri, 'write');
    if (target.kind !== 'file') throw vscode.FileSystemError.FileIsADirectory(uri);
    const id = target.id;
    const key = uri.toString();
    const records = this.records;
    records.track(id, uri);
    this.handOut(uri, id, false);
    // Whatever an earlier save that sent nothing left for the stat after its write is no answer to this one's.
    records.afterUnchangedSave(id, key);
    const action = vscode.l10n.t('Couldn\'t save "{0}"', this.label(id, uri));

    const text = new TextDecoder('utf-8').decode(content).replace(/^\uFEFF/, '');
    // The text the server last gave (in this URI's account), as the server would store it: nothing to send, no check
    // to make (nothing is overwritten). The stat VS Code makes next answers with that version, without a request.
    const base = records.versions.get(id);
    if (base && isStoredText(text, base)) {
      records.savedUnchanged(id, key, base);
      this.log.info(`[fs] document ${id}: saved without a request, the server already has this text`);
      return false;
    }
    const problem = unsavableText(text);
    if (problem) throw this.refuse(vscode.l10n.t('{0}: {1}', action, problem));

    // VS Code's own check needs a fresh stat. It ignores a stat that failed, so check here when the
    // last read is not recent: a text changed on the server that nobody has seen yet is never overwritten.
    if (!base || !records.statRecent(id)) {
      const obs = this.accept(await this.fetch(id, action, uri), false, records);
      if (!base || obs.textChanged) {
        throw this.refuse(
          vscode.l10n.t(
            '{0}: the document may have changed on the server since you opened it. Save again to compare your text with the server\'s and choose whether to overwrite it.',
            action,
          ),
          'unavailable',
        );
      }
    }

    records.setWriting(id, true);
    this.saveWindow.sending(id);
    let saved: ContentDocument;
    try {
      // Sent only while the URI's account is signed in (its client refuses once it is gone).
      saved = await this.account().documents.saveResult(id, text);
    } catch (e) {
      throw this.toFileSystemError(e, action, id);
    } finally {
      records.setWriting(id, false);
      this.saveWindow.sent(id);
    }
    const obs = this.accept(saved, true, records);
    this.log.info(`[fs] saved document ${id} (${obs.version.size} bytes stored${obs.version.text === text ? '' : ', trimmed by the server'})`);
    // The account went while the text was on the wire: the stat after this write is answered with what it stored.
    if (!this.live()) records.savedUnchanged(id, key, obs.version);
    // Other editors on the same document (another URI for it) learn of the new text. Always: the service's
    // own change event may already have recorded this version, so "changed since the last observation" is
    // no test of whether those editors have seen it.
    this.fireForDocument(id, vscode.FileChangeType.Changed, uri, records);
    return true;
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const target = await this.resolve(uri, 'delete');
    if (target.kind !== 'file') {
      throw vscode.FileSystemError.NoPermissions(
        target.kind === 'accountRoot'
          ? vscode.l10n.t('The account folder cannot be deleted.')
          : vscode.l10n.t('A template folder cannot be deleted: delete its documents one by one.'),
      );
    }
    const id = target.id;
    const label = this.label(id, uri);
    const confirmed = await this.prompter.confirm(
      vscode.l10n.t('Delete "{0}"?', label),
      vscode.l10n.t('The document is deleted on the server, with its text. This cannot be undone.'),
      vscode.l10n.t('Delete'),
    );
    if (!confirmed) throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('"{0}" was not deleted: the deletion was not confirmed.', label));
    try {
      await this.account().documents.delete(id);
    } catch (e) {
      throw this.toFileSystemError(e, vscode.l10n.t('Couldn\'t delete "{0}"', label), id);
    }
  }

  async rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    const source = await this.resolve(oldUri, 'rename');
    if (source.kind !== 'file') throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Template folders cannot be renamed.'));
    const id = source.id;
    const label = this.label(id, oldUri);
    const action = vscode.l10n.t('Couldn\'t rename "{0}"', label);
    const oldDir = oldUri.path.slice(0, oldUri.path.lastIndexOf('/'));
    const newDir = newUri.path.slice(0, newUri.path.lastIndexOf('/'));
    if (newUri.scheme !== oldUri.scheme || newUri.authority !== oldUri.authority || newDir !== oldDir) {
      throw vscode.FileSystemError.NoPermissions(
        vscode.l10n.t('{0}: a document can be renamed, but not moved to another folder (its template cannot change).', action),
      );
    }
    // The extension follows the text (.html for the web editor's HTML, else the files.language setting's): a rename
    // that changes it would leave the file under a name it is never listed by.
    const oldFile = oldUri.path.slice(oldUri.path.lastIndexOf('/') + 1);
    const newFile = newUri.path.slice(newUri.path.lastIndexOf('/') + 1);
    // The extension the file has now, which an open tab's may no longer be (the setting switched, the text turned HTML).
    // Letter for letter: the file system is case-sensitive, and lists the file as it names it.
    const kept = this.extensionNow(id, oldUri) ?? extensionOfFileName(oldFile);
    if (extensionOfFileName(newFile) !== kept) {
      throw this.refuse(
        kept
          ? vscode.l10n.t(
              '{0}: the file keeps its extension ({1}), which follows its text (HTML from the web editor: .html; else the "contentDocs.files.language" setting). Rename it to "{2}".',
              action,
              kept,
              `${nameFromFileName(newFile)}${kept}`,
            )
          : vscode.l10n.t('{0}: the file keeps its extension, which follows its text.', action),
      );
    }
    const name = documentNameFromFileName(newFile, this.documents?.get(id)?.name ?? this.index.get(id)?.name);
    const problem = unusableName(name);
    if (problem) throw this.refuse(vscode.l10n.t('{0}: {1}', action, problem));
    let release: (() => void) | undefined = () => undefined;
    if (isAccountUri(newUri)) {
      const [folder, file] = segments(newUri);
      const other = this.documentIdOf(newUri);
      if (!options.overwrite && other !== undefined && other !== id && this.index.pathOf(other) === `${folder}/${file}`) {
        throw vscode.FileSystemError.FileExists(newUri);
      }
      // A path given to another document this session is taken only when nothing shows it any more.
      release = this.index.claim(folder, file, id, (path) => isShown(path, this.accountLabel));
      if (!release) {
        throw this.refuse(vscode.l10n.t('{0}: "{1}" is still open for another document. Close that editor first, or choose another name.', action, file));
      }
    }
    try {
      await this.account().documents.rename(id, name);
    } catch (e) {
      release();
      throw this.toFileSystemError(e, action, id);
    }
    this.records.track(id, newUri);
  }

  // --- internals ---------------------------------------------------------------------------------

  /**
   * The extension document `id`'s file has now in the account of `uri`: as the account folder lists it, else as the
   * text last read of it says; undefined when nothing is known of it here.
   */
  private extensionNow(id: number, uri: vscode.Uri): string | undefined {
    const listed = accountOfUri(uri) === this.accountLabel ? this.index.get(id) : undefined;
    if (listed) return extensionOf(listed, fileExtension());
    const read = this.records.versions.get(id);
    return read ? extensionOf({ id, name: '', result: read.text }, fileExtension()) : undefined;
  }

  private resolve(uri: vscode.Uri, why: 'open' | 'save' | 'read' | 'list' | 'write' | 'delete' | 'rename'): Promise<Target> {
    return resolveTarget(uri, why, {
      // In a window just opened, the accounts are made after its restored tabs and folders first ask: wait for them.
      account: async () => {
        if (!this.live()) await this.accountsMade();
        return this.live() ? this.accountLabel : undefined;
      },
      hostFolder: async () => {
        if (!this.live()) await this.accountsMade();
        const live = this.live();
        return live && hostFolderName(live.documentsUrl);
      },
      index: this.index,
      ensureIndex: () => this.ensureIndex(),
      names: (id) => this.records.names(id),
      currentName: (id) => this.documents?.get(id)?.name,
      recall: async (folder, file) => {
        try {
          const recalled = await this.index.recall(folder, file);
          if (recalled) this.indexDiff(recalled.diff);
          return recalled?.id;
        } catch (e) {
          throw this.toFileSystemError(e, vscode.l10n.t('Couldn\'t open "{0}"', nameFromFileName(file)));
        }
      },
    });
  }

  /** Whether an editor holds unsaved text for this URI. */
  private isDirty(uri: vscode.Uri): boolean {
    const key = uri.toString();
    return vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === key);
  }

  /**
   * An account path resolved for an editor (`tabOnly`: only when a tab or editor shows it): it means its document for
   * the rest of the session and, remembered in the window's state, in later ones.
   */
  private handOut(uri: vscode.Uri, id: number, tabOnly: boolean): void {
    if (!isAccountUri(uri)) return;
    const [folder, file] = segments(uri);
    if (file === undefined || (tabOnly && !isShown(`${folder}/${file}`, this.accountLabel))) return;
    // An editor's unsaved text meant for the document an earlier session opened at this path is not handed another
    // one (a compare reads what the path holds now); once the editor has nothing unsaved it is (see the constructor).
    const remembered = this.index.remembered(folder, file);
    if (remembered !== undefined && remembered !== id && this.isDirty(uri)) return;
    this.index.handOut(folder, file, id);
  }

  /**
   * The version the server last gave for the document (in the URI's account) when the editor of `uri` holds its text
   * as the server would store it: the save about to be made has nothing to send. Undefined otherwise (no editor, no
   * version known, another text).
   */
  private unchangedSave(uri: vscode.Uri, id: number, records: DocumentRecords<vscode.Uri>): Version | undefined {
    const v = records.versions.get(id);
    const key = uri.toString();
    const model = v && vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    return v && model && isStoredText(model.getText(), v) ? v : undefined;
  }

  /**
   * The stat before an auto-save of a document PATCHed a moment ago waits for the end of the document's window (see
   * saveWindow.ts); meanwhile VS Code folds the further saves of the editor into one, which carries the last text.
   */
  private async holdAutoSave(uri: vscode.Uri, id: number): Promise<void> {
    let wait = this.saveWindow.waitMs(id);
    if (wait <= 0) return;
    this.saveEvents.fire({ uri: uri.toString(), state: 'saving' });
    this.log.info(`[fs] auto-save of document ${id} held ${wait} ms: a document's auto-saves go out at most once in ${this.saveWindow.windowMs / 1000} s`);
    while ((wait = this.saveWindow.waitMs(id)) > 0) await new Promise((r) => setTimeout(r, Math.min(wait, 250)));
  }

  private hasUnsavedEdits(id: number): boolean {
    return vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.scheme === SCHEME && this.documentIdOf(d.uri) === id);
  }

  /** A single-document URI that was read successfully keeps resolving under its name. */
  private confirmUri(id: number, uri: vscode.Uri): void {
    const file = documentIdFromUri(uri) === undefined ? undefined : fileNameOf(uri);
    if (file !== undefined) this.records.addName(id, nameFromFileName(file));
  }

  private ensureIndex(): Promise<void> {
    return this.index.ensure().catch((e: unknown) => Promise.reject(this.toFileSystemError(e, vscode.l10n.t("Couldn't list the documents of the account"))));
  }

  /** The server's copy: a recent read this call may still use (see DocumentRecords.reuse), else a new GET. */
  private async current(id: number, use: Use, action: string, uri: vscode.Uri): Promise<Version> {
    const records = this.records;
    const reused = records.reuse(id, use, use === 'stat' && this.hasUnsavedEdits(id));
    if (reused) return reused;
    const fetched = this.accept(await this.fetch(id, action, uri), false, records).version;
    records.used(id, use);
    return fetched;
  }

  /** GET the document: sent only while its account is signed in. */
  private async fetch(id: number, action: string, _uri?: vscode.Uri): Promise<ContentDocument> {
    try {
      return await this.account().documents.fetch(id);
    } catch (e) {
      throw this.toFileSystemError(e, action, id);
    }
  }

  /** Records a server copy; when it differs from the last one and is not our own save, editors hear of it. */
  private accept(doc: ContentDocument, own: boolean, records = this.records): Observation {
    const obs = records.observe(doc, own);
    if (!own && !obs.first && obs.statChanged) this.fireForDocument(doc.id, vscode.FileChangeType.Changed, undefined, records);
    return obs;
  }

  private label(id: number, uri?: vscode.Uri): string {
    const name = this.documents?.get(id)?.name ?? this.index.get(id)?.name;
    if (name) return name;
    const last = uri?.path.split('/').pop();
    return last ? nameFromFileName(last) : `document ${id}`;
  }

  private refuse(message: string, kind?: 'noPermissions' | 'unavailable'): vscode.FileSystemError {
    return refusal(this.log, message, kind);
  }

  private toFileSystemError(e: unknown, action: string, id?: number): vscode.FileSystemError {
    return toFileSystemError(e, action, this.log, id === undefined ? undefined : () => this.documents?.markDeleted(id));
  }

  private fireForDocument(id: number, type: vscode.FileChangeType, except?: vscode.Uri, records = this.records): void {
    const skip = except?.toString();
    this.events.soon(...documentUris(id, records.uris(id), this.index, this.accountLabel).filter((u) => u.toString() !== skip).map((uri) => ({ type, uri })));
  }

  /** What changed in the account folder, told under its label. */
  private indexDiff(diff: IndexDiff): void {
    this.events.indexDiff(diff, this.accountLabel);
  }

  private onServiceChange(doc: ContentDocument, previous: ContentDocument | undefined): void {
    if (previous) this.records.addName(doc.id, safeSegment(previous.name));
    const obs = this.accept(doc, this.records.isWriting(doc.id));
    // A text that became HTML, or stopped being HTML, moves its file in the account folder as a rename does.
    const reformatted = previous !== undefined && isHtmlDocument(previous) !== isHtmlDocument(doc);
    if (!previous || previous.name !== doc.name || previous.template?.id !== doc.template?.id || reformatted) {
      // Every URI of the document hears of a rename (its editors keep working under the old name).
      if (previous && !obs.statChanged) this.fireForDocument(doc.id, vscode.FileChangeType.Changed);
      this.indexDiff(this.index.upsert(doc));
    }
  }

  private onServiceDelete(id: number): void {
    this.fireForDocument(id, vscode.FileChangeType.Deleted);
    this.indexDiff(this.index.remove(id));
    this.records.forget(id);
  }

  private onServiceCreate(doc: ContentDocument): void {
    this.accept(doc, true);
    this.indexDiff(this.index.upsert(doc));
  }

  /**
   * A refresh (or the account signed in again under the label): open editors check their document again, and the
   * account folder is listed again.
   */
  private onServiceForget(rebound = false): void {
    // Made anew under the label: what was read of its documents is read again (the names, URIs and versions stay).
    if (rebound) this.records.forgetReads();
    for (const uri of tabUris()) {
      // Another account's tabs are its own file system's: they have nothing to read again for this one.
      if (accountOfUri(uri) !== this.accountLabel) continue;
      const id = this.documentIdOf(uri);
      if (id === undefined && !isAccountUri(uri) && documentIdFromUri(uri) === undefined) continue;
      if (id !== undefined) this.records.dropRead(id);
      this.events.soon({ type: vscode.FileChangeType.Changed, uri });
    }
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = undefined;
    // No account under the label (it went): nothing is listed for it until one is signed in again (see bind).
    if (!this.index.loaded || !this.live()) return;
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      if (!this.live()) return;
      this.index.reload().then(
        (d) => {
          this.indexDiff(d);
          // A document the server answered 404 for was deleted elsewhere: the views and editors hear of it too, so
          // the folder and the Documents view never disagree about it. (Absence from the listing alone is not that.)
          for (const id of d.goneIds) this.documents?.markDeleted(id);
        },
        (e: unknown) => this.log.warn(`[fs] ${describeError("Couldn't list the documents of the account again", e)}`),
      );
    }, 500);
  }
}
