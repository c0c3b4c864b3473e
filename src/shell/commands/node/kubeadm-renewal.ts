/**
 * Certificate renewal as kubeadm does it (cmd/kubeadm/app/phases/certs/renewal): the certificates
 * kubeadm manages (certlist.go order), read from /etc/kubernetes/pki or the kubeconfig files that
 * embed them, and Manager.RenewUsingLocalCA, which `kubeadm certs renew` and `kubeadm upgrade`
 * share: the same subject, SANs and usages, a new one-year NotAfter, and a new private key of the
 * ClusterConfiguration's encryptionAlgorithm (FileRenewer.Renew is pkiutil.NewCertAndKey; the
 * handler writes both).
 */
import { createPrivateKey } from 'node:crypto';
import { stringify } from 'yaml';
import { remember } from '../../../util/bounded-map.js';
import { parseYamlMemo, parseYamlShared } from '../../../util/yaml-memo.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { BACKDATE_MS, LEAF_VALIDITY_MS, serialFrom } from '../../../sim/pki/kubeadm-pki.js';
import { EKU, createCertificate, readCertificatePem, type ParsedCert } from '../../../sim/pki/x509.js';
import { pooledRsaKey } from '../../../sim/pki/user-key-pool.js';
import { generateP256Key, generateP384Key } from '../../../sim/pki/ec.js';
import { clusterConfiguration } from './kubeadm-lib.js';

export const PKI = '/etc/kubernetes/pki';
export const K8S = '/etc/kubernetes';

export interface Entry {
  name: string;
  /** A PEM file below /etc/kubernetes/pki, or a kubeconfig below /etc/kubernetes. */
  file: string;
  kubeconfig?: boolean;
  ca: 'ca' | 'etcd-ca' | 'front-proxy-ca';
  /** What `renew` says it renewed (the subcommand's short help, certlist.go). */
  long: string;
}

export const CA_FILES: Record<Entry['ca'], string> = { ca: 'ca', 'etcd-ca': 'etcd/ca', 'front-proxy-ca': 'front-proxy-ca' };

/** In the order kubeadm prints and renews them. */
export const ENTRIES: readonly Entry[] = [
  { name: 'admin.conf', file: 'admin.conf', kubeconfig: true, ca: 'ca', long: 'certificate embedded in the kubeconfig file for the admin to use and for kubeadm itself' },
  { name: 'apiserver', file: 'apiserver', ca: 'ca', long: 'certificate for serving the Kubernetes API' },
  { name: 'apiserver-etcd-client', file: 'apiserver-etcd-client', ca: 'etcd-ca', long: 'certificate the apiserver uses to access etcd' },
  { name: 'apiserver-kubelet-client', file: 'apiserver-kubelet-client', ca: 'ca', long: 'certificate for the API server to connect to kubelet' },
  { name: 'controller-manager.conf', file: 'controller-manager.conf', kubeconfig: true, ca: 'ca', long: 'certificate embedded in the kubeconfig file for the controller manager to use' },
  { name: 'etcd-healthcheck-client', file: 'etcd/healthcheck-client', ca: 'etcd-ca', long: 'certificate for liveness probes to healthcheck etcd' },
  { name: 'etcd-peer', file: 'etcd/peer', ca: 'etcd-ca', long: 'certificate for etcd nodes to communicate with each other' },
  { name: 'etcd-server', file: 'etcd/server', ca: 'etcd-ca', long: 'certificate for serving etcd' },
  { name: 'front-proxy-client', file: 'front-proxy-client', ca: 'front-proxy-ca', long: 'certificate for the front proxy client' },
  { name: 'scheduler.conf', file: 'scheduler.conf', kubeconfig: true, ca: 'ca', long: 'certificate embedded in the kubeconfig file for the scheduler manager to use' },
  { name: 'super-admin.conf', file: 'super-admin.conf', kubeconfig: true, ca: 'ca', long: 'certificate embedded in the kubeconfig file for the super-admin' },
];

type KubeconfigDoc = { users?: { user?: Record<string, string> }[] };

/**
 * Why a certificate file below /etc/kubernetes/pki cannot be renewed before anything is written:
 * `missing` when it does not exist (Manager.CertificateExists is false, so `certs renew` prints
 * `MISSING!` and goes on: cmd/kubeadm/app/cmd/certs.go renewCert), or the error
 * pkiCertificateReadWriter.Read returns for a file that holds no PEM certificate
 * (cmd/kubeadm/app/phases/certs/renewal/readwriters.go, wrapping client-go util/cert
 * CertsFromFile's `error reading FILE: data does not contain any valid RSA or ECDSA certificates`).
 * Undefined when the file reads (a well-formed PEM block with a broken certificate inside, whose
 * Go x509 parse error the lab does not reproduce, is left to the caller's own check).
 */
export function unreadable(host: Host, e: Entry): 'missing' | { error: string } | undefined {
  if (e.kubeconfig) return host.fs.exists(`${K8S}/${e.file}`) ? undefined : 'missing';
  const path = `${PKI}/${e.file}.crt`;
  const text = host.fs.tryRead(path);
  if (text === undefined) return 'missing';
  if (readCertificatePem(text)) return undefined;
  if (/-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----/.test(text)) return undefined;
  return { error: `failed to load existing certificate ${e.file}: error reading ${path}: data does not contain any valid RSA or ECDSA certificates` };
}

export function readEntry(host: Host, e: Entry): ParsedCert | undefined {
  if (!e.kubeconfig) {
    const text = host.fs.tryRead(`${PKI}/${e.file}.crt`);
    return text ? readCertificatePem(text) : undefined;
  }
  const text = host.fs.tryRead(`${K8S}/${e.file}`);
  if (!text) return undefined;
  try {
    // read, never changed: the memoised parse itself
    const data = (parseYamlShared(text) as KubeconfigDoc | null)?.users?.[0]?.user?.['client-certificate-data'];
    return data ? readCertificatePem(Buffer.from(data, 'base64').toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

/** The certificate re-signed by its CA with the same attributes, valid a year from now. */
function renewed(c: Cluster, cert: ParsedCert, keyPem: string, ca: { cert: ParsedCert; keyPem: string }, file: string): string {
  const now = Math.floor(c.now() / 1000) * 1000;
  const eku = (Object.keys(EKU) as (keyof typeof EKU)[]).filter((k) => cert.extKeyUsage.includes(EKU[k]));
  return createCertificate(
    { serial: serialFrom(`renew/${file}/${now}`), subject: cert.subject, notBefore: now - BACKDATE_MS, notAfter: now + LEAF_VALIDITY_MS, isCA: false, keyUsage: cert.keyUsage, extKeyUsage: eku, dnsNames: cert.dnsNames, ips: cert.ips },
    keyPem,
    ca,
  );
}

/**
 * The key a renewed certificate gets (pkiutil.NewCertAndKey → GeneratePrivateKey of the
 * ClusterConfiguration's encryptionAlgorithm), as keyutil.MarshalPrivateKeyToPEM writes it
 * (PKCS#1 `RSA PRIVATE KEY`, SEC1 `EC PRIVATE KEY`). RSA keys come from the lab's pools, picked
 * with the seeded random source; one equal to the key being replaced is passed over, as a freshly
 * generated key never is. EC keys (P-256, P-384) are scalars from the seeded random source (ec.ts).
 * Undefined for an algorithm the lab does not simulate.
 */
export function renewalKey(c: Cluster, algorithm: string, old: string): string | undefined {
  if (algorithm === 'ECDSA-P256') return String(generateP256Key(c.random).export({ type: 'sec1', format: 'pem' }));
  if (algorithm === 'ECDSA-P384') return String(generateP384Key(c.random).export({ type: 'sec1', format: 'pem' }));
  const bits = /^RSA-(2048|3072|4096)$/.exec(algorithm)?.[1];
  if (!bits) return undefined;
  const same = (pem: string): boolean => {
    try {
      return pkcs1(pem) === pkcs1(old);
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 16; i++) {
    const k = pooledRsaKey(Number(bits), c.random);
    if (k !== undefined && !same(k)) return pkcs1(k);
  }
  return undefined;
}

const PKCS1 = new Map<string, string>();

/**
 * An RSA key's PEM as keyutil.MarshalPrivateKeyToPEM writes it (PKCS#1), memoised by the PEM's
 * text: a pure function of it (createPrivateKey then export), and a renewal converts the same pool
 * keys and the same old keys again in every copy of a state (`kubeadm certs renew all` converts
 * eleven pairs). A text that does not parse is not kept: it throws again, as it always did.
 */
function pkcs1(pem: string): string {
  const hit = PKCS1.get(pem);
  if (hit !== undefined) return hit;
  const out = String(createPrivateKey(pem).export({ type: 'pkcs1', format: 'pem' }));
  conversions++;
  return remember(PKCS1, pem, out, 256);
}
let conversions = 0;

/** How many keys renewalKey has converted to PKCS#1 (not memoised ones): for the memo's test. */
export function pkcs1Conversions(): number {
  return conversions;
}

/** The cluster's ClusterConfiguration encryptionAlgorithm (RSA-2048 when unset, as v1beta4 defaults it). */
export function encryptionAlgorithm(c: Cluster): string {
  const v = clusterConfiguration(c)?.doc['encryptionAlgorithm'];
  return typeof v === 'string' && v !== '' ? v : 'RSA-2048';
}

export function renewEntry(c: Cluster, host: Host, e: Entry, algorithm: string): string | undefined {
  const caText = host.fs.tryRead(`${PKI}/${CA_FILES[e.ca]}.crt`);
  const caKey = host.fs.tryRead(`${PKI}/${CA_FILES[e.ca]}.key`);
  const ca = caText ? readCertificatePem(caText) : undefined;
  const cert = readEntry(host, e);
  if (!ca || !caKey || !cert) return `failed to renew certificate ${e.name}: certificate ${e.name} does not exist`;
  if (!e.kubeconfig) {
    const old = host.fs.tryRead(`${PKI}/${e.file}.key`) ?? '';
    const key = renewalKey(c, algorithm, old);
    if (!key) return `failed to renew certificate ${e.name}: cka-lab: encryptionAlgorithm ${algorithm} is not simulated in this lab`;
    host.fs.write(`${PKI}/${e.file}.crt`, renewed(c, cert, key, { cert: ca, keyPem: caKey }, e.file));
    host.fs.write(`${PKI}/${e.file}.key`, key, 0o600);
    return undefined;
  }
  const path = `${K8S}/${e.file}`;
  // the text readEntry parsed just before (the memo's copy: the caller's to change)
  const doc = parseYamlMemo(host.fs.read(path)) as KubeconfigDoc;
  const user = doc.users?.[0]?.user ?? {};
  const key = renewalKey(c, algorithm, Buffer.from(user['client-key-data'] ?? '', 'base64').toString('utf8'));
  if (!key) return `failed to renew certificate ${e.name}: cka-lab: encryptionAlgorithm ${algorithm} is not simulated in this lab`;
  user['client-certificate-data'] = Buffer.from(renewed(c, cert, key, { cert: ca, keyPem: caKey }, e.file)).toString('base64');
  user['client-key-data'] = Buffer.from(key).toString('base64');
  host.fs.write(path, stringify(doc), 0o600);
  return undefined;
}

/**
 * One certificate renewed as `kubeadm upgrade apply|node` renews a component's certificates
 * (phases/upgrade/staticpods.go renewCertsByComponent → Manager.RenewUsingLocalCA): false when its
 * CA's key is not on the node (`external`: kubeadm reports it and goes on); the readwriter's error
 * when the certificate (or the kubeconfig holding it) is missing or holds no certificate.
 */
export function renewForUpgrade(c: Cluster, host: Host, name: string): 'renewed' | 'external' | { error: string } {
  const e = ENTRIES.find((x) => x.name === name);
  if (!e) return { error: `${name} is not a valid certificate for this cluster` };
  if (!host.fs.exists(`${PKI}/${CA_FILES[e.ca]}.key`)) return 'external';
  // the readwriter's Read (renewal/readwriters.go): the file as it is on disk, before anything is written
  const bad = unreadable(host, e);
  if (bad === 'missing')
    return { error: e.kubeconfig ? `failed to load kubeConfig file ${K8S}/${e.file}: open ${K8S}/${e.file}: no such file or directory` : `failed to load existing certificate ${e.file}: open ${PKI}/${e.file}.crt: no such file or directory` };
  if (bad) return bad;
  const error = renewEntry(c, host, e, encryptionAlgorithm(c));
  return error ? { error } : 'renewed';
}

