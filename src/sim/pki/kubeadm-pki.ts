/**
 * The certificates `kubeadm init` writes to /etc/kubernetes/pki (cmd/kubeadm/app/phases/certs/
 * certlist.go; subjects, SANs and usages as kubeadm v1.35 makes them): three CAs valid 10 years,
 * leaf certificates valid one year, RSA 2048 keys. Keys are the lab's fixed keys (keys.ts);
 * serial numbers derive from the cluster's control plane and issue time, so the same fixture
 * gives the same bytes.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { PKI_KEYS } from './keys.js';
import { createCertificate, readCertificatePem, type CertTemplate, type ParsedCert } from './x509.js';
import { intToIp, parseCidr } from '../../util/ip.js';

const DAY = 86_400_000;
/** kubeadm constants.CertificateValidityPeriod and CACertificateValidityPeriod. */
export const LEAF_VALIDITY_MS = 365 * DAY;
export const CA_VALIDITY_MS = 10 * 365 * DAY;
/** kubeadm backdates NotBefore (constants.CertificateBackdate) against clock skew. */
export const BACKDATE_MS = 5 * 60_000;

export interface PkiParams {
  nodeName: string;
  advertiseIP: string;
  serviceSubnet: string;
  dnsDomain: string;
  /** When kubeadm init ran (simulated ms). */
  issuedAt: number;
}

export interface LeafSpec {
  /** Path below /etc/kubernetes/pki without extension (`apiserver`, `etcd/server`). */
  file: string;
  ca: 'ca' | 'front-proxy-ca' | 'etcd/ca';
  template: (p: PkiParams) => Omit<CertTemplate, 'serial' | 'notBefore' | 'notAfter' | 'isCA' | 'keyUsage'>;
}

/** The CAs, in kubeadm's order. */
export const CAS: readonly { file: 'ca' | 'front-proxy-ca' | 'etcd/ca'; cn: string }[] = [
  { file: 'ca', cn: 'kubernetes' },
  { file: 'front-proxy-ca', cn: 'front-proxy-ca' },
  { file: 'etcd/ca', cn: 'etcd-ca' },
];

function serviceIP(cidr: string): string {
  const c = parseCidr(cidr);
  return c ? intToIp(c.base + 1) : '10.96.0.1';
}

/** The leaf certificates kubeadm signs, with their CA (certlist.go GetDefaultCertList). */
export const LEAVES: readonly LeafSpec[] = [
  {
    file: 'apiserver',
    ca: 'ca',
    template: (p) => ({
      subject: [['CN', 'kube-apiserver']],
      extKeyUsage: ['serverAuth'],
      dnsNames: [p.nodeName, 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', `kubernetes.default.svc.${p.dnsDomain}`],
      ips: [serviceIP(p.serviceSubnet), p.advertiseIP],
    }),
  },
  { file: 'apiserver-kubelet-client', ca: 'ca', template: () => ({ subject: [['O', 'kubeadm:cluster-admins'], ['CN', 'kube-apiserver-kubelet-client']], extKeyUsage: ['clientAuth'] }) },
  { file: 'front-proxy-client', ca: 'front-proxy-ca', template: () => ({ subject: [['CN', 'front-proxy-client']], extKeyUsage: ['clientAuth'] }) },
  {
    file: 'etcd/server',
    ca: 'etcd/ca',
    template: (p) => ({ subject: [['CN', p.nodeName]], extKeyUsage: ['serverAuth', 'clientAuth'], dnsNames: [p.nodeName, 'localhost'], ips: [p.advertiseIP, '127.0.0.1', '::1'] }),
  },
  {
    file: 'etcd/peer',
    ca: 'etcd/ca',
    template: (p) => ({ subject: [['CN', p.nodeName]], extKeyUsage: ['serverAuth', 'clientAuth'], dnsNames: [p.nodeName, 'localhost'], ips: [p.advertiseIP, '127.0.0.1', '::1'] }),
  },
  { file: 'etcd/healthcheck-client', ca: 'etcd/ca', template: () => ({ subject: [['CN', 'kube-etcd-healthcheck-client']], extKeyUsage: ['clientAuth'] }) },
  { file: 'apiserver-etcd-client', ca: 'etcd/ca', template: () => ({ subject: [['CN', 'kube-apiserver-etcd-client']], extKeyUsage: ['clientAuth'] }) },
];

/** A positive 63-bit serial from a seed string (Go: rand.Int(rand.Reader, MaxInt64)). */
export function serialFrom(seed: string): bigint {
  const h = createHash('sha256').update(seed).digest();
  return (h.readBigUInt64BE(0) & 0x7fffffffffffffffn) || 1n;
}

export function keyFor(file: string): string {
  const k = PKI_KEYS()[file];
  if (!k) throw new Error(`no key for ${file}`);
  return k;
}

/** A CA certificate (self-signed). */
export function caCert(file: 'ca' | 'front-proxy-ca' | 'etcd/ca', cn: string, issuedAt: number, seed: string, keyPem = keyFor(file)): string {
  return createCertificate(
    {
      serial: serialFrom(`${seed}/${file}/${issuedAt}`),
      subject: [['CN', cn]],
      notBefore: issuedAt - BACKDATE_MS,
      notAfter: issuedAt + CA_VALIDITY_MS,
      isCA: true,
      keyUsage: ['digitalSignature', 'keyEncipherment', 'keyCertSign'],
      extKeyUsage: [],
      dnsNames: [cn],
    },
    keyPem,
  );
}

/** A leaf certificate signed by its CA (ca PEM and key given), valid a year from `issuedAt`. */
export function leafCert(spec: LeafSpec, p: PkiParams, ca: { cert: ParsedCert; keyPem: string }, issuedAt: number, seed: string, keyPem = keyFor(spec.file)): string {
  return createCertificate(
    {
      ...spec.template(p),
      serial: serialFrom(`${seed}/${spec.file}/${issuedAt}`),
      notBefore: issuedAt - BACKDATE_MS,
      notAfter: issuedAt + LEAF_VALIDITY_MS,
      isCA: false,
      keyUsage: ['digitalSignature', 'keyEncipherment'],
    },
    keyPem,
    ca,
  );
}

const cache = new Map<string, Record<string, string>>();

/** Every file of /etc/kubernetes/pki on a control-plane node, by path below it. */
export function kubeadmPki(p: PkiParams): Record<string, string> {
  const key = JSON.stringify(p);
  const hit = cache.get(key);
  if (hit) return hit;
  const seed = `${p.advertiseIP}`;
  const out: Record<string, string> = {};
  const cas: Record<string, { cert: ParsedCert; keyPem: string }> = {};
  for (const ca of CAS) {
    const pem = caCert(ca.file, ca.cn, p.issuedAt, seed);
    out[`${ca.file}.crt`] = pem;
    out[`${ca.file}.key`] = keyFor(ca.file);
    cas[ca.file] = { cert: readCertificatePem(pem)!, keyPem: keyFor(ca.file) };
  }
  for (const leaf of LEAVES) {
    out[`${leaf.file}.crt`] = leafCert(leaf, p, cas[leaf.ca]!, p.issuedAt, seed);
    out[`${leaf.file}.key`] = keyFor(leaf.file);
  }
  out['sa.key'] = keyFor('sa');
  out['sa.pub'] = createPublicKey(keyFor('sa')).export({ type: 'spki', format: 'pem' }) as string;
  cache.set(key, out);
  return out;
}

/** The client certificates kubeadm embeds in the kubeconfig files it writes (phases/kubeconfig/kubeconfig.go). */
export const KUBECONFIG_CERTS: readonly { file: 'admin' | 'super-admin' | 'controller-manager' | 'scheduler'; subject: LeafSpec['template'] }[] = [
  { file: 'admin', subject: () => ({ subject: [['O', 'kubeadm:cluster-admins'], ['CN', 'kubernetes-admin']], extKeyUsage: ['clientAuth'] }) },
  { file: 'super-admin', subject: () => ({ subject: [['O', 'system:masters'], ['CN', 'kubernetes-super-admin']], extKeyUsage: ['clientAuth'] }) },
  { file: 'controller-manager', subject: () => ({ subject: [['CN', 'system:kube-controller-manager']], extKeyUsage: ['clientAuth'] }) },
  { file: 'scheduler', subject: () => ({ subject: [['CN', 'system:kube-scheduler']], extKeyUsage: ['clientAuth'] }) },
];

const kcCache = new Map<string, { certPem: string; keyPem: string }>();

/** The client certificate and key of one kubeadm kubeconfig (`admin` → admin.conf), signed by the cluster CA. */
export function kubeconfigCredentials(p: PkiParams, file: (typeof KUBECONFIG_CERTS)[number]['file'], issuedAt = p.issuedAt): { certPem: string; keyPem: string } {
  const key = `${JSON.stringify(p)}/${file}/${issuedAt}`;
  const hit = kcCache.get(key);
  if (hit) return hit;
  const spec = KUBECONFIG_CERTS.find((k) => k.file === file)!;
  const caPem = clusterCaPem(p);
  const ca = { cert: readCertificatePem(caPem)!, keyPem: keyFor('ca') };
  const out = { certPem: leafCert({ file, ca: 'ca', template: spec.subject }, p, ca, issuedAt, p.advertiseIP), keyPem: keyFor(file) };
  kcCache.set(key, out);
  return out;
}

/** The cluster CA alone (what a worker's /etc/kubernetes/pki/ca.crt holds). */
export function clusterCaPem(p: PkiParams): string {
  return caCert('ca', 'kubernetes', p.issuedAt, p.advertiseIP);
}
