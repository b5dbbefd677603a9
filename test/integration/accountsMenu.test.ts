/**
 * The signed-in account in VS Code's Accounts menu (src/accounts/accountsMenu.ts), inside a real VS Code against the
 * sandbox: what vscode.authentication.getAccounts lists ("name @ host", the host alone before the name is known, a
 * remembered name after a restart without a request), and the menu's Sign Out (VS Code's own `_signOutOfAccount`,
 * which calls the provider's removeSession) removing the key as "Content Docs: Sign Out" does.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { AccountsMenu } from '../../src/accounts/accountsMenu';
import { AccountRegistry } from '../../src/accounts/registry';
import { AUTH_PROVIDER, CMD, SECRET_KEY, STATE } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { read } from './harness';
import { besidesTheWindow, closeAll, configure, RecordingPrompter, services, until, useSandbox } from './reliabilityKit';

/** The Documents view's welcome (shown while signed out). */
const WELCOME = '.pane:has(.pane-header[aria-label^="Documents"]) .welcome-view-content';

/** vscode.authentication.getAccounts (finalized after the API version this project compiles against). */
const authentication = vscode.authentication as typeof vscode.authentication & {
  getAccounts(providerId: string): Thenable<readonly vscode.AuthenticationSessionAccountInformation[]>;
};

describe('Accounts menu: the signed-in account as "name @ host (Content Docs)", and its Sign Out', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let other: Sandbox | undefined;
  let s: TestServices;
  let host: string;
  const prompter = new RecordingPrompter();
  let previous: TestServices['prompter']['current'];
  const listed = async () => (await authentication.getAccounts(AUTH_PROVIDER.id)).map((a) => a.label);
  const untilListed = (expected: string[]) =>
    until(`the Accounts menu to list ${JSON.stringify(expected)}`, async () => JSON.stringify(await listed()) === JSON.stringify(expected));

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    host = new URL(sandbox.docsUrl).host;
    s = await services();
    previous = s.prompter.current;
    s.prompter.current = prompter;
    await closeAll();
    // The suite's server, whichever of its tests a --grep runs first (Set API Key… asks for an address without one).
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
  });

  after(async () => {
    s.prompter.current = previous;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await useSandbox(s, sandbox);
    await other?.close();
    await sandbox?.close();
  });

  it('the host alone before the name is known; "name @ host" once the account is read; after a restart, the remembered name without a request', async () => {
    // A server and key never used together: no name is known for this account yet.
    await useSandbox(s, sandbox);
    sandbox.resetRequests();
    await untilListed([host]);
    // The menu's requests: a view on screen may read the account made anew meanwhile (its rows, its counts, then the
    // status bar's usage read): those are the window's, and the menu's would come besides them.
    assert.deepStrictEqual(besidesTheWindow(sandbox.requests).map((r) => r.route), [], 'the menu asks the server nothing');

    await s.account.get();
    await untilListed([`Sandbox User @ ${host}`]);
    const label = await s.credentials.accountLabel();
    const kept = s.context.globalState.get<unknown[]>(STATE.accountNames) ?? [];
    assert.deepStrictEqual(kept[0], { label, name: 'Sandbox User', host }, 'the name and host kept for the account (nothing secret)');
    assert.ok(!JSON.stringify(kept).includes(sandbox.key), 'no key in globalState');

    // A restart: a provider built afresh over the same storage, as activation builds it (no services, no account read this session).
    const restarted = new AccountsMenu(s.credentials, s.context.globalState, s.log);
    try {
      sandbox.resetRequests();
      const sessions = await restarted.getSessions();
      assert.deepStrictEqual(sessions.map((x) => [x.id, x.account.id, x.account.label, x.scopes]), [[label, label, `Sandbox User @ ${host}`, []]]);
      assert.deepStrictEqual(besidesTheWindow(sandbox.requests).map((r) => r.route), [], 'no request to name the account');
    } finally {
      restarted.dispose();
    }
  });

  it('after Set API Key…, getAccounts lists "Sandbox User @ host"; the session carries no key', async () => {
    await s.credentials.clearKey();
    await untilListed([]);
    // Nothing remembered: the name must come from the sign-in's own key check.
    await s.context.globalState.update(STATE.accountNames, undefined);
    prompter.reset();
    prompter.answer = (q) => (q.kind === 'input' && /API Key/i.test(q.title) ? sandbox.key : undefined);
    sandbox.resetRequests();
    assert.strictEqual(await vscode.commands.executeCommand<boolean>(CMD.signIn), true, 'signed in');
    await untilListed([`Sandbox User @ ${host}`]);
    // Besides what a view on screen reads of the account signed in (its rows, its counts, then the status bar's usage).
    assert.deepStrictEqual(besidesTheWindow(sandbox.requests).map((r) => r.route), ['account'], 'the key check only: the menu reads nothing more');

    const sessions = await s.accounts.getSessions();
    assert.strictEqual(sessions.length, 1);
    assert.strictEqual(sessions[0].id, await s.credentials.accountLabel(), 'the session is the account\'s local label');
    assert.ok(sessions[0].accessToken && !sessions[0].accessToken.includes(sandbox.key), 'the session hands out no key');
    assert.deepStrictEqual(await s.accounts.getSessions(['some.scope']), [], 'no session for scopes');
  });

  it('the menu\'s Sign Out (VS Code\'s _signOutOfAccount) removes the key from SecretStorage; the Documents view shows its welcome', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
    await until('the Documents view signed in', async () => !(await read(WELCOME)).visible);
    // The menu is told of changes a moment later, in one go: the account signed in now (not an account of the same
    // name and host signed in before it) is in the menu before its Sign Out is chosen.
    const [session] = await s.accounts.getSessions();
    await until('the Accounts menu to hold the account signed in now', async () =>
      JSON.stringify((await authentication.getAccounts(AUTH_PROVIDER.id)).map((a) => a.id)) === JSON.stringify([session.id]));
    const events: vscode.AuthenticationProviderAuthenticationSessionsChangeEvent[] = [];
    const sub = s.accounts.onDidChangeSessions((e) => events.push(e));
    try {
      // What the menu's Sign Out runs (VS Code confirms first; in a test run its confirmations are accepted).
      await vscode.commands.executeCommand('_signOutOfAccount', { providerId: AUTH_PROVIDER.id, accountLabel: `Sandbox User @ ${host}` });
      assert.strictEqual(await s.context.secrets.get(SECRET_KEY), undefined, 'the key is gone from SecretStorage');
      assert.strictEqual(await s.credentials.getKey(), undefined);
      await untilListed([]);
      assert.ok(events.some((e) => e.removed?.some((r) => r.id === session.id)), `the menu was told: ${JSON.stringify(events)}; the session signed out: ${JSON.stringify(session)}`);
      await until('the Documents view\'s welcome (Set API Key)', async () => {
        const w = await read(WELCOME);
        return w.visible && /Set API Key/.test(w.text);
      });
      sandbox.resetRequests();
      // Signed out, the settings' account is gone (no tree of it to ask): the view itself lists nothing.
      assert.strictEqual(s.firstOrNone, undefined, 'no account of the settings');
      assert.deepStrictEqual(await s.documentsView.getChildren(), [], 'the view lists nothing');
      assert.deepStrictEqual(sandbox.requests.filter((r) => r.authorized), [], 'no request with the key');
    } finally {
      sub.dispose();
    }
  });

  it('removeSession signs out only the account in use; createSession refuses and names Set API Key…', async () => {
    await useSandbox(s, sandbox);
    await untilListed([`Sandbox User @ ${host}`]);
    const [session] = await s.accounts.getSessions();
    await s.accounts.removeSession('zzzzzzzz');
    assert.strictEqual(await s.credentials.getKey(), sandbox.key, 'another account\'s session: this one stays signed in');
    await s.accounts.removeSession(session.id);
    assert.strictEqual(await s.context.secrets.get(SECRET_KEY), undefined, 'the key is gone');
    await untilListed([]);
    await assert.rejects(() => Promise.resolve(s.accounts.createSession()), /Set API Key/);
  });

  it('another server is another account: the menu shows it by its host, not with the first account\'s name', async () => {
    await useSandbox(s, sandbox);
    await untilListed([`Sandbox User @ ${host}`]);
    // The views closed: nothing reads the other server's account meanwhile (its user has the same name).
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    other = await startSandbox({ rateLimit: 0, storeDelayMs: 0, seed: 'empty' });
    const otherHost = new URL(other.docsUrl).host;
    await configure('documents.baseUrl', other.docsUrl);
    await untilListed([otherHost]);
    // Besides what a view on screen reads of the account made there (its rows and counts, then the status bar's usage).
    assert.deepStrictEqual(besidesTheWindow(other.requests).map((r) => r.route), [], 'the menu asks the other server nothing');
    await s.account.get();
    await untilListed([`Sandbox User @ ${otherHost}`]);
    await configure('documents.baseUrl', sandbox.docsUrl);
    await untilListed([`Sandbox User @ ${host}`]);
  });

  it('the menu\'s Sign Out in a window whose services are not built yet (no view or command used since startup) signs out', async () => {
    await useSandbox(s, sandbox);
    const label = await s.credentials.accountLabel();
    assert.ok(label, 'signed in');
    // A window as activation leaves it: the menu registered, the services built only when something needs them (its
    // `load` builds them, which connects them to the menu, as createServices does).
    let registry: AccountRegistry | undefined;
    const unused = () => {
      throw new Error('no model is built here');
    };
    const restarted: AccountsMenu = new AccountsMenu(s.credentials, s.context.globalState, s.log, () => {
      registry = new AccountRegistry(s.credentials, s.context.secrets, s.context.globalState, s.log, { library: s.library, modelsOf: { documents: unused, projects: unused } });
      restarted.connect(registry);
    });
    try {
      const sessions = await restarted.getSessions();
      assert.deepStrictEqual(sessions.map((x) => x.id), [label], 'the menu lists the account before the services are built');
      // What the menu's Sign Out runs once VS Code asked the user.
      await restarted.removeSession(label);
      assert.ok(registry, 'the services were built for the Sign Out');
      assert.strictEqual(await s.context.secrets.get(SECRET_KEY), undefined, 'the key is gone from SecretStorage: signed out');
      assert.deepStrictEqual((await restarted.getSessions()).map((x) => x.id), [], 'the menu no longer lists the account');
    } finally {
      restarted.dispose();
      registry?.dispose();
    }
  });

  it('the menu\'s Sign Out of an account signed in a moment ago (its change not told yet) tells the account before it gone and it added, then its removal', async () => {
    // The accounts as the services hold them (a stand-in: the menu reads only labels and names of them).
    type Stub = { label: string; displayName: string; spec: { label: string; documentsUrl: string; projectsUrl: string } };
    const stub = (label: string, name: string): Stub => ({ label, displayName: `${name} @ ${host}`, spec: { label, documentsUrl: sandbox.docsUrl, projectsUrl: sandbox.seoUrl } });
    const before = stub('menubefore', 'Before');
    const now = stub('menunow0', 'Now');
    let all: Stub[] = [before];
    const changed = new vscode.EventEmitter<void>();
    const renamed = new vscode.EventEmitter<never>();
    const menu = new AccountsMenu(s.credentials, s.context.globalState, s.log);
    const events: vscode.AuthenticationProviderAuthenticationSessionsChangeEvent[] = [];
    const sub = menu.onDidChangeSessions((e) => events.push(e));
    /** What a listener of the menu's events holds: each session told added, less those told removed. */
    const held = () => {
      const ids = new Set<string>();
      for (const e of events) {
        for (const r of e.removed ?? []) ids.delete(r.id);
        for (const a of e.added ?? []) ids.add(a.id);
      }
      return [...ids].filter((id) => id.startsWith('menu')).sort();
    };
    try {
      menu.connect({
        all: () => all as never,
        remove: async (a) => {
          all = all.filter((x) => x.label !== a.label);
          changed.fire();
        },
        settled: () => Promise.resolve(),
        onDidChange: changed.event,
        onDidRename: renamed.event,
      });
      await until('the menu told of the account before', () => held().join() === before.label);
      // Another key signed in: the menu is told a moment later (150 ms). Within that moment, the Accounts menu (which
      // reads the sessions itself) shows the account signed in now, and the user chooses its Sign Out.
      all = [now];
      changed.fire();
      assert.deepStrictEqual((await menu.getSessions()).map((x) => x.id), [now.label]);
      events.length = 0;
      await menu.removeSession(now.label);
      assert.deepStrictEqual(all, [], 'the account signed out');
      await new Promise((r) => setTimeout(r, 400));
      const told = events.map((e) => ({ added: (e.added ?? []).map((x) => x.id), removed: (e.removed ?? []).map((x) => x.id) }));
      assert.ok(told.some((e) => e.removed.includes(now.label)), `its removal is told: ${JSON.stringify(told)}`);
      assert.ok(told.some((e) => e.removed.includes(before.label)), `the account before it is told gone too: ${JSON.stringify(told)}`);
      const order = told.flatMap((e) => [...e.removed.map((id) => `-${id}`), ...e.added.map((id) => `+${id}`)]);
      assert.ok(order.indexOf(`+${now.label}`) >= 0 && order.indexOf(`+${now.label}`) < order.indexOf(`-${now.label}`), `told added before removed: ${JSON.stringify(told)}`);
    } finally {
      sub.dispose();
      menu.dispose();
      changed.dispose();
      renamed.dispose();
    }
  });
});
