import vscode = require('vscode');

/** Owns disposables: whatever is `_register`ed is disposed with it (after the PR extension's lifecycle.ts). */
export abstract class Disposable implements vscode.Disposable {
  private readonly _disposables: vscode.Disposable[] = [];
  private _isDisposed = false;

  protected _register<T extends vscode.Disposable>(d: T): T {
    if (this._isDisposed) d.dispose();
    else this._disposables.push(d);
    return d;
  }

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    while (this._disposables.length) {
      try {
        this._disposables.pop()?.dispose();
      } catch {
        // keep disposing the rest
      }
    }
  }
}

/** `value` made disposable: disposing it disposes `owned`, in order (an object and the listeners that feed it). */
export function disposingWith<T extends object>(value: T, ...owned: vscode.Disposable[]): T & vscode.Disposable {
  return Object.assign(value, {
    dispose: () => {
      for (const d of owned) d.dispose();
    },
  });
}
