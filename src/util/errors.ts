import type { ApiError } from '../api/errors';
import { isApiError } from '../api/errors';
import { isEnglish, l10n } from './l10n';

export { isApiError };

/** "Couldn't save "Q3 plan": the server did not answer within 30 seconds." */
export function describeError(action: string, e: unknown): string {
  const cause = isApiError(e) ? e.message : e instanceof Error ? e.message : String(e);
  return l10n.t('{0}: {1}', action, isEnglish() ? lowerFirst(cause) : cause);
}

function lowerFirst(s: string): string {
  // Keep "HTTP", "API" and quoted names as they are. English only: a German noun keeps its capital.
  return /^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s;
}

export function errorKind(e: unknown): ApiError['kind'] | undefined {
  return isApiError(e) ? e.kind : undefined;
}

export function isCancellation(e: unknown): boolean {
  return (isApiError(e) && e.kind === 'cancelled') || (e instanceof Error && e.name === 'Canceled');
}

/** A one-line, plain-words reason for an error (the API's sentence, else the error's message). */
export function reason(e: unknown): string {
  return isApiError(e) || e instanceof Error ? e.message : String(e);
}
