/**
 * `kubeadm join` on a machine prepared for it, and `kubeadm join phase …` (kubeadm v1.35
 * cmd/kubeadm/app/cmd/join.go, cmd/kubeadm/app/cmd/phases/join/{preflight,kubelet,
 * controlplaneprepare,checketcd,controlplanejoin,waitcontrolplane}.go, preflight/checks.go,
 * discovery/token/token.go). The whole join is its phases in order; a phase alone runs after the
 * same flag validation (newJoinData) and, where it needs the cluster's configuration, the same
 * discovery, and does not print the closing "This node has joined the cluster" notice.
 *
 * join runs kubeadm's preflight checks against the node as it is (an existing kubelet.conf or
 * ca.crt, ip_forward not 1, a kubelet already serving on 10250), discovers the cluster with the
 * bootstrap token (the token must exist in kube-system and not be expired, the CA hash must match,
 * the address must be the API server's), then writes the kubelet's kubeconfig, the cluster CA, the
 * kubelet configuration and flags, and restarts the kubelet. The kubelet then registers its Node
 * (controllers/node-status.ts), the DaemonSets start their pods there, the CNI pod installs the
 * network (controllers/cni-install.ts) and the node goes Ready.
 * `--patches DIR` patches the kubelet configuration (target kubeletconfiguration) before the
 * instance configuration is applied (kubeadm-patches.ts). Joining as a control plane
 * (--control-plane), --dry-run, --config and --discovery-file are refused as not simulated.
 * `kubeadm reset` is in kubeadm-reset.ts.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Node } from '../../../sim/api/types.js';
import { KUBELET_CONFIG, MANIFEST_DIR, kubeletRunning } from '../../../sim/controlplane.js';
import { kubeadmError, flag, kubeadmVersion, minorOf, withInstanceConfig } from './kubeadm-lib.js';
import { caCertHash, liveTokens } from './kubeadm-token.js';
import { kubeletStarted } from './journal.js';
import { activeSwaps } from '../../../sim/node/swap.js';
import { bootstrappedKubeletConf, kubeadmFlagsEnv, kubeconfigDocument } from '../../../sim/fixture/kubeadm-files.js';
import { KubeadmPatches, patchKubeletConfig, patchesDir } from './kubeadm-patches.js';

const PREFLIGHT_TAIL = '[preflight] If you know what you are doing, you can make a check non-fatal with `--ignore-preflight-errors=...`';


/** One preflight check's findings: its name and the warnings and errors it found. */
interface Finding {
  name: string;
  warnings: string[];
  errors: string[];
}

/**
 * The checks `kubeadm join` runs on a worker, in upstream's order (preflight/checks.go
 * JoinNodeChecks → addCommonChecks; checks_linux.go addSwapCheck/addIPv4Checks). Checks that look
 * at things the simulation has no model of (binaries in PATH, system verification, proxies) pass.
 * Swap only warns: since v1.28 the kubelet itself decides (failSwapOn), kubeadm merely reminds.
 */
function preflight(host: Host, root: boolean): Finding[] {
  if (!root) return [{ name: 'IsPrivilegedUser', warnings: [], errors: ['user is not running as root'] }];
  const fileAvailable = (path: string): Finding => ({ name: `FileAvailable-${path.replace(/\//g, '-')}`, warnings: [], errors: host.fs.exists(path) ? [`${path} already exists`] : [] });
  const kubelet = host.data.units['kubelet'];
  return [
    fileAvailable('/etc/kubernetes/kubelet.conf'),
    fileAvailable('/etc/kubernetes/bootstrap-kubelet.conf'),
    {
      name: 'CRI',
      warnings: [],
      errors: host.unitActive('containerd')
        ? []
        : ['could not connect to the container runtime: failed to create new CRI runtime service: validate service connection: validate CRI v1 runtime API for endpoint "unix:///var/run/containerd/containerd.sock": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/containerd/containerd.sock: connect: no such file or directory"'],
    },
    {
      name: 'Swap',
      warnings: activeSwaps(host).length
        ? ['swap is supported for cgroup v2 only. The kubelet must be properly configured to use swap. Please refer to https://kubernetes.io/docs/concepts/architecture/nodes/#swap-memory, or disable swap on the node']
        : [],
      errors: [],
    },
    {
      // ServiceCheck{Service: "kubelet", CheckIfActive: false}: warnings only
      name: 'Service-Kubelet',
      warnings: !kubelet ? ['kubelet service does not exist'] : kubelet.enabled === false ? ["kubelet service is not enabled, please run 'systemctl enable kubelet.service'"] : [],
      errors: [],
    },
    { name: 'Port-10250', warnings: [], errors: kubeletRunning(host) ? ['Port 10250 is in use'] : [] },
    fileAvailable('/etc/kubernetes/pki/ca.crt'),
    { name: 'FileContent--proc-sys-net-ipv4-ip_forward', warnings: [], errors: host.sysctl('net.ipv4.ip_forward') !== '1' ? ['/proc/sys/net/ipv4/ip_forward contents are not set to 1'] : [] },
  ];
}

/**
 * RunChecks: an ignored check's errors become warnings; warnings print as each check runs, errors
 * are collected and fail the phase together.
 */
function runChecks(found: Finding[], ignore: string[]): { printed: string; errors: string } {
  let printed = '';
  let errors = '';
  for (const f of found) {
    const ignored = ignore.includes('all') || ignore.includes(f.name.toLowerCase());
    for (const w of ignored ? [...f.warnings, ...f.errors] : f.warnings) printed += `\t[WARNING ${f.name}]: ${w}\n`;
    if (!ignored) for (const e of f.errors) errors += `\t[ERROR ${f.name}]: ${e}\n`;
  }
  return { printed, errors };
}

/** What newJoinData settles from the flags before any phase runs. */
interface JoinData {
  endpoint: string;
  token: string;
  hashes: string[];
  unsafe: boolean;
  ignore: string[];
  nodeName: string;
  /** --patches: the directory of patch files, if given. */
  patches?: string;
}

/** The output so far and whether discovery (JoinData.InitCfg, fetched once and cached) has run. */
interface Run {
  stdout: string;
  discovered: boolean;
  /** The process's patch managers (patches.go pathCache). */
  patches: KubeadmPatches;
}

/** A phase's failure as the workflow runner wraps it and CheckErr prints it. */
const phaseError = (phase: string, msg: string, run: Run): ShellResult => kubeadmError(`error execution phase ${phase}: ${msg}`, run.stdout);

/**
 * newJoinData (cmd/kubeadm/app/cmd/join.go): the discovery settings are validated before any phase
 * runs, for the whole join and for a single phase alike.
 */
function joinData(host: Host, args: readonly string[]): JoinData | ShellResult {
  const endpoint = args.find((a, i) => !a.startsWith('-') && !(args[i - 1] ?? '').startsWith('--') && !/^-[a-z]$/.test(args[i - 1] ?? ''));
  const tok = flag(args, 'token') ?? flag(args, 'discovery-token');
  const hashes = args.flatMap((a, i) => (a === '--discovery-token-ca-cert-hash' ? [args[i + 1] ?? ''] : a.startsWith('--discovery-token-ca-cert-hash=') ? [a.split('=')[1]!] : []));
  const unsafe = args.includes('--discovery-token-unsafe-skip-ca-verification');
  const ignore = (flag(args, 'ignore-preflight-errors') ?? '').split(',').filter(Boolean).map((s) => s.toLowerCase());
  if (!tok || !endpoint) return kubeadmError('discovery: Invalid value: "": bootstrapToken or file must be set');
  if (hashes.length === 0 && !unsafe)
    return kubeadmError('discovery.bootstrapToken: Invalid value: "": using token-based discovery without caCertHashes can be unsafe. Set unsafeSkipCAVerification as true in your kubeadm config file or pass --discovery-token-unsafe-skip-ca-verification flag to continue');
  for (const f of ['control-plane', 'dry-run', 'config', 'discovery-file'])
    if (args.some((a) => a === `--${f}` || a.startsWith(`--${f}=`))) return kubeadmError(`kubeadm join --${f} is not simulated in this lab; nothing was done`);
  const patches = patchesDir(args);
  return { endpoint, token: tok, hashes, unsafe, ignore, nodeName: flag(args, 'node-name') ?? host.name, ...(patches ? { patches } : {}) };
}

/**
 * JoinData.InitCfg: token discovery of the cluster (discovery/token/token.go: the cluster-info
 * ConfigMap, its JWS signature for the token ID, the pinned CA key) and the kubeadm-config it then
 * reads (configutil.FetchInitConfigurationFromCluster with the `preflight` prefix). An error, or
 * undefined once the configuration is read.
 */
function discover(c: Cluster, d: JoinData, run: Run): string | undefined {
  if (run.discovered) return undefined;
  const cp = c.host(c.meta.controlPlane);
  const [addr, port] = d.endpoint.split(':');
  const apiUp = !c.state.apiserver || c.state.apiserver.up;
  if (!cp || addr !== cp.ip || (port ?? '6443') !== '6443' || !apiUp)
    return `couldn't validate the identity of the API Server: failed to request the cluster-info ConfigMap: Get "https://${d.endpoint}/api/v1/namespaces/kube-public/configmaps/cluster-info?timeout=10s": dial tcp ${addr}:${port ?? '6443'}: connect: connection refused`;
  if (!/^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(d.token)) return `couldn't validate the identity of the API Server: the bootstrap token "${d.token}" was not of the form "\\A([a-z0-9]{6})\\.([a-z0-9]{16})\\z"`;
  if (!liveTokens(c).some((t) => t.token === d.token)) return `couldn't validate the identity of the API Server: could not find a JWS signature in the cluster-info ConfigMap for token ID "${d.token.split('.')[0]}"`;
  if (!d.unsafe && !d.hashes.includes(caCertHash(c)))
    return `couldn't validate the identity of the API Server: cluster CA found in cluster-info ConfigMap is invalid: none of the public keys "${caCertHash(c)}" are pinned`;
  run.stdout += '[preflight] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n';
  run.stdout += "[preflight] Use 'kubeadm init phase upload-config kubeadm --config your-config-file' to re-upload it.\n";
  run.discovered = true;
  return undefined;
}

/** phases/join/preflight.go runPreflight: RunJoinNodeChecks, then the cluster's configuration (a worker needs no more). */
function phasePreflight(c: Cluster, host: Host, ctx: CommandContext, d: JoinData, run: Run): ShellResult | undefined {
  run.stdout += '[preflight] Running pre-flight checks\n';
  const checked = runChecks(preflight(host, ctx.user === 'root'), d.ignore);
  run.stdout += checked.printed;
  if (checked.errors) return phaseError('preflight', `[preflight] Some fatal errors occurred:\n${checked.errors}${PREFLIGHT_TAIL}`, run);
  const e = discover(c, d, run);
  return e ? phaseError('preflight', e, run) : undefined;
}

/**
 * The kubeconfig discovery hands the kubelet for its TLS bootstrap (kubeconfigutil.CreateWithToken
 * with the default cluster name and the `tls-bootstrap-token-user` user), written by kubelet-start
 * as /etc/kubernetes/bootstrap-kubelet.conf.
 */
function bootstrapKubeconfig(server: string, caPem: string | undefined, token: string): string {
  return kubeconfigDocument({
    server,
    caData: Buffer.from(caPem ?? '').toString('base64'),
    cluster: 'kubernetes',
    context: 'tls-bootstrap-token-user@kubernetes',
    user: 'tls-bootstrap-token-user',
    auth: [['token', token]],
  });
}

/**
 * phases/join/kubelet.go runKubeletStartJoinPhase: the bootstrap kubeconfig and the CA, the refusal
 * when a Ready Node of this name exists, the kubelet's config.yaml (the cluster's kubelet-config)
 * and flags, and the kubelet (re)started. The kubelet's own TLS bootstrap, which the lab does not
 * model step by step, leaves /etc/kubernetes/kubelet.conf at once.
 */
/** The CRI socket kubeadm finds on a containerd node (constants_unix.go DefaultCRISocket). */
const CRI_SOCKET = 'unix:///var/run/containerd/containerd.sock';

function phaseKubeletStart(c: Cluster, host: Host, d: JoinData, run: Run): ShellResult | undefined {
  const e = discover(c, d, run);
  if (e) return phaseError('kubelet-start', e, run);
  const cp = c.host(c.meta.controlPlane)!;
  const server = `https://${cp.ip}:6443`;
  const ca = cp.fs.tryRead('/etc/kubernetes/pki/ca.crt');
  host.fs.write('/etc/kubernetes/bootstrap-kubelet.conf', bootstrapKubeconfig(server, ca, d.token), 0o600);
  if (!host.fs.exists('/etc/kubernetes/pki/ca.crt')) host.fs.write('/etc/kubernetes/pki/ca.crt', ca ?? '');
  const node = c.store.get<Node>('Node', '', d.nodeName);
  if (node?.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'))
    return phaseError('kubelet-start', `a Node with name "${d.nodeName}" and status "Ready" already exists in the cluster. You must delete the existing Node or change the name of this new joining Node`, run);
  // NodeLocalCRISocket (beta, on by default in kubeadm v1.34 and v1.35): the node's CRI socket goes to
  // the instance configuration, which is applied to config.yaml as a strategic merge patch
  // (phases/kubelet/config.go WriteInstanceConfigToDisk, WriteConfigToDisk); the lines and their
  // order are those of a real v1.35.3 `kubeadm join`
  const instance = `containerRuntimeEndpoint: ${JSON.stringify(CRI_SOCKET)}\n`;
  run.stdout += '[kubelet-start] Writing kubelet configuration to file "/var/lib/kubelet/instance-config.yaml"\n';
  host.fs.write('/var/lib/kubelet/instance-config.yaml', instance, 0o644);
  // WriteConfigToDisk: the user's kubeletconfiguration patches (--patches), then the instance configuration
  const lines: string[] = [];
  const config = patchKubeletConfig(run.patches, d.patches, cp.fs.tryRead(KUBELET_CONFIG) ?? '', instance, lines, withInstanceConfig);
  run.stdout += lines.join('');
  if ('error' in config) return phaseError('kubelet-start', config.error, run);
  run.stdout += `[kubelet-start] Writing kubelet configuration to file "${KUBELET_CONFIG}"\n`;
  host.fs.write(KUBELET_CONFIG, config.text, 0o644);
  run.stdout += '[kubelet-start] Writing kubelet environment file with flags to file "/var/lib/kubelet/kubeadm-flags.env"\n';
  // v1.35 without --pod-infra-container-image (kubeadmFlagsEnv); the pause image of kubeadm v1.34
  host.fs.write('/var/lib/kubelet/kubeadm-flags.env', kubeadmFlagsEnv(host.ip, minorOf(kubeadmVersion(c, host) ?? c.meta.kubernetesVersion), '3.10.1'));
  host.fs.mkdir(MANIFEST_DIR);
  run.stdout += '[kubelet-start] Starting the kubelet\n';
  host.fs.write('/etc/kubernetes/kubelet.conf', bootstrappedKubeletConf(server, ca), 0o600);
  restartKubelet(c, host);
  return undefined;
}

/**
 * phases/join/kubelet.go runKubeletWaitBootstrapPhase (its own phase since ControlPlaneKubeletLocalMode
 * went GA): the kubelet's health endpoint, then its kubelet.conf; the bootstrap kubeconfig is removed.
 * A kubelet that is not running or never got its kubeconfig fails with kubeadmJoinFailMsg.
 */
function phaseKubeletWaitBootstrap(c: Cluster, host: Host, d: JoinData, run: Run): ShellResult | undefined {
  const e = discover(c, d, run);
  if (e) return phaseError('kubelet-wait-bootstrap', e, run);
  run.stdout += '[kubelet-check] Waiting for a healthy kubelet at http://127.0.0.1:10248/healthz. This can take up to 4m0s\n';
  if (!kubeletRunning(host)) {
    // apiclient KubeWaiter.WaitForKubelet: the last poll's error (formatError ends it with a newline), cut by the 4m deadline
    const err = 'The HTTP call equal to \'curl -sSL http://127.0.0.1:10248/healthz\' returned error: Get "http://127.0.0.1:10248/healthz": context deadline exceeded\n';
    run.stdout += `[kubelet-check] The kubelet is not healthy after 4m0.000120328s\n${joinFailMsg(err)}`;
    return { ...phaseError('kubelet-wait-bootstrap', err, run), advanceMs: 240_000 };
  }
  run.stdout += '[kubelet-check] The kubelet is healthy after 1.001824397s\n';
  run.stdout += '[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap\n';
  host.fs.remove('/etc/kubernetes/bootstrap-kubelet.conf');
  return undefined;
}

/** kubelet.go kubeadmJoinFailMsg (dedented, with its leading newline). */
function joinFailMsg(err: string): string {
  return `\nUnfortunately, an error has occurred:\n\t${err}\n\nThis error is likely caused by:\n\t- The kubelet is not running\n\t- The kubelet is unhealthy due to a misconfiguration of the node in some way (required cgroups disabled)\n\nIf you are on a systemd-powered system, you can try to troubleshoot the error with the following commands:\n\t- 'systemctl status kubelet'\n\t- 'journalctl -xeu kubelet'\n`;
}

/**
 * The join workflow's phases in order (cmd/kubeadm/app/cmd/join.go NewCmdJoin). control-plane-prepare,
 * etcd-join, control-plane-join and wait-control-plane return at once unless the node joins as a
 * control plane (`if data.Cfg().ControlPlane == nil { return nil }`), which this lab refuses in joinData.
 */
const JOIN_PHASES = ['preflight', 'control-plane-prepare', 'kubelet-start', 'etcd-join', 'kubelet-wait-bootstrap', 'control-plane-join', 'wait-control-plane'] as const;

function runJoinPhase(c: Cluster, host: Host, ctx: CommandContext, phase: string, d: JoinData, run: Run): ShellResult | undefined {
  if (phase === 'preflight') return phasePreflight(c, host, ctx, d, run);
  if (phase === 'kubelet-start') return phaseKubeletStart(c, host, d, run);
  if (phase === 'kubelet-wait-bootstrap') return phaseKubeletWaitBootstrap(c, host, d, run);
  return undefined;
}

/** `kubeadm join [endpoint] [flags]` or `kubeadm join phase <name> [sub] [endpoint] [flags]` (cobra checked the names). */
export function join(c: Cluster, host: Host, ctx: CommandContext, args: string[]): ShellResult {
  const isPhase = args[0] === 'phase';
  const phase = isPhase ? args[1]! : '';
  // a phase with sub-phases (control-plane-prepare all|certs|…) takes the sub-phase's name first
  const rest = isPhase ? args.slice(['control-plane-prepare', 'control-plane-join'].includes(phase) ? 3 : 2) : args;
  const d = joinData(host, rest);
  if ('exitCode' in d) return d;
  const run: Run = { stdout: '', discovered: false, patches: new KubeadmPatches(host, ctx.cwd) };
  const skip = (flag(rest, 'skip-phases') ?? '').split(',').filter(Boolean);
  for (const p of isPhase ? [phase] : JOIN_PHASES.filter((x) => !skip.includes(x))) {
    const failed = runJoinPhase(c, host, ctx, p, d, run);
    if (failed) return failed;
  }
  if (isPhase) return { stdout: run.stdout, stderr: '', exitCode: 0, advanceMs: 5_000 };
  run.stdout += "\nThis node has joined the cluster:\n* Certificate signing request was sent to apiserver and a response was received.\n* The Kubelet was informed of the new secure connection details.\n\nRun 'kubectl get nodes' on the control-plane to see this node join the cluster.\n\n";
  return { stdout: run.stdout, stderr: '', exitCode: 0, advanceMs: 5_000 };
}

/** systemctl restart kubelet, as kubeadm does it (the unit's start time moves, the config is read again). */
export function restartKubelet(c: Cluster, host: Host): void {
  const u = (host.data.units['kubelet'] ??= { active: false, enabled: true, since: c.now() });
  u.active = true;
  u.since = c.now();
  kubeletStarted(c, host);
  c.touchHosts();
}
