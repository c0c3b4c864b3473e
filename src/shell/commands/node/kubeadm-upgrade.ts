/**
 * `kubeadm upgrade plan|apply|node` (cmd/kubeadm/app/cmd/upgrade/{plan,apply,node}.go and
 * cmd/kubeadm/app/phases/upgrade/{versiongetter,policy,staticpods}.go, kubeadm 1.34/1.35 output).
 *
 * - plan: the cluster version is what the API server runs, the kubeadm version is the installed
 *   package, and "the internet" (dl.k8s.io/release/stable.txt) is the newest release the lab's
 *   pkgs.k8s.io serves; kubeadm falls back to its own minor series when that is newer, so a
 *   kubeadm of the cluster's minor never offers the next minor.
 * - apply: kubeadm's version skew policy (policy.go EnforceVersionPolicies, its own error
 *   wording), then each static pod manifest gets the new image, its old copy is backed up under
 *   /etc/kubernetes/tmp, and the kubelet restarts the component because the manifest changed
 *   (the static-pods controller); kubeadm-config, kube-proxy and CoreDNS are updated through the
 *   API. Only the image tags change in the manifests (kubeadm regenerates them from its config;
 *   flags added by hand outside the ClusterConfiguration would be lost on a real cluster).
 * - node: on a worker, the kubelet configuration is re-downloaded (backed up first).
 * - `--patches DIR` (kubeadm-patches.ts) patches what each of them writes, in upstream's order:
 *   the control-plane manifests right after `Writing new Static Pod manifests to` (staticpods.go
 *   StaticPodControlPlane → controlplane.CreateStaticPodFiles into the temporary directory), then
 *   etcd's (performEtcdStaticPodUpgrade → etcdphase.CreateLocalEtcdStaticPodManifestFile, before
 *   its `Preparing for "etcd" upgrade`), the kubelet configuration before the instance
 *   configuration (phases/kubelet/config.go WriteConfigToDisk) and the CoreDNS Deployment
 *   (phases/addons/dns/dns.go). The directory is read once per command. A patch that fails stops
 *   the phase before any manifest is moved or the config written.
 * The kubelet itself is never touched: that is the package and `systemctl restart kubelet`.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { DaemonSet, Deployment, Node } from '../../../sim/api/types.js';
import { clone } from '../../../sim/api/store.js';
import {
  adminConfError,
  backupStamp,
  clusterConfiguration,
  componentImage,
  imageTag,
  isDryRun,
  kubeadmError,
  kubeadmLog,
  STACK_TRACE,
  kubeadmVersion,
  minorOf,
  semverCompare,
  tabwrite,
  tempSuffix,
  upgradedKubeletConfig,
  withInstanceConfig,
  withTag,
} from './kubeadm-lib.js';
import { applyDryRun, nodeDryRun } from './kubeadm-upgrade-dryrun.js';
import { coreDNSUnsupportedPlugins, ignoredPreflightErrors } from './kubeadm-coredns-check.js';
import { KUBELET_CONFIG, MANIFEST_DIR, apiServerVersion } from '../../../sim/controlplane.js';
import { minorPins } from '../../../sim/kubeadm-pins.js';
import { renewForUpgrade } from './kubeadm-renewal.js';
import { KubeadmPatches, patchCoreDnsDeployment, patchKubeletConfig, patchStaticPod, patchesDir } from './kubeadm-patches.js';
import { ApiServer } from '../../../sim/apiserver.js';

/**
 * The CoreDNS and etcd versions a kubeadm minor deploys (cmd/kubeadm/app/constants): for 34 and 35
 * the newest recorded release's pins (sim/kubeadm-pins.ts: etcd 3.6.5-0 and 3.6.6-0).
 */
const ADDON_VERSIONS: Record<number, { coredns: string; etcd: string }> = {
  33: { coredns: 'v1.12.0', etcd: '3.5.21-0' },
  34: minorPins(34)!,
  35: minorPins(35)!,
};

const COMPONENTS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

const CONFIG_READ = '[upgrade/config] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n[upgrade/config] Use \'kubeadm init phase upload-config kubeadm --config your-config-file\' to re-upload it.\n';

/** The version the API server runs (the tag of its static pod's image), as `kubectl version` reads it. */
export function clusterVersion(c: Cluster): string {
  return apiServerVersion(c);
}

/** The newest release the lab's pkgs.k8s.io publishes overall, and the newest of one minor. */
export function latest(c: Cluster, minor?: number): string | undefined {
  const repos = c.meta.packageRepos ?? {};
  const chans = Object.keys(repos)
    .filter((ch) => minor === undefined || Number(ch.split('.')[1]) === minor)
    .sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
  const ch = chans[chans.length - 1];
  return ch ? `${ch}.${repos[ch]}` : undefined;
}

function controlPlaneNodes(c: Cluster): string[] {
  return c.store
    .list<Node>('Node')
    .filter((n) => n.metadata.labels?.['node-role.kubernetes.io/control-plane'] !== undefined)
    .map((n) => n.metadata.name)
    .sort();
}

function upgradeTable(c: Cluster, target: string, description: string, kubeadmV: string): string {
  const nodes = c.store.list<Node>('Node').sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const tm = ADDON_VERSIONS[minorOf(target)] ?? ADDON_VERSIONS[35]!;
  let out = "Components that must be upgraded manually after you have upgraded the control plane with 'kubeadm upgrade apply':\n";
  out += tabwrite([['COMPONENT', 'NODE', 'CURRENT', 'TARGET'], ...nodes.map((n) => ['kubelet', n.metadata.name, n.status?.nodeInfo?.kubeletVersion ?? '', target])]);
  out += `\nUpgrade to the latest ${description}:\n\n`;
  const rows: string[][] = [['COMPONENT', 'NODE', 'CURRENT', 'TARGET']];
  const cps = controlPlaneNodes(c);
  for (const comp of COMPONENTS) for (const n of cps) rows.push([comp, n, imageTag(componentImage(c, comp, n)), target]);
  const proxy = c.store.get<DaemonSet>('DaemonSet', 'kube-system', 'kube-proxy');
  rows.push(['kube-proxy', '', imageTag(proxy?.spec.template.spec?.containers[0]?.image).replace(/^v/, ''), target]);
  const dns = c.store.get<Deployment>('Deployment', 'kube-system', 'coredns');
  rows.push(['CoreDNS', '', imageTag(dns?.spec.template.spec?.containers[0]?.image), tm.coredns]);
  for (const n of cps) rows.push(['etcd', n, imageTag(componentImage(c, 'etcd', n)), tm.etcd]);
  out += tabwrite(rows);
  out += `\nYou can now apply the upgrade by executing the following command:\n\n\tkubeadm upgrade apply ${target}\n\n`;
  if (kubeadmV !== target) out += `Note: Before you can perform this upgrade, you have to update kubeadm to ${target}.\n\n`;
  out += '_____________________________________________________________________\n\n';
  return out;
}

const CONFIG_STATES = `
The table below shows the current state of component configs as understood by this version of kubeadm.
Configs that have a "yes" mark in the "MANUAL UPGRADE REQUIRED" column require manual config upgrade or
resetting to kubeadm defaults before a successful upgrade can be performed. The version to manually
upgrade to is denoted in the "PREFERRED VERSION" column.

API GROUP                 CURRENT VERSION   PREFERRED VERSION   MANUAL UPGRADE REQUIRED
kubeproxy.config.k8s.io   v1alpha1          v1alpha1            no
kubelet.config.k8s.io     v1beta1           v1beta1             no
_____________________________________________________________________

`;

/** Errors shared by plan and apply before they talk to the cluster. */
function clusterAccess(c: Cluster, host: Host, ctx: CommandContext): CommandResult | undefined {
  if (ctx.user !== 'root')
    return kubeadmError('[preflight] Some fatal errors occurred:\n\t[ERROR IsPrivilegedUser]: user is not running as root\n[preflight] If you know what you are doing, you can make a check non-fatal with `--ignore-preflight-errors=...`', '[preflight] Running pre-flight checks.\n');
  const e = adminConfError(host, true);
  if (e) return kubeadmError(`couldn't create a Kubernetes client from file "/etc/kubernetes/admin.conf": ${e}`);
  if (c.state.apiserver && !c.state.apiserver.up)
    return kubeadmError(`[upgrade/init config] FATAL: failed to get config map: Get "https://${c.host(c.meta.controlPlane)?.ip ?? '127.0.0.1'}:6443/api/v1/namespaces/kube-system/configmaps/kubeadm-config?timeout=10s": dial tcp ${c.host(c.meta.controlPlane)?.ip ?? '127.0.0.1'}:6443: connect: connection refused`);
  return undefined;
}

export function upgradePlan(c: Cluster, host: Host, ctx: CommandContext): CommandResult {
  const kv = kubeadmVersion(c, host)!;
  const denied = clusterAccess(c, host, ctx);
  if (denied) return denied;
  const cv = clusterVersion(c);
  let out = '[preflight] Running pre-flight checks.\n' + CONFIG_READ + '[upgrade] Running cluster health checks\n[upgrade] Fetching available versions to upgrade to\n';
  out += `[upgrade/versions] Cluster version: ${cv.replace(/^v/, '')}\n[upgrade/versions] kubeadm version: ${kv}\n`;
  let stderr = '';
  const stable = latest(c) ?? kv;
  let target = stable;
  if (minorOf(stable) > minorOf(kv)) {
    target = latest(c, minorOf(kv)) ?? kv;
    stderr = kubeadmLog(c, 'I', 'version.go:260', `remote version is much newer: ${stable}; falling back to: stable-1.${minorOf(kv)}`);
  }
  out += `[upgrade/versions] Target version: ${target}\n`;
  const series = latest(c, minorOf(cv)) ?? cv;
  out += `[upgrade/versions] Latest version in the v1.${minorOf(cv)} series: ${series}\n`;
  const ups: { target: string; description: string }[] = [];
  if (semverCompare(series, cv) > 0) ups.push({ target: series, description: `version in the v1.${minorOf(cv)} series` });
  if (minorOf(target) > minorOf(cv)) ups.push({ target, description: 'stable version' });
  if (ups.length === 0) return { stdout: out, stderr, exitCode: 0 };
  out += '\n';
  for (const u of ups) out += upgradeTable(c, u.target, u.description, kv);
  out += CONFIG_STATES;
  return { stdout: out, stderr, exitCode: 0 };
}

/** policy.go EnforceVersionPolicies: mandatory and skippable skew errors. */
function skewErrors(cv: string, kv: string, target: string): { mandatory: string[]; skippable: string[] } {
  const mandatory: string[] = [];
  const skippable: string[] = [];
  if (minorOf(target) > minorOf(cv) + 1) mandatory.push(`Specified version to upgrade to "${target}" is too high; kubeadm can upgrade only 1 minor version at a time`);
  if (minorOf(target) < minorOf(cv) - 1) mandatory.push(`Specified version to downgrade to "${target}" is too low; kubeadm can downgrade only 1 minor version at a time`);
  if (semverCompare(kv, target) < 0) {
    if (minorOf(target) > minorOf(kv)) mandatory.push(`Specified version to upgrade to "${target}" is at least one minor release higher than the kubeadm minor release (${minorOf(target)} > ${minorOf(kv)}). Such an upgrade is not supported`);
    else skippable.push(`Specified version to upgrade to "${target}" is higher than the kubeadm version "${kv}". Upgrade kubeadm first using the tool you used to install kubeadm`);
  }
  if (minorOf(kv) > minorOf(target)) skippable.push(`Kubeadm version ${kv} can only be used to upgrade to Kubernetes version 1.${minorOf(kv)}`);
  return { mandatory, skippable };
}


/**
 * rollbackOldManifests (phases/upgrade/staticpods.go): the manifests already moved go back from the
 * backup directory (etcd's only when etcd itself failed); the failing component's own backup does
 * not exist yet, so its rename fails too, and both errors are reported (utilerrors.NewAggregate).
 */
function rollback(host: Host, backup: string, moved: readonly string[], failing: string, origErr: string): string {
  const errs = [origErr];
  for (const comp of [...moved, failing]) {
    if (comp === 'etcd' && failing !== 'etcd') continue;
    const from = `${backup}/${comp}.yaml`;
    const to = `${MANIFEST_DIR}/${comp}.yaml`;
    const text = host.fs.tryRead(from);
    if (text === undefined) {
      errs.push(`rename ${from} ${to}: no such file or directory`);
      continue;
    }
    host.fs.write(to, text, host.fs.stat(from)?.mode ?? 0o600);
    host.fs.remove(from);
  }
  return `couldn't upgrade control plane. kubeadm has tried to recover everything into the earlier state. Errors faced: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`;
}

/**
 * The control-plane part of apply (and of `upgrade node` on a control-plane node); `error` is the
 * control-plane phase's error when a certificate of a component cannot be read for its renewal
 * (renewCertsByComponent → Manager.RenewUsingLocalCA): the manifests are rolled back and the
 * upgrade stops (for etcd, performEtcdStaticPodUpgrade reports the old etcd as available again).
 */
function upgradeStaticPods(c: Cluster, host: Host, target: string, renewCerts = true, patching?: Patching): { out: string; error?: string } {
  const now = c.now();
  const stamp = backupStamp(now);
  const backup = `/etc/kubernetes/tmp/kubeadm-backup-manifests-${stamp}`;
  const tm = ADDON_VERSIONS[minorOf(target)] ?? ADDON_VERSIONS[35]!;
  let out = `[upgrade/control-plane] Upgrading your static Pod-hosted control plane to version "${target}" (timeout: 5m0s)...\n`;
  out += `[upgrade/staticpods] Writing new Static Pod manifests to "/etc/kubernetes/tmp/kubeadm-upgraded-manifests${tempSuffix(c)}"\n`;
  const renew: Record<string, string[]> = {
    etcd: ['etcd-server', 'etcd-peer', 'etcd-healthcheck-client'],
    'kube-apiserver': ['apiserver', 'apiserver-kubelet-client', 'front-proxy-client', 'apiserver-etcd-client'],
    'kube-controller-manager': ['controller-manager.conf'],
    'kube-scheduler': ['scheduler.conf'],
  };
  // the new manifests, written to the temporary directory before any component moves: the control
  // plane's first (CreateInitStaticPodManifestFiles), then etcd's (performEtcdStaticPodUpgrade)
  const nextOf: Record<string, string> = {};
  for (const comp of [...COMPONENTS, 'etcd'] as const) {
    const old = host.fs.tryRead(`${MANIFEST_DIR}/${comp}.yaml`);
    if (old === undefined) continue;
    const next = withTag(old, comp === 'etcd' ? tm.etcd : target);
    if (!patching) {
      nextOf[comp] = next;
      continue;
    }
    const lines: string[] = [];
    const r = patchStaticPod(patching.patches, patching.dir, comp, next, lines);
    out += lines.join('');
    if ('error' in r) return { out, error: `couldn't complete the static pod upgrade: ${comp === 'etcd' ? 'error creating local etcd static pod manifest file' : 'error creating init static pod manifest files'}: ${r.error}` };
    nextOf[comp] = r.text;
  }
  const moved: string[] = [];
  for (const comp of ['etcd', ...COMPONENTS]) {
    const path = `${MANIFEST_DIR}/${comp}.yaml`;
    const old = host.fs.tryRead(path);
    const next = nextOf[comp];
    if (old === undefined || next === undefined) continue;
    out += `[upgrade/staticpods] Preparing for "${comp}" upgrade\n`;
    for (const cert of renewCerts ? (renew[comp] ?? []) : []) {
      out += `[upgrade/staticpods] Renewing ${cert} certificate\n`;
      const r = renewForUpgrade(c, host, cert);
      if (r === 'external') out += `[upgrade/staticpods] External CA detected, ${cert} certificate can't be renewed\n`;
      else if (typeof r === 'object') {
        const err = rollback(host, backup, moved, comp, `failed to renew certificates for component "${comp}": ${r.error}`);
        c.touchHosts();
        if (comp !== 'etcd') return { out, error: `couldn't complete the static pod upgrade: ${err}` };
        out += `[upgrade/etcd] Failed to upgrade etcd: ${err}\n[upgrade/etcd] Waiting for previous etcd to become available\n[upgrade/etcd] Etcd was rolled back and is now available\n`;
        return { out, error: `couldn't complete the static pod upgrade: fatal error when trying to upgrade the etcd cluster, rolled the state back to pre-upgrade state: ${err}` };
      }
    }
    // the old manifest is moved to the backup (os.Rename keeps its mode); the new one comes from
    // staticpod.WriteStaticPodToDisk in a temporary directory, 0600 (upgrade/staticpods.go)
    host.fs.write(`${backup}/${comp}.yaml`, old, host.fs.stat(path)?.mode ?? 0o600);
    moved.push(comp);
    if (next === old) out += `[upgrade/staticpods] Restarting the ${comp} static pod and backing up its manifest to "${backup}/${comp}.yaml"\n`;
    else {
      host.fs.write(path, next, 0o600);
      out += `[upgrade/staticpods] Moving new manifest to "${path}" and backing up old manifest to "${backup}/${comp}.yaml"\n`;
    }
    out += `[upgrade/staticpods] Waiting for the kubelet to restart the component\n[upgrade/staticpods] This can take up to 5m0s\n[apiclient] Found 1 Pods for label selector component=${comp}\n[upgrade/staticpods] Component "${comp}" upgraded successfully!\n`;
    if (comp === 'etcd') out += '[upgrade/etcd] Waiting for etcd to become available\n';
  }
  // the certificate embedded in admin.conf, renewed without a line of its own (staticpods.go StaticPodControlPlane)
  if (renewCerts && renewForUpgrade(c, host, 'admin.conf') === 'external') out += "[upgrade/staticpods] External CA detected, admin.conf certificate can't be renewed\n";
  out += '[upgrade/control-plane] The control plane instance for this node was successfully upgraded!\n';
  return { out };
}

const KUBELET_DIR = '/var/lib/kubelet';
const INSTANCE_CONFIG = `${KUBELET_DIR}/instance-config.yaml`;
const FLAGS_ENV = `${KUBELET_DIR}/kubeadm-flags.env`;
/** The command's patch managers and --patches directory (kubeadm-patches.ts). */
interface Patching {
  patches: KubeadmPatches;
  dir: string;
}

function patchingOf(host: Host, ctx: CommandContext, args: readonly string[]): Patching | undefined {
  const dir = patchesDir(args);
  return dir ? { patches: new KubeadmPatches(host, ctx.cwd), dir } : undefined;
}

/**
 * The CoreDNS addon with --patches (phases/addons/dns/dns.go EnsureDNSAddon): the
 * corednsdeployment patches over the Deployment, written through the API; the error stops the addon phase.
 */
function patchCoreDns(c: Cluster, patching: Patching | undefined): { out: string; error?: string } {
  const dns = c.store.get<Deployment>('Deployment', 'kube-system', 'coredns');
  if (!patching || !dns) return { out: '' };
  const lines: string[] = [];
  const r = patchCoreDnsDeployment(patching.patches, patching.dir, clone(dns), lines);
  if ('error' in r) return { out: lines.join(''), error: r.error };
  if (r.deployment !== undefined && JSON.stringify(r.deployment) !== JSON.stringify(dns)) new ApiServer(c).update(r.deployment);
  return { out: lines.join('') };
}

/** The `--name=value` arguments of kubeadm-flags.env's KUBELET_KUBEADM_ARGS (kubelet phase ReadKubeletDynamicEnvFile). */
function flagsEnvArgs(text: string): { name: string; value: string }[] {
  const m = /KUBELET_KUBEADM_ARGS="([^"]*)"/.exec(text);
  return (m?.[1] ?? '')
    .split(/\s+/)
    .filter((a) => a.startsWith('--'))
    .map((a) => {
      const eq = a.indexOf('=');
      return eq < 0 ? { name: a.slice(2), value: '' } : { name: a.slice(2, eq), value: a.slice(eq + 1) };
    });
}

/** kubelet phase WriteKubeletArgsToFile: the arguments sorted by name, `--name=value` each. */
function flagsEnvText(args: readonly { name: string; value: string }[]): string {
  const sorted = [...args].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `KUBELET_KUBEADM_ARGS="${sorted.map((a) => `--${a.name}=${a.value}`).join(' ')}"\n`;
}

/**
 * The kubelet-config phase (cmd/kubeadm/app/phases/upgrade/postupgrade.go WriteKubeletConfigFiles,
 * cmd/phases/upgrade/kubeletconfig.go): the config is backed up to a temporary directory (kubeadm
 * v1.34: os.MkdirTemp's random digits, logged from postupgrade.go:116; v1.35: a time-stamped
 * `kubeadm-kubelet-config-YYYY-MM-DD-hh-mm-ss`, postupgrade.go:105, as recorded from both releases).
 * With the NodeLocalCRISocket feature gate (beta and on by default in both) a missing
 * instance-config.yaml is first created from kubeadm-flags.env's --container-runtime-endpoint (the flag
 * leaves that file, which is rewritten) and the instance configuration is then applied to the new
 * config as a strategic merge patch (phases/kubelet/config.go WriteConfigToDisk →
 * applyKubeletConfigPatchFromFile, whose patch manager prints the `[patches] Applied patch` line even
 * without --patches); each write prints writeConfigBytesToDisk's `[kubelet-start] Writing kubelet
 * configuration to file` line. The config's other content stays what the node has.
 */
function kubeletConfigPhase(c: Cluster, host: Host, stderr: string[], kv: string, patching?: Patching): { out: string; error?: string } {
  const v135 = minorOf(kv) >= 35;
  const dir = v135 ? `/etc/kubernetes/tmp/kubeadm-kubelet-config-${backupStamp(c.now())}` : `/etc/kubernetes/tmp/kubeadm-kubelet-config${tempSuffix(c)}`;
  stderr.push(kubeadmLog(c, 'W', v135 ? 'postupgrade.go:105' : 'postupgrade.go:116', `Using temporary directory ${dir} for kubelet config. To override it set the environment variable KUBEADM_UPGRADE_DRYRUN_DIR`));
  host.fs.write(`${dir}/config.yaml`, host.fs.tryRead(KUBELET_CONFIG) ?? '');
  let out = `[upgrade] Backing up kubelet config file to ${dir}/config.yaml\n`;
  let instance = host.fs.tryRead(INSTANCE_CONFIG);
  if (instance === undefined) {
    const args = flagsEnvArgs(host.fs.tryRead(FLAGS_ENV) ?? '');
    const endpoint = args.find((a) => a.name === 'container-runtime-endpoint')?.value ?? '';
    if (endpoint) {
      out += `[kubelet-start] Writing kubelet environment file with flags to file "${FLAGS_ENV}"\n`;
      host.fs.write(FLAGS_ENV, flagsEnvText(args.filter((a) => a.name !== 'container-runtime-endpoint')), 0o644);
    }
    instance = `containerRuntimeEndpoint: ${JSON.stringify(endpoint)}\n`;
    out += `[kubelet-start] Writing kubelet configuration to file "${INSTANCE_CONFIG}"\n`;
    host.fs.write(INSTANCE_CONFIG, instance, 0o644);
  }
  const lines: string[] = [];
  const config = patchKubeletConfig(patching?.patches, patching?.dir, upgradedKubeletConfig(c, host), instance, lines, withInstanceConfig);
  out += lines.join('');
  if ('error' in config) return { out, error: `error writing kubelet configuration to file: ${config.error}` };
  host.fs.write(KUBELET_CONFIG, config.text, 0o644);
  out += `[kubelet-start] Writing kubelet configuration to file "${KUBELET_CONFIG}"\n`;
  return { out: `${out}[upgrade/kubelet-config] The kubelet configuration for this node was successfully upgraded!\n` };
}

/**
 * kubeadm v1.35's post-upgrade phase (cmd/phases/upgrade/postupgrade.go runPostUpgrade →
 * phases/upgrade RemoveKubeletArgsFromFile), the last phase of both `upgrade apply` and `upgrade
 * node`: kubeadm-flags.env is backed up to a temporary directory (os.MkdirTemp, logged from
 * postupgrade.go:203) and rewritten without the deprecated --pod-infra-container-image (its
 * unwantedFlags, "Remove it from this list in 1.36"). The lines are those of a real v1.35.0 upgrade
 * of a v1.34.0 cluster (apply on the control plane, node on the worker).
 */
function postUpgradePhase(c: Cluster, host: Host, stderr: string[], kv: string): string {
  if (minorOf(kv) < 35) return '';
  const text = host.fs.tryRead(FLAGS_ENV);
  if (text === undefined) return '';
  const dir = `/etc/kubernetes/tmp/kubeadm-kubelet-env${tempSuffix(c)}`;
  stderr.push(kubeadmLog(c, 'W', 'postupgrade.go:203', `Using temporary directory ${dir} for kubelet env file. To override it set the environment variable KUBEADM_UPGRADE_DRYRUN_DIR`));
  host.fs.write(`${dir}/kubeadm-flags.env`, text, 0o644);
  host.fs.write(FLAGS_ENV, flagsEnvText(flagsEnvArgs(text).filter((a) => a.name !== 'pod-infra-container-image')), 0o644);
  return `[upgrade] Backing up kubelet env file to ${dir}/kubeadm-flags.env\n[kubelet-start] Writing kubelet environment file with flags to file "${FLAGS_ENV}"\n`;
}

/** upgrade apply's flags that take a value (cmd/upgrade/apply.go, common.go addApplyFlags/addApplyConfigFlags); the others are bools. */
const APPLY_STRING_FLAGS = new Set(['--config', '--feature-gates', '--ignore-preflight-errors', '--kubeconfig', '--patches', '--rootfs', '--skip-phases']);

/** `--certificate-renewal` (default true): false leaves every certificate as it is (pflag's bool forms). */
function certificateRenewal(args: readonly string[]): boolean {
  const v = args.filter((a) => a === '--certificate-renewal' || a.startsWith('--certificate-renewal=')).at(-1);
  return v === undefined || !/^--certificate-renewal=(0|f|F|false|FALSE|False)$/.test(v);
}

export function upgradeApply(c: Cluster, host: Host, ctx: CommandContext, args: string[]): ShellResult {
  const dry = isDryRun(args);
  const kv = kubeadmVersion(c, host)!;
  // the version is the first word that is not a string flag's separate value (`--patches DIR v1.35.2`)
  const target = args.find((a, i) => !a.startsWith('-') && !APPLY_STRING_FLAGS.has(args[i - 1] ?? ''));
  const yes = args.some((a) => a === '-y' || a === '--yes' || a === '-f' || a === '--force');
  const force = args.some((a) => a === '-f' || a === '--force');
  if (!target) return kubeadmError('missing one or more required arguments. Required arguments: [version]');
  const tv = target.startsWith('v') ? target : `v${target}`;
  if (!/^v\d+\.\d+\.\d+$/.test(tv)) return kubeadmError(`[upgrade/version] FATAL: unable to parse normalized version "${target}": could not parse "${target}" as version`);
  const denied = clusterAccess(c, host, ctx);
  if (denied) return denied;
  const cv = clusterVersion(c);
  let out = '[upgrade] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n[upgrade] Use \'kubeadm init phase upload-config kubeadm --config your-config-file\' to re-upload it.\n';
  out += '[upgrade/preflight] Running preflight checks\n';
  // upgrade.RunCoreDNSMigrationCheck, before the cluster health checks (cmd/phases/upgrade/apply/preflight.go)
  const preflightWarnings: string[] = [];
  const dnsCheck = coreDNSUnsupportedPlugins(c);
  if (dnsCheck) {
    out += dnsCheck.stdout;
    const ignored = ignoredPreflightErrors(args);
    if (!ignored.has('all') && !ignored.has('corednsunsupportedplugins'))
      return kubeadmError(`error execution phase preflight: [preflight] Some fatal errors occurred:\n\t[ERROR CoreDNSUnsupportedPlugins]: ${dnsCheck.error}\n[preflight] If you know what you are doing, you can make a check non-fatal with \`--ignore-preflight-errors=...\``, out);
    preflightWarnings.push(`\t[WARNING CoreDNSUnsupportedPlugins]: ${dnsCheck.error}\n`);
  }
  out += '[upgrade] Running cluster health checks\n';
  out += `[upgrade/preflight] You have chosen to upgrade the cluster version to "${tv}"\n[upgrade/versions] Cluster version: ${cv}\n[upgrade/versions] kubeadm version: ${kv}\n`;
  const skew = skewErrors(cv, kv, tv);
  const list = (xs: string[]): string => xs.map((x) => `\t- ${x}\n`).join('');
  if (skew.mandatory.length)
    return kubeadmError(`error execution phase preflight: [upgrade/version] FATAL: the version argument is invalid due to these fatal errors:\n\n${list(skew.mandatory)}\nPlease fix the misalignments highlighted above and try upgrading again`, out);
  if (skew.skippable.length && !force)
    return kubeadmError(`error execution phase preflight: [upgrade/version] FATAL: the version argument is invalid due to these errors:\n\n${list(skew.skippable)}\nCan be bypassed if you pass the --force flag`, out);
  // applyData.SessionIsInteractive: --dry-run never asks
  if (dry) {
    const r = applyDryRun(c, host, tv, out, kv, patchingOf(host, ctx, args));
    return { ...r, stderr: preflightWarnings.join('') + r.stderr };
  }
  if (!yes) {
    const answer = ctx.stdin === '' ? 'y' : (ctx.stdin.split('\n')[0] ?? '').trim();
    out += `[upgrade] Are you sure you want to proceed? [y/N]: ${ctx.stdin === '' ? 'y\n' : ''}`;
    if (!/^y$/i.test(answer)) return kubeadmError("error execution phase preflight: won't proceed; the user didn't answer (Y|y) in order to continue", out);
  }
  out += "[upgrade/preflight] Pulling images required for setting up a Kubernetes cluster\n[upgrade/preflight] This might take a minute or two, depending on the speed of your internet connection\n[upgrade/preflight] You can also perform this action beforehand using 'kubeadm config images pull'\n";
  const patching = patchingOf(host, ctx, args);
  const cp = upgradeStaticPods(c, host, tv, certificateRenewal(args), patching);
  out += cp.out;
  if (cp.error) return { stdout: out, stderr: `${preflightWarnings.join('')}error execution phase control-plane: ${cp.error}\n${STACK_TRACE}`, exitCode: 1 };
  // the cluster's configuration and add-ons, through the API
  const cfg = clusterConfiguration(c);
  if (cfg) {
    const cm = clone(cfg.cm);
    cm.data!['ClusterConfiguration'] = cm.data!['ClusterConfiguration']!.replace(/^kubernetesVersion: .*$/m, `kubernetesVersion: ${tv}`);
    c.write(cm);
  }
  out += '[upload-config] Storing the configuration used in ConfigMap "kubeadm-config" in the "kube-system" Namespace\n';
  out += '[kubelet] Creating a ConfigMap "kubelet-config" in namespace kube-system with the configuration for the kubelets in the cluster\n';
  out += '[upgrade/kubeconfig] The kubeconfig files for this node were successfully upgraded!\n';
  const stderr: string[] = [...preflightWarnings];
  const kc = kubeletConfigPhase(c, host, stderr, kv, patching);
  out += kc.out;
  if (kc.error) return { stdout: out, stderr: `${stderr.join('')}error execution phase kubelet-config: ${kc.error}\n${STACK_TRACE}`, exitCode: 1 };
  out += '[upgrade/bootstrap-token] Configuring bootstrap token and cluster-info RBAC rules\n';
  out += '[bootstrap-token] Configured RBAC rules to allow Node Bootstrap tokens to get nodes\n[bootstrap-token] Configured RBAC rules to allow Node Bootstrap tokens to post CSRs in order for nodes to get long term certificate credentials\n[bootstrap-token] Configured RBAC rules to allow the csrapprover controller automatically approve CSRs from a Node Bootstrap Token\n[bootstrap-token] Configured RBAC rules to allow certificate rotation for all node client certificates in the cluster\n';
  const tm = ADDON_VERSIONS[minorOf(tv)] ?? ADDON_VERSIONS[35]!;
  // The Corefile (phases/addons/dns/dns.go createCoreDNSAddon): a default one is replaced by kubeadm's
  // default, which is the same text in v1.34 and v1.35; a modified one is migrated only when
  // isCoreDNSConfigMapMigrationRequired finds a `removed` or `newdefault` notice in
  // migration.Deprecated(current, target) of github.com/coredns/corefile-migration, and kept as it is
  // otherwise (CreateOrRetainConfigMap). From CoreDNS 1.12.1 (kubeadm v1.34) to 1.13.1 (v1.35) every
  // step (1.12.2, 1.12.3, 1.12.4, 1.13.0, 1.13.1) has the same plugin table (migration/versions.go
  // plugins_1_12_0 = plugins_1_13_0, at 1dc6c9e), with no removed option or new default in it, so
  // no Corefile is ever migrated (no Corefile-backup, the Deployment keeps reading `Corefile`), and
  // the preflight CoreDNSMigration check (migration.Migrate of the same path) cannot fail: the
  // ConfigMap stays as it is and only the image moves. Upgrades to or from other CoreDNS versions
  // are not modelled.
  const dns = c.store.get<Deployment>('Deployment', 'kube-system', 'coredns');
  const dnsCt = dns?.spec.template.spec?.containers[0];
  if (dns && dnsCt && imageTag(dnsCt.image) !== tm.coredns && /registry\.k8s\.io\/coredns\/coredns/.test(dnsCt.image)) {
    const d = clone(dns);
    d.spec.template.spec!.containers[0]!.image = `registry.k8s.io/coredns/coredns:${tm.coredns}`;
    c.write(d);
  }
  const dnsPatch = patchCoreDns(c, patching);
  out += dnsPatch.out;
  if (dnsPatch.error) return { stdout: out, stderr: `${stderr.join('')}error execution phase addon/coredns: ${dnsPatch.error}\n${STACK_TRACE}`, exitCode: 1 };
  out += '[addons] Applied essential addon: CoreDNS\n';
  const proxy = c.store.get<DaemonSet>('DaemonSet', 'kube-system', 'kube-proxy');
  if (proxy && proxy.spec.template.spec?.containers[0]) {
    const p = clone(proxy);
    p.spec.template.spec!.containers[0]!.image = `registry.k8s.io/kube-proxy:${tv}`;
    c.write(p);
  }
  out += '[addons] Applied essential addon: kube-proxy\n';
  out += postUpgradePhase(c, host, stderr, kv);
  out += `\n[upgrade] SUCCESS! A control plane node of your cluster was upgraded to "${tv}".\n\n[upgrade] Now please proceed with upgrading the rest of the nodes by following the right order.\n`;
  return { stdout: out, stderr: stderr.join(''), exitCode: 0, advanceMs: 60_000 };
}

export function upgradeNode(c: Cluster, host: Host, ctx: CommandContext, args: readonly string[] = []): ShellResult {
  const dry = isDryRun(args);
  if (ctx.user !== 'root')
    return kubeadmError('[preflight] Some fatal errors occurred:\n\t[ERROR IsPrivilegedUser]: user is not running as root\n[preflight] If you know what you are doing, you can make a check non-fatal with `--ignore-preflight-errors=...`');
  if (!host.fs.exists('/etc/kubernetes/kubelet.conf'))
    return kubeadmError('couldn\'t create a Kubernetes client from file "/etc/kubernetes/kubelet.conf": failed to load admin kubeconfig: open /etc/kubernetes/kubelet.conf: no such file or directory');
  const cfg = clusterConfiguration(c);
  const cv = String(cfg?.doc['kubernetesVersion'] ?? clusterVersion(c));
  const cp = host.fs.exists(`${MANIFEST_DIR}/kube-apiserver.yaml`);
  let out = '[upgrade] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n[upgrade] Use \'kubeadm init phase upload-config kubeadm --config your-config-file\' to re-upload it.\n';
  out += '[upgrade/preflight] Running pre-flight checks\n';
  const stderr: string[] = [];
  const patching = patchingOf(host, ctx, args);
  if (dry) return nodeDryRun(c, host, cv, cp, out, kubeadmVersion(c, host)!, patching);
  if (cp) {
    out += "[upgrade/preflight] Pulling images required for setting up a Kubernetes cluster\n[upgrade/preflight] This might take a minute or two, depending on the speed of your internet connection\n[upgrade/preflight] You can also perform this action beforehand using 'kubeadm config images pull'\n";
    const up = upgradeStaticPods(c, host, cv, certificateRenewal(args), patching);
    out += up.out;
    if (up.error) return kubeadmError(`error execution phase control-plane: ${up.error}`, out);
    out += '[upgrade/kubeconfig] The kubeconfig files for this node were successfully upgraded!\n';
  } else {
    out += '[upgrade/preflight] Skipping prepull. Not a control plane node.\n[upgrade/control-plane] Skipping phase. Not a control plane node.\n[upgrade/kubeconfig] Skipping phase. Not a control plane node.\n';
  }
  const kv = kubeadmVersion(c, host)!;
  const kc = kubeletConfigPhase(c, host, stderr, kv, patching);
  out += kc.out;
  if (kc.error) return { stdout: out, stderr: `${stderr.join('')}error execution phase kubelet-config: ${kc.error}\n${STACK_TRACE}`, exitCode: 1 };
  if (cp) {
    const dnsPatch = patchCoreDns(c, patching);
    out += dnsPatch.out;
    if (dnsPatch.error) return { stdout: out, stderr: `${stderr.join('')}error execution phase addon/coredns: ${dnsPatch.error}\n${STACK_TRACE}`, exitCode: 1 };
    out += '[addons] Applied essential addon: CoreDNS\n[addons] Applied essential addon: kube-proxy\n';
  }
  else out += '[upgrade/addon] Skipping the addon/coredns phase. Not a control plane node.\n[upgrade/addon] Skipping the addon/kube-proxy phase. Not a control plane node.\n';
  out += postUpgradePhase(c, host, stderr, kv);
  // cmd/upgrade/node.go prints nothing after its phases (the `successfully updated` and `upgrade the
  // kubelet package` lines went with the old kubelet-config phase); the addon lines (v1.34) or the
  // post-upgrade phase's (v1.35) end the output
  return { stdout: out, stderr: stderr.join(''), exitCode: 0, advanceMs: cp ? 60_000 : 5_000 };
}
