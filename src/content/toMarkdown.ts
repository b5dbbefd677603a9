/**
 * HTML as the web editor (Quill) and the service's sanitiser write it, turned into Markdown (CommonMark, with GFM's
 * `~~strikethrough~~`), and what Markdown cannot say listed as losses. The markup is a small fixed set (CONTRACT.md,
 * documents): headings, paragraphs, `<br>`, lists nested by `class="ql-indent-N"` (or by nesting), bold, italic,
 * underline, strikethrough, links, spans with a style, images, and Quill's `<pre>` and `<blockquote>`. So a small
 * converter of its own rather than a general one: each element here is one rule, and each loss can be named.
 * No `vscode` import (unit-tested in plain Node).
 */
import { l10n } from '../util/l10n';
import { classesOf, HIDDEN_ELEMENTS, indentOf, parseHtml, type HtmlElement, type HtmlNode } from './html';

export interface MarkdownCopy {
  readonly markdown: string;
  /** What the copy does not keep, in words for the user (empty when nothing is lost). */
  readonly losses: string[];
}

class Losses {
  private readonly found = new Map<string, number>();
  add(what: string): void {
    this.found.set(what, (this.found.get(what) ?? 0) + 1);
  }
  list(): string[] {
    return [...this.found.entries()].map(([what, n]) => (n > 1 ? `${what} (${n})` : what));
  }
}

const INLINE_CODE_TAGS = new Set(['code', 'kbd', 'samp', 'tt']);

/** Escapes what Markdown would read as markup inside a line of text. */
function escapeInline(s: string): string {
  return s.replace(/[\\`*_[\]<]/g, '\\$&').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
}

/** Escapes what Markdown would read as a block marker at the start of a line (a heading, a quote, a list, a rule). */
function escapeLineStart(line: string): string {
  return line
    .replace(/^(\s*)([#>+=]|-(?=\s|-|$)|~~~)/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])(?=\s|$)/, '$1\\$2');
}

/** Moves white space at the ends of an emphasis outside its markers (`** bold**` is not bold in Markdown). */
function wrap(inner: string, marker: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  return m[2] ? `${m[1]}${marker}${m[2]}${marker}${m[3]}` : inner;
}

function textOf(nodes: readonly HtmlNode[]): string {
  return nodes.map((n) => (n.kind === 'text' ? n.text : n.tag === 'br' ? '\n' : HIDDEN_ELEMENTS.has(n.tag) ? '' : textOf(n.children))).join('');
}

function styleLosses(style: string | undefined, losses: Losses): void {
  if (!style?.trim()) return;
  for (const decl of style.split(';')) {
    const prop = decl.split(':')[0]?.trim().toLowerCase();
    if (!prop) continue;
    if (prop === 'color') losses.add(l10n.t('text colours'));
    else if (prop.startsWith('background')) losses.add(l10n.t('highlight colours'));
    else if (prop === 'text-align') losses.add(l10n.t('text alignment'));
    else if (prop.startsWith('font')) losses.add(l10n.t('fonts and font sizes'));
    else losses.add(l10n.t('other text styles'));
  }
}

function blockClassLosses(el: HtmlElement, losses: Losses): void {
  for (const c of classesOf(el)) {
    if (c.startsWith('ql-align-')) losses.add(l10n.t('text alignment'));
    else if (c.startsWith('ql-direction-')) losses.add(l10n.t('text direction'));
    else if (c.startsWith('ql-size-') || c.startsWith('ql-font-')) losses.add(l10n.t('fonts and font sizes'));
    else if (c.startsWith('ql-indent-') && el.tag !== 'li') losses.add(l10n.t('paragraph indentation'));
  }
  styleLosses(el.attrs.style, losses);
}

/** The inline content of a block as Markdown: `\n` where a `<br>` was. */
function inline(nodes: readonly HtmlNode[], losses: Losses): string {
  let out = '';
  for (const n of nodes) {
    if (n.kind === 'text') {
      // HTML collapses white space; a non-breaking space is a space in Markdown.
      out += escapeInline(n.text.replace(/[ \t\r\n\f]+/g, ' ').replace(/\u00a0/g, ' '));
      continue;
    }
    const inner = () => inline(n.children, losses);
    switch (n.tag) {
      case 'br':
        out += '\n';
        break;
      case 'strong':
      case 'b':
        out += wrap(inner(), '**');
        break;
      case 'em':
      case 'i':
        out += wrap(inner(), '*');
        break;
      case 's':
      case 'strike':
      case 'del':
        out += wrap(inner(), '~~');
        break;
      case 'u':
      case 'ins':
        losses.add(l10n.t('underline'));
        out += inner();
        break;
      case 'span':
      case 'font':
        styleLosses(n.attrs.style, losses);
        if (n.tag === 'font') losses.add(l10n.t('fonts and font sizes'));
        out += inner();
        break;
      case 'a': {
        const text = inner();
        const href = (n.attrs.href ?? '').trim();
        if (!href || /^(?:javascript|vbscript|data):/i.test(href)) {
          out += text;
          break;
        }
        const dest = /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href;
        const title = n.attrs.title ? ` "${n.attrs.title.replace(/["\\]/g, '\\$&')}"` : '';
        out += text.trim() ? `[${text.replace(/\n/g, ' ')}](${dest}${title})` : `<${href}>`;
        break;
      }
      case 'img': {
        const src = (n.attrs.src ?? '').trim();
        if (/^https?:/i.test(src)) {
          out += `![${escapeInline(n.attrs.alt ?? '')}](${/[\s()<>]/.test(src) ? `<${src}>` : src})`;
        } else {
          losses.add(l10n.t('images embedded in the text'));
        }
        break;
      }
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt': {
        const code = textOf(n.children).replace(/\s+/g, ' ');
        const ticks = '`'.repeat(Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
        out += code ? `${ticks}${code.startsWith('`') || code.endsWith('`') ? ` ${code} ` : code}${ticks}` : '';
        break;
      }
      case 'sub':
      case 'sup':
        losses.add(l10n.t('subscript and superscript'));
        out += inner();
        break;
      default:
        if (HIDDEN_ELEMENTS.has(n.tag)) break;
        if (!INLINE_CODE_TAGS.has(n.tag)) losses.add(l10n.t('<{0}> formatting', n.tag));
        out += inner();
    }
  }
  return out;
}

/** A paragraph's lines: trimmed, block markers at their starts escaped, and a `<br>` as a hard break (`\` at the end). */
function paragraphLines(text: string): string[] {
  const lines = text.split('\n').map((l) => l.trim());
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  while (lines.length && !lines[0]) lines.shift();
  return lines.map((l, i) => escapeLineStart(l) + (i < lines.length - 1 && l ? '\\' : ''));
}

interface ListItem {
  level: number;
  ordered: boolean;
  lines: string[];
  nested: string[];
}

/** The block elements of a tree as Markdown blocks (each one string, joined by a blank line). */
function blocks(nodes: readonly HtmlNode[], losses: Losses, depth: number): string[] {
  const out: string[] = [];
  let run: HtmlNode[] = [];
  const flush = () => {
    const lines = paragraphLines(inline(run, losses));
    if (lines.length) out.push(lines.join('\n'));
    run = [];
  };
  for (const n of nodes) {
    if (n.kind === 'text' || !isBlock(n)) {
      run.push(n);
      continue;
    }
    flush();
    switch (n.tag) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        blockClassLosses(n, losses);
        const text = inline(n.children, losses).replace(/\s*\n\s*/g, ' ').trim();
        if (text) out.push(`${'#'.repeat(Number(n.tag[1]))} ${text}`);
        break;
      }
      case 'p':
      case 'div':
        blockClassLosses(n, losses);
        out.push(...blocks(n.children, losses, depth));
        break;
      case 'ul':
      case 'ol':
        out.push(list(n, losses, depth));
        break;
      case 'blockquote': {
        const inner = blocks(n.children, losses, depth).join('\n\n');
        if (inner) out.push(inner.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n'));
        break;
      }
      case 'pre': {
        const code = textOf(n.children).replace(/\u00a0/g, ' ').replace(/^\n|\n$/g, '');
        const fence = '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((m) => m[0].length + 1)));
        out.push(`${fence}\n${code}\n${fence}`);
        break;
      }
      case 'hr':
        out.push('---');
        break;
      default:
        losses.add(l10n.t('<{0}> layout', n.tag));
        out.push(...blocks(n.children, losses, depth));
    }
  }
  flush();
  return out;
}

const BLOCKS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'blockquote', 'pre', 'hr', 'table', 'figure', 'section', 'article', 'center']);

function isBlock(el: HtmlElement): boolean {
  return BLOCKS.has(el.tag);
}

/**
 * A list: Quill writes nesting as `class="ql-indent-N"` on flat items (and starts a new `<ol>`/`<ul>` where the kind
 * changes); other markup nests lists inside items. Both become Markdown's indented items, four spaces a level.
 */
function list(el: HtmlElement, losses: Losses, depth: number): string {
  const items: ListItem[] = [];
  const ordered = el.tag === 'ol';
  for (const child of el.children) {
    if (child.kind === 'text') {
      if (child.text.trim()) items.push({ level: depth, ordered, lines: paragraphLines(inline([child], losses)), nested: [] });
      continue;
    }
    if (child.tag !== 'li') {
      if (child.tag === 'ul' || child.tag === 'ol') items.push({ level: depth, ordered, lines: [], nested: [list(child, losses, depth + 1)] });
      else items.push({ level: depth, ordered, lines: paragraphLines(inline([child], losses)), nested: [] });
      continue;
    }
    const content = child.children.filter((c) => !(c.kind === 'element' && (c.tag === 'ul' || c.tag === 'ol')));
    const sublists = child.children.filter((c): c is HtmlElement => c.kind === 'element' && (c.tag === 'ul' || c.tag === 'ol'));
    const level = depth + indentOf(child);
    const text = blocks(content, losses, level).join('\n\n');
    items.push({ level, ordered, lines: text ? text.split('\n') : [''], nested: sublists.map((l) => list(l, losses, level + 1)) });
  }
  const counters: number[] = [];
  const lines: string[] = [];
  for (const item of items) {
    counters.length = item.level + 1;
    counters[item.level] = (counters[item.level] ?? 0) + 1;
    const pad = '    '.repeat(item.level);
    const marker = item.ordered ? `${counters[item.level]}. ` : '- ';
    if (item.lines.length) {
      lines.push(pad + marker + item.lines[0]);
      for (const l of item.lines.slice(1)) lines.push(l ? pad + ' '.repeat(marker.length) + l : '');
    }
    lines.push(...item.nested);
  }
  return lines.join('\n');
}

/** The Markdown copy of a document's HTML, and what it loses. */
export function htmlToMarkdown(html: string): MarkdownCopy {
  const losses = new Losses();
  const markdown = blocks(parseHtml(html), losses, 0).join('\n\n');
  return { markdown: markdown ? `${markdown}\n` : '', losses: losses.list() };
}
