import * as vscode from 'vscode';

/**
 * The questions the extension asks. One object so that tests can answer them (the modal
 * confirmation cannot be clicked from inside the extension host); the product uses VS Code's own UI.
 */
export interface Prompter {
  /** A modal warning with one confirming button; true only if that button was chosen. */
  confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
}

export class VsCodePrompter implements Prompter {
  async confirm(message: string, detail: string, confirmLabel: string): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, confirmLabel);
    return choice === confirmLabel;
  }
  input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    return Promise.resolve(vscode.window.showInputBox({ ignoreFocusOut: true, ...options }));
  }
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    return Promise.resolve(vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...options }));
  }
}

/** Forwards to a replaceable implementation (tests swap `current`). */
export class SwitchablePrompter implements Prompter {
  current: Prompter = new VsCodePrompter();
  confirm(message: string, detail: string, confirmLabel: string): Promise<boolean> {
    return this.current.confirm(message, detail, confirmLabel);
  }
  input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    return this.current.input(options);
  }
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    return this.current.pick(items, options);
  }
}
