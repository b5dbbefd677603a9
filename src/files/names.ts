import { templateName } from '../api/templates';

/**
 * How documents and templates are named as files and folders. No `vscode` import: the account index
 * and its unit tests use these in plain Node.
 */

export interface DocumentLike {
  readonly id: number;
  readonly name: string;
  readonly template?: { readonly id: number; readonly name?: string } | undefined;
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

/** The document name a file name stands for: the extension in use (either one) is dropped. */
export function nameFromFileName(fileName: string): string {
  const m = /^(.*)\.(md|txt)$/i.exec(fileName);
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
