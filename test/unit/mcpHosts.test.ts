/**
 * The configuration an outside agent's host takes for the MCP server (src/mcp/hosts.ts): per host, the installed
 * server, the account's addresses and a reference to the host's environment variable for the key (never the key).
 * The entry is then started as a host starts it (its variable expanded from the host's environment), driven by the
 * SDK's client against the sandbox. Needs the build (node esbuild.mjs).
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AGENT_HOSTS, agentConfig, keyVariable, serverName } from '../../src/mcp/hosts';
import { startSandbox } from '../sandbox/server';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SERVER = path.join(ROOT, 'dist', 'mcp.js');

interface Entry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

function entryOf(json: string): [string, Entry] {
  const servers = (JSON.parse(json) as { mcpServers: Record<string, Entry> }).mcpServers;
  const names = Object.keys(servers);
  assert.equal(names.length, 1, 'one server per account');
  return [names[0], servers[names[0]]];
}

const ACCOUNT = { label: 'writer.example.com', documentsUrl: 'https://writer.example.com', projectsUrl: 'https://seo.example.com' };

describe('connecting an outside agent: the configuration its host takes', () => {
  it('names the server and the key variable after the account, one of each per account', () => {
    assert.equal(serverName('writer.example.com'), 'content-docs-writer-example-com');
    assert.equal(keyVariable('writer.example.com'), 'CONTENT_DOCS_KEY_WRITER_EXAMPLE_COM');
    assert.equal(keyVariable('127.0.0.1:8080 (2)'), 'CONTENT_DOCS_KEY_127_0_0_1_8080_2');
    assert.notEqual(keyVariable('a.example.com'), keyVariable('b.example.com'));
  });

  it("each host: the installed server, the account's addresses, and the key as the host's reference to its variable", () => {
    const expected = { claudeCode: '${CONTENT_DOCS_KEY_WRITER_EXAMPLE_COM}', cursor: '${env:CONTENT_DOCS_KEY_WRITER_EXAMPLE_COM}', windsurf: '${env:CONTENT_DOCS_KEY_WRITER_EXAMPLE_COM}', other: '${CONTENT_DOCS_KEY_WRITER_EXAMPLE_COM}' };
    for (const host of AGENT_HOSTS) {
      const c = agentConfig(host, ACCOUNT, '/ext/dist/mcp.js');
      const [name, entry] = entryOf(c.json);
      assert.equal(name, 'content-docs-writer-example-com', host);
      assert.deepEqual([entry.command, entry.args], ['node', ['/ext/dist/mcp.js']], host);
      assert.deepEqual(
        entry.env,
        { CONTENT_DOCS_DOCUMENTS_URL: 'https://writer.example.com', CONTENT_DOCS_PROJECTS_URL: 'https://seo.example.com', CONTENT_DOCS_API_KEY: expected[host] },
        host,
      );
      assert.equal(c.keyVariable, 'CONTENT_DOCS_KEY_WRITER_EXAMPLE_COM');
      assert.equal(c.host.id, host);
    }
  });

  it('leaves the projects address out when it is the documents one', () => {
    const [, entry] = entryOf(agentConfig('cursor', { ...ACCOUNT, projectsUrl: ACCOUNT.documentsUrl }, '/x/mcp.js').json);
    assert.deepEqual(Object.keys(entry.env), ['CONTENT_DOCS_DOCUMENTS_URL', 'CONTENT_DOCS_API_KEY']);
  });

  it('started as a host starts it, with the key from the host\'s environment, it serves the account', async () => {
    const sandbox = await startSandbox();
    try {
      const label = new URL(sandbox.docsUrl).host;
      const c = agentConfig('claudeCode', { label, documentsUrl: sandbox.docsUrl, projectsUrl: sandbox.seoUrl }, SERVER, process.execPath);
      assert.ok(!c.json.includes(sandbox.key), 'the key is not in the configuration');
      const [, entry] = entryOf(c.json);
      // What the host does: `${NAME}` read from its own environment, where the user keeps the key.
      const hostEnv: Record<string, string> = { [c.keyVariable]: sandbox.key };
      const env = Object.fromEntries(Object.entries(entry.env).map(([k, v]) => [k, v.replace(/\$\{(\w+)\}/g, (_, n: string) => hostEnv[n] ?? '')]));
      const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'ignore' });
      const client = new Client({ name: 'content-docs-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const r = await client.callTool({ name: 'get_plan_usage', arguments: {} });
        const text = (r.content as Array<{ text?: string }>)[0].text ?? '';
        assert.notEqual(r.isError, true, text);
        assert.match(text, /^Account: .+\nPlan usage:/);
        assert.deepEqual(sandbox.requests.map((q) => q.route), ['account']);
        assert.ok(sandbox.requests[0].authorized, 'the key from the environment went in the request');
      } finally {
        await client.close();
      }
    } finally {
      await sandbox.close();
    }
  });
});
