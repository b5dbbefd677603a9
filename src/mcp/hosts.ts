/**
 * How an agent outside VS Code starts the MCP server for one account: the entry its host's configuration takes
 * (Claude Code, Cursor, Windsurf, or any host that reads the common `mcpServers` shape). The entry names the
 * installed server (dist/mcp.js) and the account's addresses; the key is never in it: the entry takes it from an
 * environment variable of the host's own (named per account), in the host's interpolation syntax, so the file holds
 * only the variable's name. No `vscode` import.
 */
import { ENV } from './env';

export const AGENT_HOSTS = ['claudeCode', 'cursor', 'windsurf', 'other'] as const;
export type AgentHost = (typeof AGENT_HOSTS)[number];

export interface HostInfo {
  readonly id: AgentHost;
  /** The product's name (none for another agent). */
  readonly name?: string;
  /** Its configuration of MCP servers for one project (relative to the project's folder), if it has one. */
  readonly projectFile?: string;
  /** Its configuration of MCP servers for every project, if it has one. */
  readonly userFile?: string;
  /** A reference to an environment variable of the host's, as its configuration expands it. */
  readonly variable: (name: string) => string;
}

export const HOSTS: Readonly<Record<AgentHost, HostInfo>> = {
  claudeCode: { id: 'claudeCode', name: 'Claude Code', projectFile: '.mcp.json', userFile: '~/.claude.json', variable: (name) => `\${${name}}` },
  cursor: { id: 'cursor', name: 'Cursor', projectFile: '.cursor/mcp.json', userFile: '~/.cursor/mcp.json', variable: (name) => `\${env:${name}}` },
  windsurf: { id: 'windsurf', name: 'Windsurf', userFile: '~/.codeium/windsurf/mcp_config.json', variable: (name) => `\${env:${name}}` },
  other: { id: 'other', variable: (name) => `\${${name}}` },
};

/** The account a configuration is for: its label (as its URIs and views name it) and its addresses. */
export interface AgentAccount {
  readonly label: string;
  readonly documentsUrl: string;
  readonly projectsUrl: string;
}

/** The label in capitals, digits and underscores (a variable name every shell and host takes). */
function upperSnake(label: string): string {
  const s = label
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return s || 'ACCOUNT';
}

/** The host's environment variable that holds this account's key: CONTENT_DOCS_KEY_<LABEL>. */
export function keyVariable(label: string): string {
  return `CONTENT_DOCS_KEY_${upperSnake(label)}`;
}

/** The server's name in the host (its tools show as this server's): content-docs-<label>. */
export function serverName(label: string): string {
  return `content-docs-${upperSnake(label).toLowerCase().replace(/_/g, '-')}`;
}

export interface AgentConfig {
  readonly host: HostInfo;
  readonly serverName: string;
  /** The host's environment variable the user sets to the account's key (never written by us). */
  readonly keyVariable: string;
  /** The `mcpServers` entry, ready to paste: JSON with the one server. */
  readonly json: string;
}

/**
 * The configuration of the server for one account in one host. `serverPath`: the installed dist/mcp.js; `node`: the
 * command that runs it (Node 18 or later on the host's PATH).
 */
export function agentConfig(hostId: AgentHost, account: AgentAccount, serverPath: string, node = 'node'): AgentConfig {
  const host = HOSTS[hostId];
  const name = serverName(account.label);
  const variable = keyVariable(account.label);
  const env: Record<string, string> = { [ENV.documentsUrl]: account.documentsUrl };
  if (account.projectsUrl !== account.documentsUrl) env[ENV.projectsUrl] = account.projectsUrl;
  env[ENV.key] = host.variable(variable);
  // No `type`: every host takes an entry with a `command` as a server on stdio.
  const entry = { command: node, args: [serverPath], env };
  const json = JSON.stringify({ mcpServers: { [name]: entry } }, null, 2);
  return { host, serverName: name, keyVariable: variable, json };
}
