/**
 * How VS Code names a `content-docs:` file (contributes.resourceLabelFormatters), inside a real VS Code: the label its
 * hovers, breadcrumbs and window title use is `host/Template/Name.md` for a document's own URI (its account's server
 * first) and `Template/Name.md` in the account folder, with "/" (not the bare `/Template/Name.md` VS Code makes of a
 * URI no formatter covers, with "\" on Windows). Read from the window title, set to the
 * active editor's full label (`${activeEditorLong}`, what the tab's hover shows; a window of the extension under test
 * puts "[Extension Development Host]" before it).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { read } from './harness';
import { accountUriOf, closeAll, DocumentPool, openDocument, services, until, useSandbox } from './reliabilityKit';

const TITLE = '.part.titlebar .window-title';

/** The window title as the workbench shows it, once it reads `expected` (or what it read last, in the failure). */
async function titleReads(expected: string): Promise<void> {
  let last = '';
  try {
    await until(`the window title to read ${expected}`, async () => {
      last = (await read(TITLE)).text.trim();
      // A window of the extension under test says so first.
      return last.replace(/^\[Extension Development Host\] /, '') === expected;
    });
  } catch (e) {
    throw new Error(`${(e as Error).message}; it reads ${JSON.stringify(last)}`, { cause: e });
  }
}

describe('labels of content-docs files: "host/Template/Name.md" and "Template/Name.md", "/" on every OS', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let s: TestServices;
  const windowSettings = () => vscode.workspace.getConfiguration('window');

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await closeAll();
    await useSandbox(s, sandbox);
    // The title bar shows the title (not the command center), and the title is the active editor's full label.
    await windowSettings().update('commandCenter', false, vscode.ConfigurationTarget.Global);
    await windowSettings().update('title', '${activeEditorLong}', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await windowSettings().update('title', undefined, vscode.ConfigurationTarget.Global);
    await windowSettings().update('commandCenter', undefined, vscode.ConfigurationTarget.Global);
    await closeAll();
    await sandbox?.close();
  });

  it('a document opened from the view reads "host/Template/Name.md", the same document from the account folder "Template/Name.md"', async () => {
    const d = new DocumentPool(sandbox).take();
    const editor = await openDocument(d.id);
    const [, host, template, file] = editor.document.uri.path.split('/');
    assert.strictEqual(host, hostOf(sandbox.docsUrl), 'its first folder is the server\'s host');
    assert.ok(template && file, `a template folder and a file name: ${editor.document.uri.path}`);
    await titleReads(`${host}/${template}/${file}`);
    await closeAll();
    const inFolder = await accountUriOf(s, d.id);
    await vscode.window.showTextDocument(inFolder);
    await titleReads(inFolder.path.slice(1));
  });
});
