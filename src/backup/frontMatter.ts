/**
 * A backed-up document's file: YAML front matter (what the document is, where it came from), then its text exactly as
 * the server holds it. No `vscode` import (unit-tested in plain Node).
 */
import type { ContentFormat } from '../content/format';

/** A document as a list page carries it (list records carry `result`). */
export interface BackupDocument {
  readonly id: number;
  readonly name: string;
  readonly template?: { readonly id: number; readonly name?: string } | undefined;
  readonly result: string;
  readonly words: number;
  readonly favorite: boolean;
  readonly created_at?: string | undefined;
  readonly updated_at?: string | undefined;
}

/** Where the documents come from, as the front matter names it. */
export interface BackupOrigin {
  /** The account as the user knows it ("Ann @ writer.example.com"). */
  readonly account: string;
  /** The documents server's address. */
  readonly server: string;
}

/**
 * A YAML double-quoted scalar holding exactly `s`. JSON's string syntax is YAML's double-quoted one, except for the
 * characters YAML may not carry raw (C1 controls, DEL, line and paragraph separators, BOM, non-characters) and lone
 * surrogates, which no YAML reader accepts: the first are escaped, the second become U+FFFD.
 */
export function yamlString(s: string): string {
  const wellFormed = s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  return JSON.stringify(wellFormed).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The file's text: front matter, then the document's text (with a final newline, which the server would trim). */
export function renderDocument(doc: BackupDocument, format: ContentFormat, origin: BackupOrigin): string {
  const optional = (v: string | undefined) => (v === undefined ? 'null' : yamlString(v));
  const lines = [
    '---',
    `id: ${doc.id}`,
    `name: ${yamlString(doc.name)}`,
    doc.template ? `template:\n  id: ${doc.template.id}\n  name: ${optional(doc.template.name)}` : 'template: null',
    `favorite: ${doc.favorite ? 'true' : 'false'}`,
    `words: ${Number.isFinite(doc.words) ? doc.words : 0}`,
    `created: ${optional(doc.created_at)}`,
    `updated: ${optional(doc.updated_at)}`,
    `account: ${yamlString(origin.account)}`,
    `server: ${yamlString(origin.server)}`,
    `format: ${format}`,
    '---',
  ];
  const body = doc.result && !doc.result.endsWith('\n') ? `${doc.result}\n` : doc.result;
  return `${lines.join('\n')}\n${body}`;
}

/** The document id a backed-up file's front matter names, or undefined (not one of ours, or unreadable). */
export function documentIdOf(text: string): number | undefined {
  const m = /^---\r?\nid: (\d+)\r?\n/.exec(text);
  return m ? Number(m[1]) : undefined;
}
