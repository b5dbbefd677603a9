import vscode = require('vscode');
import { accountPathUri } from './uris';
import { Disposable } from '../util/disposable';
import type { IndexDiff } from './accountIndex';

/** The file system's change events, buffered like the samples' `_fireSoon`: the events of one burst arrive together, once each. */
export class FileChangeBatcher extends Disposable {
  private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this._onDidChangeFile.event;
  private pending: vscode.FileChangeEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this._register({
      dispose: () => {
        if (this.timer) clearTimeout(this.timer);
      },
    });
  }

  soon(...events: vscode.FileChangeEvent[]): void {
    if (events.length === 0) return;
    this.pending.push(...events);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const seen = new Set<string>();
      const batch = this.pending.filter((e) => {
        const k = `${e.type}:${e.uri.toString()}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      this.pending = [];
      if (!this.isDisposed) this._onDidChangeFile.fire(batch);
    }, 5);
  }

  /** Tells VS Code an editor model's file changed and waits (at most 3 s) until the model has reloaded. */
  reload(model: vscode.TextDocument): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, 3_000);
      const sub = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === model) done();
      });
      this.soon({ type: vscode.FileChangeType.Changed, uri: model.uri });
    });
  }

  /** What changed in the folder of `account`: files and folders gone, then new ones. */
  indexDiff(d: IndexDiff, account: string): void {
    const uri = (p: string) => accountPathUri(account, p);
    this.soon(
      ...d.removedFiles.map((p) => ({ type: vscode.FileChangeType.Deleted, uri: uri(p) })),
      ...d.removedFolders.map((p) => ({ type: vscode.FileChangeType.Deleted, uri: uri(p) })),
      ...d.addedFolders.map((p) => ({ type: vscode.FileChangeType.Created, uri: uri(p) })),
      ...d.addedFiles.map((p) => ({ type: vscode.FileChangeType.Created, uri: uri(p) })),
    );
  }
}
