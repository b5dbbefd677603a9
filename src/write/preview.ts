import vscode = require('vscode');
import { baseName } from '../util/paths';
import { CTX, PROPOSAL_SCHEME } from '../constants';
import type { Logger } from '../util/log';
import type { ProposalContent } from './proposalContent';

/**
 * Where a range of one file is now: followed through every edit from the moment its text was sent, shifted
 * by edits before it, lost when an edit touches it (or the file was closed). Then only a file exactly as it
 * was sent gives the range back; otherwise there is no place, and nothing is applied.
 */
export class TrackedRange implements vscode.Disposable {
  private start: number;
  private end: number;
  private lost = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    target: vscode.Uri,
    private readonly sentText: string,
    private readonly sentStart: number,
    private readonly sentEnd: number,
  ) {
    this.start = sentStart;
    this.end = sentEnd;
    const key = target.toString();
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() !== key || this.lost) return;
        // Applied one after the other, as VS Code applies them.
        for (const c of e.contentChanges) {
          const from = c.rangeOffset;
          const to = c.rangeOffset + c.rangeLength;
          if (to <= this.start && !(from === this.start && c.rangeLength === 0 && this.start === this.end)) {
            const delta = c.text.length - c.rangeLength;
            this.start += delta;
            this.end += delta;
          } else if (from >= this.end) {
            continue;
          } else {
            this.lost = true;
            return;
          }
        }
      }),
      // A closed file may come back changed on disk, as a new document: its edits were not seen.
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.toString() === key) this.lost = true;
      }),
    ];
  }

  /** The range's place in `doc` now, if its text is still `original` there; else undefined. */
  current(doc: vscode.TextDocument, original: string): vscode.Range | undefined {
    let start = this.start;
    let end = this.end;
    if (this.lost || doc.isClosed) {
      if (doc.getText() !== this.sentText) return undefined;
      start = this.sentStart;
      end = this.sentEnd;
    }
    const range = new vscode.Range(doc.positionAt(start), doc.positionAt(end));
    return doc.offsetAt(range.start) === start && doc.offsetAt(range.end) === end && doc.getText(range) === original ? range : undefined;
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }
}

/** A generated text waiting for the user's Accept or Discard, shown as a diff against the current file. */
export interface Proposal {
  /** The read-only proposed file (`content-docs-proposal:`), the diff's right side. */
  readonly uri: vscode.Uri;
  /** The file the text came from, the diff's left side. */
  readonly target: vscode.Uri;
  /** The range the proposal replaces, as it was when the text was sent. */
  readonly range: vscode.Range;
  /** Where that range is now (edits elsewhere in the file move it). */
  readonly place: TrackedRange;
  /** The range's text when it was sent, and the document's version then. */
  readonly original: string;
  readonly version: number;
  /** What takes the range's place on Accept. */
  readonly replacement: string;
  /** The whole proposed file as sent (the range replaced in the text then): shown when the file is not open, or its range was lost. */
  readonly proposedText: string;
  /** The document created in the account: its id and name. */
  readonly documentId: number;
  readonly documentName: string;
  /** The document's text as the run created it: Discard's delete leaves a document changed since then alone. */
  readonly documentText: string;
  /** The account it was created in (its label, see DocumentService.accountOf). */
  readonly account: string;
  readonly languageId: string;
}

export type AcceptOutcome = 'applied' | 'changed' | 'failed' | 'gone';

/**
 * The proposals of this window, the read-only documents that show them, and the diff editor with Accept and
 * Discard in its title (the `editor/title` menu, for `resourceScheme == content-docs-proposal`). Accept is one
 * WorkspaceEdit (one undo restores the text) and refuses when the text under the range changed since it was
 * sent; Discard closes the diff and leaves the file as it is. While one of these proposals is the active editor
 * (its diff, or the proposed file alone), the context key `contentDocs.proposalActive` is set: the manifest's
 * keybindings (Ctrl+Enter accepts, Escape discards, as inline chat's) hold only then.
 */
export class ProposalPreview implements vscode.Disposable {
  private readonly proposals = new Map<string, Proposal>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly settled = new vscode.EventEmitter<Proposal>();
  /** A proposal was accepted, discarded, or dropped (the oldest beyond the twenty kept, the window closing). */
  readonly onDidSettle = this.settled.event;
  private active = false;
  private seq = 0;
  /** Makes this window's proposal URIs unlike any restored from an earlier window (those show an explanation). */
  private readonly window = Date.now().toString(36);
  private static readonly KEEP = 20;

  constructor(
    private readonly log: Logger,
    content: ProposalContent,
  ) {
    this.disposables.push(
      content.attach((uri) => {
        const p = this.proposals.get(uri.toString());
        return p && this.proposedNow(p);
      }),
      // The diff shows what Accept would make of the file now: it follows edits made anywhere in it.
      vscode.workspace.onDidChangeTextDocument((e) => {
        const key = e.document.uri.toString();
        for (const p of this.proposals.values()) if (p.target.toString() === key) content.refresh(p.uri);
      }),
      vscode.window.tabGroups.onDidChangeTabs(() => void this.updateActive()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => void this.updateActive()),
      vscode.window.onDidChangeActiveTextEditor(() => void this.updateActive()),
      this.settled,
    );
  }

  /** The proposal the active tab shows (its diff, or the proposed file alone), if this window holds it. */
  private activeProposal(): Proposal | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const uri = input instanceof vscode.TabInputTextDiff ? input.modified : input instanceof vscode.TabInputText ? input.uri : undefined;
    return uri?.scheme === PROPOSAL_SCHEME ? this.get(uri) : undefined;
  }

  /** Sets `contentDocs.proposalActive` when it changes; resolves once VS Code has it. */
  private async updateActive(): Promise<void> {
    const active = this.activeProposal() !== undefined;
    if (active === this.active) return;
    this.active = active;
    await vscode.commands.executeCommand('setContext', CTX.proposalActive, active).then(undefined, () => undefined);
  }

  /** Resolves once the proposal is accepted, discarded or dropped (at once if it is no longer held). */
  whenSettled(p: Proposal): Promise<void> {
    if (this.proposals.get(p.uri.toString()) !== p) return Promise.resolve();
    return new Promise((resolve) => {
      const sub = this.onDidSettle((q) => {
        if (q !== p) return;
        sub.dispose();
        resolve();
      });
    });
  }

  /** The file as Accept would leave it: its text now with the range replaced; the text as sent when it has no place now. */
  private proposedNow(p: Proposal): string {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.target.toString());
    const range = doc && p.place.current(doc, p.original);
    if (!doc || !range) return p.proposedText;
    const text = doc.getText();
    return text.slice(0, doc.offsetAt(range.start)) + this.inFileEol(doc, p.replacement) + text.slice(doc.offsetAt(range.end));
  }

  /** The replacement in the file's own line ends. */
  private inFileEol(doc: vscode.TextDocument, replacement: string): string {
    return replacement.replace(/\r?\n/g, doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
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
    const base = baseName(p.target.path) || 'Untitled';
    const uri = vscode.Uri.from({
      scheme: PROPOSAL_SCHEME,
      path: `/${this.window}-${++this.seq}/${base}`,
      // The account it was made in (its local label, never the key): a tab restored in another account opens nothing.
      query: new URLSearchParams({ document: String(p.documentId), name: p.documentName, account: p.account }).toString(),
    });
    const proposal: Proposal = { ...p, uri };
    this.proposals.set(uri.toString(), proposal);
    while (this.proposals.size > ProposalPreview.KEEP) this.forget(this.proposals.values().next().value as Proposal);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== p.languageId) await vscode.languages.setTextDocumentLanguage(doc, p.languageId).then(undefined, () => undefined);
    await vscode.commands.executeCommand('vscode.diff', p.target, uri, `${base} ↔ ${p.documentName} (proposal)`, { preview: false });
    // The keys hold as soon as the diff is there.
    await this.updateActive();
    return proposal;
  }

  /**
   * Applies the proposal as one edit where the sent text is now (edits above it move it), unless the text
   * under it changed since it was sent. One Accept at a time: a second one finds the proposal gone.
   */
  async accept(p: Proposal): Promise<AcceptOutcome> {
    const key = p.uri.toString();
    if (this.proposals.get(key) !== p) return 'gone';
    this.proposals.delete(key);
    const doc = await vscode.workspace.openTextDocument(p.target);
    const range = p.place.current(doc, p.original);
    if (!range) {
      this.proposals.set(key, p);
      this.log.info(`[write] proposal ${p.uri.path} not applied: ${p.target.toString(true)} changed under the selection`);
      return 'changed';
    }
    // The file's own line ends: the selection below then covers exactly what was inserted.
    const replacement = this.inFileEol(doc, p.replacement);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(p.target, range, replacement);
    if (!(await vscode.workspace.applyEdit(edit))) {
      this.proposals.set(key, p);
      return 'failed';
    }
    this.forget(p);
    await this.close(p);
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    const start = doc.offsetAt(range.start);
    editor.selection = new vscode.Selection(doc.positionAt(start), doc.positionAt(start + replacement.length));
    editor.revealRange(editor.selection);
    return 'applied';
  }

  async discard(p: Proposal): Promise<void> {
    this.forget(p);
    await this.close(p);
  }

  private forget(p: Proposal): void {
    this.proposals.delete(p.uri.toString());
    p.place.dispose();
    this.settled.fire(p);
    void this.updateActive();
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
    const left = [...this.proposals.values()];
    this.proposals.clear();
    for (const p of left) {
      p.place.dispose();
      this.settled.fire(p);
    }
    for (const d of this.disposables.splice(0)) d.dispose();
    if (this.active) void vscode.commands.executeCommand('setContext', CTX.proposalActive, false).then(undefined, () => undefined);
  }
}
