/**
 * What the operations answer an agent, the VS Code language-model tools and the MCP server alike: short lines a model
 * reads well (every answer first names the account). No `vscode` import: unit-tested in plain Node
 * (test/unit/toolFormat.test.ts).
 */
import type { AccountInfo, ContentDocument, Project } from '../api/index';
import { detectFormat } from '../content/format';
import { usageRows } from '../model/usageFormat';
import type { TemplateData } from './port';
import { VSCODE_TOOL_WORDS, type ToolWords } from './words';
import { l10n } from '../util/l10n';
import { formatList } from '../util/lists';

/** How long a search row's excerpt may be (characters). */
export const EXCERPT_CHARS = 160;

/**
 * Whether a document's text is HTML (edited in the web app) rather than plain text or Markdown (as the service writes
 * it): the same detector as the backup's file names and the editor's (src/content/format.ts), so a Markdown text with a
 * `<br>` is Markdown everywhere.
 */
export function isHtml(text: string): boolean {
  return detectFormat(text) === 'html';
}

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

/** A text's words without markup, on one line: HTML's tags dropped and its common entities read. */
export function plainLine(text: string): string {
  const t = isHtml(text)
    ? text
        .replace(/<(br|\/p|\/h[1-6]|\/li|\/div|\/pre)\b[^>]*>/gi, ' ')
        .replace(/<[^>]*>/g, '')
        .replace(/&(nbsp|amp|lt|gt|quot|#39|apos);/g, (_, e: string) => ENTITIES[e])
    : text;
  return t.replace(/\s+/g, ' ').trim();
}

/** The start of a document's text, on one line, at most `max` characters (an ellipsis when cut). */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const line = plainLine(text);
  const chars = [...line];
  if (chars.length <= max) return line;
  return `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/** A document as a tool's data part carries it. */
export interface DocumentData {
  id: number;
  name: string;
  template: { id?: number; name: string };
  words: number;
  favorite: boolean;
  created_at?: string;
  updated_at?: string;
  format: 'html' | 'plain';
  excerpt?: string;
  text?: string;
}

export function documentData(doc: ContentDocument, template: string, what: 'excerpt' | 'text'): DocumentData {
  const format = isHtml(doc.result) ? 'html' : 'plain';
  const base = {
    id: doc.id,
    name: doc.name,
    template: { id: doc.template?.id, name: template },
    words: doc.words,
    favorite: doc.favorite,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    format,
  } satisfies DocumentData;
  return what === 'text' ? { ...base, text: doc.result } : { ...base, excerpt: excerpt(doc.result) };
}

/** `#123 "Coffee guide" — Blog post · 245 words · favorite · created … · updated …` */
export function documentLine(d: DocumentData): string {
  const parts = [`${d.template.name}`, `${d.words.toLocaleString('en-US')} words`];
  if (d.favorite) parts.push('favorite');
  if (d.created_at) parts.push(`created ${d.created_at}`);
  if (d.updated_at) parts.push(`updated_at ${d.updated_at}`);
  return `#${d.id} ${JSON.stringify(d.name)} — ${parts.join(' · ')}`;
}

export interface SearchSummary {
  account: string;
  query?: string;
  searchIn: 'name' | 'result';
  template?: string;
  favoritesOnly: boolean;
  sort: string;
  /** What the server counted for the search (all pages). */
  total?: number;
}

const SORT_WORDS: Record<string, string> = { newest: 'newest first', oldest: 'oldest first', nameAsc: 'by name A–Z', nameDesc: 'by name Z–A' };

export function searchText(s: SearchSummary, docs: readonly DocumentData[], words: ToolWords = VSCODE_TOOL_WORDS): string {
  const what = [
    s.query !== undefined ? `whose ${s.searchIn === 'result' ? 'text' : 'name'} contains ${JSON.stringify(s.query)}` : undefined,
    s.template !== undefined ? `on the template ${s.template}` : undefined,
    s.favoritesOnly ? 'among favorites' : undefined,
  ].filter(Boolean);
  const head =
    docs.length === 0
      ? `No documents ${what.length ? what.join(', ') : 'at all'}.`
      : `${docs.length}${s.total !== undefined && s.total > docs.length ? ` of ${s.total}` : ''} document${docs.length === 1 && !(s.total && s.total > 1) ? '' : 's'}${what.length ? ` ${what.join(', ')}` : ''}, ${SORT_WORDS[s.sort] ?? s.sort}:`;
  const lines = [`Account: ${s.account}`, head];
  // A row says HTML where the text is the web app's (read tells it for the whole text).
  for (const d of docs) lines.push(`- ${documentLine(d)}${d.format === 'html' ? ' · HTML' : ''}`, `  ${d.excerpt || '(no text)'}`);
  if (docs.length) lines.push(`Read one with ${words.read} (by its id) for its whole text.`);
  return lines.join('\n');
}

export function readText(account: string, d: DocumentData): string {
  const kind = d.format === 'html' ? 'HTML (edited in the web app)' : 'plain text';
  return [
    `Account: ${account}`,
    `Document ${documentLine(d)}`,
    `Its text is ${kind}${d.text ? ':' : ', and empty.'}`,
    ...(d.text ? ['', d.text] : []),
  ].join('\n');
}

export function usageText(account: string, info: AccountInfo): string {
  const rows = usageRows(info);
  return [`Account: ${account}`, 'Plan usage:', ...(rows.length ? rows.map((r) => `- ${r.label}: ${r.description ?? ''}`) : ['The server did not say how much of the plan is used.'])].join('\n');
}

/** The quota a new document counts toward, as far as the figures already read say (no request). In the display language: the confirmation shows it. */
export function quotaText(info: AccountInfo | undefined, figure: (info: AccountInfo, counter: 'words' | 'documents') => string | undefined): string {
  const plain = () => l10n.t("It counts toward the plan's monthly quota: one document and the words the service writes.");
  if (!info) return plain();
  const lines = (['documents', 'words'] as const)
    .map((c) => [c, figure(info, c)] as const)
    .filter(([, l]) => l !== undefined)
    .map(([c, l]) => (c === 'documents' ? l10n.t('documents {0}', l ?? '') : l10n.t('words {0}', l ?? '')));
  return lines.length
    ? l10n.t("It counts toward the plan's monthly quota: one document and the words the service writes (used this month: {0}).", formatList(lines, l10n.language))
    : plain();
}

export interface ProjectData {
  project: string;
  reports: number;
  average_score?: number;
  score?: string;
  created_at?: string;
}

/**
 * The average of a project's report scores and the service's word for it (CONTRACT.md, projects: `result` is the sum;
 * above 79 Good, above 49 Decent, else Bad), as an agent's answer says it. Undefined without a result or a report.
 */
export function projectScore(p: { reports: number; result?: number }): { average: number; badge: string } | undefined {
  if (p.result === undefined || !(p.reports > 0)) return undefined;
  const average = p.result / p.reports;
  return { average, badge: average > 79 ? 'Good' : average > 49 ? 'Decent' : 'Bad' };
}

export function projectData(p: Project, score: { average: number; badge: string } | undefined = projectScore(p)): ProjectData {
  return {
    project: p.project,
    reports: p.reports,
    average_score: score ? Math.round(score.average * 10) / 10 : undefined,
    score: score?.badge,
    created_at: p.created_at,
  };
}

export function projectsText(account: string, projects: readonly ProjectData[], total: number | undefined, search: string | undefined): string {
  const what = search ? ` whose name contains ${JSON.stringify(search)}` : '';
  const head = projects.length
    ? `${projects.length}${total !== undefined && total > projects.length ? ` of ${total}` : ''} project${projects.length === 1 ? '' : 's'}${what}:`
    : `No projects${what}.`;
  const lines = [`Account: ${account}`, head];
  for (const p of projects) {
    const score = p.score ? `average score ${p.average_score} of 100 (${p.score})` : 'no score';
    lines.push(`- ${JSON.stringify(p.project)} — ${p.reports} report${p.reports === 1 ? '' : 's'} · ${score}${p.created_at ? ` · created ${p.created_at}` : ''}`);
  }
  return lines.join('\n');
}

export type { TemplateData } from './port';

export function templatesText(account: string, templates: readonly TemplateData[]): string {
  const builtIn = templates.filter((t) => !t.custom);
  const custom = templates.filter((t) => t.custom);
  const lines = [`Account: ${account}`, `Templates (id: name), ${builtIn.length} built in:`, builtIn.map((t) => `${t.id}: ${t.name}`).join('; ')];
  lines.push(custom.length ? `Custom templates seen in this account: ${custom.map((t) => `${t.id}: ${t.name}`).join('; ')}` : 'No custom templates seen in this account so far.');
  return lines.join('\n');
}

/** What an update changes, as its confirmation lists it (in the display language: the confirmation shows it). */
export function changeLines(before: ContentDocument | undefined, changes: { name?: string; result?: string; favorite?: boolean }): string[] {
  const lines: string[] = [];
  if (changes.name !== undefined) {
    lines.push(before ? l10n.t('Rename {0} to {1}', JSON.stringify(before.name), JSON.stringify(changes.name)) : l10n.t('Rename it to {0}', JSON.stringify(changes.name)));
  }
  if (changes.result !== undefined) {
    const now = [...changes.result].length.toLocaleString(l10n.language);
    lines.push(
      before
        ? l10n.t('Replace its text ({0} characters) with a new text of {1} characters', [...before.result].length.toLocaleString(l10n.language), now)
        : l10n.t('Replace its text with a new text of {0} characters', now),
    );
  }
  if (changes.favorite !== undefined) lines.push(changes.favorite ? l10n.t('Add it to favorites') : l10n.t('Remove it from favorites'));
  return lines;
}
