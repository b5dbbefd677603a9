/** What went wrong, in terms a caller can branch on. Never branch on message texts: servers translate them. */
export type ApiErrorKind =
  | 'auth' // 401, a redirect to the server's own login page, or no key at all
  | 'moved' // a redirect anywhere else (another host, path or scheme, or no Location): never followed; `location` says where
  | 'forbidden' // 403: the plan has no API access
  | 'notFound' // 404
  | 'validation' // 422, with per-field messages; also input refused before sending
  | 'rateLimited' // 429, with retryAfter
  | 'server' // 5xx
  | 'network' // connection refused, reset, DNS, a proxy that cannot be reached or asks for a sign-in (407)
  | 'certificate' // the server's certificate could not be verified: nothing was sent, and a retry cannot mend it
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
  /**
   * More than the message says, for the log only: the whole text a 5xx answer gave (the AI provider's address,
   * status and JSON that the real server appends to its first sentence), with the API key taken out. The client has
   * logged it already; its presence means "Show Log tells more".
   */
  detail?: string;
  /** The system's name for a failure without an answer (ECONNREFUSED, UNABLE_TO_VERIFY_LEAF_SIGNATURE…), when it gave one. */
  code?: string;
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
  readonly detail?: string;
  readonly code?: string;

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
    this.detail = details.detail;
    this.code = details.code;
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

/** Where the text of a server's message stops being words for the writer: code, JSON, markup, an address, a new line. */
const NOT_WORDS = /[`{}[\]<>\r\n]|https?:\/\//;
/** The end of a sentence: its mark, then the end, a space, or anything but a lower-case letter or a digit ("again.Server", not "1.5"). */
const SENTENCE_END = /[.!?\u3002\uff01\uff1f](?=$|\s|[^\p{Ll}\p{N}])/u;

/**
 * The first sentence of a server's message, for the writer: up to its first end, taken only from the words before
 * any code, JSON or address; undefined when what comes first is no sentence (`Server error: \`POST http://…\``) or is
 * too long for a message. A text without an end mark (`Service Unavailable`) is a sentence when nothing follows it.
 */
export function firstSentence(text: string): string | undefined {
  const cut = text.search(NOT_WORDS);
  const words = cut < 0 ? text : text.slice(0, cut);
  const end = SENTENCE_END.exec(words);
  const sentence = (end ? words.slice(0, end.index + 1) : cut < 0 ? words : '').trim();
  return sentence.length >= 2 && sentence.length <= 200 && /\p{L}/u.test(sentence) ? sentence : undefined;
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
