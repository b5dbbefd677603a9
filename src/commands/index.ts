import vscode = require('vscode');
import { CMD, VIEW_COMMANDS } from '../constants';
import type { Logger } from '../util/log';
import { runCommand } from '../util/run';
import { loadBundle } from '../activation/codeCache';

import type { CommandId, CommandTable, RegisterCommands } from '../util/commandTypes';

export type { CommandId, CommandTable, RegisterCommands } from '../util/commandTypes';

type TableModule = typeof import('./table');
/** What the commands are built from: the window's services (see commandTable). */
type CommandServices = Parameters<TableModule['commandTable']>[0];

/**
 * The one place that registers commands. Every command runs through runCommand (log + one message).
 * The implementations (dist/commands.js) load on the first command, not at activation.
 */
/** dist/commands.js: the commands' implementations and the texts only they need (loaded on first use). */
export function loadCommandsBundle(): TableModule {
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return loadBundle('commands', () => require('./commands.js') as TableModule);
}

/** What the Documents view's keybindings pass (package.json `"args": { "selection": true }`): "the row in focus there". */
function isFocusedRowMarker(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && (arg as { selection?: unknown }).selection === true && Object.keys(arg).length === 1;
}

/** The commands registered at activation: all but the views' own (VIEW_COMMANDS), which the views register when built. */
export function activationCommands(): CommandId[] {
  const ofViews = new Set<string>(VIEW_COMMANDS);
  return Object.values(CMD).filter((id) => !ofViews.has(id));
}

/**
 * Registers commands (activation's, then the views' own) over one table of implementations (dist/commands.js),
 * loaded when the first of them runs.
 */
export function commandRegistrar(log: Logger, services: () => CommandServices, loadTable: () => TableModule = loadCommandsBundle): RegisterCommands {
  let table: CommandTable | undefined;
  return (ids) => ids.map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) =>
      runCommand(log, { action: `Couldn't run ${id.replace('contentDocs.', '')}` }, async () => {
        // The services (dist/core.js) too are built on the first command, if no view or document built them before.
        table ??= loadTable().commandTable(services());
        // The accounts of the key and settings heard so far are made before a command reads them: the first command of
        // a window builds the services, and the account of a key stored earlier is made then (its label read from
        // SecretStorage): without this wait, a signed-in writer would be told to sign in.
        await services().registry.settled();
        const handler = table[id];
        if (!handler) throw new Error(`The command ${id} has no implementation.`);
        // A key pressed in the Documents view (its keybindings pass the marker): the document row in focus there,
        // never the active editor's; on a group or Load more row the key does nothing, as Delete on a folder-less row.
        // With the row in focus among several selected rows, the command is given the selection too, as a context
        // menu gives it: Delete, Copy Result and the favorite keys act on each selected row, F2 on the row in focus.
        if (isFocusedRowMarker(args[0])) {
          const { row, selection } = await services().documentsView.keyTarget();
          if ((row as { kind?: unknown } | undefined)?.kind !== 'document') return undefined;
          return await handler(row, selection);
        }
        return await handler(...args);
      }),
    ),
  );
}
