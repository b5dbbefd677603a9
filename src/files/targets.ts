import vscode = require('vscode');
import { SCHEME } from '../constants';
import type { AccountIndex } from './accountIndex';
import { documentPathPart } from './names';
import { accountOfUri, accountPathUri, documentIdFromUri, fileNameOf, isAccountUri, isLegacyUri, nameFromFileName, safeSegment, segments, tabUris } from './uris';

/** What a `content-docs:` URI stands for. */
export type Target =
  | { kind: 'accountRoot' }
  | { kind: 'accountFolder'; folder: string }
  | { kind: 'documentDir'; id: number; depth: number }
  | { kind: 'file'; id: number };

/** What resolving a URI may consult: its account, the account folder's index, and what is known of each document. */
export interface TargetContext {
  /** The label of the account the file system serves, while it is signed in (undefined: it is not). */
  account(): Promise<string | undefined>;
  /** The first folder of its documents' own URIs (its documents server's host), while it is signed in. */
  hostFolder(): Promise<string | undefined>;
  readonly index: AccountIndex;
  /** Loads the account listing when it is not loaded (throws a FileSystemError when it fails). */
  ensureIndex(): Promise<void>;
  /** The names a document had or was read under this session. */
  names(id: number): ReadonlySet<string> | undefined;
  /** The document's current name, when known without a request. */
  currentName(id: number): string | undefined;
  /**
   * An account path neither this session nor the listing knows, resolved through the paths handed to editors in
   * earlier sessions (see AccountIndex.recall; a failed read throws a FileSystemError).
   */
  recall(folder: string, file: string): Promise<number | undefined>;
}

/**
 * Resolves a URI of either form (see uris.ts) to its target, or throws FileNotFound. Writing to an account path
 * that was never a document's is refused as what it is: an attempt to create a document by creating a file.
 */
export async function resolveTarget(uri: vscode.Uri, why: string, ctx: TargetContext): Promise<Target> {
  try {
    return await resolve(uri, why, ctx);
  } catch (e) {
    const [folder, file] = segments(uri);
    const neverGiven = file !== undefined && ctx.index.resolve(folder, file) === undefined && ctx.index.remembered(folder, file) === undefined;
    if (why === 'write' && e instanceof vscode.FileSystemError && e.code === 'FileNotFound' && isAccountUri(uri) && neverGiven) {
      // A tab of a path this window kept nothing of (opened by an earlier version, or long ago), or a file being made.
      throw vscode.FileSystemError.NoPermissions(
        vscode.l10n.t(
          'Couldn\'t save "{0}": no document of this account has this name now (renamed, deleted or turned HTML on the website since this tab was opened, or the "contentDocs.files.language" setting changed?), and new documents are made with "Content Docs: New Document…", not by creating files. To keep your text, use "Save As…" or copy it, then open the document from the Documents view and paste it there.',
          nameFromFileName(file),
        ),
      );
    }
    throw e;
  }
}

async function resolve(uri: vscode.Uri, why: string, ctx: TargetContext): Promise<Target> {
  if (uri.scheme !== SCHEME) throw vscode.FileSystemError.FileNotFound(uri);
  const segs = segments(uri);
  if (segs.some((s) => s.startsWith('.'))) throw vscode.FileSystemError.FileNotFound(uri); // .vscode, .editorconfig, …
  // A document's own folders (`<id>.<account>/`, `…/<host>`, `…/<host>/<Template>`, `…/<Template>` of the earlier form)
  // hold nothing of the server's and cost no request: VS Code asks for them before it saves, and the save itself
  // (writeFile) then says whose document it is.
  const docId = documentIdFromUri(uri);
  // Only a path of two segments may be either form's: `/<host>/<Template>` (a folder) or `/<Template>/<Name>.md`.
  const part = docId === undefined ? undefined : documentPathPart(segs, segs.length === 2 ? await ctx.hostFolder() : undefined);
  if (isAccountUri(uri) || isLegacyUri(uri) || part?.kind !== 'folder') await checkAccount(uri, ctx);
  if (isAccountUri(uri)) {
    if (segs.length === 0) {
      await ctx.ensureIndex();
      return { kind: 'accountRoot' };
    }
    if (segs.length > 2) throw vscode.FileSystemError.FileNotFound(uri);
    // A path given out this session resolves without loading the listing.
    if (segs.length === 2) {
      const known = ctx.index.resolve(segs[0], segs[1]);
      if (known !== undefined) return fileTarget(uri, known, why, ctx);
    }
    await ctx.ensureIndex();
    if (segs.length === 1) {
      // A folder a given-out path is in stays there for it (VS Code asks for the folder before it saves a file it could not find).
      if (ctx.index.knowsFolder(segs[0])) return { kind: 'accountFolder', folder: segs[0] };
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    // This session's paths and the listing first; then the paths handed to editors in earlier sessions (a restored tab).
    const id = ctx.index.resolve(segs[0], segs[1]) ?? (await ctx.recall(segs[0], segs[1]));
    if (id === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return fileTarget(uri, id, why, ctx);
  }
  if (docId === undefined || part === undefined) throw vscode.FileSystemError.FileNotFound(uri);
  if (part.kind === 'folder') return { kind: 'documentDir', id: docId, depth: part.depth };
  const known = ctx.names(docId);
  const current = ctx.currentName(docId);
  const name = nameFromFileName(part.file);
  if ((known?.size || current !== undefined) && !known?.has(name) && (current === undefined || safeSegment(current) !== name)) {
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  return { kind: 'file', id: docId };
}

/**
 * An account path means the document it was given to. When that document is gone, the path is "not
 * found" — it never falls through to another document that now has the same name.
 *
 * Nor across sessions: while a tab shows a path an editor was opened on in an earlier session and the listing now
 * gives that path to another document (renamed onto it while the window was closed), the path is that other document
 * only to be read (`why` 'open', a stat that starts no save, and 'read': a revert or a compare shows what the path holds
 * now, as VS Code shows a file replaced on disk; once an editor with nothing unsaved is handed the path, it means that
 * document from then on, see DocumentFileSystem.handOut). A save is refused at its stat (`why` 'save') and its write,
 * and nothing else is done to that document through the path (deleted, renamed). Where no tab shows the path, it is
 * the listing's, as the Explorer shows it.
 */
function fileTarget(uri: vscode.Uri, id: number, why: string, ctx: TargetContext): Target {
  const { index } = ctx;
  const file = segments(uri)[1];
  const remembered = shownForAnother(uri, id, index);
  if (remembered !== undefined && why !== 'open' && why !== 'read') throw takenPath(uri, remembered, index);
  if (index.isGone(id)) {
    throw vscode.FileSystemError.FileNotFound(
      vscode.l10n.t(
        '"{0}" was deleted on the server: this file no longer has a document behind it. Your text, if any, is still in the editor: to keep it, use "Save As…" or copy it.',
        nameFromFileName(file ?? ''),
      ),
    );
  }
  // A path its document left (renamed) means that document only for an editor still showing it; to anything
  // else it is not there — so it can't be deleted, written or stand in the way of a rename onto it.
  const path = segments(uri).join('/');
  const now = index.pathOf(id);
  if (now !== undefined && now !== path && !isShown(path, uri.authority)) throw vscode.FileSystemError.FileNotFound(uri);
  return { kind: 'file', id };
}

/**
 * The document an editor was opened on at this account path in an earlier session, when that is not `id` (what the
 * path resolves to now) and a tab or editor shows the path: undefined otherwise.
 */
function shownForAnother(uri: vscode.Uri, id: number, index: AccountIndex): number | undefined {
  const [folder, file] = segments(uri);
  const remembered = file === undefined ? undefined : index.remembered(folder, file);
  return remembered !== undefined && remembered !== id && isShown(`${folder}/${file}`, uri.authority) ? remembered : undefined;
}

/** The refusal of a path the listing gives to another document than the one an editor was opened on (see fileTarget). */
function takenPath(uri: vscode.Uri, remembered: number, index: AccountIndex): vscode.FileSystemError {
  const file = segments(uri)[1] ?? '';
  const now = index.isGone(remembered) ? undefined : index.pathOf(remembered);
  return vscode.FileSystemError.NoPermissions(
    now === undefined
      ? vscode.l10n.t(
          '"{0}" is another document now: the document this tab was opened on no longer has this name (renamed or deleted on the website, or no longer listed), and another one took it. Nothing was written into that other document. To keep your text, use "Save As…" or copy it; then open the document it was meant for from the Documents view and paste it there.',
          file,
        )
      : vscode.l10n.t(
          '"{0}" is another document now: the document this tab was opened on is "{1}" now (renamed or changed on the website), and another one took this name. Nothing was written into that other document. To keep your text, use "Save As…" or copy it, then open "{1}" and paste it there.',
          file,
          now,
        ),
  );
}

/**
 * The document a `content-docs:` URI stands for, without any request: single-document and account URIs of the
 * account used now (`account`, its label). A URI of another account, or of an earlier version, stands for none here.
 */
export function documentIdOf(uri: vscode.Uri, index: AccountIndex, account: string | undefined): number | undefined {
  if (uri.scheme !== SCHEME || account === undefined || accountOfUri(uri) !== account) return undefined;
  const id = documentIdFromUri(uri);
  if (id !== undefined) return id;
  const segs = segments(uri);
  if (segs.length !== 2) return undefined;
  const now = index.resolve(segs[0], segs[1]);
  // A tab of a path an editor was opened on in an earlier session, which now names another document: neither (see fileTarget).
  if (now === undefined) return index.remembered(segs[0], segs[1]);
  return shownForAnother(uri, now, index) === undefined ? now : undefined;
}

/** Every URI of a document: those VS Code asked about (`known`), and its path in the folder of `account`. */
export function documentUris(id: number, known: readonly vscode.Uri[], index: AccountIndex, account: string | undefined): vscode.Uri[] {
  const out = new Map<string, vscode.Uri>(known.map((u) => [u.toString(), u]));
  const path = index.pathOf(id);
  if (path && account) {
    const uri = accountPathUri(account, path);
    out.set(uri.toString(), uri);
  }
  return [...out.values()];
}

/**
 * A URI names its account: it is served only while that account is signed in. A tab opened before the key or server
 * changed, restored after a restart with other settings, or made by an earlier version that named no account, is
 * refused (VS Code keeps its text in the editor), never read or saved in another account. The same documents server and
 * key again (signed out and in, a restart) are the same account, and its URIs work again.
 */
async function checkAccount(uri: vscode.Uri, ctx: TargetContext): Promise<void> {
  try {
    await checkAccountOf(uri, ctx);
  } catch (e) {
    refusals.add(e as Error);
    throw e;
  }
}

/** The refusals of {@link checkAccount}: a URI of another account, or of an earlier version. */
const refusals = new WeakSet<Error>();

/** Whether a resolve failed because the URI is not the account's used now (see checkAccount). */
export function isAccountRefusal(e: unknown): boolean {
  return e instanceof Error && refusals.has(e);
}

async function checkAccountOf(uri: vscode.Uri, ctx: TargetContext): Promise<void> {
  // A document's folder is asked for when VS Code saves a file it could not find: the message names the document.
  const byId = !isAccountUri(uri) && uri.authority !== 'account';
  const file = fileNameOf(uri);
  const named = file !== undefined ? nameFromFileName(file) : undefined;
  if (isLegacyUri(uri)) {
    throw vscode.FileSystemError.FileNotFound(
      named !== undefined
        ? vscode.l10n.t(
            '"{0}" was opened by an earlier version of Content Docs, which did not record the account: open it again from the Documents view. Your text, if any, is still in the editor.',
            named,
          )
        : byId
          ? vscode.l10n.t(
              'This document was opened by an earlier version of Content Docs, which did not record the account: open it again from the Documents view. Your text, if any, is still in the editor.',
            )
          : vscode.l10n.t(
              'This folder was opened by an earlier version of Content Docs, which did not record the account: open it again from the Documents view. Your text, if any, is still in the editor.',
            ),
    );
  }
  const account = accountOfUri(uri);
  if (account === undefined) throw vscode.FileSystemError.FileNotFound(uri);
  const now = await ctx.account();
  if (now === undefined || account !== now) {
    throw vscode.FileSystemError.Unavailable(
      named !== undefined
        ? vscode.l10n.t(
            '"{0}" belongs to an account that is not signed in here (signed out, removed, or its API key or server changed since): nothing was sent. Sign in to that account again to open or save it; your text, if any, is still in the editor.',
            named,
          )
        : byId
          ? vscode.l10n.t(
              'This document belongs to an account that is not signed in here (signed out, removed, or its API key or server changed since): nothing was sent. Sign in to that account again to open or save it; your text, if any, is still in the editor.',
            )
          : vscode.l10n.t(
              'This folder belongs to an account that is not signed in here (signed out, removed, or its API key or server changed since): nothing was sent. Sign in to that account again to open or save it; your text, if any, is still in the editor.',
            ),
    );
  }
}

/** Whether an editor model (open or kept by VS Code) or a tab (restored, not yet shown) shows this path of the account `label`. */
export function isShown(path: string, label: string): boolean {
  const shows = (uri: vscode.Uri) => isAccountUri(uri) && uri.authority === label && segments(uri).join('/') === path;
  return vscode.workspace.textDocuments.some((d) => shows(d.uri)) || tabUris().some(shows);
}
