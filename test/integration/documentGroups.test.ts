/**
 * The Documents view's groups as VS Code shows them, against the sandbox: the rows of groups that mix templates
 * say their template; a sort with Hide Empty Templates on keeps Favorites and its count; the template pickers
 * name templates as the server does and offer the custom templates of the account used now only.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { DocNode, DocumentNode, GroupNode } from '../../src/model/nodes';
import type { TestServices } from '../kit/services';
import type { DocumentsTreeProvider } from '../../src/documents/documentsTree';
import type { Prompter } from '../../src/ui/prompter';
import { startSandbox, type Sandbox, type SandboxDocument } from '../sandbox/server';
import { closedPort, configure, RecordingPrompter, services, sleep, useSandbox } from './reliabilityKit';

const AT = new Date('2026-06-01T10:00:00Z');

let sandbox: Sandbox;
let s: TestServices;
/** The models this suite counts without pause, and the pause a model has by default (put back at the end). */
const unpaced = new WeakSet<object>();
let defaultInterval: number | undefined;

/**
 * The Documents tree of the settings' account as it is now, counting without pause. Another key or server makes
 * another account with its own tree and model: a tree held across such a change is the old account's, which lists
 * nothing (so it is read again at every use, never kept in a variable).
 */
function tree(): DocumentsTreeProvider {
  const t = s.documentsTree;
  if (!unpaced.has(t.model)) {
    unpaced.add(t.model);
    defaultInterval ??= t.model.countIntervalMs;
    t.model.countIntervalMs = 0;
  }
  return t;
}
const prompter = new RecordingPrompter();

function put(id: number, name: string, templateId: number | null, extra: Partial<SandboxDocument> = {}): void {
  sandbox.documents.set(id, { id, name, templateId, result: `Text of ${name} (${id})`, words: 4, favorite: false, createdAt: AT, updatedAt: AT, ...extra });
}

async function children(node?: DocNode): Promise<DocNode[]> {
  return (await tree().getChildren(node)) ?? [];
}

async function rows(g: GroupNode): Promise<DocumentNode[]> {
  return (await children(g)).filter((n): n is DocumentNode => n.kind === 'document');
}

function description(n: DocNode): string {
  const d = tree().getTreeItem(n).description;
  return typeof d === 'string' ? d : '';
}

/** The template each row of a group says it is on (what its description says before the first " · "), by id. */
async function templatesShown(g: GroupNode): Promise<Record<number, string>> {
  const out: Record<number, string> = {};
  for (const r of await rows(g)) out[r.doc.id] = description(r).split(' · ')[0];
  return out;
}

/** The templates the Generate from Selection… picker offers (cancelled at that question). */
async function generatePicker(): Promise<string[]> {
  const doc = await vscode.workspace.openTextDocument({ content: 'Solar panels on every roof.\n', language: 'markdown' });
  const editor = await vscode.window.showTextDocument(doc);
  editor.selection = new vscode.Selection(0, 0, 0, 12);
  prompter.reset();
  await vscode.commands.executeCommand(CMD.selectionGenerate);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  const q = prompter.asked.find((x) => x.kind === 'pick' && x.title.includes('Template'));
  assert.ok(q?.items, JSON.stringify(prompter.asked));
  return q.items;
}

/** The templates New Document… offers (cancelled at that question). */
async function newDocumentPicker(): Promise<string[]> {
  prompter.reset();
  prompter.inputs = ['A name'];
  await vscode.commands.executeCommand(CMD.documentNew);
  const q = prompter.asked.find((x) => x.kind === 'pick' && x.title.includes('Template'));
  assert.ok(q?.items, JSON.stringify(prompter.asked));
  return q.items;
}

describe('sidebar groups: rows that say their template, Favorites through a sort, the pickers\' templates', function () {
  this.timeout(60_000);
  let previousPrompter: Prompter | undefined;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    sandbox.reseed('empty');
    // "Solar panels" six times, on six templates (one the server names otherwise, one custom, one deleted).
    put(1, 'Solar panels', 4);
    put(2, 'Solar panels', 9, { favorite: true });
    put(3, 'Solar panels', 33, { templateName: 'Social media quote', favorite: true });
    put(4, 'Solar panels', 77, { templateName: 'My Template' });
    put(5, 'Solar panels', null);
    put(6, 'Solar panels', 4, { favorite: true });
    for (let i = 7; i <= 20; i++) put(i, `Wind ${i}`, 9);
    s = await services();
    previousPrompter = s.prompter.current;
    s.prompter.current = prompter;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await useSandbox(s, sandbox);
  });

  beforeEach(async () => {
    tree().model.setSearch(undefined);
    await tree().model.setSort('newest');
    await configure('documents.hideEmptyTemplates', undefined);
    tree().model.refresh();
    await sleep(20);
  });

  after(async () => {
    s.prompter.current = previousPrompter ?? s.prompter.current;
    if (s.firstOrNone) {
      tree().model.setSearch(undefined);
      await tree().model.setSort('newest');
      if (defaultInterval !== undefined) tree().model.countIntervalMs = defaultInterval;
    }
    await configure('documents.hideEmptyTemplates', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sandbox?.close();
  });

  it('Search results, All Documents and Favorites: each row says its template (names repeat there); a template\'s rows do not', async () => {
    const search = tree().model.setSearch({ text: 'Solar panels', by: 'name' })!;
    const expected = { 1: 'Article', 2: 'Blog post', 3: 'Social media quote', 4: 'My Template', 5: 'deleted template', 6: 'Article' };
    assert.deepStrictEqual(await templatesShown(search), expected);
    const all = await templatesShown(tree().model.allGroup);
    for (const [id, t] of Object.entries(expected)) assert.strictEqual(all[Number(id)], t, `All Documents, document ${id}: ${JSON.stringify(all)}`);
    assert.deepStrictEqual(await templatesShown(tree().model.favoritesGroup), { 2: 'Blog post', 3: 'Social media quote', 6: 'Article' });
    for (const r of await rows(tree().model.templateGroup(4)!)) assert.match(description(r), /^\d+ words? · created/, 'the group says the template');
  });

  it('Hide Empty Templates on: a sort by name keeps Favorites and its count; Show Empty too', async () => {
    await rows(tree().model.favoritesGroup);
    await vscode.commands.executeCommand(CMD.documentsHideEmpty);
    await children();
    await tree().model.countingDone;
    await tree().model.setSort('nameAsc');
    const root = await children();
    const fav = root.find((g) => g.kind === 'favorites');
    assert.ok(fav, `Favorites shown: ${root.map((g) => ('key' in g ? g.key : g.kind)).join(' ')}`);
    assert.strictEqual(description(fav), '3');
    assert.ok(!root.some((g) => g.kind === 'template' && g.templateId === 1), 'an empty template is hidden');
    await vscode.commands.executeCommand(CMD.documentsShowEmpty);
    const again = (await children()).find((g) => g.kind === 'favorites');
    assert.ok(again);
    assert.strictEqual(description(again), '3', 'still counted');
  });

  it('the pickers name templates as the server does and offer this account\'s custom templates only (another key or server forgets them)', async () => {
    await rows(tree().model.allGroup);
    let offered = await generatePicker();
    assert.ok(offered.includes('Social media quote') && !offered.includes('Tweet'), 'the server\'s name');
    assert.ok(offered.includes('My Template'), 'the account\'s custom template');
    assert.ok((await newDocumentPicker()).includes('Social media quote'), 'New Document too');

    await s.credentials.setKey('another-account-key');
    try {
      offered = await generatePicker();
      assert.ok(!offered.includes('My Template'), 'another key: the previous account\'s custom template is not offered');
      assert.ok(offered.includes('Tweet') && !offered.includes('Social media quote'), 'nor its names');
    } finally {
      await s.credentials.setKey(sandbox.key);
    }

    await rows(tree().model.allGroup);
    assert.ok((await generatePicker()).includes('My Template'), 'learned again');
    const elsewhere = `http://127.0.0.1:${await closedPort()}`;
    await configure('documents.baseUrl', elsewhere);
    try {
      offered = await generatePicker();
      assert.ok(!offered.includes('My Template'), 'another server: not offered');
    } finally {
      await configure('documents.baseUrl', sandbox.docsUrl);
    }
  });
});
