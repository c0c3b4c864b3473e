/**
 * The Kubernetes docs' probe examples (tasks/configure-pod-container/
 * configure-liveness-readiness-startup-probes) and the worker rules of pkg/kubelet/prober/worker.go
 * on the simulated clock: what the kubelet's workers (prober.ts) see, tick by tick, and what they
 * do to the container.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Cluster } from '../cluster.js';
import type { Container, KEvent, Pod } from '../api/types.js';
import { containerFs } from '../runtime/volumes.js';

/** The pod's probe and kill events as `reason xCOUNT message`, oldest first. */
function probeEvents(c: Cluster, pod: string): string[] {
  return c.store
    .list<KEvent>('Event', 'default')
    .filter((e) => e.involvedObject.name === pod && (e.reason === 'Unhealthy' || e.reason === 'Killing'))
    .map((e) => `${e.reason} x${e.count} ${(e.message ?? '').trim()}`);
}

interface Sample {
  /** seconds since the pod was created */
  at: number;
  restarts: number;
  ready?: boolean;
  started?: boolean;
  /** the last state's exit code, once there is one */
  lastExit?: number;
  events: string[];
}

const LIVENESS_EXEC = "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory";

const cases: { name: string; container: Container; terminationGracePeriodSeconds?: number; samples: Sample[] }[] = [
  {
    // the docs' liveness-exec: the file goes after 30 s, three failures 5 s apart, then the kill;
    // sh as PID 1 ignores SIGTERM, so it ends with the 30 s grace period (137) and starts again
    name: 'exec liveness (docs liveness-exec)',
    container: {
      name: 'liveness',
      image: 'registry.k8s.io/busybox:1.27.2',
      args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
      livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
    },
    samples: [
      { at: 30, restarts: 0, events: [] },
      { at: 40, restarts: 0, events: [`Unhealthy x2 ${LIVENESS_EXEC}`] },
      { at: 45, restarts: 0, events: [`Unhealthy x3 ${LIVENESS_EXEC}`, 'Killing x1 Container liveness failed liveness probe, will be restarted'] },
      { at: 74, restarts: 0, events: [`Unhealthy x3 ${LIVENESS_EXEC}`, 'Killing x1 Container liveness failed liveness probe, will be restarted'] },
      { at: 75, restarts: 1, lastExit: 137, events: [`Unhealthy x3 ${LIVENESS_EXEC}`, 'Killing x1 Container liveness failed liveness probe, will be restarted'] },
      { at: 120, restarts: 1, lastExit: 137, events: [`Unhealthy x6 ${LIVENESS_EXEC}`, 'Killing x2 Container liveness failed liveness probe, will be restarted'] },
    ],
  },
  {
    // a grace period of the probe's own: the kill ends after 5 s
    name: 'exec liveness with the probe terminationGracePeriodSeconds',
    container: {
      name: 'liveness',
      image: 'busybox:1.36',
      args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
      livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5, terminationGracePeriodSeconds: 5 },
    },
    samples: [{ at: 50, restarts: 1, lastExit: 137, events: [`Unhealthy x3 ${LIVENESS_EXEC}`, 'Killing x1 Container liveness failed liveness probe, will be restarted'] }],
  },
  {
    // the docs' liveness-http: agnhost's /healthz is 200 for 10 s, then 500; a Go program dies of
    // SIGTERM (143) at once
    name: 'http liveness (docs liveness-http, agnhost)',
    container: {
      name: 'liveness',
      image: 'registry.k8s.io/e2e-test-images/agnhost:2.40',
      args: ['liveness'],
      livenessProbe: { httpGet: { path: '/healthz', port: 8080, httpHeaders: [{ name: 'Custom-Header', value: 'Awesome' }] }, initialDelaySeconds: 3, periodSeconds: 3 },
    },
    samples: [
      { at: 10, restarts: 0, events: [] },
      { at: 19, restarts: 1, lastExit: 143, events: ['Unhealthy x3 Liveness probe failed: HTTP probe failed with statuscode: 500', 'Killing x1 Container liveness failed liveness probe, will be restarted'] },
    ],
  },
  {
    // the docs' goproxy: tcpSocket probes on 8080, where it listens
    name: 'tcp readiness and liveness (docs goproxy)',
    container: {
      name: 'goproxy',
      image: 'registry.k8s.io/goproxy:0.1',
      ports: [{ containerPort: 8080 }],
      readinessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 15, periodSeconds: 10 },
      livenessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 15, periodSeconds: 10 },
    },
    samples: [
      { at: 10, restarts: 0, ready: false, events: [] },
      { at: 30, restarts: 0, ready: true, events: [] },
    ],
  },
  {
    // the docs' etcd-with-grpc: etcd serves grpc.health.v1 on its client port
    name: 'grpc liveness on etcd (docs etcd-with-grpc)',
    container: {
      name: 'etcd',
      image: 'registry.k8s.io/etcd:3.5.1-0',
      command: ['/usr/local/bin/etcd', '--data-dir', '/var/lib/etcd', '--listen-client-urls', 'http://0.0.0.0:2379', '--advertise-client-urls', 'http://127.0.0.1:2379', '--log-level', 'debug'],
      ports: [{ containerPort: 2379 }],
      livenessProbe: { grpc: { port: 2379 }, initialDelaySeconds: 10 },
    },
    samples: [{ at: 60, restarts: 0, events: [] }],
  },
  {
    // a gRPC probe where nothing speaks gRPC: the dial times out, three times, and the kill
    name: 'grpc liveness where nginx listens',
    container: { name: 'web', image: 'nginx', livenessProbe: { grpc: { port: 80 }, periodSeconds: 10 } },
    samples: [{ at: 35, restarts: 1, events: ['Unhealthy x3 Liveness probe failed: timeout: failed to connect service "IP:80" within 1s: context deadline exceeded', 'Killing x1 Container web failed liveness probe, will be restarted'] }],
  },
  {
    // startup gates the others: not started, not ready, and liveness silent until the file exists
    name: 'startup probe gates liveness and readiness',
    container: {
      name: 'app',
      image: 'busybox:1.36',
      args: ['/bin/sh', '-c', 'sleep 20; touch /tmp/started; sleep 3600'],
      startupProbe: { exec: { command: ['cat', '/tmp/started'] }, periodSeconds: 5, failureThreshold: 30 },
      livenessProbe: { exec: { command: ['cat', '/tmp/nothing'] }, periodSeconds: 5, failureThreshold: 100 },
      readinessProbe: { exec: { command: ['true'] }, periodSeconds: 5 },
    },
    samples: [
      { at: 15, restarts: 0, started: false, ready: false, events: ["Unhealthy x3 Startup probe failed: cat: can't open '/tmp/started': No such file or directory"] },
      {
        at: 30,
        restarts: 0,
        started: true,
        ready: true,
        events: ["Unhealthy x4 Startup probe failed: cat: can't open '/tmp/started': No such file or directory", "Unhealthy x2 Liveness probe failed: cat: can't open '/tmp/nothing': No such file or directory"],
      },
    ],
  },
  {
    // an exec probe that outlives timeoutSeconds fails with the CRI's timeout text
    name: 'exec readiness timing out',
    container: { name: 'app', image: 'busybox:1.36', args: ['sleep', '3600'], readinessProbe: { exec: { command: ['sleep', '5'] }, timeoutSeconds: 2, periodSeconds: 10 } },
    samples: [{ at: 12, restarts: 0, ready: false, events: ['Unhealthy x2 Readiness probe failed: command "sleep 5" timed out'] }],
  },
];

for (const tc of cases) {
  test(`probe timeline: ${tc.name}`, () => {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    const t0 = c.now();
    api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probed', namespace: 'default' }, spec: { containers: [tc.container] } });
    for (const s of tc.samples) {
      c.advanceTo(t0 + s.at * 1000);
      const pod = c.store.get<Pod>('Pod', 'default', 'probed')!;
      const cs = pod.status!.containerStatuses![0]!;
      const ip = pod.status!.podIP!;
      const got: Sample = {
        at: s.at,
        restarts: cs.restartCount,
        ...(s.ready !== undefined ? { ready: cs.ready } : {}),
        ...(s.started !== undefined ? { started: cs.started === true } : {}),
        ...(s.lastExit !== undefined ? { lastExit: cs.lastState.terminated?.exitCode ?? -1 } : {}),
        events: probeEvents(c, 'probed').map((e) => e.replaceAll(ip, 'IP')),
      };
      assert.deepEqual(got, s);
    }
  });
}

test('probe timeline: a file removed through exec is seen at the next tick', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'probed', namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36', args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 3600'], livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 10 } }] },
  });
  c.advance(60_000);
  assert.deepEqual(probeEvents(c, 'probed'), []);
  const pod = c.store.get<Pod>('Pod', 'default', 'probed')!;
  // what `kubectl exec probed -- rm /tmp/healthy` does to the container's files
  containerFs(c, pod, 'app').remove('/tmp/healthy');
  c.settle();
  c.advance(35_000);
  assert.deepEqual(probeEvents(c, 'probed'), [`Unhealthy x3 Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory`, 'Killing x1 Container app failed liveness probe, will be restarted']);
});
