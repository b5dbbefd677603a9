/**
 * The writing actions at their edges, inside a real VS Code against the sandbox: several cursors, a 422 with
 * several field messages, a store whose result is empty, null or HTML, a Cancel after which the server still
 * creates the document, a proposal tab whose proposal is gone (a window reload), a CRLF file selected whole, and
 * a slow server while the user moves the cursors.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { STATE } from '../../src/constants';
import type { Services } from '../../src/services/services';
import type { WriteResult } from '../../src/write/commands';
import type { Sandbox } from '../sandbox/server';
import { type MessageCapture, ProgressControl, type RecordingPrompter, sleep, until } from './reliabilityKit';
import { cleanUp, eachWriteTest, endWriteSuite, POST, PROPOSAL, proposalTabs, runWriting, selectLines, startWriteSuite, untitled, workspaceFile, type WriteSuite } from './writeKit';

let sandbox: Sandbox;
let s: Services;
let prompter: RecordingPrompter;
let messages: MessageCapture;
let suite: WriteSuite;

function stores() {
  return sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/documents');
}

function run(command: string): Promise<WriteResult | undefined> {
  return runWriting(prompter, command);
}

function lineRange(doc: vscode.TextDocument, line: number): vscode.Selection {
  return new vscode.Selection(line - 1, 0, line - 1, doc.lineAt(line - 1).text.length);
}

async function accept(uri: vscode.Uri): Promise<boolean> {
  return (await vscode.commands.executeCommand<boolean>('contentDocs.proposalAccept', uri)) === true;
}

describe('write edges: several cursors, 422 field messages, empty or HTML results, Cancel then created, a proposal gone after a reload', function () {
  this.timeout(60_000);

  before(async () => {
    suite = await startWriteSuite();
    ({ sandbox, s, prompter, messages } = suite);
    // A remembered language and tone: no account read gets in the way.
    await s.context.globalState.update(STATE.writeStyle, { language: 'en', tone: 'Professional' });
  });

  eachWriteTest(() => suite, { autoDismiss: true });
  after(() => endWriteSuite(suite));

  // --- Several cursors -----------------------------------------------------------------------------------

  it('several selections: only the first (primary) is sent and replaced; the text of the others is untouched by Accept', async () => {
    const editor = await workspaceFile('cursors.md', POST);
    const doc = editor.document;
    editor.selections = [lineRange(doc, 3), lineRange(doc, 12), lineRange(doc, 9)];
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const sent = stores()[0]?.body;
    assert.ok(sent, 'a store was sent');
    assert.ok(sent.prompt.includes('We ship the new editor on Monday.'), 'the first selection is sent');
    assert.ok(!sent.prompt.includes('Thanks for reading') && !sent.prompt.includes('A new toolbar'), 'the others are not');
    assert.strictEqual(sent.name, 'Rewrite · cursors.md:3');
    const confirm = prompter.asked.find((q) => q.kind === 'confirm');
    assert.match(confirm?.message ?? '', /Only the first selection \(line 3\) is used; the other selections \(2\) are left as they are\./);
    assert.strictEqual(await accept(result.proposal.uri), true);
    const now = editor.document.getText();
    assert.strictEqual(now, POST.replace('We ship the new editor on Monday.', result.proposal.replacement));
    assert.ok(now.includes('\n- A new toolbar\n') && now.includes('\nThanks for reading.\n'), 'the other selections keep their text');
  });

  it('several cursors in an untitled editor whose first one selects nothing: refused before sending, never the whole text', async () => {
    const text = 'One line.\nTwo line.\nThree line.\n';
    const editor = await untitled(text);
    editor.selections = [new vscode.Selection(0, 3, 0, 3), lineRange(editor.document, 2), lineRange(editor.document, 3)];
    assert.strictEqual(await run('contentDocs.selectionSummarize'), undefined);
    const warning = await messages.waitFor('the refusal', (m) => m.level === 'warning');
    assert.match(warning.message, /^Summarize Selection: there are 3 cursors and the first one selects nothing\. .*Nothing was sent\.$/);
    assert.strictEqual(prompter.asked.length, 0, 'not even asked');
    assert.strictEqual(stores().length, 0);
    assert.strictEqual(editor.document.getText(), text);
  });

  it('several cursors in an untitled editor: Accept replaces the first selection only', async () => {
    const text = 'Alpha paragraph here.\n\nBeta paragraph here.\n\nGamma paragraph here.\n';
    const editor = await untitled(text);
    editor.selections = [lineRange(editor.document, 3), lineRange(editor.document, 1), lineRange(editor.document, 5)];
    const result = await run('contentDocs.selectionFixGrammar');
    assert.ok(result?.proposal);
    assert.strictEqual(await accept(result.proposal.uri), true);
    assert.strictEqual(editor.document.getText(), text.replace('Beta paragraph here.', result.proposal.replacement));
  });

  // --- 422 with several messages -----------------------------------------------------------------------------

  it('a 422 on name and prompt: every message is shown, nothing changes in the editor', async () => {
    const editor = await workspaceFile('invalid.md', POST);
    selectLines(editor, 3, 4);
    sandbox.setFault('documents.store', {
      kind: 'status422',
      count: 1,
      fields: { name: ['You have reached the words limit.'], prompt: ['The prompt must not be greater than 1000 characters.', 'The prompt format is invalid.'] },
    });
    assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
    const error = await messages.waitFor('the 422 message', (m) => m.level === 'error');
    for (const said of ['You have reached the words limit.', 'The prompt must not be greater than 1000 characters.', 'The prompt format is invalid.']) {
      assert.ok(error.message.includes(said), `"${said}" is shown: ${error.message}`);
    }
    assert.match(error.message, /No document was created\. Your text is unchanged\.$/);
    assert.strictEqual(editor.document.getText(), POST);
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(proposalTabs().length, 0);

    // Both monthly limits reached: the server gives two messages on name; both are shown, and both limits named.
    messages.clear();
    const { plan } = sandbox.account;
    sandbox.setAccount({ counters: { words_month_count: plan.features.words, documents_month_count: plan.features.documents } });
    try {
      prompter.confirms.push(true);
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.selectionRewrite'), undefined);
      const quota = await messages.waitFor('the quota message', (m) => m.level === 'error');
      assert.match(quota.message, /monthly words and documents limit is reached/);
      assert.ok(quota.message.includes('You have reached the words limit.') && quota.message.includes('You created too many documents.'), quota.message);
    } finally {
      sandbox.setAccount({ counters: { words_month_count: 0, documents_month_count: 0 } });
    }
    assert.strictEqual(editor.document.getText(), POST);
  });

  it("a 422 on name that is no quota (an administrator's banned keyword in the name) says the name was refused, not that a limit is reached", async () => {
    const editor = await workspaceFile('launch-secret.md', POST);
    selectLines(editor, 3, 4);
    const banned = sandbox.bannedWords;
    sandbox.bannedWords = ['secret'];
    try {
      assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
      const error = await messages.waitFor('the refusal', (m) => m.level === 'error');
      assert.doesNotMatch(error.message, /limit/i, error.message);
      assert.match(error.message, /^Couldn't rewrite the text: the server refused the document's name "Rewrite · launch-secret\.md[^"]*"\. The server said: "The name contains a keyword that is banned\." No document was created\. Your text is unchanged\.$/);
    } finally {
      sandbox.bannedWords = banned;
    }
    assert.deepStrictEqual(sandbox.requests.filter((r) => r.route === 'documents.store').map((r) => r.status).slice(-1), [422]);
    assert.strictEqual(editor.document.getText(), POST);
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(proposalTabs().length, 0);
  });

  // --- Results with nothing to propose -----------------------------------------------------------------------

  for (const [what, answer] of [
    ['an empty result', ''],
    ['a null result', null],
    ['an HTML-only result without text', '<p><br></p>\n<p>&nbsp;</p>'],
  ] as const) {
    it(`${what}: a clear message, no proposal, the editor unchanged`, async () => {
      const editor = await workspaceFile('nothing.md', POST);
      selectLines(editor, 3, 4);
      sandbox.setModelAnswer(answer);
      const result = await run('contentDocs.selectionRewrite');
      assert.ok(result, 'the document was created');
      assert.strictEqual(result.proposal, undefined, 'no proposal');
      assert.strictEqual(sandbox.documents.get(result.document.id)?.result, answer === null ? null : answer.trim());
      const info = await messages.waitFor('the message', (m) => m.level === 'info' && m.message.includes(result.document.name));
      assert.match(info.message, /was created, but the service wrote no text: nothing to propose\. Your text is unchanged\./);
      assert.ok(info.items.includes('Open Beside'));
      await sleep(200);
      assert.strictEqual(proposalTabs().length, 0);
      assert.strictEqual(editor.document.getText(), POST);
      assert.strictEqual(editor.document.isDirty, false);
    });
  }

  it('an HTML result becomes Markdown in a Markdown file and text in a plain-text file', async () => {
    const html = '<h2>Launch</h2>\n<p>We ship the <strong>new</strong> editor&nbsp;on Monday.</p><ul><li>Faster saves</li><li>A new toolbar</li></ul>';
    sandbox.setModelAnswer(html);
    const md = await workspaceFile('html.md', POST);
    selectLines(md, 3, 4);
    const r1 = await run('contentDocs.selectionRewrite');
    assert.ok(r1?.proposal);
    assert.match(r1.proposal.replacement, /^## Launch\n\nWe ship the \*?\*?new\*?\*? editor.on Monday\.\n\n- Faster saves\n- A new toolbar$/);
    assert.doesNotMatch(r1.proposal.replacement, /<\/?(h2|p|ul|li|strong)>|&nbsp;/);
    assert.strictEqual(await accept(r1.proposal.uri), true);

    await cleanUp();
    const txt = await untitled('We ship the new editor on Monday.\nIt replaces the old one.\n', 'plaintext');
    selectLines(txt, 1, 2);
    const r2 = await run('contentDocs.selectionRewrite');
    assert.ok(r2?.proposal);
    assert.doesNotMatch(r2.proposal.replacement, /<\/?(h2|p|ul|li|strong)>|&nbsp;/, r2.proposal.replacement);
    assert.ok(r2.proposal.replacement.includes('Launch') && r2.proposal.replacement.includes('Faster saves'));
  });

  // --- Cancel, and the server creates the document anyway ---------------------------------------------------

  it('Cancel, then the server still creates the document: the message says so; after a refresh it is in its template group and All Documents; the editor is unchanged', async () => {
    const progress = new ProgressControl().install();
    try {
      const editor = await workspaceFile('cancel-created.md', POST);
      selectLines(editor, 3, 4);
      sandbox.setLatency(1_500);
      const pending = run('contentDocs.selectionRewrite');
      await until('the store on the wire', () => stores().length > 0 || undefined);
      const entry = await until('the progress', () => progress.running.find((r) => !r.done));
      entry.cancel();
      assert.strictEqual(await pending, undefined);
      const info = await messages.waitFor('the cancel message', (m) => m.level === 'info' && /Stopped waiting/.test(m.message));
      assert.match(info.message, /The service may still create the document: it will show in the Documents view after a refresh\./);
      const name = 'Rewrite · cancel-created.md:3';
      const created = await until('the server to create it anyway', () => [...sandbox.documents.values()].find((d) => d.name === name), 10_000);
      sandbox.setLatency(0);
      await sleep(300);
      assert.strictEqual(proposalTabs().length, 0, 'no proposal comes after Cancel');
      assert.strictEqual(editor.document.getText(), POST);
      assert.strictEqual(editor.document.isDirty, false);

      await vscode.commands.executeCommand('contentDocs.documentsRefresh');
      const group = s.documentsTree.templateGroup(14);
      assert.ok(group);
      const inGroup = (await s.documentsTree.load(group)).some((n) => n.kind === 'document' && n.doc.id === created.id);
      const inAll = (await s.documentsTree.load(s.documentsTree.model.allGroup)).some((n) => n.kind === 'document' && n.doc.id === created.id);
      assert.ok(inGroup, 'in Content rewrite after a refresh');
      assert.ok(inAll, 'in All Documents after a refresh');
    } finally {
      progress.dispose();
    }
  });

  // --- A proposal tab restored after a reload --------------------------------------------------------------

  it('a proposal URI whose proposal is gone (a tab restored after a window reload) explains itself instead of showing an empty file; Accept there changes nothing', async () => {
    const editor = await workspaceFile('restored.md', POST);
    const generated = [...sandbox.documents.values()].find((d) => (d.result ?? '').length > 20);
    assert.ok(generated);
    // The URI an earlier window gave its first proposal of this file (it names the account it was made in).
    const account = await s.documents.currentAccount();
    assert.ok(account);
    const stale = vscode.Uri.from({ scheme: PROPOSAL, path: '/1/restored.md', query: `document=${generated.id}&name=Rewrite+%C2%B7+restored.md%3A3&account=${account}` });
    await vscode.commands.executeCommand('vscode.diff', editor.document.uri, stale, 'restored.md ↔ Rewrite · restored.md:3 (proposal)');
    const shown = await vscode.workspace.openTextDocument(stale);
    assert.match(shown.getText(), /^This proposal is no longer available\.\n/);
    assert.ok(shown.getText().includes(`"Rewrite · restored.md:3" (#${generated.id})`), shown.getText());
    // Open Beside in its title still reaches the generated document.
    const beside = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.proposalOpenDocument', stale);
    assert.strictEqual(beside?.document.uri.authority.split('.')[0], String(generated.id));
    await vscode.window.showTextDocument(editor.document, { preview: false });
    assert.match(shown.getText(), /Nothing was changed in your file\./);
    assert.strictEqual(await accept(stale), false);
    await messages.waitFor('the warning', (m) => m.level === 'warning' && /no proposal to accept/.test(m.message));
    assert.strictEqual(editor.document.getText(), POST);

    // A new proposal of the same file in this window is its own document, not the restored tab's.
    await vscode.window.showTextDocument(editor.document, { preview: false });
    selectLines(editor, 3, 3);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    assert.notStrictEqual(result.proposal.uri.toString(), stale.toString());
    const proposed = await vscode.workspace.openTextDocument(result.proposal.uri);
    assert.strictEqual(proposed.getText(), result.proposal.proposedText);
    assert.ok(proposed.getText().includes(result.proposal.replacement));

    // Once settled, the proposal's URI explains itself too.
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri), true);
    const key = result.proposal.uri.toString();
    await until('the proposal document to be closed', () => !vscode.workspace.textDocuments.some((d) => d.uri.toString() === key) || undefined, 2_000).catch(() => undefined);
    if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) {
      const again = await vscode.workspace.openTextDocument(result.proposal.uri);
      assert.match(again.getText(), /^This proposal is no longer available\./);
    }
  });

  // --- Adversary: CRLF whole file, a slow server while the cursors move -----------------------------------

  it('a CRLF file selected whole: Accept replaces all of it with CRLF line ends, one undo restores it character for character', async () => {
    const text = '# Title\r\n\r\nFirst paragraph.\r\n\r\n- one\r\n- two\r\n';
    const editor = await workspaceFile('crlf-all.md', text);
    const doc = editor.document;
    editor.selection = new vscode.Selection(doc.positionAt(0), doc.positionAt(doc.getText().length));
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    assert.strictEqual(stores()[0]?.body?.name, 'Rewrite · crlf-all.md:1');
    const crlfOnly = (t: string) => !/(^|[^\r])\n/.test(t);
    assert.ok(crlfOnly(result.proposal.proposedText), 'the proposal (the diff) has the file\'s CRLF line ends: only the words differ');
    assert.strictEqual(await accept(result.proposal.uri), true);
    const now = editor.document.getText();
    assert.ok(crlfOnly(now), 'every line end is CRLF');
    assert.strictEqual(now, result.proposal.replacement.replace(/\r?\n/g, '\r\n'));
    assert.ok(now.endsWith('\r\n'), "the selection's final line end is kept");
    const active = vscode.window.activeTextEditor;
    assert.strictEqual(active?.document.getText(active.selection), now, 'the selection covers exactly what was inserted: the whole file');
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), text, 'one undo restores it, CRLF and all');
  });

  it('a slow server while the user adds cursors and selects elsewhere: Accept still replaces only the text that was sent', async () => {
    const editor = await workspaceFile('slow.md', POST);
    const doc = editor.document;
    editor.selection = lineRange(doc, 12);
    sandbox.setLatency(2_000);
    const pending = run('contentDocs.selectionRewrite');
    await until('the store on the wire', () => stores().length > 0 || undefined);
    // The user moves on: several cursors elsewhere, one of them typing.
    editor.selections = [lineRange(doc, 3), lineRange(doc, 8)];
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'Draft: ')));
    const edited = doc.getText();
    const result = await pending;
    assert.ok(result?.proposal);
    assert.strictEqual(await accept(result.proposal.uri), true);
    assert.strictEqual(doc.getText(), edited.replace('Thanks for reading.', result.proposal.replacement));
  });
});
