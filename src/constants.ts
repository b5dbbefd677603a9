/** Every identifier the manifest and the code share, in one place. */
export const EXTENSION_ID = 'content-docs.content-docs';
export const SCHEME = 'content-docs';
export const CONFIG = 'contentDocs';
export const SECRET_KEY = 'contentDocs.apiKey';

export const VIEW = {
  documents: 'contentDocs.documents',
  projects: 'contentDocs.projects',
} as const;

export const CTX = {
  signedIn: 'contentDocs.signedIn',
  documentsSearching: 'contentDocs.documents.searching',
  favoritesOnly: 'contentDocs.documents.favoritesOnly',
  hideEmpty: 'contentDocs.documents.hideEmpty',
  projectsSearching: 'contentDocs.projects.searching',
  activeIsFavorite: 'contentDocs.activeIsFavorite',
} as const;

export const CMD = {
  signIn: 'contentDocs.signIn',
  signOut: 'contentDocs.signOut',
  showLog: 'contentDocs.showLog',
  documentsRefresh: 'contentDocs.documentsRefresh',
  documentsSearch: 'contentDocs.documentsSearch',
  documentsClearSearch: 'contentDocs.documentsClearSearch',
  documentsSort: 'contentDocs.documentsSort',
  documentsFavoritesOnly: 'contentDocs.documentsFavoritesOnly',
  documentsShowAll: 'contentDocs.documentsShowAll',
  documentsHideEmpty: 'contentDocs.documentsHideEmpty',
  documentsShowEmpty: 'contentDocs.documentsShowEmpty',
  documentsLoadMore: 'contentDocs.documentsLoadMore',
  documentNew: 'contentDocs.documentNew',
  documentGoTo: 'contentDocs.documentGoTo',
  documentOpen: 'contentDocs.documentOpen',
  documentRename: 'contentDocs.documentRename',
  documentFavorite: 'contentDocs.documentFavorite',
  documentUnfavorite: 'contentDocs.documentUnfavorite',
  documentCopyResult: 'contentDocs.documentCopyResult',
  documentDelete: 'contentDocs.documentDelete',
  openAccountFolder: 'contentDocs.openAccountFolder',
  documentInsertAtCursor: 'contentDocs.documentInsertAtCursor',
  documentReplaceSelection: 'contentDocs.documentReplaceSelection',
  documentOpenBeside: 'contentDocs.documentOpenBeside',
  usageShow: 'contentDocs.usageShow',
  projectsRefresh: 'contentDocs.projectsRefresh',
  projectsSearch: 'contentDocs.projectsSearch',
  projectsClearSearch: 'contentDocs.projectsClearSearch',
  projectsSort: 'contentDocs.projectsSort',
  projectsLoadMore: 'contentDocs.projectsLoadMore',
  projectDelete: 'contentDocs.projectDelete',
  retry: 'contentDocs.retry',
} as const;

/** Keys in globalState (view choices that survive a restart). Never anything secret. */
export const STATE = {
  documentsView: 'contentDocs.documentsView',
  projectsView: 'contentDocs.projectsView',
} as const;
