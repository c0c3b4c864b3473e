/**
 * `kubeadm init phase certs apiserver [--control-plane-endpoint HOST:PORT]
 * [--apiserver-cert-extra-sans LIST]` (cmd/kubeadm/app/cmd/phases/init/certs.go,
 * phases/certs/certs.go, util/pkiutil GetAPIServerAltNames): the API server's serving certificate
 * for this node, signed by the cluster CA, with the SANs kubeadm computes: the node name and the
 * `kubernetes…` names, the Service IP and the advertise address, the control-plane endpoint's host,
 * then the extra SANs. A certificate already on disk is used as it is when it is signed by the CA
 * and carries every SAN (validateCertificateWithConfig); one that lacks a SAN fails the phase, so
 * adding a SAN means removing apiserver.crt and apiserver.key first, as kubeadm's documentation
 * says. The running API server picks the new certificate up from its files (its serving
 * certificate is reloaded dynamically), which sim/dial.ts reads at each connection.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { BACKDATE_MS, LEAF_VALIDITY_MS, keyFor, serialFrom } from '../../../sim/pki/kubeadm-pki.js';
import { createCertificate, issuedBy, readCertificatePem } from '../../../sim/pki/x509.js';
import { runningFlags, serviceCIDR } from '../../../sim/controlplane.js';
import { intToIp, isIPv4, parseCidr } from '../../../util/ip.js';
import { kubeadmError, flag } from './kubeadm-lib.js';

const PKI = '/etc/kubernetes/pki';


/** GetAPIServerAltNames, in kubeadm's order (names and addresses are appended, never sorted). */
function altNames(c: Cluster, host: Host, args: readonly string[]): { dns: string[]; ips: string[] } {
  const cidr = parseCidr(serviceCIDR(c).split(',')[0] ?? '');
  const domain = /^clusterDomain:\s*(\S+)/m.exec(host.fs.tryRead('/var/lib/kubelet/config.yaml') ?? '')?.[1] ?? 'cluster.local';
  const advertise = runningFlags(c, 'kube-apiserver').get('advertise-address') ?? host.ip;
  const dns = [host.name, 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', `kubernetes.default.svc.${domain}`];
  const ips = [cidr ? intToIp(cidr.base + 1) : '10.96.0.1', advertise];
  const add = (san: string): void => {
    const list = isIPv4(san) ? ips : dns;
    if (!list.includes(san)) list.push(san);
  };
  const endpoint = flag(args, 'control-plane-endpoint');
  if (endpoint) add(endpoint.replace(/:\d+$/, ''));
  for (const san of (flag(args, 'apiserver-cert-extra-sans') ?? '').split(',').filter(Boolean)) add(san.trim());
  return { dns, ips };
}

export function initPhaseCertsApiserver(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  if (ctx.user !== 'root') return kubeadmError('user is not running as root');
  const caPem = host.fs.tryRead(`${PKI}/ca.crt`);
  const caKey = host.fs.tryRead(`${PKI}/ca.key`);
  const ca = caPem ? readCertificatePem(caPem) : undefined;
  if (!ca || !caKey) return kubeadmError(`error execution phase certs/apiserver: couldn't load CA certificate ca: open ${PKI}/ca.crt: no such file or directory`);
  const want = altNames(c, host, args);
  const existing = host.fs.tryRead(`${PKI}/apiserver.crt`);
  if (existing !== undefined && host.fs.exists(`${PKI}/apiserver.key`)) {
    const cert = readCertificatePem(existing);
    if (!cert || !issuedBy(cert, ca)) return kubeadmError(`error execution phase certs/apiserver: failed to write or validate certificate "apiserver": certificate apiserver is not signed by corresponding CA`);
    const missing = [...want.dns.filter((d) => !cert.dnsNames.includes(d)), ...want.ips.filter((i) => !cert.ips.includes(i))][0];
    if (missing !== undefined) {
      const valid = isIPv4(missing) ? cert.ips.join(', ') : cert.dnsNames.join(', ');
      return kubeadmError(`error execution phase certs/apiserver: failed to write or validate certificate "apiserver": certificate apiserver is invalid: x509: certificate is valid for ${valid}, not ${missing}`);
    }
    return { stdout: '[certs] Using existing apiserver certificate and key on disk\n', stderr: '', exitCode: 0 };
  }
  const now = Math.floor(c.now() / 1000) * 1000;
  // the simulator's key pool stands in for the new key pair kubeadm generates (deterministic runs)
  const keyPem = keyFor('apiserver');
  const pem = createCertificate(
    { serial: serialFrom(`init-phase/apiserver/${now}`), subject: [['CN', 'kube-apiserver']], notBefore: now - BACKDATE_MS, notAfter: now + LEAF_VALIDITY_MS, isCA: false, keyUsage: ['digitalSignature', 'keyEncipherment'], extKeyUsage: ['serverAuth'], dnsNames: want.dns, ips: want.ips },
    keyPem,
    { cert: ca, keyPem: caKey },
  );
  host.fs.write(`${PKI}/apiserver.crt`, pem);
  host.fs.write(`${PKI}/apiserver.key`, keyPem);
  return {
    stdout: `[certs] Generating "apiserver" certificate and key\n[certs] apiserver serving cert is signed for DNS names [${want.dns.join(' ')}] and IPs [${want.ips.join(' ')}]\n`,
    stderr: '',
    exitCode: 0,
  };
}
