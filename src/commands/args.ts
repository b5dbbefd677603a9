import vscode = require('vscode');
import type { DocumentTarget } from '../files/lazyFs';
import type { Core } from '../core';

/** What finding a command's document takes. */
export type ArgsNeeds = Pick<Core, 'documents' | 'documentsView' | 'fs' | 'registry'>;

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
 * uses: a row of the Documents view (its account's; none once that account was removed), a `content-docs:` URI (the account it names; editor title menus
 * pass one), `{ id, account }` (a row's own command; `account` a label), an id or `{ id }` (links, other extensions:
 * the first account), or nothing: the active editor's document. Only the id and the label are taken from an argument
 * this extension did not make; names and other fields always come from what the server said. Undefined when there is
 * none, or when it names an account that is not signed in.
 */
export function documentTargetOf(s: ArgsNeeds, arg: unknown): DocumentTarget | undefined {
  if (arg === undefined || arg === null) {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri ? s.fs.documentOf(uri) : undefined;
  }
  if (arg instanceof vscode.Uri) return s.fs.documentOf(arg);
  if (s.documentsView.owns(arg)) {
    const account = s.documentsView.accountOf(arg);
    return arg.kind === 'document' && account ? { documents: account.documents, id: arg.doc.id } : undefined;
  }
  const direct = positiveId(arg);
  if (direct !== undefined) return { documents: s.documents, id: direct };
  if (typeof arg === 'object') {
    const o = arg as { id?: unknown; account?: unknown; doc?: { id?: unknown } | null; document?: { id?: unknown } | null; resourceUri?: unknown };
    if (o.resourceUri instanceof vscode.Uri) return s.fs.documentOf(o.resourceUri);
    let documents = s.documents;
    if (typeof o.account === 'string') {
      const account = s.registry.byLabel(o.account);
      if (!account) return undefined;
      documents = account.documents;
    }
    for (const v of [o.id, o.doc?.id, o.document?.id]) {
      const id = positiveId(v);
      if (id !== undefined) return { documents, id };
    }
  }
  return undefined;
}

/** The id alone of {@link documentTargetOf} (for the first account's callers that compare ids). */
export function documentIdOf(s: ArgsNeeds, arg: unknown): number | undefined {
  return documentTargetOf(s, arg)?.id;
}
