/**
 * A model-based test of the `content-docs:` file system, inside the real VS Code against two sandboxes.
 *
 * Seeded random sequences of what a user and "someone else" (the website, another device) do: open a
 * document through either URI form (`content-docs://<id>.<account>/…` and the account folder
 * `content-docs://<account>/<Template>/<Name>.md`), type without saving, save, overwrite (a plain write of the
 * file, as VS Code's "Overwrite" does), rename (through the file system and through the extension's command),
 * delete (the user through the view or the file system, and someone else on the sandbox), create (through the
 * extension, and someone else), favorite, someone else changing a document's text or name, refresh, close, and
 * switch account — also while a command's question is open (another window or Settings Sync changing the settings'
 * server between the question and its answer: Rename…, Delete… from the view and through the file system, New
 * Document…'s four questions), after which the command sends nothing to either server. A small model follows what each server must hold (CONTRACT.md: the server trims what it
 * stores, keeps the last write, has no version check), which document each open editor was opened on, and in
 * which account.
 *
 * Two accounts: sandboxes A and B hold the same ids with the same names (their texts differ), and stay so where
 * someone else creates or renames documents (it happens on both; a document created through the extension is
 * created with its id and name on the other server too). "Switch account" points the extension at the other
 * sandbox; the editors opened in the account left stay open, as tabs restored after a restart with other
 * settings would. After every step it checks:
 *
 *   1. a write only changes the document the editor (or URI) was showing, on the editor's own server: every
 *      other document on either server is what the model says. A write (save, overwrite, rename or delete
 *      through the file system) on an editor of the account not used now changes nothing on either server,
 *      sends no write request, is refused with the account message, and leaves the editor's text as it was
 *      (dirty stays dirty); a URI of a label no account has (`zzzzzzzz`) is refused the same way;
 *   2. no accepted edit is lost: a save VS Code reports as done is the server's text (trimmed); a save that
 *      failed leaves the editor dirty with its text; a dirty editor is never changed behind the user's back;
 *      a save the server had no reason to refuse goes through, one that conflicts is refused;
 *   3. after a refresh (and after a save, for the other editors of the same document) every clean editor
 *      shows its own document's current text, or its file is reported gone; an editor of the other account is
 *      refused (never rebound to the same id here, never showing its text); switching back makes the same
 *      account (the same label) and its editors show their documents again;
 *   4. the Documents view and the account folder list the same document ids per template (and, after a
 *      refresh, exactly the server's, under the documented file names).
 *
 * Each seed prints how many writes on the other account's editors it tried and how many were refused.
 * Replay one seed: CONTENT_DOCS_MODEL_SEED=<n> (CONTENT_DOCS_MODEL_STEPS=<n> to change the steps per seed).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import type { DocNode, DocumentNode } from '../../src/model/nodes';
import type { Prompter } from '../../src/ui/prompter';
import { documentFileName, extensionOfFileName } from '../../src/files/names';
import { mulberry32 } from '../sandbox/seed';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { accountNow, FsErrors, hostNow, MessageCapture, newDocumentAnswers, RecordingPrompter, SaveErrors, SCHEME, services, sleep, useSandbox } from './reliabilityKit';

// --- Settings of the run ---------------------------------------------------------------------------------

const DEFAULT_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
/** CONTENT_DOCS_MODEL_SEED: one seed to replay, or several (`3,7,12`). */
const REPLAY_SEEDS = (process.env.CONTENT_DOCS_MODEL_SEED ?? '')
  .split(',')
  .map((x) => Number(x.trim()))
  .filter((x) => x.toString() !== 'NaN' && Number.isSafeInteger(x) && x > 0 && x < 1_000);
const SEEDS = REPLAY_SEEDS.length ? REPLAY_SEEDS : DEFAULT_SEEDS;
const STEPS = Number(process.env.CONTENT_DOCS_MODEL_STEPS) > 0 ? Number(process.env.CONTENT_DOCS_MODEL_STEPS) : 50;
const MAX_EDITORS = 4;
/** What the file system says when a URI belongs to another account than the one used now (src/files/targets.ts). */
const OTHER_ACCOUNT = /belongs to an account that is not signed in here \(signed out, removed, or its API key or server changed since\): nothing was sent/;
/** A label no account has: a tab restored from a setup that no longer exists. */
const MADE_UP_LABEL = 'zzzzzzzz';
/** The two accounts (sandboxes) of a seed, by their index. */
const ACCOUNTS = ['A', 'B'];

/** Two templates (folders) the documents live in. */
const TEMPLATES: ReadonlyArray<{ id: number; folder: string }> = [
  { id: 1, folder: 'Freestyle' },
  { id: 33, folder: 'Tweet' },
];

// --- A seeded PRNG ------------------------------------------------------------------------------------------

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed * 7919 + 17);
  }
  float(): number {
    return this.next();
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[this.int(xs.length)];
  }
  weighted<T extends string>(weights: ReadonlyArray<[T, number]>): T {
    const total = weights.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [k, w] of weights) {
      if ((r -= w) < 0) return k;
    }
    return weights[weights.length - 1][0];
  }
}

// --- The model ------------------------------------------------------------------------------------------------

interface ModelDoc {
  name: string;
  templateId: number;
  result: string | null;
  favorite: boolean;
}

interface ModelEditor {
  /** The URI the tab shows (its key). */
  uri: vscode.Uri;
  form: 'single' | 'account';
  /** The document the editor was opened on. */
  id: number;
  /** Whether the model has unsaved text in it, and which. */
  dirty: boolean;
  text: string;
  /** The server text the editor's copy is based on (what VS Code will compare against before a save). */
  base: string;
  /** The buffer right after the last successful save, and the text the server then stored. */
  savedBuffer?: string;
  savedServer?: string;
  label: string;
  /** The account (index into ACCOUNTS) the editor was opened in. */
  acct: number;
}

/** What one account's server must hold. */
interface AccountModel {
  docs: Map<number, ModelDoc>;
}

/** A seed's writes on editors of the account not used now (and on a made-up label's URIs), and how many were refused. */
interface CrossCounts {
  switches: number;
  tried: number;
  refused: number;
  byOp: Record<string, number>;
}

class Violation extends Error {
  constructor(
    readonly invariant: string,
    message: string,
  ) {
    super(`[${invariant}] ${message}`);
  }
}

/** VS Code's file name of a document name (the rule the account folder documents: see src/files/uris.ts safeSegment). */
function segment(name: string, fallback = 'Untitled'): string {
  const cleaned = name
    .replace(/\//g, '\u2215')
    .replace(/\\/g, '\u2216')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .replace(/^\./, '\u2024');
  return cleaned || fallback;
}

function fileOf(name: string): string {
  return `${segment(name)}.md`;
}

function accountUri(folder: string, file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, authority: accountNow(), path: `/${folder}/${file}` });
}

function folderOf(templateId: number): string {
  return TEMPLATES.find((t) => t.id === templateId)!.folder;
}

function short(s: string | null | undefined, n = 40): string {
  if (s === null || s === undefined) return String(s);
  const j = JSON.stringify(s);
  return j.length > n ? `${j.slice(0, n - 4)}…"` : j;
}

// --- Names and texts the sequences use -------------------------------------------------------------------

/** Names the seed starts with (a duplicate in each template, case variants, accents, emoji, `/`, a leading `.`). */
const START_NAMES: ReadonlyArray<[string, number]> = [
  ['Dup', 1],
  ['Dup', 1],
  ['dup', 1],
  ['Café', 1],
  ['cafe', 1],
  ['.hidden', 1],
  ['a/b', 1],
  ['Émoji 🎉', 1],
  ['Dup', 33],
  ['Dup', 33],
  ['Plan', 33],
  ['Notes ☕', 33],
];

/** What someone else may set as a name on the website (stored as given: trailing and leading spaces too). */
const OTHER_NAMES = ['Dup', 'dup', 'Dup ', ' Dup', 'DUP', '.Dup', 'Dup/2', 'Café', 'Café ', 'cafe', 'Plan', '🎉 Party', 'Ünïcödé', 'Notes ☕'];
/** What the user types in Rename… (the command trims). */
const USER_NAMES = ['Dup', 'dup', 'DUP', 'Café', 'Plan', 'Notes ☕', '.dotfile', 'x/y', 'Renamed 🎉', 'Ünïcödé ', 'Plan 2'];
/** File names a rename through the file system asks for (names that are valid path segments as they are). */
const FILE_NAMES = ['Dup', 'dup', 'DUP', 'Café', 'cafe', 'Plan', 'Notes ☕', 'Renamed 🎉', 'Ünïcödé', 'Zed'];
const WORDS = ['alpha', 'Bravo', 'café', 'ünïcödé', '🎉', '☕', 'naïve', 'déjà vu', 'x/y', '.dot', 'UPPER', 'lower'];

// --- The suite -------------------------------------------------------------------------------------------

/** The sandbox of the account used now (one of `boxes`). */
let sandbox: Sandbox;
/** The seed's two sandboxes, A and B (the same ids and names, other texts). */
let boxes: Sandbox[] = [];
let s: TestServices;
/** Errors the extension's file system threw (what VS Code got): the account refusals are read from these. */
let fsErrors: FsErrors | undefined;
let saveErrors: SaveErrors | undefined;
const messages = new MessageCapture();
const summary = { steps: 0, seeds: [] as number[], failures: [] as string[], cross: [] as string[] };

/** Answers the extension's questions: confirmations and inputs from queues (an unscripted confirmation is declined). */
const prompter = new RecordingPrompter();
let saveWatch: vscode.Disposable | undefined;
let deleteWatch: vscode.Disposable | undefined;
let lastForget = 0;
let currentRun: Run | undefined;

/** One seed's run: the model, the step trace, and the checks. */
class Run {
  readonly rng: Rng;
  /** What each account's server holds (index as ACCOUNTS, like `boxes`). */
  readonly accounts: AccountModel[] = ACCOUNTS.map(() => ({ docs: new Map<number, ModelDoc>() }));
  /** The account used now. */
  current = 0;
  /** Each account's label, as the extension read it when the account was used. */
  readonly labels: Array<string | undefined> = ACCOUNTS.map(() => undefined);
  readonly cross: CrossCounts = { switches: 0, tried: 0, refused: 0, byOp: {} };
  editors: ModelEditor[] = [];
  readonly trace: string[] = [];
  /** Someone else changed names or the set of documents since the last refresh (the extension cannot know). */
  stale = false;
  step = 0;
  private counter = 0;

  constructor(
    readonly seed: number,
    private nextId: number,
  ) {
    this.rng = new Rng(seed);
  }

  log(line: string): void {
    this.trace.push(`#${this.step} ${line}`);
  }

  /** The documents of the account used now. */
  get docs(): Map<number, ModelDoc> {
    return this.accounts[this.current].docs;
  }

  /** Document `id` is deleted in the account used now. */
  forget(id: number): void {
    this.docs.delete(id);
  }

  /** The editors opened in the account used now, and in the other one. */
  mine(): ModelEditor[] {
    return this.editors.filter((e) => e.acct === this.current);
  }

  theirs(): ModelEditor[] {
    return this.editors.filter((e) => e.acct !== this.current);
  }

  // --- Set-up -------------------------------------------------------------------------------------------

  /** Both servers get the same ids with the same names; the texts name their account (they differ). */
  setUp(): void {
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    for (const [name, templateId] of START_NAMES) {
      const id = this.newId();
      const words = `${this.rng.pick(WORDS)} ${this.rng.pick(WORDS)}`;
      boxes.forEach((box, i) => {
        const result = `Text of ${name} (#${id}) in ${ACCOUNTS[i]} — ${words}.`;
        box.documents.set(id, { id, name, templateId, result, words: 5, favorite: false, createdAt: at, updatedAt: at });
        this.accounts[i].docs.set(id, { name, templateId, result, favorite: false });
      });
    }
  }

  /**
   * Someone else creates document `id` named `name` on the other server too (so that both keep the same ids and
   * names): its own text, created now.
   */
  mirrorCreate(id: number, name: string, templateId: number): void {
    const other = 1 - this.current;
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const result = `Created elsewhere in ${ACCOUNTS[other]}: ${name} (#${id}) ${this.rng.pick(WORDS)}.`;
    boxes[other].documents.set(id, { id, name, templateId, result, words: 4, favorite: false, createdAt: now, updatedAt: now });
    this.accounts[other].docs.set(id, { name, templateId, result, favorite: false });
  }

  newId(): number {
    const id = this.nextId++;
    bumpIssuedId(id);
    return id;
  }

  uniqueText(): string {
    this.counter++;
    const body = `Seed ${this.seed} edit ${this.counter}: ${this.rng.pick(WORDS)} ${this.rng.pick(WORDS)}${this.rng.chance(0.3) ? `\n\nSecond paragraph ${this.rng.pick(WORDS)}.` : ''}`;
    return `${this.rng.pick(['', '', '  ', '\n'])}${body}${this.rng.pick(['', '\n', '  \n\n', ' '])}`;
  }

  // --- Helpers on the model -----------------------------------------------------------------------------

  ids(templateId?: number): number[] {
    return [...this.docs.entries()].filter(([, d]) => templateId === undefined || d.templateId === templateId).map(([id]) => id).sort((a, b) => a - b);
  }

  editorLabel(e: ModelEditor): string {
    return `E[${ACCOUNTS[e.acct]}:${e.label} → #${e.id}]`;
  }

  docLabel(id: number): string {
    const d = this.docs.get(id);
    return d ? `#${id} ${short(d.name)} in ${folderOf(d.templateId)}` : `#${id} (deleted)`;
  }

  /**
   * A document to act on: often one an open editor shows (preferably with unsaved text), or one whose file name
   * another document of its template shares (where the interesting cases are).
   */
  pickDoc(includeDeleted = false, openBias = 0.5): number | undefined {
    const open = this.editors.filter((e) => includeDeleted || this.docs.has(e.id));
    if (open.length && this.rng.chance(openBias)) {
      const dirty = open.filter((e) => e.dirty);
      return (dirty.length && this.rng.chance(0.6) ? this.rng.pick(dirty) : this.rng.pick(open)).id;
    }
    const ids = this.ids();
    if (!ids.length) return undefined;
    const shared = ids.filter((id) => {
      const d = this.docs.get(id)!;
      return ids.some((x) => x !== id && this.docs.get(x)!.templateId === d.templateId && segment(this.docs.get(x)!.name) === segment(d.name));
    });
    return shared.length && this.rng.chance(0.4) ? this.rng.pick(shared) : this.rng.pick(ids);
  }

  textDocument(e: ModelEditor): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === e.uri.toString());
  }

  /** The editor's text document, loaded as VS Code loads a tab it shows (a tab moved by a rename is loaded lazily). */
  async loadedDocument(e: ModelEditor): Promise<vscode.TextDocument | undefined> {
    const d = this.textDocument(e);
    if (d) return d;
    try {
      return await vscode.workspace.openTextDocument(e.uri);
    } catch {
      return undefined;
    }
  }

  // --- Steps --------------------------------------------------------------------------------------------

  async runStep(): Promise<void> {
    // A save of the other account's editor is one of the cross-account writes (it would otherwise be most saves).
    const dirty = this.mine().filter((e) => e.dirty);
    const action = this.rng.weighted<string>([
      ['open', this.editors.length >= MAX_EDITORS ? 2 : 14],
      ['close', this.editors.length >= MAX_EDITORS ? 8 : 2],
      ['edit', this.editors.length ? 16 : 0],
      ['save', dirty.length ? 18 : 0],
      ['renameFs', 5],
      ['renameCmd', 5],
      ['deleteUser', 4],
      ['deleteOther', 5],
      ['createService', 3],
      ['createOther', 3],
      ['favorite', 3],
      ['otherResult', 7],
      ['otherName', 7],
      ['refresh', 9],
      ['overwrite', this.mine().length ? 4 : 0],
      ['crossWrite', this.theirs().length ? 8 : 0],
      ['switch', 7],
      ['madeUpLabel', 1],
      ['createCmd', 2],
    ]);
    switch (action) {
      case 'open':
        return this.open();
      case 'close':
        return this.close();
      case 'edit':
        return this.edit();
      case 'save':
        return this.save();
      case 'renameFs':
        return this.renameFs();
      case 'renameCmd':
        return this.renameCmd();
      case 'deleteUser':
        return this.deleteUser();
      case 'deleteOther':
        return this.deleteOther();
      case 'createService':
        return this.createService();
      case 'createOther':
        return this.createOther();
      case 'favorite':
        return this.favorite();
      case 'otherResult':
        return this.otherResult();
      case 'otherName':
        return this.otherName();
      case 'refresh':
        return this.refresh();
      case 'overwrite':
        return this.overwrite();
      case 'crossWrite':
        return this.crossWrite();
      case 'switch':
        return this.switchAccount();
      case 'madeUpLabel':
        return this.madeUpLabel();
      case 'createCmd':
        return this.createCmd();
    }
  }

  async open(): Promise<void> {
    const id = this.pickDoc();
    if (id === undefined) return this.log('open: no document left');
    const form = this.rng.chance(0.5) ? 'account' : 'single';
    if (form === 'single') {
      const before = vscode.window.activeTextEditor?.document.uri.toString();
      await vscode.commands.executeCommand(CMD.documentOpen, { id });
      const uri = vscode.window.activeTextEditor?.document.uri;
      if (!uri || uri.scheme !== SCHEME) return this.log(`open ${this.docLabel(id)} (command): no editor`);
      const existing = this.editors.find((e) => e.uri.toString() === uri.toString());
      if (existing) {
        if (existing.id === id) return this.log(`open ${this.docLabel(id)} (command): shows the open ${this.editorLabel(existing)}`);
        if (uri.toString() === before) return this.log(`open ${this.docLabel(id)} (command): no new editor`);
        throw new Violation('open', `Open Document on ${this.docLabel(id)} showed the tab ${this.editorLabel(existing)}, opened on another document`);
      }
      if (uri.authority.split('.')[0] !== String(id)) throw new Violation('open', `Open Document on #${id} showed ${uri.toString()}`);
      await this.track(uri, 'single', id, `${id}:${decodeURIComponent(uri.path)}`);
      return;
    }
    // The account folder: the file of the document, as the folder lists it (after a refresh when someone
    // else changed names since: nobody can expect the listing to know what the server did not say).
    if (this.stale) await this.refresh('(before opening through the account folder) ');
    if (!this.docs.has(id)) return this.log(`open ${this.docLabel(id)}: gone`);
    const folder = folderOf(this.docs.get(id)!.templateId);
    const listing = await vscode.workspace.fs.readDirectory(vscode.Uri.from({ scheme: SCHEME, authority: accountNow(), path: `/${folder}` }));
    const file = listing.map(([f]) => f).find((f) => s.fs.documentIdOf(accountUri(folder, f)) === id);
    if (!file) throw new Violation('4 tree/fs', `the account folder ${folder} lists no file for ${this.docLabel(id)}: ${listing.map(([f]) => f).join(', ')}`);
    const uri = accountUri(folder, file);
    const existing = this.editors.find((e) => e.uri.toString() === uri.toString());
    if (existing) {
      await vscode.window.showTextDocument(uri, { preview: false });
      return this.log(`open account ${folder}/${file}: already open as ${this.editorLabel(existing)}`);
    }
    // VS Code hands back a model it kept from an earlier tab without asking the file system: a text someone else
    // changed since is not known to the extension until a refresh (which then reloads the tab).
    const kept = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
    await vscode.window.showTextDocument(uri, { preview: false });
    await this.track(uri, 'account', id, `account:${folder}/${file}`, kept);
  }

  private async track(uri: vscode.Uri, form: ModelEditor['form'], id: number, label: string, kept = false): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(uri);
    // A freshly opened editor shows its document's current text (VS Code may show a model it kept from an
    // earlier tab first, and reload it a moment later).
    const server = this.docs.get(id)?.result ?? '';
    await poll(() => doc.getText() === server, 3_000);
    if ((kept || form === 'account') && doc.getText() !== server) {
      this.log(`(VS Code showed a model it kept for ${label}${kept ? '' : ' in the workbench'}, without asking the file system: refresh)`);
      await this.refresh('(a kept model) ');
      await poll(() => doc.getText() === server, 3_000);
    }
    const text = doc.getText();
    const e: ModelEditor = { uri, form, id, dirty: false, text, base: text, label, acct: this.current };
    this.editors.push(e);
    this.log(`open ${label} → #${id}`);
    if (text !== server) throw new Violation('3 content', `${this.editorLabel(e)} opened with ${short(text)}, but #${id} holds ${short(server)}`);
  }

  async close(): Promise<void> {
    if (!this.editors.length) return this.log('close: nothing open');
    const e = this.rng.pick(this.editors);
    const doc = this.textDocument(e);
    if (doc) {
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand(doc.isDirty ? 'workbench.action.revertAndCloseActiveEditor' : 'workbench.action.closeActiveEditor');
    }
    this.editors = this.editors.filter((x) => x !== e);
    this.log(`close ${this.editorLabel(e)}${e.dirty ? ' (reverted)' : ''}`);
  }

  async edit(): Promise<void> {
    const e = this.rng.pick(this.editors);
    const doc = this.textDocument(e) ?? (await this.loadedDocument(e));
    if (!doc) {
      if (e.acct === this.current) throw new Violation('3 content', `the tab of ${this.editorLabel(e)} cannot be loaded`);
      return this.log(`edit ${this.editorLabel(e)}: its tab (of the other account) has no text loaded`);
    }
    if (!e.dirty) {
      // What VS Code will compare against: the text it last loaded, or (right after our save) what the server stored.
      const now = doc.getText();
      e.base = e.savedBuffer !== undefined && now === e.savedBuffer ? e.savedServer! : now;
    }
    const text = this.rng.chance(0.05) ? ' \n\n ' : this.uniqueText();
    // VS Code refuses a workspace edit while it is (re)loading the document: try again a moment later.
    let ok = false;
    for (let attempt = 0; attempt < 4 && !ok; attempt++) {
      if (attempt) await sleep(250);
      const current = this.textDocument(e) ?? doc;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(e.uri, new vscode.Range(current.positionAt(0), current.positionAt(current.getText().length)), text);
      ok = await vscode.workspace.applyEdit(edit);
    }
    if (!ok) return this.log(`edit ${this.editorLabel(e)}: VS Code did not apply the edit`);
    e.dirty = true;
    e.text = text;
    this.log(`edit ${this.editorLabel(e)} := ${short(text)}`);
  }

  async save(): Promise<void> {
    const e = this.rng.pick(this.mine().filter((x) => x.dirty));
    const doc = this.textDocument(e);
    if (!doc) throw new Violation('2 no loss', `the dirty ${this.editorLabel(e)} has no document any more`);
    const before = this.docs.get(e.id);
    const server = before?.result ?? '';
    const trimmed = e.text.trim();
    // What the model expects: refused when the document is gone, the text empty, or the server's text changed
    // since the editor read it (VS Code's "newer on disk" conflict); done when nothing stands in the way and the
    // URI still means the document.
    let expect: 'saved' | 'refused';
    let why: string;
    if (!before) [expect, why] = ['refused', 'its document is deleted'];
    else if (!trimmed) [expect, why] = ['refused', 'the text is empty'];
    else if (server !== e.base) [expect, why] = ['refused', `the server text changed since it was read (${short(e.base)} → ${short(server)})`];
    // Either URI form: a path keeps meaning the document it showed, so nothing else stands in the way.
    else [expect, why] = ['saved', 'nothing conflicts'];
    const saved = await doc.save();
    this.log(`save ${this.editorLabel(e)} ${short(e.text)} → ${saved ? 'saved' : 'refused'} (model: ${expect}${why ? `, ${why}` : ''})`);
    if (saved) {
      if (!before) {
        let which = '';
        try {
          this.checkServer(`saving ${this.editorLabel(e)}`);
        } catch (v) {
          which = `; ${(v as Error).message}`;
        }
        throw new Violation('1 writes', `${this.editorLabel(e)} was opened on #${e.id}, which is deleted, yet VS Code reports its save as done${which}`);
      }
      before.result = trimmed; // the model: the editor's document now holds the trimmed text
      e.dirty = false;
      e.savedBuffer = e.text;
      e.savedServer = trimmed;
      const actual = sandbox.documents.get(e.id)?.result;
      if (actual !== trimmed) throw new Violation('2 no loss', `the save of ${this.editorLabel(e)} was reported done, but #${e.id} holds ${short(actual)}, not ${short(trimmed)}`);
      if (expect === 'refused') throw new Violation('2 no loss', `the save of ${this.editorLabel(e)} went through although ${why}: it overwrote ${short(server)}`);
    } else {
      if (!doc.isDirty || doc.getText() !== e.text) {
        throw new Violation('2 no loss', `the refused save of ${this.editorLabel(e)} left it ${doc.isDirty ? 'dirty' : 'clean'} with ${short(doc.getText())}, not dirty with ${short(e.text)}`);
      }
      if (expect === 'saved') throw new Violation('2 no loss', `the save of ${this.editorLabel(e)} was refused although ${why}`);
    }
    this.checkServer(`saving ${this.editorLabel(e)}`);
    if (saved) await this.checkSiblings(e);
  }

  /** After a save, the other clean editors of the same document (the other URI form) show the new text. */
  private async checkSiblings(saved: ModelEditor): Promise<void> {
    const expected = this.docs.get(saved.id)?.result ?? '';
    for (const e of this.editors) {
      if (e === saved || e.id !== saved.id || e.dirty || e.acct !== saved.acct) continue;
      await this.loadedDocument(e);
      const ok = await poll(() => this.textDocument(e)?.getText().trim() === expected.trim(), 3_000);
      if (!ok) {
        throw new Violation(
          '3 content',
          `after ${this.editorLabel(saved)} saved ${short(expected)}, the clean ${this.editorLabel(e)} of the same document still shows ${short(this.textDocument(e)?.getText())}`,
        );
      }
    }
  }

  async renameFs(): Promise<void> {
    let e: ModelEditor | undefined;
    let id: number | undefined;
    let oldUri: vscode.Uri;
    // A file with unsaved text is not renamed through the file system: what VS Code does with the unsaved text of a
    // tab whose file another program moves is VS Code's business, not the extension's.
    const clean = this.mine().filter((x) => !x.dirty);
    if (clean.length && this.rng.chance(0.6)) {
      e = this.rng.pick(clean);
      id = e.id;
      oldUri = e.uri;
    } else {
      id = this.pickDoc();
      if (id === undefined) return this.log('rename (file system): no document');
      const d = this.docs.get(id)!;
      if (this.rng.chance(0.5)) {
        if (this.stale) await this.refresh('(before a rename in the account folder) ');
        if (!this.docs.has(id)) return this.log(`rename: #${id} is gone`);
        const file = [...(await folderIds(folderOf(d.templateId)))].find(([, x]) => x === id)?.[0];
        if (file === undefined) throw new Violation('4 tree/fs', `after a refresh the account folder lists no file for ${this.docLabel(id)}`);
        oldUri = accountUri(folderOf(d.templateId), file);
      } else {
        oldUri = vscode.Uri.from({ scheme: SCHEME, authority: `${id}.${accountNow()}`, path: `/${hostNow()}/${folderOf(d.templateId)}/${fileOf(d.name)}` });
      }
    }
    if (this.editors.some((x) => x.dirty && x.uri.toString() === oldUri.toString())) {
      return this.log(`rename (file system) ${decodeURIComponent(oldUri.toString())}: skipped, a tab with unsaved text shows that file`);
    }
    const target = this.docs.get(id);
    // Half of the time the name of another document of the same template (a duplicate, or its exact file name).
    const others = target ? this.ids(target.templateId).filter((x) => x !== id) : [];
    const name = others.length && this.rng.chance(0.5) ? segment(this.docs.get(this.rng.pick(others))!.name) : this.rng.pick(FILE_NAMES);
    const dir = oldUri.path.slice(0, oldUri.path.lastIndexOf('/'));
    const newUri = oldUri.with({ path: `${dir}/${name}.md` });
    // VS Code treats a rename onto the same path as done without asking the file system: nothing to check.
    if (newUri.toString() === oldUri.toString()) return this.log(`rename (file system) ${decodeURIComponent(oldUri.toString())}: skipped, the same path`);
    // The look-alikes of a file name stand for `/` and a leading `.` only when the current name has them (uris.ts).
    const current = target?.name ?? '';
    let expectedName = name;
    if (current.startsWith('.')) expectedName = expectedName.replace(/^\u2024/, '.');
    if (current.includes('/')) expectedName = expectedName.replace(/\u2215/g, '/');
    let outcome = 'renamed';
    try {
      await vscode.workspace.fs.rename(oldUri, newUri, { overwrite: false });
    } catch (err) {
      outcome = `refused (${(err as Error).message.split('\n')[0].slice(0, 80)})`;
    }
    this.log(`rename (file system) ${e ? this.editorLabel(e) : decodeURIComponent(oldUri.toString())} → ${short(`${name}.md`)} on #${id}: ${outcome}`);
    if (outcome === 'renamed' && newUri.authority === accountNow()) pathOwners.set(newUri.path.replace(/^\//, ''), id);
    if (outcome === 'renamed') {
      // VS Code moves the editors of a renamed file to its new name (with their unsaved text).
      await poll(() => !tabKeys().includes(oldUri.toString()), 1_000);
      const tabs = tabKeys();
      for (const x of [...this.editors]) {
        if (x.uri.toString() !== oldUri.toString() || x.dirty || tabs.includes(oldUri.toString()) || !tabs.includes(newUri.toString())) continue;
        const there = this.editors.find((y) => y !== x && y.uri.toString() === newUri.toString());
        if (there) {
          // A tab was already open under the new name (VS Code keeps one editor per URI): the moved one merges into it.
          this.editors = this.editors.filter((y) => y !== x);
          this.log(`(the tab of ${this.editorLabel(x)} merged into the open ${this.editorLabel(there)})`);
          continue;
        }
        x.uri = newUri;
        x.label = `${x.label} ⇒ ${name}.md`;
        this.log(`(the tab of ${this.editorLabel(x)} moved to the new name)`);
      }
    }
    const actual = sandbox.documents.get(id);
    if (outcome === 'renamed') {
      if (!target) {
        let which = '';
        try {
          this.checkServer(`renaming ${oldUri.toString()}`);
        } catch (v) {
          which = `; ${(v as Error).message}`;
        }
        throw new Violation('1 writes', `renaming ${decodeURIComponent(oldUri.toString())} (opened on #${id}, deleted) to ${short(name)} was reported done${which}`);
      }
      if (actual?.name !== expectedName) {
        // Which document did it rename? The check below names it.
        this.checkServer(`renaming ${oldUri.toString()} (#${id}) to ${name}`);
        throw new Violation('1 writes', `renaming the file of #${id} to ${short(name)} was reported done, but #${id} is named ${short(actual?.name)}`);
      }
      target.name = expectedName;
    }
    this.checkServer(`renaming ${oldUri.toString()} (#${id}) to ${name}`);
  }

  async renameCmd(): Promise<void> {
    const id = this.pickDoc(true);
    if (id === undefined) return this.log('rename (command): no document');
    const target = this.docs.get(id);
    const others = target ? this.ids(target.templateId).filter((x) => x !== id) : [];
    const name = others.length && this.rng.chance(0.4) ? this.docs.get(this.rng.pick(others))!.name.trim() || 'Dup' : this.rng.pick(USER_NAMES);
    const node = await this.treeNode(id);
    const box = sandbox;
    const asked = this.current;
    const switched = this.switchWhileAsking(1);
    prompter.inputs = [name];
    await vscode.commands.executeCommand(CMD.documentRename, node ?? { id });
    prompter.inputs = [];
    const actual = box.documents.get(id);
    const renamed = !!target && actual?.name === name.trim() && target.name !== actual.name;
    this.log(`rename (command${node ? ', from the view' : ''}${switched ? `, account ${ACCOUNTS[this.current]} signed in while the name was asked` : ''}) ${ACCOUNTS[asked]}:#${id} → ${short(name)}: ${renamed ? 'renamed' : 'unchanged'}`);
    if (switched && this.afterSwitchWhileAsking('Rename…', renamed)) {
      // Nothing to follow: the command sent nothing.
    } else if (renamed) {
      target.name = actual.name;
      await this.followRenamedTabs(id, actual.name);
    }
    this.checkServer(`renaming #${id} with the command`);
  }

  /**
   * Rename… moves the document's tabs to its new name, as the Explorer moves a renamed file's (with their unsaved
   * text): each editor of the document whose tab went is found under the new file name in the same folder.
   */
  async followRenamedTabs(id: number, name: string): Promise<void> {
    const moved = (x: ModelEditor) => {
      const file = x.uri.path.slice(x.uri.path.lastIndexOf('/') + 1);
      return x.uri.with({ path: `${x.uri.path.slice(0, x.uri.path.lastIndexOf('/'))}/${documentFileName(name, extensionOfFileName(file))}` });
    };
    const ofDoc = this.mine().filter((x) => x.id === id && moved(x).toString() !== x.uri.toString());
    await poll(() => ofDoc.every((x) => !tabKeys().includes(x.uri.toString())), 1_000);
    const tabs = tabKeys();
    for (const x of ofDoc) {
      const to = moved(x);
      if (tabs.includes(x.uri.toString()) || !tabs.includes(to.toString())) continue;
      const there = this.editors.find((y) => y !== x && y.uri.toString() === to.toString());
      if (there) {
        this.editors = this.editors.filter((y) => y !== x);
        this.log(`(the tab of ${this.editorLabel(x)} merged into the open ${this.editorLabel(there)})`);
        continue;
      }
      x.uri = to;
      x.label = `${x.label} ⇒ ${short(name)}`;
      this.log(`(the tab of ${this.editorLabel(x)} moved to the new name)`);
    }
  }

  async deleteUser(): Promise<void> {
    if (this.mine().length && this.rng.chance(0.5)) {
      const e = this.rng.pick(this.mine());
      const box = sandbox;
      const had = box.documents.has(e.id);
      const switched = this.switchWhileAsking(1);
      prompter.confirms = [true];
      let outcome = 'deleted';
      try {
        await vscode.workspace.fs.delete(e.uri);
      } catch (err) {
        outcome = `refused (${(err as Error).message.split('\n')[0].slice(0, 80)})`;
      }
      prompter.confirms = [];
      this.log(`delete (file system${switched ? `, account ${ACCOUNTS[this.current]} signed in while it asked` : ''}) ${this.editorLabel(e)}: ${outcome}`);
      if (switched && this.afterSwitchWhileAsking('deleting a file', outcome === 'deleted' || (had && !box.documents.has(e.id)))) {
        this.checkServer(`deleting the file of ${this.editorLabel(e)}`);
        return;
      }
      if (outcome === 'deleted' && sandbox.documents.has(e.id)) {
        this.checkServer(`deleting the file of ${this.editorLabel(e)}`);
        throw new Violation('1 writes', `deleting the file of ${this.editorLabel(e)} was reported done, but #${e.id} still exists`);
      }
      if (outcome === 'deleted') this.forget(e.id);
      this.checkServer(`deleting the file of ${this.editorLabel(e)}`);
      return;
    }
    const id = this.pickDoc(false, 0.7);
    if (id === undefined) return this.log('delete (view): no document');
    const node = await this.treeNode(id);
    const box = sandbox;
    const asked = this.current;
    const switched = this.switchWhileAsking(1);
    prompter.confirms = [true];
    await vscode.commands.executeCommand(CMD.documentDelete, node ?? { id });
    prompter.confirms = [];
    this.log(`delete (command${node ? ', from the view' : ''}${switched ? `, account ${ACCOUNTS[this.current]} signed in while it asked` : ''}) ${ACCOUNTS[asked]}:#${id}`);
    if (switched && this.afterSwitchWhileAsking('Delete…', !box.documents.has(id))) {
      this.checkServer(`deleting #${id} with the command`);
      return;
    }
    if (sandbox.documents.has(id)) throw new Violation('delete', `Delete Document on #${id} left it on the server`);
    this.forget(id);
    this.checkServer(`deleting #${id} with the command`);
  }

  deleteOther(): void {
    const id = this.pickDoc(false, 0.7);
    if (id === undefined) return this.log('someone else deletes: no document');
    this.log(`someone else deletes ${this.docLabel(id)}`);
    sandbox.documents.delete(id);
    this.forget(id);
    this.stale = true;
  }

  async createService(): Promise<void> {
    const templateId = this.rng.pick(TEMPLATES).id;
    const others = this.ids(templateId);
    const name = others.length && this.rng.chance(0.5) ? this.docs.get(this.rng.pick(others))!.name.trim() || 'Dup' : this.rng.pick(USER_NAMES).trim();
    const doc = await s.documents.create({ name, prompt: `Model seed ${this.seed} ${this.counter++}`, creativity: 0.5, templateId });
    bumpIssuedId(doc.id);
    this.nextId = Math.max(this.nextId, doc.id + 1);
    const stored = sandbox.documents.get(doc.id)!;
    this.docs.set(doc.id, { name: stored.name, templateId: stored.templateId!, result: stored.result, favorite: stored.favorite });
    this.log(`create (extension) #${doc.id} ${short(name)} in ${folderOf(templateId)} (someone else creates #${doc.id} ${short(stored.name)} in the other account)`);
    if (stored.name !== name) throw new Violation('create', `created #${doc.id} as ${short(stored.name)}, asked for ${short(name)}`);
    this.mirrorCreate(doc.id, stored.name, templateId);
    this.checkServer(`creating #${doc.id}`);
  }

  /**
   * New Document…, its four questions answered; sometimes the settings name the other account while one of them is
   * open (the account it was asked in is gone: nothing is created anywhere, no words charged).
   */
  async createCmd(): Promise<void> {
    const box = sandbox;
    const other = boxes[1 - this.current];
    const asked = this.current;
    const name = this.rng.pick(USER_NAMES).trim() || 'New';
    const switched = this.switchWhileAsking(1 + Math.floor(this.rng.float() * 4));
    const before = new Set(box.documents.keys());
    const otherBefore = new Set(other.documents.keys());
    prompter.answer = newDocumentAnswers(name, `Model seed ${this.seed} ${this.counter++}`);
    try {
      await vscode.commands.executeCommand(CMD.documentNew);
    } finally {
      prompter.answer = () => undefined;
      prompter.meanwhile = undefined;
    }
    const created = [...box.documents.keys()].filter((id) => !before.has(id));
    const createdOther = [...other.documents.keys()].filter((id) => !otherBefore.has(id));
    this.log(`create (New Document…${switched ? `, account ${ACCOUNTS[this.current]} signed in while it asked` : ''}) ${short(name)} in ${ACCOUNTS[asked]}: ${created.length ? `#${created.join(', #')}` : 'nothing created'}`);
    if (switched && this.afterSwitchWhileAsking('New Document…', created.length + createdOther.length > 0)) return;
    if (createdOther.length) throw new Violation('1 writes', `New Document… in account ${ACCOUNTS[asked]} created #${createdOther.join(', #')} in the other account`);
    if (created.length !== 1) throw new Violation('create', `New Document… created ${created.length} documents, not one`);
    const id = created[0];
    bumpIssuedId(id);
    this.nextId = Math.max(this.nextId, id + 1);
    const stored = box.documents.get(id)!;
    this.docs.set(id, { name: stored.name, templateId: stored.templateId!, result: stored.result, favorite: stored.favorite });
    this.mirrorCreate(id, stored.name, stored.templateId!);
    // Its editor is the command's, not one the model follows.
    if (vscode.window.activeTextEditor?.document.uri.authority.startsWith(`${id}.`)) await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    this.checkServer(`creating #${id} with New Document…`);
  }

  /**
   * With a chance, the settings name the other account while the `nth` question of the next command is open (another
   * window, Settings Sync): the account the command was asked in is gone before the user answers. True when it will.
   */
  private switchWhileAsking(nth: number): boolean {
    if (!this.rng.chance(0.3)) return false;
    let left = nth;
    const hook = async (): Promise<void> => {
      if (--left > 0) {
        prompter.meanwhile = hook;
        return;
      }
      this.switchedWhileAsking = true;
      await this.switchAccount();
    };
    this.switchedWhileAsking = false;
    prompter.meanwhile = hook;
    return true;
  }

  /** Whether the last switchWhileAsking's switch happened (the command asked that question). */
  private switchedWhileAsking = false;

  /**
   * After a command armed with switchWhileAsking: false when the switch did not happen (the command asked nothing).
   * Else the account it was asked in went before the answer, and it must have sent nothing (`acted`: it changed
   * something all the same).
   */
  private afterSwitchWhileAsking(what: string, acted: boolean): boolean {
    prompter.meanwhile = undefined;
    if (!this.switchedWhileAsking) return false;
    this.cross.tried++;
    this.cross.byOp[`${what} while switching`] = (this.cross.byOp[`${what} while switching`] ?? 0) + 1;
    if (acted) throw new Violation('1 accounts', `${what} acted although the account it was asked in was gone before the answer`);
    this.cross.refused++;
    return true;
  }

  createOther(): void {
    const templateId = this.rng.pick(TEMPLATES).id;
    const others = this.ids(templateId);
    const name = others.length && this.rng.chance(0.5) ? this.docs.get(this.rng.pick(others))!.name : this.rng.pick(OTHER_NAMES);
    const id = this.newId();
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const result = `Created elsewhere: ${name} (#${id}) ${this.rng.pick(WORDS)}.`;
    sandbox.documents.set(id, { id, name, templateId, result, words: 4, favorite: false, createdAt: now, updatedAt: now });
    this.docs.set(id, { name, templateId, result, favorite: false });
    this.mirrorCreate(id, name, templateId);
    this.stale = true;
    this.log(`someone else creates #${id} ${short(name)} in ${folderOf(templateId)}, in both accounts`);
  }

  async favorite(): Promise<void> {
    const id = this.pickDoc();
    if (id === undefined) return this.log('favorite: no document');
    const d = this.docs.get(id)!;
    const want = !d.favorite;
    await vscode.commands.executeCommand(want ? CMD.documentFavorite : CMD.documentUnfavorite, { id });
    this.log(`${want ? 'favorite' : 'unfavorite'} ${this.docLabel(id)}`);
    if (sandbox.documents.get(id)?.favorite !== want) throw new Violation('favorite', `#${id} is ${want ? 'not ' : ''}a favorite after ${want ? 'Add to' : 'Remove from'} Favorites`);
    d.favorite = want;
    this.checkServer(`favoriting #${id}`);
  }

  otherResult(): void {
    const id = this.pickDoc();
    if (id === undefined) return this.log('someone else edits: no document');
    const d = this.docs.get(id)!;
    const result = `Edited elsewhere ${this.counter++}: ${this.rng.pick(WORDS)}${this.rng.chance(0.3) ? '\n\n<p>Some HTML</p>' : ''}`;
    const doc = sandbox.documents.get(id)!;
    doc.result = result;
    doc.updatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    d.result = result;
    this.log(`someone else sets the text of ${this.docLabel(id)} := ${short(result)}`);
  }

  otherName(): void {
    const id = this.pickDoc();
    if (id === undefined) return this.log('someone else renames: no document');
    const d = this.docs.get(id)!;
    const others = this.ids(d.templateId).filter((x) => x !== id);
    const name = others.length && this.rng.chance(0.5) ? this.docs.get(this.rng.pick(others))!.name : this.rng.pick(OTHER_NAMES);
    const other = 1 - this.current;
    const twin = this.accounts[other].docs.get(id);
    this.log(`someone else renames ${this.docLabel(id)} := ${short(name)}${twin ? ', in both accounts' : ''}`);
    const doc = sandbox.documents.get(id)!;
    doc.name = name;
    doc.updatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    d.name = name;
    if (twin) {
      const there = boxes[other].documents.get(id)!;
      there.name = name;
      there.updatedAt = doc.updatedAt;
      twin.name = name;
    }
    this.stale = true;
  }

  /** Refresh Documents, then waits for the account folder's new listing and checks invariants 3 and 4 against the server. */
  async refresh(prefix = ''): Promise<void> {
    const t0 = Date.now();
    await vscode.commands.executeCommand(CMD.documentsRefresh);
    this.log(`${prefix}refresh`);
    // The tree lists again when asked; the account folder lists again 500 ms after a refresh (pages of 100 by id,
    // oldest first: the Other templates group also reads pages of 100 across templates, in the view's order).
    for (const t of TEMPLATES) await treeIds(t.id);
    const listed = await poll(
      () =>
        sandbox.requests.some(
          (r) =>
            r.route === 'documents.list' &&
            r.query.per_page === '100' &&
            r.query.sort_by === 'id' &&
            r.query.sort === 'asc' &&
            !r.query.template_id &&
            r.at >= t0 &&
            r.status !== 0,
        ),
      10_000,
    );
    if (!listed) throw new Violation('4 tree/fs', 'the account folder was not listed again after a refresh');
    await sleep(50);
    this.stale = false;
    await this.checkFresh();
  }

  /**
   * Overwrite (a plain write of the file, what VS Code's "Overwrite" does, without its "newer on disk" check) on a
   * clean editor of the account used now: the write reaches that document and no other, or is refused.
   */
  async overwrite(): Promise<void> {
    const clean = this.mine().filter((x) => !x.dirty);
    if (!clean.length) return this.log('overwrite: no clean editor of this account');
    const e = this.rng.pick(clean);
    const before = this.docs.get(e.id);
    const text = this.uniqueText();
    let outcome = 'written';
    try {
      await vscode.workspace.fs.writeFile(e.uri, new TextEncoder().encode(text));
    } catch (err) {
      outcome = `refused (${(err as Error).message.split('\n')[0].slice(0, 80)})`;
    }
    this.log(`overwrite (file system) ${this.editorLabel(e)} := ${short(text)} → ${outcome}`);
    if (outcome !== 'written') return this.checkServer(`overwriting ${this.editorLabel(e)}`);
    if (!before) {
      let which = '';
      try {
        this.checkServer(`overwriting ${this.editorLabel(e)}`);
      } catch (v) {
        which = `; ${(v as Error).message}`;
      }
      throw new Violation('1 writes', `${this.editorLabel(e)} was opened on #${e.id}, which is deleted, yet its overwrite was reported done${which}`);
    }
    const actual = sandbox.documents.get(e.id)?.result;
    if (actual !== text.trim()) {
      this.checkServer(`overwriting ${this.editorLabel(e)}`);
      throw new Violation('2 no loss', `the overwrite of ${this.editorLabel(e)} was reported done, but #${e.id} holds ${short(actual)}, not ${short(text.trim())}`);
    }
    before.result = text.trim();
    this.checkServer(`overwriting ${this.editorLabel(e)}`);
    await this.checkSiblings(e);
    // The editor written to reloads when VS Code hears of the change; a refresh makes it (the model then knows
    // which text a later edit is based on).
    if (!(await poll(() => this.textDocument(e)?.getText().trim() === text.trim(), 2_000))) await this.refresh('(after an overwrite) ');
  }

  /** The errors the file system has thrown so far (marks for {@link errorsSince}). */
  errorMarks(): [number, number] {
    return [fsErrors!.errors.length, saveErrors!.errors.length];
  }

  /**
   * What the file system threw since the marks for `uri` and the URIs of its account (VS Code asks for a file's folder
   * too, before it writes or moves it): `op: message`.
   */
  errorsSince(marks: [number, number], uri: vscode.Uri): string[] {
    const ours = (x: { uri: string }) => vscode.Uri.parse(x.uri).authority === uri.authority;
    return [
      ...fsErrors!.errors.slice(marks[0]).filter(ours).map((x) => `${x.op} ${decodeURIComponent(x.uri)}: ${x.message}`),
      ...saveErrors!.errors.slice(marks[1]).filter(ours).map((x) => `writeFile ${decodeURIComponent(x.uri)}: ${x.message}`),
    ];
  }

  /**
   * A write on an editor of the account not used now (a tab kept open across the switch, as one restored after a
   * restart with other settings): Save, Overwrite, rename or delete through the file system. Invariant 1: it changes
   * nothing on either server, no write request leaves, the file system refuses it as another account's, nothing is
   * asked, and the editor keeps its text (dirty stays dirty).
   */
  async crossWrite(target?: ModelEditor, chosen?: 'save' | 'overwrite' | 'rename' | 'delete'): Promise<void> {
    const e = target ?? this.rng.pick(this.theirs());
    const op = chosen ?? this.rng.weighted<'save' | 'overwrite' | 'rename' | 'delete'>([
      ['save', e.dirty ? 4 : 0],
      ['overwrite', 3],
      ['rename', 2],
      ['delete', 2],
    ]);
    const doc = this.textDocument(e);
    const shown = doc?.getText();
    const wasDirty = doc?.isDirty ?? false;
    const marks = this.errorMarks();
    const asked = prompter.asked.length;
    const t0 = Date.now();
    let done = false;
    let error = '';
    try {
      switch (op) {
        case 'save':
          if (!doc) throw new Violation('2 no loss', `the dirty ${this.editorLabel(e)} has no document any more`);
          done = await doc.save();
          break;
        case 'overwrite':
          await vscode.workspace.fs.writeFile(e.uri, new TextEncoder().encode(e.dirty ? e.text : this.uniqueText()));
          done = true;
          break;
        case 'rename': {
          const dir = e.uri.path.slice(0, e.uri.path.lastIndexOf('/'));
          await vscode.workspace.fs.rename(e.uri, e.uri.with({ path: `${dir}/${this.rng.pick(FILE_NAMES)}.md` }), { overwrite: false });
          done = true;
          break;
        }
        case 'delete':
          prompter.confirms = [true];
          await vscode.workspace.fs.delete(e.uri);
          done = true;
          break;
      }
    } catch (err) {
      if (err instanceof Violation) throw err;
      error = (err as Error).message.split('\n')[0];
    } finally {
      prompter.confirms = [];
    }
    this.cross.tried++;
    this.cross.byOp[op] = (this.cross.byOp[op] ?? 0) + 1;
    const said = this.errorsSince(marks, e.uri);
    const writes = writeRequestsSince(t0);
    const why = said.find((m) => OTHER_ACCOUNT.test(m)) ?? said[0] ?? error;
    this.log(`${op} ${this.editorLabel(e)} while account ${ACCOUNTS[this.current]} is used: ${done ? 'done' : `refused (${short(why, 110)})`}`);
    const problems: string[] = [];
    if (done) problems.push(`VS Code reports the ${op} as done`);
    if (!said.some((m) => OTHER_ACCOUNT.test(m))) problems.push(`the file system never said that the file is another account's (it said: ${said.join(' | ') || 'nothing'}; VS Code: ${error})`);
    if (writes.length) problems.push(`write requests reached the servers: ${writes.join(', ')}`);
    if (prompter.asked.length !== asked) problems.push(`it asked ${short(prompter.asked[prompter.asked.length - 1].title)}`);
    const now = this.textDocument(e);
    if (doc && (now?.getText() !== shown || (now?.isDirty ?? false) !== wasDirty)) {
      problems.push(`the editor went from ${wasDirty ? 'dirty' : 'clean'} ${short(shown)} to ${now ? `${now.isDirty ? 'dirty' : 'clean'} ${short(now.getText())}` : 'no document'}`);
    }
    this.checkServer(`${op} on ${this.editorLabel(e)} while account ${ACCOUNTS[this.current]} is used`);
    if (problems.length) {
      throw new Violation('1 accounts', `${op} on ${this.editorLabel(e)} (opened in account ${ACCOUNTS[e.acct]}) while account ${ACCOUNTS[this.current]} is used: ${problems.join('; ')}`);
    }
    this.cross.refused++;
  }

  /**
   * Points the extension at the other sandbox (its documents and projects servers; the same key). The editors stay
   * open. Invariant 3: an account used before comes back with its label (its editors work again), the other has
   * another label.
   */
  async switchAccount(): Promise<void> {
    const to = 1 - this.current;
    await useSandbox(s, boxes[to]);
    await settle();
    const label = s.firstOrNone?.label;
    this.cross.switches++;
    this.log(`switch to account ${ACCOUNTS[to]} (label ${label}); ${this.mine().length} editors of account ${ACCOUNTS[this.current]} stay open`);
    if (!label) throw new Violation('3 restored', `no account label after switching to ${ACCOUNTS[to]}`);
    if (this.labels[to] !== undefined && label !== this.labels[to]) {
      throw new Violation('3 restored', `account ${ACCOUNTS[to]} came back with the label ${label}, not ${this.labels[to]}: its editors would be refused`);
    }
    if (label === this.labels[this.current]) throw new Violation('3 restored', `accounts A and B have the same label ${label}`);
    this.labels[to] = label;
    this.current = to;
    sandbox = boxes[to];
    // An account path means its document until another account is used (src/files/accountIndex.ts): listed afresh.
    pathOwners.clear();
    // The account folder is looked at (as an open account folder is), then everything is read again and checked.
    await vscode.workspace.fs.readDirectory(vscode.Uri.from({ scheme: SCHEME, authority: accountNow(), path: '/' }));
    await this.refresh('(after the switch) ');
  }

  /**
   * A tab restored from a setup that no longer exists: URIs with a label no account has (a document's and an account
   * folder's file). Reads and writes are refused; the writes with the account message, and nothing reaches a server.
   */
  async madeUpLabel(): Promise<void> {
    const id = this.pickDoc() ?? firstId;
    const d = this.docs.get(id);
    const path = d ? `/${folderOf(d.templateId)}/${fileOf(d.name)}` : '/Freestyle/Dup.md';
    const uris = [
      vscode.Uri.from({ scheme: SCHEME, authority: `${id}.${MADE_UP_LABEL}`, path }),
      vscode.Uri.from({ scheme: SCHEME, authority: MADE_UP_LABEL, path }),
    ];
    const t0 = Date.now();
    const problems: string[] = [];
    const outcomes: string[] = [];
    for (const uri of uris) {
      const dir = uri.path.slice(0, uri.path.lastIndexOf('/'));
      const ops: Array<[string, boolean, () => Thenable<unknown>]> = [
        ['stat', false, () => vscode.workspace.fs.stat(uri)],
        ['read', false, () => vscode.workspace.fs.readFile(uri)],
        ['open', false, () => vscode.workspace.openTextDocument(uri)],
        ['list', false, () => vscode.workspace.fs.readDirectory(uri.with({ path: dir }))],
        ['overwrite', true, () => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(this.uniqueText()))],
        ['rename', true, () => vscode.workspace.fs.rename(uri, uri.with({ path: `${dir}/Zed.md` }), { overwrite: false })],
        ['delete', true, () => vscode.workspace.fs.delete(uri)],
      ];
      for (const [op, write, run] of ops) {
        const marks = this.errorMarks();
        const asked = prompter.asked.length;
        prompter.confirms = [true];
        let done = true;
        let error = '';
        try {
          await run();
        } catch (err) {
          done = false;
          error = (err as Error).message.split('\n')[0];
        } finally {
          prompter.confirms = [];
        }
        const what = `${op} ${decodeURIComponent(uri.toString())}`;
        outcomes.push(`${op}: ${done ? 'done' : 'refused'}`);
        if (done) problems.push(`${what} was done`);
        if (prompter.asked.length !== asked) problems.push(`${what} asked ${short(prompter.asked[prompter.asked.length - 1].title)}`);
        if (!write) continue;
        this.cross.tried++;
        this.cross.byOp[`made-up ${op}`] = (this.cross.byOp[`made-up ${op}`] ?? 0) + 1;
        const said = this.errorsSince(marks, uri);
        if (!said.some((m) => OTHER_ACCOUNT.test(m))) problems.push(`${what}: the file system never said that the file is another account's (it said: ${said.join(' | ') || 'nothing'}; VS Code: ${error})`);
        else if (!done) this.cross.refused++;
      }
    }
    const writes = writeRequestsSince(t0);
    if (writes.length) problems.push(`write requests reached the servers: ${writes.join(', ')}`);
    this.log(`a tab of the made-up account ${MADE_UP_LABEL} on #${id}: ${[...new Set(outcomes)].join(', ')}`);
    this.checkServer(`the made-up account's URIs of #${id}`);
    if (problems.length) throw new Violation('1 accounts', `a URI of the made-up label ${MADE_UP_LABEL}: ${problems.join('; ')}`);
  }

  // --- The checks -----------------------------------------------------------------------------------------

  /** What the server and the extension hold of a document, and the requests the extension made for it (for failure reports). */
  diag(id: number): string {
    const a = sandbox.documents.get(id);
    const known = s.documents.get(id);
    const reqs = sandbox.requests
      .filter((r) => r.server === 'documents' && r.path.endsWith(`/${id}`))
      .slice(-6)
      .map((r) => `${r.method}${r.body?.result !== undefined ? ` result=${short(r.body.result, 24)}` : ''}${r.body?.name !== undefined ? ` name=${short(r.body.name, 20)}` : ''}→${r.status}`);
    return `{#${id} on the server: ${a ? `${short(a.name)} ${short(a.result, 30)}` : 'deleted'}; the extension knows: ${known ? short(known.name) : 'nothing'}; its last requests for it: ${reqs.join(', ') || 'none'}}`;
  }

  /** Invariant 1 (and the model's own writes): the server holds exactly what the model says. */
  checkServer(after: string): void {
    const problems: string[] = [];
    boxes.forEach((box, i) => {
      const docs = this.accounts[i].docs;
      // Account B's documents are named "B:#id"; the account used now is named once, in front.
      const at = i === this.current ? '' : `${ACCOUNTS[i]}:`;
      const ids = new Set([...docs.keys(), ...[...box.documents.keys()].filter((id) => id >= firstId)]);
      for (const id of [...ids].sort((a, b) => a - b)) {
        const m = docs.get(id);
        const a: SandboxDocument | undefined = box.documents.get(id);
        if (!m && a) problems.push(`${at}#${id} exists (${short(a.name)}) but should not`);
        else if (m && !a) problems.push(`${at}#${id} ${short(m.name)} was deleted`);
        else if (m && a) {
          if (a.name !== m.name) problems.push(`${at}#${id} was renamed ${short(m.name)} → ${short(a.name)}`);
          if (a.result !== m.result) problems.push(`${at}#${id}'s text changed ${short(m.result)} → ${short(a.result)}`);
          if (a.favorite !== m.favorite) problems.push(`${at}#${id}'s favorite changed to ${a.favorite}`);
        }
      }
    });
    if (problems.length) throw new Violation('1 writes', `after ${after} (account ${ACCOUNTS[this.current]} used), other documents changed: ${problems.join('; ')}`);
  }

  /** Invariant 2 (every step): dirty editors keep exactly the text typed; editors the model has are still open. */
  checkEditors(): void {
    const open = new Set(tabKeys());
    for (const e of [...this.editors]) {
      if (!open.has(e.uri.toString())) {
        if (e.dirty) {
          const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => `${t.label}${t.isDirty ? '*' : ''} (${t.input instanceof vscode.TabInputText ? decodeURIComponent(t.input.uri.toString()) : typeof t.input})`));
          const doc = this.textDocument(e);
          throw new Violation(
            '2 no loss',
            `the dirty ${this.editorLabel(e)} was closed with its unsaved text (its document: ${doc ? `${doc.isDirty ? 'dirty' : 'clean'} ${short(doc.getText())}` : 'none'}; tabs: ${tabs.join(', ')})`,
          );
        }
        this.log(`(the tab of ${this.editorLabel(e)} went away)`);
        this.editors = this.editors.filter((x) => x !== e);
        continue;
      }
      const doc = this.textDocument(e);
      if (!e.dirty) continue;
      if (!doc || !doc.isDirty || doc.getText() !== e.text) {
        throw new Violation(
          '2 no loss',
          `the dirty ${this.editorLabel(e)} should hold ${short(e.text)} unsaved, but is ${doc?.isDirty ? 'dirty' : 'clean'} with ${short(doc?.getText())} ${this.diag(e.id)}`,
        );
      }
    }
  }

  /**
   * Invariant 4 (every step): the Documents view and the account folder list the same ids per template. Both follow
   * the same events, which VS Code's own reads (a stat finding a 404) can raise at any moment: a difference is
   * read again a few times before it counts.
   */
  async checkTreeAgainstFs(): Promise<void> {
    for (const t of TEMPLATES) {
      let problem: string | undefined;
      for (let attempt = 0; attempt < 5; attempt++) {
        if (attempt) await sleep(200);
        problem = await this.treeFsDifference(t.id, t.folder);
        if (!problem) break;
      }
      if (problem) throw new Violation('4 tree/fs', problem);
    }
  }

  private async treeFsDifference(templateId: number, folder: string): Promise<string | undefined> {
    const tree = await treeIds(templateId);
    const files = await folderIds(folder);
    const fsIds = [...files.values()].sort((a, b) => a - b);
    const treeSorted = [...tree.keys()].sort((a, b) => a - b);
    if (fsIds.join() !== treeSorted.join()) {
      const odd = [...new Set([...fsIds, ...treeSorted])].filter((x) => !fsIds.includes(x) || !treeSorted.includes(x));
      const lists = sandbox.requests
        .filter((r) => r.route === 'documents.list')
        .slice(-4)
        .map((r) => `list ${JSON.stringify(r.query)}`)
        .join(', ');
      return `${folder}: the view lists ${treeSorted.map((x) => `#${x}`).join(' ')}, the account folder ${[...files].map(([f, id]) => `${f}=#${id}`).join(' ')}; ${odd.map((x) => this.diag(x)).join(' ')}; the last listings: ${lists}`;
    }
    for (const [file, id] of files) {
      const name = tree.get(id)!;
      if (file !== fileOf(name) && !(file.startsWith(segment(name)) && file.endsWith(` (${id}).md`))) {
        return `${folder}: #${id} is ${short(name)} in the view but the file ${short(file)} in the account folder`;
      }
    }
    return undefined;
  }

  /** After a refresh: the view and the folder list exactly the server's documents (folder: documented names); invariant 3. */
  async checkFresh(): Promise<void> {
    for (const t of TEMPLATES) {
      const want = this.ids(t.id);
      const tree = [...(await treeIds(t.id)).keys()].sort((a, b) => a - b);
      if (tree.join() !== want.join()) throw new Violation('4 tree/fs', `after a refresh the view lists ${t.folder} as ${tree.map((x) => `#${x}`).join(' ')}, the server has ${want.map((x) => `#${x}`).join(' ')}`);
      // The answer has arrived; the extension takes a moment to lay it over what it heard meanwhile.
      const show = (m: Map<string, number>) => [...m].map(([f, id]) => `${f}=#${id}`).sort().join(', ');
      const problemOf = (files: Map<string, number>): string | undefined => {
        const listed = [...files.values()].sort((a, b) => a - b);
        if (listed.join() !== want.join()) return `after a refresh the account folder ${t.folder} lists ${show(files)}; the server has ${want.map((x) => `#${x}`).join(' ')}`;
        // Each file is named for its own document: Name.md, or Name (id).md where that name is taken.
        for (const [file, id] of files) {
          const name = this.docs.get(id)!.name;
          if (file !== fileOf(name) && !(file.startsWith(segment(name)) && file.endsWith(` (${id}).md`))) {
            return `after a refresh ${t.folder}/${file} stands for #${id}, which is named ${short(name)}`;
          }
        }
        return undefined;
      };
      let problem = problemOf(await folderIds(t.folder));
      for (let i = 0; i < 15 && problem; i++) {
        await sleep(200);
        problem = problemOf(await folderIds(t.folder));
      }
      if (problem) throw new Violation('4 tree/fs', problem);
    }
    // Invariant 3: every clean editor shows its own document's current text, or its file is gone; an editor of the
    // other account is refused.
    for (const e of this.editors) {
      if (e.acct !== this.current) {
        await this.checkRefused(e);
        continue;
      }
      if (e.dirty) continue;
      const d = this.docs.get(e.id);
      const want = (d?.result ?? '').trim();
      await this.loadedDocument(e);
      if (d && (await poll(() => this.textDocument(e)?.getText().trim() === want, 3_000))) continue;
      let resolved: string;
      try {
        const stat = await vscode.workspace.fs.stat(e.uri);
        resolved = `resolves (size ${stat.size}) to #${s.fs.documentIdOf(e.uri)}`;
      } catch (err) {
        if ((err as vscode.FileSystemError).code === 'FileNotFound') continue; // reported gone: fine
        resolved = `fails: ${(err as Error).message.slice(0, 80)}`;
      }
      const shows = this.textDocument(e)?.getText();
      throw new Violation(
        '3 content',
        d
          ? `after a refresh the clean ${this.editorLabel(e)} shows ${short(shows)}, but #${e.id} holds ${short(d.result)}; its URI ${resolved}`
          : `after a refresh the clean ${this.editorLabel(e)} (its document is deleted) shows ${short(shows)}; its URI ${resolved} instead of being gone`,
      );
    }
  }

  /**
   * Invariant 3 for an editor of the account not used now (a tab restored with other settings): its URI stands for
   * no document here, reading it is refused with the account message, and it never shows the text of this
   * account's document of the same id.
   */
  async checkRefused(e: ModelEditor): Promise<void> {
    const here = s.fs.documentIdOf(e.uri);
    if (here !== undefined) throw new Violation('3 restored', `${this.editorLabel(e)}, opened in account ${ACCOUNTS[e.acct]}, stands for #${here} in account ${ACCOUNTS[this.current]}`);
    let stat: string;
    try {
      const st = await vscode.workspace.fs.stat(e.uri);
      stat = `resolves (size ${st.size})`;
    } catch (err) {
      stat = (err as Error).message;
      if (OTHER_ACCOUNT.test(stat)) stat = '';
    }
    if (stat) throw new Violation('3 restored', `${this.editorLabel(e)}, opened in account ${ACCOUNTS[e.acct]}, is not refused in account ${ACCOUNTS[this.current]}: its URI ${short(stat, 120)}`);
    const shows = this.textDocument(e)?.getText().trim();
    const twin = this.docs.get(e.id)?.result?.trim();
    const own = this.accounts[e.acct].docs.get(e.id)?.result?.trim();
    if (shows !== undefined && twin !== undefined && shows === twin && twin !== own) {
      throw new Violation('3 restored', `${this.editorLabel(e)}, opened in account ${ACCOUNTS[e.acct]}, shows the text of #${e.id} in account ${ACCOUNTS[this.current]}: ${short(twin)}`);
    }
  }

  async checkAll(): Promise<void> {
    this.checkEditors();
    this.checkServer(`step ${this.step}`);
    await this.checkTreeAgainstFs();
  }

  // --- The view --------------------------------------------------------------------------------------------

  /** The Documents view's row of a document (for commands run from the view), when its group is loaded. */
  async treeNode(id: number): Promise<DocumentNode | undefined> {
    const t = this.docs.get(id)?.templateId;
    if (t === undefined) return undefined;
    const g = s.documentsTree.templateGroup(t);
    if (!g) return undefined;
    const kids: DocNode[] = (await s.documentsTree.getChildren(g)) ?? [];
    return kids.find((n): n is DocumentNode => n.kind === 'document' && n.doc.id === id);
  }
}

/** The document ids (→ names) the Documents view shows in a template group. */
async function treeIds(templateId: number): Promise<Map<number, string>> {
  const g = s.documentsTree.templateGroup(templateId);
  assert.ok(g, `the view has a group for template ${templateId}`);
  const kids: DocNode[] = (await s.documentsTree.getChildren(g)) ?? [];
  const out = new Map<number, string>();
  for (const n of kids) if (n.kind === 'document' && n.doc.id >= firstId) out.set(n.doc.id, n.doc.name);
  return out;
}

/** The account folder's files (→ the id each resolves to) in one template folder. */
async function folderIds(folder: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let listing: [string, vscode.FileType][] = [];
  try {
    listing = await vscode.workspace.fs.readDirectory(vscode.Uri.from({ scheme: SCHEME, authority: accountNow(), path: `/${folder}` }));
  } catch (e) {
    if ((e as vscode.FileSystemError).code !== 'FileNotFound') throw e; // no documents left in the template
  }
  for (const [f] of listing) {
    const id = s.fs.documentIdOf(accountUri(folder, f));
    if (id === undefined) throw new Violation('4 tree/fs', `the account folder lists ${folder}/${f}, which resolves to no document`);
    if (id < firstId) continue;
    // Invariant 1 at its root: a path that meant one document never comes to mean another (an editor showing it
    // would save there). Only a rename of a file onto that path, by the user, hands it over.
    const before = pathOwners.get(`${folder}/${f}`);
    if (before !== undefined && before !== id) {
      throw new Violation('1 path', `the account path ${folder}/${f} meant #${before} and now means #${id}`);
    }
    pathOwners.set(`${folder}/${f}`, id);
    out.set(f, id);
  }
  return out;
}

/** Requests other than reads that reached either sandbox since `t0`. */
function writeRequestsSince(t0: number): string[] {
  return boxes.flatMap((box, i) =>
    box.requests.filter((r) => r.at >= t0 && r.method !== 'GET' && r.method !== 'HEAD' && r.method !== 'OPTIONS').map((r) => `${ACCOUNTS[i]}: ${r.method} ${r.path}`),
  );
}

/**
 * Waits until the extension has taken in a change of account: it arrives through several events (settings, the
 * secret store), some of them late, so until none came for a second.
 */
async function settle(): Promise<void> {
  const switched = Date.now();
  while (Date.now() - Math.max(lastForget, switched) < 1_000 && Date.now() - switched < 6_000) await sleep(50);
}

/** The document ids a failure message names. */
function involved(message: string): Set<string> {
  return new Set([...message.matchAll(/#(\d{3,})/g)].map((m) => m[1]));
}

function mentions(line: string, ids: Set<string>): boolean {
  return [...line.matchAll(/#(\d{3,})|\((\d{3,})\)/g)].some((m) => ids.has(m[1] ?? m[2]));
}

function tabKeys(): string[] {
  const out: string[] = [];
  for (const g of vscode.window.tabGroups.all) for (const t of g.tabs) if (t.input instanceof vscode.TabInputText) out.push(t.input.uri.toString());
  return out;
}

async function poll(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (probe()) return true;
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
}

/** The sandboxes never issue an id twice (as a real auto-increment): ids set directly count as issued, on both. */
function bumpIssuedId(id: number): void {
  for (const box of boxes) {
    const impl = box as unknown as { lastIssuedId?: number };
    if (typeof impl.lastIssuedId === 'number') impl.lastIssuedId = Math.max(impl.lastIssuedId, id);
  }
}

/** Ids of this suite start here (one range per seed); anything below is not ours. */
let firstId = 0;
/** Account paths (`Folder/File.md`) seen this seed, and the document each meant. */
const pathOwners = new Map<string, number>();
const ID_BASE = 10_000;
const ID_RANGE = 1_000;

async function closeEverything(): Promise<void> {
  for (const d of vscode.workspace.textDocuments) {
    if (d.uri.scheme !== SCHEME || !d.isDirty) continue;
    await vscode.window.showTextDocument(d);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('notifications.clearAll');
}

describe('model-based file system test (content-docs:, random sequences)', function () {
  this.timeout(150_000);
  let previousPrompter: Prompter | undefined;
  let previousPreview: boolean | undefined;
  let previousAutoSave: string | undefined;

  before(async () => {
    s = await services();
    deleteWatch = vscode.Disposable.from(
      s.documents.onDidDelete((d) => currentRun?.log(`(the extension hears that #${d.id} is deleted)`)),
      s.documents.onDidForget(() => {
        lastForget = Date.now();
        currentRun?.log('(the extension forgets what it knew)');
      }),
    );
    saveWatch = vscode.workspace.onWillSaveTextDocument((e) => {
      // Every save is the model's own (a Manual save); anything else would be a save nobody asked for.
      if (e.document.uri.scheme === SCHEME && e.reason !== vscode.TextDocumentSaveReason.Manual) {
        currentRun?.log(`(VS Code saves ${decodeURIComponent(e.document.uri.toString())} by itself, reason ${e.reason})`);
      }
    });
    fsErrors = new FsErrors(s, ['stat', 'readFile', 'readDirectory', 'delete', 'rename', 'createDirectory']);
    saveErrors = new SaveErrors(s);
    previousPrompter = s.prompter.current;
    s.prompter.current = prompter;
    messages.install();
    // code-server's default is files.autoSave = afterDelay: the model decides when a save happens.
    const filesCfg = vscode.workspace.getConfiguration('files');
    previousAutoSave = filesCfg.inspect<string>('autoSave')?.globalValue;
    await filesCfg.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const editorCfg = vscode.workspace.getConfiguration('workbench.editor');
    previousPreview = editorCfg.inspect<boolean>('enablePreview')?.globalValue;
    await editorCfg.update('enablePreview', false, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('contentDocs').update('files.language', undefined, vscode.ConfigurationTarget.Global);
    s.documentsTree.model.setSearch(undefined);
    await s.documentsTree.model.setFavoritesOnly(false);
  });

  after(async () => {
    saveWatch?.dispose();
    deleteWatch?.dispose();
    await closeEverything();
    fsErrors?.dispose();
    saveErrors?.dispose();
    if (previousPrompter) s.prompter.current = previousPrompter;
    await vscode.workspace.getConfiguration('workbench.editor').update('enablePreview', previousPreview, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSave', previousAutoSave, vscode.ConfigurationTarget.Global);
    messages.dispose();
    for (const box of boxes) await box.close();
    const line = `model-based file system test: ${summary.steps} steps over ${summary.seeds.length} seeds (${summary.seeds.join(', ')}), ${summary.failures.length} invariant failures`;
    console.log(line);
    for (const c of summary.cross) console.log(`  ${c}`);
    for (const f of summary.failures) console.log(f);
  });

  for (const seed of SEEDS) {
    it(`seed ${seed}: ${STEPS} random steps keep the four invariants`, async () => {
      // Every seed has its own two sandboxes (other servers: the extension starts afresh, as after switching
      // accounts) and its own ids, so that a seed replays alone exactly as it ran among the others. It starts in A.
      firstId = ID_BASE + seed * ID_RANGE;
      pathOwners.clear();
      await closeEverything();
      for (const box of boxes) await box.close();
      boxes = [await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' }), await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' })];
      sandbox = boxes[0];
      await useSandbox(s, sandbox);
      await settle();
      const run = new Run(seed, firstId);
      currentRun = run;
      run.setUp();
      run.labels[0] = s.firstOrNone?.label;
      summary.seeds.push(seed);
      let failure: Violation | Error | undefined;
      try {
        // The account folder is listed once (as "Open Account as Folder" does), so that it follows changes.
        await vscode.workspace.fs.readDirectory(vscode.Uri.from({ scheme: SCHEME, authority: accountNow(), path: '/' }));
        await run.refresh('(start) ');
        await run.madeUpLabel();
        for (run.step = 1; run.step <= STEPS; run.step++) {
          await run.runStep();
          summary.steps++;
          await run.checkAll();
        }
        run.step = STEPS + 1;
        await run.refresh('(end) ');
      } catch (e) {
        failure = e as Error;
      }
      const ops = Object.entries(run.cross.byOp).map(([op, n]) => `${op} ${n}`).join(', ');
      const counts = `seed ${seed}: ${run.cross.switches} account switches, ${run.cross.tried} cross-account writes tried, ${run.cross.refused} refused (${ops || 'none'})`;
      summary.cross.push(counts);
      console.log(`  ${counts}`);
      if (!failure && process.env.CONTENT_DOCS_MODEL_TRACE) console.log(run.trace.map((l) => `  ${l}`).join('\n'));
      if (failure) {
        const report = [
          `model-based file system test: seed ${seed} failed at step ${run.step}: ${failure.message}`,
          `  replay: CONTENT_DOCS_MODEL_SEED=${seed}${STEPS !== 50 ? ` CONTENT_DOCS_MODEL_STEPS=${STEPS}` : ''}`,
          `  the steps that name the documents involved (${[...involved(failure.message)].map((x) => `#${x}`).join(', ')}), and the refreshes:`,
          ...run.trace.filter((l) => mentions(l, involved(failure.message)) || / refresh$/.test(l)).map((l) => `    ${l}`),
          '  the whole trace:',
          ...run.trace.map((l) => `  ${l}`),
        ].join('\n');
        summary.failures.push(report);
        console.log(report);
        if (!(failure instanceof Violation)) throw failure;
        assert.fail(`seed ${seed}, step ${run.step}: ${failure.message}`);
      }
    });
  }
});
