import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { VIEW_COMMANDS } from '../../src/constants';
import { screenshot } from './harness';

const EXTENSION_ID = 'content-docs.content-docs';

describe('smoke: the extension in a real VS Code', () => {
  it('is installed and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('registers every command its manifest contributes: the views\' own when the views are built, the others at activation', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const contributed: string[] = ((ext.packageJSON?.contributes?.commands ?? []) as { command: string }[]).map(c => c.command);
    const ofViews = new Set<string>(VIEW_COMMANDS);
    const registeredNow = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter(c => !ofViews.has(c) && !registeredNow.has(c));
    assert.ok(missing.length === 0, `contributed but not registered at activation (${missing.length}): ${missing.join(', ')}`);
    // Building the services builds the views, which register their own commands (once: a second build would throw).
    const api = ext.exports as { services: unknown } | undefined;
    assert.ok(api?.services, 'the test API gives the services');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missingAfter = contributed.filter(c => !registered.has(c));
    assert.ok(missingAfter.length === 0, `contributed but not registered once the views are built (${missingAfter.length}): ${missingAfter.join(', ')}`);
  });

  it('shows the workbench (screenshot smoke-workbench)', async () => {
    const file = await screenshot('smoke-workbench');
    assert.ok(fs.existsSync(file), `${file} was not written`);
    const size = fs.statSync(file).size;
    assert.ok(size > 10 * 1024, `${file} is only ${size} bytes`);
  });
});
