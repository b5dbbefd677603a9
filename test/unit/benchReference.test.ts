/**
 * The benchmark's reference extension (test/bench/reference): the bench states Content Docs' startup figures as ratios
 * to it, so it must stay what the ratios assume: a minimal extension (one view, one command) that VS Code activates on
 * the same startup event as Content Docs, under the id the bench reads its figures by.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REFERENCE_ID } from '../bench/shared';

const root = path.resolve(__dirname, '..', '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('the benchmark reference extension', () => {
  const reference = readJson('test/bench/reference/package.json');
  const ours = readJson('package.json');

  it('is activated on the same startup event as Content Docs', () => {
    const startup = (ours.activationEvents as string[]).filter((e) => e === '*' || e === 'onStartupFinished');
    assert.deepEqual(reference.activationEvents, startup);
  });

  it('has the id the bench reads its figures by', () => {
    assert.equal(`${reference.publisher}.${reference.name}`, REFERENCE_ID);
  });

  it('contributes one view and one command, and its main file registers just those', () => {
    const views = Object.values(reference.contributes.views as Record<string, Array<{ id: string }>>).flat();
    assert.deepEqual(views.map((v) => v.id), ['benchReference.items']);
    assert.deepEqual((reference.contributes.commands as Array<{ command: string }>).map((c) => c.command), ['benchReference.refresh']);
    const main = fs.readFileSync(path.join(root, 'test/bench/reference', reference.main as string), 'utf8');
    assert.deepEqual([...main.matchAll(/vscode\.(?:window|commands|workspace|languages)\.(\w+)\(/g)].map((m) => m[1]).sort(), ['createTreeView', 'registerCommand']);
  });
});
