/** Where a {@link PathMemory} is kept between sessions (the window's workspaceState, under the account's label). */
export interface PathStore {
  /** What was written last (anything: a value of an earlier version, or damaged, is read as far as it makes sense). */
  read(): unknown;
  write(entries: Array<[string, number]>): void;
}

/** How many paths an account's memory keeps: the most recent. */
export const PATH_MEMORY_LIMIT = 400;

/**
 * The account-folder paths (`<folder>/<file>`) handed to editors, and the document each meant, kept across sessions
 * for one account label. A tab VS Code restores after a restart shows a path the new session's listing may no longer
 * give: its document was renamed on the website, its text turned HTML (`.md` → `.html`), the `files.language` setting
 * switched (`.md` → `.txt`). Through this memory the path still finds its document.
 *
 * Ids and paths only, never a text: nothing secret. The most recent {@link PATH_MEMORY_LIMIT} paths are kept; a path
 * handed out again counts as recent (it moves to the end once a session, so a tab restored session after session
 * stays), and a path handed to another document means that one from then on. Writes go to the store only when
 * something changed.
 */
export class PathMemory {
  /** Oldest first. */
  private readonly paths: Map<string, number>;
  /** The paths handed out this session (moved to the end already). */
  private readonly touched = new Set<string>();

  constructor(
    private readonly store: PathStore,
    private readonly limit = PATH_MEMORY_LIMIT,
  ) {
    this.paths = parse(store.read(), limit);
  }

  /** The document `path` was last handed out for, if it is remembered. */
  get(path: string): number | undefined {
    return this.paths.get(path);
  }

  /** Whether some remembered path is in `folder`. */
  hasFolder(folder: string): boolean {
    const prefix = `${folder}/`;
    for (const path of this.paths.keys()) if (path.startsWith(prefix)) return true;
    return false;
  }

  /** `path` was handed to an editor showing document `id`: it means that document from now on, in later sessions too. */
  note(path: string, id: number): void {
    if (this.paths.get(path) === id && this.touched.has(path)) return;
    this.touched.add(path);
    this.paths.delete(path);
    this.paths.set(path, id);
    for (const old of this.paths.keys()) {
      if (this.paths.size <= this.limit) break;
      this.paths.delete(old);
    }
    this.store.write([...this.paths]);
  }
}

/** The entries of a stored value: `[path, id]` pairs, the last `limit` of them; anything else is skipped. */
function parse(value: unknown, limit: number): Map<string, number> {
  const out = new Map<string, number>();
  if (!Array.isArray(value)) return out;
  for (const entry of value.slice(-limit)) {
    if (!Array.isArray(entry) || entry.length !== 2) continue;
    const [path, id] = entry as unknown[];
    if (typeof path !== 'string' || !/^[^/]+\/[^/]+$/.test(path) || typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) continue;
    out.delete(path);
    out.set(path, id);
  }
  return out;
}
