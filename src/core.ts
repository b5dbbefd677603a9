import vscode = require('vscode');
import type { Account, AccountModelsOf } from './accounts/account';
import { AccountRegistry } from './accounts/registry';
import { syncedKeys } from './accounts/records';
import type { AccountsMenu } from './accounts/accountsMenu';
import type { LoadBundle } from './util/loadBundle';
import type { RegisterCommands } from './util/commandTypes';
import { CTX, VIEW_COMMANDS } from './constants';
import type { Credentials, SignIn } from './accounts/credentials';
import { LazyDocumentFileSystem } from './files/lazyFs';
import type { DocNode, ProjectNode } from './model/nodes';
import { ApiLibrary } from './accounts/apiProvider';
import { SaveStatus } from './files/saveStatus';
import { DocumentDecorations } from './files/decorations';
import { GoneAccountSaves } from './files/goneAccountSaves';
import { HtmlDocumentsWrap } from './files/htmlWrap';
import { UsageStatus } from './usage/usageStatus';
import { AccountRootsTree, type AccountRootNode } from './tree/accountRoots';
import { DocumentsTreeProvider } from './documents/documentsTree';
import { documentsModelOf } from './documents/modelOfAccount';
import { prepareFormats } from './tree/format';
import { ProjectsTreeProvider } from './projects/projectsTree';
import { projectsModelOf } from './projects/modelOfAccount';
import { followActiveDocument } from './documents/revealActive';
import { DocumentsDragAndDrop } from './documents/dragAndDrop';
import type { SwitchablePrompter } from './ui/prompter';
import type { Logger } from './util/log';
import type { ProposalContent } from './write/proposalContent';
import type { GlobalMemento } from './util/serialMemento';


/**
 * What the core builds (dist/core.js): the accounts, their views and the file system. No feature takes it or imports
 * it: each declares what its commands take (DocumentsNeeds, FilesNeeds, …), which this object satisfies, and the
 * compiler holds it to that. There is no account here: every read or change of a document, project or plan goes
 * through the account its user chose (see Account; test/unit/accountRequired.test.ts).
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
  /** The accounts in VS Code's Accounts menu (an authentication provider). */
  readonly accounts: AccountsMenu;
  /** The HTTP client's bundle and what needs no account (checking an address or a candidate key). */
  readonly library: ApiLibrary;
  /** Every account signed in. */
  readonly registry: AccountRegistry;
  readonly usage: UsageStatus;
  /** Whether the active document's text reached the server (the status bar's "Saving…" / "Saved"). */
  readonly saveStatus: SaveStatus;
  /** The badges and tooltips of `content-docs:` files: favorite, deleted on the server, not saved, their account. */
  readonly decorations: DocumentDecorations;
  readonly prompter: SwitchablePrompter;
  /** The Documents view: every account's tree (a root per account when there are several). */
  readonly documentsView: AccountRootsTree<DocNode>;
  readonly projectsView: AccountRootsTree<ProjectNode>;
  readonly fs: LazyDocumentFileSystem;
  /** The Documents view's drag and drop, and the drop of its documents into an editor. */
  readonly documentsDragAndDrop: DocumentsDragAndDrop;
  /** The text of proposal documents (the writing actions' diffs), registered at activation. */
  readonly proposalContent: ProposalContent;
  /** Loads a lazy bundle with the window's code cache (src/activation/codeCache.ts, in the activation bundle). */
  readonly loadBundle: LoadBundle;
  /** The globalState keys registered for Settings Sync now (see syncedKeys): they follow the added accounts. */
  readonly syncedKeys: readonly string[];
}

/** What activation made (dist/extension.js) and hands to the services when they are first needed. */
export interface CoreBase {
  readonly context: vscode.ExtensionContext;
  /** The extension's globalState, written one change at a time (see SerialMemento): the only way it is written. */
  readonly globalState: GlobalMemento;
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

/** An account is signed in for its whole life: another key is another account, and removing it disposes its views. */
const SIGNED_IN: SignIn = { hasKey: () => Promise.resolve(true), onDidChange: () => new vscode.Disposable(() => undefined) };

/**
 * An account's view state (its choices, the template names its server taught) in globalState under `<key>.<label>`:
 * each account keeps its own, and removing the account removes it (see AccountRegistry).
 */
function stateOf(account: Account, g: vscode.Memento): vscode.Memento {
  const own = (key: string) => `${key}.${account.label}`;
  return {
    keys: () => g.keys(),
    get: <T>(key: string, fallback?: T) => (fallback === undefined ? g.get<T>(own(key)) : g.get<T>(own(key), fallback)),
    update: (key: string, value: unknown) => g.update(own(key), value),
  };
}

/**
 * dist/core.js: the accounts, the views' providers and models, and the file system's front. Loaded when a view
 * first asks for its rows, a command first runs or a document is first opened, not at activation: every window
 * activates the extension once startup finished, and most never open a view.
 */
export function createServices(base: CoreBase): Core {
  const { context, globalState, log, credentials, accounts, prompter, proposalContent } = base;
  // The lazy bundles this one loads come through the activation bundle's loader (with the window's code cache).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loadApi = () => base.loadBundle('api', () => require('./api.js') as typeof import('./api/index'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loadFs = () => base.loadBundle('fs', () => require('./fs.js') as typeof import('./files/documentFs'));
  // While the session's first request waits for its answer, the formatters its rows will use are made (Intl costs ~10 ms the first time).
  const library = new ApiLibrary(log, prepareFormats, loadApi);
  context.subscriptions.push(library);
  // Each account's models, built from its own services when its view first shows it, and owned by the account.
  const modelsOf: AccountModelsOf = {
    documents: (a) => documentsModelOf(a, stateOf(a, globalState), log),
    projects: (a) => projectsModelOf(a.projects, stateOf(a, globalState), log),
  };
  // Every account, built alike: the one of Set API Key… and the user settings, and those added with Add Account….
  const registry = new AccountRegistry(credentials, context.secrets, globalState, log, { library, modelsOf });
  context.subscriptions.push(registry);
  credentials.alsoSignedIn = () => registry.all().length > 0;
  credentials.settled = () => registry.settled();
  context.subscriptions.push(registry.onDidChange(() => void credentials.refreshContext()));
  // "Enter API Key of an Added Account…" is in the palette only while an added account has no key on this machine.
  const keyMissing = async () => {
    const missing = await Promise.all(registry.added().map((a) => a.hasKey().then((has) => !has)));
    await vscode.commands.executeCommand('setContext', CTX.accountKeyMissing, missing.includes(true));
  };
  void keyMissing();
  context.subscriptions.push(registry.onDidChange(() => void keyMissing()));
  // Settings Sync carries each added account's view choices: their keys are registered as accounts come and go.
  let synced: readonly string[] = [];
  const registerSynced = () => {
    const keys = syncedKeys(registry.added().map((a) => a.label));
    if (keys.join('\n') === synced.join('\n')) return;
    synced = keys;
    globalState.setKeysForSync(keys);
  };
  registerSynced();
  context.subscriptions.push(registry.onDidChange(registerSynced));
  accounts.connect(registry);

  // The views: each account's tree shows that account's models (built when the view first shows the account).
  const documentsView = new AccountRootsTree<DocNode>(registry, (a) => {
    const { model, link } = a.documentsModel;
    return new DocumentsTreeProvider(model, link, SIGNED_IN, stateOf(a, globalState), log);
  });
  const projectsView = new AccountRootsTree<ProjectNode>(registry, (a) => {
    const { model, link } = a.projectsModel;
    return new ProjectsTreeProvider(model, link, SIGNED_IN, stateOf(a, globalState), log);
  });
  const fs = new LazyDocumentFileSystem(registry, log, prompter, context.workspaceState, loadFs);
  context.subscriptions.push(documentsView, projectsView, fs);
  documentsView.attach(base.documentsTreeView);
  projectsView.attach(base.projectsTreeView);
  // The views' own commands (their rows' and titles'), registered with the views: none can be reached before a
  // view asked for its rows, and this runs before the first row is given.
  context.subscriptions.push(...base.registerCommands(VIEW_COMMANDS));

  // The status bar follows the account of the active document, else the account last worked in.
  const usage = new UsageStatus(registry, (uri) => fs.documentOf(uri)?.account);
  // Whether the active document's text reached the server ("Saving…" / "Saved"), named by its account.
  const saveStatus = new SaveStatus(fs.onDidSaveState, (uri) => fs.documentOf(uri)?.account.displayName);
  // Favorite, deleted on the server, not saved and (with several accounts) the account, on tabs and in the Explorer.
  const decorations = new DocumentDecorations({
    registry,
    documentOf: (uri) => fs.documentOf(uri),
    urisOf: (label, id) => fs.urisOf(label, id),
    saves: fs.onDidSaveState,
  });
  // A save refused because the document's account went: said in the writer's words, with how to keep the text.
  context.subscriptions.push(usage, saveStatus, decorations, new GoneAccountSaves(registry, log));
  // HTML documents (one long line of markup) shown wrapped, as Markdown ones are.
  context.subscriptions.push(new HtmlDocumentsWrap());
  // The Documents view selects the active document's row, as the Explorer does.
  context.subscriptions.push(followActiveDocument(base.documentsTreeView, documentsView, (uri) => fs.documentOf(uri), log));

  const core: Core = {
    context, subscriptions: context.subscriptions, state: globalState, workspaceState: context.workspaceState, log, credentials, accounts, library, registry, usage, prompter,
    documentsView, projectsView, fs, proposalContent, saveStatus, decorations, loadBundle: base.loadBundle,
    documentsDragAndDrop: new DocumentsDragAndDrop(() => core),
    get syncedKeys() {
      return synced;
    },
  };
  // Documents dragged from the view into a text editor with Shift held (none can be dragged before the view is built).
  context.subscriptions.push(vscode.languages.registerDocumentDropEditProvider('*', core.documentsDragAndDrop));
  return core;
}
