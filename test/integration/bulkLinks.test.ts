/**
 * Many documents at once, drag and drop, links (inside a real VS Code, two sandboxes as two accounts): Delete, Add to /
 * Remove from Favorites and Copy Result on every selected row (one confirmation, one request per document, each in
 * its own account, a partial failure named); the Documents view's drag and drop controller (drop on Favorites, the
 * text and the document's address for an editor); Open in Web App, Copy Link and the `vscode://` link handler.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import type { Account } from '../../src/accounts/account';
import type { TestServices } from '../kit/services';
import type { Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import { besidesTheWindow, closeAll, EXTENSION_ID, MessageCapture, readView, RecordingPrompter, sandboxDocument, sleep, until, type AnyNode } from './reliabilityKit';
import { press, read } from './harness';

const CMD = {
  delete: 'contentDocs.documentDelete',
  favorite: 'contentDocs.documentFavorite',
  unfavorite: 'contentDocs.documentUnfavorite',
  copy: 'contentDocs.documentCopyResult',
  openInWebApp: 'contentDocs.documentOpenInWebApp',
  copyLink: 'contentDocs.documentCopyLink',
  rename: 'contentDocs.documentRename',
} as const;

const TREE_MIME = 'application/vnd.code.tree.contentdocs.documents';

describe('many documents at once, drag and drop, links', function () {
  this.timeout(90_000);
  const SHARED = 6161;
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;
  let labelB: string;
  let messages: MessageCapture;

  const A_DOCS = [6201, 6202, 6203];
  const B_DOCS = [6301, 6302];
  const nameOf = (id: number) => `Bulk ${id}`;

  const seed = () => {
    kit.reseed();
    for (const id of A_DOCS) a.documents.set(id, sandboxDocument(id, nameOf(id), `Text ${id}`));
    for (const id of B_DOCS) b.documents.set(id, sandboxDocument(id, nameOf(id), `Text ${id}`));
  };

  const accountB = (): Account => s.registry.byLabel(labelB)!;
  const accountA = (): Account => s.first;

  /** Reads both accounts' trees anew (after the sandboxes changed), then the first document row of each id asked. */
  const rows = async (ids: number[]): Promise<AnyNode[]> => {
    for (const t of s.documentsView.trees()) (t as unknown as { model: { refresh(): void } }).model.refresh();
    const roots = await kit.roots(2);
    const found: AnyNode[] = [];
    for (const root of roots) {
      const view = await readView(s.documentsView as never, 4, root);
      for (const n of view.nodes) {
        const id = n.node.kind === 'document' ? (n.node.doc as { id: number }).id : undefined;
        if (id !== undefined && ids.includes(id) && !found.some((f) => (f.doc as { id: number }).id === id)) found.push(n.node);
      }
    }
    assert.deepStrictEqual(found.map((f) => (f.doc as { id: number }).id).sort(), [...ids].sort(), 'every row asked for is in the view');
    return ids.map((id) => found.find((f) => (f.doc as { id: number }).id === id)!);
  };

  const sent = (box: Sandbox, method: string) => box.requests.filter((r) => r.method === method && r.path.startsWith('/api/v1/documents/')).map((r) => Number(r.path.split('/').pop()));

  before(async () => {
    kit = await startTwoAccounts({ id: SHARED, name: 'Shared id' });
    ({ a, b, s, prompter } = kit);
    labelB = await kit.addB();
    messages = new MessageCapture().install();
  });

  beforeEach(() => {
    seed();
    prompter.reset();
    messages.shown.length = 0;
    a.clearFaults();
    b.clearFaults();
    a.resetRequests();
    b.resetRequests();
  });

  after(async () => {
    messages?.dispose();
    await kit?.dispose();
  });

  describe('many documents at once', () => {
    it('Delete on several selected rows asks once, naming how many and which, then one DELETE per document, each in its own account', async () => {
      const selected = await rows([6201, 6202, 6301]);
      a.resetRequests();
      b.resetRequests();
      prompter.confirms = [true];
      await vscode.commands.executeCommand(CMD.delete, selected[0], selected);
      assert.strictEqual(prompter.asked.length, 1, `one confirmation: ${JSON.stringify(prompter.asked)}`);
      const asked = prompter.asked[0].message ?? '';
      assert.match(asked, /Delete 3 documents\?/);
      for (const id of [6201, 6202, 6301]) assert.ok(asked.includes(nameOf(id)), `${asked}: names ${nameOf(id)}`);
      assert.deepStrictEqual(sent(a, 'DELETE').sort(), [6201, 6202], 'the documents of A deleted in A');
      assert.deepStrictEqual(sent(b, 'DELETE'), [6301], 'the document of B deleted in B');
      assert.ok(!a.documents.has(6201) && !a.documents.has(6202) && a.documents.has(6203));
      assert.ok(!b.documents.has(6301) && b.documents.has(6302));
    });

    it('Delete on several rows answered No sends nothing', async () => {
      const selected = await rows([6201, 6202]);
      a.resetRequests();
      prompter.confirms = [false];
      await vscode.commands.executeCommand(CMD.delete, selected[1], selected);
      assert.strictEqual(prompter.asked.length, 1);
      assert.deepStrictEqual(sent(a, 'DELETE'), []);
    });

    it('a partial failure says which failed and keeps the rest', async () => {
      const selected = await rows([6201, 6202, 6203]);
      // The server refuses one of the three deletions: the other two go through.
      a.setFault('documents.delete', { kind: 'status422', count: 1, fields: { id: ['This document is locked.'] } });
      a.resetRequests();
      prompter.confirms = [true];
      await vscode.commands.executeCommand(CMD.delete, selected[0], selected);
      assert.deepStrictEqual(sent(a, 'DELETE').sort(), [6201, 6202, 6203], 'one request per document');
      const kept = [6201, 6202, 6203].filter((id) => a.documents.has(id));
      assert.strictEqual(kept.length, 1, 'one refused, the others deleted');
      const said = await until('a message naming what failed', () => messages.shown.find((m) => m.message.includes(nameOf(kept[0]))));
      // One whole sentence per outcome (translated whole), the failures a list of "name (reason)" in the display language.
      assert.match(said.message, new RegExp(`^Deleted 2 of 3 documents\\. Not deleted: "${nameOf(kept[0])}" \\([^]*This document is locked\\.[^]*\\)\\.$`));
      for (const id of [6201, 6202, 6203].filter((i) => i !== kept[0])) assert.ok(!said.message.includes(nameOf(id)), said.message);
    });

    it('a partial failure of Add to Favorites names the documents not added as one list of the language, each with its reason', async () => {
      const selected = await rows([6201, 6202, 6203]);
      a.setFault('documents.update', { kind: 'status422', count: 2, fields: { favorite: ['This document is locked.'] } });
      a.resetRequests();
      await vscode.commands.executeCommand(CMD.favorite, selected[0], selected);
      const added = [6201, 6202, 6203].filter((id) => a.documents.get(id)?.favorite);
      assert.strictEqual(added.length, 1, 'two refused, one added');
      const failed = [6201, 6202, 6203].filter((id) => !added.includes(id));
      const said = await until('a message naming what failed', () => messages.shown.find((m) => m.message.startsWith('Added 1 of 3')));
      assert.match(
        said.message,
        new RegExp(`^Added 1 of 3 documents to the favorites\\. Not added: "${nameOf(failed[0])}" \\([^]*locked[^]*\\) and "${nameOf(failed[1])}" \\([^]*locked[^]*\\)\\.$`),
      );
    });

    it('Copy Result on several rows with documents without text names those as one list of the language', async () => {
      a.documents.set(6202, sandboxDocument(6202, nameOf(6202), ''));
      a.documents.set(6203, sandboxDocument(6203, nameOf(6203), ''));
      const selected = await rows([6201, 6202, 6203]);
      await vscode.commands.executeCommand(CMD.copy, selected[0], selected);
      const said = await until('a message naming the documents without text', () => messages.shown.find((m) => m.message.startsWith('These documents have no text')));
      assert.strictEqual(said.message, `These documents have no text to copy: "${nameOf(6202)}" and "${nameOf(6203)}".`);
    });

    it('Add to Favorites on several rows: one PATCH per document, no question, each in its own account; Remove from Favorites likewise', async () => {
      const selected = await rows([6201, 6203, 6302]);
      a.resetRequests();
      b.resetRequests();
      await vscode.commands.executeCommand(CMD.favorite, selected[2], selected);
      assert.strictEqual(prompter.asked.length, 0);
      assert.deepStrictEqual(sent(a, 'PATCH').concat(sent(a, 'PUT')).sort(), [6201, 6203]);
      assert.deepStrictEqual(sent(b, 'PATCH').concat(sent(b, 'PUT')), [6302]);
      for (const id of [6201, 6203]) assert.strictEqual(a.documents.get(id)?.favorite, true);
      assert.strictEqual(b.documents.get(6302)?.favorite, true);
      assert.strictEqual(a.documents.get(6202)?.favorite, false);

      const again = await rows([6201, 6302]);
      a.resetRequests();
      b.resetRequests();
      await vscode.commands.executeCommand(CMD.unfavorite, again[0], again);
      assert.strictEqual(a.documents.get(6201)?.favorite, false);
      assert.strictEqual(b.documents.get(6302)?.favorite, false);
      assert.strictEqual(a.documents.get(6203)?.favorite, true);
      assert.strictEqual(sent(a, 'PATCH').concat(sent(a, 'PUT')).length + sent(b, 'PATCH').concat(sent(b, 'PUT')).length, 2);
    });

    it('Copy Result on several rows: every text, in the order selected, one after the other', async () => {
      const selected = await rows([6203, 6301, 6201]);
      await vscode.commands.executeCommand(CMD.copy, selected[0], selected);
      const copied = await vscode.env.clipboard.readText();
      assert.strictEqual(copied, ['Text 6203', 'Text 6301', 'Text 6201'].join('\n\n'));
    });

    it('one row selected (or a click outside the selection) acts as before: Delete asks about that document by name', async () => {
      const [row] = await rows([6202]);
      prompter.confirms = [true];
      a.resetRequests();
      await vscode.commands.executeCommand(CMD.delete, row, [row]);
      assert.match(prompter.asked[0]?.message ?? '', /^Delete "Bulk 6202"\?/);
      assert.deepStrictEqual(sent(a, 'DELETE'), [6202]);
      prompter.reset();
      const [other] = await rows([6201]);
      await vscode.commands.executeCommand(CMD.delete, other, undefined);
      assert.match(prompter.asked[0]?.message ?? '', /^Delete "Bulk 6201"\?/);
    });
  });

  describe('keys pressed on several selected rows', () => {
    const view = (): vscode.TreeView<AnyNode> => (s.documentsView.trees()[0] as unknown as { treeView: vscode.TreeView<AnyNode> }).treeView;
    const focusedName = async () => (await read('.monaco-list-row.focused .label-name')).text;

    /**
     * Selects rows as Ctrl+click does, in the order given (the last one in focus): the first one alone, then each
     * other one focused and added to the selection (`list.toggleSelection`, Ctrl+click's command).
     */
    async function selectRows(list: AnyNode[]): Promise<void> {
      await vscode.commands.executeCommand('contentDocs.documents.focus');
      await sleep(300);
      for (let i = 0; i < 10 && !(view().selection.length === 1 && view().selection[0] === list[0]); i++) {
        await view().reveal(list[0], { select: true, focus: true });
        await sleep(200);
      }
      assert.deepStrictEqual(view().selection, [list[0]], 'the first row alone selected');
      for (const row of list.slice(1)) {
        const name = nameOf((row.doc as { id: number }).id);
        await view().reveal(row, { select: false, focus: true });
        await until(`the focus on ${name}`, async () => (await focusedName()) === name);
        await vscode.commands.executeCommand('list.toggleSelection');
        await until(`${name} selected too`, () => view().selection.includes(row));
      }
      assert.strictEqual(view().selection.length, list.length, 'every row selected');
    }

    it('Delete pressed with rows of both accounts selected asks once, naming how many, which and in which account, then one DELETE per document, each in its own account', async () => {
      const selected = await rows([6201, 6301, 6202]);
      // The users' names known (the question names each account as the views do).
      await Promise.all([accountA().usage.refresh(), accountB().usage.refresh()]);
      await selectRows(selected);
      a.resetRequests();
      b.resetRequests();
      prompter.confirms = [true];
      await press('Delete');
      const asked = (await until('the confirmation', () => prompter.asked[0])).message ?? '';
      assert.match(asked, /Delete 3 documents\?/);
      await until('the deletions', () => sent(a, 'DELETE').length + sent(b, 'DELETE').length === 3 || undefined);
      assert.strictEqual(prompter.asked.length, 1, `one confirmation: ${JSON.stringify(prompter.asked)}`);
      for (const [id, account] of [[6201, accountA()], [6202, accountA()], [6301, accountB()]] as const) {
        assert.ok(asked.includes(`"${nameOf(id)}" (${account.displayName})`), `${asked}: names ${nameOf(id)} in ${account.displayName}`);
      }
      assert.deepStrictEqual(sent(a, 'DELETE').sort(), [6201, 6202], 'the documents of A deleted in A');
      assert.deepStrictEqual(sent(b, 'DELETE'), [6301], 'the document of B deleted in B');
    });

    it('Ctrl+Alt+F pressed with several rows selected: each becomes a favorite (one PATCH each, in its own account), and pressed again each is one no more', async () => {
      const selected = await rows([6202, 6302, 6203]);
      await selectRows(selected);
      a.resetRequests();
      b.resetRequests();
      await press('Control+Alt+KeyF');
      // A change on the wire (the views on screen may read rows or counts of either account at any moment: not a change).
      await until('a change on the wire', () => [a, b].some((x) => sent(x, 'PATCH').length + sent(x, 'PUT').length > 0) || undefined);
      await sleep(500);
      assert.deepStrictEqual([a, b].map((x) => sent(x, 'PATCH').concat(sent(x, 'PUT')).sort()), [[6202, 6203], [6302]], 'one PATCH per selected document, in its account');
      await until('the three favorites', () => (a.documents.get(6202)?.favorite && a.documents.get(6203)?.favorite && b.documents.get(6302)?.favorite) || undefined);
      assert.deepStrictEqual(sent(a, 'PATCH').concat(sent(a, 'PUT')).sort(), [6202, 6203]);
      assert.deepStrictEqual(sent(b, 'PATCH').concat(sent(b, 'PUT')), [6302]);
      assert.strictEqual(a.documents.get(6201)?.favorite, false, 'a row not selected is untouched');
      assert.deepStrictEqual(view().selection, selected, 'the rows stay selected');
      await press('Control+Alt+KeyF');
      await until('no favorite left', () => (!a.documents.get(6202)?.favorite && !a.documents.get(6203)?.favorite && !b.documents.get(6302)?.favorite) || undefined);
    });

    it('Delete pressed with the focus moved off several selected rows acts on the row in focus only, as in the Explorer', async () => {
      const [first, second, other] = await rows([6201, 6202, 6203]);
      await selectRows([first, second]);
      await view().reveal(other, { select: false, focus: true });
      await until(`the focus on ${nameOf(6203)}`, async () => (await focusedName()) === nameOf(6203));
      a.resetRequests();
      prompter.confirms = [true];
      await press('Delete');
      const asked = (await until('the confirmation', () => prompter.asked[0])).message ?? '';
      assert.match(asked, /^Delete "Bulk 6203"\?/);
      await until('the deletion', () => sent(a, 'DELETE').length > 0 || undefined);
      await sleep(300);
      assert.deepStrictEqual(sent(a, 'DELETE'), [6203], 'the row in focus only');
      assert.ok(a.documents.has(6201) && a.documents.has(6202), 'the selected rows are untouched');
    });

    it('F2 pressed with several rows selected renames the row in focus only', async () => {
      const selected = await rows([6201, 6203]);
      await selectRows(selected);
      a.resetRequests();
      prompter.inputs = ['Renamed with F2'];
      await press('F2');
      await until('the rename', () => a.documents.get(6203)?.name === 'Renamed with F2' || undefined);
      assert.strictEqual(prompter.asked.length, 1, JSON.stringify(prompter.asked));
      assert.strictEqual(a.documents.get(6201)?.name, nameOf(6201), 'the other selected row is not renamed');
    });
  });

  describe('several accounts in one selection', () => {
    const SECOND_KEY_OF_A = 'second-key-of-a-for-bulk-0123456789';

    it("Delete on rows of two accounts, the first account's key changed in another window while the confirmation is open: its rows are refused (nothing sent), the other account's deleted, and the message says which", async () => {
      a.addKey(SECOND_KEY_OF_A);
      const selected = await rows([6201, 6301, 6202, 6302]);
      const before = accountA();
      // The users' names known (the question names each account as the views do).
      await Promise.all([before.usage.refresh(), accountB().usage.refresh()]);
      const [nameA, nameB] = [before.displayName, accountB().displayName];
      prompter.confirms = [true];
      prompter.meanwhile = async () => {
        await s.context.secrets.store('contentDocs.apiKey', SECOND_KEY_OF_A);
        await until('the account of the other key', async () => {
          await s.registry.settled();
          return (await s.firstOrNone?.getKey()) === SECOND_KEY_OF_A || undefined;
        });
        a.resetRequests();
        b.resetRequests();
      };
      try {
        await vscode.commands.executeCommand(CMD.delete, selected[0], selected);
        const asked = prompter.asked[0]?.message ?? '';
        assert.ok(asked.includes(`"${nameOf(6201)}" (${nameA})`) && asked.includes(`"${nameOf(6301)}" (${nameB})`), asked);
        assert.deepStrictEqual(a.requests.filter((r) => r.method !== 'GET'), [], 'nothing sent to A, with either key');
        assert.deepStrictEqual(sent(b, 'DELETE').sort(), [6301, 6302], "B's documents deleted in B");
        assert.ok(a.documents.has(6201) && a.documents.has(6202), "A's documents are still there");
        const said = await until('a message naming what was refused', () => messages.shown.find((m) => m.message.includes(nameOf(6201))));
        assert.match(said.message, /2 of 4/);
        for (const id of [6201, 6202]) assert.ok(said.message.includes(`"${nameOf(id)}" (${before.displayName})`), `${said.message}: names ${nameOf(id)} with its account`);
        assert.match(said.message, /nothing was sent/);
        for (const id of [6301, 6302]) assert.ok(!said.message.includes(nameOf(id)), said.message);
      } finally {
        prompter.meanwhile = undefined;
        await s.credentials.setKey(a.key);
      }
    });
  });

  describe('drag and drop', () => {
    const favoritesOf = async (account: Account): Promise<AnyNode> => {
      const roots = await kit.roots(2);
      const root = roots.find((r) => r.account === account)!;
      const children = (await s.documentsView.getChildren(root as never)) as unknown as AnyNode[];
      const group = children.find((c) => c.kind === 'favorites');
      assert.ok(group, 'the account has a Favorites group');
      return group;
    };
    const token = () => new vscode.CancellationTokenSource().token;

    it('dragging documents gives the tree its rows, an editor their addresses (text/uri-list) and their text (text/plain)', async () => {
      const dragged = await rows([6201, 6202]);
      const data = new vscode.DataTransfer();
      s.documentsDragAndDrop.handleDrag(dragged as never, data, token());
      assert.ok(s.documentsDragAndDrop.dragMimeTypes.includes('text/uri-list'));
      assert.ok(s.documentsDragAndDrop.dropMimeTypes.includes(TREE_MIME));
      const uris = (await data.get('text/uri-list')?.asString())?.split('\r\n') ?? [];
      assert.strictEqual(uris.length, 2);
      for (const [i, u] of uris.entries()) {
        const target = s.fs.documentOf(vscode.Uri.parse(u));
        assert.strictEqual(target?.account, accountA(), u);
        assert.strictEqual(target?.id, [6201, 6202][i]);
      }
      assert.strictEqual(await data.get('text/plain')?.asString(), 'Text 6201\n\nText 6202');
    });

    it('dropping documents on Favorites favorites them (one PATCH each, in their account); on another account\'s Favorites nothing is sent and it says why', async () => {
      const dragged = await rows([6202, 6203]);
      const data = new vscode.DataTransfer();
      s.documentsDragAndDrop.handleDrag(dragged as never, data, token());
      a.resetRequests();
      await s.documentsDragAndDrop.handleDrop((await favoritesOf(accountA())) as never, data, token());
      assert.deepStrictEqual(sent(a, 'PATCH').concat(sent(a, 'PUT')).sort(), [6202, 6203]);
      assert.ok(a.documents.get(6202)?.favorite && a.documents.get(6203)?.favorite);

      const ofB = await rows([6301]);
      const other = new vscode.DataTransfer();
      s.documentsDragAndDrop.handleDrag(ofB as never, other, token());
      a.resetRequests();
      b.resetRequests();
      await s.documentsDragAndDrop.handleDrop((await favoritesOf(accountA())) as never, other, token());
      assert.deepStrictEqual(b.requests.filter((r) => r.method !== 'GET'), []);
      assert.deepStrictEqual(a.requests.filter((r) => r.method !== 'GET'), []);
      assert.strictEqual(b.documents.get(6301)?.favorite, false);
      await until('a message that says why', () => messages.shown.find((m) => /another account/.test(m.message)));
    });
  });

  describe('drag into an editor', () => {
    const token = () => new vscode.CancellationTokenSource().token;

    it('dropped into a text editor (Shift held), documents insert their text as the server has it now (one GET each); HTML paragraphs in an HTML editor', async () => {
      const dragged = await rows([6201, 6301]);
      const data = new vscode.DataTransfer();
      s.documentsDragAndDrop.handleDrag(dragged as never, data, token());
      // Changed on the server after the view listed it: the drop puts the current text.
      a.documents.set(6201, sandboxDocument(6201, nameOf(6201), 'Changed on the server'));
      a.resetRequests();
      b.resetRequests();
      const plain = await vscode.workspace.openTextDocument({ language: 'plaintext', content: '' });
      const edit = await s.documentsDragAndDrop.provideDocumentDropEdits(plain, new vscode.Position(0, 0), data, token());
      assert.strictEqual(edit?.insertText, 'Changed on the server\n\nText 6301');
      assert.deepStrictEqual(sent(a, 'GET'), [6201]);
      assert.deepStrictEqual(sent(b, 'GET'), [6301]);
      const html = await vscode.workspace.openTextDocument({ language: 'html', content: '' });
      const htmlEdit = await s.documentsDragAndDrop.provideDocumentDropEdits(html, new vscode.Position(0, 0), data, token());
      assert.match(htmlEdit?.insertText as string, /^<p>Changed on the server<\/p>/);
    });

    it('any other drop into an editor is left to VS Code: no edit, nothing sent', async () => {
      const data = new vscode.DataTransfer();
      data.set('text/plain', new vscode.DataTransferItem('some text'));
      a.resetRequests();
      const plain = await vscode.workspace.openTextDocument({ language: 'plaintext', content: '' });
      assert.strictEqual(await s.documentsDragAndDrop.provideDocumentDropEdits(plain, new vscode.Position(0, 0), data, token()), undefined);
      // Besides the rows and counts the views on screen may read meanwhile (and the status bar's usage read after them).
      assert.deepStrictEqual(besidesTheWindow(a.requests).map((r) => `${r.method} ${r.path}`), []);
    });
  });

  describe('links', () => {
    const uriHandler = async (): Promise<vscode.UriHandler> => {
      const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TestApi;
      return api.uriHandler;
    };
    const linkOf = (server: string, id: number) =>
      vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}/open`).with({ query: `server=${encodeURIComponent(server)}&id=${id}` });

    it('Open in Web App opens {documents server}/documents/{id} of the row\'s account; Copy Link copies it', async () => {
      const [rowB] = await rows([6301]);
      const opened: unknown[] = [];
      const env = vscode.env as { openExternal: (u: unknown) => Thenable<boolean> };
      const original = env.openExternal;
      env.openExternal = (u) => {
        opened.push(u);
        return Promise.resolve(true);
      };
      try {
        await vscode.commands.executeCommand(CMD.openInWebApp, rowB);
      } finally {
        env.openExternal = original;
      }
      const want = `${b.docsUrl.replace(/\/+$/, '')}/documents/6301`;
      assert.deepStrictEqual(opened.map(String), [want]);
      await vscode.commands.executeCommand(CMD.copyLink, rowB);
      assert.strictEqual(await vscode.env.clipboard.readText(), want);
    });

    it('a link of a signed-in account\'s server opens that document in that account; of another server it is refused with words that say so', async () => {
      await closeAll();
      const handler = await uriHandler();
      await handler.handleUri(linkOf(b.docsUrl, SHARED));
      const editor = await until('the linked document open', () => vscode.window.activeTextEditor);
      const shown = s.fs.documentOf(editor.document.uri);
      assert.strictEqual(shown?.account, accountB());
      assert.strictEqual(shown?.id, SHARED);
      assert.strictEqual(editor.document.getText(), 'Text of B');

      a.resetRequests();
      b.resetRequests();
      await handler.handleUri(linkOf('https://content.example.org', SHARED));
      const refused = await until('the refusal', () => messages.shown.find((m) => m.message.includes('content.example.org')));
      assert.match(refused.message, /no account signed in here/i);
      // Besides the rows and counts the views on screen may read meanwhile (and the status bar's usage read after them);
      // a read of the linked id is counted whatever is open.
      assert.deepStrictEqual([a, b].flatMap((x) => besidesTheWindow(x.requests, [SHARED])).map((r) => `${r.method} ${r.path}`), [], 'nothing sent');
      await closeAll();
    });

    it('a link may name the web app\'s page of the document; a malformed link is refused and sends nothing', async () => {
      await closeAll();
      const handler = await uriHandler();
      const page = `${b.docsUrl.replace(/\/+$/, '')}/documents/6302`;
      await handler.handleUri(vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}/open`).with({ query: `url=${encodeURIComponent(page)}` }));
      const editor = await until('the linked document open', () => vscode.window.activeTextEditor);
      assert.strictEqual(s.fs.documentOf(editor.document.uri)?.account, accountB());
      assert.strictEqual(editor.document.getText(), 'Text 6302');
      a.resetRequests();
      b.resetRequests();
      await handler.handleUri(vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}/open`).with({ query: 'server=ftp%3A%2F%2Fexample.org&id=x' }));
      await until('the refusal', () => messages.shown.find((m) => /not one it can open/.test(m.message)));
      // Besides the rows and counts the views on screen may read meanwhile (and the status bar's usage read after them).
      assert.deepStrictEqual([a, b].flatMap((x) => besidesTheWindow(x.requests, [6302])).map((r) => `${r.method} ${r.path}`), []);
      await closeAll();
    });

    it('several accounts signed in on the link\'s server, the one chosen goes while the question is open (its key changed in another window): nothing opened, nothing sent, and it says so', async () => {
      await closeAll();
      const second = 'second-key-of-a-for-links-0123456789';
      const third = 'third-key-of-a-for-links-0123456789';
      a.addKey(second);
      a.addKey(third);
      prompter.reset();
      prompter.inputs = [a.docsUrl, a.seoUrl, second];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true, JSON.stringify(prompter.checked));
      const added = s.registry.added().find((x) => x.label !== labelB);
      assert.ok(added, 'a second account on the server of A');
      const chosen = accountA();
      try {
        prompter.reset();
        prompter.picks = [(items) => items.find((i) => (i as { account?: Account }).account === chosen)];
        prompter.meanwhile = async () => {
          await s.context.secrets.store('contentDocs.apiKey', third);
          await until('the account of the other key', async () => {
            await s.registry.settled();
            return (await s.firstOrNone?.getKey()) === third || undefined;
          });
          a.resetRequests();
          b.resetRequests();
        };
        messages.shown.length = 0;
        const handler = await uriHandler();
        await handler.handleUri(linkOf(a.docsUrl, 6203));
        assert.strictEqual(prompter.asked.filter((q) => q.kind === 'pick').length, 1, JSON.stringify(prompter.asked));
        const said = await until('a message', () => messages.shown[0]);
        assert.match(said.message, /nothing was sent/i, said.message);
        assert.ok(said.message.includes(chosen.displayName), `names the account chosen: ${said.message}`);
        // The account of the other key was made anew on A's server: the views on screen read its rows and counts meanwhile
        // (then the status bar its usage), which are not the link's; a read of the linked document, with any key, would be.
        assert.deepStrictEqual(
          [a, b].flatMap((x) => besidesTheWindow(x.requests, [6203])).map((r) => `${r.method} ${r.path}`),
          [],
          'nothing sent, with any key',
        );
        assert.strictEqual(vscode.window.activeTextEditor, undefined, 'nothing opened');
      } finally {
        prompter.meanwhile = undefined;
        await closeAll();
        await s.registry.remove(added);
        await s.credentials.setKey(a.key);
      }
    });

    it('several accounts signed in on the link\'s server: it asks which, and opens the document in the one chosen', async () => {
      await closeAll();
      const second = 'second-key-of-a-0123456789';
      a.addKey(second);
      prompter.reset();
      prompter.inputs = [a.docsUrl, a.seoUrl, second];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true, JSON.stringify(prompter.checked));
      const added = s.registry.added().find((x) => x.label !== labelB);
      assert.ok(added, 'a second account on the server of A');
      try {
        prompter.reset();
        prompter.picks = [(items) => items.find((i) => (i as { account?: Account }).account === added)];
        const handler = await uriHandler();
        await handler.handleUri(linkOf(a.docsUrl, 6203));
        assert.strictEqual(prompter.asked.filter((q) => q.kind === 'pick').length, 1, JSON.stringify(prompter.asked));
        assert.strictEqual(prompter.asked[0].items?.length, 2, 'both accounts of that server offered, not the one of another server');
        const editor = await until('the linked document open', () => vscode.window.activeTextEditor);
        assert.strictEqual(s.fs.documentOf(editor.document.uri)?.account, added);
        assert.strictEqual(editor.document.getText(), 'Text 6203');
      } finally {
        await closeAll();
        await s.registry.remove(added);
      }
    });
  });
});
