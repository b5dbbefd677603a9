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

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const DOCUMENT_SORT_FIELDS = ['id', 'name'] as const;
export type DocumentSortField = (typeof DOCUMENT_SORT_FIELDS)[number];
export const DOCUMENT_SEARCH_FIELDS = ['name', 'result'] as const;
export type DocumentSearchField = (typeof DOCUMENT_SEARCH_FIELDS)[number];
export const PROJECT_SORT_FIELDS = ['created_at', 'project'] as const;
export type ProjectSortField = (typeof PROJECT_SORT_FIELDS)[number];

export const LIMITS = { name: 128, prompt: 2048, result: 20480 } as const;

/** Length as the server counts it (characters, not UTF-16 units). */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function checkOneOf<T extends string | number>(field: string, value: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw invalidInput(field, `must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`);
  }
  return value as T;
}

export function checkPositiveInt(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalidInput(field, `must be a whole number of at least 1 (got ${JSON.stringify(value)}).`);
  }
  return value;
}

/** A required text: trimmed (as the server will), not blank, not over `max` characters. */
export function checkText(field: string, value: unknown, max: number, label = field): string {
  if (typeof value !== 'string') throw invalidInput(field, `${label} must be text.`);
  const trimmed = value.trim();
  if (!trimmed) throw invalidInput(field, `${label} cannot be empty.`);
  if (trimmed.includes('\u0000')) throw invalidInput(field, `${label} cannot contain a NUL character.`);
  const len = charLength(trimmed);
  if (len > max) throw invalidInput(field, `${label} can be at most ${max} characters (this one has ${len}).`);
  return trimmed;
}

export function checkCreativity(value: unknown): Creativity {
  const allowed = CREATIVITY_LEVELS.map((c) => c.value);
  if (!allowed.includes(value as Creativity)) {
    throw invalidInput(
      'creativity',
      `must be one of ${CREATIVITY_LEVELS.map((c) => `${c.value} (${c.label})`).join(', ')} (got ${JSON.stringify(value)}).`,
    );
  }
  return value as Creativity;
}

/** A project name the projects server can address as one path segment. */
export function checkProjectName(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw invalidInput('project', 'The project name cannot be empty.');
  if (value.includes('/')) {
    throw invalidInput(
      'project',
      'The projects server cannot address a project whose name contains "/", so it cannot be deleted from here. Delete it on the website instead.',
    );
  }
  if (value === '.' || value === '..') {
    // A URL parser turns a "." or ".." segment into a step between folders: the request would go to another path.
    throw invalidInput(
      'project',
      `The projects server cannot address a project named "${value}" (a web address reads it as a folder step), so it cannot be deleted from here. Delete it on the website instead.`,
    );
  }
  return value;
}

/** Trims as the server does (Laravel TrimStrings): Unicode white space, U+FEFF and U+200B at both ends. */
export function serverTrim(s: string): string {
  return s.replace(/^[\s\uFEFF\u200B]+|[\s\uFEFF\u200B]+$/gu, '');
}
