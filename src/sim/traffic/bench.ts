/**
 * Benchmark bodies for `npm run bench` (issues 4 and 5): each returns a function to time.
 *  - kubeProxySyncBench: full kube-proxy sync + iptables-save for N Services / M endpoints;
 *  - clusterIPWalkBench: one ClusterIP connection walk on seed 000's net/web;
 *  - nslookupBench: one busybox nslookup through the whole path (resolv.conf → kube-proxy DNAT → CoreDNS);
 *  - corefileLoadBench: parse kubeadm's Corefile and start a CoreDNS server from it.
 */
import type { Cluster } from '../cluster.js';
import type { EndpointSlice, Service } from '../api/types.js';
import { newIptablesState } from '../net/iptables.js';
import { ensureKubeletRules } from '../net/kube-proxy/kubelet-rules.js';
import { syncProxyRules } from '../net/kube-proxy/sync.js';
import { renderSave } from '../net/render.js';
import { connect } from './path.js';
import { dnsTransport } from './dns.js';
import { queryFnFromTransport } from '../dns/stub/query.js';
import { nslookupBusybox } from '../dns/clients/nslookup-busybox.js';
import { podFs } from '../runtime/podfs.js';
import type { Pod } from '../api/types.js';
import { kubeadmCorefile } from '../dns/corefile/kubeadm.js';
import { startCoreDns } from '../dns/server.js';
import { staticClusterView } from '../dns/cluster-view.js';
import { ManualClock } from '../../util/clock.js';
import { Random } from '../../util/random.js';

export function kubeProxySyncBench(services = 10_000, endpoints = 50_000): () => number {
  const per = Math.max(1, Math.floor(endpoints / services));
  const svcs: Service[] = [];
  const slices: EndpointSlice[] = [];
  for (let i = 0; i < services; i++) {
    const ip = `10.${96 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
    svcs.push({ apiVersion: 'v1', kind: 'Service', metadata: { name: `s${i}`, namespace: 'bench' }, spec: { clusterIP: ip, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] } });
    slices.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `s${i}-x`, namespace: 'bench', labels: { 'kubernetes.io/service-name': `s${i}` } },
      addressType: 'IPv4',
      endpoints: Array.from({ length: per }, (_, j) => ({ addresses: [`10.244.${(i * per + j) >> 8 & 255}.${(i * per + j) & 255}`], conditions: { ready: true }, nodeName: 'n1' })),
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    });
  }
  return () => {
    const st = newIptablesState();
    ensureKubeletRules(st);
    syncProxyRules(st, { services: svcs, endpointSlices: slices, node: { name: 'n1', ips: ['192.168.122.21'] }, config: { clusterCIDR: '10.244.0.0/16', randomFully: true } });
    return renderSave(st.tables, { now: 0 }).length;
  };
}

/** Needs a cluster with seed 000's net/web (see seed000.ts addSeed000Web). */
export function clusterIPWalkBench(c: Cluster): () => boolean {
  return () => connect(c, { kind: 'pod', ns: 'net', name: 'c' }, '10.111.80.136', 80, 'tcp').ok;
}

/** Needs a cluster with seed 000's net/web: busybox `nslookup web.net.svc.cluster.local` from pod c. */
export function nslookupBench(c: Cluster): () => number {
  const pod = c.store.get<Pod>('Pod', 'net', 'c');
  const resolvConf = podFs(c, pod?.metadata.uid ?? '').tryRead('/etc/resolv.conf') ?? '';
  return () => {
    const query = queryFnFromTransport(dnsTransport(c, { kind: 'pod', ns: 'net', name: 'c' }), c.random);
    return nslookupBusybox({ args: ['web.net.svc.cluster.local'], resolvConf, query, clock: c.clock, random: c.random }).exitCode;
  };
}

/** Corefile parse + server start (CoreDNS's setup of every plugin) for kubeadm's default Corefile. */
export function corefileLoadBench(): () => boolean {
  const corefile = kubeadmCorefile('cluster.local');
  const files: Record<string, string> = { '/etc/resolv.conf': 'nameserver 192.168.122.1\n', '/etc/hosts': '127.0.0.1 localhost\n' };
  return () =>
    startCoreDns({
      corefile,
      readFile: (p) => files[p],
      view: staticClusterView({}),
      transport: () => 'timeout',
      clock: new ManualClock(0),
      random: new Random(1),
      podIp: '10.244.0.5',
    }).ok;
}
