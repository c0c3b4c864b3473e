/**
 * The scheduler against the kubeadm-calico fixture (cka-cp1 tainted control plane; cka-w1, cka-w2
 * workers with 2 CPUs, 3912504Ki memory, 110 pods allocatable): each row sets the cluster up,
 * creates one pod and expects the node it is bound to or the exact PodScheduled message (the
 * FailedScheduling event's text). Each row names the upstream plugin whose behaviour it pins.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Cluster } from '../cluster.js';
import type { KEvent, Node, Pod, PodSpec, Taint } from '../api/types.js';
import { Session } from '../../shell/session.js';

type Setup = (api: ApiServer, c: Cluster) => void;

function podObj(name: string, spec: Partial<PodSpec> = {}, labels: Record<string, string> = {}, ns = 'default'): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } };
}

function cpu(n: string, mem?: string): Partial<PodSpec> {
  return { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: n, ...(mem ? { memory: mem } : {}) } } }] };
}

function editNode(api: ApiServer, name: string, f: (n: Node) => void): void {
  const n = api.get<Node>('Node', undefined, name);
  f(n);
  api.update(n);
}

const label = (node: string, k: string, v: string): Setup => (api) => editNode(api, node, (n) => (n.metadata.labels = { ...n.metadata.labels, [k]: v }));
const taint = (node: string, t: Taint): Setup => (api) => editNode(api, node, (n) => (n.spec.taints = [...(n.spec.taints ?? []), t]));
const cordon = (node: string): Setup => (api) => editNode(api, node, (n) => (n.spec.unschedulable = true));
/** A pod bound to a node through spec.nodeName (the scheduler skips it; it only occupies). */
const placed = (name: string, node: string, spec: Partial<PodSpec> = {}, labels: Record<string, string> = {}): Setup => (api) => {
  api.create(podObj(name, { ...spec, nodeName: node }, labels));
};
const priorityClass = (name: string, value: number, preemptionPolicy?: 'Never'): Setup => (api) => {
  api.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...(preemptionPolicy ? { preemptionPolicy } : {}) });
};

function antiAffinity(app: string, key = 'kubernetes.io/hostname'): Partial<PodSpec> {
  return { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app } }, topologyKey: key }] } } };
}

function schedule(setup: Setup[], pod: Pod): { c: Cluster; api: ApiServer; pod: Pod } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  for (const s of setup) s(api, c);
  api.create(pod);
  c.advance(1_000);
  return { c, api, pod: api.get<Pod>('Pod', pod.metadata.namespace, pod.metadata.name) };
}

function outcome(p: Pod): string {
  if (p.spec.nodeName) return p.spec.nodeName;
  return p.status?.conditions?.find((x) => x.type === 'PodScheduled')?.message ?? '<no condition>';
}

const TAINT_CP = '1 node(s) had untolerated taint(s)';
const NOT_HELPFUL = (n: number): string => `preemption: 0/3 nodes are available: ${n} Preemption is not helpful for scheduling.`;

interface Row {
  name: string;
  plugin: string;
  setup: Setup[];
  pod: Pod;
  want: string;
}

const ROWS: Row[] = [
  {
    name: 'cordoned workers',
    plugin: 'nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable, UnschedulableAndUnresolvable',
    setup: [cordon('cka-w1'), cordon('cka-w2')],
    pod: podObj('p'),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 node(s) were unschedulable. ${NOT_HELPFUL(3)}`,
  },
  {
    name: 'a cordoned node is fine for a pod tolerating node.kubernetes.io/unschedulable',
    plugin: 'nodeunschedulable/node_unschedulable.go (toleration of the unschedulable taint)',
    setup: [cordon('cka-w1'), taint('cka-w2', { key: 'x', value: 'y', effect: 'NoSchedule' })],
    pod: podObj('p', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }),
    want: 'cka-w1',
  },
  {
    name: 'a NoSchedule taint on one worker',
    plugin: 'tainttoleration/taint_toleration.go Filter',
    setup: [taint('cka-w1', { key: 'dedicated', value: 'ml', effect: 'NoSchedule' })],
    pod: podObj('p'),
    want: 'cka-w2',
  },
  {
    name: 'every node tainted (v1.35 hides the taint: kubernetes#134740)',
    plugin: 'tainttoleration/taint_toleration.go Filter reason',
    setup: [taint('cka-w1', { key: 'dedicated', value: 'ml', effect: 'NoSchedule' }), taint('cka-w2', { key: 'dedicated', value: 'ml', effect: 'NoExecute' })],
    pod: podObj('p'),
    want: `0/3 nodes are available: 3 node(s) had untolerated taint(s). ${NOT_HELPFUL(3)}`,
  },
  {
    name: 'a PreferNoSchedule taint steers the pod away',
    plugin: 'tainttoleration/taint_toleration.go Score (PreferNoSchedule, weight 3)',
    setup: [taint('cka-w1', { key: 'soft', effect: 'PreferNoSchedule' })],
    pod: podObj('p'),
    want: 'cka-w2',
  },
  {
    name: 'nodeSelector matching no worker',
    plugin: 'nodeaffinity/node_affinity.go ErrReasonPod',
    setup: [],
    pod: podObj('p', { nodeSelector: { disk: 'ssd' } }),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 node(s) didn't match Pod's node affinity/selector. ${NOT_HELPFUL(3)}`,
  },
  {
    name: 'required node affinity (In)',
    plugin: 'nodeaffinity/node_affinity.go Filter (requiredDuringScheduling)',
    setup: [label('cka-w2', 'disk', 'ssd')],
    pod: podObj('p', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd', 'nvme'] }] }] } } } }),
    want: 'cka-w2',
  },
  {
    name: 'required node affinity (NotIn) excludes a worker',
    plugin: 'nodeaffinity/node_affinity.go Filter (NotIn)',
    setup: [label('cka-w1', 'tier', 'batch')],
    pod: podObj('p', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['batch'] }] }] } } } }),
    want: 'cka-w2',
  },
  {
    name: 'preferred node affinity',
    plugin: 'nodeaffinity/node_affinity.go Score (weight 2)',
    setup: [label('cka-w2', 'zone', 'b')],
    pod: podObj('p', { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] } }] } } }),
    want: 'cka-w2',
  },
  {
    name: 'a request larger than any node',
    plugin: 'noderesources/fit.go fitsRequest, Unresolvable since kubernetes#131345',
    setup: [],
    pod: podObj('p', cpu('3')),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 Insufficient cpu. ${NOT_HELPFUL(3)}`,
  },
  {
    name: 'a request larger than what is left, no lower-priority pods to evict',
    plugin: 'noderesources/fit.go + defaultpreemption SelectVictimsOnNode',
    setup: [placed('a', 'cka-w1', cpu('1500m')), placed('b', 'cka-w2', cpu('1500m'))],
    pod: podObj('p', cpu('1')),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
  },
  {
    name: 'cpu and memory both short: one reason each',
    plugin: 'noderesources/fit.go (every insufficient resource is a reason)',
    setup: [],
    pod: podObj('p', cpu('4', '8Gi')),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 Insufficient cpu, 2 Insufficient memory. ${NOT_HELPFUL(3)}`,
  },
  {
    name: 'least allocated wins',
    plugin: 'noderesources/least_allocated.go (NodeResourcesFit score, weight 1)',
    setup: [placed('a', 'cka-w1', cpu('1'))],
    pod: podObj('p', cpu('100m')),
    want: 'cka-w2',
  },
  {
    name: 'a taken hostPort',
    plugin: 'nodeports/node_ports.go ErrReason',
    setup: [placed('a', 'cka-w1', { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] })],
    pod: podObj('p', { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] }),
    want: 'cka-w2',
  },
  {
    name: 'a claim that does not exist',
    plugin: 'volumebinding/volume_binding.go PreFilter',
    setup: [],
    pod: podObj('p', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }),
    want: `0/3 nodes are available: persistentvolumeclaim "data" not found. ${NOT_HELPFUL(3)}`,
  },
  {
    name: 'anti-affinity to a pod on one worker',
    plugin: 'interpodaffinity/filtering.go satisfyPodAntiAffinity',
    setup: [placed('db', 'cka-w1', {}, { app: 'db' })],
    pod: podObj('p', antiAffinity('db'), { app: 'web' }),
    want: 'cka-w2',
  },
  {
    name: 'anti-affinity to pods on both workers',
    plugin: 'interpodaffinity/filtering.go ErrReasonAntiAffinityRulesNotMatch (Unschedulable)',
    setup: [placed('w1', 'cka-w1', {}, { app: 'web' }), placed('w2', 'cka-w2', {}, { app: 'web' })],
    pod: podObj('p', antiAffinity('web'), { app: 'web' }),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
  },
  {
    name: "an existing pod's anti-affinity",
    plugin: 'interpodaffinity/filtering.go satisfyExistingPodsAntiAffinity',
    setup: [placed('db', 'cka-w2', antiAffinity('web'), { app: 'db' })],
    pod: podObj('p', {}, { app: 'web' }),
    want: 'cka-w1',
  },
  {
    name: 'required pod affinity',
    plugin: 'interpodaffinity/filtering.go satisfyPodAffinity',
    setup: [placed('cache', 'cka-w2', {}, { app: 'cache' })],
    pod: podObj('p', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname' }] } } }),
    want: 'cka-w2',
  },
  {
    name: 'required pod affinity to pods that do not exist',
    plugin: 'interpodaffinity/filtering.go ErrReasonAffinityRulesNotMatch (UnschedulableAndUnresolvable)',
    setup: [],
    pod: podObj('p', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname' }] } } }),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 node(s) didn't match pod affinity rules. ${NOT_HELPFUL(3)}`,
  },
  {
    name: 'preferred pod anti-affinity',
    plugin: 'interpodaffinity/scoring.go (weight 2)',
    setup: [placed('w1', 'cka-w1', {}, { app: 'web' })],
    pod: podObj('p', { affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' } }] } } }, { app: 'web' }),
    want: 'cka-w2',
  },
  {
    name: 'topology spread DoNotSchedule',
    plugin: 'podtopologyspread/filtering.go (skew against the emptiest eligible domain)',
    setup: [placed('w1', 'cka-w1', { tolerations: [] }, { app: 'web' })],
    pod: podObj('p', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }] }, { app: 'web' }),
    want: 'cka-w2',
  },
  {
    name: 'topology spread counts the tainted control plane as an empty domain',
    plugin: 'podtopologyspread/filtering.go ErrReasonConstraintsNotMatch (nodeTaintsPolicy Ignore)',
    setup: [placed('w1', 'cka-w1', {}, { app: 'web' }), placed('w2', 'cka-w2', {}, { app: 'web' })],
    pod: podObj('p', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }] }, { app: 'web' }),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
  },
  {
    name: 'topology spread on a label no node has',
    plugin: 'podtopologyspread/filtering.go ErrReasonNodeLabelNotMatch',
    setup: [],
    pod: podObj('p', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'rack', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }] }, { app: 'web' }),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 node(s) didn't match pod topology spread constraints (missing required label). ${NOT_HELPFUL(3)}`,
  },
  {
    name: 'topology spread ScheduleAnyway',
    plugin: 'podtopologyspread/scoring.go (weight 2)',
    setup: [placed('w1', 'cka-w1', {}, { app: 'web' })],
    pod: podObj('p', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }] }, { app: 'web' }),
    want: 'cka-w2',
  },
  {
    name: 'preemptionPolicy Never',
    plugin: 'defaultpreemption/default_preemption.go PodEligibleToPreemptOthers',
    // (the class's policy: admission refuses a pod that names another one)
    setup: [priorityClass('high', 1000, 'Never')],
    pod: podObj('p', { ...cpu('3'), priorityClassName: 'high' }),
    want: `0/3 nodes are available: ${TAINT_CP}, 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.`,
  },
];

describe('scheduler: one pod, one outcome', () => {
  for (const row of ROWS) {
    it(`${row.name} [${row.plugin}]`, () => {
      const { pod, c } = schedule(row.setup, row.pod);
      assert.equal(outcome(pod), row.want);
      if (!pod.spec.nodeName) {
        const ev = c.store.list<KEvent>('Event', 'default').filter((e) => e.involvedObject.name === pod.metadata.name && e.reason === 'FailedScheduling');
        assert.deepEqual(ev.map((e) => e.message), [row.want]);
        assert.equal(pod.status?.phase, 'Pending');
      }
    });
  }
});

describe('DefaultPreemption', () => {
  it('evicts the lower-priority pod, nominates its node, and binds there when it is gone', () => {
    // the victims run `sleep`, which uses its whole grace period (30 s) to stop
    const sleeper = (n: string): Partial<PodSpec> => ({ containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'], resources: { requests: { cpu: n } } }] });
    const setup = [priorityClass('high', 1000), placed('low-a', 'cka-w1', sleeper('1500m')), placed('low-b', 'cka-w2', sleeper('1200m'))];
    const { c, api, pod } = schedule(setup, podObj('urgent', { ...cpu('1'), priorityClassName: 'high' }));
    // either node works with one victim of priority 0: pickOneNodeForPreemption's last criterion,
    // the latest-started victim, decides
    assert.equal(pod.spec.nodeName, undefined);
    const nominated = pod.status?.nominatedNodeName;
    assert.ok(nominated === 'cka-w1' || nominated === 'cka-w2');
    assert.equal(pod.status?.conditions?.find((x) => x.type === 'PodScheduled')?.message, `0/3 nodes are available: ${TAINT_CP}, 2 Insufficient cpu.`);
    const victimName = nominated === 'cka-w1' ? 'low-a' : 'low-b';
    const victim = c.store.get<Pod>('Pod', 'default', victimName);
    const gone = !victim || !!victim.metadata.deletionTimestamp;
    assert.ok(gone, 'the victim is being deleted');
    const preempted = c.store.list<KEvent>('Event', 'default').filter((e) => e.reason === 'Preempted');
    assert.deepEqual(preempted.map((e) => [e.involvedObject.name, e.message, e.source?.component]), [[victimName, `Preempted by pod ${pod.metadata.uid} on node ${nominated}`, 'default-scheduler']]);
    c.advance(40_000);
    const bound = api.get<Pod>('Pod', 'default', 'urgent');
    assert.equal(bound.spec.nodeName, nominated);
    assert.equal(bound.status?.nominatedNodeName, undefined);
  });

  it('never evicts pods of the same priority', () => {
    const { pod, c } = schedule([placed('a', 'cka-w1', cpu('1500m')), placed('b', 'cka-w2', cpu('1500m'))], podObj('p', cpu('1')));
    assert.equal(pod.status?.nominatedNodeName, undefined);
    assert.ok(c.store.get('Pod', 'default', 'a') && c.store.get('Pod', 'default', 'b'));
  });
});

describe('taint eviction (NoExecute)', () => {
  function withPod(tolerations?: Pod['spec']['tolerations']): { c: Cluster; api: ApiServer } {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    api.create(podObj('p', { nodeName: 'cka-w1', ...(tolerations ? { tolerations } : {}) }));
    c.advance(5_000);
    return { c, api };
  }
  const deleting = (c: Cluster): boolean => {
    const p = c.store.get<Pod>('Pod', 'default', 'p');
    return !p || !!p.metadata.deletionTimestamp;
  };
  const evictions = (c: Cluster): string[] => c.store.list<KEvent>('Event', 'default').filter((e) => e.reason === 'TaintManagerEviction').map((e) => `${e.source?.component}: ${e.message}`);

  it('evicts a pod without a matching toleration at once', () => {
    const { c, api } = withPod();
    taint('cka-w1', { key: 'maintenance', value: 'now', effect: 'NoExecute' })(api, c);
    assert.ok(deleting(c));
    assert.deepEqual(evictions(c), ['taint-eviction-controller: Marking for deletion Pod default/p']);
    const p = c.store.get<Pod>('Pod', 'default', 'p');
    if (p) assert.equal(p.status?.conditions?.find((x) => x.type === 'DisruptionTarget')?.reason, 'DeletionByTaintManager');
  });

  it('leaves pods alone for a NoSchedule taint', () => {
    const { c, api } = withPod();
    taint('cka-w1', { key: 'maintenance', value: 'now', effect: 'NoSchedule' })(api, c);
    c.advance(600_000);
    assert.ok(!deleting(c));
    assert.deepEqual(evictions(c), []);
  });

  it('honours tolerationSeconds', () => {
    const { c, api } = withPod([{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }]);
    taint('cka-w1', { key: 'maintenance', value: 'now', effect: 'NoExecute' })(api, c);
    c.advance(59_000);
    assert.ok(!deleting(c));
    c.advance(1_000);
    assert.ok(deleting(c));
  });

  it('cancels the deletion when the taint goes first', () => {
    const { c, api } = withPod([{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }]);
    taint('cka-w1', { key: 'maintenance', value: 'now', effect: 'NoExecute' })(api, c);
    c.advance(30_000);
    editNode(api, 'cka-w1', (n) => (n.spec.taints = (n.spec.taints ?? []).filter((t) => t.key !== 'maintenance')));
    c.advance(60_000);
    assert.ok(!deleting(c));
    assert.deepEqual(evictions(c), ['taint-eviction-controller: Cancelling deletion of Pod default/p']);
  });

  it('keeps a pod whose toleration has no tolerationSeconds', () => {
    const { c, api } = withPod([{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute' }]);
    taint('cka-w1', { key: 'maintenance', value: 'now', effect: 'NoExecute' })(api, c);
    c.advance(3_600_000);
    assert.ok(!deleting(c));
  });
});

describe('what kubectl shows of a Pending pod', () => {
  it('STATUS Pending and the FailedScheduling event line in describe', async () => {
    const c = loadFixture('kubeadm-calico');
    const s = new Session(c);
    await s.exec('kubectl run big --image=nginx --overrides=\'{"spec":{"containers":[{"name":"big","image":"nginx","resources":{"requests":{"cpu":"3"}}}]}}\'');
    const get = await s.exec('kubectl get pod big');
    assert.match(get.stdout, /^big\s+0\/1\s+Pending\s+0\s+\S+\n$/m);
    const d = await s.exec('kubectl describe pod big');
    const msg = `0/3 nodes are available: ${TAINT_CP}, 2 Insufficient cpu. ${NOT_HELPFUL(3)}`;
    assert.ok(d.stdout.includes(`  Warning  FailedScheduling  0s    default-scheduler  ${msg}\n`), d.stdout);
  });

  it('STATUS Pending for a pod no scheduler has seen', async () => {
    const c = loadFixture('kubeadm-calico');
    const s = new Session(c);
    await s.exec('kubectl run x --image=nginx --overrides=\'{"spec":{"schedulerName":"other"}}\'');
    const get = await s.exec('kubectl get pod x');
    assert.match(get.stdout, /^x\s+0\/1\s+Pending\s+0\s+\S+\n$/m);
  });
});
