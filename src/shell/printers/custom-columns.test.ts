import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCustomColumnsFile, parseCustomColumnsSpec, printCustomColumns, relaxedJsonPathExpression } from './custom-columns.js';
import { generic, node, pod } from './testing/factories.js';

function run(spec: string, objs: Parameters<typeof printCustomColumns>[0]): string {
  const cols = parseCustomColumnsSpec(spec);
  assert.ok(cols.ok);
  const out = printCustomColumns(objs, cols.value);
  assert.ok(out.ok);
  return out.value;
}

test('seed 000: nodes NAME/PODCIDR', () => {
  const nodes = [
    node('cka-cp1', '192.168.122.11', { controlPlane: true, podCIDR: '10.244.0.0/24' }),
    node('cka-w1', '192.168.122.21', { podCIDR: '10.244.1.0/24' }),
    node('cka-w2', '192.168.122.22', { podCIDR: '10.244.2.0/24' }),
  ];
  assert.equal(
    run('NAME:.metadata.name,PODCIDR:.spec.podCIDR', nodes),
    'NAME      PODCIDR\ncka-cp1   10.244.0.0/24\ncka-w1    10.244.1.0/24\ncka-w2    10.244.2.0/24\n',
  );
});

test('seed 000: Calico blockaffinities NODE/CIDR', () => {
  const ba = (n: string, cidr: string): ReturnType<typeof generic> =>
    generic('crd.projectcalico.org/v1', 'BlockAffinity', `${n}-${cidr.replace(/[./]/g, '-')}`, {
      spec: { cidr, deleted: 'false', node: n, state: 'confirmed' },
    });
  assert.equal(
    run('NODE:.spec.node,CIDR:.spec.cidr', [ba('cka-cp1', '10.244.212.128/26'), ba('cka-w1', '10.244.95.128/26'), ba('cka-w2', '10.244.62.128/26')]),
    'NODE      CIDR\ncka-cp1   10.244.212.128/26\ncka-w1    10.244.95.128/26\ncka-w2    10.244.62.128/26\n',
  );
});

test('custom-columns: <none>, several matches joined by comma, maps as Go fmt, {} paths', () => {
  const p = pod('web', { labels: { app: 'web', tier: 'fe' } });
  p.spec.containers.push({ name: 'sidecar', image: 'busybox' });
  assert.equal(
    run('NAME:{.metadata.name},IMAGES:.spec.containers[*].image,X:.spec.nothing,LABELS:metadata.labels', [p]),
    'NAME   IMAGES               X        LABELS\nweb    nginx:1.25,busybox   <none>   map[app:web tier:fe]\n',
  );
});

test('custom-columns: spec errors', () => {
  assert.deepEqual(parseCustomColumnsSpec(''), { ok: false, error: 'custom-columns format specified but no custom columns given' });
  assert.deepEqual(parseCustomColumnsSpec('NAME'), { ok: false, error: 'unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>' });
  assert.deepEqual(relaxedJsonPathExpression('{.a'), {
    ok: false,
    error: "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
  });
  assert.deepEqual(relaxedJsonPathExpression('{.a.b}'), { ok: true, value: '{.a.b}' });
  assert.deepEqual(relaxedJsonPathExpression('a.b'), { ok: true, value: '{.a.b}' });
});

test('custom-columns-file', () => {
  const cols = parseCustomColumnsFile('NAME          PODCIDR\n.metadata.name   .spec.podCIDR\n');
  assert.deepEqual(cols, { ok: true, value: [{ header: 'NAME', fieldSpec: '{.metadata.name}' }, { header: 'PODCIDR', fieldSpec: '{.spec.podCIDR}' }] });
  assert.deepEqual(parseCustomColumnsFile('A B\n.x\n'), { ok: false, error: "number of headers (2) and field specifications (1) don't match" });
});
