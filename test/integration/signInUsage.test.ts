/**
 * Set API Key… checks the key with GET /account: the plan usage shows from that read, and the session's first
 * request does not read the account again (inside a real VS Code, against the sandbox).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { closeAll, configure, RecordingPrompter, services, sleep, until, useSandbox } from './reliabilityKit';

/** Longer than the account service's coalescing pause and a local round trip: nothing more comes after it. */
const SETTLE_MS = 1200;

describe('sign-in usage: the key check\'s account read is the session\'s', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let other: Sandbox | undefined;
  let s: TestServices;
  const prompter = new RecordingPrompter();
  let previous: TestServices['prompter']['current'];
  const accountReads = (sb: Sandbox) => sb.requests.filter((r) => r.route === 'account').length;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0, account: { plan: { name: 'Writer', features: { words: 50_000 } }, counters: { words_month_count: 12_345 } } });
    s = await services();
    previous = s.prompter.current;
    s.prompter.current = prompter;
    await closeAll();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  after(async () => {
    s.prompter.current = previous;
    await useSandbox(s, sandbox);
    await other?.close();
    await sandbox?.close();
  });

  it('Set API Key…: one account read (the key check) shows the plan usage; the first list reads it no more', async () => {
    await useSandbox(s, sandbox);
    await s.credentials.clearKey();
    await until('hidden once signed out', () => !s.usage.state.visible);
    sandbox.resetRequests();
    prompter.reset();
    prompter.answer = (q) => (q.kind === 'input' && /API Key/i.test(q.title) ? sandbox.key : undefined);
    await vscode.commands.executeCommand(CMD.signIn);
    assert.strictEqual(await s.credentials.getKey(), sandbox.key, 'signed in');
    await until('the plan usage from the key check', () => s.usage.state.visible);
    assert.strictEqual(s.usage.state.text, '$(sparkle) 12.3k / 50k words');
    assert.strictEqual(accountReads(sandbox), 1, 'the key check');

    await s.documentsTree.load(s.documentsTree.model.allGroup);
    await sleep(SETTLE_MS);
    assert.strictEqual(accountReads(sandbox), 1, 'the first list does not read the account again');
    assert.ok(sandbox.requests.some((r) => r.route === 'documents.list'), 'the list was made');
  });

  it('a key check on a new server address: the usage shown is that server\'s account, read once', async () => {
    other = await startSandbox({ rateLimit: 0, storeDelayMs: 0, account: { plan: { name: 'Other', features: { words: 10_000 } }, counters: { words_month_count: 9_500 } } });
    await s.credentials.clearKey();
    await configure('documents.baseUrl', undefined);
    await configure('projects.baseUrl', other.seoUrl);
    await until('hidden', () => !s.usage.state.visible);
    prompter.reset();
    prompter.answer = (q) => (q.kind !== 'input' ? undefined : /Server Address/i.test(q.title) ? other!.docsUrl : /API Key/i.test(q.title) ? other!.key : undefined);
    await vscode.commands.executeCommand(CMD.signIn);
    assert.strictEqual(vscode.workspace.getConfiguration('contentDocs').get('documents.baseUrl'), other.docsUrl);
    await until("the other account's usage", () => s.usage.state.text === '$(sparkle) 9.5k / 10k words');
    await s.documentsTree.load(s.documentsTree.model.allGroup);
    await sleep(SETTLE_MS);
    assert.strictEqual(accountReads(other), 1, 'the key check only');
    assert.strictEqual(s.usage.state.text, '$(sparkle) 9.5k / 10k words');
  });
});
