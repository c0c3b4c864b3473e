/**
 * `kubeadm init phase upload-certs --upload-certs [--certificate-key K] [--skip-certificate-key-print]`
 * (cmd/kubeadm/app/cmd/phases/init/uploadcerts.go, phases/copycerts/copycerts.go): the shared CA
 * and service-account keys of the control plane, encrypted with AES-256-GCM under the certificate
 * key, stored in the kube-system/kubeadm-certs Secret so that `kubeadm join --control-plane
 * --certificate-key K` on a new control plane node can fetch them. Without --certificate-key a
 * new random 32-byte key is made (copycerts.CreateCertificateKey). Without --upload-certs the phase
 * is skipped. `init phase certs` is in kubeadm-init-certs.ts, `init phase kubeconfig` in
 * kubeadm-init-kubeconfig.ts; control-plane, etcd, kubelet-start, upload-config,
 * mark-control-plane and addon in kubeadm-init-phases.ts; the others are not simulated.
 */
import { createCipheriv } from 'node:crypto';
import type { CommandContext, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { KObject } from '../../../sim/api/types.js';
import { adminConfError, flag, isDryRun, kubeadmError } from './kubeadm-lib.js';
import { newToken } from './kubeadm-token.js';
import { initPhaseCerts } from './kubeadm-init-certs.js';
import { initPhaseKubeconfig } from './kubeadm-init-kubeconfig.js';
import { runInitPhase } from './kubeadm-init-phases.js';

/** kubeadmconstants.DefaultCertTokenDuration: the kubeadm-certs Secret lives as long as its proxy token. */
const CERT_TOKEN_TTL_MS = 2 * 3600 * 1000;

/**
 * createShortLivedBootstrapToken: a bootstrap token with no usages and a two-hour TTL that owns the
 * kubeadm-certs Secret, so the garbage collector deletes the Secret once the token cleaner removed
 * the expired token. It shows in `kubeadm token list`.
 */
function proxyToken(c: Cluster): KObject {
  const [id, secret] = newToken(c).split('.') as [string, string];
  const b64 = (v: string): string => Buffer.from(v, 'utf8').toString('base64');
  const obj = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system', creationTimestamp: c.timestamp() },
    type: 'bootstrap.kubernetes.io/token',
    data: {
      description: b64('Proxy for managing TTL for the kubeadm-certs secret'),
      expiration: b64(new Date(c.now() + CERT_TOKEN_TTL_MS).toISOString().replace(/\.\d{3}Z$/, 'Z')),
      'token-id': b64(id),
      'token-secret': b64(secret),
    },
  };
  return c.insert(obj as KObject);
}

/** The files copycerts uploads, as paths below /etc/kubernetes/pki (certsToTransfer, local etcd). */
const SHARED_FILES = ['ca.crt', 'ca.key', 'sa.key', 'sa.pub', 'front-proxy-ca.crt', 'front-proxy-ca.key', 'etcd/ca.crt', 'etcd/ca.key'];

export const KUBEADM_CERTS_SECRET = 'kubeadm-certs';

/** A certificate key: 32 random bytes, hex encoded (copycerts.CreateCertificateKey). */
export function newCertificateKey(c: Cluster): string {
  return Array.from({ length: 32 }, () => c.random.int(256).toString(16).padStart(2, '0')).join('');
}

/** cryptoutil.EncryptBytes: a 12-byte nonce followed by the AES-GCM sealed data and tag. */
function encrypt(c: Cluster, data: Buffer, key: Buffer): Buffer {
  const nonce = Buffer.from(Array.from({ length: 12 }, () => c.random.int(256)));
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const sealed = Buffer.concat([cipher.update(data), cipher.final()]);
  return Buffer.concat([nonce, sealed, cipher.getAuthTag()]);
}

/** encoding/hex.DecodeString's error: the first invalid byte (%#U), else an odd length. */
function hexDecodeError(s: string): string | undefined {
  const bad = [...s].find((ch) => !/[0-9a-fA-F]/.test(ch));
  if (bad) return `encoding/hex: invalid byte: U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} '${bad}'`;
  return s.length % 2 ? 'encoding/hex: odd length hex string' : undefined;
}


function uploadCerts(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  if (!args.includes('--upload-certs')) return { stdout: '[upload-certs] Skipping phase. Please see --upload-certs\n', stderr: '', exitCode: 0 };
  // under --dry-run kubeadm's dry-run API client logs every request it would make (util/apiclient/dryrun.go): not reproduced, so nothing is uploaded
  if (isDryRun(args)) return kubeadmError('kubeadm init phase upload-certs --dry-run is not simulated in this lab; nothing was written');
  const e = adminConfError(host, ctx.user === 'root');
  if (e) return kubeadmError(e);
  const given = flag(args, 'certificate-key');
  const keyHex = given ?? newCertificateKey(c);
  const storing = `[upload-certs] Storing the certificates in Secret "${KUBEADM_CERTS_SECRET}" in the "kube-system" Namespace\n`;
  const hexError = hexDecodeError(keyHex);
  if (hexError) return kubeadmError(`error execution phase upload-certs: error uploading certs: error decoding certificate key: ${hexError}`, storing);
  if (keyHex.length !== 64) return kubeadmError(`error execution phase upload-certs: error uploading certs: crypto/aes: invalid key size ${keyHex.length / 2}`, storing);
  const key = Buffer.from(keyHex, 'hex');
  const owner = proxyToken(c);
  const data: Record<string, string> = {};
  for (const f of SHARED_FILES) {
    const text = host.fs.tryRead(`/etc/kubernetes/pki/${f}`);
    // a missing file is stored empty (getDataFromDisk ignores os.IsNotExist)
    data[f.replace('/', '-')] = text === undefined ? '' : encrypt(c, Buffer.from(text, 'utf8'), key).toString('base64');
  }
  const secret: KObject & { type: string; data: Record<string, string> } = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: KUBEADM_CERTS_SECRET,
      namespace: 'kube-system',
      creationTimestamp: c.timestamp(),
      ownerReferences: [{ apiVersion: 'v1', kind: 'Secret', name: owner.metadata.name, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true }],
    },
    type: 'Opaque',
    data,
  };
  const existing = c.store.get('Secret', 'kube-system', KUBEADM_CERTS_SECRET);
  if (existing) c.write({ ...secret, metadata: { ...existing.metadata, ownerReferences: secret.metadata.ownerReferences! } });
  else c.insert(secret);
  let out = storing;
  if (!args.includes('--skip-certificate-key-print')) out += `[upload-certs] Using certificate key:\n${keyHex}\n`;
  return { stdout: out, stderr: '', exitCode: 0 };
}

/** `kubeadm init phase <name>`: upload-certs, certs (kubeadm-init-certs.ts) and kubeconfig (kubeadm-init-kubeconfig.ts) are simulated. */
export function init(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  if (args[0] !== 'phase') return kubeadmError('kubeadm init is not simulated: the cluster is already initialized; only `kubeadm init phase certs|kubeconfig|etcd|control-plane|kubelet-start|upload-config|upload-certs|mark-control-plane|addon` are available');
  if (args[1] === 'upload-certs') return uploadCerts(c, host, ctx, args.slice(2));
  if (args[1] === 'certs') return initPhaseCerts(c, host, ctx, args.slice(2));
  if (args[1] === 'kubeconfig') return initPhaseKubeconfig(c, host, ctx, args.slice(2));
  if (['control-plane', 'etcd', 'kubelet-start', 'upload-config', 'mark-control-plane', 'addon'].includes(args[1] ?? '')) return runInitPhase(c, host, ctx, args.slice(1));
  // cobra (kubeadm-phases-spec.ts) has refused unknown phases already
  return kubeadmError(`kubeadm init phase ${args.slice(1).filter((a) => !a.startsWith('-')).join(' ')} is not simulated in this lab`);
}
