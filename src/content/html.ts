/**
 * A small, forgiving HTML reader for the markup documents hold: the web editor's (Quill's `editor.root.innerHTML`) and
 * what the service's sanitiser lets through. It builds a tree of elements and text the way a browser would for this
 * markup — a stray closing tag is ignored, an unclosed element ends with its parent, a block opened inside `<p>` closes
 * it, a `<li>` closes the one before it — and decodes entities in text and attribute values. Not a full HTML5 parser:
 * no tables' or forms' special rules, which this markup does not use. No `vscode` import (unit-tested in plain Node).
 */

export interface HtmlText {
  readonly kind: 'text';
  /** Decoded: `&amp;` is `&`, `&nbsp;` is U+00A0. */
  readonly text: string;
}

export interface HtmlElement {
  readonly kind: 'element';
  /** Lower case. */
  readonly tag: string;
  /** Names in lower case, values decoded. */
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: HtmlNode[];
}

export type HtmlNode = HtmlText | HtmlElement;

/** Elements that have no closing tag. */
export const VOID_ELEMENTS = new Set(['br', 'img', 'hr', 'wbr', 'input', 'meta', 'link', 'source', 'col', 'area', 'base', 'embed', 'track']);

/** Elements whose content is not text to show (dropped with them). */
export const HIDDEN_ELEMENTS = new Set(['script', 'style', 'template', 'noscript', 'title', 'head', 'iframe', 'object', 'svg', 'math', 'textarea', 'select']);

/** Elements a browser treats as blocks: one opened inside `<p>` closes it. */
export const BLOCK_ELEMENTS = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'pre', 'blockquote', 'hr', 'table', 'figure', 'section', 'article',
  'header', 'footer', 'nav', 'aside', 'main', 'dl', 'dd', 'dt', 'details', 'summary', 'center',
]);

const NAMED: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '\u00a9', reg: '\u00ae', trade: '\u2122', hellip: '\u2026',
  mdash: '\u2014', ndash: '\u2013', lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', laquo: '\u00ab', raquo: '\u00bb',
  bull: '\u2022', middot: '\u00b7', euro: '\u20ac', pound: '\u00a3', yen: '\u00a5', cent: '\u00a2', deg: '\u00b0', times: '\u00d7',
  divide: '\u00f7', para: '\u00b6', sect: '\u00a7', shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003',
};

/** Decodes character references: named ones of common use, and every numeric one. Unknown names stay as written. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g, (m, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED[ref] ?? NAMED[ref.toLowerCase()] ?? m;
  });
}

/** Text for an element's content: `&`, `<` and `>` escaped. */
export function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for a double-quoted attribute value. */
export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

/** A tag (`<p class="x">`, `</p>`, `<br/>`), an HTML comment, or a doctype; attribute values may hold `>` inside quotes. */
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<![^>]*>|<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*(\/?)>/g;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  ATTR.lastIndex = 0;
  for (let m = ATTR.exec(source); m; m = ATTR.exec(source)) {
    const name = m[1].toLowerCase();
    if (!(name in out)) out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/** The markup as a tree (a list of top-level nodes). */
export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlElement = { kind: 'element', tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const top = () => stack[stack.length - 1];
  const text = (t: string) => {
    if (!t) return;
    const children = top().children;
    const last = children[children.length - 1];
    const decoded = decodeEntities(t);
    if (last?.kind === 'text') children[children.length - 1] = { kind: 'text', text: last.text + decoded };
    else children.push({ kind: 'text', text: decoded });
  };
  /** Closes the innermost open `tag` (and what is open inside it); false when none is open. */
  const close = (tag: string, stopAt: ReadonlySet<string> = new Set()) => {
    for (let i = stack.length - 1; i > 0; i--) {
      if (stack[i].tag === tag) {
        stack.length = i;
        return true;
      }
      if (stopAt.has(stack[i].tag)) return false;
    }
    return false;
  };
  let at = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(html); m; m = TOKEN.exec(html)) {
    text(html.slice(at, m.index));
    at = m.index + m[0].length;
    const name = m[2]?.toLowerCase();
    if (name === undefined) continue; // a comment or a doctype
    if (m[1] === '/') {
      close(name);
      continue;
    }
    if (BLOCK_ELEMENTS.has(name)) close('p', new Set(['li', 'div', 'blockquote', 'td', 'th']));
    if (name === 'li') close('li', new Set(['ul', 'ol']));
    const el: HtmlElement = { kind: 'element', tag: name, attrs: attributes(m[3] ?? ''), children: [] };
    top().children.push(el);
    if (HIDDEN_ELEMENTS.has(name) && m[4] !== '/') {
      // Its content is not markup to read: skip to its closing tag.
      const end = new RegExp(`</${name}\\s*>`, 'ig');
      end.lastIndex = at;
      const e = end.exec(html);
      at = e ? e.index + e[0].length : html.length;
      TOKEN.lastIndex = at;
      continue;
    }
    if (!VOID_ELEMENTS.has(name) && m[4] !== '/') stack.push(el);
  }
  text(html.slice(at));
  return root.children;
}

/** The class names of an element. */
export function classesOf(el: HtmlElement): string[] {
  return (el.attrs.class ?? '').split(/\s+/).filter(Boolean);
}

/** Quill's list nesting: `class="ql-indent-N"` on an `<li>` (0 when none). */
export function indentOf(el: HtmlElement): number {
  for (const c of classesOf(el)) {
    const m = /^ql-indent-(\d)$/.exec(c);
    if (m) return Number(m[1]);
  }
  return 0;
}
