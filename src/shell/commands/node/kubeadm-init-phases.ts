/**
 * The `kubeadm init phase` runs that write the control plane's static pods and settle the node
 * (kubeadm v1.35 cmd/kubeadm/app/cmd/phases/init/*.go and the phases/ packages they call):
 * - `control-plane all|apiserver|controller-manager|scheduler` (controlplane.go): the parent prints
 *   `[control-plane] Using manifest folder "/etc/kubernetes/manifests"`, each sub-phase
 *   `[control-plane] Creating static Pod manifest for "kube-apiserver"` and writes the manifest
 *   (staticpod.WriteStaticPodToDisk: mode 0600, the folder made 0700);
 * - `etcd local` (etcd.go): the data directory, then `[etcd] Creating static Pod manifest for local
 *   etcd in "/etc/kubernetes/manifests"` and etcd.yaml;
 * - `kubelet-start` (kubelet.go): the kubelet's flags env file and config.yaml, then `[kubelet-start]
 *   Starting the kubelet` (restarted);
 * - `upload-config all|kubeadm|kubelet` (uploadconfig.go): the kubeadm-config and kubelet-config
 *   ConfigMaps in kube-system;
 * - `mark-control-plane` (markcontrolplane.go, phases/markcontrolplane): the control-plane and
 *   exclude-from-external-load-balancers labels and the control-plane:NoSchedule taint on the node;
 * - `addon all|coredns|kube-proxy` (addons.go): `[addons] Applied essential addon: …`.
 * Causal: the kubelet runs whatever manifest lands in its staticPodPath (sim/controllers/static-pods.ts),
 * so a regenerated manifest brings a deleted component back, and one written from other values
 * restarts it with them. Like kubeadm without --config, the values are kubeadm's defaults and the
 * flags (no pod subnet unless --pod-network-cidr, service subnet 10.96.0.0/12, the version
 * `stable-1` resolves to, this node's address), not what the running cluster uses; `--config FILE`
 * reads its InitConfiguration and ClusterConfiguration, and mixing it with those flags is kubeadm's
 * `can not mix '--config' with arguments` error (validation.ValidateMixedArguments).
 * --dry-run (control-plane, etcd and kubelet-start only) writes into a new
 * /etc/kubernetes/tmp/kubeadm-init-dryrun<digits> directory instead, leaves the kubelet and
 * /var/lib/etcd alone and says so (`[dryrun] Would ensure …`, `[kubelet-start] Would stop|start
 * the kubelet`); certs and kubeconfig do the same in their own files. Not simulated: --dry-run of
 * upload-config, mark-control-plane and addon (and upload-certs, kubeadm-init.ts), whose dry-run
 * API client logs every request it would make (util/apiclient/dryrun.go), a
 * non-default --image-repository or --apiserver-bind-port.
 * `--patches DIR` (or InitConfiguration's `patches.directory` under --config) patches what the
 * phases write, as kubeadm does (kubeadm-patches.ts): control-plane each component's manifest
 * after its `Creating static Pod manifest` line (phases/controlplane/manifests.go
 * CreateStaticPodFiles → staticpodutil.PatchStaticPod), etcd its manifest (phases/etcd/local.go
 * CreateLocalEtcdStaticPodManifestFile), kubelet-start config.yaml before the instance
 * configuration (phases/kubelet/config.go WriteConfigToDisk), addon coredns the Deployment
 * (phases/addons/dns/dns.go). A patch that fails leaves that file unwritten and stops the phase.
 * The addon phase creates the add-on's objects or puts kubeadm's back (createOrUpdate below).
 */
import { parseAllDocuments } from 'yaml';
import type { CommandContext, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { ConfigMap, Deployment, KObject, Node } from '../../../sim/api/types.js';
import { ApiServer } from '../../../sim/apiserver.js';
import { clone } from '../../../sim/api/store.js';
import { MANIFEST_DIR } from '../../../sim/controlplane.js';
import { apiServerManifest, controllerManagerManifest, etcdManifest, kubeadmFlagsEnv, kubeletConfigYaml, schedulerManifest, type NodeFileParams } from '../../../sim/fixture/kubeadm-files.js';
import { addonObjects, kubeadmClusterConfiguration } from '../../../sim/fixture/addons.js';
import { KUBEADM_PINS, minorPins } from '../../../sim/kubeadm-pins.js';
import { intToIp, parseCidr } from '../../../util/ip.js';
import { adminConfError, dryRunDir, flag, isDryRun, kubeadmError, kubeadmVersion, minorOf, withInstanceConfig } from './kubeadm-lib.js';
import { resolveVersion } from './kubeadm-images.js';
import { restartKubelet } from './kubeadm-join.js';
import { KubeadmPatches, patchCoreDnsDeployment, patchKubeletConfig, patchStaticPod, patchesDir, type PatchTarget } from './kubeadm-patches.js';

/** What the phases take from the configuration (kubeadm's defaults, the flags, or --config). */
interface InitValues {
  nodeName: string;
  advertiseAddress: string;
  kubernetesVersion: string;
  podSubnet: string;
  serviceSubnet: string;
  dnsDomain: string;
  encryptionAlgorithm: string;
  /** The patches directory (--patches, or the InitConfiguration's patches.directory). */
  patches?: string;
  /** stderr kubeadm printed while resolving them (the version label's klog line). */
  stderr: string;
}

/**
 * The flags that may go with --config (validation.isAllowedFlag, cmd/kubeadm/app/apis/kubeadm/validation):
 * any other flag given is reported, in pflag's sorted order, by ValidateMixedArguments.
 */
const CONFIG_ALLOWED = new Set(['config', 'ignore-preflight-errors', 'dry-run', 'kubeconfig', 'node-name', 'kubeconfig-dir', 'upload-certs', 'print-manifest', 'feature-gates', 'rootfs', 'v', 'log-file']);

type Doc = Record<string, unknown>;
const obj = (v: unknown): Doc => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The values from --config FILE's InitConfiguration and ClusterConfiguration documents, or the error. */
export function fromConfig(host: Host, ctx: CommandContext, path: string): Partial<Omit<InitValues, 'stderr'>> | string {
  const abs = path.startsWith('/') ? path : `${ctx.cwd.replace(/\/$/, '')}/${path}`;
  const text = host.fs.tryRead(abs);
  if (text === undefined) return `unable to read config from "${path}" : open ${path}: no such file or directory`;
  const out: Partial<Omit<InitValues, 'stderr'>> = {};
  for (const d of parseAllDocuments(text)) {
    const doc = obj(d.toJS());
    if (doc['kind'] === 'InitConfiguration') {
      const ep = obj(doc['localAPIEndpoint']);
      const nr = obj(doc['nodeRegistration']);
      if (str(ep['advertiseAddress'])) out.advertiseAddress = str(ep['advertiseAddress'])!;
      if (str(nr['name'])) out.nodeName = str(nr['name'])!;
      if (str(obj(doc['patches'])['directory'])) out.patches = str(obj(doc['patches'])['directory'])!;
    } else if (doc['kind'] === 'ClusterConfiguration') {
      const net = obj(doc['networking']);
      if (str(doc['kubernetesVersion'])) out.kubernetesVersion = str(doc['kubernetesVersion'])!;
      if (str(net['podSubnet'])) out.podSubnet = str(net['podSubnet'])!;
      if (str(net['serviceSubnet'])) out.serviceSubnet = str(net['serviceSubnet'])!;
      if (str(net['dnsDomain'])) out.dnsDomain = str(net['dnsDomain'])!;
      if (str(doc['encryptionAlgorithm'])) out.encryptionAlgorithm = str(doc['encryptionAlgorithm'])!;
    }
  }
  return out;
}

/** --config's values (none without it), or kubeadm's error for mixing it with flags or an unreadable file. */
export function configValues(host: Host, ctx: CommandContext, args: readonly string[]): Partial<Omit<InitValues, 'stderr'>> | CommandResult {
  const cfgPath = flag(args, 'config');
  if (cfgPath === undefined) return {};
  const given = args.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]!);
  const mixed = [...new Set(given)].filter((f) => !CONFIG_ALLOWED.has(f) && !f.startsWith('skip-')).sort();
  if (mixed.length) return kubeadmError(`can not mix '--config' with arguments [${mixed.join(' ')}]`);
  const r = fromConfig(host, ctx, cfgPath);
  return typeof r === 'string' ? kubeadmError(r) : r;
}

function initValues(c: Cluster, host: Host, ctx: CommandContext, args: readonly string[], kubeadmV: string): InitValues | CommandResult {
  const fromFile = configValues(host, ctx, args);
  if ('exitCode' in fromFile) return fromFile;
  const v = resolveVersion(c, kubeadmV, fromFile.kubernetesVersion ?? flag(args, 'kubernetes-version') ?? 'stable-1');
  if ('exitCode' in v) return v;
  return {
    nodeName: fromFile.nodeName ?? flag(args, 'node-name') ?? host.name,
    advertiseAddress: fromFile.advertiseAddress ?? flag(args, 'apiserver-advertise-address') ?? host.ip,
    kubernetesVersion: v.version,
    podSubnet: fromFile.podSubnet ?? flag(args, 'pod-network-cidr') ?? '',
    serviceSubnet: fromFile.serviceSubnet ?? flag(args, 'service-cidr') ?? '10.96.0.0/12',
    dnsDomain: fromFile.dnsDomain ?? flag(args, 'service-dns-domain') ?? 'cluster.local',
    encryptionAlgorithm: fromFile.encryptionAlgorithm ?? 'RSA-2048',
    ...(patchesDir(args, fromFile.patches) ? { patches: patchesDir(args, fromFile.patches)! } : {}),
    stderr: v.stderr,
  };
}

/** The tenth address of the service subnet: the cluster DNS Service's (kubeadm's GetDNSIP). */
function dnsIP(serviceSubnet: string): string {
  const cidr = parseCidr(serviceSubnet.split(',')[0]!);
  return cidr ? intToIp(cidr.base + 10) : '10.96.0.10';
}

function fileParams(c: Cluster, host: Host, v: InitValues, kubeadmV: string): NodeFileParams {
  const pins = KUBEADM_PINS[kubeadmV] ?? minorPins(minorOf(kubeadmV)) ?? minorPins(35)!;
  return {
    name: v.nodeName,
    ip: v.advertiseAddress,
    role: 'control-plane',
    kubernetesVersion: v.kubernetesVersion,
    podSubnet: v.podSubnet,
    serviceSubnet: v.serviceSubnet,
    dnsDomain: v.dnsDomain,
    clusterDNS: dnsIP(v.serviceSubnet),
    controlPlaneIP: v.advertiseAddress,
    gateway: '',
    cni: 'calico',
    etcdVersion: pins.etcd,
    pauseVersion: pins.pause,
  };
}

/** The CRI socket kubeadm detects on a containerd node (constants_unix.go DefaultCRISocket). */
const CRI_SOCKET = 'unix:///var/run/containerd/containerd.sock';

const COMPONENTS = [
  { phase: 'apiserver', name: 'kube-apiserver', make: apiServerManifest },
  { phase: 'controller-manager', name: 'kube-controller-manager', make: controllerManagerManifest },
  { phase: 'scheduler', name: 'kube-scheduler', make: schedulerManifest },
] as const;

function writeManifest(host: Host, name: string, text: string, dir = MANIFEST_DIR): void {
  if (!host.fs.isDir(dir)) host.fs.mkdir(dir);
  host.fs.write(`${dir}/${name}.yaml`, text, 0o600);
}

const UNSIMULATED: string[] = [];
/** The phases whose --dry-run the lab simulates: they only write files, which go to the dry-run directory. */
const DRY_RUN_PHASES = ['control-plane', 'etcd', 'kubelet-start'];

/** `kubeadm init phase control-plane|etcd|kubelet-start|upload-config|mark-control-plane|addon …`; `args` start at the phase's name. */
export function runInitPhase(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  const [phase, ...rest] = args;
  const sub = rest.find((a, i) => !a.startsWith('-') && !/^--[^=]+$/.test(rest[i - 1] ?? '')) ?? '';
  const name = `${phase}${sub ? `/${sub}` : ''}`;
  if (ctx.user !== 'root') return kubeadmError('user is not running as root');
  const unsimulated = DRY_RUN_PHASES.includes(phase ?? '') ? UNSIMULATED : [...UNSIMULATED, 'dry-run'];
  const odd = rest.find((a) => unsimulated.some((f) => a === `--${f}` || a.startsWith(`--${f}=`)));
  if (odd) return kubeadmError(`kubeadm init phase ${phase} ${odd.split('=')[0]} is not simulated in this lab; nothing was written`);
  const repo = flag(rest, 'image-repository');
  if (repo !== undefined && repo !== 'registry.k8s.io') return kubeadmError(`kubeadm init phase ${phase} --image-repository ${repo} is not simulated in this lab; nothing was written`);
  const port = flag(rest, 'apiserver-bind-port');
  if (port !== undefined && port !== '6443') return kubeadmError(`kubeadm init phase ${phase} --apiserver-bind-port ${port} is not simulated in this lab; nothing was written`);
  const kubeadmV = kubeadmVersion(c, host) ?? `v${c.meta.kubernetesVersion.replace(/^v/, '')}`;
  const v = initValues(c, host, ctx, rest, kubeadmV);
  if ('exitCode' in v) return v;
  const done = (stdout: string): CommandResult => ({ stdout, stderr: v.stderr, exitCode: 0 });
  const dry = isDryRun(rest);
  const dryDir = dry ? dryRunDir(c, host) : undefined;
  const manifestDir = dryDir ?? MANIFEST_DIR;
  // the process's patch manager (patches.go): the lines it prints go to stdout in order
  const patches = new KubeadmPatches(host, ctx.cwd);
  const lines: string[] = [];
  const patched = (component: PatchTarget, text: string): { text: string } | { error: string } => (v.patches ? patchStaticPod(patches, v.patches, component, text, lines) : { text });
  switch (phase) {
    case 'control-plane': {
      const p = fileParams(c, host, v, kubeadmV);
      let out = sub === 'all' ? `[control-plane] Using manifest folder "${manifestDir}"\n` : '';
      for (const comp of COMPONENTS.filter((x) => sub === 'all' || x.phase === sub)) {
        out += `[control-plane] Creating static Pod manifest for "${comp.name}"\n`;
        const text = patched(comp.name, comp.make(p));
        out += lines.splice(0).join('');
        if ('error' in text) {
          c.touchHosts();
          return kubeadmError(`error execution phase control-plane/${comp.phase}: ${text.error}`, out);
        }
        writeManifest(host, comp.name, text.text, manifestDir);
      }
      c.touchHosts();
      return done(out);
    }
    case 'etcd': {
      const p = fileParams(c, host, v, kubeadmV);
      let out = '';
      // phases/init/etcd.go runEtcdPhaseLocal: the data directory is only promised under --dry-run
      if (dry) out += '[dryrun] Would ensure that "/var/lib/etcd" directory is present\n';
      else if (!host.fs.isDir('/var/lib/etcd')) host.fs.mkdir('/var/lib/etcd');
      out += `[etcd] Creating static Pod manifest for local etcd in "${manifestDir}"\n`;
      const text = patched('etcd', etcdManifest(p));
      out += lines.splice(0).join('');
      // cmd/phases/init/etcd.go runEtcdPhaseLocal wraps what CreateLocalEtcdStaticPodManifestFile returns
      if ('error' in text) return kubeadmError(`error execution phase etcd/local: error creating local etcd static pod manifest file: ${text.error}`, out);
      writeManifest(host, 'etcd', text.text, manifestDir);
      c.touchHosts();
      return done(out);
    }
    case 'kubelet-start': {
      // phases/init/kubelet.go runKubeletStart: under --dry-run the kubelet is left alone and its files go to the dry-run directory
      const p = fileParams(c, host, v, kubeadmV);
      const kubeletDir = dryDir ?? '/var/lib/kubelet';
      let out = dry ? '[kubelet-start] Would stop the kubelet\n' : '';
      out += `[kubelet-start] Writing kubelet environment file with flags to file "${kubeletDir}/kubeadm-flags.env"\n`;
      host.fs.write(`${kubeletDir}/kubeadm-flags.env`, kubeadmFlagsEnv(host.ip, minorOf(kubeadmV), p.pauseVersion));
      // NodeLocalCRISocket (beta, on by default in v1.34 and v1.35): the node's CRI socket in the
      // instance configuration, applied over config.yaml after the user's patches (kubelet.go runKubeletStart,
      // phases/kubelet/config.go WriteInstanceConfigToDisk, WriteConfigToDisk)
      const instance = `containerRuntimeEndpoint: ${JSON.stringify(CRI_SOCKET)}\n`;
      out += `[kubelet-start] Writing kubelet configuration to file "${kubeletDir}/instance-config.yaml"\n`;
      host.fs.write(`${kubeletDir}/instance-config.yaml`, instance, 0o644);
      const config = patchKubeletConfig(patches, v.patches, kubeletConfigYaml(p), instance, lines, withInstanceConfig);
      out += lines.splice(0).join('');
      if ('error' in config) return kubeadmError(`error execution phase kubelet-start: error writing kubelet configuration to disk: ${config.error}`, out);
      out += `[kubelet-start] Writing kubelet configuration to file "${kubeletDir}/config.yaml"\n`;
      host.fs.write(`${kubeletDir}/config.yaml`, config.text, 0o644);
      if (dry) return done(`${out}[kubelet-start] Would start the kubelet\n`);
      out += '[kubelet-start] Starting the kubelet\n';
      restartKubelet(c, host);
      return done(out);
    }
    case 'upload-config': {
      const e = adminConfError(host, true);
      if (e) return kubeadmError(e);
      let out = '';
      if (sub === 'all' || sub === 'kubeadm') {
        out += '[upload-config] Storing the configuration used in ConfigMap "kubeadm-config" in the "kube-system" Namespace\n';
        putConfigMap(c, 'kubeadm-config', { ClusterConfiguration: kubeadmClusterConfiguration({ clusterName: 'kubernetes', ...v }) });
      }
      if (sub === 'all' || sub === 'kubelet') {
        out += '[kubelet] Creating a ConfigMap "kubelet-config" in namespace kube-system with the configuration for the kubelets in the cluster\n';
        putConfigMap(c, 'kubelet-config', { kubelet: kubeletConfigYaml(fileParams(c, host, v, kubeadmV)) });
      }
      return done(out);
    }
    case 'mark-control-plane': {
      const e = adminConfError(host, true);
      if (e) return kubeadmError(e);
      const node = c.store.get<Node>('Node', '', v.nodeName);
      const out = `[mark-control-plane] Marking the node ${v.nodeName} as control-plane by adding the labels: [node-role.kubernetes.io/control-plane node.kubernetes.io/exclude-from-external-load-balancers]\n[mark-control-plane] Marking the node ${v.nodeName} as control-plane by adding the taints [node-role.kubernetes.io/control-plane:NoSchedule]\n`;
      // apiclient.PatchNode waits for the Node to exist, then gives up with its poll error
      if (!node) return kubeadmError(`error execution phase ${name}: error patching Node "${v.nodeName}": nodes "${v.nodeName}" not found`, out);
      const n = clone(node);
      n.metadata.labels = { ...(n.metadata.labels ?? {}), 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' };
      const taints = n.spec?.taints ?? [];
      if (!taints.some((t) => t.key === 'node-role.kubernetes.io/control-plane' && t.effect === 'NoSchedule')) n.spec = { ...(n.spec ?? {}), taints: [...taints, { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] };
      c.write(n);
      return done(out);
    }
    case 'addon': {
      const e = adminConfError(host, true);
      if (e) return kubeadmError(e);
      const pins = KUBEADM_PINS[kubeadmV] ?? minorPins(minorOf(kubeadmV)) ?? minorPins(35)!;
      const objs = addonObjects({
        ...v,
        clusterName: 'kubernetes',
        clusterDNS: dnsIP(v.serviceSubnet),
        controlPlaneEndpoint: `${v.advertiseAddress}:6443`,
        coreDNSVersion: pins.coredns,
        coreDNSImage: `registry.k8s.io/coredns/coredns:${pins.coredns}`,
        coreDNSReplicas: 2,
        kubeProxyMode: '',
        cni: 'calico',
        cniVersion: '',
        createdAt: c.timestamp(),
      });
      let out = '';
      if (sub === 'all' || sub === 'coredns') {
        const err = applyCoreDns(c, objs, v.patches ? { patches, dir: v.patches, out: lines } : undefined);
        out += lines.splice(0).join('');
        if (err) return kubeadmError(`error execution phase addon/coredns: ${err}`, out);
        out += '[addons] Applied essential addon: CoreDNS\n';
      }
      if (sub === 'all' || sub === 'kube-proxy') {
        for (const o of objs.filter((x) => x.metadata.name === 'kube-proxy' && x.metadata.namespace === 'kube-system')) createOrUpdate(c, o);
        out += '[addons] Applied essential addon: kube-proxy\n';
      }
      return done(out);
    }
    default:
      return kubeadmError(`kubeadm init phase ${phase} is not simulated in this lab`);
  }
}

/**
 * apiclient.CreateOrUpdate* (cmd/kubeadm/app/util/apiclient/idempotency.go): create, or replace
 * the stored object by kubeadm's own through an update (the API server keeps uid, creation time
 * and status, and moves the generation when the spec changed). So the addon phase puts back what
 * a learner broke in kube-proxy's ConfigMap and DaemonSet, or in CoreDNS's Deployment.
 */
function createOrUpdate(c: Cluster, o: KObject): void {
  const api = new ApiServer(c);
  const fresh = { ...clone(o), metadata: { ...clone(o.metadata), creationTimestamp: c.timestamp() } };
  if (c.store.get(o.kind, o.metadata.namespace, o.metadata.name)) api.update(fresh);
  else api.create(fresh);
}

/**
 * The CoreDNS add-on as phases/addons/dns/dns.go createCoreDNSAddon applies it: the Corefile is
 * replaced only when it is kubeadm's default (a modified one is kept, CreateOrRetainConfigMap; the
 * lab does not model Corefile migration between CoreDNS versions); the ServiceAccount, the
 * Deployment (keeping its current replicas, deployedDNSReplicas) and the kube-dns Service
 * (createDNSService: create, else update) are kubeadm's again.
 */
function applyCoreDns(c: Cluster, objs: readonly KObject[], patching?: { patches: KubeadmPatches; dir: string; out: string[] }): string | undefined {
  const mine = (kind: string, name: string): KObject | undefined => objs.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === 'kube-system');
  const cm = mine('ConfigMap', 'coredns') as ConfigMap | undefined;
  const stored = c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns');
  if (cm && (!stored || stored.data?.['Corefile'] === undefined || stored.data['Corefile'] === cm.data?.['Corefile'])) createOrUpdate(c, cm);
  const sa = mine('ServiceAccount', 'coredns');
  if (sa) createOrUpdate(c, sa);
  let dep = mine('Deployment', 'coredns') as Deployment | undefined;
  // dns.go createCoreDNSAddon: the corednsdeployment patches go over kubeadm's Deployment before anything is sent
  if (dep && patching) {
    const r = patchCoreDnsDeployment(patching.patches, patching.dir, dep, patching.out);
    if ('error' in r) return r.error;
    dep = r.deployment;
  }
  const running = c.store.get<Deployment>('Deployment', 'kube-system', 'coredns');
  if (dep) createOrUpdate(c, running?.spec.replicas !== undefined ? { ...dep, spec: { ...dep.spec, replicas: running.spec.replicas } } : dep);
  const svc = mine('Service', 'kube-dns');
  if (svc) createOrUpdate(c, svc);
  return undefined;
}

/** apiclient.CreateOrUpdateConfigMap in kube-system. */
function putConfigMap(c: Cluster, name: string, data: Record<string, string>): void {
  const existing = c.store.get<ConfigMap>('ConfigMap', 'kube-system', name);
  if (existing) {
    const cm = clone(existing);
    cm.data = data;
    c.write(cm);
  } else c.insert({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'kube-system', creationTimestamp: c.timestamp() }, data } as KObject);
}
