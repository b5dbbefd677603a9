import vscode = require('vscode');
import type { DocumentTarget } from '../files/lazyFs';
import type { AccountRegistry } from '../accounts/registry';
import type { AccountRootsTree } from '../tree/accountRoots';
import type { DocNode } from '../model/nodes';
import { SCHEME } from '../constants';
import { accountOfUri, isLegacyUri } from '../files/uris';
import type { LazyDocumentFileSystem } from '../files/lazyFs';

/** What finding a command's document takes. */
export type ArgsNeeds = { readonly documentsView: AccountRootsTree<DocNode>; readonly fs: LazyDocumentFileSystem; readonly registry: AccountRegistry };

export type { DocumentTarget } from '../files/lazyFs';

function positiveId(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^[1-9]\d{0,15}$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/**
 * The document a command argument stands for, and the account it is in — the one lookup every document command
 * uses: a row of the Documents view (its account's; none once that account is gone), a `content-docs:` URI (the
 * account its label names; editor title menus pass one), `{ id, account }` (a row's own command; `account` a label),
 * an id or `{ id }` (links, other extensions: only while exactly one account is signed in, the id then can mean only
 * its document), or nothing: the active editor's document. Only the id and the label are taken from an argument this
 * extension did not make; names and other fields always come from what the server said. Undefined when there is none,
 * or when it names an account that is not signed in.
 */
export function documentTargetOf(s: ArgsNeeds, arg: unknown): DocumentTarget | undefined {
  if (arg === undefined || arg === null) {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri ? s.fs.documentOf(uri) : undefined;
  }
  if (arg instanceof vscode.Uri) return s.fs.documentOf(arg);
  if (s.documentsView.owns(arg)) {
    const account = s.documentsView.accountOf(arg);
    return arg.kind === 'document' && account ? { account, id: arg.doc.id } : undefined;
  }
  const only = () => {
    const all = s.registry.all();
    return all.length === 1 ? all[0] : undefined;
  };
  const direct = positiveId(arg);
  if (direct !== undefined) {
    const account = only();
    return account && { account, id: direct };
  }
  if (typeof arg === 'object') {
    const o = arg as { id?: unknown; account?: unknown; doc?: { id?: unknown } | null; document?: { id?: unknown } | null; resourceUri?: unknown };
    if (o.resourceUri instanceof vscode.Uri) return s.fs.documentOf(o.resourceUri);
    const account = typeof o.account === 'string' ? s.registry.byLabel(o.account) : only();
    if (!account) return undefined;
    for (const v of [o.id, o.doc?.id, o.document?.id]) {
      const id = positiveId(v);
      if (id !== undefined) return { account, id };
    }
  }
  return undefined;
}

/**
 * Why an argument stands for no document, when the reason is its account: a row of an account that went (removed,
 * signed out, or its key or server changed since the row was listed), or a URI whose account is not signed in. Nothing
 * is sent; undefined when that is not the reason.
 */
export function accountGone(s: ArgsNeeds, arg: unknown): Error | undefined {
  const uri = arg === undefined || arg === null ? vscode.window.activeTextEditor?.document.uri : arg instanceof vscode.Uri ? arg : undefined;
  const rowOfGone = s.documentsView.owns(arg) && s.documentsView.accountOf(arg) === undefined;
  const uriOfGone = uri !== undefined && uri.scheme === SCHEME && !isLegacyUri(uri) && s.fs.documentOf(uri) === undefined && accountOfUri(uri) !== undefined && !s.registry.byLabel(accountOfUri(uri));
  if (!rowOfGone && !uriOfGone) return undefined;
  return new Error(
    vscode.l10n.t(
      'This document belongs to an account that is no longer signed in here (signed out, removed, or its API key or server changed since): nothing was sent.',
    ),
  );
}
