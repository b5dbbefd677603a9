#!/usr/bin/env node
/**
 * content-docs-mcp: the Content Docs MCP server on stdio (dist/mcp.js, a bundle of its own that the extension never
 * loads). An agent's host starts it with the account in its environment (./config.ts):
 *
 *   CONTENT_DOCS_DOCUMENTS_URL  the service's address (https://, or http:// on this machine only)
 *   CONTENT_DOCS_PROJECTS_URL   the projects (SEO) server's address, when it is not the same
 *   CONTENT_DOCS_API_KEY        the API key (never logged, never in an answer or an error)
 *
 * stdout carries the protocol only; a line about the server's state goes to stderr, which hosts keep as its log.
 * Those lines are a command-line tool's messages, in English: the server runs outside VS Code, with no VS Code
 * language to follow.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createApi, type LogLevel } from '../api/index';
import { apiPort } from '../operations/apiPort';
import { ENV, readConfig, withoutKey } from './config';
import { createServer } from './server';

/** The extension's version (esbuild.mjs defines it when it builds this bundle). */
declare const CONTENT_DOCS_VERSION: string | undefined;
const VERSION = typeof CONTENT_DOCS_VERSION === 'string' ? CONTENT_DOCS_VERSION : '0.0.0';

/** What goes to the host's log: warnings and errors, never the key. */
const LOGGED: ReadonlySet<LogLevel> = new Set<LogLevel>(['warn', 'error']);

async function main(): Promise<void> {
  const read = readConfig(process.env);
  const key = read.ok ? read.config.key : undefined;
  // The key stays in this process's memory only: no child process started from here inherits it.
  delete process.env[ENV.key];
  const say = (line: string) => process.stderr.write(`${withoutKey(line, key)}\n`);
  let dispose = () => undefined as void;
  let setup: Parameters<typeof createServer>[0];
  if (read.ok) {
    const { documentsUrl, projectsUrl } = read.config;
    const api = createApi({
      documentsUrl,
      projectsUrl,
      getKey: () => key,
      userAgent: `content-docs-mcp/${VERSION}`,
      log: (level, line) => (LOGGED.has(level) ? say(`[content-docs-mcp] ${level}: ${line}`) : undefined),
    });
    dispose = () => api.dispose();
    setup = { version: VERSION, port: apiPort(api, documentsUrl), clean: (t) => withoutKey(t, key) };
    say(`[content-docs-mcp] ${VERSION} serving the account of ${documentsUrl}${projectsUrl === documentsUrl ? '' : ` (projects: ${projectsUrl})`}`);
  } else {
    setup = { version: VERSION, port: { problem: read.problem } };
    say(`[content-docs-mcp] ${VERSION} is not set up: ${read.problem} Every tool answers this, and sends nothing.`);
  }
  const server = createServer(setup);
  const transport = new StdioServerTransport();
  const stop = () => {
    dispose();
    void server.close().finally(() => process.exit(0));
  };
  transport.onclose = () => {
    dispose();
    process.exit(0);
  };
  process.stdin.on('end', stop);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await server.connect(transport);
}

main().catch((e: unknown) => {
  process.stderr.write(`[content-docs-mcp] could not start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
