import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonPathError, parsedJsonPath, printJsonPath } from './jsonpath.js';
import { documentFor } from './serialize.js';
import { configMap, node, pod } from './testing/factories.js';

const cm = configMap('kube-proxy', 'kube-system', { 'config.conf': 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nmode: ""\n', kubeconfig: 'x' });
const nodes = documentFor([node('cka-cp1', '192.168.122.11', { podCIDR: '10.244.0.0/24' }), node('cka-w1', '192.168.122.21', { podCIDR: '10.244.1.0/24' })], true);
const nginx = pod('nginx', { labels: { run: 'nginx' }, node: 'node01', ip: '10.244.1.4' });

const cases: { name: string; tmpl: string; data: unknown; want: string; allowMissing?: boolean }[] = [
  { name: 'seed 000: escaped dot in a key', tmpl: '{.data.config\\.conf}', data: cm, want: 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nmode: ""\n' },
  { name: 'simple field', tmpl: '{.metadata.name}', data: nginx, want: 'nginx' },
  { name: 'wildcard over items joined by one space', tmpl: '{.items[*].metadata.name}', data: nodes, want: 'cka-cp1 cka-w1' },
  { name: 'index 0', tmpl: '{.items[0].spec.podCIDR}', data: nodes, want: '10.244.0.0/24' },
  { name: 'slice -1:', tmpl: '{.items[-1:].metadata.name}', data: nodes, want: 'cka-w1' },
  {
    name: 'filter',
    tmpl: '{.items[*].status.addresses[?(@.type=="InternalIP")].address}',
    data: nodes,
    want: '192.168.122.11 192.168.122.21',
  },
  {
    name: 'range with newline literal',
    tmpl: '{range .items[*]}{.metadata.name}{"\\t"}{.spec.podCIDR}{"\\n"}{end}',
    data: nodes,
    want: 'cka-cp1\t10.244.0.0/24\ncka-w1\t10.244.1.0/24\n',
  },
  { name: 'map prints as compact JSON with sorted keys', tmpl: '{.metadata.labels}', data: nginx, want: '{"run":"nginx"}' },
  { name: 'text outside braces is literal', tmpl: '.metadata.name', data: nginx, want: '.metadata.name' },
  { name: 'mixed text and actions', tmpl: 'name={.metadata.name} ip={.status.podIP}', data: nginx, want: 'name=nginx ip=10.244.1.4' },
  { name: 'missing key prints nothing', tmpl: '{.spec.foo}', data: nginx, want: '' },
  { name: 'current object', tmpl: '{.metadata.labels.run}{@}', data: { metadata: { labels: { run: 'x' } } }, want: 'x{"metadata":{"labels":{"run":"x"}}}' },
  { name: 'recursive descent', tmpl: '{..podIP}', data: nginx, want: '10.244.1.4' },
  { name: 'bracket dict key', tmpl: "{.metadata.labels['run']}", data: nginx, want: 'nginx' },
  { name: 'union', tmpl: '{.items[0,1].metadata.name}', data: nodes, want: 'cka-cp1 cka-w1' },
  { name: 'numbers and booleans', tmpl: '{.a} {.b}', data: { a: 3, b: true }, want: '3 true' },
  // real kubectl v1.35.2 `label --local -o jsonpath` of a condition whose lastProbeTime is null
  { name: 'null prints as null', tmpl: '{.c[0].t} [{.c[*].t}]', data: { c: [{ t: null }, { t: null }] }, want: 'null [null null]' },
  { name: 'filter on number', tmpl: '{.spec.containers[?(@.n>1)].name}', data: { spec: { containers: [{ n: 1, name: 'a' }, { n: 2, name: 'b' }] } }, want: 'b' },
  { name: 'exists filter', tmpl: '{.x[?(@.y)].z}', data: { x: [{ z: 1 }, { y: 0, z: 2 }] }, want: '2' },
];

for (const c of cases) {
  test(`jsonpath: ${c.name}`, () => {
    const r = printJsonPath(c.tmpl, c.data, c.allowMissing === false ? { allowMissingKeys: false } : {});
    assert.deepEqual(r, { ok: true, text: c.want });
  });
}

const errors: { tmpl: string; want: string; data?: unknown; allowMissing?: boolean }[] = [
  { tmpl: '{.spec.containers[0].name', want: 'error parsing jsonpath {.spec.containers[0].name, unclosed action' },
  { tmpl: '{.items[}', want: 'error parsing jsonpath {.items[}, unterminated array' },
  { tmpl: "{'abc}", want: "error parsing jsonpath {'abc}, unterminated quoted string" },
  { tmpl: '{#}', want: "error parsing jsonpath {#}, unrecognized character in action: U+0023 '#'" },
  { tmpl: '{end}', want: 'error parsing jsonpath {end}, not in range, nothing to end' },
  { tmpl: '{.items[x]}', want: 'error parsing jsonpath {.items[x]}, invalid array index x' },
  { tmpl: '{.a[?(@.b=="c"}', want: 'error parsing jsonpath {.a[?(@.b=="c"}, unterminated filter' },
];

for (const c of errors) {
  test(`jsonpath parse error: ${c.tmpl}`, () => {
    assert.deepEqual(printJsonPath(c.tmpl, {}), { ok: false, error: c.want });
  });
}

test('jsonpath: missing key with --allow-missing-template-keys=false', () => {
  const r = printJsonPath('{.spec.foo}', { spec: { a: 1, b: 'x' } }, { allowMissingKeys: false });
  assert.deepEqual(r, {
    ok: false,
    error:
      'error executing jsonpath "{.spec.foo}": Error executing template: foo is not found. Printing more information for debugging the template:\n' +
      '\ttemplate was:\n\t\t{.spec.foo}\n' +
      '\tobject given to jsonpath engine was:\n\t\tmap[string]interface {}{"spec":map[string]interface {}{"a":1, "b":"x"}}\n\n',
  });
});

test('jsonpath: index out of range is an error even with missing keys allowed', () => {
  const r = printJsonPath('{.items[5]}', { items: [1] });
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /^error executing jsonpath "\{\.items\[5\]\}": Error executing template: array index out of bounds: index 5, length 1\. /);
});

test('jsonpath-as-json', () => {
  assert.deepEqual(printJsonPath('{.items[*].metadata.name}', nodes, { outputJson: true }), { ok: true, text: '[\n    "cka-cp1",\n    "cka-w1"\n]\n' });
});

test('parsedJsonPath: one parse per template, shared read-only by every execution; a bad template throws each time', () => {
  const t = '{range .items[-2:]}{.name}{" "}{end}';
  const jp = parsedJsonPath(t);
  assert.equal(parsedJsonPath(t), jp, 'the same template: the same parsed instance');
  // the negative slice is resolved per array (the evaluator works on copies of the frozen params)
  assert.equal(jp.execute({ items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }), 'b c ');
  assert.equal(jp.execute({ items: [{ name: 'x' }, { name: 'y' }] }), 'x y ');
  assert.equal(printJsonPath(t, { items: [{ name: 'p' }, { name: 'q' }, { name: 'r' }, { name: 's' }] }).ok, true);
  assert.deepEqual(printJsonPath(t, { items: [{ name: 'p' }, { name: 'q' }, { name: 'r' }, { name: 's' }] }), { ok: true, text: 'r s ' });
  assert.throws(() => parsedJsonPath('{.a'), JsonPathError);
  assert.throws(() => parsedJsonPath('{.a'), JsonPathError);
  assert.equal(printJsonPath('{.a', {}).ok, false);
});
