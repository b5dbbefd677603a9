/**
 * Shared helpers of the writing-action suites (write, writeProposals, writeEdges): the sandbox and the extension
 * set up for them, the files and editors a writing command works on, and running a command with its confirmation
 * answered.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { STATE } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { WriteResult } from '../../src/write/commands';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { MessageCapture, RecordingPrompter, services, sleep, useSandbox } from './reliabilityKit';

export const PROPOSAL = 'content-docs-proposal';

/** A Markdown post with headings, paragraphs and a list (line numbers as the suites select them). */
export const POST = [
  '# Launch notes', // line 1
  '',
  'We ship the new editor on Monday.', // line 3
  'It replaces the old one.',
  '',
  '## What changes', // line 6
  '',
  '- Faster saves',
  '- A new toolbar',
  '- Offline drafts', // line 10
  '',
  'Thanks for reading.', // line 12
  '',
].join('\n');

export interface WriteSuite {
  sandbox: Sandbox;
  s: TestServices;
  prompter: RecordingPrompter;
  messages: MessageCapture;
}

/**
 * A sandbox without throttling whose stores answer at once, the extension pointed at it, the extension's
 * questions answered by a recording prompter, and its messages captured.
 */
export async function startWriteSuite(): Promise<WriteSuite> {
  const sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
  const s = await services();
  await useSandbox(s, sandbox);
  const prompter = new RecordingPrompter();
  s.prompter.current = prompter;
  const messages = new MessageCapture().install();
  // Pointing the extension at a new sandbox makes the views reload (and the suites run before this one may have
  // left them open): those lists arrive late. Each write suite starts from a quiet sandbox with an empty record.
  await settleRequests(sandbox);
  return { sandbox, s, prompter, messages };
}

/**
 * The hooks around each test of a write suite: a fresh prompter and message record, no faults, no latency, the
 * model's own answers, and a quiet sandbox before; editors and proposals closed after. `autoDismiss`, when given,
 * sets how the test's notifications are answered.
 */
export function eachWriteTest(suite: () => WriteSuite, options: { autoDismiss?: boolean } = {}): void {
  beforeEach(async () => {
    const { prompter, messages, sandbox } = suite();
    prompter.reset();
    messages.clear();
    if (options.autoDismiss !== undefined) messages.autoDismiss = options.autoDismiss;
    sandbox.clearFaults();
    sandbox.setLatency(0);
    sandbox.setModelAnswer(undefined);
    // What the previous test set off (a plan-usage read after its generation) is over and not counted here.
    await settleRequests(sandbox, 150);
  });
  afterEach(async () => {
    suite().messages.dismissAll();
    await cleanUp();
  });
}

/** Ends a write suite: messages no longer captured, editors closed, the remembered writing style and the model's answer reset, its sandbox closed. */
export async function endWriteSuite(suite: WriteSuite | undefined): Promise<void> {
  suite?.messages.dispose();
  await cleanUp();
  await suite?.s.context.globalState.update(STATE.writeStyle, undefined);
  suite?.sandbox.setModelAnswer(undefined);
  await suite?.sandbox.close();
}

/**
 * Waits until the sandbox got no request for `quietMs` and has none unanswered (the views' reloads and the
 * plan-usage read are over), then clears its request record: the next request counted is the test's own.
 */
export async function settleRequests(sandbox: Sandbox, quietMs = 400, maxMs = 10_000): Promise<void> {
  const t0 = Date.now();
  let count = -1;
  let since = Date.now();
  for (;;) {
    const open = sandbox.requests.some((r) => r.status === 0);
    if (sandbox.requests.length !== count || open) {
      count = sandbox.requests.length;
      since = Date.now();
    }
    if (Date.now() - since >= quietMs || Date.now() - t0 > maxMs) break;
    await sleep(50);
  }
  sandbox.resetRequests();
}

/** Runs a writing command with the confirmation answered (Yes by default); returns what the command returned. */
export async function runWriting(prompter: RecordingPrompter, command: string, confirm = true): Promise<WriteResult | undefined> {
  prompter.confirms.push(confirm);
  return vscode.commands.executeCommand<WriteResult | undefined>(command);
}

/** The diff tabs showing a proposal. */
export function proposalTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs.map((t) => t.input))
    .filter((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff && i.modified.scheme === PROPOSAL);
}

/** A file:// file of the workspace folder with `text`, open in an editor. */
export async function workspaceFile(name: string, text: string): Promise<vscode.TextEditor> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder && folder.uri.scheme === 'file', 'a file:// workspace folder is open');
  const uri = vscode.Uri.joinPath(folder.uri, name);
  fs.writeFileSync(uri.fsPath, text);
  const doc = await vscode.workspace.openTextDocument(uri);
  assert.strictEqual(doc.getText(), text);
  return vscode.window.showTextDocument(doc, { preview: false });
}

/** An untitled editor with `text`. */
export async function untitled(text: string, language = 'markdown'): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument({ content: text, language });
  return vscode.window.showTextDocument(doc, { preview: false });
}

/** Selects whole lines, 1-based and inclusive. */
export function selectLines(editor: vscode.TextEditor, first: number, last: number): vscode.Selection {
  const doc = editor.document;
  editor.selection = new vscode.Selection(first - 1, 0, last - 1, doc.lineAt(last - 1).text.length);
  return editor.selection;
}

/** Reverts every dirty editor and closes all (nothing of a test leaks into the next). */
export async function cleanUp(): Promise<void> {
  for (const d of vscode.workspace.textDocuments) {
    if (!d.isDirty) continue;
    await vscode.window.showTextDocument(d);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
