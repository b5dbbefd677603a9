/**
 * Where requests leave from in a remote window. code-server is one (VS Code's `env.remoteName` names it), and Content
 * Docs runs there in the remote's extension host, next to the workspace: a server it cannot reach may be one only the
 * writer's own computer reaches, and the failure says so, pointing at Troubleshooting's "Remote windows".
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { closedPort, configure, MessageCapture, services, until, useSandbox } from './reliabilityKit';

describe('remote windows: a failure to reach the server says where the requests leave from', function () {
  this.timeout(60_000);
  let s: TestServices;
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
  });

  after(async () => {
    await useSandbox(s, sandbox);
    await sandbox.close();
  });

  it('this window is a remote one and Content Docs runs in its workspace host (what the message relies on)', () => {
    assert.ok(vscode.env.remoteName, 'code-server is a remote window');
    assert.strictEqual(vscode.extensions.getExtension('content-docs.content-docs')?.extensionKind, vscode.ExtensionKind.Workspace);
  });

  it('a server that does not answer: the message says the requests leave from the remote machine, and where to read more', async () => {
    await useSandbox(s, sandbox);
    await configure('documents.baseUrl', `http://127.0.0.1:${await closedPort()}`);
    const messages = new MessageCapture().install();
    try {
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: 1 });
      const said = await until('the error message', () => messages.shown.find((m) => m.level === 'error'));
      assert.match(said.message, /could not reach the server/i, said.message);
      assert.match(said.message, new RegExp(`In this remote window \\(${vscode.env.remoteName!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) the requests leave from the remote machine, not from this computer`));
      assert.match(said.message, /"Remote windows" in Troubleshooting/);
    } finally {
      messages.dispose();
    }
  });

  it('a refusal that is not about the network (the key) says nothing of where requests leave from', async () => {
    await useSandbox(s, sandbox, 'not-the-key-0123456789');
    const messages = new MessageCapture().install();
    try {
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: 1 });
      const said = await until('the error message', () => messages.shown.find((m) => m.level === 'error'));
      assert.doesNotMatch(said.message, /remote machine/, said.message);
    } finally {
      messages.dispose();
    }
  });
});
