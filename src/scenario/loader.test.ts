/** Load errors name file:line:column and suggest the nearest valid key or value. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLoadError, loadLibrary, parseScenario } from './loader.js';
import { readFileSync } from 'node:fs';

const GOOD = `id: demo
title: Demo
domain: services-networking
competency: Services
topics: [service]
difficulty: easy
weight: 2
minutes: 3
fixture: kubeadm-calico
params:
  ns: {pick: [a, b]}
setup:
- apply: |
    apiVersion: v1
    kind: Namespace
    metadata: {name: {{ns}}}
- advance: 10s
task: Do it in {{ns}}.
hints: [Look around.]
solution: ['kubectl create ns x']
explanation: Because.
mutations:
- {id: m1, run: ['true'], fails: [ns-exists]}
checks:
- id: ns-exists
  kind: resource
  description: the namespace exists
  target: {kind: Namespace, name: '{{ns}}'}
  jsonpath: '{.metadata.name}'
  expect: {equals: '{{ns}}'}
`;

const CASES: { name: string; edit: [string, string]; errors: string[] }[] = [
  { name: 'unknown top-level key', edit: ['\nhints:', '\nhint:'], errors: ['demo.yaml:19:1: unknown key "hint" (did you mean "hints"?)'] },
  { name: 'unknown check key', edit: ["  jsonpath: '", "  jsonpth: '"], errors: ['demo.yaml:29:3: unknown key "jsonpth" (did you mean "jsonpath"?)'] },
  {
    name: 'unknown check kind',
    edit: ['kind: resource', 'kind: resorce'],
    errors: ['demo.yaml:26:9: kind: unknown value "resorce" (did you mean "resource"?); expected one of resource, endpoints, http, dns, file, node, command, answer'],
  },
  { name: 'unknown setup step', edit: ['- apply: |', '- aply: |'], errors: ['demo.yaml:13:3: unknown key "aply" (did you mean "apply"?)'] },
  { name: 'unknown param form', edit: ['{pick: [a, b]}', '{pik: [a, b]}'], errors: ['demo.yaml:11:8: unknown key "pik" (did you mean "pick"?)'] },
  { name: 'missing required key', edit: ['difficulty: easy\n', ''], errors: ['demo.yaml:1:1: missing required key "difficulty"'] },
  {
    name: 'bad enum value',
    edit: ['difficulty: easy', 'difficulty: eazy'],
    errors: ['demo.yaml:6:13: difficulty: unknown value "eazy" (did you mean "easy"?); expected one of easy, medium, hard'],
  },
  { name: 'matcher key', edit: ["expect: {equals: '{{ns}}'}", "expect: {equal: '{{ns}}'}"], errors: ['demo.yaml:30:12: unknown key "equal" (did you mean "equals"?)'] },
  { name: 'mutation names a missing check', edit: ['fails: [ns-exists]', 'fails: [ns-exist]'], errors: ['demo.yaml:23:35: mutations[0].fails[0]: no check "ns-exist" (did you mean "ns-exists"?)'] },
  {
    name: 'bad break name',
    edit: ['- advance: 10s', '- break: {name: stop-kubelt, node: cka-w1}'],
    errors: ['demo.yaml:17:17: name: unknown value "stop-kubelt" (did you mean "stop-kubelet"?); expected one of corrupt-corefile, apiserver-flag, stop-kubelet, iptables-rule, remove-cni-config, ip-forward-off, scale'],
  },
  {
    name: 'break with a wrong key',
    edit: ['- advance: 10s', '- break: {name: stop-kubelet, nod: cka-w1}'],
    errors: ['demo.yaml:17:10: missing required key "node"', 'demo.yaml:17:31: unknown key "nod" (did you mean "node"?)'],
  },
  { name: 'YAML syntax error', edit: ['weight: 2', 'weight: [2'], errors: ['demo.yaml:8:1: Flow sequence in block collection must be sufficiently indented and end with a ]'] },
];

test('the untouched demo scenario loads', () => {
  const r = parseScenario(GOOD, 'demo.yaml');
  assert.ok('scenario' in r, JSON.stringify(r));
  assert.equal(r.scenario.wait, '90s', 'defaults applied');
  assert.equal(r.scenario.checks[0]!.points, 1);
});

for (const c of CASES) {
  test(`load error: ${c.name}`, () => {
    assert.ok(GOOD.includes(c.edit[0]), 'the edit applies');
    const r = parseScenario(GOOD.replace(c.edit[0], c.edit[1]), 'demo.yaml');
    assert.ok('errors' in r, 'must not load');
    assert.deepEqual(r.errors.map(formatLoadError), c.errors);
  });
}

test('loadLibrary reports bad files and keeps the good ones', () => {
  const { scenarios, errors } = loadLibrary(new URL('./testdata/library', import.meta.url).pathname);
  assert.deepEqual(scenarios.map((s) => s.id), ['demo']);
  assert.deepEqual(
    errors.map((e) => formatLoadError(e).replace(/^.*testdata\/library\//, '')),
    ['storage/broken.yaml:1:1: missing required key "id"', 'storage/broken.yaml:1:1: unknown key "idd" (did you mean "id"?)', 'troubleshooting/demo.yaml:1:1: domain "services-networking" but the file is in troubleshooting/ (move it to scenarios/services-networking/)'],
  );
});

test('one bad scenario file is a located error, never a crash: huge, alias bomb, deep nesting, a fixture path', () => {
  let bomb = 'a: &a [x, x, x, x, x, x, x, x, x, x]\n';
  for (let i = 1; i < 12; i++) bomb += `b${i}: &b${i} [${Array(10).fill(i === 1 ? '*a' : `*b${i - 1}`).join(', ')}]\n`;
  const cases = [
    { name: 'too large', text: `id: x\n#${'y'.repeat(600 * 1024)}\n`, message: /larger than 512 KiB/ },
    { name: 'alias bomb', text: bomb, message: /Excessive alias count/ },
    { name: 'deep nesting', text: `a: ${'['.repeat(100000)}${']'.repeat(100000)}\n`, message: /nested too deeply|Flow/ },
  ];
  for (const c of cases) {
    const r = parseScenario(c.text, 'x.yaml');
    assert.ok('errors' in r, c.name);
    assert.match(r.errors.map((e) => e.message).join('\n'), c.message, c.name);
  }
  const good = readFileSync(new URL('../../scenarios/troubleshooting/svc-selector-typo.yaml', import.meta.url), 'utf8');
  for (const bad of ['../../etc/passwd', 'kubeadm-calico#x', '/abs/path']) {
    const r = parseScenario(good.replace(/^fixture: .*$/m, `fixture: ${JSON.stringify(bad)}`), 'x.yaml');
    assert.ok('errors' in r && r.errors.some((e) => /a fixture name/.test(e.message)), bad);
  }
});
