/**
 * resolv.conf parsing and the kubelet's pod resolv.conf (pkg/kubelet/network/dns/dns.go
 * GetPodDNS / appendDNSConfig / formDNSConfigFitsLimits, written out as containerd does:
 * `search`, then `nameserver` lines, then `options`).
 */
import type { PodDNSConfig } from '../api/types.js';

export interface ResolvConf {
  nameservers: string[];
  searches: string[];
  options: string[];
}

/** Parse resolv.conf text: nameservers accumulate, the last `search`/`domain` line wins, the last `options` line wins. */
export function parseResolvConf(text: string): ResolvConf {
  const out: ResolvConf = { nameservers: [], searches: [], options: [] };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    if (!line) continue;
    const f = line.split(/\s+/);
    const key = f[0];
    const rest = f.slice(1);
    if (key === 'nameserver' && rest[0] !== undefined) out.nameservers.push(rest[0]);
    else if (key === 'search') out.searches = rest.map((s) => (s.length > 1 ? s.replace(/\.$/, '') : s));
    else if (key === 'domain' && rest[0] !== undefined) out.searches = [rest[0].replace(/\.$/, '')];
    else if (key === 'options') out.options = rest;
  }
  return out;
}

export function formatResolvConf(rc: ResolvConf): string {
  let s = '';
  if (rc.searches.length > 0) s += `search ${rc.searches.join(' ')}\n`;
  for (const ns of rc.nameservers) s += `nameserver ${ns}\n`;
  if (rc.options.length > 0) s += `options ${rc.options.join(' ')}\n`;
  return s;
}

export interface PodDnsInput {
  namespace: string;
  dnsPolicy?: 'ClusterFirst' | 'ClusterFirstWithHostNet' | 'Default' | 'None';
  hostNetwork?: boolean;
  dnsConfig?: PodDNSConfig;
  /** kubelet clusterDNS (kubeadm: [10.96.0.10]). */
  clusterDNS: string[];
  clusterDomain: string;
  /** Text of the kubelet's resolvConf file on the node; undefined when resolvConf is "". */
  nodeResolvConf: string | undefined;
}

export interface PodDnsResult {
  resolvConf: ResolvConf;
  text: string;
  /** Warning events the kubelet records (reason, message). */
  events: { reason: string; message: string }[];
}

/** The kubelet's own parseResolvConf skips a `search .` entry (systemd-resolved writes one); seed 000's pods show no `.`. */
function withoutRootSearch(rc: ResolvConf): ResolvConf {
  return { ...rc, searches: rc.searches.filter((s) => s !== '.') };
}

const MAX_NS = 3;
const MAX_SEARCH = 32;
const MAX_SEARCH_CHARS = 2048;

function dedupe(list: string[]): string[] {
  return list.filter((x, i) => list.indexOf(x) === i);
}

/** The pod's resolv.conf for its dnsPolicy, dnsConfig and the kubelet's settings. */
export function podResolvConf(input: PodDnsInput): PodDnsResult {
  const events: PodDnsResult['events'] = [];
  const host: ResolvConf =
    input.nodeResolvConf === undefined ? { nameservers: ['127.0.0.1'], searches: ['.'], options: [] } : withoutRootSearch(parseResolvConf(input.nodeResolvConf));
  let policy = input.dnsPolicy ?? 'ClusterFirst';
  if (policy === 'ClusterFirst' && input.hostNetwork) policy = 'Default';
  if ((policy === 'ClusterFirst' || policy === 'ClusterFirstWithHostNet') && input.clusterDNS.length === 0) {
    events.push({
      reason: 'MissingClusterDNS',
      message: `pod: "${input.namespace}" . kubelet does not have ClusterDNS IP configured and cannot create Pod using "${policy}" policy. Falling back to "Default" policy.`,
    });
    policy = 'Default';
  }
  let rc: ResolvConf;
  if (policy === 'None') rc = { nameservers: [], searches: [], options: [] };
  else if (policy === 'Default') rc = { nameservers: [...host.nameservers], searches: [...host.searches], options: [...host.options] };
  else {
    const d = input.clusterDomain;
    rc = {
      nameservers: [...input.clusterDNS],
      searches: dedupe([`${input.namespace}.svc.${d}`, `svc.${d}`, d, ...host.searches]),
      options: ['ndots:5'],
    };
  }
  const cfg = input.dnsConfig;
  if (cfg) {
    rc.nameservers = [...rc.nameservers, ...(cfg.nameservers ?? [])];
    rc.searches = dedupe([...rc.searches, ...(cfg.searches ?? [])]);
    const opts = new Map<string, string | undefined>();
    for (const o of rc.options) {
      const i = o.indexOf(':');
      opts.set(i < 0 ? o : o.slice(0, i), i < 0 ? undefined : o.slice(i + 1));
    }
    for (const o of cfg.options ?? []) opts.set(o.name, o.value);
    rc.options = [...opts.entries()].map(([k, v]) => (v === undefined ? k : `${k}:${v}`));
  }
  if (rc.nameservers.length > MAX_NS) {
    rc.nameservers = rc.nameservers.slice(0, MAX_NS);
    events.push({
      reason: 'DNSConfigForming',
      message: `Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${rc.nameservers.join(' ')}`,
    });
  }
  const before = rc.searches.length;
  let searches = rc.searches.filter((s) => s.length <= 253);
  if (searches.length > MAX_SEARCH) searches = searches.slice(0, MAX_SEARCH);
  while (searches.join(' ').length > MAX_SEARCH_CHARS) searches = searches.slice(0, -1);
  if (searches.length !== before) {
    events.push({
      reason: 'DNSConfigForming',
      message: `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${searches.join(' ')}`,
    });
  }
  rc.searches = searches;
  return { resolvConf: rc, text: formatResolvConf(rc), events };
}

/** ndots/timeout/attempts from resolv.conf options (glibc defaults 1 / 5 s / 2). */
export function resolverOptions(rc: ResolvConf): { ndots: number; timeoutS: number; attempts: number } {
  let ndots = 1;
  let timeoutS = 5;
  let attempts = 2;
  for (const o of rc.options) {
    const [k, v] = o.split(':');
    const n = Number(v);
    if (k === 'ndots' && Number.isFinite(n)) ndots = Math.min(Math.max(n, 0), 15);
    if (k === 'timeout' && Number.isFinite(n)) timeoutS = Math.min(Math.max(n, 1), 30);
    if (k === 'attempts' && Number.isFinite(n)) attempts = Math.min(Math.max(n, 1), 5);
  }
  return { ndots, timeoutS, attempts };
}
