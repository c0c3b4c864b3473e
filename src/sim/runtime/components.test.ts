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

// the API server's etcd client verifies etcd's serving certificate against --etcd-cafile
// (staging/src/k8s.io/apiserver/pkg/storage/storagebackend/factory/etcd3.go, Go's crypto/tls)
const pki = (await import('../../testing/fixtures.js')).loadFixture('kubeadm-calico').host('cka-cp1')!.fs;
const peers = { read: (p: string) => pki.tryRead(p), etcdServingCert: pki.tryRead('/etc/kubernetes/pki/etcd/server.crt')! };
const etcdTls: { name: string; argv: string[]; handshake: RegExp | undefined }[] = [
  { name: 'the etcd CA verifies etcd', argv: ['kube-apiserver', '--etcd-servers=https://127.0.0.1:2379', '--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt'], handshake: undefined },
  { name: 'the cluster CA did not sign etcd', argv: ['kube-apiserver', '--etcd-servers=https://127.0.0.1:2379', '--etcd-cafile=/etc/kubernetes/pki/ca.crt'], handshake: /tls: failed to verify certificate: x509: certificate signed by unknown authority"$/ },
  { name: 'an address not in etcd\'s SANs', argv: ['kube-apiserver', '--etcd-servers=https://10.0.0.9:2379', '--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt'], handshake: /x509: certificate is valid for 192\.168\.122\.11, 127\.0\.0\.1, ::1, not 10\.0\.0\.9"$/ },
];
for (const tc of etcdTls) {
  test(`kube-apiserver to etcd TLS: ${tc.name}`, () => {
    const r = startComponent('kube-apiserver', tc.argv, exists, { startedAt: T0, image: 'registry.k8s.io/kube-apiserver:v1.35.9' }, peers);
    if (!tc.handshake) return assert.equal(r.ok, true, r.logs.join('\n'));
    assert.equal(r.ok, false);
    assert.match(r.logs[0]!, /Err: connection error: desc = "transport: authentication handshake failed: /);
    assert.match(r.logs[0]!, tc.handshake);
    assert.match(r.logs[1]!, /run\.go:72\] "command failed" err="context deadline exceeded"$/);
  });
}
