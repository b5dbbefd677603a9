import vscode = require('vscode');
import { formatCount } from '../tree/format';
import { charLength, LIMITS, serverTrim } from '../api/validate';
import { describeError, errorKind } from '../util/errors';
import type { Logger } from '../util/log';

/** A refusal made here (logged): NoPermissions, or Unavailable when trying again later may work. */
export function refusal(log: Logger, message: string, kind: 'noPermissions' | 'unavailable' = 'noPermissions'): vscode.FileSystemError {
  log.warn(`[fs] ${message}`);
  return kind === 'unavailable' ? vscode.FileSystemError.Unavailable(message) : vscode.FileSystemError.NoPermissions(message);
}

/**
 * A failed request as the FileSystemError VS Code shows (its message says what failed and why). `gone` is called
 * when the server says the document does not exist.
 */
export function toFileSystemError(e: unknown, action: string, log: Logger, gone?: () => void): vscode.FileSystemError {
  if (e instanceof vscode.FileSystemError) return e;
  const message = describeError(action, e);
  log.warn(`[fs] ${message}`);
  switch (errorKind(e)) {
    case 'notFound':
      gone?.();
      return vscode.FileSystemError.FileNotFound(message);
    case 'auth':
    case 'forbidden':
    case 'validation':
      return vscode.FileSystemError.NoPermissions(message);
    default:
      if (errorKind(e) === undefined && e instanceof Error) log.error(e);
      return vscode.FileSystemError.Unavailable(message);
  }
}

/** Why a text cannot be saved as a document's result (measured as the server stores it), or undefined. */
export function unsavableText(text: string): string | undefined {
  const trimmed = serverTrim(text);
  if (!trimmed) return vscode.l10n.t('the text is empty, and the server keeps no empty document. Type some text, or delete the document instead.');
  const length = charLength(trimmed);
  if (length > LIMITS.result) {
    return vscode.l10n.t(
      'the text is longer than {0} characters ({1}). Shorten it and save again.',
      formatCount(LIMITS.result),
      formatCount(length),
    );
  }
  return undefined;
}

/** Why a document cannot have this name, or undefined. */
export function unusableName(name: string): string | undefined {
  if (!name) return vscode.l10n.t('the name cannot be empty.');
  const length = charLength(name);
  return length > LIMITS.name ? vscode.l10n.t('the name can be at most {0} characters (this one has {1}).', LIMITS.name, length) : undefined;
}
