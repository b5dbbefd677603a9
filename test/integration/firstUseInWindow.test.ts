/**
 * A window's first use after a start with a key already stored (a reload, a restart, a restored window): the services
 * are built by that first use — the views' first request for rows, or the first command — and the account of the key
 * and settings is made then (its label is read from SecretStorage). What the first use reads of the accounts must be
 * that account, not "none yet": the views answer with its rows (not an empty view, then a refresh), and a command finds
 * it (not "You are not signed in").
 *
 * Each test builds the services' parts as createServices does, beside the window's own (which are built and signed in
 * to the sandbox): a registry of their own, made from the same key and settings.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Account } from '../../src/accounts/account';
import { AccountRegistry } from '../../src/accounts/registry';
import { AccountsMenu } from '../../src/accounts/accountsMenu';
import { Credentials, type SignIn } from '../../src/accounts/credentials';
import { commandRegistrar } from '../../src/commands/index';
import type { CommandTable } from '../../src/commands/index';
import { documentsModelOf } from '../../src/documents/modelOfAccount';
import { DocumentsTreeProvider } from '../../src/documents/documentsTree';
import type { DocNode } from '../../src/model/nodes';
import { AccountRootsTree } from '../../src/tree/accountRoots';
import { openLink } from '../../src/documents/links';
import { GoneAccountSaves } from '../../src/files/goneAccountSaves';
import { accountOfUri } from '../../src/files/uris';
import { UsageStatus } from '../../src/usage/usageStatus';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { closeAll, EXTENSION_ID, MessageCapture, openDocument, replaceAll, services, sleep, until, useSandbox } from './reliabilityKit';

/** View state kept in memory (a window's globalState is the real services'). */
function memento(): vscode.Memento {
  const values = new Map<string, unknown>();
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: (key: string, value: unknown) => {
      values.set(key, value);
      return Promise.resolve();
    },
  };
}

/** The window's SecretStorage with its reads made by `get` (its writes and change events are the window's). */
function secretsReadBy(secrets: vscode.SecretStorage, get: (key: string) => Thenable<string | undefined>): vscode.SecretStorage {
  return {
    get,
    store: (key, value) => secrets.store(key, value),
    delete: (key) => secrets.delete(key),
    onDidChange: (listener, thisArg, disposables) => secrets.onDidChange(listener, thisArg, disposables),
  };
}

/**
 * The window's SecretStorage, whose reads answer only once `open()` is called (a keyring slow to answer): the account
 * of the stored key is made only then.
 */
function heldSecrets(secrets: vscode.SecretStorage): { secrets: vscode.SecretStorage; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { secrets: secretsReadBy(secrets, (key) => opened.then(() => secrets.get(key))), open };
}

/** A SecretStorage that never answers a read (a keyring that never does). */
function silentSecrets(secrets: vscode.SecretStorage): vscode.SecretStorage {
  return secretsReadBy(secrets, () => new Promise<never>(() => undefined));
}

const SIGNED_IN: SignIn = { hasKey: () => Promise.resolve(true), onDidChange: () => new vscode.Disposable(() => undefined) };

describe("a window's first use (the services built by it) reads the account of the key already stored", function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let s: TestServices;
  const owned: vscode.Disposable[] = [];

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await useSandbox(s, sandbox);
  });

  afterEach(() => {
    for (const d of owned.splice(0)) d.dispose();
  });

  after(async () => {
    await sandbox?.close();
  });

  /**
   * A registry as createServices makes it, right now: the account of the settings is being made. `secrets`: the
   * SecretStorage it and its key read (the window's by default).
   */
  function freshRegistry(secrets?: vscode.SecretStorage): AccountRegistry {
    const state = memento();
    const credentials = secrets ? new Credentials(secrets, s.log) : s.credentials;
    if (secrets) owned.push(credentials);
    const registry = new AccountRegistry(credentials, secrets ?? s.context.secrets, s.context.globalState, s.log, {
      library: s.library,
      modelsOf: {
        documents: (a) => documentsModelOf(a, state, s.log),
        projects: () => {
          throw new Error('no Projects model here');
        },
      },
    });
    owned.push(registry);
    return registry;
  }

  /** The Documents view over a registry, as createServices makes it (each account's tree from its own model). */
  function documentsViewOver(registry: AccountRegistry): AccountRootsTree<DocNode> {
    const view = new AccountRootsTree<DocNode>(registry, (a: Account) => {
      const { model, link } = a.documentsModel;
      return new DocumentsTreeProvider(model, link, SIGNED_IN, memento(), s.log);
    });
    owned.push(view);
    return view;
  }

  /** The window's services, with that registry in place of theirs. */
  const withRegistry = (registry: AccountRegistry): TestServices => Object.create(s, { registry: { value: registry } }) as TestServices;

  it("the Documents view's first request for rows answers with the account's groups, not an empty view", async () => {
    const registry = freshRegistry();
    const view = documentsViewOver(registry);
    let told = 0;
    owned.push(view.onDidChangeTreeData(() => told++));
    // VS Code asks for the rows in the same moment the services are built (the first getChildren builds them).
    const rows = await view.getChildren();
    const kinds = rows.map((r) => (r as { kind?: string }).kind);
    assert.ok(kinds.includes('all') && kinds.includes('favorites') && kinds.includes('template'), `the account's groups: ${kinds.join(', ')}`);
    assert.strictEqual(registry.all().length, 1);
    // The account made while the request waited for it is in the answer: told as a change too, it would make VS Code
    // drop that answer (a root change cancels the fetch on its way) and ask again.
    assert.strictEqual(told, 0, 'no change told for the account the answer already has');
  });

  it('an account removed while a later request for the root rows waits is told as a change (the view shows rows already)', async () => {
    const real = freshRegistry();
    await real.settled();
    // The registry as the view sees it, its accounts and its wait held by the test: the account of the key is removed
    // while a request for the root rows that VS Code does not show (a reveal's) waits for the accounts being made.
    let accounts = real.all();
    let wait: Promise<void> = Promise.resolve();
    const changed = new vscode.EventEmitter<void>();
    const renamed = new vscode.EventEmitter<void>();
    owned.push(changed, renamed);
    const registry = {
      all: () => accounts,
      get several() {
        return accounts.length > 1;
      },
      isLive: (a: Account) => accounts.includes(a),
      onDidChange: changed.event,
      onDidRename: renamed.event,
      settled: () => wait,
    } as unknown as AccountRegistry;
    const view = documentsViewOver(registry);
    let told = 0;
    owned.push(view.onDidChangeTreeData(() => told++));
    assert.ok((await view.getChildren()).length > 0, "the view shows the account's groups");
    let open!: () => void;
    wait = new Promise<void>((r) => (open = r));
    const reading = view.getChildren();
    accounts = [];
    changed.fire();
    assert.strictEqual(told, 1, "the view, which shows the removed account's rows, is told they changed");
    open();
    assert.deepStrictEqual(await reading, []);
  });

  it('a command run first in the window (the services built by it) finds the signed-in account', async () => {
    const registry = freshRegistry();
    const id = 'contentDocs.firstUseInWindowProbe';
    let seen: string[] | undefined;
    const table = { [id]: () => void (seen = registry.all().map((a) => a.label)) } as unknown as CommandTable;
    const register = commandRegistrar(s.log, () => withRegistry(registry), (() => ({ commandTable: () => table })) as never);
    owned.push(...register([id as never]));
    await vscode.commands.executeCommand(id);
    const label = await s.credentials.accountLabel();
    assert.deepStrictEqual(seen, [label], 'the command read the account of the stored key');
  });

  it('a link opened first in a window (the extension activated by it) opens its document in the signed-in account', async () => {
    await closeAll();
    const registry = freshRegistry();
    const [id] = [...sandbox.documents.keys()];
    const link = vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}/open`).with({ query: `server=${encodeURIComponent(sandbox.docsUrl)}&id=${id}` });
    const editor = await openLink(withRegistry(registry), link);
    assert.ok(editor, 'the linked document opened (not refused as "no account signed in here")');
    await until('the linked document open', () => vscode.window.activeTextEditor?.document === editor.document);
    await closeAll();
  });

  it("the Accounts menu asked for its sessions as the services are built lists the signed-in account, and tells no removal of it", async () => {
    const label = await s.credentials.accountLabel();
    const menu = new AccountsMenu(s.credentials, s.context.globalState, s.log);
    owned.push(menu);
    // Before the services: the menu lists the key's account from SecretStorage itself.
    assert.deepStrictEqual((await menu.getSessions()).map((x) => x.id), [label]);
    const removed: string[] = [];
    owned.push(menu.onDidChangeSessions((e) => removed.push(...(e.removed ?? []).map((x) => x.id))));
    menu.connect(freshRegistry());
    // VS Code (or its MCP servers' list) asks in the same moment the services are built.
    assert.deepStrictEqual((await menu.getSessions()).map((x) => x.id), [label], "the menu's sessions");
    await sleep(400);
    assert.deepStrictEqual(removed, [], 'no session was told removed');
  });

  it("the status bar shows the plan usage of the active restored document's account once that account is made", async () => {
    await closeAll();
    const [id] = [...sandbox.documents.keys()];
    await openDocument(id);
    const registry = freshRegistry();
    const usage = new UsageStatus(registry, (uri) => registry.byLabel(accountOfUri(uri)));
    owned.push(usage);
    const label = await s.credentials.accountLabel();
    await until("the status bar follows the active document's account", () => usage.account?.label === label);
    await until('its figures shown', () => usage.state.visible);
    await closeAll();
  });

  it('a save made while the accounts are being made is not told "its account is no longer signed in"', async () => {
    await closeAll();
    const [id] = [...sandbox.documents.keys()];
    const editor = await openDocument(id);
    const held = heldSecrets(s.context.secrets);
    const registry = freshRegistry(held.secrets);
    owned.push(new GoneAccountSaves(registry, s.log));
    const messages = new MessageCapture().install();
    owned.push(messages);
    await replaceAll(editor, `${editor.document.getText()}\n\nSaved while the accounts are made.`);
    assert.ok(await editor.document.save(), 'saved (to the window\'s account)');
    held.open();
    await registry.settled();
    await sleep(200);
    const gone = messages.shown.filter((m) => m.message.includes('was not saved'));
    assert.deepStrictEqual(gone.map((m) => m.message), [], 'no "was not saved" message');
    assert.strictEqual(registry.all().length, 1);
    await closeAll();
  });

  it("a window's first command answers although SecretStorage never does (the account of the key is not waited for forever)", async () => {
    const registry = freshRegistry(silentSecrets(s.context.secrets));
    const id = 'contentDocs.firstUseInWindowSilentProbe';
    let ran = false;
    const table = { [id]: () => void (ran = true) } as unknown as CommandTable;
    const register = commandRegistrar(s.log, () => withRegistry(registry), (() => ({ commandTable: () => table })) as never);
    owned.push(...register([id as never]));
    const run = vscode.commands.executeCommand(id).then(() => 'ran');
    const outcome = await Promise.race([run, sleep(15_000).then(() => 'still waiting')]);
    assert.strictEqual(outcome, 'ran', 'the command ran');
    assert.ok(ran);
  });
});
