/**
 * The API server's authenticators (k8s.io/apiserver pkg/authentication): x509 client
 * certificates verified against --client-ca-file (user = CN, groups = O), service-account
 * bearer tokens (JWTs signed with /etc/kubernetes/pki/sa.key, checked against sa.pub and the
 * ServiceAccount they name), anonymous requests (system:anonymous), and impersonation
 * (`--as`/`--as-group`, pkg/endpoints/filters/impersonation.go). Every authenticated user gets
 * system:authenticated; a credential that does not verify is Unauthorized.
 */
import { createHash, createPrivateKey, createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Cluster } from './cluster.js';
import { runningFlags } from './controlplane.js';
import type { UserInfo } from './api/rbac.js';
import type { KObject } from './api/types.js';
import { readCertificatePem, issuedBy } from './pki/x509.js';
import { signSha256 } from './pki/sign.js';
import { remember } from '../util/bounded-map.js';
import { deepFreeze } from '../util/json-copy.js';
import type { Store } from './api/store.js';

export interface Credentials {
  /** The client certificate (PEM) the kubeconfig names. */
  clientCertificate?: string;
  /** A bearer token (`token:` in the kubeconfig, or --token). */
  token?: string;
}

export const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';
const PKI = '/etc/kubernetes/pki';

function controlPlaneFile(c: Cluster, path: string): string | undefined {
  return c.host(c.meta.controlPlane)?.fs.tryRead(path);
}

/** The key service-account tokens are signed with (kubeadm's sa.key, read from the control-plane node), or undefined. */
export function serviceAccountSigningKey(c: Cluster): string | undefined {
  return controlPlaneFile(c, `${PKI}/sa.key`);
}

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

/** The issuer and audience kubeadm configures (--service-account-issuer). */
export function serviceAccountIssuer(c: Cluster): string {
  return runningFlags(c, 'kube-apiserver').get('service-account-issuer') ?? 'https://kubernetes.default.svc.cluster.local';
}

/**
 * A bounded memo keyed by the exact text it was computed from: importing an RSA key, deriving its
 * key id and signing are pure but cost a millisecond or more each, and every copy of a cluster
 * (validate's runs, a grader's probe) mints the same pod tokens from the same sa.key again.
 */
function memo<V>(size: number, compute: (k: string) => V): (k: string) => V {
  const m = new Map<string, V>();
  return (k) => {
    const had = m.get(k);
    if (had !== undefined) return had;
    const v = compute(k);
    remember(m, k, v, size);
    return v;
  };
}

const privateKey = memo<KeyObject>(8, (pem) => createPrivateKey(pem));
const publicKey = memo<KeyObject>(8, (pem) => createPublicKey(pem));

/** The JWT key id: sha256 of the public key's DER, base64url (serviceaccount/jwt.go keyIDFromPublicKey). */
const keyId = memo<string>(8, (keyPem) => b64url(createHash('sha256').update(createPublicKey(privateKey(keyPem)).export({ type: 'spki', format: 'der' })).digest()));

/**
 * RS256 is RSASSA-PKCS1-v1_5 with SHA-256 over `header.claims`: pki/sign.ts signSha256, whose memo
 * by key and bytes makes a token minted again from the same claims (a copy of a cluster) free.
 */
function rs256(keyPem: string, head: string): string {
  return b64url(signSha256(keyPem, Buffer.from(head)));
}

/**
 * A TokenRequest token (pkg/serviceaccount/claims.go): claims in go-jose's sorted key order,
 * RS256-signed with the cluster's sa.key.
 */
export function mintServiceAccountToken(c: Cluster, sa: KObject, expirationSeconds: number, audiences?: string[], bound?: PodBinding | ObjectBinding): string | undefined {
  return serviceAccountTokenSigner(c, sa, expirationSeconds, audiences, bound)?.();
}

/**
 * mintServiceAccountToken with the signature left for later: the claims are drawn now (the time,
 * the jti, the objects bound), and the returned function signs them when the token is first read.
 * The kubelet writes a token into every pod's projected volume, and most are never read (a
 * session's copies, validate's runs): the RSA signature was the costliest part of a pod's start.
 * Exact: the signing input is fixed here and RS256 (PKCS #1 v1.5) is deterministic, so the token
 * has the same bytes whenever it is signed.
 */
export function serviceAccountTokenSigner(c: Cluster, sa: KObject, expirationSeconds: number, audiences?: string[], bound?: PodBinding | ObjectBinding): (() => string) | undefined {
  const key = serviceAccountSigningKey(c);
  if (!key) return undefined;
  const now = Math.floor(c.now() / 1000);
  const iss = serviceAccountIssuer(c);
  // a kubelet's pod-bound token asks for 3607 s; --service-account-extend-token-expiration (on by
  // default) makes it valid for a year and warns after the time asked for (serviceaccount/claims.go)
  const pod = bound && 'podName' in bound ? bound : undefined;
  const obj = bound && 'kind' in bound ? bound : undefined;
  const extended = pod !== undefined && expirationSeconds === 3607;
  // go-jose normalizes the claims through a map: every level's keys come out sorted
  const binding = pod
    ? { ...(pod.nodeName ? { node: { name: pod.nodeName, ...(pod.nodeUid ? { uid: pod.nodeUid } : {}) } } : {}), pod: { name: pod.podName, uid: pod.podUid } }
    : obj
      ? { [obj.kind === 'Node' ? 'node' : 'secret']: { name: obj.name, uid: obj.uid } }
      : {};
  const claims = {
    aud: audiences?.length ? audiences : [iss],
    exp: now + (extended ? 365 * 24 * 3600 : expirationSeconds),
    iat: now,
    iss,
    jti: pod?.jti ?? c.store.nextUid(c.random.nextU32()),
    'kubernetes.io': { namespace: sa.metadata.namespace, ...binding, serviceaccount: { name: sa.metadata.name, uid: sa.metadata.uid }, ...(extended ? { warnafter: now + expirationSeconds } : {}) },
    nbf: now,
    sub: `system:serviceaccount:${sa.metadata.namespace}:${sa.metadata.name}`,
  };
  const head = `${b64url(JSON.stringify({ alg: 'RS256', kid: keyId(key) }))}.${b64url(JSON.stringify(claims))}`;
  let token: string | undefined;
  return () => (token ??= `${head}.${rs256(key, head)}`);
}

/** The pod (and its node) a projected token is bound to; its jti is derived, not drawn, so volumes stay deterministic. */
export interface PodBinding {
  podName: string;
  podUid: string;
  nodeName: string;
  nodeUid: string;
  /** Derived for a projected volume's token; drawn when absent (a TokenRequest's). */
  jti?: string;
}

/** A token bound to a Secret or a Node (TokenRequest spec.boundObjectRef). */
export interface ObjectBinding {
  kind: 'Secret' | 'Node';
  name: string;
  uid: string;
}

interface SaClaims {
  exp?: number;
  nbf?: number;
  jti?: string;
  sub?: string;
  'kubernetes.io'?: { namespace?: string; serviceaccount?: { name?: string; uid?: string }; pod?: { name?: string; uid?: string } };
}

function tokenUser(c: Cluster, token: string, clock?: ClockTest[]): UserInfo | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const pub = controlPlaneFile(c, runningFlags(c, 'kube-apiserver').get('service-account-key-file') ?? `${PKI}/sa.pub`);
  if (!pub) return undefined;
  try {
    if (!verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey(pub), Buffer.from(parts[2]!, 'base64url'))) return undefined;
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as SaClaims;
    const exp = claims.exp;
    if (exp !== undefined && clockSays(c, clock, (now) => Math.floor(now / 1000) >= exp)) return undefined;
    const k8s = claims['kubernetes.io'];
    const ns = k8s?.namespace ?? '';
    const name = k8s?.serviceaccount?.name ?? '';
    const sa = c.store.get('ServiceAccount', ns, name);
    // a token outlives neither its ServiceAccount nor a re-created one (the uid is checked)
    if (!sa || (k8s?.serviceaccount?.uid && sa.metadata.uid !== k8s.serviceaccount.uid)) return undefined;
    // a pod-bound token dies with its pod
    const bound = k8s?.pod;
    if (bound && c.store.get('Pod', ns, bound.name ?? '')?.metadata.uid !== bound.uid) return undefined;
    return {
      username: `system:serviceaccount:${ns}:${name}`,
      uid: sa.metadata.uid ?? '',
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
      extra: claims.jti ? { [CREDENTIAL_ID]: [`JTI=${claims.jti}`] } : {},
    };
  } catch {
    return undefined;
  }
}

/**
 * Parsing a certificate and verifying its signature is pure but costly (a public key import and an
 * RSA verify per request): the verdict is remembered per certificate and CA text. Bounded, since a
 * long session may see many certificates.
 */
interface VerifiedCert {
  cert: NonNullable<ReturnType<typeof readCertificatePem>>;
  credentialId: string;
}
const VERIFIED = new Map<string, Map<string, VerifiedCert | undefined>>();

function verifiedCert(pem: string, caPem: string): VerifiedCert | undefined {
  // nested by CA, then certificate: the lookups hash the PEM strings the caller holds (V8 keeps a
  // string's hash), not a new joined key per request (20,000 applied objects are 40,000 requests)
  let byCa = VERIFIED.get(caPem);
  if (!byCa) {
    byCa = remember(VERIFIED, caPem, new Map(), 16);
  }
  if (byCa.has(pem)) return byCa.get(pem);
  const cert = readCertificatePem(pem);
  const ca = readCertificatePem(caPem);
  const ok = cert && ca && issuedBy(cert, ca) ? { cert, credentialId: `X509SHA256=${createHash('sha256').update(cert.der).digest('hex')}` } : undefined;
  remember(byCa, pem, ok, 256);
  return ok;
}

function certUser(c: Cluster, pem: string, clock?: ClockTest[]): UserInfo | undefined {
  const caPem = controlPlaneFile(c, runningFlags(c, 'kube-apiserver').get('client-ca-file') ?? `${PKI}/ca.crt`);
  const verified = caPem ? verifiedCert(pem, caPem) : undefined;
  if (!verified) return undefined;
  const { cert } = verified;
  if (clockSays(c, clock, (now) => now < cert.notBefore || now > cert.notAfter)) return undefined;
  const cn = cert.subject.find(([t]) => t === 'CN')?.[1] ?? '';
  const orgs = cert.subject.filter(([t]) => t === 'O').map(([, v]) => v);
  return {
    username: cn,
    groups: [...orgs, 'system:authenticated'],
    extra: { [CREDENTIAL_ID]: [verified.credentialId] },
  };
}

/**
 * One question authentication asked of the clock (a certificate's validity window, a token's
 * expiry) and its answer. Authentication reads the time only through such tests, so at another
 * instant where every test answers the same, it answers the same.
 */
interface ClockTest {
  test: (now: number) => boolean;
  was: boolean;
}

function clockSays(c: Cluster, clock: ClockTest[] | undefined, test: (now: number) => boolean): boolean {
  const was = test(c.now());
  clock?.push({ test, was });
  return was;
}

/**
 * The user a request's credentials prove; undefined when they do not verify (401). `clock`, when
 * given, receives the tests of the time the answer rests on.
 */
export function authenticate(c: Cluster, creds: Credentials, clock?: ClockTest[]): UserInfo | undefined {
  if (creds.clientCertificate !== undefined) {
    const u = certUser(c, creds.clientCertificate, clock);
    if (u) return u;
    if (!creds.token) return undefined;
  }
  if (creds.token !== undefined && creds.token !== '') return tokenUser(c, creds.token, clock);
  return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
}

interface Authentication {
  /** What the answer read besides the credentials and the clock (see authenticateRemembered). */
  key: string;
  store: Store;
  clock: ClockTest[];
  user: UserInfo | undefined;
}

/** authenticateRemembered's memo: by cluster, then client certificate, then token. */
const AUTHENTICATIONS = new WeakMap<Cluster, Map<string | undefined, Map<string | undefined, Authentication>>>();

/**
 * authenticate(), remembered per cluster and credentials from one kubectl command to the next
 * (each verified its client certificate again: its CA file read, its validity checked). Exact
 * because the key holds everything the answer reads: the control plane's files (hostGeneration,
 * which every file write on a node moves) and the two flags of the running API server that name
 * them; for a token also the store (its ServiceAccount, Secret, Node and Pod change counters: the
 * ServiceAccount and a bound token's Pod are looked up); and the clock only through the recorded
 * tests (a certificate's notBefore/notAfter, a token's exp), which must all answer as they did,
 * so the answer changes exactly at those edges. The user is frozen: every holder only reads it.
 * Bounded: 16 certificates, 16 tokens each; never saved.
 */
export function authenticateRemembered(c: Cluster, creds: Credentials): UserInfo | undefined {
  const flags = runningFlags(c, 'kube-apiserver');
  let key = `${c.hostGeneration}|${flags.get('client-ca-file')}|${flags.get('service-account-key-file')}`;
  if (creds.token) {
    const ch = c.store.changes;
    key += `|${ch.get('ServiceAccount') ?? 0}|${ch.get('Secret') ?? 0}|${ch.get('Node') ?? 0}|${ch.get('Pod') ?? 0}`;
  }
  let byCert = AUTHENTICATIONS.get(c);
  if (!byCert) AUTHENTICATIONS.set(c, (byCert = new Map()));
  let byToken = byCert.get(creds.clientCertificate);
  if (!byToken) byToken = remember(byCert, creds.clientCertificate, new Map(), 16);
  const had = byToken.get(creds.token);
  const now = c.now();
  if (had && had.key === key && had.store === c.store && had.clock.every((t) => t.test(now) === t.was)) return had.user;
  const clock: ClockTest[] = [];
  const user = authenticate(c, creds, clock);
  deepFreeze(user);
  remember(byToken, creds.token, { key, store: c.store, clock, user }, 16);
  return user;
}

/**
 * The user an impersonating request runs as: a service account name gets its groups, every
 * name but system:anonymous gets system:authenticated (impersonation.go).
 */
export function impersonatedUser(name: string, groups: readonly string[]): UserInfo {
  const out = [...groups];
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(name);
  if (m && groups.length === 0) out.push('system:serviceaccounts', `system:serviceaccounts:${m[1]}`);
  if (name !== 'system:anonymous' && !out.includes('system:authenticated')) out.push('system:authenticated');
  return { username: name, groups: out };
}
