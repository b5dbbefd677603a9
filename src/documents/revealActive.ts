import vscode = require('vscode');
import type { Account } from '../accounts/account';
import type { DocNode, DocumentNode, GroupNode } from '../model/nodes';
import * as config from '../util/config';
import type { Logger } from '../util/log';
import type { AccountRootNode, AccountRootsTree } from '../tree/accountRoots';
import type { DocumentsTreeProvider } from './documentsTree';

/** Which group's row is revealed when a document is listed in several: the document's template first, as a file's folder. */
const GROUP_RANK: Record<GroupNode['kind'], number> = { template: 0, all: 1, favorites: 2, other: 3, searchResults: 4 };

/** How often a reveal is tried again while the view has not yet taken in a row just placed (a created document). */
const TRIES = 5;
const RETRY_MS = 300;

/**
 * The Documents view follows the active editor, as the Explorer does (`explorer.autoReveal`): when a document of ours
 * becomes the active editor (opened from Go to Document, created with New Document…, or a tab switched to), its row is
 * selected in the view, the editor keeping the focus. Only while the view is visible, only where a page already loaded
 * lists the document (nothing is read to find it), and not when one of its rows is already selected (a click in the
 * view opened it). `contentDocs.documents.revealActive` turns it off.
 */
export function followActiveDocument(
  view: vscode.TreeView<DocNode | AccountRootNode>,
  documentsView: AccountRootsTree<DocNode>,
  accountOf: (uri: vscode.Uri) => { account: Account; id: number } | undefined,
  log: Logger,
): vscode.Disposable {
  /**
   * The groups expanded in the view: a row there is revealed before one in a collapsed group. Weak: the groups of an
   * account that went (or of a list read anew) are let go with it, whether or not the view told their collapse.
   */
  const expanded = new WeakSet<object>();
  let seq = 0;

  const reveal = async (editor: vscode.TextEditor | undefined): Promise<void> => {
    const my = ++seq;
    if (!editor || !view.visible || !config.revealActiveDocument()) return;
    const target = accountOf(editor.document.uri);
    if (!target) return;
    const { account, id } = target;
    const isRow = (n: DocNode | AccountRootNode): n is DocumentNode =>
      n.kind === 'document' && n.doc.id === id && documentsView.accountOf(n) === account;
    if (view.selection.some(isRow)) return;
    const tree = documentsView.treeOf(account) as DocumentsTreeProvider;
    const rows = tree.model.loadedRows(id);
    if (rows.length === 0) return;
    const rank = (r: DocumentNode) => (expanded.has(r.parent) ? 0 : 10) + GROUP_RANK[r.parent.kind];
    const row = [...rows].sort((a, b) => rank(a) - rank(b))[0];
    for (let i = 1; ; i++) {
      try {
        await view.reveal(row, { select: true, focus: false, expand: false });
        return;
      } catch (e) {
        // A row just placed (a created document) is known to the view once its group's change has been taken in.
        if (i >= TRIES || my !== seq) {
          log.debug(`[documents] could not reveal document ${id}: ${e instanceof Error ? e.message : String(e)}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        if (my !== seq || vscode.window.activeTextEditor !== editor) return;
      }
    }
  };

  return vscode.Disposable.from(
    view.onDidExpandElement((e) => expanded.add(e.element)),
    view.onDidCollapseElement((e) => expanded.delete(e.element)),
    vscode.window.onDidChangeActiveTextEditor((editor) => void reveal(editor)),
  );
}
