/**
 * POST serviceaccounts/NAME/token: the TokenRequest REST storage
 * (k8s.io/kubernetes pkg/registry/core/serviceaccount/storage/token.go TokenREST.Create), as
 * `kubectl create token` meets it. In its order: the service account must exist (its store's
 * NotFound), the request passes ValidateTokenRequest (pkg/apis/authentication/validation:
 * expirationSeconds at least 10 minutes, at most 2^32 s; NewInvalid with an empty name), then a
 * bound object is looked up: a Pod (that must run as this service account), a Secret or a Node,
 * each answering its own NotFound when missing; a UID given that is not the object's is a
 * Conflict. The token then carries the object (and, for a pod, its node) in its claims.
 */
import type { ApiServer } from './apiserver.js';
import { mintServiceAccountToken, type ObjectBinding, type PodBinding } from './authn.js';
import type { Cluster } from './cluster.js';
import { ApiError, badRequest, field, notFound, type FieldError } from './api/errors.js';
import type { KObject, Pod } from './api/types.js';

export interface BoundObjectReference {
  kind: string;
  apiVersion: string;
  name: string;
  uid?: string;
}

export interface TokenRequestSpec {
  /** Defaulted to 3600 (TokenRequestSpec defaults) when unset. */
  expirationSeconds?: number;
  audiences?: string[];
  boundObjectRef?: BoundObjectReference;
}

const MIN_TOKEN_AGE_SEC = 10 * 60;

/** ValidateTokenRequest. */
function validateTokenRequest(exp: number): FieldError[] {
  const errs: FieldError[] = [];
  if (exp < MIN_TOKEN_AGE_SEC) errs.push(field.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 10 minutes'));
  if (exp > 2 ** 32) errs.push(field.invalid('spec.expirationSeconds', exp, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

/** schema.FromAPIVersionAndKind(...).String(): `group/version, Kind=kind`. */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${kind}`;
}

/** The token TokenREST.Create answers with, or its error. */
export function createToken(c: Cluster, api: ApiServer, namespace: string, name: string, spec: TokenRequestSpec): string {
  api.ensureUp();
  api.authorize({ verb: 'create', group: '', resource: 'serviceaccounts', subresource: 'token', name, namespace });
  const discovery = c.discovery();
  const sa = c.store.get('ServiceAccount', namespace, name);
  if (!sa) throw notFound(discovery.infoForKind('ServiceAccount'), name);
  const exp = spec.expirationSeconds ?? 3600;
  const errs = validateTokenRequest(exp);
  if (errs.length) {
    const parts = errs.map((e) => `${e.field}: ${e.body}`);
    throw new ApiError('Invalid', `TokenRequest.authentication.k8s.io "" is invalid: ${parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`}`, 422, { kind: 'TokenRequest', name: '', causes: errs });
  }
  let bound: PodBinding | ObjectBinding | undefined;
  const ref = spec.boundObjectRef;
  if (ref) {
    const core = !ref.apiVersion.includes('/');
    let obj: KObject | undefined;
    if (core && ref.kind === 'Pod') {
      const pod = c.store.get<Pod>('Pod', namespace, ref.name);
      if (!pod) throw notFound(discovery.infoForKind('Pod'), ref.name);
      if ((pod.spec.serviceAccountName ?? 'default') !== name)
        throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
      const nodeName = pod.spec.nodeName ?? '';
      bound = { podName: pod.metadata.name, podUid: pod.metadata.uid ?? '', nodeName, nodeUid: nodeName ? (c.store.get('Node', undefined, nodeName)?.metadata.uid ?? '') : '' };
      obj = pod;
    } else if (core && (ref.kind === 'Secret' || ref.kind === 'Node')) {
      obj = ref.kind === 'Node' ? c.store.get('Node', undefined, ref.name) : c.store.get('Secret', namespace, ref.name);
      if (!obj) throw notFound(discovery.infoForKind(ref.kind), ref.name);
      bound = { kind: ref.kind, name: obj.metadata.name, uid: obj.metadata.uid ?? '' };
    } else throw badRequest(`cannot bind token to object of type ${gvkString(ref.apiVersion, ref.kind)}`);
    if (ref.uid && ref.uid !== obj.metadata.uid)
      // NewConflict(schema.GroupResource{Resource: gvk.Kind}, …): the kind stands where a resource would
      throw new ApiError(
        'Conflict',
        `Operation cannot be fulfilled on ${ref.kind} ${JSON.stringify(ref.name)}: the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
        409,
      );
  }
  const token = mintServiceAccountToken(c, sa, exp, spec.audiences, bound);
  if (!token) throw new ApiError('InternalError', 'failed to generate token: the service account signing key is missing', 500);
  return token;
}
