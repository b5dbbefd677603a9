import * as vscode from 'vscode';
import { AUTH_PROVIDER, SCHEME, VIEW } from './constants';
import { Account } from './accounts/account';
import { AccountRegistry } from './accounts/registry';
import type { SignIn } from './auth/credentials';
import type { DocNode, ProjectNode } from './model/nodes';
import { AccountRootsTree } from './tree/accountRoots';
import * as config from './util/config';
import { AccountsMenu } from './auth/accountsMenu';
import { Credentials } from './auth/credentials';
import { loadCommandsBundle, registerCommands } from './commands/index';
import { LazyDocumentFileSystem } from './fs/lazyFs';
import { ApiProvider } from './services/apiProvider';
import { AccountService } from './services/accountService';
import { DocumentService } from './services/documentService';
import { ProjectService } from './services/projectService';
import { UsageStatus } from './status/usage';
import type { Services } from './services/services';
import { DocumentsTreeProvider } from './tree/documentsTree';
import { ProjectsTreeProvider } from './tree/projectsTree';
import { prepareFormats } from './tree/format';
import { SwitchablePrompter } from './ui/prompter';
import { Logger } from './util/log';
import { registerWriteUi } from './write/menu';
import { ProposalContent } from './write/proposalContent';

/** What activate() returns to the extension's own tests (only when VS Code runs it in test mode). */
export interface TestApi {
  readonly services: Services;
  /** Where this build runs: a browser's web worker has no `process` (the web tier checks it really ran there). */
  readonly runsInWebWorker: boolean;
}

/**
 * Builds the services, registers views, the file system and commands, sets the first context key,
 * and returns. No network, no awaiting the API: the API module itself loads on the first request.
 */
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const t0 = Date.now();
  const log = new Logger();
  context.subscriptions.push(log);
  const credentials = new Credentials(context.secrets, log);
  // While the session's first request waits for its answer, the formatters its rows will use are made (Intl costs ~10 ms the first time).
  const api = new ApiProvider(credentials, log, prepareFormats);
  // Who the account is: its local label (per documents server and key, see Credentials.accountLabel). An answer on the
  // wire while the user signed out and in again with the same key is still this account's.
  const documents = new DocumentService(api, credentials, () => credentials.accountLabel());
  const account = new AccountService(api, credentials, documents, log);
  const usage = new UsageStatus(account, api, credentials);
  const prompter = new SwitchablePrompter();
  context.subscriptions.push(credentials, api, documents, account, usage);
  // Every account: the first is the one above (Set API Key… and the user settings); others are added with Add Account….
  const projects = new ProjectService(api);
  const primary = new Account({ api, documents, usage: account, projects }, true, { documentsUrl: config.documentsBaseUrl, name: () => undefined }, false);
  const registry = new AccountRegistry(primary, credentials, context.secrets, context.globalState, log, prepareFormats);
  context.subscriptions.push(primary, registry);
  credentials.alsoSignedIn = () => registry.added().length > 0;
  context.subscriptions.push(registry.onDidChange(() => void credentials.refreshContext()));
  // The account in VS Code's Accounts menu (local: SecretStorage and globalState; its Sign Out is ours).
  const accounts = new AccountsMenu(credentials, account, api, context.globalState, log, registry);
  context.subscriptions.push(
    accounts,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER.id, AUTH_PROVIDER.label, accounts, { supportsMultipleAccounts: true }),
  );

  const documentsTree = new DocumentsTreeProvider(documents, credentials, context.globalState, log);
  const projectsTree = new ProjectsTreeProvider(projects, credentials, context.globalState, log);
  // An added account's trees are its own, built from its own services when its root is first shown.
  const documentsView = new AccountRootsTree<DocNode>(registry, documentsTree, (a) =>
    new DocumentsTreeProvider(a.documents, addedSignIn, context.globalState, log, { server: () => a.documentsUrl, fromSettings: false }),
  );
  const projectsView = new AccountRootsTree<ProjectNode>(registry, projectsTree, (a) => new ProjectsTreeProvider(a.projects, addedSignIn, context.globalState, log));
  const fs = new LazyDocumentFileSystem(documents, log, prompter, undefined, registry);
  context.subscriptions.push(documentsTree, projectsTree, documentsView, projectsView, fs);

  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(SCHEME, fs, { isCaseSensitive: true }),
    documentsView.attach(vscode.window.createTreeView(VIEW.documents, { treeDataProvider: documentsView, showCollapseAll: true })),
    projectsView.attach(vscode.window.createTreeView(VIEW.projects, { treeDataProvider: projectsView })),
  );

  // The status bar follows the account of the active document.
  usage.followActiveEditor((uri) => {
    const target = fs.documentOf(uri);
    const owner = target && (target.documents === documents ? primary : registry.added().find((a) => a.documents === target.documents));
    return owner && { usage: owner.usage, name: owner.displayName, primary: owner.primary };
  });

  const proposalContent = new ProposalContent((uri) => loadCommandsBundle().goneText(uri));
  context.subscriptions.push(proposalContent);

  const services: Services = {
    context, log, credentials, accounts, api, registry, documents, account, usage, prompter,
    documentsTree, projectsTree, documentsView, projectsView, fs, proposalContent,
  };
  context.subscriptions.push(...registerCommands(services), ...registerWriteUi(credentials));

  // Local only: reads SecretStorage to show either the welcome view or the trees.
  void credentials.refreshContext();
  log.info(`[activate] ready in ${Date.now() - t0} ms`);

  return context.extensionMode === vscode.ExtensionMode.Test ? { services, runsInWebWorker: typeof process === 'undefined' } : undefined;
}

/** An added account always has its key (removing the account is its sign-out). */
const addedSignIn: SignIn = { hasKey: () => Promise.resolve(true), onDidChange: () => new vscode.Disposable(() => undefined) };

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
