/**
 * The admission plugins' texts, table by table, against the upstream sources each message is
 * copied from (cited per table). Every case builds a namespace in a fresh store and runs the
 * whole chain as the API server does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../store.js';
import type { Container, KObject, Pod } from '../types.js';
import { admitMutating, admitValidating, type AdmissionAttributes } from './index.js';
import { defaultLimitRange, type LimitRange, type LimitRangeItem } from './limitranger.js';
import { quotaUsage, type ResourceQuota } from './resourcequota.js';
import { ApiError } from '../errors.js';

function pod(name: string, containers: Partial<Container>[], spec: Record<string, unknown> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { containers: containers.map((c, i) => ({ name: `c${i}`, image: 'nginx', ...c })), ...spec } } as Pod;
}

function store(objs: KObject[], nsLabels: Record<string, string> = {}): Store {
  const s = new Store();
  s.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: nsLabels } });
  // the serviceaccount controller's `default` account, which the ServiceAccount plugin looks up
  if (!objs.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'default')) s.put({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'ns' } });
  for (const o of objs) s.put(o);
  return s;
}

function limitRange(...limits: LimitRangeItem[]): LimitRange {
  const lr: LimitRange = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } };
  defaultLimitRange(lr);
  return lr;
}

function quota(name: string, hard: Record<string, string>, scopes?: string[]): ResourceQuota {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec: { hard, ...(scopes ? { scopes } : {}) } };
}

/** Runs the chain; the Forbidden message or 'admitted', and the warnings. */
function admit(s: Store, obj: KObject): { result: string; warnings: string[]; obj: KObject } {
  const a: AdmissionAttributes = { operation: 'CREATE', obj, namespace: 'ns', store: s, warnings: [] };
  try {
    admitMutating(a);
    admitValidating(a);
    return { result: 'admitted', warnings: a.warnings, obj };
  } catch (e) {
    assert.ok(e instanceof ApiError && e.reason === 'Forbidden' && e.code === 403);
    return { result: e.message, warnings: a.warnings, obj };
  }
}

const res = (requests?: Record<string, string>, limits?: Record<string, string>): Partial<Container> => ({ resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } });

// plugin/pkg/admission/limitranger/admission.go: minConstraint, maxConstraint, limitRequestRatioConstraint,
// maxRequestConstraint; the aggregate of several is utilerrors.NewAggregate's `[a, b]`.
const LIMIT_CASES: { name: string; lr: LimitRangeItem[]; pod: Pod; want: string }[] = [
  { name: 'container max, limit above', lr: [{ type: 'Container', max: { cpu: '500m' } }], pod: pod('x', [res({ cpu: '100m' }, { cpu: '1' })]), want: 'pods "x" is forbidden: maximum cpu usage per Container is 500m, but limit is 1' },
  { name: 'container max, request above', lr: [{ type: 'Container', max: { memory: '1Gi' }, default: { memory: '1Gi' } }], pod: pod('x', [res({ memory: '2Gi' })]), want: 'pods "x" is forbidden: maximum memory usage per Container is 1Gi, but request is 2Gi' },
  { name: 'container min, request below', lr: [{ type: 'Container', min: { cpu: '200m' } }], pod: pod('x', [res({ cpu: '100m' })]), want: 'pods "x" is forbidden: minimum cpu usage per Container is 200m, but request is 100m' },
  { name: 'container min: the request defaults to it, the limit is below', lr: [{ type: 'Container', min: { memory: '64Mi' } }], pod: pod('x', [res(undefined, { memory: '32Mi' })]), want: 'pods "x" is forbidden: minimum memory usage per Container is 64Mi, but limit is 32Mi' },
  { name: 'ratio', lr: [{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }], pod: pod('x', [res({ cpu: '100m' }, { cpu: '500m' })]), want: 'pods "x" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000' },
  { name: 'ratio without a limit', lr: [{ type: 'Container', maxLimitRequestRatio: { memory: '2' } }], pod: pod('x', [res({ memory: '100Mi' })]), want: 'pods "x" is forbidden: memory max limit to request ratio per Container is 2, but no limit is specified or limit is 0' },
  { name: 'pod max over the sum', lr: [{ type: 'Pod', max: { cpu: '1' } }], pod: pod('x', [res({ cpu: '600m' }, { cpu: '600m' }), res({ cpu: '600m' }, { cpu: '600m' })]), want: 'pods "x" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m' },
  { name: 'pod max without limits', lr: [{ type: 'Pod', max: { memory: '1Gi' } }], pod: pod('x', [{}]), want: 'pods "x" is forbidden: maximum memory usage per Pod is 1Gi.  No limit is specified' },
  { name: 'several at once', lr: [{ type: 'Container', max: { cpu: '1', memory: '1Gi' } }], pod: pod('x', [res(undefined, { cpu: '2', memory: '2Gi' })]), want: 'pods "x" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]' },
  { name: 'within bounds', lr: [{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' } }], pod: pod('x', [res({ cpu: '200m' }, { cpu: '500m' })]), want: 'admitted' },
];

for (const c of LIMIT_CASES) {
  test(`LimitRanger: ${c.name}`, () => {
    assert.equal(admit(store([limitRange(...c.lr)]), c.pod).result, c.want);
  });
}

test('LimitRanger defaults requests and limits, records them in its annotation, and the QoS class follows', () => {
  const s = store([limitRange({ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '250m' } })]);
  const { result, obj } = admit(s, pod('x', [res(undefined, { memory: '128Mi' })]));
  assert.equal(result, 'admitted');
  const p = obj as Pod;
  assert.deepEqual(p.spec.containers[0]!.resources, { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '128Mi', cpu: '500m' } });
  assert.equal(p.metadata.annotations?.['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container c0; cpu limit for container c0');
  assert.equal(p.status?.qosClass, 'Burstable');
});

test('LimitRange defaulting: default from max, defaultRequest from default, then from min', () => {
  const lr = limitRange({ type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' } });
  assert.deepEqual(lr.spec.limits[0], { type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' }, default: { cpu: '1' }, defaultRequest: { cpu: '1', memory: '64Mi' } });
});

test('LimitRanger: PersistentVolumeClaim storage min and max', () => {
  const s = store([limitRange({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '5Gi' } })]);
  const claim = (size: string): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'ns' }, spec: { resources: { requests: { storage: size } } } });
  assert.equal(admit(s, claim('10Gi')).result, 'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 5Gi, but request is 10Gi');
  assert.equal(admit(s, claim('500Mi')).result, 'persistentvolumeclaims "data" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
  assert.equal(admit(s, claim('2Gi')).result, 'admitted');
});

// staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go (checkRequest,
// prettyPrint) and pkg/quota/v1/evaluator/core/pods.go (Constraints).
const running = (name: string, c: Partial<Container>): Pod => ({ ...pod(name, [c]), status: { phase: 'Running' } }) as Pod;
const QUOTA_CASES: { name: string; objs: KObject[]; obj: KObject; want: string }[] = [
  { name: 'cpu requests over', objs: [quota('q', { 'requests.cpu': '1' }), running('a', res({ cpu: '800m' }))], obj: pod('x', [res({ cpu: '500m' })]), want: 'pods "x" is forbidden: exceeded quota: q, requested: requests.cpu=500m, used: requests.cpu=800m, limited: requests.cpu=1' },
  { name: 'only the exceeded names are listed', objs: [quota('q', { pods: '1', 'requests.memory': '1Gi' }), running('a', res({ memory: '128Mi' }))], obj: pod('x', [res({ memory: '128Mi' })]), want: 'pods "x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1' },
  { name: 'limits must be named', objs: [quota('q', { 'limits.cpu': '2', 'limits.memory': '1Gi' })], obj: pod('x', [res({ cpu: '1' }), {}]), want: 'pods "x" is forbidden: failed quota: q: must specify limits.cpu for: c0,c1; limits.memory for: c0,c1' },
  { name: 'finished pods do not count', objs: [quota('q', { pods: '1' }), { ...pod('done', [{}]), status: { phase: 'Succeeded' } } as Pod], obj: pod('x', [{}]), want: 'admitted' },
  { name: 'object counts', objs: [quota('q', { 'count/configmaps': '1' }), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } }], obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'ns' } }, want: 'configmaps "b" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1' },
  { name: 'services.nodeports', objs: [quota('q', { 'services.nodeports': '0' })], obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'ns' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } }, want: 'services "s" is forbidden: exceeded quota: q, requested: services.nodeports=1, used: services.nodeports=0, limited: services.nodeports=0' },
  { name: 'claim storage', objs: [quota('q', { 'requests.storage': '5Gi' })], obj: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'd', namespace: 'ns' }, spec: { resources: { requests: { storage: '10Gi' } } } }, want: 'persistentvolumeclaims "d" is forbidden: exceeded quota: q, requested: requests.storage=10Gi, used: requests.storage=0, limited: requests.storage=5Gi' },
  { name: 'a BestEffort-scoped quota ignores burstable pods', objs: [quota('q', { pods: '0' }, ['BestEffort'])], obj: pod('x', [res({ cpu: '1' })]), want: 'admitted' },
  { name: 'a generated name is the name in the message', objs: [quota('q', { pods: '0' })], obj: { ...pod('', [{}]), metadata: { name: '', generateName: 'web-abc-', namespace: 'ns' } } as Pod, want: 'pods "web-abc-" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0' },
];

for (const c of QUOTA_CASES) {
  test(`ResourceQuota: ${c.name}`, () => {
    assert.equal(admit(store(c.objs), c.obj).result, c.want);
  });
}

test('ResourceQuota usage sums what the namespace uses, for the tracked names only', () => {
  const s = store([running('a', res({ cpu: '250m', memory: '64Mi' }, { cpu: '500m', memory: '128Mi' })), running('b', res({ cpu: '250m', memory: '64Mi' }, { cpu: '500m' }))]);
  assert.deepEqual(quotaUsage(s, quota('q', { pods: '5', 'requests.cpu': '2', 'requests.memory': '1Gi', 'limits.cpu': '4', 'limits.memory': '2Gi', secrets: '3' })), {
    pods: '2',
    'requests.cpu': '500m',
    'requests.memory': '128Mi',
    'limits.cpu': '1',
    'limits.memory': '128Mi',
    secrets: '0',
  });
});

// staging/src/k8s.io/pod-security-admission/policy/check_*.go (reasons and details) and
// admission/admission.go (`violates PodSecurity %q: %s`, `would violate PodSecurity %q: %s`).
const ENFORCE = { 'pod-security.kubernetes.io/enforce': 'baseline' };
const RESTRICTED = { 'pod-security.kubernetes.io/enforce': 'restricted' };
const PSA_CASES: { name: string; labels: Record<string, string>; pod: Pod; want: string }[] = [
  { name: 'unlabelled namespaces are privileged', labels: {}, pod: pod('p', [{ securityContext: { privileged: true } }], { hostNetwork: true }), want: 'admitted' },
  { name: 'privileged', labels: ENFORCE, pod: pod('p', [{ securityContext: { privileged: true } }]), want: 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c0" must not set securityContext.privileged=true)' },
  { name: 'host namespaces', labels: ENFORCE, pod: pod('p', [{}], { hostPID: true, hostIPC: true }), want: 'pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true, hostIPC=true)' },
  { name: 'hostPorts of two containers', labels: ENFORCE, pod: pod('p', [{ ports: [{ containerPort: 80, hostPort: 80 }] }, { ports: [{ containerPort: 443, hostPort: 443 }] }]), want: 'pods "p" is forbidden: violates PodSecurity "baseline:latest": hostPort (containers "c0", "c1" use hostPorts 443, 80)' },
  { name: 'capabilities beyond the default set', labels: ENFORCE, pod: pod('p', [{ securityContext: { capabilities: { add: ['SYS_ADMIN', 'CHOWN'] } } }]), want: 'pods "p" is forbidden: violates PodSecurity "baseline:latest": non-default capabilities (container "c0" must not include "SYS_ADMIN" in securityContext.capabilities.add)' },
  { name: 'hostPath volumes', labels: ENFORCE, pod: pod('p', [{}], { volumes: [{ name: 'a', hostPath: { path: '/' } }, { name: 'b', hostPath: { path: '/tmp' } }] }), want: 'pods "p" is forbidden: violates PodSecurity "baseline:latest": hostPath volumes (volumes "a", "b")' },
  { name: 'Unconfined seccomp', labels: ENFORCE, pod: pod('p', [{}], { securityContext: { seccompProfile: { type: 'Unconfined' } } }), want: 'pods "p" is forbidden: violates PodSecurity "baseline:latest": seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")' },
  {
    name: 'a plain pod at restricted',
    labels: RESTRICTED,
    pod: pod('p', [{}]),
    want: 'pods "p" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c0" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c0" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c0" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c0" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  },
  {
    name: 'restricted: baseline reasons first, root and volumes',
    labels: { ...RESTRICTED, 'pod-security.kubernetes.io/enforce-version': 'v1.35' },
    pod: pod('p', [{ securityContext: { privileged: true, runAsUser: 0, runAsNonRoot: false, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } } }], { volumes: [{ name: 'h', hostPath: { path: '/' } }] }),
    want: 'pods "p" is forbidden: violates PodSecurity "restricted:v1.35": privileged (container "c0" must not set securityContext.privileged=true), restricted volume types (volume "h" uses restricted volume type "hostPath"), runAsNonRoot != true (container "c0" must not set securityContext.runAsNonRoot=false), runAsUser=0 (container "c0" must not set runAsUser=0)',
  },
  {
    name: 'a compliant restricted pod',
    labels: RESTRICTED,
    pod: pod('p', [{ securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } } }], { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } }),
    want: 'admitted',
  },
];

for (const c of PSA_CASES) {
  test(`PodSecurity: ${c.name}`, () => {
    assert.equal(admit(store([], c.labels), c.pod).result, c.want);
  });
}

test('PodSecurity warn mode admits with a warning; a workload template is warned about, never refused', () => {
  const warn = { 'pod-security.kubernetes.io/warn': 'baseline' };
  const r = admit(store([], warn), pod('p', [{ securityContext: { privileged: true } }]));
  assert.equal(r.result, 'admitted');
  assert.deepEqual(r.warnings, ['would violate PodSecurity "baseline:latest": privileged (container "c0" must not set securityContext.privileged=true)']);
  const deploy: KObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' }, spec: { template: { spec: { hostNetwork: true, containers: [{ name: 'c', image: 'nginx' }] } } } };
  const d = admit(store([], { ...ENFORCE, ...warn }), deploy);
  assert.equal(d.result, 'admitted');
  assert.deepEqual(d.warnings, ['would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)']);
});

test('PodSecurity refuses namespace labels it cannot parse as Invalid (api/helpers.go PolicyToEvaluate)', () => {
  const s = store([]);
  const ns: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: { 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/audit-version': 'v1.x' } } };
  const a: AdmissionAttributes = { operation: 'UPDATE', obj: ns, old: s.get('Namespace', undefined, 'ns')!, store: s, warnings: [] };
  assert.throws(
    () => admitValidating(a),
    (e: unknown) =>
      e instanceof ApiError &&
      e.reason === 'Invalid' &&
      e.message === 'Namespace "ns" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "v1.x": must be "latest" or "v1.x"]',
  );
});

test('PodSecurity warns about the pods a new enforce level would refuse, reasons only', () => {
  const s = store([pod('web', [{ securityContext: { privileged: true } }]), pod('ok', [{}])]);
  const ns: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
  const a: AdmissionAttributes = { operation: 'UPDATE', obj: ns, old: s.get('Namespace', undefined, 'ns')!, store: s, warnings: [] };
  admitValidating(a);
  assert.deepEqual(a.warnings, ['existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"', 'web: privileged']);
});

test('PodSecurity adds no warn-level warning to a pod it refuses (EvaluatePod: `if response.Allowed`)', () => {
  const labels = { ...ENFORCE, 'pod-security.kubernetes.io/warn': 'restricted' };
  const refused = admit(store([], labels), pod('p', [{ securityContext: { privileged: true } }]));
  assert.match(refused.result, /^pods "p" is forbidden: violates PodSecurity "baseline:latest"/);
  assert.deepEqual(refused.warnings, []);
  const admitted = admit(store([], labels), pod('q', [{}]));
  assert.equal(admitted.result, 'admitted');
  assert.equal(admitted.warnings.length, 1);
  assert.match(admitted.warnings[0]!, /^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
});

const ENF = 'pod-security.kubernetes.io/enforce';
const ENF_V = 'pod-security.kubernetes.io/enforce-version';
const RESTRICTED_REASONS = 'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile';
const privileged = (name: string): Pod => pod(name, [{ securityContext: { privileged: true } }]);
const plain = (name: string): Pod => pod(name, [{}]);
const hostNet = (name: string): Pod => pod(name, [{}], { hostNetwork: true });

// admission.go ValidateNamespace (when to look) and EvaluatePodsInNamespace / decoratePodWarnings (what to say)
const NS_CASES: { name: string; pods: Pod[]; old: Record<string, string>; next: Record<string, string>; op?: 'CREATE'; want: string[] }[] = [
  { name: 'one pod', pods: [privileged('web'), plain('ok')], old: {}, next: { [ENF]: 'baseline' }, want: ['existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"', 'web: privileged'] },
  {
    name: 'pods with the same reasons share one warning, named after the first',
    pods: [plain('solo'), plain('web-b'), plain('web-a'), plain('web-c'), hostNet('hn'), privileged('x1'), privileged('a2')],
    old: {},
    next: { [ENF]: 'restricted' },
    want: [
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
      `a2 (and 1 other pod): privileged, ${RESTRICTED_REASONS}`,
      `hn: host namespaces, ${RESTRICTED_REASONS}`,
      `solo (and 3 other pods): ${RESTRICTED_REASONS}`,
    ],
  },
  { name: 'no violating pod: no header', pods: [plain('ok')], old: {}, next: { [ENF]: 'baseline' }, want: [] },
  { name: 'enforce unchanged', pods: [privileged('web')], old: { [ENF]: 'baseline' }, next: { [ENF]: 'baseline', other: 'x' }, want: [] },
  { name: 'relaxed at the same version', pods: [privileged('web')], old: { [ENF]: 'restricted' }, next: { [ENF]: 'baseline' }, want: [] },
  { name: 'new level privileged', pods: [privileged('web')], old: { [ENF]: 'baseline' }, next: { [ENF]: 'privileged' }, want: [] },
  {
    name: 'relaxed level but a new version: checked',
    pods: [privileged('web')],
    old: { [ENF]: 'restricted' },
    next: { [ENF]: 'baseline', [ENF_V]: 'v1.34' },
    want: ['existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:v1.34"', 'web: privileged'],
  },
  { name: 'a create is never checked against pods', pods: [privileged('web')], old: {}, next: { [ENF]: 'baseline' }, op: 'CREATE', want: [] },
];

for (const c of NS_CASES) {
  test(`PodSecurity namespace update: ${c.name}`, () => {
    const s = store(c.pods, c.old);
    const ns: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: c.next } };
    const a: AdmissionAttributes = c.op === 'CREATE' ? { operation: 'CREATE', obj: ns, store: s, warnings: [] } : { operation: 'UPDATE', obj: ns, old: s.get('Namespace', undefined, 'ns')!, store: s, warnings: [] };
    admitValidating(a);
    assert.deepEqual(a.warnings, c.want);
  });
}

test('PodSecurity: an update that leaves unparseable labels as they were is admitted', () => {
  const bad = { [ENF]: 'strict' };
  const s = store([], bad);
  const ns: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: { ...bad, team: 'a' } } };
  admitValidating({ operation: 'UPDATE', obj: ns, old: s.get('Namespace', undefined, 'ns')!, store: s, warnings: [] });
});

test('ResourceQuota: a pod still terminating past its grace period no longer counts (QuotaV1Pod)', () => {
  const stuck = { ...running('old', {}), metadata: { name: 'old', namespace: 'ns', deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 } } as Pod;
  const s = store([quota('q', { pods: '1' }), stuck]);
  const at = (now: number): string => {
    const a: AdmissionAttributes = { operation: 'CREATE', obj: pod('x', [{}]), namespace: 'ns', store: s, warnings: [], now };
    try {
      admitValidating(a);
      return 'admitted';
    } catch (e) {
      return (e as Error).message;
    }
  };
  assert.equal(at(Date.parse('2026-01-01T00:00:20Z')), 'pods "x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');
  assert.equal(at(Date.parse('2026-01-01T00:00:31Z')), 'admitted');
});

// plugin/pkg/admission/serviceaccount/admission.go (Admit, Validate, shouldAutomount, mountServiceAccountToken, TokenVolumeSource)
const sa = (name: string, extra: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'ns' }, ...extra });
const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const SA_CASES: { name: string; objs: KObject[]; pod: Pod; want: string; volumes: number; mounts: number[] }[] = [
  { name: 'default account, token mounted in every container', objs: [], pod: pod('x', [{}, {}]), want: 'admitted', volumes: 1, mounts: [1, 1] },
  { name: 'an account that does not exist', objs: [], pod: pod('x', [{}], { serviceAccountName: 'robot' }), want: 'pods "x" is forbidden: error looking up service account ns/robot: serviceaccount "robot" not found', volumes: 0, mounts: [0] },
  { name: 'the pod turns automounting off', objs: [], pod: pod('x', [{}], { automountServiceAccountToken: false }), want: 'admitted', volumes: 0, mounts: [0] },
  { name: 'the account turns it off', objs: [sa('robot', { automountServiceAccountToken: false })], pod: pod('x', [{}], { serviceAccountName: 'robot' }), want: 'admitted', volumes: 0, mounts: [0] },
  { name: 'the pod overrides its account', objs: [sa('robot', { automountServiceAccountToken: false })], pod: pod('x', [{}], { serviceAccountName: 'robot', automountServiceAccountToken: true }), want: 'admitted', volumes: 1, mounts: [1] },
  { name: 'a container with its own mount at the path keeps it', objs: [], pod: pod('x', [{ volumeMounts: [{ name: 'own', mountPath: TOKEN_PATH }] }, {}], { volumes: [{ name: 'own', emptyDir: {} }] }), want: 'admitted', volumes: 2, mounts: [1, 1] },
  { name: 'a mirror pod is left alone', objs: [], pod: { ...pod('x', [{}]), metadata: { name: 'x', namespace: 'ns', annotations: { 'kubernetes.io/config.mirror': 'abc' } } } as Pod, want: 'admitted', volumes: 0, mounts: [0] },
];

for (const c of SA_CASES) {
  test(`ServiceAccount: ${c.name}`, () => {
    const r = admit(store(c.objs), c.pod);
    assert.equal(r.result, c.want);
    const p = r.obj as Pod;
    assert.equal(p.spec.volumes?.length ?? 0, c.volumes);
    assert.deepEqual(p.spec.containers.map((ct) => ct.volumeMounts?.length ?? 0), c.mounts);
  });
}

test('ServiceAccount: the token volume is named from saved state, so a reloaded store names it as the unbroken one does', () => {
  // a session saved and loaded again (every one-shot `cka-lab kubectl`) restores the store from
  // its JSON: the name drew on a write count that restarts at 0 there, and differed
  const live = store([]);
  live.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'earlier', namespace: 'ns' }, data: {} });
  const reloaded = Store.fromJSON(JSON.parse(JSON.stringify(live.toJSON())));
  const a = pod('x', [{}]);
  const b = pod('x', [{}]);
  admit(live, a);
  admit(reloaded, b);
  assert.match(a.spec.volumes![0]!.name, /^kube-api-access-/);
  assert.equal(b.spec.volumes![0]!.name, a.spec.volumes![0]!.name);
  // and a later write in the same namespace gives another name (the suffix is not a constant)
  live.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later', namespace: 'ns' }, data: {} });
  const c = pod('x', [{}]);
  admit(live, c);
  assert.notEqual(c.spec.volumes![0]!.name, a.spec.volumes![0]!.name);
});

test('ServiceAccount: the projected token volume and its read-only mounts, init containers included; pull secrets copied', () => {
  const p = pod('x', [{}], { serviceAccountName: 'robot', initContainers: [{ name: 'init', image: 'busybox' }] });
  const r = admit(store([sa('robot', { imagePullSecrets: [{ name: 'regcred' }] })]), p);
  assert.equal(r.result, 'admitted');
  const vol = p.spec.volumes![0]!;
  assert.match(vol.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(vol.projected, {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
      { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
    ],
  });
  for (const ct of [...p.spec.initContainers!, ...p.spec.containers]) assert.deepEqual(ct.volumeMounts, [{ name: vol.name, readOnly: true, mountPath: TOKEN_PATH }]);
  assert.deepEqual(p.spec['imagePullSecrets'], [{ name: 'regcred' }]);
});
