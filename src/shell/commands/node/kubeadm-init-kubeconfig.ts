/**
 * `kubeadm init phase kubeconfig <name>|all` (cmd/kubeadm/app/cmd/phases/init/kubeconfig.go,
 * phases/kubeconfig/kubeconfig.go createKubeConfigFileIfNotExists): a kubeconfig file under
 * /etc/kubernetes with a client certificate the cluster CA on disk signs, for admin
 * (kubeadm:cluster-admins), super-admin (system:masters), the kubelet (system:nodes,
 * system:node:NAME), the controller manager and the scheduler. An existing file is kept when its
 * CA and server are the ones kubeadm would write (`Using existing kubeconfig file`); one with
 * another CA or server fails the phase (validateKubeConfig), so regenerating means removing it
 * first. The admin and super-admin files talk to the control-plane endpoint, the components to
 * this node's advertise address. `all` starts with the parent phase's `Using kubeconfig folder`.
 * `--dry-run` makes /etc/kubernetes/tmp/kubeadm-init-dryrun<digits> both the kubeconfig folder and
 * the directory the CA is read from (phases/init/kubeconfig.go runKubeConfigFile), so on its own
 * the phase finds no CA there and fails as kubeadm does; nothing under /etc/kubernetes changes.
 */
import { parse as parseYaml } from 'yaml';
import type { CommandContext, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { BACKDATE_MS, LEAF_VALIDITY_MS, keyFor, serialFrom, type LeafSpec } from '../../../sim/pki/kubeadm-pki.js';
import { pooledRsaKey } from '../../../sim/pki/user-key-pool.js';
import { createCertificate, readCertificatePem } from '../../../sim/pki/x509.js';
import { kubeconfig } from '../../../sim/fixture/kubeadm-files.js';
import { dryRunDir, flag, isDryRun, kubeadmError } from './kubeadm-lib.js';
import { pkiParams } from './kubeadm-init-certs.js';

const K8S = '/etc/kubernetes';

interface KubeconfigPhase {
  name: string;
  user: (node: string) => string;
  subject: (node: string) => LeafSpec['template'];
  /** The API server it talks to: the cluster's endpoint, or this node's own address. */
  local: boolean;
}

/** In the order `all` writes them. */
export const KUBECONFIG_PHASES: readonly KubeconfigPhase[] = [
  { name: 'admin', user: () => 'kubernetes-admin', subject: () => () => ({ subject: [['O', 'kubeadm:cluster-admins'], ['CN', 'kubernetes-admin']], extKeyUsage: ['clientAuth'] }), local: false },
  { name: 'super-admin', user: () => 'kubernetes-super-admin', subject: () => () => ({ subject: [['O', 'system:masters'], ['CN', 'kubernetes-super-admin']], extKeyUsage: ['clientAuth'] }), local: false },
  { name: 'kubelet', user: (n) => `system:node:${n}`, subject: (n) => () => ({ subject: [['O', 'system:nodes'], ['CN', `system:node:${n}`]], extKeyUsage: ['clientAuth'] }), local: false },
  { name: 'controller-manager', user: () => 'system:kube-controller-manager', subject: () => () => ({ subject: [['CN', 'system:kube-controller-manager']], extKeyUsage: ['clientAuth'] }), local: true },
  { name: 'scheduler', user: () => 'system:kube-scheduler', subject: () => () => ({ subject: [['CN', 'system:kube-scheduler']], extKeyUsage: ['clientAuth'] }), local: true },
];

type Doc = { clusters?: { cluster?: Record<string, string> }[] };

/** validateKubeConfig: the CA and the server of an existing file against what kubeadm would write. */
function mismatch(text: string, caPem: string, server: string, path: string): string | undefined {
  let cluster: Record<string, string> | undefined;
  try {
    cluster = (parseYaml(text) as Doc).clusters?.[0]?.cluster;
  } catch {
    cluster = undefined;
  }
  if (!cluster) return `failed to load kubeconfig file ${path}: invalid configuration: no configuration has been provided`;
  const data = Buffer.from(cluster['certificate-authority-data'] ?? '', 'base64').toString('utf8');
  // a CA that is no certificate at all is not compared (the fixture's kubelet.conf placeholder)
  if (readCertificatePem(data) && data.trim() !== caPem.trim()) return `a kubeconfig file "${path}" exists already but has got the wrong CA cert`;
  if (cluster['server'] !== server) return `a kubeconfig file "${path}" exists already but has got the wrong API Server URL`;
  return undefined;
}

/** `kubeadm init phase kubeconfig NAME|all [flags]`; `args` start after `kubeconfig`. */
export function initPhaseKubeconfig(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  if (ctx.user !== 'root') return kubeadmError('user is not running as root');
  const unsimulated = args.find((a) => /^--(csr-only|csr-dir|config)(=|$)/.test(a));
  if (unsimulated) return kubeadmError(`kubeadm init phase kubeconfig ${unsimulated.split('=')[0]} is not simulated in this lab; nothing was written`);
  const name = args.find((a, i) => !a.startsWith('-') && !/^--[^=]+$/.test(args[i - 1] ?? ''))!;
  // newInitData with --dry-run: KubeConfigDir and CertificateWriteDir are a new kubeadm-init-dryrun
  // directory, and runKubeConfigFile reads the CA from the latter (CertificatesDir = CertificateWriteDir)
  const dir = isDryRun(args) ? dryRunDir(c, host) : K8S;
  const pki = dir === K8S ? `${K8S}/pki` : dir;
  const caPem = host.fs.tryRead(`${pki}/ca.crt`);
  const caKey = host.fs.tryRead(`${pki}/ca.key`);
  const ca = caPem ? readCertificatePem(caPem) : undefined;
  const now = Math.floor(c.now() / 1000) * 1000;
  const p = pkiParams(c, host, now);
  const endpoint = flag(args, 'control-plane-endpoint');
  const port = flag(args, 'apiserver-bind-port') ?? '6443';
  const phases = name === 'all' ? KUBECONFIG_PHASES : KUBECONFIG_PHASES.filter((k) => k.name === name);
  let out = name === 'all' ? `[kubeconfig] Using kubeconfig folder "${dir}"\n` : '';
  for (const k of phases) {
    if (!ca || !caKey || !caPem) return kubeadmError(`error execution phase kubeconfig/${k.name}: couldn't create a kubeconfig; the CA files couldn't be loaded: failed to load certificate: couldn't load the certificate file ${pki}/ca.crt: open ${pki}/ca.crt: no such file or directory`, out);
    const file = `${k.name}.conf`;
    const path = `${dir}/${file}`;
    const server = k.local || !endpoint ? `https://${p.advertiseIP}:${port}` : `https://${endpoint.includes(':') ? endpoint : `${endpoint}:${port}`}`;
    const existing = host.fs.tryRead(path);
    if (existing !== undefined) {
      const bad = mismatch(existing, caPem, server, path);
      if (bad) return kubeadmError(`error execution phase kubeconfig/${k.name}: ${bad}`, out);
      out += `[kubeconfig] Using existing kubeconfig file: "${path}"\n`;
      continue;
    }
    // the lab's fixed keys (the kubelet's from the seeded pool) stand in for the new client key kubeadm generates
    const keyPem = k.name === 'kubelet' ? pooledRsaKey(2048, c.random)! : keyFor(k.name);
    const certPem = createCertificate(
      { ...k.subject(host.name)(p), serial: serialFrom(`init-phase/kubeconfig/${host.name}/${k.name}/${now}`), notBefore: now - BACKDATE_MS, notAfter: now + LEAF_VALIDITY_MS, isCA: false, keyUsage: ['digitalSignature', 'keyEncipherment'] },
      keyPem,
      { cert: ca, keyPem: caKey },
    );
    host.fs.write(path, kubeconfig(server, k.user(host.name), 'kubernetes', { caPem, certPem, keyPem }), 0o600);
    out += `[kubeconfig] Writing "${file}" kubeconfig file\n`;
  }
  return { stdout: out, stderr: '', exitCode: 0 };
}
