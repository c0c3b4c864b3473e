import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startComponent, type ComponentName } from './components.js';

const T0 = Date.parse('2026-11-27T06:00:00Z');
const LATER = Date.parse('2026-12-02T10:17:42.250Z');
const exists = (): boolean => true;
const ETCD_ARGS = ['etcd', '--advertise-client-urls=https://192.168.122.10:2379', '--data-dir=/var/lib/etcd', '--listen-client-urls=https://127.0.0.1:2379,https://192.168.122.10:2379', '--name=cka-cp1'];

// component logs carry the time the process started (klog headers, etcd's zap "ts") and the
// version of the binary the image holds
const cases: { name: string; component: ComponentName; argv: string[]; image: string; at: number; want: RegExp[] }[] = [
  {
    name: 'kube-apiserver started with the cluster',
    component: 'kube-apiserver',
    argv: ['kube-apiserver', '--etcd-servers=https://127.0.0.1:2379'],
    image: 'registry.k8s.io/kube-apiserver:v1.35.9',
    at: T0,
    want: [/^I1127 06:00:00\.000000 {7}1 server\.go:150\] "Starting kube-apiserver" version="v1\.35\.9"$/],
  },
  {
    name: 'kube-scheduler restarted later',
    component: 'kube-scheduler',
    argv: ['kube-scheduler'],
    image: 'registry.k8s.io/kube-scheduler:v1.35.2',
    at: LATER,
    want: [/^I1202 10:17:42\.250000 {7}1 server\.go:150\] "Starting kube-scheduler" version="v1\.35\.2"$/],
  },
  {
    name: 'etcd logs JSON with its own version',
    component: 'etcd',
    argv: ETCD_ARGS,
    image: 'registry.k8s.io/etcd:3.6.5-0',
    at: LATER,
    want: [
      /^\{"level":"info","ts":"2026-12-02T10:17:42\.250000Z","caller":"etcdmain\/etcd\.go:\d+","msg":"Running: ","args":\["etcd","--advertise-client-urls=https:\/\/192\.168\.122\.10:2379",/,
      /^\{"level":"info","ts":"2026-12-02T10:17:42\.250000Z","caller":"embed\/etcd\.go:\d+","msg":"starting an etcd server","etcd-version":"3\.6\.5",.*"name":"cka-cp1","data-dir":"\/var\/lib\/etcd",/,
    ],
  },
  {
    name: 'a failing kube-apiserver logs at its start',
    component: 'kube-apiserver',
    argv: ['kube-apiserver', '--etcd-servers=https://127.0.0.1:2399'],
    image: 'registry.k8s.io/kube-apiserver:v1.35.9',
    at: LATER,
    want: [/^W1202 10:17:42\.250000 {7}1 logging\.go:55\] /, /^E1202 10:18:02\.250000 {7}1 run\.go:72\] "command failed" err="context deadline exceeded"$/],
  },
];

for (const tc of cases) {
  test(`component logs: ${tc.name}`, () => {
    const r = startComponent(tc.component, tc.argv, exists, { startedAt: tc.at, image: tc.image });
    assert.equal(r.logs.length, tc.want.length, r.logs.join('\n'));
    tc.want.forEach((re, i) => assert.match(r.logs[i]!, re));
    assert.ok(r.logs.every((l) => !l.includes('v1.35.9') || tc.component !== 'etcd'), 'etcd never reports the Kubernetes version');
  });
}
