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
import { checkBaseUrl } from '../../src/api/client';
import { CMD, COLOR, CTX, PROMPT_SCHEME, PROPOSAL_SCHEME, SCHEME, VIEW, VIEW_COMMANDS } from '../../src/constants';

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

describe('settings as the Settings editor shows them', () => {
  const props = contributes.configuration.properties as Record<string, { order?: number; pattern?: string; patternErrorMessage?: string }>;

  it('every setting has its place (order): the servers first, then the timeout, then the rest', () => {
    const missing = Object.keys(props).filter((k) => typeof props[k].order !== 'number');
    assert.deepEqual(missing, [], 'settings without an order');
    const byOrder = Object.keys(props).sort((a, b) => props[a].order! - props[b].order!);
    assert.deepEqual(byOrder.slice(0, 3), ['contentDocs.documents.baseUrl', 'contentDocs.projects.baseUrl', 'contentDocs.network.timeoutSeconds']);
    assert.equal(new Set(Object.values(props).map((p) => p.order)).size, byOrder.length, 'no two settings share a place');
  });

  for (const key of ['contentDocs.documents.baseUrl', 'contentDocs.projects.baseUrl']) {
    it(`${key}: its pattern takes what the client takes (https://, or http:// to this machine) and flags the rest, with a translatable message`, () => {
      const { pattern, patternErrorMessage } = props[key];
      assert.ok(pattern, 'a pattern');
      const re = new RegExp(pattern, 'u');
      const taken = ['', 'https://writer.example.com', 'https://writer.example.com/', 'https://example.com:8443/content', 'http://localhost:8080', 'http://127.0.0.1:3000/api', 'http://[::1]:3000'];
      const flagged = ['http://writer.example.com', 'http://192.168.1.20', 'ftp://writer.example.com', 'writer.example.com', 'https://', 'https://user:pw@writer.example.com', 'https://writer.example.com/?x=1', 'https://writer example.com'];
      for (const url of taken) {
        assert.ok(re.test(url), `"${url}" is taken`);
        if (url) assert.doesNotThrow(() => checkBaseUrl(url), `the client takes "${url}" too`);
      }
      for (const url of flagged) {
        assert.ok(!re.test(url), `"${url}" is flagged`);
        assert.throws(() => checkBaseUrl(url), `the client refuses "${url}" too`);
      }
      assert.match(patternErrorMessage ?? '', /^%[\w.]+%$/, 'the message is a %key% of package.nls.json');
      assert.ok(nls[patternErrorMessage!.slice(1, -1)], `${patternErrorMessage} has its text`);
    });
  }
});

describe('how VS Code names our files (resourceLabelFormatters)', () => {
  interface Formatter {
    scheme: string;
    authority?: string;
    formatting: { label: string; separator: string; stripPathStartingSeparator?: boolean; stripPathSegments?: number; workspaceSuffix?: string };
  }
  const formatters = (contributes.resourceLabelFormatters ?? []) as Formatter[];
  /** The label VS Code's label service makes of a URI with a formatter (its ${path} branch, as in labelService.ts). */
  function label(f: Formatter, path: string): string {
    let p = path;
    if (f.formatting.stripPathSegments) {
      let at = 0;
      for (let i = 0; i < f.formatting.stripPathSegments; i++) {
        const next = p.indexOf('/', at + 1);
        if (next === -1) break;
        at = next;
      }
      p = p.substring(at);
    }
    if (f.formatting.stripPathStartingSeparator && p.startsWith(f.formatting.separator)) p = p.slice(1);
    return f.formatting.label.replace('${path}', p).replace(/[\\/]/g, f.formatting.separator);
  }
  const of = (scheme: string) => {
    const f = formatters.filter((x) => x.scheme === scheme);
    assert.equal(f.length, 1, `one formatter for ${scheme}`);
    assert.equal(f[0].authority ?? '*', '*', 'for every authority (every account, both URI forms)');
    return f[0];
  };

  it('a document reads "Template/Name.md" with "/" on every OS, in both URI forms; a window opened on an account folder says "[Content Docs]" after its name', () => {
    const f = of('content-docs');
    assert.equal(label(f, '/Blog post/Q3 plan.md'), 'Blog post/Q3 plan.md');
    assert.equal(f.formatting.separator, '/');
    assert.equal(f.formatting.workspaceSuffix, 'Content Docs');
  });

  it('a proposal reads as the file it proposes for (not its window-and-number folder); the prompt editor by its name', () => {
    assert.equal(label(of('content-docs-proposal'), '/w3k2-7/notes.md'), 'notes.md');
    assert.equal(label(of('content-docs-prompt'), '/New Document Prompt.md'), 'New Document Prompt.md');
  });

  it('the three schemes the extension serves, and no other, each with "/" on every OS', () => {
    assert.deepEqual(formatters.map((f) => f.scheme).sort(), [PROMPT_SCHEME, SCHEME, PROPOSAL_SCHEME].sort());
    for (const f of formatters) assert.equal(f.formatting.separator, '/', f.scheme);
  });
});

describe('file decorations and the manifest', () => {
  it('the colour of a document deleted on the server is contributed, for every kind of theme, with its description', () => {
    const colors = (contributes.colors ?? []) as Array<{ id: string; description: string; defaults: Record<string, string> }>;
    const deleted = colors.find((c) => c.id === COLOR.deleted);
    assert.ok(deleted, `${COLOR.deleted} is contributed`);
    assert.deepEqual(Object.keys(deleted.defaults).sort(), ['dark', 'highContrast', 'highContrastLight', 'light']);
    assert.ok(nls[deleted.description.slice(1, -1)], 'its description has its text');
  });
});

describe('Getting Started (contributes.walkthroughs)', () => {
  interface Step {
    id: string;
    title: string;
    description: string;
    media: { svg?: string; image?: string; markdown?: string; altText?: string };
    completionEvents?: string[];
  }
  const walkthroughs = (contributes.walkthroughs ?? []) as Array<{ id: string; title: string; description: string; steps: Step[] }>;
  const text = (s: string) => (s.startsWith('%') ? nls[s.slice(1, -1)] : undefined);

  it('one walkthrough of five steps: connect, open a document, rewrite a selection, ask @content, back up; every text in package.nls.json', () => {
    assert.equal(walkthroughs.length, 1);
    const [w] = walkthroughs;
    assert.deepEqual(w.steps.map((st) => st.id), ['connect', 'open', 'rewrite', 'chat', 'backup']);
    for (const t of [w.title, w.description, ...w.steps.flatMap((st) => [st.title, st.description, st.media.altText ?? ''])]) {
      assert.ok(text(t), `"${t}" is a %key% with its text`);
    }
  });

  it("each step's picture is there: an SVG drawn in the theme's colours (var(--vscode-…), with a fallback) or a picture that needs none", () => {
    for (const st of walkthroughs.flatMap((w) => w.steps)) {
      const file = st.media.svg ?? st.media.image ?? st.media.markdown;
      assert.ok(file && file.startsWith('media/walkthrough/'), `${st.id}: its media is under media/walkthrough/`);
      assert.ok(fs.existsSync(path.join(ROOT, file)), `${st.id}: ${file} exists`);
      if (!st.media.svg) continue;
      const svg = fs.readFileSync(path.join(ROOT, file), 'utf8');
      assert.match(svg, /^<svg [^>]*viewBox="[\d. ]+"/, `${st.id}: an SVG with a viewBox`);
      // Every colour follows the theme: a #rgb outside a var(…, fallback) would be one colour in light and dark alike.
      const bare = svg.replace(/var\(--vscode-[\w-]+, #[0-9a-fA-F]{3,8}\)/g, '').match(/#[0-9a-fA-F]{3,8}\b|rgb\(/g);
      assert.equal(bare, null, `${st.id}: every colour is a theme colour variable`);
      assert.ok(!/<text\b/.test(svg), `${st.id}: no words in the picture (they could not be translated)`);
    }
  });

  it("each step is completed by the extension's own commands or context keys, and its buttons run contributed commands", () => {
    for (const st of walkthroughs.flatMap((w) => w.steps)) {
      assert.ok(st.completionEvents?.length, `${st.id}: completed by something it does`);
      for (const e of st.completionEvents ?? []) {
        const [kind, what] = [e.slice(0, e.indexOf(':')), e.slice(e.indexOf(':') + 1)];
        if (kind === 'onCommand') assert.ok(contributed.has(what), `${st.id}: ${e} names a contributed command`);
        else if (kind === 'onContext') assert.ok(contexts.has(what), `${st.id}: ${e} names a context key the code sets`);
        else assert.fail(`${st.id}: ${e} is neither onCommand: nor onContext:`);
      }
      for (const m of (text(st.description) ?? '').matchAll(/\(command:([\w.]+)/g)) {
        assert.ok(contributed.has(m[1]) || m[1].startsWith('workbench.'), `${st.id}: the link to ${m[1]} runs a contributed command`);
      }
    }
  });
});
