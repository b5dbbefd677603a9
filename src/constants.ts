/** Every identifier the manifest and the code share, in one place. */
export const EXTENSION_ID = 'content-docs.content-docs';
export const SCHEME = 'content-docs';
/** Read-only proposed texts of the writing actions (the right side of their diff). */
export const PROPOSAL_SCHEME = 'content-docs-proposal';
/** New Document's prompt written in an editor: an in-memory file, never a document of the service (src/files/promptEditor.ts). */
export const PROMPT_SCHEME = 'content-docs-prompt';
export const CONFIG = 'contentDocs';
export const SECRET_KEY = 'contentDocs.apiKey';
/** The accounts' local labels, per documents server and key (digests only; see Credentials.accountLabel). */
export const SECRET_ACCOUNT_LABELS = 'contentDocs.accountLabels';
/** The API key of an account added with "Add Account…": this prefix and its label. */
export const SECRET_ACCOUNT_KEY_PREFIX = 'contentDocs.apiKey.';
/** An account's local label: a lowercase letter, then seven lowercase letters or digits (never an id, never `account`). */
export const ACCOUNT_LABEL = /^[a-z][a-z0-9]{7}$/;
/** The authentication provider that shows the account in VS Code's Accounts menu (contributes.authentication). */
export const AUTH_PROVIDER = { id: 'contentDocs', label: 'Content Docs' } as const;

export const VIEW = {
  documents: 'contentDocs.documents',
  projects: 'contentDocs.projects',
} as const;

/** The Documents view's rows in a drag (VS Code's type for a tree's own items: `application/vnd.code.tree.<view id>`). */
export const DOCUMENTS_TREE_MIME = 'application/vnd.code.tree.contentdocs.documents';
/** Dragged documents' account labels and ids (JSON), for a drop into an editor (src/documents/dragAndDrop.ts). */
export const DOCUMENTS_DRAG_MIME = 'application/vnd.content-docs.documents+json';

export const CTX = {
  signedIn: 'contentDocs.signedIn',
  /** An account added with "Add Account…" has no API key on this machine (its record came by Settings Sync). */
  accountKeyMissing: 'contentDocs.accountKeyMissing',
  documentsSearching: 'contentDocs.documents.searching',
  favoritesOnly: 'contentDocs.documents.favoritesOnly',
  hideEmpty: 'contentDocs.documents.hideEmpty',
  projectsSearching: 'contentDocs.projects.searching',
  activeIsFavorite: 'contentDocs.activeIsFavorite',
  /**
   * Which one-step writing actions the editor's Content Docs menu leaves out (setting contentDocs.write.menuActions):
   * a key is set only for an action the setting turns off, so with the default (all five) activation sets none.
   */
  writeMenuRewriteOff: 'contentDocs.write.menu.rewriteOff',
  writeMenuSummarizeOff: 'contentDocs.write.menu.summarizeOff',
  writeMenuGrammarOff: 'contentDocs.write.menu.grammarOff',
  writeMenuHeadlinesOff: 'contentDocs.write.menu.headlinesOff',
  writeMenuMetaOff: 'contentDocs.write.menu.metaOff',
  /** A proposal of this window is the active editor (its diff): Ctrl+Enter accepts it, Escape discards it. */
  proposalActive: 'contentDocs.proposalActive',
  /** @content was asked something in this window (completes the Getting Started step "Ask @content"). */
  askedContent: 'contentDocs.askedContent',
} as const;

/** The theme colours the extension contributes (contributes.colors). */
export const COLOR = {
  /** A document deleted on the server, in its tabs and the Explorer (the Git extension's red for a deleted file). */
  deleted: 'contentDocs.deletedForeground',
} as const;

export const CMD = {
  signIn: 'contentDocs.signIn',
  signOut: 'contentDocs.signOut',
  accountAdd: 'contentDocs.accountAdd',
  accountRemove: 'contentDocs.accountRemove',
  accountEnterKey: 'contentDocs.accountEnterKey',
  showLog: 'contentDocs.showLog',
  documentsRefresh: 'contentDocs.documentsRefresh',
  documentsCollapseAll: 'contentDocs.documentsCollapseAll',
  documentsSearch: 'contentDocs.documentsSearch',
  documentsClearSearch: 'contentDocs.documentsClearSearch',
  documentsSort: 'contentDocs.documentsSort',
  documentsFavoritesOnly: 'contentDocs.documentsFavoritesOnly',
  documentsShowAll: 'contentDocs.documentsShowAll',
  documentsHideEmpty: 'contentDocs.documentsHideEmpty',
  documentsShowEmpty: 'contentDocs.documentsShowEmpty',
  /** The "…" menu's Hide Empty Templates while it is on, shown checked (VS Code gives extensions no checked menu items): turns it off. */
  documentsHideEmptyChecked: 'contentDocs.documentsHideEmptyChecked',
  documentsLoadMore: 'contentDocs.documentsLoadMore',
  documentNew: 'contentDocs.documentNew',
  documentGoTo: 'contentDocs.documentGoTo',
  documentPromptUse: 'contentDocs.documentPromptUse',
  documentOpen: 'contentDocs.documentOpen',
  documentRename: 'contentDocs.documentRename',
  documentFavorite: 'contentDocs.documentFavorite',
  documentUnfavorite: 'contentDocs.documentUnfavorite',
  documentFavoriteToggle: 'contentDocs.documentFavoriteToggle',
  documentCopyResult: 'contentDocs.documentCopyResult',
  /** Save a Copy As…: the document's text as a file on this machine (one row: a save dialog; several: a folder). */
  documentSaveCopy: 'contentDocs.documentSaveCopy',
  documentDelete: 'contentDocs.documentDelete',
  /**
   * The editor's (and the Command Palette's) Rename, Add to / Remove from Favorites and Delete: the same commands without
   * the Documents view's keys. A menu shows a command's key wherever the menu is, and F2, Delete and Ctrl+Alt+F act
   * only in the view (in the editor they are Rename Symbol, delete a character, nothing), as the Explorer's keys are
   * scoped to it and its editor-title entries show none.
   */
  documentRenameInEditor: 'contentDocs.documentRenameInEditor',
  documentFavoriteInEditor: 'contentDocs.documentFavoriteInEditor',
  documentUnfavoriteInEditor: 'contentDocs.documentUnfavoriteInEditor',
  documentDeleteInEditor: 'contentDocs.documentDeleteInEditor',
  documentOpenInWebApp: 'contentDocs.documentOpenInWebApp',
  documentCopyLink: 'contentDocs.documentCopyLink',
  openAccountFolder: 'contentDocs.openAccountFolder',
  backupAccount: 'contentDocs.backupAccount',
  connectAgent: 'contentDocs.connectAgent',
  documentInsertAtCursor: 'contentDocs.documentInsertAtCursor',
  documentReplaceSelection: 'contentDocs.documentReplaceSelection',
  documentOpenBeside: 'contentDocs.documentOpenBeside',
  htmlPreview: 'contentDocs.htmlPreview',
  htmlToMarkdown: 'contentDocs.htmlToMarkdown',
  usageShow: 'contentDocs.usageShow',
  projectsRefresh: 'contentDocs.projectsRefresh',
  projectsSearch: 'contentDocs.projectsSearch',
  projectsClearSearch: 'contentDocs.projectsClearSearch',
  projectsSort: 'contentDocs.projectsSort',
  projectsLoadMore: 'contentDocs.projectsLoadMore',
  projectDelete: 'contentDocs.projectDelete',
  projectOpenInBrowser: 'contentDocs.projectOpenInBrowser',
  retry: 'contentDocs.retry',
  selectionGenerate: 'contentDocs.selectionGenerate',
  selectionRewrite: 'contentDocs.selectionRewrite',
  selectionSummarize: 'contentDocs.selectionSummarize',
  selectionFixGrammar: 'contentDocs.selectionFixGrammar',
  selectionHeadlines: 'contentDocs.selectionHeadlines',
  selectionMetaDescription: 'contentDocs.selectionMetaDescription',
  writingLanguageTone: 'contentDocs.writingLanguageTone',
  proposalAccept: 'contentDocs.proposalAccept',
  proposalDiscard: 'contentDocs.proposalDiscard',
  proposalOpenDocument: 'contentDocs.proposalOpenDocument',
  /**
   * Accept and Discard as the proposal diff's title shows them: the same as proposalAccept and proposalDiscard, with no
   * key of their own, so that VS Code writes one word each on one line (it writes a title action's key beside its word).
   */
  proposalAcceptInTitle: 'contentDocs.proposalAcceptInTitle',
  proposalDiscardInTitle: 'contentDocs.proposalDiscardInTitle',
} as const;

/**
 * The commands the views register when they are built (dist/core.js) rather than activation: each is reached only
 * from a view's rows or title (no Command Palette entry, no key, menus scoped to the views), and a view shows rows
 * and title actions only once it asked for its rows, which builds it. (A key scoped to a view can be pressed while
 * only its collapsed header has the focus: the view's keys stay registered at activation.) Every other command is registered at
 * activation. test/unit/viewCommands.test.ts holds package.json to that.
 */
export const VIEW_COMMANDS: readonly (typeof CMD)[keyof typeof CMD][] = [
  CMD.documentsCollapseAll,
  CMD.documentsLoadMore,
  CMD.projectsLoadMore,
  CMD.projectOpenInBrowser,
  CMD.projectDelete,
  CMD.retry,
];

/** The @content chat participant (contributes.chatParticipants) and the prefix of the tools it gives the model. */
export const CHAT = {
  participant: 'contentDocs.content',
  toolPrefix: 'contentDocs_',
} as const;

/** Keys in globalState (view choices that survive a restart). Never anything secret. */
export const STATE = {
  documentsView: 'contentDocs.documentsView',
  projectsView: 'contentDocs.projectsView',
  /** The writing actions' language and tone, last chosen. */
  writeStyle: 'contentDocs.write.style',
  /** Template ids Generate from Selection used, most recent first. */
  writeRecentTemplates: 'contentDocs.write.recentTemplates',
  /** The user's name and the server's host per account label, for the Accounts menu after a restart (see auth/accountNames.ts). */
  accountNames: 'contentDocs.accountNames',
  /** The accounts added with "Add Account…" (label and server addresses; their keys are in SecretStorage). */
  accounts: 'contentDocs.accounts',
  /** The label of the account last chosen for New Document…, Go to Document… or a writing action (offered first). */
  lastAccount: 'contentDocs.lastAccount',
  /**
   * The folder each account was last backed up to (its URI, by account label): Back Up Account to Folder… opens its
   * picker there. Kept on this machine only (a folder of another machine's disk means nothing here).
   */
  backupFolders: 'contentDocs.backupFolders',
  /** workspaceState: the prompt being written in an editor (its address and text), for its tab restored after a reload. */
  promptDraft: 'contentDocs.promptDraft',
  /**
   * workspaceState, `<key>.<account label>`: the account-folder paths handed to editors and the document id each meant
   * (no text), so that a tab restored after a restart finds its document although its file name changed meanwhile.
   */
  accountFolderPaths: 'contentDocs.accountFolderPaths',
} as const;
