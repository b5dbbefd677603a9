/**
 * The shape of src/ as its imports draw it (type-only imports included: a circle through types is a circle all the
 * same). No file reaches back to itself through its imports, and no import runs up a floor:
 *
 *   floor 0  util/, api/, content/, model/, constants.ts   data and helpers (mostly vscode-free)
 *   floor 1  accounts/, documents/, projects/, files/, usage/, write/, backup/, agents/, tree/, ui/   the features
 *   floor 2  commands/, activation/                          registering the commands, loading the bundles
 *   floor 3  core.ts, extension.ts                           building the window's services, activation
 *
 * A feature may use another feature (the same floor) and anything below; the registration and composition above use
 * the features. An import that must run up a floor is listed in ALLOWED_UP with the reason (none is today).
 * Bundles loaded at run time (`require('./core.js')`) are not imports of sources and are not counted.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');

/** `from → to` (paths relative to src/) and why it may run up a floor. */
const ALLOWED_UP: Readonly<Record<string, string>> = {};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The source files a file imports (static imports and re-exports, `import x = require`, `typeof import()`). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s+(?:type\s+)?\w+\s*=\s*require\(\s*['"](\.[^'"]+)['"]\s*\)/g),
    ...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  const out = new Set<string>();
  for (const spec of specs) {
    const base = path.resolve(path.dirname(file), spec);
    const found = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
    if (found) out.add(found);
  }
  return [...out];
}

function rel(file: string): string {
  return path.relative(SRC, file).split(path.sep).join('/');
}

function floorOf(file: string): number {
  const r = rel(file);
  const top = r.split('/')[0];
  if (['util', 'api', 'content', 'model'].includes(top) || r === 'constants.ts') return 0;
  if (['commands', 'activation'].includes(top)) return 2;
  if (r === 'core.ts' || r === 'extension.ts') return 3;
  return 1;
}

/** The strongly connected components of more than one file (Tarjan), or a file that imports itself. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const ix = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    ix.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!ix.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, ix.get(w)!));
    }
    if (low.get(v) === ix.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(c.map(rel).sort());
    }
  };
  for (const v of graph.keys()) if (!ix.has(v)) visit(v);
  return out;
}

describe('src/ imports: no circle, no import up a floor', () => {
  const files = sourceFiles(SRC);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it('reads the imports it checks (the graph is not empty, type-only imports included)', () => {
    assert.ok(files.length > 100, `${files.length} source files`);
    const core = graph.get(path.join(SRC, 'core.ts')) ?? [];
    assert.ok(core.map(rel).includes('accounts/registry.ts'), 'core.ts imports the registry');
    assert.ok(core.map(rel).includes('util/commandTypes.ts'), 'a type-only import is read too');
  });

  it('no file reaches back to itself through its imports', () => {
    assert.deepEqual(circles(graph), []);
  });

  it('finds a circle when there is one (the check itself can fail)', () => {
    const a = path.join(SRC, 'a.ts');
    const b = path.join(SRC, 'b.ts');
    assert.deepEqual(circles(new Map([[a, [b]], [b, [a]]])), [['a.ts', 'b.ts']]);
  });

  it('no import runs up a floor, but those listed with a reason', () => {
    const up: string[] = [];
    for (const [from, tos] of graph) {
      for (const to of tos) {
        if (floorOf(to) <= floorOf(from)) continue;
        const key = `${rel(from)} → ${rel(to)}`;
        if (!ALLOWED_UP[key]) up.push(key);
      }
    }
    assert.deepEqual(up, []);
  });

  it('no feature reaches the window\'s services through core.ts: only the composition above it does', () => {
    const users = [...graph].filter(([, tos]) => tos.some((t) => rel(t) === 'core.ts')).map(([f]) => rel(f));
    assert.deepEqual(users.sort(), ['extension.ts']);
  });
});
