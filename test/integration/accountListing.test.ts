/**
 * The account folder's listing, inside a real VS Code against the sandbox: the listing is walked by offset pages
 * (`sort_by=id`, 100 a page), and someone else deletes a document on a page already read before the next page is
 * read. That moves the next page one row on, so one live document is in no page. It must never be taken for
 * deleted: its editor keeps saving into it, and the Documents view keeps showing it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import type { Prompter } from '../../src/ui/prompter';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { accountUri, countWithoutPauses, freshListing, putDocument, startAccountSuite } from './accountKit';
import { accountRoot, closeAll, labelText, readView, replaceAll, SaveErrors, until, useSandbox } from './reliabilityKit';

let sandbox: Sandbox;
let s: TestServices;
let previousPrompter: Prompter | undefined;

/** Ids 1001…1150 in id order: page 1 of the listing holds 1001…1100, page 2 holds 1101…1150. */
const FIRST = 1001;
const COUNT = 150;
/** The first document of page 2, alone in its template (Video description) so its group is small. */
const PAGE_TWO = FIRST + 100;
/** A document of page 1, deleted by someone else between the listing's page reads. */
const PAGE_ONE = FIRST + 9;
const TWEET = 33;
const VIDEO_DESCRIPTION = 36;

/** A sandbox holding documents FIRST…FIRST+COUNT-1 (PAGE_TWO, named `pageTwo`, alone in its template; the others Tweets). */
async function seededSandbox(pageTwo: string): Promise<Sandbox> {
  const box = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
  for (let id = FIRST; id < FIRST + COUNT; id++) {
    putDocument(box, id, id === PAGE_TWO ? pageTwo : `Doc ${id}`, id === PAGE_TWO ? VIDEO_DESCRIPTION : TWEET);
  }
  return box;
}

async function filesIn(folder: string): Promise<string[]> {
  return (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath((await accountRoot()), folder))).map(([f]) => f);
}

/** The names of the documents the Documents view shows in a template's group. */
async function groupNames(templateId: number): Promise<string[]> {
  const group = s.documentsTree.templateGroup(templateId);
  assert.ok(group, `the Documents view has a group for template ${templateId}`);
  const view = await readView(s.documentsTree as never, 1, group as never);
  return view.nodes.filter((n) => n.node.kind === 'document').map((n) => labelText(n.item.label));
}

/**
 * Deletes `id` on the server right after the next account-listing page 1 is answered (before page 2 is asked for).
 * `quiet(ms)`: that happened, and no request was answered for `ms` since (the listing and what follows it are done).
 */
function deleteBetweenPageReads(box: Sandbox, id: number): { quiet: (ms: number) => boolean; dispose: () => void } {
  let fired = false;
  let last = Date.now();
  // Every account's exchanges: the listing may be made by an account signed in after the hook is set (another server).
  const sub = s.registry.onDidExchange(({ account, exchange: e }) => {
    last = Date.now();
    if (fired || account.documentsUrl !== box.docsUrl || e.method !== 'GET' || !e.path.startsWith('/documents?')) return;
    const q = new URLSearchParams(e.path.slice(e.path.indexOf('?') + 1));
    if (q.get('sort_by') !== 'id' || q.get('per_page') !== '100' || (q.get('page') ?? '1') !== '1' || q.has('template_id') || q.has('search')) return;
    fired = true;
    box.documents.delete(id);
  });
  return { quiet: (ms) => fired && Date.now() - last > ms, dispose: () => sub.dispose() };
}

describe('Account folder listing: a document a page walk skipped is never taken for deleted', function () {
  this.timeout(90_000);

  before(async () => {
    sandbox = await seededSandbox('Page two');
    ({ s, previousPrompter } = await startAccountSuite(sandbox));
  });

  after(async () => {
    await closeAll();
    if (previousPrompter) s.prompter.current = previousPrompter;
    await sandbox.close();
  });

  it('a delete on page 1 between the page reads of a Refresh: the editor of a page-2 document still saves into it, and the Documents view still shows it', async () => {
    await freshListing();
    const uri = accountUri('Video description', 'Page two.md');
    assert.strictEqual(s.fs.documentIdOf(uri), PAGE_TWO, 'the account folder lists the page-2 document');
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    assert.strictEqual(editor.document.getText(), `Text of Page two (${PAGE_TWO})`);
    await replaceAll(editor, 'Unsaved words for the page-2 document');

    const hook = deleteBetweenPageReads(sandbox, PAGE_ONE);
    try {
      await vscode.commands.executeCommand('contentDocs.documentsRefresh');
      // The view lists the group again before the account listing (500 ms after the refresh) lands.
      assert.deepStrictEqual(await groupNames(VIDEO_DESCRIPTION), ['Page two'], 'the Documents view shows the document after the refresh');
      await until('the account listing to walk past the delete and settle', () => hook.quiet(1_500), 20_000);
    } finally {
      hook.dispose();
    }

    assert.ok(!sandbox.documents.has(PAGE_ONE), 'the page-1 document was deleted on the server');
    assert.ok(sandbox.documents.has(PAGE_TWO), 'the page-2 document is live on the server');
    assert.deepStrictEqual(await groupNames(VIDEO_DESCRIPTION), ['Page two'], 'the Documents view still shows the live document');
    assert.deepStrictEqual(await filesIn('Video description'), ['Page two.md'], 'the account folder still lists it');

    const errors = new SaveErrors(s);
    try {
      assert.strictEqual(await editor.document.save(), true, `the save goes through (${errors.last()?.message ?? 'no error'})`);
    } finally {
      errors.dispose();
    }
    assert.strictEqual(sandbox.documents.get(PAGE_TWO)!.result, 'Unsaved words for the page-2 document', 'the text reached its document');
    assert.strictEqual(editor.document.isDirty, false);

    const tweets = await filesIn('Tweet');
    assert.ok(!tweets.includes(`Doc ${PAGE_ONE}.md`), 'the document deleted on the server (404 when asked for) left the account folder');
    assert.strictEqual(tweets.length, COUNT - 2, 'every other document is listed');
  });

  it('the first listing of an account, with a delete on page 1 between its page reads, lists every live document', async () => {
    await closeAll();
    // Another name: the path the editor above showed stays the previous account's while VS Code keeps its model.
    const other = await seededSandbox('Second page');
    const hook = deleteBetweenPageReads(other, PAGE_ONE);
    try {
      await useSandbox(s, other); // another server: the account folder lists again when next looked at
      const folders = (await vscode.workspace.fs.readDirectory((await accountRoot()))).map(([f]) => f);
      await until('the account listing to walk past the delete and settle', () => hook.quiet(1_000), 20_000);
      assert.ok(!other.documents.has(PAGE_ONE), 'the page-1 document was deleted on the server during the listing');
      assert.deepStrictEqual(folders.sort(), ['Tweet', 'Video description'], 'both templates have a folder');
      assert.deepStrictEqual(await filesIn('Video description'), ['Second page.md'], 'the document the first walk skipped is listed');
      const tweets = await filesIn('Tweet');
      assert.ok(!tweets.includes(`Doc ${PAGE_ONE}.md`), 'the deleted document is not listed');
      assert.strictEqual(tweets.length, COUNT - 2, 'every other document is listed');
    } finally {
      hook.dispose();
      await useSandbox(s, sandbox);
      countWithoutPauses(s);
      await other.close();
    }
  });
});
