import * as vscode from 'vscode';
import { PROPOSAL_SCHEME } from '../constants';

/**
 * The text of `content-docs-proposal:` documents (the right side of a proposal's diff), registered at activation.
 * Proposals live in the window that made them (src/write/preview.ts, loaded with the commands); a tab restored after
 * a reload, or a proposal accepted or discarded since, has none: it shows a short explanation instead of an empty
 * file. The manifest's `onFileSystem:content-docs-proposal` activates the extension when VS Code restores such a tab.
 * Local only, nothing loaded.
 */
export class ProposalContent implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private source: ((uri: vscode.Uri) => string | undefined) | undefined;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this);
  }

  /** The proposals of this window answer from now on (one source at a time). */
  attach(source: (uri: vscode.Uri) => string | undefined): vscode.Disposable {
    this.source = source;
    return new vscode.Disposable(() => {
      if (this.source === source) this.source = undefined;
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.source?.(uri) ?? goneText(uri);
  }

  dispose(): void {
    this.registration.dispose();
  }
}

/** What a proposal URI whose proposal is gone shows. The URI's query names the document the run created. */
export function goneText(uri: vscode.Uri): string {
  const q = new URLSearchParams(uri.query);
  const name = q.get('name');
  const id = q.get('document');
  const where = name
    ? vscode.l10n.t('The text the service wrote is kept in your account, in the document "{0}"{1}: find it in the Content Docs Documents view.', name, id ? ` (#${id})` : '')
    : vscode.l10n.t('The text the service wrote is kept in your account: find the document in the Content Docs Documents view.');
  return [
    vscode.l10n.t('This proposal is no longer available.'),
    '',
    vscode.l10n.t(
      'A proposal lives only in the window that made it, until it is accepted or discarded; this tab was restored after the window was reloaded or closed, or the proposal was settled since. Nothing was changed in your file.',
    ),
    where,
    '',
    vscode.l10n.t('Close this tab, then run the writing action again to see a new proposal.'),
    '',
  ].join('\n');
}
