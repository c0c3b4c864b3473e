import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlMemo, parseYamlShared } from './yaml-memo.js';

test('parseYamlMemo: equal values, never shared; errors thrown again', () => {
  const a = parseYamlMemo('kind: Pod\nspec: {containers: [{name: a}]}\n') as { spec: { containers: { name: string }[] } };
  a.spec.containers[0]!.name = 'changed';
  const b = parseYamlMemo('kind: Pod\nspec: {containers: [{name: a}]}\n') as { spec: { containers: { name: string }[] } };
  assert.equal(b.spec.containers[0]!.name, 'a', 'a caller mutating its copy does not reach the next');
  assert.equal(parseYamlMemo('42'), 42);
  for (let i = 0; i < 2; i++) assert.throws(() => parseYamlMemo('a: b: c'), /Nested mappings|mapping/);
});

test('parseYamlMemo: copies as structuredClone does (aliases stay one object, tagged values keep their type)', () => {
  const text = 'a: &x {b: [1, 2]}\nc: *x\n';
  for (let i = 0; i < 2; i++) {
    const v = parseYamlMemo(text) as { a: { b: number[] }; c: { b: number[] } };
    assert.equal(v.a, v.c, 'an alias is the anchored object itself, in every copy');
    v.a.b.push(3);
    assert.deepEqual(v.c.b, [1, 2, 3]);
  }
  const bin = parseYamlMemo('data: !!binary aGVsbG8=\n') as { data: Uint8Array };
  const again = parseYamlMemo('data: !!binary aGVsbG8=\n') as { data: Uint8Array };
  assert.deepEqual(again, structuredClone(bin), 'a tagged value is copied as structuredClone copies it');
  assert.ok(again.data instanceof Uint8Array);
  const proto = parseYamlMemo('__proto__: {polluted: 1}\n') as Record<string, unknown>;
  const proto2 = parseYamlMemo('__proto__: {polluted: 1}\n') as Record<string, unknown>;
  assert.ok(Object.hasOwn(proto2, '__proto__'), 'a `__proto__` key stays an own member');
  assert.equal(Object.getPrototypeOf(proto2), Object.prototype);
  assert.deepEqual(Object.keys(proto), Object.keys(proto2));
});

test('parseYamlMemo: uniqueKeys false is memoised apart from the default parse', () => {
  const text = 'a: 1\na: 2\n';
  assert.throws(() => parseYamlMemo(text), /unique/i, 'a repeated key is an error by default');
  for (let i = 0; i < 2; i++) assert.deepEqual(parseYamlMemo(text, { uniqueKeys: false }), { a: 2 }, 'the last of a repeated key, as go-yaml keeps');
  assert.throws(() => parseYamlMemo(text), /unique/i, 'and still an error for the default parse');
});

test('parseYamlShared: the memoised value itself, the same parse as parseYamlMemo; errors thrown again', () => {
  const text = 'kind: Config\nusers: [{name: u, user: {token: t}}]\n';
  const a = parseYamlShared(text);
  assert.equal(parseYamlShared(text), a, 'not copied: every reader gets the one value');
  assert.deepEqual(parseYamlMemo(text), a);
  assert.notEqual(parseYamlMemo(text), a, 'parseYamlMemo still hands out copies of it');
  assert.equal(parseYamlShared('7'), 7);
  for (let i = 0; i < 2; i++) assert.throws(() => parseYamlShared('a: b: c'), /Nested mappings|mapping/);
});
