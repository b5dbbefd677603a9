/**
 * The manifest and the code agree (in the spirit of the PR extension's scripts/check-commands.js): every
 * contributed command is one the code registers (src/constants.ts CMD, each with a handler — a missing one
 * does not compile, see src/util/commandTypes.ts) and the other way round; every menu entry names a contributed
 * command; every view a `when` clause or a welcome names exists; every `contentDocs.*` context key a `when`
 * clause reads is one the code sets; every %key% has its text in package.nls.json.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CMD, CTX, VIEW, VIEW_COMMANDS } from '../../src/constants';

const ROOT = path.join(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const contributes = pkg.contributes;

const commands = new Set<string>(Object.values(CMD));
const contributed = new Set<string>((contributes.commands as Array<{ command: string }>).map((c) => c.command));
const views = new Set<string>(Object.values(contributes.views as Record<string, Array<{ id: string }>>).flat().map((v) => v.id));
const contexts = new Set<string>(Object.values(CTX));
const settings = new Set<string>(Object.keys(contributes.configuration.properties ?? {}));

interface MenuEntry {
  command?: string;
  submenu?: string;
  when?: string;
}
const menuEntries: Array<[string, MenuEntry]> = Object.entries(contributes.menus as Record<string, MenuEntry[]>).flatMap(([menu, list]) =>
  list.map((e): [string, MenuEntry] => [menu, e]),
);
const whens: string[] = [
  ...menuEntries.map(([, e]) => e.when ?? ''),
  ...((contributes.viewsWelcome ?? []) as Array<{ when?: string }>).map((w) => w.when ?? ''),
  ...((contributes.keybindings ?? []) as Array<{ when?: string }>).map((k) => k.when ?? ''),
].filter(Boolean);

/** Keys that appear twice in one JSON object of a file (JSON.parse keeps the last one and drops the other silently). */
function duplicateKeys(text: string): string[] {
  const found: string[] = [];
  // A scanner of objects' keys: strings followed by a colon, per nesting level of braces.
  const stack: Set<string>[] = [];
  const re = /"(?:[^"\\]|\\.)*"\s*:|[{}[\]]|"(?:[^"\\]|\\.)*"/g;
  for (const m of text.matchAll(re)) {
    const t = m[0];
    if (t === '{') stack.push(new Set());
    else if (t === '[') stack.push(new Set(['[']));
    else if (t === '}' || t === ']') stack.pop();
    else if (t.endsWith(':')) {
      const key = t.slice(0, t.lastIndexOf('"') + 1);
      const level = stack.at(-1);
      if (level?.has(key)) found.push(key);
      level?.add(key);
    }
  }
  return found;
}

describe('manifest (package.json) and code agree', () => {
  it('no key appears twice in one object of package.json or package.nls.json (a merge can leave two "keybindings", and the first is then lost)', () => {
    for (const file of ['package.json', 'package.nls.json']) {
      assert.deepEqual(duplicateKeys(fs.readFileSync(path.join(ROOT, file), 'utf8')), [], `${file} has duplicate keys`);
    }
    assert.deepEqual(duplicateKeys('{"a": {"k": 1}, "b": [{"k": 1}, {"k": 2}], "c": {"k": 1, "k": 2}}'), ['"k"'], 'the check finds a duplicate');
  });

  it('every command the code registers is contributed, and every contributed command is registered', () => {
    assert.deepEqual([...commands].filter((c) => !contributed.has(c)), [], 'registered but not contributed');
    assert.deepEqual([...contributed].filter((c) => !commands.has(c)), [], 'contributed but not registered');
  });

  it('every command has a category and a Title Case title with its text in package.nls.json', () => {
    for (const c of contributes.commands as Array<{ command: string; title: string; category?: string }>) {
      assert.ok(c.category, `${c.command} has a category`);
      const title = c.title.startsWith('%') ? nls[c.title.slice(1, -1)] : c.title;
      assert.ok(title, `${c.command}: the text of ${c.title}`);
      // A menu item shown checked starts with "✓ " (VS Code gives extensions no checked menu items: microsoft/vscode#109306).
      assert.match(title, /^(✓ )?[A-Z0-9]/, `${c.command}: "${title}" starts with a capital`);
    }
  });

  it('every menu entry names a contributed command', () => {
    for (const [menu, e] of menuEntries) {
      if (e.submenu) continue;
      assert.ok(e.command && contributed.has(e.command), `${menu}: ${e.command} is contributed`);
    }
  });

  it('every view a when clause or a welcome names exists, and the code knows every contributed view', () => {
    for (const w of whens) for (const m of w.matchAll(/\bview\s*==\s*([\w.]+)/g)) assert.ok(views.has(m[1]), `view ${m[1]} (in "${w}") exists`);
    for (const v of contributes.viewsWelcome as Array<{ view: string }>) assert.ok(views.has(v.view), `welcome for ${v.view}`);
    assert.deepEqual([...views].sort(), Object.values(VIEW).sort());
  });

  it('every contentDocs.* key a when clause reads is a context key the code sets (or a setting)', () => {
    for (const w of whens) {
      for (const m of w.matchAll(/(?<![\w.])(?:config\.)?(contentDocs\.[\w.]+)/g)) {
        const key = m[1];
        if (w.slice(m.index ?? 0).startsWith('config.')) {
          assert.ok(settings.has(key), `setting ${key} (in "${w}") exists`);
        } else {
          assert.ok(contexts.has(key) || views.has(key), `context key ${key} (in "${w}") is set by the code`);
        }
      }
    }
  });

  it('every %key% of the manifest has its text in package.nls.json', () => {
    const keys = [...JSON.stringify(pkg).matchAll(/"%([\w.-]+)%"/g)].map((m) => m[1]);
    assert.ok(keys.length > 10);
    assert.deepEqual(keys.filter((k) => !(k in nls)), []);
  });

  it('a command the views register (not activation) is reached only from their rows and titles: no palette entry, no key, menus scoped to the views', () => {
    // What "scoped to our views" looks like in a when clause: one of our views by name, or all of them by pattern.
    const inOurViews = (when: string | undefined) =>
      !!when && (Object.values(VIEW).some((v) => new RegExp(`\\bview == ${v.replace(/\./g, '\\.')}\\b`).test(when)) || when.includes('view =~ /^contentDocs\\./'));
    const problems: string[] = [];
    for (const id of VIEW_COMMANDS) {
      for (const [menu, e] of menuEntries.filter(([, e]) => e.command === id)) {
        if (menu === 'commandPalette') {
          if (e.when !== 'false') problems.push(`${id}: the Command Palette shows it (when "${e.when}")`);
        } else if (menu !== 'view/title' && menu !== 'view/item/context') problems.push(`${id}: in ${menu}`);
        else if (!inOurViews(e.when)) problems.push(`${id}: ${menu} entry not scoped to our views (when "${e.when}")`);
      }
      if (!menuEntries.some(([menu, e]) => menu === 'commandPalette' && e.command === id)) problems.push(`${id}: no commandPalette "false" entry`);
      // A view's key works while only its collapsed header has the focus, before the view asked for its rows.
      for (const k of (contributes.keybindings ?? []) as Array<{ command: string; key: string }>) {
        if (k.command === id) problems.push(`${id}: has the key ${k.key}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('no command link (chat answers, hovers) names a command the views register: a link can outlive the view that registered it', () => {
    const src = path.join(ROOT, 'src');
    const files = (fs.readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => path.join(src, f));
    const byKey = new Map(Object.entries(CMD).map(([k, v]) => [v as string, k]));
    const linked = files.flatMap((f) =>
      VIEW_COMMANDS.filter((id) => new RegExp(`command:\\$\\{CMD\\.${byKey.get(id)}\\}|command:${id.replace(/\./g, '\\.')}`).test(fs.readFileSync(f, 'utf8'))).map(
        (id) => `${path.relative(ROOT, f)}: ${id}`,
      ),
    );
    assert.deepEqual(linked, []);
  });
});
