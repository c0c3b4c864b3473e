/**
 * kube-controller-manager's csrsigning controller (pkg/controller/certificates/signer): an
 * approved request for the kube-apiserver-client signers gets a certificate signed by the
 * cluster CA (--cluster-signing-cert-file/--cluster-signing-key-file), valid from five minutes
 * ago for min(spec.expirationSeconds, --cluster-signing-duration = 1 year) and never past the
 * CA (certificate/authority/authority.go); usages become key usages and client auth.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject } from '../api/types.js';
import { clone } from '../api/store.js';
import { runningFlags } from '../controlplane.js';
import { parseCsrDer } from '../pki/csr.js';
import { pemDecode } from '../pki/der.js';
import { createCertificate, readCertificatePem, type KeyUsage } from '../pki/x509.js';

const SIGNERS = new Set(['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet']);
const YEAR_MS = 365 * 86_400_000;
const KEY_USAGES: Record<string, KeyUsage> = { 'digital signature': 'digitalSignature', 'key encipherment': 'keyEncipherment', 'content commitment': 'contentCommitment', 'data encipherment': 'dataEncipherment', 'key agreement': 'keyAgreement', 'cert sign': 'keyCertSign', 'crl sign': 'cRLSign' };

interface Csr extends KObject {
  spec: { request?: string; signerName?: string; expirationSeconds?: number; usages?: string[] };
  status?: { conditions?: { type: string; status?: string }[]; certificate?: string };
}

function sign(c: Cluster, csr: Csr): string | undefined {
  const flags = runningFlags(c, 'kube-controller-manager');
  const cp = c.host(c.meta.controlPlane);
  const caPem = cp?.fs.tryRead(flags.get('cluster-signing-cert-file') ?? '/etc/kubernetes/pki/ca.crt');
  const caKey = cp?.fs.tryRead(flags.get('cluster-signing-key-file') ?? '/etc/kubernetes/pki/ca.key');
  const ca = caPem ? readCertificatePem(caPem) : undefined;
  const der = pemDecode(Buffer.from(csr.spec.request ?? '', 'base64').toString('utf8'), 'CERTIFICATE REQUEST')[0];
  const req = der ? parseCsrDer(der) : undefined;
  if (!ca || !caKey || !req) return undefined;
  const now = Math.floor(c.now() / 1000) * 1000;
  const ttl = Math.min(csr.spec.expirationSeconds ? csr.spec.expirationSeconds * 1000 : YEAR_MS, YEAR_MS);
  let serial = 0n;
  for (let i = 0; i < 4; i++) serial = (serial << 32n) | BigInt(c.random.nextU32());
  const spkiPem = `-----BEGIN PUBLIC KEY-----\n${req.spki.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PUBLIC KEY-----\n`;
  const usages = csr.spec.usages ?? [];
  return createCertificate(
    {
      serial: serial & ((1n << 127n) - 1n),
      subject: req.subject,
      notBefore: now - 5 * 60_000,
      notAfter: Math.min(now + ttl, ca.notAfter),
      isCA: false,
      keyUsage: usages.map((u) => KEY_USAGES[u]).filter((u): u is KeyUsage => u !== undefined),
      extKeyUsage: [...(usages.includes('server auth') ? (['serverAuth'] as const) : []), ...(usages.includes('client auth') ? (['clientAuth'] as const) : [])],
    },
    spkiPem,
    { cert: ca, keyPem: caKey },
  );
}

export const csrSigningController: Controller = {
  name: 'csr-signing',
  watches: ['CertificateSigningRequest'],
  reconcile(c: Cluster): void {
    for (const csr of c.store.list<Csr>('CertificateSigningRequest')) {
      const types = (csr.status?.conditions ?? []).map((x) => x.type);
      if (!types.includes('Approved') || types.includes('Denied') || types.includes('Failed') || csr.status?.certificate) continue;
      if (!SIGNERS.has(csr.spec.signerName ?? '')) continue;
      const pem = sign(c, csr);
      if (!pem) continue;
      const upd = clone(csr);
      upd.status = { ...(upd.status ?? {}), certificate: Buffer.from(pem).toString('base64') };
      c.write(upd);
    }
  },
};
