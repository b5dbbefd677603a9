import { hostOf } from '../accounts/accountNames';
import { templateName } from '../api/templates';
import { detectFormat, FORMAT_EXTENSION, type ContentFormat } from '../content/format';

/**
 * How documents and templates are named as files and folders. No `vscode` import: the account index
 * and its unit tests use these in plain Node.
 */

export interface DocumentLike {
  readonly id: number;
  readonly name: string;
  readonly template?: { readonly id: number; readonly name?: string } | undefined;
  /** The text, when the record carries it (a list or read record): an HTML text opens as `.html`. */
  readonly result?: string | null;
  /** Whether the text is HTML, where only that was kept (the account folder's index). */
  readonly html?: boolean;
}

/**
 * What the format detector said of each record's text: the tree asks for every visible row on each refresh, and
 * every document URI built asks too. Remembered by the record object itself (a weak map): a record is scanned once,
 * whatever its account, and nothing outlives the records the models hold (a record read again is a new object,
 * scanned once again).
 */
export class HtmlFormats {
  readonly #byRecord = new WeakMap<object, boolean>();

  constructor(private readonly detect: (text: string) => ContentFormat = detectFormat) {}

  /** Whether the record's text is HTML. */
  isHtml(record: { readonly result?: string | null }): boolean {
    if (!record.result) return false;
    let html = this.#byRecord.get(record);
    if (html === undefined) this.#byRecord.set(record, (html = this.detect(record.result) === 'html'));
    return html;
  }
}

const formats = new HtmlFormats();

/**
 * Whether a document's text is HTML (the web editor's): from its result when the record carries one, else from what
 * was kept of it. Such a document is a `.html` file (language `html`); any other keeps the setting's `.md` or `.txt`.
 */
export function isHtmlDocument(doc: DocumentLike): boolean {
  return doc.result !== undefined ? formats.isHtml(doc) : doc.html === true;
}

/** The extension a document's file takes: `.html` for an HTML text, else `ext` (the setting's). */
export function extensionOf(doc: DocumentLike, ext: string): string {
  return isHtmlDocument(doc) ? FORMAT_EXTENSION.html : ext;
}

/**
 * A name usable as one path segment: no slashes or control characters, never empty, and never starting
 * with `.` (VS Code and the file system treat `.name` as hidden configuration, and `.`/`..` as navigation):
 * a leading dot shows as ONE DOT LEADER, which looks the same.
 */
export function safeSegment(name: string, fallback = 'Untitled'): string {
  const cleaned = name
    .replace(/\//g, '\u2215') // DIVISION SLASH looks like "/" but is not a separator
    .replace(/\\/g, '\u2216') // SET MINUS for "\"
    // eslint-disable-next-line no-control-regex -- control characters are what is replaced
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .replace(/^\./, '\u2024');
  return cleaned || fallback;
}

/** The folder a document's template shows as. */
export function templateFolderName(template: DocumentLike['template']): string {
  return safeSegment(templateName(template?.id, template?.name), 'No template');
}

/** The file name of a document: `<name>.md`. */
export function documentFileName(name: string, ext: string): string {
  return `${safeSegment(name)}${ext}`;
}

/**
 * The folder a documents server shows as in its documents' URIs: its host, with the port if any (`content.example.com`,
 * `127.0.0.1:8080`). An account's server never changes (another server is another account).
 */
export function hostFolderName(documentsUrl: string): string {
  return safeSegment(hostOf(documentsUrl));
}

/**
 * The path of a document's own URI: `/<host>/<Template>/<Name>.md` (`ext` for a text that is not HTML). The host folder
 * tells apart the tabs of one document opened from accounts on two servers, as VS Code tells apart two files of one
 * name in two folders.
 */
export function documentPath(hostFolder: string, doc: DocumentLike, ext: string): string {
  return `/${hostFolder}/${templateFolderName(doc.template)}/${documentFileName(doc.name, extensionOf(doc, ext))}`;
}

/** What the path of a document's own URI names: the document's file, or one of the folders it is in. */
export type DocumentPathPart = { readonly kind: 'file'; readonly file: string } | { readonly kind: 'folder'; readonly depth: number };

/**
 * What the path segments of a document's own URI name: `/<host>/<Template>/<Name>.md`, and the form of earlier
 * versions, `/<Template>/<Name>.md` (a restored tab). The file is the last segment: the third, or the second when it
 * has a document's extension (`.md`, `.txt`, `.html`), which a file name always has; else the second is the folder
 * `/<host>/<Template>`. `hostFolder`, the first folder of the account's documents (see {@link hostFolderName}), when
 * known, tells that folder from a file of the earlier form whatever the template is called (`/<host>/Notes.md` is the
 * folder of a template named "Notes.md"). Undefined for a deeper path.
 */
export function documentPathPart(segs: readonly string[], hostFolder?: string): DocumentPathPart | undefined {
  const file = segs.length === 3 || (segs.length === 2 && segs[0] !== hostFolder && extensionOfFileName(segs[1]) !== '');
  if (file) return { kind: 'file', file: segs[segs.length - 1] };
  return segs.length <= 2 ? { kind: 'folder', depth: segs.length } : undefined;
}

/** The document name a file name stands for: the extension in use (any of `.md`, `.txt`, `.html`) is dropped. */
/** The extension of a document's file name as written (`.md`, `.txt`, `.html`, any case), or '' without one. */
export function extensionOfFileName(fileName: string): string {
  return /\.(md|txt|html)$/i.exec(fileName)?.[0] ?? '';
}

export function nameFromFileName(fileName: string): string {
  const m = /^(.*)\.(md|txt|html)$/i.exec(fileName);
  return (m && m[1].trim() ? m[1] : fileName).trim();
}

/**
 * The document name a renamed file asks for: the look-alikes {@link safeSegment} puts in for `/`, `\\` and a
 * leading `.` are turned back, but only those the current name has (a name may hold the look-alikes themselves).
 */
export function documentNameFromFileName(fileName: string, currentName = ''): string {
  let name = nameFromFileName(fileName);
  if (currentName.startsWith('.')) name = name.replace(/^\u2024/, '.');
  if (currentName.includes('/')) name = name.replace(/\u2215/g, '/');
  if (currentName.includes('\\')) name = name.replace(/\u2216/g, '\\');
  return name;
}
