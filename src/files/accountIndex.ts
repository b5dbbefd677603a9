import { l10n } from '../util/l10n';
import { documentFileName, extensionOf, isHtmlDocument, templateFolderName, type DocumentLike } from './names';
import type { PathMemory } from './pathMemory';

/** What the index keeps of a document: enough to name it (whether its text is HTML, never the text). */
export type IndexedDocument = DocumentLike;

/** Paths (`<folder>/<file>`) that appeared or went away after a change, for onDidChangeFile. */
export interface IndexDiff {
  addedFolders: string[];
  removedFolders: string[];
  addedFiles: string[];
  removedFiles: string[];
  /** Documents listed before and not now: deleted here, or the server answered 404 for them (never a listing's word alone). */
  goneIds: number[];
}

const EMPTY_DIFF: IndexDiff = { addedFolders: [], removedFolders: [], addedFiles: [], removedFiles: [], goneIds: [] };

/** One listing of the account (see {@link listAccount}). */
export interface AccountListing {
  /** What the last walk of the pages listed. */
  docs: IndexedDocument[];
  /** Listed by an earlier walk and not by the last: deleted since, or skipped by the last walk (asked for by id). */
  unsure: IndexedDocument[];
}

/**
 * Asks the server for one document (`GET /documents/{id}`): its record, or null when the server answered 404.
 * Any other failure throws (the answer is unknown).
 */
export type ReadDocument = (id: number) => Promise<IndexedDocument | null>;

function templateKey(doc: DocumentLike): string {
  return doc.template ? `t${doc.template.id}` : 'none';
}

/**
 * The account as folders and files: one folder per template that has documents, one `<name>.md`
 * per document (`<name>.html` when its text is HTML; a change of format moves the file as a rename does). Built from the full listing (walked page by page, one request per page, cached);
 * kept current from the document service's events afterwards. No `vscode` import (unit-tested in Node).
 *
 * Names are made unique per folder: when documents share a name, the oldest (lowest id) keeps
 * `Name.md` and the others become `Name (123).md`; two templates that show the same name are
 * told apart the same way (`Article (template 60)`).
 *
 * A path once given to a document means that document for the rest of the session: an editor shows a path,
 * and whatever it saves there must reach the document it showed. The paths given out under an account are kept
 * while another account is used, and mean their documents again when that account is back (its editors stayed
 * open; see {@link forAccount}).
 * So a rebuild never hands a path to another document — not when its document is renamed away, not
 * when it is deleted (the path then resolves to the deleted id, which the file system reports as gone).
 *
 * A document is gone only when it was deleted here or the server answered 404 for it. The listing is paged by
 * offset: a delete on a page already read moves the next page one row on, so a live document can be in no page.
 * A document the index had and a new listing lacks is therefore asked for by id before it is let go.
 * The one exception is {@link claim}: the user renaming a file onto a path whose document no longer
 * uses it, with no editor showing that path.
 *
 * Across sessions (a window reloaded, VS Code restarted with its tabs restored) the paths handed to editors are kept
 * in a {@link PathMemory}: a path that neither this session nor the listing knows is resolved through it
 * ({@link recall}), and {@link remembered} says which document a path last meant, so that a path the listing now
 * gives to another document is never taken for the one an editor was opened on (the caller decides, see targets.ts).
 */
export class AccountIndex {
  private readonly docs = new Map<number, IndexedDocument>();
  private folders = new Map<string, Map<string, number>>();
  private pathById = new Map<number, string>();
  /** Every path given out this session, and the document it means (kept after a rename or a delete). */
  private readonly aliases = new Map<string, number>();
  /** The account `aliases` belong to, and the paths given out under the other accounts used this session. */
  private aliasAccount: string | undefined;
  private readonly aliasesOf = new Map<string, Map<string, number>>();
  private loading: Promise<void> | undefined;
  private reloading: Promise<void> | undefined;
  /** A reload asked for while one was on the wire: it lists again once that one is done (its answer may predate the ask). */
  private reloadAgain: Promise<void> | undefined;
  /** Changes the document service reported while a listing was on the wire (null: deleted). */
  private heard: Map<number, IndexedDocument | null> | undefined;
  private isLoaded = false;

  /** Bumped by unload(): a listing started before it belongs to another account and is dropped. */
  private generation = 0;
  /** Documents a remembered path meant, read by id this session and answered 404. */
  private readonly confirmedGone = new Set<number>();

  /**
   * `loadAll(current)`: the whole listing; `current()` turns false once it is no longer wanted. `read`: one document
   * by id, asked for each document a listing lacks (one at a time: they are paced like every request).
   */
  constructor(
    private readonly loadAll: (current: () => boolean) => Promise<AccountListing>,
    private ext: string,
    private readonly read: ReadDocument,
    /** The paths handed to editors in earlier sessions (and this one), kept across sessions. */
    private readonly memory?: PathMemory,
  ) {}

  get loaded(): boolean {
    return this.isLoaded;
  }

  /** Loads the listing once; concurrent callers share the same load, and a failed load is retried next time. */
  ensure(): Promise<void> {
    if (this.isLoaded) return Promise.resolve();
    const generation = this.generation;
    this.loading ??= this.load().then(
      () => {
        this.loading = undefined;
      },
      (e: unknown) => {
        if (generation === this.generation) this.loading = undefined;
        throw e;
      },
    );
    return this.loading;
  }

  /**
   * Reloads the listing (after a refresh) and reports what appeared or went away. Meanwhile the index keeps
   * answering from what it has, and what the document service reports meanwhile is laid over the listing
   * when it lands (the listing was read before those changes).
   */
  async reload(): Promise<IndexDiff> {
    if (!this.isLoaded) return EMPTY_DIFF;
    const before = this.snapshot();
    const start = (): Promise<void> =>
      (this.reloading = this.load().finally(() => {
        this.reloading = undefined;
      }));
    if (!this.reloading) await start();
    else {
      // The listing on the wire was asked for before this reload: its answer may not hold what changed since.
      const generation = this.generation;
      this.reloadAgain ??= this.reloading
        .catch(() => undefined)
        .then(() => {
          this.reloadAgain = undefined;
          return generation === this.generation ? (this.reloading ?? start()) : undefined;
        });
      await this.reloadAgain;
    }
    return this.diff(before);
  }

  /**
   * One listing, with the documents it lacks confirmed by id and the changes heard while it was on the wire laid
   * over it.
   */
  private async load(): Promise<void> {
    const generation = this.generation;
    const current = () => generation === this.generation;
    const changed = () => new Error(l10n.t('The account changed while its documents were being listed.'));
    const heard = new Map<number, IndexedDocument | null>();
    this.heard = heard;
    try {
      const listing = await this.loadAll(current);
      if (!current()) throw changed();
      const docs = new Map<number, IndexedDocument>(listing.docs.map((d) => [d.id, pick(d)]));
      // Absence from a page walk is no evidence of a delete: only the server's 404 for the id is.
      const missing = new Map<number, IndexedDocument>();
      for (const d of [...this.docs.values(), ...listing.unsure]) if (!docs.has(d.id)) missing.set(d.id, d);
      for (const [id, d] of missing) {
        if (heard.has(id)) continue; // deleted or changed here meanwhile: laid over below
        let kept: IndexedDocument | undefined = d;
        try {
          const found = await this.read(id);
          kept = found ? pick(found) : undefined;
        } catch {
          // No answer: the document stays as it was (the next reload asks again).
        }
        if (!current()) throw changed();
        if (kept) docs.set(id, kept);
      }
      this.docs.clear();
      for (const [id, d] of docs) this.docs.set(id, d);
      for (const [id, d] of heard) {
        if (d) this.docs.set(id, d);
        else this.docs.delete(id);
      }
      this.rebuild();
      this.isLoaded = true;
    } finally {
      if (this.heard === heard) this.heard = undefined;
    }
  }

  /**
   * The account the next listing is of (its label), said before that listing is laid out: the paths given out under
   * it earlier this session mean their documents again; those of the account used until now are kept for when it
   * comes back.
   */
  forAccount(account: string | undefined): void {
    if (account === this.aliasAccount) return;
    this.setAsideAliases();
    for (const [path, id] of (account === undefined ? undefined : this.aliasesOf.get(account)) ?? []) this.aliases.set(path, id);
    this.aliasAccount = account;
  }

  /** Keeps the paths given out under the account used until now for when it comes back, and forgets them here. */
  private setAsideAliases(): void {
    if (this.aliasAccount !== undefined) this.aliasesOf.set(this.aliasAccount, new Map(this.aliases));
    this.aliases.clear();
    this.aliasAccount = undefined;
  }

  /**
   * Another account: everything goes, and the listing loads again when next asked for. (The paths editors still
   * show name the account they belong to: the file system never resolves them in another. Those given out are kept
   * for that account, see {@link forAccount}.)
   */
  unload(): IndexDiff {
    this.generation++;
    this.loading = undefined;
    this.reloading = undefined;
    this.reloadAgain = undefined;
    this.heard = undefined;
    this.setAsideAliases();
    if (!this.isLoaded) return EMPTY_DIFF;
    const before = this.snapshot();
    this.isLoaded = false;
    this.docs.clear();
    this.rebuild();
    return this.diff(before);
  }

  /** The file extension changed (setting): every file name changes. */
  setExtension(ext: string): IndexDiff {
    if (ext === this.ext) return EMPTY_DIFF;
    this.ext = ext;
    if (!this.isLoaded) return EMPTY_DIFF;
    const before = this.snapshot();
    this.rebuild();
    return this.diff(before);
  }

  upsert(doc: IndexedDocument): IndexDiff {
    this.heard?.set(doc.id, pick(doc));
    if (!this.isLoaded) return EMPTY_DIFF;
    const prev = this.docs.get(doc.id);
    if (
      prev &&
      prev.name === doc.name &&
      templateKey(prev) === templateKey(doc) &&
      prev.template?.name === doc.template?.name &&
      isHtmlDocument(prev) === isHtmlDocument(doc)
    ) {
      return EMPTY_DIFF;
    }
    const before = this.snapshot();
    this.docs.set(doc.id, pick(doc));
    this.rebuild();
    return this.diff(before);
  }

  /** The document is gone. Its paths keep meaning it (an editor showing one must not save into another document). */
  remove(id: number): IndexDiff {
    this.heard?.set(id, null);
    if (!this.isLoaded || !this.docs.has(id)) return EMPTY_DIFF;
    const before = this.snapshot();
    this.docs.delete(id);
    this.rebuild();
    return this.diff(before);
  }

  folderNames(): string[] {
    return [...this.folders.keys()];
  }

  hasFolder(folder: string): boolean {
    return this.folders.has(folder);
  }

  files(folder: string): [string, number][] | undefined {
    const f = this.folders.get(folder);
    return f ? [...f.entries()] : undefined;
  }

  /**
   * The document at `<folder>/<file>`: the one that path was given to this session (even if it was renamed
   * or deleted since), else the one listed there now.
   */
  resolve(folder: string, file: string): number | undefined {
    return this.aliases.get(`${folder}/${file}`) ?? this.folders.get(folder)?.get(file);
  }

  /** A document the loaded listing no longer has (deleted here, or the server answered 404 for it). */
  isGone(id: number): boolean {
    return this.isLoaded && !this.docs.has(id);
  }

  /** Whether the listing has this folder, or a path of it was given out this session or remembered from an earlier one. */
  knowsFolder(folder: string): boolean {
    if (this.folders.has(folder)) return true;
    const prefix = `${folder}/`;
    for (const path of this.aliases.keys()) if (path.startsWith(prefix)) return true;
    return this.memory?.hasFolder(folder) ?? false;
  }

  /** The document `<folder>/<file>` was last handed to an editor for, this session or an earlier one. */
  remembered(folder: string, file: string): number | undefined {
    return this.memory?.get(`${folder}/${file}`);
  }

  /**
   * A path neither this session nor the listing knows (call {@link resolve} first, with the listing loaded), resolved
   * through the paths handed to editors in earlier sessions: the document it meant, or undefined when none is
   * remembered. A document the listing does not have is read by id first (only a 404 makes it gone, see
   * {@link isGone}; a read that fails throws): one the page walk skipped is listed from its record (`diff`).
   */
  async recall(folder: string, file: string): Promise<{ id: number; diff: IndexDiff } | undefined> {
    const id = this.memory?.get(`${folder}/${file}`);
    if (id === undefined) return undefined;
    if (!this.isLoaded || this.docs.has(id) || this.confirmedGone.has(id)) return { id, diff: EMPTY_DIFF };
    const found = await this.read(id);
    if (!found) {
      this.confirmedGone.add(id);
      return { id, diff: EMPTY_DIFF };
    }
    return { id, diff: this.upsert(found) };
  }

  /**
   * `<folder>/<file>` was handed to an editor showing document `id` (its file was read, or stat'ed for a tab): the
   * path means that document for the rest of the session, and in later sessions it is remembered to mean it.
   */
  handOut(folder: string, file: string, id: number): void {
    const path = `${folder}/${file}`;
    if (!this.aliases.has(path)) this.aliases.set(path, id);
    this.memory?.note(path, id);
  }

  /**
   * Lets document `id` take `<folder>/<file>` although the path was given to another document this session
   * (one renamed away from it, or deleted) or handed to an editor of another document in an earlier session, when
   * nothing shows that path any more (`inUse` says whether something does); the path is then remembered as this
   * document's. Returns a function that undoes the claim (a rename that failed), or undefined when
   * the path cannot be taken: it is the other document's current path, or something still shows it.
   */
  claim(folder: string, file: string, id: number, inUse: (path: string) => boolean): (() => void) | undefined {
    const path = `${folder}/${file}`;
    const owner = this.aliases.get(path);
    // A path an editor was opened on in an earlier session counts as given out too (a restored tab may show it).
    const remembered = this.memory?.get(path);
    const other = owner ?? remembered;
    if (other !== undefined && other !== id) {
      if (this.pathById.get(other) === path || inUse(path)) return undefined;
      if (owner !== undefined) this.aliases.set(path, id);
    }
    // The editor moved onto the path shows this document from now on: in later sessions too.
    const forgotten = remembered !== undefined && remembered !== id ? remembered : undefined;
    if (forgotten !== undefined) this.memory?.note(path, id);
    return () => {
      if (this.pathById.get(id) === path) return;
      if (owner !== undefined && owner !== id && this.aliases.get(path) === id) this.aliases.set(path, owner);
      if (forgotten !== undefined && this.memory?.get(path) === id) this.memory.note(path, forgotten);
    };
  }

  pathOf(id: number): string | undefined {
    return this.pathById.get(id);
  }

  get(id: number): IndexedDocument | undefined {
    return this.docs.get(id);
  }

  private snapshot(): { folders: Set<string>; paths: Map<number, string> } {
    return { folders: new Set(this.folders.keys()), paths: new Map(this.pathById) };
  }

  private diff(before: { folders: Set<string>; paths: Map<number, string> }): IndexDiff {
    const d: IndexDiff = { addedFolders: [], removedFolders: [], addedFiles: [], removedFiles: [], goneIds: [] };
    for (const f of this.folders.keys()) if (!before.folders.has(f)) d.addedFolders.push(f);
    for (const f of before.folders) if (!this.folders.has(f)) d.removedFolders.push(f);
    const now = new Set(this.pathById.values());
    for (const [id, p] of this.pathById) if (before.paths.get(id) !== p) d.addedFiles.push(p);
    for (const [id, p] of before.paths) {
      if (!now.has(p)) d.removedFiles.push(p);
      if (!this.pathById.has(id)) d.goneIds.push(id);
    }
    return d;
  }

  private rebuild(): void {
    // Folder names: one per template; the lowest template id keeps a shared display name.
    const groups = new Map<string, IndexedDocument[]>();
    for (const d of [...this.docs.values()].sort((a, b) => a.id - b.id)) {
      const k = templateKey(d);
      let g = groups.get(k);
      if (!g) groups.set(k, (g = []));
      g.push(d);
    }
    const keys = [...groups.keys()].sort((a, b) => keyOrder(a) - keyOrder(b));
    const folderOf = new Map<string, string>();
    const taken = new Set<string>();
    for (const k of keys) {
      const base = templateFolderName(groups.get(k)![0].template);
      let name = base;
      if (taken.has(name)) name = `${base} (template ${k === 'none' ? 'none' : k.slice(1)})`;
      while (taken.has(name)) name += '\u00a0';
      taken.add(name);
      folderOf.set(k, name);
    }

    const folders = new Map<string, Map<string, number>>();
    const pathById = new Map<number, string>();
    for (const k of keys) {
      const folder = folderOf.get(k)!;
      const files = new Map<string, number>();
      for (const d of groups.get(k)!) {
        // The first of Name.md, Name (id).md, … that is free here and was not given to another document.
        const taken = (f: string) => files.has(f) || (this.aliases.get(`${folder}/${f}`) ?? d.id) !== d.id;
        const ext = extensionOf(d, this.ext);
        let file = documentFileName(d.name, ext);
        if (taken(file)) file = documentFileName(`${d.name} (${d.id})`, ext);
        while (taken(file)) file = documentFileName(`${nameOf(file, ext)} (${d.id})`, ext);
        files.set(file, d.id);
        pathById.set(d.id, `${folder}/${file}`);
        this.aliases.set(`${folder}/${file}`, d.id);
      }
      folders.set(folder, files);
    }
    this.folders = folders;
    this.pathById = pathById;
  }
}

function keyOrder(k: string): number {
  return k === 'none' ? Number.MAX_SAFE_INTEGER : Number(k.slice(1));
}

function nameOf(file: string, ext: string): string {
  return file.endsWith(ext) ? file.slice(0, -ext.length) : file;
}

function pick(d: IndexedDocument): IndexedDocument {
  return { id: d.id, name: d.name, template: d.template, html: isHtmlDocument(d) };
}

/** How many times the listing is walked when its pages show that the list moved during a walk. */
export const LISTING_WALKS = 3;

/**
 * The whole account listing, page by page (one request each). `current` says whether the account is still the one
 * the listing started for: another account's pages are not this account's documents.
 *
 * Pages are chosen by offset, so a delete or create elsewhere during a walk shifts the later pages: a row can be
 * skipped or repeated. A walk whose pages disagree on the total, repeat a row, or add up to another count than
 * the total, saw the list move: it is walked again (at most {@link LISTING_WALKS} times). What an earlier walk
 * listed and the last did not comes back as `unsure` (the caller asks for it by id).
 */
export async function listAccount(
  page: (n: number) => Promise<{ items: readonly IndexedDocument[]; hasMore: boolean; total?: number }>,
  current: () => boolean,
): Promise<AccountListing> {
  const earlier = new Map<number, IndexedDocument>();
  let docs = new Map<number, IndexedDocument>();
  for (let walk = 1; ; walk++) {
    for (const d of docs.values()) earlier.set(d.id, d);
    docs = new Map();
    let moved = false;
    let total: number | undefined;
    for (let n = 1; n <= 10_000; n++) {
      const p = await page(n);
      if (!current()) throw new Error(l10n.t('The account changed while its documents were being listed.'));
      for (const d of p.items) {
        if (docs.has(d.id)) moved = true;
        docs.set(d.id, pick(d));
      }
      if (p.total !== undefined) {
        if (total !== undefined && p.total !== total) moved = true;
        total = p.total;
      }
      if (!p.hasMore) break;
    }
    if (total !== undefined && docs.size !== total) moved = true;
    if (!moved || walk >= LISTING_WALKS) break;
  }
  return { docs: [...docs.values()], unsure: [...earlier.values()].filter((d) => !docs.has(d.id)) };
}
