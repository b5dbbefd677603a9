/**
 * The sandbox's own copy of the 52 templates of the documents service (the extension keeps its own
 * copy in src/api/templates.ts; the sandbox must not depend on the code it stands in for).
 * Source: the template table of the interface the product's user handed over (ids 1..52).
 */
export interface SandboxTemplate {
  readonly id: number;
  readonly name: string;
}

export const TEMPLATES: readonly SandboxTemplate[] = [
  { id: 1, name: 'Freestyle' },
  { id: 2, name: 'About us' },
  { id: 3, name: 'Advertisement' },
  { id: 4, name: 'Article' },
  { id: 5, name: 'Blog intro' },
  { id: 6, name: 'Blog outline' },
  { id: 7, name: 'Blog outro' },
  { id: 8, name: 'Blog paragraph' },
  { id: 9, name: 'Blog post' },
  { id: 10, name: 'Blog section' },
  { id: 11, name: 'Blog talking points' },
  { id: 12, name: 'Blog title' },
  { id: 13, name: 'Call to action' },
  { id: 14, name: 'Content rewrite' },
  { id: 15, name: 'Content summary' },
  { id: 16, name: 'FAQ' },
  { id: 17, name: 'Hashtags' },
  { id: 18, name: 'Headline' },
  { id: 19, name: 'How it works' },
  { id: 20, name: 'Meta description' },
  { id: 21, name: 'Meta keywords' },
  { id: 22, name: 'Mission statement' },
  { id: 23, name: 'Newsletter' },
  { id: 24, name: 'Pain-Agitate-Solution' },
  { id: 25, name: 'Paragraph' },
  { id: 26, name: 'Press release' },
  { id: 27, name: 'Social post' },
  { id: 28, name: 'Social post caption' },
  { id: 29, name: 'Startup ideas' },
  { id: 30, name: 'Startup names' },
  { id: 31, name: 'Subheadline' },
  { id: 32, name: 'Testimonial' },
  { id: 33, name: 'Tweet' },
  { id: 34, name: 'Twitter thread' },
  { id: 35, name: 'Value proposition' },
  { id: 36, name: 'Video description' },
  { id: 37, name: 'Video script' },
  { id: 38, name: 'Video tags' },
  { id: 39, name: 'Video title' },
  { id: 40, name: 'Vision statement' },
  { id: 41, name: 'Product sheet' },
  { id: 42, name: 'Welcome email' },
  { id: 43, name: 'Push notification' },
  { id: 44, name: 'Blog listicle' },
  { id: 45, name: 'Content grammar' },
  { id: 46, name: 'Blog tags' },
  { id: 47, name: 'Pros and cons' },
  { id: 48, name: 'Google advertisement' },
  { id: 49, name: 'Facebook advertisement' },
  { id: 50, name: 'Job description' },
  { id: 51, name: 'Review' },
  { id: 52, name: 'Feature section' },
];

/** A custom template of the sandbox account: ids above 52 exist on real accounts too. */
export const CUSTOM_TEMPLATES: readonly SandboxTemplate[] = [{ id: 60, name: 'Custom: Landing page' }];

const BY_ID = new Map<number, SandboxTemplate>([...TEMPLATES, ...CUSTOM_TEMPLATES].map((t) => [t.id, t]));

/** The template with this id on the sandbox account (the 52 plus the custom ones), if any. */
export function findTemplate(id: number): SandboxTemplate | undefined {
  return BY_ID.get(id);
}
