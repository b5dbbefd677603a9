import vscode = require('vscode');
import type { ContentDocument } from '../api/index';
import { CMD } from '../constants';
import { describeError, errorKind, isCancellation } from '../util/errors';
import { showError } from '../util/run';
import { formatOf, textAsHtml } from '../write/prompt';
import { accountGone, documentTargetOf, type DocumentTarget } from '../documents/target';
import { openDocument } from './commands';
import type { CommandParts } from '../util/commandTypes';
import type { ArgsNeeds } from '../documents/target';
import type { FilesNeeds } from './commands';
import type { Logger } from '../util/log';

/** What Insert at Cursor, Replace Selection and Open Beside take. */
export type InsertNeeds = { readonly log: Logger } & ArgsNeeds & FilesNeeds;

/**
 * A document's text where the user is writing: Insert at Cursor and Replace Selection put the document's
 * result (as stored: HTML stays HTML; in an HTML editor, plain text and Markdown become HTML paragraphs) into the active editor in one edit (one undo restores it); Open Beside
 * opens the document next to that editor. On a row of the Documents view, or from the palette while the
 * document's own editor is active (then the editor beside it is the target).
 */
export function insertCommands(s: InsertNeeds) {
  return {
    [CMD.documentInsertAtCursor]: (arg: unknown) => putResult(s, arg, 'insert'),
    [CMD.documentReplaceSelection]: (arg: unknown) => putResult(s, arg, 'replace'),
    [CMD.documentOpenBeside]: (arg: unknown) => openBeside(s, arg),
  } satisfies CommandParts;
}

type Mode = 'insert' | 'replace';

function noDocument(s: InsertNeeds, arg: unknown): Error {
  return accountGone(s, arg) ?? new Error(vscode.l10n.t('There is no document to insert: choose one in the Documents view, or run this from an open document.'));
}

/**
 * The editor the text goes into: the active one, unless it shows the document itself; then the one other
 * editor in view. Undefined when there is none, or more than one to choose from.
 */
export function targetEditor(s: InsertNeeds, t: DocumentTarget): vscode.TextEditor | undefined {
  const isIt = (uri: vscode.Uri) => {
    const shown = s.fs.documentOf(uri);
    return shown?.account === t.account && shown.id === t.id;
  };
  const candidate = (e: vscode.TextEditor | undefined) => e !== undefined && e.document.uri.scheme !== 'output' && !isIt(e.document.uri);
  const active = vscode.window.activeTextEditor;
  if (candidate(active)) return active;
  const others = vscode.window.visibleTextEditors.filter(candidate);
  return others.length === 1 ? others[0] : undefined;
}

/**
 * The document as the server has it now (one GET): someone may have changed or deleted it since the view
 * listed it, and the text put into the user's file must be the current one, never a listed copy.
 */
async function storedDocument(s: InsertNeeds, { account, id }: DocumentTarget): Promise<ContentDocument | undefined> {
  const { documents } = account;
  try {
    return await documents.fetch(id);
  } catch (e) {
    if (isCancellation(e)) return undefined;
    if (errorKind(e) === 'notFound') documents.markDeleted(id);
    void showError(s.log, describeError(vscode.l10n.t("Couldn't read document {0}", id), e), e);
    return undefined;
  }
}

/** Insert at Cursor / Replace Selection: one edit over every cursor or selection; true when it was made. */
export async function putResult(s: InsertNeeds, arg: unknown, mode: Mode): Promise<boolean> {
  const target = documentTargetOf(s, arg);
  if (target === undefined) throw noDocument(s, arg);
  const id = target.id;
  const editor = targetEditor(s, target);
  if (!editor) {
    void vscode.window.showWarningMessage(
      mode === 'insert'
        ? vscode.l10n.t('There is no editor to insert into: open the file you are writing, put the cursor where the text goes, then run this again.')
        : vscode.l10n.t('There is no editor to replace a selection in: open the file you are writing, put the cursor where the text goes, then run this again.'),
    );
    return false;
  }
  const doc = await storedDocument(s, target);
  if (!doc) return false;
  const name = doc.name.trim() || vscode.l10n.t('Untitled');
  if (!doc.result) {
    void vscode.window.showWarningMessage(
      mode === 'insert'
        ? vscode.l10n.t('"{0}" has no text to insert.', name)
        : vscode.l10n.t('"{0}" has no text to put in place of the selection.', name),
    );
    return false;
  }
  // An HTML editor (a document of the web editor's, an .html file) gets HTML paragraphs; any other the text as stored.
  const text = formatOf(editor.document.languageId) === 'html' ? textAsHtml(doc.result) : doc.result;
  const done = await editor.edit((b) => {
    for (const sel of editor.selections) {
      if (mode === 'insert') b.insert(sel.active, text);
      else b.replace(sel, text);
    }
  });
  if (!done) {
    void vscode.window.showWarningMessage(
      mode === 'insert'
        ? vscode.l10n.t('Couldn\'t insert "{0}": the editor did not accept the change (is it read-only?).', name)
        : vscode.l10n.t('Couldn\'t replace the selection with "{0}": the editor did not accept the change (is it read-only?).', name),
    );
    return false;
  }
  s.log.info(`[insert] ${mode === 'insert' ? 'inserted' : 'replaced selection with'} document ${id} (${editor.selections.length} place(s))`);
  await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  return true;
}

/** Open Beside: the document in an editor next to the active one. */
export function openBeside(s: InsertNeeds, arg: unknown): Promise<vscode.TextEditor | undefined> {
  if (documentTargetOf(s, arg) === undefined) throw new Error(vscode.l10n.t('There is no document to open: choose one in the Documents view.'));
  return openDocument(s, arg, { preview: false, viewColumn: vscode.ViewColumn.Beside });
}
