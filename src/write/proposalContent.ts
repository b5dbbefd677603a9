import vscode = require('vscode');
import { PROPOSAL_SCHEME } from '../constants';

/**
 * The text of `content-docs-proposal:` documents (the right side of a proposal's diff), registered at activation.
 * Proposals live in the window that made them (src/write/preview.ts, loaded with the commands); a tab restored after
 * a reload, or a proposal accepted or discarded since, has none: it shows a short explanation instead of an empty
 * file. The manifest's `onFileSystem:content-docs-proposal` activates the extension when VS Code restores such a tab.
 * Local only; the explanation's text loads with the commands.
 */
export class ProposalContent implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private source: ((uri: vscode.Uri) => string | undefined) | undefined;
  private readonly registration: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** VS Code asks for the text again (its file changed: the proposal follows the edits). */
  readonly onDidChange = this.changed.event;

  /** `gone`: the explanation for a proposal this window does not hold (in the commands bundle, loaded only then). */
  constructor(private readonly gone: (uri: vscode.Uri) => string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this);
  }

  /** The proposals of this window answer from now on (one source at a time). */
  attach(source: (uri: vscode.Uri) => string | undefined): vscode.Disposable {
    this.source = source;
    return new vscode.Disposable(() => {
      if (this.source === source) this.source = undefined;
    });
  }

  /** The proposal's text changed: VS Code reads it again (later, once every listener of the edit has run). */
  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.source?.(uri) ?? this.gone(uri);
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
