/**
 * VS Code's own agents and the MCP server (vscode.lm.registerMcpServerDefinitionProvider, VS Code 1.101 and later),
 * inside a real VS Code with two accounts whose servers hold a document of the same id and name: one server per
 * account, named as the Accounts menu names it, its addresses in its environment and no key; the key of that account
 * only when VS Code starts the server (resolveMcpServerDefinition). The resolved definition is started as VS Code
 * starts it (its command, arguments and environment) and driven with the MCP SDK's client: each reads its own
 * account's text. An account removed after its server was offered is not started, and nothing is sent. Two accounts of
 * one user on one server (VS Code starts a server by its label) are offered under two labels, each started with its own
 * key; an account whose address would send the key in clear text is not offered.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EXTENSION_ID } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { besidesTheWindow, closeAll, configure, RecordingPrompter, services, until, useSandbox } from './reliabilityKit';
import { addSecondKey, startTwoAccounts, type TwoAccounts } from './twoAccountsKit';

const ID = 7301;
const KEY = 'CONTENT_DOCS_API_KEY';

/** A stdio server definition as VS Code 1.101+ hands it (the extension's @types/vscode is older). */
interface Definition {
  readonly label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
}

interface Provider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<Definition[]>;
  resolveMcpServerDefinition?(server: Definition, token: vscode.CancellationToken): vscode.ProviderResult<Definition>;
}

/** The provider the extension registered (it returns it in test mode). */
async function registered(): Promise<Provider> {
  const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as McpTestApi;
  assert.ok(api.mcpServers, 'the extension registered its MCP server definitions');
  return api.mcpServers;
}

/** What the extension returns in test mode, as far as this suite reads it. */
interface McpTestApi {
  readonly mcpServers?: Provider;
}

const none = new vscode.CancellationTokenSource().token;

/** The environment the server process gets: the extension host's, with the definition's over it (as VS Code merges them). */
function processEnv(def: Definition): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  for (const [k, v] of Object.entries(def.env)) {
    if (v === null) delete env[k];
    else env[k] = String(v);
  }
  return env;
}

/** Starts the definition's command as a child process and reads document `id` through the MCP SDK's client. */
async function readThrough(def: Definition, id: number): Promise<{ text: string; isError: boolean }> {
  const transport = new StdioClientTransport({ command: def.command, args: def.args, env: processEnv(def), stderr: 'pipe' });
  const client = new Client({ name: 'content-docs-vscode-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = await client.callTool({ name: 'read_document', arguments: { id } });
    const content = r.content as Array<{ type: string; text?: string }>;
    return { text: content.map((c) => c.text ?? '').join('\n'), isError: r.isError === true };
  } finally {
    await client.close();
  }
}

describe("VS Code's own agents: one MCP server per account (registerMcpServerDefinitionProvider)", function () {
  this.timeout(90_000);
  let two: TwoAccounts;
  let provider: Provider;

  before(async () => {
    two = await startTwoAccounts({ id: ID, name: 'Same name in both' });
    await two.addB();
    provider = await registered();
  });

  after(async () => {
    await two?.dispose();
  });

  beforeEach(() => {
    two.a.resetRequests();
    two.b.resetRequests();
  });

  const defs = async () => (await provider.provideMcpServerDefinitions(none)) ?? [];
  const defOf = (list: Definition[], box: Sandbox) => list.find((d) => d.env.CONTENT_DOCS_DOCUMENTS_URL === box.docsUrl);

  it('VS Code 1.139 has the API, and the manifest declares the provider', () => {
    assert.strictEqual(typeof (vscode.lm as { registerMcpServerDefinitionProvider?: unknown }).registerMcpServerDefinitionProvider, 'function');
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { mcpServerDefinitionProviders?: Array<{ id: string; label: string }> } };
    assert.strictEqual(manifest.contributes.mcpServerDefinitionProviders?.length, 1);
  });

  it("offers one server per account, named as the Accounts menu names it, with that account's addresses and no key; nothing is sent", async () => {
    const list = await until('two servers offered', async () => ((await defs()).length === 2 ? defs() : undefined));
    const accounts = two.s.registry.all();
    assert.deepStrictEqual(list.map((d) => d.label).sort(), accounts.map((a) => a.displayName).sort());
    const self = vscode.extensions.getExtension(EXTENSION_ID)!;
    for (const box of [two.a, two.b]) {
      const def = defOf(list, box);
      assert.ok(def, `a server for ${box.docsUrl}`);
      assert.strictEqual(def.env.CONTENT_DOCS_PROJECTS_URL, box.seoUrl);
      assert.strictEqual(def.command, process.execPath, "the extension host's own runtime");
      assert.deepStrictEqual(def.args, [path.join(self.extensionPath, 'dist', 'mcp.js')]);
      assert.ok(fs.existsSync(def.args[0]));
      assert.ok(!(KEY in def.env), 'no key offered');
      const said = JSON.stringify(def);
      assert.ok(!said.includes(two.a.key) && !said.includes(two.b.key), 'no key anywhere in the definition');
    }
    // Besides what the views on screen read of either account by themselves (rows, counts, then the status bar's usage).
    assert.deepStrictEqual(
      [two.a, two.b].map((box) => besidesTheWindow(box.requests).map((r) => `${r.method} ${r.path}`)),
      [[], []],
      'offering the servers sends nothing',
    );
  });

  it("each resolves with its own account's key when started, and reads that account's document of the same id", async () => {
    const list = await defs();
    for (const [box, other, text] of [
      [two.a, two.b, 'Text of A'],
      [two.b, two.a, 'Text of B'],
    ] as const) {
      box.resetRequests();
      other.resetRequests();
      const def = defOf(list, box)!;
      const resolved = await provider.resolveMcpServerDefinition!(def, none);
      assert.ok(resolved, 'resolved');
      assert.strictEqual(resolved.env[KEY], box.key, "that account's key");
      assert.strictEqual(resolved.label, def.label);
      const answer = await readThrough(resolved, ID);
      assert.ok(!answer.isError, answer.text);
      assert.match(answer.text, new RegExp(text));
      // The MCP server's own requests (its User-Agent): the window's views may read either account meanwhile.
      const ofServer = (sb: typeof box) => sb.requests.filter((r) => r.userAgent?.startsWith('content-docs-mcp/'));
      assert.ok(ofServer(box).length > 0 && ofServer(box).every((r) => r.authorized), 'its own server, with its key');
      assert.strictEqual(ofServer(other).length, 0, 'nothing to the other account');
    }
  });

  it('an account removed after its server was offered: the change is told, its server is not started, and nothing is sent', async () => {
    const list = await defs();
    const defB = defOf(list, two.b)!;
    let told = 0;
    const listening = provider.onDidChangeMcpServerDefinitions?.(() => told++);
    assert.ok(listening, 'the provider tells its changes');
    try {
      const b = two.s.registry.all().find((a) => a.documentsUrl === two.b.docsUrl)!;
      await two.s.registry.remove(b);
      await until('the change told', () => told > 0);
      two.b.resetRequests();
      await assert.rejects(async () => {
        const resolved = await provider.resolveMcpServerDefinition!(defB, none);
        if (!resolved) throw new Error('undefined');
        return resolved;
      }, /no longer signed in/);
      assert.strictEqual(two.b.requests.length, 0, 'nothing sent');
      const now = await defs();
      assert.deepStrictEqual(now.map((d) => d.env.CONTENT_DOCS_DOCUMENTS_URL), [two.a.docsUrl], 'only the account still signed in');
    } finally {
      listening?.dispose();
    }
  });
});

describe("VS Code's own agents' MCP servers: accounts named alike, and an address that would send the key in clear text", function () {
  this.timeout(60_000);
  const SECOND_KEY = 'second-key-of-the-same-user-for-mcp-0123456789';
  let box: Sandbox;
  let s: TestServices;
  let provider: Provider;
  let previous: TestServices['prompter']['current'];
  const prompter = new RecordingPrompter();

  before(async () => {
    box = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    box.addKey(SECOND_KEY);
    s = await services();
    await closeAll();
    await useSandbox(s, box);
    previous = s.prompter.current;
    s.prompter.current = prompter;
    provider = await registered();
  });

  after(async () => {
    for (const added of s.registry.added()) await s.registry.remove(added);
    s.prompter.current = previous;
    await useSandbox(s, box);
    await box?.close();
  });

  it('two keys of one user on one server: two servers under two labels, each started with its own key', async () => {
    const { first, second } = await addSecondKey(s, prompter, box, SECOND_KEY);
    assert.strictEqual(first.baseName, second.baseName, 'the same user on the same server');
    const list = (await provider.provideMcpServerDefinitions(none)) ?? [];
    assert.strictEqual(list.length, 2);
    assert.notStrictEqual(list[0].label, list[1].label, 'VS Code tells servers apart by their labels');
    assert.deepStrictEqual(list.map((d) => d.label), [first.displayName, second.displayName]);
    const keys = [];
    for (const def of list) keys.push((await provider.resolveMcpServerDefinition!(def, none))?.env[KEY]);
    assert.deepStrictEqual(keys, [box.key, SECOND_KEY]);
    await s.registry.remove(second);
  });

  it('an account whose projects server is http:// to another machine is not offered', async () => {
    const before = (await provider.provideMcpServerDefinitions(none)) ?? [];
    assert.deepStrictEqual(before.map((d) => d.env.CONTENT_DOCS_DOCUMENTS_URL), [box.docsUrl]);
    box.resetRequests();
    await configure('projects.baseUrl', 'http://projects.example.invalid');
    await s.registry.settled();
    await until('the account made with that address', () => s.firstOrNone?.projectsUrl.startsWith('http://projects.example.invalid'));
    const list = (await provider.provideMcpServerDefinitions(none)) ?? [];
    assert.deepStrictEqual(list, [], 'not offered');
    // The account was made anew with that address: a view on screen reads its rows meanwhile (then the status bar its
    // usage); nothing besides.
    assert.deepStrictEqual(besidesTheWindow(box.requests).map((r) => `${r.method} ${r.path}`), []);
  });
});
