/**
 * Several accounts, used the way that goes wrong (inside a real VS Code, two sandboxes whose servers hold the same id
 * under the same name): a row kept after its account was removed, a change queued for an account that is then
 * removed, Retry after a failed open in an added account, the first account signed out with one added account left,
 * and the first account set to the server and key of an added one. Each time, nothing may reach the wrong account's
 * server (or a removed account's), and the view must show the accounts that are signed in.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import { REUSE_MS } from '../../src/files/documentRecords';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { ANOTHER_INSTALLATION_KEY, startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import {
  closeAll,
  configure,
  MessageCapture,
  newDocumentAnswers,
  readView,
  RecordingPrompter,
  sandboxDocument,
  until,
  useSandbox,
  type AnyNode,
} from './reliabilityKit';

describe('several accounts: nothing crosses from one account to another (a removed account, the wrong account, one account twice)', function () {
  this.timeout(90_000);
  const ID = 6161;
  const NAME = 'Shared name';
  let kit: TwoAccounts;
  let a: Sandbox;
  let b: Sandbox;
  let s: TestServices;
  let prompter: RecordingPrompter;
  const addB = () => kit.addB();
  const roots = (n: number) => kit.roots(n);
  const rowsOfId = (parent?: AnyNode, depth?: number) => kit.rowsOfId(parent, depth);

  const updatesTo = (box: Sandbox) => box.requests.filter((r) => r.route === 'documents.update');

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME }, { key: ANOTHER_INSTALLATION_KEY });
    ({ a, b, s, prompter } = kit);
  });

  beforeEach(async () => {
    a.clearFaults();
    b.clearFaults();
    kit.reseed();
    await kit.onA();
  });

  afterEach(async () => {
    await closeAll();
    for (const added of s.registry.added()) await s.registry.remove(added);
  });

  after(() => kit?.dispose());

  it('a row of an account kept after the account was removed changes nothing on that account\'s server', async () => {
    const label = await addB();
    const [, rootB] = await roots(2);
    const [rowB] = await rowsOfId(rootB);
    assert.ok(rowB, 'the added account lists its document');

    prompter.confirms = [true];
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountRemove', label), true);
    assert.strictEqual(s.registry.added().length, 0);
    b.resetRequests();

    const messages = new MessageCapture().install();
    try {
      // What a user (or a late click on a row VS Code still shows) can do with the row of the removed account.
      await Promise.resolve(vscode.commands.executeCommand('contentDocs.documentFavorite', rowB)).then(undefined, () => undefined);
      prompter.inputs = ['Renamed through a removed account'];
      await Promise.resolve(vscode.commands.executeCommand('contentDocs.documentRename', rowB)).then(undefined, () => undefined);
      prompter.confirms = [true];
      await Promise.resolve(vscode.commands.executeCommand('contentDocs.documentDelete', rowB)).then(undefined, () => undefined);
      // VS Code expanding the removed account's root as it goes away.
      await Promise.resolve(s.documentsView.getChildren(rootB as never)).then(undefined, () => undefined);
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      messages.dispose();
    }

    assert.deepStrictEqual(
      b.requests.map((r) => `${r.method} ${r.path}`),
      [],
      'nothing is sent to the server of a removed account (its key was deleted)',
    );
    const kept = b.documents.get(ID);
    assert.ok(kept, 'the document of the removed account is not deleted');
    assert.strictEqual(kept.name, NAME, 'nor renamed');
    assert.strictEqual(kept.favorite, false, 'nor favorited');
  });

  it('every address form of an added account reads and writes there only; a move onto the other account\'s address changes nothing', async () => {
    const label = await addB();
    const labelA = s.first.label;
    const dec = (u: Uint8Array) => new TextDecoder().decode(u);
    const single = (l: string) => vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${l}`, path: `/${hostOf((l === labelA ? a : b).docsUrl)}/Freestyle/${NAME}.md` });
    // The same, as earlier versions made it (a restored tab): no host folder.
    const singleOld = (l: string) => single(l).with({ path: `/Freestyle/${NAME}.md` });
    const inFolder = (l: string) => vscode.Uri.from({ scheme: 'content-docs', authority: l, path: `/Freestyle/${NAME}.md` });
    // The added account's folder lists its own documents.
    const folders = await vscode.workspace.fs.readDirectory(vscode.Uri.from({ scheme: 'content-docs', authority: label, path: '/' }));
    assert.ok(folders.some(([n]) => n === 'Freestyle'), `the added account's folder: ${folders.map(([n]) => n).join(', ')}`);
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(inFolder(label))), 'Text of B');
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(single(label))), 'Text of B');
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(singleOld(label))), 'Text of B');
    assert.strictEqual(dec(await vscode.workspace.fs.readFile(inFolder(labelA))), 'Text of A');

    await vscode.workspace.fs.writeFile(inFolder(label), new TextEncoder().encode('B through its folder'));
    assert.strictEqual(b.documents.get(ID)!.result, 'B through its folder');
    assert.strictEqual(a.documents.get(ID)!.result, 'Text of A', 'nothing of it reached the first account');

    a.resetRequests();
    b.resetRequests();
    // A move from one account's address to the other's is refused; nothing is renamed in either account.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.rename(single(label), inFolder(labelA).with({ path: '/Freestyle/Moved.md' }), { overwrite: false })));
    await assert.rejects(Promise.resolve(vscode.workspace.fs.rename(singleOld(label), single(labelA).with({ path: `/${hostOf(a.docsUrl)}/Freestyle/Moved.md` }), { overwrite: false })));
    await assert.rejects(Promise.resolve(vscode.workspace.fs.rename(inFolder(labelA), single(label).with({ path: '/Freestyle/Moved.md' }), { overwrite: false })));
    assert.strictEqual(a.documents.get(ID)!.name, NAME);
    assert.strictEqual(b.documents.get(ID)!.name, NAME);
    assert.deepStrictEqual([...a.requests, ...b.requests].filter((r) => r.route === 'documents.update'), [], 'no change was sent');
  });

  it('a project row kept after its account was removed deletes nothing, in no account', async () => {
    const PROJECT = 'Shared project';
    for (const box of [a, b]) {
      if (!box.reports.some((r) => r.project === PROJECT)) box.reports.push({ id: 990_001, project: PROJECT, result: 50, createdAt: new Date() });
    }
    const label = await addB();
    const projectRoots = await until('2 roots in the Projects view', async () => {
      const r = (await s.projectsView.getChildren()) as unknown as AnyNode[];
      return r.length === 2 && r.every((x) => x.kind === 'accountRoot') ? r : undefined;
    });
    const view = await readView(s.projectsView as never, 2, projectRoots[1]);
    const rowB = view.nodes.find((n) => n.node.kind === 'project' && (n.node.project as { project: string }).project === PROJECT)?.node;
    assert.ok(rowB, `the added account lists its project: ${view.labels.join(' | ')}`);

    prompter.confirms = [true];
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountRemove', label), true);
    a.resetRequests();
    b.resetRequests();
    const messages = new MessageCapture().install();
    try {
      prompter.confirms = [true];
      await Promise.resolve(vscode.commands.executeCommand('contentDocs.projectDelete', rowB)).then(undefined, () => undefined);
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      messages.dispose();
    }
    assert.deepStrictEqual(b.requests.map((r) => `${r.method} ${r.path}`), [], 'nothing is sent to the removed account\'s projects server');
    assert.deepStrictEqual(a.requests.filter((r) => r.method === 'DELETE').map((r) => r.path), [], 'nor is the first account\'s project of that name deleted');
    assert.ok(b.reports.some((r) => r.project === PROJECT) && a.reports.some((r) => r.project === PROJECT), 'both projects are still there');
  });

  it('a root read by the view as its account is removed lists nothing, and asks nothing of that account\'s server', async () => {
    const label = await addB();
    const [, rootB] = await roots(2);
    b.resetRequests();
    // VS Code reads the added account's root (its first look, or a refresh) just as Remove Account… takes it away.
    const listing = Promise.resolve(s.documentsView.getChildren(rootB as never)).then(
      (rows) => ({ rows: rows as unknown as AnyNode[] }),
      (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
    );
    await s.registry.remove(s.registry.byLabel(label)!);
    const read = await listing;
    assert.deepStrictEqual(read, { rows: [] }, 'the removed account\'s root lists nothing (no error, no rows of a removed account)');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepStrictEqual(b.requests.map((r) => `${r.method} ${r.path}`), [], 'nothing is sent to the removed account\'s server');
  });

  it('a group of an added account whose list is on the wire when the account is removed lists nothing, and nothing more is asked', async () => {
    const label = await addB();
    const [, rootB] = await roots(2);
    const groups = (await s.documentsView.getChildren(rootB as never)) as unknown as AnyNode[];
    const all = groups.find((g) => g.kind === 'all');
    assert.ok(all, `the added account has All Documents: ${groups.map((g) => g.kind).join(', ')}`);
    await new Promise((r) => setTimeout(r, 300));
    b.resetRequests();
    const release = b.hold('documents.list');
    let released = false;
    let onTheWire: number | undefined;
    try {
      const listing = Promise.resolve(s.documentsView.getChildren(all as never)).then(
        (rows) => ({ rows: (rows as unknown as AnyNode[]).map((n) => n.kind) }),
        (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
      );
      // The rows asked for (a view on screen may ask for B's rows and counts too, at any moment before the removal).
      await until('the list on the wire', () => b.requests.some((r) => r.route === 'documents.list' && r.query.sort_by !== undefined));
      await s.registry.remove(s.registry.byLabel(label)!);
      // What reached the server until the account was removed: held on the wire, or a view's, all sent before.
      onTheWire = b.requests.length;
      release();
      released = true;
      assert.deepStrictEqual(await listing, { rows: [] }, 'no row of the removed account is handed to the view, and no error');
    } finally {
      if (!released) release();
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.deepStrictEqual(
      b.requests.slice(onTheWire ?? 0).map((r) => `${r.method} ${r.path}`),
      [],
      `only what was already on the wire reached the removed account's server: ${b.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`,
    );
  });

  it('the rows of a removed account still on screen give their items, tooltips and parents (as VS Code asks while the view refreshes)', async () => {
    const label = await addB();
    const [, rootB] = await roots(2);
    const [rowB] = await rowsOfId(rootB);
    assert.ok(rowB, 'the added account lists its document');
    const projectRoots = await until('2 roots in the Projects view', async () => {
      const r = (await s.projectsView.getChildren()) as unknown as AnyNode[];
      return r.length === 2 && r.every((x) => x.kind === 'accountRoot') ? r : undefined;
    });
    const [projectRowB] = (await s.projectsView.getChildren(projectRoots[1] as never)) as unknown as AnyNode[];
    assert.ok(projectRowB, 'the added account\'s Projects root lists a row');

    await s.registry.remove(s.registry.byLabel(label)!);
    b.resetRequests();
    const token = new vscode.CancellationTokenSource().token;
    const asked = (view: typeof s.documentsView | typeof s.projectsView, row: AnyNode) => {
      const v = view as unknown as vscode.TreeDataProvider<AnyNode>;
      const item = v.getTreeItem(row) as vscode.TreeItem;
      v.getParent?.(row);
      v.resolveTreeItem?.(item, row, token);
      return item;
    };
    const { label: named } = asked(s.documentsView, rowB);
    assert.match(typeof named === 'string' ? named : (named?.label ?? ''), new RegExp(NAME), 'the document row still names its document');
    assert.ok(asked(s.projectsView, projectRowB), 'the project row gives its item');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepStrictEqual(b.requests.map((r) => `${r.method} ${r.path}`), [], 'nothing is sent to the removed account\'s server');
  });

  it('a change of the user settings\' server addresses makes the first account anew (its projects read again), never an added account (its servers are its own)', async () => {
    await addB();
    await roots(2);
    const projectRoots = (await s.projectsView.getChildren()) as unknown as AnyNode[];
    assert.deepStrictEqual(projectRoots.map((n) => n.kind), ['accountRoot', 'accountRoot']);
    const [rootA, rootB] = projectRoots;
    const projectsOf = async (root: AnyNode) => (await s.projectsView.getChildren(root as never)) as unknown as AnyNode[];
    const lists = (box: Sandbox) => box.requests.filter((r) => r.route === 'projects.list');
    await projectsOf(rootA);
    await projectsOf(rootB);
    a.resetRequests();
    b.resetRequests();
    try {
      const before = s.first;
      // The same projects server, written another way: a change of the setting all the same.
      await configure('projects.baseUrl', `${a.seoUrl}/`);
      assert.notStrictEqual(s.first, before, 'another server address makes another account');
      assert.strictEqual(s.first.label, before.label, 'of the same label (the same documents server and key)');
      assert.deepStrictEqual(await projectsOf(rootA), [], 'the old account\'s root lists nothing, and reads nothing');
      assert.strictEqual(lists(a).length, 0);
      const [newRootA, sameRootB] = (await s.projectsView.getChildren()) as unknown as AnyNode[];
      assert.strictEqual(sameRootB, rootB, 'the added account is the same');
      await projectsOf(newRootA);
      assert.ok(lists(a).length > 0, 'the new account reads its projects');
      await projectsOf(rootB);
      assert.strictEqual(lists(b).length, 0, 'the added account\'s projects were not read again');
    } finally {
      await configure('projects.baseUrl', a.seoUrl);
    }
  });

  it('a change queued for an added account is not sent after the account was removed', async () => {
    const label = await addB();
    b.resetRequests();
    const release = b.hold('documents.update');
    let released = false;
    try {
      // The first change is on the wire; the second waits behind it (the changes of a document go one at a time).
      const first = Promise.resolve(vscode.commands.executeCommand('contentDocs.documentFavorite', { id: ID, account: label })).then(undefined, () => undefined);
      await until('the first change on the wire', () => updatesTo(b).length === 1);
      const second = Promise.resolve(vscode.commands.executeCommand('contentDocs.documentUnfavorite', { id: ID, account: label })).then(undefined, () => undefined);
      await new Promise((r) => setTimeout(r, 200));

      const messages = new MessageCapture().install();
      try {
        await s.registry.remove(s.registry.byLabel(label)!);
        release();
        released = true;
        await Promise.all([first, second]);
        await new Promise((r) => setTimeout(r, 500));
      } finally {
        messages.dispose();
      }
    } finally {
      if (!released) release();
    }
    // Only the change already on the wire when the account was removed reached its server.
    assert.strictEqual(updatesTo(b).length, 1, `changes sent to the removed account's server: ${JSON.stringify(updatesTo(b).map((r) => r.body))}`);
  });

  it('Retry after a failed open in an added account opens that account\'s document, not the first account\'s of the same id', async () => {
    const label = await addB();
    b.setFault('documents.show', { kind: 'status500', count: 1 });
    const messages = new MessageCapture().install();
    messages.autoDismiss = false;
    try {
      // A row's own Open names its account.
      void Promise.resolve(vscode.commands.executeCommand('contentDocs.documentOpen', { id: ID, account: label })).then(undefined, () => undefined);
      const failed = await messages.waitFor('the failed open with Retry', (m) => m.level === 'error' && m.items.includes('Retry'));
      failed.choose('Retry');
      const editor = await until('an editor of the document', () =>
        vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'content-docs' && e.document.uri.authority.startsWith(`${ID}.`)),
      );
      assert.strictEqual(editor.document.uri.authority, `${ID}.${label}`, 'Retry opens the document in the account the open was for');
      assert.strictEqual(editor.document.getText(), 'Text of B');
    } finally {
      messages.dispose();
    }
  });

  it('with the first account signed out, the one added account\'s documents are still in the Documents view', async () => {
    const label = await addB();
    await roots(2);
    await vscode.commands.executeCommand('contentDocs.signOut');
    await until('the first account signed out', () => s.firstOrNone?.label === undefined && !s.credentials.signedIn);
    assert.deepStrictEqual(s.registry.all().map((x) => x.label), [label], 'the added account is the one shown');
    const rows = await until('the added account\'s document in the view', async () => {
      const r = await rowsOfId(undefined, 3);
      return r.length ? r : undefined;
    }, 5_000).catch(() => [] as AnyNode[]);
    assert.ok(rows.length > 0, 'the added account\'s document is listed');
    for (const row of rows) {
      const item = s.documentsView.getTreeItem(row as never);
      assert.strictEqual((item.command?.arguments?.[0] as { account?: string } | undefined)?.account, label, 'the row is the added account\'s');
    }
  });

  it('wrong keys typed into Add Account… never cost the first account its label (its tabs keep working)', async () => {
    const before = s.first.label;
    const uriA = vscode.Uri.from({ scheme: 'content-docs', authority: `${ID}.${before}`, path: `/${hostOf(a.docsUrl)}/Freestyle/${NAME}.md` });
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(uriA)), 'Text of A');
    // Fifty mistyped keys (the server refuses each), then the right one.
    prompter.reset();
    prompter.inputs = [b.docsUrl, b.seoUrl, ...Array.from({ length: 50 }, (_, i) => `mistyped-key-${i}`), b.key];
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true);
    assert.strictEqual(prompter.checked.filter((c) => c.problem !== undefined).length, 50, 'each wrong key was refused in its box');
    // Signed out and in again with the same key on the same server: the same account, as before.
    await vscode.commands.executeCommand('contentDocs.signOut');
    await useSandbox(s, a);
    assert.strictEqual(await until('the first account\'s label', () => Promise.resolve(s.firstOrNone?.label)), before, 'the same server and key keep their label');
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(uriA)), 'Text of A', 'the first account\'s address still reads');
  });

  it('Set API Key… with the server and key of an added account never makes two accounts of one label', async () => {
    const label = await addB();
    // The first account's server set to the added account's, then Set API Key… with the added account's key.
    await configure('documents.baseUrl', b.docsUrl);
    await configure('projects.baseUrl', b.seoUrl);
    prompter.reset();
    prompter.inputs = [b.key];
    assert.strictEqual(await vscode.commands.executeCommand('contentDocs.signIn'), false, 'the key is not set for the first account');
    assert.match(prompter.checked.at(-1)?.problem ?? '', /added with "Add Account…"/, 'the box says whose key it is');
    const labels = s.registry.all().map((x) => x.label ?? 'signed-out');
    assert.strictEqual(new Set(labels).size, labels.length, `every account shown has a label of its own: ${labels.join(', ')} (added: ${label})`);
    const view = await readView(s.documentsView as never, 3);
    const ids = view.nodes.map((n) => n.item.id).filter((x): x is string => x !== undefined);
    assert.deepStrictEqual(ids.filter((x, i) => ids.indexOf(x) !== i), [], 'tree item ids are unique across the view');
    const sessions = (await s.accounts.getSessions()).map((x) => x.id);
    assert.strictEqual(new Set(sessions).size, sessions.length, `the Accounts menu lists each account once: ${sessions.join(', ')}`);
  });

  it('the first account\'s server set to an added account\'s that takes the same key (a copy of one installation) never shows one account twice', async () => {
    // A second installation that takes the first account's key (a staging copy of the same database, say).
    const copy = await startSandbox({ rateLimit: 0, storeDelayMs: 0, key: a.key });
    try {
      copy.documents.set(ID, sandboxDocument(ID, NAME, 'Text of the copy'));
      prompter.reset();
      prompter.inputs = [copy.docsUrl, copy.seoUrl, copy.key];
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.accountAdd'), true);
      // Then the first account's server (user settings) is changed to the copy's: the same server and key as the added one.
      await configure('documents.baseUrl', copy.docsUrl);
      await configure('projects.baseUrl', copy.seoUrl);
      // The settings now name the added account's server and key: one account of that label, the added one.
      assert.deepStrictEqual(s.registry.all().map((x) => x.origin), ['added'], 'the settings make no second account of the added one');
      const labels = s.registry.all().map((x) => x.label ?? 'signed-out');
      assert.strictEqual(new Set(labels).size, labels.length, `every account shown has a label of its own: ${labels.join(', ')}`);
      const view = await readView(s.documentsView as never, 3);
      const ids = view.nodes.map((n) => n.item.id).filter((x): x is string => x !== undefined);
      assert.deepStrictEqual(ids.filter((x, i) => ids.indexOf(x) !== i), [], 'tree item ids are unique across the view');
      const sessions = (await s.accounts.getSessions()).map((x) => x.id);
      assert.strictEqual(new Set(sessions).size, sessions.length, `the Accounts menu lists each account once: ${sessions.join(', ')}`);
      // The menu's Sign Out on that one entry removes the added account it shows, not the first account's key.
      await s.accounts.removeSession(s.registry.added()[0].label);
      assert.strictEqual(s.registry.added().length, 0, 'the added account is removed');
      assert.ok(await s.credentials.hasKey(), 'the first account keeps its key');
    } finally {
      for (const added of s.registry.added()) await s.registry.remove(added);
      await useSandbox(s, a);
      await copy.close();
    }
  });
  it('Generate from Selection in an added account offers that account\'s custom templates, never the first account\'s (the same id is another template, or none, on its server)', async () => {
    // A custom template of each account, seen in each account's list (CONTRACT.md: ids above 52 are an account's own).
    a.documents.set(7070, sandboxDocument(7070, 'Made with A\'s template', 'Text', { templateId: 60, templateName: 'Private template of A' }));
    b.documents.set(7071, sandboxDocument(7071, 'Made with B\'s template', 'Text', { templateId: 61, templateName: 'Own template of B' }));
    const label = await addB();
    const added = s.registry.byLabel(label)!;
    for (const account of [s.first, added]) {
      const tree = s.documentsView.treeOf(account) as unknown as { model: { rootChildren(): Promise<AnyNode[]> }; load(g: AnyNode): Promise<unknown> };
      const all = (await tree.model.rootChildren()).find((g) => g.kind === 'all')!;
      await tree.load(all);
    }
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'Notes to write from.', language: 'markdown' }));
    editor.selection = new vscode.Selection(0, 0, 0, editor.document.lineAt(0).text.length);
    prompter.reset();
    let offered: string[] | undefined;
    prompter.picks = [
      (items) => items.find((i) => i.label.includes(added.displayName)),
      (items) => {
        offered = items.map((i) => i.label);
        return undefined;
      },
    ];
    await vscode.commands.executeCommand('contentDocs.selectionGenerate');
    assert.ok(offered, `the template was asked: ${JSON.stringify(prompter.asked.map((q) => q.title))}`);
    assert.ok(offered.includes('Own template of B'), `B's own template is offered in B: ${JSON.stringify(offered.filter((l) => /template/i.test(l)))}`);
    assert.ok(!offered.includes('Private template of A'), `A's custom template is not offered in B: ${JSON.stringify(offered.filter((l) => /template/i.test(l)))}`);
    a.documents.delete(7070);
    b.documents.delete(7071);
  });

  it('an account removed while the user picks it (New Document…, Go to Document…) stops the command with a message naming it: nothing is sent, to either server', async () => {
    for (const command of ['contentDocs.documentNew', 'contentDocs.documentGoTo']) {
      const label = await addB();
      const bName = s.registry.added()[0].displayName;
      // The pick is answered with B's row, B having been removed meanwhile (Remove Account…, or Sign Out in the
      // Accounts menu, from another part of the window).
      const pickRemovedB = (items: readonly vscode.QuickPickItem[]) => {
        void s.registry.remove(s.registry.byLabel(label)!);
        return items.find((i) => i.label.includes(bName));
      };
      a.resetRequests();
      b.resetRequests();
      prompter.reset();
      prompter.picks = [pickRemovedB];
      // New Document's questions, and Go to Document's search words.
      const newDocument = newDocumentAnswers('Made in a removed account', 'A short text');
      prompter.answer = (q, items, nth) => newDocument(q, items, nth) ?? 'Shared';
      const messages = new MessageCapture().install();
      try {
        await Promise.resolve(vscode.commands.executeCommand(command)).then(undefined, () => undefined);
        const errors = messages.shown.filter((m) => m.level === 'error').map((m) => m.message);
        assert.strictEqual(errors.length, 1, `${command}: ${JSON.stringify(messages.shown)}`);
        assert.match(errors[0], new RegExp(`${bName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*removed`), errors[0]);
        assert.deepStrictEqual(prompter.asked.map((q) => q.title).slice(1), [], `${command} asks nothing after the account: ${JSON.stringify(prompter.asked)}`);
      } finally {
        messages.dispose();
      }
      assert.deepStrictEqual(b.requests.map((r) => r.route), [], `${command}: nothing to the removed account's server`);
      const asked = a.requests.filter((r) => r.route === 'documents.store' || (r.route === 'documents.list' && r.query.search !== undefined));
      assert.deepStrictEqual(asked.map((r) => r.route), [], `${command}: nothing done in the first account instead`);
    }
  });
  it('the first account signed in to another account while the user picks it stops New Document…: nothing is created in the other account', async () => {
    // A third installation, with a key of its own (another account on another server).
    const c = await startSandbox({ key: 'third-installation-key-0123456789' });
    try {
      await addB();
      const aName = s.first.displayName;
      const labelA = s.first.label;
      // The user picks the first account's row (named after A); meanwhile the first account is signed in to C
      // (Set API Key… and the server's settings changed in another part of the window).
      const pickAThenSwitch = (items: readonly vscode.QuickPickItem[]) => {
        const itemA = items.find((i) => i.label.includes(aName));
        return (async () => {
          await useSandbox(s, c);
          await until('the first account signed in to C', async () => {
            const now = s.firstOrNone?.label;
            return now !== undefined && now !== labelA && s.registry.all().includes(s.first) ? true : undefined;
          });
          return itemA;
        })() as unknown as vscode.QuickPickItem;
      };
      a.resetRequests();
      b.resetRequests();
      c.resetRequests();
      prompter.reset();
      prompter.picks = [pickAThenSwitch];
      prompter.answer = newDocumentAnswers('Made in another account', 'A short text');
      const messages = new MessageCapture().install();
      try {
        await Promise.resolve(vscode.commands.executeCommand('contentDocs.documentNew')).then(undefined, () => undefined);
        const errors = messages.shown.filter((m) => m.level === 'error').map((m) => m.message);
        assert.strictEqual(errors.length, 1, JSON.stringify(messages.shown));
        assert.ok(errors[0].includes(aName) && /signed in elsewhere/.test(errors[0]), errors[0]);
      } finally {
        messages.dispose();
      }
      const stored = (box: Sandbox) => box.requests.filter((r) => r.route === 'documents.store').map((r) => r.route);
      assert.deepStrictEqual(stored(c), [], `picked ${aName}: nothing is created on the server the first account now uses (${c.docsUrl})`);
      assert.deepStrictEqual(stored(b), [], 'nothing is created in the added account');
    } finally {
      await c.close();
    }
  });

  it('signing out of one account asks nothing of another account\'s server (its open tabs are not read again)', async () => {
    const labelB = await addB();
    const labelA = s.first.label;
    const opened = async (label: string) => {
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: ID, account: label });
      return until(`the editor of ${ID}.${label}`, () => vscode.window.visibleTextEditors.find((e) => e.document.uri.authority === `${ID}.${label}`));
    };
    assert.strictEqual((await opened(labelA)).document.getText(), 'Text of A');
    assert.strictEqual((await opened(labelB)).document.getText(), 'Text of B');
    // Everything the opening asked for is answered, and its reads are too old to serve a stat; then the first
    // account is signed out.
    await new Promise((r) => setTimeout(r, REUSE_MS + 500));
    b.resetRequests();
    await s.registry.remove(s.first);
    await new Promise((r) => setTimeout(r, 1500));
    // (The view, now showing the added account alone, may list its documents: that is the view, not its open tab.)
    assert.deepStrictEqual(
      b.requests.filter((r) => r.route === 'documents.show').map((r) => `${r.method} ${r.path}`),
      [],
      "the added account's open document is not read again because the first account went",
    );
  });

  it('Back Up Account to Folder… on the root of an account signed out elsewhere meanwhile backs up no other account', async () => {
    await addB();
    const [rootA] = await roots(2);
    assert.strictEqual(s.documentsView.accountOf(rootA), s.first, "the first root is the first account's");
    // The user opens the first root's context menu; meanwhile another window signs out of the first account.
    await s.context.secrets.delete('contentDocs.apiKey');
    await until('the first account signed out', () => (s.firstOrNone === undefined ? true : undefined));
    const w = vscode.window as unknown as { showOpenDialog: typeof vscode.window.showOpenDialog };
    const original = w.showOpenDialog;
    const dialogs: Array<string | undefined> = [];
    w.showOpenDialog = (o) => {
      dialogs.push(o?.title);
      return Promise.resolve(undefined);
    };
    const messages = new MessageCapture().install();
    try {
      await Promise.resolve(vscode.commands.executeCommand('contentDocs.backupAccount', rootA)).then(undefined, () => undefined);
      assert.deepStrictEqual(dialogs, [], 'no backup of another account is offered for the root clicked');
      assert.ok(messages.shown.some((m) => m.level !== 'info' && /nothing/i.test(m.message)), `the user is told: ${JSON.stringify(messages.shown.map((m) => m.message))}`);
    } finally {
      w.showOpenDialog = original;
      messages.dispose();
    }
  });
});
