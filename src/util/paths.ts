/** The last segment of a URI path (`/a/b/c.md` → `c.md`), as `path.posix.basename` gives it, without Node's `path` (the web worker has none). */
export function baseName(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
