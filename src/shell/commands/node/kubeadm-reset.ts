/**
 * `kubeadm reset` and `kubeadm reset phase preflight|remove-etcd-member|cleanup-node` (kubeadm
 * v1.35 cmd/kubeadm/app/cmd/reset.go and cmd/kubeadm/app/cmd/phases/reset/{preflight,
 * removeetcdmember,cleanupnode}.go). The workflow's data initializer (newResetData) runs before
 * any phase, also for one phase alone: with a loadable kubeconfig (/etc/kubernetes/admin.conf, so
 * on a control-plane node as root) it fetches the kubeadm-config ConfigMap and prints its two
 * `[reset] Reading configuration …` lines. Then:
 * - preflight: unless --force or --dry-run, the klog warning and InteractivelyConfirmAction's
 *   question (a line of stdin; anything but y/Y refuses); `[preflight] Running pre-flight checks`
 *   and RunRootCheckOnly (IsPrivilegedUser, ignorable);
 * - remove-etcd-member: the etcd data directory from the cluster's ClusterConfiguration
 *   (etcd.local.dataDir), else (no config: the klog warning) from the etcd manifest's `etcd-data`
 *   hostPath, else kubeadm's default /var/lib/etcd; with a config the member is removed (this lab's
 *   etcd is the only member, which kubeadm leaves alone) and the directory emptied; without one a
 *   directory that is missing or not empty is "cleaned" as well (IsDirEmpty's false on a missing
 *   directory is why a worker prints the line too, as recorded transcripts show);
 * - cleanup-node: stops the kubelet, unmounts /var/lib/kubelet, removes the containers, empties
 *   the manifests, kubelet and certificate directories (and /etc/kubernetes/tmp with
 *   --cleanup-tmp-dir) and deletes kubeadm's kubeconfig files.
 * The klog lines carry the file:line of the source as recorded transcripts show them
 * (preflight.go:56, removeetcdmember.go:106) or as the stored upstream file has it
 * (cleanupnode.go:107).
 * --dry-run prints what each step would do (`[reset] Would …`) and changes nothing. The closing
 * notice is the whole command's (reset.go), not a phase's. The Node object stays in the API until
 * someone deletes it, as kubeadm's own hint says.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Pod } from '../../../sim/api/types.js';
import { parse as parseYaml } from 'yaml';
import { MANIFEST_DIR } from '../../../sim/controlplane.js';
import { clusterConfiguration, flag, kubeadmError, kubeadmLog } from './kubeadm-lib.js';

const PREFLIGHT_TAIL = '[preflight] If you know what you are doing, you can make a check non-fatal with `--ignore-preflight-errors=...`';
const DEFAULT_CERT_DIR = '/etc/kubernetes/pki';
const ETCD_DEFAULT_DATA_DIR = '/var/lib/etcd';

/** What newResetData settles before the phases run. */
interface ResetData {
  force: boolean;
  dryRun: boolean;
  certDir: string;
  cleanupTmpDir: boolean;
  ignore: string[];
  /** The cluster's ClusterConfiguration, when the kubeconfig loaded and kubeadm-config was read. */
  cfg: Record<string, unknown> | undefined;
}

/** The output so far; a phase's error ends the run with CheckErr's text. */
interface Run {
  stdout: string;
  stderr: string;
}

const has = (args: readonly string[], name: string): boolean => args.some((a) => a === `--${name}` || a === `--${name}=true`);

/** klog as kubeadm writes it: the header stamped with the simulated clock and kubeadm's pid. */
function warn(c: Cluster, where: string, msg: string): string {
  return kubeadmLog(c, 'W', where, msg);
}

/** newResetData: the flags, and the kubeadm-config ClusterConfiguration when admin.conf loads. */
function resetData(c: Cluster, host: Host, ctx: CommandContext, args: readonly string[], run: Run): ResetData {
  const loads = ctx.user === 'root' && host.fs.exists(flag(args, 'kubeconfig') ?? '/etc/kubernetes/admin.conf');
  let cfg: Record<string, unknown> | undefined;
  if (loads) {
    run.stdout += '[reset] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n';
    run.stdout += "[reset] Use 'kubeadm init phase upload-config kubeadm --config your-config-file' to re-upload it.\n";
    cfg = clusterConfiguration(c)?.doc;
  }
  return {
    force: has(args, 'force') || args.includes('-f'),
    dryRun: has(args, 'dry-run'),
    certDir: flag(args, 'cert-dir') ?? DEFAULT_CERT_DIR,
    cleanupTmpDir: has(args, 'cleanup-tmp-dir'),
    ignore: (flag(args, 'ignore-preflight-errors') ?? '').split(',').filter(Boolean).map((s) => s.toLowerCase()),
    cfg,
  };
}

/** phases/reset/preflight.go runPreflight; an error message, or undefined to go on. */
function preflight(c: Cluster, ctx: CommandContext, d: ResetData, run: Run): string | undefined {
  if (!d.force && !d.dryRun) {
    run.stderr += warn(c, 'preflight.go:56', "[reset] WARNING: Changes made to this host by 'kubeadm init' or 'kubeadm join' will be reverted.");
    // util.InteractivelyConfirmAction reads one line; the lab answers y when no input is piped
    const answer = ctx.stdin === '' ? 'y' : (ctx.stdin.split('\n')[0] ?? '').trim();
    run.stdout += `[reset] Are you sure you want to proceed? [y/N]: ${ctx.stdin === '' ? 'y\n' : ''}`;
    if (!/^y$/i.test(answer)) return "won't proceed; the user didn't answer (Y|y) in order to continue";
  }
  run.stdout += '[preflight] Running pre-flight checks\n';
  if (ctx.user !== 'root') {
    if (d.ignore.includes('all') || d.ignore.includes('isprivilegeduser')) run.stdout += '\t[WARNING IsPrivilegedUser]: user is not running as root\n';
    else return `[preflight] Some fatal errors occurred:\n\t[ERROR IsPrivilegedUser]: user is not running as root\n${PREFLIGHT_TAIL}`;
  }
  return undefined;
}

/** The `etcd-data` volume's hostPath in the etcd manifest (getEtcdDataDir), or its error. */
function manifestDataDir(host: Host): string | { error: string } {
  const path = `${MANIFEST_DIR}/etcd.yaml`;
  const text = host.fs.tryRead(path);
  if (text === undefined) return ETCD_DEFAULT_DATA_DIR;
  let pod: Pod | undefined;
  try {
    pod = parseYaml(text) as Pod;
  } catch {
    return { error: `failed to unmarshal manifest for "${path}"` };
  }
  const dir = (pod?.spec?.volumes ?? []).find((v) => v.name === 'etcd-data')?.hostPath?.path;
  return dir ? dir : { error: 'invalid etcd pod manifest' };
}

/** CleanDir: the directory's entries go, the directory stays (a missing one is no error). */
function cleanDir(host: Host, dir: string): void {
  if (!host.fs.isDir(dir)) return;
  for (const f of host.fs.list(dir)) host.fs.removeTree(`${dir}/${f}`);
  if (!host.fs.isDir(dir)) host.fs.mkdir(dir);
}

/** phases/reset/removeetcdmember.go runRemoveETCDMemberPhase. */
function removeEtcdMember(c: Cluster, host: Host, d: ResetData, run: Run): void {
  const local = (d.cfg?.['etcd'] as { local?: { dataDir?: string } } | undefined)?.local;
  let dataDir: string | { error: string };
  if (d.cfg && local) dataDir = local.dataDir ?? ETCD_DEFAULT_DATA_DIR;
  else {
    run.stderr += warn(c, 'removeetcdmember.go:106', '[reset] No kubeadm config, using etcd pod spec to get data directory');
    dataDir = manifestDataDir(host);
  }
  if (typeof dataDir !== 'string') {
    run.stdout += '[reset] No etcd config found. Assuming external etcd\n[reset] Please, manually reset etcd to prevent further issues\n';
    return;
  }
  if (d.cfg) {
    if (!d.dryRun) {
      // RemoveStackedEtcdMemberFromCluster: the only member of the cluster is not removed
      cleanDir(host, dataDir);
      run.stdout += `[reset] Deleted contents of the etcd data directory: ${dataDir}\n`;
    } else {
      run.stdout += '[reset] Would remove the etcd member on this node from the etcd cluster\n';
      run.stdout += `[reset] Would delete contents of the etcd data directory: ${dataDir}\n`;
    }
  }
  // IsDirEmpty is false for a directory that does not exist
  const empty = host.fs.isDir(dataDir) && host.fs.list(dataDir).length === 0;
  if (!empty && !d.dryRun) {
    cleanDir(host, dataDir);
    run.stdout += `[reset] Deleted contents of the etcd data directory: ${dataDir}\n`;
  }
}

/** phases/reset/cleanupnode.go runCleanupNode and resetConfigDir. */
function cleanupNode(c: Cluster, host: Host, d: ResetData, run: Run): void {
  const dirs = [MANIFEST_DIR];
  if (!d.dryRun) {
    run.stdout += '[reset] Stopping the kubelet service\n';
    const u = host.data.units['kubelet'];
    if (u && u.active) {
      u.active = false;
      u.since = c.now();
    }
    run.stdout += '[reset] Unmounting mounted directories in "/var/lib/kubelet"\n';
    dirs.push('/var/lib/kubelet');
  } else {
    run.stdout += '[reset] Would stop the kubelet service\n';
    run.stdout += '[reset] Would unmount mounted directories in "/var/lib/kubelet"\n';
    run.stdout += '[reset] Would remove Kubernetes-managed containers\n';
  }
  if (d.certDir !== DEFAULT_CERT_DIR) run.stderr += warn(c, 'cleanupnode.go:107', `[reset] WARNING: Cleaning a non-default certificates directory: "${d.certDir}"`);
  dirs.push(d.certDir);
  if (d.cleanupTmpDir) dirs.push('/etc/kubernetes/tmp');
  const files = ['admin.conf', 'super-admin.conf', 'kubelet.conf', 'bootstrap-kubelet.conf', 'controller-manager.conf', 'scheduler.conf'].map((f) => `/etc/kubernetes/${f}`);
  if (d.dryRun) {
    run.stdout += `[reset] Would delete contents of directories: [${dirs.join(' ')}]\n`;
    run.stdout += `[reset] Would delete files: [${files.join(' ')}]\n`;
    return;
  }
  run.stdout += `[reset] Deleting contents of directories: [${dirs.join(' ')}]\n`;
  for (const dir of dirs) cleanDir(host, dir);
  run.stdout += `[reset] Deleting files: [${files.join(' ')}]\n`;
  for (const f of files) if (host.fs.exists(f)) host.fs.remove(f);
}

const PHASES = ['preflight', 'remove-etcd-member', 'cleanup-node'] as const;
type Phase = (typeof PHASES)[number];

/** Run the phases in order, as the workflow runner does; `error execution phase X: …` on the first error. */
function runPhases(c: Cluster, host: Host, ctx: CommandContext, args: readonly string[], phases: readonly Phase[], whole: boolean): ShellResult {
  const run: Run = { stdout: '', stderr: '' };
  const d = resetData(c, host, ctx, args, run);
  const skip = (flag(args, 'skip-phases') ?? '').split(',').filter(Boolean);
  for (const p of phases) {
    if (whole && skip.includes(p)) continue;
    if (p === 'preflight') {
      const e = preflight(c, ctx, d, run);
      if (e) return { stdout: run.stdout, stderr: `${run.stderr}error execution phase preflight: ${e}\nTo see the stack trace of this error execute with --v=5 or higher\n`, exitCode: 1 };
    } else if (p === 'remove-etcd-member') removeEtcdMember(c, host, d, run);
    else cleanupNode(c, host, d, run);
  }
  if (whole) run.stdout += '\nThe reset process does not perform cleanup of CNI plugin configuration,\nnetwork filtering rules and kubeconfig files.\n\nFor information on how to perform this cleanup manually, please see:\n    https://k8s.io/docs/reference/setup-tools/kubeadm/kubeadm-reset/\n\n';
  if (!d.dryRun) c.touchHosts();
  return { stdout: run.stdout, stderr: run.stderr, exitCode: 0 };
}

/** `kubeadm reset [flags]` or `kubeadm reset phase <name> [flags]` (cobra has checked the phase names). */
export function reset(c: Cluster, host: Host, ctx: CommandContext, args: string[]): ShellResult {
  if (args[0] !== 'phase') return runPhases(c, host, ctx, args, PHASES, true);
  const name = args[1] === 'pre-flight' ? 'preflight' : args[1] === 'cleanupnode' ? 'cleanup-node' : args[1];
  if (!PHASES.includes(name as Phase)) return kubeadmError(`kubeadm reset phase ${args[1] ?? ''} is not simulated in this lab`);
  return runPhases(c, host, ctx, args.slice(2), [name as Phase], false);
}
