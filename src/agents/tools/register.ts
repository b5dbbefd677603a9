import * as vscode from 'vscode';
import type { Services } from '../../services/services';

type ToolsModule = typeof import('./index');

/**
 * The tools' names without their `contentDocs_` prefix (package.json `contributes.languageModelTools`; names.ts keys
 * them for dist/tools.js, and test/unit/toolInputs.test.ts checks the three agree). One string: the activation bundle
 * is counted in bytes.
 */
export const TOOL_SUFFIXES = 'search_documents read_document list_templates create_document update_document delete_document delete_project get_plan_usage list_projects backup_account';

/** dist/tools.js: what the tools do (loaded on the first invocation, not at activation). */
function loadTools(): ToolsModule {
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./tools.js') as ToolsModule;
}

/**
 * Registers the language-model tools; each loads dist/tools.js and the services (dist/core.js) when first invoked.
 * `tools` receives each registered tool by name (the extension's tests call its prepareInvocation).
 */
export function registerTools(services: () => Services, tools: Map<string, vscode.LanguageModelTool<unknown>>): vscode.Disposable[] {
  return TOOL_SUFFIXES.split(' ').map((suffix) => {
    const name = `contentDocs_${suffix}`;
    const tool: vscode.LanguageModelTool<unknown> = {
      prepareInvocation: (options, token) => loadTools().prepare(services(), name, options, token),
      invoke: (options, token) => loadTools().invoke(services(), name, options, token),
    };
    tools.set(name, tool);
    return vscode.lm.registerTool(name, tool);
  });
}
