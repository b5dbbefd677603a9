/**
 * An account is what the user chose when they chose it: a question left open (Delete…'s confirmation, Rename…'s box,
 * New Document…'s steps, a row's context menu) while the first account signs in elsewhere must not send its answer
 * to the account signed in now. The first account's key lives in SecretStorage, which every window shares, and its
 * servers in the user settings, which Settings Sync brings: another window's Set API Key…, Sign Out and Sign In, or a
 * synced server setting, changes it under a question open here. Two sandboxes A and B hold a document of the same id
 * and name; A also takes a second key (the same server with another key is another account: its label follows its
 * server and key).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { ANOTHER_INSTALLATION_KEY, startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { closeAll, configure, MessageCapture, newDocumentAnswers, RecordingPrompter, until, useSandbox, type AnyNode, type Question } from './reliabilityKit';

const ID = 6262;
const NAME = 'Same id, same name';
/** A second key the first account's server takes (another window signed in with it). */
const SECOND_KEY_OF_A = 'second-key-of-server-a-0123456789';

/** Where another window signs the first account in: another server and key, or another key on the same server. */
interface Elsewhere {
  what: string;
  /** The server the settings point at afterwards (undefined: unchanged), and the key stored in SecretStorage. */
  to(): { server: Sandbox | undefined; key: string };
}

/**
 * What another window does: the server settings change (as Settings Sync brings them), then the key is stored in
 * SecretStorage (Set API Key… or Sign In there). Returns once this window's extension uses that account.
 */
async function signedInElsewhere(s: TestServices, server: Sandbox | undefined, key: string): Promise<string> {
  const before = s.firstOrNone?.label;
  if (server) {
    await configure('documents.baseUrl', server.docsUrl);
    await configure('projects.baseUrl', server.seoUrl);
  }
  await s.context.secrets.store('contentDocs.apiKey', key);
  // The label the extension gives that server and key (the same pair always has the same label).
  const label = await s.credentials.accountLabel(undefined, key);
  assert.ok(label && label !== before, `the other window's account has a label of its own (${label}, was ${before})`);
  await until(`the first account signed in elsewhere (${label})`, async () => {
    await s.registry.settled();
    return s.firstOrNone?.label === label ? true : undefined;
  });
  return label;
}

/** The requests that change something (create, update, delete) that reached each server, as `A: METHOD path body`. */
function changesOn(boxes: Record<string, Sandbox>): string[] {
  return Object.entries(boxes).flatMap(([name, box]) =>
    box.requests
      .filter((r) => r.route === 'documents.store' || r.route === 'documents.update' || r.route === 'documents.delete')
      .map((r) => `${name}: ${r.method} ${r.path}${r.body ? ` ${JSON.stringify(r.body)}` : ''}`),
  );
}

describe('accounts are values: a Documents view row acts in the account it was listed in, even when the first account signs in elsewhere meanwhile', function () {
  this.timeout(90_000);
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;

  const ELSEWHERE: Elsewhere[] = [
    { what: 'another server and key (B: its server setting synced, its key stored by another window)', to: () => ({ server: b, key: b.key }) },
    { what: 'another key on the same server (Sign Out and Sign In with another key in another window)', to: () => ({ server: undefined, key: SECOND_KEY_OF_A }) },
  ];

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME }, { key: ANOTHER_INSTALLATION_KEY });
    ({ a, b, s, prompter } = kit);
    a.addKey(SECOND_KEY_OF_A);
  });

  beforeEach(async () => {
    kit.reseed();
    await kit.onA();
  });

  afterEach(async () => {
    prompter.reset();
    await closeAll();
    await useSandbox(s, a);
  });

  after(() => kit?.dispose());

  /** The row of document ID in the Documents view (the first account alone: All Documents, where it is the newest). */
  async function rowOfA(): Promise<AnyNode> {
    const row = await until('the document\'s row in All Documents', async () => (await kit.rowsOfId(undefined, 2))[0]);
    assert.strictEqual((row.doc as { name: string }).name, NAME);
    return row;
  }

  /** Runs `command` on the row; afterwards nothing changed on either server, and the user was told nothing was sent. */
  async function nothingSent(command: string, run: () => Promise<unknown>, where: Elsewhere): Promise<void> {
    a.resetRequests();
    b.resetRequests();
    const messages = new MessageCapture().install();
    try {
      await run().then(undefined, () => undefined);
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      messages.dispose();
    }
    assert.deepStrictEqual(
      changesOn({ A: a, B: b }),
      [],
      `${command} on a row of the first account, which signed in to ${where.what} meanwhile: nothing is sent to either server`,
    );
    for (const [name, box, text] of [['A', a, 'Text of A'], ['B', b, 'Text of B']] as const) {
      const doc = box.documents.get(ID);
      assert.ok(doc, `server ${name}'s document ${ID} is still there`);
      assert.deepStrictEqual({ name: doc.name, favorite: doc.favorite, result: doc.result }, { name: NAME, favorite: false, result: text }, `server ${name}'s document ${ID} is as it was`);
    }
    const told = messages.shown.filter((m) => /nothing was sent/i.test(m.message));
    assert.ok(told.length > 0, `the user is told nothing was sent: ${JSON.stringify(messages.shown.map((m) => `${m.level}: ${m.message}`))}`);
  }

  for (const where of ELSEWHERE) {
    it(`Delete… whose confirmation is open while the first account signs in to ${where.what} deletes nothing, in either account`, async () => {
      const row = await rowOfA();
      const { server, key } = where.to();
      prompter.confirms = [true];
      prompter.meanwhile = async () => {
        await signedInElsewhere(s, server, key);
      };
      await nothingSent('Delete…', () => Promise.resolve(vscode.commands.executeCommand('contentDocs.documentDelete', row)), where);
      assert.deepStrictEqual(prompter.asked.map((q) => q.kind), ['confirm'], 'the deletion was asked, and confirmed');
    });

    it(`Rename… whose box is open while the first account signs in to ${where.what} renames nothing, in either account`, async () => {
      const row = await rowOfA();
      const { server, key } = where.to();
      prompter.inputs = ['Renamed while the box was open'];
      prompter.meanwhile = async () => {
        await signedInElsewhere(s, server, key);
      };
      await nothingSent('Rename…', () => Promise.resolve(vscode.commands.executeCommand('contentDocs.documentRename', row)), where);
      assert.deepStrictEqual(prompter.asked.map((q) => q.title), ['Rename Document'], 'the new name was asked');
    });

    it(`Add to Favorites on a row whose context menu is open while the first account signs in to ${where.what} changes nothing, in either account`, async () => {
      const row = await rowOfA();
      const { server, key } = where.to();
      // The row's context menu is open (VS Code still shows the row) while the other window signs in; then the user
      // clicks Add to Favorites on it.
      await signedInElsewhere(s, server, key);
      await nothingSent('Add to Favorites', () => Promise.resolve(vscode.commands.executeCommand('contentDocs.documentFavorite', row)), where);
    });
  }
});

describe('accounts are values: New Document… creates the document in the account picked, or nowhere', function () {
  this.timeout(90_000);
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let c: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;

  const ELSEWHERE: Elsewhere[] = [
    { what: 'a third installation (C: its server setting synced, its key stored by another window)', to: () => ({ server: c, key: c.key }) },
    { what: 'another key on the same server (Sign Out and Sign In with another key in another window)', to: () => ({ server: undefined, key: SECOND_KEY_OF_A }) },
  ];

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME }, { key: ANOTHER_INSTALLATION_KEY });
    ({ a, b, s, prompter } = kit);
    a.addKey(SECOND_KEY_OF_A);
    // A third installation, with a key of its own (another account on another server).
    c = await startSandbox({ rateLimit: 0, storeDelayMs: 0, key: 'third-installation-key-0123456789' });
  });

  beforeEach(() => kit.onA());

  afterEach(async () => {
    prompter.reset();
    await closeAll();
    for (const added of s.registry.added()) await s.registry.remove(added);
    await useSandbox(s, a);
  });

  after(async () => {
    await kit?.dispose();
    await c?.close();
  });

  for (const where of ELSEWHERE) {
    it(`the first account picked, then signed in to ${where.what} while a later question is open: nothing is created, on any server`, async () => {
      await kit.addB();
      await kit.roots(2);
      const aName = s.first.displayName;
      const { server, key } = where.to();
      let openWhileSwitched: Question | undefined;
      prompter.reset();
      // The first account's row is picked; the next question (the name) is open while the other window signs in.
      prompter.picks = [
        (items) => {
          prompter.meanwhile = async (q) => {
            openWhileSwitched = q;
            await signedInElsewhere(s, server, key);
          };
          return items.find((i) => i.label.includes(aName));
        },
      ];
      prompter.answer = newDocumentAnswers('Made after the account was picked', 'A short text');
      for (const box of [a, b, c]) box.resetRequests();
      const messages = new MessageCapture().install();
      try {
        await Promise.resolve(vscode.commands.executeCommand('contentDocs.documentNew')).then(undefined, () => undefined);
        await new Promise((r) => setTimeout(r, 300));
      } finally {
        messages.dispose();
      }
      assert.ok(openWhileSwitched, `the first account was picked and a later question asked: ${JSON.stringify(prompter.asked.map((q) => q.title))}`);
      assert.deepStrictEqual(
        changesOn({ A: a, B: b, C: c }),
        [],
        `picked ${aName}, then the first account signed in to ${where.what} while "${openWhileSwitched.title}" was open: nothing is created (nor its words charged) on any server`,
      );
    });
  }
});

describe('accounts are values: a tab of an account that is no longer signed in', function () {
  this.timeout(60_000);
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;

  /** Only the key changes (Set API Key… in another window, on the same server). */
  async function keyChangedElsewhere(): Promise<void> {
    await s.context.secrets.store('contentDocs.apiKey', SECOND_KEY_OF_A);
    await until('the account of the other key', async () => {
      await s.registry.settled();
      return (await s.firstOrNone?.getKey()) === SECOND_KEY_OF_A || undefined;
    });
  }

  async function rowOfA(): Promise<AnyNode> {
    const row = await until('the document\'s row in All Documents', async () => (await kit.rowsOfId(undefined, 2))[0]);
    assert.strictEqual(s.documentsView.accountOf(row), s.first, 'a row of the account of A');
    return row;
  }

  function writes(box: Sandbox): string[] {
    return box.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  }

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME }, { key: ANOTHER_INSTALLATION_KEY });
    ({ a, b, s } = kit);
    a.addKey(SECOND_KEY_OF_A);
  });

  after(() => kit?.dispose());

  it('a tab of an account whose key changed elsewhere refuses its save (nothing sent) and keeps the typed text; the same key again saves it', async () => {
    const row = await rowOfA();
    a.resetRequests();
    b.resetRequests();
    await vscode.commands.executeCommand('contentDocs.documentOpen', row);
    const editor = vscode.window.activeTextEditor!;
    assert.strictEqual(editor.document.getText(), 'Text of A');
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'Typed. '));
    await keyChangedElsewhere();
    a.resetRequests();
    const saved = await editor.document.save();
    assert.strictEqual(saved, false, 'the save is refused');
    assert.ok(editor.document.isDirty, 'the editor keeps the typed text');
    assert.strictEqual(editor.document.getText(), 'Typed. Text of A');
    assert.deepStrictEqual([...writes(a), ...writes(b)], [], 'nothing reached either server');
    // The key of A again (Set API Key… with it): the same account, and its tab saves.
    await s.credentials.setKey(a.key);
    assert.strictEqual(await editor.document.save(), true, 'saved in A once A is signed in again');
    assert.strictEqual(a.documents.get(ID)?.result, 'Typed. Text of A');
    assert.strictEqual(b.documents.get(ID)?.result, 'Text of B', 'B untouched');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

describe('accounts are values: what an action says when its account goes while it asks or waits', function () {
  this.timeout(60_000);
  let kit: TwoAccounts;
  let a: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;
  let messages: MessageCapture;

  /** Only the key changes (Set API Key… in another window, on the same server). */
  async function keyChangedElsewhere(): Promise<void> {
    await s.context.secrets.store('contentDocs.apiKey', SECOND_KEY_OF_A);
    await until('the account of the other key', async () => {
      await s.registry.settled();
      return (await s.firstOrNone?.getKey()) === SECOND_KEY_OF_A || undefined;
    });
  }

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME }, { key: ANOTHER_INSTALLATION_KEY });
    ({ a, s, prompter } = kit);
    a.addKey(SECOND_KEY_OF_A);
  });

  beforeEach(async () => {
    await useSandbox(s, a);
    prompter.reset();
    messages = new MessageCapture().install();
  });

  afterEach(async () => {
    messages.dispose();
    prompter.reset();
    await closeAll();
  });

  after(() => kit?.dispose());

  it('Sign Out confirmed while the key changed in another window: says that nothing was signed out, and the other key stays signed in', async () => {
    const name = s.first.displayName;
    prompter.confirms = [true];
    prompter.meanwhile = keyChangedElsewhere;
    const removed = await vscode.commands.executeCommand('contentDocs.accountRemove', s.first.label);
    assert.strictEqual(removed, false, 'the account asked about was gone: nothing was removed');
    assert.strictEqual(await s.context.secrets.get('contentDocs.apiKey'), SECOND_KEY_OF_A, 'the key stored meanwhile was never asked about: it stays');
    const said = messages.shown.filter((m) => m.level !== 'info').map((m) => m.message);
    assert.ok(said.some((m) => m.includes(name) && /nothing/i.test(m)), `the user is told that ${name} was not signed out here: ${JSON.stringify(said)}`);
  });

  it('New Document…: the account goes while the server writes the document — the message says the document was created there, never that nothing was sent', async () => {
    prompter.answer = newDocumentAnswers('Created as its account went');
    const release = a.hold('documents.store');
    const running = Promise.resolve(vscode.commands.executeCommand('contentDocs.documentNew')).then(undefined, () => undefined);
    try {
      await until('the store on the wire', () => a.requests.some((r) => r.route === 'documents.store'));
      await keyChangedElsewhere();
    } finally {
      release();
    }
    await running;
    await new Promise((r) => setTimeout(r, 300));
    assert.ok([...a.documents.values()].some((d) => d.name === 'Created as its account went'), 'the server created the document');
    const said = messages.shown.map((m) => m.message);
    assert.ok(!said.some((m) => /nothing was sent/.test(m)), `no message says nothing was sent: ${JSON.stringify(said)}`);
    assert.ok(said.some((m) => m.includes('Created as its account went') && /created/.test(m)), `the user is told the document was created: ${JSON.stringify(said)}`);
  });
});
