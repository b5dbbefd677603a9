import vscode = require('vscode');
import type { Account } from '../accounts/account';
import type { ContentDocument } from '../api/index';
import { errorKind, isCancellation, reason } from '../util/errors';
import { formatList } from '../util/lists';
import type { Logger } from '../util/log';
import type { Prompter } from '../ui/prompter';
import type { ArgsNeeds } from './target';

/** What acting on many documents takes. */
export type BulkNeeds = { readonly log: Logger; readonly prompter: Prompter } & ArgsNeeds;

/**
 * Many documents at once: VS Code passes a row command of a view with `canSelectMany` the row clicked and every
 * selected row (`(clicked, selected[])`; no array when the row clicked is not among the selected). Delete, Add to /
 * Remove from Favorites and Copy Result then act on each selected document, each in the account its row came from
 * (rows of several accounts: each in its own), one request per document, one after the other.
 */

/** A selected document: its account (undefined: an account no longer signed in), its id and what its row shows. */
export interface SelectedDocument {
  readonly account: Account | undefined;
  readonly id: number;
  readonly doc: ContentDocument;
}

/**
 * The documents of a selection of several rows; undefined when the command is about one row (no selection, or one
 * document only), which then acts as it always did. A document shown in two groups (a favorite in its template and in
 * Favorites) counts once; group rows in the selection are left out.
 */
export function selectedDocuments(s: Pick<BulkNeeds, 'documentsView'>, clicked: unknown, selected: unknown): SelectedDocument[] | undefined {
  if (!Array.isArray(selected) || selected.length < 2) return undefined;
  if (!selected.includes(clicked)) return undefined;
  const out: SelectedDocument[] = [];
  for (const row of selected as unknown[]) {
    if (!s.documentsView.owns(row) || row.kind !== 'document') continue;
    const account = s.documentsView.accountOf(row);
    if (out.some((d) => d.id === row.doc.id && d.account === account)) continue;
    out.push({ account, id: row.doc.id, doc: account?.documents.get(row.doc.id) ?? row.doc });
  }
  return out.length > 1 ? out : undefined;
}

/** A document's name as the lists and messages say it ("Untitled" for a blank one). */
export function nameOf(doc: ContentDocument): string {
  return doc.name.trim() || vscode.l10n.t('Untitled');
}

/** How many accounts the documents are in (several: each document is named with its account). */
function severalAccounts(docs: readonly SelectedDocument[]): boolean {
  return new Set(docs.map((d) => d.account?.label)).size > 1;
}

/** A document as a list names it: "Name", with its account when the selection spans several. */
function named(d: SelectedDocument, withAccount: boolean): string {
  return withAccount && d.account ? vscode.l10n.t('"{0}" ({1})', nameOf(d.doc), d.account.displayName) : vscode.l10n.t('"{0}"', nameOf(d.doc));
}

/** The names of a list of documents, one per line (the first 15, then how many more). */
function listOf(docs: readonly SelectedDocument[], withAccount: boolean): string {
  const shown = docs.slice(0, 15).map((d) => `• ${named(d, withAccount)}`);
  if (docs.length > 15) shown.push(vscode.l10n.t('… and {0} more', docs.length - 15));
  return shown.join('\n');
}

const GONE = () =>
  vscode.l10n.t('its account is no longer signed in here (signed out, removed, or its API key or server changed since): nothing was sent');

/** A failure of one document, worded for the summary. */
interface Failure {
  readonly d: SelectedDocument;
  readonly why: string;
}

/**
 * Runs `act` on each document, one after the other (one request each), in its own account. A document whose account
 * is gone fails without a request; a cancelled progress leaves the rest unsent (they fail as "not sent").
 */
async function eachDocument(
  s: BulkNeeds,
  title: string,
  docs: readonly SelectedDocument[],
  act: (account: Account, d: SelectedDocument) => Promise<void>,
): Promise<{ done: SelectedDocument[]; failed: Failure[] }> {
  const done: SelectedDocument[] = [];
  const failed: Failure[] = [];
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    for (const [i, d] of docs.entries()) {
      progress.report({ message: vscode.l10n.t('{0} of {1}', i + 1, docs.length), increment: 100 / docs.length });
      if (token.isCancellationRequested) {
        failed.push({ d, why: vscode.l10n.t('cancelled before it was sent') });
        continue;
      }
      if (!d.account || !s.registry.isLive(d.account)) {
        failed.push({ d, why: GONE() });
        continue;
      }
      try {
        await act(d.account, d);
        done.push(d);
      } catch (e) {
        if (errorKind(e) === 'notFound') d.account.documents.markDeleted(d.id);
        const why = isCancellation(e)
          ? vscode.l10n.t('cancelled')
          : errorKind(e) === 'notFound'
            ? vscode.l10n.t('it no longer exists on the server')
            : reason(e);
        s.log.warn(`[documents] ${title}: document ${d.id} failed: ${reason(e)}`);
        failed.push({ d, why });
      }
    }
  });
  return { done, failed };
}

/** Names in the display language's list ("a, b, and c"; "a, b und c"; "a、b、c"): the first 15, then how many more. */
function nameList(names: readonly string[]): string {
  return formatList(names, vscode.env.language, { most: 15, more: (n) => vscode.l10n.t('{0} more', n) });
}

/**
 * Says how it went: a status bar line when every document went through; else one sentence that says how many went
 * through and which did not, each with its reason (the rest stays done). `partly` is a whole sentence of the
 * outcome, its {2} the list of "name (reason)".
 */
function summarize(
  docs: readonly SelectedDocument[],
  result: { done: SelectedDocument[]; failed: Failure[] },
  words: { allDone: (n: number) => string; partly: (done: number, total: number, failures: string) => string },
): void {
  if (result.failed.length === 0) {
    vscode.window.setStatusBarMessage(words.allDone(result.done.length), 4000);
    return;
  }
  const withAccount = severalAccounts(docs);
  const failures = nameList(result.failed.map((f) => vscode.l10n.t('{0} ({1})', named(f.d, withAccount), f.why)));
  void vscode.window.showErrorMessage(words.partly(result.done.length, docs.length, failures));
}

/** Delete… on several rows: one confirmation naming how many and which, then one DELETE per document. */
export async function deleteDocuments(s: BulkNeeds, docs: readonly SelectedDocument[]): Promise<number> {
  const withAccount = severalAccounts(docs);
  const ok = await s.prompter.confirm(
    vscode.l10n.t('Delete {0} documents?', docs.length),
    withAccount
      ? vscode.l10n.t('These documents and their text are deleted from their accounts on the servers, each from its own account. This cannot be undone.\n\n{0}', listOf(docs, true))
      : vscode.l10n.t('These documents and their text are deleted from your account on the server. This cannot be undone.\n\n{0}', listOf(docs, false)),
    vscode.l10n.t('Delete {0} Documents', docs.length),
  );
  if (!ok) return 0;
  const result = await eachDocument(s, vscode.l10n.t('Deleting {0} documents', docs.length), docs, async (account, d) => {
    await account.documents.delete(d.id);
    s.log.info(`[documents] deleted document ${d.id}`);
  });
  summarize(docs, result, {
    allDone: (n) => vscode.l10n.t('$(trash) Deleted {0} documents', n),
    partly: (done, total, failures) => vscode.l10n.t('Deleted {0} of {1} documents. Not deleted: {2}.', done, total, failures),
  });
  return result.done.length;
}

/** Whether a selected document is a favorite, as its account last knew it. */
export function isFavorite(d: SelectedDocument): boolean {
  return d.account?.documents.favoriteOf(d.id) ?? d.doc.favorite;
}

/** Add to / Remove from Favorites on several rows: one PATCH per document not already so; no question (undone as easily). */
export async function setFavorites(s: BulkNeeds, docs: readonly SelectedDocument[], favorite: boolean): Promise<number> {
  const toChange = docs.filter((d) => isFavorite(d) !== favorite);
  if (toChange.length === 0) return 0;
  const title = favorite ? vscode.l10n.t('Adding {0} documents to the favorites', toChange.length) : vscode.l10n.t('Removing {0} documents from the favorites', toChange.length);
  const result = await eachDocument(s, title, toChange, async (account, d) => {
    await account.documents.setFavorite(d.id, favorite);
  });
  summarize(toChange, result, {
    allDone: (n) => (favorite ? vscode.l10n.t('$(star-full) Added {0} documents to the favorites', n) : vscode.l10n.t('$(star-empty) Removed {0} documents from the favorites', n)),
    partly: (done, total, failures) =>
      favorite
        ? vscode.l10n.t('Added {0} of {1} documents to the favorites. Not added: {2}.', done, total, failures)
        : vscode.l10n.t('Removed {0} of {1} documents from the favorites. Not removed: {2}.', done, total, failures),
  });
  return result.done.length;
}

/** The texts of several documents as the server last gave them, in the order given, a blank line between (no request). */
export function textsOf(docs: readonly SelectedDocument[]): { text: string; empty: SelectedDocument[] } {
  const withText = docs.filter((d) => d.doc.result);
  return { text: withText.map((d) => d.doc.result).join('\n\n'), empty: docs.filter((d) => !d.doc.result) };
}

/** Copy Result on several rows: every text, in the order selected, to the clipboard (documents without text said). */
export async function copyResults(docs: readonly SelectedDocument[]): Promise<string | undefined> {
  const { text, empty } = textsOf(docs);
  const withAccount = severalAccounts(docs);
  if (empty.length > 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('These documents have no text to copy: {0}.', nameList(empty.map((d) => named(d, withAccount)))),
    );
  }
  if (!text) return undefined;
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied the text of {0} documents', docs.length - empty.length), 3000);
  return text;
}

/**
 * A row command's work on a selection of several documents (`many`), or undefined when it is about one row: the
 * command then does what it always did.
 */
export function onSelection<T>(
  s: Pick<BulkNeeds, 'documentsView'>,
  clicked: unknown,
  selected: unknown,
  many: (docs: SelectedDocument[]) => Promise<T>,
): Promise<T> | undefined {
  const docs = selectedDocuments(s, clicked, selected);
  return docs ? many(docs) : undefined;
}
