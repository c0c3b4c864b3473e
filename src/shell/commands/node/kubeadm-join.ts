/**
 * `kubeadm join` on a machine prepared for it and `kubeadm reset`
 * (cmd/kubeadm/app/cmd/join.go, phases/join/{preflight,kubelet}.go, preflight/checks.go,
 * discovery/token/token.go, cmd/reset.go).
 *
 * join runs kubeadm's preflight checks against the node as it is (an existing kubelet.conf or
 * ca.crt, ip_forward not 1, a kubelet already serving on 10250), discovers the cluster with the
 * bootstrap token (the token must exist in kube-system and not be expired, the CA hash must match,
 * the address must be the API server's), then writes the kubelet's kubeconfig, the cluster CA, the
 * kubelet configuration and flags, and restarts the kubelet. The kubelet then registers its Node
 * (controllers/node-status.ts), the DaemonSets start their pods there, the CNI pod installs the
 * network (controllers/cni-install.ts) and the node goes Ready.
 * reset removes what join or init wrote and stops the kubelet; the Node object stays in the API
 * until someone deletes it (`kubectl delete node`), as kubeadm's own hint says.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { KUBELET_CONFIG, MANIFEST_DIR, kubeletRunning } from '../../../sim/controlplane.js';
import { kubeadmError, flag } from './kubeadm-lib.js';
import { caCertHash, liveTokens } from './kubeadm-token.js';
import { kubeletStarted } from './journal.js';
import { activeSwaps } from '../../../sim/node/swap.js';
import { bootstrappedKubeletConf } from '../../../sim/fixture/kubeadm-files.js';

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

export function join(c: Cluster, host: Host, ctx: CommandContext, args: string[]): ShellResult {
  const endpoint = args.find((a, i) => !a.startsWith('-') && !(args[i - 1] ?? '').startsWith('--') && !/^-[a-z]$/.test(args[i - 1] ?? ''));
  const tok = flag(args, 'token') ?? flag(args, 'discovery-token');
  const hashes = args.flatMap((a, i) => (a === '--discovery-token-ca-cert-hash' ? [args[i + 1] ?? ''] : a.startsWith('--discovery-token-ca-cert-hash=') ? [a.split('=')[1]!] : []));
  const unsafe = args.includes('--discovery-token-unsafe-skip-ca-verification');
  const ignore = (flag(args, 'ignore-preflight-errors') ?? '').split(',').filter(Boolean).map((s) => s.toLowerCase());
  if (!tok || !endpoint) return kubeadmError('discovery: Invalid value: "": bootstrapToken or file must be set');
  if (hashes.length === 0 && !unsafe)
    return kubeadmError('discovery.bootstrapToken: Invalid value: "": using token-based discovery without caCertHashes can be unsafe. Set unsafeSkipCAVerification as true in your kubeadm config file or pass --discovery-token-unsafe-skip-ca-verification flag to continue');
  let out = '[preflight] Running pre-flight checks\n';
  const checked = runChecks(preflight(host, ctx.user === 'root'), ignore);
  out += checked.printed;
  if (checked.errors) return kubeadmError(`error execution phase preflight: [preflight] Some fatal errors occurred:\n${checked.errors}${PREFLIGHT_TAIL}`, out);
  const cp = c.host(c.meta.controlPlane);
  const [addr, port] = endpoint.split(':');
  const apiUp = !c.state.apiserver || c.state.apiserver.up;
  if (!cp || addr !== cp.ip || (port ?? '6443') !== '6443' || !apiUp)
    return kubeadmError(`error execution phase preflight: couldn't validate the identity of the API Server: failed to request the cluster-info ConfigMap: Get "https://${endpoint}/api/v1/namespaces/kube-public/configmaps/cluster-info?timeout=10s": dial tcp ${addr}:${port ?? '6443'}: connect: connection refused`, out);
  if (!/^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(tok)) return kubeadmError(`error execution phase preflight: couldn't validate the identity of the API Server: the bootstrap token "${tok}" was not of the form "\\A([a-z0-9]{6})\\.([a-z0-9]{16})\\z"`, out);
  const live = liveTokens(c).find((t) => t.token === tok);
  if (!live) return kubeadmError(`error execution phase preflight: couldn't validate the identity of the API Server: could not find a JWS signature in the cluster-info ConfigMap for token ID "${tok.split('.')[0]}"`, out);
  if (!unsafe && !hashes.includes(caCertHash(c)))
    return kubeadmError(`error execution phase preflight: couldn't validate the identity of the API Server: cluster CA found in cluster-info ConfigMap is invalid: none of the public keys "${caCertHash(c)}" are pinned`, out);
  out += '[preflight] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n';
  out += "[preflight] Use 'kubeadm init phase upload-config kubeadm --config your-config-file' to re-upload it.\n";
  // what the TLS bootstrap leaves on the node
  const server = `https://${cp.ip}:6443`;
  host.fs.write('/etc/kubernetes/pki/ca.crt', cp.fs.tryRead('/etc/kubernetes/pki/ca.crt') ?? '-----BEGIN CERTIFICATE-----\n(simulated)\n-----END CERTIFICATE-----\n');
  host.fs.write('/etc/kubernetes/kubelet.conf', bootstrappedKubeletConf(server, cp.fs.tryRead('/etc/kubernetes/pki/ca.crt')), 0o600);

  // the cluster's kubelet configuration (the kubelet-config ConfigMap kubeadm init uploaded, as the control plane's kubelet uses it)
  out += `[kubelet-start] Writing kubelet configuration to file "${KUBELET_CONFIG}"\n`;
  host.fs.write(KUBELET_CONFIG, cp.fs.tryRead(KUBELET_CONFIG) ?? '');
  out += '[kubelet-start] Writing kubelet environment file with flags to file "/var/lib/kubelet/kubeadm-flags.env"\n';
  host.fs.write('/var/lib/kubelet/kubeadm-flags.env', `KUBELET_KUBEADM_ARGS="--node-ip=${host.ip} --pod-infra-container-image=registry.k8s.io/pause:3.10.1"\n`);
  host.fs.mkdir(MANIFEST_DIR);
  out += '[kubelet-start] Starting the kubelet\n';
  restartKubelet(c, host);
  out += '[kubelet-check] Waiting for a healthy kubelet at http://127.0.0.1:10248/healthz. This can take up to 4m0s\n';
  out += '[kubelet-check] The kubelet is healthy after 1.001824397s\n';
  out += '[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap\n';
  out += "\nThis node has joined the cluster:\n* Certificate signing request was sent to apiserver and a response was received.\n* The Kubelet was informed of the new secure connection details.\n\nRun 'kubectl get nodes' on the control-plane to see this node join the cluster.\n\n";
  return { stdout: out, stderr: '', exitCode: 0, advanceMs: 5_000 };
}

/** systemctl restart kubelet, as kubeadm does it (the unit's start time moves, the config is read again). */
export function restartKubelet(c: Cluster, host: Host): void {
  const u = (host.data.units['kubelet'] ??= { active: false, enabled: true, since: c.now() });
  u.active = true;
  u.since = c.now();
  kubeletStarted(c, host);
  c.touchHosts();
}

export function reset(c: Cluster, host: Host, ctx: CommandContext, args: string[]): ShellResult {
  if (ctx.user !== 'root') return kubeadmError(`error execution phase preflight: [preflight] Some fatal errors occurred:\n\t[ERROR IsPrivilegedUser]: user is not running as root\n${PREFLIGHT_TAIL}`, '[preflight] Running pre-flight checks\n');
  const force = args.includes('-f') || args.includes('--force');
  let out = '';
  if (!force) {
    out += '[reset] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n';
    out += "[reset] Use 'kubeadm init phase upload-config kubeadm --config your-config-file' to re-upload it.\n";
    const answer = ctx.stdin === '' ? 'y' : (ctx.stdin.split('\n')[0] ?? '').trim();
    out += "[reset] WARNING: Changes made to this host by 'kubeadm init' or 'kubeadm join' will be reverted.\n";
    out += `[reset] Are you sure you want to proceed? [y/N]: ${ctx.stdin === '' ? 'y\n' : ''}`;
    if (!/^y$/i.test(answer)) return kubeadmError("error execution phase preflight: won't proceed; the user didn't answer (Y|y) in order to continue", out);
  }
  out += '[preflight] Running pre-flight checks\n';
  out += '[reset] Deleted contents of the etcd data directory: /var/lib/etcd\n'.repeat(host.fs.exists(`${MANIFEST_DIR}/etcd.yaml`) ? 1 : 0);
  out += '[reset] Stopping the kubelet service\n';
  const u = host.data.units['kubelet'];
  if (u && u.active) {
    u.active = false;
    u.since = c.now();
  }
  out += '[reset] Unmounting mounted directories in "/var/lib/kubelet"\n';
  out += '[reset] Deleting contents of directories: [/etc/kubernetes/manifests /var/lib/kubelet /etc/kubernetes/pki]\n';
  for (const dir of [MANIFEST_DIR, '/var/lib/kubelet', '/etc/kubernetes/pki'])
    for (const f of host.fs.list(dir)) host.fs.remove(`${dir}/${f}`);
  const confs = ['admin.conf', 'super-admin.conf', 'kubelet.conf', 'bootstrap-kubelet.conf', 'controller-manager.conf', 'scheduler.conf'].map((f) => `/etc/kubernetes/${f}`);
  out += `[reset] Deleting files: [${confs.join(' ')}]\n`;
  for (const f of confs) if (host.fs.exists(f)) host.fs.remove(f);
  out += '\nThe reset process does not perform cleanup of CNI plugin configuration,\nnetwork filtering rules and kubeconfig files.\n\nFor information on how to perform this cleanup manually, please see:\n    https://k8s.io/docs/reference/setup-tools/kubeadm/kubeadm-reset/\n\n';
  c.touchHosts();
  return { stdout: out, stderr: '', exitCode: 0 };
}
