/**
 * A Service's IP families as the API server settles them: which families and ClusterIPs a Service
 * gets from its ipFamilyPolicy, ipFamilies and clusterIPs on a single- or dual-stack cluster, and
 * the errors that refuse the impossible combinations.
 *
 * Emulates kubernetes pkg/registry/core/service/storage/alloc.go (initIPFamilyFields,
 * isMatchingPreferDualStackClusterIPFields, the upgrade/downgrade cases of updateClusterIPs),
 * pkg/registry/core/service/strategy.go (normalizeClusterIPs, patchAllocatedValues) and
 * pkg/apis/core/validation/validation.go (ValidateServiceClusterIPsRelatedFields,
 * validateUpgradeDowngradeClusterIPs/IPFamilies). The cluster's families are its
 * --service-cluster-ip-range values, the first being the default family.
 */
import type { Service } from './types.js';
import { field, type FieldError } from './errors.js';
import { ipFamilyOf, parseRange, type IPFamily, type IPRange } from '../../util/ip.js';
import { remember } from '../../util/bounded-map.js';

const POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const FAMILIES = ['IPv4', 'IPv6'];

/**
 * The Service CIDRs of a `--service-cluster-ip-range` value, in flag order (the first is the default
 * family). Parsed once per value (a function of the text alone; the last RANGES_MAX values kept,
 * each range frozen, a fresh list each call): the API server asks at every Service write.
 */
export function serviceRanges(flag: string): IPRange[] {
  let ranges = RANGES.get(flag);
  if (!ranges) {
    ranges = flag
      .split(',')
      .map((s) => parseRange(s))
      .filter((r): r is IPRange => r !== undefined)
      .map((r) => Object.freeze(r));
    remember(RANGES, flag, ranges, RANGES_MAX);
  }
  return [...ranges];
}

const RANGES = new Map<string, readonly IPRange[]>();
const RANGES_MAX = 16;

const headless = (s: Service): boolean => (s.spec.clusterIPs ?? []).length === 1 && s.spec.clusterIPs![0] === 'None';
const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b![i]);

/**
 * strategy.go normalizeClusterIPs: keeps clusterIP and clusterIPs in step for clients that set
 * only the singular field (create), or that left clusterIPs out of an update.
 */
export function normalizeClusterIPs(svc: Service, old: Service | undefined): void {
  const spec = svc.spec;
  if (!old) {
    if (spec.clusterIP && !(spec.clusterIPs ?? []).length) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  if ((old.spec.clusterIPs ?? []).length > 0 && !(spec.clusterIPs ?? []).length && old.spec.clusterIP === spec.clusterIP) spec.clusterIPs = [...old.spec.clusterIPs!];
  if ((old.spec.clusterIP ?? '') !== (spec.clusterIP ?? '')) {
    if (old.spec.clusterIP && !spec.clusterIP) {
      if (sameList(old.spec.clusterIPs, spec.clusterIPs)) delete spec.clusterIPs;
    } else if (sameList(old.spec.clusterIPs, spec.clusterIPs)) spec.clusterIPs = [spec.clusterIP!];
  }
}

const needsClusterIP = (s: Service): boolean => (s.spec.type ?? 'ClusterIP') !== 'ExternalName';

/** strategy.go patchAllocatedValues: an update that leaves the ClusterIPs out keeps the allocated ones. */
export function patchAllocatedClusterIPs(svc: Service, old: Service): void {
  if (!needsClusterIP(old) || !needsClusterIP(svc)) return;
  if (!svc.spec.clusterIP && old.spec.clusterIP) svc.spec.clusterIP = old.spec.clusterIP;
  if (!(svc.spec.clusterIPs ?? []).length && (old.spec.clusterIPs ?? []).length) svc.spec.clusterIPs = [...old.spec.clusterIPs!];
}

/**
 * strategy.go dropTypeDependentFields: a Service turned ExternalName loses the ClusterIPs and
 * family fields it carried over unchanged (the registry releases the IPs).
 */
export function dropTypeDependentFields(svc: Service, old: Service): void {
  if (!needsClusterIP(old) || needsClusterIP(svc)) return;
  if (sameList(old.spec.clusterIPs, svc.spec.clusterIPs)) {
    delete svc.spec.clusterIP;
    delete svc.spec.clusterIPs;
  }
  if (sameList(old.spec.ipFamilies, svc.spec.ipFamilies)) delete svc.spec.ipFamilies;
  if (old.spec.ipFamilyPolicy === svc.spec.ipFamilyPolicy) delete svc.spec.ipFamilyPolicy;
}

/** validation.go ValidateServiceClusterIPsRelatedFields (ExternalName is checked elsewhere). */
export function validateClusterIPsRelated(svc: Service): FieldError[] {
  const spec = svc.spec;
  if ((spec.type ?? 'ClusterIP') === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips = spec.clusterIPs ?? [];
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(field.required('spec.clusterIPs'));
    else if (ips[0] !== spec.clusterIP) errs.push(field.invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`'));
  } else if (ips.length > 0) errs.push(field.invalid('spec.clusterIPs', ips, 'must be empty when `clusterIP` is not specified'));
  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (!FAMILIES.includes(f)) errs.push(field.notSupported(`spec.ipFamilies[${i}]`, f, FAMILIES));
    if (seen.has(f)) errs.push(field.duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  if (spec.ipFamilyPolicy !== undefined && !POLICIES.includes(spec.ipFamilyPolicy)) errs.push(field.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, POLICIES));
  let badIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        badIPs = true;
        errs.push(field.invalid('spec.clusterIPs', ips, "'None' must be the first and only value"));
      }
      return;
    }
    if (!ipFamilyOf(ip)) {
      badIPs = true;
      errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    }
  });
  if (ips.length > 2) errs.push(field.invalid('spec.clusterIPs', ips, 'may only hold up to 2 values'));
  if (badIPs) return errs;
  if (ips.length > 1 && new Set(ips.map((ip) => ipFamilyOf(ip))).size !== ips.length)
    errs.push(field.invalid('spec.clusterIPs', ips, 'may specify no more than one IP for each IP family'));
  const fams = spec.ipFamilies ?? [];
  if (!headless(svc))
    ips.forEach((ip, i) => {
      if (i >= fams.length) return;
      if (fams[i] === 'IPv4' && ipFamilyOf(ip) === 'IPv6') errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (fams[i] === 'IPv6' && ipFamilyOf(ip) !== 'IPv6') errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  return errs;
}

/** validation.go validateUpgradeDowngradeClusterIPs and validateUpgradeDowngradeIPFamilies (ValidateServiceUpdate). */
export function validateFamilyUpdate(svc: Service, old: Service): FieldError[] {
  const errs: FieldError[] = [];
  if ((svc.spec.type ?? 'ClusterIP') === 'ExternalName' || (old.spec.type ?? 'ClusterIP') === 'ExternalName') return errs;
  const policy = svc.spec.ipFamilyPolicy ?? 'null';
  const ips = svc.spec.clusterIPs ?? [];
  const oldIPs = old.spec.clusterIPs ?? [];
  if (!(headless(old) && headless(svc))) {
    if (oldIPs.length === ips.length) {
      oldIPs.forEach((ip, i) => {
        if (ip !== ips[i]) errs.push(field.invalid(`spec.clusterIPs[${i}]`, ips, 'may not change once set'));
      });
    } else if (oldIPs.length > ips.length) {
      if (ips.length === 0) errs.push(field.invalid('spec.clusterIPs[0]', ips, 'primary clusterIP can not be unset'));
      if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(field.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
      if (ips.length === 1 && policy !== 'SingleStack') errs.push(field.invalid('spec.ipFamilyPolicy', policy, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) errs.push(field.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
  }
  if (headless(old) !== headless(svc) || headless(svc)) return errs;
  const fams = svc.spec.ipFamilies ?? [];
  const oldFams = old.spec.ipFamilies ?? [];
  if (oldFams.length === fams.length) {
    oldFams.forEach((f, i) => {
      if (f !== fams[i]) errs.push(field.invalid('spec.ipFamilies[0]', fams, 'may not change once set'));
    });
  } else if (oldFams.length > fams.length) {
    if (ips.length === 0) errs.push(field.invalid('spec.ipFamilies[0]', fams, 'primary ipFamily can not be unset'));
    if (fams.length > 0 && fams[0] !== oldFams[0]) errs.push(field.invalid('spec.ipFamilies[0]', ips, 'may not change once set'));
    if (fams.length === 1 && policy !== 'SingleStack') errs.push(field.invalid('spec.ipFamilyPolicy', policy, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
  } else if (oldFams.length > 0 && fams.length > 0 && fams[0] !== oldFams[0]) errs.push(field.invalid('spec.ipFamilies[0]', ips, 'may not change once set'));
  return errs;
}

/**
 * alloc.go isMatchingPreferDualStackClusterIPFields: an update of a PreferDualStack Service that
 * changes neither its policy, ClusterIPs nor families is left as it is, so a cluster that turned
 * dual-stack (or back) does not add or drop a family behind the user's back.
 */
function unchangedPreferDualStack(svc: Service, old: Service | undefined): boolean {
  if (!old || svc.spec.ipFamilyPolicy === undefined) return false;
  const type = svc.spec.type ?? 'ClusterIP';
  if ((old.spec.type ?? 'ClusterIP') !== type || type === 'ExternalName') return false;
  if (svc.spec.clusterIP === 'None') return false;
  if (svc.spec.ipFamilyPolicy !== 'PreferDualStack' || old.spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameList(old.spec.clusterIPs, svc.spec.clusterIPs) && sameList(old.spec.ipFamilies, svc.spec.ipFamilies);
}

/**
 * alloc.go initIPFamilyFields: defaults ipFamilyPolicy (the old one on update; RequireDualStack
 * for a headless Service without selector; else SingleStack) and ipFamilies (inferred from the
 * clusterIPs given, else the cluster's default family, plus the other family when the policy asks
 * for dual-stack and the cluster has it), and refuses families the cluster does not serve.
 * Returns the errors; the Service is changed in place.
 */
export function initIPFamilyFields(svc: Service, old: Service | undefined, ranges: readonly IPRange[]): FieldError[] {
  const spec = svc.spec;
  if ((spec.type ?? 'ClusterIP') === 'ExternalName') return [];
  if (unchangedPreferDualStack(svc, old)) return [];
  const configured = new Set<IPFamily>(ranges.map((r) => r.family));
  const selectorless = Object.keys(spec.selector ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined) {
    if (old?.spec.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
    else spec.ipFamilyPolicy = spec.clusterIP === 'None' && selectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const pre = validateClusterIPsRelated(svc);
  if (pre.length > 0) return pre;
  const errs: FieldError[] = [];
  const policy = spec.ipFamilyPolicy;
  if (old) {
    if (policy === 'SingleStack') {
      if (sameList(old.spec.clusterIPs, spec.clusterIPs) && (spec.clusterIPs ?? []).length > 1) spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
      if (sameList(old.spec.ipFamilies, spec.ipFamilies) && (spec.ipFamilies ?? []).length > 1) spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
    } else {
      const fewer = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => (b ?? []).length > (a ?? []).length;
      if (fewer(spec.clusterIPs, old.spec.clusterIPs)) errs.push(field.invalid('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary cluster IP"));
      if (fewer(spec.ipFamilies, old.spec.ipFamilies)) errs.push(field.invalid('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (policy === 'SingleStack') {
    if ((spec.clusterIPs ?? []).length === 2) errs.push(field.invalid('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if ((spec.ipFamilies ?? []).length === 2) errs.push(field.invalid('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  const ips = spec.clusterIPs ?? [];
  for (let i = 0; i < ips.length && ips[i] !== 'None'; i++) {
    const fam = ipFamilyOf(ips[i]!)!;
    if (i < (spec.ipFamilies ?? []).length) continue;
    if (!configured.has(fam)) errs.push(field.invalid(`spec.clusterIPs[${i}]`, ips, `${fam} is not configured on this cluster`));
    else spec.ipFamilies = [...(spec.ipFamilies ?? []), fam];
  }
  if (errs.length > 0) return errs;
  const primary = ranges[0]?.family ?? 'IPv4';
  const other = (f: string): IPFamily => (f === 'IPv4' ? 'IPv6' : 'IPv4');
  if (spec.clusterIP === 'None' && selectorless) {
    if (!(spec.ipFamilies ?? []).length) spec.ipFamilies = [primary];
    if (spec.ipFamilies!.length < 2 && policy !== 'SingleStack') spec.ipFamilies = [...spec.ipFamilies!, other(spec.ipFamilies![0]!)];
    return [];
  }
  if (policy === 'RequireDualStack' && configured.size < 2) errs.push(field.invalid('spec.ipFamilyPolicy', policy, 'this cluster is not configured for dual-stack services'));
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (!configured.has(f as IPFamily)) errs.push(field.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
  });
  if (errs.length > 0) return errs;
  if (!(spec.ipFamilies ?? []).length) spec.ipFamilies = [primary];
  if (policy !== 'SingleStack' && spec.ipFamilies!.length === 1 && configured.size === 2) spec.ipFamilies = [...spec.ipFamilies!, other(spec.ipFamilies![0]!)];
  return [];
}

/**
 * The ClusterIPs a Service holds, one per family (clusterIPsByFamily's values, in its order). A
 * stored Service's spec is frozen (api/store.ts), so its answer is kept by that spec object: the
 * allocator asks it of every Service at each create (apiserver.ts allocatedIPs), and parsing
 * every address again made applying N Services cost N² parses.
 */
export function clusterIPsOf(svc: Service): readonly string[] {
  const spec = svc.spec;
  const frozen = Object.isFrozen(spec);
  const known = frozen ? CLUSTER_IPS.get(spec) : undefined;
  if (known) return known;
  const ips = Object.freeze([...clusterIPsByFamily(svc).values()]);
  if (frozen) CLUSTER_IPS.set(spec, ips);
  return ips;
}

const CLUSTER_IPS = new WeakMap<object, readonly string[]>();

/** The family → ClusterIP pairs a Service holds (headless and ExternalName hold none). */
export function clusterIPsByFamily(svc: Service): Map<IPFamily, string> {
  const out = new Map<IPFamily, string>();
  for (const ip of svc.spec.clusterIPs ?? (svc.spec.clusterIP ? [svc.spec.clusterIP] : [])) {
    const f = ipFamilyOf(ip);
    if (f) out.set(f, ip);
  }
  return out;
}
