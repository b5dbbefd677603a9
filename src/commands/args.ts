import * as vscode from 'vscode';
import type { Services } from '../services/services';

function positiveId(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^[1-9]\d{0,15}$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/**
 * The document a command argument stands for — the one lookup every document command uses: a row of the
 * Documents view, a `content-docs:` URI of either form (`content-docs://<id>/…` or an account-folder path;
 * editor title menus pass one), an id or `{ id }` (links, other extensions), or nothing: the active
 * editor's document. Only the id is taken from an argument this extension did not make; names and other
 * fields always come from what the server said.
 */
export function documentIdOf(s: Services, arg: unknown): number | undefined {
  if (arg === undefined || arg === null) {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri ? s.fs.documentIdOf(uri) : undefined;
  }
  if (arg instanceof vscode.Uri) return s.fs.documentIdOf(arg);
  if (s.documentsTree.owns(arg)) return arg.kind === 'document' ? arg.doc.id : undefined;
  const direct = positiveId(arg);
  if (direct !== undefined) return direct;
  if (typeof arg === 'object') {
    const o = arg as { id?: unknown; doc?: { id?: unknown } | null; document?: { id?: unknown } | null; resourceUri?: unknown };
    if (o.resourceUri instanceof vscode.Uri) return s.fs.documentIdOf(o.resourceUri);
    for (const v of [o.id, o.doc?.id, o.document?.id]) {
      const id = positiveId(v);
      if (id !== undefined) return id;
    }
  }
  return undefined;
}
