import * as vscode from 'vscode';
import { templateName } from '../api/templates';
import { SCHEME } from '../constants';
import * as config from '../util/config';

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

export interface DocumentLike {
  readonly id: number;
  readonly name: string;
  readonly template?: { readonly id: number; readonly name?: string } | undefined;
}

/** `.md` or `.txt`, from the setting. */
export function fileExtension(): string {
  return config.fileLanguage() === 'plaintext' ? '.txt' : '.md';
}

/**
 * A name usable as one path segment: no slashes or control characters, never empty, and never starting
 * with `.` (VS Code and the file system treat `.name` as hidden configuration, and `.`/`..` as navigation):
 * a leading dot shows as ONE DOT LEADER, which looks the same.
 */
export function safeSegment(name: string, fallback = 'Untitled'): string {
  const cleaned = name
    .replace(/\//g, '\u2215') // DIVISION SLASH looks like "/" but is not a separator
    .replace(/\\/g, '\u2216') // SET MINUS for "\"
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .replace(/^\./, '\u2024');
  return cleaned || fallback;
}

/** The folder a document's template shows as. */
export function templateFolderName(template: DocumentLike['template']): string {
  return safeSegment(templateName(template?.id, template?.name), 'No template');
}

/** The file name of a document: `<name>.md`. */
export function documentFileName(name: string, ext = fileExtension()): string {
  return `${safeSegment(name)}${ext}`;
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

/** The document name a file name stands for: the extension in use (either one) is dropped. */
export function nameFromFileName(fileName: string): string {
  const m = /^(.*)\.(md|txt)$/i.exec(fileName);
  return (m && m[1].trim() ? m[1] : fileName).trim();
}

/**
 * The document name a renamed file asks for: the look-alikes {@link safeSegment} puts in for `/`, `\\` and a
 * leading `.` are turned back, but only those the current name has (a name may hold the look-alikes themselves).
 */
export function documentNameFromFileName(fileName: string, currentName = ''): string {
  let name = nameFromFileName(fileName);
  if (currentName.startsWith('.')) name = name.replace(/^\u2024/, '.');
  if (currentName.includes('/')) name = name.replace(/\u2215/g, '/');
  if (currentName.includes('\\')) name = name.replace(/\u2216/g, '\\');
  return name;
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
