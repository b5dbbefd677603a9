import { serverTrim } from '../api/validate';
import { sha1Hex } from '../util/sha1';

/** What the file system needs of a server document. */
export interface ServerText {
  readonly result: string;
  readonly updated_at?: string;
  readonly created_at?: string;
}

/** One version of a document's text as this window has seen it on the server. */
export interface Version {
  readonly text: string;
  readonly bytes: Uint8Array;
  /** The stat mtime: the server's updated_at, nudged forward when the text changed within the same second. */
  readonly mtime: number;
  readonly ctime: number;
  /** The stat size: the byte length, nudged only when a different text of the same length was reported before. */
  readonly size: number;
  readonly updatedAt: string | undefined;
}

export interface Observation {
  readonly version: Version;
  /** The text differs from the previous version (false on the first observation). */
  readonly textChanged: boolean;
  /** mtime or size differs from the previous version (what VS Code's models compare). */
  readonly statChanged: boolean;
  readonly first: boolean;
}

interface Track {
  current: Version;
  sizeByText: Map<string, number>;
  textBySize: Map<number, string>;
}

function parseTime(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
}

function digest(text: string): string {
  return sha1Hex(text);
}

/**
 * Whether saving `text` would leave the server holding this version's text, so that the save has nothing to send.
 * Compared as the server stores a text: trimmed at both ends (a final newline VS Code adds is no change), everything
 * else as it is (the server keeps a text's line endings: other line endings are another text). The version's text is
 * taken as VS Code was given it (a NUL shows as U+FFFD there), so an editor that never touched a NUL is unchanged.
 */
export function isStoredText(text: string, version: Version): boolean {
  // eslint-disable-next-line no-control-regex -- the NUL is what is replaced
  const shown = version.text.includes('\u0000') ? version.text.replace(/\u0000/g, '\uFFFD') : version.text;
  return serverTrim(text) === serverTrim(shown);
}

/**
 * The server has no version check, and VS Code detects "the file on disk is newer" itself: before a
 * save it stats the file and refuses to write when `stat.mtime` is later than the mtime it last read
 * AND `stat.size` differs from the size it last read. This tracker makes that check reliable for a
 * server whose `updated_at` has one-second resolution:
 *
 * - mtime = the server's updated_at, but strictly later than the previous version's whenever the
 *   text changed (two edits in one second keep one updated_at), and never going backwards;
 * - size = the exact byte length of the text, except when this window has already reported that
 *   size for a *different* text of this document: then the next free size is reported, so that a
 *   change to a text of the same length is still caught. The same text always keeps the same size.
 *
 * Texts are compared as the server stores them (trimmed), never against an editor's buffer, so the
 * trimming done by the server on save can never look like a conflict.
 */
export class VersionTracker {
  private readonly tracks = new Map<number, Track>();
  /**
   * What was last reported for documents no longer tracked (deleted). VS Code keeps a closed editor's
   * model, and a model only ever moves its mtime forward: were a later document under the same id
   * reported with an older mtime, or a different text with the same size, VS Code's "newer on disk"
   * check would never fire.
   */
  private readonly floors = new Map<number, { mtime: number; key: string; size: number }>();

  get(id: number): Version | undefined {
    return this.tracks.get(id)?.current;
  }

  forget(id: number): void {
    const current = this.tracks.get(id)?.current;
    if (current) this.floors.set(id, { mtime: current.mtime, key: digest(current.text), size: current.size });
    this.tracks.delete(id);
  }

  observe(id: number, doc: ServerText): Observation {
    const text = doc.result ?? '';
    const track = this.tracks.get(id);
    const prev = track?.current;
    const updated = parseTime(doc.updated_at);
    const ctime = parseTime(doc.created_at) ?? prev?.ctime ?? updated ?? 0;

    if (!track || !prev) {
      const t: Track = { current: undefined as unknown as Version, sizeByText: new Map(), textBySize: new Map() };
      // Never before the last mtime reported for this id, later than it when the text is another one, and
      // never the size it had for another text.
      const floor = this.floors.get(id);
      let mtime = updated ?? 0;
      if (floor) {
        t.sizeByText.set(floor.key, floor.size);
        t.textBySize.set(floor.size, floor.key);
        if (mtime <= floor.mtime) mtime = floor.key === digest(text) ? floor.mtime : floor.mtime + 1;
      }
      t.current = this.make(t, text, mtime, ctime, doc.updated_at);
      this.tracks.set(id, t);
      return { version: t.current, textChanged: false, statChanged: true, first: true };
    }

    const textChanged = prev.text !== text;
    let mtime: number;
    if (textChanged) mtime = Math.max(updated ?? 0, prev.mtime + 1);
    else mtime = Math.max(updated ?? 0, prev.mtime);
    const next = textChanged
      ? this.make(track, text, mtime, ctime, doc.updated_at)
      : { ...prev, mtime, ctime, updatedAt: doc.updated_at ?? prev.updatedAt };
    track.current = next;
    return { version: next, textChanged, statChanged: next.mtime !== prev.mtime || next.size !== prev.size, first: false };
  }

  private make(track: Track, text: string, mtime: number, ctime: number, updatedAt: string | undefined): Version {
    // A NUL makes VS Code take the file for binary and refuse to open it: it shows as U+FFFD instead.
    // eslint-disable-next-line no-control-regex -- the NUL is what is replaced
    const bytes = new TextEncoder().encode(text.includes('\u0000') ? text.replace(/\u0000/g, '\uFFFD') : text);
    const key = digest(text);
    let size = track.sizeByText.get(key);
    if (size === undefined) {
      size = bytes.byteLength;
      while (track.textBySize.has(size) && track.textBySize.get(size) !== key) size++;
      track.sizeByText.set(key, size);
      track.textBySize.set(size, key);
    }
    return { text, bytes, mtime, ctime, size, updatedAt };
  }
}
