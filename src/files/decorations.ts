import vscode = require('vscode');
import type { Account } from '../accounts/account';
import { COLOR, SCHEME } from '../constants';
import type { Event } from '../model/emitter';
import { Disposable } from '../util/disposable';
import type { DocumentTarget } from './lazyFs';
import type { SaveEvent } from './saveWindow';
import { accountOfUri, documentIdFromUri, tabUris } from './uris';

/** What the decorations read: the accounts signed in, the documents URIs stand for, and the saves. */
export interface DecorationSources {
  readonly registry: {
    all(): readonly Account[];
    byLabel(label: string | undefined): Account | undefined;
    readonly several: boolean;
    readonly onDidChange: Event<void>;
  };
  /** The document a URI stands for, in its account (undefined: none signed in, or not a document). */
  documentOf(uri: vscode.Uri): DocumentTarget | undefined;
  /** The URIs the file system knows for a document of an account (its tabs' and its path in the account folder). */
  urisOf(label: string, id: number): vscode.Uri[];
  /** Each save of a document's text (see DocumentFileSystem.onDidSaveState). */
  readonly saves: vscode.Event<SaveEvent>;
}

/**
 * The decorations VS Code shows on `content-docs:` files, in editor tabs, the Explorer's account folder and wherever a
 * file's label is shown (the tooltip is added to the label's hover): a save that failed ("!", until a save goes
 * through: VS Code's dirty dot says there are unsaved edits, not that the server refused them), a document deleted
 * on the server ("D", the Git extension's red), a favorite ("★"), and, while several accounts are signed in, the
 * account a file belongs to (the tooltip only: two tabs of one name in two accounts tell themselves apart on hover).
 * Each is a provider of its own: VS Code merges them (the first badge, the tooltips joined).
 */
export class DocumentDecorations extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri[] | undefined>());
  /** The URIs whose decorations changed (undefined: every URI). */
  readonly onDidChange = this._onDidChange.event;
  /** The documents deleted on the server while this window knew them, per account label. */
  private readonly deleted = new Map<string, Set<number>>();
  /** Why the last save of an editor's URI failed, until one goes through. */
  private readonly failed = new Map<string, string>();
  /** The listeners on each signed-in account's documents. */
  private readonly watched = new Map<Account, vscode.Disposable[]>();
  private readonly providers: ReadonlyArray<(uri: vscode.Uri) => vscode.FileDecoration | undefined> = [
    (uri) => this.notSaved(uri),
    (uri) => this.deletedOnServer(uri),
    (uri) => this.favorite(uri),
    (uri) => this.account(uri),
  ];

  constructor(private readonly sources: DecorationSources) {
    super();
    for (const provide of this.providers) {
      this._register(
        vscode.window.registerFileDecorationProvider({
          onDidChangeFileDecorations: this.onDidChange,
          provideFileDecoration: (uri) => (uri.scheme === SCHEME ? provide(uri) : undefined),
        }),
      );
    }
    this._register(sources.saves((e) => this.onSave(e)));
    this._register(
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (this.failed.delete(d.uri.toString())) this._onDidChange.fire([d.uri]);
      }),
    );
    // Another account, one gone, or a name changed: the account in every tooltip may change (and favorites with it).
    this._register(
      sources.registry.onDidChange(() => {
        this.watchAccounts();
        this._onDidChange.fire(undefined);
      }),
    );
    this.watchAccounts();
    this._register({
      dispose: () => {
        for (const subs of this.watched.values()) for (const d of subs) d.dispose();
      },
    });
  }

  /** Every decoration VS Code is given for a URI, in the order of the providers (what tests read). */
  of(uri: vscode.Uri): vscode.FileDecoration[] {
    if (uri.scheme !== SCHEME) return [];
    return this.providers.map((p) => p(uri)).filter((d): d is vscode.FileDecoration => d !== undefined);
  }

  private watchAccounts(): void {
    const live = this.sources.registry.all();
    for (const [account, subs] of this.watched) {
      if (live.includes(account)) continue;
      for (const d of subs) d.dispose();
      this.watched.delete(account);
    }
    for (const account of live) {
      if (this.watched.has(account)) continue;
      const { label, documents } = account;
      this.watched.set(account, [
        documents.onDidChange(({ doc, previous }) => {
          const wasDeleted = this.undelete(label, doc.id);
          if (wasDeleted || previous?.favorite !== doc.favorite) this.fireFor(label, doc.id);
        }),
        documents.onDidCreate((doc) => {
          if (this.undelete(label, doc.id)) this.fireFor(label, doc.id);
        }),
        documents.onDidDelete(({ id }) => {
          let ids = this.deleted.get(label);
          if (!ids) this.deleted.set(label, (ids = new Set()));
          ids.add(id);
          this.fireFor(label, id);
        }),
        // A refresh: what is known is read again; every file is asked again.
        documents.onDidForget(() => this._onDidChange.fire(undefined)),
      ]);
    }
  }

  private undelete(label: string, id: number): boolean {
    return this.deleted.get(label)?.delete(id) ?? false;
  }

  /** Tells VS Code of every URI of a document: its tabs (either form), open models and its path in the account folder. */
  private fireFor(label: string, id: number): void {
    const out = new Map<string, vscode.Uri>();
    for (const uri of this.sources.urisOf(label, id)) out.set(uri.toString(), uri);
    const open = [...tabUris(), ...vscode.workspace.textDocuments.map((d) => d.uri)];
    for (const uri of open) {
      if (uri.scheme !== SCHEME || accountOfUri(uri) !== label) continue;
      if (documentIdFromUri(uri) === id || this.sources.documentOf(uri)?.id === id) out.set(uri.toString(), uri);
    }
    if (out.size > 0) this._onDidChange.fire([...out.values()]);
  }

  private onSave(e: SaveEvent): void {
    if (e.state === 'failed') this.failed.set(e.uri, e.message ?? vscode.l10n.t('the save failed'));
    else if (e.state !== 'saved' || !this.failed.delete(e.uri)) return;
    this._onDidChange.fire([vscode.Uri.parse(e.uri)]);
  }

  private notSaved(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const why = this.failed.get(uri.toString());
    if (why === undefined) return undefined;
    return new vscode.FileDecoration(
      '!',
      vscode.l10n.t('Not saved: {0}\nYour text stays in the editor: save again to retry.', why),
      new vscode.ThemeColor('list.errorForeground'),
    );
  }

  private deletedOnServer(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const label = accountOfUri(uri);
    const ids = label === undefined ? undefined : this.deleted.get(label);
    if (!ids || ids.size === 0 || !this.sources.registry.byLabel(label)) return undefined;
    const id = documentIdFromUri(uri) ?? this.sources.documentOf(uri)?.id;
    if (id === undefined || !ids.has(id)) return undefined;
    return new vscode.FileDecoration(
      'D',
      vscode.l10n.t('Deleted on the server. The editor still shows the last text read: use Save As… to keep a copy.'),
      new vscode.ThemeColor(COLOR.deleted),
    );
  }

  private favorite(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const target = this.sources.documentOf(uri);
    if (!target || target.account.documents.get(target.id)?.favorite !== true) return undefined;
    return new vscode.FileDecoration('★', vscode.l10n.t('In your favorites'));
  }

  private account(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (!this.sources.registry.several) return undefined;
    const account = this.sources.registry.byLabel(accountOfUri(uri));
    return account && new vscode.FileDecoration(undefined, vscode.l10n.t('In the account {0}', account.displayName));
  }
}
