/** Every check kind, passing and failing, against one prepared kubeadm-calico session. */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { CheckSchema } from '../schema.js';
import { instantiate } from '../instance.js';
import { setupSession } from '../session.js';
import { evaluateCheck } from '../grade.js';
import { cloneSession } from '../session.js';
import { readAnswers, recordAnswer } from '../answers.js';
import type { CheckContext } from './types.js';
import type { Session } from '../../shell/session.js';
import { parseScenario } from '../loader.js';
import { podCommands } from '../../shell/commands/registry.js';
import { learnerMessage } from './problems.js';
import { LANGS } from '../lang.js';

const SCENARIO = `
id: checks-fixture
title: checks
domain: services-networking
competency: test
topics: [test]
difficulty: easy
weight: 1
minutes: 1
fixture: kubeadm-calico
setup:
- apply: |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web, namespace: default}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          nodeName: cka-w1
          containers:
          - {name: nginx, image: nginx:1.27, resources: {requests: {memory: 64Mi}}}
    ---
    apiVersion: v1
    kind: Service
    metadata: {name: web, namespace: default}
    spec:
      selector: {app: web}
      ports: [{port: 80, targetPort: 80}]
    ---
    apiVersion: v1
    kind: Pod
    metadata: {name: client, namespace: default}
    spec:
      nodeName: cka-w1
      containers: [{name: client, image: busybox:1.36, command: [sleep, '3600']}]
- file: {host: cka-w1, path: /opt/course/1/out.txt, content: "b\\nA\\n"}
- advance: 30s
task: t
solution: ['true']
explanation: e
checks:
- {id: x, kind: command, description: d, run: 'true', exitCode: 0}
`;

let session: Session;
let ctx: CheckContext;

before(async () => {
  const r = parseScenario(SCENARIO, 'checks-fixture.yaml');
  if ('errors' in r) throw new Error(JSON.stringify(r.errors));
  session = await setupSession(instantiate(r.scenario, 1));
  recordAnswer(session, '  10.96.0.0/12 ');
  const base = cloneSession(session);
  ctx = {
    cluster: base.cluster,
    answers: readAnswers(base.cluster),
    run: async (line, place) => {
      const { runLine } = await import('../setup/shell.js');
      const s = cloneSession(base);
      if (place && 'pod' in place) {
        await s.exec(`kubectl exec -it -n ${place.namespace} ${place.pod} -- sh`);
        const o = await s.exec(line);
        return { transcript: [line], stdout: o.stdout, stderr: o.stderr, exitCode: o.exitCode };
      }
      return runLine(s, line, place?.host, false);
    },
  };
});

interface Case {
  name: string;
  check: Record<string, unknown>;
  ok: boolean;
  /** Skip (with the reason) when a tool another area provides is missing. */
  needs?: string;
  /** Failing cases: the expected value, which the learner's message must not show. */
  hides?: string;
}

const base = { id: 'c', description: 'd' };
const CASES: Case[] = [
  { name: 'resource exists', check: { kind: 'resource', target: { kind: 'Deployment', name: 'web' } }, ok: true },
  { name: 'resource missing', check: { kind: 'resource', target: { kind: 'Deployment', name: 'nope' } }, ok: false },
  { name: 'resource absent ok', check: { kind: 'resource', target: { kind: 'Service', name: 'nope' }, absent: true }, ok: true },
  { name: 'resource absent but exists', check: { kind: 'resource', target: { kind: 'Service', name: 'web' }, absent: true }, ok: false },
  { name: 'jsonpath equals', check: { kind: 'resource', target: { kind: 'Deployment', name: 'web' }, jsonpath: '{.spec.replicas}', expect: { equals: 2 } }, ok: true },
  { name: 'jsonpath equals wrong', check: { kind: 'resource', target: { kind: 'Deployment', name: 'web' }, jsonpath: '{.spec.replicas}', expect: { equals: 3 } }, ok: false, hides: '3' },
  { name: 'jsonpath contains', check: { kind: 'resource', target: { kind: 'Deployment', name: 'web' }, jsonpath: '{.spec.template.spec.containers[0].image}', expect: { contains: 'nginx' } }, ok: true },
  { name: 'jsonpath regex', check: { kind: 'resource', target: { kind: 'Service', name: 'web' }, jsonpath: '{.spec.clusterIP}', expect: { regex: '^10\\.(9[6-9]|1[01][0-9])\\.' } }, ok: true },
  { name: 'jsonpath regex wrong', check: { kind: 'resource', target: { kind: 'Service', name: 'web' }, jsonpath: '{.spec.clusterIP}', expect: { regex: '^192\\.' } }, ok: false, hides: '192' },
  { name: 'set-equals over a list', check: { kind: 'resource', target: { kind: 'Pod', selector: 'app=web' }, jsonpath: '{.items[*].metadata.labels.app}', expect: { setEquals: ['web'] } }, ok: true },
  { name: 'set-equals wrong', check: { kind: 'resource', target: { kind: 'Node' }, jsonpath: '{.items[*].metadata.name}', expect: { setEquals: ['cka-cp1', 'cka-w1'] } }, ok: false },
  { name: 'set-equals nodes', check: { kind: 'resource', target: { kind: 'Node' }, jsonpath: '{.items[*].metadata.name}', expect: { setEquals: ['cka-cp1', 'cka-w1', 'cka-w2'] } }, ok: true },
  { name: 'quantity 64Mi = 67108864', check: { kind: 'resource', target: { kind: 'Deployment', name: 'web' }, jsonpath: '{.spec.template.spec.containers[0].resources.requests.memory}', expect: { quantity: '67108864' } }, ok: true },
  { name: 'quantity wrong', check: { kind: 'resource', target: { kind: 'Deployment', name: 'web' }, jsonpath: '{.spec.template.spec.containers[0].resources.requests.memory}', expect: { quantity: '64M' } }, ok: false, hides: '64M"' },
  { name: 'endpoints ready 2', check: { kind: 'endpoints', service: { name: 'web' }, ready: 2 }, ok: true },
  { name: 'endpoints ready 3', check: { kind: 'endpoints', service: { name: 'web' }, ready: 3 }, ok: false, hides: '3' },
  { name: 'endpoints of a missing service', check: { kind: 'endpoints', service: { name: 'nope' }, minReady: 0 }, ok: false },
  { name: 'file sorted, case-folded', check: { kind: 'file', host: 'cka-w1', path: '/opt/course/1/out.txt', expect: { equals: 'a\nb', normalize: ['trim', 'ignore-case', 'sort-lines'] } }, ok: true },
  { name: 'file unsorted differs', check: { kind: 'file', host: 'cka-w1', path: '/opt/course/1/out.txt', expect: { equals: 'a\nb' } }, ok: false, hides: 'a\\nb' },
  { name: 'file missing', check: { kind: 'file', host: 'cka-w2', path: '/opt/course/1/out.txt' }, ok: false },
  { name: 'node flag', check: { kind: 'node', node: 'cka-cp1', staticPodFlag: { component: 'kube-apiserver', flag: 'service-cluster-ip-range' }, expect: { equals: '10.96.0.0/12' } }, ok: true },
  { name: 'node flag unset', check: { kind: 'node', node: 'cka-cp1', staticPodFlag: { component: 'kube-apiserver', flag: 'no-such-flag' }, expect: { regex: '.*' } }, ok: false },
  { name: 'node sysctl differs', check: { kind: 'node', node: 'cka-w2', sysctl: 'net.ipv4.ip_forward', expect: { equals: '0' } }, ok: false, hides: '0' },
  { name: 'node sysctl on', check: { kind: 'node', node: 'cka-w1', sysctl: 'net.ipv4.ip_forward', expect: { equals: '1' } }, ok: true },
  { name: 'node unit state differs', check: { kind: 'node', node: 'cka-w2', unit: 'kubelet', expect: { equals: 'inactive' } }, ok: false, hides: 'inactive' },
  { name: 'node unit active', check: { kind: 'node', node: 'cka-w1', unit: 'kubelet', expect: { equals: 'active' } }, ok: true },
  { name: 'node unit enabled', check: { kind: 'node', node: 'cka-w2', unitEnabled: 'kubelet', expect: { equals: 'enabled' } }, ok: true },
  { name: 'node kubelet config list', check: { kind: 'node', node: 'cka-w1', kubeletConfig: 'clusterDNS', expect: { equals: '10.96.0.10' } }, ok: true },
  { name: 'node kubelet config nested', check: { kind: 'node', node: 'cka-w1', kubeletConfig: 'authentication/x509/clientCAFile', expect: { equals: '/etc/kubernetes/pki/ca.crt' } }, ok: true },
  { name: 'node kubelet config unset', check: { kind: 'node', node: 'cka-w1', kubeletConfig: 'evictionHard/memory.available', expect: { regex: '.*' } }, ok: false },
  { name: 'node file', check: { kind: 'node', node: 'cka-w2', file: '/etc/sysctl.d/k8s.conf', expect: { contains: 'net.ipv4.ip_forward = 1' } }, ok: true },
  { name: 'command output', check: { kind: 'command', run: 'hostname', expect: { equals: 'cka-ws' } }, ok: true },
  { name: 'command on a node', check: { kind: 'command', run: 'cat /opt/course/1/out.txt | wc -l', on: { host: 'cka-w1' }, expect: { equals: '2' } }, ok: true },
  { name: 'command exit code', check: { kind: 'command', run: 'cat /nope', exitCode: 0 }, ok: false },
  { name: 'answer typed', check: { kind: 'answer', expect: { equals: '10.96.0.0/12' } }, ok: true },
  { name: 'answer wrong', check: { kind: 'answer', expect: { regex: '^10\\.244\\.' } }, ok: false, hides: '244' },
  { name: 'answer from file (other key)', check: { kind: 'answer', key: 'other', file: { host: 'cka-w1', path: '/opt/course/1/out.txt' }, expect: { contains: 'A' } }, ok: true },
  { name: 'answer missing', check: { kind: 'answer', key: 'other', expect: { contains: 'A' } }, ok: false },
  { name: 'http to the service', check: { kind: 'http', from: { pod: 'client' }, url: 'http://web.default.svc.cluster.local/', body: { contains: 'Welcome to nginx' } }, ok: true, needs: 'wget' },
  { name: 'http to a closed port', check: { kind: 'http', from: { pod: 'client' }, url: 'http://web.default.svc.cluster.local:81/' }, ok: false, needs: 'wget' },
  { name: 'http expected to fail', check: { kind: 'http', from: { pod: 'client' }, url: 'http://web.default.svc.cluster.local:81/', succeeds: false }, ok: true, needs: 'wget' },
  { name: 'dns service name', check: { kind: 'dns', from: { pod: 'client' }, name: 'kubernetes.default.svc.cluster.local', expect: { answers: ['10.96.0.1'] } }, ok: true, needs: 'nslookup' },
  { name: 'dns nxdomain expected', check: { kind: 'dns', from: { pod: 'client' }, name: 'nope.default.svc.cluster.local', expect: { rcode: 'NXDOMAIN' } }, ok: true, needs: 'nslookup' },
  { name: 'dns wrong answer', check: { kind: 'dns', from: { pod: 'client' }, name: 'kubernetes.default.svc.cluster.local', expect: { answers: ['10.96.0.2'] } }, ok: false, needs: 'nslookup', hides: '10.96.0.2' },
];

for (const c of CASES) {
  test(`${c.check['kind']}: ${c.name}`, async (t) => {
    if (c.needs && !podCommands[c.needs]) return t.skip(`${c.needs} is not in src/shell/commands/pod yet`);
    const spec = CheckSchema.parse({ ...base, ...c.check });
    const out = await evaluateCheck(spec, ctx);
    assert.equal(out.ok, c.ok, `${out.expected} / ${out.actual}\n${out.evidence.join('\n')}`);
    assert.ok(out.expected.length > 0);
    if (!c.ok) assert.ok(out.actual.length > 0, 'a failure says what it saw');
    if (c.ok) return;
    // the learner's message, in every language: what is wrong, never the expected value
    const said = LANGS.map((lang) => learnerMessage(out.problem, lang));
    for (const [i, m] of said.entries()) {
      assert.ok(m.length > 0, LANGS[i]);
      assert.doesNotMatch(m, /expected|equals|matches \/|the set \{|quantity|期待|期望/, `${LANGS[i]}: ${m}`);
      if (c.hides) assert.ok(!m.includes(c.hides), `${LANGS[i]} shows the expected ${c.hides}: ${m}`);
    }
    assert.equal(new Set(said).size, LANGS.length, `one wording per language: ${said.join(' | ')}`);
    assert.ok(out.expected.length > 0 && !said.includes(out.expected));
  });
}

test('every check kind is covered by a passing and a failing case', () => {
  const kinds = ['resource', 'endpoints', 'http', 'dns', 'file', 'node', 'command', 'answer'];
  for (const k of kinds) {
    assert.ok(CASES.some((c) => c.check['kind'] === k && c.ok), `${k} passing`);
    assert.ok(CASES.some((c) => c.check['kind'] === k && !c.ok), `${k} failing`);
  }
});

test('node: a kubelet restarting on a config it cannot load is activating, not active (what systemctl is-active prints)', async () => {
  const s = cloneSession(session);
  for (const line of ['ssh cka-w1', "echo 'clusterDNS: [' >> /var/lib/kubelet/config.yaml", 'systemctl restart kubelet', 'exit']) await s.exec(line);
  const own: CheckContext = { ...ctx, cluster: s.cluster };
  const spec = CheckSchema.parse({ ...base, kind: 'node', node: 'cka-w1', unit: 'kubelet', expect: { equals: 'active' } });
  const out = await evaluateCheck(spec, own);
  assert.deepEqual([out.ok, out.actual], [false, 'activating']);
});
