/**
 * The API server's ClusterIP repair loop over IPAddress objects
 * (pkg/registry/core/service/ipallocator/controller/repairip.go, v1.33+: networking/v1, started by
 * the core REST storage provider with Services.IPRepairInterval, repairLoopInterval = 3 minutes in
 * pkg/controlplane/instance.go). What a user sees of it here: an IPAddress the allocator made for
 * a ClusterIP (sim/virtual-objects.ts) can be deleted like any object, and nothing notices at
 * once (the IPAddress informer's delete handler finds nothing to sync); the Services informer's
 * resync, every interval since the kube-apiserver started (AddEventHandlerWithResyncPeriod
 * before the informers start, so the resync check runs at that period), queues every Service,
 * and syncService finds the ClusterIP without its IPAddress: it records a Warning Event on the
 * Service through the events.k8s.io/v1 recorder (reason ClusterIPNotAllocated, action
 * ClusterIPAllocation, "Cluster IP [IPv4]: 10.96.0.10 is not allocated; repairing") and creates
 * the IPAddress again (newIPAddress: same name, labels and parentRef; a new object, so a new uid
 * and creation time). A restarted kube-apiserver repairs at once (RunUntil's first runOnce).
 *
 * The same controller's IPAddress queue (repairip.go syncIPAddress, fed by the IPAddress
 * informer's add/update/delete handlers) looks after stored IPAddresses labelled
 * `ipaddress.kubernetes.io/managed-by: ipallocator.k8s.io` (one a user created or restored;
 * the allocator's own are derived from their Services): one whose parent Service does not exist
 * is, for its first 60 seconds (gracePeriod, the kube-apiserver's default request timeout, while
 * a Service may still be being created), an address in use, so a Service asking for it gets
 * `provided IP is already allocated`; once older than that, the loop records the Warning
 * `IPAddressNotAllocated` "IPAddress: IP for Service NS/NAME appears to have leaked: cleaning up"
 * on it and deletes it (requeued AddAfter the rest of the grace period). One whose Service exists
 * without that ClusterIP is deleted at once with `IPAddressWrongReference` "IPAddress: IP for
 * Service NS/NAME has a wrong reference; cleaning up". Unlabelled IPAddresses are not its own
 * and stay (and keep their address allocated). A labelled one whose parentRef is not a core
 * Service is deleted at once (IPAddressNotAllocated, "appears to have been modified").
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Service } from '../api/types.js';
import { ipFamilyOf } from '../../util/ip.js';
import { staticPods } from '../node/runtime.js';
import { tickAtOrAfter } from '../node/runtime-health.js';

/** repairLoopInterval (pkg/controlplane/instance.go): the Services informer's resync period. */
export const IP_REPAIR_INTERVAL_MS = 3 * 60_000;

/** events.NewRecorder(scheme, "ipallocator-repair-controller"): the reporting controller. */
const CONTROLLER = 'ipallocator-repair-controller';

/** A ClusterIP whose IPAddress was deleted: by the Service (uid) that holds it, when, and when the loop made it again. */
export interface IpRepairEntry {
  service: string;
  deletedAt: number;
  repairedAt?: number;
}

/** By address. */
export type IpRepairState = Record<string, IpRepairEntry>;

/** The entry that applies to `ip` of the Service with uid `svcUid`, if any. */
export function ipRepairEntry(c: Cluster, ip: string, svcUid: string | undefined): IpRepairEntry | undefined {
  const e = c.state.ipAddressRepair?.[ip];
  return e && e.service === (svcUid ?? '') ? e : undefined;
}

/** The API server deleted the allocator's IPAddress of `ip`, held by `svc`: it is gone until the repair loop makes it again. */
export function allocatorIPAddressDeleted(c: Cluster, ip: string, svc: Service): void {
  const e: IpRepairEntry = { service: svc.metadata.uid ?? '', deletedAt: c.now() };
  (c.state.ipAddressRepair ??= {})[ip] = e;
  const at = repairAt(c, e);
  if (at !== undefined) c.wakeAt(at, NAME);
}

const NAME = 'ipallocator-repair';

/** ipallocator.ControllerName: the managed-by label value of the allocator's IPAddresses. */
const MANAGED_BY = 'ipallocator.k8s.io';

/** repairip.go syncIPAddress gracePeriod: how long an IPAddress may wait for its Service. */
export const IP_LEAK_GRACE_MS = 60_000;

interface IPAddressObject {
  metadata: { name: string; labels?: Record<string, string>; creationTimestamp?: string };
  spec?: { parentRef?: { group?: string; resource?: string; namespace?: string; name?: string } };
}

/**
 * Go's %v of the *ParentReference (networking/v1 types.go: Group, Resource, Namespace, Name in
 * that order): `&{apps deployments default web}`, an empty field leaving its blank.
 */
function goParentRef(ref: NonNullable<IPAddressObject['spec']>['parentRef'] & object): string {
  return `&{${ref.group ?? ''} ${ref.resource ?? ''} ${ref.namespace ?? ''} ${ref.name ?? ''}}`;
}

/**
 * repairip.go syncIPAddress for the stored IPAddresses the allocator manages. One that does not
 * reference a core Service ("created by the service allocator, something else have changed it")
 * is deleted at once with the Warning IPAddressNotAllocated "IPAddress NAME appears to have been
 * modified, not referencing a Service %v: cleaning up" (read from the v1alpha1-era repairip.go;
 * the branch and its words are unchanged by the move to networking/v1).
 */
function syncIPAddresses(c: Cluster, node: string): void {
  for (const obj of c.store.list('IPAddress')) {
    const ipa = obj as unknown as IPAddressObject;
    if (ipa.metadata.labels?.['ipaddress.kubernetes.io/managed-by'] !== MANAGED_BY) continue;
    const ref = ipa.spec?.parentRef ?? {};
    const name = ipa.metadata.name;
    // the allocator's label on an address that references something else: changed by someone, deleted at once
    if ((ref.group ?? '') !== '' || ref.resource !== 'services') {
      const note = `IPAddress ${name} appears to have been modified, not referencing a Service ${goParentRef(ref)}: cleaning up`;
      c.recordEventV1(obj, { type: 'Warning', reason: 'IPAddressNotAllocated', action: 'IPAddressAllocation', note, reportingController: CONTROLLER, reportingInstance: `${CONTROLLER}-${node}` });
      c.deleteObject('IPAddress', undefined, name);
      continue;
    }
    const ns = ref.namespace ?? '';
    const svc = c.store.get<Service>('Service', ns, ref.name ?? '');
    let reason: string;
    let note: string;
    if (!svc) {
      const created = Date.parse(ipa.metadata.creationTimestamp ?? '');
      const cleanAt = (Number.isNaN(created) ? c.now() : created) + IP_LEAK_GRACE_MS;
      // ipLifetime > gracePeriod
      if (!(c.now() > cleanAt)) {
        c.wakeAt(cleanAt + 1);
        continue;
      }
      reason = 'IPAddressNotAllocated';
      note = `IPAddress: ${name} for Service ${ns}/${ref.name ?? ''} appears to have leaked: cleaning up`;
    } else {
      if ((svc.spec.clusterIPs ?? (svc.spec.clusterIP ? [svc.spec.clusterIP] : [])).includes(name)) continue;
      reason = 'IPAddressWrongReference';
      note = `IPAddress: ${name} for Service ${ns}/${svc.metadata.name} has a wrong reference; cleaning up`;
    }
    c.recordEventV1(obj, { type: 'Warning', reason, action: 'IPAddressAllocation', note, reportingController: CONTROLLER, reportingInstance: `${CONTROLLER}-${node}` });
    c.deleteObject('IPAddress', undefined, name);
  }
}

/** When the loop repairs the entry: the first resync of the running kube-apiserver's informers after the deletion (its start, when it started since). */
function repairAt(c: Cluster, e: IpRepairEntry): number | undefined {
  const run = c.state.apiserver?.up === false ? undefined : apiServerRun(c);
  return run ? tickAtOrAfter(run.since, IP_REPAIR_INTERVAL_MS, e.deletedAt + 1) : undefined;
}

/** The running kube-apiserver container's start and node, from the kubelet's static pod records. */
function apiServerRun(c: Cluster): { since: number; node: string } | undefined {
  for (const [node, pods] of Object.entries(staticPods(c)))
    for (const r of Object.values(pods)) if (r.name.startsWith('kube-apiserver') && r.running) return { since: r.since, node };
  return undefined;
}

/** The Service that still holds `ip` and is the one the entry was made for. */
function holder(c: Cluster, ip: string, e: IpRepairEntry): Service | undefined {
  for (const svc of c.store.list<Service>('Service')) {
    if ((svc.metadata.uid ?? '') !== e.service) continue;
    const ips = svc.spec.clusterIPs ?? (svc.spec.clusterIP ? [svc.spec.clusterIP] : []);
    return ips.includes(ip) ? svc : undefined;
  }
  return undefined;
}

export const ipAllocatorRepairController: Controller = {
  name: NAME,
  // its Services, the kube-apiserver's mirror pod (a restart repairs at once), its resync times
  watches: ['Service', 'IPAddress', 'Pod@kube-system', 'time'],
  reconcile(c: Cluster): void {
    const running = c.state.apiserver?.up === false ? undefined : apiServerRun(c);
    if (running) syncIPAddresses(c, running.node);
    const state = c.state.ipAddressRepair;
    if (!state) return;
    for (const [ip, e] of Object.entries(state)) {
      const svc = holder(c, ip, e);
      // released with its Service (or its ClusterIP): nothing left to repair or remember
      if (!svc) {
        delete state[ip];
        continue;
      }
      if (e.repairedAt !== undefined) continue;
      const run = c.state.apiserver?.up === false ? undefined : apiServerRun(c);
      const at = repairAt(c, e);
      if (!run || at === undefined) continue;
      if (c.now() < at) {
        c.wakeAt(at);
        continue;
      }
      const family = ipFamilyOf(ip) ?? 'IPv4';
      c.recordEventV1(svc, {
        type: 'Warning',
        reason: 'ClusterIPNotAllocated',
        action: 'ClusterIPAllocation',
        note: `Cluster IP [${family}]: ${ip} is not allocated; repairing`,
        reportingController: CONTROLLER,
        reportingInstance: `${CONTROLLER}-${run.node}`,
      });
      e.repairedAt = c.now();
    }
    if (Object.keys(state).length === 0) delete c.state.ipAddressRepair;
  },
};
