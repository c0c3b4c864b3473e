/**
 * The PodSecurity admission plugin (staging/src/k8s.io/pod-security-admission): a namespace's
 * labels `pod-security.kubernetes.io/{enforce,warn,audit}[-version]` pick a level (privileged,
 * baseline, restricted) per mode; unlabelled modes stay privileged (kube-apiserver's default
 * configuration). Enforce refuses a pod (`violates PodSecurity "baseline:latest": …`); warn adds
 * `would violate PodSecurity …` warnings for pods and for the pod templates of workloads.
 * Changing a namespace's enforce label warns about the pods already there that violate it.
 *
 * The checks are the Pod Security Standards' (policy/check_*.go) for the fields a CKA candidate
 * meets, with their reasons and details verbatim; they run in the registry's order
 * (policy/registry.go EvaluatePod): baseline checks, then at baseline the baseline checks the
 * restricted ones supersede, at restricted the restricted checks, each group in file order.
 */
import type { Container, KObject, Pod, PodSpec } from '../types.js';
import { field, invalid, type ApiError, type FieldError } from '../errors.js';
import { infoForKind } from '../registry.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export type Level = 'privileged' | 'baseline' | 'restricted';

interface CheckResult {
  reason: string;
  detail: string;
}

interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** A baseline check a restricted one supersedes (it runs at baseline only). */
  overlap?: boolean;
  run(spec: PodSpec, meta: KObject['metadata']): CheckResult | undefined;
}

const joinQuote = (items: readonly string[]): string => (items.length ? `"${items.join('", "')}"` : '');
const pluralize = (one: string, many: string, n: number): string => (n === 1 ? one : many);
const sortedUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

type Sc = Record<string, unknown> | undefined;
const sc = (c: Container): Sc => c.securityContext;
const podSc = (spec: PodSpec): Sc => spec.securityContext as Sc;

/** visitContainers: init containers, containers, ephemeral containers. */
function containers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...((spec['ephemeralContainers'] as Container[] | undefined) ?? [])];
}

function caps(c: Container): { add?: string[]; drop?: string[] } | undefined {
  return sc(c)?.['capabilities'] as { add?: string[]; drop?: string[] } | undefined;
}

const BASELINE_CAPS = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

/** Volume sources the restricted level allows (check_restrictedVolumes.go). */
const ALLOWED_VOLUMES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret', 'image']);

function seccompType(s: Sc): string | undefined {
  return (s?.['seccompProfile'] as { type?: string } | undefined)?.type;
}

/** `pod or container "c"` style setters shared by runAsNonRoot and seccompProfile. */
function podOrContainers(spec: PodSpec, get: (s: Sc) => unknown, good: (v: unknown) => boolean): { badSetters: string[]; badValues: string[]; implicit: string[] } {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  let podOk = false;
  const pv = get(podSc(spec));
  if (pv !== undefined) {
    if (!good(pv)) {
      badSetters.push('pod');
      badValues.push(String(pv));
    } else podOk = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const v = get(sc(c));
    if (v !== undefined) {
      if (!good(v)) {
        explicit.push(c.name);
        badValues.push(String(v));
      }
    } else if (!podOk) implicit.push(c.name);
  }
  if (explicit.length) badSetters.push(`${pluralize('container', 'containers', explicit.length)} ${joinQuote(explicit)}`);
  return { badSetters, badValues: sortedUnique(badValues), implicit };
}

const CHECKS: Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    run(spec) {
      const bad = containers(spec).filter((c) => sc(c)?.['allowPrivilegeEscalation'] !== false).map((c) => c.name);
      if (!bad.length) return undefined;
      return { reason: 'allowPrivilegeEscalation != false', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must set securityContext.allowPrivilegeEscalation=false` };
    },
  },
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    overlap: true,
    run(spec) {
      const bad: string[] = [];
      const added = new Set<string>();
      for (const c of containers(spec)) {
        const nonDefault = (caps(c)?.add ?? []).filter((x) => !BASELINE_CAPS.has(x));
        if (nonDefault.length) {
          bad.push(c.name);
          nonDefault.forEach((x) => added.add(x));
        }
      }
      if (!bad.length) return undefined;
      return { reason: 'non-default capabilities', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not include ${joinQuote(sortedUnique(added))} in securityContext.capabilities.add` };
    },
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    run(spec) {
      const missingDrop: string[] = [];
      const adding: string[] = [];
      const forbidden = new Set<string>();
      for (const c of containers(spec)) {
        const cp = caps(c);
        if (!cp) {
          missingDrop.push(c.name);
          continue;
        }
        if (!(cp.drop ?? []).includes('ALL')) missingDrop.push(c.name);
        const bad = (cp.add ?? []).filter((x) => x !== 'NET_BIND_SERVICE');
        if (bad.length) {
          adding.push(c.name);
          bad.forEach((x) => forbidden.add(x));
        }
      }
      const details: string[] = [];
      if (missingDrop.length) details.push(`${pluralize('container', 'containers', missingDrop.length)} ${joinQuote(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
      if (adding.length) details.push(`${pluralize('container', 'containers', adding.length)} ${joinQuote(adding)} must not include ${joinQuote(sortedUnique(forbidden))} in securityContext.capabilities.add`);
      return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
    },
  },
  {
    id: 'hostNamespaces',
    level: 'baseline',
    run(spec) {
      const on = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((k) => spec[k] === true).map((k) => `${k}=true`);
      return on.length ? { reason: 'host namespaces', detail: on.join(', ') } : undefined;
    },
  },
  {
    id: 'hostPathVolumes',
    level: 'baseline',
    overlap: true,
    run(spec) {
      const vols = (spec.volumes ?? []).filter((v) => v.hostPath !== undefined).map((v) => v.name);
      return vols.length ? { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', vols.length)} ${joinQuote(vols)}` } : undefined;
    },
  },
  {
    id: 'hostPorts',
    level: 'baseline',
    run(spec) {
      const bad: string[] = [];
      const ports = new Set<string>();
      for (const c of containers(spec)) {
        const hp = (c.ports ?? []).filter((p) => (p.hostPort ?? 0) !== 0);
        if (hp.length) {
          bad.push(c.name);
          hp.forEach((p) => ports.add(String(p.hostPort)));
        }
      }
      if (!bad.length) return undefined;
      const list = sortedUnique(ports);
      return { reason: 'hostPort', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}` };
    },
  },
  {
    id: 'privileged',
    level: 'baseline',
    run(spec) {
      const bad = containers(spec).filter((c) => sc(c)?.['privileged'] === true).map((c) => c.name);
      return bad.length ? { reason: 'privileged', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not set securityContext.privileged=true` } : undefined;
    },
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    run(spec) {
      const bad: string[] = [];
      const types = new Set<string>();
      for (const v of spec.volumes ?? []) {
        const source = Object.keys(v).filter((k) => k !== 'name');
        if (source.some((k) => ALLOWED_VOLUMES.has(k))) continue;
        bad.push(v.name);
        types.add(source[0] ?? 'unknown');
      }
      if (!bad.length) return undefined;
      const t = sortedUnique(types);
      return { reason: 'restricted volume types', detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', t.length)} ${joinQuote(t)}` };
    },
  },
  {
    id: 'runAsNonRoot',
    level: 'restricted',
    run(spec) {
      const r = podOrContainers(spec, (s) => s?.['runAsNonRoot'], (v) => v === true);
      if (r.badSetters.length) return { reason: 'runAsNonRoot != true', detail: `${r.badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
      if (r.implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${pluralize('container', 'containers', r.implicit.length)} ${joinQuote(r.implicit)} must set securityContext.runAsNonRoot=true` };
      return undefined;
    },
  },
  {
    id: 'runAsUser',
    level: 'restricted',
    run(spec) {
      const setters: string[] = [];
      if (podSc(spec)?.['runAsUser'] === 0) setters.push('pod');
      const bad = containers(spec).filter((c) => sc(c)?.['runAsUser'] === 0).map((c) => c.name);
      if (bad.length) setters.push(`${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)}`);
      return setters.length ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
    },
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    overlap: true,
    run(spec) {
      const setters: string[] = [];
      if (seccompType(podSc(spec)) === 'Unconfined') setters.push('pod');
      const bad = containers(spec).filter((c) => seccompType(sc(c)) === 'Unconfined').map((c) => c.name);
      if (bad.length) setters.push(`${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)}`);
      return setters.length ? { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to "Unconfined"` } : undefined;
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    run(spec) {
      const r = podOrContainers(spec, (s) => seccompType(s), (v) => v === 'RuntimeDefault' || v === 'Localhost');
      if (r.badSetters.length) return { reason: 'seccompProfile', detail: `${r.badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(r.badValues)}` };
      if (r.implicit.length) return { reason: 'seccompProfile', detail: `pod or ${pluralize('container', 'containers', r.implicit.length)} ${joinQuote(r.implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
      return undefined;
    },
  },
];

/** The failed checks of a pod spec at a level, in the registry's order. */
export function evaluatePod(level: Level, spec: PodSpec, meta: KObject['metadata'] = { name: '' }): CheckResult[] {
  if (level === 'privileged') return [];
  const baseline = CHECKS.filter((c) => c.level === 'baseline' && !c.overlap);
  const rest = level === 'baseline' ? CHECKS.filter((c) => c.level === 'baseline' && c.overlap) : CHECKS.filter((c) => c.level === 'restricted');
  const out: CheckResult[] = [];
  for (const c of [...baseline, ...rest]) {
    const r = c.run(spec, meta);
    if (r) out.push(r);
  }
  return out;
}

/** AggregateCheckResult.ForbiddenDetail: `reason (detail), reason (detail)`. */
export function forbiddenDetail(results: readonly CheckResult[]): string {
  return results.map((r) => (r.detail ? `${r.reason} (${r.detail})` : r.reason)).join(', ');
}

export interface ModePolicy {
  level: Level;
  version: string;
}

export interface NamespacePolicy {
  enforce: ModePolicy;
  warn: ModePolicy;
  audit: ModePolicy;
}

const LEVELS: readonly string[] = ['privileged', 'baseline', 'restricted'];
const PREFIX = 'pod-security.kubernetes.io/';

/**
 * PolicyToEvaluate: each mode from its labels, privileged:latest when unlabelled. An invalid
 * enforce level evaluates as restricted (fail closed), an invalid warn/audit level as privileged.
 */
export function policyFor(labels: Record<string, string> | undefined): NamespacePolicy {
  const mode = (m: 'enforce' | 'warn' | 'audit'): ModePolicy => {
    const l = labels?.[`${PREFIX}${m}`];
    const v = labels?.[`${PREFIX}${m}-version`];
    const level: Level = l === undefined ? 'privileged' : LEVELS.includes(l) ? (l as Level) : m === 'enforce' ? 'restricted' : 'privileged';
    const version = v !== undefined && /^v1\.([0-9]|[1-9][0-9]*)$/.test(v) ? v : 'latest';
    return { level, version };
  };
  return { enforce: mode('enforce'), warn: mode('warn'), audit: mode('audit') };
}

/**
 * ValidateNamespace's check of the labels (api/helpers.go PolicyToEvaluate's errors): a level or
 * version the plugin cannot parse makes the namespace write Invalid.
 */
export function labelErrors(labels: Record<string, string> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  for (const m of ['enforce', 'audit', 'warn']) {
    const l = labels?.[`${PREFIX}${m}`];
    if (l !== undefined && !LEVELS.includes(l)) errs.push(field.invalid(`metadata.labels[${PREFIX}${m}]`, l, 'must be one of privileged, baseline, restricted'));
    const v = labels?.[`${PREFIX}${m}-version`];
    if (v !== undefined && v !== 'latest' && !/^v1\.([0-9]|[1-9][0-9]*)$/.test(v)) errs.push(field.invalid(`metadata.labels[${PREFIX}${m}-version]`, v, 'must be "latest" or "v1.x"'));
  }
  return errs;
}

const lv = (p: ModePolicy): string => `${p.level}:${p.version}`;

/** The pod spec a write carries: a Pod's own, or a workload's template. */
function podSpecOf(obj: KObject): { spec: PodSpec; pod: boolean } | undefined {
  if (obj.kind === 'Pod') return { spec: (obj as Pod).spec, pod: true };
  const spec = obj['spec'] as Record<string, unknown> | undefined;
  const tpl = obj.kind === 'CronJob' ? ((spec?.['jobTemplate'] as Record<string, unknown> | undefined)?.['spec'] as Record<string, unknown> | undefined)?.['template'] : spec?.['template'];
  const ps = (tpl as { spec?: PodSpec } | undefined)?.spec;
  const kinds = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicationController', 'PodTemplate'];
  return ps && kinds.includes(obj.kind) ? { spec: ps, pod: false } : undefined;
}

const LEVEL_ORDER: Record<Level, number> = { privileged: 0, baseline: 1, restricted: 2 };

/**
 * EvaluatePodsInNamespace (admission.go): each pod in the namespace against the new enforce level
 * (prioritizePods puts one pod per controller first; with the simulator's few pods all are
 * checked, so the order changes nothing). Pods failing the same checks share one warning,
 * AggregateCheckResult.ForbiddenReason (the reasons joined by `, `), named after the lexically
 * first of them (decoratePodWarnings: `web-1 (and 1 other pod): …`, `(and N other pods)`), the
 * warnings sorted, after the header line.
 */
export function evaluatePodsInNamespace(namespace: string, pods: readonly Pod[], enforce: ModePolicy): string[] {
  const groups = new Map<string, { first: string; count: number }>();
  for (const p of pods) {
    const r = evaluatePod(enforce.level, p.spec, p.metadata);
    if (!r.length) continue;
    const warning = r.map((x) => x.reason).join(', ');
    const g = groups.get(warning);
    if (!g) groups.set(warning, { first: p.metadata.name, count: 1 });
    else {
      g.count++;
      if (p.metadata.name < g.first) g.first = p.metadata.name;
    }
  }
  if (groups.size === 0) return [];
  const decorated = [...groups].map(([w, g]) =>
    g.count === 1 ? `${g.first}: ${w}` : g.count === 2 ? `${g.first} (and 1 other pod): ${w}` : `${g.first} (and ${g.count - 1} other pods): ${w}`,
  );
  // sort.Strings: byte order
  decorated.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(lv(enforce))}`, ...decorated];
}

/**
 * ValidateNamespace (admission.go): labels the plugin cannot parse refuse a create, and an update
 * that changes them; an update that tightens the enforce level (a new level or version, not
 * privileged, not the same version at an equal or laxer level) warns about the pods already there.
 */
function validateNamespace(a: AdmissionAttributes): string | ApiError | undefined {
  const ns = a.obj;
  const errs = labelErrors(ns.metadata.labels);
  if (a.operation !== 'UPDATE' || !a.old) return errs.length ? invalid(infoForKind('Namespace'), ns.metadata.name, errs) : undefined;
  const oldErrs = labelErrors(a.old.metadata.labels);
  if (errs.length && (!oldErrs.length || JSON.stringify(errs) !== JSON.stringify(oldErrs))) return invalid(infoForKind('Namespace'), ns.metadata.name, errs);
  const next = policyFor(ns.metadata.labels).enforce;
  const prev = policyFor(a.old.metadata.labels).enforce;
  if (lv(next) === lv(prev) || next.level === 'privileged') return undefined;
  if (next.version === prev.version && LEVEL_ORDER[next.level] <= LEVEL_ORDER[prev.level]) return undefined;
  const pods = a.store.list<Pod>('Pod', ns.metadata.name);
  a.warnings.push(...evaluatePodsInNamespace(ns.metadata.name, pods, next));
  return undefined;
}

export const podSecurity: AdmissionPlugin = {
  name: 'PodSecurity',
  validate(a) {
    if (a.obj.kind === 'Namespace') return validateNamespace(a);
    if (!a.namespace) return undefined;
    const target = podSpecOf(a.obj);
    if (!target) return undefined;
    // pod updates are evaluated only when the spec changes in ways the checks read; a pod's
    // spec is immutable but for images, so the simulator evaluates pods on create only
    if (target.pod && a.operation === 'UPDATE') return undefined;
    const nsObj = a.store.get('Namespace', undefined, a.namespace);
    const policy = policyFor(nsObj?.metadata.labels);
    if (target.pod && policy.enforce.level !== 'privileged') {
      const r = evaluatePod(policy.enforce.level, target.spec, a.obj.metadata);
      // EvaluatePod: "avoid adding warnings to a request we're already going to reject"
      if (r.length) return `violates PodSecurity "${lv(policy.enforce)}": ${forbiddenDetail(r)}`;
    }
    if (policy.warn.level !== 'privileged') {
      const w = evaluatePod(policy.warn.level, target.spec, a.obj.metadata);
      if (w.length) a.warnings.push(`would violate PodSecurity "${lv(policy.warn)}": ${forbiddenDetail(w)}`);
    }
    return undefined;
  },
};
