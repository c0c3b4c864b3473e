import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { ApiServer } from './apiserver.js';
import { ApiError } from './api/errors.js';
import type { KObject, Pod, Service } from './api/types.js';
import { MSG_SUBDOMAIN } from './api/validation.js';

function svc(name: string, spec: Record<string, unknown>): KObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec };
}

const cases: { name: string; obj: KObject; message: string; reason?: string }[] = [
  {
    name: 'NodePort outside the range',
    obj: svc('x', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }),
    message: 'Service "x" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
  },
  {
    name: 'unknown Service type',
    obj: svc('web-svc', { type: 'Foo', ports: [{ port: 80 }] }),
    message: 'Service "web-svc" is invalid: spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
  },
  {
    name: 'port out of range',
    obj: svc('x', { ports: [{ port: 70000 }] }),
    // targetPort defaults to port, so the API server reports both fields
    message: 'Service "x" is invalid: [spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive]',
  },
  {
    name: 'ClusterIP outside the service CIDR',
    obj: svc('x', { clusterIP: '10.200.0.5', ports: [{ port: 80 }] }),
    // the MultiCIDRServiceAllocator (GA in 1.33) answers with ErrMismatchedNetwork, without the range
    message: 'Service "x" is invalid: spec.clusterIPs: Invalid value: ["10.200.0.5"]: failed to allocate IP 10.200.0.5: the provided network does not match the current range',
  },
  {
    name: 'ClusterIP already allocated',
    obj: svc('x', { clusterIP: '10.96.0.10', ports: [{ port: 80 }] }),
    message: 'Service "x" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.10"]: failed to allocate IP 10.96.0.10: provided IP is already allocated',
  },
  {
    name: 'dual-stack asked of a single-stack cluster',
    obj: svc('x', { ipFamilyPolicy: 'RequireDualStack', selector: { app: 'x' }, ports: [{ port: 80 }] }),
    message: 'Service "x" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
  },
  {
    name: 'a family the cluster does not serve',
    obj: svc('x', { ipFamilies: ['IPv6'], selector: { app: 'x' }, ports: [{ port: 80 }] }),
    message: 'Service "x" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
  },
  {
    name: 'an IPv6 ClusterIP on an IPv4 cluster',
    obj: svc('x', { clusterIP: 'fd00:10:96::5', ports: [{ port: 80 }] }),
    message: 'Service "x" is invalid: spec.clusterIPs[0]: Invalid value: ["fd00:10:96::5"]: IPv6 is not configured on this cluster',
  },
  {
    name: 'two families with SingleStack',
    obj: svc('x', { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'], ports: [{ port: 80 }] }),
    message: "Service \"x\" is invalid: spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
  },
  {
    name: 'an unknown ipFamilyPolicy',
    obj: svc('x', { ipFamilyPolicy: 'DualStack', ports: [{ port: 80 }] }),
    message: 'Service "x" is invalid: spec.ipFamilyPolicy: Unsupported value: "DualStack": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
  },
  {
    name: 'the same family twice',
    obj: svc('x', { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4', 'IPv4'], ports: [{ port: 80 }] }),
    message: 'Service "x" is invalid: spec.ipFamilies[1]: Duplicate value: "IPv4"',
  },
  {
    name: 'two ClusterIPs of one family',
    obj: svc('x', { ipFamilyPolicy: 'PreferDualStack', clusterIP: '10.96.0.50', clusterIPs: ['10.96.0.50', '10.96.0.51'], ports: [{ port: 80 }] }),
    message: 'Service "x" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.50","10.96.0.51"]: may specify no more than one IP for each IP family',
  },
  {
    name: 'family fields on an ExternalName Service',
    obj: svc('x', { type: 'ExternalName', externalName: 'db.example.com', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' }),
    message: 'Service "x" is invalid: [spec.ipFamilies: Forbidden: may not be set for ExternalName services, spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services]',
  },
  {
    name: 'a headless NodePort Service',
    obj: svc('x', { type: 'NodePort', clusterIP: 'None', selector: { app: 'x' }, ports: [{ port: 80 }] }),
    message: "Service \"x\" is invalid: spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services",
  },
  {
    name: 'nodePort on a ClusterIP Service',
    obj: svc('x', { ports: [{ port: 80, nodePort: 30080 }] }),
    message: "Service \"x\" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
  },
  {
    name: 'Service name is a DNS-1035 label',
    obj: svc('9web', { ports: [{ port: 80 }] }),
    message:
      "Service \"9web\" is invalid: metadata.name: Invalid value: \"9web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  },
  {
    name: 'Deployment selector does not match the template',
    obj: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    },
    message: 'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`',
  },
  {
    name: 'namespace that does not exist',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'nope' } },
    message: 'namespaces "nope" not found',
    reason: 'NotFound',
  },
  {
    name: 'object that already exists',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' } },
    message: 'configmaps "coredns" already exists',
    reason: 'AlreadyExists',
  },
  {
    // the storage finds the name taken after validation (registry/generic/registry/store.go Create)
    name: 'invalid object whose name is taken: Invalid, not AlreadyExists',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system', labels: { 'bad label': 'x' } } },
    message:
      'ConfigMap "coredns" is invalid: metadata.labels: Invalid value: "bad label": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    reason: 'Invalid',
  },
];

for (const tc of cases) {
  test(`create rejects: ${tc.name}`, () => {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    const before = c.store.generation;
    assert.throws(
      () => api.create(tc.obj),
      (e: unknown) => e instanceof ApiError && e.message === tc.message && e.reason === (tc.reason ?? 'Invalid'),
    );
    assert.equal(c.store.generation, before, 'a rejected create changes nothing');
  });
}

test('Service create allocates a ClusterIP in the range and NodePorts in theirs', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const s = api.create<Service>(svc('web', { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] }) as Service);
  assert.match(s.spec.clusterIP ?? '', /^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
  assert.deepEqual(s.spec.clusterIPs, [s.spec.clusterIP]);
  const np = s.spec.ports?.[0]?.nodePort ?? 0;
  assert.ok(np >= 30000 && np <= 32767, `nodePort ${np}`);
  assert.equal(s.spec.ports?.[0]?.targetPort, 80);
  assert.equal(s.spec.externalTrafficPolicy, 'Cluster');
});

test('Service update may not change clusterIP', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const dns = api.get<Service>('Service', 'kube-system', 'kube-dns');
  const changed = JSON.parse(JSON.stringify(dns)) as Service;
  changed.spec.clusterIP = '10.96.0.99';
  delete changed.spec.clusterIPs;
  assert.throws(() => api.update(changed), { message: 'Service "kube-dns" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.99"]: may not change once set' });
});

test('stale resourceVersion is a Conflict', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const cm = api.get('ConfigMap', 'kube-system', 'coredns');
  api.update({ ...cm, data: { Corefile: '.:53 {\n}\n' } });
  assert.throws(() => api.update({ ...cm, data: { Corefile: 'x' } }), {
    message: 'Operation cannot be fulfilled on configmaps "coredns": the object has been modified; please apply your changes to the latest version and try again',
  });
});

test('dry run validates and allocates without storing', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const gen = c.store.generation;
  const s = api.create<Service>(svc('dry', { ports: [{ port: 80 }] }) as Service, { dryRun: true });
  assert.ok(s.spec.clusterIP);
  assert.equal(c.store.generation, gen);
  assert.equal(c.store.get('Service', 'default', 'dry'), undefined);
});

test('the default ServiceCIDR follows the API server flag', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const cidrs = (): unknown => (api.get('ServiceCIDR', undefined, 'kubernetes').spec as { cidrs: string[] }).cidrs;
  assert.deepEqual(cidrs(), ['10.96.0.0/12']);
  assert.deepEqual(api.list('ServiceCIDR').map((o) => o.metadata.name), ['kubernetes']);
  const cp = c.host('cka-cp1')!;
  const path = '/etc/kubernetes/manifests/kube-apiserver.yaml';
  cp.fs.write(path, cp.fs.read(path).replace('--service-cluster-ip-range=10.96.0.0/12', '--service-cluster-ip-range=10.112.0.0/12'));
  c.advance(30_000);
  assert.deepEqual(cidrs(), ['10.112.0.0/12']);
});

test("node Leases are renewed while the kubelet runs and go stale when it stops", () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const renew = (): string | undefined => (api.get('Lease', 'kube-node-lease', 'cka-w1').spec as { renewTime?: string }).renewTime;
  assert.deepEqual(api.list('Lease', 'kube-node-lease').map((l) => l.metadata.name), ['cka-cp1', 'cka-w1', 'cka-w2']);
  assert.equal(renew(), '2026-12-02T10:00:00.000000Z');
  c.advance(25_000);
  assert.equal(renew(), '2026-12-02T10:00:20.000000Z');
  c.host('cka-w1')!.data.units['kubelet'] = { active: false, enabled: true, since: c.now() };
  c.touchHosts();
  c.advance(60_000);
  assert.equal(renew(), '2026-12-02T10:00:20.000000Z');
});

/** A Deployment's pod, as the ReplicaSet controller created it. */
function deploymentPod(api: ApiServer, c: ReturnType<typeof loadFixture>): Pod {
  api.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: { limits: { cpu: '500m' } } }] } } },
  } as KObject);
  c.advance(5_000);
  return api.list<Pod>('Pod', 'default').find((p) => p.metadata.name.startsWith('web-'))!;
}

const FORBIDDEN_POD_UPDATE =
  'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

// ValidatePodUpdate (pkg/apis/core/validation/validation.go): metadata (labels, annotations) is
// mutable on any pod; the spec only in the listed fields.
const podUpdates: { name: string; change: (p: Pod) => void; error?: string }[] = [
  { name: 'add a label', change: (p) => (p.metadata.labels = { ...p.metadata.labels, x: 'y' }) },
  { name: 'change a label', change: (p) => (p.metadata.labels = { ...p.metadata.labels, app: 'other' }) },
  { name: 'add an annotation', change: (p) => (p.metadata.annotations = { note: 'hi' }) },
  { name: 'change the image', change: (p) => (p.spec.containers[0]!.image = 'nginx:1.27') },
  { name: 'add a container port', change: (p) => (p.spec.containers[0]!.ports = [{ containerPort: 8080 }]), error: FORBIDDEN_POD_UPDATE },
];

for (const tc of podUpdates) {
  test(`update of a Deployment's pod: ${tc.name}`, () => {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    const pod = deploymentPod(api, c);
    tc.change(pod);
    if (tc.error) assert.throws(() => api.update(pod), { message: `Pod "${pod.metadata.name}" is invalid: ${tc.error}` });
    else assert.doesNotThrow(() => api.update(pod));
  });
}

test("a Deployment's pod is defaulted as the API server defaults pods (requests from limits, service account, tolerations)", () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const pod = deploymentPod(api, c);
  assert.deepEqual(pod.spec.containers[0]!.resources, { limits: { cpu: '500m' }, requests: { cpu: '500m' } });
  assert.equal(pod.spec.serviceAccountName, 'default');
  assert.equal(pod.spec.enableServiceLinks, true);
  assert.deepEqual(pod.spec.tolerations?.map((t) => t.key), ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
});

// ValidateService (pkg/apis/core/validation/validation.go): an ExternalName is a DNS-1123
// subdomain, one trailing dot allowed
const externalNames: { name: string; externalName: string; error?: string }[] = [
  { name: 'a host name', externalName: 'my.database.example.com' },
  { name: 'a fully qualified name', externalName: 'example.com.' },
  {
    name: 'a URL',
    externalName: 'http://x',
    error: `spec.externalName: Invalid value: "http://x": ${MSG_SUBDOMAIN}`,
  },
  {
    name: 'upper case',
    externalName: 'Example.com',
    error: `spec.externalName: Invalid value: "Example.com": ${MSG_SUBDOMAIN}`,
  },
  { name: 'empty', externalName: '', error: 'spec.externalName: Required value' },
];

for (const tc of externalNames) {
  test(`ExternalName Service: ${tc.name}`, () => {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    const obj = svc('ext', { type: 'ExternalName', externalName: tc.externalName });
    if (tc.error) assert.throws(() => api.create(obj), { message: `Service "ext" is invalid: ${tc.error}` });
    else assert.equal(api.create<Service>(obj as Service).spec.externalName, tc.externalName);
  });
}
