/**
 * What the kubeadm subcommands share: the installed kubeadm's version (the kubeadm package,
 * sim/node/packages.ts), the error tail kubeadm's CheckErr prints
 * (cmd/kubeadm/app/util/error.go), the cluster's ClusterConfiguration from the kubeadm-config
 * ConfigMap, the versions each control-plane component runs, and Go's tabwriter as kubeadm uses it
 * (minwidth 10, tabwidth 4, padding 3).
 */
import { parseYamlMemo } from '../../../util/yaml-memo.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { CommandResult } from '../../types.js';
import type { ConfigMap, Pod } from '../../../sim/api/types.js';
import { KUBELET_CONFIG } from '../../../sim/controlplane.js';
import { installedVersion, kubeVersionOf } from '../../../sim/node/packages.js';
import { hexFrom } from './host.js';
import { klogLine } from '../../../util/klog.js';

export const STACK_TRACE = 'To see the stack trace of this error execute with --v=5 or higher\n';

/**
 * One klog line as the kubeadm binary writes it to stderr (k8s.io/klog/v2 FormatHeader: the pid
 * right-aligned in seven columns), stamped with the simulated clock; the pid is a stable value
 * derived from the clock, as a fresh process gets a new one.
 */
export function kubeadmLog(c: Cluster, level: 'I' | 'W' | 'E', where: string, msg: string): string {
  return `${klogLine(level, c.now(), 4000 + (c.now() % 90000), where, msg)}\n`;
}

export function kubeadmError(msg: string, stdout = ''): CommandResult {
  return { stdout, stderr: `${msg}\n${STACK_TRACE}`, exitCode: 1 };
}

/** The installed kubeadm binary's version (`v1.35.2`), or undefined when the package is absent. */
export function kubeadmVersion(c: Cluster, host: Host): string | undefined {
  const deb = installedVersion(host, c.meta.kubernetesVersion, 'kubeadm');
  return deb ? kubeVersionOf(deb) : undefined;
}

/** Release builds whose commit and build date are on record; others get stable derived values. */
const BUILDS: Record<string, [string, string, string]> = {
  'v1.34.0': ['f28b4c9efbca5c5c0af716d9f2d5702667ee8a45', '2025-08-27T10:15:59Z', 'go1.24.6'],
  'v1.34.1': ['93248f9ae092f571eb870b7664c534bfc7d00f03', '2025-09-09T19:43:15Z', 'go1.24.6'],
  'v1.34.2': ['8cc511e399b929453cd98ae65b419c3cc227ec79', '2025-11-11T19:08:36Z', 'go1.24.9'],
  'v1.34.3': ['df11db1c0f08fab3c0baee1e5ce6efbf816af7f1', '2025-12-09T15:05:15Z', 'go1.24.11'],
};

/** `kubeadm version` (component-base/version Info as kubeadm 1.34+ prints it). */
export function versionInfo(v: string): string {
  const [maj, min] = v.replace(/^v/, '').split('.');
  const [commit, date, go] = BUILDS[v] ?? [hexFrom(`kubernetes/${v}`, 40), '2026-01-13T10:00:00Z', Number(min) >= 35 ? 'go1.25.5' : 'go1.24.11'];
  return `kubeadm version: &version.Info{Major:"${maj}", Minor:"${min}", EmulationMajor:"", EmulationMinor:"", MinCompatibilityMajor:"", MinCompatibilityMinor:"", GitVersion:"${v}", GitCommit:"${commit}", GitTreeState:"clean", BuildDate:"${date}", GoVersion:"${go}", Compiler:"gc", Platform:"linux/amd64"}\n`;
}

/**
 * The ClusterConfiguration kubeadm stored in kube-system/kubeadm-config: parsed through the
 * simulation's memo of YAML by text (util/yaml-memo.ts: the value `parse` gives, as a copy the
 * caller owns), as `kubeadm certs renew` and `upgrade` read it for every certificate they renew.
 */
export function clusterConfiguration(c: Cluster): { doc: Record<string, unknown>; cm: ConfigMap } | undefined {
  const cm = c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kubeadm-config');
  const text = cm?.data?.['ClusterConfiguration'];
  if (!cm || !text) return undefined;
  try {
    return { doc: (parseYamlMemo(text) ?? {}) as Record<string, unknown>, cm };
  } catch {
    return undefined;
  }
}

/** The tag of an image reference (`registry.k8s.io/etcd:3.6.5-0` → `3.6.5-0`). */
export function imageTag(image: string | undefined): string {
  const m = /:([^:/]+)$/.exec(image ?? '');
  return m ? m[1]! : '';
}

/** The image a control-plane component's mirror pod on a node runs. */
export function componentImage(c: Cluster, component: string, node: string): string | undefined {
  return c.store.get<Pod>('Pod', 'kube-system', `${component}-${node}`)?.spec.containers[0]?.image;
}

/** Go's text/tabwriter as kubeadm configures it: cells padded to width+3, at least 10; the last cell as is. */
export function tabwrite(rows: string[][]): string {
  const cols = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: cols - 1 }, (_, i) => Math.max(10, ...rows.map((r) => (r[i] ?? '').length + 3)));
  return rows.map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('') + '\n').join('');
}

/** Compare `v1.34.3`-style versions by major, minor, patch. */
export function semverCompare(a: string, b: string): number {
  const p = (v: string): number[] => v.replace(/^v/, '').split(/[.-]/).slice(0, 3).map(Number);
  const [x, y] = [p(a), p(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

export function minorOf(v: string): number {
  return Number(v.replace(/^v/, '').split('.')[1] ?? 0);
}

/** The admin kubeconfig kubeadm's cluster commands load, with kubeadm's errors when it cannot. */
export function adminConfError(host: Host, root: boolean): string | undefined {
  if (!host.fs.exists('/etc/kubernetes/admin.conf')) return 'failed to load admin kubeconfig: open /etc/kubernetes/admin.conf: no such file or directory';
  if (!root) return 'failed to load admin kubeconfig: open /etc/kubernetes/admin.conf: permission denied';
  return undefined;
}

/** Random digits as Go's os.MkdirTemp suffix (`kubeadm-upgraded-manifests4056920248`). */
export function tempSuffix(c: Cluster): string {
  return String(1_000_000_000 + c.random.int(3_000_000_000));
}

/** `2026-04-14-14-17-07` (kubeadm's backup directory time stamp). */
export function backupStamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/[T:]/g, '-');
}

/** A `--name VALUE` or `--name=VALUE` flag of a kubeadm command line (pflag's long form), the first given. */
export function flag(args: readonly string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = args[i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[i + 1];
}

/** Rewrite a static pod manifest's image tag (the lab's upgrade changes only the tag); returns the new text. */
export function withTag(text: string, tag: string): string {
  return text.replace(/^(\s*image: [^\s:]+(?:\/[^\s:]+)*):\S+$/m, `$1:${tag}`);
}

/**
 * The kubelet configuration `kubeadm upgrade apply|node` writes to /var/lib/kubelet/config.yaml
 * (phases/upgrade/postupgrade.go WriteKubeletConfigFiles, from the kubelet-config ConfigMap): the
 * node's file as it is, or the ConfigMap's when the node has none.
 */
export function upgradedKubeletConfig(c: Cluster, host: Host): string {
  const cur = host.fs.tryRead(KUBELET_CONFIG) ?? '';
  const fromCluster = c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kubelet-config')?.data?.['kubelet'];
  return fromCluster && !cur ? fromCluster : cur;
}

/**
 * newInitData with --dry-run (cmd/kubeadm/app/cmd/init.go): a fresh temporary directory,
 * kubeadmconstants.CreateTempDir under /etc/kubernetes/tmp (os.MkdirTemp's random digits, mode
 * 0700; directory modes are not modelled), which stands in for the manifest, kubelet, certificate and kubeconfig directories
 * (initData.ManifestDir, KubeletDir, CertificateWriteDir, KubeConfigDir); it stays behind.
 */
export function dryRunDir(c: Cluster, host: Host): string {
  const dir = `/etc/kubernetes/tmp/kubeadm-init-dryrun${tempSuffix(c)}`;
  host.fs.mkdir(dir);
  return dir;
}

/** pflag's true forms of --dry-run (a bool flag: `--dry-run`, `--dry-run=true|1|t|T|TRUE|True`). */
export function isDryRun(args: readonly string[]): boolean {
  return args.some((a) => a === '--dry-run' || /^--dry-run=(1|t|T|true|TRUE|True)$/.test(a));
}

/**
 * The instance configuration's containerRuntimeEndpoint over the config (the only field kubeadm puts
 * there); sigs.k8s.io/yaml prints an empty string as `""` and a socket URL bare.
 */
export function withInstanceConfig(config: string, instance: string): string {
  const m = /^containerRuntimeEndpoint:\s*(.*)$/m.exec(instance);
  if (!m) return config;
  let v = m[1]!.trim();
  if (/^".*"$/.test(v)) v = JSON.parse(v) as string;
  const line = `containerRuntimeEndpoint: ${v === '' ? '""' : v}`;
  if (/^containerRuntimeEndpoint:.*$/m.test(config)) return config.replace(/^containerRuntimeEndpoint:.*$/m, line);
  return config;
}
