/**
 * `kubeadm upgrade apply vX --dry-run` and `kubeadm upgrade node --dry-run` (kubeadm v1.35): the
 * same phases as the real run, each saying what it would do instead of doing it, and nothing on the
 * node or in the cluster changes.
 *
 * Upstream (kubernetes/kubernetes, cmd/kubeadm/app):
 * - cmd/upgrade/apply.go: after the phases, `[upgrade/successful] Finished dryrunning successfully!`
 *   (apply only; cmd/upgrade/node.go prints nothing after its phases).
 * - cmd/phases/upgrade/apply/preflight.go runPreflight: no confirmation prompt under --dry-run
 *   (SessionIsInteractive) and `[dryrun] Would pull the required images (like 'kubeadm config images pull')`;
 *   cmd/phases/upgrade/node/preflight.go: `[upgrade/preflight] Would pull the required images …` on
 *   a control-plane node.
 * - cmd/phases/upgrade/apply/controlplane.go runControlPlane: `[dryrun] Would upgrade your static
 *   Pod-hosted control plane to version %q` — printed without a newline, so the first
 *   `[dryrun] Would write file` follows on the same line — then phases/upgrade/staticpods.go
 *   DryRunStaticPodUpgrade: the manifests of kube-apiserver, kube-controller-manager and
 *   kube-scheduler (constants.ControlPlaneComponents; not etcd) written to a temporary directory
 *   that is removed again, printed by util/dryrun/dryrun.go PrintDryRunFiles as
 *   `[dryrun] Would write file "/etc/kubernetes/manifests/<c>.yaml" with content:` and the bytes
 *   as they are. The v1.35 node/controlplane.go was not available here; `upgrade node` uses the
 *   apply phase's wording.
 * - cmd/phases/upgrade/apply/uploadconfig.go: `[dryrun] Would upload the kubeadm ClusterConfiguration
 *   to a ConfigMap`, `[dryrun] Would upload the kubelet configuration to a ConfigMap`, `[dryrun] Would
 *   write the CRISocket annotation for the control-plane node`.
 * - cmd/phases/upgrade/apply/kubeconfig.go: the kubeconfig phase prints its success line as usual.
 * - cmd/phases/upgrade/kubeletconfig.go and phases/upgrade/postupgrade.go WriteKubeletConfigFiles:
 *   a kubeadm-upgrade-dryrun directory (CreateTempDir) stands in for /var/lib/kubelet, the backup
 *   directory is kubeadm's as in the real run (v1.35: time-stamped, logged from postupgrade.go:105;
 *   v1.34: MkdirTemp digits, :116) and the backup becomes `[dryrun] Would back up kubelet config
 *   file to …`. With NodeLocalCRISocket (on by default in v1.34 and v1.35) the instance
 *   configuration is looked for in that fresh directory, so it is never there: kubeadm-flags.env is
 *   not there either, and kubeadm prints `[dryrun] would read the flag --container-runtime-endpoint
 *   value from "kubeadm-flags.env", which is missing. Using default socket "unix:///var/run/
 *   containerd/containerd.sock" instead` — without a newline, so writeConfigBytesToDisk's
 *   `[kubelet-start] Writing kubelet configuration to file "<dir>/instance-config.yaml"` follows on
 *   the same line — then prints the instance configuration as /var/lib/kubelet/instance-config.yaml
 *   (PrintDryRunFile); WriteConfigToDisk applies the --patches and the instance configuration
 *   (`[patches] Applied patch …`), writes `<dir>/config.yaml` and it is printed as
 *   /var/lib/kubelet/config.yaml.
 * - cmd/phases/upgrade/apply/bootstraptoken.go: `[dryrun] Would config cluster-info ConfigMap, RBAC Roles`.
 * - cmd/phases/upgrade/addons.go: addons are skipped while other control-plane instances run another
 *   kube-apiserver image; otherwise phases/addons/dns and proxy print their manifests (printManifest
 *   is the dry-run flag).
 *
 * - `--patches DIR` patches the printed manifests and kubelet configuration as the real run does
 *   (kubeadm-patches.ts); a patch that fails stops the phase with the same error.
 *
 * Not reproduced: the dry-run API client's request log (util/apiclient/dryrun.go LogAction:
 * `[dryrun] Would perform action GET on resource …` with each attached object), the CoreDNS and
 * kube-proxy manifests of the addon phase (kubeadm's templates are not recorded in the lab; a
 * `cka-lab:` line on stderr says so), v1.35's post-upgrade phase under --dry-run (its
 * RemoveKubeletArgsFromFile dry-run wording was not available here; a `cka-lab:` line on stderr
 * says so), and the temporary directories real kubeadm leaves under /etc/kubernetes/tmp: the lab's
 * dry run writes nothing at all.
 */
import type { ShellResult } from '../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Pod } from '../../../sim/api/types.js';
import { MANIFEST_DIR, KUBELET_CONFIG } from '../../../sim/controlplane.js';
import { backupStamp, kubeadmLog, minorOf, tempSuffix, upgradedKubeletConfig, withInstanceConfig, withTag } from './kubeadm-lib.js';
import { CRI_SOCKET } from '../../../sim/fixture/kubeadm-files.js';
import { patchKubeletConfig, patchStaticPod, type KubeadmPatches } from './kubeadm-patches.js';

/** The command's patch managers and --patches directory. */
export interface DryRunPatching {
  patches: KubeadmPatches;
  dir: string;
}

/** A phase's output so far and, when it failed, its error (the caller wraps it with the phase's name). */
interface PhaseOut {
  out: string;
  error?: string;
}

const CONTROL_PLANE_COMPONENTS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

/** PrintDryRunFiles: the header line, then the file's bytes unchanged. */
function wouldWrite(path: string, content: string): string {
  return `[dryrun] Would write file "${path}" with content:\n${content}`;
}

/** DryRunStaticPodUpgrade: the three control-plane manifests with the target version (patched as CreateStaticPodFiles patches them). */
function staticPodsDryRun(host: Host, target: string, patching?: DryRunPatching): PhaseOut {
  let out = `[dryrun] Would upgrade your static Pod-hosted control plane to version "${target}"`;
  for (const comp of CONTROL_PLANE_COMPONENTS) {
    const path = `${MANIFEST_DIR}/${comp}.yaml`;
    const cur = host.fs.tryRead(path);
    if (cur === undefined) continue;
    let next = withTag(cur, target);
    if (patching) {
      const lines: string[] = [];
      const r = patchStaticPod(patching.patches, patching.dir, comp, next, lines);
      out += lines.join('');
      if ('error' in r) return { out, error: `couldn't complete the static pod upgrade: error creating init static pod manifest files: ${r.error}` };
      next = r.text;
    }
    out += wouldWrite(path, next);
  }
  return { out };
}

/** WriteKubeletConfigFiles under --dry-run; its klog warning goes to stderr. */
function kubeletConfigDryRun(c: Cluster, host: Host, stderr: string[], kv: string, patching?: DryRunPatching): PhaseOut {
  const v135 = minorOf(kv) >= 35;
  const dryDir = `/etc/kubernetes/tmp/kubeadm-upgrade-dryrun${tempSuffix(c)}`;
  const backupDir = v135 ? `/etc/kubernetes/tmp/kubeadm-kubelet-config-${backupStamp(c.now())}` : `/etc/kubernetes/tmp/kubeadm-kubelet-config${tempSuffix(c)}`;
  stderr.push(kubeadmLog(c, 'W', v135 ? 'postupgrade.go:105' : 'postupgrade.go:116', `Using temporary directory ${backupDir} for kubelet config. To override it set the environment variable KUBEADM_UPGRADE_DRYRUN_DIR`));
  let out = `[dryrun] Would back up kubelet config file to ${backupDir}/config.yaml\n`;
  // the fresh dry-run directory holds neither instance-config.yaml nor kubeadm-flags.env
  out += `[dryrun] would read the flag --container-runtime-endpoint value from "kubeadm-flags.env", which is missing. Using default socket "${CRI_SOCKET}" instead`;
  const instance = `containerRuntimeEndpoint: ${JSON.stringify(CRI_SOCKET)}\n`;
  out += `[kubelet-start] Writing kubelet configuration to file "${dryDir}/instance-config.yaml"\n`;
  out += wouldWrite('/var/lib/kubelet/instance-config.yaml', instance);
  const lines: string[] = [];
  const config = patchKubeletConfig(patching?.patches, patching?.dir, upgradedKubeletConfig(c, host), instance, lines, withInstanceConfig);
  out += lines.join('');
  if ('error' in config) return { out, error: `error writing kubelet configuration to file: ${config.error}` };
  out += `[kubelet-start] Writing kubelet configuration to file "${dryDir}/config.yaml"\n`;
  out += wouldWrite(KUBELET_CONFIG, config.text);
  return { out: out + '[upgrade/kubelet-config] The kubelet configuration for this node was successfully upgraded!\n' };
}

/** v1.35's post-upgrade phase under --dry-run: its wording is not on record here, so the lab says so. */
function postUpgradeDryRun(kv: string, stderr: string[]): void {
  if (minorOf(kv) >= 35) stderr.push('cka-lab: what kubeadm v1.35 prints for its post-upgrade phase (kubeadm-flags.env without --pod-infra-container-image) under --dry-run is not recorded in this lab\n');
}

/** A phase's failure as the workflow runner wraps it (`error execution phase NAME: …`). */
function failed(out: string, stderr: string[], phase: string, error: string): ShellResult {
  return { stdout: out, stderr: `${stderr.join('')}error execution phase ${phase}: ${error}\nTo see the stack trace of this error execute with --v=5 or higher\n`, exitCode: 1 };
}

/**
 * UnupgradedControlPlaneInstances: the nodes whose kube-apiserver runs another image than this
 * node's (sorted, as sets.List returns them).
 */
function unupgradedControlPlanes(c: Cluster, node: string): string[] {
  const images = new Map<string, string>();
  for (const p of c.store.list<Pod>('Pod', 'kube-system')) {
    if (p.metadata.labels?.['component'] !== 'kube-apiserver' || !p.spec.nodeName) continue;
    const ct = p.spec.containers.find((x) => x.name === 'kube-apiserver');
    if (ct) images.set(p.spec.nodeName, ct.image);
  }
  const mine = images.get(node);
  return [...images].filter(([, img]) => img !== mine).map(([n]) => n).sort();
}

/** The addon phase (cmd/phases/upgrade/addons.go) of a control-plane node under --dry-run. */
function addonsDryRun(c: Cluster, host: Host, stderr: string[]): string {
  const others = unupgradedControlPlanes(c, host.name);
  let out = '';
  for (const addon of ['CoreDNS', 'kube-proxy']) {
    if (others.length > 0) out += `[upgrade/addon] Skipping upgrade of addons because control plane instances [${others.join(' ')}] have not been upgraded\n`;
    else stderr.push(`cka-lab: the ${addon} manifests kubeadm prints here under --dry-run are not recorded in this lab\n`);
  }
  return out;
}

/** `kubeadm upgrade apply` from the end of its preflight phase on, with --dry-run. */
export function applyDryRun(c: Cluster, host: Host, target: string, preflight: string, kv: string, patching?: DryRunPatching): ShellResult {
  const stderr: string[] = [];
  let out = preflight + "[dryrun] Would pull the required images (like 'kubeadm config images pull')\n";
  const cp = staticPodsDryRun(host, target, patching);
  out += cp.out;
  if (cp.error) return failed(out, stderr, 'control-plane', cp.error);
  out += '[dryrun] Would upload the kubeadm ClusterConfiguration to a ConfigMap\n[dryrun] Would upload the kubelet configuration to a ConfigMap\n[dryrun] Would write the CRISocket annotation for the control-plane node\n';
  out += '[upgrade/kubeconfig] The kubeconfig files for this node were successfully upgraded!\n';
  const kc = kubeletConfigDryRun(c, host, stderr, kv, patching);
  out += kc.out;
  if (kc.error) return failed(out, stderr, 'kubelet-config', kc.error);
  out += '[dryrun] Would config cluster-info ConfigMap, RBAC Roles\n';
  out += addonsDryRun(c, host, stderr);
  postUpgradeDryRun(kv, stderr);
  out += '[upgrade/successful] Finished dryrunning successfully!\n';
  return { stdout: out, stderr: stderr.join(''), exitCode: 0 };
}

/** `kubeadm upgrade node --dry-run` after its configuration lines and `Running pre-flight checks`. */
export function nodeDryRun(c: Cluster, host: Host, version: string, controlPlane: boolean, preflight: string, kv: string, patching?: DryRunPatching): ShellResult {
  const stderr: string[] = [];
  let out = preflight;
  if (controlPlane) {
    out += "[upgrade/preflight] Would pull the required images (like 'kubeadm config images pull')\n";
    const cp = staticPodsDryRun(host, version, patching);
    out += cp.out;
    if (cp.error) return failed(out, stderr, 'control-plane', cp.error);
    out += '[upgrade/kubeconfig] The kubeconfig files for this node were successfully upgraded!\n';
  } else {
    out += '[upgrade/preflight] Skipping prepull. Not a control plane node.\n[upgrade/control-plane] Skipping phase. Not a control plane node.\n[upgrade/kubeconfig] Skipping phase. Not a control plane node.\n';
  }
  const kc = kubeletConfigDryRun(c, host, stderr, kv, patching);
  out += kc.out;
  if (kc.error) return failed(out, stderr, 'kubelet-config', kc.error);
  if (controlPlane) out += addonsDryRun(c, host, stderr);
  else out += '[upgrade/addon] Skipping the addon/coredns phase. Not a control plane node.\n[upgrade/addon] Skipping the addon/kube-proxy phase. Not a control plane node.\n';
  postUpgradeDryRun(kv, stderr);
  return { stdout: out, stderr: stderr.join(''), exitCode: 0 };
}
