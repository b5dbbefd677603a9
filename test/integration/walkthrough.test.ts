/**
 * Getting Started (contributes.walkthroughs), inside a real VS Code against the sandbox: each step is done when the
 * writer does what it teaches, by the extension's own context keys and commands. Set API Key… sets
 * `contentDocs.signedIn` and the walkthrough shows "Connect your account" done; the step's Go to Document… button, a
 * document picked, does "Open a document" (a command the extension runs itself never reaches the workbench, which
 * completes a step on the commands it runs: the button and the view's rows do); asking @content sets `contentDocs.askedContent` and does "Ask @content". The walkthrough's page is read
 * from the workbench's DOM (each step's `aria-checked`).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD, CTX, EXTENSION_ID, SCHEME } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { ContextKeys } from './contextKeysKit';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { click, press, quickPickRowInFocus, read, screenshot } from './harness';
import { closeAll, RecordingPrompter, services, sleep, until, useSandbox } from './reliabilityKit';

const WALKTHROUGH = `${EXTENSION_ID}#firstHour`;
const stepId = (step: string) => `${WALKTHROUGH}#${step}`;

/** Whether the walkthrough's page shows the step done (VS Code's own check mark, `aria-checked` on the step's button). */
async function shownDone(step: string): Promise<boolean | undefined> {
  const r = await read(`[data-step-id="${stepId(step)}"]`);
  if (!r.visible) return undefined;
  return (await read(`[data-step-id="${stepId(step)}"][aria-checked="true"]`)).visible;
}

/** The page of the walkthrough, open on a step not done yet (its progress put back first: another run may have done it). */
async function openOn(step: string): Promise<void> {
  // The workbench registers an extension's walkthrough once it has asked an experiment service about it (up to 5 s per
  // extension with walkthroughs): until then the page cannot show it. (It drops it once the chat's AI features are turned
  // on and off again: this suite runs before the chat suites, see index.ts.)
  await until(
    `the step "${step}" registered`,
    async () => {
      await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step: stepId(step) }, false);
      const registered = await Promise.resolve(vscode.commands.executeCommand('welcome.markStepIncomplete', stepId(step))).then(
        () => true,
        () => false,
      );
      if (!registered) await sleep(500);
      return registered;
    },
    30_000,
  );
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step: stepId(step) }, false);
  const shown = await until(`the step "${step}" on the page`, async () => {
    const done = await shownDone(step);
    return done === undefined ? undefined : { done };
  }, 15_000);
  assert.strictEqual(shown.done, false, `"${step}" starts not done`);
}

describe('Getting Started: each step is done when the writer does what it teaches', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let s: TestServices;
  let keys: ContextKeys;
  const prompter = new RecordingPrompter();

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await closeAll();
    await useSandbox(s, sandbox);
    keys = new ContextKeys();
  });

  after(async () => {
    keys?.dispose();
    s.prompter.current = s.prompter.vscode;
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await useSandbox(s, sandbox);
    await sandbox?.close();
  });

  it('Connect: Set API Key… sets contentDocs.signedIn, and the page shows "Connect your account" done', async () => {
    assert.deepStrictEqual(s.registry.added(), [], 'no added account keeps the views signed in');
    await s.credentials.clearKey();
    assert.strictEqual(keys.last(CTX.signedIn), false, 'signed out: the key is off');
    await openOn('connect');
    prompter.reset();
    prompter.inputs = [sandbox.key];
    s.prompter.current = prompter;
    assert.strictEqual(await vscode.commands.executeCommand<boolean>(CMD.signIn), true, `signed in (checked: ${JSON.stringify(prompter.checked)})`);
    s.prompter.current = s.prompter.vscode;
    await until('contentDocs.signedIn set', () => keys.last(CTX.signedIn) === true);
    await until('the step shown done', () => shownDone('connect'));
  });

  it("Open a document: the step's own Go to Document… button, a document picked, does the step", async () => {
    await useSandbox(s, sandbox);
    await openOn('open');
    sandbox.resetRequests();
    await click(`[data-step-id="${stepId('open')}"]`);
    await until('the step open on the page', async () => (await read('.gettingStartedContainer .button-container .monaco-button:has-text("Go to Document")')).visible);
    await screenshot('walkthrough-open-step');
    // Clicked on the page, as a writer does: the command runs through the workbench, which sees it run.
    await click('.gettingStartedContainer .button-container .monaco-button:has-text("Go to Document")');
    await until('the newest documents listed', () => sandbox.requests.some((r) => r.route === 'documents.list' && r.status === 200));
    // The Go to Document box shows a document in focus (a list request may also be a view's, reading its rows as the
    // account was made anew): Enter then opens it.
    await quickPickRowInFocus();
    await sleep(300);
    await press('Enter');
    await until('a document open', () => vscode.window.activeTextEditor?.document.uri.scheme === SCHEME);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step: stepId('open') }, false);
    await until('the step shown done', () => shownDone('open'), 15_000);
  });

  it('Ask @content: asking @content anything sets contentDocs.askedContent, and the page shows the step done', async () => {
    // The chat calls a participant only with the AI features on (the harness's user settings turn them off).
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    // The chat sends nothing before a model is there (the harness's fake one).
    await until('the fake chat model', async () => ((await vscode.lm.selectChatModels({ vendor: 'content-docs-fake' })).length ? true : undefined));
    await openOn('chat');
    assert.notStrictEqual(keys.last(CTX.askedContent), true, 'not asked since the recording started');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    // What the step's own button sends.
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@content /usage' });
    await until('contentDocs.askedContent set', () => keys.last(CTX.askedContent) === true, 30_000);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step: stepId('chat') }, false);
    await until('the step shown done', () => shownDone('chat'), 15_000);
  });
});
