import vscode = require('vscode');
import { SCHEME } from '../constants';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { accountOfUri, nameFromFileName, segments } from './uris';

/** What this needs of the accounts: the live ones (label and name), and when they change. */
export interface SaveAccounts {
  all(): ReadonlyArray<{ readonly label: string; readonly displayName: string }>;
  readonly onDidChange: vscode.Event<void>;
  /** Every HTTP exchange: an account's name may come with one (its usage read). */
  readonly onDidExchange: vscode.Event<unknown>;
  /** Resolves once the accounts of the key and settings heard so far are made (see AccountRegistry.settled). */
  settled(): Promise<void>;
}

/**
 * A save of a document whose account is no longer signed in here (removed, signed out, or made anew by another key or
 * server) cannot go anywhere: the file system refuses it and VS Code says so in its own words, with a Retry that cannot
 * work. This says it in the writer's: the document was not saved because its account went (named, as the window last
 * knew it), the text is still in the editor, and how to keep it (Save As… a local file, or copy it). Once per document
 * until that message is closed or the accounts change: auto-save asks again at every pause.
 */
export class GoneAccountSaves extends Disposable {
  /** The names of the accounts seen in this window, by label: a removed account is named by what it was called. */
  private readonly names = new Map<string, string>();
  private readonly told = new Set<string>();

  constructor(
    private readonly accounts: SaveAccounts,
    private readonly log: Logger,
  ) {
    super();
    this.remember();
    this._register(
      accounts.onDidChange(() => {
        this.remember();
        // Another change of the accounts: a document whose account went (again) is told again.
        this.told.clear();
      }),
    );
    let soon: ReturnType<typeof setTimeout> | undefined;
    this._register(
      accounts.onDidExchange(() => {
        // After the exchange's answer is taken in (the name comes with the account's usage).
        clearTimeout(soon);
        soon = setTimeout(() => this.remember(), 0);
      }),
    );
    this._register({ dispose: () => clearTimeout(soon) });
    this._register(vscode.workspace.onWillSaveTextDocument((e) => this.onWillSave(e.document)));
  }

  private remember(): void {
    for (const a of this.accounts.all()) this.names.set(a.label, a.displayName);
  }

  private onWillSave(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== SCHEME) return;
    const label = accountOfUri(doc.uri);
    if (label === undefined || this.isLive(label)) return;
    // The accounts being made (a window's first use builds them: the account of the key stored is made a moment
    // later) are waited for: the save goes to that account, once made (see DocumentFileSystem), and is no gone one.
    void this.accounts.settled().then(() => {
      if (!this.isDisposed && !this.isLive(label)) this.gone(doc, label);
    });
  }

  private isLive(label: string): boolean {
    return this.accounts.all().some((a) => a.label === label);
  }

  private gone(doc: vscode.TextDocument, label: string): void {
    const key = doc.uri.toString();
    this.log.warn(`[fs] a save of ${key} cannot go anywhere: its account (${label}) is not signed in here`);
    if (this.told.has(key)) return;
    this.told.add(key);
    void this.tell(doc, label).finally(() => this.told.delete(key));
  }

  private async tell(doc: vscode.TextDocument, label: string): Promise<void> {
    const file = segments(doc.uri).at(-1);
    const name = file ? nameFromFileName(file) : vscode.l10n.t('This document');
    const account = this.names.get(label);
    const message = account
      ? vscode.l10n.t(
          '"{0}" was not saved: its account, {1}, is no longer signed in here (removed or signed out). Your text is still in the editor. To keep it, save it as a file on this computer (Save As…) or copy it; to save it to the document, add the account again, then save.',
          name,
          account,
        )
      : vscode.l10n.t(
          '"{0}" was not saved: its account is no longer signed in here (removed or signed out). Your text is still in the editor. To keep it, save it as a file on this computer (Save As…) or copy it; to save it to the document, add the account again, then save.',
          name,
        );
    const saveAs = vscode.l10n.t('Save As…');
    const copy = vscode.l10n.t('Copy Text');
    const choice = await vscode.window.showWarningMessage(message, saveAs, copy);
    if (choice === saveAs) {
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.saveAs');
    } else if (choice === copy) {
      await vscode.env.clipboard.writeText(doc.getText());
    }
  }
}
