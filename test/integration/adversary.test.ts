/**
 * Adversary: account paths, account switches and renames onto reserved paths, inside a real VS Code
 * against the sandbox. Each test states what must hold; none of them may write or delete a document
 * the user did not point at.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Services } from '../../src/services/services';
import type { Prompter } from '../../src/ui/prompter';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { accountUri, freshListing, putDocument as put, startAccountSuite } from './accountKit';
import { accountRoot, closeAll, configure, type RecordingPrompter, replaceAll, SaveErrors, sleep, useSandbox } from './reliabilityKit';

const LONG_AGO = new Date('2020-01-01T00:00:00Z');

let sandbox: Sandbox;
let other: Sandbox;
let s: Services;
let prompter: RecordingPrompter;
let previousPrompter: Prompter | undefined;

async function listed(folder: string): Promise<string[]> {
  return (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath((await accountRoot()), folder))).map(([n]) => n);
}

describe('adversary: account paths across account switches and renames', function () {
  this.timeout(60_000);

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    other = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    ({ s, prompter, previousPrompter } = await startAccountSuite(sandbox));
  });

  after(async () => {
    await closeAll();
    if (previousPrompter) s.prompter.current = previousPrompter;
    await sandbox.close();
    await other.close();
  });

  afterEach(async () => {
    prompter.reset();
    await closeAll();
    await useSandbox(s, sandbox);
  });

  it('adversary: a dirty account-folder editor of one account never saves into the same-named document of the next account', async () => {
    const mine = put(sandbox, 92001, 'Shared name', 33);
    const theirs = put(other, 5, 'Shared name', 33, { result: 'The other account keeps this text', updatedAt: LONG_AGO, createdAt: LONG_AGO });
    await freshListing();
    assert.ok((await listed('Tweet')).includes('Shared name.md'));
    const editor = await vscode.window.showTextDocument(accountUri('Tweet', 'Shared name.md'), { preview: false });
    assert.strictEqual(editor.document.getText(), mine.result);
    await replaceAll(editor, 'Unsaved words meant for the first account');

    // Another account (server and key change) while the editor is dirty.
    await useSandbox(s, other);
    await sleep(500);

    const errors = new SaveErrors(s);
    try {
      await editor.document.save();
    } finally {
      errors.dispose();
    }
    assert.strictEqual(theirs.result, 'The other account keeps this text', "the next account's document is untouched");
    assert.ok(
      !other.requests.some((r) => r.route === 'documents.update'),
      `no PATCH reached the other account: ${other.requests.filter((r) => r.route === 'documents.update').map((r) => r.path).join(', ')}`,
    );
  });

  it('adversary: renaming a file onto the path a document was renamed away from (nothing shows it) takes the name', async () => {
    const left = put(sandbox, 92011, 'Reserved', 36);
    const mover = put(sandbox, 92012, 'Mover', 36);
    await freshListing();
    assert.ok((await listed('Video description')).includes('Reserved.md'));
    await s.documents.rename(92011, 'Went away');
    await sleep(300);
    const files = await listed('Video description');
    assert.ok(!files.includes('Reserved.md') && files.includes('Went away.md'), files.join(', '));

    // The explorer lists no "Reserved.md": renaming Mover.md to it is what claim() is for.
    await vscode.workspace.fs.rename(accountUri('Video description', 'Mover.md'), accountUri('Video description', 'Reserved.md'), { overwrite: false });
    assert.strictEqual(mover.name, 'Reserved');
    assert.strictEqual(left.name, 'Went away');
  });

  it('adversary: a rename with overwrite onto a path a document was renamed away from never deletes that document', async () => {
    const left = put(sandbox, 92021, 'Keep me', 36);
    const mover = put(sandbox, 92022, 'Mover two', 36);
    await freshListing();
    assert.ok((await listed('Video description')).includes('Keep me.md'));
    await s.documents.rename(92021, 'Renamed elsewhere');
    await sleep(300);
    assert.ok(!(await listed('Video description')).includes('Keep me.md'));

    // The user confirms what they are asked (they did ask for "replace").
    prompter.confirms = [true, true];
    try {
      await vscode.workspace.fs.rename(accountUri('Video description', 'Mover two.md'), accountUri('Video description', 'Keep me.md'), { overwrite: true });
    } catch {
      // a refusal is fine; deleting the other document is not
    }
    assert.ok(sandbox.documents.has(92021), `"Renamed elsewhere" (92021) still exists; asked: ${JSON.stringify(prompter.asked.map((q) => q.message))}`);
    assert.strictEqual(left.name, 'Renamed elsewhere');
    assert.ok(!sandbox.requests.some((r) => r.route === 'documents.delete'), 'no DELETE was sent');
    void mover;
  });

  it('adversary: a write to a path the folder no longer lists (its document was renamed away, nothing shows it) never lands in that document', async () => {
    const left = put(sandbox, 92031, 'Old label', 36);
    await freshListing();
    assert.ok((await listed('Video description')).includes('Old label.md'));
    await s.documents.rename(92031, 'New label');
    await sleep(300);
    assert.ok(!(await listed('Video description')).includes('Old label.md'));

    // Save As / another extension writing "Old label.md": the explorer shows no such file.
    try {
      await vscode.workspace.fs.writeFile(accountUri('Video description', 'Old label.md'), new TextEncoder().encode('Text for a file named Old label'));
    } catch {
      // refusing is fine
    }
    assert.strictEqual(left.result, 'Text of Old label (92031)', '"New label" keeps its text');
  });

  it('adversary (guard): switching files.language with a dirty account-folder editor of a duplicate saves into that duplicate only', async () => {
    const first = put(sandbox, 92041, 'Lang dup', 38);
    const second = put(sandbox, 92042, 'Lang dup', 38);
    await freshListing();
    const editor = await vscode.window.showTextDocument(accountUri('Video tags', 'Lang dup (92042).md'), { preview: false });
    assert.strictEqual(editor.document.getText(), second.result);
    await replaceAll(editor, 'Meant for the second Lang dup');
    try {
      await configure('files.language', 'plaintext');
      await sleep(300);
      assert.ok((await listed('Video tags')).includes('Lang dup (92042).txt'));
      assert.strictEqual(await editor.document.save(), true);
    } finally {
      await configure('files.language', undefined);
    }
    assert.strictEqual(second.result, 'Meant for the second Lang dup');
    assert.strictEqual(first.result, 'Text of Lang dup (92041)');
  });

  it('adversary (guard): a rename onto the path of a deleted document (nothing shows it) takes the name', async () => {
    put(sandbox, 92051, 'Freed', 38);
    const mover = put(sandbox, 92052, 'Taker', 38);
    await freshListing();
    assert.ok((await listed('Video tags')).includes('Freed.md'));
    prompter.confirms = [true];
    await vscode.workspace.fs.delete(accountUri('Video tags', 'Freed.md'));
    assert.ok(!sandbox.documents.has(92051));
    await vscode.workspace.fs.rename(accountUri('Video tags', 'Taker.md'), accountUri('Video tags', 'Freed.md'), { overwrite: false });
    assert.strictEqual(mover.name, 'Freed');
    assert.strictEqual(s.fs.documentIdOf(accountUri('Video tags', 'Freed.md')), 92052);
  });
});
