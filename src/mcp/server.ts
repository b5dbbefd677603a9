/**
 * The Content Docs MCP server over a transport: lists the tools (./tools.ts) and runs each call through the same
 * operations as the VS Code tools (src/operations/): the input checked first (a bad one answered in words a model can
 * act on, with no request), then the operation on the one account the server was configured with, worded for a
 * model. A failure or refusal is a tool result with `isError` (the model reads it and can correct itself), never a
 * protocol error. Built on the official MCP SDK's low-level Server, so that the inputs are checked by the operations'
 * own parser and every refusal is ours. No `vscode` import.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answer } from '../operations/answers';
import { parseToolInput } from '../operations/inputs';
import type { AccountPort } from '../operations/port';
import { describeError } from '../util/errors';
import { MCP_TOOLS, MCP_TOOL_WORDS } from './tools';

export const SERVER_NAME = 'content-docs';

/*
 * English on purpose, not l10n.t: the instructions and every answer below (a tool's result, a refusal, a failure) are
 * read by the agent's model, which acts on them and words what it tells its user in the user's language; the server
 * runs outside VS Code, with no display language to follow (the operations' sentences that go through l10n.t come out
 * in English here). The one sentence a person may read as it is, why the server is not set up, is a command-line
 * tool's message: ./config.ts.
 */
const INSTRUCTIONS = [
  "Content Docs: the user's documents on their AI content service (texts written from templates) and their SEO projects.",
  'Search or read a document before you change it: update_document needs the updated_at you read, and refuses a document changed since.',
  'create_document counts toward the plan; delete_document and delete_project cannot be undone: ask the user first.',
].join(' ');

export interface ServerSetup {
  readonly version: string;
  /** The account, or why the server has none (then every call answers that, and sends nothing). */
  readonly port: AccountPort | { readonly problem: string };
  /** Every answer passes through this before it leaves (the key is never in one). */
  readonly clean?: (text: string) => string;
}

function result(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}

export function createServer(setup: ServerSetup): Server {
  const server = new Server({ name: SERVER_NAME, title: 'Content Docs', version: setup.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const clean = setup.clean ?? ((t: string) => t);
  const byName = new Map(MCP_TOOLS.map((t) => [t.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MCP_TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return result(`There is no tool named ${JSON.stringify(request.params.name)}. The tools are: ${MCP_TOOLS.map((t) => t.name).join(', ')}. Nothing was sent.`, true);
    }
    if ('problem' in setup.port) {
      return result(clean(`The Content Docs MCP server is not set up: ${setup.port.problem} Nothing was sent.`), true);
    }
    const parsed = parseToolInput(tool.key, request.params.arguments ?? {}, { account: false, words: MCP_TOOL_WORDS });
    if (!parsed.ok) return result(clean(parsed.message), true);
    try {
      const out = await answer(tool.key, setup.port, parsed.value, MCP_TOOL_WORDS, extra.signal);
      return result(clean(out.text), out.isError);
    } catch (e) {
      return result(clean(describeError(`The tool ${tool.name} failed`, e)), true);
    }
  });
  return server;
}
