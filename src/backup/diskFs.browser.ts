/**
 * The browser build's stand-in for diskFs.ts (esbuild.mjs puts it in place): a web worker has no disk of its own, so
 * Back Up Account to Folder… writes through vscode.workspace.fs there.
 */
import type { BackupFs } from './backup';

export function diskBackupFs(_folder: string, _explain?: (e: unknown) => never): BackupFs | undefined {
  return undefined;
}
