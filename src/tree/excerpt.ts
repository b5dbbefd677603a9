/**
 * Where a text search found its words: the passage of a document's text around the first match, for the row of a
 * text-search result (as VS Code's Search shows the matching line). No vscode, no state: unit-tested in plain Node.
 */
import { detectFormat } from '../content/format';
import { BLOCK_ELEMENTS, HIDDEN_ELEMENTS, parseHtml, type HtmlNode } from '../content/html';

export interface Excerpt {
  /** The passage shown, on one line; `…` where it was cut. */
  readonly text: string;
  /** Where the words found are in `text` (code units, end excluded). */
  readonly start: number;
  readonly end: number;
}

/** The text a reader sees: an HTML text's words without its markup (blocks apart), a Markdown text as it is. */
export function readableText(result: string): string {
  if (detectFormat(result) !== 'html') return result;
  const out: string[] = [];
  const walk = (nodes: readonly HtmlNode[]): void => {
    for (const n of nodes) {
      if (n.kind === 'text') out.push(n.text);
      else if (HIDDEN_ELEMENTS.has(n.tag)) continue;
      else {
        const block = BLOCK_ELEMENTS.has(n.tag) || n.tag === 'br';
        if (block) out.push('\n');
        walk(n.children);
        if (block) out.push('\n');
      }
    }
  };
  walk(parseHtml(result));
  return out.join('');
}

/**
 * The text folded as the server's search compares it (case and accents ignored: NFD, marks dropped, lower case), with,
 * for each code unit of the folded text, the index in `text` of the character it came from.
 */
function folded(text: string): { folded: string; from: number[] } {
  let out = '';
  const from: number[] = [];
  let i = 0;
  for (const ch of text) {
    const f = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    out += f;
    for (let k = 0; k < f.length; k++) from.push(i);
    i += ch.length;
  }
  return { folded: out, from };
}

/**
 * The passage of `result` around the first place `term` is found (case and accents ignored, as the server's search),
 * at most about `width` characters on one line, with the words found marked by `start`/`end`. Undefined when the words
 * are not in the readable text (the server also matches inside an HTML text's markup, and equates letters such as
 * `ß` and `ss` that this does not).
 */
export function excerptOf(result: string | null | undefined, term: string, width = 80): Excerpt | undefined {
  const q = folded(term.trim()).folded;
  if (!result || !q) return undefined;
  const text = readableText(result).replace(/\s+/g, ' ');
  const f = folded(text);
  const at = f.folded.indexOf(q);
  if (at < 0) return undefined;
  const start = f.from[at];
  const lastFrom = f.from[at + q.length - 1];
  const end = lastFrom + (text.codePointAt(lastFrom)! > 0xffff ? 2 : 1);
  // Some words before the match, the rest of the width after it; cut at spaces where there is one near.
  const lead = Math.min(start, Math.max(12, Math.floor((width - (end - start)) / 3)));
  // A text that fits is shown whole; a match near the end shows more of what comes before it.
  let from = text.length <= width ? 0 : Math.min(start - lead, Math.max(0, text.length - width));
  if (from > 0) {
    const space = text.indexOf(' ', from);
    from = space >= 0 && space < start ? space + 1 : from;
  }
  let to = Math.max(end, Math.min(text.length, from + width));
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    to = space > end ? space : to;
  }
  const head = from > 0 ? '…' : '';
  const tail = to < text.length ? '…' : '';
  const body = text.slice(from, to);
  const lead0 = body.length - body.trimStart().length;
  const passage = `${head}${body.trim()}${tail}`;
  return { text: passage, start: head.length + start - from - lead0, end: head.length + end - from - lead0 };
}
