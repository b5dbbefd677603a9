/**
 * The writing actions' proposals, inside a real VS Code against the sandbox: the file changing while the
 * service writes, a retry after the user edited, two Accepts at once, code with markup in it, CRLF files, the
 * key or server changing during a generation, and our own documents as the target. Each case tries to make a
 * proposal land on the wrong text, or to change more than the user agreed to.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { STATE } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { Proposal } from '../../src/write/preview';
import type { WriteResult } from '../../src/write/commands';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { accountUriOf, type MessageCapture, openDocument, type RecordingPrompter, SaveErrors, sleep, until, useSandbox } from './reliabilityKit';
import { cleanUp, eachWriteTest, endWriteSuite, proposalTabs, runWriting, selectLines, startWriteSuite, untitled, workspaceFile, type WriteSuite } from './writeKit';

let sandbox: Sandbox;
let s: TestServices;
let prompter: RecordingPrompter;
let messages: MessageCapture;
let suite: WriteSuite;

function storesOnWire(): number {
  return sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/documents').length;
}

function run(command: string): Promise<WriteResult | undefined> {
  return runWriting(prompter, command);
}

async function accept(p: Proposal | vscode.Uri | undefined): Promise<boolean> {
  return (await vscode.commands.executeCommand<boolean>('contentDocs.proposalAccept', p instanceof vscode.Uri ? p : p?.uri)) === true;
}

describe('write: proposals never land on the wrong text, and nothing more is sent or changed than agreed', function () {
  this.timeout(60_000);

  before(async () => {
    suite = await startWriteSuite();
    ({ sandbox, s, prompter, messages } = suite);
    // A remembered language and tone: no account read gets in the way of the timings below.
    await s.context.globalState.update(STATE.writeStyle, { language: 'en', tone: 'Professional' });
  });

  eachWriteTest(() => suite, { autoDismiss: true });
  after(() => endWriteSuite(suite));

  it('a line inserted above the selection during generation: Accept applies where the selected text now is', async () => {
    const text = 'Intro line.\n\nThe selected sentence.\n\nOutro line.\n';
    const editor = await workspaceFile('shift-insert.md', text);
    selectLines(editor, 3, 3);
    sandbox.setLatency(1_500);
    const pending = run('contentDocs.selectionRewrite');
    await until('the store on the wire', () => storesOnWire() > 0 || undefined);
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), '# A title typed meanwhile\n\n')));
    const edited = editor.document.getText();
    const result = await pending;
    assert.ok(result?.proposal);
    assert.strictEqual(await accept(result.proposal), true, 'the selected text is unchanged: nothing stands in the way');
    assert.strictEqual(editor.document.getText(), edited.replace('The selected sentence.', result.proposal.replacement));
  });

  it("the proposal's side of the diff is what Accept would make of the file now: text typed elsewhere during generation and after stays in it", async () => {
    const text = 'Intro line.\n\nThe selected sentence.\n\nOutro line.\n';
    const editor = await workspaceFile('follow-edits.md', text);
    selectLines(editor, 3, 3);
    sandbox.setLatency(1_500);
    const pending = run('contentDocs.selectionRewrite');
    await until('the store on the wire', () => storesOnWire() > 0 || undefined);
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), '# A title typed meanwhile\n\n')));
    const result = await pending;
    assert.ok(result?.proposal);
    const proposed = () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === result.proposal!.uri.toString())?.getText();
    const wouldMake = () => editor.document.getText().replace('The selected sentence.', result.proposal!.replacement);
    await until('the proposal to show the title typed during generation', () => proposed() === wouldMake() || undefined, 5_000).catch(() => undefined);
    assert.strictEqual(proposed(), wouldMake(), 'the diff does not show the typed title as removed');
    // Typing after the diff opened: the proposal follows.
    const after = new vscode.WorkspaceEdit();
    after.insert(editor.document.uri, editor.document.positionAt(editor.document.getText().length), 'A line typed after.\n');
    assert.ok(await vscode.workspace.applyEdit(after));
    await until('the proposal to follow the edit', () => proposed() === wouldMake() || undefined, 5_000).catch(() => undefined);
    assert.strictEqual(proposed(), wouldMake());
    const shown = proposed();
    assert.strictEqual(await accept(result.proposal), true);
    assert.strictEqual(editor.document.getText(), shown, 'Accept made what the diff showed');
  });

  it('a line deleted above during generation leaves the same text at the old place: Accept replaces the selected one, not that', async () => {
    // Lines 2 and 3 read the same; the user selects line 2, then deletes line 1 while the service writes: the old
    // range now holds what was line 3.
    const text = 'Heading\nTODO: write this part.\nTODO: write this part.\n';
    const editor = await workspaceFile('shift-delete.md', text);
    selectLines(editor, 2, 2);
    sandbox.setLatency(1_500);
    const pending = run('contentDocs.selectionRewrite');
    await until('the store on the wire', () => storesOnWire() > 0 || undefined);
    assert.ok(await editor.edit((b) => b.delete(new vscode.Range(0, 0, 1, 0))));
    const result = await pending;
    assert.ok(result?.proposal);
    const applied = await accept(result.proposal);
    const now = editor.document.getText();
    if (applied) assert.strictEqual(now, `${result.proposal.replacement}\nTODO: write this part.\n`, 'the selected line (now line 1) is replaced');
    else assert.strictEqual(now, 'TODO: write this part.\nTODO: write this part.\n');
  });

  it('Retry after a 500, with the file edited meanwhile: the proposal never replaces the wrong text', async () => {
    const text = '# List\n\n- Faster saves\n- A new toolbar\n- Offline drafts\n';
    const editor = await workspaceFile('retry.md', text);
    selectLines(editor, 4, 4); // "- A new toolbar"
    sandbox.setFault('documents.store', { kind: 'status500', count: 1 });
    messages.autoDismiss = false;
    assert.strictEqual(await run('contentDocs.selectionRewrite'), undefined);
    const e500 = await messages.waitFor('the 500 message', (m) => m.level === 'error');
    assert.ok(e500.items.includes('Retry'));
    // The user adds a line above before choosing Retry.
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(2, 0), '- Typed after the failure\n')));
    const edited = editor.document.getText();
    prompter.confirms.push(true);
    e500.choose('Retry');
    // Either a proposal (then Accept must touch "- A new toolbar" only) or a refusal before sending.
    const outcome = await until('a proposal or a refusal', () =>
      proposalTabs().length ? 'proposal' : messages.shown.some((m) => m !== e500 && (m.level === 'warning' || m.level === 'error')) ? 'refused' : undefined,
    );
    if (outcome === 'proposal') {
      const uri = proposalTabs()[0].modified;
      const applied = await accept(uri);
      const now = editor.document.getText();
      assert.ok(now.includes('- Faster saves\n- Typed after the failure\n'), `the lines around the selection are untouched:\n${now}`);
      if (applied) assert.ok(!now.includes('- A new toolbar\n- Offline'), 'the selected line is the one replaced');
      else assert.strictEqual(now, edited);
    } else {
      assert.strictEqual(editor.document.getText(), edited);
      assert.strictEqual(storesOnWire(), 1, 'nothing sent again');
    }
  });

  it('two Accepts at once (the notification and the diff title) apply the proposal once', async () => {
    const text = '# Post\n\nA paragraph about harbours.\n';
    const editor = await workspaceFile('twice.md', text);
    selectLines(editor, 3, 3);
    const result = await run('contentDocs.selectionHeadlines');
    assert.ok(result?.proposal);
    const outcomes = await Promise.all([accept(result.proposal), accept(result.proposal)]);
    assert.deepStrictEqual(outcomes.filter(Boolean).length, 1, 'one of them applies');
    assert.strictEqual(editor.document.getText(), text.replace('A paragraph about harbours.', result.proposal.replacement.replace(/\n$/, '')));
  });

  it("a code line with HTML in it comes back as the model wrote it: the user's markup is not taken for ours", async () => {
    const line = "const el = '<div class=\"card\"><p>Hello</p></div>';";
    const editor = await untitled(`${line}\n`, 'typescript');
    selectLines(editor, 1, 1);
    const result = await run('contentDocs.selectionFixGrammar');
    assert.ok(result?.proposal);
    // The sandbox's model echoes its prompt: the line must come back exactly as it went.
    assert.ok(result.proposal.replacement.includes(line), `the markup is kept:\n${result.proposal.replacement}`);
  });

  it('indented code in a Markdown fence keeps its indentation through the flattening server', async () => {
    const code = ['```python', 'def total(items):', '    s = 0', '    for i in items:', '        s += i', '    return s', '```'];
    const editor = await workspaceFile('fence.md', `Intro.\n\n${code.join('\n')}\n`);
    selectLines(editor, 1, 3 + code.length - 1);
    const result = await run('contentDocs.selectionRewrite');
    assert.ok(result?.proposal);
    assert.ok(result.proposal.replacement.includes(code.slice(1, -1).join('\n')), `the indentation survives:\n${result.proposal.replacement}`);
  });

  it('a CRLF file: Accept replaces exactly the selection and selects exactly the inserted text', async () => {
    const text = 'First paragraph.\r\n\r\nSecond paragraph.\r\n\r\nThird.\r\n';
    const editor = await workspaceFile('crlf.md', text);
    assert.strictEqual(editor.document.eol, vscode.EndOfLine.CRLF);
    selectLines(editor, 3, 3);
    const result = await run('contentDocs.selectionHeadlines');
    assert.ok(result?.proposal);
    assert.strictEqual(await accept(result.proposal), true);
    const inserted = result.proposal.replacement.replace(/\r?\n/g, '\r\n');
    assert.strictEqual(editor.document.getText(), text.replace('Second paragraph.', inserted));
    const active = vscode.window.activeTextEditor;
    assert.strictEqual(active?.document.getText(active.selection), inserted, 'the selection shows what was inserted');
  });

  it('the API key or server changes while the service writes: the new document does not join the other account, and nothing is proposed', async () => {
    const other = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    // The store stays on the wire until the switch is done, however long the switch takes.
    const release = sandbox.hold('documents.store');
    try {
      const text = 'A paragraph written for the first account.\n';
      const editor = await workspaceFile('switch.md', text);
      selectLines(editor, 1, 1);
      const pending = run('contentDocs.selectionRewrite');
      await until('the store on the wire', () => storesOnWire() > 0 || undefined);
      await useSandbox(s, other);
      const group = s.documentsTree.templateGroup(14);
      assert.ok(group);
      await s.documentsTree.load(group);
      release();
      const result = await pending;
      const created = [...sandbox.documents.values()].find((d) => d.name === 'Rewrite · switch.md:1');
      assert.ok(created, 'the first account got its document');
      assert.strictEqual(result, undefined, 'no proposal: the answer belongs to the account used before');
      const said = await until('the message about the account that went', () => messages.shown.find((m) => /changed while the service was writing/.test(m.message)));
      assert.match(said.message, /was created in that account; nothing was proposed, and your text is unchanged/);
      await sleep(200);
      const rows = await s.documentsTree.getChildren(group);
      assert.ok(
        !rows.some((r) => r.kind === 'document' && r.doc.name === created.name),
        "the first account's document is not shown in the other account's Documents view",
      );
      assert.notStrictEqual(s.documents.get(created.id)?.name, created.name, 'nor remembered as one of its documents');
      assert.strictEqual(editor.document.getText(), text, 'nothing changed in the editor');
      assert.deepStrictEqual(proposalTabs(), [], 'no proposal is shown');
    } finally {
      release();
      await useSandbox(s, sandbox);
      await other.close();
    }
  });

  it('the API key or server changes while a proposal is shown: Accept is a local edit, only where the selection was', async () => {
    const other = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    try {
      const text = 'A paragraph written for the first account.\nA line after it.\n';
      const editor = await workspaceFile('switch-after.md', text);
      selectLines(editor, 1, 1);
      const result = await run('contentDocs.selectionRewrite');
      assert.ok(result?.proposal, 'the answer came while the account was the same: a proposal');
      await useSandbox(s, other);
      assert.strictEqual(await accept(result.proposal), true);
      assert.strictEqual(editor.document.getText(), text.replace('A paragraph written for the first account.', result.proposal.replacement));
      assert.ok(
        !other.requests.some((r) => r.route === 'documents.update' || r.route === 'documents.store'),
        'nothing was sent to the other account',
      );
    } finally {
      await useSandbox(s, sandbox);
      await other.close();
    }
  });

  it('a selection in one of our documents (content-docs://<id>/… and the account folder): Accept, then save, PATCHes that document', async () => {
    const seeded = [...sandbox.documents.values()].filter((d) => (d.result ?? '').length > 40).slice(0, 2);
    assert.strictEqual(seeded.length, 2, 'two seeded documents with text');
    for (const [i, target] of seeded.entries()) {
      const editor =
        i === 0 ? await openDocument(target.id) : await vscode.window.showTextDocument(await accountUriOf(s, target.id), { preview: false });
      const form = editor.document.uri.toString();
      editor.selection = new vscode.Selection(0, 0, 0, editor.document.lineAt(0).text.length);
      const before = editor.document.getText();
      const result = await run('contentDocs.selectionFixGrammar');
      assert.ok(result?.proposal, form);
      assert.strictEqual(await accept(result.proposal), true, form);
      const changed = editor.document.getText();
      assert.notStrictEqual(changed, before, form);
      sandbox.resetRequests();
      const errors = new SaveErrors(s);
      try {
        await vscode.window.showTextDocument(editor.document);
        await vscode.commands.executeCommand('workbench.action.files.save');
        await until(`the PATCH of ${form}`, () => sandbox.requests.find((r) => r.route === 'documents.update' && r.status === 200));
        assert.deepStrictEqual(errors.errors, [], form);
      } finally {
        errors.dispose();
      }
      const patches = sandbox.requests.filter((r) => r.route === 'documents.update');
      assert.deepStrictEqual(
        patches.map((r) => r.path),
        [`/api/v1/documents/${target.id}`],
        `one PATCH, of the target (${form})`,
      );
      assert.strictEqual(sandbox.documents.get(target.id)?.result, changed.trim(), form);
      // The generated document holds the model's text by itself; no document other than the target and it changed.
      assert.ok(
        ![...sandbox.documents.values()].some((d) => d.id !== target.id && d.id !== result.document.id && d.result === changed.trim()),
        'no other document got the text',
      );
      await cleanUp();
    }
  });
});
