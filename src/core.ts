import * as vscode from 'vscode';
import { Account } from './accounts/account';
import { AccountRegistry } from './accounts/registry';
import type { AccountsMenu } from './auth/accountsMenu';
import type { Credentials, SignIn } from './auth/credentials';
import { LazyDocumentFileSystem } from './fs/lazyFs';
import type { DocNode, ProjectNode } from './model/nodes';
import { ApiProvider } from './services/apiProvider';
import { AccountService } from './services/accountService';
import { DocumentService } from './services/documentService';
import { ProjectService } from './services/projectService';
import type { Services } from './services/services';
import { SaveStatus } from './status/save';
import { UsageStatus } from './status/usage';
import { AccountRootsTree, type AccountRootNode } from './tree/accountRoots';
import { DocumentsTreeProvider } from './tree/documentsTree';
import { prepareFormats } from './tree/format';
import { ProjectsTreeProvider } from './tree/projectsTree';
import { followActiveDocument } from './tree/revealActive';
import type { SwitchablePrompter } from './ui/prompter';
import * as config from './util/config';
import type { Logger } from './util/log';
import type { ProposalContent } from './write/proposalContent';

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
}

/** An added account always has its key (removing the account is its sign-out). */
const addedSignIn: SignIn = { hasKey: () => Promise.resolve(true), onDidChange: () => new vscode.Disposable(() => undefined) };

/**
 * dist/core.js: the services, the views' providers and models, and the file system's front. Loaded when a view
 * first asks for its rows, a command first runs or a document is first opened, not at activation: every window
 * activates the extension once startup finished, and most never open a view.
 */
export function createServices(base: CoreBase): Services {
  const { context, log, credentials, accounts, prompter, proposalContent } = base;
  // While the session's first request waits for its answer, the formatters its rows will use are made (Intl costs ~10 ms the first time).
  const api = new ApiProvider(credentials, log, prepareFormats);
  // Who the account is: its local label (per documents server and key, see Credentials.accountLabel). An answer on the
  // wire while the user signed out and in again with the same key is still this account's.
  const documents = new DocumentService(api, credentials, () => credentials.accountLabel());
  const account = new AccountService(api, credentials, documents, log);
  const usage = new UsageStatus(account, api, credentials);
  context.subscriptions.push(api, documents, account, usage);
  // Every account: the first is the one above (Set API Key… and the user settings); others are added with Add Account….
  const projects = new ProjectService(api);
  const primary = new Account({ api, documents, usage: account, projects }, true, { documentsUrl: config.documentsBaseUrl, name: () => undefined }, false);
  const registry = new AccountRegistry(primary, credentials, context.secrets, context.globalState, log, prepareFormats);
  context.subscriptions.push(primary, registry);
  credentials.alsoSignedIn = () => registry.added().length > 0;
  context.subscriptions.push(registry.onDidChange(() => void credentials.refreshContext()));
  accounts.connect({ account, registry });

  const documentsTree = new DocumentsTreeProvider(documents, credentials, context.globalState, log);
  const projectsTree = new ProjectsTreeProvider(projects, credentials, context.globalState, log);
  // An added account's trees are its own, built from its own services when its root is first shown. Each keeps its
  // view state (choices, learned template names) under its own label; the first account keeps the keys it always had.
  const stateOf = (a: Account): vscode.Memento => {
    const own = (key: string) => `${key}.${a.record?.label ?? a.label}`;
    const g = context.globalState;
    return {
      keys: () => g.keys(),
      get: <T>(key: string, fallback?: T) => (fallback === undefined ? g.get<T>(own(key)) : g.get<T>(own(key), fallback)),
      update: (key: string, value: unknown) => g.update(own(key), value),
    };
  };
  const documentsView = new AccountRootsTree<DocNode>(registry, documentsTree, (a) =>
    new DocumentsTreeProvider(a.documents, addedSignIn, stateOf(a), log, { server: () => a.documentsUrl, fromSettings: false }),
  );
  const projectsView = new AccountRootsTree<ProjectNode>(registry, projectsTree, (a) => new ProjectsTreeProvider(a.projects, addedSignIn, stateOf(a), log));
  const fs = new LazyDocumentFileSystem(documents, log, prompter, undefined, registry);
  context.subscriptions.push(documentsTree, projectsTree, documentsView, projectsView, fs);
  documentsView.attach(base.documentsTreeView);
  projectsView.attach(base.projectsTreeView);

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
    context, log, credentials, accounts, api, registry, documents, account, usage, prompter,
    documentsTree, projectsTree, documentsView, projectsView, fs, proposalContent, saveStatus,
  };
}
