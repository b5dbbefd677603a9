import vscode = require('vscode');
import { CMD } from '../constants';
import type { Core } from '../core';
import type { Logger } from '../util/log';
import { runCommand } from '../util/run';

import type { CommandTable } from './types';

export type { CommandId, CommandTable } from './types';

type TableModule = typeof import('./table');

/**
 * The one place that registers commands. Every command runs through runCommand (log + one message).
 * The implementations (dist/commands.js) load on the first command, not at activation.
 */
/** dist/commands.js: the commands' implementations and the texts only they need (loaded on first use). */
export function loadCommandsBundle(): TableModule {
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./commands.js') as TableModule;
}

/** What the Documents view's keybindings pass (package.json `"args": { "selection": true }`): "the row in focus there". */
function isFocusedRowMarker(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && (arg as { selection?: unknown }).selection === true && Object.keys(arg).length === 1;
}

export function registerCommands(log: Logger, services: () => Core, loadTable: () => TableModule = loadCommandsBundle): vscode.Disposable[] {
  let table: CommandTable | undefined;
  return Object.values(CMD).map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) =>
      runCommand(log, { action: `Couldn't run ${id.replace('contentDocs.', '')}` }, async () => {
        // The services (dist/core.js) too are built on the first command, if no view or document built them before.
        table ??= loadTable().commandTable(services());
        const handler = table[id];
        if (!handler) throw new Error(`The command ${id} has no implementation.`);
        // A key pressed in the Documents view (its keybindings pass the marker): the document row in focus there,
        // never the active editor's; on a group or Load more row the key does nothing, as Delete on a folder-less row.
        if (isFocusedRowMarker(args[0])) {
          const row = await services().documentsView.focusedRow();
          if ((row as { kind?: unknown } | undefined)?.kind !== 'document') return undefined;
          return await handler(row, ...args.slice(1));
        }
        return await handler(...args);
      }),
    ),
  );
}
