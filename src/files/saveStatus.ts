import vscode = require('vscode');
import { SCHEME } from '../constants';
import { clockTime } from '../tree/format';
import type { SaveEvent } from './saveWindow';
import { AUTO_SAVE_WINDOW_MS } from './saveWindow';
import { Disposable } from '../util/disposable';

/** How long "Saved" stays in the status bar after a save (ms). */
export const SAVED_SHOWN_MS = 4_000;
/** A "Saving…" that hears nothing more (VS Code stopped the save after its check) goes after this long (ms). */
const SAVING_FORGOTTEN_MS = 60_000;

/** What the item shows (the API cannot read a status bar item back: tests read this). */
export interface SaveItemState {
  readonly visible: boolean;
  readonly text: string;
  readonly tooltip: string;
  /** What a screen reader says of the item (the tooltip's first sentence, not the icon's name). */
  readonly accessibility?: vscode.AccessibilityInformation;
}

interface Shown {
  readonly state: SaveEvent['state'];
  readonly at: number;
  readonly message?: string;
  readonly unchanged?: boolean;
}

/**
 * Whether the active editor's document reached the server: a status bar word, not a notification (auto-save saves
 * every pause). "Saving…" while a save is held for its window or on the wire, "Saved" for a few seconds once the
 * server has the text, "Not saved" after a failure until the next save (VS Code says why as well, and keeps the
 * editor dirty). Each tooltip names the account. Shown only for a `content-docs:` document.
 */
export class SaveStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly shown = new Map<string, Shown>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: SaveItemState = { visible: false, text: '', tooltip: '' };

  constructor(
    saves: vscode.Event<SaveEvent>,
    /** The name of the account a document's URI belongs to (undefined: not known). */
    private readonly accountOf: (uri: vscode.Uri) => string | undefined,
  ) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('contentDocs.save', vscode.StatusBarAlignment.Right, 101));
    this.item.name = vscode.l10n.t('Content Docs Save');
    this._register(saves((e) => this.onSave(e)));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.render()));
    this._register(vscode.workspace.onDidCloseTextDocument((d) => this.shown.delete(d.uri.toString())));
    this._register({ dispose: () => clearTimeout(this.timer) });
  }

  get state(): SaveItemState {
    return this.current;
  }

  private onSave(e: SaveEvent): void {
    this.shown.set(e.uri, { state: e.state, at: Date.now(), message: e.message, unchanged: e.unchanged });
    this.render();
  }

  private render(now = Date.now()): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const uri = vscode.window.activeTextEditor?.document.uri;
    const shown = uri?.scheme === SCHEME ? this.shown.get(uri.toString()) : undefined;
    const lasts = shown && (shown.state === 'saved' ? SAVED_SHOWN_MS : shown.state === 'saving' ? SAVING_FORGOTTEN_MS : undefined);
    if (!uri || !shown || (lasts !== undefined && now - shown.at >= lasts)) return this.show(undefined);
    if (lasts !== undefined) this.timer = setTimeout(() => this.render(), shown.at + lasts - now + 5);
    const account = this.accountOf(uri) ?? vscode.l10n.t('the server');
    switch (shown.state) {
      case 'saving':
        return this.show({
          visible: true,
          text: vscode.l10n.t('$(sync~spin) Saving…'),
          tooltip: vscode.l10n.t(
            'Saving to {0}. Auto-saves of a document go out at most once in {1} seconds (the server takes 60 requests a minute); the last text you typed is sent.',
            account,
            AUTO_SAVE_WINDOW_MS / 1000,
          ),
          accessibility: { label: vscode.l10n.t('Saving to {0}…', account) },
        });
      case 'saved': {
        // The time in VS Code's display language (not the machine's), as the views show times.
        const at = clockTime(new Date(shown.at));
        const tooltip = shown.unchanged
          ? vscode.l10n.t('Saved at {0}: {1} already had this text, so nothing was sent.', at, account)
          : vscode.l10n.t('Saved to {0} at {1}.', account, at);
        return this.show({ visible: true, text: vscode.l10n.t('$(cloud) Saved'), tooltip, accessibility: { label: tooltip } });
      }
      case 'failed': {
        const why = shown.message ?? vscode.l10n.t('the save failed');
        return this.show({
          visible: true,
          text: vscode.l10n.t('$(warning) Not saved'),
          tooltip: vscode.l10n.t('Not saved to {0}: {1}\nYour text stays in the editor: save again to retry.', account, why),
          accessibility: { label: vscode.l10n.t('Not saved to {0}: {1}', account, why) },
        });
      }
    }
  }

  private show(state: SaveItemState | undefined): void {
    this.current = state ?? { visible: false, text: '', tooltip: '' };
    if (!state) return this.item.hide();
    this.item.text = state.text;
    this.item.tooltip = state.tooltip;
    this.item.accessibilityInformation = state.accessibility;
    this.item.show();
  }
}
