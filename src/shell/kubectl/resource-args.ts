/**
 * What `kubectl get`/`describe` make of their arguments: cli-runtime pkg/resource/builder.go
 * (ResourceTypeOrNameArgs, replaceAliases, splitResourceTypeName, FilenameParam). Forms accepted:
 * `TYPE`, `TYPE NAME…`, `TYPE1,TYPE2 [NAME…]`, `TYPE/NAME…`, the category `all`, and `-f FILE`
 * (objects named in a manifest). The one resource builder of the shell: the mutating verbs take
 * their targets from it too (parseTargets). Resolution goes through the simulated discovery (the resource
 * registry): plural, singular, kind, short name, `resource.group`.
 */
import type { Discovery, ResourceInfo } from '../../sim/api/registry.js';
import { type ApiError, badRequest } from '../../sim/api/errors.js';
import { FIELD_LABELS, type FieldRequirement, type Requirement, matchFields, matchRequirements, parseFieldSelector, parseLabelSelector } from '../../sim/api/selectors.js';
import type { KObject } from '../../sim/api/types.js';
import type { KubectlEnv } from './context.js';
import { readManifests } from './manifest.js';
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

/**
 * Runs one kubectl command, collecting what resolving its types warns about (`Warning: …` lines,
 * in order, once each). kubectl's RESTMapper is wrapped in client-go's shortcut expander, which
 * reports an ambiguous short name through the warning handler the moment a type is resolved, and
 * kubectl's WarningWriter prints each text once. `fn` gets the list the command's resolutions
 * note into (KubectlEnv.shortNames, passed down to noteShortName). It was an AsyncLocalStorage,
 * whose promise hooks, once enabled, slowed every later promise of the process.
 */
export async function kubectlWarnings<T>(fn: (sink: string[]) => Promise<T>): Promise<{ value: T; warnings: string }> {
  const seen: string[] = [];
  const value = await fn(seen);
  return { value, warnings: seen.map((w) => `Warning: ${w}\n`).join('') };
}

/**
 * Note an ambiguous short name (shortcut.go: `short name %q could also match lower priority
 * resource %s`) in the running command's list (`sink`: KubectlEnv.shortNames; none outside a
 * kubectl command).
 */
export function noteShortName(arg: string, d: Discovery, sink: string[] | undefined): void {
  if (!sink) return;
  for (const long of d.shortNameAlternatives(arg)) {
    const w = `short name ${JSON.stringify(arg)} could also match lower priority resource ${long}`;
    if (!sink.includes(w)) sink.push(w);
  }
}

/** One resource type, as discovery resolves it (no categories). */
export function resolveType(arg: string, d: Discovery, sink: string[] | undefined): ResourceInfo {
  noteShortName(arg, d, sink);
  const info = d.resolve(arg);
  if (!info) throw unknownType(arg);
  return info;
}

/** Resolve one type argument; `all` expands to the `all` category in discovery order. */
export function resolveTypes(arg: string, d: Discovery, sink: string[] | undefined): ResourceInfo[] {
  const out: ResourceInfo[] = [];
  for (const part of arg.split(',')) {
    if (part === '') continue;
    if (part.toLowerCase() === 'all') {
      for (const r of d.category('all')) if (!out.includes(r)) out.push(r);
      continue;
    }
    noteShortName(part, d, sink);
    const info = d.resolve(part);
    if (!info) throw unknownType(part);
    if (!out.includes(info)) out.push(info);
  }
  return out;
}

const TYPE_NAME_MIX =
  "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'";

/** Parse TYPE/NAME and TYPE NAME… argument lists (builder.go ResourceTypeOrNameArgs). */
export function resolveArgs(args: readonly string[], d: Discovery, sink: string[] | undefined): ResolvedArgs {
  const slashed = args.filter((a) => a.includes('/'));
  if (slashed.length > 0) {
    if (slashed.length !== args.length) throw new KubectlError(TYPE_NAME_MIX);
    const requests: ResourceRequest[] = [];
    for (const a of args) {
      const i = a.indexOf('/');
      const type = a.slice(0, i);
      const name = a.slice(i + 1);
      // builder.go splitResourceTypeName
      if (name.includes('/')) throw new KubectlError('arguments in resource/name form may not have more than one slash');
      if (type === '' || name === '') throw new KubectlError(`arguments in resource/name form must have a single resource and name`);
      const infos = resolveTypes(type, d, sink);
      if (infos.length !== 1) throw new KubectlError(`arguments in resource/name form must have a single resource and name`);
      requests.push({ info: infos[0]!, names: [name] });
    }
    return { requests, singleItem: requests.length === 1, byName: true };
  }
  const [typeArg, ...names] = args;
  if (typeArg === undefined) return { requests: [], singleItem: false, byName: false };
  const infos = resolveTypes(typeArg, d, sink);
  if (names.length === 0) return { requests: infos.map((info) => ({ info })), singleItem: false, byName: false };
  return { requests: infos.map((info) => ({ info, names: [...names] })), singleItem: infos.length === 1 && names.length === 1, byName: true };
}

/**
 * `-f FILE|DIR|-` (with -R) for get/describe/delete…: the kind and name of every object in the
 * manifests, read by the one manifest visitor (manifest.ts).
 */
export function resolveFiles(env: KubectlEnv, files: readonly string[], recursive: boolean, verb = 'get'): ResolvedArgs {
  const requests: ResourceRequest[] = readManifests(env, files, recursive, verb).map(({ obj }) => ({
    info: env.cluster.discovery().infoForKind(obj.kind),
    names: [typeof obj.metadata.name === 'string' ? obj.metadata.name : ''],
    ...(typeof obj.metadata.namespace === 'string' ? { namespace: obj.metadata.namespace } : {}),
  }));
  return { requests, singleItem: requests.length === 1, byName: true };
}

/** A (type, name) pair of the mutating verbs. */
export interface Target {
  info: ResourceInfo;
  name: string;
}

/**
 * `deploy web api`, `deploy/web svc/web`, `deploy,svc web`: the same grammar as get's
 * (resolveArgs), as the (type, name) pairs the mutating verbs act on; a type without names is
 * returned in `typesOnly` (for `--all` / `-l`).
 */
export function parseTargets(args: readonly string[], d: Discovery, sink: string[] | undefined): { targets: Target[]; typesOnly: ResourceInfo[] } {
  const { requests } = resolveArgs(args, d, sink);
  return {
    targets: requests.flatMap((r) => (r.names ?? []).map((name) => ({ info: r.info, name }))),
    typesOnly: requests.filter((r) => r.names === undefined).map((r) => r.info),
  };
}


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
