/**
 * The LimitRanger admission plugin (plugin/pkg/admission/limitranger/admission.go). Mutating:
 * a container without a request or limit for a resource the namespace's LimitRanges default
 * gets `defaultRequest` / `default`, and the pod is annotated `kubernetes.io/limit-ranger`.
 * Validating: Container and Pod min/max/maxLimitRequestRatio, PersistentVolumeClaim storage
 * min/max, with the plugin's own error texts. Pods are checked on create only (their containers'
 * resources cannot change through an update); claims on create and update.
 */
import type { Container, KObject, Pod } from '../types.js';
import type { PersistentVolumeClaim } from '../storage.js';
import { aggregate, type AdmissionAttributes, type AdmissionPlugin } from './types.js';
import { milli, podTotal, type ResourceList } from './resources.js';

export interface LimitRangeItem {
  type: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

export interface LimitRange extends KObject {
  spec: { limits: LimitRangeItem[] };
}

const ANNOTATION = 'kubernetes.io/limit-ranger';

/** Map iteration in Go is random; the simulator walks resource names in sorted order. */
const sortedEntries = (r: ResourceList | undefined): [string, string][] => Object.entries(r ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

function limitRanges(a: AdmissionAttributes): LimitRange[] {
  return a.store.list<LimitRange>('LimitRange', a.namespace);
}

function supports(a: AdmissionAttributes): boolean {
  if (a.obj.kind === 'Pod') return a.operation === 'CREATE';
  return a.obj.kind === 'PersistentVolumeClaim';
}

/** mergeContainerResources: fill what the container lacks; the annotation's phrases. */
function mergeContainer(c: Container, defLimits: ResourceList, defRequests: ResourceList, prefix: string, notes: string[]): void {
  const res = (c.resources ??= {});
  const limits = (res.limits ??= {});
  const requests = (res.requests ??= {});
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of Object.entries(defLimits)) {
    if (limits[k] === undefined) {
      limits[k] = v;
      setLimits.push(k);
    }
  }
  for (const [k, v] of Object.entries(defRequests)) {
    if (requests[k] === undefined) {
      requests[k] = v;
      setRequests.push(k);
    }
  }
  if (Object.keys(limits).length === 0) delete res.limits;
  if (Object.keys(requests).length === 0) delete res.requests;
  if (Object.keys(res).length === 0) delete c.resources;
  if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${c.name}`);
  if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${c.name}`);
}

/** PodMutateLimitFunc for one LimitRange. */
export function defaultPodResources(lr: LimitRange, pod: Pod): void {
  const defLimits: ResourceList = {};
  const defRequests: ResourceList = {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(defRequests, item.defaultRequest ?? {});
    Object.assign(defLimits, item.default ?? {});
  }
  const notes: string[] = [];
  for (const c of pod.spec.containers ?? []) mergeContainer(c, defLimits, defRequests, 'container', notes);
  for (const c of pod.spec.initContainers ?? []) mergeContainer(c, defLimits, defRequests, 'init container', notes);
  if (notes.length) (pod.metadata.annotations ??= {})[ANNOTATION] = `LimitRanger plugin set: ${notes.join('; ')}`;
}

export function minConstraint(type: string, r: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request[r];
  const lim = limit[r];
  if (req === undefined) return `minimum ${r} usage per ${type} is ${enforced}.  No request is specified`;
  if (milli(req) < milli(enforced)) return `minimum ${r} usage per ${type} is ${enforced}, but request is ${req}`;
  if (lim !== undefined && milli(lim) < milli(enforced)) return `minimum ${r} usage per ${type} is ${enforced}, but limit is ${lim}`;
  return undefined;
}

export function maxConstraint(type: string, r: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request[r];
  const lim = limit[r];
  if (lim === undefined) return `maximum ${r} usage per ${type} is ${enforced}.  No limit is specified`;
  if (milli(lim) > milli(enforced)) return `maximum ${r} usage per ${type} is ${enforced}, but limit is ${lim}`;
  if (req !== undefined && milli(req) > milli(enforced)) return `maximum ${r} usage per ${type} is ${enforced}, but request is ${req}`;
  return undefined;
}

/** maxRequestConstraint: claims have requests only. */
function maxRequestConstraint(type: string, r: string, enforced: string, request: ResourceList): string | undefined {
  const req = request[r];
  if (req === undefined) return `maximum ${r} usage per ${type} is ${enforced}.  No request is specified`;
  if (milli(req) > milli(enforced)) return `maximum ${r} usage per ${type} is ${enforced}, but request is ${req}`;
  return undefined;
}

export function ratioConstraint(type: string, r: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request[r];
  const lim = limit[r];
  const reqM = milli(req);
  const limM = milli(lim);
  if (req === undefined || reqM === 0n) return `${r} max limit to request ratio per ${type} is ${enforced}, but no request is specified or request is 0`;
  if (lim === undefined || limM === 0n) return `${r} max limit to request ratio per ${type} is ${enforced}, but no limit is specified or limit is 0`;
  const observed = Number(limM) / Number(reqM);
  if (observed * 1000 > Number(milli(enforced))) return `${r} max limit to request ratio per ${type} is ${enforced}, but provided ratio is ${observed.toFixed(6)}`;
  return undefined;
}

type Constraint = (type: string, r: string, enforced: string, request: ResourceList, limit: ResourceList) => string | undefined;

function checkItem(item: LimitRangeItem, request: ResourceList, limit: ResourceList, errs: string[]): void {
  const apply = (list: ResourceList | undefined, f: Constraint): void => {
    for (const [k, v] of sortedEntries(list)) {
      const e = f(item.type, k, v, request, limit);
      if (e) errs.push(e);
    }
  };
  apply(item.min, minConstraint);
  apply(item.max, maxConstraint);
  apply(item.maxLimitRequestRatio, ratioConstraint);
}

/** PodValidateLimitFunc for one LimitRange. */
export function validatePodLimits(lr: LimitRange, pod: Pod): string[] {
  const errs: string[] = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) checkItem(item, c.resources?.requests ?? {}, c.resources?.limits ?? {}, errs);
    }
    if (item.type === 'Pod') checkItem(item, podTotal(pod, 'requests'), podTotal(pod, 'limits'), errs);
  }
  return errs;
}

/** PersistentVolumeClaimValidateLimitFunc for one LimitRange. */
export function validateClaimLimits(lr: LimitRange, pvc: PersistentVolumeClaim): string[] {
  const errs: string[] = [];
  const requests = (pvc.spec.resources?.requests ?? {}) as ResourceList;
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of sortedEntries(item.min)) {
      const e = minConstraint(item.type, k, v, requests, {});
      if (e) errs.push(e);
    }
    for (const [k, v] of sortedEntries(item.max)) {
      const e = maxRequestConstraint(item.type, k, v, requests);
      if (e) errs.push(e);
    }
  }
  return errs;
}

export const limitRanger: AdmissionPlugin = {
  name: 'LimitRanger',
  mutate(a) {
    if (!supports(a) || a.obj.kind !== 'Pod') return;
    for (const lr of limitRanges(a)) defaultPodResources(lr, a.obj as Pod);
  },
  validate(a) {
    if (!supports(a)) return undefined;
    // each LimitRange is a separate check; the first that fails is the error (Validate returns on it)
    for (const lr of limitRanges(a)) {
      const errs = a.obj.kind === 'Pod' ? validatePodLimits(lr, a.obj as Pod) : validateClaimLimits(lr, a.obj as PersistentVolumeClaim);
      const msg = aggregate(errs);
      if (msg) return msg;
    }
    return undefined;
  },
};

/** SetDefaults_LimitRangeItem (pkg/apis/core/v1/defaults.go): Container defaults from max and min. */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    const def = (item.default ??= {});
    const defReq = (item.defaultRequest ??= {});
    for (const [k, v] of Object.entries(item.max ?? {})) def[k] ??= v;
    for (const [k, v] of Object.entries(def)) defReq[k] ??= v;
    for (const [k, v] of Object.entries(item.min ?? {})) defReq[k] ??= v;
    if (Object.keys(def).length === 0) delete item.default;
    if (Object.keys(defReq).length === 0) delete item.defaultRequest;
  }
}
