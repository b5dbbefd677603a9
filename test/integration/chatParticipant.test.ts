/**
 * The @content chat participant end to end, inside a real VS Code with the chat's AI features on: the chat opened with
 * `@content …` (workbench.action.chat.open), its answer read from the chat view's DOM, against the sandbox. The model
 * is test/fixtures/fake-chat-model (loaded beside the extension by the harness): the test scripts its answers (text
 * and tool calls) and reads back the messages it was sent.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { MAX_TOOL_ROUNDS } from '../../src/agents/chat/handler';
import { SCHEME, STATE } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { click, read, screenshot } from './harness';
import { configure, RecordingPrompter, services, sleep, until, useSandbox } from './reliabilityKit';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { cleanUp, proposalTabs, settleRequests, workspaceFile } from './writeKit';

/** What the fake model is scripted to answer: text, tool calls, or both. */
interface Turn {
  text?: string;
  delayMs?: number;
  toolCalls?: Array<{ name: string; input: unknown }>;
}

/** What the fake model was sent, one entry per request. */
interface Received {
  messages: Array<{ role: string; parts: Array<{ kind: string; value?: string; name?: string; callId?: string; content?: string[] }> }>;
  tools: string[];
}

const RESPONSE = '.interactive-session .chat-most-recent-response';

/** The chat's last answer once it holds `expected` (the participant streams it: it may take a moment). */
async function answerHolding(expected: string | RegExp, timeoutMs = 30_000): Promise<string> {
  let last = '';
  try {
    return await until(
      `the chat's answer to hold ${String(expected)}`,
      async () => {
        // A read the busy workbench did not answer in time is tried again.
        last = await read(RESPONSE).then((r) => r.text, () => last);
        return (typeof expected === 'string' ? last.includes(expected) : expected.test(last)) ? last : undefined;
      },
      timeoutMs,
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}; the answer reads: ${JSON.stringify(last)}`, { cause: e });
  }
}

/** A new chat with `query` sent (a chat of its own: the previous answer is not read as this one's). */
async function ask(query: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', { query });
}

describe('@content chat participant: /usage, /search, /write and a question to the model, with a fake model', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let s: TestServices;
  const prompter = new RecordingPrompter();

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await useSandbox(s, sandbox);
    s.prompter.current = prompter;
    // The chat calls a participant only with the AI features on (the harness's user settings turn them off).
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await until('the fake chat model', async () => ((await vscode.lm.selectChatModels({ vendor: 'content-docs-fake' })).length ? true : undefined));
  });

  beforeEach(async () => {
    prompter.reset();
    await vscode.commands.executeCommand('fakeChatModel.reset');
    await settleRequests(sandbox);
  });

  afterEach(async () => {
    await cleanUp();
  });

  after(async () => {
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    s.prompter.current = s.prompter.vscode;
    await cleanUp();
    await s?.credentials.clearKey();
    await sandbox?.close();
  });

  it('/usage answers with the account\'s figures, in the words of Show Plan Usage', async () => {
    sandbox.setAccount({ counters: { words_month_count: 123_456, documents_month_count: 42 } });
    // The figures are read afresh, as after a restart.
    await s.first.usage.refresh();
    await settleRequests(sandbox);
    await ask('@content /usage');
    const text = await answerHolding('Plan: Sandbox');
    await screenshot('chat-usage');
    assert.ok(text.includes('Words this month: 123,456 of 500,000 (24 %)'), text);
    assert.ok(text.includes('Documents this month: 42 of 1,000 (4 %)'), text);
    assert.ok(text.includes('Images this month: 0 of 100 (0 %)'), text);
    assert.deepStrictEqual(await vscode.commands.executeCommand('fakeChatModel.received'), [], 'a slash command asks no model');
  });

  it('/search solar lists the matching documents with one list request, and a link opens one', async () => {
    const solar = [...sandbox.documents.values()].filter((d) => /solar/i.test(d.name));
    assert.ok(solar.length >= 2, 'the seed has documents about solar panels');
    await ask('@content /search solar');
    const text = await answerHolding(/documents? whose names? contains? "solar"/);
    await screenshot('chat-search');
    for (const d of solar.slice(0, 25)) assert.ok(text.includes(d.name), `${d.name} is listed: ${text}`);
    // The search's own list requests (a search term): the views may list or count the account meanwhile.
    const lists = sandbox.requests.filter((r) => r.route === 'documents.list' && r.query.search !== undefined);
    assert.strictEqual(lists.length, 1, `one list request: ${JSON.stringify(sandbox.requests.map((r) => `${r.method} ${r.path}`))}`);
    assert.strictEqual(lists[0].query.search, 'solar');

    // The first link opens the first document listed in an editor.
    await click(`${RESPONSE} li a >> nth=0`);
    const editor = await until('the document to open', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === SCHEME ? e : undefined;
    });
    const opened = solar.find((d) => d.id === s.fs.documentOf(editor.document.uri)?.id);
    assert.ok(opened, `a document listed opened: ${editor.document.uri.toString()}`);
    const firstItem = text.split('\n').find((line) => solar.some((d) => line.startsWith(d.name)));
    assert.ok(firstItem?.startsWith(opened.name), `the first one listed (${firstItem}) opened: ${opened.name}`);
    assert.strictEqual(editor.document.getText(), opened.result);
  });

  it("a question goes to the model with the tools; its tool call runs and the result reaches the model's next turn", async () => {
    const turns: Turn[] = [
      { text: 'Looking for them.', toolCalls: [{ name: 'contentDocs_search_documents', input: { query: 'solar' } }] },
      // Answered after a pause: the screenshot shows the tool's run before the chat folds it into its steps.
      { text: 'You have several documents about solar panels.', delayMs: 5000 },
    ];
    await vscode.commands.executeCommand('fakeChatModel.script', turns);
    await ask('@content find my documents about solar');
    await until('the second request to the model (the tool has run)', async () =>
      (await vscode.commands.executeCommand<Received[]>('fakeChatModel.received')).length === 2 || undefined,
    );
    // The pointer away from the participant's name, where the previous test's click left it (a hover card opens there).
    await click('.part.statusbar');
    await screenshot('chat-question-tools');
    const text = await answerHolding('You have several documents about solar panels.');
    // The text the model sent with its tool call shows above the answer, or folded into the chat's steps.
    assert.ok(text.includes('Looking for them.') || text.includes('Completed'), text);

    const received = await vscode.commands.executeCommand<Received[]>('fakeChatModel.received');
    assert.strictEqual(received.length, 2, 'two turns: the tool call, then the answer');
    assert.ok(received[0].tools.includes('contentDocs_search_documents'), `the tools offered: ${received[0].tools.join(', ')}`);
    assert.ok(received[0].tools.every((t) => t.startsWith('contentDocs_')), 'only the Content Docs tools');
    const lastUser = received[0].messages[received[0].messages.length - 1];
    assert.ok(lastUser.parts.some((p) => p.value === 'find my documents about solar'), JSON.stringify(lastUser));

    const second = received[1].messages;
    const call = second.flatMap((m) => m.parts).find((p) => p.kind === 'toolCall');
    const result = second.flatMap((m) => m.parts).find((p) => p.kind === 'toolResult');
    assert.ok(call && result && result.callId === call.callId, `the tool call and its result: ${JSON.stringify(second)}`);
    const solar = [...sandbox.documents.values()].filter((d) => /solar/i.test(d.name));
    const resultText = (result.content ?? []).join('\n');
    for (const d of solar.slice(0, 5)) assert.ok(resultText.includes(d.name), `the tool's result names ${d.name}: ${resultText}`);
    // The tool's own list requests (a search term): the views may list or count the account meanwhile.
    const lists = sandbox.requests.filter((r) => r.route === 'documents.list' && r.query.search !== undefined);
    assert.strictEqual(lists.length, 1, `the tool listed once: ${JSON.stringify(sandbox.requests.map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query).toString()}`))}`);
    assert.strictEqual(lists[0].query.search, 'solar');
    assert.strictEqual(lists[0].query.search, 'solar');
  });

  it("the model's failure is said in the chat in plain words; the rounds of tool calls are bounded", async () => {
    await vscode.commands.executeCommand('fakeChatModel.script', [{ error: 'The fake model is out of order.' }]);
    await ask('@content what is new?');
    await answerHolding("Couldn't answer: the fake model is out of order.");

    // A model that never stops calling tools: the answer ends after MAX_TOOL_ROUNDS requests.
    const usage: Turn = { toolCalls: [{ name: 'contentDocs_get_plan_usage', input: {} }] };
    await vscode.commands.executeCommand('fakeChatModel.reset');
    await vscode.commands.executeCommand('fakeChatModel.script', Array.from({ length: MAX_TOOL_ROUNDS + 2 }, () => usage));
    await ask('@content how much of my plan is used?');
    await answerHolding(`Stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls`);
    const received = await vscode.commands.executeCommand<Received[]>('fakeChatModel.received');
    assert.strictEqual(received.length, MAX_TOOL_ROUNDS);
    assert.strictEqual(received[MAX_TOOL_ROUNDS - 1].messages.filter((m) => m.parts.some((p) => p.kind === 'toolResult')).length, MAX_TOOL_ROUNDS - 1);
  });

  it('with the tools turned off (contentDocs.agents.enabled) the model is offered none', async () => {
    await configure('agents.enabled', false);
    try {
      await vscode.commands.executeCommand('fakeChatModel.script', [{ text: 'Without tools, I cannot look.' }]);
      await ask('@content find my documents about solar');
      await answerHolding('Without tools, I cannot look.');
      const received = await vscode.commands.executeCommand<Received[]>('fakeChatModel.received');
      assert.deepStrictEqual(received.map((r) => r.tools), [[]]);
    } finally {
      await configure('agents.enabled', undefined);
    }
  });

  it('/write puts the proposal diff into the active editor at the cursor; Accept in the chat applies it', async () => {
    sandbox.setModelAnswer('Our new grinder makes every cup taste fresh.');
    const editor = await workspaceFile('grinder.md', '# Grinder\n\n\nThanks for reading.\n');
    editor.selection = new vscode.Selection(2, 0, 2, 0);
    prompter.confirms.push(true);
    await ask('@content /write one sentence about our new grinder');
    const text = await answerHolding('The proposal is open beside your text');
    await until('the proposal diff', () => proposalTabs().length === 1 || undefined);
    await screenshot('chat-write-proposal');
    assert.ok(text.includes('Accept') && text.includes('Discard'), text);
    assert.strictEqual(prompter.asked.length, 1, 'the writing confirmation was asked once');
    const stores = sandbox.requests.filter((r) => r.route === 'documents.store');
    assert.strictEqual(stores.length, 1, 'one document created');
    assert.ok(sandbox.lastModelPrompt?.includes('one sentence about our new grinder'), sandbox.lastModelPrompt);
    assert.strictEqual(editor.document.getText(), '# Grinder\n\n\nThanks for reading.\n', 'nothing changes before Accept');

    await click(`${RESPONSE} .monaco-button:has-text("Accept")`);
    await until('the proposal to be applied', () => editor.document.getText() === '# Grinder\n\nOur new grinder makes every cup taste fresh.\nThanks for reading.\n' || undefined);
    await until('the diff to close', () => proposalTabs().length === 0 || undefined);
    sandbox.setModelAnswer(undefined);
  });

  it('/write with no editor open says so and sends nothing', async () => {
    await cleanUp();
    await ask('@content /write a tagline');
    await answerHolding(/there is no editor to write in/i);
    await sleep(300);
    assert.deepStrictEqual(sandbox.requests.filter((r) => r.route === 'documents.store'), []);
    assert.strictEqual(prompter.asked.length, 0);
  });
});

describe('@content chat participant with two accounts: the active document\'s account, else the last used, named in the answer', function () {
  this.timeout(120_000);
  let two: TwoAccounts;

  before(async () => {
    two = await startTwoAccounts({ id: 9001, name: 'Solar kit manual' });
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await two?.dispose();
    await two?.s.credentials.clearKey();
  });

  it('/search works in the account last used, then in the active document\'s, and says which', async () => {
    const { a, b, s } = two;
    const labelB = await two.addB();
    const accountA = s.first;
    const accountB = s.registry.byLabel(labelB)!;
    await s.context.globalState.update(STATE.lastAccount, labelB);
    await settleRequests(a);
    await settleRequests(b);

    await ask('@content /search solar kit');
    let text = await answerHolding(`In ${accountB.displayName}:`);
    await screenshot('chat-search-two-accounts');
    assert.ok(text.includes('Solar kit manual'), text);
    // The search's own list requests (a search term): the views may list or count either account meanwhile.
    const searches = (sb: typeof a) => sb.requests.filter((r) => r.route === 'documents.list' && r.query.search !== undefined);
    assert.strictEqual(searches(b).length, 1, 'account B searched');
    assert.strictEqual(searches(a).length, 0, 'account A was not asked');

    // A document of A in the active editor: A's documents are searched.
    await vscode.commands.executeCommand('contentDocs.documentOpen', { id: 9001, account: accountA.label });
    await until('the document of A in the editor', () => vscode.window.activeTextEditor?.document.getText() === 'Text of A' || undefined);
    await settleRequests(a);
    await settleRequests(b);
    await ask('@content /search solar kit');
    text = await answerHolding(`In ${accountA.displayName}:`);
    assert.ok(text.includes('Solar kit manual'), text);
    assert.strictEqual(searches(a).length, 1, 'account A searched');
    assert.strictEqual(searches(b).length, 0, 'account B was not asked');
  });

  it('/write in a file with two accounts: the confirmation names the account the document would be created in', async () => {
    const { b, s, prompter } = two;
    const labelB = s.registry.added()[0]?.label ?? (await two.addB());
    const accountB = s.registry.byLabel(labelB)!;
    await s.context.globalState.update(STATE.lastAccount, labelB);
    const editor = await workspaceFile('two-accounts.md', '# Notes\n\n');
    editor.selection = new vscode.Selection(2, 0, 2, 0);
    prompter.reset();
    // The question is declined: nothing is created.
    prompter.confirms = [false];
    await ask('@content /write a tagline');
    const asked = await until('the writing confirmation', () => prompter.asked.find((q) => q.kind === 'confirm'));
    assert.ok(asked.message?.includes(accountB.displayName), `the confirmation says which account: ${JSON.stringify(asked.message)}`);
    await sleep(300);
    assert.deepStrictEqual(b.requests.filter((r) => r.route === 'documents.store'), [], 'declined: nothing created');
    await cleanUp();
  });
});
