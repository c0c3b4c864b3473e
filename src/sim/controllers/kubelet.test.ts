import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Container, KEvent, Pod, Probe } from '../api/types.js';
import { lookupImage } from '../images.js';
import { runProbe, type ProbeResult } from './prober.js';

const IP = '10.244.1.5';
const nginx = (extra: Partial<Container> = {}): Container => ({ name: 'web', image: 'nginx', ports: [{ name: 'http', containerPort: 80 }], ...extra });

// pkg/kubelet/prober/prober.go runProbe, pkg/probe/util.go ResolveContainerPort/findPortByName,
// pkg/probe/http/http.go DoHTTPProbe
const probeCases: { name: string; probe: Probe; container?: Container; image?: string; want: ProbeResult }[] = [
  { name: 'http / on nginx', probe: { httpGet: { path: '/', port: 80 } }, want: { result: 'success', output: '' } },
  { name: 'http /index.html on nginx (a file the image serves)', probe: { httpGet: { path: '/index.html', port: 80 } }, want: { result: 'success', output: '' } },
  { name: 'http /50x.html on nginx', probe: { httpGet: { path: '/50x.html', port: 80 } }, want: { result: 'success', output: '' } },
  { name: 'a query string is not part of the file', probe: { httpGet: { path: '/index.html?probe=1', port: 80 } }, want: { result: 'success', output: '' } },
  { name: 'http /index.html on httpd', probe: { httpGet: { path: '/index.html', port: 80 } }, image: 'httpd', want: { result: 'success', output: '' } },
  { name: 'a path nginx does not serve', probe: { httpGet: { path: '/healthz', port: 80 } }, want: { result: 'failure', output: 'HTTP probe failed with statuscode: 404' } },
  { name: 'a named port resolves to the container port', probe: { httpGet: { path: '/', port: 'http' } }, want: { result: 'success', output: '' } },
  {
    name: 'a named port to a closed port',
    probe: { httpGet: { path: '/', port: 'alt' } },
    container: nginx({ ports: [{ name: 'alt', containerPort: 8080 }] }),
    want: { result: 'failure', output: `Get "http://${IP}:8080/": dial tcp ${IP}:8080: connect: connection refused` },
  },
  { name: 'an unknown port name', probe: { httpGet: { path: '/', port: 'web' } }, want: { result: 'unknown', output: '', error: 'port "web" not found' } },
  { name: 'tcp on a named port', probe: { tcpSocket: { port: 'http' } }, want: { result: 'success', output: '' } },
  { name: 'tcp on an unknown port name', probe: { tcpSocket: { port: 'metrics' } }, want: { result: 'unknown', output: '', error: 'port "metrics" not found' } },
  { name: 'tcp on a closed port', probe: { tcpSocket: { port: 81 } }, want: { result: 'failure', output: `dial tcp ${IP}:81: connect: connection refused` } },
  // pkg/probe/grpc/grpc.go: the blocking dial, Unimplemented/NotFound, the serving status
  { name: 'grpc on etcd', probe: { grpc: { port: 2379 } }, image: 'registry.k8s.io/etcd:3.5.1-0', want: { result: 'success', output: '' } },
  {
    name: 'grpc on etcd for a service it does not know',
    probe: { grpc: { port: 2379, service: 'liveness' } },
    image: 'registry.k8s.io/etcd:3.5.1-0',
    want: { result: 'failure', output: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service' },
  },
  {
    name: 'grpc where nothing listens',
    probe: { grpc: { port: 2378 }, timeoutSeconds: 2 },
    image: 'registry.k8s.io/etcd:3.5.1-0',
    want: { result: 'failure', output: `timeout: failed to connect service "${IP}:2378" within 2s: context deadline exceeded` },
  },
  { name: 'grpc on an HTTP server', probe: { grpc: { port: 80 } }, want: { result: 'failure', output: `timeout: failed to connect service "${IP}:80" within 1s: context deadline exceeded` } },
];

for (const tc of probeCases) {
  test(`probe: ${tc.name}`, () => {
    const image = lookupImage(tc.image ?? 'nginx')!;
    const container = tc.container ?? nginx(tc.image ? { image: tc.image } : {});
    assert.deepEqual(runProbe(tc.probe, container, image, IP, undefined), tc.want);
  });
}

function unhealthy(c: ReturnType<typeof loadFixture>, pod: Pod): string[] {
  return c.store.list<KEvent>('Event', 'default').filter((e) => e.involvedObject.uid === pod.metadata.uid && e.reason === 'Unhealthy').map((e) => e.message);
}

const readinessCases: { name: string; probe: Probe; ready: boolean; events: string[] }[] = [
  { name: 'nginx /index.html on a named port', probe: { httpGet: { path: '/index.html', port: 'http' } }, ready: true, events: [] },
  { name: 'a path nginx does not serve', probe: { httpGet: { path: '/ready', port: 'http' } }, ready: false, events: ['Readiness probe failed: HTTP probe failed with statuscode: 404'] },
  { name: 'an unknown port name', probe: { httpGet: { path: '/', port: 'nope' } }, ready: false, events: ['Readiness probe errored and resulted in unknown state: port "nope" not found'] },
];

for (const tc of readinessCases) {
  test(`readiness: ${tc.name}`, () => {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [nginx({ readinessProbe: tc.probe })] } });
    c.advance(30_000);
    const pod = c.store.get<Pod>('Pod', 'default', 'web')!;
    assert.equal(pod.status?.containerStatuses?.[0]?.ready, tc.ready);
    assert.deepEqual(unhealthy(c, pod), tc.events);
  });
}

// the look-ahead of a run is an hour and doubles when the time gets there (runtime/processes.ts
// extendPlan): a loop that prints and ends after three hours still exits then, with its code
test('kubelet: a container that prints for three hours and then fails ends at that time', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const sh = 'i=0; while [ $i -lt 1080 ]; do echo "tick $i"; i=$((i+1)); sleep 10; done; exit 4';
  api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ticker', namespace: 'default' }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', sh] }] } });
  c.advance(30_000);
  const started = c.store.get<Pod>('Pod', 'default', 'ticker')!.status?.containerStatuses?.[0]?.state.running?.startedAt;
  assert.ok(started, 'the container runs');
  c.advance(3 * 3_600_000);
  const cs = c.store.get<Pod>('Pod', 'default', 'ticker')!.status?.containerStatuses?.[0];
  assert.equal(cs?.state.terminated?.exitCode, 4);
  assert.equal(Date.parse(cs!.state.terminated!.finishedAt!) - Date.parse(started), 10_800_000);
});
