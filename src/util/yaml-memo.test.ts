import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlMemo } from './yaml-memo.js';

test('parseYamlMemo: equal values, never shared; errors thrown again', () => {
  const a = parseYamlMemo('kind: Pod\nspec: {containers: [{name: a}]}\n') as { spec: { containers: { name: string }[] } };
  a.spec.containers[0]!.name = 'changed';
  const b = parseYamlMemo('kind: Pod\nspec: {containers: [{name: a}]}\n') as { spec: { containers: { name: string }[] } };
  assert.equal(b.spec.containers[0]!.name, 'a', 'a caller mutating its copy does not reach the next');
  assert.equal(parseYamlMemo('42'), 42);
  for (let i = 0; i < 2; i++) assert.throws(() => parseYamlMemo('a: b: c'), /Nested mappings|mapping/);
});
