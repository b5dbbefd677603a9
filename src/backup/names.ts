/**
 * File and folder names of a backup folder: valid on Windows, macOS and Linux whatever a document or template is
 * called. No `vscode` import (unit-tested in plain Node).
 */

/** Names Windows reserves for devices, whatever the extension (`CON.md`, `nul.txt.md`, `COM¹.md`). */
const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** Characters no Windows file name may hold, and control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what is replaced
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;

/** The longest a name's stem may be, in UTF-16 units and in UTF-8 bytes (room left for " (id)", the extension and temp files). */
const MAX_UNITS = 100;
const MAX_BYTES = 150;

/**
 * A document or template name as one path segment (without extension) on every system: forbidden characters
 * become `_`, white space runs one space, no leading dot or space, no trailing dot or space (Windows drops them),
 * no device name, at most {@link MAX_UNITS} characters and {@link MAX_BYTES} bytes (never half a character), in NFC
 * (macOS stores NFD; both read back as the same name). Never empty: `fallback` then.
 */
export function safeStem(name: string, fallback = 'Untitled'): string {
  let s = name
    .normalize('NFC')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(FORBIDDEN, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '');
  s = truncate(s).replace(/[\s.]+$/, '');
  if (!s) s = fallback;
  if (RESERVED.test(s.split('.')[0].trim())) s = s.replace(/^[^.]*/, (first) => `${first}_`);
  return s;
}

function truncate(s: string): string {
  let units = 0;
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const b = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (units + ch.length > MAX_UNITS || bytes + b > MAX_BYTES) break;
    units += ch.length;
    bytes += b;
    out += ch;
  }
  return out;
}

/**
 * What two paths are to a case-insensitive file system (Windows, macOS): one key for `Blog/Name.md` and
 * `blog/NAME.md`, and for a name in NFC and NFD. Upper case first: lowercasing alone depends on what follows a
 * letter (a Greek capital sigma becomes a final `ς` before a dot but `σ` before `.md`), so `Λόγος.md` and `ΛΌΓΟΣ.md`,
 * one file on those systems, would get two keys. It takes some names for one that a disk keeps apart (`ß` and `ss`),
 * which only costs one of them its id in its name.
 */
export function pathKey(path: string): string {
  return path.normalize('NFC').toUpperCase().toLowerCase();
}

/** The folder of a relative path ('' for the root) and its last segment. */
export function splitPath(path: string): { folder: string; file: string } {
  const i = path.lastIndexOf('/');
  return i < 0 ? { folder: '', file: path } : { folder: path.slice(0, i), file: path.slice(i + 1) };
}

/** `stem.ext` → [`stem`, `.ext`] (the extension includes its dot; none: ''). */
export function splitExtension(file: string): [string, string] {
  const i = file.lastIndexOf('.');
  return i > 0 ? [file.slice(0, i), file.slice(i)] : [file, ''];
}

/**
 * The names a document may take in its folder, best first: its own name, then with its id (unique in the account,
 * so the same document takes the same name each time), then numbered should that be taken too.
 */
export function* candidateNames(stem: string, ext: string, id: number): Generator<string> {
  yield `${stem}${ext}`;
  yield `${stem} (${id})${ext}`;
  for (let n = 2; ; n++) yield `${stem} (${id}) ${n}${ext}`;
}

/**
 * The names a file edited in the backup folder is kept under, in its own folder, best first: `Plan (edited locally
 * 2026-11-28).md`, then `Plan (edited locally 2026-11-28, 2).md`, … (`day`: the day the run set it aside).
 */
export function* keptNames(file: string, day: string): Generator<string> {
  const [stem, ext] = splitExtension(file);
  yield `${stem} (edited locally ${day})${ext}`;
  for (let n = 2; ; n++) yield `${stem} (edited locally ${day}, ${n})${ext}`;
}

/** Whether a file name is a kept copy's (see {@link keptNames}): the backup never takes one for a document's file. */
export function isKeptName(file: string): boolean {
  return / \(edited locally \d{4}-\d{2}-\d{2}(?:, \d+)?\)(?:\.[^.]*)?$/.test(file);
}
