/** The 52 templates of the documents service. Ids above 52 are custom templates: show the server's name. */
export interface Template {
  readonly id: number;
  readonly name: string;
}

const NAMES = [
  'Freestyle', 'About us', 'Advertisement', 'Article', 'Blog intro', 'Blog outline', 'Blog outro',
  'Blog paragraph', 'Blog post', 'Blog section', 'Blog talking points', 'Blog title', 'Call to action',
  'Content rewrite', 'Content summary', 'FAQ', 'Hashtags', 'Headline', 'How it works', 'Meta description',
  'Meta keywords', 'Mission statement', 'Newsletter', 'Pain-Agitate-Solution', 'Paragraph', 'Press release',
  'Social post', 'Social post caption', 'Startup ideas', 'Startup names', 'Subheadline', 'Testimonial',
  'Tweet', 'Twitter thread', 'Value proposition', 'Video description', 'Video script', 'Video tags',
  'Video title', 'Vision statement', 'Product sheet', 'Welcome email', 'Push notification', 'Blog listicle',
  'Content grammar', 'Blog tags', 'Pros and cons', 'Google advertisement', 'Facebook advertisement',
  'Job description', 'Review', 'Feature section',
] as const;

export const TEMPLATES: readonly Template[] = NAMES.map((name, i) => ({ id: i + 1, name }));

/**
 * The template's display name: the server's (its word can differ from the table's by server version), else the
 * table's, else a neutral fallback.
 */
export function templateName(id: number | undefined, serverName?: string): string {
  if (serverName && serverName.trim()) return serverName.trim();
  if (id !== undefined && id >= 1 && id <= TEMPLATES.length) return TEMPLATES[id - 1].name;
  return id === undefined ? 'No template' : `Template ${id}`;
}

export function isKnownTemplate(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= TEMPLATES.length;
}
