/**
 * sameJSONText (json-copy.ts) is what the controllers' "did my sync change anything?" checks compared
 * before: `JSON.stringify(a) === JSON.stringify(b)`, a status or member that is absent included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameJSONText } from './json-copy.js';

const CASES: { name: string; a: unknown; b: unknown }[] = [
  { name: 'no status against a null one', a: undefined, b: null },
  { name: 'no status on either side', a: undefined, b: undefined },
  { name: 'no status against an empty one', a: undefined, b: {} },
  { name: 'null against null', a: null, b: null },
  { name: 'equal statuses', a: { replicas: 2, conditions: [{ type: 'A', status: 'True' }] }, b: { replicas: 2, conditions: [{ type: 'A', status: 'True' }] } },
  { name: 'a changed count', a: { replicas: 2, readyReplicas: 1 }, b: { replicas: 2, readyReplicas: 2 } },
  { name: 'a count left out against one that is undefined', a: { replicas: 2 }, b: { replicas: 2, readyReplicas: undefined } },
  { name: 'members in another order', a: { replicas: 1, observedGeneration: 1 }, b: { observedGeneration: 1, replicas: 1 } },
  { name: 'an undefined address in a list', a: [undefined], b: [null] },
  { name: 'an absent list against a null one, inside', a: { subsets: undefined }, b: { subsets: null } },
  { name: 'an empty list against none', a: { endpoints: [] }, b: {} },
  { name: 'labels against no labels', a: undefined, b: { app: 'web' } },
  { name: 'a number against its text', a: { port: 80 }, b: { port: '80' } },
  { name: 'NaN against null', a: [NaN], b: [null] },
  { name: '-0 against 0', a: { n: -0 }, b: { n: 0 } },
];

for (const c of CASES)
  test(`sameJSONText: ${c.name} as comparing JSON texts says`, () => {
    assert.equal(sameJSONText(c.a, c.b), JSON.stringify(c.a) === JSON.stringify(c.b));
    assert.equal(sameJSONText(c.b, c.a), JSON.stringify(c.b) === JSON.stringify(c.a));
  });
