/**
 * A model-based test of the lists, in plain Node: the real API client, DocumentService, the Documents view's
 * model (DocumentsModel) and the account folder's listing (AccountIndex), against the sandbox over HTTP on
 * 127.0.0.1. Seeded random sequences of what a user does (expand a group, Load more, load to the end, search
 * by name or in the text, change the sort, favorite, rename, create, delete, Refresh, open the account folder)
 * and of what someone else does on the server, unheard by the client (create, delete, rename, favorite, change
 * a text) — also while a page is being read: the sandbox's request hook makes a change just before it answers
 * the n-th list page of a step (the user's own changes are made there too: a delete while Load more is loading).
 *
 * The server's answers are the oracle: each group's list read to the end at 100 a page (by the plain key, not
 * through the client), sampled after every change, so the test knows what the server listed for the group at
 * every moment since the group's list was first read. After every step, for every group the model has loaded:
 *
 *   dup        no document shows twice;
 *   listed     every row shows a document as the server listed it in that group at some moment since the
 *              group was first read (same id, name, template, favorite and text): a row may outlive a change
 *              the client has not heard of, but never shows what the server did not list there;
 *   gone       no row for a document the client was told is deleted;
 *   knowledge  no row in a template group, Favorites or Other templates that, by what the client itself knows
 *              of the document now, is not in that group;
 *   order      rows that show the server's current document (by id; under a name sort, with the server's
 *              current name) come in the server's order (names the sandbox's collation holds equal: any order);
 *   complete   when the group shows no Load more (the model says it has everything): if nobody else changed the
 *              group on the server since it was first read, its rows are exactly the server's, showing the
 *              server's current fields; if someone else only added documents to it, or only removed some, no
 *              document that has been in the group all along (or that the user brought into it) is missing;
 *   progress   Load more to the end ends within (server's pages + 4) clicks, and (pages / 5 + 2) more for the one
 *              walk read again when someone else changed the list under it (five pages a click);
 * and for documents and the account folder:
 *   deleted    no document is reported deleted (DocumentService's onDidDelete, e.g. through markDeleted) while
 *              the server has it (GET /documents/{id} answers 200 from the same store); the account folder never
 *              calls a live document it gave a path to gone (isGone);
 *   folder     after a listing of the account folder with no change during it, the folder holds exactly the
 *              server's documents; after a Refresh during changes, every document it held that stayed live
 *              throughout is still there.
 *
 * Replay: CONTENT_DOCS_LISTS_SEED=<n>[,<n>…] (CONTENT_DOCS_LISTS_STEPS=<n> steps per seed; CONTENT_DOCS_LISTS_ONLY=
 * 3,17,40 keeps only those steps of the seed). CONTENT_DOCS_LISTS_SHRINK=1 shrinks a failing sequence to a
 * shortest one that fails the same way, and prints it. CONTENT_DOCS_LISTS_VERBOSE=1 prints every step.
 */
import assert from 'node:assert/strict';
import { errorKind } from '../../src/util/errors';
import type { DocumentNode } from '../../src/model/nodes';
import type { DocumentSortSetting, PageSize } from '../../src/util/config';
import { collate, startSandbox, type Sandbox } from '../sandbox/server';
import { choose, clientSig, clientStack, rowsOf, Rng, serverIsOther, ServerLists, serverSig, type ClientStack, type ServerDoc } from './listsKit';

// --- Settings of the run -------------------------------------------------------------------------------------

const env = process.env;
const numbers = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .filter((x) => x.trim() !== '')
    .map((x) => Number(x.trim()))
    .filter((x) => Number.isSafeInteger(x) && x >= 0);
const SEEDS = numbers(env.CONTENT_DOCS_LISTS_SEED).length ? numbers(env.CONTENT_DOCS_LISTS_SEED) : [1, 2, 3, 4, 5, 6, 7, 8];
const STEPS = Number(env.CONTENT_DOCS_LISTS_STEPS) > 0 ? Number(env.CONTENT_DOCS_LISTS_STEPS) : 150;
const ONLY = numbers(env.CONTENT_DOCS_LISTS_ONLY);
const SHRINK = env.CONTENT_DOCS_LISTS_SHRINK === '1';
const VERBOSE = env.CONTENT_DOCS_LISTS_VERBOSE === '1';
/** Invariants to note (the first time each, per group) instead of stopping at: to see what else a sequence finds (e.g. `order,listed`). */
const IGNORE = new Set((env.CONTENT_DOCS_LISTS_IGNORE ?? '').split(',').map((x) => x.trim()).filter(Boolean));

const SORT_PARAMS: Record<DocumentSortSetting, Record<string, string>> = {
  newest: { sort_by: 'id', sort: 'desc' },
  oldest: { sort_by: 'id', sort: 'asc' },
  nameAsc: { sort_by: 'name', sort: 'asc' },
  nameDesc: { sort_by: 'name', sort: 'desc' },
};
const SORTS = Object.keys(SORT_PARAMS) as DocumentSortSetting[];
const CUSTOM_TEMPLATE = 60;

/** Names for renames and new documents: the same name many times, case and accents, letters of their own, emoji, symbols. */
const NAMES = [
  'Solar panels', 'Solar panels', 'Solar panels', 'solar panels', 'SOLAR PANELS', 'Solar Panels', 'Café crème', 'Cafe creme',
  'café CRÈME', 'Ærø notes', 'Aero notes', 'Łódź trip', 'Lodz trip', 'Øresund bridge', '🚀 Launch plan', '🚀 Launch plan', '😀 Smile',
  '✨ Ideas', '⭐ Review', 'Émile', 'emile', 'Zebra', 'zebra', 'Apple', 'apple pie', 'Apple pie', '"Quoted"', '‘Single’', "'Plain'",
  '_under', '-dash', '@home', '©2026', '^caret', '`tick', '50% off', '100% cotton', '日本語', '한국어', 'Untitled', 'Untitled', 'a',
  'A', 'Ä', 'Straße', 'Strasse', 'Mañana', 'Manana', 'Über', 'Uber', 'Launch plan',
];
const TEXTS = ['Solar panels save money.', 'Le café était délicieux.', 'Plain words about nothing.', 'Our customers love it.', '🚀 Rockets and plans.'];
const SEARCHES: ReadonlyArray<{ text: string; by: 'name' | 'result' }> = [
  { text: 'solar', by: 'name' },
  { text: 'Solar panels', by: 'name' },
  { text: 'cafe', by: 'name' },
  { text: 'crème', by: 'name' },
  { text: '🚀', by: 'name' },
  { text: 'launch', by: 'name' },
  { text: 'untitled', by: 'name' },
  { text: 'a', by: 'name' },
  { text: 'ø', by: 'name' },
  { text: 'plan', by: 'name' },
  { text: 'café', by: 'result' },
  { text: 'customers', by: 'result' },
  { text: 'sandbox', by: 'result' },
  { text: 'solar', by: 'result' },
];
/** Groups a step may open: All, Favorites, templates with many, few and no documents, a custom one, Other templates, Search results. */
const GROUPS = ['all', 'favorites', 't4', 't9', 't1', 't33', `t${CUSTOM_TEMPLATE}`, 'other', 'search', 'all', 't4', 'favorites', 'other'];

// --- Steps (data drawn up front, so a sequence can be replayed with some steps left out) ------------------------

type MutationKind =
  | 'otherCreate' | 'otherDelete' | 'otherRename' | 'otherFavorite' | 'otherText'
  | 'userCreate' | 'userDelete' | 'userRename' | 'userFavorite';
type StepKind = 'expand' | 'loadMore' | 'loadToEnd' | 'search' | 'clearSearch' | 'sort' | 'refresh' | 'openFolder' | MutationKind;

interface Mutation {
  kind: MutationKind;
  r: number[];
}
interface Step {
  i: number;
  kind: StepKind;
  r: number[];
  /** A change made just before the server answers the n-th list page of this step. */
  during?: { nth: number; mutation: Mutation };
}

const STEP_WEIGHTS: ReadonlyArray<readonly [StepKind, number]> = [
  ['expand', 10], ['loadMore', 12], ['loadToEnd', 9], ['search', 4], ['clearSearch', 1], ['sort', 4], ['refresh', 3], ['openFolder', 2],
  ['userCreate', 3], ['userDelete', 5], ['userRename', 6], ['userFavorite', 5],
  ['otherCreate', 4], ['otherDelete', 5], ['otherRename', 5], ['otherFavorite', 4], ['otherText', 2],
];
const MUTATION_WEIGHTS: ReadonlyArray<readonly [MutationKind, number]> = [
  ['otherCreate', 3], ['otherDelete', 5], ['otherRename', 4], ['otherFavorite', 3], ['otherText', 1],
  ['userDelete', 3], ['userRename', 2], ['userFavorite', 2], ['userCreate', 1],
];
const READS = new Set<StepKind>(['expand', 'loadMore', 'loadToEnd', 'refresh', 'openFolder']);

function drawSteps(seed: number, n: number): Step[] {
  const rng = new Rng(seed);
  const rs = () => [rng.float(), rng.float(), rng.float(), rng.float()];
  const steps: Step[] = [];
  for (let i = 0; i < n; i++) {
    const kind = rng.weighted(STEP_WEIGHTS);
    const step: Step = { i, kind, r: rs() };
    if (READS.has(kind) && rng.chance(0.45)) {
      const nth = kind === 'loadToEnd' ? 1 + rng.int(4) : kind === 'refresh' || kind === 'openFolder' ? 2 : 1 + rng.int(2);
      step.during = { nth, mutation: { kind: rng.weighted(MUTATION_WEIGHTS), r: rs() } };
    }
    steps.push(step);
  }
  return steps;
}

// --- The server's data for a seed ------------------------------------------------------------------------------

/** ~150–300 documents: many in two templates (lists of several pages), duplicate names, accents, emoji, a custom and a deleted template, favorites. */
function seedServer(sb: Sandbox, seed: number): { documents: number; pageSize: PageSize } {
  const rng = new Rng(seed * 31 + 7);
  const n = 150 + rng.int(151);
  sb.reseed({ documents: n, projects: 0 });
  for (const d of sb.documents.values()) {
    const t = rng.float();
    d.templateName = undefined;
    if (t < 0.3) d.templateId = 4;
    else if (t < 0.45) d.templateId = 9;
    else if (t < 0.52) d.templateId = 1;
    else if (t < 0.58) d.templateId = null;
    else if (t < 0.68) {
      d.templateId = CUSTOM_TEMPLATE;
      d.templateName = 'Custom: Landing page';
    } else if (t < 0.72) d.templateId = 999; // an id the server has no template for: `"template": []`
    else d.templateId = 1 + rng.int(52);
    if (rng.chance(0.4)) d.name = rng.pick(NAMES);
    d.favorite = rng.chance(0.25);
  }
  sb.resetRequests();
  return { documents: sb.documents.size, pageSize: rng.chance(0.5) ? 10 : 25 };
}

// --- What the server listed for each loaded group --------------------------------------------------------------

class Violation extends Error {
  constructor(
    readonly invariant: string,
    readonly detail: string,
  ) {
    super(`[${invariant}] ${detail}`);
  }
}

/** A group the model has a list for, and what the server listed for it since that list was first read. */
class Tracker {
  /** id -> every form (name, template, favorite, text) the server listed the document in, in this group. */
  readonly ever = new Map<number, Set<string>>();
  /** In the group at every sample since the list began (or since the user's own change brought it in). */
  continuous = new Set<number>();
  /** What someone else's changes did to the list the group is read from, since it began. */
  readonly unheard = new Set<'add' | 'remove' | 'mixed'>();
  /** The ordered ids of the list the group is read from (for Other templates: All Documents) at the last sample. */
  basis: Array<{ id: number; rank: number }> = [];
  members = new Set<number>();
  constructor(
    readonly key: string,
    readonly params: Record<string, string>,
    readonly filter: ((d: ServerDoc) => boolean) | undefined,
    /** The count of someone else's changes when the list began. */
    readonly unheardAtStart: number,
  ) {}
}

interface Oracle {
  /** The group's documents now, in the server's order. */
  docs: ServerDoc[];
  byId: Map<number, ServerDoc>;
  /** Position in the server's order; equal for names the collation holds equal (under a name sort). */
  rank: Map<number, number>;
  /** The list the group is read from, in order (Other templates: All Documents). */
  basis: Array<{ id: number; rank: number }>;
}

// --- One run of a sequence ---------------------------------------------------------------------------------------

interface RunResult {
  log: string[];
  /** Violations of invariants left out (CONTENT_DOCS_LISTS_IGNORE): the first of each, per group. */
  noted?: Map<string, string>;
  violation?: Violation;
  /** The step (index into the sequence run) that failed. */
  failedAt?: number;
  requests: number;
}

interface Armed {
  nth: number;
  seen: number;
  run: () => Promise<string>;
  fired?: Promise<string>;
}

class Run {
  readonly log: string[] = [];
  readonly lists: ServerLists;
  readonly trackers = new Map<string, Tracker>();
  readonly knownGone = new Set<number>();
  /** Ids the account folder gave a path to. */
  readonly everIndexed = new Set<number>();
  readonly pending: Violation[] = [];
  unheardCount = 0;
  stack!: ClientStack;
  sort: DocumentSortSetting = 'newest';
  armed: Armed | undefined;
  /** The change armed for the current step (kept after it fired). */
  stepArmed: Armed | undefined;

  constructor(
    readonly sb: Sandbox,
    readonly seed: number,
    readonly pageSize: PageSize,
  ) {
    this.lists = new ServerLists(sb);
  }

  start(): void {
    this.stack = clientStack(this.sb, this.pageSize, 'newest');
    this.stack.service.onDidDelete((d) => {
      this.knownGone.add(d.id);
      if (this.sb.documents.has(d.id)) {
        this.pending.push(new Violation('deleted', `document ${d.id} "${this.sb.documents.get(d.id)!.name}" was reported deleted while the server has it (GET answers 200)`));
      }
    });
    this.sb.onRequest(async (r) => {
      const a = this.armed;
      if (!a || r.route !== 'documents.list' || r.query.oracle === '1') return;
      if (++a.seen !== a.nth) return;
      this.armed = undefined;
      a.fired = a.run();
      await a.fired;
    });
  }

  dispose(): void {
    this.sb.onRequest(undefined);
    this.stack.dispose();
  }

  // --- the oracle ---

  paramsFor(key: string): { params: Record<string, string>; filter?: (d: ServerDoc) => boolean } | undefined {
    const s = SORT_PARAMS[this.sort];
    if (key === 'all') return { params: { ...s } };
    if (key === 'favorites') return { params: { ...s, favorite: '1' } };
    if (key === 'other') return { params: { ...s }, filter: serverIsOther };
    if (key === 'search') {
      const q = this.stack.model.search;
      return q ? { params: { ...s, search: q.text, search_by: q.by } } : undefined;
    }
    return { params: { ...s, template_id: key.slice(1) } };
  }

  async oracle(t: Tracker): Promise<Oracle> {
    const byName = t.params.sort_by === 'name';
    const ordered = await this.lists.list(t.params);
    // The server breaks no ties by name: a walk by name that repeats or skips a tie (its count disagrees with
    // `meta.total`) is completed by the order by id.
    const byIdList = !byName || this.lists.consistent(t.params) ? ordered : await this.lists.list({ ...t.params, sort_by: 'id', sort: 'asc' });
    const rank = new Map<number, number>();
    const classes: string[] = [];
    let r = -1;
    let prev: ServerDoc | undefined;
    for (const d of ordered) {
      if (!byName || !prev || collate(prev.name, d.name) !== 0) {
        r++;
        classes[r] = d.name;
      }
      rank.set(d.id, r);
      prev = d;
    }
    for (const d of byIdList) {
      if (rank.has(d.id)) continue;
      // Skipped by the walk by name (a tie across a page boundary): ranked with its equals.
      const k = classes.findIndex((c) => collate(c, d.name) === 0);
      rank.set(d.id, k >= 0 ? k : Number.MAX_SAFE_INTEGER);
    }
    const all = t.filter ? byIdList.filter(t.filter) : byIdList;
    const docs = [...all].sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
    const basis = byIdList.map((d) => ({ id: d.id, rank: rank.get(d.id)! })).sort((a, b) => a.rank - b.rank);
    return { docs, byId: new Map(docs.map((d) => [d.id, d])), rank, basis };
  }

  /** Samples every tracked group after a change (`heard`: made by the user through the client). */
  async sample(heard: boolean, only?: Tracker): Promise<void> {
    if (!heard) this.unheardCount++;
    for (const t of only ? [only] : [...this.trackers.values()]) {
      const o = await this.oracle(t);
      const now = new Set(o.docs.map((d) => d.id));
      for (const d of o.docs) {
        let forms = t.ever.get(d.id);
        if (!forms) t.ever.set(d.id, (forms = new Set()));
        forms.add(serverSig(d));
      }
      if (only) t.continuous = new Set(now);
      else {
        for (const id of t.continuous) if (!now.has(id)) t.continuous.delete(id);
        if (heard) for (const id of now) if (!t.members.has(id)) t.continuous.add(id);
        if (!heard) {
          const kind = shift(t.basis, o.basis);
          if (kind) t.unheard.add(kind);
        }
      }
      t.members = now;
      t.basis = o.basis;
    }
  }

  // --- changes ---

  liveIds(): number[] {
    return [...this.sb.documents.keys()].sort((a, b) => a - b);
  }

  /** Documents the user sees as rows (the user acts on rows), in a stable order. */
  async visible(): Promise<DocumentNode[]> {
    const out = new Map<number, DocumentNode>();
    for (const key of [...this.trackers.keys()].sort()) {
      const g = this.stack.group(key);
      const state = this.stack.model.listState(key);
      // A first page on the wire (the change may be made while it is): nothing shown yet, and asking would wait for it.
      if (!g || !state || (state.loading && state.shown === 0)) continue;
      for (const row of rowsOf(await this.stack.model.children(g)).rows) if (!out.has(row.doc.id)) out.set(row.doc.id, row);
    }
    return [...out.values()].sort((a, b) => a.doc.id - b.doc.id);
  }

  async mutate(m: Mutation): Promise<string> {
    const [r0, r1, r2] = m.r;
    const now = () => new Date(Math.floor(Date.now() / 1000) * 1000);
    const name = choose(NAMES, r1)!;
    if (m.kind.startsWith('other')) {
      const visible = (await this.visible()).map((n) => n.doc.id).filter((id) => this.sb.documents.has(id));
      const id = r2 < 0.7 && visible.length ? choose(visible, r0)! : choose(this.liveIds(), r0);
      const d = id === undefined ? undefined : this.sb.documents.get(id);
      let line: string;
      if (m.kind === 'otherCreate') {
        const tpl = choose([4, 4, 9, 1, CUSTOM_TEMPLATE, 'none', 33] as const, r2)!;
        const created = await this.lists.create(name, tpl, `Write about ${name}`);
        if (r0 < 0.3) this.sb.documents.get(created.id)!.favorite = true;
        line = `someone else creates #${created.id} "${name}" (template ${tpl}${r0 < 0.3 ? ', favorite' : ''})`;
      } else if (!d) return 'someone else: no document';
      else if (m.kind === 'otherDelete') {
        this.sb.documents.delete(d.id);
        line = `someone else deletes #${d.id} "${d.name}"`;
      } else if (m.kind === 'otherRename') {
        line = `someone else renames #${d.id} "${d.name}" -> "${name}"`;
        d.name = name;
        d.updatedAt = now();
      } else if (m.kind === 'otherFavorite') {
        d.favorite = !d.favorite;
        d.updatedAt = now();
        line = `someone else ${d.favorite ? 'favorites' : 'unfavorites'} #${d.id} "${d.name}"`;
      } else {
        d.result = choose(TEXTS, r1)!;
        d.updatedAt = now();
        line = `someone else rewrites the text of #${d.id} "${d.name}"`;
      }
      this.lists.bump();
      await this.sample(false);
      return line;
    }
    // The user, through the extension: on a row of the view, or (Go to Document) any document.
    const rows = await this.visible();
    const row = r2 < 0.85 && rows.length ? choose(rows, r0) : undefined;
    const id = row?.doc.id ?? choose(this.liveIds(), r0);
    let line: string;
    try {
      const s = this.stack.service;
      if (m.kind === 'userCreate') {
        const tpl = choose([4, 4, 9, 1, CUSTOM_TEMPLATE, 33], r2)!;
        const d = await s.create({ name, templateId: tpl, prompt: `Write about ${name}`, creativity: 0.5 });
        line = `user creates #${d.id} "${name}" (template ${tpl})`;
      } else if (id === undefined) return 'user: no document';
      else if (m.kind === 'userDelete') {
        line = `user deletes #${id} "${row?.doc.name ?? this.sb.documents.get(id)?.name}"`;
        await s.delete(id);
      } else if (m.kind === 'userRename') {
        line = `user renames #${id} "${row?.doc.name ?? this.sb.documents.get(id)?.name}" -> "${name}"`;
        await s.rename(id, name);
      } else {
        const fav = !(row?.doc.favorite ?? this.sb.documents.get(id)?.favorite ?? false);
        line = `user ${fav ? 'favorites' : 'unfavorites'} #${id} "${row?.doc.name ?? this.sb.documents.get(id)?.name}"`;
        await s.setFavorite(id, fav);
      }
    } catch (e) {
      if (errorKind(e) !== 'notFound') throw new Violation('error', `the user's ${m.kind} failed: ${String(e)}`);
      line = `user ${m.kind.slice(4).toLowerCase()} #${id}: 404 (deleted elsewhere)`;
    }
    this.lists.bump();
    await this.sample(true);
    return line;
  }

  // --- steps ---

  /** Runs `action` with the step's change armed for the n-th list page it reads. */
  async withDuring(step: Step, action: () => Promise<string>): Promise<string> {
    const d = step.during;
    if (!d) return action();
    const armed: Armed = { nth: d.nth, seen: 0, run: () => this.mutate(d.mutation) };
    this.armed = armed;
    this.stepArmed = armed;
    let line: string;
    try {
      line = await action();
    } finally {
      if (this.armed === armed) this.armed = undefined;
    }
    const fired = armed.fired ? await armed.fired : undefined;
    return `${line} [${fired ? `before page ${d.nth} was answered: ${fired}` : `no page ${d.nth}: nothing else happened`}]`;
  }

  /** Opens a group: its tracker begins with the server's list as it is before the first page is asked for. */
  async expand(key: string): Promise<string> {
    const g = this.stack.group(key);
    if (!g) return `expand ${key}: no such group`;
    if (!this.stack.model.listState(key) || !this.trackers.has(key)) {
      const p = this.paramsFor(key);
      if (!p) return `expand ${key}: no search`;
      const t = new Tracker(key, p.params, p.filter, this.unheardCount);
      this.trackers.set(key, t);
      await this.sample(true, t);
    }
    const { rows, more } = rowsOf(await this.stack.model.children(g));
    return `expand ${key} (${rows.length} rows${more ? ', Load more' : ''})`;
  }

  async pickLoaded(r: number): Promise<string | undefined> {
    const keys = [...this.trackers.keys()].sort();
    const withMore: string[] = [];
    for (const k of keys) {
      const g = this.stack.group(k);
      if (g && this.stack.model.listState(k) && rowsOf(await this.stack.model.children(g)).more) withMore.push(k);
    }
    return choose(withMore.length ? withMore : keys, r);
  }

  async step(step: Step): Promise<string> {
    const [r0, r1] = step.r;
    const model = this.stack.model;
    switch (step.kind) {
      case 'expand': {
        const key = choose(GROUPS, r0)!;
        return this.withDuring(step, () => this.expand(key));
      }
      case 'loadMore': {
        const key = (await this.pickLoaded(r0)) ?? choose(GROUPS, r1)!;
        if (!this.trackers.has(key)) return this.withDuring(step, () => this.expand(key));
        return this.withDuring(step, async () => {
          const g = this.stack.group(key)!;
          const before = rowsOf(await model.children(g)).rows.length;
          await model.loadMore(g);
          const { rows, more } = rowsOf(await model.children(g));
          return `Load more ${key} (${before} -> ${rows.length} rows${more ? ', Load more' : ''})`;
        });
      }
      case 'loadToEnd': {
        const key = (await this.pickLoaded(r0)) ?? choose(GROUPS, r1)!;
        return this.withDuring(step, async () => {
          if (!this.trackers.has(key) || !model.listState(key)) await this.expand(key);
          const g = this.stack.group(key);
          if (!g) return `Load more to the end ${key}: no such group`;
          const t = this.trackers.get(key)!;
          const o = await this.oracle(t);
          const perPage = key === 'other' ? 100 : this.pageSize;
          const pages = Math.ceil((key === 'other' ? o.basis.length : o.docs.length) / perPage);
          // A walk the server's list moved under (someone else's change during this step or since the list was
          // last complete) is read once more from page 1, up to 5 pages a click while they bring nothing new.
          const bound = pages + 4 + Math.ceil(pages / 5) + 2;
          let clicks = 0;
          const start = rowsOf(await model.children(g)).rows.length;
          for (;;) {
            const { rows, more, error } = rowsOf(await model.children(g));
            if (error !== undefined || !more) return `Load more to the end ${key} (${start} -> ${rows.length} rows, ${clicks} clicks)`;
            if (clicks >= bound) {
              const asked = this.sb.requests.filter((q) => q.route === 'documents.list' && q.query.oracle !== '1').slice(-4).map((q) => q.query.page);
              throw new Violation(
                'progress',
                `${key}: still Load more after ${clicks} clicks (the server has ${o.docs.length}, ${perPage} a page); ${rows.length} rows shown; the last pages asked: ${asked.join(', ')}`,
              );
            }
            await model.loadMore(g);
            clicks++;
          }
        });
      }
      case 'search': {
        const s = choose(SEARCHES, r0)!;
        model.setSearch(s);
        this.trackers.delete('search');
        return `search ${s.by === 'name' ? 'by name' : 'in text'} "${s.text}"; ${await this.expand('search')}`;
      }
      case 'clearSearch':
        model.setSearch(undefined);
        this.trackers.delete('search');
        return 'clear the search';
      case 'sort': {
        const s = choose(SORTS, r0)!;
        await model.setSort(s);
        this.sort = s;
        return `sort ${s}${await this.reopen()}`;
      }
      case 'refresh':
        return this.withDuring(step, async () => {
          const before = this.stack.index.loaded ? this.stack.indexIds() : undefined;
          const liveBefore = new Set(this.sb.documents.keys());
          await this.stack.refresh();
          if (before) this.checkFolderAfter('Refresh', before, liveBefore);
          return `Refresh${before ? ' (the account folder lists again)' : ''}`;
        }).then(async (line) => `${line}${await this.reopen()}`);
      case 'openFolder':
        if (this.stack.index.loaded) return 'open the account folder (already listed)';
        return this.withDuring(step, async () => {
          await this.stack.index.ensure();
          this.checkFolderAfter('the first listing', undefined, undefined);
          return `open the account folder (${this.stack.indexIds().size} files)`;
        });
      default:
        return this.mutate({ kind: step.kind, r: step.r });
    }
  }

  /** After a sort or a Refresh the view asks again for the groups it shows: those whose lists were dropped start over. */
  async reopen(): Promise<string> {
    const keys = [...this.trackers.keys()].sort().filter((k) => !this.stack.model.listState(k));
    for (const k of keys) {
      this.trackers.delete(k);
      await this.expand(k);
    }
    return keys.length ? `; reopened ${keys.join(', ')}` : '';
  }

  checkFolderAfter(what: string, before: Set<number> | undefined, liveBefore: Set<number> | undefined): void {
    const live = new Set(this.sb.documents.keys());
    const ids = this.stack.indexIds();
    const quiet = this.stepArmed?.fired === undefined;
    if (quiet) {
      const missing = [...live].filter((id) => !ids.has(id));
      const extra = [...ids].filter((id) => !live.has(id));
      if (missing.length || extra.length) {
        throw new Violation('folder', `after ${what} with no change during it, the account folder lacks ${fmtIds(this, missing)} and has ${fmtIds(this, extra)} (server: ${live.size} documents)`);
      }
    } else if (before && liveBefore) {
      const lost = [...before].filter((id) => liveBefore.has(id) && live.has(id) && !ids.has(id));
      if (lost.length) throw new Violation('folder', `after ${what} during a change, the account folder lost ${fmtIds(this, lost)}, live all along`);
    }
  }

  // --- invariants ---

  /** A violation of an invariant left out of the run (CONTENT_DOCS_LISTS_IGNORE) is noted once, and the run goes on. */
  soft(e: unknown, step: number): void {
    if (!(e instanceof Violation) || !IGNORE.has(e.invariant)) throw e;
    // The first of each invariant per group (a message starts with the group's key).
    const where = `${e.invariant} ${/^[\w-]+/.exec(e.detail)?.[0] ?? ''}`;
    if (!this.noted.has(where)) this.noted.set(where, `step ${step}: ${e.message}`);
  }
  readonly noted = new Map<string, string>();

  async check(step: number): Promise<void> {
    for (const v of this.pending.splice(0)) this.soft(v, step);
    for (const key of [...this.trackers.keys()]) {
      try {
        await this.checkGroup(key, this.trackers.get(key)!);
      } catch (e) {
        this.soft(e, step);
      }
    }
    try {
      this.checkFolder();
    } catch (e) {
      this.soft(e, step);
    }
  }

  async checkGroup(key: string, t: Tracker): Promise<void> {
    const model = this.stack.model;
    {
      const g = this.stack.group(key);
      const state = model.listState(key);
      if (!g || !state) {
        this.trackers.delete(key);
        return;
      }
      const { rows, more, error } = rowsOf(await model.children(g));
      if (error !== undefined) throw new Violation('error', `${key} shows an error row: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
      const o = await this.oracle(t);
      const ids = rows.map((r) => r.doc.id);
      const seen = new Set<number>();
      for (const id of ids) {
        if (seen.has(id)) throw new Violation('dup', `${key}: #${id} shows twice (${ids.length} rows)`);
        seen.add(id);
      }
      for (const row of rows) {
        const { id } = row.doc;
        if (this.knownGone.has(id) && !this.sb.documents.has(id)) throw new Violation('gone', `${key}: a row for #${id} "${row.doc.name}", which the client was told is deleted`);
        const k = this.stack.service.get(id) ?? row.doc;
        const belongs =
          key === 'favorites' ? k.favorite : key === 'other' ? !k.template || k.template.id > 52 : key.startsWith('t') ? k.template?.id === Number(key.slice(1)) : true;
        if (!belongs) throw new Violation('knowledge', `${key}: the row #${id} "${k.name}" does not belong there by what the client knows of it (template ${k.template?.id ?? 'none'}, favorite ${k.favorite})`);
        const forms = t.ever.get(id);
        if (!forms?.has(clientSig(row.doc))) {
          const server = o.byId.get(id) ?? this.sb.documents.get(id);
          throw new Violation(
            'listed',
            `${key}: the row #${id} shows ${showDoc(row.doc)}, which the server never listed in ${key} since it was first read${
              forms ? ` (it listed it as ${[...forms].map((f) => f.split('\u0001').slice(0, 3).join('/')).join(' | ')})` : ' (never listed it there at all)'
            }; the server has it now ${server ? `as "${server.name}"` : 'deleted'}`,
          );
        }
      }
      // The server's order, for rows showing the server's current document.
      const byName = t.params.sort_by === 'name';
      let last: { row: DocumentNode; rank: number } | undefined;
      for (const row of rows) {
        const d = o.byId.get(row.doc.id);
        if (!d || (byName && d.name !== row.doc.name)) continue;
        const rank = o.rank.get(d.id)!;
        if (last && rank < last.rank) {
          throw new Violation(
            'order',
            `${key} (${this.sort}): "${last.row.doc.name}" #${last.row.doc.id} is shown before "${row.doc.name}" #${row.doc.id}; the server lists them the other way round.\n      rows:   ${rows.map((r) => `#${r.doc.id}`).join(' ')}\n      server: ${o.docs.map((x) => `#${x.id}`).join(' ')}`,
          );
        }
        last = { row, rank };
      }
      if (!more) await this.checkComplete(key, t, o, rows);
    }
  }

  /** The account folder never calls a live document it gave a path to gone. */
  checkFolder(): void {
    if (this.stack.index.loaded) {
      for (const id of this.stack.indexIds()) this.everIndexed.add(id);
      for (const id of this.everIndexed) {
        if (this.sb.documents.has(id) && this.stack.index.isGone(id)) {
          throw new Violation('deleted', `the account folder says #${id} "${this.sb.documents.get(id)!.name}" is gone while the server has it`);
        }
      }
    }
  }

  async checkComplete(key: string, t: Tracker, o: Oracle, rows: DocumentNode[]): Promise<void> {
    const shown = new Set(rows.map((r) => r.doc.id));
    const quiet = t.unheard.size === 0;
    const monotone = t.unheard.size === 1 && !t.unheard.has('mixed');
    if (!quiet && !monotone) return;
    let missing = (quiet ? o.docs.map((d) => d.id) : [...t.continuous].filter((id) => o.byId.has(id))).filter((id) => !shown.has(id));
    if (missing.length && t.params.sort_by === 'name') {
      // Names the collation holds equal come back in no guaranteed order: across a page boundary, the server's
      // own walk at the group's page size may skip one. Those are not the client's to find.
      const walk = new Set((await this.lists.list(t.params, key === 'other' ? 100 : this.pageSize)).map((d) => d.id));
      missing = missing.filter((id) => walk.has(id));
    }
    if (missing.length) {
      throw new Violation(
        'complete',
        `${key} (${this.sort}) shows no Load more but lacks ${fmtIds(this, missing)} (${rows.length} rows, the server has ${o.docs.length}; someone else's changes since it was first read: ${
          quiet ? 'none' : [...t.unheard].join(', ')
        })`,
      );
    }
    if (!quiet) return;
    const extra = rows.filter((r) => !o.byId.has(r.doc.id));
    if (extra.length) throw new Violation('complete', `${key} shows no Load more and has rows the server does not list there: ${extra.map((r) => `#${r.doc.id} "${r.doc.name}"`).join(', ')}`);
    if (this.unheardCount === t.unheardAtStart) {
      const stale = rows.filter((r) => clientSig(r.doc) !== serverSig(o.byId.get(r.doc.id)!));
      if (stale.length) throw new Violation('complete', `${key}: rows that do not show what the server has, with every change heard: ${stale.map((r) => `#${r.doc.id} "${r.doc.name}" (server: "${o.byId.get(r.doc.id)!.name}")`).join(', ')}`);
    }
  }
}

/** What someone else's change did to an ordered list: nothing, only added, only removed, or moved rows (or both). */
function shift(before: ReadonlyArray<{ id: number; rank: number }>, after: ReadonlyArray<{ id: number; rank: number }>): 'add' | 'remove' | 'mixed' | undefined {
  const b = new Map(before.map((x) => [x.id, x.rank]));
  const a = new Map(after.map((x) => [x.id, x.rank]));
  const added = after.some((x) => !b.has(x.id));
  const removed = before.some((x) => !a.has(x.id));
  const common = before.filter((x) => a.has(x.id)).sort((x, y) => x.rank - y.rank || a.get(x.id)! - a.get(y.id)!);
  let moved = false;
  for (let i = 1; i < common.length; i++) if (a.get(common[i].id)! < a.get(common[i - 1].id)!) moved = true;
  if (moved || (added && removed)) return 'mixed';
  return added ? 'add' : removed ? 'remove' : undefined;
}

function showDoc(d: { name: string; template?: { id: number }; favorite: boolean }): string {
  return `"${d.name}" (template ${d.template?.id ?? 'none'}, favorite ${d.favorite})`;
}

function fmtIds(run: Run, ids: number[]): string {
  if (!ids.length) return 'nothing';
  const shown = ids.slice(0, 8).map((id) => `#${id}${run.sb.documents.has(id) ? ` "${run.sb.documents.get(id)!.name}"` : ''}`);
  return `${ids.length}: ${shown.join(', ')}${ids.length > 8 ? ', …' : ''}`;
}

/** The change made during the step, if it was made. */
async function during(run: Run): Promise<string> {
  const fired = run.stepArmed?.fired;
  return fired ? ` [before page ${run.stepArmed!.nth} was answered: ${await fired.catch(() => 'a change that failed')}]` : '';
}

async function failedLine(run: Run, step: Step): Promise<string> {
  return `${step.kind} (failed)${await during(run)}`;
}

async function runSequence(sb: Sandbox, seed: number, steps: readonly Step[]): Promise<RunResult> {
  const { pageSize } = seedServer(sb, seed);
  const run = new Run(sb, seed, pageSize);
  run.start();
  try {
    for (let k = 0; k < steps.length; k++) {
      const step = steps[k];
      try {
        run.stepArmed = undefined;
        const t0 = Date.now();
        let line: string;
        try {
          line = await run.step(step);
        } catch (e) {
          run.log.push(`${String(step.i).padStart(3)} ${await failedLine(run, step)}`);
          run.soft(e, step.i);
          run.log.pop();
          line = `${step.kind} (stopped: ${(e as Violation).invariant})${await during(run)}`;
        }
        run.log.push(`${String(step.i).padStart(3)} ${line}${VERBOSE ? ` (${Date.now() - t0} ms)` : ''}`);
        await run.check(step.i);
      } catch (e) {
        const violation = e instanceof Violation ? e : new Violation('error', e instanceof Error ? (e.stack ?? e.message) : String(e));
        if (run.log.length <= k) run.log.push(`${String(step.i).padStart(3)} ${await failedLine(run, step)}`);
        return { log: run.log, violation, failedAt: k, requests: sb.requests.length, noted: run.noted };
      }
    }
    return { log: run.log, requests: sb.requests.length, noted: run.noted };
  } finally {
    run.dispose();
  }
}

/** Shortens a failing sequence while it still fails the same invariant: drops runs of steps, halving their length. */
async function shrink(sb: Sandbox, seed: number, steps: Step[], invariant: string): Promise<{ steps: Step[]; result: RunResult }> {
  let best = steps;
  let bestResult = await runSequence(sb, seed, best);
  for (let size = Math.max(1, Math.floor(best.length / 2)); size >= 1; size = Math.floor(size / 2)) {
    for (let from = 0; from < best.length; ) {
      const trial = [...best.slice(0, from), ...best.slice(from + size)];
      const r = trial.length ? await runSequence(sb, seed, trial) : { log: [], requests: 0 };
      if (r.violation?.invariant === invariant) {
        best = trial.slice(0, (r.failedAt ?? trial.length - 1) + 1);
        bestResult = r;
      } else from += size;
    }
    if (size === 1) break;
  }
  return { steps: best, result: bestResult };
}

describe('The lists against the server, model-based (seeded sequences of reads, changes here and elsewhere)', function () {
  this.timeout(600_000);
  let sb: Sandbox;

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
  });
  after(async () => {
    await sb.close();
  });

  it('the request hook runs before the answer: a change made there is in that answer', async () => {
    sb.reseed({ documents: 30, projects: 0 });
    const lists = new ServerLists(sb);
    const first = (await lists.list({ sort_by: 'id', sort: 'desc' }))[0];
    sb.onRequest((r) => {
      if (r.route === 'documents.list') sb.documents.delete(first.id);
    });
    try {
      lists.bump();
      const now = await lists.list({ sort_by: 'id', sort: 'desc' });
      assert.ok(!now.some((d) => d.id === first.id));
      assert.equal(now.length, 29);
    } finally {
      sb.onRequest(undefined);
    }
  });

  for (const seed of SEEDS) {
    it(`seed ${seed}: every loaded group shows what the server lists, in its order, complete once it says so; nothing live is called deleted`, async () => {
      const drawn = drawSteps(seed, STEPS);
      const steps = ONLY.length ? drawn.filter((s) => ONLY.includes(s.i)) : drawn;
      const started = Date.now();
      const result = await runSequence(sb, seed, steps);
      const { documents, pageSize } = seedServer(sb, seed);
      const head = `seed ${seed}: ${documents} documents, ${pageSize} a page, ${result.log.length} of ${steps.length} steps, ${result.requests} requests, ${Date.now() - started} ms`;
      console.log(`      ${head}`);
      if (VERBOSE) for (const l of result.log) console.log(`        ${l}`);
      for (const [, n] of result.noted ?? []) console.log(`        left out: ${n.split('\n')[0]}`);
      if (!result.violation) return;
      let report = `${head}\n  steps:\n${result.log.map((l) => `    ${l}`).join('\n')}\n  ${result.violation.message}`;
      if (SHRINK) {
        const small = await shrink(sb, seed, steps.slice(0, (result.failedAt ?? 0) + 1), result.violation.invariant);
        report += `\n  shrunk to ${small.steps.length} steps (replay: CONTENT_DOCS_LISTS_SEED=${seed} CONTENT_DOCS_LISTS_ONLY=${small.steps.map((s) => s.i).join(',')}):\n${small.result.log
          .map((l) => `    ${l}`)
          .join('\n')}\n  ${small.result.violation?.message ?? ''}`;
      }
      assert.fail(report);
    });
  }
});
