/**
 * IPv6 rulesets for the ip6tables goldens (src/sim/net/ip6tables-real.test.ts): a worker's
 * ip6tables as the simulator derives them (the kubelet's and kube-proxy's IPv6 chains) and a probe
 * of the IPv6 rule forms. scripts/record-ip6tables.mjs feeds each case's ip6tables-save text to
 * the real ip6tables-restore 1.8.9 (nf_tables) in a network namespace and records what the real
 * listing commands print; the test restores the same text into the simulator and compares.
 */
import { loadFixture } from './fixtures.js';
import { nodeIp6tables } from '../sim/node/runtime.js';
import { newIptablesState, type IptablesState } from '../sim/net/iptables.js';
import { runIptablesRestore, runIptablesSave } from '../sim/net/iptables-cmd.js';

/** The real tools recorded (Debian 12's iptables package). */
export const RECORDED_FLAVOR = { version: '1.8.9', backend: 'nf_tables' } as const;

/** The listing commands recorded per case, as ip6tables argv. */
export const IP6_LISTINGS: readonly (readonly string[])[] = [
  ['-S'],
  ['-t', 'nat', '-S'],
  ['-t', 'mangle', '-S'],
  ['-L', '-n', '-v'],
  ['-t', 'nat', '-L', '-n', '-v'],
  ['-t', 'nat', '-L', '-n', '--line-numbers'],
  ['-L', 'INPUT', '-n', '-x', '-v'],
];

/** A probe of the IPv6 forms: addresses, masks, REJECT types, DNAT ranges, recent, ipv6-icmp. */
const PROBE = `*filter
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:KUBE-X - [0:0]
-A INPUT -s fd00:0:0::1 -d FD00::/64 -p tcp -m tcp --dport 80 -j REJECT
-A INPUT ! -s ::1 -i eth0 -j KUBE-X
-A INPUT -m comment --comment "hello world" -m addrtype --dst-type LOCAL ! -d ::1/128 -j ACCEPT
-A INPUT -p udp -m recent --name X --set -j DROP
-A INPUT -p ipv6-icmp -j ACCEPT
-A INPUT -m conntrack --ctstate INVALID -j DROP
-A INPUT -s 2001:db8::5/32 -j ACCEPT
-A INPUT -s ::ffff:1.2.3.4 -d fd00::1/ffff:ffff:: -j ACCEPT
-A KUBE-X -p tcp -j REJECT --reject-with tcp-reset
-A KUBE-X -j REJECT --reject-with adm-prohibited
-A KUBE-X -d fe80::1:2:3:4/10 -j REJECT --reject-with no-route
COMMIT
*nat
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
-A PREROUTING -d fd00::10/128 -p tcp -m tcp --dport 80 -j DNAT --to-destination [fd00::1:2]:8080
-A PREROUTING -d fd00::11 -p tcp -j DNAT --to-destination fd00::1:3
-A OUTPUT -d 2001:db8:0:0:1:0:0:1 -p udp -m udp --dport 53 -j DNAT --to-destination [2001:DB8::53]:53
-A POSTROUTING -s fd00::/48 ! -d fd00::/48 -j MASQUERADE --random-fully
COMMIT
`;

function saved(st: IptablesState): string {
  return runIptablesSave(st, [], { now: 0, flavor: RECORDED_FLAVOR }).stdout;
}

/** Each case's ip6tables-save text (the simulator's): what the recorder restores into the real kernel. */
export function ip6Cases(): { name: string; save: string }[] {
  const c = loadFixture('kubeadm-calico', 1);
  c.advance(60_000);
  const worker = c.host('cka-w1');
  if (!worker) throw new Error('no cka-w1');
  const probe = newIptablesState([], 'ipv6');
  const r = runIptablesRestore(probe, [], PROBE);
  if (r.exitCode !== 0) throw new Error(r.stderr);
  return [
    { name: 'worker', save: saved(nodeIp6tables(worker)) },
    { name: 'probe', save: saved(probe) },
  ];
}
