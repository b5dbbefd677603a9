/**
 * The language-model tools' inputs (src/operations/inputs.ts): what each tool takes once checked, and the sentence
 * a bad input gets (VS Code does not enforce a tool's schema). Also: the tools' names agree between the manifest,
 * the activation's registrations (register.ts) and dist/tools.js (names.ts).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_LIMIT, parseToolInput } from '../../src/operations/inputs';
import { TOOL_NAMES, type ToolKey } from '../../src/agents/tools/names';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function refusal(key: ToolKey, input: unknown): string {
  const r = parseToolInput(key, input);
  assert.equal(r.ok, false, `${key} ${JSON.stringify(input)} is refused`);
  return (r as { message: string }).message;
}

describe('parseToolInput: the tools\' inputs', () => {
  it('search: defaults, a trimmed query, a blank query is no search', () => {
    assert.deepEqual(parseToolInput('search', undefined), {
      ok: true,
      value: { query: undefined, searchIn: 'name', template: undefined, favoritesOnly: false, sort: 'newest', limit: DEFAULT_LIMIT, account: undefined },
    });
    const r = parseToolInput('search', { query: '  coffee\u200b ', searchIn: 'result', template: 'Blog post', limit: 3, account: ' Me @ host ' });
    assert.ok(r.ok);
    assert.deepEqual([r.value.query, r.value.searchIn, r.value.template, r.value.limit, r.value.account], ['coffee', 'result', 'Blog post', 3, 'Me @ host']);
    const blank = parseToolInput('search', { query: ' \ufeff ' });
    assert.ok(blank.ok && blank.value.query === undefined);
  });

  it('a number out of range, a wrong type, a wrong enum value: the input named, its rule and what came', () => {
    assert.match(refusal('search', { limit: 500 }), /^`limit` must be 1–100 \(got 500\)\. Nothing was sent; correct the input and call the tool again\.$/);
    assert.match(refusal('search', { limit: 2.5 }), /`limit` must be 1–100 \(got 2\.5\)/);
    assert.match(refusal('search', { sort: 'date' }), /`sort` must be one of newest, oldest, nameAsc, nameDesc \(got "date"\)/);
    assert.match(refusal('read', { id: '7' }), /`id` must be a document id \(a whole number from 1\) \(got "7"\)/);
    assert.match(refusal('read', { id: 0 }), /`id` must be a document id/);
    assert.match(refusal('update', { id: 1, updated_at: 'x', favorite: 'yes' }), /`favorite` must be true or false \(got "yes"\)/);
  });

  it('a missing input says it is required; an unknown one lists the inputs there are', () => {
    assert.match(refusal('read', {}), /^`id` is required: it must be a document id \(a whole number from 1\)\./);
    assert.match(refusal('deleteProject', {}), /`project` is required/);
    assert.match(refusal('search', { text: 'x' }), /`text` is not an input of this tool; its inputs are `query`, `searchIn`, `template`, `favoritesOnly`, `sort`, `limit`, `account`\./);
    assert.match(refusal('read', 'id 5'), /^The input must be an object of named inputs \(got "id 5"\)/);
  });

  it("create: the UI's validators: the name and prompt trimmed and within their limits, the five creativities", () => {
    const ok = parseToolInput('create', { name: ' Sheet ', prompt: ' Write it ', template: 41, creativity: 0.25 });
    assert.deepEqual(ok, { ok: true, value: { name: 'Sheet', prompt: 'Write it', template: 41, creativity: 0.25, account: undefined } });
    assert.match(refusal('create', { name: 'n'.repeat(129), prompt: 'p' }), /`name`: The name can be at most 128 characters \(this one has 129\)\./);
    assert.match(refusal('create', { name: 'n', prompt: 'p'.repeat(2049) }), /`prompt`: The prompt can be at most 2048 characters \(this one has 2049\)\./);
    assert.match(refusal('create', { name: '\u200b', prompt: 'p' }), /`name`: The name cannot be empty\./);
    assert.match(refusal('create', { name: 'n', prompt: 'p', creativity: 0.3 }), /`creativity`: must be one of 0 \(Repetitive\), 0\.25 \(Deterministic\), 0\.5 \(Original\), 0\.75 \(Creative\), 1 \(Imaginative\) \(got 0\.3\)\./);
    // Every problem at once.
    const both = refusal('create', { name: '', prompt: '' });
    assert.match(both, /`name`: .*`prompt`: /);
  });

  it('update: at least one change, a text within 20,480 characters, an updated_at that is a time', () => {
    const ok = parseToolInput('update', { id: 3, updated_at: '2024-01-02T03:04:05.000000Z', result: ' New text \n', favorite: false });
    assert.deepEqual(ok, { ok: true, value: { id: 3, updated_at: '2024-01-02T03:04:05.000000Z', changes: { result: 'New text', favorite: false }, account: undefined } });
    assert.match(refusal('update', { id: 3, updated_at: '2024-01-02T03:04:05Z' }), /Nothing to change: give at least one of `name`, `result` or `favorite`\./);
    assert.match(refusal('update', { id: 3, updated_at: 'yesterday', name: 'x' }), /`updated_at` must be the `updated_at` the document had when you read it/);
    assert.match(refusal('update', { id: 3, updated_at: '2024-01-02T03:04:05Z', result: 'x'.repeat(20481) }), /`result`: The text can be at most 20480 characters/);
    assert.match(refusal('update', { id: 3, name: 'x' }), /`updated_at` is required/);
  });

  it('backup: an absolute folder (POSIX, a Windows drive or share, a file: URI as its path); a relative one, `~`, another scheme or nothing refused in words', () => {
    for (const [given, folder] of [
      ['/home/me/Backups/content', '/home/me/Backups/content'],
      [' C:\\Backups\\content ', 'C:\\Backups\\content'],
      ['d:/backup', 'd:/backup'],
      ['\\\\server\\share\\backup', '\\\\server\\share\\backup'],
      ['file:///home/me/My%20backup', '/home/me/My backup'],
      ['file:///c%3A/Backups', 'c:/Backups'],
    ]) {
      assert.deepEqual(parseToolInput('backup', { folder: given }), { ok: true, value: { folder, account: undefined } }, given);
    }
    assert.match(refusal('backup', { folder: 'backups/content' }), /^`folder` must be the absolute path of a folder on the disk .* \(got "backups\/content", a relative path\)\. Nothing was sent/);
    assert.match(refusal('backup', { folder: '~/Backups' }), /a relative path \(`~` is not expanded: give the home folder's full path\)/);
    assert.match(refusal('backup', { folder: 'C:Backups' }), /a relative path/);
    assert.match(refusal('backup', { folder: 'https://example.com/backup' }), /\(got "https:\/\/example\.com\/backup", a https: address, which is not a folder on the disk\)/);
    assert.match(refusal('backup', { folder: 'vscode-remote://ssh-remote+box/home/me' }), /a vscode-remote: address/);
    assert.match(refusal('backup', { folder: '  ' }), /`folder` must be the absolute path .*; it was empty\./);
    assert.match(refusal('backup', {}), /`folder` is required/);
  });

  it('delete project: a name with "/" is refused as the Projects view refuses it', () => {
    assert.match(refusal('deleteProject', { project: 'a/b' }), /`project`: The projects server cannot address a project whose name contains "\/"/);
    assert.deepEqual(parseToolInput('deleteProject', { project: 'Café ' }), { ok: true, value: { project: 'Café ', account: undefined } });
  });
});

describe('the tools\' names', () => {
  it('package.json (whose list activation registers) and dist/tools.js name the same ten tools', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: Array<{ name: string; toolReferenceName: string; canBeReferencedInPrompt: boolean; inputSchema: object }> };
    };
    const contributed = manifest.contributes.languageModelTools;
    assert.deepEqual(contributed.map((t) => t.name), Object.values(TOOL_NAMES));
    assert.deepEqual(
      contributed.map((t) => t.toolReferenceName),
      ['contentSearch', 'contentRead', 'contentTemplates', 'contentCreate', 'contentUpdate', 'contentDelete', 'contentDeleteProject', 'contentUsage', 'contentProjects', 'contentBackup'],
    );
    for (const t of contributed) assert.ok(t.canBeReferencedInPrompt && t.inputSchema, t.name);
  });
});
