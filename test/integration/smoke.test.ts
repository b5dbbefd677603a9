import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { screenshot } from './harness';

const EXTENSION_ID = 'content-docs.content-docs';

describe('smoke: the extension in a real VS Code', () => {
  it('is installed and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('registers every command its manifest contributes', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const contributed: string[] = ((ext.packageJSON?.contributes?.commands ?? []) as { command: string }[]).map(c => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter(c => !registered.has(c));
    assert.ok(missing.length === 0, `contributed but not registered (${missing.length}): ${missing.join(', ')}`);
  });

  it('shows the workbench (screenshot smoke-workbench)', async () => {
    const file = await screenshot('smoke-workbench');
    assert.ok(fs.existsSync(file), `${file} was not written`);
    const size = fs.statSync(file).size;
    assert.ok(size > 10 * 1024, `${file} is only ${size} bytes`);
  });
});
