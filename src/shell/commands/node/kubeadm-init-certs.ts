/**
 * `kubeadm init phase certs <name>|all` (cmd/kubeadm/app/cmd/phases/init/certs.go,
 * phases/certs/certs.go, util/pkiutil): each certificate of /etc/kubernetes/pki in kubeadm's order
 * (certlist.go GetDefaultCertList), the service-account key pair last. A CA on disk is used as it
 * is (`Using existing ca certificate authority`, or `keyless` without its key); a missing one is
 * made. A leaf certificate and key on disk are used when the CA signed the certificate and it
 * carries every SAN kubeadm computes (validateCertificateWithConfig); one that lacks a SAN fails
 * the phase, so adding a SAN means removing the .crt and .key first, as kubeadm's documentation
 * says; a missing one is signed by its CA on disk, with the SANs of GetAPIServerAltNames (the node
 * name and the `kubernetes…` names, the Service IP and the advertise address, the control-plane
 * endpoint's host, then --apiserver-cert-extra-sans) or GetEtcdAltNames, and a serving
 * certificate's SANs are printed. `all` starts with the parent phase's `Using certificateDir
 * folder`. The running API server picks a new serving certificate up from its files (it reloads
 * it dynamically), which sim/dial.ts reads at each connection. `--config FILE` gives the node
 * name, advertise address, Service subnet and DNS domain of its documents, and the new keys'
 * type: encryptionAlgorithm ECDSA-P256 makes P-256 keys and ecdsa-with-SHA256 signatures by such a
 * CA, ECDSA-P384 P-384 keys and ecdsa-with-SHA384 signatures (Go's x509.CreateCertificate picks the
 * hash by the CA key's curve); RSA-3072/4096 are not simulated. `--dry-run` (newInitData, init.go)
 * makes /etc/kubernetes/tmp/kubeadm-init-dryrun<digits>, the directory new files go to and `all`
 * names; what is on disk in /etc/kubernetes/pki is still used, but a leaf or key made anew looks
 * for its CA (and the sa key for itself) in that fresh directory, as phases/init/certs.go does.
 */
import { createPublicKey } from 'node:crypto';
import type { CommandContext, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { CAS, LEAVES, caCert, keyFor, leafCert, type PkiParams } from '../../../sim/pki/kubeadm-pki.js';
import { issuedBy, readCertificatePem, type ParsedCert } from '../../../sim/pki/x509.js';
import { runningFlags, serviceCIDR } from '../../../sim/controlplane.js';
import { goIPString, ipFamilyOf } from '../../../util/ip.js';
import { dryRunDir, flag, isDryRun, kubeadmError } from './kubeadm-lib.js';
import { configValues } from './kubeadm-init-phases.js';
import { generateP256Key, generateP384Key } from '../../../sim/pki/ec.js';

const PKI = '/etc/kubernetes/pki';

type CaFile = 'ca' | 'front-proxy-ca' | 'etcd/ca';
/** A phase: a CA, a leaf (its spec in kubeadm-pki.ts), or the service-account keys. */
type CertPhase = { kind: 'ca'; file: CaFile } | { kind: 'leaf'; file: string } | { kind: 'sa' };

/** The sub-phases of `certs`, in the order `all` runs them. */
export const CERT_PHASES: readonly (readonly [string, CertPhase])[] = [
  ['ca', { kind: 'ca', file: 'ca' }],
  ['apiserver', { kind: 'leaf', file: 'apiserver' }],
  ['apiserver-kubelet-client', { kind: 'leaf', file: 'apiserver-kubelet-client' }],
  ['front-proxy-ca', { kind: 'ca', file: 'front-proxy-ca' }],
  ['front-proxy-client', { kind: 'leaf', file: 'front-proxy-client' }],
  ['etcd-ca', { kind: 'ca', file: 'etcd/ca' }],
  ['etcd-server', { kind: 'leaf', file: 'etcd/server' }],
  ['etcd-peer', { kind: 'leaf', file: 'etcd/peer' }],
  ['etcd-healthcheck-client', { kind: 'leaf', file: 'etcd/healthcheck-client' }],
  ['apiserver-etcd-client', { kind: 'leaf', file: 'apiserver-etcd-client' }],
  ['sa', { kind: 'sa' }],
];

/** kubeadm's Name of a CA (`etcd/ca` is `etcd-ca`). */
const caName = (file: CaFile): string => file.replace('/', '-');

/** What the node's kubeadm would configure: its name, the advertise address, the Service CIDR and domain. */
export function pkiParams(c: Cluster, host: Host, now: number): PkiParams {
  const domain = /^clusterDomain:\s*(\S+)/m.exec(host.fs.tryRead('/var/lib/kubelet/config.yaml') ?? '')?.[1] ?? 'cluster.local';
  return { nodeName: host.name, advertiseIP: runningFlags(c, 'kube-apiserver').get('advertise-address') ?? host.ip, serviceSubnet: serviceCIDR(c).split(',')[0] ?? '10.96.0.0/12', dnsDomain: domain, issuedAt: now };
}

/** A leaf's SANs: its template's, and for the API server the endpoint's host and the extra SANs, appended in kubeadm's order. */
function sans(file: string, p: PkiParams, args: readonly string[]): { dns: string[]; ips: string[] } {
  const t = LEAVES.find((l) => l.file === file)!.template(p);
  const dns = [...(t.dnsNames ?? [])];
  const ips = [...(t.ips ?? [])];
  if (file === 'apiserver') {
    const add = (san: string): void => {
      const list = ipFamilyOf(san) ? ips : dns;
      if (!list.includes(san)) list.push(san);
    };
    const endpoint = flag(args, 'control-plane-endpoint');
    if (endpoint) add(endpoint.replace(/:\d+$/, ''));
    for (const san of (flag(args, 'apiserver-cert-extra-sans') ?? '').split(',').filter(Boolean)) add(san.trim());
  }
  return { dns, ips };
}

/** certutil.CertsFromFile through pkiutil.TryLoadCertFromDisk: the file's certificate, or the error's text. */
function certFromFile(host: Host, path: string): ParsedCert | string {
  const pem = host.fs.tryRead(path);
  if (pem === undefined) return `couldn't load the certificate file ${path}: open ${path}: no such file or directory`;
  return readCertificatePem(pem) ?? `couldn't load the certificate file ${path}: error reading ${path}: data does not contain any valid RSA or ECDSA certificates`;
}

/**
 * The CA a leaf phase needs, with kubeadm v1.35's errors (cmd/phases/init/certs.go runCertPhase,
 * phases/certs/certs.go, util/pkiutil/pki_helpers.go), each wrapped as `couldn't load CA certificate
 * <Name>`. A leaf already on disk is only checked against the CA's certificate in the certificate
 * directory (pkiutil.TryLoadCertFromDisk: `couldn't load the certificate file F: open F: no such
 * file or directory`); a leaf to be made loads the CA from `dir` (CreateCertAndKeyFilesWithCA →
 * LoadCertificateAuthority): neither file there gives `couldn't load <BaseName> certificate
 * authority from <dir>` (pkiutil.CertOrKeyExist), one of them missing gives `failure loading
 * <BaseName> certificate authority: failed to load certificate|key: couldn't load the certificate
 * file|private key file F: …` (TryLoadCertAndKeyFromDisk).
 */
function loadCa(host: Host, file: CaFile, dir: string, existingLeaf: boolean): { cert: ParsedCert; keyPem: string } | string {
  const wrap = (e: string): string => `couldn't load CA certificate ${caName(file)}: ${e}`;
  if (existingLeaf) {
    const cert = certFromFile(host, `${PKI}/${file}.crt`);
    return typeof cert === 'string' ? wrap(cert) : { cert, keyPem: host.fs.tryRead(`${PKI}/${file}.key`) ?? '' };
  }
  const crt = `${dir}/${file}.crt`;
  const key = `${dir}/${file}.key`;
  if (!host.fs.exists(crt) && !host.fs.exists(key)) return wrap(`couldn't load ${file} certificate authority from ${dir}`);
  const cert = certFromFile(host, crt);
  if (typeof cert === 'string') return wrap(`failure loading ${file} certificate authority: failed to load certificate: ${cert}`);
  const keyPem = host.fs.tryRead(key);
  if (keyPem === undefined) return wrap(`failure loading ${file} certificate authority: failed to load key: couldn't load the private key file ${key}: open ${key}: no such file or directory`);
  return { cert, keyPem };
}

/**
 * The private key a new certificate gets (pkiutil.GeneratePrivateKey): ClusterConfiguration's
 * encryptionAlgorithm ECDSA-P256 (ECDSA-P384) makes a P-256 (P-384) key, written as Go's keyutil.MarshalPrivateKeyToPEM
 * writes one (`EC PRIVATE KEY`), from the session's seeded random source; RSA-2048 (the default) a
 * key of the lab's kubeadm pool.
 */
type NewKey = (file: string) => string;

function newKeyFor(c: Cluster, algorithm: string): NewKey {
  if (algorithm === 'ECDSA-P256') return () => String(generateP256Key(c.random).export({ type: 'sec1', format: 'pem' }));
  if (algorithm === 'ECDSA-P384') return () => String(generateP384Key(c.random).export({ type: 'sec1', format: 'pem' }));
  return keyFor;
}

/** runCAPhase: one on disk (the certificate directory) is used; a new one goes to `dir` (the dry run's directory under --dry-run). */
function caPhase(host: Host, file: CaFile, now: number, seed: string, newKey: NewKey, dir: string): string {
  if (host.fs.tryRead(`${PKI}/${file}.crt`) !== undefined) return `[certs] Using existing ${file} ${host.fs.exists(`${PKI}/${file}.key`) ? '' : 'keyless '}certificate authority\n`;
  const cn = CAS.find((x) => x.file === file)!.cn;
  const key = newKey(file);
  host.fs.write(`${dir}/${file}.crt`, caCert(file, cn, now, `${seed}/init-phase`, key));
  host.fs.write(`${dir}/${file}.key`, key, 0o600);
  return `[certs] Generating "${file}" certificate and key\n`;
}

/**
 * runCertPhase: a leaf on disk is checked against its CA there; a new one is signed by the CA in
 * `dir`, where it is written — under --dry-run the dry run's directory, so a phase run on its own
 * finds no CA there (certs.go sets CertificatesDir to CertificateWriteDir before
 * CreateCertAndKeyFilesWithCA).
 */
function leafPhase(host: Host, name: string, file: string, p: PkiParams, args: readonly string[], newKey: NewKey, dir: string): { out: string } | { error: string } {
  const spec = LEAVES.find((l) => l.file === file)!;
  const want = sans(file, p, args);
  const existing = host.fs.tryRead(`${PKI}/${file}.crt`);
  const onDisk = existing !== undefined && host.fs.exists(`${PKI}/${file}.key`);
  const ca = loadCa(host, spec.ca, onDisk ? PKI : dir, onDisk);
  if (typeof ca === 'string') return { error: ca };
  if (existing !== undefined && onDisk) {
    const cert = readCertificatePem(existing);
    if (!cert || !issuedBy(cert, ca.cert)) return { error: `failed to write or validate certificate "${name}": certificate ${file} is not signed by corresponding CA` };
    const certIps = cert.ips.map(goIPString);
    const missing = [...want.dns.filter((d) => !cert.dnsNames.includes(d)), ...want.ips.filter((i) => !certIps.includes(goIPString(i)))][0];
    if (missing !== undefined) {
      const valid = ipFamilyOf(missing) ? certIps.join(', ') : cert.dnsNames.join(', ');
      return { error: `failed to write or validate certificate "${name}": certificate ${file} is invalid: x509: certificate is valid for ${valid}, not ${missing}` };
    }
    return { out: `[certs] Using existing ${file} certificate and key on disk\n` };
  }
  // the simulator's key pool stands in for the new key pair kubeadm generates (deterministic runs)
  const template = spec.template(p);
  const key = newKey(file);
  const pem = leafCert({ ...spec, template: () => ({ ...template, dnsNames: want.dns, ips: want.ips }) }, p, ca, p.issuedAt, `init-phase/${file}`, key);
  host.fs.write(`${dir}/${file}.crt`, pem);
  host.fs.write(`${dir}/${file}.key`, key, 0o600);
  let out = `[certs] Generating "${file}" certificate and key\n`;
  // pkiutil: a certificate with serverAuth says which names it serves
  if (template.extKeyUsage.includes('serverAuth')) out += `[certs] ${file} serving cert is signed for DNS names [${want.dns.join(' ')}] and IPs [${want.ips.join(' ')}]\n`;
  return { out };
}

/** runCertsSa (CreateServiceAccountKeyAndPublicKeyFiles of CertificateWriteDir): under --dry-run the key is looked for, and made, in the dry run's directory. */
function saPhase(host: Host, newKey: NewKey, dir: string): string {
  if (host.fs.exists(`${dir}/sa.key`)) return '[certs] Using the existing "sa" key\n';
  const key = newKey('sa');
  host.fs.write(`${dir}/sa.key`, key, 0o600);
  // pkiutil.WritePublicKey writes it through keyutil.WriteKey: 0600, like a private key
  host.fs.write(`${dir}/sa.pub`, createPublicKey(key).export({ type: 'spki', format: 'pem' }) as string, 0o600);
  return '[certs] Generating "sa" key and public key\n';
}

/** `kubeadm init phase certs NAME|all [flags]`; `args` start after `certs`. */
export function initPhaseCerts(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  if (ctx.user !== 'root') return kubeadmError('user is not running as root');
  const unsimulated = args.find((a) => /^--(csr-only|csr-dir)(=|$)/.test(a));
  if (unsimulated) return kubeadmError(`kubeadm init phase certs ${unsimulated.split('=')[0]} is not simulated in this lab; nothing was written`);
  const cfg = configValues(host, ctx, args);
  if ('exitCode' in cfg) return cfg;
  const algorithm = cfg.encryptionAlgorithm ?? 'RSA-2048';
  if (algorithm !== 'RSA-2048' && algorithm !== 'ECDSA-P256' && algorithm !== 'ECDSA-P384') return kubeadmError(`cka-lab: encryptionAlgorithm ${algorithm} is not simulated in this lab (RSA-2048, ECDSA-P256 and ECDSA-P384 are); nothing was written`);
  const newKey = newKeyFor(c, algorithm);
  const name = args.find((a, i) => !a.startsWith('-') && !/^--[^=]+$/.test(args[i - 1] ?? ''))!;
  const now = Math.floor(c.now() / 1000) * 1000;
  const running = pkiParams(c, host, now);
  // --config's InitConfiguration and ClusterConfiguration say what kubeadm would configure
  const p: PkiParams = { ...running, ...(cfg.nodeName ? { nodeName: cfg.nodeName } : {}), ...(cfg.advertiseAddress ? { advertiseIP: cfg.advertiseAddress } : {}), ...(cfg.serviceSubnet ? { serviceSubnet: cfg.serviceSubnet } : {}), ...(cfg.dnsDomain ? { dnsDomain: cfg.dnsDomain } : {}) };
  const phases = name === 'all' ? CERT_PHASES : CERT_PHASES.filter(([n]) => n === name);
  // newInitData: --dry-run writes into a new kubeadm-init-dryrun directory (CertificateWriteDir)
  const dir = isDryRun(args) ? dryRunDir(c, host) : PKI;
  let out = name === 'all' ? `[certs] Using certificateDir folder "${dir}"\n` : '';
  for (const [n, ph] of phases) {
    if (ph.kind === 'ca') out += caPhase(host, ph.file, now, p.advertiseIP, newKey, dir);
    else if (ph.kind === 'sa') out += saPhase(host, newKey, dir);
    else {
      const r = leafPhase(host, n, ph.file, p, args, newKey, dir);
      if ('error' in r) return kubeadmError(`error execution phase certs/${n}: ${r.error}`, out);
      out += r.out;
    }
  }
  return { stdout: out, stderr: '', exitCode: 0 };
}
