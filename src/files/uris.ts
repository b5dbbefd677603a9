import vscode = require('vscode');
import { ACCOUNT_LABEL, SCHEME } from '../constants';
import * as config from '../util/config';
import { documentPath, documentPathPart, extensionOf, documentFileName as fileName, hostFolderName } from './names';

export { documentNameFromFileName, hostFolderName, isHtmlDocument, nameFromFileName, safeSegment, templateFolderName } from './names';

/**
 * The `content-docs:` URIs. Every one names its account (a local label, see Credentials.accountLabel): a URI is
 * never bound to whatever account happens to be signed in.
 *
 *   content-docs://<id>.<account>/<host>/<Template name>/<Document name>.md   one document; the authority (its id
 *                                                 in that account) is its identity, the path reads well in a tab: its
 *                                                 first folder, the host (and port) of the account's documents server,
 *                                                 tells apart the tabs of one document opened from two accounts on two
 *                                                 servers (VS Code shows the folders of two tabs of one file name), and
 *                                                 names the server in breadcrumbs and the window title
 *   content-docs://<id>.<account>/<Template name>/<Document name>.md          the same, as earlier versions made it (a
 *                                                 restored tab): it keeps working (see documentPathPart)
 *   content-docs://<account>/                                                 the account as a folder: template folders…
 *   content-docs://<account>/<Template name>/<Document name>.md               …holding documents, resolved to ids
 *                                                                             through the file system's listing cache
 *
 * `.txt` instead of `.md` when `contentDocs.files.language` is `plaintext`, and `.html` for a document whose text is
 * HTML (the web editor's, see content/format.ts): VS Code gives it the language `html`. Only the authority is the
 * document's identity: a file name with any of the three extensions resolves to it. The forms of versions older still
 * (`content-docs://<id>/…` and `content-docs://account/…`) named no account: they are refused (see LEGACY_AUTHORITY).
 */
export const ACCOUNT_FOLDER_NAME = 'Content Docs';
/** The authorities of earlier versions: a bare id, or `account`. */
export const LEGACY_AUTHORITY = /^(?:[1-9]\d{0,15}|account)$/;

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

/** The file name of a document as a record says it: `.html` when its text is HTML, else the setting's extension. */
export function documentFileNameOf(doc: DocumentLike): string {
  return documentFileName(doc.name, extensionOf(doc, fileExtension()));
}

/** What a document's own URI takes of its account: its label, and its documents server (whose host is the URI's first folder). */
export interface UriAccount {
  readonly label: string;
  readonly documentsUrl: string;
}

/**
 * `content-docs://<id>.<account>/<host>/<Template name>/<Document name>.md` (`.html` when the record's text is HTML).
 * The extension is the format when the URI is made: an editor keeps its URI when the text changes format later.
 */
export function documentUri(doc: DocumentLike, account: UriAccount): vscode.Uri {
  return vscode.Uri.from({
    scheme: SCHEME,
    authority: `${doc.id}.${account.label}`,
    path: documentPath(hostFolderName(account.documentsUrl), doc, fileExtension()),
  });
}

/** `content-docs://<account>/`: the account as a folder. */
export function accountRoot(account: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, authority: account, path: '/' });
}

/** `content-docs://<account>/<path>`: a template folder or a document's file in the account folder. */
export function accountPathUri(account: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, authority: account, path: `/${path}` });
}

/** The document id of a single-document URI (`<id>.<account>`); undefined for anything else (account folder URIs included). */
export function documentIdFromUri(uri: vscode.Uri): number | undefined {
  const m = uri.scheme === SCHEME ? /^([1-9]\d{0,15})\.(.*)$/.exec(uri.authority) : null;
  if (!m || !ACCOUNT_LABEL.test(m[2])) return undefined;
  const id = Number(m[1]);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The account a `content-docs:` URI belongs to (its label); undefined for a URI of an earlier version or a malformed one. */
export function accountOfUri(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== SCHEME) return undefined;
  const label = uri.authority.slice(uri.authority.indexOf('.') + 1);
  if (!ACCOUNT_LABEL.test(label)) return undefined;
  return label === uri.authority || documentIdFromUri(uri) !== undefined ? label : undefined;
}

/** Whether the URI is in an account folder (`content-docs://<account>/…`). */
export function isAccountUri(uri: vscode.Uri): boolean {
  return uri.scheme === SCHEME && ACCOUNT_LABEL.test(uri.authority);
}

/** Whether the URI has a form of an earlier version, which named no account. */
export function isLegacyUri(uri: vscode.Uri): boolean {
  return uri.scheme === SCHEME && LEGACY_AUTHORITY.test(uri.authority);
}

/** The path segments of a URI, without empty ones: `/Blog post/Q3.md` → ['Blog post', 'Q3.md']. */
export function segments(uri: vscode.Uri): string[] {
  return uri.path.split('/').filter((s) => s.length > 0);
}

/**
 * The file name a `content-docs:` URI names: the last segment of a document's own URI of either form (see
 * documentPathPart), the second of an account path (or of a form that named no account); undefined for a folder.
 */
export function fileNameOf(uri: vscode.Uri): string | undefined {
  const segs = segments(uri);
  if (documentIdFromUri(uri) === undefined) return segs.length === 2 ? segs[1] : undefined;
  const part = documentPathPart(segs);
  return part?.kind === 'file' ? part.file : undefined;
}

/**
 * The address of a tab showing document `id` of `account` (its own URI of either form, or an account path), if one is
 * open: one document, one editor, whatever address it was opened under. `documentOf` is the file system's.
 */
export function openTabOf<A>(documentOf: (uri: vscode.Uri) => { readonly account: A; readonly id: number } | undefined, account: A, id: number): vscode.Uri | undefined {
  return tabUris().find((uri) => {
    const shown = documentOf(uri);
    return shown?.account === account && shown.id === id;
  });
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
