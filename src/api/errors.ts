/** What went wrong, in terms a caller can branch on. Never branch on message texts: servers translate them. */
export type ApiErrorKind =
  | 'auth' // 401, a redirect to the server's own login page, or no key at all
  | 'moved' // a redirect anywhere else (another host, path or scheme, or no Location): never followed; `location` says where
  | 'forbidden' // 403: the plan has no API access
  | 'notFound' // 404
  | 'validation' // 422, with per-field messages; also input refused before sending
  | 'rateLimited' // 429, with retryAfter
  | 'server' // 5xx
  | 'network' // connection refused, reset, DNS
  | 'timeout' // no answer in time
  | 'cancelled' // the caller aborted
  | 'badResponse' // a body that is not the JSON we expect (HTML, malformed, wrong shape, too large)
  | 'insecure' // a base URL the key must not be sent to
  | 'signedOut'; // the account is gone (signed out, removed, or its key or server changed): nothing was sent

export interface ApiErrorDetails {
  status?: number;
  /** Field -> messages, from a 422 or from local validation. */
  fields?: Record<string, string[]>;
  /** Seconds to wait, from Retry-After on a 429 (absent when the server did not say). */
  retryAfter?: number;
  /** Where a redirect pointed ('moved'): resolved against the request, without credentials, query or fragment. */
  location?: string;
  cause?: unknown;
}

/**
 * The one error type of the API layer. `message` is a plain sentence about the cause
 * ("the server did not answer within 30 seconds"); callers add the action ("Couldn't save …: ").
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly isApiError = true;
  readonly status?: number;
  readonly fields?: Record<string, string[]>;
  readonly retryAfter?: number;
  readonly location?: string;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.fields = details.fields;
    this.retryAfter = details.retryAfter;
    this.location = details.location;
  }

  /** The field messages joined into one line: `name: The name field is required.` */
  get fieldSummary(): string {
    return this.fields ? summarizeFields(this.fields) : '';
  }
}

/** `name: The name field is required.; prompt (no reason given)`: a field whose list is empty is named alone. */
export function summarizeFields(fields: Record<string, string[]>): string {
  return Object.entries(fields)
    .map(([field, msgs]) => {
      const text = msgs.map((m) => m.trim()).filter(Boolean).join(' ');
      return text ? `${field}: ${text}` : `${field} (no reason given)`;
    })
    .join('; ');
}

/**
 * Duck-typed check: the extension bundle and the lazily loaded API bundle each carry their own
 * copy of this module, so `instanceof` does not hold across them.
 */
export function isApiError(e: unknown): e is ApiError {
  return typeof e === 'object' && e !== null && (e as { isApiError?: unknown }).isApiError === true;
}

export function isNotFound(e: unknown): boolean {
  return isApiError(e) && e.kind === 'notFound';
}

export function isCancelled(e: unknown): boolean {
  return isApiError(e) && e.kind === 'cancelled';
}

export function invalidInput(field: string, message: string): ApiError {
  return new ApiError('validation', `${field}: ${message}`, { fields: { [field]: [message] } });
}
