import vscode = require('vscode');
import type { ToolNeeds } from './index';
import type { LoadBundle } from '../../util/loadBundle';

type ToolsModule = typeof import('./index');

/** The tools the manifest contributes (package.json `contributes.languageModelTools`), by name. */
interface Manifest {
  readonly contributes?: { readonly languageModelTools?: ReadonlyArray<{ readonly name: string }> };
}

/**
 * Registers the language-model tools the manifest contributes, in one loop over its list (names.ts keys the same names
 * for dist/tools.js; test/unit/toolInputs.test.ts checks they agree); each loads dist/tools.js and the services
 * (dist/core.js) when first invoked. `tools` receives each registered tool by name (the extension's tests call its
 * prepareInvocation). Registered at activation: VS Code activates an extension on a tool's `onLanguageModelTool:`
 * event only while it is inactive, and this one is active from startup on, so its tools must be there from then.
 */
export function registerTools(
  manifest: Manifest,
  services: () => ToolNeeds,
  tools: Map<string, vscode.LanguageModelTool<unknown>>,
  /** Loads a lazy bundle with the window's code cache (the activation bundle's loader). */
  loadBundle: LoadBundle,
): vscode.Disposable[] {
  /** dist/tools.js: what the tools do (loaded on the first invocation, not at activation). */
  // A bundle of its own, loaded on first use: a runtime require on purpose.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loadTools = (): ToolsModule => loadBundle('tools', () => require('./tools.js') as ToolsModule);
  return (manifest.contributes?.languageModelTools ?? []).map(({ name }) => {
    const tool: vscode.LanguageModelTool<unknown> = {
      prepareInvocation: (options, token) => loadTools().prepare(services(), name, options, token),
      invoke: (options, token) => loadTools().invoke(services(), name, options, token),
    };
    tools.set(name, tool);
    return vscode.lm.registerTool(name, tool);
  });
}
