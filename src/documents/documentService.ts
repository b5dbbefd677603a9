import type { Call, ContentDocument, DocumentChanges, DocumentListQuery, NewDocument, Page } from '../api/index';
import { Disposable } from '../util/disposable';
import { errorKind } from '../util/errors';
import { sameDocument } from './document';
import { Emitter } from '../model/emitter';
import type { ApiProvider } from '../accounts/apiProvider';

/**
 * What the extension knows of each document of one account, and the one way to change one. The account owns it (see
 * Account): its requests go to that account's servers with its key, and no other account's. The tree and the file
 * system both read from here and listen to its events, so a rename, favorite, save or delete done anywhere shows
 * everywhere without refetching unrelated lists. Once the account is disposed (signed out, removed, or its key or
 * server changed: another account) every request is refused before it leaves, and a late answer is told to no one.
 */
export class DocumentService extends Disposable {
  readonly #known = new Map<number, ContentDocument>();
  /** Per document: the last update queued (settled, never rejected), so the next one waits for it. */
  readonly #updates = new Map<number, Promise<void>>();
  /** Per document: the favorite state last asked for, while its PATCH is pending. */
  readonly #wantedFavorite = new Map<number, { favorite: boolean }>();
  /** The document objects this service handed out (see {@link readThis}). */
  readonly #handedOut = new WeakSet<ContentDocument>();

  readonly #_onDidChange = this._register(new Emitter<{ doc: ContentDocument; previous: ContentDocument | undefined }>());
  /** A document's fields changed (rename, favorite, saved result, or a fetch found it changed). */
  readonly onDidChange = this.#_onDidChange.event;
  readonly #_onDidDelete = this._register(new Emitter<ContentDocument | { id: number }>());
  readonly onDidDelete = this.#_onDidDelete.event;
  readonly #_onDidCreate = this._register(new Emitter<ContentDocument>());
  readonly onDidCreate = this.#_onDidCreate.event;
  readonly #_onDidForget = this._register(new Emitter<void>());
  /** Everything known was dropped (a refresh): listeners holding copies should reload them when next needed. */
  readonly onDidForget = this.#_onDidForget.event;

  readonly #api: Pick<ApiProvider, 'get'>;

  constructor(api: Pick<ApiProvider, 'get'>) {
    super();
    this.#api = api;
  }

  get(id: number): ContentDocument | undefined {
    return this.#known.get(id);
  }

  /**
   * One page of a list (one request). Its documents are remembered; `changed` are those that differ from what
   * was known before, `previous` what was known of them (the caller shows the page; other places showing those
   * documents may need to move or drop them). `call`: its signal, or its signal and priority (`background` for work
   * the writer did not ask for: it waits behind theirs).
   */
  async list(
    query: DocumentListQuery,
    call?: Call,
    { announce = false }: { announce?: boolean } = {},
  ): Promise<Page<ContentDocument> & { changed: ContentDocument[]; previous: ReadonlyMap<number, ContentDocument> }> {
    const page = await this.#api.get().listDocuments(query, call);
    for (const d of page.items) this.#handedOut.add(d);
    const before = new Map(page.items.map((d) => [d.id, this.#known.get(d.id)]));
    this.remember(page.items);
    // Changed: known before, different now, and taken (a page older than what is known is not).
    const changed = page.items.filter((d) => {
      const previous = before.get(d.id);
      return previous !== undefined && this.#known.get(d.id) === d && !sameDocument(previous, d);
    });
    // `announce`: the caller does not show the page itself (the account folder): everyone else hears of the changes.
    if (announce) for (const d of changed) this.#_onDidChange.fire({ doc: d, previous: before.get(d.id) });
    const previous = new Map(changed.map((d) => [d.id, before.get(d.id)!]));
    return { ...page, changed, previous };
  }

  /**
   * Records documents seen in a list page. Silent: the caller is already showing them. A page read before a
   * change made here (its answer is newer) does not undo what is known.
   */
  remember(docs: readonly ContentDocument[]): void {
    if (this.isDisposed) return;
    for (const d of docs) {
      const known = this.#known.get(d.id);
      if (known?.updated_at && d.updated_at && known.updated_at > d.updated_at) continue;
      this.#known.set(d.id, d);
    }
  }

  /** Drops what is known (a refresh): open editors and views read again when next needed. */
  forgetAll(): void {
    this.#known.clear();
    this.#_onDidForget.fire();
  }

  /** GET the document; fires onDidChange when it differs from what was known. */
  async fetch(id: number, signal?: AbortSignal): Promise<ContentDocument> {
    const doc = await this.#api.get().showDocument(id, signal);
    this.#handedOut.add(doc);
    this.#accept(doc);
    return doc;
  }

  rename(id: number, name: string): Promise<ContentDocument> {
    return this.update(id, { name });
  }

  /**
   * The favorite state the document will have once the changes asked for have landed: the last one
   * asked, while its PATCH is queued or on the wire; else what the server last said.
   */
  favoriteOf(id: number): boolean | undefined {
    return this.#wantedFavorite.get(id)?.favorite ?? this.#known.get(id)?.favorite;
  }

  async setFavorite(id: number, favorite: boolean): Promise<ContentDocument> {
    const wish = { favorite };
    this.#wantedFavorite.set(id, wish);
    try {
      return await this.update(id, { favorite });
    } finally {
      if (this.#wantedFavorite.get(id) === wish) this.#wantedFavorite.delete(id);
    }
  }

  saveResult(id: number, result: string): Promise<ContentDocument> {
    return this.update(id, { result });
  }

  /**
   * One PATCH; the changes of one document are sent one at a time, in the order they were asked for, so
   * a later change never overtakes an earlier one on the wire (the server keeps the last one it gets).
   */
  update(id: number, changes: DocumentChanges): Promise<ContentDocument> {
    const send = async (): Promise<ContentDocument> => {
      const doc = await this.#api.get().updateDocument(id, changes);
      this.#handedOut.add(doc);
      this.#accept(doc);
      return doc;
    };
    const run = (this.#updates.get(id) ?? Promise.resolve()).then(send, send);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.#updates.set(id, settled);
    void settled.then(() => {
      if (this.#updates.get(id) === settled) this.#updates.delete(id);
    });
    return run;
  }

  async delete(id: number): Promise<void> {
    const before = this.#known.get(id);
    try {
      await this.#api.get().deleteDocument(id);
    } catch (e) {
      // Already gone on the server: the outcome the user asked for.
      if (errorKind(e) !== 'notFound') throw e;
    }
    this.#known.delete(id);
    this.#_onDidDelete.fire(before ?? { id });
  }

  async create(input: NewDocument, signal?: AbortSignal): Promise<ContentDocument> {
    const doc = await this.#api.get().storeDocument(input, signal);
    this.#handedOut.add(doc);
    if (!this.isDisposed) this.#known.set(doc.id, doc);
    this.#_onDidCreate.fire(doc);
    return doc;
  }

  /** A 404 learned elsewhere (open, save): forget the document and tell the views. */
  markDeleted(id: number): void {
    const before = this.#known.get(id);
    this.#known.delete(id);
    this.#_onDidDelete.fire(before ?? { id });
  }

  /** Whether this service handed out the document object (it was read from this service's account). */
  readThis(doc: ContentDocument): boolean {
    return this.#handedOut.has(doc);
  }

  #accept(doc: ContentDocument): void {
    // A late answer of an account that is gone is told to no one (its views and files went with it).
    if (this.isDisposed) return;
    const previous = this.#known.get(doc.id);
    this.#known.set(doc.id, doc);
    if (!previous || !sameDocument(previous, doc)) this.#_onDidChange.fire({ doc, previous });
  }
}
