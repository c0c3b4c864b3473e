/**
 * Tables of kube-proxy's nftables proxier for the `nft list` goldens (src/sim/net/nft-list.test.ts),
 * and the batch that recreates each in a real kernel (scripts/record-nft-list.mjs feeds it to
 * the real nft, in a network namespace, and stores what `nft list ruleset` prints).
 */
import type { EndpointSlice, Service } from '../sim/api/types.js';
import { kubeProxyTable, newNftState, type NftState, type NftTable } from '../sim/net/kube-proxy/nftables.js';
import { opText, setOp } from '../sim/net/kube-proxy/nftables-tx.js';
import { syncNftablesRules, type NftSyncInput } from '../sim/net/kube-proxy/nftables-sync.js';
import { clusterIPService, endpointSlice, overallNftablesObjects } from './proxy-objects.js';

export interface NftListCase {
  name: string;
  table: NftTable;
}

function input(services: Service[], slices: EndpointSlice[], extra: Partial<NftSyncInput['config']> = {}): NftSyncInput {
  return {
    services,
    endpointSlices: slices,
    node: { name: 'test-node', ips: ['192.168.0.2'] },
    config: { mode: 'nftables', clusterCIDR: '10.0.0.0/8', ...extra },
    serviceCIDRs: ['172.30.0.0/16'],
  };
}

/** A cluster's own Services: kubernetes (443), kube-dns (53/udp, 53/tcp, 9153) and a few more. */
function clusterObjects(): { services: Service[]; slices: EndpointSlice[] } {
  const dns: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kube-dns', namespace: 'kube-system' },
    spec: {
      type: 'ClusterIP',
      clusterIP: '172.30.0.10',
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        { name: 'metrics', port: 9153, protocol: 'TCP' },
      ],
    },
  };
  const dnsSlice = endpointSlice('kube-system', 'kube-dns', 'dns', 53, []);
  dnsSlice.endpoints = [{ addresses: ['10.0.1.2'], nodeName: 'test-node' }, { addresses: ['10.0.2.3'] }];
  dnsSlice.ports = [
    { name: 'dns', port: 53, protocol: 'UDP' },
    { name: 'dns-tcp', port: 53, protocol: 'TCP' },
    { name: 'metrics', port: 9153, protocol: 'TCP' },
  ];
  const local: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { type: 'LoadBalancer', clusterIP: '172.30.0.20', externalTrafficPolicy: 'Local', loadBalancerSourceRanges: ['203.0.113.0/24', '192.168.0.0/24'], ports: [{ name: 'http', port: 80, protocol: 'TCP', nodePort: 30080 }] },
    status: { loadBalancer: { ingress: [{ ip: '198.51.100.7' }] } },
  };
  const localSlice = endpointSlice('shop', 'web', 'http', 8080, []);
  localSlice.endpoints = [{ addresses: ['10.0.1.5'], nodeName: 'test-node' }, { addresses: ['10.0.2.6'], nodeName: 'other' }];
  const empty: Service = { ...clusterIPService('shop', 'db', '172.30.0.21', 'pg', 5432) };
  empty.spec = { ...empty.spec, type: 'NodePort', ports: [{ name: 'pg', port: 5432, protocol: 'TCP', nodePort: 30432 }] };
  return {
    services: [clusterIPService('default', 'kubernetes', '172.30.0.1', 'https', 443), dns, local, empty],
    slices: [endpointSlice('default', 'kubernetes', 'https', 6443, ['192.168.0.2']), dnsSlice, localSlice],
  };
}

function synced(st: NftState, inp: NftSyncInput, now = 0): void {
  const r = syncNftablesRules(st, inp, { now });
  if (r.error !== undefined) throw new Error(r.error);
}

export function nftListCases(): NftListCase[] {
  const overall = newNftState();
  const o = overallNftablesObjects();
  synced(overall, input(o.services, o.slices));
  const cluster = newNftState();
  const c = clusterObjects();
  synced(cluster, input(c.services, c.slices));
  const masqAll = newNftState();
  synced(masqAll, input(c.services, c.slices, { masqueradeAll: true }));
  // nodePortAddresses matching every address: no nodeport-ips set, `fib daddr type local` instead
  const allNodePorts = newNftState();
  synced(allNodePorts, input(c.services, c.slices, { nodePortAddresses: ['0.0.0.0/0'] }));
  // a new process on a table that is already there: its base chains are deleted and made again
  const restarted = newNftState();
  synced(restarted, input(c.services, c.slices));
  synced(restarted, input([...c.services, ...o.services], [...c.slices, ...o.slices]), 10_000);
  // the IPv6 proxier of the dual-stack pair on an IPv4-only cluster: the fixed part only
  const six = newNftState();
  synced(six, { services: c.services, endpointSlices: c.slices, node: { name: 'test-node', ips: [] }, config: { mode: 'nftables', clusterCIDR: '10.0.0.0/8' }, serviceCIDRs: [], family: 'ip6' });
  return [
    { name: 'ip6-base', table: kubeProxyTable(six, 'ip6')! },
    { name: 'overall', table: kubeProxyTable(overall)! },
    { name: 'cluster', table: kubeProxyTable(cluster)! },
    { name: 'masquerade-all', table: kubeProxyTable(masqAll)! },
    { name: 'nodeports-all', table: kubeProxyTable(allNodePorts)! },
    { name: 'restarted', table: kubeProxyTable(restarted)! },
  ];
}

/**
 * An `nft -f` batch that makes `t` in an empty kernel with the same handle order: its sets and
 * chains in handle order, then their rules, then the elements.
 */
export function creationBatch(t: NftTable): string {
  const f = t.family;
  const lines = [opText({ verb: 'add', obj: 'table', comment: t.comment }, f)];
  const objects = [...t.sets.map((s) => ({ handle: s.handle ?? 0, line: opText(setOp(s), f) })), ...t.chains.map((c) => ({ handle: c.handle ?? 0, line: opText({ verb: 'add', obj: 'chain', name: c.name, ...(c.base ? { base: c.base } : {}), ...(c.comment !== undefined ? { comment: c.comment } : {}) }, f) }))];
  for (const o of objects.sort((a, b) => a.handle - b.handle)) lines.push(o.line);
  for (const c of t.chains) for (const r of c.rules) lines.push(opText({ verb: 'add', obj: 'rule', chain: c.name, rule: r.rule, text: r.text, ...(r.comment !== undefined ? { comment: r.comment } : {}) }, f));
  for (const s of t.sets) for (const e of s.elements) lines.push(opText({ verb: 'add', obj: 'element', set: s.name, kind: s.kind, elem: e }, f));
  return `${lines.join('\n')}\n`;
}
