import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScript, runScript, scriptParses, type ScriptHost } from './script.js';

const T0 = Date.parse('2026-01-05T10:00:00Z');
const host: ScriptHost = { env: {}, readFile: () => undefined, hasTool: (n) => ['sh', 'echo', 'sleep', 'date'].includes(n), daemons: [], hostname: 'web' };
const out = (r: ReturnType<typeof runScript>): string => r.events.map((e) => (e.kind === 'out' ? e.text : '')).join('');

test('parseScript: a script text is parsed once, its runs and `$(…)` evaluations share the frozen tree', () => {
  // a text of its own, so that no other test has parsed it before
  const sh = 'i=0; while [ $i -lt 3 ]; do echo "memo $i $(echo sub-memo)"; i=$((i+1)); sleep 1; done';
  const before = scriptParses();
  const a = runScript({ sh }, host, T0, T0 + 10_000);
  const b = runScript({ sh }, host, T0 + 5_000, T0 + 15_000);
  assert.equal(out(a), 'memo 0 sub-memo\nmemo 1 sub-memo\nmemo 2 sub-memo\n');
  assert.equal(out(b), out(a), 'the second run reads the same tree');
  // the script and its substitution `echo sub-memo`, once each over two runs of three iterations
  assert.equal(scriptParses() - before, 2);
  const tree = parseScript(sh);
  assert.equal(parseScript(sh), tree);
  assert.ok(Object.isFrozen(tree), 'a write to the shared tree throws');
});

test('parseScript: a text that does not parse fails at every run, and is not kept', () => {
  const sh = 'if true; then echo never-parsed';
  const a = runScript({ sh }, host, T0, T0 + 1_000);
  const b = runScript({ sh }, host, T0, T0 + 1_000);
  assert.deepEqual(a.end, { kind: 'exit', code: 2, at: T0 });
  assert.deepEqual(b, a);
});
