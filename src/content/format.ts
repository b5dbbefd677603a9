/**
 * What a document's text is: HTML as the service's web editor and its sanitiser store it, or plain text / Markdown as
 * the text generator writes it. No `vscode` import: the backup and its unit tests use it in plain Node.
 *
 * The web editor (Quill) saves `editor.root.innerHTML`: a run of block elements (`<p>`, `<h1>`–`<h3>`, `<ul>`/`<ol>`,
 * `<pre>`, `<blockquote>`) with nothing between them, `<p><br></p>` for an empty line. Text that went through the
 * sanitiser may add `<div>`, `<img>` and line breaks between blocks. Markdown may hold a few tags too — a `<br>` at the
 * end of a line, an inline `<kbd>`, an HTML comment, even a leading `<p align="center">` block — but it always has
 * text of its own outside any element. So: HTML is text whose top level holds only elements (at least one of them a
 * block), HTML comments and white space; anything else is Markdown. Misjudging costs only the file's extension and
 * language, never the text: a document's text is the same either way.
 */

export type ContentFormat = 'html' | 'markdown';

/** The file extension a format's documents take in a backup folder (and, later, in the editor). */
export const FORMAT_EXTENSION: Readonly<Record<ContentFormat, string>> = { html: '.html', markdown: '.md' };

/** Elements that make a text HTML when they stand at its top level (the web editor's and the sanitiser's blocks). */
const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'pre', 'blockquote', 'div', 'table', 'hr', 'img', 'figure']);

/** Elements that have no closing tag. */
const VOID = new Set(['br', 'img', 'hr', 'wbr', 'input', 'meta', 'link', 'source', 'col', 'area', 'base', 'embed', 'track']);

/**
 * HTML element names (the sanitiser's and the editor's, and the rest of the common ones). A `<…>` naming anything else
 * (`<https://example.com>`, `<T>` in a code span, `<name@example.com>`) is text, as a Markdown reader takes it.
 */
const ELEMENTS = new Set([
  ...BLOCKS,
  ...VOID,
  'a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'body', 'caption', 'cite', 'code', 'dd', 'del', 'details', 'dfn', 'dl', 'dt', 'em',
  'figcaption', 'font', 'footer', 'head', 'header', 'html', 'i', 'ins', 'kbd', 'li', 'main', 'mark', 'nav', 'q', 's', 'samp',
  'section', 'small', 'span', 'strike', 'strong', 'sub', 'summary', 'sup', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'tt',
  'u', 'var', 'article', 'aside', 'center', 'label', 'style', 'title',
]);

/** A tag (`<p class="x">`, `</p>`, `<br/>`) or an HTML comment; attribute values may hold `>` inside quotes. */
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*(\/?)>/g;

/** Whether `text` is HTML as the web editor and the sanitiser produce it (see the file's comment); else Markdown. */
export function detectFormat(text: string | null | undefined): ContentFormat {
  if (!text) return 'markdown';
  const open: string[] = [];
  let blocks = 0;
  let at = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const name = m[2]?.toLowerCase();
    // A `<…>` that names no element is text: where it stands, the rest of the rules decide.
    if (name !== undefined && !ELEMENTS.has(name)) continue;
    if (open.length === 0 && text.slice(at, m.index).trim() !== '') return 'markdown';
    at = m.index + m[0].length;
    if (name === undefined) continue; // a comment
    const closing = m[1] === '/';
    if (closing) {
      // A stray closing tag is ignored, as a browser does; a closing tag closes what it names and what is inside it.
      const i = open.lastIndexOf(name);
      if (i >= 0) open.length = i;
      continue;
    }
    if (open.length === 0 && BLOCKS.has(name)) blocks++;
    if (!VOID.has(name) && m[4] !== '/') open.push(name);
  }
  if (text.slice(at).trim() !== '' && open.length === 0) return 'markdown';
  return blocks > 0 ? 'html' : 'markdown';
}
