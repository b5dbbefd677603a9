/**
 * A list of items in the display language ("a, b, and c", "a, b und c", "a、b、c"), for a sentence whose placeholder
 * holds several names or figures: the sentence stays whole in the bundle, and the list is joined as the language joins
 * lists (Intl.ListFormat), not with an English ", ". vscode-free: the caller passes the language (vscode.env.language in
 * vscode code, l10n.language in the vscode-free code) and the items already worded (translated where they are words).
 */

export interface ListOptions {
  /** 'and' (the default): every item holds ("a, b, and c"); 'or': one of them ("a, b, or c"). */
  readonly kind?: 'and' | 'or';
  /** At most this many items are named; the rest are counted as a last item, `more(count)` ("3 more"). */
  readonly most?: number;
  readonly more?: (count: number) => string;
}

const formats = new Map<string, Intl.ListFormat>();

/** The list format of the language, or English's where Intl does not know the language (or has no ListFormat). */
function listFormat(language: string, type: 'conjunction' | 'disjunction'): Intl.ListFormat | undefined {
  const key = `${language}\u0000${type}`;
  let f = formats.get(key);
  if (!f && typeof Intl.ListFormat === 'function') {
    let known: string[] = [];
    try {
      known = Intl.ListFormat.supportedLocalesOf(language || 'en');
    } catch {
      // not a language tag Intl reads ("qq_Q"): English
    }
    f = new Intl.ListFormat(known[0] ?? 'en', { style: 'long', type });
    formats.set(key, f);
  }
  return f;
}

/** The items as one list of the language; "" for none, the item itself for one. */
export function formatList(items: readonly string[], language: string, options: ListOptions = {}): string {
  const shown = options.most !== undefined && options.more && items.length > options.most ? [...items.slice(0, options.most), options.more(items.length - options.most)] : [...items];
  const f = listFormat(language, options.kind === 'or' ? 'disjunction' : 'conjunction');
  return f ? f.format(shown) : shown.join(', ');
}
