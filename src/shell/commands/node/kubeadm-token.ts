/**
 * `kubeadm token create [TOKEN] [--print-join-command [--certificate-key K]] [--ttl D] [--description S]`, `token list`,
 * `token delete` and `token generate` (cmd/kubeadm/app/cmd/token.go). A bootstrap token is a Secret
 * `bootstrap-token-<id>` of type bootstrap.kubernetes.io/token in kube-system (the shape
 * phases/bootstraptoken/node writes), so `kubectl -n kube-system get secrets` shows it and
 * `kubeadm join` on another node checks it; the controller-manager's token cleaner removes it once
 * expired, which is why the token `kubeadm init` made is gone from a cluster a few days old.
 * The join command ends with a space, as kubeadm's template prints it.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { KObject } from '../../../sim/api/types.js';
import { createHash } from 'node:crypto';
import { readCertificatePem } from '../../../sim/pki/x509.js';
import { hexFrom } from './host.js';
import { adminConfError, kubeadmError, tabwrite, flag } from './kubeadm-lib.js';

const TOKEN_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
export const DEFAULT_GROUP = 'system:bootstrappers:kubeadm:default-node-token';

interface TokenSecret extends KObject {
  type?: string;
  data?: Record<string, string>;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string | undefined): string => (s ? Buffer.from(s, 'base64').toString('utf8') : '');

/**
 * The discovery hash of the cluster CA, `sha256:<hex>` of its DER SubjectPublicKeyInfo
 * (cmd/kubeadm/app/util/pubkeypin: Hash), read from the control plane's ca.crt — the same value
 * the documented `openssl x509 -pubkey … | openssl rsa -pubin -outform der | openssl dgst -sha256`
 * pipeline computes on the node. A cluster whose CA file is gone falls back to a per-cluster value.
 */
export function caCertHash(c: Cluster): string {
  const text = c.host(c.meta.controlPlane)?.fs.tryRead('/etc/kubernetes/pki/ca.crt');
  const cert = text ? readCertificatePem(text) : undefined;
  if (cert) return `sha256:${createHash('sha256').update(cert.spki).digest('hex')}`;
  return `sha256:${hexFrom(`ca/${c.meta.name}`, 64)}`;
}

/** Bootstrap tokens that have not expired: `id.secret`, expiry and description. */
export function liveTokens(c: Cluster): { token: string; expires: number; description: string; usages: string[]; groups: string }[] {
  const now = c.now();
  return c.store
    .list<TokenSecret>('Secret', 'kube-system')
    .filter((s) => s.type === 'bootstrap.kubernetes.io/token')
    .map((s) => {
      const d = s.data ?? {};
      const exp = unb64(d['expiration']);
      return {
        token: `${unb64(d['token-id'])}.${unb64(d['token-secret'])}`,
        expires: exp ? Date.parse(exp) : Number.POSITIVE_INFINITY,
        description: unb64(d['description']),
        usages: ['authentication', 'signing'].filter((u) => unb64(d[`usage-bootstrap-${u}`]) === 'true'),
        groups: unb64(d['auth-extra-groups']),
      };
    })
    .filter((t) => t.expires > now);
}

/** Go's time.ParseDuration for the --ttl values people type (24h, 2h30m, 0 = never). */
function parseTtl(s: string): number | undefined {
  if (s === '0') return 0;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(s);
  if (!m || s === '') return undefined;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000;
}


/** duration.ShortHumanDuration. */
function shortHuman(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400 * 2) return `${Math.floor(s / 3600)}h`;
  if (s < 86400 * 365 * 2) return `${Math.floor(s / 86400)}d`;
  return `${Math.floor(s / 86400 / 365)}y`;
}

/** A random token of the form kubeadm checks (bootstraputil.GenerateBootstrapToken). */
export function newToken(c: Cluster): string {
  const pick = (n: number): string => Array.from({ length: n }, () => TOKEN_ALPHABET[c.random.int(TOKEN_ALPHABET.length)]).join('');
  return `${pick(6)}.${pick(16)}`;
}

export function token(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  const verb = args[0];
  // `token generate` only prints a random token for a later `token create <token>`; it reads no
  // kubeconfig and writes nothing (cmd/kubeadm/app/cmd/token.go, RunGenerateToken).
  if (verb === 'generate') return { stdout: `${newToken(c)}\n`, stderr: '', exitCode: 0 };
  const e = adminConfError(host, ctx.user === 'root');
  if (e) return kubeadmError(e);
  if (verb === 'create') {
    const ttlArg = flag(args, 'ttl') ?? '24h0m0s';
    const ttl = parseTtl(ttlArg);
    if (ttl === undefined) return kubeadmError(`invalid argument "${ttlArg}" for "--ttl" flag: time: invalid duration "${ttlArg}"`);
    const given = args.slice(1).find((a, i, all) => !a.startsWith('-') && !['--ttl', '--description', '--groups', '--usages', '--certificate-key'].includes(all[i - 1] ?? ''));
    const tok = given ?? newToken(c);
    if (!/^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(tok)) return kubeadmError(`the bootstrap token "${tok}" was not of the form "\\\\A([a-z0-9]{6})\\\\.([a-z0-9]{16})\\\\z"`);
    const [id, secret] = tok.split('.') as [string, string];
    const data: Record<string, string> = {
      'auth-extra-groups': b64(DEFAULT_GROUP),
      'token-id': b64(id),
      'token-secret': b64(secret),
      'usage-bootstrap-authentication': b64('true'),
      'usage-bootstrap-signing': b64('true'),
    };
    const desc = flag(args, 'description');
    if (desc) data['description'] = b64(desc);
    if (ttl > 0) data['expiration'] = b64(new Date(c.now() + ttl).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    const name = `bootstrap-token-${id}`;
    const secretObj: TokenSecret = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'kube-system', creationTimestamp: c.timestamp() }, type: 'bootstrap.kubernetes.io/token', data };
    const existing = c.store.get<TokenSecret>('Secret', 'kube-system', name);
    if (existing) c.write({ ...secretObj, metadata: { ...existing.metadata } });
    else c.insert(secretObj);
    if (args.includes('--print-join-command')) {
      const cp = c.host(c.meta.controlPlane)?.ip ?? host.ip;
      const key = flag(args, 'certificate-key');
      // With a certificate key the control-plane join template adds `--control-plane
      // --certificate-key K` after the hash's trailing space (cmd/util/join.go, token.go).
      const cpPart = key ? `--control-plane --certificate-key ${key}` : '';
      return { stdout: `kubeadm join ${cp}:6443 --token ${tok} --discovery-token-ca-cert-hash ${caCertHash(c)} ${cpPart}\n`, stderr: '', exitCode: 0 };
    }
    return { stdout: `${tok}\n`, stderr: '', exitCode: 0 };
  }
  if (verb === 'list') {
    const toks = liveTokens(c);
    if (toks.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
    const rows = [['TOKEN', 'TTL', 'EXPIRES', 'USAGES', 'DESCRIPTION', 'EXTRA GROUPS']];
    for (const t of toks) {
      const finite = Number.isFinite(t.expires);
      rows.push([t.token, finite ? shortHuman(t.expires - c.now() - 1) : '<forever>', finite ? new Date(t.expires).toISOString().replace(/\.\d{3}Z$/, 'Z') : '<never>', t.usages.join(',') || '<none>', t.description || '<none>', t.groups || '<none>']);
    }
    return { stdout: tabwrite(rows), stderr: '', exitCode: 0 };
  }
  if (verb === 'delete') {
    const ids = args.slice(1).filter((a) => !a.startsWith('-'));
    if (ids.length === 0) return kubeadmError('missing argument; \'token delete\' is missing token of form "[a-z0-9]{6}" or "[a-z0-9]{6}\\.[a-z0-9]{16}"');
    let out = '';
    for (const t of ids) {
      const id = t.split('.')[0]!;
      const name = `bootstrap-token-${id}`;
      if (!c.store.get('Secret', 'kube-system', name)) return kubeadmError(`failed to delete bootstrap token with ID "${id}": secrets "${name}" not found`, out);
      c.store.remove('Secret', 'kube-system', name);
      out += `bootstrap token "${id}" deleted\n`;
    }
    return { stdout: out, stderr: '', exitCode: 0 };
  }
  return kubeadmError(`unknown command "${verb ?? ''}" for "kubeadm token"`);
}
