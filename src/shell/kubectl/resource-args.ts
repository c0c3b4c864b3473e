/**
 * What `kubectl get`/`describe` make of their arguments: cli-runtime pkg/resource/builder.go
 * (ResourceTypeOrNameArgs, replaceAliases, splitResourceTypeName, FilenameParam). Forms accepted:
 * `TYPE`, `TYPE NAME…`, `TYPE1,TYPE2 [NAME…]`, `TYPE/NAME…`, the category `all`, and `-f FILE`
 * (objects named in a manifest). Resolution goes through the simulated discovery (the resource
 * registry): plural, singular, kind, short name, `resource.group`.
 */
import { parseAllDocuments } from 'yaml';
import { RESOURCES, resolveResource, type ResourceInfo } from '../../sim/api/registry.js';
import { type ApiError, badRequest } from '../../sim/api/errors.js';
import { type FieldRequirement, type Requirement, matchFields, matchRequirements, parseFieldSelector, parseLabelSelector } from '../../sim/api/selectors.js';
import type { KObject } from '../../sim/api/types.js';
import type { KubectlFiles } from './context.js';
import { KubectlError } from './errors.js';

/** One request: a type and either every object of it (names undefined) or the named ones. */
export interface ResourceRequest {
  info: ResourceInfo;
  /** Undefined = list; otherwise get by name, in argument order. */
  names?: string[];
  /** For `-f`: the namespace written in the manifest. */
  namespace?: string;
}

export interface ResolvedArgs {
  requests: ResourceRequest[];
  /** builder.go singleItemImplied: exactly one object was asked for by name. */
  singleItem: boolean;
  /** Names were given (by argument or `-f`), so `-A` is not allowed. */
  byName: boolean;
}

/** builder.go: `error: the server doesn't have a resource type "foos"`. */
export function unknownType(arg: string): KubectlError {
  return new KubectlError(`the server doesn't have a resource type "${arg}"`);
}

/** Resolve one type argument; `all` expands to the `all` category in discovery order. */
export function resolveTypes(arg: string): ResourceInfo[] {
  const out: ResourceInfo[] = [];
  for (const part of arg.split(',')) {
    if (part === '') continue;
    if (part.toLowerCase() === 'all') {
      for (const r of RESOURCES) if (r.all === true && !out.includes(r)) out.push(r);
      continue;
    }
    const info = resolveResource(part);
    if (!info) throw unknownType(part);
    if (!out.includes(info)) out.push(info);
  }
  return out;
}

const TYPE_NAME_MIX =
  "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'";

/** Parse TYPE/NAME and TYPE NAME… argument lists (builder.go ResourceTypeOrNameArgs). */
export function resolveArgs(args: readonly string[]): ResolvedArgs {
  const slashed = args.filter((a) => a.includes('/'));
  if (slashed.length > 0) {
    if (slashed.length !== args.length) throw new KubectlError(TYPE_NAME_MIX);
    const requests: ResourceRequest[] = [];
    for (const a of args) {
      const i = a.indexOf('/');
      const type = a.slice(0, i);
      const name = a.slice(i + 1);
      if (type === '' || name === '') throw new KubectlError(`arguments in resource/name form must have a single resource and name`);
      const infos = resolveTypes(type);
      if (infos.length !== 1) throw new KubectlError(`arguments in resource/name form must have a single resource and name`);
      requests.push({ info: infos[0]!, names: [name] });
    }
    return { requests, singleItem: requests.length === 1, byName: true };
  }
  const [typeArg, ...names] = args;
  if (typeArg === undefined) return { requests: [], singleItem: false, byName: false };
  const infos = resolveTypes(typeArg);
  if (names.length === 0) return { requests: infos.map((info) => ({ info })), singleItem: false, byName: false };
  return { requests: infos.map((info) => ({ info, names: [...names] })), singleItem: infos.length === 1 && names.length === 1, byName: true };
}

interface ManifestObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown };
  items?: unknown;
}

function readManifest(fs: KubectlFiles, cwd: string, file: string, stdin: string): string {
  if (file === '-') return stdin;
  const path = file.startsWith('/') ? file : `${cwd.replace(/\/$/, '')}/${file}`;
  const text = fs.tryRead(path);
  if (text === undefined) throw new KubectlError(`the path "${file}" does not exist`);
  return text;
}

/** `-f FILE` for get/describe: the kind and name of every object in the manifest(s). */
export function resolveFiles(fs: KubectlFiles, cwd: string, files: readonly string[], stdin: string): ResolvedArgs {
  const requests: ResourceRequest[] = [];
  for (const file of files) {
    const text = readManifest(fs, cwd, file, stdin);
    let docs: unknown[];
    try {
      docs = parseAllDocuments(text).map((d) => {
        if (d.errors.length > 0) throw d.errors[0];
        return d.toJS() as unknown;
      });
    } catch (e) {
      const first = e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
      throw new KubectlError(`error parsing ${file}: error converting YAML to JSON: yaml: ${first}`);
    }
    const flat: ManifestObject[] = [];
    for (const d of docs) {
      if (d === null || typeof d !== 'object') continue;
      const o = d as ManifestObject;
      if (o.kind === 'List' && Array.isArray(o.items)) flat.push(...(o.items as ManifestObject[]));
      else flat.push(o);
    }
    for (const o of flat) {
      if (typeof o.kind !== 'string' || o.kind === '') throw new KubectlError(`unable to decode "${file}": Object 'Kind' is missing in '${JSON.stringify(o)}'`);
      const info = RESOURCES.find((r) => r.kind === o.kind);
      if (!info) throw new KubectlError(`resource mapping not found for name: "${String(o.metadata?.name ?? '')}" namespace: "${String(o.metadata?.namespace ?? '')}" from "${file}": no matches for kind "${o.kind}" in version "${String(o.apiVersion ?? '')}"`);
      const name = typeof o.metadata?.name === 'string' ? o.metadata.name : '';
      requests.push({ info, names: [name], ...(typeof o.metadata?.namespace === 'string' ? { namespace: o.metadata.namespace } : {}) });
    }
  }
  if (requests.length === 0) throw new KubectlError('no objects passed to get');
  return { requests, singleItem: requests.length === 1, byName: true };
}

/** Field selectors each kind's registry strategy accepts (each pkg/registry/<group>/<kind>/strategy.go GetAttrs, AddFieldLabelConversionFunc). */
const FIELD_LABELS: Record<string, readonly string[]> = {
  Pod: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  Node: ['spec.unschedulable'],
  Event: [
    'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
    'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type',
  ],
  Secret: ['type'],
  Namespace: ['status.phase'],
  ReplicaSet: ['status.replicas'],
  ReplicationController: ['status.replicas'],
  Job: ['status.successful'],
  Service: ['spec.clusterIP', 'spec.type'],
  CertificateSigningRequest: ['spec.signerName'],
};

/** `/v1, Resource=pods`: schema.GroupVersionResource.String(). */
function gvrString(info: ResourceInfo): string {
  return `${info.group}/${info.version}, Resource=${info.resource}`;
}

export interface Selectors {
  label?: string;
  field?: string;
}

/**
 * The server's answer to a list with selectors, and cli-runtime resource/selector.go's rewording
 * of a BadRequest: `Unable to find "/v1, Resource=pods" that match label selector "", field selector "x": …`.
 */
export function selectObjects<T extends KObject>(objs: readonly T[], info: ResourceInfo, sel: Selectors): T[] {
  const label = sel.label ?? '';
  const fieldSel = sel.field ?? '';
  const bad = (msg: string): ApiError =>
    badRequest(`Unable to find "${gvrString(info)}" that match label selector "${label}", field selector "${fieldSel}": ${msg}`);
  let labelReqs: Requirement[];
  let fieldReqs: FieldRequirement[];
  try {
    labelReqs = parseLabelSelector(label);
    fieldReqs = parseFieldSelector(fieldSel);
  } catch (e) {
    throw bad(e instanceof Error ? e.message : String(e));
  }
  const allowed = ['metadata.name', 'metadata.namespace', ...(FIELD_LABELS[info.kind] ?? [])];
  for (const r of fieldReqs) if (!allowed.includes(r.path)) throw bad(`field label not supported: ${r.path}`);
  return objs.filter((o) => matchRequirements(labelReqs, o.metadata.labels) && matchFields(fieldReqs, o));
}
