/**
 * Storage and autoscaling end to end on the kubeadm-calico-addons fixture (local-path-provisioner
 * and metrics-server): default class admission, WaitForFirstConsumer provisioning, claim update
 * rules, expansion, reclaim, the Metrics API through `kubectl top`, and the HPA controller.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../shell/session.js';
import { loadFixture } from '../testing/fixtures.js';
import { specDiff, validateClaimUpdate, type PersistentVolumeClaim } from './api/storage.js';

async function session(fixture = 'kubeadm-calico-addons'): Promise<{ s: Session; run: (l: string) => Promise<{ stdout: string; stderr: string; exitCode: number }>; advance: (ms: number) => void }> {
  const c = loadFixture(fixture);
  const s = new Session(c);
  return { s, run: (l) => s.exec(l), advance: (ms) => c.advance(ms) };
}

const CLAIM = (name: string, extra = ''): string => `kubectl apply -f - <<'EOF'
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
spec:
${extra}  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
EOF`;

const POD = (name: string, claim: string): string => `kubectl apply -f - <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  containers: [{name: c, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: ${claim}}}]
EOF`;

test('a claim without a class gets the default one and waits for its first consumer', async () => {
  const { run, advance } = await session();
  await run(`kubectl annotate sc local-path storageclass.kubernetes.io/is-default-class=true`);
  assert.match((await run('kubectl get sc')).stdout, /^local-path \(default\) +rancher\.io\/local-path +Delete +WaitForFirstConsumer +false /m);
  await run(CLAIM('data'));
  assert.equal((await run(`kubectl get pvc data -o jsonpath='{.spec.storageClassName}|{.status.phase}'`)).stdout, 'local-path|Pending');
  assert.match((await run('kubectl describe pvc data')).stdout, /Normal {2}WaitForFirstConsumer {2}\S+ +persistentvolume-controller {2}waiting for first consumer to be created before binding\n/);
  await run(POD('app', 'data'));
  advance(15_000);
  const pv = (await run(`kubectl get pvc data -o jsonpath='{.spec.volumeName}'`)).stdout;
  assert.match(pv, /^pvc-[0-9a-f-]{36}$/);
  const node = (await run(`kubectl get pod app -o jsonpath='{.spec.nodeName}'`)).stdout;
  assert.equal((await run(`kubectl get pv ${pv} -o jsonpath='{.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]}|{.spec.hostPath.path}'`)).stdout, `${node}|/opt/local-path-provisioner/${pv}_default_data`);
  assert.equal((await run(`ssh ${node} ls /opt/local-path-provisioner`)).stdout, `${pv}_default_data\n`);
  const events = (await run('kubectl describe pvc data')).stdout;
  assert.match(events, /Normal {2}ProvisioningSucceeded .* Successfully provisioned volume pvc-/);
  // reclaim Delete: the provisioner removes the PV and its directory
  await run('kubectl delete pod app --grace-period=0 --force');
  await run('kubectl delete pvc data');
  assert.equal((await run('kubectl get pv')).stderr, 'No resources found\n');
  assert.equal((await run(`ssh ${node} ls /opt/local-path-provisioner`)).stdout, '');
});

test('a claim with no class and no volume: FailedBinding, type Normal', async () => {
  const { run } = await session('kubeadm-calico');
  await run(CLAIM('plain'));
  const out = (await run('kubectl describe pvc plain')).stdout;
  assert.match(out, /^StorageClass: +\n/m);
  assert.match(out, /Normal {2}FailedBinding {2}\S+ +persistentvolume-controller {2}no persistent volumes available for this claim and no storage class is set/);
});

test('claim spec immutability and the resize admission', async () => {
  const { run, advance } = await session();
  await run(CLAIM('data', '  storageClassName: local-path\n'));
  await run(POD('app', 'data'));
  advance(15_000);
  const grow = await run(`kubectl patch pvc data -p '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}'`);
  assert.equal(grow.stderr, 'Error from server (Forbidden): persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize\n');
  const modes = await run(`kubectl patch pvc data -p '{"spec":{"accessModes":["ReadWriteMany"]}}'`);
  assert.match(modes.stderr, /^The PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n {2}core.PersistentVolumeClaimSpec\{\n- \tAccessModes: +\{"ReadWriteOnce"\},\n\+ \tAccessModes: +\{"ReadWriteMany"\},\n/);
  await run(`kubectl patch sc local-path -p '{"allowVolumeExpansion":true}'`);
  assert.equal((await run(`kubectl patch pvc data -p '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}'`)).exitCode, 0);
  // rancher.io/local-path has no resizer: the request stays larger than the capacity, with only
  // the expand controller's ExternalExpanding (a Warning: no plugin of its matched the hostPath volume)
  advance(120_000);
  assert.equal((await run(`kubectl get pvc data -o jsonpath='{.spec.resources.requests.storage}|{.status.capacity.storage}|{.status.conditions}|{.status.allocatedResources}'`)).stdout, '2Gi|1Gi||');
  const described = (await run('kubectl describe pvc data')).stdout;
  assert.match(described, /\n {2}Warning {2}ExternalExpanding +\S+ +volume_expand +waiting for an external controller to expand this PVC\n$/);
  assert.doesNotMatch(described, /Resizing|FileSystemResize/);
  assert.doesNotMatch((await run('kubectl describe pod app')).stdout, /FileSystemResize/);
  // one event per larger request
  await run(`kubectl label pvc data x=y`);
  await run(`kubectl patch pvc data -p '{"spec":{"resources":{"requests":{"storage":"3Gi"}}}}'`);
  assert.match((await run('kubectl describe pvc data')).stdout, /Warning {2}ExternalExpanding +\S+ \(x2 over \S+\) +volume_expand +waiting for an external controller/);
});

test('the resize memo of a deleted claim goes with it: a saved session no longer holds it', async () => {
  const { s, run, advance } = await session();
  await run(CLAIM('data', '  storageClassName: local-path\n'));
  await run(POD('app', 'data'));
  advance(15_000);
  await run(`kubectl patch sc local-path -p '{"allowVolumeExpansion":true}'`);
  assert.equal((await run(`kubectl patch pvc data -p '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}'`)).exitCode, 0);
  advance(60_000);
  const uid = (await run(`kubectl get pvc data -o jsonpath='{.metadata.uid}'`)).stdout;
  const saved = (): Record<string, unknown> | undefined => (s.toJSON({ persist: true }).cluster as unknown as { state: { volumeExpand?: Record<string, unknown> } }).state.volumeExpand;
  assert.deepEqual(Object.keys(saved() ?? {}), [uid], 'the expand controller remembers the request it reported');
  assert.equal((await run('kubectl delete pod app --now')).exitCode, 0);
  assert.equal((await run('kubectl delete pvc data')).exitCode, 0);
  advance(60_000);
  assert.equal((await run('kubectl get pvc data')).stderr, 'Error from server (NotFound): persistentvolumeclaims "data" not found\n');
  assert.equal(saved(), undefined);
});

/** A CSI driver with a resizer (csi-driver-host-path's hostpath.csi.k8s.io), its class and a volume it provisioned for claim `data`. */
const CSI_VOLUME = `kubectl apply -f - <<'EOF'
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: hostpath.csi.k8s.io}
spec: {attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: [Persistent]}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: csi-hostpath}
provisioner: hostpath.csi.k8s.io
allowVolumeExpansion: true
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pvc-data
  annotations: {pv.kubernetes.io/provisioned-by: hostpath.csi.k8s.io}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: csi-hostpath
  claimRef: {namespace: default, name: data}
  csi: {driver: hostpath.csi.k8s.io, volumeHandle: 7d2f0a1e-data}
EOF`;

test('expansion through the external resizer: Resizing, then FileSystemResizePending until a pod mounts the claim; the resize statuses and events', async () => {
  const { s, run, advance } = await session();
  await run(CSI_VOLUME);
  await run(CLAIM('data', '  storageClassName: csi-hostpath\n'));
  assert.equal((await run(`kubectl get pvc data -o jsonpath='{.status.phase} {.spec.volumeName}'`)).stdout, 'Bound pvc-data');
  // every status the claim went through, as a watch would see it
  const seen: string[] = [];
  const stop = s.cluster.store.observe((_t, o) => {
    if (o.kind !== 'PersistentVolumeClaim') return;
    const st = (o as PersistentVolumeClaim).status;
    seen.push(`${(st?.conditions ?? []).map((x) => x.type).join(',')}|${JSON.stringify(st?.allocatedResourceStatuses ?? {})}|${st?.allocatedResources?.storage ?? ''}|${st?.capacity?.storage ?? ''}`);
  });
  await run(`kubectl patch pvc data -p '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}'`);
  assert.deepEqual(seen.slice(1), ['Resizing|{"storage":"ControllerResizeInProgress"}|2Gi|1Gi', 'FileSystemResizePending|{"storage":"NodeResizePending"}|2Gi|1Gi']);
  assert.equal((await run(`kubectl get pv pvc-data -o jsonpath='{.spec.capacity.storage}'`)).stdout, '2Gi');
  const pending = (await run('kubectl describe pvc data')).stdout;
  assert.match(pending, /\nConditions:\n {2}Type +Status +LastProbeTime +LastTransitionTime +Reason +Message\n.*\n {2}FileSystemResizePending +True +Mon, 01 Jan 0001 00:00:00 \+0000 +\S+, .* \+0000 +Waiting for user to \(re-\)start a pod to finish file system resize of volume on node\.\n/);
  assert.match(pending, /Warning {2}ExternalExpanding +0s +volume_expand +waiting for an external controller to expand this PVC\n {2}Normal {3}Resizing +0s +external-resizer hostpath\.csi\.k8s\.io +External resizer is resizing volume pvc-data\n {2}Normal {3}FileSystemResizeRequired +0s +external-resizer hostpath\.csi\.k8s\.io +Require file system resize of volume on node\n$/);
  advance(120_000);
  assert.equal((await run(`kubectl get pvc data -o jsonpath='{.status.capacity.storage}'`)).stdout, '1Gi');
  // a pod that starts now expands the volume while mounting it
  await run(POD('app', 'data'));
  advance(10_000);
  stop();
  assert.equal((await run(`kubectl get pvc data -o jsonpath='{.status}'`)).stdout, '{"accessModes":["ReadWriteOnce"],"allocatedResources":{"storage":"2Gi"},"capacity":{"storage":"2Gi"},"phase":"Bound"}');
  assert.match((await run('kubectl describe pvc data')).stdout, /Normal {3}FileSystemResizeSuccessful +\S+ +kubelet +MountVolume\.NodeExpandVolume succeeded for volume "pvc-data" cka-w\d\n$/);
});

test('online expansion waits for the mounting pod\'s next periodic sync (syncFrequency 1m from its sandbox)', async () => {
  const { s, run, advance } = await session();
  await run(CSI_VOLUME);
  await run(CLAIM('data', '  storageClassName: csi-hostpath\n'));
  await run(POD('app', 'data'));
  advance(15_000);
  assert.equal((await run(`kubectl get pod app -o jsonpath='{.status.phase}'`)).stdout, 'Running');
  const uid = (await run(`kubectl get pod app -o jsonpath='{.metadata.uid}'`)).stdout;
  const sandboxAt = (s.cluster.state.sandboxAt ?? {})[uid]!;
  // ask 20 s after the sandbox: the sync at sandbox + 60 s finishes the resize
  advance(sandboxAt + 20_000 - s.cluster.now());
  await run(`kubectl patch pvc data -p '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}'`);
  const capacity = async (): Promise<string> => (await run(`kubectl get pvc data -o jsonpath='{.status.capacity.storage} {.status.conditions[*].type}'`)).stdout;
  assert.equal(await capacity(), '1Gi FileSystemResizePending');
  advance(sandboxAt + 59_000 - s.cluster.now());
  assert.equal(await capacity(), '1Gi FileSystemResizePending');
  advance(1_000);
  assert.equal(await capacity(), '2Gi ');
  assert.match((await run('kubectl describe pod app')).stdout, /Normal {2}FileSystemResizeSuccessful +\S+ +kubelet +MountVolume\.NodeExpandVolume succeeded for volume "pvc-data" cka-w\d\n/);
});

test('validateClaimUpdate: an unbound claim may not change its request; a bound one may not shrink below capacity', () => {
  const base: PersistentVolumeClaim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'x' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } };
  const bigger = { ...base, spec: { ...base.spec, resources: { requests: { storage: '2Gi' } } } };
  assert.equal(validateClaimUpdate(bigger, base).length, 1);
  const bound = { ...base, status: { phase: 'Bound', capacity: { storage: '2Gi' } } };
  assert.deepEqual(validateClaimUpdate({ ...bigger, spec: { ...bigger.spec, resources: { requests: { storage: '3Gi' } } } }, { ...bound, spec: bigger.spec }), []);
  assert.equal(validateClaimUpdate(base, { ...bound, spec: bigger.spec })[0]?.body, 'Forbidden: field can not be less than status.capacity');
  assert.match(specDiff({ storageClassName: 'a' }, { storageClassName: 'b' }), /- \tStorageClassName: +&"a",\n\+ \tStorageClassName: +&"b",/);
});

test('kubectl top: no metrics-server, then its columns, sorting and --containers', async () => {
  const bare = await session('kubeadm-calico');
  const none = await bare.run('kubectl top node');
  assert.deepEqual([none.stdout, none.stderr, none.exitCode], ['', 'error: Metrics API not available\n', 1]);
  const { run } = await session();
  const nodes = (await run('kubectl top node')).stdout.split('\n');
  assert.equal(nodes[0], 'NAME      CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)   ');
  assert.match(nodes[1]!, /^cka-cp1 {3}\d+m +\d+% +\d+Mi +\d+% +$/);
  assert.equal((await run('kubectl top pod')).stderr, 'No resources found in default namespace.\n');
  const pods = (await run('kubectl top pod -A --sort-by=cpu --no-headers')).stdout.split('\n').filter(Boolean);
  assert.match(pods[0]!, /^kube-system +kube-apiserver-cka-cp1 /);
  const cpu = pods.map((l) => Number(/ (\d+)m /.exec(l)![1]));
  assert.deepEqual(cpu, [...cpu].sort((a, b) => b - a));
  assert.equal((await run('kubectl top pod --sort-by=disk')).stderr, 'error: --sort-by accepts only cpu or memory\n');
  // metrics-server down: the aggregator answers ServiceUnavailable
  await run('kubectl -n kube-system scale deploy metrics-server --replicas=0');
  assert.equal((await run('kubectl top node')).stderr, 'Error from server (ServiceUnavailable): the server is currently unable to handle the request (get nodes.metrics.k8s.io)\n');
});

test('HPA: scales up under load with the real event, back down to min after the window', async () => {
  const { run, advance } = await session();
  await run(`kubectl apply -f - <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: registry.k8s.io/hpa-example, resources: {requests: {cpu: 200m}}}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
EOF`);
  assert.equal((await run('kubectl autoscale deployment web --cpu=50% --min=1 --max=5')).stdout, 'horizontalpodautoscaler.autoscaling/web autoscaled\n');
  advance(15_000);
  assert.match((await run('kubectl get hpa web')).stdout, /^web +Deployment\/web +cpu: <unknown>\/50% +1 +5 +\d+ /m);
  await run(`kubectl run load --image=busybox -- sh -c 'while true; do wget -q -O- http://web; done'`);
  advance(60_000);
  const described = (await run('kubectl describe hpa web')).stdout;
  assert.match(described, /SuccessfulRescale +\S+ +horizontal-pod-autoscaler +New size: \d; reason: cpu resource utilization \(percentage of request\) above target/);
  assert.match(described, /ScalingActive +True +ValidMetricFound/);
  assert.ok(Number((await run(`kubectl get deploy web -o jsonpath='{.spec.replicas}'`)).stdout) > 1);
  await run('kubectl delete pod load --grace-period=0 --force');
  advance(60_000);
  assert.ok(Number((await run(`kubectl get deploy web -o jsonpath='{.spec.replicas}'`)).stdout) > 1, 'the 300 s scale-down window holds the replicas');
  advance(300_000);
  assert.equal((await run(`kubectl get deploy web -o jsonpath='{.spec.replicas}'`)).stdout, '1');
  assert.match((await run('kubectl describe hpa web')).stdout, /New size: 1; reason: All metrics below target/);
});

test('HPA behavior: a scale-up limit below the current count holds it (never scales down); scaleDown Disabled keeps the replicas', async () => {
  const { run, advance } = await session();
  await run(`kubectl apply -f - <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: registry.k8s.io/hpa-example, resources: {requests: {cpu: 100m}, limits: {cpu: 500m}}}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
EOF`);
  await run(`kubectl run load --image=busybox -- sh -c 'while sleep 0.01; do wget -q -O- http://web; done'`);
  advance(30_000);
  const replicas = async (): Promise<number> => Number((await run(`kubectl get deploy web -o jsonpath='{.spec.replicas}'`)).stdout);
  // the default behavior grows 1 → 5 at once; the policy patched in right after allows 1 pod per 60 s
  await run('kubectl autoscale deployment web --cpu=50% --min=1 --max=10');
  assert.equal(await replicas(), 5);
  await run(`kubectl patch hpa web --type=merge -p '{"spec":{"behavior":{"scaleUp":{"policies":[{"type":"Pods","value":1,"periodSeconds":60}]},"scaleDown":{"selectPolicy":"Disabled"}}}}'`);
  for (let i = 0; i < 3; i++) {
    advance(15_000);
    assert.equal(await replicas(), 5, 'the 4 pods added within the period hold the count, they do not undo it');
  }
  assert.match((await run('kubectl describe hpa web')).stdout, /ScalingLimited +True +ScaleUpLimit/);
  advance(15_000);
  assert.equal(await replicas(), 6, 'one more pod once the period has passed');
  advance(45_000);
  assert.equal(await replicas(), 6);
  await run('kubectl delete pod load --grace-period=0 --force');
  advance(600_000);
  assert.equal(await replicas(), 6, 'scaleDown.selectPolicy Disabled: no scale down');
});

test('annotate removes a prefixed key given as key- (GetResourcesAndPairs)', async () => {
  const { run } = await session();
  await run(`kubectl annotate sc local-path storageclass.kubernetes.io/is-default-class=true`);
  const r = await run(`kubectl annotate storageclass local-path storageclass.kubernetes.io/is-default-class-`);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal((await run(`kubectl get sc local-path -o jsonpath='{.metadata.annotations}'`)).stdout.includes('is-default-class'), false);
});

test('a Released volume whose claimRef is pointed at a new claim (no uid) becomes Available and binds it', async () => {
  const { run, advance } = await session();
  await run(`kubectl apply -f - <<'EOF'
apiVersion: v1
kind: PersistentVolume
metadata: {name: keep}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: manual
  hostPath: {path: /srv/keep}
EOF`);
  const claim = (name: string) => `kubectl apply -f - <<'EOF'
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}, namespace: default}
spec:
  storageClassName: manual
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
EOF`;
  await run(claim('old'));
  advance(15_000);
  await run('kubectl delete pvc old');
  advance(15_000);
  assert.equal((await run(`kubectl get pv keep -o jsonpath='{.status.phase}'`)).stdout, 'Released');
  await run(claim('new'));
  advance(15_000);
  assert.equal((await run(`kubectl get pvc new -o jsonpath='{.status.phase}'`)).stdout, 'Pending');
  await run(`kubectl patch pv keep --type=merge -p '{"spec":{"claimRef":{"namespace":"default","name":"new","uid":null,"resourceVersion":null}}}'`);
  advance(15_000);
  assert.equal((await run(`kubectl get pvc new -o jsonpath='{.status.phase}/{.spec.volumeName}'`)).stdout, 'Bound/keep');
});

test('a WaitForFirstConsumer claim of a no-provisioner class steers the pod to the node of a free local PV; none anywhere is FailedScheduling (VolumeBinding)', async () => {
  const { run, advance } = await session();
  const nodes = (await run(`kubectl get nodes -l '!node-role.kubernetes.io/control-plane' -o jsonpath='{.items[*].metadata.name}'`)).stdout.split(' ');
  const target = nodes[nodes.length - 1]!;
  const setup = await run(`kubectl apply -f - <<'EOF'
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-static}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: local-a}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local-static
  local: {path: /mnt/disks/a}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [${target}]}]
EOF`);
  assert.equal(setup.exitCode, 0, setup.stderr);
  for (const name of ['data', 'more']) await run(CLAIM(name, '  storageClassName: local-static\n'));
  await run(POD('app', 'data'));
  advance(5_000);
  assert.equal((await run(`kubectl get pod app -o jsonpath='{.spec.nodeName}'`)).stdout, target, 'only the PV’s node fits');
  assert.equal((await run(`kubectl get pvc data -o jsonpath='{.status.phase}/{.spec.volumeName}'`)).stdout, 'Bound/local-a');
  await run(POD('other', 'more'));
  advance(5_000);
  assert.equal((await run(`kubectl get pod other -o jsonpath='{.spec.nodeName}'`)).stdout, '');
  assert.match((await run('kubectl get events --field-selector involvedObject.name=other')).stdout, /FailedScheduling .*didn't find available persistent volumes to bind/);
});
