/**
 * kube-proxy's start-up log against a recorded v1.35.0 kube-proxy log (iptables mode, blank
 * `mode`, unset nodePortAddresses, a 16-CPU node at 10.244.23.173; a KodeKloud lab transcript),
 * and the branches the same sources take for other configurations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kubeProxyExitLogs, kubeProxyStartupLogs, nodeHostIPs, type StartupInput } from './kube-proxy-startup.js';
import { loadKubeProxyConfig } from './kube-proxy.js';
import type { Node } from '../api/types.js';

/** The recording, timestamps cut (the simulated clock has millisecond resolution). */
const RECORDED_V1_35_0 = `I0705 server_linux.go:53] "Using iptables proxy"
I0705 shared_informer.go:370] "Waiting for caches to sync"
I0705 shared_informer.go:377] "Caches are synced"
I0705 server.go:218] "Successfully retrieved NodeIPs" NodeIPs=["10.244.23.173"]
I0705 conntrack.go:57] "Setting nf_conntrack_max" nfConntrackMax=524288
E0705 server.go:255] "Kube-proxy configuration may be incomplete or incorrect" err="nodePortAddresses is unset; NodePort connections will be accepted on all local IPs. Consider using \`--nodeport-addresses primary\`"
I0705 server.go:264] "kube-proxy running in dual-stack mode" primary ipFamily="IPv4"
I0705 server_linux.go:136] "Using iptables Proxier"
I0705 proxier.go:242] "Setting route_localnet=1 to allow node-ports on localhost; to change this either disable iptables.localhostNodePorts (--iptables-localhost-nodeports) or set nodePortAddresses (--nodeport-addresses) to filter loopback addresses" ipFamily="IPv4"
I0705 server.go:529] "Version info" version="v1.35.0"
I0705 server.go:531] "Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""
I0705 config.go:200] "Starting service config controller"
I0705 shared_informer.go:349] "Waiting for caches to sync" controller="service config"
I0705 config.go:106] "Starting endpoint slice config controller"
I0705 shared_informer.go:349] "Waiting for caches to sync" controller="endpoint slice config"
I0705 config.go:403] "Starting serviceCIDR config controller"
I0705 shared_informer.go:349] "Waiting for caches to sync" controller="serviceCIDR config"
I0705 config.go:309] "Starting node config controller"
I0705 shared_informer.go:349] "Waiting for caches to sync" controller="node config"
I0705 shared_informer.go:356] "Caches are synced" controller="node config"
I0705 shared_informer.go:356] "Caches are synced" controller="endpoint slice config"
I0705 shared_informer.go:356] "Caches are synced" controller="serviceCIDR config"
I0705 shared_informer.go:356] "Caches are synced" controller="service config"
`;

const AT = Date.UTC(2026, 6, 5, 19, 8, 6, 302);

function node(ips: string[], cpu: string, podCIDRs: string[] = ['10.244.1.0/24']): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1' },
    spec: { podCIDR: podCIDRs[0]!, podCIDRs },
    status: { addresses: [...ips.map((address) => ({ type: 'InternalIP', address })), { type: 'Hostname', address: 'n1' }], capacity: { cpu } },
  } as Node;
}

function input(text: string, n: Node, image = 'registry.k8s.io/kube-proxy:v1.35.0'): StartupInput {
  const loaded = loadKubeProxyConfig(text);
  assert.ok(loaded.ok);
  return { at: AT, text, config: loaded.config, node: n, image };
}

const BASE = 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nclusterCIDR: 10.244.0.0/16\n';

/** `Lmmdd hh:mm:ss.uuuuuu     1 file:line] msg` → `Lmmdd file:line] msg`. */
function cut(lines: string[]): string {
  return lines.map((l) => l.replace(/^([IWE]\d{4}) \d\d:\d\d:\d\d\.\d{6} {7}1 /, '$1 ')).join('\n') + '\n';
}

test('kube-proxy start-up: the recorded v1.35.0 log, line for line', () => {
  const got = kubeProxyStartupLogs(input(`${BASE}mode: ""\n`, node(['10.244.23.173'], '16')));
  assert.equal(cut(got), RECORDED_V1_35_0);
  // the recording's own spacing: first line at the start, the last syncs 344 ms later
  assert.match(got[0]!, /^I0705 19:08:06\.302000 {7}1 /);
  assert.match(got[got.length - 1]!, /^I0705 19:08:06\.646000 {7}1 /);
});

test('kube-proxy start-up: nftables mode defaults nodePortAddresses to primary (no warning, no route_localnet)', () => {
  const got = cut(kubeProxyStartupLogs(input(`${BASE}mode: nftables\n`, node(['192.168.122.21'], '2'))));
  assert.doesNotMatch(got, /Using iptables proxy"|route_localnet|may be incomplete/);
  assert.match(got, /server_linux\.go:253\] "Using nftables Proxier"\n/);
  // 32768 × 2 CPUs is below conntrack.min
  assert.match(got, /"Setting nf_conntrack_max" nfConntrackMax=131072\n/);
});

test('kube-proxy start-up: nodePortAddresses and localhostNodePorts decide the route_localnet line and the warnings', () => {
  const lines = (cfg: string, n = node(['192.168.122.21'], '2')): string => cut(kubeProxyStartupLogs(input(`${BASE}${cfg}`, n)));
  // a node CIDR does not reach 127.0.0.1: no route_localnet, no warning
  assert.doesNotMatch(lines('nodePortAddresses: [192.168.122.0/24]\n'), /route_localnet|may be incomplete/);
  // a loopback CIDR keeps it
  assert.match(lines('nodePortAddresses: [127.0.0.0/8]\n'), /route_localnet/);
  // switched off
  assert.doesNotMatch(lines('iptables:\n  localhostNodePorts: false\n'), /route_localnet/);
  // IPv6 only on an IPv4 node: the IPv4 proxier matches all its addresses (loopback included)
  const v6only = lines('nodePortAddresses: ["fd00::/64"]\n');
  assert.match(v6only, /err="cluster appears to be IPv4-primary but nodePortAddresses contains only IPv6 addresses; NodePort connections will be accepted on all local IPv4 IPs"\n/);
  assert.match(v6only, /route_localnet/);
  // a dual-stack cluster whose nodePortAddresses are IPv4 only
  const dual = node(['192.168.122.21', 'fd00:122::21'], '2', ['10.244.1.0/24', 'fd00:10:244:1::/64']);
  const got = lines('nodePortAddresses: [192.168.122.0/24]\n', dual);
  assert.match(got, /NodeIPs=\["192\.168\.122\.21","fd00:122::21"\]\n/);
  assert.match(got, /err="cluster appears to be dual-stack but nodePortAddresses contains only IPv4 addresses; NodePort connections will be accepted on all local IPv6 IPs"\n/);
  // checkBadIPConfig: clusterCIDR of the other family only
  const wrong = cut(kubeProxyStartupLogs(input('apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nclusterCIDR: fd00:10:244::/56\n', node(['192.168.122.21'], '2'))));
  assert.match(wrong, /E\d{4} server\.go:275\] "Kube-proxy configuration may be incomplete or incorrect" err="cluster is IPv4-primary but clusterCIDRs contains only IPv6 addresses"\n/);
});

test('kube-proxy start-up: node IPs as GetNodeHostIPs picks them, the version from the image tag', () => {
  assert.deepEqual(nodeHostIPs(node(['10.0.0.1', '10.0.0.2', 'fd00::1'], '2')), ['10.0.0.1', 'fd00::1']);
  assert.deepEqual(nodeHostIPs(undefined), []);
  const got = cut(kubeProxyStartupLogs(input(BASE, node(['10.0.0.1'], '2'), 'registry.k8s.io/kube-proxy:v1.35.9')));
  assert.match(got, /"Version info" version="v1\.35\.9"\n/);
});

test('kube-proxy exit on a config change: RunE logs the error, then cli.Run', () => {
  assert.deepEqual(cut(kubeProxyExitLogs(AT, 'content of the proxy server\'s configuration file was updated')).split('\n'), [
    'E0705 server.go:134] "Error running ProxyServer" err="content of the proxy server\'s configuration file was updated"',
    'E0705 run.go:72] "command failed" err="content of the proxy server\'s configuration file was updated"',
    '',
  ]);
});
