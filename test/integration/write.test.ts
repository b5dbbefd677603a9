/**
 * Writing with the service where the text is: the selection commands on a file:// workspace file and an
 * untitled editor, inside a real VS Code against the sandbox. Questions and the confirmation are answered
 * through the extension's prompter; messages and progress are observed by replacing the window functions
 * the extension calls (the API object is shared with the tests).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { STATE } from '../../src/constants';
import { registerWriteUi } from '../../src/write/menu';
import type { TestServices } from '../kit/services';
import type { WriteResult } from '../../src/write/commands';
import type { RequestRecord, Sandbox } from '../sandbox/server';
import { click, press, read, screenshot } from './harness';
import { besidesTheWindow, closedPort, configure, type MessageCapture, ProgressControl, type RecordingPrompter, sleep, until } from './reliabilityKit';
import { eachWriteTest, endWriteSuite, POST, proposalTabs, runWriting, selectLines, startWriteSuite, untitled, workspaceFile, type WriteSuite } from './writeKit';

const ACTIONS = [
  { command: 'contentDocs.selectionRewrite', label: 'Rewrite', templateId: 14, placement: 'replace' },
  { command: 'contentDocs.selectionSummarize', label: 'Summary', templateId: 15, placement: 'replace' },
  { command: 'contentDocs.selectionFixGrammar', label: 'Grammar', templateId: 45, placement: 'replace' },
  { command: 'contentDocs.selectionHeadlines', label: 'Headlines', templateId: 18, placement: 'below' },
  { command: 'contentDocs.selectionMetaDescription', label: 'Meta description', templateId: 20, placement: 'below' },
] as const;

let sandbox: Sandbox;
let s: TestServices;
let prompter: RecordingPrompter;
let messages: MessageCapture;
let suite: WriteSuite;

function stores(): RequestRecord[] {
  return sandbox.requests.filter((r) => r.route === 'documents.store');
}
function accountReads(): number {
  return sandbox.requests.filter((r) => r.route === 'account').length;
}
function body0(): Record<string, string> {
  const b = stores()[0]?.body;
  assert.ok(b, 'a store was sent');
  return b;
}
/** A store has arrived (its route is named only once it is answered: match the method and path). */
function storeOnWire(): true | undefined {
  return sandbox.requests.some((r) => r.method === 'POST' && r.path === '/api/v1/documents') || undefined;
}
function lists(): number {
  return sandbox.requests.filter((r) => r.route === 'documents.list').length;
}

/** Runs a writing command with the confirmation answered Yes; returns what the command returned. */
function run(command: string, confirm = true): Promise<WriteResult | undefined> {
  return runWriting(prompter, command, confirm);
}

async function focus(editor: vscode.TextEditor): Promise<vscode.TextEditor> {
  return vscode.window.showTextDocument(editor.document, { preview: false, viewColumn: editor.viewColumn });
}

describe('write: AI writing on the active editor (selection commands, proposal, Accept/Discard)', function () {
  this.timeout(60_000);

  before(async () => {
    suite = await startWriteSuite();
    ({ sandbox, s, prompter, messages } = suite);
    // The account prefers Creative: Generate from Selection preselects it; the one-step actions use the setting (0.5).
    sandbox.setAccount({ defaultCreativity: 0.75 });
    // No language chosen yet: the account's default_language applies (read once, when first needed).
    await s.context.globalState.update(STATE.writeStyle, undefined);
    await s.context.globalState.update(STATE.writeRecentTemplates, undefined);
  });

  eachWriteTest(() => suite);
  after(() => endWriteSuite(suite));

  it('each one-step action shows its proposal as a diff; one store each and at most one account read each (the defaults once a session, then the plan usage after each generation)', async () => {
    const editor = await workspaceFile('post.md', POST);
    const readsAtStart = accountReads();
    for (const [i, a] of ACTIONS.entries()) {
      await focus(editor);
      selectLines(editor, 3, 4);
      const before = sandbox.requests.length;
      const result = await run(a.command);
      assert.ok(result?.proposal, `${a.label}: a proposal`);
      const mine = sandbox.requests.slice(before);
      const myStores = mine.filter((r) => r.route === 'documents.store');
      assert.strictEqual(myStores.length, 1, `${a.label}: exactly one store`);
      assert.ok(mine.filter((r) => r.route === 'account').length <= 1, `${a.label}: at most one account read`);
      // Besides the account reads, and the requests a view on screen sends by itself meanwhile (its rows and counts):
      // a writing action lists nothing and reads no document.
      assert.deepStrictEqual(
        besidesTheWindow(mine).map((r) => r.route).filter((r) => r !== 'account'),
        ['documents.store'],
        `${a.label}: nothing else is asked`,
      );
      assert.strictEqual(myStores[0].status, 201);
      assert.strictEqual(myStores[0].body?.name, `${a.label} · post.md:3`);
      assert.strictEqual(myStores[0].body?.template_id, String(a.templateId));
      assert.strictEqual(myStores[0].body?.creativity, '0.5');
      // The confirmation said what it costs.
      const confirm = prompter.asked.filter((q) => q.kind === 'confirm').pop();
      assert.match(confirm?.message ?? '', /counts toward your plan's monthly words and documents/);
      // The language (the account's default, English) and tone, except for a grammar fix.
      if (a.label === 'Grammar') assert.doesNotMatch(myStores[0].body?.prompt ?? '', /Write the answer in/);
      else assert.match(myStores[0].body?.prompt ?? '', /Write the answer in English, in a professional tone\./);

      const p = result.proposal;
      const created = sandbox.documents.get(result.document.id);
      assert.ok(created, 'the document exists in the account');
      assert.strictEqual(p.documentId, created.id);
      // The diff: the file on the left, the proposed file on the right.
      const tab = await until(`${a.label}: the diff`, () => proposalTabs().find((t) => t.modified.toString() === p.uri.toString()));
      assert.strictEqual(tab.original.toString(), editor.document.uri.toString());
      const proposed = (await vscode.workspace.openTextDocument(p.uri)).getText();
      const original = editor.document.getText(p.range);
      if (a.placement === 'replace') assert.strictEqual(proposed, POST.replace(original, p.replacement));
      else assert.ok(p.replacement.startsWith(`${original}\n\n`), `${a.label}: the answer goes below the text`);
      assert.ok(p.replacement.includes('[sandbox] Generated for:'), "the proposal is the model's text");
      assert.strictEqual(editor.document.getText(), POST, 'nothing changed before Accept');
      if (i === 0) await screenshot('write-preview-diff');
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalDiscard', p.uri), true);
      await until('the diff to close', () => proposalTabs().length === 0 || undefined);
    }
    // The defaults are read once a session (shared with the status bar); after that, each generation re-reads only the usage.
    await until('the usage read after the last generation', () => s.account.cached !== undefined || undefined);
    await sleep(600);
    assert.ok(accountReads() - readsAtStart <= ACTIONS.length + 1, `the account is read ${accountReads() - readsAtStart} times for ${ACTIONS.length} generations`);
    // Whether read again or counted in locally (the run that read the defaults), the usage matches the server's counters.
    const usage = s.account.cached!;
    assert.strictEqual(usage.month.documents, sandbox.account.counters.documents_month_count, 'documents this month, as the server counts them');
    assert.strictEqual(usage.month.words, sandbox.account.counters.words_month_count, 'words this month, as the server counts them');
    assert.strictEqual(editor.document.getText(), POST);
    assert.strictEqual(editor.document.isDirty, false, 'Discard leaves the file as it was');
    assert.strictEqual(fs.readFileSync(editor.document.uri.fsPath, 'utf8'), POST);
  });

  it('Accept applies one edit to the workspace file, and one undo restores it', async () => {
    const editor = await workspaceFile('accept.md', POST);
    selectLines(editor, 12, 12);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const p = result.proposal;
    assert.strictEqual(stores()[0].body?.name, 'Rewrite · accept.md:12');
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', p.uri), true);
    const expected = POST.replace('Thanks for reading.', p.replacement);
    assert.strictEqual(editor.document.getText(), expected);
    await until('the diff to close', () => proposalTabs().length === 0 || undefined);
    await focus(editor);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), POST, 'one undo restores the original');
    await vscode.commands.executeCommand('redo');
    assert.strictEqual(editor.document.getText(), expected);
    // Accepting again: nothing left to accept.
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', p.uri), false);
    assert.strictEqual(editor.document.getText(), expected);
  });

  it('an untitled editor: Discard leaves it unchanged, Accept changes it, one undo restores', async () => {
    const text = 'Untitled draft about the harbour at dawn.\n';
    const editor = await untitled(text);
    const r1 = await run('contentDocs.selectionSummarize');
    assert.ok(r1?.proposal, 'the whole text when nothing is selected');
    assert.match(stores()[0].body?.name ?? '', /^Summary · Untitled-\d+$/);
    assert.strictEqual(r1.proposal.original, text);
    await vscode.commands.executeCommand('contentDocs.proposalDiscard', r1.proposal.uri);
    assert.strictEqual(editor.document.getText(), text);

    await focus(editor);
    const r2 = await run('contentDocs.selectionFixGrammar');
    assert.ok(r2?.proposal);
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', r2.proposal.uri), true);
    assert.strictEqual(editor.document.getText(), r2.proposal.replacement);
    assert.ok(r2.proposal.replacement.endsWith('\n'), "the selection's trailing newline is kept");
    await focus(editor);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), text);
  });

  it('a multi-paragraph Markdown selection keeps its headings, paragraphs and lists through the flattening server', async () => {
    const editor = await workspaceFile('structure.md', POST);
    selectLines(editor, 1, 10);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const seen = sandbox.lastModelPrompt ?? '';
    assert.doesNotMatch(seen, /\n/, 'the model sees one line');
    assert.ok(
      seen.includes(
        '<h1>Launch notes</h1><p>We ship the new editor on Monday.<br>It replaces the old one.</p><h2>What changes</h2><ul><li>Faster saves</li><li>A new toolbar</li><li>Offline drafts</li></ul>',
      ),
      `the structure is encoded in the prompt: ${seen}`,
    );
    // The sandbox's model echoes the prompt: its markup comes back as Markdown with real line breaks.
    const text = result.proposal.replacement;
    assert.match(text, /\n\n# Launch notes\n\nWe ship the new editor on Monday\.\nIt replaces the old one\.\n\n## What changes\n\n- Faster saves\n- A new toolbar\n- Offline drafts/);
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', result.proposal.uri), true);
    assert.ok(editor.document.getText().includes('## What changes\n\n- Faster saves\n'));
  });

  it('refuses a prompt over 2,048 characters and an empty file before sending anything', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `Sentence ${i} of a long paragraph that goes on and on for a while.`).join(' ');
    const editor = await workspaceFile('long.md', `${long}\n`);
    selectLines(editor, 1, 1);
    const result = await run('contentDocs.selectionRewrite');
    assert.strictEqual(result, undefined);
    const refusal = await messages.waitFor('the refusal', (m) => m.level === 'error');
    assert.match(refusal.message, /the prompt would have 2,\d{3} characters and the service accepts at most 2,048 \(the text itself has \d[\d,]*\)\. Select less text\. Nothing was sent\./);
    assert.strictEqual(prompter.asked.filter((q) => q.kind === 'confirm').length, 0, 'not even asked');

    await untitled('');
    messages.clear();
    assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
    const empty = await messages.waitFor('the empty-file warning', (m) => m.level === 'warning');
    assert.match(empty.message, /there is no text, the file is empty\. Nothing was sent\./);
    assert.strictEqual(stores().length, 0, 'no store');
  });

  it('declining the confirmation sends nothing', async () => {
    const editor = await workspaceFile('decline.md', POST);
    selectLines(editor, 3, 3);
    assert.strictEqual(await run('contentDocs.selectionRewrite', false), undefined);
    assert.strictEqual(stores().length, 0);
    assert.strictEqual(proposalTabs().length, 0);
  });

  it('Cancel stops waiting, says the document may still be created, and leaves the editor untouched', async () => {
    const progress = new ProgressControl().install();
    // A remembered language and tone: no account read is needed, so the slow answer is the store's.
    await s.context.globalState.update(STATE.writeStyle, { language: 'fr', tone: 'Casual' });
    try {
      const editor = await workspaceFile('cancel.md', POST);
      selectLines(editor, 3, 4);
      sandbox.setLatency(5_000);
      const pending = run('contentDocs.selectionRewrite');
      await until('the store to be on the wire', storeOnWire);
      const entry = await until('the progress', () => progress.running.find((r) => !r.done));
      assert.strictEqual(entry.title, 'Rewrite Selection: "Rewrite · cancel.md:3"');
      entry.cancel();
      assert.strictEqual(await pending, undefined);
      const info = await messages.waitFor('the cancel message', (m) => m.level === 'info' && /Stopped waiting/.test(m.message));
      assert.match(info.message, /The service may still create the document: it will show in the Documents view after a refresh\. Your text is unchanged\./);
      assert.strictEqual(editor.document.getText(), POST);
      assert.strictEqual(editor.document.isDirty, false);
      assert.strictEqual(proposalTabs().length, 0);
      assert.match(sandbox.requests.find((r) => r.method === 'POST')?.body?.prompt ?? '', /Write the answer in French, in a casual tone\./, 'the remembered choice');
    } finally {
      progress.dispose();
      await s.context.globalState.update(STATE.writeStyle, undefined);
    }
  });

  it('a 500 from the generator and a quota 422 are explained in plain words; nothing changes', async () => {
    const editor = await workspaceFile('errors.md', POST);
    selectLines(editor, 3, 4);
    sandbox.setFault('documents.store', { kind: 'status500', count: 1 });
    assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
    const e500 = await messages.waitFor('the 500 message', (m) => m.level === 'error');
    assert.match(e500.message, /^Couldn't rewrite the text: the text generator failed on the server \(HTTP 500\)\. No document was created\. Your text is unchanged\./);
    assert.ok(e500.items.includes('Retry'));
    assert.strictEqual(stores().length, 1, 'never retried on its own');

    messages.clear();
    sandbox.resetRequests();
    const { plan } = sandbox.account;
    sandbox.setAccount({ counters: { words_month_count: plan.features.words } });
    try {
      await focus(editor);
      assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
      const quota = await messages.waitFor('the quota message', (m) => m.level === 'error');
      assert.match(quota.message, /^Couldn't rewrite the text: your plan's monthly words limit is reached\. Used this month: 500,000 of 500,000 words and \d[\d,]* of 1,000 documents\. The server said: "You have reached the words limit\." No document was created\. Your text is unchanged\.$/);
      assert.deepStrictEqual(stores().map((r) => r.status), [422]);
      assert.ok(accountReads() <= 1, 'at most one account read for the usage');
    } finally {
      sandbox.setAccount({ counters: { words_month_count: 0 } });
    }
    assert.strictEqual(editor.document.getText(), POST);
    assert.strictEqual(proposalTabs().length, 0);
  });

  it('429 and an unreachable server are explained in plain words; nothing changes', async () => {
    const editor = await workspaceFile('offline.md', POST);
    selectLines(editor, 3, 4);
    sandbox.setFault('documents.store', { kind: 'rateLimit', count: 1, retryAfter: 7 });
    assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
    const e429 = await messages.waitFor('the 429 message', (m) => m.level === 'error');
    assert.match(e429.message, /^Couldn't rewrite the text: too many requests \(HTTP 429\): try again in 7 seconds\. Your text is unchanged\.$/);
    assert.strictEqual(stores().length, 1, 'a store is never repeated on its own');

    messages.clear();
    await configure('documents.baseUrl', `http://127.0.0.1:${await closedPort()}`);
    try {
      await focus(editor);
      assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
      const offline = await messages.waitFor('the offline message', (m) => m.level === 'error');
      // code-server is a remote window: the message also says where the requests leave from (see remoteWindow.test.ts).
      assert.match(offline.message, /^Couldn't rewrite the text: could not reach the server: .+ Your text is unchanged\. In this remote window \(.+\) the requests leave from the remote machine/);
    } finally {
      await configure('documents.baseUrl', sandbox.docsUrl);
    }
    assert.strictEqual(editor.document.getText(), POST);
    assert.strictEqual(proposalTabs().length, 0);
  });

  it('Accept refuses when the text under the selection changed during generation', async () => {
    const editor = await workspaceFile('edited.md', POST);
    selectLines(editor, 3, 4);
    sandbox.setLatency(1_500);
    const pending = run('contentDocs.selectionRewrite');
    await until('the store to be on the wire', storeOnWire);
    assert.ok(await editor.edit((b) => b.replace(new vscode.Range(2, 0, 2, 7), 'We will')), 'the user types meanwhile');
    const edited = editor.document.getText();
    const result = await pending;
    assert.ok(result?.proposal, 'the proposal is still shown');
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', result.proposal.uri), false);
    const warning = await messages.waitFor('the refusal', (m) => m.level === 'warning' && /Not applied/.test(m.message));
    assert.match(warning.message, /"edited\.md" changed under the selection since the text was sent/);
    assert.ok(warning.items.includes('Open Beside'), 'the generated text can still be reached');
    assert.strictEqual(editor.document.getText(), edited, "the user's edit stays, nothing else changed");
  });

  it("the created document joins its template group in the Documents view without a list request; Open Beside opens it", async () => {
    const group = s.documentsTree.templateGroup(14);
    assert.ok(group);
    const before = await s.documentsTree.load(group);
    const editor = await workspaceFile('tree.md', POST);
    selectLines(editor, 12, 12);
    sandbox.resetRequests();
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const after = await until('the row', async () => {
      const rows = await s.documentsTree.getChildren(group);
      return rows.some((r) => r.kind === 'document' && r.doc.id === result.document.id) ? rows : undefined;
    });
    assert.strictEqual(after.filter((r) => r.kind === 'document').length, before.filter((r) => r.kind === 'document').length + 1);
    assert.strictEqual(lists(), 0, 'no list request');

    const opened = await vscode.commands.executeCommand<vscode.TextEditor>('contentDocs.proposalOpenDocument', result.proposal.uri);
    assert.strictEqual(opened?.document.uri.scheme, 'content-docs');
    assert.strictEqual(opened.document.uri.authority.split('.')[0], String(result.document.id));
    assert.strictEqual(opened.document.getText(), sandbox.documents.get(result.document.id)?.result);
    // Besides a view's rows and counts, read by itself meanwhile: a read of the document opened would not be.
    assert.deepStrictEqual(
      besidesTheWindow(sandbox.requests, [result.document.id]).map((r) => r.route).filter((r) => r !== 'account'),
      ['documents.store'],
      'opening reuses what the store answered',
    );
  });

  it('Generate from Selection…: the templates (last used first), the account creativity preselected, an extra instruction', async () => {
    const editor = await workspaceFile('generate.md', POST);
    selectLines(editor, 3, 4);
    prompter.answer = (q) => {
      if (q.title.includes('Template')) return 'Blog post';
      if (q.title.includes('Creativity')) return q.items?.[0];
      if (q.title.includes('Extra Instruction')) return 'for beginners';
      return undefined;
    };
    const result = await run('contentDocs.selectionGenerate');
    assert.ok(result?.proposal);
    const templates = prompter.asked.find((q) => q.title.includes('Template'))!;
    assert.ok(templates.items!.length >= 52, 'the 52 templates at least');
    const creativity = prompter.asked.find((q) => q.title.includes('Creativity'))!;
    assert.strictEqual(creativity.items![0], 'Creative', "the account's default_creativity (0.75) comes first");
    assert.strictEqual(body0().creativity, '0.75');
    const body = body0();
    assert.strictEqual(body.template_id, '9');
    assert.strictEqual(body.name, 'Blog post · generate.md:3');
    assert.match(body.prompt, /^Write a text of the kind "Blog post", based on the text below\. for beginners Write the answer in English/);
    await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri);

    // The next time: Blog post comes first.
    prompter.asked = [];
    await focus(editor);
    prompter.answer = () => undefined;
    await run('contentDocs.selectionGenerate');
    assert.strictEqual(prompter.asked[0].items![0], 'Blog post');
    assert.strictEqual(stores().length, 1, 'cancelled at the first question: nothing sent');
  });

  it('Generate from Selection…: an account default between two levels preselects the nearest level, as New Document does', async () => {
    sandbox.setAccount({ defaultCreativity: 0.8 });
    await s.account.refresh();
    try {
      const editor = await workspaceFile('generate-nearest.md', POST);
      selectLines(editor, 3, 4);
      prompter.answer = (q) => {
        if (q.title.includes('Template')) return 'Blog post';
        if (q.title.includes('Creativity')) return q.items?.[0];
        if (q.title.includes('Extra Instruction')) return '';
        return undefined;
      };
      const result = await run('contentDocs.selectionGenerate');
      assert.ok(result?.proposal);
      const creativity = prompter.asked.find((q) => q.title.includes('Creativity'))!;
      assert.strictEqual(creativity.items![0], 'Creative', 'the level nearest to 0.8 comes first');
      assert.strictEqual(body0().creativity, '0.75');
      await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri);
    } finally {
      sandbox.setAccount({ defaultCreativity: 0.75 });
      await s.account.refresh();
    }
  });

  it('Code Actions on a non-empty selection offer the actions the setting lists, when asked for (Ctrl+. or Refactor…), as refactorings, not as Quick Fixes', async () => {
    const editor = await workspaceFile('actions.md', POST);
    const sel = selectLines(editor, 3, 4);
    // Refactor… (Ctrl+Shift+R) asks for the kind `refactor`; Ctrl+. asks for no kind (both are invoked by the user).
    const ask = async (range: vscode.Range, only: string | undefined) =>
      ((await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, range, only)) ?? [])
        .map((a) => a.title)
        .filter((t) => t.startsWith('Content Docs:'));
    const titles = (range: vscode.Range) => ask(range, vscode.CodeActionKind.Refactor.value);
    await until('the Code Actions (signed in)', async () => (await titles(sel)).length > 0 || undefined);
    assert.strictEqual((await ask(sel, vscode.CodeActionKind.RefactorRewrite.value)).length, 6, 'Refactor > Rewrite asks for them');
    assert.strictEqual((await ask(sel, undefined)).length, 6, 'Ctrl+. (no kind asked) offers them');
    assert.deepStrictEqual(await ask(sel, vscode.CodeActionKind.QuickFix.value), [], 'not Quick Fixes');
    assert.deepStrictEqual(await titles(sel), [
      'Content Docs: Rewrite Selection',
      'Content Docs: Summarize Selection',
      'Content Docs: Fix Grammar',
      'Content Docs: Suggest Headlines',
      'Content Docs: Write Meta Description',
      'Content Docs: Generate from Selection…',
    ]);
    assert.deepStrictEqual(await titles(new vscode.Range(2, 0, 2, 0)), [], 'none on an empty selection');
    await vscode.workspace.getConfiguration('contentDocs').update('write.menuActions', ['rewrite'], vscode.ConfigurationTarget.Global);
    try {
      await until('the setting', () => (vscode.workspace.getConfiguration('contentDocs').get<string[]>('write.menuActions')?.length === 1 ? true : undefined));
      assert.deepStrictEqual(await titles(sel), ['Content Docs: Rewrite Selection', 'Content Docs: Generate from Selection…']);
    } finally {
      await vscode.workspace.getConfiguration('contentDocs').update('write.menuActions', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Code Actions are offered to a writer signed in with added accounts only (no key of Set API Key…), as the editor menu is', async () => {
    const editor = await workspaceFile('added-only.md', POST);
    const sel = selectLines(editor, 3, 4);
    const titles = async () =>
      ((await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, sel, vscode.CodeActionKind.RefactorRewrite.value)) ?? [])
        .map((a) => a.title)
        .filter((t) => t.startsWith('Content Docs:'));
    const own = (await until("the window's Code Actions (signed in)", async () => (await titles()).length || undefined));
    // The Code Actions as activation registers them, in a window whose only account is one added with Add Account…:
    // no key of Set API Key…, and the views, the editor menu and the palette signed in (contentDocs.signedIn).
    const registered = registerWriteUi({ signedIn: false, alsoSignedIn: () => true });
    try {
      await sleep(100);
      assert.strictEqual((await titles()).length, own * 2, "the window's and those of the added account's window");
    } finally {
      for (const d of registered) d.dispose();
    }
  });

  it('the real Ctrl+. on a selection lists the writing actions beside the editor\'s own', async () => {
    const editor = await workspaceFile('dot.md', POST);
    selectLines(editor, 3, 4);
    await vscode.window.showTextDocument(editor.document, { selection: editor.selection, preserveFocus: false });
    await until('the Code Actions (signed in)', async () =>
      ((await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, editor.selection)) ?? []).some((a) => a.title.startsWith('Content Docs:')) || undefined,
    );
    await press('Control+.');
    const MENU = '.action-widget';
    await until('the Code Action menu lists them', async () => /Content Docs: Rewrite Selection/.test((await read(MENU)).text) || undefined);
    const listed = (await read(MENU)).text;
    assert.match(listed, /Content Docs: Fix Grammar/);
    assert.match(listed, /Content Docs: Generate from Selection…/);
    await screenshot('write-ctrl-dot');
    await press('Escape');
  });

  it('the proposal diff\'s title shows Accept and Discard as one word each, with no key written beside them', async () => {
    const editor = await workspaceFile('title.md', POST);
    selectLines(editor, 3, 4);
    await focus(editor);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    const ACTIONS = '.editor-group-container.active .editor-actions';
    const accept = await until('Accept in the title', async () => {
      const r = await read(`${ACTIONS} .action-label[aria-label^="Accept"]`);
      return r.visible ? r : undefined;
    });
    assert.strictEqual(accept.text.trim(), 'Accept');
    assert.strictEqual((await read(`${ACTIONS} .action-label[aria-label^="Discard"]`)).text.trim(), 'Discard');
    await screenshot('write-proposal-title');
    await vscode.commands.executeCommand('contentDocs.proposalDiscard', result.proposal.uri);
  });

  it('screenshots: the editor menu with the Content Docs submenu, and the progress notification', async () => {
    const editor = await workspaceFile('menu.md', POST);
    selectLines(editor, 3, 4);
    await vscode.commands.executeCommand('editor.action.showContextMenu');
    await sleep(500);
    await click('.monaco-menu .action-item:has-text("Content Docs")');
    await sleep(700);
    await screenshot('write-menu');
    await press('Escape');
    await press('Escape');

    await focus(editor);
    sandbox.setLatency(4_000);
    const pending = run('contentDocs.selectionRewrite');
    await until('the store to be on the wire', storeOnWire);
    await sleep(2_200);
    // Toasts may stay hidden in the test workbench: the notification centre shows the same progress.
    await vscode.commands.executeCommand('notifications.showList');
    await sleep(400);
    await screenshot('write-progress');
    await vscode.commands.executeCommand('notifications.hideList');
    const result = await pending;
    assert.ok(result?.proposal);
  });
});
