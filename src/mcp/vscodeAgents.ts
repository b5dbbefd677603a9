/**
 * A server offered to VS Code's own agents (src/mcp/register.ts) as VS Code starts it: in the account of the label it
 * was offered for, if that account is still signed in, with its addresses and its key read from SecretStorage now.
 * An account signed out, removed, or whose key or server changed since is not started: nothing is sent, and no other
 * account's key takes its place. In the commands' bundle (dist/commands.js): loaded when a server is first started.
 */
import vscode = require('vscode');
import type { AccountRegistry } from '../accounts/registry';
import { ENV } from './env';
import { TAKES_KEY, type McpStdioDefinition } from './register';

type StdioDefinitionClass = new (label: string, command: string, args: string[], env: McpStdioDefinition['env'], version?: string) => McpStdioDefinition;

export async function resolveMcpServer(s: { readonly registry: AccountRegistry }, server: McpStdioDefinition, label: string): Promise<McpStdioDefinition | undefined> {
  await s.registry.settled();
  const account = s.registry.byLabel(label);
  const key = await account?.getKey().catch(() => undefined);
  if (!account || !s.registry.isLive(account)) {
    throw new Error(
      vscode.l10n.t(
        'The account {0} is no longer signed in here (signed out, removed, or its API key or server changed since): its MCP server was not started, and nothing was sent.',
        server.label,
      ),
    );
  }
  if (!key) {
    throw new Error(
      vscode.l10n.t(
        'The API key of {0} is not on this machine: run "Content Docs: Enter API Key of an Added Account…" first. Its MCP server was not started.',
        account.displayName,
      ),
    );
  }
  // Its addresses now (the same label is the same documents server and key); one that would send the key in clear text, never.
  if (!TAKES_KEY.test(account.documentsUrl) || !TAKES_KEY.test(account.projectsUrl)) return undefined;
  const Definition = (vscode as unknown as { McpStdioServerDefinition: StdioDefinitionClass }).McpStdioServerDefinition;
  // The extension host's runtime runs as Node (the desktop's Electron; Node itself ignores it).
  const env = { ...server.env, ELECTRON_RUN_AS_NODE: '1', [ENV.documentsUrl]: account.documentsUrl, [ENV.projectsUrl]: account.projectsUrl, [ENV.key]: key };
  return new Definition(server.label, server.command, server.args, env, server.version);
}
