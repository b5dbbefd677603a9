import * as path from 'path';
import * as vscode from 'vscode';
import { PROPOSAL_SCHEME } from '../constants';
import type { Logger } from '../util/log';

/** A generated text waiting for the user's Accept or Discard, shown as a diff against the current file. */
export interface Proposal {
  /** The read-only proposed file (`content-docs-proposal:`), the diff's right side. */
  readonly uri: vscode.Uri;
  /** The file the text came from, the diff's left side. */
  readonly target: vscode.Uri;
  /** The range the proposal replaces, as it was when the text was sent. */
  readonly range: vscode.Range;
  /** The range's text when it was sent, and the document's version then. */
  readonly original: string;
  readonly version: number;
  /** What takes the range's place on Accept. */
  readonly replacement: string;
  /** The whole proposed file (the range replaced in the text as it was sent). */
  readonly proposedText: string;
  /** The document created in the account: its id and name. */
  readonly documentId: number;
  readonly documentName: string;
  readonly languageId: string;
}

export type AcceptOutcome = 'applied' | 'changed' | 'failed' | 'gone';

/**
 * The proposals of this window, the read-only documents that show them, and the diff editor with Accept and
 * Discard in its title (the `editor/title` menu, for `resourceScheme == content-docs-proposal`). Accept is one
 * WorkspaceEdit (one undo restores the text) and refuses when the text under the range changed since it was
 * sent; Discard closes the diff and leaves the file as it is.
 */
export class ProposalPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly proposals = new Map<string, Proposal>();
  private readonly disposables: vscode.Disposable[] = [];
  private seq = 0;
  private static readonly KEEP = 20;

  constructor(private readonly log: Logger) {
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.proposals.get(uri.toString())?.proposedText ?? '';
  }

  get(uri: vscode.Uri | undefined): Proposal | undefined {
    return uri ? this.proposals.get(uri.toString()) : undefined;
  }

  /** The proposal an editor-title click or the active diff editor stands for (the newest one otherwise). */
  find(arg: unknown): Proposal | undefined {
    if (arg instanceof vscode.Uri) return this.get(arg);
    if (typeof arg === 'string') return this.proposals.get(arg);
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active?.scheme === PROPOSAL_SCHEME) return this.get(active);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (tab instanceof vscode.TabInputTextDiff && tab.modified.scheme === PROPOSAL_SCHEME) return this.get(tab.modified);
    return [...this.proposals.values()].pop();
  }

  /** Records a proposal and opens the diff: current file on the left, the proposed file on the right. */
  async show(p: Omit<Proposal, 'uri'>): Promise<Proposal> {
    const base = path.posix.basename(p.target.path) || 'Untitled';
    const uri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${++this.seq}/${base}` });
    const proposal: Proposal = { ...p, uri };
    this.proposals.set(uri.toString(), proposal);
    while (this.proposals.size > ProposalPreview.KEEP) this.proposals.delete(this.proposals.keys().next().value as string);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== p.languageId) await vscode.languages.setTextDocumentLanguage(doc, p.languageId).then(undefined, () => undefined);
    await vscode.commands.executeCommand('vscode.diff', p.target, uri, `${base} ↔ ${p.documentName} (proposal)`, { preview: false });
    return proposal;
  }

  /** Applies the proposal as one edit, unless the text under its range changed since it was sent. */
  async accept(p: Proposal): Promise<AcceptOutcome> {
    if (!this.proposals.has(p.uri.toString())) return 'gone';
    const doc = await vscode.workspace.openTextDocument(p.target);
    if (doc.version !== p.version && doc.getText(p.range) !== p.original) {
      this.log.info(`[write] proposal ${p.uri.path} not applied: ${p.target.toString(true)} changed under the selection`);
      return 'changed';
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(p.target, p.range, p.replacement);
    if (!(await vscode.workspace.applyEdit(edit))) return 'failed';
    this.proposals.delete(p.uri.toString());
    await this.close(p);
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    const start = doc.offsetAt(p.range.start);
    editor.selection = new vscode.Selection(doc.positionAt(start), doc.positionAt(start + p.replacement.length));
    editor.revealRange(editor.selection);
    return 'applied';
  }

  async discard(p: Proposal): Promise<void> {
    this.proposals.delete(p.uri.toString());
    await this.close(p);
  }

  /** Closes every tab that shows the proposal (the diff, or the proposed file alone). */
  private async close(p: Proposal): Promise<void> {
    const key = p.uri.toString();
    const tabs = vscode.window.tabGroups.all.flatMap((g) =>
      g.tabs.filter((t) => {
        const input = t.input;
        if (input instanceof vscode.TabInputTextDiff) return input.modified.toString() === key;
        return input instanceof vscode.TabInputText && input.uri.toString() === key;
      }),
    );
    if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.proposals.clear();
  }
}
