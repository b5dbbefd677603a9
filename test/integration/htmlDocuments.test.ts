/**
 * Documents of the web editor (their text is Quill's HTML), inside a real VS Code against the sandbox: they open as
 * `.html` editors holding the stored markup byte for byte; an edited paragraph is saved with every other tag intact;
 * Rewrite puts HTML paragraphs where the text was; Insert at Cursor puts a plain document's text as HTML paragraphs
 * into an HTML editor; Open Preview shows the markup beside the editor and follows its edits; Convert to Markdown…
 * opens a Markdown copy and leaves the server's document as it was.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { detectFormat } from '../../src/content/format';
import { htmlToMarkdown } from '../../src/content/toMarkdown';
import { CMD } from '../../src/constants';
import type { SandboxDocument } from '../sandbox/server';
import { read, screenshot } from './harness';
import { SCHEME, sleep, until } from './reliabilityKit';
import { eachWriteTest, endWriteSuite, proposalTabs, runWriting, settleRequests, startWriteSuite, workspaceFile, type WriteSuite } from './writeKit';

/** What the web editor saves (editor.root.innerHTML) for a document with every kind of markup it writes. */
const QUILL =
  '<h1>Ten Tips for Remote Teams</h1><p>Working remotely&nbsp;is <em>hard</em>, and <u>worth it</u>.</p><p><br></p>' +
  '<p>Second paragraph to edit.</p>' +
  '<ol><li>Use <strong>async</strong> updates</li><li class="ql-indent-1">nested &amp; indented</li></ol>' +
  '<p><span style="color: rgb(230, 0, 0);">Red</span> and <s>struck</s>, see <a href="https://example.com/guide?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">our guide</a>.</p>' +
  '<h2>Last</h2><p>The end.</p>';

let suite: WriteSuite;

/** A seeded document (from the highest id down, as other suites take theirs from the lowest up), given `result`. */
const used = new Set<number>();
function documentWith(result: string): SandboxDocument {
  for (const d of [...suite.sandbox.documents.values()].sort((a, b) => b.id - a.id)) {
    if (used.has(d.id) || !d.result || d.templateId === null || d.templateId > 52 || !/^[\w ,.'-]+$/.test(d.name)) continue;
    used.add(d.id);
    d.result = result;
    return d;
  }
  throw new Error('no document left in the seed');
}

async function open(id: number): Promise<vscode.TextEditor> {
  await vscode.commands.executeCommand(CMD.documentOpen, { id });
  return until('the document editor', () => {
    const e = vscode.window.activeTextEditor;
    return e && e.document.uri.scheme === SCHEME && e.document.uri.authority.split('.')[0] === String(id) ? e : undefined;
  });
}

function range(doc: vscode.TextDocument, text: string): vscode.Range {
  const at = doc.getText().indexOf(text);
  assert.ok(at >= 0, `the editor holds ${JSON.stringify(text)}`);
  return new vscode.Range(doc.positionAt(at), doc.positionAt(at + text.length));
}

function updates(id: number) {
  return suite.sandbox.requests.filter((r) => r.route === 'documents.update' && r.path.endsWith(`/${id}`));
}

describe('html documents: the web editor\'s HTML opens as .html, previews, converts, and keeps its tags', function () {
  this.timeout(60_000);

  before(async () => {
    suite = await startWriteSuite();
  });
  eachWriteTest(() => suite);
  after(() => endWriteSuite(suite));

  it('opens as an .html editor (language html) holding the stored markup byte for byte; a plain document keeps .md', async () => {
    const d = documentWith(QUILL);
    const editor = await open(d.id);
    assert.ok(editor.document.uri.path.endsWith('.html'), editor.document.uri.toString());
    assert.strictEqual(editor.document.languageId, 'html');
    assert.strictEqual(editor.document.getText(), QUILL);
    assert.strictEqual(editor.document.isDirty, false);

    const plain = documentWith('Plain text.\n\nWith two paragraphs.');
    const plainEditor = await open(plain.id);
    assert.ok(plainEditor.document.uri.path.endsWith('.md'), plainEditor.document.uri.toString());
    assert.strictEqual(plainEditor.document.languageId, 'markdown');
  });

  it('in the Documents view an HTML document\'s row wears a code file icon, a plain one the setting\'s', async () => {
    const html = documentWith(QUILL);
    const plain = documentWith('Plain text for its row.');
    // Not favorites: a favorite's row wears a star.
    html.favorite = false;
    plain.favorite = false;
    const tree = suite.s.documentsTree;
    tree.model.refresh();
    const iconOf = async (d: SandboxDocument): Promise<string | undefined> => {
      const group = await until(`the group of template ${d.templateId}`, () => tree.templateGroup(d.templateId!));
      const rows = await tree.load(group);
      const row = rows.find((n) => n.kind === 'document' && n.doc.id === d.id);
      assert.ok(row, `the first page of template ${d.templateId} shows document ${d.id}`);
      const icon = tree.getTreeItem(row).iconPath;
      return icon instanceof vscode.ThemeIcon ? icon.id : undefined;
    };
    assert.strictEqual(await iconOf(html), 'file-code');
    assert.strictEqual(await iconOf(plain), 'markdown');
  });

  it('an edited paragraph is saved, and the server\'s text is still HTML with every other tag intact', async () => {
    const d = documentWith(QUILL);
    const editor = await open(d.id);
    assert.ok(await editor.edit((b) => b.replace(range(editor.document, 'Second paragraph to edit.'), 'Second paragraph, <strong>edited</strong>.')));
    assert.ok(await editor.document.save(), 'the save went through');
    const expected = QUILL.replace('Second paragraph to edit.', 'Second paragraph, <strong>edited</strong>.');
    assert.strictEqual(suite.sandbox.documents.get(d.id)?.result, expected);
    assert.strictEqual(detectFormat(suite.sandbox.documents.get(d.id)?.result), 'html');
    assert.strictEqual(updates(d.id).length, 1);
    assert.strictEqual(editor.document.isDirty, false);
  });

  it('Rewrite on an HTML paragraph: a plain-text answer comes back as HTML paragraphs, Accept puts them there', async () => {
    const d = documentWith(QUILL);
    const editor = await open(d.id);
    const paragraph = '<p>Second paragraph to edit.</p>';
    const r = range(editor.document, paragraph);
    editor.selection = new vscode.Selection(r.start, r.end);
    // A model that ignored "answer in HTML": two plain paragraphs.
    suite.sandbox.setModelAnswer('A better second paragraph & more.\n\nAnd a third one.');
    const result = await runWriting(suite.prompter, 'contentDocs.selectionRewrite');
    assert.ok(result?.proposal, 'a proposal was made');
    const store = suite.sandbox.requests.find((x) => x.route === 'documents.store');
    assert.match(String(store?.body?.prompt), /The text is HTML/);
    assert.match(String(store?.body?.prompt), /<p>Second paragraph to edit\.<\/p>/);
    const html = '<p>A better second paragraph &amp; more.</p><p>And a third one.</p>';
    assert.strictEqual(result.proposal.replacement, html);
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.proposalAccept', result.proposal.uri), true);
    await until('the diff to close', () => proposalTabs().length === 0 || undefined);
    assert.strictEqual(editor.document.getText(), QUILL.replace(paragraph, html));
    assert.strictEqual(detectFormat(editor.document.getText()), 'html');
  });

  it('Insert at Cursor into an HTML editor puts a plain document\'s text as HTML paragraphs', async () => {
    const plain = documentWith('# Notes\n\nFirst & foremost.\n\n- one\n- two');
    const editor = await workspaceFile('page.html', '<p>Start</p>');
    assert.strictEqual(editor.document.languageId, 'html');
    editor.selection = new vscode.Selection(editor.document.positionAt(12), editor.document.positionAt(12));
    assert.strictEqual(await vscode.commands.executeCommand(CMD.documentInsertAtCursor, { id: plain.id }), true);
    assert.strictEqual(editor.document.getText(), '<p>Start</p><h1>Notes</h1><p>First &amp; foremost.</p><ul><li>one</li><li>two</li></ul>');
  });

  it('Open Preview shows the markup as the web app does beside the editor, and follows the editor\'s edits', async () => {
    const d = documentWith(QUILL);
    const editor = await open(d.id);
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel>(CMD.htmlPreview, editor.document.uri);
    assert.ok(panel, 'the command returns its panel');
    await until('the preview tab', () =>
      vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('contentDocs.htmlPreview'))) || undefined,
    );
    assert.strictEqual(panel.webview.options.enableScripts, false);
    const page = panel.webview.html;
    assert.match(page, /default-src 'none'; img-src https: data:;/);
    assert.match(page, /<h1>Ten Tips for Remote Teams<\/h1>/);
    assert.match(page, /<span style="color: rgb\(230, 0, 0\);">Red<\/span>/);
    // The sanitiser's set: Quill's <s> shows as its text, a link keeps its address and loses rel and target.
    assert.match(page, /and struck,/);
    assert.match(page, /<a href="https:\/\/example.com\/guide\?a=1&amp;b=2">our guide<\/a>/);
    assert.ok(await editor.edit((b) => b.replace(range(editor.document, 'The end.'), 'A new ending.')));
    await until('the preview to follow the edit', () => panel.webview.html.includes('<p>A new ending.</p>') || undefined);
    // The same document's preview again: the one open is shown, not a second.
    assert.strictEqual(await vscode.commands.executeCommand(CMD.htmlPreview, editor.document.uri), panel);
    panel.dispose();
  });

  it('an HTML document (one long line of markup) opens wrapped, as Markdown documents do, with its text unchanged; a wrap the user turns off stays off for that editor', async () => {
    const long = `<p>${'A sentence of a long paragraph that the web editor stores on one line. '.repeat(12).trim()}</p>`;
    const d = documentWith(long);
    const editor = await open(d.id);
    assert.strictEqual(editor.document.languageId, 'html');
    const SECOND_ROW = '.editor-group-container.active .monaco-editor .view-lines > .view-line:nth-child(2)';
    await until('the one line shown on several rows', async () => (await read(SECOND_ROW)).visible || undefined);
    await screenshot('html-document-wrapped');
    assert.strictEqual(editor.document.getText(), long, 'the text as stored');
    assert.strictEqual(editor.document.isDirty, false);
    await settleRequests(suite.sandbox, 200);
    assert.strictEqual(updates(d.id).length, 0, 'nothing sent');
    // The user turns it off (View: Toggle Word Wrap): switching tabs and back does not turn it on again.
    await vscode.commands.executeCommand('editor.action.toggleWordWrap');
    await until('one row again', async () => !(await read(SECOND_ROW)).visible || undefined);
    const other = await open(documentWith('<p>Another page.</p>').id);
    await vscode.window.showTextDocument(editor.document, { viewColumn: other.viewColumn });
    await sleep(500);
    assert.strictEqual((await read(SECOND_ROW)).visible, false, 'still as the user left it');
  });

  it('Convert to Markdown… asks first; Open a Markdown Copy opens one beside it, says what it loses, and leaves the server\'s document unchanged', async () => {
    const d = documentWith(QUILL);
    const editor = await open(d.id);
    await settleRequests(suite.sandbox, 200);
    suite.prompter.choices = ['Open a Markdown Copy'];
    const copy = await vscode.commands.executeCommand<vscode.TextEditor>(CMD.htmlToMarkdown, editor.document.uri);
    assert.ok(copy, 'the command returns the copy\'s editor');
    assert.strictEqual(copy.document.isUntitled, true);
    assert.strictEqual(copy.document.languageId, 'markdown');
    assert.strictEqual(copy.document.getText(), htmlToMarkdown(QUILL).markdown);
    assert.match(copy.document.getText(), /^# Ten Tips for Remote Teams\n\nWorking remotely is \*hard\*, and worth it\.\n/);
    assert.match(copy.document.getText(), /\n1\. Use \*\*async\*\* updates\n {4}1\. nested & indented\n/);
    const said = await until('the message', () => suite.messages.shown.find((m) => /Markdown copy/.test(m.message)));
    assert.match(said.message, /underline/);
    assert.match(said.message, /text colours/);
    assert.match(said.message, /unchanged/);
    assert.strictEqual(suite.sandbox.documents.get(d.id)?.result, QUILL);
    assert.strictEqual(updates(d.id).length, 0, 'nothing was sent to the server');
    assert.strictEqual(editor.document.getText(), QUILL, 'the document\'s editor is as it was');
    assert.strictEqual(editor.document.isDirty, false);
    const asked = suite.prompter.asked.at(-1);
    assert.deepStrictEqual(asked?.items, ['Convert', 'Open a Markdown Copy'], 'it asked first');
  });

  it('Convert to Markdown… → Convert makes the document\'s own text Markdown (unsaved until saved, Undo brings the HTML back), keeps the HTML in a tab beside it, and a save stores the Markdown', async () => {
    const d = documentWith(QUILL);
    const editor = await open(d.id);
    await settleRequests(suite.sandbox, 200);
    suite.prompter.choices = ['Convert'];
    const converted = await vscode.commands.executeCommand<vscode.TextEditor>(CMD.htmlToMarkdown, editor.document.uri);
    assert.ok(converted, 'the command returns the document\'s editor');
    const asked = suite.prompter.asked.at(-1);
    assert.match(asked?.message ?? '', /Convert "[^"]+" to Markdown\?/);
    assert.match(asked?.message ?? '', /underline/, 'the question says what Markdown does not keep');
    const markdown = htmlToMarkdown(QUILL).markdown;
    assert.strictEqual(converted.document.uri.toString(), editor.document.uri.toString(), 'the document itself, not a copy');
    assert.strictEqual(converted.document.getText(), markdown);
    assert.strictEqual(converted.document.languageId, 'markdown');
    assert.ok(converted.document.isDirty, 'not saved for the user');
    assert.strictEqual(suite.sandbox.documents.get(d.id)?.result, QUILL, 'nothing sent yet');
    const kept = vscode.workspace.textDocuments.find((t) => t.isUntitled && t.getText() === QUILL);
    assert.ok(kept, 'the HTML is kept in an untitled tab');
    assert.strictEqual(kept.languageId, 'html');
    const said = await until('the message', () => suite.messages.shown.find((m) => /is Markdown now/.test(m.message)));
    assert.match(said.message, /Undo/);
    assert.ok(await converted.document.save(), 'saved');
    assert.strictEqual(suite.sandbox.documents.get(d.id)?.result?.trim(), markdown.trim(), 'the server has the Markdown');
    await vscode.window.showTextDocument(kept);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
