/**
 * Auto-save (issue 20, finding 10). VS Code for the Web saves a dirty editor about a second after typing stops
 * (`files.autoSave` afterDelay): every pause would be a PATCH, against the server's 60 requests a minute. The user's
 * setting is kept, and the saves of one document are coalesced: an auto-save that comes within a few seconds of the
 * document's last PATCH waits for the end of that window, and VS Code folds the saves asked for meanwhile into the
 * next one, so the server gets the last text. A save the user asks for (Ctrl+S) is never held. The status bar says
 * "Saving…" and then "Saved" for the active document, with the account it went to.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import type { SaveItemState } from '../../src/files/saveStatus';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { closeAll, DocumentPool, MessageCapture, openDocument, SaveErrors, services, sleep, until, useSandbox } from './reliabilityKit';

let sandbox: Sandbox;
let s: TestServices;
let pool: DocumentPool;
let saveErrors: SaveErrors;
const messages = new MessageCapture();

/** The auto-save delay the tests run with: short, so that every pause of the burst is an auto-save. */
const AUTO_SAVE_DELAY_MS = 150;
/** How long the typing pauses between two edits of the burst (longer than the delay: each pause saves). */
const PAUSE_MS = 400;
/** The product's window between two PATCHes of one document's auto-saves (src/files/saveWindow.ts). */
const WINDOW_MS = 5_000;

/** What the save status item shows (the API cannot read a status bar item back). */
function status(): SaveItemState {
  return s.saveStatus.state;
}

function patchesOf(id: number, from: number) {
  return sandbox.requests.slice(from).filter((r) => r.method === 'PATCH' && r.path === `/api/v1/documents/${id}`);
}

/** Types at the end of the document, as a user does: one edit. */
async function typeAtEnd(editor: vscode.TextEditor, text: string): Promise<void> {
  const end = editor.document.positionAt(editor.document.getText().length);
  assert.ok(await editor.edit((b) => b.insert(end, text)), 'the edit was applied');
}

describe('auto-save: saves coalesced within the rate limit', function () {
  this.timeout(90_000);
  const files = () => vscode.workspace.getConfiguration('files');
  let saved: { autoSave: string | undefined; delay: number | undefined };

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 60, seoRateLimit: 0, storeDelayMs: 0 });
    s = await services();
    pool = new DocumentPool(sandbox);
    await useSandbox(s, sandbox);
    messages.install();
    saveErrors = new SaveErrors(s);
    saved = { autoSave: files().inspect<string>('autoSave')?.globalValue, delay: files().inspect<number>('autoSaveDelay')?.globalValue };
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', AUTO_SAVE_DELAY_MS, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await files().update('autoSave', saved?.autoSave, vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', saved?.delay, vscode.ConfigurationTarget.Global);
    saveErrors?.dispose();
    messages.dispose();
    await closeAll();
    await sandbox?.close();
  });

  afterEach(async () => {
    sandbox.clearFaults();
    messages.dismissAll();
    await closeAll();
  });

  it('a burst of typing pauses: few PATCHes, within the limit, the last text at the server, "Saving…" then "Saved"', async () => {
    const d = pool.take();
    const editor = await openDocument(d.id);
    await sleep(300);
    const from = sandbox.requests.length;
    const errors = saveErrors.errors.length;
    const seen = new Set<string>();
    const watchStatus = setInterval(() => seen.add(status().text), 20);
    const t0 = Date.now();
    try {
      // Twenty pauses over about eight seconds: without coalescing, twenty auto-saves, each a PATCH.
      for (let i = 1; i <= 20; i++) {
        await typeAtEnd(editor, `\nLine ${i} typed with a pause after it.`);
        await sleep(PAUSE_MS);
      }
      const burstMs = Date.now() - t0;
      const last = editor.document.getText();
      await until('the last text at the server', () => sandbox.documents.get(d.id)!.result === last.trim(), 20_000);
      await until('the editor to be saved (not dirty)', () => !editor.document.isDirty, 5_000);

      const patches = patchesOf(d.id, from);
      const requests = sandbox.requests.slice(from);
      const state = JSON.stringify({ burstMs, patches: patches.length, requests: requests.map((r) => `${r.method} ${r.path} -> ${r.status}`), seen: [...seen] });
      // One PATCH at the start, then at most one per window, and the one that carries the last text.
      const allowed = Math.ceil(burstMs / WINDOW_MS) + 2;
      console.log(`      auto-save: ${patches.length} PATCHes (at most ${allowed} allowed) and ${requests.length} requests for 20 pauses over ${burstMs} ms`);
      assert.ok(patches.length <= allowed, `at most ${allowed} PATCHes for a burst of ${burstMs} ms: ${state}`);
      assert.ok(patches.length >= 2, `the text went out during the burst too, not only at its end: ${state}`);
      assert.ok(requests.every((r) => r.status !== 429), `no request was refused by the rate limit: ${state}`);
      assert.ok(requests.length <= 59, `the whole burst stayed within the 60 requests a minute: ${state}`);
      assert.ok(patches.every((p) => p.status === 200), `every PATCH was accepted: ${state}`);
      assert.strictEqual(patches[patches.length - 1].body?.result?.trim(), last.trim(), 'the last PATCH carried the last text');
      assert.strictEqual(sandbox.documents.get(d.id)!.result, last.trim(), 'nothing typed was lost');
      assert.strictEqual(editor.document.getText(), last, 'the editor keeps its text');
      assert.deepStrictEqual(saveErrors.errors.slice(errors), [], 'no save failed');
      await until('the status bar to say "Saved"', () => seen.has(status().text) && /Saved/.test(status().text), 5_000);
      assert.ok([...seen].some((t) => /Saving/.test(t)), `the status bar said "Saving…": ${state}`);
      assert.match(status().tooltip, /Saved to /, 'the tooltip names the account the text went to');
      assert.match(status().accessibility?.label ?? '', /^Saved to .+ at .+\.$/, 'a screen reader reads what the tooltip says, not the icon\'s name');
      assert.deepStrictEqual(messages.since(t0).map((m) => m.message), [], 'no notification: the status bar says it');
    } finally {
      clearInterval(watchStatus);
    }
  });

  it('Ctrl+S right after an auto-save is not held: the text goes out at once', async () => {
    const d = pool.take();
    const editor = await openDocument(d.id);
    await typeAtEnd(editor, '\nFirst, auto-saved.');
    await until('the auto-save', () => !editor.document.isDirty && sandbox.documents.get(d.id)!.result === editor.document.getText().trim(), 10_000);
    const from = sandbox.requests.length;
    // A long auto-save delay for the second edit, so that Ctrl+S is surely the save that runs (on a busy machine an
    // auto-save 150 ms after typing could start first and be held: VS Code queues Ctrl+S behind it).
    await files().update('autoSaveDelay', 30_000, vscode.ConfigurationTarget.Global);
    try {
      await typeAtEnd(editor, '\nThen saved with Ctrl+S.');
      const t = Date.now();
      await vscode.commands.executeCommand('workbench.action.files.save');
      await until('the explicit save at the server', () => sandbox.documents.get(d.id)!.result === editor.document.getText().trim(), 10_000);
      assert.ok(Date.now() - t < WINDOW_MS - 1_000, `an explicit save is not held for the window (${Date.now() - t} ms)`);
      assert.strictEqual(patchesOf(d.id, from).length, 1, 'one PATCH');
    } finally {
      await files().update('autoSaveDelay', AUTO_SAVE_DELAY_MS, vscode.ConfigurationTarget.Global);
    }
  });

  it('a coalesced save that fails keeps the editor dirty and says why; the next one sends the last text', async () => {
    const d = pool.take();
    const editor = await openDocument(d.id);
    await typeAtEnd(editor, '\nFirst, auto-saved.');
    await until('the auto-save', () => !editor.document.isDirty && sandbox.documents.get(d.id)!.result === editor.document.getText().trim(), 10_000);
    const errors = saveErrors.errors.length;
    sandbox.setFault('documents.update', { kind: 'status500', count: 1 });
    await typeAtEnd(editor, '\nSecond, held, then refused by the server.');
    await until('the held save to fail', () => saveErrors.errors.length > errors, WINDOW_MS + 10_000);
    assert.ok(editor.document.isDirty, 'the editor stays dirty');
    assert.match(saveErrors.last()!.message, /HTTP 500/, 'the failure says why');
    await until('the status bar to say the text was not saved', () => /Not saved/.test(status().text), 5_000);
    assert.match(status().accessibility?.label ?? '', /^Not saved to .+: .*HTTP 500/, 'a screen reader hears that the text was not saved, and why');
    await typeAtEnd(editor, '\nThird.');
    await vscode.commands.executeCommand('workbench.action.files.save');
    await until('the last text at the server', () => sandbox.documents.get(d.id)!.result === editor.document.getText().trim(), 15_000);
    await until('the editor to be saved', () => !editor.document.isDirty, 5_000);
  });
});
