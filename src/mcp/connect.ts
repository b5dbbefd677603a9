/**
 * Connect an Outside Agent (MCP)…: the configuration with which an agent outside VS Code (Claude Code, Cursor,
 * Windsurf…) starts the MCP server installed with the extension (dist/mcp.js) for one account, chosen explicitly
 * (the row's, else picked even when it is the only one: the agent will work in that account). The configuration holds
 * the server's path and the account's addresses, and takes the key from an environment variable of the host's
 * (./hosts.ts): the key is never written to it, to the clipboard, to a URI or to the log. After the user agreed to what
 * it holds, it is copied and shown in an untitled editor, with where it goes. In the commands' bundle: nothing loads
 * at activation.
 */
import vscode = require('vscode');
import type { Account } from '../accounts/account';
import { goneWhileChosen, useAccount, type AccountPickNeeds } from '../accounts/pick';
import { EXTENSION_ID } from '../constants';
import { AGENT_HOSTS, HOSTS, agentConfig, type AgentConfig, type AgentHost, type HostInfo } from './hosts';

/** What a caller (a test) may pass instead of answering the questions: the account's label and the agent. */
export interface ConnectArgs {
  readonly account?: string;
  readonly agent?: AgentHost;
}

export interface ConnectOutcome {
  /** The account's label. */
  readonly account: string;
  readonly config: AgentConfig;
  /** The untitled editor that shows the configuration. */
  readonly document: vscode.TextDocument;
}

/** The host's product name, or words for another agent. */
function nameOf(host: HostInfo): string {
  return host.name ?? vscode.l10n.t('the agent');
}

/** Where the host's configuration goes. */
function whereOf(host: HostInfo): string {
  if (host.projectFile && host.userFile) {
    return vscode.l10n.t('"mcpServers" of {0} in the project (or of {1} for every project)', host.projectFile, host.userFile);
  }
  if (host.userFile) return vscode.l10n.t('"mcpServers" of {0}', host.userFile);
  return vscode.l10n.t('the agent\'s configuration of MCP servers (most take this "mcpServers" shape; its documentation says how it passes an environment variable to a server)');
}

function isArgs(arg: unknown): arg is ConnectArgs {
  return typeof arg === 'object' && arg !== null && ('account' in arg || 'agent' in arg) && !('kind' in arg);
}

async function chooseAccount(s: AccountPickNeeds, arg: unknown): Promise<Account | undefined> {
  if (isArgs(arg) && arg.account !== undefined) {
    const named = s.registry.byLabel(arg.account);
    if (!named) throw new Error(vscode.l10n.t('There is no account {0} signed in here: nothing was set up.', JSON.stringify(arg.account)));
    return named;
  }
  const row = s.documentsView.accountOf(arg) ?? s.projectsView.accountOf(arg);
  if (row) return row;
  const all = s.registry.all();
  if (all.length === 0) throw new Error(vscode.l10n.t('You are not signed in to Content Docs: run "Content Docs: Set API Key…" first.'));
  // Asked even for the only account: the agent will read and change this account's documents.
  const items = all.map((a) => ({ label: `$(account) ${a.displayName}`, description: a.documentsUrl, account: a, name: a.displayName }));
  const picked = await s.prompter.pick(items, {
    title: vscode.l10n.t('Connect an Outside Agent: Account'),
    placeHolder: vscode.l10n.t('Which account will the agent work in?'),
  });
  if (!picked) return undefined;
  if (!s.registry.isLive(picked.account)) throw goneWhileChosen(picked.name);
  return picked.account;
}

async function chooseHost(s: AccountPickNeeds, arg: unknown): Promise<AgentHost | undefined> {
  if (isArgs(arg) && arg.agent !== undefined) {
    if (!AGENT_HOSTS.includes(arg.agent)) throw new Error(vscode.l10n.t('There is no agent {0} to set up.', JSON.stringify(arg.agent)));
    return arg.agent;
  }
  const items = AGENT_HOSTS.map((id) => ({
    label: HOSTS[id].name ?? vscode.l10n.t('Another agent'),
    description: whereOf(HOSTS[id]),
    id,
  }));
  const picked = await s.prompter.pick(items, { title: vscode.l10n.t('Connect an Outside Agent: Agent'), placeHolder: vscode.l10n.t('Which agent?') });
  return picked?.id;
}

/** The installed server: dist/mcp.js of this extension's folder. */
function serverPath(): string {
  const self = vscode.extensions.getExtension(EXTENSION_ID);
  if (!self) throw new Error(vscode.l10n.t('The Content Docs extension could not find its own folder: nothing was set up.'));
  return vscode.Uri.joinPath(self.extensionUri, 'dist', 'mcp.js').fsPath;
}

export async function connectAgent(s: AccountPickNeeds, arg?: unknown): Promise<ConnectOutcome | undefined> {
  const account = await chooseAccount(s, arg);
  if (!account) return undefined;
  const hostId = await chooseHost(s, arg);
  if (!hostId) return undefined;
  if (!s.registry.isLive(account)) throw goneWhileChosen(account.displayName);
  const config = agentConfig(hostId, account, serverPath());
  const host = nameOf(config.host);
  const go = vscode.l10n.t('Copy and Show');
  const answer = isArgs(arg)
    ? go
    : await s.prompter.ask(
        vscode.l10n.t('Connect {0} to {1}?', host, account.displayName),
        vscode.l10n.t(
          'The configuration starts the Content Docs MCP server installed with this extension ({0}) for {1}. It does not hold the API key: {2} passes it from the environment variable {3}, which you set to the key of {4} where {2} starts. Content Docs writes the key to no file.',
          config.serverName,
          account.documentsUrl,
          host,
          config.keyVariable,
          account.displayName,
        ),
        [go],
      );
  if (answer !== go) return undefined;
  await useAccount(s, account);
  await vscode.env.clipboard.writeText(config.json);
  const document = await vscode.workspace.openTextDocument({ language: 'json', content: `${config.json}\n` });
  await vscode.window.showTextDocument(document, { preview: false });
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'The configuration of {0} is copied: paste it into {1}. Then set {2} to the API key of {3} in the environment {4} starts from, and restart {4}. After an update of Content Docs, run this again (the server\'s path changes).',
      config.serverName,
      whereOf(config.host),
      config.keyVariable,
      account.displayName,
      host,
    ),
  );
  return { account: account.label, config, document };
}
