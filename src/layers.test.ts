/**
 * The layering rule of docs/architecture.md, enforced: every import in src/ must point down
 * cli → ui/app → scenario → shell → sim → util. Within the ui/app level, ui (screens) may use
 * app (persistence, clocks) but app never uses ui. testing/ folders and *.test.ts files may
 * import anything.
 *
 * Inside a layer, some folders may not reach into others (FENCES): the shell and the traffic path
 * read what a node runs through sim/node/runtime.ts and the program overrides, never through a
 * controller's module, so a controller's internals can change without touching its readers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The sources, also when this test runs compiled from .test-build/ (scripts/test.mjs): one level up, then src/. */
const SRC = fileURLToPath(new URL('../src/', import.meta.url)).replace(/\/$/, '');

/** Rank of each top-level folder: a file may import only from its own rank or lower. */
const RANK: Record<string, number> = { util: 0, sim: 1, shell: 2, scenario: 3, app: 4, ui: 5, cli: 6 };

function files(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) files(p, out);
    else if (n.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Static and dynamic import / export-from specifiers. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

function layerOf(file: string): string | undefined {
  const rel = relative(SRC, file);
  if (rel.startsWith('..')) return undefined;
  const top = rel.split('/')[0]!;
  return top.endsWith('.ts') ? undefined : top;
}

/** A file whose imports are exempt: test code and test helpers. */
function exempt(file: string): boolean {
  const rel = relative(SRC, file);
  return rel.endsWith('.test.ts') || rel.split('/').includes('testing');
}

/** Folders (relative to src/, with a trailing slash) that may not import from another folder. */
export const FENCES: readonly { from: string; to: string; why: string }[] = [
  { from: 'shell/', to: 'sim/controllers/', why: 'node tools and kubectl read node state through sim/node/runtime.ts' },
  { from: 'sim/traffic/', to: 'sim/controllers/', why: 'the packet path reads iptables through sim/node/runtime.ts and processes through program overrides' },
];

export function fenceViolations(all: { file: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { file, text } of all) {
    if (exempt(file)) continue;
    const rel = relative(SRC, file);
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(SRC, resolve(dirname(file), spec));
      for (const f of FENCES) if (rel.startsWith(f.from) && target.startsWith(f.to)) out.push(`${rel} imports ${spec} (${f.why})`);
    }
  }
  return out;
}

export function violations(all: { file: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { file, text } of all) {
    if (exempt(file)) continue;
    const from = layerOf(file);
    if (!from || RANK[from] === undefined) continue;
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('.')) continue;
      const to = layerOf(resolve(dirname(file), spec));
      if (!to || RANK[to] === undefined) continue;
      if (RANK[to]! > RANK[from]! || (from === 'app' && to === 'ui'))
        out.push(`${relative(SRC, file)} imports ${spec} (${from} → ${to})`);
    }
  }
  return out;
}

test('importsOf finds static, type-only, side-effect, re-export and dynamic imports', () => {
  const cases = [
    { name: 'static', text: "import { a } from '../sim/x.js';", want: ['../sim/x.js'] },
    { name: 'type', text: "import type { A } from '../shell/y.js';", want: ['../shell/y.js'] },
    { name: 'multi-line', text: "import {\n  a,\n  b,\n} from './z.js';", want: ['./z.js'] },
    { name: 'side effect', text: "import '../ui/w.js';", want: ['../ui/w.js'] },
    { name: 're-export', text: "export { q } from '../cli/q.js';", want: ['../cli/q.js'] },
    { name: 'dynamic', text: "const m = await import('../cli/main.js');", want: ['../cli/main.js'] },
  ];
  for (const c of cases) assert.deepEqual(importsOf(c.text), c.want, c.name);
});

test('violations flags an upward import and accepts downward ones', () => {
  const cases = [
    { name: 'sim → shell is upward', file: join(SRC, 'sim/a.ts'), text: "import { S } from '../shell/session.js';", bad: 1 },
    { name: 'shell → sim is fine', file: join(SRC, 'shell/a.ts'), text: "import { C } from '../sim/cluster.js';", bad: 0 },
    { name: 'app → ui is upward', file: join(SRC, 'app/a.ts'), text: "import { r } from '../ui/repl.js';", bad: 1 },
    { name: 'ui → app is fine', file: join(SRC, 'ui/a.ts'), text: "import { p } from '../app/progress.js';", bad: 0 },
    { name: 'testing may import anything', file: join(SRC, 'testing/a.ts'), text: "import { main } from '../cli/main.js';", bad: 0 },
    { name: 'dynamic upward import counts', file: join(SRC, 'util/a.ts'), text: "await import('../sim/cluster.js');", bad: 1 },
  ];
  for (const c of cases) assert.equal(violations([{ file: c.file, text: c.text }]).length, c.bad, c.name);
});

test('no file in src/ imports an upper layer', () => {
  const all = files(SRC).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  assert.ok(all.length > 50, 'expected to scan the source tree');
  assert.deepEqual(violations(all), []);
});

test('fenceViolations flags shell and traffic files importing a controller', () => {
  const cases = [
    { name: 'shell → controllers', file: join(SRC, 'shell/commands/node/a.ts'), text: "import { k } from '../../../sim/controllers/kubelet.js';", bad: 1 },
    { name: 'traffic → controllers', file: join(SRC, 'sim/traffic/a.ts'), text: "import type { S } from '../controllers/coredns.js';", bad: 1 },
    { name: 'traffic → node runtime', file: join(SRC, 'sim/traffic/a.ts'), text: "import { n } from '../node/runtime.js';", bad: 0 },
    { name: 'runtime → controllers', file: join(SRC, 'sim/runtime/a.ts'), text: "import { p } from '../controllers/kube-proxy.js';", bad: 0 },
    { name: 'tests are exempt', file: join(SRC, 'shell/a.test.ts'), text: "import { c } from '../sim/controllers/coredns.js';", bad: 0 },
  ];
  for (const c of cases) assert.equal(fenceViolations([{ file: c.file, text: c.text }]).length, c.bad, c.name);
});

test('no file in src/shell or src/sim/traffic imports a controller', () => {
  const all = files(SRC).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  assert.deepEqual(fenceViolations(all), []);
});
