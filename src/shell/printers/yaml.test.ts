import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assertGolden, goldenPath } from '../../testing/golden.js';
import type { KObject } from '../../sim/api/types.js';
import { printJson } from './json.js';
import { printYaml, resolvesToNonString, toYaml } from './yaml.js';
import type { Json } from './serialize.js';

const strip = (s: string): string =>
  s
    .split('\n')
    .map((l) => l.trimStart())
    .join('\n');

/** Seed 004 command output, copied verbatim into testdata (the web page collapsed indentation). */
function seedOutput(name: string): string {
  return readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');
}

function seedServices(): KObject[] {
  const lac = (name: string, app: string, port: number, target: string): string =>
    `{"apiVersion":"v1","kind":"Service","metadata":{"annotations":{},"labels":{"addonmanager.kubernetes.io/mode":"Reconcile","k8s-app":"${app}","kubernetes.io/cluster-service":"true","kubernetes.io/name":"${name}"},"name":"${app}","namespace":"kube-system"},"spec":{"ports":[{"port":${port},"protocol":"TCP","targetPort":"${target}"}],"selector":{"k8s-app":"${app}"}}}\n`;
  // Deliberately out of alphabetical key order: the printer must sort like an unstructured object.
  const addon = (app: string, display: string, ip: string, port: number, target: string, rv: string, uid: string): KObject => ({
    kind: 'Service',
    apiVersion: 'v1',
    metadata: {
      name: app,
      namespace: 'kube-system',
      uid,
      resourceVersion: rv,
      selfLink: `/api/v1/namespaces/kube-system/services/${app}`,
      creationTimestamp: '2019-09-02T09:56:16Z',
      labels: { 'k8s-app': app, 'addonmanager.kubernetes.io/mode': 'Reconcile', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': display },
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lac(display, app, port, target) },
    } as KObject['metadata'],
    spec: { type: 'ClusterIP', clusterIP: ip, ports: [{ protocol: 'TCP', port, targetPort: target }], selector: { 'k8s-app': app }, sessionAffinity: 'None' },
    status: { loadBalancer: {} },
  });
  return [
    addon('elasticsearch-logging', 'Elasticsearch', '10.244.212.106', 9200, 'db', '310', '9f70b6ea-450b-4f6a-82ef-f80b4a3b01d8'),
    addon('kibana-logging', 'Kibana', '10.244.117.119', 5601, 'ui', '302', '59d4e98b-fa58-461d-a136-2e35814d554f'),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
        creationTimestamp: '2019-09-02T09:56:10Z',
        labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'KubeDNS' },
        name: 'kube-dns',
        namespace: 'kube-system',
        resourceVersion: '206',
        selfLink: '/api/v1/namespaces/kube-system/services/kube-dns',
        uid: 'e875967b-0284-43b4-9dae-523ab56d24e4',
      } as KObject['metadata'],
      spec: {
        clusterIP: '10.244.0.10',
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
        selector: { 'k8s-app': 'kube-dns' },
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    },
  ];
}

test('seed 004: get svc -n kube-system -o yaml (a List, keys sorted, literal block, quoting)', () => {
  const out = printYaml(seedServices(), true);
  // The old cluster of the seed also printed `selfLink: ""` in the list metadata; v1.35 does not.
  const want = strip(seedOutput('seed004-svc-list.seed.txt')).replace('resourceVersion: ""\nselfLink: ""\n', 'resourceVersion: ""\n');
  assert.equal(strip(out), want);
  assertGolden(goldenPath(import.meta.url, 'seed004-svc-list.yaml'), out);
  assert.ok(out.includes('    annotations:\n      kubectl.kubernetes.io/last-applied-configuration: |\n        {"apiVersion":"v1"'));
  assert.ok(out.includes('    ports:\n    - port: 9200\n      protocol: TCP\n      targetPort: db\n'));
});

test('seed 004: get pod -o yaml of a CoreDNS pod', () => {
  const want = strip(seedOutput('seed004-coredns-pod.seed.txt'));
  // The object as the API server stores it (struct field order, not sorted) — see testdata.
  const pod = JSON.parse(readFileSync(new URL('./testdata/seed004-coredns-pod.json', import.meta.url), 'utf8')) as KObject;
  const out = printYaml([pod], false);
  assert.equal(strip(out), want);
  assertGolden(goldenPath(import.meta.url, 'seed004-coredns-pod.yaml'), out);
});

const scalarCases: { v: string; want: string }[] = [
  { v: '9153', want: 'x: "9153"\n' },
  { v: 'true', want: 'x: "true"\n' },
  { v: 'yes', want: 'x: "yes"\n' },
  { v: 'on', want: 'x: "on"\n' },
  { v: '', want: 'x: ""\n' },
  { v: '*', want: "x: '*'\n" },
  { v: '*/1 * * * *', want: "x: '*/1 * * * *'\n" },
  { v: '2019-09-02T09:56:16Z', want: 'x: "2019-09-02T09:56:16Z"\n' },
  { v: '1.5', want: 'x: "1.5"\n' },
  { v: '0x1F', want: 'x: "0x1F"\n' },
  { v: '1:20', want: 'x: "1:20"\n' },
  { v: 'mode: ""', want: "x: 'mode: \"\"'\n" },
  { v: 'a: b', want: "x: 'a: b'\n" },
  { v: 'trailing:', want: "x: 'trailing:'\n" },
  { v: ' lead', want: "x: ' lead'\n" },
  { v: "it's", want: "x: it's\n" },
  { v: 'a #b', want: "x: 'a #b'\n" },
  { v: 'a#b', want: 'x: a#b\n' },
  { v: 'line1\nline2', want: 'x: |-\n  line1\n  line2\n' },
  { v: 'line1\n', want: 'x: |\n  line1\n' },
  { v: 'a\n\n', want: 'x: |+\n  a\n\n' },
  { v: 'a \nb', want: 'x: "a \\nb"\n' },
  { v: 'tab\there', want: 'x: "tab\\there"\n' },
  { v: '10.244.0.0/16', want: 'x: 10.244.0.0/16\n' },
  { v: 'v1.35.0', want: 'x: v1.35.0\n' },
  { v: '-conf', want: 'x: -conf\n' },
  { v: '-', want: "x: '-'\n" },
  { v: 'null', want: 'x: "null"\n' },
  { v: '~', want: 'x: "~"\n' },
];

for (const c of scalarCases) {
  test(`yaml scalar ${JSON.stringify(c.v)}`, () => {
    assert.equal(toYaml({ x: c.v }), c.want);
  });
}

test('yaml: nested sequences, empty collections, null, numbers', () => {
  assert.equal(
    toYaml({ a: [], b: {}, c: null, d: [[1, 2], { e: 'f', g: [true] }, {}], h: 1.5 }),
    'a: []\nb: {}\nc: null\nd:\n- - 1\n  - 2\n- e: f\n  g:\n  - true\n- {}\nh: 1.5\n',
  );
  assert.equal(resolvesToNonString('1_000'), true);
  assert.equal(resolvesToNonString('abc'), false);
});

test('json: 4-space indent, sorted keys, HTML-safe escapes, List wrapper', () => {
  const obj: KObject = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: 'default' }, data: { z: '<none> & more', a: '' } };
  assert.equal(
    printJson([obj], false),
    '{\n    "apiVersion": "v1",\n    "data": {\n        "a": "",\n        "z": "\\u003cnone\\u003e \\u0026 more"\n    },\n    "kind": "ConfigMap",\n    "metadata": {\n        "name": "a",\n        "namespace": "default"\n    }\n}\n',
  );
  assert.equal(
    printJson([], true),
    '{\n    "apiVersion": "v1",\n    "items": [],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n',
  );
  assert.ok(printJson([obj], false, { sortKeys: false }).startsWith('{\n    "kind": "ConfigMap",\n    "apiVersion": "v1"'));
});

// Recorded from the real kubectl v1.35 (`create configmap … --from-literal` and `create job … --
// sh -c …`, `--dry-run=client -o yaml`): go-yaml v2 folds long values at a space once the line
// passes 80 columns, in plain, single- and double-quoted styles, continuing two columns deeper
// than the key (or the sequence dash); a run of spaces is never broken in a plain scalar, and a
// double-quoted break before a space keeps it with `\ `.
const LONG = 'this is a very long value with many words that goes well beyond the eighty character limit of the yaml emitter for sure';
const foldCases: { name: string; golden: string; doc: Json }[] = [
  {
    name: 'plain, single-quoted, double-quoted and unbreakable values',
    golden: 'fold-configmap.yaml',
    doc: {
      apiVersion: 'v1',
      data: {
        d: 'double  spaces  everywhere  in  this  long  value  that  is  over  eighty  columns  wide  yes  indeed',
        k: `${LONG} and then some more words to wrap twice over the limit again`,
        q: `*${LONG} and then some more words to wrap twice over the limit again`,
        t: `tab\there ${LONG} and then some more words to wrap twice over the limit again`,
      },
      kind: 'ConfigMap',
      metadata: { name: 'x' },
    },
  },
  {
    name: 'a double-quoted break before a run of spaces',
    golden: 'fold-configmap-spaces.yaml',
    doc: {
      apiVersion: 'v1',
      data: { t: 'tab\there aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn  oooo  pppp  qqqq  rrrr  ssss  tttt  uuuu  vvvv  wwww  xxxx  yyyy  zzzz' },
      kind: 'ConfigMap',
      metadata: { name: 'y' },
    },
  },
];
for (const c of foldCases) {
  test(`yaml folding: ${c.name}`, () => {
    assert.equal(toYaml(c.doc), readFileSync(new URL(`./testdata/${c.golden}`, import.meta.url), 'utf8'));
  });
}

test('yaml folding: a long sequence item continues under its text', () => {
  const job = readFileSync(new URL('./testdata/fold-job.yaml', import.meta.url), 'utf8');
  const item = 'echo this is a very long value with many words that goes well beyond the eighty character limit of the yaml emitter for sure and then some more words; sleep 3600';
  const out = toYaml({ spec: { template: { spec: { containers: [{ command: ['sh', '-c', item], image: 'busybox' }] } } } });
  const lines = (text: string): string[] => text.split('\n').filter((l) => l.includes('- echo') || l.startsWith('          eighty') || l.startsWith('          sleep'));
  assert.deepEqual(lines(out), lines(job));
  assert.equal(lines(job).length, 3);
});
