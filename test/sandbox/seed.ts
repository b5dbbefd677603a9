/**
 * Deterministic seed data for the sandbox: documents and SEO reports (projects are aggregates of reports).
 *
 * Everything comes from a small seeded PRNG (mulberry32) and a fixed base date, never from Date.now(),
 * so two sandboxes started with the same seed hold exactly the same data.
 */
import { CUSTOM_TEMPLATES, TEMPLATES } from './templates';

export interface SandboxDocument {
  id: number;
  name: string;
  /** null: the template was deleted; the API then answers `template: []`. */
  templateId: number | null;
  /** Overrides the table's name (custom templates). */
  templateName?: string;
  result: string | null;
  words: number;
  favorite: boolean;
  createdAt: Date;
  updatedAt: Date;
  prompt?: string;
  creativity?: number;
}

export interface SandboxReport {
  id: number;
  /** The project name as this report carries it; projects group reports case-insensitively. */
  project: string;
  /** The report's score, 0..100 with one decimal. */
  result: number;
  createdAt: Date;
}

export type SeedSpec = 'default' | 'large' | 'empty' | { documents: number; projects: number };

export interface SeedData {
  documents: SandboxDocument[];
  reports: SandboxReport[];
}

/** Seeded dates end here: the spread goes back about two years from it. */
export const SEED_BASE_DATE = new Date('2026-06-01T00:00:00Z');
const SPAN_MS = 730 * 24 * 3600 * 1000;
const CUSTOM_TEMPLATE = CUSTOM_TEMPLATES[0];

/** mulberry32: a tiny, fast, good-enough 32-bit PRNG. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit FNV-1a hash of a string (for deterministic choices derived from text). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Words as the service counts them: runs of non-blank characters. */
export function countWords(text: string | null): number {
  if (!text) return 0;
  const m = text.trim().match(/\S+/g);
  return m ? m.length : 0;
}

/** Truncates to whole seconds (the servers' timestamp resolution). */
export function toSecond(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));

const TOPICS = [
  'Spring sale', 'Remote work tips', 'Product launch', 'Onboarding flow', 'Holiday gift guide',
  'Coffee subscription', 'Fitness app', 'Solar panels', 'Pet insurance', 'Vegan recipes', 'Cloud backup',
  'Language learning', 'Travel checklist', 'Home office setup', 'Customer stories', 'Winter collection',
  'Budget planner', 'Podcast episode 12', 'Webinar invite', 'Hiring a designer', 'Bike repair shop',
  'Garden furniture', 'Running shoes', 'Password manager', 'Kids coding camp', 'Wedding photography',
  'Electric scooters', 'Yoga retreat', 'Craft beer', 'Privacy policy update', 'Smart thermostat',
  'Bakery opening', 'Mobile banking', 'Dental clinic', 'Online course', 'Farmers market', 'City tours',
  'Noise-cancelling headphones', 'Standing desk', 'Team retreat', 'Loyalty program', 'Black Friday',
  'Recycling guide', 'Tax season', 'Job board', 'Board games night', 'Car sharing', 'Meal kits',
];

const SENTENCES = [
  'This piece covers {topic} in plain words.',
  'Readers want clear answers about {topic}, so we start with the basics.',
  'Here are three things to know about {topic} before you decide.',
  'Our customers told us what matters most: price, quality and speed.',
  'Start small, measure what works, then double down.',
  'A short checklist helps: define the goal, pick the audience, write the message.',
  'Done well, {topic} builds trust that lasts.',
  'Questions? Our team answers within one business day.',
  'Try it free for 14 days, no credit card needed.',
  'The results speak for themselves: fewer returns and happier customers.',
  'We tested five approaches; two stood out.',
  'Keep it short, specific and honest.',
];

/** Names that exercise escaping, search and sorting: accents, emoji, RTL, wildcards, HTML. */
const SPECIAL_NAMES = [
  'Café crème — menu copy',
  'CAFE TERRACE advertisement',
  'Ünïcode naïve résumé tips',
  '🚀 Launch day tweet 🎉',
  'مرحبا بالعالم: صفحة الهبوط',
  'שלום – עמוד נחיתה',
  '日本語のブログ記事',
  'Ελληνικά keywords',
  'Zürich Straße city guide',
  'Family 👩‍👩‍👧 newsletter',
  '50% off spring sale',
  '100% cotton product sheet',
  'snake_case naming guide',
  'Back\\slash notes',
  '<b>Bold</b> & "quoted" title',
  'Q&A: what/why/how',
  'Untitled',
  'Untitled',
  'Untitled',
  'a',
  'Long name ' + 'x'.repeat(118),
];

const PROJECT_NAMES = [
  'Site audit 2024', '100% organic', 'C# tips', 'What? Why?', 'Café Ünïcode', '日本語プロジェクト',
  'a/b testing', 'Acme', 'example.com', 'Blog relaunch', 'shop_front', 'Spring campaign',
  'Competitor watch', 'Local SEO – Berlin', 'Landing pages', 'Q3 keywords', 'Mobile speed', 'Backlinks',
  'Docs portal', 'Newsletter growth', 'Emoji 🚀 rockets', 'مشروع عربي', 'Product pages', 'Checkout flow',
  'Careers site', 'Help center', 'Pricing page', 'Brand terms', 'Migration 2025', 'Podcast site',
  'Holiday sale', 'Partner portal', 'Recipes & more', 'plus+sign', 'Percent%20literal', 'trailing dot.',
];

/** Later reports of these projects carry another casing of the same name (one project). */
const NAME_VARIANTS: Record<string, readonly string[]> = {
  Acme: ['ACME', 'acme', 'ACME'],
  'Help center': ['HELP CENTER'],
};

function resultText(rng: Rng, topic: string, templateName: string): string {
  const n = int(rng, 2, 6);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(pick(rng, SENTENCES).replace('{topic}', topic.toLowerCase()));
  const body = parts.join(' ');
  if (/Blog|Article|Newsletter|Press/.test(templateName) && rng() < 0.6) {
    return `# ${topic}\n\n${body}\n\n## Next steps\n\n- ${pick(rng, SENTENCES).replace('{topic}', topic.toLowerCase())}\n- ${pick(rng, SENTENCES).replace('{topic}', topic.toLowerCase())}`;
  }
  return body;
}

function docName(rng: Rng, topic: string, templateName: string): string {
  switch (int(rng, 0, 3)) {
    case 0: return topic;
    case 1: return `${topic} – ${templateName.toLowerCase()}`;
    case 2: return `${templateName}: ${topic}`;
    default: return `${topic} v${int(rng, 2, 9)}`;
  }
}

/** Shuffles in place (Fisher-Yates). */
function shuffle<T>(rng: Rng, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Ascending second-resolution times spread over the two years before the base date. */
function times(rng: Rng, n: number): number[] {
  const base = SEED_BASE_DATE.getTime();
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor((base - 1000 - rng() * SPAN_MS) / 1000) * 1000;
  return out.sort((a, b) => a - b);
}

type Slot = number | 'deleted' | 'custom';

function buildDocuments(rng: Rng, plan: Slot[], withSpecials: boolean): SandboxDocument[] {
  shuffle(rng, plan);
  const at = times(rng, plan.length);
  const docs: SandboxDocument[] = [];
  let id = 0;
  for (let i = 0; i < plan.length; i++) {
    const slot = plan[i];
    id += rng() < 0.04 ? 2 : 1; // an occasional gap: ids of documents deleted long ago
    const templateId = slot === 'deleted' ? null : slot === 'custom' ? CUSTOM_TEMPLATE.id : slot;
    const tName = slot === 'deleted' ? 'Old template' : slot === 'custom' ? CUSTOM_TEMPLATE.name : TEMPLATES[slot - 1].name;
    const topic = pick(rng, TOPICS);
    const result = resultText(rng, topic, tName);
    const createdAt = new Date(at[i]);
    const edited = rng() < 0.4;
    const updatedMs = edited ? Math.min(at[i] + Math.floor(rng() * 30 * 24 * 3600) * 1000, SEED_BASE_DATE.getTime() - 1000) : at[i];
    const doc: SandboxDocument = {
      id,
      name: docName(rng, topic, tName),
      templateId,
      result,
      words: countWords(result),
      favorite: rng() < 0.15,
      createdAt,
      updatedAt: new Date(Math.max(updatedMs, at[i])),
      prompt: `Write a ${tName.toLowerCase()} about ${topic.toLowerCase()}.`,
      creativity: pick(rng, [0, 0.25, 0.5, 0.75, 1]),
    };
    if (slot === 'custom') doc.templateName = CUSTOM_TEMPLATE.name;
    docs.push(doc);
  }
  if (withSpecials && docs.length >= 40) {
    // Special names on distinct, spread-out documents (deterministic picks).
    const order = shuffle(rng, docs.map((_, i) => i));
    SPECIAL_NAMES.forEach((name, k) => (docs[order[k]].name = name));
    // A few documents whose generation produced nothing.
    for (let k = 0; k < 4; k++) {
      const d = docs[order[SPECIAL_NAMES.length + k]];
      d.result = null;
      d.words = 0;
    }
    // A known accented word inside a result, for result searches.
    const r = docs[order[SPECIAL_NAMES.length + 4]];
    r.result = `Le café était délicieux. ${r.result ?? ''}`.trim();
    r.words = countWords(r.result);
    // Documents edited in the web UI: its rich-text editor saves HTML (words are not recounted on update).
    for (let k = 5; k < 8; k++) {
      const h = docs[order[SPECIAL_NAMES.length + k]];
      const paragraphs = (h.result ?? '').split(/\n\n+/).map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '<br>')}</p>`);
      h.result = paragraphs.join('');
    }
  }
  return docs;
}

function buildReports(rng: Rng, names: readonly string[], minReports: number, maxReports: number): SandboxReport[] {
  const raw: Array<{ project: string; createdAt: number; result: number }> = [];
  for (const canonical of names) {
    const variants = NAME_VARIANTS[canonical];
    const drawn = int(rng, minReports, maxReports);
    const n = variants ? Math.max(drawn, variants.length + 1) : drawn;
    const at = times(rng, n);
    for (let i = 0; i < n; i++) {
      // The first (earliest) report carries the canonical name; later ones may vary in case.
      const project = i > 0 && variants ? variants[(i - 1) % variants.length] : canonical;
      raw.push({ project, createdAt: at[i], result: Math.round(rng() * 1000) / 10 });
    }
  }
  raw.sort((a, b) => a.createdAt - b.createdAt);
  return raw.map((r, i) => ({ id: i + 1, project: r.project, result: r.result, createdAt: new Date(r.createdAt) }));
}

function defaultSeed(): SeedData {
  const rng = mulberry32(20260601);
  const plan: Slot[] = [];
  const counts = new Map<number, number>([[1, 40], [4, 68], [9, 63]]); // Freestyle ~40; two templates over 60
  for (const t of TEMPLATES) {
    const n = counts.get(t.id) ?? int(rng, 1, 4);
    for (let i = 0; i < n; i++) plan.push(t.id);
  }
  plan.push('deleted', 'deleted', 'custom', 'custom');
  const documents = buildDocuments(rng, plan, true);
  const reports = buildReports(rng, PROJECT_NAMES, 1, 7);
  return { documents, reports };
}

function genericSeed(seedNo: number, documents: number, projects: number): SeedData {
  const rng = mulberry32(seedNo);
  const plan: Slot[] = [];
  for (let i = 0; i < documents; i++) {
    if (i < TEMPLATES.length) plan.push(i + 1); // every template once first
    else if (documents >= 100 && i < TEMPLATES.length + 2) plan.push('deleted');
    else if (documents >= 100 && i < TEMPLATES.length + 4) plan.push('custom');
    else plan.push(rng() < 0.15 ? 1 : int(rng, 1, TEMPLATES.length));
  }
  const names: string[] = [];
  for (let i = 0; i < projects; i++) {
    names.push(i < PROJECT_NAMES.length ? PROJECT_NAMES[i] : `Project ${String(i + 1).padStart(3, '0')}`);
  }
  return { documents: buildDocuments(rng, plan, true), reports: buildReports(rng, names, 1, 7) };
}

/** The seed's data, freshly built (callers own and may mutate it). */
export function generateSeed(seed: SeedSpec = 'default'): SeedData {
  if (seed === 'empty') return { documents: [], reports: [] };
  if (seed === 'default') return defaultSeed();
  if (seed === 'large') return genericSeed(10000, 10_000, 200);
  const documents = Math.max(0, Math.floor(seed.documents));
  const projects = Math.max(0, Math.floor(seed.projects));
  return genericSeed(hashString(`${documents}/${projects}`), documents, projects);
}

/**
 * The text the sandbox "generates" for a stored document: plainly sandbox-made, deterministic, derived
 * only from what the real model gets: the prompt as the server hands it over (already flattened to one
 * line) and the creativity (its temperature). The template only labels the document, as on the server.
 */
export function generatedResult(modelPrompt: string, creativity: number): string {
  const rng = mulberry32(hashString(`${modelPrompt}\u0000${creativity}`));
  const n = 3 + Math.floor(rng() * 3);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(pick(rng, SENTENCES).replace('{topic}', 'this topic'));
  return `[sandbox] Generated for: ${modelPrompt}\n\nDraft (creativity ${creativity}). ${parts.join(' ')}\n\nThis text was made by the local sandbox, not by an AI.`;
}
