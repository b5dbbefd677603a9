import vscode = require('vscode');
import type { Account } from '../accounts/account';
import type { ContentDocument } from '../api/index';
import { SCHEME } from '../constants';
import { documentFileNameOf } from '../files/uris';
import { describeError, reason } from '../util/errors';
import { formatList } from '../util/lists';
import { showError } from '../util/run';
import { nameOf, selectedDocuments, type BulkNeeds } from './bulk';
import { accountGone, documentTargetOf } from './target';

/**
 * Save a Copy As…: a document's text as a file on this machine. VS Code's Explorer takes no rows dragged from another
 * view, so this is how a row becomes a file (the account folder's files can also be Ctrl-dragged, docs/reference.md).
 *
 * The text is the server's as it is now (one GET per document, in the account of its row), never the editor's unsaved
 * text and never another account's. One document: VS Code's save dialog at `Name.md` (`.html` for an HTML document),
 * which asks before replacing a file. Several selected rows: a folder, then a file each named as its document, with
 * `Name (2).md` beside a file of that name — a copy never replaces a file. Nothing changes on the server.
 */
export async function saveCopy(s: BulkNeeds, clicked: unknown, selected?: unknown): Promise<vscode.Uri[]> {
  const many = selectedDocuments(s, clicked, selected);
  if (many) return saveCopiesIn(s, many.map((d) => ({ account: d.account, id: d.id, doc: d.doc })));
  const target = documentTargetOf(s, clicked);
  if (!target) {
    const gone = accountGone(s, clicked);
    const e = gone ?? new Error(vscode.l10n.t('There is no document to save a copy of: choose one in the Documents view, or run this from an open document.'));
    void showError(s.log, e.message, e);
    return [];
  }
  let doc: ContentDocument;
  try {
    doc = await target.account.documents.fetch(target.id);
  } catch (e) {
    void showError(s.log, describeError(vscode.l10n.t("Couldn't read document {0} to save a copy of it", target.id), e), e);
    return [];
  }
  const to = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save a Copy of "{0}"', nameOf(doc)),
    saveLabel: vscode.l10n.t('Save Copy'),
    ...(folder() ? { defaultUri: vscode.Uri.joinPath(folder()!, documentFileNameOf(doc)) } : {}),
  });
  if (!to) return [];
  try {
    await vscode.workspace.fs.writeFile(to, new TextEncoder().encode(doc.result));
  } catch (e) {
    void showError(s.log, describeError(vscode.l10n.t("Couldn't save the copy of \"{0}\"", nameOf(doc)), e), e);
    return [];
  }
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Saved a copy of "{0}" as {1}', nameOf(doc), basename(to)), 4000);
  return [to];
}

async function saveCopiesIn(s: BulkNeeds, docs: ReadonlyArray<{ account: Account | undefined; id: number; doc: ContentDocument }>): Promise<vscode.Uri[]> {
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Save Copies of {0} Documents', docs.length),
    openLabel: vscode.l10n.t('Save Copies Here'),
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    ...(folder() ? { defaultUri: folder() } : {}),
  });
  const into = picked?.[0];
  if (!into) return [];
  const saved: vscode.Uri[] = [];
  const failed: string[] = [];
  for (const d of docs) {
    try {
      if (!d.account || !s.registry.isLive(d.account)) {
        throw new Error(vscode.l10n.t('its account is no longer signed in here: nothing was sent'));
      }
      const doc = await d.account.documents.fetch(d.id);
      const to = await freeName(into, documentFileNameOf(doc));
      await vscode.workspace.fs.writeFile(to, new TextEncoder().encode(doc.result));
      saved.push(to);
    } catch (e) {
      s.log.warn(`[documents] save a copy: document ${d.id} failed: ${reason(e)}`);
      failed.push(vscode.l10n.t('"{0}" ({1})', nameOf(d.doc), reason(e)));
    }
  }
  if (failed.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Saved copies of {0} documents in {1}.', saved.length, into.fsPath || into.path));
  } else {
    const list = formatList(failed, vscode.env.language, { most: 15, more: (n) => vscode.l10n.t('{0} more', n) });
    void showError(s.log, vscode.l10n.t('Saved {0} of {1} copies in {2}. Not saved: {3}.', saved.length, docs.length, into.fsPath || into.path, list), undefined);
  }
  return saved;
}

/** `Name.md` in the folder, or `Name (2).md`, `Name (3).md`… when a file of that name is there: a copy replaces nothing. */
async function freeName(folder: vscode.Uri, name: string): Promise<vscode.Uri> {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = vscode.Uri.joinPath(folder, n === 1 ? name : `${stem} (${n})${ext}`);
    const there = await vscode.workspace.fs.stat(candidate).then(
      () => true,
      () => false,
    );
    if (!there) return candidate;
  }
}

/** The first folder of the workspace that is not an account folder: where a copy is offered first. */
function folder(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme !== SCHEME)?.uri;
}


function basename(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
