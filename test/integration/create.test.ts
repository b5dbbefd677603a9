/**
 * New Document… and Go to Document…, inside a real VS Code against the sandbox: the questions are
 * answered through the extension's prompter; the Go to Document Quick Pick is typed into through the
 * harness's keyboard, as a user would.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Services } from '../../src/services/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { press, screenshot, typeText } from './harness';
import { RecordingPrompter, SCHEME, services, sleep, until, useSandbox } from './reliabilityKit';

let sandbox: Sandbox;
let s: Services;

describe('New Document… and Go to Document…', function () {
  this.timeout(60_000);

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await useSandbox(s, sandbox);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sandbox?.close();
  });

  it('creates a document end to end; a 422 shows the server message and asks again with the input kept', async () => {
    const prompter = new RecordingPrompter();
    prompter.answer = (q, _items, nth) => {
      if (q.title.startsWith('New Document (1/4)')) return nth === 1 ? 'Launch bannedword plan' : 'Launch plan from the test';
      if (q.title.includes('Template')) return 'Blog post';
      if (q.title.includes('Prompt')) return 'A launch plan for a small product';
      if (q.title.includes('Creativity')) return 'Creative';
      return undefined;
    };
    s.prompter.current = prompter;
    const createdEvents: number[] = [];
    const sub = s.documents.onDidCreate((d) => createdEvents.push(d.id));
    sandbox.resetRequests();
    try {
      await vscode.commands.executeCommand('contentDocs.documentNew');
    } finally {
      sub.dispose();
    }

    // The questions: template picker defaults to Freestyle, creativity to Original; after the 422 only the name again.
    const titles = prompter.asked.map((q) => q.title);
    assert.deepStrictEqual(
      titles.map((t) => t.replace(/:.*$/, '')),
      ['New Document (1/4)', 'New Document (2/4)', 'New Document (3/4)', 'New Document (4/4)', 'New Document (1/4)'],
    );
    const templatePick = prompter.asked[1];
    assert.strictEqual(templatePick.items!.length, 52);
    assert.strictEqual(templatePick.items![0], 'Freestyle');
    assert.strictEqual(prompter.asked[3].items![0], 'Original');
    assert.deepStrictEqual([...prompter.asked[3].items!].sort(), ['Creative', 'Deterministic', 'Imaginative', 'Original', 'Repetitive']);
    const again = prompter.asked[4];
    assert.strictEqual(again.value, 'Launch bannedword plan', 'the name is prefilled with what the user typed');
    assert.match(again.prompt ?? '', /keyword that is banned/, "the server's message is shown");
    assert.deepStrictEqual(prompter.validationProblems, [], 'every answer passed the input validation');

    const stores = sandbox.requests.filter((r) => r.route === 'documents.store');
    assert.deepStrictEqual(stores.map((r) => r.status), [422, 201]);
    assert.strictEqual(stores[1].body?.template_id, '9');
    assert.strictEqual(stores[1].body?.creativity, '0.75');
    assert.strictEqual(stores[1].body?.prompt, 'A launch plan for a small product');

    const created = [...sandbox.documents.values()].find((d) => d.name === 'Launch plan from the test');
    assert.ok(created, 'the sandbox holds the new document');
    assert.deepStrictEqual(createdEvents, [created.id], 'the tree hears of it (onDidCreate)');
    const editor = await until('the new document to open', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === SCHEME && e.document.uri.authority.split('.')[0] === String(created.id) ? e : undefined;
    });
    assert.strictEqual(editor.document.getText(), created.result);
    assert.strictEqual(editor.document.uri.path, '/Blog post/Launch plan from the test.md');
    await screenshot('document-new-created');
  });

  it('New Document: cancelling any question creates nothing', async () => {
    const prompter = new RecordingPrompter();
    prompter.answer = (q) => (q.title.startsWith('New Document (1/4)') ? 'Never created' : undefined);
    s.prompter.current = prompter;
    sandbox.resetRequests();
    await vscode.commands.executeCommand('contentDocs.documentNew');
    assert.strictEqual(sandbox.requests.filter((r) => r.route === 'documents.store').length, 0);
  });

  it('Go to Document finds a document by name as you type (debounced, accent-insensitive) and opens it', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sandbox.resetRequests();
    const done = vscode.commands.executeCommand('contentDocs.documentGoTo');
    // The empty query lists the newest documents at once.
    await until('the first listing', () => sandbox.requests.some((r) => r.route === 'documents.list' && r.status === 200));
    await sleep(200);
    // Typed as a person types, the keys well inside the debounce of each other (one bridge call: a busy machine
    // cannot spread them out).
    await typeText('cafe');
    await until('the search for "cafe"', () =>
      sandbox.requests.some((r) => r.route === 'documents.list' && r.query.search === 'cafe' && r.status === 200),
    );
    await sleep(400);
    await screenshot('document-goto');
    const searches = sandbox.requests.filter((r) => r.route === 'documents.list' && r.query.search);
    assert.ok(searches.length <= 2, `one request per settled query, not one per keystroke: ${searches.map((r) => r.query.search).join(', ')}`);
    assert.strictEqual(searches[searches.length - 1].query.search, 'cafe');

    await press('Enter');
    await done;
    const editor = await until('the picked document to open', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === SCHEME ? e : undefined;
    });
    const id = Number(editor.document.uri.authority.split('.')[0]);
    const picked = sandbox.documents.get(id);
    assert.ok(picked, 'an existing document opened');
    assert.match(picked.name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase(), /cafe/);
    assert.strictEqual(editor.document.getText(), picked.result ?? '');
  });
});
