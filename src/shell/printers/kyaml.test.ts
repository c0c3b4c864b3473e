import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toKyaml } from './kyaml.js';

// recorded from kubectl v1.35.2: create configmap y --from-literal=x=$'a\nb' --dry-run=client -o kyaml
test('kyaml folds multi-line strings with line continuations', () => {
  const got = toKyaml({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'y' }, data: { x: 'a\nb' } });
  assert.equal(got, '---\n{\n  kind: "ConfigMap",\n  apiVersion: "v1",\n  metadata: {\n    name: "y",\n  },\n  data: {\n    x: "\\\n       a\\n\\\n       b\\\n      ",\n  },\n}\n');
});

test('kyaml escapes leading whitespace of a folded line and ends after a trailing newline', () => {
  assert.equal(toKyaml({ s: 'a\n b\n' }), '---\n{\n  s: "\\\n     a\\n\\\n    \\ b\\n\\\n    ",\n}\n');
});

test('kyaml cuddles lists of maps and lists scalars one per line', () => {
  assert.equal(toKyaml({ l: [{ a: 1 }, { b: true }], s: ['x', 2, null], e: [], m: {} }), '---\n{\n  l: [{\n    a: 1,\n  }, {\n    b: true,\n  }],\n  s: [\n    "x",\n    2,\n    null,\n  ],\n  e: [],\n  m: {},\n}\n');
});
