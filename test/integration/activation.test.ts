/**
 * Activation in a fresh window, before anything of Content Docs ran: this suite's file sorts first, and it never
 * activates the extension itself. VS Code activates it once startup finished (`onStartupFinished`), so the editor's
 * Content Docs menu, its palette entries and the writing Code Actions are there from the start; activation loads
 * only the activation bundle (not the services and views, dist/core.js, nor the HTTP client, dist/api.js: no request
 * can have been made), VS Code's Accounts menu gets its answer from that bundle alone, and signing in makes no request
 * while the views are closed.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { testServices } from '../kit/services';
import { startSandbox } from '../sandbox/server';
import { AUTH_PROVIDER } from '../../src/constants';
import { EXTENSION_ID, until, useSandbox } from './reliabilityKit';
import { cleanUp, workspaceFile } from './writeKit';

/** vscode.authentication.getAccounts (finalized after the API version this project compiles against). */
const authentication = vscode.authentication as typeof vscode.authentication & {
  getAccounts(providerId: string): Thenable<readonly vscode.AuthenticationSessionAccountInformation[]>;
};

describe('activation: on startup, network-free, and the writing Code Actions are offered before any command ran', function () {
  this.timeout(60_000);

  it('VS Code activates the extension once startup finished; it loads nothing but dist/extension.js and asks the server nothing; a selection gets the Code Actions', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await until('VS Code to activate the extension by itself after startup', () => ext.isActive || undefined, 30_000);
    // Node keys its module cache by the real path; the harness may give VS Code the extension through a link.
    const root = path.join(fs.realpathSync(ext.extensionPath), 'dist') + path.sep;
    const loaded = () =>
      Object.keys(require.cache)
        .filter((k) => k.startsWith(root))
        .map((k) => path.relative(root, k))
        .sort();
    assert.deepStrictEqual(loaded(), ['extension.js'], 'activation loads the activation bundle only: no HTTP client, no command code');
    // VS Code's Accounts menu asks the provider for the account from startup on: it answers from the activation bundle
    // (a fresh window: no key, no account).
    assert.deepStrictEqual(await authentication.getAccounts(AUTH_PROVIDER.id), [], 'signed out: no account in the Accounts menu');
    assert.deepStrictEqual(loaded(), ['extension.js'], "the Accounts menu's answer loads nothing more");

    const sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    // Reading the services builds them, as the first view, command or document would: dist/core.js loads, nothing more.
    const s = testServices((ext.exports as TestApi).services);
    assert.deepStrictEqual(loaded(), ['core.js', 'extension.js'], 'the services load dist/core.js only');
    try {
      // The user's key and server, as a signed-in user's window has them (the views stay closed).
      await useSandbox(s, sandbox);
      const host = new URL(sandbox.docsUrl).host;
      await until('the Accounts menu to list the account by its host', async () =>
        JSON.stringify((await authentication.getAccounts(AUTH_PROVIDER.id)).map((a) => a.label)) === JSON.stringify([host]) || undefined,
      );
      const editor = await workspaceFile('startup.md', '# Notes\n\nA paragraph to rewrite.\n');
      editor.selection = new vscode.Selection(2, 0, 2, editor.document.lineAt(2).text.length);
      const titles = await until('the Code Actions', async () => {
        const actions =
          (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, editor.selection, vscode.CodeActionKind.Refactor.value)) ??
          [];
        const ours = actions.map((a) => a.title).filter((t) => t.startsWith('Content Docs:'));
        return ours.length ? ours : undefined;
      });
      assert.ok(titles.includes('Content Docs: Rewrite Selection') && titles.includes('Content Docs: Generate from Selection…'), titles.join(', '));
      assert.deepStrictEqual(
        sandbox.requests.map((r) => `${r.method} ${r.path}`),
        [],
        'no request: activation and signing in are local, the views are closed',
      );
      assert.deepStrictEqual(loaded(), ['core.js', 'extension.js'], 'still no HTTP client and no command code loaded');

      // The lazy bundles load with a code cache in the extension's global storage: this fresh profile has none yet,
      // and what V8 compiled of dist/core.js is written there (a few seconds later; flush() writes it now).
      const { codeCache } = ext.exports as TestApi;
      assert.deepStrictEqual(codeCache.loads.map((l) => `${l.name}: ${l.cache}`), ['core: none']);
      const folder = path.join(s.context.globalStorageUri.fsPath, 'code-cache');
      await codeCache.flush();
      const written = fs.readdirSync(folder);
      assert.deepStrictEqual(written, ['core.v8']);
      assert.ok(fs.statSync(path.join(folder, written[0])).size > 10_000, 'the cache holds the compiled bundle');
    } finally {
      await cleanUp();
      await s.credentials.clearKey();
      await sandbox.close();
    }
  });
});
