import vscode = require('vscode');

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
