/**
 * kube-apiserver's answer to a GET over HTTP, as `kubectl get --raw`, curl to the secure port (a
 * bearer token or a client certificate) and `kubectl proxy` see it:
 *
 * - the request's attributes (k8s.io/apiserver pkg/endpoints/request/requestinfo.go
 *   RequestInfoFactory: `/api/v1/namespaces/NS/RESOURCE/NAME/SUBRESOURCE`, discovery paths are
 *   non-resource paths, `namespaces/NS/status|finalize` are the namespace's subresources) and RBAC's
 *   decision, a Forbidden Status otherwise (apimachinery pkg/api/errors NewForbidden);
 * - health and version paths (./health.ts);
 * - discovery: `/api` (APIVersions), `/apis` (APIGroupList), `/apis/GROUP` (APIGroup), `/api/v1` and
 *   `/apis/GROUP/VERSION` (APIResourceList, storageVersionHash as endpoints/discovery/storageversionhash.go);
 * - objects and collections, namespaced and cluster-scoped, custom resources included:
 *   `labelSelector`, `fieldSelector` (each kind's field labels), `limit` and `continue` (the etcd3
 *   store's continue token), a List with the store's resourceVersion; NotFound as errors.NewNotFound;
 * - paths no route takes: a NotFound Status under an installed group version (go-restful's
 *   ServiceErrorHandler, errors.NewGenericServerResponse), `404 page not found` elsewhere (the
 *   NotFoundHandler's http.NotFound).
 *
 * JSON is compact unless the request asks for pretty output (handlers/negotiation/negotiate.go
 * isPrettyPrint: `?pretty=` parsed as strconv.ParseBool, else a User-Agent starting with `curl`,
 * `Wget` or `Mozilla/5.0`); see ./wire-json.ts.
 */
import { createHash } from 'node:crypto';
import type { Cluster } from '../cluster.js';
import { ApiServer } from '../apiserver.js';
import { runningFlags } from '../controlplane.js';
import { crdVersion, type CustomResourceDefinition } from './crd.js';
import { ApiError } from './errors.js';
import { apiServerPublicBody } from './health.js';
import { forbiddenText, type RequestAttributes, type UserInfo } from './rbac.js';
import { categoriesOf, qualifiedResource, verbsOf, type ResourceInfo } from './registry.js';
import { FIELD_LABELS, matchFields, matchRequirements, parseFieldSelector, parseLabelSelector, SelectorParseError, type FieldRequirement, type Requirement } from './selectors.js';
import type { KObject } from './types.js';
import { encodeBody, metaValue, wireObject } from './wire-json.js';
import type { GoJson } from '../../util/go-json.js';

export interface RestResponse {
  status: number;
  body: string;
  contentType: string;
}

export interface RestRequest {
  /** The path with its query, as sent (`/api/v1/namespaces/default/pods?limit=1`). */
  path: string;
  /** The authenticated user; undefined for the control plane's own clients (always allowed). */
  user: UserInfo | undefined;
  /** The client's User-Agent (curl/8.14.1, kubectl/v1.35.2 …): curl's gets pretty JSON. */
  userAgent: string;
}

const JSON_TYPE = 'application/json';

/** The attributes of a request (requestinfo.go NewRequestInfo, for GET). */
export interface RequestInfo {
  resource?: { group: string; version: string; resource: string; namespace?: string; name?: string; subresource?: string };
  path: string;
  verb: string;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export function requestInfo(path: string, query: URLSearchParams): RequestInfo {
  const parts = path.split('/').filter(Boolean);
  const watch = ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(query.get('watch') ?? '');
  const nonResource: RequestInfo = { path: path || '/', verb: 'get' };
  let rest: string[];
  let group = '';
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else return nonResource;
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
  }
  const [resource, name, subresource] = rest as [string, string?, string?];
  // `namespaces/NS` names the namespace itself
  const ns = resource === 'namespaces' ? undefined : namespace;
  const verb = name ? 'get' : watch ? 'watch' : 'list';
  return {
    path,
    verb,
    resource: { group, version, resource, ...(ns !== undefined ? { namespace: ns } : {}), ...(name ? { name } : {}), ...(subresource ? { subresource } : {}) },
  };
}

function attributesOf(ri: RequestInfo): RequestAttributes {
  const r = ri.resource;
  if (!r) return { verb: 'get', path: ri.path };
  return { verb: ri.verb, group: r.group, resource: r.resource, ...(r.subresource ? { subresource: r.subresource } : {}), ...(r.namespace !== undefined ? { namespace: r.namespace } : {}), ...(r.name ? { name: r.name } : {}) };
}

interface StatusFields {
  message: string;
  reason: string;
  code: number;
  details?: { name?: string | undefined; group?: string; kind?: string };
}

/** A metav1.Status with status Failure, in its struct order (details has omitempty fields). */
export function statusValue(s: StatusFields): GoJson {
  const details = s.details ? Object.fromEntries(Object.entries(s.details).filter(([, v]) => v)) : undefined;
  return metaValue({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: s.message, reason: s.reason, ...(details ? { details } : {}), code: s.code }, 'Status');
}

function status(s: StatusFields, pretty: boolean): RestResponse {
  return { status: s.code, body: encodeBody(statusValue(s), pretty), contentType: JSON_TYPE };
}

/** strconv.ParseBool: a value it does not know is an error, which isPrettyPrint reads as false. */
function parseBool(v: string): boolean {
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);
}

export function isPrettyPrint(query: URLSearchParams, userAgent: string): boolean {
  const pp = query.get('pretty');
  if (pp) return parseBool(pp);
  return userAgent.startsWith('curl') || userAgent.startsWith('Wget') || userAgent.startsWith('Mozilla/5.0');
}

/** storageversionhash.go: the first 8 bytes of sha256("group/version/kind"), base64. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** Every group/version a resource is served at. */
function versionsOf(r: ResourceInfo): readonly string[] {
  return r.servedVersions ?? [r.version];
}

/** The groups in discovery order, each with its versions (preferred first). */
function groups(c: Cluster): { name: string; versions: string[] }[] {
  const out: { name: string; versions: string[] }[] = [];
  for (const r of c.discovery().resources) {
    if (r.group === '') continue;
    let g = out.find((x) => x.name === r.group);
    if (!g) out.push((g = { name: r.group, versions: [] }));
    for (const v of versionsOf(r)) if (!g.versions.includes(v)) g.versions.push(v);
  }
  return out;
}

function groupValue(g: { name: string; versions: string[] }): Record<string, unknown> {
  const gv = (v: string): Record<string, string> => ({ groupVersion: `${g.name}/${v}`, version: v });
  return { name: g.name, versions: g.versions.map(gv), preferredVersion: gv(g.versions[0]!) };
}

/** Kinds whose registry has a status subresource (what the API server serves as RESOURCE/status). */
const STATUS = new Set(['Namespace', 'Node', 'PersistentVolume', 'PersistentVolumeClaim', 'Pod', 'ReplicationController', 'ResourceQuota', 'Service', 'DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet', 'HorizontalPodAutoscaler', 'CronJob', 'Job', 'CertificateSigningRequest', 'Ingress', 'PodDisruptionBudget', 'APIService', 'CustomResourceDefinition', 'ServiceCIDR', 'FlowSchema', 'PriorityLevelConfiguration', 'VolumeAttachment', 'ResourceClaim', 'ValidatingAdmissionPolicy']);
const SCALE = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/** Whether the resource serves …/status: the built-ins above, a custom resource whose CRD version declares it. */
function hasStatus(c: Cluster, r: ResourceInfo, version: string): boolean {
  if (!r.crd) return STATUS.has(r.kind);
  const crd = c.store.get<CustomResourceDefinition>('CustomResourceDefinition', undefined, r.crd);
  return crd ? crdVersion(crd, version)?.subresources?.status !== undefined : false;
}

function resourceList(c: Cluster, group: string, version: string): GoJson | undefined {
  const rs = c.discovery().resources.filter((r) => r.group === group && versionsOf(r).includes(version));
  if (rs.length === 0) return undefined;
  const entries: Record<string, unknown>[] = [];
  for (const r of [...rs].sort((a, b) => (a.resource < b.resource ? -1 : 1))) {
    entries.push({
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: verbsOf(r),
      ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
      ...(categoriesOf(r).length ? { categories: categoriesOf(r) } : {}),
      storageVersionHash: storageVersionHash(group, r.version, r.kind),
    });
    if (SCALE.has(r.kind) && !r.crd) entries.push({ name: `${r.resource}/scale`, singularName: '', namespaced: r.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
    if (hasStatus(c, r, version)) entries.push({ name: `${r.resource}/status`, singularName: '', namespaced: r.namespaced, kind: r.kind, verbs: ['get', 'patch', 'update'] });
  }
  const gv = group ? `${group}/${version}` : version;
  // the legacy group's list is written without apiVersion (TypeMeta{Kind} only), a group's with v1
  return metaValue({ kind: 'APIResourceList', ...(group ? { apiVersion: 'v1' } : {}), groupVersion: gv, resources: entries }, 'APIResourceList');
}

/** etcd3 store continue token (storage/continue.go EncodeContinue): base64url of {"v","rv","start"}. */
function encodeContinue(startKey: string, rv: string): string {
  // JSON.stringify writes NUL as \u0000, as encoding/json does
  const json = `{"v":"meta.k8s.io/v1","rv":${rv},"start":${JSON.stringify(startKey)}}`;
  return Buffer.from(json, 'utf8').toString('base64url');
}

function decodeContinue(token: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { v?: string; start?: string };
    return parsed.v === 'meta.k8s.io/v1' && typeof parsed.start === 'string' ? parsed.start : undefined;
  } catch {
    return undefined;
  }
}

/** The object as served at `version`: a custom resource's apiVersion names the version asked for (conversion None). */
function atVersion(obj: KObject, info: ResourceInfo, version: string): KObject {
  if (!info.crd) return obj;
  return { ...obj, apiVersion: `${info.group}/${version}` };
}

function listBody(c: Cluster, info: ResourceInfo, version: string, objs: KObject[], meta: Record<string, unknown>, pretty: boolean): string {
  if (info.crd) {
    // an UnstructuredList: every key sorted, items whole; UpdateList always sets continue
    const items = objs.map((o) => atVersion(o, info, version));
    return encodeBody(wireObject({ apiVersion: `${info.group}/${version}`, items, kind: `${info.kind}List`, metadata: { continue: '', ...meta } }, info, `${info.kind}List`), pretty);
  }
  // typed list items carry no TypeMeta: the registry's internal objects are converted without it
  const items = objs.map((o) => {
    const { kind: _k, apiVersion: _a, ...rest } = o as KObject & { apiVersion?: string };
    return wireObject(rest, info, info.kind);
  });
  const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
  const head = wireObject({ kind: `${info.kind}List`, apiVersion, metadata: meta }, info, `${info.kind}List`) as { [k: string]: GoJson };
  return encodeBody({ ...head, items }, pretty);
}

function notFoundGeneric(pretty: boolean): RestResponse {
  return status({ message: 'the server could not find the requested resource', reason: 'NotFound', code: 404, details: {} }, pretty);
}

const PAGE_NOT_FOUND: RestResponse = { status: 404, body: '404 page not found\n', contentType: 'text/plain; charset=utf-8' };

/** A note for what cka-lab does not serve over HTTP (watches, logs, other subresources). */
function notSimulated(what: string): RestResponse {
  return { status: 501, body: `cka-lab does not serve ${what} over HTTP; use kubectl for it\n`, contentType: 'text/plain; charset=utf-8' };
}

function serveResource(c: Cluster, ri: RequestInfo, query: URLSearchParams, pretty: boolean): RestResponse {
  const r = ri.resource!;
  const gvServed = c.discovery().resources.some((x) => x.group === r.group && versionsOf(x).includes(r.version));
  if (!gvServed) return PAGE_NOT_FOUND;
  const info = c.discovery().resources.find((x) => x.group === r.group && x.resource === r.resource && versionsOf(x).includes(r.version));
  // a namespaced resource has no cluster-scoped object route, a cluster-scoped one no namespaced route
  if (!info || (!info.namespaced && r.namespace !== undefined) || (info.namespaced && r.name !== undefined && r.namespace === undefined)) return notFoundGeneric(pretty);
  if (r.subresource !== undefined && r.subresource !== 'status') return notSimulated(`the ${r.resource}/${r.subresource} subresource`);
  if (r.subresource === 'status' && !hasStatus(c, info, r.version)) return notFoundGeneric(pretty);
  if (ri.verb === 'watch') return notSimulated('watches');
  const api = new ApiServer(c);
  if (r.name !== undefined) {
    try {
      const obj = api.get(info.kind, r.namespace, r.name);
      return { status: 200, body: encodeBody(wireObject(atVersion(obj, info, r.version), info, info.kind), pretty), contentType: JSON_TYPE };
    } catch (e) {
      if (e instanceof ApiError && e.reason === 'NotFound') {
        return status({ message: `${qualifiedResource(info)} "${r.name}" not found`, reason: 'NotFound', code: 404, details: { name: r.name, group: info.group, kind: info.resource } }, pretty);
      }
      throw e;
    }
  }
  return serveList(c, api, info, r.version, r.namespace, query, pretty);
}

function serveList(c: Cluster, api: ApiServer, info: ResourceInfo, version: string, namespace: string | undefined, query: URLSearchParams, pretty: boolean): RestResponse {
  const badRequest = (message: string): RestResponse => status({ message, reason: 'BadRequest', code: 400, details: {} }, pretty);
  let labels: Requirement[];
  let fields: FieldRequirement[];
  try {
    labels = parseLabelSelector(query.get('labelSelector') ?? '');
    fields = parseFieldSelector(query.get('fieldSelector') ?? '');
  } catch (e) {
    if (e instanceof SelectorParseError) return badRequest(e.message);
    throw e;
  }
  const allowed = ['metadata.name', 'metadata.namespace', ...(FIELD_LABELS[info.kind] ?? [])];
  // custom resources take metadata.name and metadata.namespace only
  for (const f of fields) if (!allowed.includes(f.path)) return badRequest(`field label not supported: ${f.path}`);
  const rv = c.store.currentResourceVersion();
  // the key relative to the list's prefix (/registry/RESOURCE/[NS/])
  const keyOf = (o: KObject): string => (info.namespaced && namespace === undefined ? `${o.metadata.namespace ?? ''}/${o.metadata.name}` : o.metadata.name);
  let objs = api.list(info.kind, namespace).filter((o) => matchRequirements(labels, o.metadata.labels) && matchFields(fields, o));
  const cont = query.get('continue');
  if (cont) {
    const start = decodeContinue(cont);
    if (start === undefined) return badRequest('continue key is not valid: invalid continue token');
    objs = objs.filter((o) => keyOf(o) >= start);
  }
  const limitText = query.get('limit');
  const limit = limitText && /^\d+$/.test(limitText) ? Number(limitText) : 0;
  const meta: Record<string, unknown> = { resourceVersion: rv };
  if (limit > 0 && objs.length > limit) {
    const page = objs.slice(0, limit);
    meta['continue'] = encodeContinue(`${keyOf(page[page.length - 1]!)}\u0000`, rv);
    // the remaining count is only known without selectors (etcd counts keys, not matches)
    if (labels.length === 0 && fields.length === 0) meta['remainingItemCount'] = objs.length - limit;
    objs = page;
  }
  return { status: 200, body: listBody(c, info, version, objs, meta, pretty), contentType: JSON_TYPE };
}

function serveDiscovery(c: Cluster, path: string, pretty: boolean): RestResponse | undefined {
  const ok = (v: GoJson): RestResponse => ({ status: 200, body: encodeBody(v, pretty), contentType: JSON_TYPE });
  const route = path.replace(/\/+$/, '');
  if (route === '/api') {
    const flags = runningFlags(c, 'kube-apiserver');
    const address = `${flags.get('advertise-address') ?? c.host(c.meta.controlPlane)?.ip ?? ''}:${flags.get('secure-port') ?? '6443'}`;
    return ok(metaValue({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: address }] }, 'APIVersions'));
  }
  if (route === '/apis') return ok(metaValue({ kind: 'APIGroupList', apiVersion: 'v1', groups: groups(c).map(groupValue) }, 'APIGroupList'));
  if (route === '/api/v1') return ok(resourceList(c, '', 'v1')!);
  const g = /^\/apis\/([^/]+)$/.exec(route);
  if (g) {
    const found = groups(c).find((x) => x.name === g[1]);
    return found ? ok(metaValue({ kind: 'APIGroup', apiVersion: 'v1', ...groupValue(found) }, 'APIGroup')) : PAGE_NOT_FOUND;
  }
  const gv = /^\/apis\/([^/]+)\/([^/]+)$/.exec(route);
  if (gv) {
    const list = resourceList(c, gv[1]!, gv[2]!);
    return list ? ok(list) : PAGE_NOT_FOUND;
  }
  return undefined;
}

/** The API server's answer to GET `req.path` from `req.user`. */
export function serveGet(c: Cluster, req: RestRequest): RestResponse {
  const q = req.path.indexOf('?');
  const path = q >= 0 ? req.path.slice(0, q) : req.path;
  const query = new URLSearchParams(q >= 0 ? req.path.slice(q + 1) : '');
  const pretty = isPrettyPrint(query, req.userAgent);
  const ri = requestInfo(path, query);
  if (req.user) {
    const attrs = attributesOf(ri);
    const d = new ApiServer(c).decideFor(req.user, attrs);
    if (!d.allowed) {
      const r = ri.resource;
      const details = r ? { name: r.name, group: r.group, kind: r.resource } : {};
      return status({ message: forbiddenText(req.user, attrs, d.reason), reason: 'Forbidden', code: 403, details }, pretty);
    }
  }
  const publicBody = apiServerPublicBody(c, req.path);
  if (publicBody !== undefined) return { status: 200, body: publicBody, contentType: path.startsWith('/version') ? JSON_TYPE : 'text/plain; charset=utf-8' };
  const discovery = serveDiscovery(c, path, pretty);
  if (discovery) return discovery;
  if (ri.resource) return serveResource(c, ri, query, pretty);
  return PAGE_NOT_FOUND;
}
