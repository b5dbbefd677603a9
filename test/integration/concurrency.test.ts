/**
 * Reliability: concurrency (issue 7). Overlapping user actions, done as a user does them (commands,
 * editors, the Documents view), inside the real extension host against the sandbox over real HTTP.
 * The sandbox adds latency to every answer so that the overlaps are real: the second action starts
 * while the first one's request is provably on the wire (seen by the sandbox, not answered yet).
 *
 *   1. two saves of one document in quick succession (the second while the first is writing, or back to back);
 *   2. a save while a rename is in flight;
 *   3. rapid Add to / Remove from Favorites;
 *   4. a Refresh while a "Load more…" is in flight;
 *   5. a sign-out while a save is in flight, then signing in again.
 *
 * For each case: the server's final state (sandbox.documents) is what the user asked for last, the UI
 * (editor, tree rows, Favorites group, counts) agrees with the server, and no text is lost. The suite
 * prints `concurrency: N cases tried, M held` and asserts that all held.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { startSandbox, type RequestRecord, type Sandbox, type SandboxDocument } from '../sandbox/server';
import {
  closeAll,
  configure,
  DocumentPool,
  FsErrors,
  MessageCapture,
  openDocument,
  RecordingPrompter,
  RejectionWatch,
  replaceAll,
  SaveErrors,
  services,
  sleep,
  Tally,
  until,
  useSandbox,
  type AnyNode,
} from './reliabilityKit';

/** Added to every answer of the sandbox while a case runs: wide enough for a second action to start. */
const LATENCY_MS = 250;
/** The page size the suite runs with (groups of more than one page, so Load more exists). */
const PAGE_SIZE = 10;
/** The template group the Load more cases page through (68 documents in the default seed: 7 pages). */
const PAGED_TEMPLATE_ID = 4;
/** Big groups: documents for the other cases are taken elsewhere, so their rows are on the first page. */
const BIG_TEMPLATES = new Set([1, 4, 9]);

/** The cases of this suite (the final count checks that every one ran). */
const CASES = 12;

let sandbox: Sandbox;
let s: TestServices;
let pool: DocumentPool;
const prompter = new RecordingPrompter();
const messages = new MessageCapture();
const watch = new RejectionWatch();
let saveErrors: SaveErrors;
const tally = new Tally('concurrency');

// --- helpers ---------------------------------------------------------------------------------------------

/** A fresh seed document with a plain name whose template group is small (its row is on the first page). */
function takeDocument(predicate: (d: SandboxDocument) => boolean = () => true): SandboxDocument {
  return pool.take((d) => d.templateId !== null && !BIG_TEMPLATES.has(d.templateId) && d.name === d.name.trim() && predicate(d));
}

function docPath(id: number): string {
  return `/api/v1/documents/${id}`;
}

/** A request the sandbox has received (since index `from`) and not answered yet. */
async function onWire(what: string, pred: (r: RequestRecord) => boolean, from: number, timeoutMs = 10_000): Promise<RequestRecord> {
  return until(`${what} to be on the wire`, () => sandbox.requests.slice(from).find((r) => r.status === 0 && pred(r)), timeoutMs).catch((e: Error) => {
    const seen = sandbox.requests.slice(from).map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query).toString()} -> ${r.status}`);
    throw new Error(`${e.message}; the sandbox saw: ${JSON.stringify(seen)}`);
  });
}

/** Waits until every request the sandbox has received since `from` was answered (nothing still in flight). */
async function quiet(from: number): Promise<void> {
  await until('every request to be answered', () => sandbox.requests.slice(from).every((r) => r.status !== 0), 15_000);
}

function patchesOf(id: number, from: number): RequestRecord[] {
  return sandbox.requests.slice(from).filter((r) => r.method === 'PATCH' && r.path === docPath(id));
}

function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

function iconOf(item: vscode.TreeItem): string | undefined {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
}

function idOf(node: AnyNode): number {
  return (node.doc as { id: number }).id;
}

async function childrenOf(group: AnyNode): Promise<AnyNode[]> {
  return (await s.documentsTree.getChildren(group as never)) as unknown as AnyNode[];
}

/**
 * Every row of a group as the view shows it, page after page through its "Load more…" row (the
 * command the row runs). An error row fails: a group that ends in an error is not consistent.
 */
async function loadAllRows(group: AnyNode): Promise<AnyNode[]> {
  for (let i = 0; i < 100; i++) {
    const children = await childrenOf(group);
    const error = children.find((n) => n.kind === 'error');
    if (error) throw new Error(`the group shows an error row: ${labelOf(s.documentsTree.getTreeItem(error as never))}`);
    const more = children.find((n) => n.kind === 'loadMore');
    if (!more) return children.filter((n) => n.kind === 'document');
    await vscode.commands.executeCommand(CMD.documentsLoadMore, more);
  }
  throw new Error('the group never ended (100 pages)');
}

/** The row of a document in its template group (the argument the row's context menu passes). */
async function rowOf(id: number, templateId: number): Promise<AnyNode> {
  const group = s.documentsTree.templateGroup(templateId);
  assert.ok(group, `the group of template ${templateId} is shown`);
  const row = (await loadAllRows(group as never)).find((n) => idOf(n) === id);
  assert.ok(row, `document ${id} is listed in its group`);
  return row;
}

/** Server ids matching `pred`, in the view's default order (newest first: id descending). */
function serverIds(pred: (d: SandboxDocument) => boolean): number[] {
  return [...sandbox.documents.values()].filter(pred).map((d) => d.id).sort((a, b) => b - a);
}

function assertNoDuplicates(ids: number[], what: string): void {
  const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
  assert.deepStrictEqual(dup, [], `${what}: no row is listed twice`);
}

function errorsSince(t: number): string[] {
  return messages.since(t).filter((m) => m.level === 'error').map((m) => m.message);
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:.TZ]/g, '').slice(8, 17);
}

/** Runs one case: counted in the tally; no unhandled rejection from the extension while it ran. */
async function concurrencyCase(name: string, body: () => Promise<void>): Promise<void> {
  await tally.run(name, async () => {
    const rejections = watch.ours.length;
    await body();
    await sleep(50);
    assert.deepStrictEqual(watch.ours.slice(rejections), [], 'no unhandled rejection');
  });
}

async function signedInAgain(): Promise<void> {
  if ((await s.credentials.getKey()) !== sandbox.key) await s.credentials.setKey(sandbox.key);
}

// --- the suite -----------------------------------------------------------------------------------------

describe('reliability: concurrency', function () {
  this.timeout(60_000);
  let savedPrompter: TestServices['prompter']['current'] | undefined;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    s = await services();
    pool = new DocumentPool(sandbox);
    await useSandbox(s, sandbox);
    await configure('documents.pageSize', PAGE_SIZE);
    await configure('documents.defaultSort', undefined);
    await s.documentsTree.model.setSort('newest');
    s.documentsTree.model.setSearch(undefined);
    await s.documentsTree.model.setFavoritesOnly(false);
    savedPrompter = s.prompter.current;
    s.prompter.current = prompter;
    messages.install();
    watch.install();
    saveErrors = new SaveErrors(s);
  });

  after(async () => {
    sandbox?.setLatency(0);
    saveErrors?.dispose();
    messages.dispose();
    watch.dispose();
    if (savedPrompter) s.prompter.current = savedPrompter;
    try {
      await closeAll();
    } finally {
      // The suites after this one get their settings and sign-in back even if an editor would not close.
      await configure('documents.pageSize', undefined);
      if (sandbox) await signedInAgain();
      await sandbox?.close();
    }
  });

  beforeEach(async () => {
    sandbox.setLatency(0);
    await signedInAgain();
    await vscode.commands.executeCommand(CMD.documentsRefresh);
    sandbox.setLatency(LATENCY_MS);
  });

  afterEach(async () => {
    sandbox.setLatency(0);
    sandbox.clearFaults();
    prompter.reset();
    messages.dismissAll();
    try {
      await closeAll();
    } finally {
      await signedInAgain(); // the next case starts signed in, whatever this one left
    }
  });

  // --- 1. two saves in quick succession ------------------------------------------------------------------

  /**
   * Edit, save, edit, save (the first save not awaited); `overlap` waits for the moment of the second edit.
   * `secondWrites`: the second save comes while the first one is writing, so it writes itself and must
   * report success. Otherwise VS Code may fold both into one write (it saves the current text), and the
   * save() it folded may answer false without any write: only the outcome counts then.
   */
  async function twoSaves(d: SandboxDocument, first: string, second: string, secondWrites: boolean, overlap: (from: number) => Promise<void>): Promise<void> {
    const editor = await openDocument(d.id);
    const uri = editor.document.uri;
    const errors = saveErrors.errors.length;
    const t = Date.now();
    await replaceAll(editor, first);
    const from = sandbox.requests.length;
    const saving1 = editor.document.save();
    await overlap(from);
    await replaceAll(editor, second);
    const saving2 = editor.document.save();
    const [saved1, saved2] = await Promise.all([saving1, saving2]);
    await quiet(from);
    const state = () =>
      JSON.stringify({
        saved1,
        saved2,
        dirty: editor.document.isDirty,
        server: sandbox.documents.get(d.id)!.result,
        requests: sandbox.requests.slice(from).map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body ?? {})} -> ${r.status}`),
      });

    assert.deepStrictEqual(saveErrors.errors.slice(errors), [], `no save failed (no false conflict): ${state()}`);
    if (secondWrites) assert.strictEqual(saved2, true, `the second save succeeded: ${state()}`);
    else assert.ok(saved1 || saved2, `a save reported success: ${state()}`);
    assert.strictEqual(sandbox.documents.get(d.id)!.result, second.trim(), 'the server ends with the last text');
    const patches = patchesOf(d.id, from);
    assert.ok(patches.length >= 1, 'the text was sent');
    assert.strictEqual(patches[patches.length - 1].body?.result?.trim(), second.trim(), 'the last PATCH carried the last text');
    assert.ok(patches.every((p) => p.status === 200), `every PATCH was accepted: ${patches.map((p) => p.status).join(', ')}`);
    await until('the editor to be saved (not dirty)', () => !editor.document.isDirty, 5_000);
    assert.strictEqual(editor.document.getText(), second, 'the editor shows the last text');
    const back = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    assert.strictEqual(back, second.trim(), 'the document reads back as the last text');
    assert.deepStrictEqual(errorsSince(t), [], 'no error was shown');
    // Saving once more changes nothing and raises no conflict: the editor and the server agree.
    assert.strictEqual(await editor.document.save(), true, 'a further save works (no conflict left behind)');
    assert.strictEqual(sandbox.documents.get(d.id)!.result, second.trim());
  }

  it('1a. edit, save, edit, save while the first save is on the wire: the server ends with the last text, nothing dirty, no conflict', async () => {
    await concurrencyCase('two saves (second while the first PATCH is on the wire)', async () => {
      const d = takeDocument();
      const n = stamp();
      await twoSaves(
        d,
        `First save ${n}.\n\nA short paragraph.`,
        `Second save ${n}.\n\nA longer paragraph, typed while the first save was still on its way to the server.\n`,
        true,
        async (from) => {
          await onWire('the first save', (r) => r.method === 'PATCH' && r.path === docPath(d.id), from);
        },
      );
    });
  });

  it('1b. the same, with two texts of the same length: the server ends with the last text, nothing dirty, no conflict', async () => {
    await concurrencyCase('two saves (second while the first PATCH is on the wire, same length)', async () => {
      const d = takeDocument();
      const n = stamp();
      const first = `Same length ${n}: version A of the text.`;
      const second = `Same length ${n}: version B of the text.`;
      assert.strictEqual(first.length, second.length);
      await twoSaves(d, first, second, true, async (from) => {
        await onWire('the first save', (r) => r.method === 'PATCH' && r.path === docPath(d.id), from);
      });
    });
  });

  it('1c. edit, save, edit, save back to back: the server ends with the last text, nothing dirty, no conflict', async () => {
    await concurrencyCase('two saves back to back', async () => {
      const d = takeDocument();
      const n = stamp();
      await twoSaves(d, `Back to back ${n}: the first text.`, `Back to back ${n}: the second, longer text.`, false, async () => undefined);
    });
  });

  // --- 2. a save while a rename is in flight --------------------------------------------------------------

  /**
   * files.autoSave afterDelay (code-server's default) with a short delay: a request of the auto-save of the first edit
   * is on the wire when the user edits again and presses Ctrl+S (`workbench.action.files.save`, the key's command), or Ctrl+S
   * comes right after the edit while the auto-save's timer runs. VS Code then joins or folds the saves (a save() it
   * folded may answer false without a write): what counts is that the last text typed reaches the server.
   */
  async function ctrlSDuringAutoSave(d: SandboxDocument, first: string, second: string, editAgain: boolean): Promise<void> {
    const files = vscode.workspace.getConfiguration('files');
    const before = { autoSave: files.inspect<string>('autoSave')?.globalValue, delay: files.inspect<number>('autoSaveDelay')?.globalValue };
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await files.update('autoSaveDelay', 200, vscode.ConfigurationTarget.Global);
    try {
      const editor = await openDocument(d.id);
      const uri = editor.document.uri;
      const errors = saveErrors.errors.length;
      const t = Date.now();
      const from = sandbox.requests.length;
      await replaceAll(editor, first);
      if (editAgain) {
        // The auto-save of the first edit is under way: one of its requests (VS Code's stat, the pre-write read or the
        // PATCH) is at the server, not answered yet.
        await onWire('the auto-save', (r) => r.path === docPath(d.id), from, 30_000);
        await replaceAll(editor, second);
      }
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.files.save');
      const last = editAgain ? second : first;
      await until('the last text at the server', () => sandbox.documents.get(d.id)!.result === last.trim(), 10_000).catch(() => undefined);
      await quiet(from);
      await until('the editor to be saved (not dirty)', () => !editor.document.isDirty, 5_000);
      const patches = patchesOf(d.id, from);
      const state = JSON.stringify({
        server: sandbox.documents.get(d.id)!.result,
        requests: sandbox.requests.slice(from).map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body ?? {}).slice(0, 60)} -> ${r.status}`),
      });
      assert.strictEqual(sandbox.documents.get(d.id)!.result, last.trim(), `the server ends with the last text typed: ${state}`);
      assert.strictEqual(patches[patches.length - 1]?.body?.result?.trim(), last.trim(), `the last PATCH carried the last text: ${state}`);
      assert.ok(patches.every((p) => p.status === 200), `every PATCH was accepted: ${state}`);
      assert.deepStrictEqual(saveErrors.errors.slice(errors), [], `no save failed: ${state}`);
      assert.strictEqual(editor.document.getText(), last, 'the editor shows the last text');
      const back = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      assert.strictEqual(back, last.trim(), 'the document reads back as the last text');
      assert.deepStrictEqual(errorsSince(t), [], 'no error was shown');
    } finally {
      await files.update('autoSave', before.autoSave, vscode.ConfigurationTarget.Global);
      await files.update('autoSaveDelay', before.delay, vscode.ConfigurationTarget.Global);
    }
  }

  it('1d. Ctrl+S after a second edit while the auto-save of the first is on the wire: the last text reaches the server', async () => {
    await concurrencyCase('Ctrl+S while an auto-save is on the wire', async () => {
      const n = stamp();
      await ctrlSDuringAutoSave(takeDocument(), `Auto-saved ${n}.\n\nThe first edit.`, `Saved with Ctrl+S ${n}.\n\nTyped while the auto-save was on its way.\n`, true);
    });
  });

  it('1e. Ctrl+S right after an edit, while the auto-save timer runs: the text reaches the server', async () => {
    await concurrencyCase('Ctrl+S before the auto-save delay ran out', async () => {
      await ctrlSDuringAutoSave(takeDocument(), `Saved with Ctrl+S ${stamp()}.\n\nBefore the auto-save delay ran out.`, '', false);
    });
  });

  it('2. a save while a rename is in flight: the server has the new name and the new text; the editor and the row agree', async () => {
    await concurrencyCase('save during rename', async () => {
      const d = takeDocument();
      const row = await rowOf(d.id, d.templateId!);
      const editor = await openDocument(d.id);
      const newName = `Renamed during a save ${stamp()}`;
      const text = `Text saved while "${d.name}" was being renamed.\n\nIt must survive the rename.`;
      const errors = saveErrors.errors.length;
      const t = Date.now();
      await replaceAll(editor, text);

      prompter.answer = (q) => (q.kind === 'input' && q.title === 'Rename Document' ? newName : undefined);
      const from = sandbox.requests.length;
      const renaming = vscode.commands.executeCommand(CMD.documentRename, row);
      const renamePatch = await onWire('the rename', (r) => r.method === 'PATCH' && r.path === docPath(d.id) && r.body?.name === newName, from);
      const saving = editor.document.save();
      assert.strictEqual(renamePatch.status, 0, 'the save started while the rename was still unanswered');
      const [saved] = await Promise.all([saving, renaming]);
      await quiet(from);

      assert.deepStrictEqual(prompter.validationProblems, []);
      assert.deepStrictEqual(saveErrors.errors.slice(errors), [], 'the save did not fail');
      assert.strictEqual(saved, true, 'the save succeeded');
      const server = sandbox.documents.get(d.id)!;
      assert.strictEqual(server.name, newName, 'the server has the new name');
      assert.strictEqual(server.result, text.trim(), 'the server has the new text');
      await until('the editor to be saved (not dirty)', () => !editor.document.isDirty, 5_000);
      assert.strictEqual(editor.document.getText(), text, 'the editor shows the text');
      const back = Buffer.from(await vscode.workspace.fs.readFile(editor.document.uri)).toString('utf8');
      assert.strictEqual(back, text.trim(), 'the editor\'s file reads back as the text');
      assert.strictEqual(s.documents.get(d.id)?.name, newName, 'the extension knows the new name');
      assert.strictEqual(labelOf(s.documentsTree.getTreeItem(row as never)), newName, 'the row shown shows the new name');
      const again = await rowOf(d.id, d.templateId!);
      assert.strictEqual(labelOf(s.documentsTree.getTreeItem(again as never)), newName, 'the group lists it under the new name');
      assert.deepStrictEqual(errorsSince(t), [], 'no error was shown');
    });
  });

  // --- 3. rapid favorite toggles -----------------------------------------------------------------------------

  /** Runs Add to / Remove from Favorites on the row, `sequence` times, each started before the previous ended. */
  async function rapidFavorites(d: SandboxDocument, sequence: boolean[]): Promise<void> {
    assert.strictEqual(sandbox.documents.get(d.id)!.favorite, !sequence[0], 'the document starts in the other state');
    const row = await rowOf(d.id, d.templateId!);
    const fav = s.documentsTree.model.favoritesGroup as unknown as AnyNode;
    await childrenOf(fav); // the Favorites group is expanded (its first page is shown)
    const t = Date.now();
    const from = sandbox.requests.length;
    const runs = sequence.map((on) => vscode.commands.executeCommand(on ? CMD.documentFavorite : CMD.documentUnfavorite, row));
    await Promise.all(runs);
    await quiet(from);
    // Let the tree's batched change events go out.
    await sleep(20);

    const wanted = sequence[sequence.length - 1];
    const server = sandbox.documents.get(d.id)!.favorite;
    const sent = patchesOf(d.id, from).map((r) => r.body?.favorite);
    assert.strictEqual(server, wanted, `the server ends in the last requested state (${wanted ? 'favorite' : 'not favorite'}); requested ${JSON.stringify(sequence)}, sent ${JSON.stringify(sent)}`);
    assert.strictEqual(s.documents.get(d.id)?.favorite, server, 'the extension knows the server\'s state');
    const item = s.documentsTree.getTreeItem(row as never);
    assert.strictEqual(item.contextValue, server ? 'document:favorite' : 'document', 'the row\'s menu (contextValue) agrees with the server');
    assert.strictEqual(iconOf(item) === 'star-full', server, 'the row\'s star agrees with the server');
    const again = await rowOf(d.id, d.templateId!);
    assert.strictEqual(s.documentsTree.getTreeItem(again as never).contextValue, server ? 'document:favorite' : 'document', 'the group lists it in that state');
    const favIds = (await loadAllRows(fav)).map(idOf);
    assertNoDuplicates(favIds, 'Favorites');
    assert.strictEqual(favIds.includes(d.id), server, 'the Favorites group agrees with the server');
    assert.deepStrictEqual(favIds, serverIds((x) => x.favorite), 'the Favorites group lists exactly the server\'s favorites, in order');
    const count = s.documentsTree.getTreeItem(fav as never).description;
    assert.strictEqual(count, String(favIds.length), 'the Favorites count agrees with its rows');
    assert.deepStrictEqual(errorsSince(t), [], 'no error was shown');
  }

  it('3a. Add, Remove, Add, Remove from Favorites fast: the server ends not favorite; the star, the menu and the Favorites group agree', async () => {
    await concurrencyCase('rapid favorite toggles ending on Remove', async () => {
      await rapidFavorites(takeDocument((x) => !x.favorite), [true, false, true, false]);
    });
  });

  it('3b. Remove, Add, Remove, Add fast on a favorite: the server ends favorite; the star, the menu and the Favorites group agree', async () => {
    await concurrencyCase('rapid favorite toggles ending on Add', async () => {
      await rapidFavorites(takeDocument((x) => x.favorite), [false, true, false, true]);
    });
  });

  // --- 4. Refresh during Load more ---------------------------------------------------------------------------

  /** The group ends as the server lists it: every document once, in order, no Load more or error row left, the right count. */
  async function assertGroupMatchesServer(group: AnyNode, templateId: number, t: number): Promise<void> {
    const ids = (await loadAllRows(group)).map(idOf);
    assertNoDuplicates(ids, `template ${templateId}`);
    const expected = serverIds((x) => x.templateId === templateId);
    const missing = expected.filter((id) => !ids.includes(id));
    const extra = ids.filter((id) => !expected.includes(id));
    assert.deepStrictEqual({ missing, extra }, { missing: [], extra: [] }, 'no row missing, none extra');
    assert.deepStrictEqual(ids, expected, 'the rows are the server\'s, in order');
    const last = await childrenOf(group);
    assert.ok(!last.some((n) => n.kind === 'loadMore' || n.kind === 'error'), `no "Load more" or error row is left: ${last.filter((n) => n.kind !== 'document').map((n) => n.kind).join(', ')}`);
    assert.strictEqual(s.documentsTree.getTreeItem(group as never).description, String(expected.length), 'the group\'s count is the server\'s');
    assert.deepStrictEqual(errorsSince(t), [], 'no error was shown (no stale "Load more" failure)');
  }

  it('4a. Refresh while a "Load more…" is in flight: the group ends as the server lists it (no duplicate, no missing row, no stale error)', async () => {
    await concurrencyCase('refresh during load more', async () => {
      const group = s.documentsTree.templateGroup(PAGED_TEMPLATE_ID) as unknown as AnyNode;
      assert.ok(group, 'the group is shown');
      const first = await childrenOf(group);
      assert.strictEqual(first.filter((n) => n.kind === 'document').length, PAGE_SIZE, 'the first page is shown');
      const more = first.find((n) => n.kind === 'loadMore');
      assert.ok(more, 'a "Load more…" row is shown');
      const t = Date.now();
      const from = sandbox.requests.length;
      const loading = vscode.commands.executeCommand(CMD.documentsLoadMore, more);
      await onWire(
        'the second page',
        (r) => r.path === '/api/v1/documents' && r.query.template_id === String(PAGED_TEMPLATE_ID) && r.query.page === '2',
        from,
      );
      await vscode.commands.executeCommand(CMD.documentsRefresh);
      await loading;
      await assertGroupMatchesServer(group, PAGED_TEMPLATE_ID, t);
    });
  });

  it('4b. "Load more…" clicked on the row still shown after a Refresh, while the group reloads: the group ends as the server lists it', async () => {
    await concurrencyCase('load more on a stale row during refresh', async () => {
      const group = s.documentsTree.templateGroup(PAGED_TEMPLATE_ID) as unknown as AnyNode;
      await childrenOf(group);
      await vscode.commands.executeCommand(CMD.documentsLoadMore, (await childrenOf(group)).find((n) => n.kind === 'loadMore'));
      const stale = (await childrenOf(group)).find((n) => n.kind === 'loadMore');
      assert.ok(stale, 'a "Load more…" row is shown after two pages');
      const t = Date.now();
      const from = sandbox.requests.length;
      await vscode.commands.executeCommand(CMD.documentsRefresh);
      // The view reads the group again (the refresh's change event) while the user clicks the old row.
      const viewReading = childrenOf(group);
      await onWire('the group reloading', (r) => r.path === '/api/v1/documents' && r.query.template_id === String(PAGED_TEMPLATE_ID), from);
      const clicked = vscode.commands.executeCommand(CMD.documentsLoadMore, stale);
      await Promise.all([viewReading, clicked]);
      await assertGroupMatchesServer(group, PAGED_TEMPLATE_ID, t);
    });
  });

  // --- 5. sign-out during a save --------------------------------------------------------------------------

  /**
   * Edits, saves, and signs out when `phase` of the save is on the wire. The save lands or fails with the
   * editor dirty and the text intact; after signing in again (Set API Key…, answered by the prompter) the
   * text reaches the server, and the document and its group load again.
   */
  async function signOutDuringSave(phase: 'GET' | 'PATCH'): Promise<void> {
    const d = takeDocument();
    const before = sandbox.documents.get(d.id)!.result;
    const editor = await openDocument(d.id);
    // For the read phase, the editor has been open a while: a save then checks the server before writing
    // (the read made to open a document serves the next stat for 2 s). Setup only, never an assertion;
    // it comes before the edit, since auto-save (afterDelay, VS Code for the Web's default) saves an edit left alone.
    if (phase === 'GET') await sleep(2_200);
    const text = `Unsaved work of ${stamp()}, saved while signing out (${phase}).\n\nNever lost.`;
    await replaceAll(editor, text);
    const errors = saveErrors.errors.length;
    // VS Code reads the file's metadata again right after the write (a stat): signed out by then, that stat is
    // refused, and VS Code reports the save as failed with the stat's words although the PATCH went through.
    const statErrors = new FsErrors(s, ['stat']);
    const from = sandbox.requests.length;
    let saved: boolean;
    try {
      const saving = editor.document.save();
      const onTheWire = await onWire(`the save's ${phase}`, (r) => r.method === phase && r.path === docPath(d.id), from);
      prompter.confirms = [true]; // a confirmation of the sign-out, if the product asks one
      await vscode.commands.executeCommand(CMD.signOut);
      assert.strictEqual(await s.credentials.hasKey(), false, 'signed out');
      saved = await saving;
      await quiet(from);
      assert.ok(onTheWire.status !== 0, 'the request answered');
    } finally {
      statErrors.dispose();
    }

    const server = sandbox.documents.get(d.id)!.result;
    if (saved) {
      assert.strictEqual(server, text.trim(), 'the save reported success: the text is on the server');
    } else {
      assert.ok(server === before || server === text.trim(), 'the server has the old text or the new one, nothing else');
      assert.strictEqual(editor.document.isDirty, true, 'a failed save leaves the editor dirty');
      const uri = editor.document.uri.toString();
      const err = saveErrors.errors.slice(errors).pop() ?? statErrors.errors.filter((e) => e.uri === uri).pop();
      assert.ok(err, `the failed save says why (stat errors: ${JSON.stringify(statErrors.errors)})`);
      // The save's own words, or the account's: signed out, the document belongs to an account that is not signed in.
      assert.match(err.message, /Couldn't save|belongs to an account that is not signed in/, `the failure says why: ${err.message}`);
    }
    assert.strictEqual(editor.document.getText(), text, 'the text is intact in the editor');

    // Sign in again, as the user would.
    prompter.answer = (q) => (q.kind === 'input' && /API Key/i.test(q.title) ? sandbox.key : undefined);
    await vscode.commands.executeCommand(CMD.signIn);
    assert.deepStrictEqual(prompter.validationProblems, []);
    assert.strictEqual(await s.credentials.getKey(), sandbox.key, 'signed in again');

    if (editor.document.isDirty) {
      const shown = await vscode.window.showTextDocument(editor.document);
      assert.strictEqual(await shown.document.save(), true, 'after signing in again the save works');
    }
    assert.strictEqual(sandbox.documents.get(d.id)!.result, text.trim(), 'the text reached the server: nothing lost');
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(editor.document.getText(), text);

    // The product works again for this account: the document reads back, its group lists it.
    const back = Buffer.from(await vscode.workspace.fs.readFile(editor.document.uri)).toString('utf8');
    assert.strictEqual(back, text.trim(), 'the document reads back as the text');
    const row = await rowOf(d.id, d.templateId!);
    assert.strictEqual(labelOf(s.documentsTree.getTreeItem(row as never)), d.name, 'its group lists it after signing in again');
  }

  it('5a. sign-out while the save\'s PATCH is on the wire: the text is never lost, and signing in again works', async () => {
    await concurrencyCase('sign-out during a save (PATCH in flight)', async () => {
      await signOutDuringSave('PATCH');
    });
  });

  it('5b. sign-out while the save\'s pre-write read is on the wire (before the PATCH): the text is never lost, and signing in again works', async () => {
    await concurrencyCase('sign-out during a save (before the PATCH)', async () => {
      await signOutDuringSave('GET');
    });
  });

  it('prints the concurrency count (every case held)', () => {
    tally.report();
    console.log(`concurrency: ${tally.tried} cases tried, ${tally.held} held`);
    assert.strictEqual(tally.tried, CASES, 'every case ran (run the whole suite, not a part of it)');
    assert.strictEqual(tally.held, tally.tried, `${tally.tried - tally.held} case(s) did not hold`);
    assert.deepStrictEqual(watch.ours, [], 'no unhandled rejection in the whole run');
  });
});
