/** The kubectl flag parser's tables (flags.ts), built once per command's frozen flag list. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { list, parseFlags } from './flags.js';
import { flagsOf, locate } from './spec/lookup.js';

test('flagsOf: one frozen list per command, so parseFlags builds its tables once', () => {
  const spec = locate(['port-forward']).path.at(-1)!;
  const flags = flagsOf(spec);
  assert.equal(flagsOf(spec), flags, 'the same list on every kubectl line');
  assert.ok(Object.isFrozen(flags));
  assert.equal(flagsOf(undefined), flagsOf(undefined));
  assert.ok(flags.some((f) => f.name === 'namespace'), 'with the global options');
});

test('parseFlags: a list default is each parse its own array; values and order as before', () => {
  const specs = flagsOf(locate(['port-forward']).path.at(-1)!);
  const a = parseFlags(['pod/web', '8080:80'], specs);
  assert.deepEqual(list(a.flags, 'address'), ['localhost']);
  list(a.flags, 'address').push('changed');
  const b = parseFlags(['pod/web', '--address', '0.0.0.0', '-n', 'x'], specs);
  assert.deepEqual(list(b.flags, 'address'), ['0.0.0.0']);
  assert.equal(b.flags.namespace, 'x');
  assert.deepEqual(list(parseFlags([], specs).flags, 'address'), ['localhost'], 'a caller changing its default does not reach the next parse');
  assert.deepEqual(Object.keys(parseFlags([], specs).flags), Object.keys(parseFlags([], [...specs]).flags), 'a list not frozen parses the same');
});

test('parseFlags: a repeated list flag appends to what was given, not to its default; the values are all flags holds', () => {
  const specs = flagsOf(locate(['port-forward']).path.at(-1)!);
  const p = parseFlags(['pod/web', '--address', 'a,b', '--address=c', '8080:80'], specs);
  assert.deepEqual(list(p.flags, 'address'), ['a', 'b', 'c']);
  const q = parseFlags(['pod/web', '--address', 'x', '--', 'y'], specs);
  assert.deepEqual(list(q.flags, 'address'), ['x']);
  assert.deepEqual(q.dashArgs, ['y']);
  for (const r of [p, q]) assert.deepEqual(Object.keys(r.flags), Object.keys(parseFlags([], specs).flags), 'the declared flags alone, in their order');
  const run = flagsOf(locate(['run']).path.at(-1)!);
  const e = parseFlags(['web', '--image=nginx', '--env', 'A=1', '--env=B=2'], run);
  assert.deepEqual(list(e.flags, 'env'), ['A=1', 'B=2'], 'a stringArray keeps each value whole');
});
