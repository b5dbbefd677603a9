import vscode = require('vscode');
import { SCHEME } from '../constants';
import { Disposable } from '../util/disposable';

/**
 * A document of the web editor (HTML, stored as one long line of markup) is shown wrapped, as Markdown documents are:
 * the first time each of its editors is active, when the user's `editor.wordWrap` for it is `off`, View: Toggle Word
 * Wrap is run on it. That is the editor's own per-document state: the text is not touched (a save sends nothing new),
 * other HTML files keep the user's setting (a manifest default for `[html]` would change them all), and a wrap the user
 * turns off again stays off while the document is open.
 */
export class HtmlDocumentsWrap extends Disposable {
  /** The documents wrapped once (a document opened again is a new object, and is wrapped again). */
  private readonly done = new WeakSet<vscode.TextDocument>();

  constructor() {
    super();
    this._register(vscode.window.onDidChangeActiveTextEditor((e) => void this.wrap(e)));
    void this.wrap(vscode.window.activeTextEditor);
  }

  private async wrap(editor: vscode.TextEditor | undefined): Promise<void> {
    const doc = editor?.document;
    if (!doc || doc.uri.scheme !== SCHEME || doc.languageId !== 'html' || this.done.has(doc)) return;
    this.done.add(doc);
    if (vscode.workspace.getConfiguration('editor', doc).get<string>('wordWrap') !== 'off') return;
    // Toggle Word Wrap acts on the active editor: only while this one still is.
    if (vscode.window.activeTextEditor?.document !== doc) {
      this.done.delete(doc);
      return;
    }
    await vscode.commands.executeCommand('editor.action.toggleWordWrap');
  }
}
