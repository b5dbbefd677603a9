/**
 * Connect an Outside Agent (MCP)… inside a real VS Code: the account asked for even when it is the only one, the
 * agent, a confirmation that says the key stays out of the configuration and where the agent takes it from; then the
 * configuration copied and shown, naming the installed server and the account's addresses — and the key in none of
 * the configuration, the clipboard, the editor, the questions or the log. Nothing is sent to the server.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { CMD, EXTENSION_ID } from '../../src/constants';
import type { ConnectOutcome } from '../../src/mcp/connect';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { besidesTheWindow, RecordingPrompter, questionText, services, useSandbox } from './reliabilityKit';

interface Entry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

describe('Connect an Outside Agent (MCP)…: the configuration an agent starts the server with, never the key', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let s: TestServices;
  let previousPrompter: TestServices['prompter']['current'];
  const prompter = new RecordingPrompter();

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    // The views closed: a view left open by an earlier suite reads its rows again when the account changes, and those
    // reads are not the command's.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await useSandbox(s, sandbox);
    previousPrompter = s.prompter.current;
    s.prompter.current = prompter;
  });

  after(async () => {
    s.prompter.current = previousPrompter;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sandbox.close();
  });

  beforeEach(() => {
    prompter.reset();
    sandbox.resetRequests();
  });

  it('asks which account (even the only one) and which agent, says where the key comes from, then copies and shows the configuration without it', async () => {
    prompter.answer = (q, items) => (q.title.endsWith('Account') ? items?.[0]?.label : q.title.endsWith('Agent') ? 'Cursor' : undefined);
    prompter.choices = ['Copy and Show'];
    const out = await vscode.commands.executeCommand<ConnectOutcome | undefined>(CMD.connectAgent);
    assert.ok(out, 'the command ran to its end');

    const [account, agent, confirm] = prompter.asked;
    assert.deepStrictEqual([account.kind, account.items?.length], ['pick', 1], 'the only account is asked for all the same');
    assert.strictEqual(agent.kind, 'pick');
    assert.deepStrictEqual(agent.items, ['Claude Code', 'Cursor', 'Windsurf', 'Another agent']);
    assert.strictEqual(confirm.kind, 'confirm');
    const said = questionText(confirm);
    assert.match(said, new RegExp(`environment variable ${out.config.keyVariable}`));
    assert.match(said, /writes the key to no file/);

    const self = vscode.extensions.getExtension(EXTENSION_ID)!;
    const entry = (JSON.parse(out.config.json) as { mcpServers: Record<string, Entry> }).mcpServers[out.config.serverName];
    assert.deepStrictEqual(entry.args, [path.join(self.extensionPath, 'dist', 'mcp.js')]);
    assert.ok(fs.existsSync(entry.args[0]), 'the server is installed with the extension');
    assert.strictEqual(entry.env.CONTENT_DOCS_DOCUMENTS_URL, sandbox.docsUrl);
    assert.strictEqual(entry.env.CONTENT_DOCS_PROJECTS_URL, sandbox.seoUrl);
    assert.strictEqual(entry.env.CONTENT_DOCS_API_KEY, `\${env:${out.config.keyVariable}}`, "Cursor's reference to its environment");

    const clipboard = await vscode.env.clipboard.readText();
    assert.strictEqual(clipboard, out.config.json);
    assert.ok(out.document.isUntitled);
    assert.strictEqual(out.document.getText().trim(), out.config.json);
    for (const [where, text] of [
      ['configuration', out.config.json],
      ['clipboard', clipboard],
      ['editor', out.document.getText()],
      ['questions', prompter.asked.map(questionText).join('\n')],
    ] as const) {
      assert.ok(!text.includes(sandbox.key), `the key is not in the ${where}`);
    }
    // The command's own requests: besides those a view or an editor of the account sends by itself (its rows, its counts,
    // its document read again, and the status bar's usage read after them), and the account read that names the account.
    assert.deepStrictEqual(
      besidesTheWindow(sandbox.requests).filter((r) => r.route !== undefined && r.route !== 'account').map((r) => `${r.method} ${r.path}`),
      [],
      'nothing sent',
    );
  });

  it('Escape at the agent or at the confirmation: nothing copied, nothing opened', async () => {
    await vscode.env.clipboard.writeText('what the user had copied');
    const editors = vscode.workspace.textDocuments.length;
    prompter.answer = (q, items) => (q.title.endsWith('Account') ? items?.[0]?.label : undefined);
    assert.strictEqual(await vscode.commands.executeCommand(CMD.connectAgent), undefined);
    prompter.reset();
    prompter.answer = (q, items) => (q.title.endsWith('Account') ? items?.[0]?.label : q.title.endsWith('Agent') ? 'Claude Code' : undefined);
    prompter.choices = [undefined];
    assert.strictEqual(await vscode.commands.executeCommand(CMD.connectAgent), undefined);
    assert.strictEqual(await vscode.env.clipboard.readText(), 'what the user had copied');
    assert.strictEqual(vscode.workspace.textDocuments.length, editors);
  });
});
