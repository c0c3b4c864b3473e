import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParamError, resolveParams, substitute, substituteDeep, WORDS } from './params.js';
import type { Param } from './schema.js';

const PARAMS: Record<string, Param> = {
  ns: { pick: ['net', 'web', 'shop'] },
  port: { range: [30000, 32767] },
  name: { pattern: 'web-{word}' },
  full: { pattern: '{{name}}.{{ns}}' },
  fixed: 'kube-system',
  suffix: { pattern: 'x-{rand5}-{n}' },
};

test('params are deterministic per seed and scenario', () => {
  const a = resolveParams('demo', PARAMS, 7);
  assert.deepEqual(resolveParams('demo', PARAMS, 7), a);
  assert.ok(['net', 'web', 'shop'].includes(String(a['ns'])));
  assert.ok(typeof a['port'] === 'number' && a['port'] >= 30000 && a['port'] <= 32767);
  assert.match(String(a['name']), new RegExp(`^web-(${WORDS.join('|')})$`));
  assert.equal(a['full'], `${a['name']}.${a['ns']}`);
  assert.equal(a['fixed'], 'kube-system');
  assert.match(String(a['suffix']), /^x-[bcdfghjklmnpqrstvwxz2456789]{5}-\d$/);
});

test('different seeds (and different scenarios) draw different values', () => {
  const seen = new Set<string>();
  for (let seed = 1; seed <= 10; seed++) seen.add(JSON.stringify(resolveParams('demo', PARAMS, seed)));
  assert.ok(seen.size >= 8, `only ${seen.size} distinct draws`);
  assert.notDeepEqual(resolveParams('demo', PARAMS, 1), resolveParams('other', PARAMS, 1));
});

test('substitution: unknown names suggest the nearest, whole-number placeholders stay numbers', () => {
  assert.equal(substitute('svc {{ ns }}:{{port}}', { ns: 'web', port: 30080 }), 'svc web:30080');
  assert.throws(() => substitute('{{nss}}', { ns: 'web' }), (e: unknown) => e instanceof ParamError && e.message === 'unknown parameter {{nss}} (did you mean "ns"?)');
  assert.deepEqual(substituteDeep({ a: ['{{port}}', 'p{{port}}'], b: { c: '{{ns}}' } }, { ns: 'web', port: 30080 }), { a: [30080, 'p30080'], b: { c: 'web' } });
});
