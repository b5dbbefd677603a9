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
 * For each case: a message naming the action and the cause; reads retried only for transient faults,
 * writes never retried (counted on the wire); nothing lost; no unhandled rejection; and once the
 * fault is cleared, the same action succeeds. The suite prints `fault matrix: N operation×fault cases
 * tried, M held` and asserts that all held.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Services } from '../../src/services/services';
import { startSandbox, type FaultKind, type RouteName, type Sandbox, type SandboxDocument } from '../sandbox/server';
import {
  closeAll,
  closedPort,
  configure,
  DocumentPool,
  editorOf,
  ExchangeCounter,
  LogCapture,
  MessageCapture,
  newDocumentAnswers,
  openDocument,
  ProgressControl,
  RecordingPrompter,
  readView,
  RejectionWatch,
  replaceAll,
  retryItem,
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
  /** The sandbox fault; undefined for a refused connection (the base URL points at a closed port). */
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
  { name: '302 to a login page', kind: 'redirectLogin', cause: /redirected to a login page \(HTTP 302\)/, transient: false },
  { name: 'wrong-shaped body', kind: 'wrongShape', cause: /did not have the expected shape/, transient: false },
  { name: 'oversized body', kind: 'oversized', cause: /too large/, transient: false },
];

let sandbox: Sandbox;
let s: Services;
let pool: DocumentPool;
const prompter = new RecordingPrompter();
const messages = new MessageCapture();
const progress = new ProgressControl();
const watch = new RejectionWatch();
let logs: LogCapture;
let exchanges: ExchangeCounter;
let saveErrors: SaveErrors;
let refusedUrl: string;

/** Puts the fault in place for `route` (or points the route's server at a closed port). */
async function applyFault(f: FaultSpec, route: RouteName): Promise<void> {
  if (f.kind) {
    sandbox.setFault(route, { kind: f.kind, retryAfter: f.retryAfter });
    return;
  }
  await configure(route.startsWith('projects') ? 'projects.baseUrl' : 'documents.baseUrl', refusedUrl);
}

async function clearFault(f: FaultSpec, route: RouteName): Promise<void> {
  sandbox.clearFaults();
  if (!f.kind) await configure(route.startsWith('projects') ? 'projects.baseUrl' : 'documents.baseUrl', route.startsWith('projects') ? sandbox.seoUrl : sandbox.docsUrl);
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

// --- the operations ------------------------------------------------------------------------------------

interface Operation {
  name: string;
  route: RouteName;
  read: boolean;
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

const tree = {
  /** Refresh, then read the Documents view as VS Code would. */
  async loadDocumentsUnderFault(sv: Services): Promise<ViewState & { requestsPerLoad: number }> {
    await vscode.commands.executeCommand('contentDocs.documentsRefresh');
    return { ...(await readView(sv.documentsTree as never)), requestsPerLoad: 1 };
  },
  async retryDocuments(sv: Services, node: AnyNode): Promise<ViewState> {
    const view = await readView(sv.documentsTree as never);
    const shown = view.nodes.find((n) => n.node === node) ?? view.error;
    if (shown?.node.kind === 'error') await retryItem(shown);
    return readView(sv.documentsTree as never);
  },
  async loadProjectsUnderFault(sv: Services): Promise<ViewState> {
    await vscode.commands.executeCommand('contentDocs.projectsRefresh');
    return readView(sv.projectsTree as never);
  },
  async retryProjects(sv: Services, node: AnyNode): Promise<ViewState> {
    const view = await readView(sv.projectsTree as never);
    const shown = view.nodes.find((n) => n.node === node) ?? view.error;
    if (shown?.node.kind === 'error') await retryItem(shown);
    return readView(sv.projectsTree as never);
  },
  async ensureDocumentKnown(sv: Services, id: number): Promise<void> {
    await sv.documents.fetch(id);
  },
  async documentArg(sv: Services, id: number): Promise<unknown> {
    const doc = sv.documents.get(id);
    return { kind: 'document', doc, id };
  },
  async documentStillListed(sv: Services, id: number): Promise<boolean> {
    return sv.documents.get(id) !== undefined;
  },
  async projectArg(sv: Services, name: string): Promise<unknown> {
    const view = await readView(sv.projectsTree as never, 1);
    const hit = view.nodes.find((n) => n.node.kind === 'project' && n.text.includes(name));
    return hit?.node ?? { kind: 'project', project: { project: name } };
  },
};

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
      assertNamesCause(shown.error.text, /couldn't (load|list|show|get|read).*documents|documents.*couldn't/i, f);
      assert.ok(shown.error.canRetry, 'the error item offers Retry');
      assert.strictEqual(exchanges.count('GET', '/documents?'), expectedAttempts(f, true) * shown.requestsPerLoad, 'attempts on the wire');
      assert.strictEqual(messages.since(t).filter((m) => m.level === 'error').length, 0, 'a view shows its error in the view, not in a notification');
      await clear();
      const after = await tree.retryDocuments(s, shown.error.node);
      assert.ok(!after.error, `after Retry the view lists documents, not an error: ${after.error?.text}`);
      assert.ok(after.documents > 0, 'after Retry the view lists documents');
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
      const before = sandbox.documents.get(d.id)!.result;
      const text = `Unsaved work facing ${f.name}, ${new Date().toISOString()}.\n\nIt must survive.`;
      await replaceAll(editor, text);
      await fault();
      exchanges.reset();
      const n0 = saveErrors.errors.length;
      assert.strictEqual(await editor.document.save(), false, 'the save fails');
      assert.strictEqual(editor.document.isDirty, true, 'the editor stays dirty');
      assert.strictEqual(editor.document.getText(), text, 'the text is intact');
      assert.strictEqual(sandbox.documents.get(d.id)!.result, before, 'the server text is unchanged');
      const err = saveErrors.errors.slice(n0).pop();
      assert.ok(err, 'the save failed with an error VS Code shows');
      assertNamesCause(err.message, new RegExp(`Couldn't save "${d.name}"`), f);
      // Refused: the pre-save check cannot reach the server, so nothing is sent at all.
      assert.strictEqual(exchanges.count('PATCH', `/documents/${d.id}`), f.kind ? 1 : 0, 'a save is never retried');
      await clear();
      assert.strictEqual(await editor.document.save(), true, 'saving again works');
      assert.strictEqual(editor.document.isDirty, false);
      assert.strictEqual(sandbox.documents.get(d.id)!.result, text.trim());
    },
  },
  {
    name: 'delete',
    route: 'documents.delete',
    read: false,
    async run(f, fault, clear) {
      const d = pool.take();
      await tree.ensureDocumentKnown(s, d.id);
      await fault();
      exchanges.reset();
      prompter.confirms = [true];
      const t = Date.now();
      await vscode.commands.executeCommand('contentDocs.documentDelete', await tree.documentArg(s, d.id));
      assert.ok(prompter.asked.some((q) => q.kind === 'confirm' && q.message!.includes(d.name)), 'the deletion was confirmed, naming the document');
      const m = await shownError(t, new RegExp(`Couldn't delete "${d.name}"`));
      assertNamesCause(m.message, /Couldn't delete/, f);
      assert.strictEqual(exchanges.count('DELETE', `/documents/${d.id}`), 1, 'a delete is never retried');
      assert.ok(sandbox.documents.has(d.id), 'the document still exists');
      assert.ok(await tree.documentStillListed(s, d.id), 'the view still shows the document');
      await clear();
      prompter.confirms = [true];
      const again = vscode.commands.executeCommand('contentDocs.documentDelete', await tree.documentArg(s, d.id));
      if (m.items.includes('Retry')) {
        // Retry repeats exactly what failed (after asking again, or not, as the product chooses).
        m.choose('Retry');
      } else {
        m.choose(undefined);
      }
      await again;
      await until('the document to be deleted after the fault', () => !sandbox.documents.has(d.id));
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
      assertNamesCause(shown.error.text, /couldn't (load|list|show|get|read).*projects|projects.*couldn't/i, f);
      assert.ok(shown.error.canRetry, 'the error item offers Retry');
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
      const project = takeProject();
      const reportsBefore = sandbox.reports.filter((r) => r.project.toLowerCase() === project.toLowerCase()).length;
      const arg = await tree.projectArg(s, project);
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
      await vscode.commands.executeCommand('contentDocs.projectDelete', await tree.projectArg(s, project));
      await until('the project to be deleted after the fault', () => !sandbox.reports.some((r) => r.project.toLowerCase() === project.toLowerCase()));
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
  let previousPrompter: RecordingPrompter['answer'] | undefined;
  let savedPrompter: Services['prompter']['current'] | undefined;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    s = await services();
    pool = new DocumentPool(sandbox);
    refusedUrl = `http://127.0.0.1:${await closedPort()}`;
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
    void previousPrompter;
  });

  after(async () => {
    saveErrors?.dispose();
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
    messages.dismissAll();
    prompter.reset();
    await closeAll();
  });

  for (const op of OPERATIONS) {
    for (const f of FAULTS) {
      it(`${op.name} × ${f.name}`, async function () {
        this.timeout(45_000);
        await tally.run(`${op.name} × ${f.name}`, async () => {
          const rejections = watch.ours.length;
          await op.run(
            f,
            () => applyFault(f, op.route),
            () => clearFault(f, op.route),
          );
          // Let anything left dangling settle, then: no unhandled rejection from the extension.
          await sleep(50);
          assert.deepStrictEqual(watch.ours.slice(rejections), [], 'no unhandled rejection');
        });
      });
    }
  }

  it('every operation × fault case held (prints the count)', () => {
    tally.report();
    console.log(`fault matrix: ${tally.tried} operation×fault cases tried, ${tally.held} held`);
    assert.strictEqual(tally.tried, OPERATIONS.length * FAULTS.length, 'every case ran (run the whole suite, not a part of it)');
    assert.strictEqual(tally.held, tally.tried, `${tally.tried - tally.held} case(s) did not hold`);
    assert.deepStrictEqual(watch.ours, [], 'no unhandled rejection in the whole run');
  });
});
