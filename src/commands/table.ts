import { CMD } from '../constants';
import type { Core } from '../core';
import { signIn, signOut } from '../accounts/signIn';
import { addAccount, enterAccountKey, removeAccount } from '../accounts/commands';
import { htmlCommands } from '../files/htmlCommands';
import { documentCommands } from '../documents/commands';
import { fileCommands } from '../files/commands';
import { insertCommands } from '../files/insert';
import type { CommandTable } from './types';
import { projectCommands } from '../projects/commands';
import { writeCommands } from '../write/commands';
import { usageCommands } from '../usage/commands';

type BackupModule = typeof import('../backup/command');

/** dist/backup.js: Back Up Account to Folder… (loaded when it first runs, with the window's code cache). */
function loadBackup(s: Core): BackupModule {
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return s.loadBundle('backup', () => require('./backup.js') as BackupModule);
}

export { answerChat } from '../agents/chat/handler';
export { goneText } from '../write/proposalGone';
export { promptFiles } from '../files/promptEditor';
export { showCheckedInput } from '../ui/checkedInput';
export { showStepInput, showStepPick, showToggleInput } from '../ui/quickInputs';

/**
 * Every command's implementation (one missing does not compile: CommandTable is a full Record). Built into its own bundle (dist/commands.js), which commands/index.ts
 * loads when a command first runs: activation registers the commands without loading their code.
 */
export function commandTable(s: Core): CommandTable {
  return {
    [CMD.signIn]: () => signIn(s),
    [CMD.signOut]: () => signOut(s),
    [CMD.accountAdd]: () => addAccount(s),
    [CMD.accountRemove]: (arg: unknown) => removeAccount(s, arg),
    [CMD.accountEnterKey]: (arg: unknown) => enterAccountKey(s, arg),
    [CMD.showLog]: () => s.log.show(),
    [CMD.backupAccount]: (arg: unknown) => loadBackup(s).backupAccount(s, arg),
    ...documentCommands(s),
    ...projectCommands(s),
    ...fileCommands(s),
    ...writeCommands(s),
    ...insertCommands(s),
    ...htmlCommands(s),
    ...usageCommands(s),
  };
}
