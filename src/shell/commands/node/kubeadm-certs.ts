/**
 * `kubeadm certs check-expiration` and `kubeadm certs renew all|NAME`
 * (cmd/kubeadm/app/cmd/certs.go): the two tables read from the files in /etc/kubernetes/pki and
 * the client certificates embedded in the kubeconfig files, and renewal (kubeadm-renewal.ts). The
 * running components keep the certificates they loaded until they restart, as kubeadm's closing
 * message says.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { readCertificatePem } from '../../../sim/pki/x509.js';
import { kubeadmError, tabwrite } from './kubeadm-lib.js';
import { CA_FILES, ENTRIES, PKI, encryptionAlgorithm, readEntry, renewEntry, unreadable } from './kubeadm-renewal.js';
import { isRoot } from './host.js';
import { newCertificateKey } from './kubeadm-init.js';

/**
 * Go's `Jan 02, 2006 15:04 MST` in UTC. The month is Go's own three-letter name (time.Month's
 * String()[:3]) from a table: toLocaleString's en-US short month gave the same names, but built an
 * ICU date formatter for every row (~0.1 ms each, ~20 ms for a thread's first).
 */
export function expires(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${p(d.getUTCDate())}, ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** apimachinery duration.ShortHumanDuration. */
function shortHumanDuration(ms: number): string {
  const s = Math.trunc(ms / 1000);
  if (s < -1) return '<invalid>';
  if (s < 0) return '0s';
  if (s < 60) return `${s}s`;
  const m = Math.trunc(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.trunc(m / 60);
  if (h < 24) return `${h}h`;
  if (h < 24 * 365) return `${Math.trunc(h / 24)}d`;
  return `${Math.trunc(h / 24 / 365)}y`;
}

const CONFIG = (phase: string): string =>
  `[${phase}] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...\n[${phase}] Use 'kubeadm init phase upload-config kubeadm --config your-config-file' to re-upload it.\n\n`;

function checkExpiration(c: Cluster, host: Host): CommandResult {
  const now = c.now();
  const certRows = [['CERTIFICATE', 'EXPIRES', 'RESIDUAL TIME', 'CERTIFICATE AUTHORITY', 'EXTERNALLY MANAGED']];
  for (const e of ENTRIES) {
    const cert = readEntry(host, e);
    certRows.push(cert ? [e.name, expires(cert.notAfter), shortHumanDuration(cert.notAfter - now), e.ca, 'no      '] : [`!MISSING! ${e.name}`, '', '', '', '']);
  }
  const caRows = [['CERTIFICATE AUTHORITY', 'EXPIRES', 'RESIDUAL TIME', 'EXTERNALLY MANAGED']];
  for (const ca of ['ca', 'etcd-ca', 'front-proxy-ca'] as const) {
    const text = host.fs.tryRead(`${PKI}/${CA_FILES[ca]}.crt`);
    const cert = text ? readCertificatePem(text) : undefined;
    caRows.push(cert ? [ca, expires(cert.notAfter), shortHumanDuration(cert.notAfter - now), 'no      '] : [`!MISSING! ${ca}`, '', '', '']);
  }
  return { stdout: `${CONFIG('check-expiration')}${tabwrite(certRows)}\n${tabwrite(caRows)}`, stderr: '', exitCode: 0 };
}

function renew(c: Cluster, host: Host, args: string[]): CommandResult {
  const what = args[0];
  const targets = what === 'all' ? ENTRIES : ENTRIES.filter((e) => e.name === what);
  if (targets.length === 0) return kubeadmError(`unknown command "${what ?? ''}" for "kubeadm certs renew"`);
  let out = CONFIG('renew');
  const algorithm = encryptionAlgorithm(c);
  for (const e of targets) {
    const bad = unreadable(host, e);
    if (bad === 'missing') {
      out += `MISSING! ${e.long}\n`;
      continue;
    }
    // RenewUsingLocalCA's error reaches CheckErr as it is (certs renew is no workflow phase); nothing of it was written
    if (bad) return kubeadmError(bad.error, out);
    const err = renewEntry(c, host, e, algorithm);
    if (err) return kubeadmError(`error execution phase: ${err}`, out);
    out += `${e.long} renewed\n`;
  }
  if (what === 'all') out += '\nDone renewing certificates. You must restart the kube-apiserver, kube-controller-manager, kube-scheduler and etcd, so that they can use the new certificates.\n';
  return { stdout: out, stderr: '', exitCode: 0 };
}

export function certs(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  const [verb, ...rest] = args;
  // `certs certificate-key` only prints a new key for a later `init phase upload-certs
  // --certificate-key`; it reads no file (cmd/kubeadm/app/cmd/certs.go, newCmdCertificateKey).
  if (verb === 'certificate-key') return { stdout: `${newCertificateKey(c)}\n`, stderr: '', exitCode: 0 };
  if (!isRoot(ctx)) return kubeadmError('error execution phase: open /etc/kubernetes/pki/ca.crt: permission denied');
  if (verb === 'check-expiration') return checkExpiration(c, host);
  if (verb === 'renew') return renew(c, host, rest);
  return kubeadmError(`unknown command "${verb ?? ''}" for "kubeadm certs"`);
}
