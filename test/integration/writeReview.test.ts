/**
 * Reviewing a proposal as a writer does, inside a real VS Code against the sandbox: Accept and Discard named in the
 * diff's title and on keys (Ctrl+Enter, Escape) while a proposal diff is active; the "ready" notification, which
 * names those keys, ends once the proposal is accepted or discarded anywhere; the confirmation before sending is
 * short, without a warning, and "Don't Ask Again" turns it off in the user settings; Discard says that the
 * generated document stays in the account and offers to delete it (contentDocs.write.discardedDocument).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { STATE } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { WriteResult } from '../../src/write/commands';
import type { Sandbox } from '../sandbox/server';
import { press, read, screenshot } from './harness';
import { configure, type MessageCapture, ProgressControl, type RecordingPrompter, sleep, until } from './reliabilityKit';
import { eachWriteTest, endWriteSuite, POST, proposalTabs, runWriting, selectLines, startWriteSuite, workspaceFile, type WriteSuite } from './writeKit';

let sandbox: Sandbox;
let s: TestServices;
let prompter: RecordingPrompter;
let messages: MessageCapture;
let suite: WriteSuite;

function run(command: string): Promise<WriteResult | undefined> {
  return runWriting(prompter, command);
}

function deletes(): number {
  return sandbox.requests.filter((r) => r.method === 'DELETE').length;
}

/** The text of the active editor group's title actions (the diff's toolbar), as the workbench shows it. */
async function titleActions(): Promise<string> {
  return (await read('.editor-group-container.active .editor-actions')).text;
}

describe('write review: Accept and Discard named and on keys, the ready notification ends when handled, a short confirmation, Discard offers to delete', function () {
  this.timeout(60_000);

  before(async () => {
    suite = await startWriteSuite();
    ({ sandbox, s, prompter, messages } = suite);
    await s.context.globalState.update(STATE.writeStyle, { language: 'en', tone: 'Professional' });
  });

  eachWriteTest(() => suite, { autoDismiss: false });
  after(async () => {
    await configure('write.confirm', undefined);
    await configure('write.discardedDocument', undefined).catch(() => undefined);
    await endWriteSuite(suite);
  });

  it("the diff's title names Accept and Discard in words; Ctrl+Enter accepts and Escape discards while the proposal diff is active", async () => {
    const editor = await workspaceFile('keys.md', POST);
    selectLines(editor, 3, 3);
    const first = await run('contentDocs.selectionRewrite');
    assert.ok(first?.proposal);
    await until('the diff', () => proposalTabs().length === 1 || undefined);
    const actions = await until('the title actions', async () => {
      const text = await titleActions();
      return /Accept/.test(text) ? text : undefined;
    }, 5_000).catch(async () => titleActions());
    await screenshot('write-review-title');
    assert.match(actions, /Accept/, `the title shows "Accept" in words: ${JSON.stringify(actions)}`);
    assert.match(actions, /Discard/, `the title shows "Discard" in words: ${JSON.stringify(actions)}`);

    // The key goes to the focused part: the proposal diff, as when the user runs the action from the editor (a suite
    // before this one may have left the focus in a view).
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await press('Control+Enter');
    const accepted = POST.replace('We ship the new editor on Monday.', first.proposal.replacement);
    await until('Ctrl+Enter to accept', () => editor.document.getText() === accepted || undefined, 5_000).catch(() => undefined);
    assert.strictEqual(editor.document.getText(), accepted, 'Ctrl+Enter applied the proposal');
    await until('the diff to close', () => proposalTabs().length === 0 || undefined);

    await vscode.window.showTextDocument(editor.document, { preview: false });
    selectLines(editor, 1, 1);
    const second = await run('contentDocs.selectionSummarize');
    assert.ok(second?.proposal);
    await until('the diff', () => proposalTabs().length === 1 || undefined);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await press('Escape');
    await until('Escape to discard', () => proposalTabs().length === 0 || undefined, 5_000);
    assert.strictEqual(editor.document.getText(), accepted, 'Escape changed nothing in the file');
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', second.proposal.uri), false, 'the proposal is gone');

    // The ready notification as the notification centre shows it (toasts may stay hidden in the test workbench).
    await vscode.window.showTextDocument(editor.document, { preview: false });
    selectLines(editor, 1, 1);
    const third = await run('contentDocs.selectionRewrite');
    assert.ok(third?.proposal);
    await vscode.commands.executeCommand('notifications.showList');
    await sleep(400);
    await screenshot('write-review-ready');
    await vscode.commands.executeCommand('notifications.hideList');
    await configure('write.discardedDocument', 'keep');
    try {
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalDiscard', third.proposal.uri), true);
    } finally {
      await configure('write.discardedDocument', undefined);
    }
  });

  it('the ready notification names the keys and ends when the proposal is accepted from the title, or discarded by command', async () => {
    const progress = new ProgressControl().install();
    try {
      const editor = await workspaceFile('ready.md', POST);
      selectLines(editor, 12, 12);
      const result = await run('contentDocs.selectionRewrite');
      assert.ok(result?.proposal);
      const ready = await until('the ready notification', () => progress.running.find((r) => /is ready/.test(r.title)), 5_000);
      assert.strictEqual(ready.done, false, 'shown while the proposal waits');
      const said = `${ready.title} ${ready.messages.join(' ')}`;
      assert.match(said, /Accept\]\(command:contentDocs\.proposalAccept\?[^)]+\) \(Ctrl\+Enter\)/, said);
      assert.match(said, /Discard\]\(command:contentDocs\.proposalDiscard\?[^)]+\) \(Escape\)/, said);
      assert.match(said, /Open Beside\]\(command:contentDocs\.proposalOpenDocument\?/, said);
      // No message of the old kind stays behind with live buttons.
      assert.deepStrictEqual(messages.shown.filter((m) => /is ready/.test(m.message) && !m.settled).map((m) => m.message), []);

      // The title's Accept passes the proposal's address, as the editor title does.
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', result.proposal.uri), true);
      await until('the ready notification to end', () => ready.done || undefined, 5_000);

      await vscode.window.showTextDocument(editor.document, { preview: false });
      selectLines(editor, 3, 3);
      const again = await run('contentDocs.selectionRewrite');
      assert.ok(again?.proposal);
      const second = await until('the second ready notification', () => progress.running.find((r) => r !== ready && /is ready/.test(r.title)), 5_000);
      assert.strictEqual(second.done, false);
      // The link's argument: the proposal's address as a string.
      const arg = /proposalDiscard\?([^)]+)\)/.exec(second.messages.join(' '))?.[1];
      assert.ok(arg, 'the Discard link carries its proposal');
      const [uri] = JSON.parse(decodeURIComponent(arg)) as string[];
      assert.strictEqual(uri, again.proposal.uri.toString());
      await configure('write.discardedDocument', 'keep');
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalDiscard', uri), true);
      await until('the second ready notification to end', () => second.done || undefined, 5_000);
    } finally {
      progress.dispose();
      await configure('write.discardedDocument', undefined).catch(() => undefined);
    }
  });

  it('the confirmation is short, without a warning, says what creativity is; "Don\'t Ask Again" sends and turns it off in the user settings', async () => {
    const editor = await workspaceFile('confirm.md', POST);
    selectLines(editor, 3, 4);
    // VS Code's own dialog, as the product asks it (the message capture answers it).
    s.prompter.current = s.prompter.vscode;
    try {
      const pending = Promise.resolve(vscode.commands.executeCommand<WriteResult | undefined>('contentDocs.selectionRewrite'));
      const asked = await messages.waitFor('the confirmation', (m) => m.modal, 5_000);
      assert.strictEqual(asked.level, 'info', 'no warning icon');
      const words = `${asked.message} ${asked.detail ?? ''}`;
      assert.ok(words.split(/\s+/).length <= 50, `short: ${words.split(/\s+/).length} words: ${words}`);
      assert.match(words, /creativity Original \(how freely it writes\)/i, words);
      assert.match(words, /counts toward your plan/, words);
      const dontAsk = asked.items.find((i) => /Don't Ask Again/.test(i));
      assert.ok(dontAsk, `a "Don't Ask Again" choice: ${asked.items.join(' | ')}`);
      asked.choose(dontAsk);
      const result = await pending;
      assert.ok(result?.proposal, 'it sends');
      const setting = vscode.workspace.getConfiguration('contentDocs').inspect<boolean>('write.confirm');
      assert.strictEqual(setting?.globalValue, false, 'turned off in the user settings');
      assert.strictEqual(setting?.workspaceValue, undefined, 'not in the workspace');
      await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri);

      // The next run asks nothing.
      messages.clear();
      await vscode.window.showTextDocument(editor.document, { preview: false });
      selectLines(editor, 3, 4);
      const next = await vscode.commands.executeCommand<WriteResult | undefined>('contentDocs.selectionRewrite');
      assert.ok(next?.proposal);
      assert.deepStrictEqual(messages.shown.filter((m) => m.modal).map((m) => m.message), [], 'not asked again');
    } finally {
      s.prompter.current = prompter;
      await configure('write.confirm', undefined);
    }
  });

  it('Discard says the generated document stays in the account and offers to delete it; the setting keeps or deletes without asking', async () => {
    const editor = await workspaceFile('discard.md', POST);
    selectLines(editor, 3, 3);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const id = result.document.id;
    assert.strictEqual(result.document.name, 'Rewrite · discard.md:3', 'the name says what it was for');
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri), true);
    const offer = await messages.waitFor('the offer to delete', (m) => /stays in your account/.test(m.message), 5_000);
    assert.match(offer.message, /"Rewrite · discard\.md:3"/);
    assert.match(offer.message, /words count toward your plan/);
    assert.ok(offer.items.includes('Delete Document'), offer.items.join(' | '));
    assert.ok(sandbox.documents.has(id), 'nothing deleted before the answer');
    offer.choose('Delete Document');
    await until('the document to be deleted', () => !sandbox.documents.has(id) || undefined, 5_000);
    assert.strictEqual(deletes(), 1);

    // "keep": no question, the document stays.
    await configure('write.discardedDocument', 'keep');
    try {
      messages.clear();
      await vscode.window.showTextDocument(editor.document, { preview: false });
      selectLines(editor, 3, 3);
      const kept = await run('contentDocs.selectionRewrite');
      assert.ok(kept?.proposal);
      await vscode.commands.executeCommand('contentDocs.proposalDiscard', kept.proposal.uri);
      await sleep(300);
      assert.deepStrictEqual(messages.shown.filter((m) => m.items.includes('Delete Document')).map((m) => m.message), [], 'not asked');
      assert.ok(sandbox.documents.has(kept.document.id), 'kept');
      assert.strictEqual(deletes(), 1);

      // "delete": no question, the document goes.
      await configure('write.discardedDocument', 'delete');
      await vscode.window.showTextDocument(editor.document, { preview: false });
      selectLines(editor, 3, 3);
      const gone = await run('contentDocs.selectionRewrite');
      assert.ok(gone?.proposal);
      await vscode.commands.executeCommand('contentDocs.proposalDiscard', gone.proposal.uri);
      await until('the document to be deleted', () => !sandbox.documents.has(gone.document.id) || undefined, 5_000);
      assert.deepStrictEqual(messages.shown.filter((m) => m.items.includes('Delete Document')).map((m) => m.message), [], 'not asked');
      assert.strictEqual(editor.document.getText(), POST, 'the file is untouched throughout');
    } finally {
      await configure('write.discardedDocument', undefined);
    }
  });
});

describe('write review: the Discard delete offer deletes only the document as the run wrote it', function () {
  this.timeout(60_000);

  before(async () => {
    suite = await startWriteSuite();
    ({ sandbox, s, prompter, messages } = suite);
    await s.context.globalState.update(STATE.writeStyle, { language: 'en', tone: 'Professional' });
  });

  eachWriteTest(() => suite, { autoDismiss: false });
  after(async () => {
    await configure('write.discardedDocument', undefined).catch(() => undefined);
    await endWriteSuite(suite);
  });

  it('a generated document changed after the run (elsewhere, while the offer waited) is kept when Delete Document is chosen, and the user is told', async () => {
    const editor = await workspaceFile('discard-edited.md', POST);
    selectLines(editor, 3, 3);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const id = result.document.id;
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri), true);
    const offer = await messages.waitFor('the offer to delete', (m) => /stays in your account/.test(m.message), 5_000);
    // The user makes the document their own in the web app before answering (the offer stays until answered).
    const stored = sandbox.documents.get(id)!;
    stored.result = 'My own notes, written in the generated document after the run.';
    stored.updatedAt = new Date(stored.updatedAt.getTime() + 1000);
    offer.choose('Delete Document');
    const told = await messages.waitFor('word that it was kept', (m) => m.message.includes(result.document.name) && /kept/i.test(m.message), 5_000);
    assert.doesNotMatch(told.message, /^Deleted/);
    await sleep(300);
    assert.ok(sandbox.documents.has(id), 'the edited document is still in the account');
    assert.strictEqual(deletes(), 0, 'no DELETE was sent');
  });

  it('with contentDocs.write.discardedDocument "delete", a generated document opened and saved with the user\'s text before Discard is kept', async () => {
    await configure('write.discardedDocument', 'delete');
    const editor = await workspaceFile('discard-saved.md', POST);
    selectLines(editor, 3, 3);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const id = result.document.id;
    const beside = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.proposalOpenDocument', result.proposal.uri);
    assert.ok(beside, 'the generated document opened beside');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(beside.document.uri, new vscode.Position(0, 0), 'Kept by me: ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await beside.document.save(), 'saved');
    await until('the save on the server', () => sandbox.documents.get(id)?.result?.startsWith('Kept by me: ') || undefined, 5_000);
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri), true);
    await messages.waitFor('word that it was kept', (m) => m.message.includes(result.document.name) && /kept/i.test(m.message), 5_000);
    await sleep(300);
    assert.ok(sandbox.documents.has(id), 'the document the user saved text in is still in the account');
    assert.strictEqual(deletes(), 0, 'no DELETE was sent');
  });
});
