/**
 * How plan usage reads in the status bar and its Quick Pick: compact figures (`12.3k / 50k words`), the
 * share of a limit used, and when to warn. No `vscode` import: unit-tested in plain Node. Its texts and numbers are in
 * VS Code's display language (src/util/l10n.ts; English outside VS Code).
 */
import type { AccountInfo, UsageFigures } from '../api/schemas';
import { l10n } from '../util/l10n';

/** From this share of a monthly limit on, the status bar item takes the warning colour. */
export const WARN_AT = 0.9;

export type UsageLevel = 'normal' | 'warning';
type Counter = keyof UsageFigures;

/** A limit that is a real cap (a number from 0: `0` allows none; `-1` is unlimited, a missing one unknown). */
function cap(limit: number | undefined): number | undefined {
  return limit !== undefined && limit >= 0 ? limit : undefined;
}

/** A whole number as the display language writes it (`12,345`; `12.345` in German). */
function whole(n: number): string {
  return n.toLocaleString(l10n.language);
}

/** `950`, `1k`, `12.3k`, `50k`, `100k`, `1.5M`: one decimal below 100 of a unit, none above; truncated, never rounded up (999,999 → `999k`). The decimal mark is the display language's. */
export function compact(n: number): string {
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  if (a < 1000) return sign + String(Math.floor(a));
  const [unit, div] = a < 1_000_000 ? ['k', 1000] : a < 1_000_000_000 ? ['M', 1_000_000] : ['B', 1_000_000_000];
  const v = a / div;
  // Truncated, not rounded: 49,990 words of a 50k plan must not read as 50k.
  const shown = v < 100 ? Math.floor(v * 10) / 10 : Math.floor(v);
  return `${sign}${shown.toLocaleString(l10n.language, { maximumFractionDigits: 1 })}${unit}`;
}

/**
 * The share of the monthly limit used (0…), or undefined when the count or a real limit is missing. A limit of
 * 0 is all used: the server refuses every store.
 */
export function share(info: AccountInfo, counter: Counter): number | undefined {
  const used = info.month[counter];
  const limit = cap(info.limits[counter]);
  if (used === undefined || limit === undefined) return undefined;
  return limit === 0 ? 1 : used / limit;
}

/** Whole per cent, truncated (89.99 % reads 89 %, so the warning never shows beside a figure under 90). */
export function percent(ratio: number): string {
  return `${Math.floor(ratio * 100 + 1e-9)} %`;
}

/**
 * Warning when the words or the documents of this month reach {@link WARN_AT} of the plan's limit: either
 * one stops the next generation (the server refuses a store once a limit is reached).
 */
export function usageLevel(info: AccountInfo): UsageLevel {
  const shares = [share(info, 'words'), share(info, 'documents')].filter((v): v is number => v !== undefined);
  return shares.some((v) => v >= WARN_AT) ? 'warning' : 'normal';
}

/** The figure the status bar shows: this month's words (else documents), and the plan's limit when it has one. */
export interface StatusFigure {
  readonly counter: 'words' | 'documents';
  readonly used: number;
  /** Undefined: unlimited, or not said. */
  readonly limit?: number;
}

/** What the status bar shows, as data (the caller words it: the status bar's compact text, a screen reader's sentence). */
export function statusFigure(info: AccountInfo): StatusFigure | undefined {
  for (const counter of ['words', 'documents'] as const) {
    const used = info.month[counter];
    if (used === undefined) continue;
    const limit = cap(info.limits[counter]);
    return limit === undefined ? { counter, used } : { counter, used, limit };
  }
  return undefined;
}

/**
 * The status bar text: `$(sparkle) 12.3k / 50k words`; the count alone on an unlimited plan (or one whose
 * limit is not said); the documents instead when the server says nothing of words; undefined when it says
 * nothing of either (the item stays hidden).
 */
export function statusText(info: AccountInfo): string | undefined {
  const f = statusFigure(info);
  if (!f) return undefined;
  const { counter, used, limit } = f;
  const one = (limit ?? used) === 1;
  if (limit === undefined) {
    if (counter === 'words') return one ? l10n.t('$(sparkle) {0} word', compact(used)) : l10n.t('$(sparkle) {0} words', compact(used));
    return one ? l10n.t('$(sparkle) {0} document', compact(used)) : l10n.t('$(sparkle) {0} documents', compact(used));
  }
  if (counter === 'words') return one ? l10n.t('$(sparkle) {0} / {1} word', compact(used), compact(limit)) : l10n.t('$(sparkle) {0} / {1} words', compact(used), compact(limit));
  return one ? l10n.t('$(sparkle) {0} / {1} document', compact(used), compact(limit)) : l10n.t('$(sparkle) {0} / {1} documents', compact(used), compact(limit));
}

/** This month's count against the limit: `12,345 of 50,000 (24 %)`, `12,345 (unlimited)`, `12,345`; undefined without a count. */
export function figureLine(info: AccountInfo, counter: Counter): string | undefined {
  const used = info.month[counter];
  if (used === undefined) return undefined;
  const limit = info.limits[counter];
  const n = whole(used);
  if (limit === -1) return l10n.t('{0} (unlimited)', n);
  const c = cap(limit);
  if (c === undefined) return n;
  if (c === 0) return l10n.t('{0} (none allowed by the plan)', n);
  return l10n.t('{0} of {1} ({2})', n, whole(c), percent(used / c));
}

/** The tooltip: this month's words and documents against the plan, and the plan's name. */
export function tooltipText(info: AccountInfo): string {
  const lines = [l10n.t('Content Docs: plan usage this month')];
  for (const counter of ['words', 'documents'] as const) {
    const line = figureLine(info, counter);
    if (line) lines.push(counter === 'words' ? l10n.t('Words: {0}', line) : l10n.t('Documents: {0}', line));
  }
  if (info.plan?.name) lines.push(l10n.t('Plan: {0}', info.plan.name));
  lines.push(l10n.t('Click for details'));
  return lines.join('\n');
}

export interface UsageRow {
  label: string;
  description?: string;
}

/** The Quick Pick's figures: this month against the limits, then all-time totals (only what the server said). */
export function usageRows(info: AccountInfo): UsageRow[] {
  const rows: UsageRow[] = [];
  const thisMonth = { words: () => l10n.t('Words this month'), documents: () => l10n.t('Documents this month'), images: () => l10n.t('Images this month') };
  const inTotal = { words: () => l10n.t('Words in total'), documents: () => l10n.t('Documents in total'), images: () => l10n.t('Images in total') };
  for (const counter of ['words', 'documents', 'images'] as const) {
    const line = figureLine(info, counter);
    if (line) rows.push({ label: thisMonth[counter](), description: line });
  }
  for (const counter of ['words', 'documents', 'images'] as const) {
    const total = info.total[counter];
    if (total !== undefined) rows.push({ label: inTotal[counter](), description: whole(total) });
  }
  if (info.plan?.name) rows.push({ label: l10n.t('Plan'), description: info.plan.name });
  return rows;
}
