import vscode = require('vscode');
import type { ContentDocument } from '../api/index';
import { charLength, isBlank, LIMITS, serverTrim, type DocumentSearchField } from '../api/validate';
import { CMD, CONFIG, VIEW } from '../constants';
import type { DocNode } from '../model/nodes';
import type { DocumentSortSetting } from '../util/config';
import { describeError, errorKind, isCancellation } from '../util/errors';
import { showError } from '../util/run';
import { moveDocumentTabs } from '../files/moveTabs';
import { accountGone, documentTargetOf, type DocumentTarget } from './target';
import type { DocumentsTreeProvider } from './documentsTree';
import type { ProjectsTreeProvider } from '../projects/projectsTree';
import type { CommandParts } from '../util/commandTypes';
import type { ArgsNeeds } from './target';
import type { AccountRootsTree } from '../tree/accountRoots';
import type { Logger } from '../util/log';
import type { ProjectNode } from '../model/nodes';
import type { Prompter } from '../ui/prompter';
import { copyResults, deleteDocuments, isFavorite, nameOf, onSelection, setFavorites } from './bulk';
import { saveCopy } from './saveCopy';

/** What the Documents view's commands take. */
export type DocumentsNeeds = { readonly log: Logger; readonly projectsView: AccountRootsTree<ProjectNode>; readonly prompter: Prompter } & ArgsNeeds;

/**
 * The Documents view's commands, and the document commands that work on a tree row or on the
 * active `content-docs:` editor: Rename…, Add to / Remove from Favorites, Copy Result, Delete….
 */
export function documentCommands(s: DocumentsNeeds) {
  return {
    [CMD.documentsRefresh]: () => refreshDocuments(s),
    [CMD.documentsSearch]: () => searchDocuments(s),
    [CMD.documentsClearSearch]: () => documentTrees(s).forEach((t) => t.model.setSearch(undefined)),
    [CMD.documentsSort]: () => sortDocuments(s),
    [CMD.documentsFavoritesOnly]: () => Promise.all(documentTrees(s).map((t) => t.model.setFavoritesOnly(true))),
    [CMD.documentsShowAll]: () => Promise.all(documentTrees(s).map((t) => t.model.setFavoritesOnly(false))),
    [CMD.documentsHideEmpty]: () => setHideEmpty(true),
    [CMD.documentsShowEmpty]: () => setHideEmpty(false),
    [CMD.documentsHideEmptyChecked]: () => setHideEmpty(false),
    [CMD.documentsLoadMore]: (node: unknown) => loadMore(s, node),
    [CMD.documentRename]: (arg: unknown) => renameDocument(s, arg),
    [CMD.documentFavorite]: (arg: unknown, selected?: unknown) => onSelection(s, arg, selected, (d) => setFavorites(s, d, true)) ?? setFavorite(s, arg, true),
    [CMD.documentUnfavorite]: (arg: unknown, selected?: unknown) => onSelection(s, arg, selected, (d) => setFavorites(s, d, false)) ?? setFavorite(s, arg, false),
    [CMD.documentFavoriteToggle]: (arg: unknown, selected?: unknown) => onSelection(s, arg, selected, (d) => setFavorites(s, d, !d.every((x) => isFavorite(x)))) ?? toggleFavorite(s, arg),
    [CMD.documentsCollapseAll]: () => collapseAll(),
    [CMD.documentCopyResult]: (arg: unknown, selected?: unknown) => onSelection(s, arg, selected, (d) => copyResults(d)) ?? copyResult(s, arg),
    [CMD.documentSaveCopy]: (arg: unknown, selected?: unknown) => saveCopy(s, arg, selected),
    [CMD.documentDelete]: (arg: unknown, selected?: unknown) => onSelection(s, arg, selected, (d) => deleteDocuments(s, d)) ?? deleteDocument(s, arg),
    [CMD.documentRenameInEditor]: (arg: unknown) => renameDocument(s, arg),
    [CMD.documentFavoriteInEditor]: (arg: unknown) => setFavorite(s, arg, true),
    [CMD.documentUnfavoriteInEditor]: (arg: unknown) => setFavorite(s, arg, false),
    [CMD.documentDeleteInEditor]: (arg: unknown) => deleteDocument(s, arg),
    [CMD.retry]: (node: unknown) => retry(s, node),
  } satisfies CommandParts;
}

/**
 * The Documents trees of every account shown: the view's title actions (search, sort, favorites only) apply to
 * each, so the accounts' roots always list alike.
 */
export function documentTrees(s: DocumentsNeeds): DocumentsTreeProvider[] {
  return s.documentsView.trees() as DocumentsTreeProvider[];
}

// --- Which document a command is about: see args.ts ---------------------------------------------------

/** What the server last said about the document: from a row of ours, from what is known, else one GET. */
async function knownDocument(s: DocumentsNeeds, arg: unknown, t: DocumentTarget): Promise<ContentDocument> {
  const known = t.account.documents.get(t.id);
  if (known) return known;
  if (s.documentsView.owns(arg) && arg.kind === 'document') return arg.doc;
  return t.account.documents.fetch(t.id);
}

function noDocument(s: DocumentsNeeds, arg: unknown, verb: string): Error {
  return accountGone(s, arg) ?? new Error(vscode.l10n.t('There is no document to {0}: choose one in the Documents view, or run this from an open document.', verb));
}

/** Reports a failed document command; a 404 means the document is gone: the views drop it. */
function failed(s: DocumentsNeeds, action: string, e: unknown, t: DocumentTarget, retry?: () => unknown): void {
  if (isCancellation(e)) return;
  if (errorKind(e) === 'notFound') {
    t.account.documents.markDeleted(t.id);
    void vscode.window.showWarningMessage(vscode.l10n.t('{0}: it no longer exists on the server.', action));
    return;
  }
  void showError(s.log, describeError(action, e), e, retry);
}

/** Resolves the target and reads it when it is not known; undefined (after saying why) when that fails. */
async function resolveDocument(s: DocumentsNeeds, arg: unknown, verb: string): Promise<(DocumentTarget & { doc: ContentDocument }) | undefined> {
  const t = documentTargetOf(s, arg);
  if (t === undefined) throw noDocument(s, arg, verb);
  try {
    return { ...t, doc: await knownDocument(s, arg, t) };
  } catch (e) {
    failed(s, vscode.l10n.t("Couldn't {0} document {1}", verb, t.id), e, t);
    return undefined;
  }
}

// --- Rename, favorite, copy, delete ------------------------------------------------------------------

export function validateDocumentName(value: string): string | undefined {
  const v = serverTrim(value);
  if (!v) return vscode.l10n.t('Enter a name.');
  const n = charLength(v);
  return n > LIMITS.name ? vscode.l10n.t('A name can have at most {0} characters (this one has {1}).', LIMITS.name, n) : undefined;
}

/** Rename…: asks with the current name prefilled; one PATCH; the views update that row only. */
export async function renameDocument(s: DocumentsNeeds, arg: unknown): Promise<ContentDocument | undefined> {
  const target = await resolveDocument(s, arg, vscode.l10n.t('rename'));
  if (!target) return undefined;
  const current = target.doc.name;
  const value = await s.prompter.input({
    title: vscode.l10n.t('Rename Document'),
    prompt: vscode.l10n.t('New name for "{0}" (up to {1} characters)', nameOf(target.doc), LIMITS.name),
    value: current,
    valueSelection: [0, current.length],
    validateInput: validateDocumentName,
  });
  if (value === undefined) return undefined;
  const problem = validateDocumentName(value);
  if (problem) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Couldn\'t rename "{0}": {1}', nameOf(target.doc), problem));
    return undefined;
  }
  const name = serverTrim(value);
  if (name === current) return target.doc;
  const action = vscode.l10n.t('Couldn\'t rename "{0}"', nameOf(target.doc));
  const attempt = async (): Promise<ContentDocument | undefined> => {
    let renamed: ContentDocument;
    try {
      renamed = await target.account.documents.rename(target.id, name);
    } catch (e) {
      failed(s, action, e, target, attempt);
      return undefined;
    }
    // Its open editors follow it to the new name (tab, title, breadcrumb), as the Explorer's do.
    const ofDocument = (uri: vscode.Uri) => {
      const shown = s.fs.documentOf(uri);
      return shown?.account === target.account && shown.id === target.id;
    };
    await moveDocumentTabs(ofDocument, renamed.name, ofDocument).catch((e: unknown) => s.log.warn(`[rename] ${describeError("Couldn't move the editors to the new name", e)}`));
    return renamed;
  };
  return attempt();
}

/** Add to / Remove from Favorites: one PATCH; the row's star and the Favorites group follow. */
export async function setFavorite(s: DocumentsNeeds, arg: unknown, favorite: boolean): Promise<ContentDocument | undefined> {
  const t = documentTargetOf(s, arg);
  if (t === undefined) throw noDocument(s, arg, favorite ? vscode.l10n.t('add to favorites') : vscode.l10n.t('remove from favorites'));
  const { id } = t;
  const { documents } = t.account;
  const known = documents.get(id) ?? (s.documentsView.owns(arg) && arg.kind === 'document' ? arg.doc : undefined);
  // Compared with the state last asked for, not the last one confirmed: with an Add still on the wire, a
  // Remove is a change to send, not "already not a favorite".
  const current = documents.favoriteOf(id) ?? known?.favorite;
  if (known && current === favorite) return known;
  const label = known ? `"${nameOf(known)}"` : vscode.l10n.t('document {0}', id);
  const action = favorite ? vscode.l10n.t("Couldn't add {0} to the favorites", label) : vscode.l10n.t("Couldn't remove {0} from the favorites", label);
  const attempt = async (): Promise<ContentDocument | undefined> => {
    try {
      return await documents.setFavorite(id, favorite);
    } catch (e) {
      failed(s, action, e, t, attempt);
      return undefined;
    }
  };
  return attempt();
}

/** Toggle Favorite (a key in the Documents view): adds the document to the favorites, or removes it if it is one. */
export async function toggleFavorite(s: DocumentsNeeds, arg: unknown): Promise<ContentDocument | undefined> {
  const t = documentTargetOf(s, arg);
  if (t === undefined) throw noDocument(s, arg, vscode.l10n.t('add to favorites'));
  const known = t.account.documents.favoriteOf(t.id) ?? (await knownDocument(s, arg, t)).favorite;
  return setFavorite(s, arg, !known);
}

/**
 * Collapse All in the Documents view's title. Ours rather than the view's built-in one, so that it shows only while
 * signed in (the built-in one shows over the welcome too): the view's list collapses as its own action does.
 */
async function collapseAll(): Promise<void> {
  await vscode.commands.executeCommand(`${VIEW.documents}.focus`);
  await vscode.commands.executeCommand('list.collapseAll');
}

/** Copy Result: the document's text, as the server last gave it, to the clipboard. */
export async function copyResult(s: DocumentsNeeds, arg: unknown): Promise<string | undefined> {
  const target = await resolveDocument(s, arg, vscode.l10n.t('copy'));
  if (!target) return undefined;
  const text = target.doc.result;
  if (!text) {
    void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" has no text to copy.', nameOf(target.doc)));
    return undefined;
  }
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied the text of "{0}"', nameOf(target.doc)), 3000);
  return text;
}

/**
 * Delete…: always asks first (a modal naming the document as the server knows it), whatever the
 * argument says, then one DELETE. The views drop the row and lower the counts.
 */
export async function deleteDocument(s: DocumentsNeeds, arg: unknown): Promise<boolean> {
  const target = await resolveDocument(s, arg, vscode.l10n.t('delete'));
  if (!target) return false;
  const name = nameOf(target.doc);
  const ok = await s.prompter.confirm(
    vscode.l10n.t('Delete "{0}"?', name),
    vscode.l10n.t('The document "{0}" and its text are deleted from your account on the server. This cannot be undone.', name),
    vscode.l10n.t('Delete'),
  );
  if (!ok) return false;
  try {
    await target.account.documents.delete(target.id);
  } catch (e) {
    failed(s, vscode.l10n.t('Couldn\'t delete "{0}"', name), e, target);
    return false;
  }
  s.log.info(`[documents] deleted document ${target.id}`);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(trash) Deleted "{0}"', name), 4000);
  return true;
}

// --- View title commands -------------------------------------------------------------------------------

function refreshDocuments(s: DocumentsNeeds): void {
  for (const tree of documentTrees(s)) tree.model.refresh();
  // Open editors and the account folder re-check the server too.
  for (const account of s.registry.all()) account.documents.forgetAll();
}

/**
 * Search…: one box, the words first (VS Code's Find): by name unless its "in the text" toggle is on, Enter searches.
 * The box opens as the last search was made (its words selected, its toggle as it was). Results in their own group
 * (one request).
 */
export async function searchDocuments(s: DocumentsNeeds): Promise<DocNode[] | undefined> {
  const tree = documentTrees(s)[0];
  if (!tree) return undefined;
  const current = tree.model.search;
  const answer = await s.prompter.inputToggled({
    title: vscode.l10n.t('Search Documents'),
    value: current?.text,
    placeHolder: vscode.l10n.t('Words to search for, then Enter'),
    prompt: (on) =>
      on.text
        ? vscode.l10n.t('Searching the documents\' text (case and accents do not matter). The toggle searches their names instead.')
        : vscode.l10n.t('Searching the documents\' names (case and accents do not matter). The toggle searches in their text instead.'),
    // A page of text: "whole-word" (ab̲) is Match Whole Word in VS Code's Find and Search, which this is not.
    toggles: [{ id: 'text', icon: 'file-text', tooltip: vscode.l10n.t('Search in the Text'), checked: current?.by === 'result' }],
    validateInput: (v) => (isBlank(v) ? vscode.l10n.t('Type something to search for.') : undefined),
  });
  if (answer === undefined) return undefined;
  const text = answer.value;
  const by: DocumentSearchField = answer.checked.text ? 'result' : 'name';
  if (isBlank(text)) return undefined;
  // Every account is searched alike; the first shown account's results are what this returns.
  const groups = documentTrees(s).map((t) => [t, t.model.setSearch({ text, by })] as const);
  const group = groups.find(([t]) => t === tree)?.[1];
  if (!group) return undefined;
  for (const [t, g] of groups) if (t !== tree && g) void t.load(g).catch(() => undefined);
  const children = await tree.load(group);
  const view = tree.treeView;
  if (view) Promise.resolve(view.reveal(group, { expand: true, select: false, focus: false })).then(undefined, () => undefined);
  return children;
}

/** The sorts Sort… offers, in its order. */
export const DOCUMENT_SORTS: ReadonlyArray<{ value: DocumentSortSetting; label: () => string }> = [
  { value: 'newest', label: () => vscode.l10n.t('Date created, newest first') },
  { value: 'oldest', label: () => vscode.l10n.t('Date created, oldest first') },
  { value: 'nameAsc', label: () => vscode.l10n.t('Name, A to Z') },
  { value: 'nameDesc', label: () => vscode.l10n.t('Name, Z to A') },
];

type SortItem = vscode.QuickPickItem & { value: DocumentSortSetting };

export async function sortDocuments(s: DocumentsNeeds): Promise<void> {
  const current = documentTrees(s)[0]?.model.sort;
  const items: SortItem[] = DOCUMENT_SORTS.map((o) => ({
    label: o.value === current ? `$(check) ${o.label()}` : o.label(),
    description: o.value === current ? vscode.l10n.t('current') : undefined,
    value: o.value,
  }));
  const picked = await s.prompter.pick(items, { title: vscode.l10n.t('Sort Documents'), placeHolder: vscode.l10n.t('How should each group be sorted?') });
  if (picked) await Promise.all(documentTrees(s).map((t) => t.model.setSort(picked.value)));
}

/** Hide/Show Empty Templates: the setting is the one place this choice lives. */
async function setHideEmpty(on: boolean): Promise<void> {
  const section = vscode.workspace.getConfiguration(CONFIG);
  const inspected = section.inspect<boolean>('documents.hideEmptyTemplates');
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await section.update('documents.hideEmptyTemplates', on, target);
}

async function loadMore(s: DocumentsNeeds, node: unknown): Promise<void> {
  const account = s.documentsView.accountOf(node);
  if (!account || !s.documentsView.owns(node)) return;
  if (node.kind === 'loadMore' || node.kind === 'template' || node.kind === 'favorites' || node.kind === 'searchResults') {
    await (s.documentsView.treeOf(account) as DocumentsTreeProvider).model.loadMore(node);
  }
}

/** Retry on an error item of either view: reloads only what failed, in the account it failed in. */
async function retry(s: DocumentsNeeds, node: unknown): Promise<void> {
  const docsAccount = s.documentsView.accountOf(node);
  if (docsAccount && s.documentsView.owns(node) && node.kind === 'error') return (s.documentsView.treeOf(docsAccount) as DocumentsTreeProvider).model.retry(node);
  const projectsAccount = s.projectsView.accountOf(node);
  if (projectsAccount && s.projectsView.owns(node) && node.kind === 'error') return (s.projectsView.treeOf(projectsAccount) as ProjectsTreeProvider).model.retry();
  s.log.debug('[commands] retry without an error item: nothing to do');
}
