import type { ContentDocument, DocumentChanges, DocumentListQuery, NewDocument, Page } from '../api/index';
import { Disposable } from '../util/disposable';
import { errorKind } from '../util/errors';
import type { Event } from '../model/emitter';
import { sameDocument } from './document';
import { Emitter } from '../model/emitter';
import type { ApiProvider } from '../accounts/apiProvider';

/**
 * What the extension knows of each document, and the one way to change one. The tree and the file
 * system both read from here and listen to its events, so a rename, favorite, save or delete done
 * anywhere shows everywhere without refetching unrelated lists.
 */
export class DocumentService extends Disposable {
  readonly #known = new Map<number, ContentDocument>();
  /** Per document: the last update queued (settled, never rejected), so the next one waits for it. */
  readonly #updates = new Map<number, Promise<void>>();
  /** Per document: the favorite state last asked for, while its PATCH is pending. */
  readonly #wantedFavorite = new Map<number, { favorite: boolean }>();
  /** Bumped when the key or the server changes. */
  #account = 0;
  /**
   * Per value of `#account`: the account's label (see Credentials.accountLabel; undefined when signed out). Signing
   * out and in again with the same key on the same server is the same account: what was asked before still belongs
   * to it. A document's URI carries the label, and a request for a URI is sent only while that label is the account's.
   */
  readonly #identities = new Map<number, Promise<string | undefined>>();
  /** Per document object this service handed out: the label of the account it was read from (see {@link accountOf}). */
  readonly #accountOf = new WeakMap<ContentDocument, string>();
  /** The labels of `#identities` once read (see {@link accountLabel}). */
  readonly #labels = new Map<number, string | undefined>();
  readonly #identity: (() => Promise<string | undefined>) | undefined;
  /** The credentials said the key was removed (and none set since): signed out. Not a server address removed. */
  #signedOut = false;

  readonly #_onDidChange = this._register(new Emitter<{ doc: ContentDocument; previous: ContentDocument | undefined }>());
  /** A document's fields changed (rename, favorite, saved result, or a fetch found it changed). */
  readonly onDidChange = this.#_onDidChange.event;
  readonly #_onDidDelete = this._register(new Emitter<ContentDocument | { id: number }>());
  readonly onDidDelete = this.#_onDidDelete.event;
  readonly #_onDidCreate = this._register(new Emitter<ContentDocument>());
  readonly onDidCreate = this.#_onDidCreate.event;
  readonly #_onDidForget = this._register(new Emitter<{ readonly account: boolean }>());
  /**
   * Everything known was dropped: listeners holding copies should reload them when next needed. `account`:
   * the key or the server changed, so what was known may belong to another account (ids mean other documents).
   */
  readonly onDidForget = this.#_onDidForget.event;

  readonly #api: Pick<ApiProvider, 'get' | 'onDidChangeServer'>;

  /**
   * `identity`: the label of the account used now, read locally (undefined when signed out). Without it, any change
   * of key or server makes earlier answers another account's.
   */
  constructor(
    api: Pick<ApiProvider, 'get' | 'onDidChangeServer'>,
    credentials: { readonly onDidChange: Event<boolean> },
    identity?: () => Promise<string | undefined>,
  ) {
    super();
    this.#api = api;
    this.#identity = identity;
    if (identity) this.#identify(0);
    this._register(
      credentials.onDidChange((signedIn) => {
        this.#signedOut = !signedIn;
        this.forgetAll(true);
      }),
    );
    this._register(api.onDidChangeServer(() => this.forgetAll(true)));
  }

  /** The account requests are made for now; {@link isCurrent} tells whether an earlier one is still it. */
  get generation(): number {
    return this.#account;
  }

  /**
   * Whether what was asked or learned under `generation` belongs to the account used now: nothing changed since,
   * or the key was removed and the same key set again on the same server (the same account). Local, no request.
   */
  async isCurrent(generation: number): Promise<boolean> {
    for (;;) {
      const now = this.#account;
      if (generation === now) return true;
      const [then, current] = await Promise.all([this.#identities.get(generation), this.#identities.get(now)]);
      // Changed again while the key was being read: compare with the newest.
      if (now !== this.#account) continue;
      return then !== undefined && then === current;
    }
  }

  #identify(generation: number): void {
    const label = this.#identity!().catch(() => undefined);
    this.#identities.set(generation, label);
    void label.then((l) => {
      if (this.#identities.has(generation)) this.#labels.set(generation, l);
    });
  }

  /**
   * The label of the account used now, once read (local; undefined before that, or when signed out): what the URIs
   * of the documents this service just returned carry.
   */
  get accountLabel(): string | undefined {
    return this.#labels.get(this.#account);
  }

  /** The label of the account used now (see {@link accountLabel}), read if it is not yet. */
  async currentAccount(): Promise<string | undefined> {
    for (;;) {
      const now = this.#account;
      const label = await (this.#identities.get(now) ?? Promise.resolve(undefined));
      if (now === this.#account) return label;
    }
  }

  /**
   * Whether a request made now under `generation` is for `account` (a URI's label; undefined: whatever account is
   * used). Else the request is not sent: the same id is another document in another account.
   */
  async #isFor(generation: number, account: string | undefined): Promise<boolean> {
    if (!(await this.isCurrent(generation))) return false;
    return account === undefined || (await this.#identities.get(generation)) === account;
  }

  get(id: number): ContentDocument | undefined {
    return this.#known.get(id);
  }

  /**
   * One page of a list (one request). Its documents are remembered; `changed` are those that differ from what
   * was known before, `previous` what was known of them (the caller shows the page; other places showing those
   * documents may need to move or drop them).
   */
  async list(
    query: DocumentListQuery,
    signal?: AbortSignal,
    { announce = false }: { announce?: boolean } = {},
  ): Promise<Page<ContentDocument> & { changed: ContentDocument[]; previous: ReadonlyMap<number, ContentDocument> }> {
    const account = this.#account;
    const page = await this.#api.get().listDocuments(query, signal);
    // Another key or server since the request left: its documents are not this account's.
    const label = await this.#stillCurrent(account);
    if (label === null) throw this.#elsewhere((who) => `${who.since} while the documents were being listed.`);
    for (const d of page.items) this.#stamp(d, label);
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
    for (const d of docs) {
      const known = this.#known.get(d.id);
      if (known?.updated_at && d.updated_at && known.updated_at > d.updated_at) continue;
      this.#known.set(d.id, d);
    }
  }

  /** Drops what is known (a refresh, or `account`: the key or the server changed). */
  forgetAll(account = false): void {
    if (account) {
      this.#identities.delete(this.#account - 8);
      this.#account++;
      this.#labels.delete(this.#account - 8);
      if (this.#identity) this.#identify(this.#account);
      this.#wantedFavorite.clear();
      // A change for the new account never waits behind one still on the wire to the previous one.
      this.#updates.clear();
    }
    this.#known.clear();
    this.#_onDidForget.fire({ account });
  }

  /** GET the document; fires onDidChange when it differs from what was known. */
  async fetch(id: number, signal?: AbortSignal, forAccount?: string): Promise<ContentDocument> {
    const account = this.#account;
    if (forAccount !== undefined && !(await this.#isFor(account, forAccount))) throw this.#otherAccount();
    const doc = await this.#api.get().showDocument(id, signal);
    // Another key or server since the request left: the same id is another document now.
    const label = await this.#stillCurrent(account);
    if (label === null) throw this.#elsewhere((who) => `${who.since} while the document was being read.`);
    this.#stamp(doc, label);
    this.#accept(doc);
    return doc;
  }

  rename(id: number, name: string, forAccount?: string): Promise<ContentDocument> {
    return this.update(id, { name }, forAccount);
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

  saveResult(id: number, result: string, forAccount?: string): Promise<ContentDocument> {
    return this.update(id, { result }, forAccount);
  }

  /**
   * One PATCH; the changes of one document are sent one at a time, in the order they were asked for, so
   * a later change never overtakes an earlier one on the wire (the server keeps the last one it gets).
   */
  update(id: number, changes: DocumentChanges, forAccount?: string): Promise<ContentDocument> {
    const account = this.#account;
    const send = async (): Promise<ContentDocument> => {
      if (forAccount !== undefined && !(await this.#isFor(account, forAccount))) throw this.#otherAccount();
      // A change queued for one account never goes to another (same id, another document).
      if (!(await this.isCurrent(account))) throw this.#elsewhere((who) => `${who.since} before this change was sent, so nothing was sent.`);
      const doc = await this.#api.get().updateDocument(id, changes);
      // Changed on the server it was sent to; the views now show another account, where this id is another document.
      const label = await this.#stillCurrent(account);
      if (label === null) throw this.#elsewhere((who) => `${who.since} while this change was being sent: it was made in ${who.account}.`);
      this.#stamp(doc, label);
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

  async delete(id: number, forAccount?: string): Promise<void> {
    const account = this.#account;
    if (forAccount !== undefined && !(await this.#isFor(account, forAccount))) throw this.#otherAccount();
    const before = this.#known.get(id);
    try {
      await this.#api.get().deleteDocument(id);
    } catch (e) {
      // Already gone on the server: the outcome the user asked for.
      if (errorKind(e) !== 'notFound') throw e;
    }
    if (!(await this.isCurrent(account))) throw this.#elsewhere((who) => `${who.since} while the document was being deleted: it was deleted in ${who.account}.`);
    this.#known.delete(id);
    this.#_onDidDelete.fire(before ?? { id });
  }

  async create(input: NewDocument, signal?: AbortSignal): Promise<ContentDocument> {
    const account = this.#account;
    const doc = await this.#api.get().storeDocument(input, signal);
    // Another key or server since the request left: the document belongs to the account it was sent to, not to this one.
    const label = await this.#stillCurrent(account);
    if (label === null) {
      throw this.#elsewhere((who) => `${who.since} while the service was writing: the document was created in ${who.account} and is not shown here.`);
    }
    this.#stamp(doc, label);
    this.#known.set(doc.id, doc);
    this.#_onDidCreate.fire(doc);
    return doc;
  }

  /** A 404 learned elsewhere (open, save): forget the document and tell the views. */
  markDeleted(id: number): void {
    const before = this.#known.get(id);
    this.#known.delete(id);
    this.#_onDidDelete.fire(before ?? { id });
  }

  /**
   * The refusal of an answer that belongs to the account used before: signed out since (nothing is shown now), or
   * another key or server. `say` words it for what was asked. Signed out is the credentials' word (no key now), not
   * a missing identity: removing the documents server address also leaves no identity, and is a server change.
   */
  #elsewhere(say: (who: { since: string; account: string }) => string): Error {
    return new Error(
      say(this.#signedOut ? { since: 'You signed out', account: 'the account you signed out of' } : { since: 'The API key or server changed', account: 'the previous account' }),
    );
  }

  /**
   * The label of the account a document object came from (the label its URI carries): stamped when its answer was
   * accepted as the account's. Throws when unknown (a document made up elsewhere, or no account identity).
   */
  accountOf(doc: ContentDocument): string {
    const label = this.#accountOf.get(doc);
    if (label === undefined) throw new Error(`Couldn't tell which account document ${doc.id} belongs to: open it again from the Documents view.`);
    return label;
  }

  /** Whether this service handed out the document object, as read from an account it knows (see {@link accountOf}). */
  readThis(doc: ContentDocument): boolean {
    return this.#accountOf.has(doc);
  }

  #stamp(doc: ContentDocument, label: string | undefined): void {
    if (label !== undefined) this.#accountOf.set(doc, label);
  }

  /**
   * After the answer to a request made under `generation`: the label of its account when that account is still the
   * one used now (undefined without an identity), else null. The last check is synchronous with the caller's use of
   * the answer: nothing can change the account in between.
   */
  async #stillCurrent(generation: number): Promise<string | undefined | null> {
    if (!(await this.isCurrent(generation))) return null;
    if (!this.#identity) return undefined;
    const label = await this.#identities.get(generation);
    return this.#labels.has(this.#account) && this.#labels.get(this.#account) === label ? label : null;
  }

  /** The refusal of a request for a URI of another account than the one used now: nothing was sent. */
  #otherAccount(): Error {
    return new Error(
      this.#signedOut
        ? 'You signed out: this document belongs to the account you signed out of, so nothing was sent.'
        : 'This document belongs to the account used before the API key or server changed, so nothing was sent.',
    );
  }

  #accept(doc: ContentDocument): void {
    const previous = this.#known.get(doc.id);
    this.#known.set(doc.id, doc);
    if (!previous || !sameDocument(previous, doc)) this.#_onDidChange.fire({ doc, previous });
  }
}
