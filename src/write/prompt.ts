/**
 * What a writing action sends and what it makes of the answer, with no `vscode` import (unit-tested in
 * plain Node):
 *
 * - the prompt: an instruction naming the task, the language and the tone, then the user's text, in one
 *   line within the server's 2,048 characters (counted as the server counts: code points after its trim);
 * - the structure round trip: the server collapses every newline and run of white space in a prompt into
 *   one space before the model sees it (CONTRACT.md, Store), so a multi-paragraph selection is sent as
 *   minimal HTML (`<h1>`…`<h6>`, `<p>`, `<ul>`/`<ol>` with `<li>`, `<blockquote>`, `<pre>`, `<br>`) and the
 *   model is asked to answer in the same form; the answer (HTML, or plain text when the model ignored the
 *   request) comes back as Markdown or plain text with real line breaks;
 * - the document's name: `Rewrite · post.md:12`, at most 128 characters.
 */
import { charLength, isBlank, LIMITS, serverTrim } from '../api/validate';
import { detectFormat } from '../content/format';
import { decodeEntities as decodeHtmlEntities, escapeText } from '../content/html';

// --- Language and tone, as the product's web UI offers them ---------------------------------------------

export interface Language {
  /** ISO 639-1 (a script subtag where one language has two written forms). */
  readonly code: string;
  /** The English name, as the prompt names it. */
  readonly name: string;
}

export const LANGUAGES: readonly Language[] = [
  { code: 'ar', name: 'Arabic' },
  { code: 'bg', name: 'Bulgarian' },
  { code: 'zh-Hans', name: 'Chinese (Simplified)' },
  { code: 'zh-Hant', name: 'Chinese (Traditional)' },
  { code: 'hr', name: 'Croatian' },
  { code: 'cs', name: 'Czech' },
  { code: 'da', name: 'Danish' },
  { code: 'nl', name: 'Dutch' },
  { code: 'en', name: 'English' },
  { code: 'et', name: 'Estonian' },
  { code: 'fi', name: 'Finnish' },
  { code: 'fr', name: 'French' },
  { code: 'de', name: 'German' },
  { code: 'el', name: 'Greek' },
  { code: 'he', name: 'Hebrew' },
  { code: 'hi', name: 'Hindi' },
  { code: 'hu', name: 'Hungarian' },
  { code: 'id', name: 'Indonesian' },
  { code: 'it', name: 'Italian' },
  { code: 'ja', name: 'Japanese' },
  { code: 'ko', name: 'Korean' },
  { code: 'lv', name: 'Latvian' },
  { code: 'lt', name: 'Lithuanian' },
  { code: 'no', name: 'Norwegian' },
  { code: 'pl', name: 'Polish' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'ro', name: 'Romanian' },
  { code: 'ru', name: 'Russian' },
  { code: 'sk', name: 'Slovak' },
  { code: 'sl', name: 'Slovenian' },
  { code: 'es', name: 'Spanish' },
  { code: 'sv', name: 'Swedish' },
  { code: 'th', name: 'Thai' },
  { code: 'tr', name: 'Turkish' },
  { code: 'uk', name: 'Ukrainian' },
];

export const TONES = [
  'Professional',
  'Casual',
  'Friendly',
  'Formal',
  'Confident',
  'Enthusiastic',
  'Persuasive',
  'Informative',
  'Humorous',
  'Inspirational',
] as const;
export type Tone = (typeof TONES)[number];
export const DEFAULT_LANGUAGE = 'en';
export const DEFAULT_TONE: Tone = 'Professional';

/**
 * The language a code or name stands for: `en`, `EN-us`, `pt_BR`, `zh-TW`, `German`. Undefined when it
 * is none of ours (the account's `default_language` is whatever its server stores).
 */
export function findLanguage(value: unknown): Language | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const v = value.trim().replace(/_/g, '-').toLowerCase();
  const exact = LANGUAGES.find((l) => l.code.toLowerCase() === v || l.name.toLowerCase() === v);
  if (exact) return exact;
  if (v.startsWith('zh')) return LANGUAGES.find((l) => l.code === (/(hant|tw|hk|mo)/.test(v) ? 'zh-Hant' : 'zh-Hans'));
  if (v === 'nb' || v === 'nn' || v.startsWith('nb-') || v.startsWith('nn-')) return LANGUAGES.find((l) => l.code === 'no');
  const primary = v.split('-')[0];
  return LANGUAGES.find((l) => l.code === primary);
}

export function isTone(v: unknown): v is Tone {
  return typeof v === 'string' && (TONES as readonly string[]).includes(v);
}

// --- The text's structure, encoded so that it survives the server's flattening -------------------------

/**
 * How the editor's text is written: Markdown (headings, lists…), HTML (sent as it is), plain prose, or code
 * (any other language: its lines and indentation are kept as they are, nothing is read as a list or paragraph).
 */
export type TextFormat = 'markdown' | 'html' | 'plain' | 'code';

const PROSE_LANGUAGES = new Set(['plaintext', 'git-commit', 'scminput']);

export function formatOf(languageId: string): TextFormat {
  if (languageId === 'markdown' || languageId === 'mdx') return 'markdown';
  if (languageId === 'html') return 'html';
  return PROSE_LANGUAGES.has(languageId) ? 'plain' : 'code';
}

/** One space for every run of white space, as the server does before the model sees the prompt. */
export function collapse(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

type Block =
  | { kind: 'h'; level: number; text: string }
  | { kind: 'p'; lines: string[] }
  | { kind: 'quote'; lines: string[] }
  | { kind: 'pre'; lines: string[]; lang?: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'hr' };

/** The blocks of a Markdown or plain text: headings, paragraphs, lists, quotes, code fences, rules. */
export function parseBlocks(text: string, format: TextFormat): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  const close = () => {
    if (open) blocks.push(open);
    open = undefined;
  };
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) {
      close();
      continue;
    }
    if (format === 'markdown') {
      const fence = /^\s*(```|~~~)\s*([\w#+.-]*)/.exec(line);
      if (fence) {
        close();
        const body: string[] = [];
        for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[1]); i++) body.push(lines[i]);
        blocks.push({ kind: 'pre', lines: body, lang: fence[2] || undefined });
        continue;
      }
      const h = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
      if (h) {
        close();
        blocks.push({ kind: 'h', level: h[1].length, text: h[2] });
        continue;
      }
      if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
        close();
        blocks.push({ kind: 'hr' });
        continue;
      }
      const q = /^\s{0,3}>\s?(.*)$/.exec(line);
      if (q) {
        if (open?.kind !== 'quote') close();
        open ??= { kind: 'quote', lines: [] };
        if (open.kind === 'quote') open.lines.push(q[1]);
        continue;
      }
    }
    const item = /^\s*(?:([-*+•])|(\d{1,9})[.)])\s+(.*)$/.exec(line);
    if (item) {
      const ordered = item[2] !== undefined;
      if (open?.kind !== 'list' || open.ordered !== ordered) close();
      open ??= { kind: 'list', ordered, items: [] };
      if (open.kind === 'list') open.items.push(item[3]);
      continue;
    }
    if (open?.kind === 'list' && /^\s+\S/.test(line)) {
      // A continuation line of the last item.
      open.items[open.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (open?.kind !== 'p') close();
    open ??= { kind: 'p', lines: [] };
    if (open.kind === 'p') open.lines.push(line.trim());
  }
  close();
  return blocks;
}

const inline = (s: string) => escapeText(collapse(s));
/**
 * A line of code for a `<pre>`: the server would collapse its indentation and runs of spaces into one space,
 * so those are sent as entities (`&nbsp;`, `&#9;`), which it leaves alone and which come back as spaces and tabs.
 */
const preLine = (l: string) =>
  escapeText(l.replace(/\s+$/, ''))
    .replace(/\t/g, '&#9;')
    .replace(/^ | {2,}/g, (m) => '&nbsp;'.repeat(m.length));
const lines = (ls: readonly string[]) => ls.map(inline).filter(Boolean).join('<br>');

function blockHtml(b: Block): string {
  switch (b.kind) {
    case 'h':
      return `<h${b.level}>${inline(b.text)}</h${b.level}>`;
    case 'p':
      return `<p>${lines(b.lines)}</p>`;
    case 'quote':
      return `<blockquote>${lines(b.lines)}</blockquote>`;
    case 'pre':
      return `<pre>${b.lang ? `<code class="language-${escapeText(b.lang)}">` : ''}${b.lines.map(preLine).join('<br>')}${b.lang ? '</code>' : ''}</pre>`;
    case 'list': {
      const tag = b.ordered ? 'ol' : 'ul';
      return `<${tag}>${b.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${tag}>`;
    }
    case 'hr':
      return '<hr>';
  }
}

export interface EncodedText {
  /** The text as the prompt carries it, on one line. */
  readonly text: string;
  /** True when it is HTML that carries structure (the model is asked to answer in the same form). */
  readonly structured: boolean;
}

/**
 * The user's text for the prompt. One plain paragraph goes as it is (collapsed); anything with more
 * structure (several paragraphs, headings, lists, line breaks) goes as minimal HTML. HTML stays HTML.
 */
export function encodeText(text: string, format: TextFormat): EncodedText {
  if (format === 'html') return { text: collapse(text), structured: /<[a-z][^>]*>/i.test(text) };
  if (format === 'code') {
    const ls = text.replace(/\r\n?/g, '\n').split('\n');
    while (ls.length > 1 && !ls[ls.length - 1].trim()) ls.pop();
    while (ls.length > 1 && !ls[0].trim()) ls.shift();
    // One line that starts at its margin goes as it is; anything else keeps its lines and indentation in a <pre>.
    if (ls.length === 1 && !/^\s/.test(ls[0])) return { text: collapse(ls[0]), structured: false };
    return { text: blockHtml({ kind: 'pre', lines: ls }), structured: true };
  }
  const blocks = parseBlocks(text, format);
  if (blocks.length === 1 && blocks[0].kind === 'p' && blocks[0].lines.length === 1) return { text: collapse(blocks[0].lines[0]), structured: false };
  return { text: blocks.map(blockHtml).join(''), structured: true };
}

// --- New Document's prompt ------------------------------------------------------------------------------

/**
 * What New Document… sends as the prompt for the text the user wrote: one line goes as it is (trimmed, as the box
 * always sent it); several lines (paragraphs, headings, lists written in the prompt's editor) go as the writing
 * actions send a selection, minimal HTML ({@link encodeText}), because the server joins a prompt's lines into one.
 */
export function documentPrompt(text: string): string {
  const t = text.trim();
  if (!/[\r\n]/.test(t)) return t;
  return encodeText(t, 'markdown').text;
}

/** The characters of New Document's prompt as the server counts them: what {@link documentPrompt} sends, after its trim. */
export function documentPromptLength(text: string): number {
  return promptLength(documentPrompt(text));
}

// --- The prompt -------------------------------------------------------------------------------------

export interface PromptInput {
  /** The instruction naming the task (a one-step action's, or the template's). */
  readonly task: string;
  /** An extra instruction the user typed (Generate from Selection). */
  readonly extra?: string;
  /** The language and tone, when they apply. */
  readonly language?: Language;
  readonly tone?: Tone;
  /** The user's text (the selection, or the whole document). */
  readonly text: string;
  readonly format: TextFormat;
  /** Replace actions keep the text's structure; others only answer in the same markup. */
  readonly keepStructure: boolean;
}

const ALLOWED_TAGS = 'h1 to h6, p, ul, ol, li, blockquote, pre and br';

/**
 * The prompt, in our own words: the task, the extra instruction, the language and tone, how to answer,
 * then the text. One line: the server would collapse the white space anyway, and this way the length
 * counted here is the length the server counts.
 */
export function composePrompt(p: PromptInput): string {
  const encoded = encodeText(p.text, p.format);
  const parts = [collapse(p.task)];
  if (p.extra && collapse(p.extra)) parts.push(collapse(p.extra));
  if (p.language && p.tone) parts.push(`Write the answer in ${p.language.name}, in a ${p.tone.toLowerCase()} tone.`);
  else if (p.language) parts.push(`Write the answer in ${p.language.name}.`);
  if (encoded.structured) {
    parts.push(
      p.format === 'code'
        ? 'The text is code inside <pre>, its line breaks as <br> and its indentation as &nbsp; because line breaks and runs of spaces do not reach you: answer the same way, in one <pre>, keeping its indentation, with nothing before or after it.'
        : p.format === 'html'
        ? `The text is HTML: answer in HTML${p.keepStructure ? ' with the same structure' : ''}, with nothing before or after it.`
        : `The text is written as HTML because line breaks do not reach you: answer in HTML too, using only the tags ${ALLOWED_TAGS}${
            p.keepStructure ? ', keeping its headings, paragraphs and lists' : ''
          }, with nothing before or after it.`,
    );
  } else {
    parts.push('Answer with the text only.');
  }
  parts.push(`Text: ${encoded.text}`);
  return parts.join(' ');
}

/**
 * The prompt of a request with no text to work on (@content /write at the cursor): the request, the language and
 * tone, and how to answer so that the answer's structure reaches the editor (the server flattens line breaks).
 */
export function composeRequest(p: { request: string; language?: Language; tone?: Tone; format: TextFormat }): string {
  const parts = [collapse(p.request)];
  if (p.language && p.tone) parts.push(`Write the answer in ${p.language.name}, in a ${p.tone.toLowerCase()} tone.`);
  else if (p.language) parts.push(`Write the answer in ${p.language.name}.`);
  parts.push(
    p.format === 'html'
      ? 'Answer in HTML, with nothing before or after it.'
      : p.format === 'code'
        ? 'Answer with the text only.'
        : `Answer with the text only; where it has several paragraphs, headings or lists, write it in HTML using only the tags ${ALLOWED_TAGS}, because line breaks do not reach you.`,
  );
  return parts.join(' ');
}

/** The prompt's length as the server counts it: code points, after its trim. */
export function promptLength(prompt: string): number {
  return charLength(serverTrim(prompt));
}

export type PromptProblem = { kind: 'empty' } | { kind: 'tooLong'; length: number; limit: number; textLength: number };

/** Why a prompt cannot be sent (nothing is sent then), or undefined. */
export function checkPrompt(text: string, prompt: string): PromptProblem | undefined {
  if (isBlank(text)) return { kind: 'empty' };
  const length = promptLength(prompt);
  if (length > LIMITS.prompt) return { kind: 'tooLong', length, limit: LIMITS.prompt, textLength: charLength(serverTrim(text)) };
  return undefined;
}

// --- The answer -----------------------------------------------------------------------------------------

const BLOCK_TAG = /<\/?(?:h[1-6]|p|ul|ol|li|br|blockquote|pre|hr|div)\b[^>]*>/i;
/** The inline elements of the web editor and its sanitiser (a `<line>` or `<T>` in plain text is text). */
const INLINE_TAG = /<\/?(?:a|b|strong|i|em|u|s|strike|span|code|sub|sup|img|font|mark|small|kbd|br)\b[^>]*>/i;
/** The elements that make a paragraph of their own (a `<br>` does not). */
const OWN_BLOCK_TAG = /<\/?(?:h[1-6]|p|ul|ol|li|blockquote|pre|hr|div)\b[^>]*>/i;

/**
 * An answer's character references decoded (content/html.ts's decoder), with `&nbsp;` as a plain space: the model
 * writes it where the text has an ordinary space (and spaces are sent that way, see preLine).
 */
export function decodeEntities(s: string): string {
  return decodeHtmlEntities(s.replace(/&nbsp;/gi, ' '));
}

/**
 * A text for an HTML editor (a document of the web editor's): HTML stays as it is; Markdown or plain text becomes HTML
 * blocks — paragraphs (a line break as `<br>`), headings, lists — escaped. Where HTML blocks and plain paragraphs mix,
 * each paragraph (between blank lines) is taken on its own, one with only inline markup kept as a paragraph's content.
 */
export function textAsHtml(text: string): string {
  const t = text.replace(/\r\n?/g, '\n').trim();
  if (!t || detectFormat(t) === 'html') return t;
  if (!INLINE_TAG.test(t) && !OWN_BLOCK_TAG.test(t)) return parseBlocks(t, 'markdown').map(blockHtml).join('');
  return t
    .split(/\n[ \t]*\n\s*/)
    .map((chunk) => {
      if (detectFormat(chunk) === 'html') return chunk;
      if (INLINE_TAG.test(chunk) && !OWN_BLOCK_TAG.test(chunk)) return `<p>${chunk.split('\n').map((l) => l.trim()).filter(Boolean).join('<br>')}</p>`;
      return parseBlocks(chunk, 'markdown').map(blockHtml).join('');
    })
    .join('');
}

/**
 * The model's answer as text for the editor: HTML block markup becomes Markdown (or plain text) with real
 * line breaks; an answer with no block markup is taken as it is. An HTML editor gets HTML: the answer as it is when it
 * is HTML or when the selection had no block markup (a few words inside a paragraph), else HTML paragraphs (see
 * {@link textAsHtml}), so the blocks that were there stay blocks. `sent`, the
 * user's text: when it went as it is (one line, not our HTML) and has markup of its own (a code line with
 * `<div>`, Markdown with `<br>`), the answer is taken as it is, so that markup is never read as ours.
 */
export function decodeAnswer(answer: string, format: TextFormat, sent?: string): string {
  const text = answer.replace(/\r\n?/g, '\n');
  if (format === 'html') return sent !== undefined && detectFormat(sent) !== 'html' ? text.trim() : textAsHtml(text);
  if (!BLOCK_TAG.test(text)) return text.trim();
  if (sent !== undefined && /<\/?[a-z][^>]*>/i.test(sent) && !encodeText(sent, format).structured) return text.trim();
  const md = format === 'markdown';
  const out: Array<{ text: string; item: number | false }> = [];
  let listSeq = 0;
  const lists: Array<{ ordered: boolean; n: number }> = [];
  let buf = '';
  let heading = 0;
  let quote = false;
  let pre = false;
  let preLang = '';
  let itemPrefix: string | undefined;

  const flush = () => {
    const body = pre
      ? buf.replace(/^\n+|\n+$/g, '')
      : buf
          .split('\n')
          .map((l) => l.replace(/[ \t]+/g, ' ').trim())
          .join('\n')
          .replace(/^\n+|\n+$/g, '');
    buf = '';
    if (!body.trim()) return;
    if (itemPrefix !== undefined) {
      const indent = md ? '  '.repeat(Math.max(0, lists.length - 1)) : '';
      out.push({ text: indent + itemPrefix + body.replace(/\n/g, `\n${indent}${' '.repeat(itemPrefix.length)}`), item: listSeq });
    } else if (heading) out.push({ text: md ? `${'#'.repeat(heading)} ${body.replace(/\n/g, ' ')}` : body, item: false });
    else if (pre) out.push({ text: md ? `\`\`\`${preLang}\n${body}\n\`\`\`` : body, item: false });
    else if (quote && md) out.push({ text: body.split('\n').map((l) => `> ${l}`).join('\n'), item: false });
    else out.push({ text: body, item: false });
  };

  const tagRe = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?>/g;
  let last = 0;
  for (let m = tagRe.exec(text); m; m = tagRe.exec(text)) {
    const chunk = text.slice(last, m.index);
    last = m.index + m[0].length;
    buf += pre ? decodeEntities(chunk) : decodeEntities(chunk.replace(/\s+/g, ' '));
    const closing = m[1] === '/';
    const tag = m[2].toLowerCase();
    switch (tag) {
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
        flush();
        heading = closing ? 0 : Number(tag[1]);
        break;
      case 'p': case 'div':
        flush();
        break;
      case 'br':
        buf += '\n';
        break;
      case 'ul': case 'ol':
        flush();
        itemPrefix = undefined;
        if (closing) lists.pop();
        else lists.push({ ordered: tag === 'ol', n: 0 });
        listSeq++;
        break;
      case 'li': {
        flush();
        const list = lists[lists.length - 1];
        if (closing) itemPrefix = undefined;
        else itemPrefix = list?.ordered ? `${++list.n}. ` : '- ';
        break;
      }
      case 'blockquote':
        flush();
        quote = !closing;
        break;
      case 'pre':
        flush();
        pre = !closing;
        preLang = '';
        break;
      case 'hr':
        flush();
        out.push({ text: md ? '---' : '', item: false });
        break;
      case 'strong': case 'b':
        if (md) buf += '**';
        break;
      case 'em': case 'i':
        if (md) buf += '*';
        break;
      case 'code':
        if (md && !pre) buf += '`';
        // A fence's language, as sent: <pre><code class="language-python">.
        else if (pre && !closing && !buf) preLang = /\blanguage-([\w#+.-]+)/.exec(m[0])?.[1] ?? preLang;
        break;
      default:
        // Any other tag (a, span…): its text stays, the tag goes.
        break;
    }
  }
  buf += pre ? decodeEntities(text.slice(last)) : decodeEntities(text.slice(last).replace(/\s+/g, ' '));
  itemPrefix = undefined;
  heading = 0;
  flush();

  let result = '';
  out.forEach((b, i) => {
    if (i > 0) result += b.item !== false && out[i - 1].item === b.item ? '\n' : '\n\n';
    result += b.text;
  });
  return result.replace(/\n{3,}/g, '\n\n').trim();
}

/** The text that takes the selection's place: the answer inside the selection's own leading and trailing white space. */
export function replacementFor(selected: string, answer: string, placement: 'replace' | 'below'): string {
  const lead = /^\s*/.exec(selected)?.[0] ?? '';
  const trail = /\s*$/.exec(selected)?.[0] ?? '';
  if (placement === 'below') return `${selected.slice(0, selected.length - trail.length)}\n\n${answer}${trail || ''}`;
  if (!selected.trim()) return answer;
  return `${lead}${answer}${trail}`;
}

// --- The document's name --------------------------------------------------------------------------------

/**
 * `Rewrite · post.md:12` (the action, the file's base name, the first selected line); the file name is
 * shortened with "…" so that the whole stays within the server's 128 characters.
 */
export function documentName(label: string, fileName: string, line?: number): string {
  const max = LIMITS.name;
  const cut = (s: string, n: number) => {
    const cps = [...s];
    return cps.length <= n ? s : `${cps.slice(0, Math.max(0, n - 1)).join('')}…`;
  };
  const head = `${collapse(label) || 'Text'} · `;
  const tail = line === undefined ? '' : `:${line}`;
  const base = collapse(fileName) || 'Untitled';
  const room = max - charLength(head) - charLength(tail);
  if (room >= 8) return head + cut(base, room) + tail;
  return cut(head + base + tail, max);
}
