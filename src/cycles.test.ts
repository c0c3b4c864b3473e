/**
 * No import cycles between files in src/. A cycle makes a module's exports depend on which file
 * of the loop was imported first (an entry read before its module finished evaluating is
 * undefined), which is how registration-by-import bugs hide.
 *
 * Edges counted: static `import … from`, side-effect `import '…'` and `export … from` of local
 * files, which all load the target when the importer loads. Not counted:
 *  - `import type` / `export type` (erased by the compiler, they load nothing at run time);
 *  - dynamic `import()` (loads later, on demand, after every static import has finished).
 * `import { type A } from` DOES count: with verbatimModuleSyntax it compiles to `import {} from`,
 * which still loads the file. Test files are not scanned (nothing imports them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The sources, also when this test runs compiled from .test-build/ (scripts/test.mjs): one level up, then src/. */
const SRC = fileURLToPath(new URL('../src/', import.meta.url)).replace(/\/$/, '');

/**
 * Cycles allowed to exist, as the sorted files of each loop (relative to src/). None: a new
 * shared module is the answer to a loop (e.g. kubectl's manifest.ts and last-applied.ts, shared
 * by apply, create, replace and delete).
 */
const ALLOWED_CYCLES: readonly (readonly string[])[] = [];

/**
 * Local specifiers a file loads at run time. Statements are recognised at the start of a line
 * (the code style puts every import there), so text in comments and strings is not mistaken for one.
 */
export function runtimeImportsOf(text: string): string[] {
  const out: string[] = [];
  const re = /^(?:import|export)\s+(type\s+)?(?:[^;'"]*?\s+from\s+|[^;'"]*?from\s*)?['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) if (!m[1]) out.push(m[2]!);
  return out;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (n.endsWith('.ts') && !n.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** The file graph: src-relative path → src-relative paths it loads. */
function importGraph(files: { file: string; text: string }[]): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const { file, text } of files) {
    const deps: string[] = [];
    for (const spec of runtimeImportsOf(text)) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      if (existsSync(target)) deps.push(relative(SRC, target));
    }
    g.set(relative(SRC, file), deps);
  }
  return g;
}

/** Strongly connected components with more than one file, or a file that imports itself (Tarjan). */
export function cycles(g: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || (g.get(v) ?? []).includes(v)) out.push(scc.sort());
  };
  for (const v of [...g.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

test('runtimeImportsOf counts loading imports and skips type-only ones and comments', () => {
  const cases = [
    { name: 'static', text: "import { a } from './x.js';", want: ['./x.js'] },
    { name: 'inline type specifiers still load', text: "import { type A } from './x.js';", want: ['./x.js'] },
    { name: 'type-only', text: "import type { A } from './x.js';", want: [] },
    { name: 'type-only re-export', text: "export type { A } from './x.js';", want: [] },
    { name: 're-export', text: "export { a } from './x.js';\nexport * from './y.js';", want: ['./x.js', './y.js'] },
    { name: 'side effect', text: "import './x.js';", want: ['./x.js'] },
    { name: 'multi-line', text: "import {\n  a,\n  b,\n} from './x.js';", want: ['./x.js'] },
    { name: 'dynamic', text: "const m = await import('./x.js');", want: [] },
    { name: 'comment', text: "/**\n * a static import from\n * here\n */\nimport type { A } from './x.js';", want: [] },
  ];
  for (const c of cases) assert.deepEqual(runtimeImportsOf(c.text), c.want, c.name);
});

test('cycles finds loops and nothing else', () => {
  const g = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts', 'd.ts']],
    ['d.ts', []],
    ['e.ts', ['e.ts']],
  ]);
  assert.deepEqual(cycles(g), [['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  assert.deepEqual(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]])), []);
});

test('no import cycles in src/ beyond the listed ones, and every listed one still exists', () => {
  const files = sourceFiles(SRC).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  assert.ok(files.length > 50, 'expected to scan the source tree');
  const found = cycles(importGraph(files)).map((c) => c.join(' ↔ '));
  const allowed = ALLOWED_CYCLES.map((c) => [...c].sort().join(' ↔ '));
  assert.deepEqual(
    found.filter((c) => !allowed.includes(c)),
    [],
    'new import cycle(s)',
  );
  assert.deepEqual(
    allowed.filter((c) => !found.includes(c)),
    [],
    'listed cycle(s) no longer exist: remove them from ALLOWED_CYCLES',
  );
});
