/**
 * Keys shown in menus (package.json): VS Code writes a command's key beside its menu entry wherever the menu is,
 * whatever the key's `when`. So a key shows only beside entries where it acts: the Documents view's F2, Delete and
 * Ctrl+Alt+F in the rows' menu, never in the editor's menus or the Command Palette (where F2 is Rename Symbol and
 * Delete deletes a character), as the Explorer's keys show in its own menus only.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CMD } from '../../src/constants';

const ROOT = path.join(__dirname, '..', '..', '..');
const contributes = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).contributes;

interface Keybinding {
  command: string;
  key: string;
  when?: string;
  args?: unknown;
}
interface MenuEntry {
  command?: string;
  when?: string;
  group?: string;
}
const keybindings = contributes.keybindings as Keybinding[];
const menus = contributes.menus as Record<string, MenuEntry[]>;
const IN_VIEW = 'focusedView == contentDocs.documents';

describe('menus show a key only where it acts', () => {
  it('the editor\'s menus and the Command Palette show no key of the Documents view (F2, Delete, Ctrl+Alt+F act in the view only)', () => {
    const problems: string[] = [];
    for (const menu of ['editor/title', 'editor/title/context', 'editor/context', 'commandPalette']) {
      for (const e of menus[menu] ?? []) {
        if (!e.command || e.when === 'false') continue;
        for (const k of keybindings.filter((k) => k.command === e.command && k.when?.includes('focusedView'))) {
          problems.push(`${menu}: ${e.command} would show ${k.key}, which acts only when "${k.when}"`);
        }
      }
    }
    assert.deepEqual(problems, []);
    const editorTitle = (menus['editor/title'] ?? []).map((e) => e.command);
    for (const what of ['Rename', 'Favorite', 'Unfavorite', 'Delete']) {
      assert.ok(
        editorTitle.some((id) => id === `contentDocs.document${what}` || id === `contentDocs.document${what}InEditor`),
        `${what}: the editor still offers it`,
      );
    }
  });

  it('a document row\'s menu shows the view\'s keys beside their entries: F2 Rename, Ctrl+Alt+F Add to and Remove from Favorites, Delete', () => {
    const rowMenu = (menus['view/item/context'] ?? []).filter((e) => e.when?.includes('view == contentDocs.documents') && e.when.includes('document'));
    const keyOf = (id: string) => keybindings.filter((k) => k.command === id && k.when === IN_VIEW).map((k) => k.key);
    for (const [id, key] of [
      [CMD.documentRename, 'f2'],
      [CMD.documentFavorite, 'ctrl+alt+f'],
      [CMD.documentUnfavorite, 'ctrl+alt+f'],
      [CMD.documentDelete, 'delete'],
    ] as const) {
      assert.ok(rowMenu.some((e) => e.command === id), `${id} is in the row's menu`);
      assert.deepEqual(keyOf(id), [key], id);
    }
  });

  it('Ctrl+Alt+F in the view runs the toggle: of the keys with the same key and when, VS Code runs the last one', () => {
    const same = keybindings.filter((k) => k.key === 'ctrl+alt+f' && k.when === IN_VIEW);
    assert.deepEqual(
      same.map((k) => k.command),
      [CMD.documentFavorite, CMD.documentUnfavorite, CMD.documentFavoriteToggle],
      'Add to and Remove from Favorites carry the key for their menu entries; the toggle, last, is what the key runs',
    );
    for (const k of same) assert.deepEqual(k.args, { selection: true });
    assert.deepEqual(
      new Set(same.map((k) => (k as { mac?: string }).mac)),
      new Set(['cmd+alt+f']),
    );
  });
});
