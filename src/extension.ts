import vscode = require('vscode');
import { STATE } from './constants';
import { registerPromptFiles, registerViews, type RegisteredViews } from './activation/forwarders';
import { loadBundle, startCodeCache, type CodeCache } from './activation/codeCache';
import { registerTools } from './agents/tools/register';
import { registerChatParticipant } from './agents/chat/participant';
import { parseRecords, syncedKeys } from './accounts/records';
import { registerAccountsMenu } from './accounts/accountsMenu';
import { Credentials } from './accounts/credentials';
import { activationCommands, commandRegistrar, loadCommandsBundle } from './commands/index';
import type { Core } from './core';
import { SwitchablePrompter } from './ui/prompter';
import { Logger } from './util/log';
import { runCommand } from './util/run';
import { registerWriteUi } from './write/menu';
import { ProposalContent } from './write/proposalContent';
import { useVscodeL10n } from './util/l10n';
import { registerMcpServers, type McpServerProvider } from './mcp/register';
import { SerialMemento } from './util/serialMemento';

type CoreModule = typeof import('./core');

/** What activate() returns to the extension's own tests (only when VS Code runs it in test mode). */
export interface TestApi {
  /** The services; reading them builds them (loads dist/core.js) as a view, a command or a document would. */
  readonly services: Core;
  /** Where this build runs: a browser's web worker has no `process` (the web tier checks it really ran there). */
  readonly runsInWebWorker: boolean;
  /** The language-model tools as registered, by name (a test calls their prepareInvocation). */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
  /** The lazy bundles' loader: what it loaded, with or without a code cache, and its writes (flush). */
  readonly codeCache: Pick<CodeCache, 'loads' | 'flush'>;
  /** The handler of `vscode://content-docs.content-docs/…` links, as registered. */
  readonly uriHandler: vscode.UriHandler;
  /** The MCP servers offered to VS Code's own agents, as registered (none before VS Code 1.101). */
  readonly mcpServers: McpServerProvider | undefined;
  /** The key of Set API Key… as activation made it (usable before the services are built). */
  readonly credentials: Credentials;
  /** The views' providers as VS Code asks them: the first ask builds the services, as in a window's first open. */
  readonly views: RegisteredViews['providers'];
}

/** dist/core.js: the services, the views' providers and models (loaded when first needed). */
function loadCore(): CoreModule {
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return loadBundle('core', () => require('./core.js') as CoreModule);
}

/**
 * Registers the views, the file system, the commands, the writing Code Actions, the @content chat participant and
 * the accounts in VS Code's Accounts menu, and sets the first context keys; nothing else. Every window runs this once
 * startup finished, so it loads only this bundle: the services, the views' providers and models (dist/core.js) are built when a view first
 * asks for its rows, a command first runs or a document is first opened. No network, no awaiting the API.
 */
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const t0 = Date.now();
  // The vscode-free code (the API's error texts, the usage figures) translates with VS Code's bundle from now on.
  const bundle = vscode.l10n;
  useVscodeL10n({ t: (message, ...args) => bundle.t(message, ...(args as string[])), language: vscode.env.language });
  /** How long activate() took, told in the log when the services are built (no line, no log channel, at activation). */
  let activationMs = -1;
  const log = new Logger();
  context.subscriptions.push(log);
  // The lazy bundles load with a code cache in the extension's global storage (nothing is read or written before one loads).
  const storage = context.globalStorageUri;
  const codeCache = startCodeCache(storage.scheme === 'file' ? storage.fsPath : undefined, log);
  context.subscriptions.push(codeCache);
  // globalState written one change at a time: VS Code's Memento can lose a write made within a round trip of another.
  const globalState = new SerialMemento(context.globalState);
  activeGlobalState = globalState;
  const credentials = new Credentials(context.secrets, log);
  const prompter = new SwitchablePrompter(() => loadCommandsBundle());
  const proposalContent = new ProposalContent((uri) => loadCommandsBundle().goneText(uri));
  context.subscriptions.push(credentials, proposalContent);
  // An account added with "Add Account…" signs the views in too. Until the services are built (their registry then
  // answers this), the added accounts are the ones globalState keeps.
  const records = () => parseRecords(globalState.get(STATE.accounts));
  credentials.alsoSignedIn = () => records().length > 0;
  // Settings Sync carries the added accounts and their view choices, never a key (the services keep this up to date).
  globalState.setKeysForSync(syncedKeys(records().map((r) => r.label)));

  let services: Core | undefined;
  const core = (): Core => {
    if (!services) {
      const t1 = Date.now();
      const { documentsTreeView, projectsTreeView } = views;
      services = loadCore().createServices({ context, globalState, log, credentials, accounts, prompter, proposalContent, documentsTreeView, projectsTreeView, registerCommands, loadBundle });
      views.connect(services);
      log.debug(`[activate] activation took ${activationMs} ms; services ready in ${Date.now() - t1} ms`);
    }
    return services;
  };

  // Each feature registers what VS Code must know from the start; what it does loads when first needed.
  const accounts = registerAccountsMenu(context.subscriptions, credentials, globalState, log, core);
  const views = registerViews(context.subscriptions, core);
  registerPromptFiles(context.subscriptions, () => loadCommandsBundle().promptFiles(context.workspaceState));
  const registerCommands = commandRegistrar(log, core);
  const tools = new Map<string, vscode.LanguageModelTool<unknown>>();
  // A link to a document (src/documents/links.ts): its code loads when a link is opened.
  const uriHandler: vscode.UriHandler = {
    handleUri: async (uri) => {
      await runCommand(log, { action: vscode.l10n.t("Couldn't open the link") }, () => loadCommandsBundle().openLink(core(), uri));
    },
  };
  context.subscriptions.push(
    ...registerCommands(activationCommands()),
    ...registerWriteUi(credentials),
    ...registerTools(context.extension.packageJSON as object, core, tools, loadBundle),
    ...registerChatParticipant(context.extensionUri, core, () => loadCommandsBundle().answerChat),
    vscode.window.registerUriHandler(uriHandler),
  );

  // VS Code's own agents: one MCP server per account, listed as the Accounts menu lists them; a server's key is read
  // (and the commands' bundle loaded) when VS Code starts it.
  const mcpServers = registerMcpServers(context.subscriptions, {
    serverPath: context.asAbsolutePath('dist/mcp.js'),
    accounts,
    resolve: (server, label) => loadCommandsBundle().resolveMcpServer(core(), server, label),
  });

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
    codeCache,
    uriHandler,
    mcpServers,
    credentials,
    views: views.providers,
  };
}

/** The globalState of the activation (its writes may still wait in its queue when the extension is deactivated). */
let activeGlobalState: SerialMemento | undefined;

export function deactivate(): Promise<void> | undefined {
  // Everything else is owned by context.subscriptions. The globalState writes still queued are handed to VS Code
  // before deactivation is done: the window closing or reloading would lose them.
  return activeGlobalState?.stored();
}
