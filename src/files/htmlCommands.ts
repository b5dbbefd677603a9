import vscode = require('vscode');
import { CMD, SCHEME } from '../constants';
import type { CommandParts } from '../util/commandTypes';
import { detectFormat } from '../content/format';
import { previewPage } from '../content/sanitize';
import { htmlToMarkdown } from '../content/toMarkdown';
import { formatList } from '../util/lists';
import { accountOfUri, nameFromFileName } from './uris';
import type { AccountRegistry } from '../accounts/registry';
import type { LazyDocumentFileSystem } from './lazyFs';
import type { Logger } from '../util/log';
import type { Prompter } from '../ui/prompter';

/** What Open Preview and Convert to Markdown… take. */
export type HtmlNeeds = { readonly log: Logger; readonly fs: LazyDocumentFileSystem; readonly registry: AccountRegistry; readonly prompter: Prompter };

/**
 * The commands of HTML documents (their text is the web editor's, and they open as `.html`): Open Preview, a webview
 * beside the editor that shows the markup as the web app does and follows the editor's text as it changes; and Convert
 * to Markdown…, which asks first: Convert makes the editor's own text Markdown (unsaved until the user saves, Undo
 * brings the HTML back, and the HTML is kept in an untitled tab beside it, as Change Language Mode changes the file
 * in place), or Open a Markdown Copy in an untitled editor. What Markdown does not keep is said before and after.
 * In the commands bundle (loaded when a command first runs), never at activation.
 */
export function htmlCommands(s: HtmlNeeds) {
  const previews = new Map<string, vscode.WebviewPanel>();
  return {
    [CMD.htmlPreview]: (arg: unknown) => openPreview(s, previews, arg),
    [CMD.htmlToMarkdown]: (arg: unknown) => convertToMarkdown(s, arg),
  } satisfies CommandParts;
}

/**
 * The text document a command is about: the URI a menu passes, else the active editor's. An editor's text is used as
 * it is (a document deleted on the server, or of an account removed since, keeps its text in its tab). A document with
 * no editor is read through its own account's file system first: one of an account that is not signed in (removed,
 * signed out) is never read, and a read that fails (deleted on the server, offline) is said in a message that names the
 * document, not as an unexpected error. Undefined when there is nothing to work on (said already).
 */
async function documentOf(s: HtmlNeeds, arg: unknown, what: 'preview' | 'convert to Markdown'): Promise<vscode.TextDocument | undefined> {
  const preview = what === 'preview';
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri) {
    void vscode.window.showInformationMessage(
      preview
        ? vscode.l10n.t('There is no HTML document to preview: open one first.')
        : vscode.l10n.t('There is no HTML document to convert to Markdown: open one first.'),
    );
    return undefined;
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open;
  if (uri.scheme === SCHEME) {
    const name = nameFromFileName(decodeURIComponent(uri.path.split('/').pop() ?? '')) || uri.toString();
    if (!s.registry.byLabel(accountOfUri(uri))) {
      s.log.warn(`[html] ${what}: ${uri.toString()} belongs to no account signed in`);
      void vscode.window.showWarningMessage(
        preview
          ? vscode.l10n.t(
              'Couldn\'t preview "{0}": it belongs to an account that is not signed in (removed, or signed out). Add the account again to open its documents.',
              name,
            )
          : vscode.l10n.t(
              'Couldn\'t convert "{0}" to Markdown: it belongs to an account that is not signed in (removed, or signed out). Add the account again to open its documents.',
              name,
            ),
      );
      return undefined;
    }
    try {
      await s.fs.stat(uri);
    } catch (e) {
      // The file system's errors say what failed and why, and it logged them ("Couldn't open "X": …").
      const reason = e instanceof Error ? e.message.replace(/^Couldn't open "[^"]*": /, '') : String(e);
      void vscode.window.showWarningMessage(
        preview ? vscode.l10n.t('Couldn\'t preview "{0}": {1}', name, reason) : vscode.l10n.t('Couldn\'t convert "{0}" to Markdown: {1}', name, reason),
      );
      return undefined;
    }
  }
  return vscode.workspace.openTextDocument(uri);
}

function fileName(doc: vscode.TextDocument): string {
  return decodeURIComponent(doc.uri.path.split('/').pop() ?? '') || doc.uri.toString();
}

/** How long the preview waits after the last keystroke before it shows the text again. */
const FOLLOW_MS = 200;

async function openPreview(s: HtmlNeeds, previews: Map<string, vscode.WebviewPanel>, arg: unknown): Promise<vscode.WebviewPanel | undefined> {
  const doc = await documentOf(s, arg, 'preview');
  if (!doc) return undefined;
  const key = doc.uri.toString();
  const open = previews.get(key);
  if (open) {
    open.reveal(vscode.ViewColumn.Beside, true);
    return open;
  }
  const panel = vscode.window.createWebviewPanel(
    'contentDocs.htmlPreview',
    vscode.l10n.t('Preview {0}', fileName(doc)),
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
  const doc = await documentOf(s, arg, 'convert to Markdown');
  if (!doc) return undefined;
  const name = fileName(doc).replace(/\.html$/i, '');
  const html = doc.getText();
  if (detectFormat(html) !== 'html') {
    void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" is not HTML: there is nothing to convert.', name));
    return undefined;
  }
  const copy = htmlToMarkdown(html);
  const lost = copy.losses.length
    ? vscode.l10n.t('Markdown does not keep: {0}.', formatList(copy.losses, vscode.env.language))
    : vscode.l10n.t('Markdown keeps everything the text holds.');
  const convert = vscode.l10n.t('Convert');
  const openCopy = vscode.l10n.t('Open a Markdown Copy');
  const choice = await s.prompter.ask(
    vscode.l10n.t('Convert "{0}" to Markdown?', name),
    vscode.l10n.t(
      '{0} Convert changes the text in its editor, unsaved until you save it (auto-save saves it soon); Undo brings the HTML back, and the HTML is also kept in a new tab beside it. Open a Markdown Copy leaves the document as it is.',
      lost,
    ),
    [convert, openCopy],
  );
  if (choice === convert) return convertInPlace(s, doc, name, html, copy.markdown, copy.losses);
  if (choice !== openCopy) return undefined;
  const untitled = await vscode.workspace.openTextDocument({ language: 'markdown', content: copy.markdown });
  const editor = await vscode.window.showTextDocument(untitled, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  void vscode.window.showInformationMessage(
    copy.losses.length
      ? vscode.l10n.t(
          'A Markdown copy of "{0}" is open beside it, unsaved; the document itself is unchanged. It does not keep: {1}.',
          name,
          formatList(copy.losses, vscode.env.language),
        )
      : vscode.l10n.t('A Markdown copy of "{0}" is open beside it, unsaved; the document itself is unchanged. It keeps everything the text holds.', name),
  );
  s.log.info(`[html] Markdown copy of ${doc.uri.toString()} (${copy.losses.length ? `loses ${copy.losses.join(', ')}` : 'nothing lost'})`);
  return editor;
}

/** Convert: the HTML kept in an untitled tab beside, then the editor's own text made Markdown (one edit: one Undo). */
async function convertInPlace(
  s: HtmlNeeds,
  doc: vscode.TextDocument,
  name: string,
  html: string,
  markdown: string,
  losses: readonly string[],
): Promise<vscode.TextEditor | undefined> {
  const kept = await vscode.workspace.openTextDocument({ language: 'html', content: html });
  await vscode.window.showTextDocument(kept, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  if (editor.document.getText() !== html) {
    void vscode.window.showWarningMessage(vscode.l10n.t('"{0}" changed while you were asked: nothing was converted. Its HTML as it was is in the tab beside it.', name));
    return undefined;
  }
  const all = new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(html.length));
  if (!(await editor.edit((b) => b.replace(all, markdown)))) {
    void vscode.window.showWarningMessage(vscode.l10n.t("Couldn't convert \"{0}\": the editor took no change. Its text is as it was.", name));
    return undefined;
  }
  const shown = await vscode.languages.setTextDocumentLanguage(editor.document, 'markdown');
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      '"{0}" is Markdown now in its editor, not yet saved: save it to store it (Undo brings the HTML back). Its HTML is kept in the untitled tab beside it.',
      name,
    ),
  );
  s.log.info(`[html] ${doc.uri.toString()} converted to Markdown in its editor (${losses.length ? `loses ${losses.join(', ')}` : 'nothing lost'})`);
  return vscode.window.visibleTextEditors.find((e) => e.document === shown) ?? vscode.window.showTextDocument(shown, { preview: false });
}
