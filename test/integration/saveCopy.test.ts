/**
 * Save a Copy As… on document rows: a document's text as a file on this machine (VS Code's Explorer takes no rows
 * dragged from another view). Two accounts hold a document of the same id and name: a row's copy holds its own
 * account's text; several rows of both accounts copied into one folder give a file each, named apart, and a file of
 * that name already there keeps its text. Each copy reads its document once (one GET) and changes nothing on a server.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { Sandbox } from '../sandbox/server';
import { startTwoAccounts, type TwoAccounts } from './twoAccountsKit';
import type { AnyNode } from './reliabilityKit';

type Dialogs = { showSaveDialog: typeof vscode.window.showSaveDialog; showOpenDialog: typeof vscode.window.showOpenDialog };

describe('Save a Copy As…: a document row as a file on this machine', function () {
  this.timeout(90_000);
  const ID = 7373;
  const NAME = 'Launch brief';
  let kit: TwoAccounts;
  let dir: string;
  const w = vscode.window as unknown as Dialogs;
  const original = { save: w.showSaveDialog, open: w.showOpenDialog };
  const asked: Array<vscode.SaveDialogOptions | vscode.OpenDialogOptions> = [];

  before(async () => {
    kit = await startTwoAccounts({ id: ID, name: NAME });
    await kit.addB();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-docs-save-copy-'));
  });

  afterEach(() => {
    w.showSaveDialog = original.save;
    w.showOpenDialog = original.open;
  });

  after(async () => {
    await kit?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const ofDoc = (sb: Sandbox) => sb.requests.filter((r) => r.path === `/api/v1/documents/${ID}`);
  /** One row of the document per account (the first account's first). */
  async function rows(): Promise<AnyNode[]> {
    const found = await kit.rowsOfId();
    const byAccount = new Map<unknown, AnyNode>();
    for (const r of found) {
      const account = kit.s.documentsView.accountOf(r);
      if (!byAccount.has(account)) byAccount.set(account, r);
    }
    assert.strictEqual(byAccount.size, 2, 'a row in each account');
    return [...byAccount.values()];
  }

  it("one row: the save dialog offers Name.md, and the file holds that row's account's text (one GET, nothing changed)", async () => {
    const [rowA, rowB] = await rows();
    const to = vscode.Uri.file(path.join(dir, 'from-b.md'));
    w.showSaveDialog = (o) => {
      asked.push(o ?? {});
      return Promise.resolve(to);
    };
    const [beforeA, beforeB] = [ofDoc(kit.a).length, ofDoc(kit.b).length];
    const saved = await vscode.commands.executeCommand<vscode.Uri[]>(CMD.documentSaveCopy, rowB);
    assert.deepStrictEqual(saved?.map((u) => u.fsPath), [to.fsPath]);
    assert.strictEqual(fs.readFileSync(to.fsPath, 'utf8'), 'Text of B', "B's row: B's text");
    assert.match(String((asked.at(-1) as vscode.SaveDialogOptions).defaultUri?.path ?? `${NAME}.md`), new RegExp(`${NAME}\\.md$`));
    assert.deepStrictEqual(ofDoc(kit.b).slice(beforeB).map((r) => r.method), ['GET'], 'one GET at B');
    assert.strictEqual(ofDoc(kit.a).length, beforeA, 'nothing asked of A');
    // A cancelled dialog writes nothing.
    w.showSaveDialog = () => Promise.resolve(undefined);
    assert.deepStrictEqual(await vscode.commands.executeCommand<vscode.Uri[]>(CMD.documentSaveCopy, rowA), []);
    assert.strictEqual(kit.a.documents.get(ID)?.result, 'Text of A');
    assert.strictEqual(kit.b.documents.get(ID)?.result, 'Text of B');
  });

  it("several rows of two accounts: a file each in the folder picked, named apart; a person's file of that name keeps its text", async () => {
    const [rowA, rowB] = await rows();
    const folder = fs.mkdtempSync(path.join(dir, 'several-'));
    fs.writeFileSync(path.join(folder, `${NAME}.md`), 'My own notes');
    w.showOpenDialog = (o) => {
      asked.push(o ?? {});
      return Promise.resolve([vscode.Uri.file(folder)]);
    };
    const [beforeA, beforeB] = [ofDoc(kit.a).length, ofDoc(kit.b).length];
    const saved = await vscode.commands.executeCommand<vscode.Uri[]>(CMD.documentSaveCopy, rowA, [rowA, rowB]);
    assert.strictEqual((asked.at(-1) as vscode.OpenDialogOptions).canSelectFolders, true, 'a folder is asked for');
    assert.deepStrictEqual(saved?.map((u) => path.basename(u.fsPath)), [`${NAME} (2).md`, `${NAME} (3).md`]);
    assert.strictEqual(fs.readFileSync(path.join(folder, `${NAME}.md`), 'utf8'), 'My own notes', 'never replaced');
    assert.strictEqual(fs.readFileSync(path.join(folder, `${NAME} (2).md`), 'utf8'), 'Text of A');
    assert.strictEqual(fs.readFileSync(path.join(folder, `${NAME} (3).md`), 'utf8'), 'Text of B');
    assert.deepStrictEqual(ofDoc(kit.a).slice(beforeA).map((r) => r.method), ['GET']);
    assert.deepStrictEqual(ofDoc(kit.b).slice(beforeB).map((r) => r.method), ['GET']);
  });
});
