import { l10n } from '../util/l10n';

/**
 * What each of the 52 built-in templates is for, in a word: the service describes none of them (its interface lists
 * the names only), so New Document… says the kind of text each writes. Indexed by template id.
 */
const CATEGORY_OF: Readonly<Record<number, string>> = {
  1: 'Any text: the prompt alone decides',
  2: 'Website', 3: 'Advertising', 4: 'Long-form writing', 5: 'Blog', 6: 'Blog', 7: 'Blog', 8: 'Blog', 9: 'Blog',
  10: 'Blog', 11: 'Blog', 12: 'Blog', 13: 'Copywriting', 14: 'Editing', 15: 'Editing', 16: 'Website',
  17: 'Social media', 18: 'Copywriting', 19: 'Website', 20: 'SEO', 21: 'SEO', 22: 'Business', 23: 'Email',
  24: 'Copywriting', 25: 'Long-form writing', 26: 'Business', 27: 'Social media', 28: 'Social media', 29: 'Business',
  30: 'Business', 31: 'Copywriting', 32: 'Website', 33: 'Social media', 34: 'Social media', 35: 'Copywriting',
  36: 'Video', 37: 'Video', 38: 'Video', 39: 'Video', 40: 'Business', 41: 'E-commerce', 42: 'Email',
  43: 'Mobile app', 44: 'Blog', 45: 'Editing', 46: 'Blog', 47: 'Long-form writing', 48: 'Advertising',
  49: 'Advertising', 50: 'Business', 51: 'E-commerce', 52: 'Website',
};

/** Each kind of text in the display language (literal l10n.t calls, which scripts/l10n.mjs exports). */
const CATEGORY_SAID: Readonly<Record<string, () => string>> = {
  'Any text: the prompt alone decides': () => l10n.t('Any text: the prompt alone decides'),
  Website: () => l10n.t('Website'),
  Advertising: () => l10n.t('Advertising'),
  'Long-form writing': () => l10n.t('Long-form writing'),
  Blog: () => l10n.t('Blog'),
  Copywriting: () => l10n.t('Copywriting'),
  Editing: () => l10n.t('Editing'),
  'Social media': () => l10n.t('Social media'),
  SEO: () => l10n.t('SEO'),
  Business: () => l10n.t('Business'),
  Email: () => l10n.t('Email'),
  Video: () => l10n.t('Video'),
  'E-commerce': () => l10n.t('E-commerce'),
  'Mobile app': () => l10n.t('Mobile app'),
};

/** The kind of text a built-in template writes, in the display language; undefined for a custom template. */
export function templateCategory(id: number): string | undefined {
  const category = CATEGORY_OF[id];
  return category === undefined ? undefined : (CATEGORY_SAID[category]?.() ?? category);
}

/**
 * The codicon of each kind of text, for a template's group in the Documents view: the 52 groups read apart at a
 * glance, where one folder icon repeated 52 times says nothing. (The document rows keep the icon of the file
 * language they open in, and the editor tab the language's own: VS Code picks a tab's icon by language and file
 * extension from the user's file icon theme, and offers no icon per resource.)
 */
const CATEGORY_ICON: Readonly<Record<string, string>> = {
  'Any text: the prompt alone decides': 'note',
  Website: 'globe',
  Advertising: 'megaphone',
  'Long-form writing': 'book',
  Blog: 'rss',
  Copywriting: 'edit',
  Editing: 'whole-word',
  'Social media': 'comment-discussion',
  SEO: 'graph-line',
  Business: 'briefcase',
  Email: 'mail',
  Video: 'device-camera-video',
  'E-commerce': 'tag',
  'Mobile app': 'device-mobile',
};

/** The codicon of a built-in template's kind of text; undefined for a custom template. */
export function templateIcon(id: number): string | undefined {
  const category = CATEGORY_OF[id];
  return category === undefined ? undefined : CATEGORY_ICON[category];
}
