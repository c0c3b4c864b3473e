/**
 * The pod's /etc/resolv.conf as the kubelet writes it (pkg/kubelet/network/dns/dns.go
 * GetPodDNS / formDNSConfigFitsLimits): ClusterFirst uses the node kubelet's clusterDNS and a
 * search list `<ns>.svc.<domain> svc.<domain> <domain>` + the host's searches, ndots:5;
 * Default copies the node's resolv.conf; ClusterFirstWithHostNet is ClusterFirst for hostNetwork
 * pods, which otherwise fall back to Default; None uses only dnsConfig. dnsConfig merges in.
 * ../shared/reference/coredns.md §8.
 */
import type { Pod } from '../api/types.js';

export interface NodeDnsInput {
  clusterDNS: string[];
  clusterDomain: string;
  /** The node's /etc/resolv.conf (or the kubelet's --resolv-conf file). */
  hostResolvConf: string;
}

export interface ResolvConf {
  nameservers: string[];
  searches: string[];
  options: { name: string; value?: string }[];
}

export function parseResolvConf(text: string): ResolvConf {
  const r: ResolvConf = { nameservers: [], searches: [], options: [] };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    if (!line) continue;
    const [key, ...rest] = line.split(/\s+/);
    if (key === 'nameserver' && rest[0]) r.nameservers.push(rest[0]);
    else if (key === 'search' || key === 'domain') r.searches = rest;
    else if (key === 'options')
      for (const o of rest) {
        const [name, value] = o.split(':');
        r.options.push(value === undefined ? { name: name! } : { name: name!, value });
      }
  }
  return r;
}

/** The resolv.conf contents, in the order and shape the kubelet writes. */
export function podResolvConf(pod: Pod, node: NodeDnsInput): string {
  const policy = pod.spec.dnsPolicy ?? 'ClusterFirst';
  const host = parseResolvConf(node.hostResolvConf);
  let rc: ResolvConf;
  const clusterFirst = (policy === 'ClusterFirst' && !pod.spec.hostNetwork) || policy === 'ClusterFirstWithHostNet';
  if (policy === 'None') rc = { nameservers: [], searches: [], options: [] };
  else if (clusterFirst && node.clusterDNS.length > 0) {
    const d = node.clusterDomain;
    const ns = pod.metadata.namespace ?? 'default';
    rc = {
      nameservers: [...node.clusterDNS],
      searches: [`${ns}.svc.${d}`, `svc.${d}`, d, ...host.searches],
      options: [{ name: 'ndots', value: '5' }],
    };
  } else rc = { nameservers: [...host.nameservers], searches: [...host.searches], options: [...host.options] };
  const cfg = pod.spec.dnsConfig;
  if (cfg) {
    for (const n of cfg.nameservers ?? []) if (!rc.nameservers.includes(n)) rc.nameservers.push(n);
    for (const s of cfg.searches ?? []) if (!rc.searches.includes(s)) rc.searches.push(s);
    for (const o of cfg.options ?? []) {
      const i = rc.options.findIndex((x) => x.name === o.name);
      const opt = o.value === undefined ? { name: o.name } : { name: o.name, value: o.value };
      if (i >= 0) rc.options[i] = opt;
      else rc.options.push(opt);
    }
  }
  rc.nameservers = rc.nameservers.slice(0, 3);
  rc.searches = rc.searches.slice(0, 32);
  const lines: string[] = [];
  if (rc.searches.length > 0) lines.push(`search ${rc.searches.join(' ')}`);
  for (const n of rc.nameservers) lines.push(`nameserver ${n}`);
  if (rc.options.length > 0) lines.push(`options ${rc.options.map((o) => (o.value === undefined ? o.name : `${o.name}:${o.value}`)).join(' ')}`);
  return `${lines.join('\n')}\n`;
}
