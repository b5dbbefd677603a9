/**
 * The MCP server's tools (src/mcp/tools.ts) and the VS Code tools (package.json `contributes.languageModelTools`) are
 * one set of operations: the same inputs with the same limits (MCP's without `account`), checked by the same parser
 * (src/operations/inputs.ts), and every operation has a tool in both.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MCP_TOOLS } from '../../src/mcp/tools';
import { OPERATION_KEYS } from '../../src/operations/answers';
import { inputNames, parseToolInput } from '../../src/operations/inputs';
import { TOOL_NAMES } from '../../src/agents/tools/names';

const ROOT = path.resolve(__dirname, '..', '..', '..');

interface ManifestTool {
  name: string;
  inputSchema: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
}

/** A property's schema less its words: what it accepts. */
function accepts(p: Record<string, unknown>): Record<string, unknown> {
  const { description: _d, ...rest } = p;
  return rest;
}

describe('the MCP tools and the VS Code tools: one set of operations', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { languageModelTools: ManifestTool[] } };
  const vscodeTools = new Map(manifest.contributes.languageModelTools.map((t) => [t.name, t]));

  it('every operation has one MCP tool, and one VS Code tool', () => {
    assert.deepEqual(MCP_TOOLS.map((t) => t.key).sort(), [...OPERATION_KEYS].sort());
    for (const key of OPERATION_KEYS) assert.ok(vscodeTools.has(TOOL_NAMES[key]), key);
  });

  it("each MCP tool's inputs are the VS Code tool's without `account`, with the same types and limits, and what the parser takes", () => {
    for (const t of MCP_TOOLS) {
      const v = vscodeTools.get(TOOL_NAMES[t.key])!;
      const theirs = Object.fromEntries(Object.entries(v.inputSchema.properties ?? {}).filter(([k]) => k !== 'account').map(([k, p]) => [k, accepts(p)]));
      const ours = Object.fromEntries(Object.entries(t.inputSchema.properties).map(([k, p]) => [k, accepts(p as Record<string, unknown>)]));
      assert.deepEqual(ours, theirs, t.name);
      assert.deepEqual([...(t.inputSchema.required ?? [])], v.inputSchema.required ?? [], t.name);
      assert.deepEqual(Object.keys(t.inputSchema.properties).sort(), inputNames(t.key, false).sort(), `${t.name}: the parser takes what the schema offers`);
    }
  });

  it('the MCP parse refuses `account` and names the MCP tools in its refusals', () => {
    const r = parseToolInput('read', { id: 1, account: 'x' }, { account: false });
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /`account` is not an input of this tool; its inputs are `id`\./);
    const words = { search: 'search_documents', read: 'read_document', templates: 'list_templates', projects: 'list_projects' };
    const u = parseToolInput('update', { id: 1, updated_at: 'never', favorite: true }, { account: false, words });
    assert.match((u as { message: string }).message, /\(read_document or search_documents say it\)/);
  });
});
