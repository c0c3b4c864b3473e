/**
 * `nslookup` per busybox version (images.ts busyboxNslookup): 1.28's libc applet (the output the
 * Kubernetes DNS debugging page shows), 1.29's big applet without a search list, 1.36's with one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const SERVER_128 = 'Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\n';
const SERVER_BIG = 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n';

test('transcript: busybox nslookup by image version', async () => {
  const s = new Session(loadFixture('kubeadm-calico'));
  for (const line of [
    'kubectl run bb128 --image=busybox:1.28 --command -- sleep 3600',
    'kubectl run bb129 --image=busybox:1.29.3 --command -- sleep 3600',
    'kubectl run bb136 --image=busybox:1.36 --command -- sleep 3600',
  ]) assert.equal((await s.exec(line)).exitCode, 0, line);
  s.cluster.advance(60_000);
  const cases: { line: string; stdout: string; stderr: string; exitCode: number }[] = [
    {
      line: 'kubectl exec bb128 -- nslookup kubernetes.default',
      stdout: `${SERVER_128}Name:      kubernetes.default\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n`,
      stderr: '',
      exitCode: 0,
    },
    {
      line: 'kubectl exec bb128 -- nslookup kubernetes',
      stdout: `${SERVER_128}Name:      kubernetes\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n`,
      stderr: '',
      exitCode: 0,
    },
    { line: 'kubectl exec bb128 -- nslookup nosuch', stdout: SERVER_128, stderr: "nslookup: can't resolve 'nosuch'\ncommand terminated with exit code 1\n", exitCode: 1 },
    {
      line: 'kubectl exec bb128 -- nslookup 10.96.0.1',
      stdout: `${SERVER_128}Name:      10.96.0.1\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n`,
      stderr: '',
      exitCode: 0,
    },
    {
      line: 'kubectl exec bb128 -- nslookup',
      stdout: '',
      stderr: 'BusyBox v1.28.4 (2018-05-22 17:00:17 UTC) multi-call binary.\n\nUsage: nslookup [HOST] [SERVER]\n\nQuery the nameserver for the IP address of the given HOST\noptionally using a specified DNS server\ncommand terminated with exit code 1\n',
      exitCode: 1,
    },
    { line: 'kubectl exec bb128 -- nslookup x nosuch-server', stdout: '', stderr: "nslookup: bad address 'nosuch-server'\ncommand terminated with exit code 1\n", exitCode: 1 },
    // 1.29: big applet, a dotless name is sent as typed (no search list yet)
    { line: 'kubectl exec bb129 -- nslookup kubernetes', stdout: `${SERVER_BIG}** server can't find kubernetes: NXDOMAIN\n\n** server can't find kubernetes: NXDOMAIN\n\n`, stderr: 'command terminated with exit code 1\n', exitCode: 1 },
    // 1.36: big applet with the search list, and a dotted name is not searched
    {
      line: 'kubectl exec bb136 -- nslookup kubernetes.default',
      stdout: `${SERVER_BIG}** server can't find kubernetes.default: NXDOMAIN\n\n** server can't find kubernetes.default: NXDOMAIN\n\n`,
      stderr: 'command terminated with exit code 1\n',
      exitCode: 1,
    },
  ];
  for (const k of cases) {
    const r = await s.exec(k.line);
    assert.deepEqual([r.stdout, r.stderr, r.exitCode], [k.stdout, k.stderr, k.exitCode], `$ ${k.line}`);
  }
});
