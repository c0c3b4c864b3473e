/**
 * The apiextensions-apiserver's own controllers for CustomResourceDefinitions, which run inside
 * kube-apiserver: the naming controller (pkg/controller/status/naming_controller.go) accepts a
 * CRD's names unless another CRD of its group holds one (NamesAccepted), and the establishing
 * controller (pkg/controller/establish/establishing_controller.go) then marks it Established, from
 * which moment discovery serves its resource (sim/api/crd.ts discoveryOf).
 */
import type { Cluster, Controller } from '../cluster.js';
import { clone } from '../api/store.js';
import { calculateNames, type CrdCondition, type CustomResourceDefinition } from '../api/crd.js';
import { SyncMemo } from './sync-memo.js';

/** apiextensions helpers.SetCRDCondition: the transition time moves only when the status does. */
export function setCondition(conds: CrdCondition[], next: Omit<CrdCondition, 'lastTransitionTime'>, now: string): CrdCondition[] {
  const i = conds.findIndex((c) => c.type === next.type);
  const old = conds[i];
  const merged: CrdCondition = { ...next, lastTransitionTime: old && old.status === next.status ? old.lastTransitionTime! : now };
  if (i < 0) return [...conds, merged];
  const out = [...conds];
  out[i] = merged;
  return out;
}

function reconcileOne(c: Cluster, crd: CustomResourceDefinition, all: readonly CustomResourceDefinition[]): void {
  const now = c.timestamp();
  const { accepted, condition } = calculateNames(crd, all);
  let conds = setCondition(crd.status?.conditions ?? [], condition, now);
  const established = conds.find((x) => x.type === 'Established');
  if (condition.status === 'True') {
    // the naming controller's "Installing" step and the establishing controller's flip, at once
    if (established?.status !== 'True') conds = setCondition(conds, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now);
  } else if (!established) conds = setCondition(conds, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
  const storage = crd.spec.versions?.find((v) => v.storage)?.name;
  const stored = crd.status?.storedVersions ?? [];
  const storedVersions = storage && !stored.includes(storage) ? [...stored, storage] : stored;
  const status = { ...(accepted ? { acceptedNames: accepted } : {}), conditions: conds, storedVersions };
  if (JSON.stringify(status) === JSON.stringify(crd.status)) return;
  const upd = clone(crd);
  upd.status = status;
  c.write(upd);
}

export const crdStatusController: Controller = {
  name: 'crd-status',
  watches: ['CustomResourceDefinition'],
  reconcile(c: Cluster): void {
    const all = c.store.list<CustomResourceDefinition>('CustomResourceDefinition');
    for (const crd of [...all]) {
      const current = c.store.list<CustomResourceDefinition>('CustomResourceDefinition');
      crdStatusMemo.sync(c, [crd, ...current.filter((o) => o.spec.group === crd.spec.group)], () => reconcileOne(c, crd, current));
    }
  },
};

/**
 * The CRDs whose names and conditions a run found as they are (sync-memo.ts): a run reads the CRD
 * and the other CRDs of its group (calculateNames looks at no others), and time only stamps a
 * condition it changes, a write. So a CRD of another group created or settled does not run every
 * CRD's naming again (a chart's or Gateway API's CRDs, applied one by one, ran n² of them).
 */
export const crdStatusMemo = new SyncMemo();
