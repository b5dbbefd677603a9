/**
 * Shared helpers of the suites that work on the account folder (accountFolder, accountListing): documents put
 * straight into a sandbox, account-folder URIs, a fresh listing, and the extension set up with a recording prompter.
 */
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import type { Prompter } from '../../src/ui/prompter';
import type { Sandbox, SandboxDocument } from '../sandbox/server';
import { accountNow, accountRoot, RecordingPrompter, services, sleep, useSandbox } from './reliabilityKit';

/** The creation and last change of the documents these suites put in. */
export const AT = new Date('2026-06-01T10:00:00Z');

/** Puts a document straight into a sandbox (no request). */
export function putDocument(box: Sandbox, id: number, name: string, templateId: number | null, extra: Partial<SandboxDocument> = {}): SandboxDocument {
  const d: SandboxDocument = { id, name, templateId, result: `Text of ${name} (${id})`, words: 4, favorite: false, createdAt: AT, updatedAt: AT, ...extra };
  box.documents.set(id, d);
  return d;
}

/** `content-docs://<account>/<folder>/<file>`, in the account signed in now. */
export function accountUri(folder: string, file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: 'content-docs', authority: accountNow(), path: `/${folder}/${file}` });
}

/** Starts over with a fresh account folder listing (the documents just put in the sandbox included). */
export async function freshListing(): Promise<void> {
  await vscode.commands.executeCommand('contentDocs.documentsRefresh');
  await sleep(700); // the account listing reloads 500 ms after a refresh
  await vscode.workspace.fs.readDirectory((await accountRoot()));
}

export interface AccountSuite {
  s: TestServices;
  prompter: RecordingPrompter;
  /** The prompter the extension had before (put back after the suite). */
  previousPrompter: Prompter | undefined;
}

/** The extension pointed at `sandbox`, its questions answered by a recording prompter, background counting without pauses. */
export async function startAccountSuite(sandbox: Sandbox): Promise<AccountSuite> {
  const s = await services();
  const prompter = new RecordingPrompter();
  const previousPrompter = s.prompter.current;
  s.prompter.current = prompter;
  await useSandbox(s, sandbox);
  countWithoutPauses(s);
  return { s, prompter, previousPrompter };
}

/**
 * Background counting without pauses in the Documents tree of the settings' account signed in now. Each account has
 * its own tree: call it again after the key or the server changes (useSandbox), for the account made then.
 */
export function countWithoutPauses(s: TestServices): void {
  s.documentsTree.model.countIntervalMs = 0;
}
