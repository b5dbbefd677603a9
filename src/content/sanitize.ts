/**
 * A document's HTML as the service's web app shows it: its sanitiser keeps only `h1-h3[class]`, `strike`, `div[class]`,
 * `b`, `strong`, `i`, `em`, `u`, `a[href|title]`, `ul`, `ol`, `li`, `p[class|style]`, `br`, `span[style]` and `img`
 * (CONTRACT.md, documents). Any other element is left out with its tags, its text kept (a `<blockquote>`, a `<pre>`,
 * Quill's `<s>`); script-like elements go with their content. A link keeps only an http(s), mailto or in-page address,
 * an image only an https or data: source. No `vscode` import (unit-tested in plain Node).
 */
import { escapeAttr, escapeText, HIDDEN_ELEMENTS, parseHtml, VOID_ELEMENTS, type HtmlNode } from './html';

/** The elements the service's sanitiser keeps, each with the attributes it keeps. */
export const SANITISER_TAGS: Readonly<Record<string, readonly string[]>> = {
  h1: ['class'],
  h2: ['class'],
  h3: ['class'],
  strike: [],
  div: ['class'],
  b: [],
  strong: [],
  i: [],
  em: [],
  u: [],
  a: ['href', 'title'],
  ul: [],
  ol: [],
  li: [],
  p: ['class', 'style'],
  br: [],
  span: ['style'],
  img: ['src', 'alt'],
};

function allowedUrl(tag: string, attr: string, value: string): boolean {
  const v = value.trim();
  if (tag === 'a' && attr === 'href') return /^(?:https?:|mailto:|#)/i.test(v);
  if (tag === 'img' && attr === 'src') return /^(?:https:|data:image\/(?:png|gif|jpe?g|webp);)/i.test(v);
  return true;
}

function serialize(nodes: readonly HtmlNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (n.kind === 'text') {
      out += escapeText(n.text);
      continue;
    }
    if (HIDDEN_ELEMENTS.has(n.tag)) continue;
    const keep = SANITISER_TAGS[n.tag];
    if (!keep) {
      out += serialize(n.children);
      continue;
    }
    let attrs = '';
    for (const a of keep) {
      const v = n.attrs[a];
      if (v !== undefined && allowedUrl(n.tag, a, v)) attrs += ` ${a}="${escapeAttr(v)}"`;
    }
    if (n.tag === 'img' && !/ src="/.test(attrs)) continue;
    out += `<${n.tag}${attrs}>`;
    if (VOID_ELEMENTS.has(n.tag)) continue;
    out += `${serialize(n.children)}</${n.tag}>`;
  }
  return out;
}

/** The markup reduced to the sanitiser's elements and attributes, well formed (every element closed). */
export function sanitizeHtml(html: string): string {
  return serialize(parseHtml(html));
}

/**
 * The preview's page: the sanitised markup under a strict Content Security Policy — no script at all, images only
 * from https and data: addresses, styles only the page's own and the markup's `style` attributes (the sanitiser keeps
 * `span[style]` and `p[style]`), nothing else loaded. Quill's alignment and indent classes show as in the web app.
 */
export function previewPage(markup: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: data:; style-src 'unsafe-inline';">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: var(--vscode-font-family, sans-serif); font-size: 14px; line-height: 1.6; color: var(--vscode-foreground); max-width: 48em; padding: 0 1.5em 2em; }
a { color: var(--vscode-textLink-foreground); }
img { max-width: 100%; }
p { margin: 0 0 0.5em; }
.ql-align-center { text-align: center; } .ql-align-right { text-align: right; } .ql-align-justify { text-align: justify; }
.ql-indent-1 { padding-left: 3em; } .ql-indent-2 { padding-left: 6em; } .ql-indent-3 { padding-left: 9em; } .ql-indent-4 { padding-left: 12em; }
</style>
</head>
<body>
${sanitizeHtml(markup)}
</body>
</html>
`;
}
