import vscode = require('vscode');
import type { ApiError } from '../api/errors';
import { errorKind, isApiError, reason } from '../util/errors';

/** Presentation helpers shared by the two views. No state, no network. */

function locale(): string {
  return vscode.env.language || 'en';
}

const formatters = new Map<string, unknown>();

/**
 * A formatter for the UI language (English when the language is not supported), made once: the trees
 * format every visible row on each refresh, and building an Intl formatter costs far more than using one.
 */
function formatter<T>(key: string, make: (loc: string) => T): T | undefined {
  if (!formatters.has(key)) {
    let f: T | undefined;
    for (const loc of [locale(), 'en']) {
      try {
        f = make(loc);
        break;
      } catch {
        // try the next locale
      }
    }
    formatters.set(key, f);
  }
  return formatters.get(key) as T | undefined;
}

/**
 * Makes the formatters the views' rows use (dates, numbers, "3 days ago"). Building the first Intl formatter of a
 * process costs ~10 ms (ICU loads its data): done while the session's first request waits for its answer, it is
 * off the path from that answer to the rows.
 */
export function prepareFormats(): void {
  shortDate(new Date(0));
  formatCount(0);
  formatScore(0.5);
  fromNow(new Date(0), 3_600_000);
}

export function parseDate(iso: string | undefined): Date | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** "3 days ago", "yesterday", "in 2 minutes" (clock skew), "just now". */
export function fromNow(date: Date, now = Date.now()): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return vscode.l10n.t('just now');
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 365 * 24 * 3600],
    ['month', 30 * 24 * 3600],
    ['week', 7 * 24 * 3600],
    ['day', 24 * 3600],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === 'minute') {
      const value = Math.round(seconds / size);
      const f = formatter('relative', (loc) => new Intl.RelativeTimeFormat(loc, { numeric: 'auto' }));
      return f ? f.format(value, unit) : `${Math.abs(value)} ${unit}${Math.abs(value) === 1 ? '' : 's'} ${value < 0 ? 'ago' : 'from now'}`;
    }
  }
  return date.toISOString();
}

/** "Mar 21, 2024" */
export function shortDate(date: Date): string {
  const f = formatter('date', (loc) => new Intl.DateTimeFormat(loc, { dateStyle: 'medium' }));
  return f ? f.format(date) : date.toISOString().slice(0, 10);
}

/** "Mar 21, 2024, 3:30 PM" */
export function dateTime(date: Date): string {
  const f = formatter('dateTime', (loc) => new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'short' }));
  return f ? f.format(date) : date.toISOString();
}

/** "14:03:25" */
export function clockTime(date: Date): string {
  const f = formatter('time', (loc) => new Intl.DateTimeFormat(loc, { timeStyle: 'medium' }));
  return f ? f.format(date) : date.toISOString().slice(11, 19);
}

export function formatCount(n: number): string {
  const f = formatter('number', (loc) => new Intl.NumberFormat(loc));
  return f ? f.format(n) : String(n);
}

/**
 * A score (0–100, one decimal at most) as the display language writes it: 27.5, 27,5, 80. Made once, as the other
 * formatters: `toLocaleString` with options builds a formatter on every call, twice per row of the Projects view.
 */
export function formatScore(n: number): string {
  const whole = Number.isInteger(n);
  const f = formatter(whole ? 'score' : 'scoreTenths', (loc) => new Intl.NumberFormat(loc, { minimumFractionDigits: whole ? 0 : 1, maximumFractionDigits: 1 }));
  return f ? f.format(n) : String(n);
}

export function words(n: number): string {
  return n === 1 ? vscode.l10n.t('1 word') : vscode.l10n.t('{0} words', formatCount(n));
}

export function reports(n: number): string {
  return n === 1 ? vscode.l10n.t('1 report') : vscode.l10n.t('{0} reports', formatCount(n));
}

/** Markdown-escapes text for a tooltip. */
export function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`);
}

export { reason } from '../util/errors';

export function kindOf(e: unknown): ApiError['kind'] | undefined {
  return errorKind(e);
}

/** How an error shows as a tree item: a short label and a description saying why (and when to retry). */
export function errorPresentation(action: string, e: unknown, at: number): { label: string; description: string; tooltip: string; signIn: boolean } {
  const kind = kindOf(e);
  const why = reason(e);
  if (kind === 'auth') {
    return {
      label: vscode.l10n.t('{0}: the API key was not accepted', action),
      description: vscode.l10n.t('Click to set the API key'),
      tooltip: vscode.l10n.t('{0}. {1}\n\nClick to set the API key.', action, why),
      signIn: true,
    };
  }
  if (kind === 'insecure') {
    return {
      label: action,
      description: why,
      tooltip: vscode.l10n.t('{0}: {1}\n\nClick to set the server address and the API key.', action, why),
      signIn: true,
    };
  }
  if (kind === 'moved') {
    // No key to set: the server address setting is what to change (a click retries).
    return {
      label: action,
      description: why,
      tooltip: vscode.l10n.t('{0}: {1}\n\nIf the server really moved, change its address in the settings, then click to retry.', action, why),
      signIn: false,
    };
  }
  if (kind === 'rateLimited') {
    const seconds = (isApiError(e) ? e.retryAfter : undefined) ?? 60;
    const when = clockTime(new Date(at + seconds * 1000));
    return {
      label: vscode.l10n.t('{0}: too many requests', action),
      description: vscode.l10n.t('The server asks to wait: retry after {0} ({1} s)', when, seconds),
      tooltip: vscode.l10n.t('{0}: {1}\n\nRetry after {2}. Click to retry.', action, why, when),
      signIn: false,
    };
  }
  return {
    label: action,
    description: why,
    tooltip: vscode.l10n.t('{0}: {1}\n\nClick to retry.', action, why),
    signIn: false,
  };
}
