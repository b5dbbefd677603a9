import vscode = require('vscode');
import { CMD, EXTENSION_ID } from '../constants';
import type { Logger } from './log';
import { describeError, errorKind, isCancellation } from './errors';

export interface RunOptions {
  /** What the user was doing, for the message: "Couldn't rename "Q3 plan"". */
  action: string;
  /** Called when the user picks Retry (offered for network, timeout, server and rate-limit errors). */
  retry?: () => unknown;
}

/**
 * Runs a command body: a cancellation stays silent; any other error is logged with its stack and
 * shown once, with the actions that fit its kind (Set API Key, Retry, Show Log).
 */
export async function runCommand<T>(log: Logger, options: RunOptions, body: () => Promise<T>): Promise<T | undefined> {
  try {
    return await body();
  } catch (e) {
    if (isCancellation(e)) return undefined;
    void showError(log, describeError(options.action, e), e, options.retry);
    return undefined;
  }
}

/**
 * In a remote window (Remote-SSH, WSL, a container, a Codespace) where Content Docs runs on the remote machine, what a
 * network failure needs said: the requests leave from there, not from this computer. Undefined elsewhere.
 */
export function remoteHint(kind: string | undefined): string | undefined {
  if (kind !== 'network' && kind !== 'timeout') return undefined;
  const remote = vscode.env.remoteName;
  const self = vscode.extensions.getExtension(EXTENSION_ID);
  if (!remote || self?.extensionKind !== vscode.ExtensionKind.Workspace) return undefined;
  return vscode.l10n.t(
    'In this remote window ({0}) the requests leave from the remote machine, not from this computer: a server only this computer reaches (a local network, a VPN, localhost) is out of their reach. See "Remote windows" in Troubleshooting.',
    remote,
  );
}

export async function showError(log: Logger, message: string, e: unknown, retry?: () => unknown): Promise<void> {
  const hint = remoteHint(errorKind(e));
  if (hint) message = `${message} ${hint}`;
  log.error(message);
  if (e instanceof Error && e.stack && errorKind(e) === undefined) log.error(e);
  const kind = errorKind(e);
  const setKey = vscode.l10n.t('Set API Key');
  const again = vscode.l10n.t('Retry');
  const showLog = vscode.l10n.t('Show Log');
  const actions: string[] = [];
  if (kind === 'auth') actions.push(setKey);
  if (retry && (kind === 'network' || kind === 'timeout' || kind === 'server' || kind === 'rateLimited' || kind === 'badResponse')) actions.push(again);
  actions.push(showLog);
  const choice = await vscode.window.showErrorMessage(message, ...actions);
  if (choice === setKey) await vscode.commands.executeCommand(CMD.signIn);
  else if (choice === again) await retry?.();
  else if (choice === showLog) log.show();
}
