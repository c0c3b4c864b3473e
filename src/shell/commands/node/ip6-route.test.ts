/**
 * `ip -6 route` on a dual-stack Calico node against iproute2 6.1's own listing of the same state
 * (scripts/record-ip6-route.sh rebuilds fixture kubeadm-calico-dualstack's cka-cp1 in a network
 * namespace: testdata/ip6-route-cp1.txt), and the IPv6 routes of a dual-stack pod.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

test('ip -6 route on cka-cp1 of the dual-stack fixture is what the kernel lists', async () => {
  const s = new Session(loadFixture('kubeadm-calico-dualstack', 1));
  await s.exec('ssh cka-cp1');
  const r = await s.exec('ip -6 route');
  assert.equal(r.stdout, readFileSync(new URL('./testdata/ip6-route-cp1.txt', import.meta.url), 'utf8'));
  assert.equal(
    (await s.exec('ip -6 route show dev enp1s0')).stdout,
    'fd00:192:168:122::/64 proto kernel metric 256 pref medium\nfe80::/64 proto kernel metric 256 pref medium\ndefault via fd00:192:168:122::1 proto static metric 1024 pref medium\n',
  );
});

test('a dual-stack pod routes IPv6 through the host side of its veth', async () => {
  const s = new Session(loadFixture('kubeadm-calico-dualstack', 1));
  await s.exec('ssh cka-w1');
  const ns = (await s.exec('ip netns')).stdout.split('\n')[0]!.split(' ')[0]!;
  const r = await s.exec(`ip -n ${ns} -6 route`);
  assert.match(r.stdout, /^fd00:10:244:5f::8\d dev eth0 proto kernel metric 256 pref medium\nfe80::\/64 dev eth0 proto kernel metric 256 pref medium\ndefault via fe80::ecee:eeff:feee:eeee dev eth0 metric 1024 pref medium\n$/);
});
