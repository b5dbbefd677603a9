import * as vscode from 'vscode';
import { SCHEME } from '../constants';
import * as config from '../util/config';
import { documentFileName as fileName, templateFolderName } from './names';

export { documentNameFromFileName, nameFromFileName, safeSegment, templateFolderName } from './names';

/**
 * The `content-docs:` URIs.
 *
 *   content-docs://<id>/<Template name>/<Document name>.md    one document; the id (authority) is its
 *                                                             identity, the path only reads well in a tab
 *   content-docs://account/                                   the account as a folder: template folders…
 *   content-docs://account/<Template name>/<Document name>.md …holding documents, resolved to ids through
 *                                                             the file system's listing cache
 *
 * `.txt` instead of `.md` when `contentDocs.files.language` is `plaintext`.
 */
export const ACCOUNT_AUTHORITY = 'account';
export const ACCOUNT_ROOT = vscode.Uri.from({ scheme: SCHEME, authority: ACCOUNT_AUTHORITY, path: '/' });
export const ACCOUNT_FOLDER_NAME = 'Content Docs';

export type { DocumentLike } from './names';
import type { DocumentLike } from './names';

/** `.md` or `.txt`, from the setting. */
export function fileExtension(): string {
  return config.fileLanguage() === 'plaintext' ? '.txt' : '.md';
}

/** The file name of a document: `<name>.md` (or `.txt`, from the setting). */
export function documentFileName(name: string, ext = fileExtension()): string {
  return fileName(name, ext);
}

/** `content-docs://<id>/<Template name>/<Document name>.md` */
export function documentUri(doc: DocumentLike): vscode.Uri {
  return vscode.Uri.from({
    scheme: SCHEME,
    authority: String(doc.id),
    path: `/${templateFolderName(doc.template)}/${documentFileName(doc.name)}`,
  });
}

/** The document id of a single-document URI (its authority); undefined for anything else (account URIs included). */
export function documentIdFromUri(uri: vscode.Uri): number | undefined {
  if (uri.scheme !== SCHEME || !/^[1-9]\d{0,15}$/.test(uri.authority)) return undefined;
  const id = Number(uri.authority);
  return Number.isSafeInteger(id) ? id : undefined;
}

export function isAccountUri(uri: vscode.Uri): boolean {
  return uri.scheme === SCHEME && uri.authority === ACCOUNT_AUTHORITY;
}

/** The path segments of a URI, without empty ones: `/Blog post/Q3.md` → ['Blog post', 'Q3.md']. */
export function segments(uri: vscode.Uri): string[] {
  return uri.path.split('/').filter((s) => s.length > 0);
}

/**
 * The `content-docs:` URIs shown in editor tabs. VS Code keeps the models of closed editors around for a
 * while; those are not worth a request (VS Code re-reads a model when it is shown again).
 */
export function tabUris(): vscode.Uri[] {
  const out: vscode.Uri[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputText && input.uri.scheme === SCHEME) out.push(input.uri);
      else if (input instanceof vscode.TabInputTextDiff) {
        for (const uri of [input.original, input.modified]) if (uri.scheme === SCHEME) out.push(uri);
      }
    }
  }
  return out;
}
