/**
 * Reliability: the fault matrix. Every operation (list, show, store, update, delete, project list,
 * project delete) × every fault the sandbox can produce (plus a refused connection), each driven
 * through the product's own path inside the real extension host, over real HTTP:
 *
 *   list            the Documents view's getChildren → an error item with a readable reason, and Retry
 *   show            Open Document (contentDocs.documentOpen)
 *   store           New Document… (contentDocs.documentNew), answered through the prompter
 *   update          save from an editor: the editor stays dirty with the text intact
 *   delete          Delete Document (contentDocs.documentDelete), confirmed
 *   project list    the Projects view's getChildren
 *   project delete  Delete Project (contentDocs.projectDelete), confirmed
 *
 * The file-system cases run over both URI forms of a document: `content-docs://<id>/<Template>/<Name>.md`
 * (above) and the account folder's `content-docs://account/<Template folder>/<Name>.md` (its path found by
 * listing the folder through the extension's file system, before the fault):
 *
 *   show (account folder)    an editor opened on the account URI (what a click in the Explorer does)
 *   update (account folder)  save from an editor opened on the account URI
 *   account folder list      readDirectory of the account folder and of a template folder: a FileSystemError
 *                            (Unavailable, or NoPermissions for a refused key) naming the cause, and once the
 *                            fault is cleared the same listings work (no failure is cached)
 *
 * For each case: a message naming the action and the cause; reads retried only for transient faults,
 * writes never retried (counted on the wire); nothing lost; no unhandled rejection; and once the
 * fault is cleared, the same action succeeds. The suite prints `fault matrix: N operation×fault cases
 * tried, M held` and asserts that all held.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import { startSandbox, type FaultKind, type RouteName, type Sandbox, type SandboxDocument } from '../sandbox/server';
import {
  accountRoot,
  accountUriOf,
  closeAll,
  configure,
  DocumentPool,
  editorAt,
  editorOf,
  ExchangeCounter,
  FsErrors,
  LogCapture,
  MessageCapture,
  newDocumentAnswers,
  openDocument,
  ProgressControl,
  RecordingPrompter,
  readView,
  RejectionWatch,
  replaceAll,
  SaveErrors,
  services,
  sleep,
  Tally,
  until,
  useSandbox,
  type AnyNode,
  type ShownMessage,
  type ViewState,
} from './reliabilityKit';

/** The network timeout the matrix runs with: the setting's minimum. */
const TIMEOUT_SECONDS = 5;

interface FaultSpec {
  name: string;
  /** The sandbox fault; undefined for a refused connection (the server is down: it stops listening on its address). */
  kind?: FaultKind;
  retryAfter?: number;
  /** What the message must say about the cause. */
  cause: RegExp;
  /** A read facing this fault is retried (transient): 3 attempts in all. */
  transient: boolean;
}

const FAULTS: FaultSpec[] = [
  { name: 'connection refused', cause: /connection was refused/i, transient: true },
  { name: 'hang past the timeout', kind: 'hang', cause: new RegExp(`did not answer within ${TIMEOUT_SECONDS} seconds`), transient: false },
  { name: 'reset mid-body', kind: 'reset', cause: /connection was closed before the answer was complete/i, transient: true },
  { name: '429 with Retry-After', kind: 'rateLimit', retryAfter: 1, cause: /too many requests \(HTTP 429\): try again in 1 second/i, transient: true },
  { name: 'HTTP 500', kind: 'status500', cause: /HTTP 500/, transient: false },
  { name: 'HTTP 502', kind: 'status502', cause: /HTTP 502/, transient: true },
  { name: 'HTTP 503', kind: 'status503', cause: /HTTP 503/, transient: true },
  { name: 'HTTP 504', kind: 'status504', cause: /HTTP 504/, transient: true },
  { name: 'malformed JSON', kind: 'malformedJson', cause: /not valid JSON/, transient: false },
  { name: 'HTML page with 200', kind: 'html200', cause: /web page instead of data \(HTTP 200\)/, transient: false },
  { name: '302 to a login page', kind: 'redirectLogin', cause: /redirected to its login page \(HTTP 302\)/, transient: false },
  { name: 'wrong-shaped body', kind: 'wrongShape', cause: /did not have the expected shape/, transient: false },
  { name: 'oversized body', kind: 'oversized', cause: /too large/, transient: false },
];

let sandbox: Sandbox;
let s: TestServices;
let pool: DocumentPool;
const prompter = new RecordingPrompter();
const messages = new MessageCapture();
const progress = new ProgressControl();
const watch = new RejectionWatch();
let logs: LogCapture;
let exchanges: ExchangeCounter;
let saveErrors: SaveErrors;
let fsErrors: FsErrors;
/** Puts the fault in place for `route` (or takes the route's server down: its connections are refused). */
async function applyFault(f: FaultSpec, route: RouteName): Promise<void> {
  if (f.kind) {
    sandbox.setFault(route, { kind: f.kind, retryAfter: f.retryAfter });
    return;
  }
  await sandbox.setListening(route.startsWith('projects') ? 'projects' : 'documents', false);
}

async function clearFault(f: FaultSpec, route: RouteName): Promise<void> {
  sandbox.clearFaults();
  if (!f.kind) await sandbox.setListening(route.startsWith('projects') ? 'projects' : 'documents', true);
}

/** The error message shown since `t` that matches `action`. */
async function shownError(t: number, action: RegExp, timeoutMs = 15_000): Promise<ShownMessage> {
  return until(
    `an error message matching ${action}`,
    () => messages.since(t).find((m) => m.level === 'error' && action.test(m.message)),
    timeoutMs,
  ).catch((e: Error) => {
    const seen = messages.since(t).map((m) => `${m.level}: ${m.message}`);
    throw new Error(`${e.message}; shown: ${JSON.stringify(seen)}`);
  });
}

/** An error row acts: a click retries (or, when the key was refused, asks for it); the inline Retry is always there. */
function assertErrorRowActs(row: { item: vscode.TreeItem }, f: FaultSpec): void {
  assert.strictEqual(row.item.contextValue, 'error', 'the row has the inline Retry (contextValue "error")');
  const expected = f.kind === 'redirectLogin' ? 'contentDocs.signIn' : 'contentDocs.retry';
  assert.strictEqual(row.item.command?.command, expected, `clicking the row runs ${expected}`);
}

function assertNamesCause(text: string, action: RegExp, f: FaultSpec): void {
  assert.match(text, action, `the message names the action: ${JSON.stringify(text)}`);
  assert.match(text, f.cause, `the message names the cause (${f.name}): ${JSON.stringify(text)}`);
}

/** Reads are attempted 3 times for a transient fault, once otherwise; writes exactly once. */
function expectedAttempts(f: FaultSpec, read: boolean): number {
  return read && f.transient ? 3 : 1;
}

/** Recovers through the message's Retry when the product offers it, else by doing it again. */
async function retryOrAgain(m: ShownMessage | undefined, again: () => Thenable<unknown> | Promise<unknown>): Promise<'retry' | 'again'> {
  if (m && m.items.includes('Retry') && !m.settled) {
    m.choose('Retry');
    return 'retry';
  }
  m?.choose(undefined);
  await again();
  return 'again';
}

/** The FileSystemError code a failed read or listing carries: a refused key is NoPermissions, everything else Unavailable. */
function expectedFsCode(f: FaultSpec): string {
  return f.kind === 'redirectLogin' ? 'NoPermissions' : 'Unavailable';
}

/** The error `p` rejects with (fails when it resolves). */
async function rejection(what: string, p: Thenable<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error(`${what} succeeded under the fault`);
}

/** The GETs of the account folder's listing (page by page, by id; the views' lists carry a template, favorite or search filter). */
const ACCOUNT_LISTING = /^\/documents\?(?!.*(?:template_id|favorite|search)=)(?=.*sort_by=id)/;

/** The template folder the account-folder list cases read (Freestyle: the seed has documents in it). */
const LIST_FOLDER = 'Freestyle';
/** How many further API keys of the sandbox's user the account-folder list cases made (see that operation). */
let listingKeys = 0;

// --- the operations ------------------------------------------------------------------------------------

interface Operation {
  name: string;
  route: RouteName;
  read: boolean;
  /** Runs over account-folder URIs (`content-docs://account/…`). */
  accountForm?: boolean;
  /** Runs one case: the fault is applied by `fault()` at the right moment (after any setup). */
  run(f: FaultSpec, fault: () => Promise<void>, clear: () => Promise<void>): Promise<void>;
}

const used = new Set<string>();
function uniqueName(prefix: string): string {
  for (let i = 1; ; i++) {
    const n = `${prefix} ${i}`;
    if (!used.has(n)) {
      used.add(n);
      return n;
    }
  }
}

// --- the views, as the product shows them ------------------------------------------------------------------

/** The template group the list cases expand (Freestyle: the seed has documents in it). */
const LIST_TEMPLATE_ID = 1;

const tree = {
  /** Refresh (drops every cached list), then expand the Freestyle group as VS Code would. */
  async loadDocumentsUnderFault(sv: TestServices): Promise<ViewState> {
    await vscode.commands.executeCommand('contentDocs.documentsRefresh');
    const group = sv.documentsTree.templateGroup(LIST_TEMPLATE_ID);
    assert.ok(group, 'the Freestyle group is shown');
    return readView(sv.documentsTree as never, 1, group as never);
  },
  /** The error row's inline Retry (contentDocs.retry on the row), then the group again. */
  async retryDocuments(sv: TestServices, node: AnyNode): Promise<ViewState> {
    await vscode.commands.executeCommand('contentDocs.retry', node);
    return readView(sv.documentsTree as never, 1, sv.documentsTree.templateGroup(LIST_TEMPLATE_ID) as never);
  },
  async loadProjectsUnderFault(sv: TestServices): Promise<ViewState> {
    await vscode.commands.executeCommand('contentDocs.projectsRefresh');
    return readView(sv.projectsTree as never, 1);
  },
  async retryProjects(sv: TestServices, node: AnyNode): Promise<ViewState> {
    await vscode.commands.executeCommand('contentDocs.retry', node);
    return readView(sv.projectsTree as never, 1);
  },
  /** The document's row in its template group (the argument the row's context menu passes). */
  async documentArg(sv: TestServices, d: SandboxDocument): Promise<unknown> {
    const group = sv.documentsTree.templateGroup(d.templateId!);
    assert.ok(group, `the group of template ${d.templateId} is shown`);
    for (let i = 0; i < 40; i++) {
      const children = (await sv.documentsTree.getChildren(group)) as unknown as AnyNode[];
      const row = children.find((n) => n.kind === 'document' && (n.doc as { id: number }).id === d.id);
      if (row) return row;
      const more = children.find((n) => n.kind === 'loadMore');
      if (!more) break;
      await sv.documentsTree.model.loadMore(more as never);
    }
    throw new Error(`document ${d.id} is not listed in its group`);
  },
  async documentStillListed(sv: TestServices, d: SandboxDocument): Promise<boolean> {
    return tree.documentArg(sv, d).then(
      () => true,
      () => false,
    );
  },
  /** The project's row in the Projects view (loading more pages until it shows). */
  async projectArg(sv: TestServices, name: string): Promise<AnyNode> {
    for (let i = 0; i < 20; i++) {
      const children = (await sv.projectsTree.getChildren()) as unknown as AnyNode[];
      const row = children.find((n) => n.kind === 'project' && (n.project as { project: string }).project.toLowerCase() === name.toLowerCase());
      if (row) return row;
      if (!children.some((n) => n.kind === 'loadMore')) break;
      await sv.projectsTree.model.loadMore();
    }
    throw new Error(`project ${name} is not listed`);
  },
};

/** Saves `editor` (holding document `d`) under the fault: the update cases of both URI forms. */
async function saveUnderFault(
  f: FaultSpec,
  fault: () => Promise<void>,
  clear: () => Promise<void>,
  d: SandboxDocument,
  editor: vscode.TextEditor,
  form: 'document' | 'account' = 'document',
): Promise<void> {
  const before = sandbox.documents.get(d.id)!.result;
  const text = `Unsaved work facing ${f.name}, ${new Date().toISOString()}.\n\nIt must survive.`;
  await replaceAll(editor, text);
  await fault();
  exchanges.reset();
  const n0 = saveErrors.errors.length;
  const t = Date.now();
  assert.strictEqual(await editor.document.save(), false, 'the save fails');
  assert.strictEqual(editor.document.isDirty, true, 'the editor stays dirty');
  assert.strictEqual(editor.document.getText(), text, 'the text is intact');
  assert.strictEqual(sandbox.documents.get(d.id)!.result, before, 'the server text is unchanged');
  let err = saveErrors.errors.slice(n0).pop();
  if (!err && form === 'account' && !f.kind) {
    // Before writing, VS Code stats the file's folder; when the account's listing cannot be read, that stat
    // fails, and its error is the one the save fails with (writeFile is not called).
    const folder = editor.document.uri.with({ path: editor.document.uri.path.slice(0, editor.document.uri.path.lastIndexOf('/')) }).toString();
    err = fsErrors.since(t).filter((e) => e.op === 'stat' && (e.uri === folder || e.uri === editor.document.uri.toString())).pop();
  }
  assert.ok(err, 'the save failed with an error VS Code shows');
  const saveAction = new RegExp(`Couldn't save "${d.name}"`);
  assertNamesCause(err.message, saveAction, f);
  assert.strictEqual(err.code, expectedFsCode(f), `the save fails with ${expectedFsCode(f)}: ${JSON.stringify(err.message)}`);
  // Refused: the pre-save check cannot reach the server, so nothing is sent at all.
  assert.strictEqual(exchanges.count('PATCH', `/documents/${d.id}`), f.kind ? 1 : 0, 'a save is never retried');
  await clear();
  assert.strictEqual(await editor.document.save(), true, 'saving again works');
  assert.strictEqual(editor.document.isDirty, false);
  assert.strictEqual(sandbox.documents.get(d.id)!.result, text.trim());
}

const OPERATIONS: Operation[] = [
  {
    name: 'list',
    route: 'documents.list',
    read: true,
    async run(f, fault, clear) {
      await fault();
      exchanges.reset();
      const t = Date.now();
      const shown = await tree.loadDocumentsUnderFault(s);
      assert.ok(shown.error, `the Documents view shows an error item, not ${JSON.stringify(shown.labels.slice(0, 5))}`);
      assertNamesCause(shown.error.text, /Couldn't load the documents/, f);
      assertErrorRowActs(shown.error, f);
      assert.strictEqual(exchanges.count('GET', new RegExp(`^/documents\\?.*template_id=${LIST_TEMPLATE_ID}`)), expectedAttempts(f, true), 'attempts on the wire');
      assert.strictEqual(messages.since(t).filter((m) => m.level === 'error').length, 0, 'a view shows its error in the view, not in a notification');
      await clear();
      const after = await tree.retryDocuments(s, shown.error.node);
      assert.ok(!after.error, `after Retry the view lists documents, not an error: ${after.error?.text}`);
      assert.ok(after.documents > 0, 'after Retry the view lists documents');
    },
  },
  {
    name: 'account folder list',
    route: 'documents.list',
    read: true,
    accountForm: true,
    async run(f, fault, clear) {
      // The account folder not listed yet, as after an account switch: nothing cached to fall back on. An account keeps
      // its listing for the window (a Refresh reads it again and keeps it meanwhile), so the case signs in with another
      // API key of the same user: another account, whose folder was never listed (afterEach sets the suite's key again).
      const key = `${sandbox.key}-listing-${++listingKeys}`;
      sandbox.addKey(key);
      await s.credentials.setKey(key);
      const folder = vscode.Uri.joinPath((await accountRoot()), LIST_FOLDER);
      await fault();
      const t = Date.now();
      for (const uri of [(await accountRoot()), folder]) {
        exchanges.reset();
        const e = await rejection(`listing ${uri.toString()}`, vscode.workspace.fs.readDirectory(uri));
        assert.ok(e instanceof vscode.FileSystemError, `listing ${uri.toString()} fails with a FileSystemError, not ${e?.name}`);
        assert.strictEqual(e.code, expectedFsCode(f), `listing ${uri.toString()} fails with ${expectedFsCode(f)}: ${JSON.stringify(e.message)}`);
        assertNamesCause(e.message, /Couldn't list the documents of the account/, f);
        assert.strictEqual(exchanges.count('GET', ACCOUNT_LISTING), expectedAttempts(f, true), `attempts on the wire listing ${uri.toString()}`);
      }
      assert.strictEqual(messages.since(t).filter((m) => m.level === 'error').length, 0, 'the file system tells its caller, not a notification');
      await clear();
      exchanges.reset();
      const root = await vscode.workspace.fs.readDirectory((await accountRoot()));
      assert.ok(
        root.some(([n, type]) => n === LIST_FOLDER && type === vscode.FileType.Directory),
        `after the fault the account folder lists ${LIST_FOLDER}: ${JSON.stringify(root.slice(0, 8))}`,
      );
      assert.ok(exchanges.count('GET', ACCOUNT_LISTING) > 0, 'the listing after the fault asked the server (no failure was cached)');
      const files = await vscode.workspace.fs.readDirectory(folder);
      assert.ok(files.length > 0 && files.every(([, type]) => type === vscode.FileType.File), `after the fault ${LIST_FOLDER} lists its documents as files`);
    },
  },
  {
    name: 'show',
    route: 'documents.show',
    read: true,
    async run(f, fault, clear) {
      const d = pool.take();
      await fault();
      exchanges.reset();
      const t = Date.now();
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: d.id });
      const m = await shownError(t, new RegExp(`Couldn't open (document ${d.id}|"${d.name}")`));
      assertNamesCause(m.message, /Couldn't open/, f);
      assert.strictEqual(editorOf(d.id), undefined, 'no editor opened on a failed read');
      assert.strictEqual(exchanges.count('GET', `/documents/${d.id}`), expectedAttempts(f, true), 'attempts on the wire');
      await clear();
      await retryOrAgain(m, () => vscode.commands.executeCommand('contentDocs.documentOpen', { id: d.id }));
      const editor = await until('the document to open after the fault', () => editorOf(d.id));
      assert.strictEqual(editor.document.getText(), sandbox.documents.get(d.id)!.result);
    },
  },
  {
    name: 'show (account folder)',
    route: 'documents.show',
    read: true,
    accountForm: true,
    async run(f, fault, clear) {
      const d = pool.take();
      const uri = await accountUriOf(s, d.id);
      await fault();
      exchanges.reset();
      const t = Date.now();
      // What a click on the file in the Explorer does: VS Code stats and reads it through the file system.
      const failure = await rejection(`opening ${uri.toString()}`, vscode.window.showTextDocument(uri));
      assert.strictEqual(editorAt(uri), undefined, 'no editor opened on a failed read');
      assert.match(failure.message, f.cause, `what VS Code reports names the cause (${f.name}): ${JSON.stringify(failure.message)}`);
      const thrown = fsErrors.since(t).filter((e) => e.uri === uri.toString());
      assert.ok(thrown.length > 0, `the file system failed the read of ${uri.toString()}`);
      for (const e of thrown) {
        assert.strictEqual(e.code, expectedFsCode(f), `${e.op} fails with ${expectedFsCode(f)}: ${JSON.stringify(e.message)}`);
        assertNamesCause(e.message, new RegExp(`Couldn't open "${escapeRe(d.name)}"`), f);
      }
      // VS Code stats and reads the file at once: both wait on one read, retried only for a transient fault.
      const ops = thrown.map((e) => e.op).join(', ');
      // The path resolves from the listing already read (a server that is down is the same account): the read fails.
      assert.strictEqual(exchanges.count('GET', `/documents/${d.id}`), expectedAttempts(f, true), `attempts on the wire (${ops} failed)`);
      await clear();
      const editor = await vscode.window.showTextDocument(uri);
      assert.strictEqual(editor.document.getText(), sandbox.documents.get(d.id)!.result, 'after the fault the file opens with the document');
    },
  },
  {
    name: 'store',
    route: 'documents.store',
    read: false,
    async run(f, fault, clear) {
      const name = uniqueName(`Fault ${f.name}`);
      prompter.answer = newDocumentAnswers(name, `Text written while facing ${f.name}`);
      const before = sandbox.documents.size;
      await fault();
      exchanges.reset();
      const t = Date.now();
      const running = vscode.commands.executeCommand('contentDocs.documentNew');
      if (f.kind === 'hang') {
        // Creating waits up to 3 minutes by design (the server writes the text during the request),
        // under a cancellable progress notification: past the network timeout it is still waiting, and
        // Cancel stops it with a message that says what may have happened.
        await until('the store request', () => exchanges.count('POST', '/documents') > 0 || sandbox.requests.some((r) => r.route === 'documents.store'));
        await sleep(TIMEOUT_SECONDS * 1000 + 500);
        const p = progress.running.find((x) => !x.done && x.title.includes(name));
        assert.ok(p, `a cancellable progress for "${name}" is still running past the ${TIMEOUT_SECONDS} s timeout`);
        p.cancel();
        await running;
        const m = await until('the cancellation message', () => messages.since(t).find((x) => x.message.includes(name)));
        assert.match(m.message, new RegExp(`Stopped waiting for "${name}"`));
        assert.match(m.message, /may still create it/);
      } else {
        await running;
        const m = await shownError(t, new RegExp(`Couldn't create "${name}"`));
        assertNamesCause(m.message, /Couldn't create/, f);
        // When the answer was lost or unreadable the document may exist: the message says so, and offers no Retry.
        if (/closed before|web page|valid JSON|shape|too large/.test(m.message)) {
          assert.match(m.message, /may have created it anyway/);
          assert.ok(!m.items.includes('Retry'), 'no Retry when the document may already exist');
        }
        m.choose(undefined);
      }
      assert.strictEqual(exchanges.count('POST', '/documents'), 1, 'a store is never retried');
      assert.strictEqual(sandbox.documents.size, before, 'nothing was created');
      await clear();
      prompter.answer = newDocumentAnswers(name, `Text written while facing ${f.name}`);
      await vscode.commands.executeCommand('contentDocs.documentNew');
      const created = await until('the document to be created after the fault', () => [...sandbox.documents.values()].find((d) => d.name === name));
      await until('the new document to open', () => editorOf(created.id));
    },
  },
  {
    name: 'update',
    route: 'documents.update',
    read: false,
    async run(f, fault, clear) {
      const d = pool.take();
      const editor = await openDocument(d.id);
      await saveUnderFault(f, fault, clear, d, editor);
    },
  },
  {
    name: 'update (account folder)',
    route: 'documents.update',
    read: false,
    accountForm: true,
    async run(f, fault, clear) {
      const d = pool.take();
      const uri = await accountUriOf(s, d.id);
      const editor = await vscode.window.showTextDocument(uri);
      assert.strictEqual(editor.document.uri.toString(), uri.toString(), 'the editor is on the account-folder URI');
      assert.strictEqual(editor.document.getText(), sandbox.documents.get(d.id)!.result, 'the account-folder file shows the document');
      await saveUnderFault(f, fault, clear, d, editor, 'account');
    },
  },
  {
    name: 'delete',
    route: 'documents.delete',
    read: false,
    async run(f, fault, clear) {
      const d = pool.take();
      const row = await tree.documentArg(s, d);
      await fault();
      exchanges.reset();
      prompter.confirms = [true];
      const t = Date.now();
      await vscode.commands.executeCommand('contentDocs.documentDelete', row);
      assert.ok(prompter.asked.some((q) => q.kind === 'confirm' && q.message!.includes(d.name)), 'the deletion was confirmed, naming the document');
      const m = await shownError(t, new RegExp(`Couldn't delete "${d.name}"`));
      assertNamesCause(m.message, /Couldn't delete/, f);
      assert.strictEqual(exchanges.count('DELETE', `/documents/${d.id}`), 1, 'a delete is never retried');
      assert.ok(sandbox.documents.has(d.id), 'the document still exists');
      await clear();
      assert.ok(await tree.documentStillListed(s, d), 'the view still shows the document');
      m.choose(undefined);
      prompter.confirms = [true];
      await vscode.commands.executeCommand('contentDocs.documentDelete', row);
      await until('the document to be deleted after the fault', () => !sandbox.documents.has(d.id));
      assert.ok(!(await tree.documentStillListed(s, d)), 'the view no longer shows it');
    },
  },
  {
    name: 'project list',
    route: 'projects.list',
    read: true,
    async run(f, fault, clear) {
      await fault();
      exchanges.reset();
      const t = Date.now();
      const shown = await tree.loadProjectsUnderFault(s);
      assert.ok(shown.error, `the Projects view shows an error item, not ${JSON.stringify(shown.labels.slice(0, 5))}`);
      assertNamesCause(shown.error.text, /Couldn't load the projects/, f);
      assertErrorRowActs(shown.error, f);
      assert.strictEqual(exchanges.count('GET', '/projects'), expectedAttempts(f, true), 'attempts on the wire');
      assert.strictEqual(messages.since(t).filter((m) => m.level === 'error').length, 0, 'a view shows its error in the view, not in a notification');
      await clear();
      const after = await tree.retryProjects(s, shown.error.node);
      assert.ok(!after.error, `after Retry the view lists projects, not an error: ${after.error?.text}`);
      assert.ok(after.projects > 0, 'after Retry the view lists projects');
    },
  },
  {
    name: 'project delete',
    route: 'projects.delete',
    read: false,
    async run(f, fault, clear) {
      await vscode.commands.executeCommand('contentDocs.projectsRefresh');
      const arg = await tree.projectArg(s, takeProject());
      // The name as the server lists it (projects match case-insensitively; the list shows one spelling).
      const project = (arg.project as { project: string }).project;
      const reportsBefore = sandbox.reports.filter((r) => r.project.toLowerCase() === project.toLowerCase()).length;
      await fault();
      exchanges.reset();
      prompter.confirms = [true];
      const t = Date.now();
      await vscode.commands.executeCommand('contentDocs.projectDelete', arg);
      assert.ok(prompter.asked.some((q) => q.kind === 'confirm' && q.message!.includes(project)), 'the deletion was confirmed, naming the project');
      const m = await shownError(t, new RegExp(`Couldn't delete .*${escapeRe(project)}`));
      assertNamesCause(m.message, /Couldn't delete/, f);
      assert.strictEqual(exchanges.count('DELETE', '/projects/'), 1, 'a delete is never retried');
      assert.strictEqual(sandbox.reports.filter((r) => r.project.toLowerCase() === project.toLowerCase()).length, reportsBefore, 'the project is intact');
      await clear();
      m.choose(undefined);
      prompter.confirms = [true];
      await vscode.commands.executeCommand('contentDocs.projectDelete', arg);
      await until('the project to be deleted after the fault', () => !sandbox.reports.some((r) => r.project.toLowerCase() === project.toLowerCase()));
      assert.ok(!s.projectsTree.model.findProject(project), 'the view no longer shows it');
    },
  },
];

const usedProjects = new Set<string>();
function takeProject(): string {
  const names = [...new Set(sandbox.reports.map((r) => r.project))].filter((n) => /^[\w ]+$/.test(n) && !usedProjects.has(n.toLowerCase()));
  const n = names.sort()[0];
  if (!n) throw new Error('no plain project name left in the seed');
  usedProjects.add(n.toLowerCase());
  return n;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// --- the suite -----------------------------------------------------------------------------------------

describe('reliability: fault matrix', function () {
  this.timeout(60_000);
  const tally = new Tally('fault matrix');
  /** The cases over account-folder URIs, counted again on their own. */
  const accountTally = new Tally('fault matrix over account-folder URIs');
  let savedPrompter: TestServices['prompter']['current'] | undefined;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    s = await services();
    pool = new DocumentPool(sandbox);
    await useSandbox(s, sandbox);
    await configure('network.timeoutSeconds', TIMEOUT_SECONDS);
    savedPrompter = s.prompter.current;
    s.prompter.current = prompter;
    messages.install();
    messages.autoDismiss = false;
    assert.ok(messages.patched, 'vscode.window.showErrorMessage can be observed in this host');
    progress.install();
    watch.install();
    logs = new LogCapture().install(s);
    exchanges = new ExchangeCounter(s);
    saveErrors = new SaveErrors(s);
    fsErrors = new FsErrors(s);
  });

  after(async () => {
    saveErrors?.dispose();
    fsErrors?.dispose();
    exchanges?.dispose();
    logs?.dispose();
    messages.dispose();
    progress.dispose();
    watch.dispose();
    if (savedPrompter) s.prompter.current = savedPrompter;
    await closeAll();
    await configure('network.timeoutSeconds', undefined);
    await sandbox?.close();
  });

  afterEach(async () => {
    sandbox.clearFaults();
    // A case that signed in with another key (account folder list): the suite's own account again.
    if ((await s.credentials.getKey()) !== sandbox.key) await s.credentials.setKey(sandbox.key);
    // A case that failed before its server came back leaves the next ones a listening sandbox again.
    await sandbox.setListening('documents', true);
    await sandbox.setListening('projects', true);
    messages.dismissAll();
    prompter.reset();
    await closeAll();
  });

  for (const op of OPERATIONS) {
    for (const f of FAULTS) {
      it(`${op.name} × ${f.name}`, async function () {
        this.timeout(45_000);
        await tally.run(`${op.name} × ${f.name}`, async () => {
          const body = async () => {
            const rejections = watch.ours.length;
            await op.run(
              f,
              () => applyFault(f, op.route),
              () => clearFault(f, op.route),
            );
            // Let anything left dangling settle, then: no unhandled rejection from the extension.
            await sleep(50);
            assert.deepStrictEqual(watch.ours.slice(rejections), [], 'no unhandled rejection');
          };
          await (op.accountForm ? accountTally.run(`${op.name} × ${f.name}`, body) : body());
        });
      });
    }
  }

  it('every operation × fault case held (prints the count)', () => {
    tally.report();
    console.log(`fault matrix: ${tally.tried} operation×fault cases tried, ${tally.held} held`);
    console.log(
      `  of which over account-folder URIs (content-docs://account/…): ${accountTally.tried} tried, ${accountTally.held} held; ` +
        `over content-docs://<id>/… and the views: ${tally.tried - accountTally.tried} tried, ${tally.held - accountTally.held} held`,
    );
    assert.strictEqual(tally.tried, OPERATIONS.length * FAULTS.length, 'every case ran (run the whole suite, not a part of it)');
    assert.strictEqual(accountTally.tried, OPERATIONS.filter((o) => o.accountForm).length * FAULTS.length, 'every account-folder case ran');
    assert.strictEqual(tally.held, tally.tried, `${tally.tried - tally.held} case(s) did not hold`);
    assert.deepStrictEqual(watch.ours, [], 'no unhandled rejection in the whole run');
  });
});
