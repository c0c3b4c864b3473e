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
import { kubeadmError } from './kubeadm-lib.js';
import { caCertHash, liveTokens } from './kubeadm-token.js';
import { kubeletStarted } from './journal.js';

const PREFLIGHT_TAIL = '[preflight] If you know what you are doing, you can make a check non-fatal with `--ignore-preflight-errors=...`';

function flag(args: string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = args[i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[i + 1];
}

/** preflight/checks.go names and messages, in the order join runs them. */
function preflight(host: Host, root: boolean): { name: string; msg: string }[] {
  const errs: { name: string; msg: string }[] = [];
  if (!root) return [{ name: 'IsPrivilegedUser', msg: 'user is not running as root' }];
  if (host.fs.exists('/etc/kubernetes/kubelet.conf')) errs.push({ name: 'FileAvailable--etc-kubernetes-kubelet.conf', msg: '/etc/kubernetes/kubelet.conf already exists' });
  if (!host.unitActive('containerd'))
    errs.push({ name: 'CRI', msg: 'could not connect to the container runtime: failed to create new CRI runtime service: validate service connection: validate CRI v1 runtime API for endpoint "unix:///var/run/containerd/containerd.sock": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/containerd/containerd.sock: connect: no such file or directory"' });
  if (host.sysctl('net.ipv4.ip_forward') !== '1') errs.push({ name: 'FileContent--proc-sys-net-ipv4-ip_forward', msg: '/proc/sys/net/ipv4/ip_forward contents are not set to 1' });
  if (kubeletRunning(host)) errs.push({ name: 'Port-10250', msg: 'Port 10250 is in use' });
  if (host.fs.exists('/etc/kubernetes/pki/ca.crt')) errs.push({ name: 'FileAvailable--etc-kubernetes-pki-ca.crt', msg: '/etc/kubernetes/pki/ca.crt already exists' });
  return errs;
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
  const found = preflight(host, ctx.user === 'root');
  const fatal = found.filter((e) => !(ignore.includes('all') || ignore.includes(e.name.toLowerCase())));
  for (const w of found.filter((e) => !fatal.includes(e))) out += `\t[WARNING ${w.name}]: ${w.msg}\n`;
  if (fatal.length) return kubeadmError(`error execution phase preflight: [preflight] Some fatal errors occurred:\n${fatal.map((e) => `\t[ERROR ${e.name}]: ${e.msg}\n`).join('')}${PREFLIGHT_TAIL}`, out);
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
  host.fs.write(
    '/etc/kubernetes/kubelet.conf',
    `apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: REDACTED\n    server: ${server}\n  name: default-cluster\ncontexts:\n- context:\n    cluster: default-cluster\n    namespace: default\n    user: default-auth\n  name: default-context\ncurrent-context: default-context\nkind: Config\npreferences: {}\nusers:\n- name: default-auth\n  user:\n    client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem\n    client-key: /var/lib/kubelet/pki/kubelet-client-current.pem\n`,
  );
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
function restartKubelet(c: Cluster, host: Host): void {
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
