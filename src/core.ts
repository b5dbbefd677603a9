import vscode = require('vscode');
import { Account, type AccountModelsOf } from './accounts/account';
import { AccountRegistry } from './accounts/registry';
import type { AccountsMenu } from './accounts/accountsMenu';
import type { LoadBundle } from './activation/codeCache';
import type { RegisterCommands } from './commands/index';
import { VIEW_COMMANDS } from './constants';
import type { Credentials, SignIn } from './accounts/credentials';
import { LazyDocumentFileSystem } from './files/lazyFs';
import type { DocNode, ProjectNode } from './model/nodes';
import { ApiProvider } from './accounts/apiProvider';
import { AccountService } from './usage/accountService';
import { DocumentService } from './documents/documentService';
import { ProjectService } from './projects/projectService';
import { SaveStatus } from './files/saveStatus';
import { UsageStatus } from './usage/usageStatus';
import { AccountRootsTree, type AccountRootNode } from './tree/accountRoots';
import { DocumentsTreeProvider } from './documents/documentsTree';
import { documentsModelOf } from './documents/modelOfAccount';
import { prepareFormats } from './tree/format';
import { ProjectsTreeProvider } from './projects/projectsTree';
import { projectsModelOf } from './projects/modelOfAccount';
import { followActiveDocument } from './documents/revealActive';
import type { SwitchablePrompter } from './ui/prompter';
import * as config from './util/config';
import type { Logger } from './util/log';
import type { ProposalContent } from './write/proposalContent';


/**
 * What the core builds (dist/core.js): the accounts, their views and the file system. No command takes all of it:
 * each feature declares what it needs (`Pick<Core, …>`), and the compiler holds it to that.
 */
export interface Core {
  readonly context: vscode.ExtensionContext;
  /** What is disposed with the extension (the context's subscriptions), for features that need no more of the context. */
  readonly subscriptions: vscode.Disposable[];
  /** Where features remember choices (the last account, writing style): the extension's globalState. */
  readonly state: vscode.Memento;
  /** What this window remembers of its own (the prompt being written in an editor): the extension's workspaceState. */
  readonly workspaceState: vscode.Memento;
  readonly log: Logger;
  readonly credentials: Credentials;
  /** The account in VS Code's Accounts menu (an authentication provider). */
  readonly accounts: AccountsMenu;
  readonly api: ApiProvider;
  /** Every account: the first (whose services are `api`, `documents`, `account`) and those added with "Add Account…". */
  readonly registry: AccountRegistry;
  /** The first account's document service. */
  readonly documents: DocumentService;
  readonly account: AccountService;
  readonly usage: UsageStatus;
  /** Whether the active document's text reached the server (the status bar's "Saving…" / "Saved"). */
  readonly saveStatus: SaveStatus;
  readonly prompter: SwitchablePrompter;
  /** The first account's Documents tree (with several accounts, its root's content). */
  readonly documentsTree: DocumentsTreeProvider;
  readonly projectsTree: ProjectsTreeProvider;
  /** The Documents view: every account's tree (a root per account when there are several). */
  readonly documentsView: AccountRootsTree<DocNode>;
  readonly projectsView: AccountRootsTree<ProjectNode>;
  readonly fs: LazyDocumentFileSystem;
  /** The text of proposal documents (the writing actions' diffs), registered at activation. */
  readonly proposalContent: ProposalContent;
  /** Loads a lazy bundle with the window's code cache (src/activation/codeCache.ts, in the activation bundle). */
  readonly loadBundle: LoadBundle;
}

/** What activation made (dist/extension.js) and hands to the services when they are first needed. */
export interface CoreBase {
  readonly context: vscode.ExtensionContext;
  readonly log: Logger;
  readonly credentials: Credentials;
  /** The accounts in VS Code's Accounts menu, registered at activation; connected to the services here. */
  readonly accounts: AccountsMenu;
  readonly prompter: SwitchablePrompter;
  readonly proposalContent: ProposalContent;
  /** The views, created at activation with forwarding providers; attached to their real providers here. */
  readonly documentsTreeView: vscode.TreeView<DocNode | AccountRootNode>;
  readonly projectsTreeView: vscode.TreeView<ProjectNode | AccountRootNode>;
  /** Registers commands as activation did: the views register their own here (VIEW_COMMANDS). */
  readonly registerCommands: RegisterCommands;
  /** Loads a lazy bundle with the window's code cache (the activation bundle's; a copy of codeCache.ts here would have none). */
  readonly loadBundle: LoadBundle;
}

/** An account's Documents view: it shows the account's model (see Account.documentsModel). */
function viewOfDocuments(account: Account, signIn: SignIn, state: vscode.Memento, log: Logger): DocumentsTreeProvider {
  const { model, link } = account.documentsModel;
  return new DocumentsTreeProvider(model, link, signIn, state, log);
}

/** An account's Projects view: it shows the account's model (see Account.projectsModel). */
function viewOfProjects(account: Account, signIn: SignIn, state: vscode.Memento, log: Logger): ProjectsTreeProvider {
  const { model, link } = account.projectsModel;
  return new ProjectsTreeProvider(model, link, signIn, state, log);
}

/** An added account always has its key (removing the account is its sign-out). */
const addedSignIn: SignIn = { hasKey: () => Promise.resolve(true), onDidChange: () => new vscode.Disposable(() => undefined) };

/**
 * dist/core.js: the services, the views' providers and models, and the file system's front. Loaded when a view
 * first asks for its rows, a command first runs or a document is first opened, not at activation: every window
 * activates the extension once startup finished, and most never open a view.
 */
export function createServices(base: CoreBase): Core {
  const { context, log, credentials, accounts, prompter, proposalContent } = base;
  // The lazy bundles this one loads come through the activation bundle's loader (with the window's code cache).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loadApi = () => base.loadBundle('api', () => require('./api.js') as typeof import('./api/index'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loadFs = () => base.loadBundle('fs', () => require('./fs.js') as typeof import('./files/documentFs'));
  // While the session's first request waits for its answer, the formatters its rows will use are made (Intl costs ~10 ms the first time).
  const api = new ApiProvider(credentials, log, prepareFormats, loadApi);
  // Who the account is: its local label (per documents server and key, see Credentials.accountLabel). An answer on the
  // wire while the user signed out and in again with the same key is still this account's.
  const documents = new DocumentService(api, credentials, () => credentials.accountLabel());
  const account = new AccountService(api, credentials, documents, log);
  const usage = new UsageStatus(account, api, credentials);
  context.subscriptions.push(api, documents, account, usage);
  // Every account: the first is the one above (Set API Key… and the user settings); others are added with Add Account….
  const projects = new ProjectService(api);
  // An added account keeps its view state (choices, learned template names) under its own label; the first account
  // keeps the keys it always had.
  const stateOf = (a: Account): vscode.Memento => {
    if (a.primary) return context.globalState;
    const own = (key: string) => `${key}.${a.record?.label ?? a.label}`;
    const g = context.globalState;
    return {
      keys: () => g.keys(),
      get: <T>(key: string, fallback?: T) => (fallback === undefined ? g.get<T>(own(key)) : g.get<T>(own(key), fallback)),
      update: (key: string, value: unknown) => g.update(own(key), value),
    };
  };
  const signInOf = (a: Account): SignIn => (a.primary ? credentials : addedSignIn);
  // Each account's models, built from its own services when its view first shows it, and owned by the account: the
  // first account's servers are the user settings' (which may change), an added account's are its own.
  const modelsOf: AccountModelsOf = {
    documents: (a) =>
      documentsModelOf(a.documents, signInOf(a), stateOf(a), log, a.primary ? undefined : { server: () => a.documentsUrl, fromSettings: false }),
    projects: (a) => projectsModelOf(a.projects, signInOf(a), stateOf(a), log, a.primary),
  };
  const primary = new Account({ api, documents, usage: account, projects }, true, { documentsUrl: config.documentsBaseUrl, name: () => undefined }, false, modelsOf);
  const registry = new AccountRegistry(primary, credentials, context.secrets, context.globalState, log, modelsOf, prepareFormats, loadApi);
  context.subscriptions.push(primary, registry);
  credentials.alsoSignedIn = () => registry.added().length > 0;
  context.subscriptions.push(registry.onDidChange(() => void credentials.refreshContext()));
  accounts.connect({ account, registry });

  // The views: each account's tree shows that account's models (an added account's when its root is first shown).
  const viewOf = {
    documents: (a: Account) => viewOfDocuments(a, signInOf(a), stateOf(a), log),
    projects: (a: Account) => viewOfProjects(a, signInOf(a), stateOf(a), log),
  };
  const documentsTree = viewOf.documents(primary);
  const projectsTree = viewOf.projects(primary);
  const documentsView = new AccountRootsTree<DocNode>(registry, documentsTree, viewOf.documents);
  const projectsView = new AccountRootsTree<ProjectNode>(registry, projectsTree, viewOf.projects);
  const fs = new LazyDocumentFileSystem(documents, log, prompter, loadFs, registry);
  context.subscriptions.push(documentsTree, projectsTree, documentsView, projectsView, fs);
  documentsView.attach(base.documentsTreeView);
  projectsView.attach(base.projectsTreeView);
  // The views' own commands (their rows' and titles'), registered with the views: none can be reached before a
  // view asked for its rows, and this runs before the first row is given.
  context.subscriptions.push(...base.registerCommands(VIEW_COMMANDS));

  // The account whose document service serves the document at `uri` (the first, or an added one), if any.
  const ownerOf = (uri: vscode.Uri): Account | undefined => {
    const target = fs.documentOf(uri);
    return target && (target.documents === documents ? primary : registry.added().find((a) => a.documents === target.documents));
  };
  // The status bar follows the account of the active document.
  usage.followActiveEditor((uri) => {
    const owner = ownerOf(uri);
    return owner && { usage: owner.usage, name: owner.displayName, primary: owner.primary };
  }, { onDidChange: registry.onDidChange, isLive: (u) => registry.added().some((a) => a.usage === u) });
  // Whether the active document's text reached the server ("Saving…" / "Saved"), named by its account.
  const saveStatus = new SaveStatus(fs.onDidSaveState, (uri) => ownerOf(uri)?.displayName);
  context.subscriptions.push(saveStatus);
  // The Documents view selects the active document's row, as the Explorer does.
  context.subscriptions.push(
    followActiveDocument(base.documentsTreeView, documentsView, (uri) => {
      const target = fs.documentOf(uri);
      const owner = target && registry.shown().find((a) => a.documents === target.documents);
      return owner && { account: owner, id: target.id };
    }, log),
  );

  return {
    context, subscriptions: context.subscriptions, state: context.globalState, workspaceState: context.workspaceState, log, credentials, accounts, api, registry, documents, account, usage, prompter,
    documentsTree, projectsTree, documentsView, projectsView, fs, proposalContent, saveStatus, loadBundle: base.loadBundle,
  };
}
