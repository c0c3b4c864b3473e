/**
 * gopkg.in/evanphx/json-patch.v4 v4.12.0's behaviour beyond what the recorded kubectl cases
 * (verbs/testdata/conformance/patch-local-*) show: read off patch.go, case by case.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPatch, JsonPatchDecodeError, JsonPatchError } from './json-patch.js';
import type { JsonValue } from './merge.js';

const doc = { a: { b: [1, 2, 3] }, n: null, s: 'x' } as JsonValue;

const cases: { name: string; ops: JsonValue; want?: JsonValue; error?: string }[] = [
  { name: 'remove at a negative index counts from the end', ops: [{ op: 'remove', path: '/a/b/-1' }], want: { a: { b: [1, 2] }, n: null, s: 'x' } },
  { name: 'remove below the first element is refused', ops: [{ op: 'remove', path: '/a/b/-4' }], error: "error in remove for path: '/a/b/-4': Unable to access invalid index: -4: invalid index referenced" },
  { name: 'an index past int64 is out of range', ops: [{ op: 'add', path: '/a/b/99999999999999999999', value: 0 }], error: "error in add for path: '/a/b/99999999999999999999': value was not a proper array index: '99999999999999999999': strconv.Atoi: parsing \"99999999999999999999\": value out of range" },
  { name: 'test of a missing key against null passes', ops: [{ op: 'test', path: '/nope', value: null }], want: doc },
  { name: 'test of a null value against {} passes (null decodes as an empty object)', ops: [{ op: 'test', path: '/n', value: {} }], want: doc },
  { name: 'test without a value fails', ops: [{ op: 'test', path: '/s' }], error: 'testing value /s failed: test failed' },
  { name: 'test of the whole document', ops: [{ op: 'test', path: '', value: { s: 'x', n: null, a: { b: [1, 2, 3] } } }], want: doc },
  { name: 'replace of the whole document', ops: [{ op: 'replace', path: '', value: { z: 1, y: 2 } }], want: { y: 2, z: 1 } },
  { name: 'replace of the whole document with a scalar changes nothing', ops: [{ op: 'replace', path: '', value: 5 }], want: doc },
  { name: 'a path through a string is missing', ops: [{ op: 'add', path: '/s/x', value: 1 }], error: 'add operation does not apply: doc is missing path: "/s/x": missing value' },
  { name: 'move from a missing parent', ops: [{ op: 'move', from: '/q/r', path: '/t' }], error: 'move operation does not apply: doc is missing from path: /q/r: missing value' },
  { name: 'move without from', ops: [{ op: 'move', path: '/t' }], error: 'move operation failed to decode from: operation, missing from field: missing value' },
  { name: 'copy to a missing parent', ops: [{ op: 'copy', from: '/s', path: '/q/r' }], error: 'copy operation does not apply: doc is missing destination path: /q/r: missing value' },
  { name: 'escaped keys', ops: [{ op: 'add', path: '/k~1l~0m', value: 1 }], want: { a: { b: [1, 2, 3] }, 'k/l~m': 1, n: null, s: 'x' } },
  { name: 'an op that is not an object', ops: [1], error: 'json: cannot unmarshal number into Go value of type jsonpatch.Operation' },
  { name: 'a null patch is empty', ops: null, want: doc },
];

for (const c of cases) {
  test(`json patch v4: ${c.name}`, () => {
    if (c.error !== undefined) assert.throws(() => jsonPatch(doc, c.ops), (e: Error) => e instanceof JsonPatchError && e.message === c.error);
    else assert.deepEqual(jsonPatch(doc, c.ops), c.want);
  });
}

test('json patch v4: the objects a path walks through come out with sorted keys, the rest in order', () => {
  const out = jsonPatch({ z: { y: 1, x: 2 }, b: { d: 1, c: 2 } }, [{ op: 'add', path: '/z/w', value: 0 }]);
  assert.deepEqual(Object.keys(out as object), ['b', 'z']);
  const o = out as { z: object; b: object };
  assert.deepEqual(Object.keys(o.z), ['w', 'x', 'y']);
  assert.deepEqual(Object.keys(o.b), ['d', 'c']);
});

test('json patch v4: a patch that is not an array does not decode', () => {
  assert.throws(() => jsonPatch({}, 'x'), (e: Error) => e instanceof JsonPatchDecodeError && e.message === 'json: cannot unmarshal string into Go value of type jsonpatch.Patch');
});
