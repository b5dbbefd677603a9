/**
 * The MCP server (dist/mcp.js, content-docs-mcp) as an agent's host runs it: a child process on stdio, driven by the
 * official MCP SDK's client, against the sandbox. Every tool's answer and the requests the sandbox saw (the VS Code
 * tools' own counts: test/integration/agentTools.test.ts), the annotations a host asks by, a bad input answered with
 * no request, the update's conflict rule, an address that would send the key in clear text, and the key in no log
 * line, answer or error. Needs the build (node esbuild.mjs).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startSandbox, type RequestRecord, type Sandbox } from '../sandbox/server';
import type { SandboxDocument } from '../sandbox/seed';
import { MCP_TOOLS } from '../../src/mcp/tools';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SERVER = path.join(ROOT, 'dist', 'mcp.js');

const ID = 9001;
const HTML_ID = 9002;

/** Later than every version an earlier test made (the server keeps the newest copy it was shown of each document). */
let clock = Date.now() + 86_400_000;

function doc(id: number, name: string, result: string): SandboxDocument {
  clock += 60_000;
  const at = new Date(clock);
  return { id, name, templateId: 1, result, words: 2, favorite: false, createdAt: at, updatedAt: at };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Everything the servers started here wrote to stderr (their log), and every answer they gave. */
const logs: string[] = [];
const answers: string[] = [];

interface Answer {
  text: string;
  isError: boolean;
}

/** One server process and the SDK's client over its stdio. */
class Session {
  private constructor(
    readonly client: Client,
    private readonly transport: StdioClientTransport,
    private readonly stderr: string[],
  ) {}

  static async start(env: Record<string, string>): Promise<Session> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
    const stderr: string[] = [];
    const pipe = transport.stderr as PassThrough | null;
    pipe?.on('data', (d: Buffer) => stderr.push(d.toString('utf8')));
    const client = new Client({ name: 'content-docs-test', version: '1.0.0' });
    await client.connect(transport);
    return new Session(client, transport, stderr);
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
    const r = await this.client.callTool({ name, arguments: args });
    const content = r.content as Array<{ type: string; text?: string }>;
    assert.equal(content.length, 1, 'one text part');
    assert.equal(content[0].type, 'text');
    const text = content[0].text ?? '';
    answers.push(text);
    return { text, isError: r.isError === true };
  }

  get log(): string {
    return this.stderr.join('');
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.transport.close();
    logs.push(this.log);
  }
}

describe('the MCP server (dist/mcp.js over stdio, the SDK client, against the sandbox)', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let mcp: Session;

  /** The API requests the sandbox answered since the last reset. */
  const requests = (): RequestRecord[] => sandbox.requests.filter((r) => r.route !== undefined);
  const routes = (): string[] => requests().map((r) => r.route!);

  before(async () => {
    assert.ok(fs.existsSync(SERVER), `${SERVER} is missing: run node esbuild.mjs`);
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    mcp = await Session.start({ CONTENT_DOCS_DOCUMENTS_URL: sandbox.docsUrl, CONTENT_DOCS_PROJECTS_URL: sandbox.seoUrl, CONTENT_DOCS_API_KEY: sandbox.key });
  });

  after(async () => {
    await mcp?.close();
    await sandbox?.close();
  });

  beforeEach(() => {
    sandbox.clearFaults();
    sandbox.documents.set(ID, doc(ID, 'Coffee grinder guide', 'How to grind coffee for a French press.'));
    sandbox.documents.set(HTML_ID, doc(HTML_ID, 'Coffee newsletter', '<p>Our <strong>new</strong> beans&nbsp;are here.</p>'));
    sandbox.resetRequests();
  });

  it('lists the nine tools with their input schemas (no `account`) and the annotations a host asks by', async () => {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), MCP_TOOLS.map((t) => t.name).sort());
    assert.equal(tools.length, 9);
    const by = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['search_documents', 'read_document', 'list_templates', 'get_plan_usage', 'list_projects']) {
      assert.equal(by.get(name)!.annotations?.readOnlyHint, true, `${name} only reads`);
    }
    for (const name of ['update_document', 'delete_document', 'delete_project']) {
      const a = by.get(name)!.annotations!;
      assert.deepEqual([a.readOnlyHint, a.destructiveHint, a.idempotentHint], [false, true, true], `${name} changes what was there`);
    }
    const create = by.get('create_document')!.annotations!;
    assert.deepEqual([create.readOnlyHint, create.destructiveHint, create.idempotentHint], [false, false, false], 'a creation adds, and each call adds one');
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object');
      assert.ok(!('account' in (t.inputSchema.properties ?? {})), `${t.name} takes no account: the server serves one`);
      assert.ok((t.description ?? '').length > 40, `${t.name} has a description for a model`);
    }
    assert.deepEqual(by.get('update_document')!.inputSchema.required, ['id', 'updated_at']);
    assert.deepEqual(routes(), [], 'listing the tools sends nothing');
  });

  it('search_documents: one list request of the page that holds `limit` rows; ids, names, dates and excerpts; the account named', async () => {
    const { text, isError } = await mcp.call('search_documents', { query: 'coffee', limit: 2 });
    assert.equal(isError, false, text);
    assert.deepEqual(routes(), ['documents.list']);
    assert.deepEqual([requests()[0].query.per_page, requests()[0].query.search], ['10', 'coffee']);
    assert.ok(requests()[0].authorized, 'the key went in the request');
    assert.match(text, new RegExp(`^Account: (.+ @ )?${new URL(sandbox.docsUrl).host.replace(/[.]/g, '\\.')}\n`));
    assert.deepEqual([...text.matchAll(/^- #(\d+) /gm)].map((m) => Number(m[1])), [HTML_ID, ID]);
    assert.match(text, /Our new beans are here\./, 'the excerpt of an HTML text is its words');
    assert.match(text, /Read one with read_document \(by its id\)/, 'the answer names the MCP tools');
  });

  it('search_documents: a template by name and favorites only go to the server as its filters', async () => {
    await mcp.call('search_documents', { template: 'blog post', favoritesOnly: true, sort: 'nameAsc', limit: 30 });
    const q = requests()[0].query;
    assert.deepEqual([q.template_id, q.favorite, q.sort_by, q.sort, q.per_page], ['9', '1', 'name', 'asc', '50']);
  });

  it('read_document: one GET; the whole text, saying whether it is HTML or plain text', async () => {
    const plain = await mcp.call('read_document', { id: ID });
    assert.deepEqual(routes(), ['documents.show']);
    assert.match(plain.text, /Its text is plain text:\n\nHow to grind coffee for a French press\.$/);
    const html = await mcp.call('read_document', { id: HTML_ID });
    assert.match(html.text, /Its text is HTML \(edited in the web app\):\n\n<p>Our <strong>new<\/strong>/);
    assert.equal(routes().length, 2);
  });

  it('list_templates: the 52 with no request', async () => {
    const { text } = await mcp.call('list_templates');
    assert.deepEqual(routes(), []);
    assert.match(text, /52 built in/);
    assert.match(text, /41: Product sheet/);
  });

  it('create_document: one store request with the name, template and creativity given', async () => {
    const { text, isError } = await mcp.call('create_document', { name: 'Grinder sheet', prompt: 'A product sheet for our new grinder', template: 41, creativity: 0.75 });
    assert.equal(isError, false, text);
    assert.deepEqual(routes(), ['documents.store']);
    const body = requests()[0].body!;
    assert.deepEqual([body.name, body.template_id, body.creativity], ['Grinder sheet', '41', '0.75']);
    assert.match(text, /^Created\.\nAccount: .+\nDocument #\d+ "Grinder sheet" — Product sheet/);
  });

  it('update_document: right after a read, one PATCH and no second read', async () => {
    const read = await mcp.call('read_document', { id: ID });
    const updatedAt = /updated_at (\S+)/.exec(read.text)![1];
    sandbox.resetRequests();
    const { text, isError } = await mcp.call('update_document', { id: ID, updated_at: updatedAt, name: 'Grinder guide', favorite: true });
    assert.equal(isError, false, text);
    assert.deepEqual(routes(), ['documents.update']);
    assert.deepEqual(requests()[0].body, { name: 'Grinder guide', favorite: '1' });
    assert.match(text, /^Changed: Rename "Coffee grinder guide" to "Grinder guide"; Add it to favorites\./);
    assert.equal(sandbox.documents.get(ID)!.name, 'Grinder guide');
  });

  it('update_document: refused with no request when a later answer showed a newer version than the one read', async () => {
    const read = await mcp.call('read_document', { id: ID });
    const updatedAt = /updated_at (\S+)/.exec(read.text)![1];
    const d = sandbox.documents.get(ID)!;
    sandbox.documents.set(ID, { ...d, result: 'Changed in the web app.', updatedAt: new Date(d.updatedAt.getTime() + 5_000) });
    await mcp.call('search_documents', { query: 'grinder' });
    sandbox.resetRequests();
    const { text, isError } = await mcp.call('update_document', { id: ID, updated_at: updatedAt, result: 'My text.' });
    assert.equal(isError, true);
    assert.deepEqual(routes(), [], 'nothing sent');
    assert.match(text, /Couldn't change "Coffee grinder guide" in .+: it changed since you read it .* so nothing was changed\. Read it again with read_document, then decide\.$/);
    assert.equal(sandbox.documents.get(ID)!.result, 'Changed in the web app.');
  });

  it('update_document: a read not recent is checked with one GET first; a change since, even within the same second, is refused', async () => {
    const read = await mcp.call('read_document', { id: ID });
    const updatedAt = /updated_at (\S+)/.exec(read.text)![1];
    sandbox.documents.set(ID, { ...sandbox.documents.get(ID)!, result: 'Changed in the same second.' });
    await sleep(2_200);
    sandbox.resetRequests();
    const refused = await mcp.call('update_document', { id: ID, updated_at: updatedAt, favorite: true });
    assert.deepEqual(routes(), ['documents.show'], refused.text);
    assert.match(refused.text, /it changed since you read it/);
    assert.equal(refused.isError, true);
    const again = await mcp.call('read_document', { id: ID });
    await sleep(2_200);
    sandbox.resetRequests();
    const done = await mcp.call('update_document', { id: ID, updated_at: /updated_at (\S+)/.exec(again.text)![1], favorite: true });
    assert.deepEqual(routes(), ['documents.show', 'documents.update'], done.text);
    assert.equal(sandbox.documents.get(ID)!.favorite, true);
  });

  it('delete_document: one DELETE, the document named as last read', async () => {
    await mcp.call('read_document', { id: ID });
    sandbox.resetRequests();
    const { text } = await mcp.call('delete_document', { id: ID });
    assert.deepEqual(routes(), ['documents.delete']);
    assert.match(text, /^Deleted "Coffee grinder guide" \(#9001\) from /);
    assert.ok(!sandbox.documents.has(ID));
  });

  it('list_projects and delete_project: one request each, on the projects server', async () => {
    const list = await mcp.call('list_projects', { limit: 5 });
    assert.deepEqual(routes(), ['projects.list']);
    assert.equal(requests()[0].server, 'projects');
    assert.equal(requests()[0].query.per_page, '10');
    assert.equal([...list.text.matchAll(/^- "/gm)].length, 5, list.text);
    assert.match(list.text, /reports? · (average score [\d.]+ of 100 \((Good|Decent|Bad)\)|no score)/);
    const name = sandbox.reports[0].project;
    sandbox.resetRequests();
    const del = await mcp.call('delete_project', { project: name });
    assert.deepEqual(routes(), ['projects.delete']);
    assert.match(del.text, /^Deleted the project /);
  });

  it('get_plan_usage: one request, then the figures already read', async () => {
    const first = await mcp.call('get_plan_usage');
    assert.deepEqual(routes(), ['account']);
    assert.match(first.text, /^Account: .+\nPlan usage:\n- Words this month: [\d,]+ of [\d,]+ \(\d+ %\)\n- Documents this month: /);
    const again = await mcp.call('get_plan_usage');
    assert.deepEqual(routes(), ['account'], 'the second answer uses what was read');
    assert.equal(again.text, first.text);
  });

  it('bad input: a clear message the model can act on, isError, and no request', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['search_documents', { limit: 500 }, /`limit` must be 1–100 \(got 500\)/],
      ['search_documents', { q: 'coffee' }, /`q` is not an input of this tool; its inputs are `query`, `searchIn`, `template`, `favoritesOnly`, `sort`, `limit`\./],
      ['search_documents', { account: 'Me' }, /`account` is not an input of this tool/],
      ['search_documents', { template: 'Nonexistent template' }, /has no template named "Nonexistent template"; list_templates lists them/],
      ['read_document', {}, /`id` is required: it must be a document id/],
      ['read_document', { id: '12' }, /`id` must be a document id \(a whole number from 1\) \(got "12"\)/],
      ['create_document', { name: 'x'.repeat(129), prompt: 'p' }, /`name`: The name can be at most 128 characters \(this one has 129\)\./],
      ['create_document', { name: 'N', prompt: 'p', creativity: 0.3 }, /`creativity`: must be one of 0 \(Repetitive\), 0\.25/],
      ['create_document', { name: '  ', prompt: 'p' }, /`name`: The name cannot be empty\./],
      ['update_document', { id: ID, updated_at: 'yesterday' }, /Nothing to change: give at least one of `name`, `result` or `favorite`\..*`updated_at` must be the `updated_at` the document had when you read it \(read_document or search_documents say it\)/],
      ['update_document', { id: ID, updated_at: '2026-01-01T00:00:00Z', result: 'x'.repeat(20_481) }, /`result`: The text can be at most 20480 characters/],
      ['delete_project', { project: 'a/b' }, /cannot address a project whose name contains "\/"/],
      ['no_such_tool', {}, /There is no tool named "no_such_tool"\. The tools are: search_documents, /],
    ];
    for (const [name, input, expected] of cases) {
      const { text, isError } = await mcp.call(name, input);
      assert.match(text, expected, `${name} ${JSON.stringify(input).slice(0, 80)}`);
      assert.match(text, /Nothing was sent/);
      assert.equal(isError, true, name);
    }
    assert.deepEqual(routes(), [], 'no request for any of them');
  });

  it("a server error: the UI's words; a document gone: said so", async () => {
    sandbox.setFault('documents.show', { kind: 'status500' });
    const failed = await mcp.call('read_document', { id: ID });
    assert.match(failed.text, /^Couldn't read document 9001 of .+: the server had a problem \(HTTP 500\)/);
    assert.equal(failed.isError, true);
    sandbox.clearFaults();
    sandbox.documents.delete(ID);
    const gone = await mcp.call('read_document', { id: ID });
    assert.match(gone.text, /^Couldn't read document 9001 of .+: it no longer exists on the server\.$/);
  });

  it('a wrong key: the 401 in words, and the key in no answer', async () => {
    const wrong = 'wrong-key-that-must-not-leak-0123456789';
    const other = await Session.start({ CONTENT_DOCS_DOCUMENTS_URL: sandbox.docsUrl, CONTENT_DOCS_API_KEY: wrong });
    try {
      const { text, isError } = await other.call('read_document', { id: ID });
      assert.equal(isError, true);
      assert.match(text, /HTTP 401|did not accept the API key/, text);
      assert.equal(sandbox.requests.filter((r) => r.route === 'documents.show' && !r.authorized).length >= 1, true, 'the wrong key was tried');
      assert.ok(!text.includes(wrong));
      assert.ok(!other.log.includes(wrong), other.log);
    } finally {
      await other.close();
    }
    assert.ok(!answers.some((a) => a.includes(wrong)));
  });

  it('refuses http:// to another machine, a missing key and a placeholder: every tool says so and sends nothing', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ CONTENT_DOCS_DOCUMENTS_URL: 'http://writer.example.com', CONTENT_DOCS_API_KEY: 'secret-key-for-a-remote-server-0123' }, /uses http:\/\/ to another machine, which would send the API key unencrypted/],
      [{ CONTENT_DOCS_DOCUMENTS_URL: sandbox.docsUrl, CONTENT_DOCS_PROJECTS_URL: 'http://seo.example.com', CONTENT_DOCS_API_KEY: sandbox.key }, /projects server address \(CONTENT_DOCS_PROJECTS_URL\) http:\/\/seo\.example\.com uses http:\/\//],
      [{ CONTENT_DOCS_DOCUMENTS_URL: sandbox.docsUrl }, /CONTENT_DOCS_API_KEY is not set/],
      [{ CONTENT_DOCS_DOCUMENTS_URL: sandbox.docsUrl, CONTENT_DOCS_API_KEY: 'PASTE-YOUR-CONTENT-DOCS-API-KEY-HERE' }, /CONTENT_DOCS_API_KEY holds a placeholder, not a key/],
      [{ CONTENT_DOCS_API_KEY: sandbox.key }, /CONTENT_DOCS_DOCUMENTS_URL is not set/],
    ];
    for (const [env, expected] of cases) {
      const s = await Session.start(env);
      try {
        for (const t of MCP_TOOLS) {
          const { text, isError } = await s.call(t.name, t.key === 'read' || t.key === 'delete' ? { id: ID } : {});
          assert.equal(isError, true);
          assert.match(text, /^The Content Docs MCP server is not set up: /);
          assert.match(text, expected, text);
          assert.match(text, /Nothing was sent\.$/);
        }
        assert.match(s.log, expected, 'the log says why too');
      } finally {
        await s.close();
      }
    }
    assert.deepEqual(routes(), [], 'nothing reached the sandbox');
    assert.ok(!answers.concat(logs).some((t) => t.includes('secret-key-for-a-remote-server-0123')), 'the key is in no answer or log');
  });

  it('the key is in no log line or answer of the whole session', () => {
    const everything = [...answers, ...logs, mcp.log];
    assert.ok(answers.length > 20, 'the answers were collected');
    assert.match(mcp.log, /serving the account of http:\/\/127\.0\.0\.1:/, 'the log names the server');
    assert.ok(!everything.some((t) => t.includes(sandbox.key)), 'the key appears nowhere');
  });
});
