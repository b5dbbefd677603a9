/**
 * The web tier's tests: the extension's browser build in code-server's web-worker extension host, against the
 * sandbox with Laravel's default CORS (every request preceded by a preflight, no response header readable
 * beyond the safelist), and a second one like it with another key for an account added with "Add Account…".
 * Defined by defineSuites() once mocha's browser build is set up (test/web/index.ts).
 */
import * as vscode from 'vscode';
import { testServices, type TestServices } from '../kit/services';
import type { DocNode } from '../../src/model/nodes';
import type { Prompter } from '../../src/ui/prompter';
import type { WriteResult } from '../../src/write/commands';
import {
  activate,
  EXTENSION_ID,
  assert,
  config,
  configure,
  Messages,
  press,
  read,
  runningExtensionRow,
  SandboxControl,
  screenshot,
  ScriptedPrompter,
  sleep,
  until,
  type RequestRecord,
  type WebTestConfig,
} from './kit';

const SCHEME = 'content-docs';

export function defineSuites(): void {
  describe('web worker: Content Docs in the browser (web build, CORS sandbox)', function () {
    this.timeout(30_000);
    let c: WebTestConfig;
    let s: TestServices;
    let sb: SandboxControl;
    let runsInWebWorker = false;
    const prompter = new ScriptedPrompter();
    /** The product's own prompter (VS Code's boxes), for a question a person answers in the workbench. */
    let product: Prompter;
    const messages = new Messages();

    before(async () => {
      c = config();
      sb = new SandboxControl(c.docsUrl);
      const api = await activate();
      s = testServices(api.services);
      await s.registry.settled();
      runsInWebWorker = api.runsInWebWorker;
      product = s.prompter.current;
      s.prompter.current = prompter;
      messages.install();
      await s.credentials.setKey(c.key);
    });
    after(() => messages.dispose());
    beforeEach(async () => {
      prompter.asked = [];
      prompter.confirms = [];
      prompter.answer = () => undefined;
      prompter.problems = [];
      messages.shown.length = 0;
      await sb.clearFaults();
      await sb.cors(true);
      await sb.resetRequests();
    });
    afterEach(async () => {
      for (const d of vscode.workspace.textDocuments) {
        if (!d.isDirty) continue;
        await vscode.window.showTextDocument(d);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // An account a failed test added leaves with it (the tests after it expect the first account alone).
      for (const added of s.registry.added()) await s.registry.remove(added);
    });

    /**
     * No template counting in the background from here on: the Documents view off screen (a shown view counts its
     * templates) and any counting under way finished, so a test counts only its own requests.
     */
    async function quiet(): Promise<void> {
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
      await s.documentsTree.model.countingDone;
    }
    async function tree(node?: DocNode): Promise<DocNode[]> {
      return (await s.documentsTree.getChildren(node)) ?? [];
    }
    /** The rows of the first group that lists documents (All Documents), loaded now. */
    async function listed(): Promise<DocNode[]> {
      s.documentsTree.model.refresh();
      const roots = await tree();
      const group = roots.find((n) => n.kind === 'all') ?? roots.find((n) => n.kind === 'template');
      assert.ok(group, `a group among ${roots.map((n) => n.kind).join(', ')}`);
      return tree(group);
    }
    function label(n: DocNode): string {
      const l = s.documentsTree.getTreeItem(n).label;
      return typeof l === 'string' ? l : (l?.label ?? '');
    }
    async function openDocument(id: number): Promise<vscode.TextEditor> {
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id });
      return until('the document editor', () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.scheme === SCHEME && e.document.uri.authority.split('.')[0] === String(id) ? e : undefined;
      });
    }
    async function replaceAll(editor: vscode.TextEditor, text: string): Promise<void> {
      const d = editor.document;
      assert.ok(await editor.edit((b) => b.replace(new vscode.Range(d.positionAt(0), d.positionAt(d.getText().length)), text)), 'the edit applied');
    }
    /** A document of the seed with a plain result, from the highest id down (each test takes its own). */
    const used = new Set<number>();
    async function freshDocument(): Promise<number> {
      for (let id = 60; id > 0; id--) {
        if (used.has(id)) continue;
        const d = await sb.document(id).catch(() => undefined);
        if (!d?.result || !/^[\w ,.'-]+$/.test(d.name)) continue;
        used.add(id);
        return id;
      }
      throw new Error('no fresh document left');
    }

    it('really runs in the web worker: no process, and Developer: Show Running Extensions says "web worker"', async () => {
      assert.equal(runsInWebWorker, true, 'the extension reports typeof process === "undefined"');
      assert.equal(typeof (globalThis as { process?: unknown }).process, 'undefined');
      assert.equal(vscode.env.uiKind, vscode.UIKind.Web);
      await vscode.commands.executeCommand('workbench.action.showRuntimeExtensions');
      const row = await runningExtensionRow(EXTENSION_ID);
      assert.match(row, /web worker/i, 'the Running Extensions row');
      console.log(`      Running Extensions: ${row}`);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('signs in: the key is checked with one request (after its preflight) and stored in SecretStorage', async () => {
      await vscode.commands.executeCommand('contentDocs.signOut');
      assert.equal(await s.credentials.getKey(), undefined, 'signed out first');
      await sb.resetRequests();
      prompter.answer = (title) => (/API Key/i.test(title) ? c.key : undefined);
      const ok = await vscode.commands.executeCommand<boolean>('contentDocs.signIn');
      assert.equal(ok, true, `signed in (messages: ${JSON.stringify(messages.shown)})`);
      assert.equal(await s.credentials.getKey(), c.key);
      const reqs = await sb.requests();
      assert.deepEqual(reqs.map((r) => r.route), ['account']);
      assert.equal(reqs[0].authorizationHeader, `Bearer ${c.key}`);
      const pre = await sb.preflights();
      assert.equal(pre.length, 1, 'the browser asked first (CORS preflight)');
      assert.ok(messages.shown.some((m) => /signed in/i.test(m.message)));
    });

    it('browses: the Documents view lists the sandbox\'s documents (template groups, then rows)', async () => {
      s.documentsTree.model.refresh();
      const roots = await tree();
      assert.ok(roots.length > 0, 'groups');
      assert.ok(!roots.some((n) => n.kind === 'error'), `no error row: ${roots.map(label).join(' | ')}`);
      const group = roots.find((n) => n.kind === 'template' || n.kind === 'all');
      assert.ok(group, `a group among ${roots.map((n) => n.kind).join(', ')}`);
      const rows = (await tree(group)).filter((n) => n.kind === 'document');
      assert.ok(rows.length > 0, 'document rows');
      const first = rows[0];
      assert.ok(first.kind === 'document');
      const server = await sb.document(first.doc.id);
      assert.equal(label(first).includes(server.name) || first.doc.name === server.name, true, 'a row is a server document');
      const reqs = await sb.requests();
      assert.ok(reqs.length > 0 && reqs.every((r) => r.status > 0 && r.status < 300), JSON.stringify(reqs.map((r) => [r.route, r.status])));
      assert.equal((await sb.preflights()).length, reqs.length, 'the browser asked before each request (CORS preflight, max-age 0)');
      await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
      await sleep(500);
      await screenshot('web-documents-view');
    });

    it('opens a document in the editor (the content-docs: file system) with the server\'s text', async () => {
      await quiet();
      const id = await freshDocument();
      await sb.resetRequests();
      const editor = await openDocument(id);
      const server = await sb.document(id);
      assert.equal(editor.document.getText(), server.result);
      const reqs = await sb.requests();
      assert.deepEqual(reqs.map((r) => r.route), ['documents.show'], 'one request');
    });

    it('language-model tools: search and read run in the web worker through fetch, one request each (after its preflight)', async () => {
      await quiet();
      const id = await freshDocument();
      const server = await sb.document(id);
      await sb.resetRequests();
      const textOf = (r: vscode.LanguageModelToolResult) =>
        r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      const search = textOf(await vscode.lm.invokeTool('contentDocs_search_documents', { input: { limit: 3 }, toolInvocationToken: undefined }));
      assert.match(search, /^Account: .+\n3 of \d+ documents, newest first:\n- #\d+ "/);
      const read = textOf(await vscode.lm.invokeTool('contentDocs_read_document', { input: { id }, toolInvocationToken: undefined }));
      assert.match(read, new RegExp(`^Account: .+\\nDocument #${id} `));
      assert.ok(read.endsWith(server.result ?? ''), 'the read answer ends with the server\'s text');
      // The status bar's own read of the plan usage is not the tools'.
      const reqs = (await sb.requests()).filter((r) => r.route !== 'account');
      assert.deepEqual(reqs.map((r) => r.route), ['documents.list', 'documents.show']);
      assert.equal(reqs[0].query?.per_page, '10');
      assert.ok((await sb.preflights()).length >= reqs.length, 'the browser asked before each request');
    });

    it('edits and saves: the PATCH lands on that document, UTF-8 intact', async () => {
      await quiet();
      const id = await freshDocument();
      const editor = await openDocument(id);
      const text = 'Edited in the browser: café, naïve, 😀 — saved through fetch.';
      await replaceAll(editor, text);
      await sb.resetRequests();
      assert.equal(await editor.document.save(), true, 'saved');
      assert.equal(editor.document.isDirty, false);
      assert.equal((await sb.document(id)).result, text);
      const reqs = await sb.requests();
      const patches = reqs.filter((r) => r.method === 'PATCH');
      assert.deepEqual(patches.map((r) => r.path), [`/api/v1/documents/${id}`]);
      assert.equal(patches[0].body?.result, text);
      assert.ok(reqs.length <= 2, `at most 2 requests, as on the desktop: ${JSON.stringify(reqs.map((r) => [r.method, r.route]))}`);
      assert.equal((await sb.preflights()).length, reqs.length, 'one preflight per request');
    });

    it('a conflict: someone else saved meanwhile, so the save is refused and the server text stays', async () => {
      const id = await freshDocument();
      const editor = await openDocument(id);
      await replaceAll(editor, 'My version, typed in the browser.');
      // Someone else saves on the server (another client, same API).
      const theirs = 'Their version, saved on the website meanwhile (a longer text than mine).';
      const res = await fetch(`${c.docsUrl}/api/v1/documents/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${c.key}`, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ result: theirs }).toString(),
      });
      assert.equal(res.status, 200);
      await sb.resetRequests();
      assert.equal(await editor.document.save(), false, 'the save is refused');
      assert.equal(editor.document.isDirty, true, 'nothing typed is lost');
      assert.equal((await sb.document(id)).result, theirs, 'the server text stays');
      assert.equal((await sb.requests()).filter((r) => r.method === 'PATCH').length, 0, 'nothing was sent');
      await vscode.commands.executeCommand('notifications.showList');
      await sleep(400);
      await screenshot('web-conflict');
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    });

    it('creates a document (New Document…): one store, opened in an editor', async () => {
      prompter.answer = (title, labels) => {
        if (title === 'New Document: Name') return 'Written on vscode.dev';
        if (title === 'New Document: Prompt') return 'A short note about writing in the browser';
        return labels?.[0];
      };
      const doc = await vscode.commands.executeCommand<{ id: number; name: string } | undefined>('contentDocs.documentNew');
      assert.ok(doc, `created (asked: ${JSON.stringify(prompter.asked)}, messages: ${JSON.stringify(messages.shown)})`);
      assert.equal(doc.name, 'Written on vscode.dev');
      const stores = (await sb.requests()).filter((r) => r.route === 'documents.store');
      assert.equal(stores.length, 1);
      assert.equal((await sb.document(doc.id)).name, 'Written on vscode.dev');
      await until('the new document in an editor', () => vscode.window.activeTextEditor?.document.uri.authority.split('.')[0] === String(doc.id) || undefined);
    });

    it('rewrites a selection: the proposal is previewed as a diff, Accept applies it', async () => {
      const text = 'The harbour was quiet at dawn, and the boats sat still on the water.\n';
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: text, language: 'markdown' }));
      editor.selection = new vscode.Selection(0, 0, 0, editor.document.lineAt(0).text.length);
      prompter.confirms.push(true);
      const r = await vscode.commands.executeCommand<WriteResult | undefined>('contentDocs.selectionRewrite');
      assert.ok(r?.proposal, `a proposal (messages: ${JSON.stringify(messages.shown)})`);
      const stores = (await sb.requests()).filter((x) => x.route === 'documents.store');
      assert.equal(stores.length, 1, 'one store');
      const diff = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.input)).find((i) => i instanceof vscode.TabInputTextDiff);
      assert.ok(diff, 'the proposal is shown as a diff');
      await screenshot('web-rewrite-proposal');
      assert.equal(await vscode.commands.executeCommand('contentDocs.proposalAccept', r.proposal.uri), true);
      assert.equal(editor.document.getText(), `${r.proposal.replacement}\n`, 'the selected line replaced, its newline kept');
      assert.ok(r.proposal.replacement.length > 0 && editor.document.getText() !== text, 'the text changed');
    });

    it('a 429 without readable headers: backed off on the fixed schedule (2 s, not the unreadable Retry-After of 1 s), then listed', async () => {
      const exchanges: Array<{ path: string; status: number | undefined; attempt: number; at: number }> = [];
      await quiet();
      const sub = s.api.onDidExchange((e) => {
        if (e.path.startsWith('/documents') && e.method === 'GET') exchanges.push({ path: e.path, status: e.status, attempt: e.attempt, at: Date.now() });
      });
      try {
        await sb.fault('documents.list', { kind: 'rateLimit', count: 1, retryAfter: 1 });
        const rows = await listed();
        assert.ok(rows.some((n) => n.kind === 'document') && !rows.some((n) => n.kind === 'error'), 'listed after the wait');
        // The refused request and its retry (the view may also be counting its templates meanwhile).
        const refused = exchanges.find((e) => e.status === 429);
        assert.ok(refused, `a 429: ${JSON.stringify(exchanges.map((e) => e.status))}`);
        const retried = exchanges.find((e) => e.path === refused.path && e.attempt === refused.attempt + 1);
        assert.ok(retried && retried.status === 200, `the retry was answered: ${JSON.stringify(exchanges)}`);
        const gap = retried.at - refused.at;
        assert.ok(gap >= 1900, `waited ${gap} ms: the fixed 2 s, since Retry-After cannot be read`);
        assert.ok(gap < 4000, `waited ${gap} ms`);
      } finally {
        sub.dispose();
      }
    });

    it('a server without CORS: signing in says in plain words that it refuses browser access and the desktop VS Code works', async () => {
      await configure('documents.baseUrl', c.noCorsUrl);
      try {
        prompter.answer = (title) => (/API Key/i.test(title) ? c.key : undefined);
        const ok = await vscode.commands.executeCommand<boolean>('contentDocs.signIn');
        assert.equal(ok, false);
        const error = prompter.problems[0];
        assert.ok(error, `the key box said why (messages: ${JSON.stringify(messages.shown)})`);
        assert.match(error, /refuses browser access/);
        assert.match(error, /desktop VS Code/);
        assert.doesNotMatch(error, /Failed to fetch|TypeError/);
        assert.equal(messages.shown.filter((m) => m.level === 'error').length, 0, 'under the key box, not in a notification');
        assert.equal(await s.credentials.getKey(), c.key, 'the key of the working server is kept');
      } finally {
        await configure('documents.baseUrl', c.docsUrl);
      }
      // A proxy that blocks OPTIONS in front of the working server: the Documents view says the same.
      await sb.cors('proxy-blocks-options');
      const rows = await listed();
      const err = rows.find((n) => n.kind === 'error');
      assert.ok(err, `an error row: ${rows.map(label).join(' | ')}`);
      const item = s.documentsTree.getTreeItem(err);
      const words = `${label(err)} ${typeof item.description === 'string' ? item.description : ''} ${typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '')}`;
      assert.match(words, /refuses browser access/);
      await sb.cors(true);
      // As a user sees it: the product's own key box, the key in it (as pasted), Enter; the answer under the box.
      await configure('documents.baseUrl', c.noCorsUrl);
      const pasting: Prompter = {
        confirm: (message, detail, label) => prompter.confirm(message, detail, label),
        ask: (message, detail, buttons) => prompter.ask(message, detail, buttons),
        input: (o) => prompter.input(o),
        pick: (items, o) => prompter.pick(items, o),
        inputChecked: (o, check) => product.inputChecked({ ...o, value: c.key }, check),
        inputStep: (o) => prompter.inputStep(o),
        pickStep: (items, o) => prompter.pickStep(items, o),
        inputToggled: (o) => prompter.inputToggled(o),
      };
      s.prompter.current = pasting;
      try {
        const outcome: Array<boolean | undefined> = [];
        const run = Promise.resolve(vscode.commands.executeCommand<boolean>('contentDocs.signIn')).then((ok) => outcome.push(ok));
        await until('the key box', async () => /Set API Key/.test((await read('.quick-input-widget')).text));
        await press('Enter');
        const under = await until('the answer under the key box', async () => {
          const m = await read('.quick-input-widget .quick-input-message');
          return m.visible && /refuses browser access/.test(m.text) ? m.text : undefined;
        });
        assert.match(under, /desktop VS Code/);
        assert.equal(outcome.length, 0, 'the box stays open for another try');
        await screenshot('web-no-cors');
        await press('Escape');
        await until('the command to end', () => outcome.length > 0);
        await run;
        assert.deepEqual(outcome, [false]);
      } finally {
        s.prompter.current = prompter;
        await configure('documents.baseUrl', c.docsUrl);
      }
    });

    it('two accounts: Add Account… in the worker, a root each, the same id opened and saved each in its own account, Remove Account…', async function () {
      this.timeout(60_000);
      const two = c.second;
      const sb2 = new SandboxControl(two.docsUrl);
      await sb2.clearFaults();
      await sb2.resetRequests();
      // Every request each server got in this test (the records are read and cleared at each step below).
      const toFirst: RequestRecord[] = [];
      const toSecond: RequestRecord[] = [];
      const collect = async () => {
        toFirst.push(...(await sb.requests()));
        toSecond.push(...(await sb2.requests()));
        await sb.resetRequests();
        await sb2.resetRequests();
      };
      assert.equal(await s.credentials.getKey(), c.key, 'the first account is signed in');
      assert.equal(s.registry.added().length, 0, 'no account added yet');

      // Add Account…: the second server's address, its projects address, its key.
      prompter.answer = (title) => {
        if (/Add Account \(1\//.test(title)) return two.docsUrl;
        if (/Add Account \(2\//.test(title)) return two.seoUrl;
        if (/Add Account \(3\//.test(title)) return two.key;
        return undefined;
      };
      const ok = await vscode.commands.executeCommand<boolean>('contentDocs.accountAdd');
      assert.equal(ok, true, `added (asked: ${JSON.stringify(prompter.asked)}, problems: ${JSON.stringify(prompter.problems)}, messages: ${JSON.stringify(messages.shown)})`);
      assert.deepEqual(prompter.asked.map((a) => a.title), ['Content Docs: Add Account (1/3)', 'Content Docs: Add Account (2/3)', 'Content Docs: Add Account (3/3)']);
      const added = s.registry.added()[0];
      const first = s.firstOrNone?.label;
      assert.ok(added?.label && first && added.label !== first, `two accounts: ${first} and ${added?.label}`);
      assert.equal(await s.context.secrets.get(`contentDocs.apiKey.${added.label}`), two.key, 'its key in SecretStorage');
      assert.ok((await sb2.requests()).some((r) => r.route === 'account'), 'the key was checked with the second server');

      // A root per account in the Documents view (and in the Projects view), each listing its own server's documents.
      const roots = await until('a root per account', async () => {
        const r = (await s.documentsView.getChildren()) ?? [];
        return r.length === 2 && r.every((n) => n.kind === 'accountRoot') ? r : undefined;
      });
      const viewLabel = (n: Parameters<typeof s.documentsView.getTreeItem>[0]) => {
        const l = s.documentsView.getTreeItem(n).label;
        return typeof l === 'string' ? l : (l?.label ?? '');
      };
      const rootLabels = roots.map(viewLabel);
      assert.ok(rootLabels[0].includes(new URL(c.docsUrl).host), `the first root is the first server's: ${rootLabels[0]}`);
      assert.ok(rootLabels[1].includes(new URL(two.docsUrl).host), `the second root is the second server's: ${rootLabels[1]}`);
      assert.deepEqual(((await s.projectsView.getChildren()) ?? []).map((n) => n.kind), ['accountRoot', 'accountRoot'], 'the Projects view too');
      const firstPage = async (root: (typeof roots)[number]) => {
        const groups = (await s.documentsView.getChildren(root)) ?? [];
        const all = groups.find((n) => n.kind === 'all');
        assert.ok(all, `All Documents under ${viewLabel(root)}`);
        const rows = (await s.documentsView.getChildren(all)) ?? [];
        assert.ok(!rows.some((n) => n.kind === 'error'), `no error row: ${rows.map(viewLabel).join(' | ')}`);
        return rows.flatMap((n) => (n.kind === 'document' ? [n] : []));
      };
      const rowsA = await firstPage(roots[0]);
      const rowsB = await firstPage(roots[1]);
      // As a person sees it: the view shown with its two roots collapsed (the first's 52 templates would hide the second).
      await vscode.commands.executeCommand('contentDocs.documents.focus');
      await sleep(300);
      await vscode.commands.executeCommand('workbench.actions.treeView.contentDocs.documents.collapseAll');
      await sleep(500);
      await screenshot('web-two-accounts');

      // The same id under the same name in both accounts (both servers have the same seed), given two different texts.
      const rowB = rowsB.find((b) => !used.has(b.doc.id) && rowsA.some((a) => a.doc.id === b.doc.id && a.doc.name === b.doc.name));
      assert.ok(rowB, 'a document listed in both accounts with the same id and name');
      const id = rowB.doc.id;
      used.add(id);
      const rowA = rowsA.find((a) => a.doc.id === id)!;
      const serverSaves = async (url: string, key: string, text: string) => {
        const res = await fetch(`${url}/api/v1/documents/${id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ result: text }).toString(),
        });
        assert.equal(res.status, 200, `the text of ${id} set on ${url}`);
      };
      await serverSaves(c.docsUrl, c.key, 'The text of the first account.');
      await serverSaves(two.docsUrl, two.key, 'The text of the second account.');
      await collect();

      // Each row opens its own account's document: two tabs, two addresses, two texts.
      const open = async (row: typeof rowA, label: string) => {
        const command = s.documentsView.getTreeItem(row).command;
        assert.ok(command, 'the row opens on a click');
        assert.deepEqual(command.arguments?.[0], { id, account: label }, "the row's Open names its account");
        await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
        return until(`the editor of ${id}.${label}`, () => vscode.window.visibleTextEditors.find((e) => e.document.uri.authority === `${id}.${label}`));
      };
      const uriA = (await open(rowA, first)).document.uri;
      assert.equal(vscode.window.activeTextEditor?.document.getText(), 'The text of the first account.');
      const uriB = (await open(rowB, added.label)).document.uri;
      assert.equal(vscode.window.activeTextEditor?.document.getText(), 'The text of the second account.');
      assert.ok(uriA.toString() !== uriB.toString(), 'two documents, two addresses');
      await collect();

      // Each save goes to its own server only. (The second open took the first one's preview tab: shown again to edit.)
      const edB = await vscode.window.showTextDocument(uriB, { preview: false });
      await replaceAll(edB, 'Edited in the second account.');
      assert.equal(await edB.document.save(), true, 'the second account\'s document saved');
      assert.equal((await sb2.document(id)).result, 'Edited in the second account.');
      assert.equal((await sb.document(id)).result, 'The text of the first account.', 'the first server untouched');
      const edA = await vscode.window.showTextDocument(uriA, { preview: false });
      assert.equal(edA.document.getText(), 'The text of the first account.', 'the first account\'s text, read again');
      await replaceAll(edA, 'Edited in the first account.');
      assert.equal(await edA.document.save(), true, 'the first account\'s document saved');
      assert.equal((await sb.document(id)).result, 'Edited in the first account.');
      assert.equal((await sb2.document(id)).result, 'Edited in the second account.', 'the second server untouched');
      const patchesA = (await sb.requests()).filter((r) => r.method === 'PATCH');
      const patchesB = (await sb2.requests()).filter((r) => r.method === 'PATCH');
      assert.deepEqual(patchesA.map((r) => [r.path, r.body?.result, r.authorizationHeader]), [[`/api/v1/documents/${id}`, 'Edited in the first account.', `Bearer ${c.key}`]]);
      assert.deepEqual(patchesB.map((r) => [r.path, r.body?.result, r.authorizationHeader]), [[`/api/v1/documents/${id}`, 'Edited in the second account.', `Bearer ${two.key}`]]);
      await collect();

      // Remove Account… on the second root: asked first; then no roots, and its key is gone.
      prompter.confirms.push(true);
      assert.equal(await vscode.commands.executeCommand('contentDocs.accountRemove', roots[1]), true, 'removed');
      assert.equal(prompter.asked.at(-1)?.title, 'Remove Account', 'asked first');
      assert.equal(s.registry.added().length, 0);
      assert.equal(await s.context.secrets.get(`contentDocs.apiKey.${added.label}`), undefined, 'its key is deleted');
      const after = (await s.documentsView.getChildren()) ?? [];
      assert.ok(after.length > 0 && !after.some((n) => n.kind === 'accountRoot'), `no roots: ${after.map((n) => n.kind).join(', ')}`);
      assert.ok(!((await s.projectsView.getChildren()) ?? []).some((n) => n.kind === 'accountRoot'), 'no roots in the Projects view');
      await collect();

      // Whatever went where (the key check, the lists, the background counts, the opens, the saves): each key only to
      // its own server.
      assert.ok(toFirst.length > 0 && toSecond.length > 0, 'both servers were asked');
      const leakedToFirst = toFirst.filter((r) => JSON.stringify(r).includes(two.key));
      assert.deepEqual(leakedToFirst.map((r) => [r.method, r.path]), [], "the second account's key never went to the first server");
      const leakedToSecond = toSecond.filter((r) => JSON.stringify(r).includes(c.key));
      assert.deepEqual(leakedToSecond.map((r) => [r.method, r.path]), [], "the first account's key never went to the second server");
      assert.deepEqual(
        toSecond.filter((r) => r.authorizationHeader !== `Bearer ${two.key}`).map((r) => [r.method, r.path, r.authorizationHeader]),
        [],
        'every request to the second server carried its own key',
      );
    });
  });
}
