/**
 * VS Code's own agents and the MCP server installed with the extension (dist/mcp.js): one server per account signed in,
 * offered through `vscode.lm.registerMcpServerDefinitionProvider` (VS Code 1.101 and later; on an older VS Code, or in a
 * browser, nothing is registered). A server is named as the Accounts menu names its account and carries the account's
 * addresses, never its key: VS Code keeps the servers it was offered. The key is read from that account's SecretStorage
 * entry only when VS Code starts the server (resolveMcpServerDefinition, in dist/commands.js: src/mcp/vscodeAgents.ts),
 * and only while that account is still signed in. Registered at activation, since VS Code asks for the servers at once:
 * they are listed from local state (the Accounts menu's list), with no request and without building the services.
 */
import vscode = require('vscode');
import type { AccountsMenu } from '../accounts/accountsMenu';
import { ENV } from './env';

/** The provider's id (package.json `contributes.mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = 'contentDocs.mcp';

/** vscode.McpStdioServerDefinition (VS Code 1.101): the extension builds against an older @types/vscode. */
export interface McpStdioDefinition {
  readonly label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
}

/** vscode.McpServerDefinitionProvider (VS Code 1.101), as far as it is used here. */
export interface McpServerProvider {
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<McpStdioDefinition[]>;
  resolveMcpServerDefinition(server: McpStdioDefinition, token: vscode.CancellationToken): Promise<McpStdioDefinition | undefined>;
}

type StdioDefinitionClass = new (label: string, command: string, args: string[], env: McpStdioDefinition['env'], version?: string) => McpStdioDefinition;

/** The extension's version (esbuild.mjs defines it): VS Code reads a server's tools again when it changes. */
declare const CONTENT_DOCS_VERSION: string;

export interface McpServerNeeds {
  /** The installed server (dist/mcp.js). */
  readonly serverPath: string;
  /** The accounts signed in (local, no request), and when their names or the set of them change. */
  readonly accounts: Pick<AccountsMenu, 'list' | 'onDidChangeSessions'>;
  /** The server offered for the account of `label`, with that account's key read now (src/mcp/vscodeAgents.ts). */
  resolve(server: McpStdioDefinition, label: string): Promise<McpStdioDefinition | undefined>;
}

/** An address that takes the key as the server does (src/mcp/config.ts): https://, or http:// to this machine only. */
export const TAKES_KEY = /^(https:|http:\/\/(localhost|127(\.\d+){3}|\[::1\])(:\d+)?(\/|$))/i;

/**
 * Registers the servers, if this VS Code offers MCP servers to its agents; returns the provider (the extension's
 * tests call it). The server runs on the extension host's own runtime (`process.execPath`, as Node in the desktop's
 * Electron: ELECTRON_RUN_AS_NODE, set when it starts), so no Node need be installed.
 */
export function registerMcpServers(subscriptions: vscode.Disposable[], needs: McpServerNeeds): McpServerProvider | undefined {
  const lm = vscode.lm as { registerMcpServerDefinitionProvider?: (id: string, provider: McpServerProvider) => vscode.Disposable };
  // Both came in VS Code 1.101; a browser's web worker could not start a process.
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof process === 'undefined') return undefined;
  const Definition = (vscode as unknown as { McpStdioServerDefinition: StdioDefinitionClass }).McpStdioServerDefinition;
  /** Each server offered: its account's label. VS Code resolves a server it was offered by its label (unique). */
  const accountOf = new WeakMap<McpStdioDefinition, string>();
  const provider: McpServerProvider = {
    // Its listeners take no argument (VS Code then asks for the servers again).
    onDidChangeMcpServerDefinitions: needs.accounts.onDidChangeSessions as vscode.Event<unknown> as vscode.Event<void>,
    async provideMcpServerDefinitions() {
      // An address that would send the key in clear text is not offered (the server would refuse it anyway).
      const accounts = (await needs.accounts.list()).filter((a) => TAKES_KEY.test(a.documentsUrl) && TAKES_KEY.test(a.projectsUrl));
      return accounts.map((a) => {
        // Two accounts of one name and host (two keys) that the menu's list does not tell apart yet (the services, once
        // built, name them so; see Account.displayName): the label after the name, as there. VS Code starts a server by its label.
        const label = accounts.filter((b) => b.name === a.name).length > 1 ? `${a.name} · ${a.label}` : a.name;
        const server = new Definition(
          label,
          process.execPath,
          [needs.serverPath],
          { [ENV.documentsUrl]: a.documentsUrl, [ENV.projectsUrl]: a.projectsUrl },
          CONTENT_DOCS_VERSION,
        );
        accountOf.set(server, a.label);
        return server;
      });
    },
    async resolveMcpServerDefinition(server) {
      const label = accountOf.get(server);
      // A server this provider did not offer (none such): not started.
      return label === undefined ? undefined : needs.resolve(server, label);
    },
  };
  subscriptions.push(lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
  return provider;
}
