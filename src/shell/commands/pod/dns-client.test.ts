/**
 * Transcripts for DNS clients given a server by name (resolved through the pod's own resolver
 * first, bind9 dighost.c set_nameserver / busybox add_ns) and for TCP queries (`dig +tcp`,
 * `host -T`, `nslookup -vc`) that travel the simulated data path, so a UDP-only NetworkPolicy
 * blocks them while plain UDP queries work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import type { NetworkPolicy } from '../../../sim/api/types.js';

const KUBE_DNS = 'kube-dns.kube-system.svc.cluster.local';

async function withPods(): Promise<Session> {
  const s = new Session(loadFixture('kubeadm-calico'));
  for (const line of [
    'kubectl run dnsutils --image=registry.k8s.io/e2e-test-images/jessie-dnsutils:1.7 --command -- sleep 3600',
    'kubectl run bb --image=busybox:1.36 --command -- sleep 3600',
  ]) {
    const r = await s.exec(line);
    assert.equal(r.exitCode, 0, r.stderr);
  }
  s.cluster.advance(60_000);
  return s;
}

/** Egress of every pod in `default` only to UDP 53 (no TCP 53, nothing else). */
function udpOnlyDnsEgress(): NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'dns-udp-only', namespace: 'default' },
    spec: { podSelector: {}, policyTypes: ['Egress'], egress: [{ ports: [{ protocol: 'UDP', port: 53 }] }] },
  };
}

interface Step {
  line: string;
  stdout: string;
  stderr?: string;
  exitCode: number;
}

async function transcript(s: Session, steps: Step[]): Promise<void> {
  for (const k of steps) {
    const r = await s.exec(k.line);
    assert.equal(r.stdout, k.stdout, `$ ${k.line}`);
    assert.equal(r.stderr, k.stderr ?? (k.exitCode === 0 ? '' : `command terminated with exit code ${k.exitCode}\n`), `$ ${k.line} (stderr)`);
    assert.equal(r.exitCode, k.exitCode, `$ ${k.line} (exit)`);
  }
}

test('transcript: a server given by name is resolved through the pod resolver first', async () => {
  const s = await withPods();
  await transcript(s, [
    { line: `kubectl exec dnsutils -- dig +short @${KUBE_DNS} kubernetes.default.svc.cluster.local`, stdout: '10.96.0.1\n', exitCode: 0 },
    {
      line: `kubectl exec dnsutils -- host kubernetes.default.svc.cluster.local ${KUBE_DNS}`,
      stdout: `Using domain server:\nName: ${KUBE_DNS}\nAddress: 10.96.0.10#53\nAliases: \n\nkubernetes.default.svc.cluster.local has address 10.96.0.1\n`,
      exitCode: 0,
    },
    {
      line: `kubectl exec dnsutils -- nslookup kubernetes.default.svc.cluster.local ${KUBE_DNS}`,
      stdout: `Server:\t\t${KUBE_DNS}\nAddress:\t10.96.0.10#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n`,
      exitCode: 0,
    },
    {
      line: `kubectl exec bb -- nslookup kubernetes.default.svc.cluster.local ${KUBE_DNS}`,
      stdout: `Server:\t\t${KUBE_DNS}\nAddress:\t10.96.0.10:53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n\n`,
      exitCode: 0,
    },
  ]);
  const full = await s.exec(`kubectl exec dnsutils -- dig @${KUBE_DNS} kubernetes.default.svc.cluster.local`);
  assert.match(full.stdout, /\n; \(1 server found\)\n;; global options: \+cmd\n/);
  assert.match(full.stdout, /\n;; SERVER: 10\.96\.0\.10#53\(kube-dns\.kube-system\.svc\.cluster\.local\) \(UDP\)\n/);
  // the short name works too: the pod's search list applies to the server name (glibc, ndots:5)
  const short = await s.exec('kubectl exec dnsutils -- dig +short @kube-dns.kube-system kubernetes.default.svc.cluster.local');
  assert.equal(short.stdout, '10.96.0.1\n');
});

test('transcript: an unresolvable server name is fatal before any query', async () => {
  const s = await withPods();
  await transcript(s, [
    { line: 'kubectl exec dnsutils -- dig @nosuch-dns kubernetes.default.svc.cluster.local', stdout: '', stderr: "dig: couldn't get address for 'nosuch-dns': not found\ncommand terminated with exit code 10\n", exitCode: 10 },
    { line: 'kubectl exec dnsutils -- host kubernetes nosuch-dns', stdout: '', stderr: "host: couldn't get address for 'nosuch-dns': not found\ncommand terminated with exit code 1\n", exitCode: 1 },
    { line: 'kubectl exec dnsutils -- nslookup kubernetes nosuch-dns', stdout: '', stderr: "nslookup: couldn't get address for 'nosuch-dns': not found\ncommand terminated with exit code 10\n", exitCode: 10 },
    { line: 'kubectl exec bb -- nslookup kubernetes nosuch-dns', stdout: '', stderr: "nslookup: bad address 'nosuch-dns'\ncommand terminated with exit code 1\n", exitCode: 1 },
  ]);
});

test('transcript: dig +tcp goes over TCP; a UDP-only DNS egress policy (calico) blocks it, UDP still works', async () => {
  const s = await withPods();
  const tcp = await s.exec('kubectl exec dnsutils -- dig +tcp kubernetes.default.svc.cluster.local');
  assert.equal(tcp.exitCode, 0, tcp.stderr);
  assert.match(tcp.stdout, /\n;; SERVER: 10\.96\.0\.10#53\(10\.96\.0\.10\) \(TCP\)\n/);
  s.cluster.insert(udpOnlyDnsEgress());
  s.cluster.settle();
  // each failed TCP connection ends its lookup with its own line (recorded: sim/dns/clients/testdata/tc/*-tcp-dropped.txt)
  const refused = ';; Connection to 10.96.0.10#53(10.96.0.10) for kubernetes.default.svc.cluster.local failed: timed out.\n;; no servers could be reached\n';
  await transcript(s, [
    { line: 'kubectl exec dnsutils -- dig +short kubernetes.default.svc.cluster.local', stdout: '10.96.0.1\n', exitCode: 0 },
    { line: 'kubectl exec dnsutils -- dig +tcp kubernetes.default.svc.cluster.local', stdout: refused.repeat(3), exitCode: 9 },
    { line: 'kubectl exec dnsutils -- dig +vc +short kubernetes.default.svc.cluster.local', stdout: refused.repeat(3), exitCode: 9 },
    { line: 'kubectl exec dnsutils -- host -T kubernetes.default.svc.cluster.local', stdout: refused.repeat(2), exitCode: 1 },
    { line: 'kubectl exec dnsutils -- nslookup -vc kubernetes.default.svc.cluster.local', stdout: `${refused.repeat(3)}\n`, exitCode: 1 },
    { line: 'kubectl exec dnsutils -- host kubernetes.default.svc.cluster.local', stdout: 'kubernetes.default.svc.cluster.local has address 10.96.0.1\n', exitCode: 0 },
  ]);
  const t0 = s.cluster.now();
  await s.exec('kubectl exec dnsutils -- dig +tcp kubernetes.default.svc.cluster.local');
  assert.equal(s.cluster.now() - t0, 30_000, 'three TCP connects of 10 s each');
});
