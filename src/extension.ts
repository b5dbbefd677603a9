import vscode = require('vscode');
import { AUTH_PROVIDER, SCHEME, STATE, VIEW } from './constants';
import { ForwardingFileSystem, ForwardingTree } from './activation/forwarders';
import { registerTools } from './agents/tools/register';
import { registerChatParticipant } from './agents/chat/participant';
import { parseRecords } from './accounts/records';
import { AccountsMenu } from './accounts/accountsMenu';
import { Credentials } from './accounts/credentials';
import { activationCommands, commandRegistrar, loadCommandsBundle } from './commands/index';
import type { DocNode, ProjectNode } from './model/nodes';
import type { Core } from './core';
import type { AccountRootNode } from './tree/accountRoots';
import { SwitchablePrompter } from './ui/prompter';
import { Logger } from './util/log';
import { registerWriteUi } from './write/menu';
import { ProposalContent } from './write/proposalContent';

type CoreModule = typeof import('./core');

/** What activate() returns to the extension's own tests (only when VS Code runs it in test mode). */
export interface TestApi {
  /** The services; reading them builds them (loads dist/core.js) as a view, a command or a document would. */
  readonly services: Core;
  /** Where this build runs: a browser's web worker has no `process` (the web tier checks it really ran there). */
  readonly runsInWebWorker: boolean;
  /** The language-model tools as registered, by name (a test calls their prepareInvocation). */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
}

/** dist/core.js: the services, the views' providers and models (loaded when first needed). */
function loadCore(): CoreModule {
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./core.js') as CoreModule;
}

/**
 * Registers the views, the file system, the commands, the writing Code Actions, the @content chat participant and
 * the accounts in VS Code's Accounts menu, and sets the first context keys; nothing else. Every window runs this once
 * startup finished, so it loads only this bundle: the services, the views' providers and models (dist/core.js) are built when a view first
 * asks for its rows, a command first runs or a document is first opened. No network, no awaiting the API.
 */
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const t0 = Date.now();
  /** How long activate() took, told in the log when the services are built (no line, no log channel, at activation). */
  let activationMs = -1;
  const log = new Logger();
  context.subscriptions.push(log);
  const credentials = new Credentials(context.secrets, log);
  const prompter = new SwitchablePrompter();
  const proposalContent = new ProposalContent((uri) => loadCommandsBundle().goneText(uri));
  context.subscriptions.push(credentials, proposalContent);
  // An account added with "Add Account…" signs the views in too. Until the services are built (their registry then
  // answers this), the added accounts are the ones globalState keeps.
  credentials.alsoSignedIn = () => parseRecords(context.globalState.get(STATE.accounts)).length > 0;

  let services: Core | undefined;
  const core = (): Core => {
    if (!services) {
      const t1 = Date.now();
      services = loadCore().createServices({ context, log, credentials, accounts, prompter, proposalContent, documentsTreeView, projectsTreeView, registerCommands });
      documentsForward.connect(services.documentsView);
      projectsForward.connect(services.projectsView);
      fsForward.connect(services.fs);
      log.debug(`[activate] activation took ${activationMs} ms; services ready in ${Date.now() - t1} ms`);
    }
    return services;
  };

  // The accounts in VS Code's Accounts menu, which VS Code asks for sessions from startup on: registered now, and
  // local (SecretStorage and globalState; its Sign Out is ours). It hears of the accounts from the services once built.
  const accounts = new AccountsMenu(credentials, context.globalState, log, core);
  context.subscriptions.push(
    accounts,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER.id, AUTH_PROVIDER.label, accounts, { supportsMultipleAccounts: true }),
  );

  const registerCommands = commandRegistrar(log, core);
  const tools = new Map<string, vscode.LanguageModelTool<unknown>>();
  const documentsForward = new ForwardingTree<DocNode | AccountRootNode>(core);
  const projectsForward = new ForwardingTree<ProjectNode | AccountRootNode>(core);
  const fsForward = new ForwardingFileSystem(core);
  const documentsTreeView = vscode.window.createTreeView(VIEW.documents, { treeDataProvider: documentsForward });
  const projectsTreeView = vscode.window.createTreeView(VIEW.projects, { treeDataProvider: projectsForward });
  context.subscriptions.push(
    documentsForward,
    projectsForward,
    fsForward,
    documentsTreeView,
    projectsTreeView,
    vscode.workspace.registerFileSystemProvider(SCHEME, fsForward, { isCaseSensitive: true }),
    ...registerCommands(activationCommands()),
    ...registerWriteUi(credentials),
    ...registerTools(context.extension.packageJSON as object, core, tools),
    ...registerChatParticipant(context.extensionUri, core),
  );

  // Local only: reads SecretStorage to show either the welcome view or the trees.
  void credentials.refreshContext();
  activationMs = Date.now() - t0;

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    get services() {
      return core();
    },
    runsInWebWorker: typeof process === 'undefined',
    tools,
  };
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
