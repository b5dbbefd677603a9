import { CMD } from '../constants';
import { signIn, signOut, type SignInNeeds } from '../accounts/signIn';
import { addAccount, enterAccountKey, removeAccount, type AccountCommandsNeeds } from '../accounts/commands';
import type { BackupNeeds } from '../backup/command';
import { connectAgent } from '../mcp/connect';
import type { ChatNeeds } from '../agents/chat/handler';
import { htmlCommands, type HtmlNeeds } from '../files/htmlCommands';
import { documentCommands, type DocumentsNeeds } from '../documents/commands';
import { fileCommands, type FilesNeeds } from '../files/commands';
import { insertCommands, type InsertNeeds } from '../files/insert';
import { linkCommands } from '../documents/links';
import type { CommandTable } from '../util/commandTypes';
import type { LoadBundle } from '../util/loadBundle';
import { projectCommands, type ProjectsNeeds } from '../projects/commands';
import { writeCommands, type WriteNeeds } from '../write/commands';
import { usageCommands, type UsageNeeds } from '../usage/commands';

type BackupModule = typeof import('../backup/command');

/**
 * What the commands are built from: what each feature's commands take, and no more (the window's services, built in
 * src/core.ts, are one such object). Each feature declares its own needs; none reaches a shared bag.
 */
export type CommandServices = SignInNeeds &
  AccountCommandsNeeds &
  DocumentsNeeds &
  ProjectsNeeds &
  FilesNeeds &
  InsertNeeds &
  HtmlNeeds &
  WriteNeeds &
  UsageNeeds &
  ChatNeeds &
  BackupNeeds & { readonly loadBundle: LoadBundle };

/** dist/backup.js: Back Up Account to Folder… (loaded when it first runs, with the window's code cache). */
function loadBackup(s: { readonly loadBundle: LoadBundle }): BackupModule {
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return s.loadBundle('backup', () => require('./backup.js') as BackupModule);
}

export { answerChat } from '../agents/chat/handler';
export { openLink } from '../documents/links';
export { resolveMcpServer } from '../mcp/vscodeAgents';
export { goneText } from '../write/proposalGone';
export { promptFiles } from '../files/promptEditor';
export { showCheckedInput } from '../ui/checkedInput';
export { showStepInput, showStepPick, showToggleInput } from '../ui/quickInputs';

/**
 * Every command's implementation (one missing does not compile: CommandTable is a full Record). Built into its own bundle (dist/commands.js), which commands/index.ts
 * loads when a command first runs: activation registers the commands without loading their code.
 */
export function commandTable(s: CommandServices): CommandTable {
  return {
    [CMD.signIn]: () => signIn(s),
    [CMD.signOut]: () => signOut(s),
    [CMD.accountAdd]: () => addAccount(s),
    [CMD.accountRemove]: (arg: unknown) => removeAccount(s, arg),
    [CMD.accountEnterKey]: (arg: unknown) => enterAccountKey(s, arg),
    [CMD.showLog]: () => s.log.show(),
    [CMD.backupAccount]: (arg: unknown) => loadBackup(s).backupAccount(s, arg),
    [CMD.connectAgent]: (arg: unknown) => connectAgent(s, arg),
    ...documentCommands(s),
    ...projectCommands(s),
    ...fileCommands(s),
    ...writeCommands(s),
    ...insertCommands(s),
    ...linkCommands(s),
    ...htmlCommands(s),
    ...usageCommands(s),
  };
}
