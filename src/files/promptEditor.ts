/**
 * New Document's prompt written in an editor: a Markdown editor on a small in-memory file system of its own scheme
 * (never a content-docs: document, never sent to the server as a document), holding what the prompt's box held.
 *
 * - **Use Prompt** (the check in the editor's title, Ctrl+Enter) takes the text back to New Document… and closes the
 *   tab; a prompt that is empty or over the limit is refused with the reason, the text and the tab kept.
 * - **Closing the tab** goes back to the prompt's box with the text kept: nothing is sent and nothing is lost.
 * - While the editor is active, the status bar counts the characters of what will be sent against the limit.
 *
 * Every change is saved at once to the in-memory file (without save participants, so no trailing white space is
 * trimmed while typing): the tab is never dirty, and closing it never asks "Save?".
 *
 * The window's workspaceState keeps the text too, so that VS Code's restored tab after a reload or a restart shows it
 * (the file system is registered at activation, see registerPromptFiles): its New Document… ended with the window,
 * so Use Prompt there starts a New Document… with it, and closing it keeps it for the next one.
 */
import vscode = require('vscode');
import { formatCount } from '../tree/format';
import { isBlank, LIMITS } from '../api/validate';
import { CMD, PROMPT_SCHEME, STATE } from '../constants';
import { documentPromptLength } from '../write/prompt';
import { onMac } from '../util/keys';

/** How the editor was left: Use Prompt, its tab closed, or ended by another New Document… asking for it. */
export type PromptOutcome = { kind: 'use' | 'closed' | 'ended'; text: string };

const FILE_NAME = 'New Document Prompt.md';

/** What the window keeps of the prompt being written: its editor's address and its text. */
interface PromptDraft {
  readonly uri: string;
  readonly text: string;
}

/** The prompts' files, by path: one per editor opened, forgotten when its editor is done. */
class PromptFiles implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; ctime: number; mtime: number }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  constructor(readonly state: vscode.Memento) {
    // The line above the text that says how to finish, in every prompt editor (a restored one too).
    vscode.languages.registerCodeLensProvider({ scheme: PROMPT_SCHEME }, new PromptLenses());
  }

  /**
   * The file of a tab VS Code restored (a reload or a restart): the text the window kept of it, in an editor of its
   * own whose New Document… ended with the window. Undefined when the window kept nothing for that address.
   */
  private restored(uri: vscode.Uri): { data: Uint8Array; ctime: number; mtime: number } | undefined {
    const draft = this.state.get<PromptDraft>(STATE.promptDraft);
    if (!draft || draft.uri !== uri.toString() || typeof draft.text !== 'string') return undefined;
    this.set(uri, draft.text);
    if (current?.uri.toString() !== uri.toString()) {
      current?.end('ended');
      current = new PromptSession(uri, draft.text, this.state, true);
    }
    return this.files.get(this.key(uri));
  }

  private key(uri: vscode.Uri): string {
    return `${uri.path}?${uri.query}`;
  }
  set(uri: vscode.Uri, text: string): void {
    const now = Date.now();
    this.files.set(this.key(uri), { data: new TextEncoder().encode(text), ctime: now, mtime: now });
  }
  forget(uri: vscode.Uri): void {
    this.files.delete(this.key(uri));
  }
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const f = this.files.get(this.key(uri)) ?? this.restored(uri);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: f.ctime, mtime: f.mtime, size: f.data.byteLength };
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(this.key(uri)) ?? this.restored(uri);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const f = this.files.get(this.key(uri));
    // Only the file of an editor still open is written: a save of a forgotten one has nowhere to go.
    if (!f) throw vscode.FileSystemError.NoPermissions(uri);
    f.data = content;
    f.mtime = Date.now();
  }
  delete(uri: vscode.Uri): void {
    this.forget(uri);
  }
  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

/**
 * Above the prompt's first line, as Git's commit-message editor says in its header how to finish: Use Prompt with its
 * key, and that closing the tab goes back to New Document… with the text kept.
 */
class PromptLenses implements vscode.CodeLensProvider {
  provideCodeLenses(): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const key = onMac() ? '⌘Enter' : 'Ctrl+Enter';
    return [
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('$(check) Use Prompt ({0})', key),
        tooltip: vscode.l10n.t('Goes on with New Document… with this text as its prompt.'),
        command: CMD.documentPromptUse,
      }),
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('Back to New Document… (closes this tab, keeps the text)'),
        tooltip: vscode.l10n.t("Closes this tab: New Document… asks for the prompt again, with this text in its box."),
        command: 'workbench.action.closeActiveEditor',
      }),
    ];
  }
}

let files: PromptFiles | undefined;
let opened = 0;
let current: PromptSession | undefined;
/** The text of a restored prompt editor that was used or closed: the next New Document… starts with it. */
let restoredText: string | undefined;

/**
 * The prompts' file system, as activation registers it (a forwarder that asks for it on VS Code's first call, see
 * registerPromptFiles): `state` is the window's workspaceState, where the text being written is kept.
 */
export function promptFiles(state: vscode.Memento): vscode.FileSystemProvider {
  return (files ??= new PromptFiles(state));
}

/** The tabs showing the prompt file at `uri` (a URI string). */
function tabsOf(uri: string): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri);
}

/** `812 / 2,048`: the characters as they will be sent, against the limit. */
function countText(text: string): { length: number; over: boolean; said: string } {
  const length = documentPromptLength(text);
  return { length, over: length > LIMITS.prompt, said: `${formatCount(length)} / ${formatCount(LIMITS.prompt)}` };
}

class PromptSession {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly status: vscode.StatusBarItem;
  text: string;
  private saving: Promise<void> | undefined;
  private saveAgain = false;
  private settle!: (o: PromptOutcome) => void;
  readonly outcome = new Promise<PromptOutcome>((resolve) => (this.settle = resolve));
  private done = false;
  /** Use Prompt is closing the tab: that close is no "closed". */
  private using = false;

  constructor(
    readonly uri: vscode.Uri,
    text: string,
    private readonly state: vscode.Memento,
    /** A tab VS Code restored: no New Document… waits for it (see takeRestoredPrompt). */
    readonly restored = false,
  ) {
    this.text = text;
    this.keep();
    this.status = vscode.window.createStatusBarItem('contentDocs.promptLength', vscode.StatusBarAlignment.Right, 100);
    this.status.name = vscode.l10n.t('Content Docs: Prompt Length');
    this.disposables.push(
      this.status,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() !== this.uri.toString()) return;
        this.text = e.document.getText();
        this.showCount();
        this.keep();
        if (e.document.isDirty) void this.save();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.showCount()),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        // Another tab closing before this one is shown (the one it replaces) is no close of this one.
        if (this.isShown()) this.seen = true;
        else if (e.closed.length && !this.using && this.seen) this.end('closed');
      }),
    );
    this.seen = this.isShown();
  }

  /** Its tab has been shown (VS Code's tabs list it): from then on, its last tab closing is its "closed". */
  private seen = false;

  private isActive(): boolean {
    return vscode.window.activeTextEditor?.document.uri.toString() === this.uri.toString();
  }

  private tabs(): vscode.Tab[] {
    return tabsOf(this.uri.toString());
  }

  private isShown(): boolean {
    return this.tabs().length > 0;
  }

  /** The count in the status bar, only while this editor is active. */
  showCount(): void {
    if (this.done || !this.isActive()) {
      this.status.hide();
      return;
    }
    const c = countText(this.text);
    this.status.text = c.over ? vscode.l10n.t('$(warning) Prompt: {0}', c.said) : vscode.l10n.t('$(edit) Prompt: {0}', c.said);
    this.status.tooltip = c.over
      ? vscode.l10n.t(
          'The prompt has {0} characters as it will be sent: the server takes at most {1}. Shorten it to use it.',
          formatCount(c.length),
          formatCount(LIMITS.prompt),
        )
      : vscode.l10n.t(
          "Characters of the prompt as it will be sent (paragraphs, headings and lists go as HTML, because the service joins a prompt's lines), of at most {0}. Use Prompt (✓) goes on with New Document…; closing the tab goes back to its box.",
          formatCount(LIMITS.prompt),
        );
    this.status.backgroundColor = c.over ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.status.show();
  }

  /**
   * The window keeps the text (for the tab restored after a reload) as each change comes: a reload right after a
   * keystroke finds it (the memento sends its changes to the window at most once a tick).
   */
  private keep(): void {
    if (!this.done) void this.state.update(STATE.promptDraft, { uri: this.uri.toString(), text: this.text } satisfies PromptDraft);
  }

  /**
   * Saves the editor's text to the in-memory file, so that its tab is never dirty: one save at a time, the last text
   * last. A save VS Code cancels (an auto-save of the same file began) is tried again. A save during which the text
   * changed is followed by another whatever the document's dirty flag says: VS Code tells the extension host that
   * the file was saved (not dirty) even when edits made during the save left it dirty.
   */
  private save(): Promise<void> {
    if (this.saving) {
      this.saveAgain = true;
      return this.saving;
    }
    this.saving = (async () => {
      let changedWhileSaving = false;
      for (let tries = 0; tries < 10; tries++) {
        this.saveAgain = false;
        const doc = this.document();
        if (!doc || (!doc.isDirty && !changedWhileSaving)) {
          if (doc && this.saveAgain) continue;
          break;
        }
        const version = doc.version;
        try {
          // The active editor's save without save participants: no trailing white space trimmed, no newline added while typing.
          if (this.isActive()) await vscode.commands.executeCommand('workbench.action.files.saveWithoutFormatting');
          else await doc.save();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        changedWhileSaving = doc.version !== version;
      }
    })().finally(() => (this.saving = undefined));
    return this.saving;
  }

  private document(): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.uri.toString());
  }

  /** Use Prompt: true when the text went back to New Document…; false (with the reason said) when it was refused. */
  async use(): Promise<boolean> {
    const text = this.text;
    if (isBlank(text)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Write the prompt first: what should the text be about?'));
      return false;
    }
    const c = countText(text);
    if (c.over) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The prompt has {0} characters as it will be sent (paragraphs, headings and lists go as HTML); the server takes at most {1}. Shorten it, then Use Prompt again: your text is kept.',
          formatCount(c.length),
          formatCount(LIMITS.prompt),
        ),
      );
      return false;
    }
    // The tab closes first, then New Document… goes on (its next question is not hidden behind a closing editor).
    this.using = true;
    try {
      await this.save();
      await vscode.window.tabGroups.close(this.tabs());
    } finally {
      this.end('use');
    }
    return true;
  }

  /** Settles the outcome once; the file is forgotten, and the tab closed unless it already is. */
  end(kind: PromptOutcome['kind']): void {
    if (this.done) return;
    this.done = true;
    if (current === this) current = undefined;
    for (const d of this.disposables) d.dispose();
    // Done with: the window keeps nothing of it (a restored one's text goes to the next New Document…).
    if (this.state.get<PromptDraft>(STATE.promptDraft)?.uri === this.uri.toString()) void this.state.update(STATE.promptDraft, undefined);
    if (this.restored && kind !== 'ended') restoredText = this.text;
    this.settle({ kind, text: this.text });
    if (kind === 'ended') void Promise.resolve(this.save()).then(() => vscode.window.tabGroups.close(this.tabs()));
    // Forgotten once no tab shows it (a save under way still finds it).
    void this.outcome.then(() => setTimeout(() => files?.forget(this.uri), 1000));
  }
}

/**
 * Opens an editor holding `text` for New Document's prompt and waits until it is done with (see the file's comment).
 * One at a time: a second one ends the first ('ended', its text kept by its New Document…).
 */
export async function writePromptInEditor(text: string, state: vscode.Memento): Promise<PromptOutcome> {
  current?.end('ended');
  const fs = (files ??= new PromptFiles(state));
  // A new address each time, in this window and after a reload: VS Code may keep a closed editor's text a while, and
  // it must not come back.
  const uri = vscode.Uri.from({ scheme: PROMPT_SCHEME, path: `/${FILE_NAME}`, query: `${Date.now().toString(36)}${(++opened).toString(36)}` });
  fs.set(uri, text);
  const session = (current = new PromptSession(uri, text, state));
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    // The cursor at the end, to go on writing.
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    editor.selection = new vscode.Selection(end, end);
    session.showCount();
  } catch (e) {
    session.end('closed');
    throw e;
  }
  return session.outcome;
}

/** Whether an editor for New Document's prompt is open and waited for (New Document… shows it rather than asking again). */
export function promptEditorOpen(): boolean {
  return current !== undefined && !current.restored;
}

/**
 * The text of a prompt editor restored after a reload, for a New Document… that starts now: a restored editor still
 * open is closed (its text goes into the prompt's box), or the text of one used or closed since. Undefined: none.
 * A restored tab VS Code has not shown yet (it was behind another tab) was never read: the window's kept text is its,
 * taken here too and its tab closed, before the prompt of this New Document… is kept in its place.
 */
export function takeRestoredPrompt(state: vscode.Memento): string | undefined {
  if (current?.restored) {
    restoredText = current.text;
    current.end('ended');
  }
  const draft = state.get<PromptDraft>(STATE.promptDraft);
  if (draft && draft.uri !== current?.uri.toString()) {
    // No editor of this window's life has it: a tab restored and never shown, or closed unseen.
    if (typeof draft.text === 'string' && draft.text.trim()) restoredText = draft.text;
    void state.update(STATE.promptDraft, undefined);
    const tabs = tabsOf(draft.uri);
    if (tabs.length) void vscode.window.tabGroups.close(tabs);
  }
  const text = restoredText;
  restoredText = undefined;
  return text;
}

/** Brings the open prompt editor to the front. */
export async function showPromptEditor(): Promise<void> {
  if (current) await vscode.window.showTextDocument(current.uri, { preview: false });
}

/**
 * Use Prompt (editor title, palette, Ctrl+Enter in the prompt's editor): `arg`, the editor title's URI, else the
 * active editor's. True when New Document… took the text.
 */
export async function usePrompt(arg?: unknown): Promise<boolean> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!current || uri?.toString() !== current.uri.toString()) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No New Document… is waiting for this prompt any more: run New Document… again, and Write in an Editor… in its prompt step.'),
    );
    return false;
  }
  const restored = current.restored;
  const used = await current.use();
  // Its New Document… ended with the window: a new one starts with this prompt in its box.
  if (used && restored) void vscode.commands.executeCommand(CMD.documentNew);
  return used;
}

export const promptCommands = {
  [CMD.documentPromptUse]: (arg: unknown) => usePrompt(arg),
};
