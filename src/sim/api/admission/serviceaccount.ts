/**
 * The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount/admission.go, v1.35).
 * On pod create: a pod without a service account gets `default`; the account must exist
 * (`error looking up service account NS/NAME: serviceaccount "NAME" not found`); unless the pod
 * or its account turns automounting off, a projected `kube-api-access-XXXXX` volume (the bound
 * token, kube-root-ca.crt's ca.crt and the namespace, TokenVolumeSource) is added and mounted
 * read-only at /var/run/secrets/kubernetes.io/serviceaccount in every init and app container that
 * has nothing mounted there yet; the account's imagePullSecrets are copied when the pod has none.
 * Mirror pods (static pods' API copies) are left alone.
 */
import type { Container, KObject, Pod, Volume } from '../types.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const VOLUME_PREFIX = 'kube-api-access-';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: 1 hour and 7 seconds. */
const EXPIRATION_SECONDS = 3607;
const MIRROR = 'kubernetes.io/config.mirror';

interface ServiceAccount extends KObject {
  automountServiceAccountToken?: boolean;
  imagePullSecrets?: { name: string }[];
}

/** apiserver SimpleNameGenerator's alphabet (util/rand: no vowels, no 0/1/3 look-alikes). */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The 5-character suffix SimpleNameGenerator would draw; derived from the pod and the store's write
 * count rather than the cluster's random stream, so adding the volume leaves other draws as they were.
 */
function suffix(seed: string): string {
  let h = 0x811c9dc5;
  let out = '';
  for (let k = 0; out.length < 5; k++) {
    for (const ch of `${seed}/${k}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += ALPHANUMS[h % ALPHANUMS.length];
  }
  return out;
}

function isPodCreate(a: AdmissionAttributes): boolean {
  return a.obj.kind === 'Pod' && a.operation === 'CREATE';
}

function account(a: AdmissionAttributes, name: string): ServiceAccount | undefined {
  return a.store.get<ServiceAccount>('ServiceAccount', a.namespace, name);
}

/** shouldAutomount: the pod's preference wins, then the account's, else true. */
function shouldAutomount(sa: ServiceAccount, pod: Pod): boolean {
  const own = (pod.spec as { automountServiceAccountToken?: boolean }).automountServiceAccountToken;
  if (own !== undefined) return own;
  return sa.automountServiceAccountToken ?? true;
}

/** TokenVolumeSource, with the defaults the API server's decoding adds (defaultMode 420). */
function tokenVolume(name: string): Volume {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
        { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
      ],
    },
  };
}

function mountToken(pod: Pod, seed: string): void {
  const volumes = (pod.spec.volumes ??= []);
  let name = volumes.find((v) => v.name.startsWith(VOLUME_PREFIX))?.name;
  const has = name !== undefined;
  name ??= `${VOLUME_PREFIX}${suffix(seed)}`;
  let needed = false;
  const mount = (ct: Container): void => {
    const mounts = (ct.volumeMounts ??= []);
    if (mounts.some((m) => m.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH)) return;
    mounts.push({ name: name!, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH });
    needed = true;
  };
  // a malformed spec (containers: null) is refused by validation afterwards; leave it as it came
  for (const list of [pod.spec.initContainers, pod.spec.containers]) if (Array.isArray(list)) for (const ct of list) if (ct && typeof ct === 'object') mount(ct);
  if (!has && needed) volumes.push(tokenVolume(name));
  if (volumes.length === 0) delete pod.spec.volumes;
}

export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  mutate(a) {
    if (!isPodCreate(a)) return;
    const pod = a.obj as Pod;
    if (pod.metadata.annotations?.[MIRROR] !== undefined || !pod.spec || typeof pod.spec !== 'object') return;
    pod.spec.serviceAccountName ||= 'default';
    const sa = account(a, pod.spec.serviceAccountName);
    // a missing account is refused by the validating half with the same words
    if (!sa) return;
    if (shouldAutomount(sa, pod)) mountToken(pod, `${a.namespace}/${pod.metadata.name}/${a.store.currentResourceVersion()}`);
    const pull = pod.spec['imagePullSecrets'] as unknown[] | undefined;
    if (!pull?.length && sa.imagePullSecrets?.length) pod.spec['imagePullSecrets'] = sa.imagePullSecrets.map((s) => ({ name: s.name }));
  },
  validate(a) {
    if (!isPodCreate(a)) return undefined;
    const pod = a.obj as Pod;
    if (pod.metadata.annotations?.[MIRROR] !== undefined) return undefined;
    const name = pod.spec.serviceAccountName || 'default';
    if (!account(a, name)) return `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`;
    return undefined;
  },
};
