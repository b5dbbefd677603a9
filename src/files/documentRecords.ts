/**
 * What the file system knows of each document: one record per document, made on first use and forgotten in one
 * place ({@link DocumentRecords.forget}). No `vscode` import: unit-tested in plain Node (test/unit/documentRecords.test.ts).
 */
import type { ContentDocument } from '../api/index';
import { safeSegment } from './names';
import { VersionTracker, type Observation, type Version } from './versions';

/**
 * A server read serves at most one stat and one readFile, within this time: opening a document is
 * stat + readFile = one GET, and the stat VS Code makes before a save always asks the server again.
 */
export const REUSE_MS = 2_000;
/** writeFile trusts a successful stat this recent (the one VS Code makes before writing); otherwise it checks the server itself. */
export const WRITE_CHECK_MS = 2_000;

export type Use = 'stat' | 'read';

/** The last server read of a document, and whether a stat / a readFile has already used it. */
interface Read {
  at: number;
  stat: boolean;
  read: boolean;
  /** The answer to our own save. */
  ownSave: boolean;
}

interface DocumentRecord<U> {
  /** Every URI VS Code asked about, so that changes reach each of them. */
  readonly uris: Map<string, U>;
  /**
   * The file names (without extension) the document has had this session, or that a URI for it was
   * successfully read under. A single-document URI resolves by its id, but a name the document never
   * had is "not found" — that is what lets VS Code rename `…/Old.md` to `…/New.md` (it checks the
   * target does not exist), while a tab opened before a rename keeps working.
   */
  readonly names: Set<string>;
  lastRead?: Read;
  /** When a stat last succeeded. */
  statOkAt?: number;
  /** The file system is PATCHing its result right now (its change event is our own). */
  writing: boolean;
  /**
   * A save of this URI sent nothing (its text was the server's): the stat VS Code makes right after the write is
   * answered with the version the editor holds, once, without a request.
   */
  unchangedSave?: { readonly uri: string; readonly version: Version };
}

/** `U`: the URI type (vscode.Uri in the extension); only its string form is used as a key. */
export class DocumentRecords<U extends { toString(): string }> {
  /** Every text VS Code was told of, per document (mtime and size that move whenever the text changed). */
  readonly versions = new VersionTracker();
  readonly #records = new Map<number, DocumentRecord<U>>();

  #record(id: number): DocumentRecord<U> {
    let r = this.#records.get(id);
    if (!r) this.#records.set(id, (r = { uris: new Map(), names: new Set(), writing: false }));
    return r;
  }

  /** A server copy arrived (`own`: the answer to our save): versions observe it, and it may serve one stat and one readFile. */
  observe(doc: ContentDocument, own: boolean, now = Date.now()): Observation {
    const obs = this.versions.observe(doc.id, doc);
    const r = this.#record(doc.id);
    r.names.add(safeSegment(doc.name));
    r.lastRead = { at: now, stat: false, read: false, ownSave: own };
    return obs;
  }

  /**
   * The version a stat or readFile may use without asking the server (marked as used), or undefined: ask. A
   * stat of a document with no unsaved edits may reuse a recent read again (VS Code stats a file it just opened
   * more than once). With unsaved edits (`dirtyStat`) a stat is the one before a save: only the answer to our own
   * save serves it, once (the stat VS Code makes right after the write, while the editor still counts as dirty).
   */
  reuse(id: number, use: Use, dirtyStat: boolean, now = Date.now()): Version | undefined {
    const v = this.versions.get(id);
    const r = this.#records.get(id)?.lastRead;
    if (!v || !r || now - r.at > REUSE_MS) return undefined;
    const reusable = dirtyStat ? r.ownSave && !r.stat : !r[use] || use === 'stat';
    if (!reusable) return undefined;
    r[use] = true;
    return v;
  }

  /** A stat or readFile used the read just made. */
  used(id: number, use: Use): void {
    const r = this.#records.get(id)?.lastRead;
    if (r) r[use] = true;
  }

  /** The editor about to be shown checks the file again: the read just made serves it once more. */
  readAgain(id: number): void {
    const r = this.#records.get(id)?.lastRead;
    if (r) r.stat = r.read = false;
  }

  /** The next stat or readFile of this document asks the server. */
  dropRead(id: number): void {
    const r = this.#records.get(id);
    if (r) r.lastRead = undefined;
  }

  /**
   * A save of `uri` sent nothing (the server already had its text, `version`), or stored `version` while its account
   * went (no stat of that account may ask its server any more). VS Code stats the file right after the write and takes
   * that answer for the editor's: {@link afterUnchangedSave} gives it this version, whose text the editor holds (a newer
   * one read meanwhile would tell the editor it has a text it does not show).
   */
  savedUnchanged(id: number, uri: string, version: Version): void {
    this.#record(id).unchangedSave = { uri, version };
  }

  /** The version the stat of `uri` right after a save that sent nothing answers with (once), or undefined. */
  afterUnchangedSave(id: number, uri: string): Version | undefined {
    const r = this.#records.get(id);
    const saved = r?.unchangedSave;
    if (!saved || saved.uri !== uri) return undefined;
    r.unchangedSave = undefined;
    return saved.version;
  }

  statStarted(id: number): void {
    this.#record(id).statOkAt = undefined;
  }

  statOk(id: number, now = Date.now()): void {
    this.#record(id).statOkAt = now;
  }

  /** Whether a stat succeeded within {@link WRITE_CHECK_MS} (VS Code's own check before a write then holds). */
  statRecent(id: number, now = Date.now()): boolean {
    return now - (this.#records.get(id)?.statOkAt ?? 0) <= WRITE_CHECK_MS;
  }

  setWriting(id: number, on: boolean): void {
    this.#record(id).writing = on;
  }

  isWriting(id: number): boolean {
    return this.#records.get(id)?.writing === true;
  }

  addName(id: number, name: string): void {
    this.#record(id).names.add(name);
  }

  /** The names this document had or was read under this session (undefined: none known). */
  names(id: number): ReadonlySet<string> | undefined {
    return this.#records.get(id)?.names;
  }

  track(id: number, uri: U): void {
    this.#record(id).uris.set(uri.toString(), uri);
  }

  /** Every URI VS Code asked about for this document. */
  uris(id: number): U[] {
    return [...(this.#records.get(id)?.uris.values() ?? [])];
  }

  /** The one place a document is forgotten (it was deleted): its record and its versions. */
  forget(id: number): void {
    this.#records.delete(id);
    this.versions.forget(id);
  }

  /**
   * Another account is used now: what was read of the documents goes (reads, stats), and the next stat or readFile
   * asks the server again. The records are one account's (the file system keeps them per label): the names, URIs and
   * versions stay, so back in this account its tabs resolve as before and are compared with what VS Code was told.
   */
  forgetReads(): void {
    for (const r of this.#records.values()) {
      r.lastRead = undefined;
      r.statOkAt = undefined;
      r.unchangedSave = undefined;
    }
  }
}
