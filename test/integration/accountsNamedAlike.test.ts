/**
 * Two accounts of one user on one server (two API keys): both read "name @ host", so each says its label after it
 * while both are signed in — in the views' roots, the picks and the Accounts menu, which all take the account's
 * display name — and the name alone again once the other has gone.
 */
import * as assert from 'assert';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { closeAll, RecordingPrompter, services, until, useSandbox, type AnyNode } from './reliabilityKit';
import { addSecondKey } from './twoAccountsKit';

const SECOND_KEY = 'second-key-of-the-same-user-0123456789';

describe('accounts named alike: two keys of one user on one server', function () {
  this.timeout(60_000);
  let box: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;
  let previous: TestServices['prompter']['current'];

  before(async () => {
    box = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    box.addKey(SECOND_KEY);
    s = await services();
    await closeAll();
    await useSandbox(s, box);
    previous = s.prompter.current;
    prompter = new RecordingPrompter();
    s.prompter.current = prompter;
  });

  after(async () => {
    for (const added of s.registry.added()) await s.registry.remove(added);
    s.prompter.current = previous;
    await box?.close();
  });

  it('each root says its label after "name @ host" while both are signed in, and the name alone once one has gone', async () => {
    const { first, second } = await addSecondKey(s, prompter, box, SECOND_KEY);
    const roots = await until('two roots whose names are learned', async () => {
      const r = (await s.documentsView.getChildren()) as unknown as AnyNode[];
      const labels = r.map((n) => s.documentsView.getTreeItem(n as never).label as string);
      return r.length === 2 && labels.every((l) => typeof l === 'string' && l.includes('@')) ? labels : undefined;
    });
    assert.notStrictEqual(roots[0], roots[1], `two roots that read alike: ${JSON.stringify(roots)}`);
    assert.deepStrictEqual(roots, [`${first.baseName} · ${first.label}`, `${second.baseName} · ${second.label}`]);
    assert.strictEqual(first.baseName, second.baseName, 'the same user on the same server');
    await s.registry.remove(second);
    assert.strictEqual(first.displayName, first.baseName, 'alone again: the name alone');
    assert.ok(!first.displayName.includes(first.label));
  });
});
