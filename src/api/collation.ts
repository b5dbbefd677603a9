const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** Names in the servers' order (MySQL utf8mb4_unicode_ci): case- and accent-insensitive, trailing spaces ignored. */
export function compareNames(a: string, b: string): number {
  return collator.compare(a.replace(/ +$/, ''), b.replace(/ +$/, ''));
}

export function sameName(a: string, b: string): boolean {
  return compareNames(a, b) === 0;
}
