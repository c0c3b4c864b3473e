/**
 * Validation of writes to the status subresource (PUT/PATCH …/NAME/status) of the built-in kinds,
 * with the API server's wording. The status strategies validate with these functions instead of
 * the whole-object ones (pkg/registry/core/pod/strategy.go podStatusStrategy.ValidateUpdate,
 * pkg/registry/apps/deployment/strategy.go deploymentStatusStrategy, replicaset's likewise,
 * pkg/registry/core/node/strategy.go nodeStatusStrategy):
 *
 * - pods: k8s.io/kubernetes pkg/apis/core/validation/validation.go ValidatePodStatusUpdate
 *   (validatePodConditions, nominatedNodeName, the immutable qosClass, ValidateContainerStateTransition
 *   and ValidateInitContainerStateTransition, validatePodResourceClaimStatuses, validatePodIPs,
 *   validateHostIPs);
 * - deployments and replica sets: pkg/apis/apps/validation/validation.go
 *   ValidateDeploymentStatusUpdate / ValidateDeploymentStatus, ValidateReplicaSetStatusUpdate /
 *   ValidateReplicaSetStatus;
 * - nodes: ValidateNodeUpdate's status rules (ValidateNodeResources, duplicate addresses).
 *
 * The metadata rules these functions start with (ValidateObjectMetaUpdate) cannot fail here: the
 * status write keeps the stored object's metadata. The container user and
 * allocatedResourcesStatus checks are not ported.
 */
import { type FieldError, field, goQuote } from './errors.js';
import { parseIPSloppy } from '../../util/go-ip.js';
import { canonicalQuantity, parseQuantity } from './quantity.js';
import { qualifiedNameProblems, subdomainProblems } from './validation.js';
import type { ContainerStatus, KObject, Pod } from './types.js';

const NEGATIVE = 'must be greater than or equal to 0';

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** apimachinery ValidateNonnegativeField. */
function nonNegative(path: string, value: number): FieldError[] {
  return value < 0 ? [field.invalid(path, value, NEGATIVE)] : [];
}

/**
 * podStatusStrategy.PrepareForUpdate: a status without qosClass keeps the stored one (old kubelets
 * dropped it). And the v1 → internal → v1 round trip of the pod IPs (pkg/apis/core/v1/conversion.go
 * Convert_v1_PodStatus_To_core_PodStatus / Convert_core_PodStatus_To_v1_PodStatus): the internal
 * status has only podIPs; podIP is authoritative when both are sent and differ ("for compatibility
 * with patch by older clients": podIPs becomes [podIP]) or when podIPs is empty, and podIP is
 * written back as podIPs[0]. So a patch of podIP alone replaces the whole list, and one of
 * podIPs alone that changes the first address is undone by the stored podIP. (hostIP and hostIPs
 * are both internal fields: a mismatch is validateHostIPs' error instead.)
 */
export function prepareStatusUpdate(next: KObject, old: KObject): void {
  if (next.kind !== 'Pod') return;
  const status = (next['status'] ??= {}) as Obj;
  const before = asObj(old['status'])['qosClass'];
  if ((status['qosClass'] === undefined || status['qosClass'] === '') && before !== undefined) status['qosClass'] = before;
  const podIP = typeof status['podIP'] === 'string' ? status['podIP'] : '';
  const podIPs = Array.isArray(status['podIPs']) ? (status['podIPs'] as unknown[]) : [];
  const first = asObj(podIPs[0])['ip'];
  if (podIP !== '' && (podIPs.length === 0 || first !== podIP)) status['podIPs'] = [{ ip: podIP }];
  const ips = Array.isArray(status['podIPs']) ? (status['podIPs'] as unknown[]) : [];
  if (ips.length > 0) status['podIP'] = ipText(asObj(ips[0])['ip']);
  else if (status['podIPs'] !== undefined && ips.length === 0) delete status['podIPs'];
}

/** The status strategy's ValidateUpdate for kinds that have one here; undefined for the others. */
export function statusUpdateErrors(next: KObject, old: KObject): FieldError[] | undefined {
  switch (next.kind) {
    case 'Pod':
      return validatePodStatusUpdate(next as Pod, old as Pod);
    case 'Deployment':
      return validateDeploymentStatusUpdate(asObj(next['status']), asObj(old['status']));
    case 'ReplicaSet':
      return validateReplicaSetStatus(asObj(next['status']));
    case 'Node':
      return validateNodeStatus(asObj(next['status']));
    default:
      return undefined;
  }
}

/** ValidatePodStatusUpdate. */
export function validatePodStatusUpdate(next: Pod, old: Pod): FieldError[] {
  const status = next.status ?? {};
  const before = old.status ?? {};
  // validatePodConditions, called with the metadata path: upstream reports `metadata.conditions[i].Type`
  const system = new Set(['PodScheduled', 'Ready', 'Initialized']);
  const errs: FieldError[] = (status.conditions ?? []).flatMap((c, i) =>
    system.has(c.type) ? [] : qualifiedNameProblems(c.type ?? '').map((m) => field.invalid(`metadata.conditions[${i}].Type`, c.type ?? '', m)),
  );
  if ((next.spec?.nodeName ?? '') !== (old.spec?.nodeName ?? '')) errs.push(field.forbidden('status.nodeName', 'may not be changed directly'));
  const nominated = status.nominatedNodeName ?? '';
  if (nominated !== (before.nominatedNodeName ?? '') && nominated.length > 0)
    errs.push(...subdomainProblems(nominated).map((m) => field.invalid('status.nominatedNodeName', nominated, m)));
  // Pod QoS is immutable (ValidateImmutableField)
  if ((status.qosClass ?? '') !== (before.qosClass ?? '')) errs.push(field.invalid('status.qosClass', status.qosClass ?? '', 'field is immutable'));
  const restart = old.spec?.restartPolicy ?? 'Always';
  errs.push(...stateTransitions(status.containerStatuses, before.containerStatuses, 'status.containerStatuses', restart, () => false));
  const restartable = new Set((old.spec?.initContainers ?? []).filter((c) => (c as { restartPolicy?: string }).restartPolicy === 'Always').map((c) => c.name));
  errs.push(...stateTransitions(status.initContainerStatuses, before.initContainerStatuses, 'status.initContainerStatuses', restart, (n) => restartable.has(n)));
  // the kubelet never restarts ephemeral containers: an implicit RestartPolicyNever
  errs.push(...stateTransitions(status.ephemeralContainerStatuses, before.ephemeralContainerStatuses, 'status.ephemeralContainerStatuses', 'Never', () => false));
  errs.push(...resourceClaimStatuses(next));
  errs.push(...podIPErrors(next, 'podIPs', 'core.PodIP'), ...hostIPErrors(next));
  return errs;
}

const ipText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** IPv4 or IPv6 as netutils.IPFamilyOf sees what ParseIPSloppy made (an IPv4-mapped address is IPv4). */
function familyOf(ip: string): string | undefined {
  const parsed = parseIPSloppy(ip);
  if (!parsed) return undefined;
  return parsed.bytes.slice(0, 12).every((b, i) => b === (i < 10 ? 0 : 255)) ? 'IPv4' : 'IPv6';
}

/** `%#v` of the internal list, as field.Invalid prints a slice of structs. */
function goSliceOf(type: string, ips: readonly string[]): string {
  return `[]${type}{${ips.map((ip) => `${type}{IP:${goQuote(ip)}}`).join(', ')}}`;
}

/**
 * validation.go validatePodIPs (and validateHostIPs' shared part): every address parses
 * (IsValidIPForLegacyField; its strict checks are the StrictIPCIDRValidation feature's, alpha and
 * off in v1.35), and more than one must be one of each family (netutils.IsDualStackIPStrings),
 * two at most.
 */
function podIPErrors(pod: Pod, key: 'podIPs' | 'hostIPs', type: string): FieldError[] {
  const list = (asObj(pod.status) as Obj)[key];
  const ips = (Array.isArray(list) ? list : []).map((x) => ipText(asObj(x)['ip']));
  const path = `status.${key}`;
  const errs = ips.flatMap((ip, i) => (parseIPSloppy(ip) ? [] : [field.invalid(`${path}[${i}]`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')]));
  if (ips.length > 1) {
    const families = ips.map(familyOf);
    const dual = families.every((f) => f !== undefined) && families.includes('IPv4') && families.includes('IPv6');
    if (!dual || ips.length > 2) errs.push(field.invalidRaw(path, goSliceOf(type, ips), 'may specify no more than one IP for each IP family'));
  }
  return errs;
}

/** validation.go validateHostIPs: hostIPs[0] is hostIP, then the checks podIPs has. */
function hostIPErrors(pod: Pod): FieldError[] {
  const status = asObj(pod.status);
  const list = Array.isArray(status['hostIPs']) ? (status['hostIPs'] as unknown[]) : [];
  if (list.length === 0) return [];
  const first = ipText(asObj(list[0])['ip']);
  const errs: FieldError[] = [];
  if (ipText(status['hostIP']) !== first) errs.push(field.invalid('status.hostIPs[0].ip', first, 'must be equal to `hostIP`'));
  return [...errs, ...podIPErrors(pod, 'hostIPs', 'core.HostIP')];
}

/**
 * ValidateContainerStateTransition / ValidateInitContainerStateTransition: unless the pod restarts
 * always, a terminated container (one that succeeded, under OnFailure) may not leave that state; a
 * restartable init container (a sidecar) may. The index is the old status's.
 */
function stateTransitions(
  next: readonly ContainerStatus[] | undefined,
  old: readonly ContainerStatus[] | undefined,
  path: string,
  restartPolicy: string,
  restartable: (name: string) => boolean,
): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  (old ?? []).forEach((o, i) => {
    const terminated = o.state?.terminated;
    if (!terminated) return;
    if ((terminated.exitCode ?? 0) !== 0 && restartPolicy === 'OnFailure') return;
    if (restartable(o.name)) return;
    for (const n of next ?? []) {
      if (n.name === o.name && !n.state?.terminated) errs.push(field.forbidden(`${path}[${i}].state`, 'may not be transitioned to non-terminated state'));
    }
  });
  return errs;
}

/** validatePodResourceClaimStatuses: each names an entry of spec.resourceClaims, once. */
function resourceClaimStatuses(pod: Pod): FieldError[] {
  const statuses = (asObj(pod.status)['resourceClaimStatuses'] ?? []) as { name?: string; resourceClaimName?: string }[];
  const claims = new Set(((pod.spec as unknown as Obj)['resourceClaims'] as { name?: string }[] | undefined ?? []).map((c) => c.name));
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  statuses.forEach((s, i) => {
    const name = s.name ?? '';
    if (!claims.has(name)) errs.push(field.invalid(`status.resourceClaimStatuses[${i}].name`, name, 'must match the name of an entry in `spec.resourceClaims`'));
    if (seen.has(name)) errs.push(field.duplicate(`status.resourceClaimStatuses[${i}].name`, name));
    else seen.add(name);
    if (s.resourceClaimName !== undefined)
      errs.push(...subdomainProblems(s.resourceClaimName).map((m) => field.invalid(`status.resourceClaimStatuses[${i}].name`, s.resourceClaimName, m)));
  });
  return errs;
}

/** ValidateDeploymentStatusUpdate: ValidateDeploymentStatus, and collisionCount never goes down (IsDecremented). */
export function validateDeploymentStatusUpdate(next: Obj, old: Obj): FieldError[] {
  const errs = validateDeploymentStatus(next);
  const now = next['collisionCount'];
  const before = old['collisionCount'];
  const decremented = typeof before === 'number' && (typeof now !== 'number' || now < before);
  if (decremented) errs.push(field.invalid('status.collisionCount', typeof now === 'number' ? now : 0, 'cannot be decremented'));
  return errs;
}

/** ValidateDeploymentStatus. */
function validateDeploymentStatus(s: Obj): FieldError[] {
  const errs = [
    ...nonNegative('status.observedGeneration', num(s['observedGeneration'])),
    ...nonNegative('status.replicas', num(s['replicas'])),
    ...nonNegative('status.updatedReplicas', num(s['updatedReplicas'])),
    ...nonNegative('status.readyReplicas', num(s['readyReplicas'])),
    ...nonNegative('status.availableReplicas', num(s['availableReplicas'])),
    ...nonNegative('status.unavailableReplicas', num(s['unavailableReplicas'])),
    ...(typeof s['collisionCount'] === 'number' ? nonNegative('status.collisionCount', s['collisionCount']) : []),
  ];
  const replicas = num(s['replicas']);
  const msg = 'cannot be greater than status.replicas';
  if (num(s['updatedReplicas']) > replicas) errs.push(field.invalid('status.updatedReplicas', num(s['updatedReplicas']), msg));
  if (num(s['readyReplicas']) > replicas) errs.push(field.invalid('status.readyReplicas', num(s['readyReplicas']), msg));
  if (num(s['availableReplicas']) > replicas) errs.push(field.invalid('status.availableReplicas', num(s['availableReplicas']), msg));
  if (num(s['availableReplicas']) > num(s['readyReplicas']))
    errs.push(field.invalid('status.availableReplicas', num(s['availableReplicas']), 'cannot be greater than readyReplicas'));
  return errs;
}

/** ValidateReplicaSetStatus (ValidateReplicaSetStatusUpdate adds only the metadata rules). */
export function validateReplicaSetStatus(s: Obj): FieldError[] {
  const errs = [
    ...nonNegative('status.replicas', num(s['replicas'])),
    ...nonNegative('status.fullyLabeledReplicas', num(s['fullyLabeledReplicas'])),
    ...nonNegative('status.readyReplicas', num(s['readyReplicas'])),
    ...nonNegative('status.availableReplicas', num(s['availableReplicas'])),
    ...nonNegative('status.observedGeneration', num(s['observedGeneration'])),
  ];
  const replicas = num(s['replicas']);
  const msg = 'cannot be greater than status.replicas';
  if (num(s['fullyLabeledReplicas']) > replicas) errs.push(field.invalid('status.fullyLabeledReplicas', num(s['fullyLabeledReplicas']), msg));
  if (num(s['readyReplicas']) > replicas) errs.push(field.invalid('status.readyReplicas', num(s['readyReplicas']), msg));
  if (num(s['availableReplicas']) > replicas) errs.push(field.invalid('status.availableReplicas', num(s['availableReplicas']), msg));
  if (num(s['availableReplicas']) > num(s['readyReplicas']))
    errs.push(field.invalid('status.availableReplicas', num(s['availableReplicas']), 'cannot be greater than readyReplicas'));
  return errs;
}

/**
 * ValidateNodeUpdate's status rules: ValidateNodeResources (each capacity and allocatable quantity
 * by ValidateResourceQuantityValue: not negative, `pods` whole) and no address listed twice
 * (field.Duplicate of the internal NodeAddress, JSON-marshalled with its Go field names). The
 * quantities arrive canonical from the decoder, which refuses a malformed one first.
 */
export function validateNodeStatus(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const list of ['capacity', 'allocatable'] as const) {
    for (const [k, v] of Object.entries(asObj(s[list]))) {
      if (typeof v !== 'string') continue;
      const path = `status.${list}.${k}`;
      let nano: bigint;
      try {
        nano = parseQuantity(v).nano;
      } catch {
        continue;
      }
      // ValidateNonnegativeQuantity prints value.String(), the canonical form
      if (nano < 0n) errs.push(field.invalid(path, canonicalQuantity(v), NEGATIVE));
      // helper.IsIntegerResourceName: `pods` among the standard integer resources
      if (k === 'pods' && nano % 1_000_000_000n !== 0n) errs.push(field.invalid(path, canonicalQuantity(v), 'must be an integer'));
    }
  }
  const seen = new Set<string>();
  ((s['addresses'] ?? []) as { type?: string; address?: string }[]).forEach((a, i) => {
    const key = JSON.stringify({ Type: a.type ?? '', Address: a.address ?? '' });
    if (seen.has(key)) errs.push({ field: `status.addresses[${i}]`, body: `Duplicate value: ${key}` });
    seen.add(key);
  });
  return errs;
}
