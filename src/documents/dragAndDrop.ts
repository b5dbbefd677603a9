import vscode = require('vscode');
import type { Account } from '../accounts/account';
import { DOCUMENTS_DRAG_MIME, DOCUMENTS_TREE_MIME } from '../constants';
import { documentUri } from '../files/uris';
import type { DocNode } from '../model/nodes';
import type { AccountRootNode } from '../tree/accountRoots';
import { describeError, errorKind, isCancellation } from '../util/errors';
import { showError } from '../util/run';
import { formatOf, textAsHtml } from '../write/prompt';
import { setFavorites, textsOf, type BulkNeeds, type SelectedDocument } from './bulk';

type Row = DocNode | AccountRootNode;

/** What a drag of documents says of each, for a drop elsewhere in this window (an editor): its account's label and its id. */
interface DraggedRef {
  readonly account: string;
  readonly id: number;
}

/**
 * Drag and drop in the Documents view. A drag of document rows carries:
 * - the rows themselves (the tree's own type): dropped on a Favorites group (or a row in it), they become favorites
 *   of that account, one PATCH each; documents of another account are not moved across accounts (nothing is sent);
 * - `text/uri-list`, the documents' `content-docs:` addresses: dropped on the editor area, VS Code opens them;
 * - `text/plain`, their text as last listed (no request), for other drop targets; VS Code's editors leave a plain
 *   text aside when a drag also has an address;
 * - the account and id of each (DOCUMENTS_DRAG_MIME): dropped into a text editor with Shift held, the drop edit below
 *   inserts the document's text as the server has it now (one GET), as Insert at Cursor does.
 */
export class DocumentsDragAndDrop implements vscode.TreeDragAndDropController<Row>, vscode.DocumentDropEditProvider {
  readonly dragMimeTypes = ['text/uri-list', 'text/plain', DOCUMENTS_DRAG_MIME];
  readonly dropMimeTypes = [DOCUMENTS_TREE_MIME];

  constructor(private readonly services: () => BulkNeeds) {}

  /** The documents of dragged rows (each once; rows of an account signed out since left out). */
  #documents(rows: readonly unknown[]): Array<SelectedDocument & { account: Account }> {
    const s = this.services();
    const out: Array<SelectedDocument & { account: Account }> = [];
    for (const row of rows) {
      if (!s.documentsView.owns(row) || row.kind !== 'document') continue;
      const account = s.documentsView.accountOf(row);
      if (!account || out.some((d) => d.account === account && d.id === row.doc.id)) continue;
      out.push({ account, id: row.doc.id, doc: account.documents.get(row.doc.id) ?? row.doc });
    }
    return out;
  }

  handleDrag(source: readonly Row[], dataTransfer: vscode.DataTransfer, _token?: vscode.CancellationToken): void {
    const docs = this.#documents(source);
    if (docs.length === 0) return;
    const s = this.services();
    dataTransfer.set(DOCUMENTS_TREE_MIME, new vscode.DataTransferItem(source.filter((r) => s.documentsView.owns(r) && r.kind === 'document')));
    dataTransfer.set('text/uri-list', new vscode.DataTransferItem(docs.map((d) => documentUri(d.doc, d.account).toString()).join('\r\n')));
    const { text } = textsOf(docs);
    if (text) dataTransfer.set('text/plain', new vscode.DataTransferItem(text));
    const refs: DraggedRef[] = docs.map((d) => ({ account: d.account.label, id: d.id }));
    dataTransfer.set(DOCUMENTS_DRAG_MIME, new vscode.DataTransferItem(JSON.stringify(refs)));
  }

  async handleDrop(target: Row | undefined, dataTransfer: vscode.DataTransfer, _token?: vscode.CancellationToken): Promise<void> {
    const s = this.services();
    const account = target === undefined ? undefined : s.documentsView.accountOf(target);
    const onFavorites = target !== undefined && s.documentsView.owns(target) && (target.kind === 'favorites' || (target.kind === 'document' && target.parent.kind === 'favorites'));
    if (!account || !onFavorites) return;
    const rows: unknown = dataTransfer.get(DOCUMENTS_TREE_MIME)?.value;
    const docs = this.#documents(Array.isArray(rows) ? rows : []);
    const own = docs.filter((d) => d.account === account);
    const others = docs.filter((d) => d.account !== account);
    if (others.length > 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0} of the dropped documents belong to another account and cannot become favorites of {1}: nothing was sent for them. Drop them on the Favorites of their own account.',
          others.length,
          account.displayName,
        ),
      );
    }
    if (own.length > 0) await setFavorites(s, own, true);
  }

  /**
   * A drag of documents dropped into a text editor (with Shift held): the documents' text as the server has it now
   * (one GET each), as Insert at Cursor puts it (HTML paragraphs in an HTML editor). Undefined for any other drop.
   */
  async provideDocumentDropEdits(document: vscode.TextDocument, _position: vscode.Position, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<vscode.DocumentDropEdit | undefined> {
    const refs = parseRefs(await dataTransfer.get(DOCUMENTS_DRAG_MIME)?.asString());
    if (refs.length === 0) return undefined;
    const s = this.services();
    const texts: string[] = [];
    for (const ref of refs) {
      const account = s.registry.byLabel(ref.account);
      if (!account) continue;
      try {
        const doc = await account.documents.fetch(ref.id);
        if (doc.result) texts.push(doc.result);
      } catch (e) {
        if (isCancellation(e) || token.isCancellationRequested) return undefined;
        if (errorKind(e) === 'notFound') account.documents.markDeleted(ref.id);
        void showError(s.log, describeError(vscode.l10n.t("Couldn't read document {0}", ref.id), e), e);
      }
    }
    if (token.isCancellationRequested || texts.length === 0) return undefined;
    const text = texts.join('\n\n');
    const edit = new vscode.DocumentDropEdit(formatOf(document.languageId) === 'html' ? textAsHtml(text) : text);
    (edit as { title?: string }).title = vscode.l10n.t('Insert the Text of the Document');
    return edit;
  }
}

function parseRefs(json: string | undefined): DraggedRef[] {
  if (!json) return [];
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return [];
    return v.filter((r): r is DraggedRef => typeof r === 'object' && r !== null && typeof (r as DraggedRef).account === 'string' && Number.isSafeInteger((r as DraggedRef).id) && (r as DraggedRef).id > 0);
  } catch {
    return [];
  }
}
