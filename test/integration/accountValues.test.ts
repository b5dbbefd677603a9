/**
 * An action happens in the account the user chose when they chose it, whatever changes while it asks: two
 * installations whose servers hold a document of the same id and name, the extension signed in to A with Set API
 * Key…; while a question of the action is open, the key or the server of that account changes elsewhere (Set API
 * Key… in another window — SecretStorage is shared by every window —, or the server setting arriving by Settings
 * Sync). The action then sends nothing, to either server, and says so. Before, the delete, rename or favorite went
 * to B (the account the settings named when the request left), and New Document created its document there.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { configure, MessageCapture, newDocumentAnswers, until, type AnyNode, type RecordingPrompter } from './reliabilityKit';
import type { TestServices } from '../kit/services';

const ID = 4411;
const NAME = 'Same id, same name';

describe('accounts are values: an action acts in the account chosen, whatever changes while it asks', function () {
  this.timeout(60_000);
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;
  let messages: MessageCapture;

  /** The settings' server and key now name B: the server setting (Settings Sync) and the key (another window). */
  async function settingsNowNameB(): Promise<void> {
    await configure('documents.baseUrl', b.docsUrl);
    await configure('projects.baseUrl', b.seoUrl);
    // Another window stores the key: this window hears of it from SecretStorage, as the key of Set API Key….
    await s.context.secrets.store('contentDocs.apiKey', b.key);
    await s.registry.settled();
    await new Promise((r) => setTimeout(r, 200));
    await s.registry.settled();
  }

  /** Only the key changes (Set API Key… in another window, on the same server). */
  async function keyChangedElsewhere(): Promise<void> {
    await s.context.secrets.store('contentDocs.apiKey', `${a.key}-rotated`);
    await new Promise((r) => setTimeout(r, 200));
    await s.registry.settled();
  }

  /** The row of the document in the Documents view as the user sees it, signed in to A. */
  async function rowOfA(): Promise<AnyNode> {
    const [row] = await kit.rowsOfId(undefined, 3);
    assert.ok(row, 'the document is listed');
    assert.strictEqual(s.documentsView.accountOf(row), s.first, 'a row of the account of A');
    return row;
  }

  function untouched(): void {
    for (const [box, text] of [[a, 'Text of A'], [b, 'Text of B']] as const) {
      const d = box.documents.get(ID);
      assert.ok(d, `the document is still on ${box === a ? 'A' : 'B'}`);
      assert.strictEqual(d.name, NAME, `its name on ${box === a ? 'A' : 'B'} is unchanged`);
      assert.strictEqual(d.favorite, false, `it is no favorite on ${box === a ? 'A' : 'B'}`);
      assert.strictEqual(d.result, text);
    }
  }

  function writes(box: Sandbox): string[] {
    return box.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  }

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME });
    ({ a, b, s, prompter } = kit);
  });

  after(async () => {
    await kit?.dispose();
  });

  beforeEach(async () => {
    messages = new MessageCapture().install();
    kit.reseed();
    prompter.reset();
    await configure('documents.baseUrl', a.docsUrl);
    await configure('projects.baseUrl', a.seoUrl);
    await s.credentials.setKey(a.key);
    a.resetRequests();
    b.resetRequests();
  });

  afterEach(() => {
    messages.dispose();
  });

  for (const change of [
    { what: 'the server and key now name another installation', run: settingsNowNameB },
    { what: 'the key changed in another window', run: keyChangedElsewhere },
  ]) {
    it(`Delete… on a row: ${change.what} while the question is open — nothing is deleted anywhere, and the message says nothing was sent`, async () => {
      const row = await rowOfA();
      a.resetRequests();
      prompter.confirms = [true];
      prompter.meanwhile = change.run;
      const deleted = await vscode.commands.executeCommand('contentDocs.documentDelete', row);
      assert.strictEqual(deleted, false, 'the command says nothing was deleted');
      untouched();
      assert.deepStrictEqual([...writes(a), ...writes(b)], [], 'no change reached either server');
      const said = messages.shown.map((m) => m.message).join('\n');
      assert.match(said, /nothing was sent/, `the message says so: ${said}`);
    });

    it(`Rename… on a row: ${change.what} while the name is asked — nothing is renamed anywhere`, async () => {
      const row = await rowOfA();
      prompter.inputs = ['Renamed'];
      prompter.meanwhile = change.run;
      await vscode.commands.executeCommand('contentDocs.documentRename', row);
      untouched();
      assert.deepStrictEqual([...writes(a), ...writes(b)], [], 'no change reached either server');
      assert.match(messages.shown.map((m) => m.message).join('\n'), /nothing was sent/);
    });
  }

  it('Add to Favorites on a row of an account made anew since it was listed (another key) sends nothing', async () => {
    const row = await rowOfA();
    await keyChangedElsewhere();
    await vscode.commands.executeCommand('contentDocs.documentFavorite', row);
    untouched();
    assert.deepStrictEqual([...writes(a), ...writes(b)], [], 'no change reached either server');
  });

  it('New Document…: the account picked is the one written in — the server and key change while the prompt is written, and nothing is created (no words charged) anywhere', async () => {
    // Two accounts, so New Document… asks which; the first (A, the settings') is picked.
    const label = await kit.addB();
    try {
      const added = s.registry.byLabel(label)!;
      prompter.reset();
      prompter.picks = [(items) => items.find((i) => !i.label.includes(added.displayName))];
      const answers = newDocumentAnswers('Written for A');
      let asked = 0;
      prompter.answer = (q, items, nth) => {
        asked++;
        return answers(q, items, nth);
      };
      // The settings' key changes while the prompt is asked (minutes may pass there).
      prompter.meanwhile = async (q) => {
        if (q.title !== 'New Document: Account') return;
        prompter.meanwhile = async () => keyChangedElsewhere();
      };
      const creates = (box: Sandbox) => box.requests.filter((r) => r.route === 'documents.store').length;
      const before = { a: a.documents.size, b: b.documents.size };
      await vscode.commands.executeCommand('contentDocs.documentNew');
      assert.ok(asked > 0, 'the questions were asked');
      assert.strictEqual(creates(a) + creates(b), 0, 'no document was stored on either server');
      assert.deepStrictEqual({ a: a.documents.size, b: b.documents.size }, before);
      assert.match(messages.shown.map((m) => m.message).join('\n'), /nothing was sent/);
    } finally {
      for (const added of s.registry.added()) await s.registry.remove(added);
    }
  });

  it('a tab of an account whose key changed elsewhere refuses its save (nothing sent) and keeps the typed text; the same key again saves it', async () => {
    const row = await rowOfA();
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

  it('Sign Out confirmed while the key changed in another window: says that nothing was signed out, and the other key stays signed in', async () => {
    const name = s.first.displayName;
    prompter.confirms = [true];
    prompter.meanwhile = keyChangedElsewhere;
    const removed = await vscode.commands.executeCommand('contentDocs.accountRemove', s.first.label);
    assert.strictEqual(removed, false, 'the account asked about was gone: nothing was removed');
    assert.strictEqual(await s.context.secrets.get('contentDocs.apiKey'), `${a.key}-rotated`, 'the key stored meanwhile was never asked about: it stays');
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
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
