/**
 * Security: the API key exists only in SecretStorage and in the Authorization header of requests to
 * the configured hosts. Inside the real extension host, against the sandbox over real HTTP:
 *
 * - a full flow (sign in, list, open, save, create, rename, delete, projects, a few failures), then
 *   every log line, setting, state entry and file the extension host wrote is searched for the key;
 * - a workspace (settings file or API, Workspace and WorkspaceFolder targets) cannot point the base URLs
 *   at another server: a "thief" on 127.0.0.1 never receives a request;
 * - http:// to a non-loopback host is refused with an explanation and without a connection;
 * - redirects (301/302/303/307/308, to the thief) are never followed;
 * - commands invoked with crafted arguments cannot delete without confirmation or send the key anywhere.
 */
import * as assert from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import {
  accountNow,
  allContentDocsSettings,
  closeAll,
  configure,
  DocumentPool,
  editorOf,
  ExchangeCounter,
  filesContaining,
  keyForms,
  LogCapture,
  MessageCapture,
  newDocumentAnswers,
  openDocument,
  readView,
  RecordingPrompter,
  RejectionWatch,
  replaceAll,
  services,
  sleep,
  startThief,
  Tally,
  until,
  walkFiles,
  type Thief,
} from './reliabilityKit';

const KEY = `sk-live-${crypto.randomBytes(12).toString('hex')}`;

let sandbox: Sandbox;
let s: TestServices;
let thief: Thief;
let pool: DocumentPool;
const prompter = new RecordingPrompter();
const messages = new MessageCapture();
const watch = new RejectionWatch();
let logs: LogCapture;
let exchanges: ExchangeCounter;
const tally = new Tally('security');

/** A loopback server that answers every request with the given redirect to the thief. */
async function startRedirector(status: number, to: string): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(status, { location: `${to}/steal${req.url ?? ''}`, 'content-type': 'text/html' });
    res.end('<html><body>Moved</body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Where code-server keeps this run's user data: <user-data>/logs/<session>/exthostN/<extension id> is context.logUri. */
function userDataDir(): string {
  return path.resolve(s.context.logUri.fsPath, '..', '..', '..', '..');
}

function assertNoKeyIn(what: string, values: ReadonlyArray<[string, unknown]>): void {
  const forms = keyForms(KEY);
  const hits = values.filter(([, v]) => {
    const text = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
    return forms.some((f) => text.includes(f));
  });
  assert.deepStrictEqual(hits.map(([k]) => k), [], `the key appears in ${what}`);
}

async function docsView() {
  await vscode.commands.executeCommand('contentDocs.documentsRefresh');
  return readView(s.documentsTree as never, 2);
}

async function projectsView() {
  await vscode.commands.executeCommand('contentDocs.projectsRefresh');
  return readView(s.projectsTree as never, 1);
}

describe('security: the key cannot leak', function () {
  this.timeout(60_000);
  let savedPrompter: TestServices['prompter']['current'] | undefined;

  before(async () => {
    sandbox = await startSandbox({ key: KEY, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    thief = await startThief();
    s = await services();
    pool = new DocumentPool(sandbox);
    savedPrompter = s.prompter.current;
    s.prompter.current = prompter;
    messages.install();
    watch.install();
    logs = new LogCapture().install(s);
    exchanges = new ExchangeCounter(s);
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
    await configure('network.timeoutSeconds', 5);
    await s.credentials.clearKey();
  });

  after(async () => {
    exchanges?.dispose();
    logs?.dispose();
    messages.dispose();
    watch.dispose();
    if (savedPrompter) s.prompter.current = savedPrompter;
    await closeAll();
    await configure('network.timeoutSeconds', undefined);
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
    await thief?.close();
    await sandbox?.close();
  });

  afterEach(async () => {
    sandbox.clearFaults();
    prompter.reset();
    messages.dismissAll();
    await closeAll();
    // A case that failed half-way must not leave the next one pointed elsewhere.
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
    await s.credentials.setKey(KEY);
  });

  it('a full flow leaves the key in no log line, setting, state entry or file, and in no request but the Authorization header', async () => {
    await tally.run('full flow, then search everything written', async () => {
      // Sign in through the command: the key is typed into the (password) input box.
      prompter.answer = (q) => (q.kind === 'input' && /API Key/i.test(q.title) ? KEY : undefined);
      await vscode.commands.executeCommand('contentDocs.signIn');
      const keyQuestion = prompter.asked.find((q) => q.kind === 'input' && /API Key/i.test(q.title));
      assert.ok(keyQuestion?.password, 'the key is asked in a password input box');
      assert.strictEqual(await s.credentials.getKey(), KEY, 'signed in');

      // List: the Documents view and the account folder.
      const view = await docsView();
      assert.ok(!view.error, `the Documents view lists: ${view.error?.text}`);
      await vscode.workspace.fs.readDirectory(vscode.Uri.parse(`content-docs://${accountNow()}/`));

      // Open, edit, save.
      const d = pool.take();
      const editor = await openDocument(d.id);
      await replaceAll(editor, `Saved during the security run. ${KEY.slice(0, 3)}…`);
      assert.strictEqual(await editor.document.save(), true);

      // Create.
      prompter.answer = newDocumentAnswers('Security run document', 'A text about keeping secrets');
      await vscode.commands.executeCommand('contentDocs.documentNew');
      const created = await until('the created document', () => [...sandbox.documents.values()].find((x) => x.name === 'Security run document'));

      // Rename (through the command, answering its question) and delete (confirmed).
      prompter.answer = (q) => (q.kind === 'input' ? 'Security run document, renamed' : undefined);
      await vscode.commands.executeCommand('contentDocs.documentRename', { id: created.id });
      await until('the rename', () => sandbox.documents.get(created.id)?.name === 'Security run document, renamed');
      prompter.confirms = [true];
      await vscode.commands.executeCommand('contentDocs.documentDelete', { id: created.id });
      await until('the delete', () => !sandbox.documents.has(created.id));

      // Projects: list and delete one (confirmed).
      const pv = await projectsView();
      assert.ok(pv.projects > 0, `the Projects view lists: ${pv.error?.text ?? pv.labels.slice(0, 3).join(', ')}`);
      const project = pv.nodes.find((n) => n.node.kind === 'project' && /^[\w ]+$/.test(String((n.node.project as { project?: string })?.project ?? '')));
      assert.ok(project, 'a project to delete');
      const projectName = (project.node.project as { project: string }).project;
      prompter.confirms = [true];
      await vscode.commands.executeCommand('contentDocs.projectDelete', project.node);
      await until('the project delete', () => !sandbox.reports.some((r) => r.project.toLowerCase() === projectName.toLowerCase()));

      // Failures write stacks and messages: a server error, a redirect to the login page, a rejected key.
      sandbox.setFault('documents.show', { kind: 'status500', count: 1 });
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: pool.take().id });
      sandbox.setFault('documents.show', { kind: 'redirectLogin', count: 1 });
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: pool.take().id });
      prompter.answer = (q) => (q.kind === 'input' && /API Key/i.test(q.title) ? 'sk-live-not-the-right-one' : undefined);
      await vscode.commands.executeCommand('contentDocs.signIn');
      assert.strictEqual(await s.credentials.getKey(), KEY, 'a rejected key is not stored');
      await sleep(300);

      // 1. Requests: the key only ever travels as "Authorization: Bearer <key>", to the configured hosts.
      const withKey = sandbox.requests.filter((r) => r.authorized);
      assert.ok(withKey.length >= 10, `the flow made requests (${withKey.length})`);
      for (const r of sandbox.requests) {
        assert.ok(!('api_token' in r.query) && !(r.body && 'api_token' in r.body), `no api_token parameter: ${r.method} ${r.path}`);
        const visible = JSON.stringify({ path: r.path, query: r.query, body: r.body });
        assert.ok(!keyForms(KEY).some((f) => visible.includes(f)), `the key is not in the URL or body of ${r.method} ${r.path}`);
        if (r.authorizationHeader?.includes(KEY)) assert.strictEqual(r.authorizationHeader, `Bearer ${KEY}`);
      }
      assert.strictEqual(thief.hits.length, 0, 'nothing reached another server');

      // 2. Log lines: the channel's file, and every line as written.
      const logFile = path.join(s.context.logUri.fsPath, 'Content Docs.log');
      await until('the log file to be written', () => fs.existsSync(logFile) && /\[api\] GET/.test(fs.readFileSync(logFile, 'utf8')));
      const logText = fs.readFileSync(logFile, 'utf8');
      assert.ok(logText.split('\n').length > 10, 'the log file has the run in it');
      assertNoKeyIn('the log file', [[logFile, logText]]);
      assertNoKeyIn('a log line', logs.lines.map((l, i) => [`line ${i}`, l] as [string, unknown]));
      assert.ok(!/bearer\s+(?!\[redacted\])\S/i.test(logText), 'no bearer token in the log');

      // 3. Messages the user saw.
      assertNoKeyIn('a message shown', messages.shown.map((m) => [m.message, [m.message, ...m.items]] as [string, unknown]));

      // 4. Settings, at every level, and the user settings file itself.
      assertNoKeyIn('a setting', allContentDocsSettings());
      const userSettings = path.join(userDataDir(), 'User', 'settings.json');
      if (fs.existsSync(userSettings)) assertNoKeyIn('settings.json', [[userSettings, fs.readFileSync(userSettings, 'utf8')]]);

      // 5. State entries.
      const state: Array<[string, unknown]> = [];
      for (const k of s.context.globalState.keys()) state.push([`globalState ${k}`, s.context.globalState.get(k)]);
      for (const k of s.context.workspaceState.keys()) state.push([`workspaceState ${k}`, s.context.workspaceState.get(k)]);
      assertNoKeyIn('a state entry', state);

      // 6. Files: the extension's storage and log folders, and everything else under the user data
      // folder and the run folder (settings, state databases, local history, backups, host logs).
      const own = [s.context.logUri, s.context.globalStorageUri, s.context.storageUri]
        .filter((u): u is vscode.Uri => !!u)
        .flatMap((u) => walkFiles(u.fsPath));
      const runDir = path.dirname(userDataDir());
      // The browser profile is where a web workbench keeps SecretStorage: the one place the key may be.
      const everything = walkFiles(runDir, ['chromium-profile', 'extensions', 'node_modules']);
      // The search itself finds a planted copy (else "found nowhere" would prove nothing).
      const canary = path.join(s.context.logUri.fsPath, '..', 'security-canary.bin');
      fs.writeFileSync(canary, Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(`x${KEY}y`, 'utf16le')]));
      try {
        assert.deepStrictEqual(filesContaining([canary], KEY), [canary], 'the search finds a planted key');
      } finally {
        fs.rmSync(canary, { force: true });
      }
      const leaked = filesContaining([...own, ...everything], KEY);
      console.log(
        `security: searched ${logs.lines.length} log lines, ${allContentDocsSettings().length} setting values, ${state.length} state entries, ` +
          `${messages.shown.length} messages, ${own.length + everything.length} files, ${sandbox.requests.length} requests: the key appears ${leaked.length} times`,
      );
      assert.deepStrictEqual(leaked, [], 'the key is written in no file');
    });
  });

  it('a workspace cannot point the base URLs elsewhere (settings file, Workspace and WorkspaceFolder targets)', async () => {
    await tally.run('workspace base URL', async () => {
      await s.credentials.setKey(KEY);
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder, 'the test window has a workspace folder');
      const dir = path.join(folder.uri.fsPath, '.vscode');
      const file = path.join(dir, 'settings.json');
      fs.mkdirSync(dir, { recursive: true });
      const hostile = {
        'contentDocs.documents.baseUrl': thief.url,
        'contentDocs.projects.baseUrl': thief.url,
        'contentDocs.network.timeoutSeconds': 300,
      };
      fs.writeFileSync(file, JSON.stringify(hostile, null, 2));
      const refusedTargets: string[] = [];
      try {
        for (const target of [vscode.ConfigurationTarget.Workspace, vscode.ConfigurationTarget.WorkspaceFolder]) {
          for (const key of ['documents.baseUrl', 'projects.baseUrl']) {
            try {
              await vscode.workspace.getConfiguration('contentDocs', folder.uri).update(key, thief.url, target);
            } catch {
              refusedTargets.push(`${key}@${target}`);
            }
          }
        }
        await sleep(800); // let VS Code read the settings file
        exchanges.reset();

        const d = pool.take();
        const editor = await openDocument(d.id);
        await replaceAll(editor, 'Saved while the workspace asks for another server.');
        assert.strictEqual(await editor.document.save(), true);
        const view = await docsView();
        assert.ok(!view.error, `the Documents view still lists from the user's server: ${view.error?.text}`);
        const pv = await projectsView();
        assert.ok(!pv.error, `the Projects view still lists from the user's server: ${pv.error?.text}`);
        assert.strictEqual(sandbox.documents.get(d.id)!.result, 'Saved while the workspace asks for another server.');
        assert.ok(exchanges.exchanges.length >= 3, 'requests were made');
        assert.deepStrictEqual(thief.hits, [], 'the thief received nothing');
        console.log(`security: workspace settings file + ${4 - refusedTargets.length} accepted / ${refusedTargets.length} refused API writes; ${exchanges.exchanges.length} requests, 0 to the thief`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        for (const target of [vscode.ConfigurationTarget.Workspace, vscode.ConfigurationTarget.WorkspaceFolder]) {
          for (const key of ['documents.baseUrl', 'projects.baseUrl']) {
            await Promise.resolve(vscode.workspace.getConfiguration('contentDocs', folder.uri).update(key, undefined, target)).catch(() => undefined);
          }
        }
      }
    });
  });

  it('http:// to a non-loopback host is refused with an explanation, before any connection', async () => {
    await tally.run('insecure base URL', async () => {
      await s.credentials.setKey(KEY);
      const d = pool.take();
      for (const [key, url] of [
        ['documents.baseUrl', 'http://example.com'],
        ['documents.baseUrl', 'http://127.0.0.1.nip.io:8080'],
        ['projects.baseUrl', 'http://example.com'],
      ] as const) {
        await configure(key, url);
        exchanges.reset();
        const t = Date.now();
        if (key === 'documents.baseUrl') {
          await vscode.commands.executeCommand('contentDocs.documentOpen', { id: d.id });
          const m = await until('the refusal', () => messages.since(t).find((x) => x.level === 'error'));
          assert.match(m.message, /uses http:\/\/ to another machine, which would send the API key unencrypted/);
          assert.match(m.message, /Use https:\/\//);
          assert.strictEqual(editorOf(d.id), undefined);
        } else {
          const pv = await projectsView();
          assert.ok(pv.error, 'the Projects view shows the refusal');
          assert.match(pv.error.text, /uses http:\/\/ to another machine/);
        }
        assert.strictEqual(exchanges.exchanges.length, 0, `no request was attempted to ${url}`);
        await configure(key, key === 'documents.baseUrl' ? sandbox.docsUrl : sandbox.seoUrl);
      }

      // Sign-in's server address box says what is allowed, and accepts only addresses the key may go to.
      await configure('documents.baseUrl', undefined);
      const refused = [
        'http://example.com',
        'HTTP://EXAMPLE.COM:80',
        'http://127.0.0.1.example.com',
        'http://localhost.example.com',
        'https://user:password@example.com',
        'https://example.com/?api_token=1',
        'https://example.com/#x',
        'ftp://example.com',
        'file:///etc/passwd',
        'javascript:alert(1)',
        'not a url',
      ];
      const accepted = ['https://example.com', 'https://writer.example.com/base/', 'http://127.0.0.1:9', 'http://localhost:8080', 'http://[::1]:9'];
      const problems: string[] = [];
      let answer = '';
      prompter.answer = (q) => (q.title.includes('Server Address') ? answer : undefined);
      for (const url of [...refused, ...accepted]) {
        prompter.validationProblems = [];
        answer = url;
        exchanges.reset();
        const before = vscode.workspace.getConfiguration('contentDocs').inspect('documents.baseUrl')?.globalValue;
        await vscode.commands.executeCommand('contentDocs.signIn');
        const problem = prompter.validationProblems[0];
        if (refused.includes(url)) {
          assert.ok(problem, `${url} is refused`);
          assert.ok(/http:\/\/|https:\/\/|not a valid URL|user name|query|fragment/.test(problem), `the refusal of ${url} says what is allowed: ${problem}`);
          assert.strictEqual(vscode.workspace.getConfiguration('contentDocs').inspect('documents.baseUrl')?.globalValue, before, 'nothing saved');
          problems.push(problem);
        } else {
          assert.strictEqual(problem, undefined, `${url} is accepted`);
          await configure('documents.baseUrl', undefined);
        }
        assert.strictEqual(exchanges.exchanges.length, 0, 'the address box sends nothing');
      }
      assert.ok(problems.some((p) => /unencrypted/.test(p)), 'the http:// refusal explains why');
      console.log(`security: ${refused.length} server addresses refused before sending, ${accepted.length} accepted`);
      await configure('documents.baseUrl', sandbox.docsUrl);
    });
  });

  it('redirects are never followed: 301, 302, 303, 307 and 308 to another server carry nothing there', async () => {
    await tally.run('redirects', async () => {
      await s.credentials.setKey(KEY);
      // The sandbox's own "302 to the login page" (invalid key page): not followed.
      const d0 = pool.take();
      sandbox.resetRequests();
      sandbox.setFault('documents.show', { kind: 'redirectLogin' });
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: d0.id });
      sandbox.clearFaults();
      assert.ok(sandbox.requests.some((r) => r.route === 'documents.show'));
      assert.ok(!sandbox.requests.some((r) => r.path === '/login'), 'the login page was not requested');

      let cases = 0;
      for (const status of [301, 302, 303, 307, 308]) {
        const d = pool.take();
        const editor = await openDocument(d.id);
        await replaceAll(editor, `Text that must not go to the thief (${status}).`);
        const redirector = await startRedirector(status, thief.url);
        try {
          await configure('documents.baseUrl', redirector.url);
          await configure('projects.baseUrl', redirector.url);
          // read, write (save), create, delete, project list
          await vscode.commands.executeCommand('contentDocs.documentOpen', { id: pool.take().id });
          assert.strictEqual(await editor.document.save(), false, 'the save fails');
          assert.strictEqual(editor.document.getText(), `Text that must not go to the thief (${status}).`);
          prompter.answer = newDocumentAnswers(`Redirected ${status}`);
          await vscode.commands.executeCommand('contentDocs.documentNew');
          prompter.confirms = [true];
          await vscode.commands.executeCommand('contentDocs.documentDelete', { id: d.id });
          await projectsView();
          await sleep(100);
          assert.ok(redirector.hits.length >= 3, `requests reached the configured (redirecting) server: ${redirector.hits.join(', ')}`);
          assert.deepStrictEqual(thief.hits, [], `nothing followed a ${status} to the thief`);
          cases += redirector.hits.length;
        } finally {
          await configure('documents.baseUrl', sandbox.docsUrl);
          await configure('projects.baseUrl', sandbox.seoUrl);
          await redirector.close();
        }
        assert.ok(sandbox.documents.has(d.id), 'nothing was deleted through a redirect');
      }
      console.log(`security: ${cases} redirected requests (5 statuses), 0 followed`);
    });
  });

  it('commands invoked with crafted arguments cannot delete without confirmation, sign in or send the key anywhere', async () => {
    await tally.run('crafted command arguments', async () => {
      await s.credentials.setKey(KEY);
      const victim = pool.take();
      await s.documents.fetch(victim.id);
      const projectName = [...new Set(sandbox.reports.map((r) => r.project))].find((p) => /^[\w ]+$/.test(p))!;
      const reportsBefore = sandbox.reports.length;
      const docsBefore = sandbox.documents.size;
      sandbox.resetRequests();
      const evil = thief.url;
      const victimUri = vscode.Uri.parse(`content-docs://${victim.id}.${accountNow()}/Any/${encodeURIComponent(victim.name)}.md`);

      const crafted: Array<[string, unknown[]]> = [
        ['contentDocs.documentDelete', [{ id: victim.id }]],
        ['contentDocs.documentDelete', [victim.id]],
        ['contentDocs.documentDelete', [String(victim.id)]],
        ['contentDocs.documentDelete', [victimUri]],
        ['contentDocs.documentDelete', [{ id: victim.id, confirmed: true, force: true, skipConfirmation: true }]],
        ['contentDocs.documentDelete', [{ kind: 'document', doc: { id: victim.id, name: victim.name } }, true]],
        ['contentDocs.documentDelete', [{ id: victim.id }, [{ id: victim.id }]]],
        ['contentDocs.projectDelete', [{ kind: 'project', project: { project: projectName }, addressable: true }]],
        ['contentDocs.projectDelete', [{ project: projectName }]],
        ['contentDocs.projectDelete', [projectName]],
        ['contentDocs.projectDelete', [{ kind: 'project', project: { project: projectName }, confirmed: true }, true]],
        ['contentDocs.signIn', ['attacker-key']],
        ['contentDocs.signIn', [{ key: 'attacker-key', baseUrl: evil }]],
        ['contentDocs.documentOpen', [{ id: victim.id, baseUrl: evil, url: evil, documentsUrl: evil }]],
        ['contentDocs.documentOpen', [vscode.Uri.parse(`${evil}/api/v1/documents/${victim.id}`)]],
        ['contentDocs.documentOpen', [`${evil}/api/v1/documents/${victim.id}`]],
        ['contentDocs.documentRename', [{ id: victim.id, name: 'Renamed by an attacker' }, 'Renamed by an attacker']],
        ['contentDocs.documentFavorite', [{ id: victim.id, baseUrl: evil }]],
        ['contentDocs.documentCopyResult', [{ id: victim.id, baseUrl: evil }]],
        ['contentDocs.documentsSearch', [{ text: 'x', baseUrl: evil }]],
        ['contentDocs.projectsSearch', [{ text: 'x', baseUrl: evil }]],
        ['contentDocs.documentsRefresh', [{ baseUrl: evil }]],
        ['contentDocs.projectsRefresh', [{ baseUrl: evil }]],
        ['contentDocs.documentsLoadMore', [{ kind: 'loadMore', parent: { kind: 'template', key: 't1', templateId: 1 }, url: evil }]],
        ['contentDocs.retry', [{ kind: 'error', parent: undefined, url: evil }]],
        ['contentDocs.documentNew', [{ name: 'Attacker doc', prompt: 'x', creativity: 0.5, baseUrl: evil }]],
      ];
      const registered = new Set(await vscode.commands.getCommands(true));
      const missing = [...new Set(crafted.map(([c]) => c))].filter((c) => !registered.has(c));
      assert.deepStrictEqual(missing, [], 'every command tried is registered (an unregistered one would prove nothing)');
      let ran = 0;
      for (const [command, args] of crafted) {
        prompter.confirms = []; // every confirmation is declined
        prompter.answer = () => undefined; // every question is cancelled
        const asked = prompter.asked.length;
        await Promise.race([Promise.resolve(vscode.commands.executeCommand(command, ...args)).catch(() => undefined), sleep(8_000)]);
        ran++;
        const questions = prompter.asked.slice(asked);
        if (command.endsWith('Delete')) {
          // Either asked (and declined), or refused the argument outright: never deleted without asking.
          assert.ok(
            questions.some((q) => q.kind === 'confirm') || sandbox.requests.every((r) => r.method !== 'DELETE'),
            `${command}(${JSON.stringify(args)}) asked for confirmation`,
          );
        }
        assert.strictEqual(sandbox.requests.filter((r) => r.method === 'DELETE').length, 0, `${command}(${JSON.stringify(args)}) deleted nothing`);
      }
      await sleep(300);
      assert.strictEqual(sandbox.documents.size, docsBefore, 'no document deleted or created');
      assert.ok(sandbox.documents.has(victim.id));
      assert.strictEqual(sandbox.documents.get(victim.id)!.name, victim.name, 'not renamed without the user typing the name');
      assert.strictEqual(sandbox.reports.length, reportsBefore, 'no project deleted');
      assert.strictEqual(await s.credentials.getKey(), KEY, 'the key was not replaced');
      assert.deepStrictEqual(thief.hits, [], 'nothing reached the thief');
      const foreign = sandbox.requests.filter((r) => r.authorizationHeader !== undefined && r.authorizationHeader !== `Bearer ${KEY}`);
      assert.deepStrictEqual(foreign.map((r) => `${r.method} ${r.path} ${r.authorizationHeader}`), [], 'no request with another key');
      console.log(`security: ${ran} crafted command invocations, 0 deletions, 0 requests elsewhere`);
    });
  });

  it('prints the security count (every case held)', () => {
    tally.report();
    assert.deepStrictEqual(watch.ours, [], 'no unhandled rejection');
    assert.strictEqual(tally.held, tally.tried);
  });
});
