/**
 * The values the extension gives its context keys, as it sets them (setContext through the extension's vscode API:
 * VS Code has no API that reads a context key back).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';

export class ContextKeys implements vscode.Disposable {
  readonly set: Array<[string, unknown]> = [];
  private readonly original = vscode.commands.executeCommand;
  constructor() {
    const commands = vscode.commands as { executeCommand: typeof vscode.commands.executeCommand };
    commands.executeCommand = (<T>(command: string, ...rest: unknown[]): Thenable<T> => {
      if (command === 'setContext') this.set.push([rest[0] as string, rest[1]]);
      return this.original.call(vscode.commands, command, ...rest) as Thenable<T>;
    }) as typeof vscode.commands.executeCommand;
    assert.notStrictEqual(vscode.commands.executeCommand, this.original, 'the API object can be observed');
  }
  last(key: string): unknown {
    return this.set.filter(([k]) => k === key).at(-1)?.[1];
  }
  dispose(): void {
    (vscode.commands as { executeCommand: typeof vscode.commands.executeCommand }).executeCommand = this.original;
  }
}
