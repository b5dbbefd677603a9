import vscode = require('vscode');
import { SCHEME } from '../constants';
import { documentFileName, extensionOfFileName } from './names';
import { isAccountUri } from './uris';

/** The tabs of one group showing one address, and what its visible editor there shows (the selections, the scroll). */
interface Shown {
  readonly column: vscode.ViewColumn;
  readonly tab: vscode.Tab;
  readonly selections?: readonly vscode.Selection[];
  readonly top?: vscode.Range;
}

/**
 * After a rename, the editors of the document follow it to its new name, as the Explorer moves the editors of a file
 * it renames: every tab showing the document (`isOfDocument`) is opened again under the new file name, in its column,
 * beside where it was, pinned or preview as it was, with its unsaved text, its selections and its scroll position;
 * then the old tab closes (its unsaved text is in the new one: it is reverted first, so closing asks nothing).
 * `resolves` says whether an address of the account folder leads to the document under its new name (a name another
 * document holds there is told apart otherwise): a tab whose new address would not lead to it stays as it is.
 * Nothing is sent: the unsaved text is saved when the user saves (or auto-save does).
 */
export async function moveDocumentTabs(isOfDocument: (uri: vscode.Uri) => boolean, name: string, resolves: (uri: vscode.Uri) => boolean): Promise<void> {
  const byUri = new Map<string, { uri: vscode.Uri; shown: Shown[] }>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (!(input instanceof vscode.TabInputText) || input.uri.scheme !== SCHEME || !isOfDocument(input.uri)) continue;
      const editor = vscode.window.visibleTextEditors.find((e) => e.viewColumn === group.viewColumn && e.document.uri.toString() === input.uri.toString());
      const entry = byUri.get(input.uri.toString()) ?? { uri: input.uri, shown: [] };
      entry.shown.push({ column: group.viewColumn, tab, selections: editor?.selections, top: editor?.visibleRanges[0] });
      byUri.set(input.uri.toString(), entry);
    }
  }
  const activeGroup = vscode.window.tabGroups.activeTabGroup;
  const activeTab = activeGroup.activeTab;
  let focus: { column: vscode.ViewColumn; doc: vscode.TextDocument } | undefined;

  for (const { uri, shown } of byUri.values()) {
    const file = uri.path.slice(uri.path.lastIndexOf('/') + 1);
    const moved = uri.with({ path: `${uri.path.slice(0, uri.path.lastIndexOf('/'))}/${documentFileName(name, extensionOfFileName(file))}` });
    if (moved.toString() === uri.toString() || (isAccountUri(uri) && !resolves(moved))) continue;
    const old = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const doc = await vscode.workspace.openTextDocument(moved);
    if (old?.isDirty && doc.getText() !== old.getText()) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(moved, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), old.getText());
      await vscode.workspace.applyEdit(edit);
    }
    for (const s of shown) {
      // The old tab active in its group first, so that the new one opens beside it.
      if (old && !s.tab.isPreview) await vscode.window.showTextDocument(old, { viewColumn: s.column, preserveFocus: true, preview: false });
      const editor = await vscode.window.showTextDocument(doc, { viewColumn: s.column, preserveFocus: true, preview: s.tab.isPreview, selection: s.selections?.[0] });
      if (s.selections) editor.selections = [...s.selections];
      if (s.top) editor.revealRange(s.top, vscode.TextEditorRevealType.AtTop);
      if (s.tab === activeTab && activeGroup.viewColumn === s.column) focus = { column: s.column, doc };
    }
    if (old?.isDirty) {
      // Its text is in the new tab: the old one goes back to the server's, so that closing it asks nothing.
      await vscode.window.showTextDocument(old, { viewColumn: shown[0].column, preserveFocus: false, preview: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    const still = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
    if (still.length) await vscode.window.tabGroups.close(still);
  }
  if (focus) await vscode.window.showTextDocument(focus.doc, { viewColumn: focus.column, preserveFocus: false });
}
