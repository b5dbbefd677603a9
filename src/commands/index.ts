import * as vscode from 'vscode';
import { CMD } from '../constants';
import type { Services } from '../services/services';
import { runCommand } from '../util/run';
import { signIn, signOut } from './auth';
import { documentCommands } from './documents';
import { projectCommands } from './projects';
import { fileCommands } from './files';

export type CommandId = (typeof CMD)[keyof typeof CMD];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandTable = Partial<Record<CommandId, (...args: any[]) => unknown>>;

/** The one place that registers commands. Every command runs through runCommand (log + one message). */
export function registerCommands(s: Services): vscode.Disposable[] {
  const table: CommandTable = {
    [CMD.signIn]: () => signIn(s),
    [CMD.signOut]: () => signOut(s),
    [CMD.showLog]: () => s.log.show(),
    ...documentCommands(s),
    ...projectCommands(s),
    ...fileCommands(s),
  };
  const disposables: vscode.Disposable[] = [];
  for (const id of Object.values(CMD)) {
    const handler = table[id];
    if (!handler) {
      s.log.error(`[commands] no handler for ${id}`);
      continue;
    }
    disposables.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) =>
        runCommand(s.log, { action: `Couldn't run ${id.replace('contentDocs.', '')}` }, async () => handler(...args)),
      ),
    );
  }
  return disposables;
}
