/**
 * What the Explorer does with files of account folders Ctrl-dragged onto a folder of the workspace: a copy by VS Code's
 * file service (read through Content Docs' file system, written by VS Code). Two accounts hold a document of the same
 * id and name: their files copied together each hold their own account's text, with one GET per document and nothing
 * sent that changes either server; a copy onto a name that exists is refused, and the file there keeps its text.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { accountPathUri } from '../../src/files/uris';
import type { Sandbox } from '../sandbox/server';
import { TEMPLATES } from '../sandbox/templates';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';

describe('account folders of two accounts: their files copied onto a local folder', function () {
  this.timeout(90_000);
  const ID = 6262;
  const NAME = 'Launch brief';
  let kit: TwoAccounts;
  let labelB: string;
  let dir: string;

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME });
    labelB = await kit.addB();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-copy-'));
  });

  after(async () => {
    await kit?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const ofDoc = (sb: Sandbox) => sb.requests.filter((r) => r.path === `/api/v1/documents/${ID}`);

  it("each copy holds its own account's text (one GET per document, nothing else sent for it); a copy onto an existing name is refused", async () => {
    const labelA = kit.s.registry.all().find((a) => a.label !== labelB)?.label;
    assert.ok(labelA, 'the first account has a label');
    const file = `${TEMPLATES.find((t) => t.id === 1)!.name}/${NAME}.md`;
    const [beforeA, beforeB] = [ofDoc(kit.a).length, ofDoc(kit.b).length];
    const copyA = vscode.Uri.file(path.join(dir, `${NAME}.md`));
    // The Explorer names the second file of a name "<name> copy.md" (explorer.incrementalNaming).
    const copyB = vscode.Uri.file(path.join(dir, `${NAME} copy.md`));
    await Promise.all([
      vscode.workspace.fs.copy(accountPathUri(labelA, file), copyA, { overwrite: false }),
      vscode.workspace.fs.copy(accountPathUri(labelB, file), copyB, { overwrite: false }),
    ]);
    assert.strictEqual(fs.readFileSync(copyA.fsPath, 'utf8'), 'Text of A');
    assert.strictEqual(fs.readFileSync(copyB.fsPath, 'utf8'), 'Text of B');
    for (const [name, sent] of [['A', ofDoc(kit.a).slice(beforeA)], ['B', ofDoc(kit.b).slice(beforeB)]] as const) {
      assert.ok(sent.length <= 1 && sent.every((r) => r.method === 'GET'), `server ${name} got ${JSON.stringify(sent.map((r) => `${r.method} ${r.status}`))}`);
    }
    assert.strictEqual(kit.a.documents.get(ID)?.result, 'Text of A');
    assert.strictEqual(kit.b.documents.get(ID)?.result, 'Text of B');

    // A person's file of that name is never replaced without a yes (the Explorer asks, or names the copy apart).
    fs.writeFileSync(copyA.fsPath, 'My own notes');
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.copy(accountPathUri(labelB, file), copyA, { overwrite: false })),
      (e: unknown) => e instanceof vscode.FileSystemError && e.code === 'FileExists',
    );
    assert.strictEqual(fs.readFileSync(copyA.fsPath, 'utf8'), 'My own notes');
  });
});
