import type * as vscode from 'vscode';
import type { CMD } from '../constants';

export type CommandId = (typeof CMD)[keyof typeof CMD];
// Command arguments come from VS Code, menus and other extensions: each handler checks its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (...args: any[]) => unknown;
/** A group of commands' handlers (documents, projects, files): exact keys, checked against the ids. */
export type CommandParts = Partial<Record<CommandId, Handler>>;
/** Every command's handler: a command without one does not compile. */
export type CommandTable = Record<CommandId, Handler>;

/** Registers commands by id; what it returns serves activation and the views alike. */
export type RegisterCommands = (ids: readonly CommandId[]) => vscode.Disposable[];
