/**
 * Two installations side by side, for the several-accounts suites: two sandboxes whose servers hold one document of the
 * same id and name (texts "Text of A" and "Text of B"), the extension on A as its first account, a RecordingPrompter
 * in place, and helpers to add B with Add Account… and to read the Documents view's account roots and rows.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Account } from '../../src/accounts/account';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server';
import { closeAll, readView, RecordingPrompter, sandboxDocument, services, until, useSandbox, type AnyNode } from './reliabilityKit';

export interface TwoAccounts {
  a: Sandbox;
  b: Sandbox;
  s: TestServices;
  prompter: RecordingPrompter;
  /** Adds the account of sandbox B with Add Account… (its key checked in its box); returns its label. */
  addB(): Promise<string>;
  /** The roots of the Documents view, once there are `n` account roots. */
  roots(n: number): Promise<AnyNode[]>;
  /** The rows of document `id` under a node of the Documents view (down to `depth`), as VS Code reads the view. */
  rowsOfId(parent?: AnyNode, depth?: number): Promise<AnyNode[]>;
  /** Puts both documents back as they were seeded. */
  reseed(): void;
  /** Where a test starts: the extension on A again, its first account's label known, and the prompter reset. */
  onA(): Promise<void>;
  /** Removes the added accounts, puts the prompter back and the extension on A, and stops both sandboxes. */
  dispose(): Promise<void>;
}

/** The key of B as another installation's (the sandboxes' default key is one and the same). */
export const ANOTHER_INSTALLATION_KEY = 'another-installation-key-0123456789';

export async function startTwoAccounts(doc: { id: number; name: string }, b: Partial<SandboxOptions> = {}): Promise<TwoAccounts> {
  const a = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
  const sb = await startSandbox({ rateLimit: 0, storeDelayMs: 0, ...b });
  const reseed = () => {
    a.documents.set(doc.id, sandboxDocument(doc.id, doc.name, 'Text of A'));
    sb.documents.set(doc.id, sandboxDocument(doc.id, doc.name, 'Text of B'));
  };
  reseed();
  const s = await services();
  await closeAll();
  await useSandbox(s, a);
  const previous = s.prompter.current;
  const prompter = new RecordingPrompter();
  s.prompter.current = prompter;
  return {
    a,
    b: sb,
    s,
    prompter,
    reseed,
    async onA() {
      await useSandbox(s, a);
      await until('the first account\'s label', () => s.firstOrNone?.label);
      prompter.reset();
    },
    async addB() {
      prompter.reset();
      prompter.inputs = [sb.docsUrl, sb.seoUrl, sb.key];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true, `Add Account… failed: ${JSON.stringify(prompter.checked)}`);
      const label = s.registry.added().at(-1)?.label;
      assert.ok(label, 'the added account has a label');
      return label;
    },
    roots(n) {
      return until(`${n} account roots`, async () => {
        const r = (await s.documentsView.getChildren()) as unknown as AnyNode[];
        return r.length === n && r.every((x) => x.kind === 'accountRoot') ? r : undefined;
      });
    },
    async rowsOfId(parent, depth = 4) {
      const view = await readView(s.documentsView as never, depth, parent);
      return view.nodes.filter((n) => n.node.kind === 'document' && (n.node.doc as { id: number }).id === doc.id).map((n) => n.node);
    },
    async dispose() {
      await closeAll();
      for (const added of s.registry.added()) await s.registry.remove(added);
      s.prompter.current = previous;
      await useSandbox(s, a);
      await a.close();
      await sb.close();
    },
  };
}

/**
 * A second key of the first account's user, on the same server, added with Add Account…: two accounts of one name and
 * host. The first account is read first (its user's name learned, as a view showing it would).
 */
export async function addSecondKey(s: TestServices, prompter: RecordingPrompter, box: Sandbox, key: string): Promise<{ first: Account; second: Account }> {
  const first = await until('the first account', () => s.firstOrNone);
  await first.usage.refresh();
  prompter.inputs = [box.docsUrl, box.seoUrl, key];
  assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true, `Add Account… failed: ${JSON.stringify(prompter.checked)}`);
  return { first, second: s.registry.added().at(-1)! };
}
