import * as vscode from 'vscode';
import { SCHEME } from '../constants';
import { PREVIOUS_ACCOUNT, type AccountIndex } from './accountIndex';
import type { DocumentRecords } from './documentRecords';
import { ACCOUNT_AUTHORITY, documentIdFromUri, isAccountUri, nameFromFileName, safeSegment, segments } from './uris';

/** What a `content-docs:` URI stands for. */
export type Target =
  | { kind: 'accountRoot' }
  | { kind: 'accountFolder'; folder: string }
  | { kind: 'documentDir'; id: number; depth: number }
  | { kind: 'file'; id: number };

/** What resolving a URI may consult: the account folder's index, and what is known of each document. */
export interface TargetContext {
  readonly index: AccountIndex;
  /** Loads the account listing when it is not loaded (throws a FileSystemError when it fails). */
  ensureIndex(): Promise<void>;
  /** The names a document had or was read under this session. */
  names(id: number): ReadonlySet<string> | undefined;
  /** The document's current name, when known without a request. */
  currentName(id: number): string | undefined;
  /** The name was the document's in an account used before, not found here since (see checkAccount). */
  fromPreviousAccount(id: number, name: string): boolean;
}

/**
 * Resolves a URI of either form (see uris.ts) to its target, or throws FileNotFound. Writing to an account path
 * that was never a document's is refused as what it is: an attempt to create a document by creating a file.
 */
export async function resolveTarget(uri: vscode.Uri, why: string, ctx: TargetContext): Promise<Target> {
  try {
    return await resolve(uri, ctx);
  } catch (e) {
    const [folder, file] = segments(uri);
    const neverGiven = file !== undefined && ctx.index.resolve(folder, file) === undefined;
    if (why === 'write' && e instanceof vscode.FileSystemError && e.code === 'FileNotFound' && isAccountUri(uri) && neverGiven) {
      throw vscode.FileSystemError.NoPermissions(
        `Couldn't save "${nameFromFileName(uri.path.split('/').pop() ?? '')}": new documents are made with "Content Docs: New Document…", not by creating files.`,
      );
    }
    throw e;
  }
}

async function resolve(uri: vscode.Uri, ctx: TargetContext): Promise<Target> {
  if (uri.scheme !== SCHEME) throw vscode.FileSystemError.FileNotFound(uri);
  const segs = segments(uri);
  if (segs.some((s) => s.startsWith('.'))) throw vscode.FileSystemError.FileNotFound(uri); // .vscode, .editorconfig, …
  if (uri.authority === ACCOUNT_AUTHORITY) {
    if (segs.length === 0) {
      await ctx.ensureIndex();
      return { kind: 'accountRoot' };
    }
    if (segs.length > 2) throw vscode.FileSystemError.FileNotFound(uri);
    // A path given out this session resolves without loading the listing.
    if (segs.length === 2) {
      const known = ctx.index.resolve(segs[0], segs[1]);
      if (known !== undefined) return fileTarget(uri, known, ctx.index);
    }
    await ctx.ensureIndex();
    if (segs.length === 1) {
      if (ctx.index.hasFolder(segs[0])) return { kind: 'accountFolder', folder: segs[0] };
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    const id = ctx.index.resolve(segs[0], segs[1]);
    if (id === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return fileTarget(uri, id, ctx.index);
  }
  const id = documentIdFromUri(uri);
  if (id === undefined || segs.length > 2) throw vscode.FileSystemError.FileNotFound(uri);
  if (segs.length < 2) return { kind: 'documentDir', id, depth: segs.length };
  const known = ctx.names(id);
  const current = ctx.currentName(id);
  const name = nameFromFileName(segs[1]);
  if ((known?.size || current !== undefined) && !known?.has(name) && (current === undefined || safeSegment(current) !== name)) {
    throw ctx.fromPreviousAccount(id, name) ? previousAccount(name) : vscode.FileSystemError.FileNotFound(uri);
  }
  return { kind: 'file', id };
}

/**
 * An account path means the document it was given to. When that document is gone, the path is "not
 * found" — it never falls through to another document that now has the same name.
 */
function fileTarget(uri: vscode.Uri, id: number, index: AccountIndex): Target {
  if (id === PREVIOUS_ACCOUNT) throw previousAccount(nameFromFileName(segments(uri)[1] ?? ''));
  if (index.isGone(id)) {
    throw vscode.FileSystemError.FileNotFound(
      `"${nameFromFileName(segments(uri)[1] ?? '')}" was deleted on the server: this file no longer has a document behind it. Your text, if any, is still in the editor.`,
    );
  }
  // A path its document left (renamed) means that document only for an editor still showing it; to anything
  // else it is not there — so it can't be deleted, written or stand in the way of a rename onto it.
  const path = segments(uri).join('/');
  const now = index.pathOf(id);
  if (now !== undefined && now !== path && !isShown(path)) throw vscode.FileSystemError.FileNotFound(uri);
  return { kind: 'file', id };
}

/** The document a `content-docs:` URI stands for, without any request: single-document and account URIs. */
export function documentIdOf(uri: vscode.Uri, index: AccountIndex): number | undefined {
  if (uri.scheme !== SCHEME) return undefined;
  const id = documentIdFromUri(uri);
  if (id !== undefined) return id;
  if (!isAccountUri(uri)) return undefined;
  const segs = segments(uri);
  const found = segs.length === 2 ? index.resolve(segs[0], segs[1]) : undefined;
  return found === PREVIOUS_ACCOUNT ? undefined : found;
}

/** Every URI of a document: those VS Code asked about (`known`), and its account path. */
export function documentUris(id: number, known: readonly vscode.Uri[], index: AccountIndex): vscode.Uri[] {
  const out = new Map<string, vscode.Uri>(known.map((u) => [u.toString(), u]));
  const path = index.pathOf(id);
  if (path) {
    const uri = vscode.Uri.from({ scheme: SCHEME, authority: ACCOUNT_AUTHORITY, path: `/${path}` });
    out.set(uri.toString(), uri);
  }
  return [...out.values()];
}

/**
 * A document URI (`content-docs://ID/…`) VS Code had before the key or server changed names a document of the
 * previous account. The same id here is the same document only if it has the URI's name here (signing in again
 * with the same key, for one): else it is another document, and the URI means nothing in this account — an
 * editor never shows or saves into it under the other's name. (Account paths have their own marker, see
 * AccountIndex.unload.) Called after the read that tells, with the name the document has now.
 */
export async function checkAccount(
  uri: vscode.Uri,
  id: number,
  records: Pick<DocumentRecords<vscode.Uri>, 'fromPreviousAccount' | 'previousGeneration' | 'confirmAccount'>,
  name: string | undefined,
  sameAccount: (generation: number) => Promise<boolean>,
): Promise<void> {
  const segs = segments(uri);
  if (documentIdFromUri(uri) === undefined || segs.length !== 2) return;
  const uriName = nameFromFileName(segs[1]);
  if (!records.fromPreviousAccount(id, uriName)) return;
  // Unknown (forgotten again since the read): not confirmed either. Another name here is another document, unless
  // it is the same account (signed out and in again with the same key) and the document was renamed meanwhile.
  const generation = records.previousGeneration(id, uriName);
  const same = name !== undefined && (safeSegment(name) === uriName || (generation !== undefined && (await sameAccount(generation))));
  if (!same) throw previousAccount(uriName);
  records.confirmAccount(id, uriName);
}

function previousAccount(name: string): vscode.FileSystemError {
  return vscode.FileSystemError.FileNotFound(`"${name}" belongs to the account used before the API key or server changed. Your text, if any, is still in the editor.`);
}

/** Whether an editor model (open or kept by VS Code) shows this account path. */
export function isShown(path: string): boolean {
  return vscode.workspace.textDocuments.some((d) => isAccountUri(d.uri) && segments(d.uri).join('/') === path);
}
