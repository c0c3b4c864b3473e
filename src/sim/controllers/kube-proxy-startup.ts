/**
 * What kube-proxy v1.35 logs when it starts at the default verbosity (kubeadm's DaemonSet runs it
 * with `--config=/var/lib/kube-proxy/config.conf --hostname-override=$(NODE_NAME)`, no `--v`, so
 * only V(0) lines and errors are printed), in the order the process prints them:
 *
 *  1. server_linux.go platformApplyDefaults: `Using iptables proxy` when `mode` is blank;
 *  2. the NodeManager's node informer (pkg/proxy/node.go, client-go shared_informer.go
 *     WaitForCacheSync, unnamed): `Waiting for caches to sync`, `Caches are synced`;
 *  3. server.go newProxyServer: `Successfully retrieved NodeIPs` (the Node's first InternalIP of
 *     each family, nodeutil.GetNodeHostIPs); conntrack.go SetMax `Setting nf_conntrack_max`
 *     (conntrack.maxPerCore × CPUs, at least conntrack.min: 32768 × 2 CPUs < 131072 here);
 *     checkBadConfig's and checkBadIPConfig's `Kube-proxy configuration may be incomplete or
 *     incorrect` errors; `kube-proxy running in dual-stack mode` (a Linux node with iptables and
 *     ip6tables, or nft, always supports both families: server_linux.go platformCheckSupported);
 *  4. server_linux.go createProxier: `Using iptables Proxier` / `Using nftables Proxier`; the
 *     IPv4 iptables proxier's `Setting route_localnet=1 …` (pkg/proxy/iptables/proxier.go
 *     NewProxier, when iptables.localhostNodePorts is on and nodePortAddresses admits 127.0.0.1;
 *     the logger carries ipFamily);
 *  5. server.go Run: `Version info`, `Golang settings`; the config controllers
 *     (pkg/proxy/config/config.go) each `Starting … config controller` then client-go's
 *     WaitForNamedCacheSync `Waiting for caches to sync` / `Caches are synced` with controller=…
 *     (the node config's informer is the NodeManager's, already synced).
 *
 * Nothing is logged per sync at V(0): syncProxyRules' lines are V(2) and above, so a healthy
 * kube-proxy's log ends there.
 *
 * Texts, order, key formatting (klog's JSON rendering of values: NodeIPs=["…"]) and the file:line
 * of every line were taken from a recorded v1.35.0 kube-proxy log (iptables mode, blank `mode`,
 * unset nodePortAddresses; a KodeKloud lab transcript in the public corpus) and match the v1.35 line
 * of kubernetes/kubernetes cmd/kube-proxy/app/{server,server_linux}.go. Two positions were not in
 * that recording and are derived from the stored sources: `Using nftables Proxier` (server_linux.go
 * createProxier, 117 lines below `Using iptables Proxier` in the v1.35/v1.36 body of that function)
 * and server.go's second `Kube-proxy configuration may be incomplete or incorrect` (checkBadIPConfig,
 * 20 lines below the first). The ipvs mode (not simulated) logs no mode-specific line here.
 *
 * Timing: the recording's gaps between lines (the informers' 100 ms sync poll) are kept, in the
 * simulated clock's milliseconds.
 */
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import { ipFamilyOf, parseRange, rangeContains, type IPFamily } from '../../util/ip.js';
import { klogLine } from '../../util/klog.js';
import type { Node } from '../api/types.js';
import type { KubeProxyConfig } from '../net/kube-proxy/sync.js';

/** conntrack defaults (pkg/proxy/apis/config/v1alpha1/defaults.go): maxPerCore 32768, min 131072. */
const CONNTRACK_MAX_PER_CORE = 32768;
const CONNTRACK_MIN = 131072;

export interface StartupInput {
  /** When the process started (ms). */
  at: number;
  /** The config.conf text it loaded (already validated) and its decoded form. */
  text: string;
  config: KubeProxyConfig;
  /** The Node it runs on (addresses, podCIDRs, CPU capacity), if the API has it. */
  node: Node | undefined;
  /** Its image, e.g. registry.k8s.io/kube-proxy:v1.35.0: the version it reports. */
  image: string;
}

/** klog's rendering of a structured value (k8s.io/klog/v2 textlogger: strings quoted, others as JSON). */
function q(s: string): string {
  return JSON.stringify(s);
}

/** nodeutil.GetNodeHostIPs: the first InternalIP (else ExternalIP), then the first of the other family. */
export function nodeHostIPs(node: Node | undefined): string[] {
  const addrs = node?.status?.addresses ?? [];
  const pick = (type: string): string[] => addrs.filter((a) => a.type === type && ipFamilyOf(a.address)).map((a) => a.address);
  const all = [...pick('InternalIP'), ...pick('ExternalIP')];
  if (all.length === 0) return [];
  const first = all[0]!;
  const other = all.find((ip) => ipFamilyOf(ip) !== ipFamilyOf(first));
  return other ? [first, other] : [first];
}

function rawConfig(text: string): Record<string, unknown> {
  try {
    const d = parseYaml(text);
    return d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function familiesOf(cidrs: readonly string[]): Map<IPFamily, string[]> {
  const m = new Map<IPFamily, string[]>();
  for (const c of cidrs) {
    const r = parseRange(c);
    if (r) m.set(r.family, [...(m.get(r.family) ?? []), c]);
  }
  return m;
}

/** netutils.IsDualStackCIDRStrings: CIDRs of both families. */
function isDualStack(cidrs: readonly string[]): boolean {
  return familiesOf(cidrs).size === 2;
}

/** badCIDRs: a non-empty list all of the wrong family. */
function allOf(cidrs: readonly string[], family: IPFamily): boolean {
  return cidrs.length > 0 && cidrs.every((c) => parseRange(c)?.family === family);
}

/**
 * proxyutil.NewNodePortAddresses(IPv4, …).ContainsIPv4Loopback: the IPv4 CIDRs (0.0.0.0/0 when
 * there are none) include a loopback network or 127.0.0.1.
 */
function v4NodePortsReachLoopback(npa: readonly string[]): boolean {
  const v4 = npa.filter((c) => parseRange(c)?.family === 'IPv4');
  const list = v4.length > 0 ? v4 : ['0.0.0.0/0'];
  return list.some((c) => {
    const r = parseRange(c)!;
    return rangeContains(r, '127.0.0.1') || rangeContains(parseRange('127.0.0.0/8')!, c.slice(0, c.indexOf('/')));
  });
}

/** The image tag: the version kube-proxy reports (version.Get().GitVersion). */
function imageVersion(image: string): string {
  const i = image.lastIndexOf(':');
  return i > image.lastIndexOf('/') ? image.slice(i + 1) : 'latest';
}

/** kube-proxy's start-up log lines (without newlines), stamped from `at`. */
export function kubeProxyStartupLogs(input: StartupInput): string[] {
  const { at, config, node } = input;
  const raw = rawConfig(input.text);
  const out: string[] = [];
  const info = (dt: number, where: string, msg: string): void => void out.push(klogLine('I', at + dt, 1, where, msg));
  const error = (dt: number, where: string, msg: string): void => void out.push(klogLine('E', at + dt, 1, where, msg));

  const blankMode = (config.mode ?? '') === '';
  const mode = blankMode ? 'iptables' : config.mode!;
  if (blankMode) info(0, 'server_linux.go:53', '"Using iptables proxy"');
  info(66, 'shared_informer.go:370', '"Waiting for caches to sync"');
  info(166, 'shared_informer.go:377', '"Caches are synced"');

  const nodeIPs = nodeHostIPs(node);
  if (nodeIPs.length > 0) info(166, 'server.go:218', `"Successfully retrieved NodeIPs" NodeIPs=[${nodeIPs.map(q).join(',')}]`);
  // detectNodeIPs: the primary family is the first node IP's (IPv4 when none is known)
  const primary: IPFamily = nodeIPs[0] !== undefined ? (ipFamilyOf(nodeIPs[0]) ?? 'IPv4') : 'IPv4';
  const other: IPFamily = primary === 'IPv4' ? 'IPv6' : 'IPv4';

  // platformSetup → setupConntrack
  const ct = (raw['conntrack'] ?? {}) as Record<string, unknown>;
  const perCore = typeof ct['maxPerCore'] === 'number' ? ct['maxPerCore'] : CONNTRACK_MAX_PER_CORE;
  const floor = typeof ct['min'] === 'number' ? ct['min'] : CONNTRACK_MIN;
  const cpus = Number.parseInt(node?.status?.capacity?.['cpu'] ?? '', 10) || 1;
  if (perCore > 0) {
    const max = Math.max(perCore * cpus, floor);
    if (max > 0) info(170, 'conntrack.go:57', `"Setting nf_conntrack_max" nfConntrackMax=${max}`);
  }

  // platformApplyDefaults: nftables mode defaults nodePortAddresses to `primary`; newProxyServer
  // then replaces a lone `primary` with the node IPs (/32, /128)
  let npa = config.nodePortAddresses ?? [];
  if (mode === 'nftables' && npa.length === 0) npa = ['primary'];
  if (npa.length === 1 && npa[0] === 'primary') {
    const v4 = nodeIPs.find((ip) => ipFamilyOf(ip) === 'IPv4');
    const v6 = nodeIPs.find((ip) => ipFamilyOf(ip) === 'IPv6');
    npa = [...(v4 ? [`${v4}/32`] : []), ...(v6 ? [`${v6}/128`] : [])];
  }
  const clusterCIDRs = (config.clusterCIDR ?? '').split(',').filter((x) => x !== '');
  const podCIDRs = node?.spec.podCIDRs ?? (node?.spec.podCIDR ? [node.spec.podCIDR] : []);

  // checkBadConfig
  const anyDualStack = [clusterCIDRs, npa, podCIDRs].some(isDualStack);
  const byFamily = familiesOf(npa);
  const primaryCount = byFamily.get(primary)?.length ?? 0;
  let bad: string | undefined;
  if (npa.length === 0) bad = 'nodePortAddresses is unset; NodePort connections will be accepted on all local IPs. Consider using `--nodeport-addresses primary`';
  else if (anyDualStack && primaryCount === npa.length)
    bad = `cluster appears to be dual-stack but nodePortAddresses contains only ${primary} addresses; NodePort connections will be accepted on all local ${other} IPs`;
  else if (primaryCount === 0)
    bad = `cluster appears to be ${primary}-primary but nodePortAddresses contains only ${other} addresses; NodePort connections will be accepted on all local ${primary} IPs`;
  if (bad) error(177, 'server.go:255', `"Kube-proxy configuration may be incomplete or incorrect" err=${q(bad)}`);

  info(222, 'server.go:264', `"kube-proxy running in dual-stack mode" primary ipFamily=${q(primary)}`);

  // checkBadIPConfig (dual-stack supported: never fatal); badFamily is the other family
  const ipErrs: string[] = [];
  const suffix = other === 'IPv4' ? '4' : '6';
  if (allOf(clusterCIDRs, other)) ipErrs.push(`cluster is ${primary}-primary but clusterCIDRs contains only IPv${suffix} addresses`);
  if (allOf(podCIDRs, other)) ipErrs.push(`cluster is ${primary}-primary but node.spec.podCIDRs contains only IPv${suffix} addresses`);
  if (ipErrs.length > 0) {
    // utilerrors.NewAggregate: one error is its own text, more are "[a, b]"
    const agg = ipErrs.length === 1 ? ipErrs[0]! : `[${ipErrs.join(', ')}]`;
    error(222, 'server.go:275', `"Kube-proxy configuration may be incomplete or incorrect" err=${q(agg)}`);
  }

  if (mode === 'iptables') {
    info(222, 'server_linux.go:136', '"Using iptables Proxier"');
    if (config.localhostNodePorts !== false && v4NodePortsReachLoopback(npa))
      info(
        226,
        'proxier.go:242',
        '"Setting route_localnet=1 to allow node-ports on localhost; to change this either disable iptables.localhostNodePorts (--iptables-localhost-nodeports) or set nodePortAddresses (--nodeport-addresses) to filter loopback addresses" ipFamily="IPv4"',
      );
  } else if (mode === 'nftables') info(222, 'server_linux.go:253', '"Using nftables Proxier"');

  info(242, 'server.go:529', `"Version info" version=${q(imageVersion(input.image))}`);
  info(242, 'server.go:531', '"Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""');
  info(243, 'config.go:200', '"Starting service config controller"');
  info(243, 'shared_informer.go:349', '"Waiting for caches to sync" controller="service config"');
  info(243, 'config.go:106', '"Starting endpoint slice config controller"');
  info(243, 'shared_informer.go:349', '"Waiting for caches to sync" controller="endpoint slice config"');
  info(243, 'config.go:403', '"Starting serviceCIDR config controller"');
  info(243, 'shared_informer.go:349', '"Waiting for caches to sync" controller="serviceCIDR config"');
  info(243, 'config.go:309', '"Starting node config controller"');
  info(243, 'shared_informer.go:349', '"Waiting for caches to sync" controller="node config"');
  info(243, 'shared_informer.go:356', '"Caches are synced" controller="node config"');
  info(344, 'shared_informer.go:356', '"Caches are synced" controller="endpoint slice config"');
  info(344, 'shared_informer.go:356', '"Caches are synced" controller="serviceCIDR config"');
  info(344, 'shared_informer.go:356', '"Caches are synced" controller="service config"');
  return out;
}

/**
 * The exit of a running kube-proxy whose config file changed (options.go eventHandler → runLoop
 * returns the error → NewProxyCommand's RunE logs it, then component-base cli.Run): two lines.
 * server.go:134 is derived (the stored server.go, one line longer above newProxyServer than v1.35.0,
 * has it at 135).
 */
export function kubeProxyExitLogs(at: number, err: string): string[] {
  return [klogLine('E', at, 1, 'server.go:134', `"Error running ProxyServer" err=${q(err)}`), klogLine('E', at, 1, 'run.go:72', `"command failed" err=${q(err)}`)];
}
