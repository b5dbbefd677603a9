/**
 * Set API Key…: the key box stays open while the server checks the key, and the server's answer shows under it,
 * so a wrong key is corrected in place (inside a real VS Code, against the sandbox). First with the test prompter,
 * then with the real input box, typed into through the browser.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { press, read, screenshot, typeText } from './harness';
import { closeAll, configure, ExchangeCounter, MessageCapture, RecordingPrompter, services, sleep, until, useSandbox } from './reliabilityKit';

const WRONG_KEY = 'sk-not-the-right-key-0123';
/** The quick input as VS Code draws it: the box, and the line under it where the validation message goes. */
const BOX = '.quick-input-widget';
const MESSAGE = '.quick-input-widget .quick-input-message';
/** A busy box: its progress bar running, its text field read-only (VS Code keeps the focus in it, so Escape still works). */
const PROGRESS = '.quick-input-widget .quick-input-progress .progress-bit';
const LOCKED = '.quick-input-widget input[readonly]';
/** Longer than a local round trip: an answer that was coming has come. */
const SETTLE_MS = 1000;

describe('sign-in box: the key box stays open while the server checks the key', function () {
  this.timeout(90_000);
  let sandbox: Sandbox;
  let s: TestServices;
  let previous: TestServices['prompter']['current'];
  let exchanges: ExchangeCounter;
  const messages = new MessageCapture();
  const accountAnswers = () => sandbox.requests.filter((r) => r.route === 'account').map((r) => r.status);

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    previous = s.prompter.current;
    exchanges = new ExchangeCounter(s);
    messages.install();
    await closeAll();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  after(async () => {
    s.prompter.current = previous;
    exchanges.dispose();
    messages.dispose();
    await useSandbox(s, sandbox);
    await sandbox?.close();
  });

  beforeEach(async () => {
    // VS Code's own boxes, whatever a suite before this one left in place.
    s.prompter.current = s.prompter.vscode;
    await useSandbox(s, sandbox);
    await s.credentials.clearKey();
    sandbox.resetRequests();
    exchanges.reset();
    messages.clear();
  });

  afterEach(async () => {
    // A case that failed half-way must not leave its box open for the next one.
    if ((await read(BOX)).visible) await press('Escape');
  });

  it('a wrong key then the right one in one run: the server\'s words for the first, the right key stored, two account requests', async () => {
    const prompter = new RecordingPrompter();
    prompter.inputs = [WRONG_KEY, sandbox.key];
    s.prompter.current = prompter;
    const ok = await vscode.commands.executeCommand<boolean>(CMD.signIn);
    assert.strictEqual(ok, true, `signed in (checked: ${JSON.stringify(prompter.checked)}, messages: ${JSON.stringify(messages.shown.map((m) => m.message))})`);
    assert.strictEqual(await s.credentials.getKey(), sandbox.key, 'the right key is stored');
    assert.deepStrictEqual(accountAnswers(), [401, 200], 'exactly two account requests: the wrong key, then the right one');
    assert.deepStrictEqual(prompter.checked.map((c) => c.value), [WRONG_KEY, sandbox.key]);
    assert.match(prompter.checked[0].problem ?? '', /^The server did not accept this API key/, 'the server\'s answer to the first, under the box');
    assert.strictEqual(prompter.checked[1].problem, undefined, 'the second is accepted');
    assert.ok(prompter.asked.every((q) => q.password), 'the key is asked in a password box');
    assert.deepStrictEqual(messages.errors().map((m) => m.message), [], 'no error notification: the answer was shown under the box');
    assert.ok(messages.shown.some((m) => m.level === 'info' && /signed in/.test(m.message)), 'signed in is said');
  });

  it('signed in already, the key box names the account and says that the key it takes replaces that account\'s (Add Account… for another one beside it); the first sign-in\'s box does not', async () => {
    const prompter = new RecordingPrompter();
    s.prompter.current = prompter;
    prompter.inputs = [undefined];
    assert.strictEqual(await vscode.commands.executeCommand<boolean>(CMD.signIn), false);
    const first = prompter.asked.at(-1);
    assert.strictEqual(first?.title, 'Content Docs: Set API Key');
    assert.doesNotMatch(first?.prompt ?? '', /replaces/);

    await s.credentials.setKey(sandbox.key);
    const name = s.first.displayName;
    prompter.inputs = [undefined];
    assert.strictEqual(await vscode.commands.executeCommand<boolean>(CMD.signIn), false);
    const again = prompter.asked.at(-1);
    assert.strictEqual(again?.title, `Content Docs: Set API Key (${name})`);
    assert.match(again?.prompt ?? '', new RegExp(`^Signed in as ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the key you paste replaces its key \\(to add another account beside it, use Add Account… instead\\)\\.`));
    assert.strictEqual(s.first.displayName, name, 'Escape changed nothing');
  });

  it('the real box: a wrong key keeps it open with the server\'s answer under it; the right key closes it and is stored', async () => {
    assert.strictEqual(s.prompter.current.constructor.name, 'VsCodePrompter', 'the product\'s own prompter');
    const outcome: Array<boolean | undefined> = [];
    const run = Promise.resolve(vscode.commands.executeCommand<boolean>(CMD.signIn)).then((ok) => outcome.push(ok));
    await until('the key box', async () => (await read(BOX)).visible && /Set API Key/.test((await read(BOX)).text), 15_000);

    await typeText(WRONG_KEY);
    await press('Enter');
    await until('the server\'s answer to the wrong key', () => accountAnswers().includes(401));
    const message = await until('the server\'s answer under the key box', async () => {
      const m = await read(MESSAGE);
      return m.visible && /did not accept this API key/.test(m.text) ? m.text : undefined;
    });
    assert.ok((await read(BOX)).visible, 'the box is still open');
    assert.deepStrictEqual(outcome, [], 'the command still waits for a key');
    await screenshot('sign-in-key-refused');
    assert.strictEqual(await s.credentials.getKey(), undefined, 'nothing stored');
    console.log(`      under the box: ${message}`);

    // Corrected in place: what was typed is selected and typed over.
    await press('Control+a');
    await typeText(sandbox.key);
    await press('Enter');
    await until('the command to finish', () => outcome.length > 0, 15_000);
    await run;
    assert.deepStrictEqual(outcome, [true]);
    assert.strictEqual(await s.credentials.getKey(), sandbox.key, 'the right key is stored');
    assert.deepStrictEqual(accountAnswers(), [401, 200], 'one request per Enter');
    await until('the box to close', async () => !(await read(BOX)).visible);
    assert.deepStrictEqual(messages.errors().map((m) => m.message), [], 'no error notification');
  });

  it('the real boxes with no server set: a refused address keeps its box open with the reason under it; the server is saved with the key it accepted', async () => {
    await configure('documents.baseUrl', undefined);
    await configure('projects.baseUrl', undefined);
    const outcome: Array<boolean | undefined> = [];
    const run = Promise.resolve(vscode.commands.executeCommand<boolean>(CMD.signIn)).then((ok) => outcome.push(ok));
    await until('the address box', async () => /Server Address/.test((await read(BOX)).text), 15_000);

    await typeText('http://example.com');
    await press('Enter');
    await until('the reason under the address box', async () => {
      const m = await read(MESSAGE);
      return m.visible && /unencrypted/.test(m.text);
    });
    await sleep(300);
    assert.ok(/Server Address/.test((await read(BOX)).text), 'the address box is still open');
    assert.deepStrictEqual(outcome, []);
    await screenshot('sign-in-address-refused');

    await press('Control+a');
    await typeText(sandbox.docsUrl);
    await press('Enter');
    await until('the key box', async () => /Set API Key/.test((await read(BOX)).text));
    assert.deepStrictEqual(sandbox.requests.map((r) => r.route), [], 'the address box sent nothing');
    await typeText(WRONG_KEY);
    await press('Enter');
    await until('the server\'s answer under the key box', async () => /did not accept this API key/.test((await read(MESSAGE)).text));
    assert.strictEqual(vscode.workspace.getConfiguration('contentDocs').inspect('documents.baseUrl')?.globalValue, undefined, 'no address saved with a refused key');
    await press('Control+a');
    await typeText(sandbox.key);
    await press('Enter');
    await until('the command to finish', () => outcome.length > 0, 15_000);
    await run;
    assert.deepStrictEqual(outcome, [true]);
    assert.strictEqual(vscode.workspace.getConfiguration('contentDocs').inspect('documents.baseUrl')?.globalValue, sandbox.docsUrl, 'the address is saved');
    assert.strictEqual(await s.credentials.getKey(), sandbox.key);
    assert.deepStrictEqual(accountAnswers(), [401, 200]);
  });

  it('the real box: Escape while the key is on the wire abandons the check; its late answer stores nothing', async () => {
    const outcome: Array<boolean | undefined> = [];
    const release = sandbox.hold('account');
    try {
      const run = Promise.resolve(vscode.commands.executeCommand<boolean>(CMD.signIn)).then((ok) => outcome.push(ok));
      await until('the key box', async () => (await read(BOX)).visible && /Set API Key/.test((await read(BOX)).text), 15_000);
      await typeText(sandbox.key);
      await press('Enter');
      await until('the key check on the wire', () => sandbox.requests.some((r) => r.route === 'account'));
      // VS Code shows a busy box's progress bar after a moment.
      await until('the busy box\'s progress bar', async () => (await read(PROGRESS)).visible);
      assert.ok((await read(BOX)).visible, 'the box stays open while the server checks');
      assert.ok((await read(LOCKED)).visible, 'its text is locked meanwhile');
      assert.match((await read(MESSAGE)).text, /Checking the key with the server/, 'and it says what it waits for');
      assert.deepStrictEqual(outcome, [], 'the command still waits');
      await screenshot('sign-in-key-checking');

      await press('Escape');
      await until('the command to finish', () => outcome.length > 0, 10_000);
      await run;
      assert.deepStrictEqual(outcome, [false], 'cancelled');
      await until('the check abandoned on the wire', () => exchanges.exchanges.some((e) => e.path === '/account' && e.status === undefined));
    } finally {
      release();
    }
    await sleep(SETTLE_MS);
    assert.strictEqual(await s.credentials.getKey(), undefined, 'the late answer stores nothing');
    await until('the box to close', async () => !(await read(BOX)).visible);
    assert.deepStrictEqual(messages.shown.map((m) => m.message), [], 'and says nothing');
  });

  it('the server setting changed (Settings Sync) while the key was checked on the first server: that key is not stored for the other server, and never sent there', async () => {
    const other = await startSandbox({ rateLimit: 0, storeDelayMs: 0, key: 'other-installation-key-0123456789' });
    try {
      const prompter = new RecordingPrompter();
      prompter.inputs = [sandbox.key];
      s.prompter.current = prompter;
      // The key check waits on the wire while Settings Sync brings another server address.
      const release = sandbox.hold('account');
      const signingIn = Promise.resolve(vscode.commands.executeCommand<boolean>(CMD.signIn)).then(undefined, () => false);
      await until('the key check on the wire', () => sandbox.requests.some((r) => r.route === 'account'));
      await configure('documents.baseUrl', other.docsUrl);
      release();
      await signingIn;
      await s.registry.settled();
      // Whatever is signed in now is used: its documents listed, as the Documents view does.
      await s.firstOrNone?.documents.list({ perPage: 10 }).catch(() => undefined);
      await sleep(SETTLE_MS);
      assert.deepStrictEqual(
        other.requests.filter((r) => r.authorizationHeader?.includes(sandbox.key)).map((r) => `${r.method} ${r.path}`),
        [],
        'the key checked on the first server is never sent to the other one',
      );
      assert.notStrictEqual(await s.credentials.getKey(), sandbox.key, 'the key is not stored as the key of the settings, which name the other server now');
    } finally {
      await configure('documents.baseUrl', sandbox.docsUrl);
      await other.close();
    }
  });
});
