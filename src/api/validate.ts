import { l10n } from '../util/l10n';
import { invalidInput } from './errors';

/** Allowed values, as the product offers them. Enforced before anything is sent. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export const CREATIVITY_LEVELS = [
  { value: 0, label: 'Repetitive' },
  { value: 0.25, label: 'Deterministic' },
  { value: 0.5, label: 'Original' },
  { value: 0.75, label: 'Creative' },
  { value: 1, label: 'Imaginative' },
] as const;
export type Creativity = (typeof CREATIVITY_LEVELS)[number]['value'];

/** A level's name as a person reads it, in the display language (CREATIVITY_LEVELS keeps the English for the API's checks). */
export function creativityName(value: Creativity): string {
  switch (value) {
    case 0:
      return l10n.t('Repetitive');
    case 0.25:
      return l10n.t('Deterministic');
    case 0.5:
      return l10n.t('Original');
    case 0.75:
      return l10n.t('Creative');
    case 1:
      return l10n.t('Imaginative');
  }
}

/** The named level nearest to a creativity (an account's `default_creativity` may be any number 0…1); ties go to the lower level. */
export function nearestCreativity(value: number | undefined): Creativity | undefined {
  if (value === undefined || !Number.isFinite(value)) return undefined;
  let best: Creativity = CREATIVITY_LEVELS[0].value;
  for (const { value: level } of CREATIVITY_LEVELS) if (Math.abs(level - value) < Math.abs(best - value) - 1e-9) best = level;
  return best;
}

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const DOCUMENT_SORT_FIELDS = ['id', 'name'] as const;
export type DocumentSortField = (typeof DOCUMENT_SORT_FIELDS)[number];
export const DOCUMENT_SEARCH_FIELDS = ['name', 'result'] as const;
export type DocumentSearchField = (typeof DOCUMENT_SEARCH_FIELDS)[number];
export const PROJECT_SORT_FIELDS = ['created_at', 'project'] as const;
export type ProjectSortField = (typeof PROJECT_SORT_FIELDS)[number];

export const LIMITS = { name: 128, prompt: 2048, result: 20480 } as const;

/**
 * The white space the server trims from every input (Laravel's TrimStrings middleware:
 * `preg_replace('~^[\s\x{FEFF}\x{200B}]+|[\s\x{FEFF}\x{200B}]+$~u', '', $value)`). PHP's `u` modifier turns on
 * PCRE2_UCP, under which `\s` is every Unicode separator (Zs, Zl, Zp) plus PCRE's horizontal and vertical
 * space lists: tab, LF, VT, FF, CR, U+0085 (NEL) and U+180E included. JavaScript's `trim()` differs: it
 * leaves U+200B, U+0085 and U+180E in place.
 */
const SERVER_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u200b]/;

/**
 * A text as the server stores it after trimming (an empty result is what the server turns into null).
 * A scan from both ends, not a `[…]+$` regular expression: that one backtracks quadratically on a long run
 * of spaces inside a 20,000-character text.
 */
export function serverTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && SERVER_SPACE.test(s[start])) start++;
  while (end > start && SERVER_SPACE.test(s[end - 1])) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** True when the server would see no value at all: empty, or only white space it trims. */
export function isBlank(s: string | undefined | null): boolean {
  return s === undefined || s === null || serverTrim(s) === '';
}

/** Length as the server counts it (characters, not UTF-16 units). */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function checkOneOf<T extends string | number>(field: string, value: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw invalidInput(field, l10n.t('must be one of {0} (got {1}).', allowed.join(', '), JSON.stringify(value)));
  }
  return value as T;
}

export function checkPositiveInt(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalidInput(field, l10n.t('must be a whole number of at least 1 (got {0}).', JSON.stringify(value)));
  }
  return value;
}

type TextProblem = 'notText' | 'empty' | 'nul' | 'tooLong';

/** A refusal's sentence: the field as the code names it, the most characters it may have, and how many it has. */
type ProblemSentence = (field: string, max: number, len: number) => string;

/**
 * Why a text field is refused, a whole sentence for each field a person fills in (the name, the prompt, the text)
 * and each problem; each a whole literal, for the export (scripts/l10n.mjs).
 */
const FIELD_PROBLEMS: Readonly<Record<string, Readonly<Record<TextProblem, ProblemSentence>>>> = {
  name: {
    notText: () => l10n.t('The name must be text.'),
    empty: () => l10n.t('The name cannot be empty.'),
    nul: () => l10n.t('The name cannot contain a NUL character.'),
    tooLong: (_f, max, len) => l10n.t('The name can be at most {0} characters (this one has {1}).', max, len),
  },
  prompt: {
    notText: () => l10n.t('The prompt must be text.'),
    empty: () => l10n.t('The prompt cannot be empty.'),
    nul: () => l10n.t('The prompt cannot contain a NUL character.'),
    tooLong: (_f, max, len) => l10n.t('The prompt can be at most {0} characters (this one has {1}).', max, len),
  },
  result: {
    notText: () => l10n.t('The text must be text.'),
    empty: () => l10n.t('The text cannot be empty.'),
    nul: () => l10n.t('The text cannot contain a NUL character.'),
    tooLong: (_f, max, len) => l10n.t('The text can be at most {0} characters (this one has {1}).', max, len),
  },
};

/** Any other text field: named as the code names it. */
const ANY_FIELD_PROBLEMS: Readonly<Record<TextProblem, ProblemSentence>> = {
  notText: (field) => l10n.t('{0} must be text.', field),
  empty: (field) => l10n.t('{0} cannot be empty.', field),
  nul: (field) => l10n.t('{0} cannot contain a NUL character.', field),
  tooLong: (field, max, len) => l10n.t('{0} can be at most {1} characters (this one has {2}).', field, max, len),
};

function textProblem(field: string, problem: TextProblem, max: number, len: number): string {
  const sentences = Object.hasOwn(FIELD_PROBLEMS, field) ? FIELD_PROBLEMS[field] : ANY_FIELD_PROBLEMS;
  return sentences[problem](field, max, len);
}

/**
 * A required text: trimmed (as the server will, see serverTrim), not blank, not over `max` characters. The refusal
 * names the field as a person knows it: the name, the prompt, the text (`result`).
 */
export function checkText(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string') throw invalidInput(field, textProblem(field, 'notText', max, 0));
  const trimmed = serverTrim(value);
  if (!trimmed) throw invalidInput(field, textProblem(field, 'empty', max, 0));
  if (trimmed.includes('\u0000')) throw invalidInput(field, textProblem(field, 'nul', max, 0));
  const len = charLength(trimmed);
  if (len > max) throw invalidInput(field, textProblem(field, 'tooLong', max, len));
  return trimmed;
}

export function checkCreativity(value: unknown): Creativity {
  const allowed = CREATIVITY_LEVELS.map((c) => c.value);
  if (!allowed.includes(value as Creativity)) {
    throw invalidInput(
      'creativity',
      l10n.t(
        'must be one of {0} (got {1}).',
        CREATIVITY_LEVELS.map((c) => `${c.value} (${c.label})`).join(', '),
        JSON.stringify(value),
      ),
    );
  }
  return value as Creativity;
}

/** A project name the projects server can address as one path segment. */
export function checkProjectName(value: unknown): string {
  if (typeof value !== 'string' || isBlank(value)) throw invalidInput('project', l10n.t('The project name cannot be empty.'));
  if (value.includes('/')) {
    throw invalidInput(
      'project',
      l10n.t('The projects server cannot address a project whose name contains "/", so it cannot be deleted from here. Delete it on the website instead.'),
    );
  }
  if (value === '.' || value === '..') {
    // A URL parser turns a "." or ".." segment into a step between folders: the request would go to another path.
    throw invalidInput(
      'project',
      l10n.t(
        'The projects server cannot address a project named "{0}" (a web address reads it as a folder step), so it cannot be deleted from here. Delete it on the website instead.',
        value,
      ),
    );
  }
  return value;
}
