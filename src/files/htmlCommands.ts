import vscode = require('vscode');
import { CMD, SCHEME } from '../constants';
import type { CommandParts } from '../commands/types';
import type { Core } from '../core';
import { detectFormat } from '../content/format';
import { previewPage } from '../content/sanitize';
import { htmlToMarkdown } from '../content/toMarkdown';

/** What Open Preview and Convert to Markdown… take. */
export type HtmlNeeds = Pick<Core, 'log'>;

/**
 * The commands of HTML documents (their text is the web editor's, and they open as `.html`): Open Preview, a webview
 * beside the editor that shows the markup as the web app does and follows the editor's text as it changes; and Convert
 * to Markdown…, a Markdown copy in an untitled editor, with what it loses said beside it. Neither changes the document.
 * In the commands bundle (loaded when a command first runs), never at activation.
 */
export function htmlCommands(s: HtmlNeeds) {
  const previews = new Map<string, vscode.WebviewPanel>();
  return {
    [CMD.htmlPreview]: (arg: unknown) => openPreview(s, previews, arg),
    [CMD.htmlToMarkdown]: (arg: unknown) => convertToMarkdown(s, arg),
  } satisfies CommandParts;
}

/** The text document a command is about: the URI a menu passes, else the active editor's. */
async function documentOf(arg: unknown): Promise<vscode.TextDocument | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri) return undefined;
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
}

function fileName(doc: vscode.TextDocument): string {
  return decodeURIComponent(doc.uri.path.split('/').pop() ?? '') || doc.uri.toString();
}

/** How long the preview waits after the last keystroke before it shows the text again. */
const FOLLOW_MS = 200;

async function openPreview(s: HtmlNeeds, previews: Map<string, vscode.WebviewPanel>, arg: unknown): Promise<vscode.WebviewPanel | undefined> {
  const doc = await documentOf(arg);
  if (!doc) throw new Error('There is no HTML document to preview: open one first.');
  const key = doc.uri.toString();
  const open = previews.get(key);
  if (open) {
    open.reveal(vscode.ViewColumn.Beside, true);
    return open;
  }
  const panel = vscode.window.createWebviewPanel(
    'contentDocs.htmlPreview',
    `Preview ${fileName(doc)}`,
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    // No script, no command links, no local files: the page is the markup and its own styles (see previewPage).
    { enableScripts: false, enableCommandUris: false, enableFindWidget: true, localResourceRoots: [] },
  );
  previews.set(key, panel);
  panel.webview.html = previewPage(doc.getText());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const follow = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document.uri.toString() !== key) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      panel.webview.html = previewPage(e.document.getText());
    }, FOLLOW_MS);
  });
  panel.onDidDispose(() => {
    clearTimeout(timer);
    follow.dispose();
    previews.delete(key);
  });
  s.log.info(`[html] preview of ${doc.uri.scheme === SCHEME ? `document ${doc.uri.authority.split('.')[0]}` : 'an HTML file'} opened`);
  return panel;
}

async function convertToMarkdown(s: HtmlNeeds, arg: unknown): Promise<vscode.TextEditor | undefined> {
  const doc = await documentOf(arg);
  if (!doc) throw new Error('There is no HTML document to convert: open one first.');
  const name = fileName(doc).replace(/\.html$/i, '');
  if (detectFormat(doc.getText()) !== 'html') {
    void vscode.window.showInformationMessage(`"${name}" is not HTML: there is nothing to convert.`);
    return undefined;
  }
  const copy = htmlToMarkdown(doc.getText());
  const untitled = await vscode.workspace.openTextDocument({ language: 'markdown', content: copy.markdown });
  const editor = await vscode.window.showTextDocument(untitled, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const lost = copy.losses.length
    ? `It does not keep: ${copy.losses.join(', ')}.`
    : 'It keeps everything the text holds.';
  void vscode.window.showInformationMessage(`A Markdown copy of "${name}" is open beside it, unsaved; the document itself is unchanged. ${lost}`);
  s.log.info(`[html] Markdown copy of ${doc.uri.toString()} (${copy.losses.length ? `loses ${copy.losses.join(', ')}` : 'nothing lost'})`);
  return editor;
}
