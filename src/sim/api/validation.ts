/**
 * Name and object validation with the API server's exact wording
 * (k8s.io/apimachinery pkg/util/validation/validation.go, pkg/api/validation/objectmeta.go,
 * k8s.io/kubernetes pkg/apis/core/validation/validation.go; ../shared/reference/kubectl.md §8.3).
 */
import { type FieldError, field } from './errors.js';
import { parseQuantity } from './quantity.js';
import { labelKeyProblems, labelValueProblems as contentLabelValueProblems } from './label-selector.js';
import { validateAnnotationsSize } from './size-limits.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export const MSG_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const MSG_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const MSG_1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

export type NameRule = 'subdomain' | 'label' | 'dns1035';

/** Which rule a kind's metadata.name follows (ValidateObjectMeta's nameFn per kind). */
export function nameRuleForKind(kind: string): NameRule {
  if (kind === 'Service') return 'dns1035';
  if (kind === 'Namespace') return 'label';
  return 'subdomain';
}

/** apimachinery validation.IsDNS1123Subdomain: its messages, empty when valid. */
export function subdomainProblems(name: string): string[] {
  const out: string[] = [];
  if (name.length > 253) out.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(name)) out.push(MSG_SUBDOMAIN);
  return out;
}

export function validateName(name: string, rule: NameRule, path = 'metadata.name'): FieldError[] {
  const errs: FieldError[] = [];
  if (rule === 'subdomain') {
    for (const msg of subdomainProblems(name)) errs.push(field.invalid(path, name, msg));
  } else if (rule === 'label') {
    if (name.length > 63) errs.push(field.invalid(path, name, 'must be no more than 63 characters'));
    if (!DNS1123_LABEL.test(name)) errs.push(field.invalid(path, name, MSG_LABEL));
  } else {
    if (name.length > 63) errs.push(field.invalid(path, name, 'must be no more than 63 characters'));
    if (!DNS1035_LABEL.test(name)) errs.push(field.invalid(path, name, MSG_1035));
  }
  return errs;
}

/**
 * apimachinery v0.35 content.IsLabelValue (pkg/api/validate/content/kube.go; util/validation's
 * IsValidLabelValue is an alias of it): its messages, empty when the value is valid. Lengths are
 * counted in bytes and said so (content/errors.go MaxLenError: `must be no more than 63 bytes`).
 */
export function labelValueProblems(v: string): string[] {
  return contentLabelValueProblems(v);
}

/**
 * metav1 validation ValidateLabels (apimachinery pkg/apis/meta/v1/validation/validation.go): each
 * key through ValidateLabelName (content.IsLabelKey: `[prefix/]name`, a DNS-1123 subdomain prefix,
 * a name of at most 63 bytes matching `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`), then its value
 * through IsValidLabelValue; every error on the map's own path, the key or value as the bad value.
 * Go visits the map in random order; the simulator takes the keys sorted.
 */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels ?? {}).sort()) {
    const v = labels![k];
    for (const msg of labelKeyProblems(k)) errs.push(field.invalid(path, k, msg));
    for (const msg of contentLabelValueProblems(typeof v === 'string' ? v : String(v))) errs.push(field.invalid(path, v, msg));
  }
  return errs;
}

/**
 * ValidateAnnotations (apimachinery pkg/api/validation/objectmeta.go): each key is a qualified
 * name once lower-cased (`Example.com/Key` is fine, `a/b/c` is not), reported with the key as
 * written; then the total size rule (size-limits.ts). Keys in sorted order, as validateLabels.
 */
export function validateAnnotations(annotations: Record<string, string> | undefined, path = 'metadata.annotations'): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(annotations ?? {}).sort()) for (const msg of labelKeyProblems(k.toLowerCase())) errs.push(field.invalid(path, k, msg));
  return [...errs, ...validateAnnotationsSize(annotations, path)];
}

export function inclusiveRange(path: string, value: number, lo: number, hi: number): FieldError | undefined {
  if (!Number.isInteger(value) || value < lo || value > hi)
    return field.invalid(path, value, `must be between ${lo} and ${hi}, inclusive`);
  return undefined;
}

/** validation.go isNegativeErrorMsg. */
export const IS_NEGATIVE = 'must be greater than or equal to 0';

/** ValidateNonnegativeField. */
export function nonNegative(path: string, value: number | undefined): FieldError[] {
  return value !== undefined && value < 0 ? [field.invalid(path, value, IS_NEGATIVE)] : [];
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

interface ContainerLike {
  name?: string;
  image?: string;
  imagePullPolicy?: string;
  terminationMessagePolicy?: string;
  ports?: { containerPort?: number; hostPort?: number; protocol?: string; name?: string }[];
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
}

/**
 * validateResourceRequirements (core validation.go): container resource names must be standard
 * (or a qualified extended name), quantities non-negative, and a request at most its limit.
 */
function validateResources(r: ContainerLike['resources'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const check = (list: Record<string, string> | undefined, kind: 'limits' | 'requests'): void => {
    for (const [name, q] of Object.entries(list ?? {})) {
      const p = `${path}.${kind}[${name}]`;
      if (!name.includes('/') && !STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-'))
        errs.push(field.invalid(p, name, 'must be a standard resource for containers'));
      if (typeof q === 'string' && q.startsWith('-')) errs.push(field.invalid(p, q, IS_NEGATIVE));
    }
  };
  check(r?.limits, 'limits');
  check(r?.requests, 'requests');
  for (const [name, req] of Object.entries(r?.requests ?? {})) {
    const lim = r?.limits?.[name];
    if (lim === undefined || typeof req !== 'string') continue;
    if (compareQuantities(req, lim) > 0)
      errs.push(field.invalid(`${path}.requests[${name}]`, req, `must be less than or equal to ${name} limit of ${lim}`));
  }
  return errs;
}

function compareQuantities(a: string, b: string): number {
  try {
    const x = parseQuantity(a).nano;
    const y = parseQuantity(b).nano;
    return x < y ? -1 : x > y ? 1 : 0;
  } catch {
    return 0;
  }
}

/**
 * validateContainers / validateContainerCommon (core validation.go): a DNS-1123 label name,
 * unique among the pod's containers, an image, a supported pull policy (validatePullPolicy) and
 * termination message policy, ports in range with a supported protocol, valid resources.
 */
export function validateContainers(containers: readonly ContainerLike[], path: string, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (!c.name) errs.push(field.required(`${at}.name`));
    else errs.push(...validateName(c.name, 'label', `${at}.name`));
    if (c.name && names.has(c.name)) errs.push(field.duplicate(`${at}.name`, c.name));
    if (c.name) names.add(c.name);
    if (!c.image) errs.push(field.required(`${at}.image`));
    if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(c.imagePullPolicy))
      errs.push(c.imagePullPolicy === '' ? field.required(`${at}.imagePullPolicy`) : field.notSupported(`${at}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
    const tmp = c.terminationMessagePolicy;
    if (tmp !== undefined && tmp !== 'File' && tmp !== 'FallbackToLogsOnError')
      errs.push(
        tmp === ''
          ? field.required(`${at}.terminationMessagePolicy`, "must be 'File' or 'FallbackToLogsOnError'")
          : field.notSupported(`${at}.terminationMessagePolicy`, tmp, ['File', 'FallbackToLogsOnError'], true),
      );
    (c.ports ?? []).forEach((p, j) => {
      const pp = `${at}.ports[${j}]`;
      const e = inclusiveRange(`${pp}.containerPort`, p.containerPort ?? 0, 1, 65535);
      if (e) errs.push(e);
      if (p.hostPort) {
        const h = inclusiveRange(`${pp}.hostPort`, p.hostPort, 1, 65535);
        if (h) errs.push(h);
      }
      if (p.protocol !== undefined && !PORT_PROTOCOLS.includes(p.protocol)) errs.push(field.notSupported(`${pp}.protocol`, p.protocol, PORT_PROTOCOLS));
    });
    errs.push(...validateResources(c.resources, `${at}.resources`));
  });
  return errs;
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

interface PodSpecLike {
  containers?: ContainerLike[];
  initContainers?: ContainerLike[];
  restartPolicy?: string;
  activeDeadlineSeconds?: number;
  terminationGracePeriodSeconds?: number;
}

/**
 * The parts of ValidatePodSpec the simulator checks: containers are required, init and regular
 * containers share one name space, restartPolicy is supported (validateRestartPolicy, values in
 * code order), activeDeadlineSeconds is positive, terminationGracePeriodSeconds non-negative.
 */
export function validatePodSpecFields(spec: PodSpecLike | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  errs.push(...validateContainers(spec?.initContainers ?? [], `${path}.initContainers`, names));
  if (!spec?.containers?.length) errs.push(field.required(`${path}.containers`));
  else errs.push(...validateContainers(spec.containers, `${path}.containers`, names));
  const rp = spec?.restartPolicy;
  if (rp !== undefined && !RESTART_POLICIES.includes(rp))
    errs.push(rp === '' ? field.required(`${path}.restartPolicy`) : field.notSupported(`${path}.restartPolicy`, rp, RESTART_POLICIES, true));
  const ads = spec?.activeDeadlineSeconds;
  if (ads !== undefined && (ads < 1 || ads > 2147483647)) errs.push(field.invalid(`${path}.activeDeadlineSeconds`, ads, 'must be between 1 and 2147483647, inclusive'));
  errs.push(...nonNegative(`${path}.terminationGracePeriodSeconds`, spec?.terminationGracePeriodSeconds));
  return errs;
}

interface SelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key?: string; operator?: string; values?: string[] }[];
}

const goStr = (s: string | undefined): string => JSON.stringify(s ?? '');

/** fmt's `%#v` of a metav1.LabelSelector, as field.Invalid prints a struct value. */
export function goSyntaxSelector(sel: SelectorLike | undefined): string {
  if (!sel) return 'null';
  const ml = sel.matchLabels
    ? `map[string]string{${Object.keys(sel.matchLabels)
        .sort()
        .map((k) => `${goStr(k)}:${goStr(sel.matchLabels![k])}`)
        .join(', ')}}`
    : 'map[string]string(nil)';
  const req = (r: NonNullable<SelectorLike['matchExpressions']>[number]): string =>
    `v1.LabelSelectorRequirement{Key:${goStr(r.key)}, Operator:${goStr(r.operator)}, Values:${r.values ? `[]string{${r.values.map(goStr).join(', ')}}` : '[]string(nil)'}}`;
  const me = sel.matchExpressions ? `[]v1.LabelSelectorRequirement{${sel.matchExpressions.map(req).join(', ')}}` : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:${me}}`;
}

/** equality.Semantic.DeepEqual of two selectors: nil and empty maps and lists are equal. */
function sameSelector(a: SelectorLike | undefined, b: SelectorLike | undefined): boolean {
  const norm = (s: SelectorLike | undefined): string =>
    JSON.stringify({
      l: Object.entries(s?.matchLabels ?? {}).sort(),
      e: (s?.matchExpressions ?? []).map((r) => [r.key ?? '', r.operator ?? '', r.values ?? []]),
    });
  return norm(a) === norm(b);
}

/** ValidateImmutableField for spec.selector: the new value printed with `%#v`. */
export function immutableSelector(path: string, next: SelectorLike | undefined, old: SelectorLike | undefined): FieldError[] {
  return sameSelector(next, old) ? [] : [field.invalidRaw(path, goSyntaxSelector(next), 'field is immutable')];
}

/**
 * apimachinery validation.IsQualifiedName, in v0.35 an alias of content.IsLabelKey
 * (label-selector.ts labelKeyProblems): its messages, empty when valid.
 */
export function qualifiedNameProblems(value: string): string[] {
  return labelKeyProblems(value);
}

/**
 * metadata.finalizers: each a qualified name (apimachinery ValidateFinalizers, at
 * `metadata.finalizers`), not orphan and foregroundDeletion together, and on the built-in kinds a
 * name without a domain only when it is a standard one (core validation.go validateKubeFinalizerName,
 * at `metadata.finalizers[i]`). Custom resources get a warning instead (customResourceStrategy).
 */
export function validateFinalizers(finalizers: readonly string[] | undefined, builtin: boolean, standard: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) for (const msg of qualifiedNameProblems(f)) errs.push(field.invalid('metadata.finalizers', f, msg));
  if (list.includes('orphan') && list.includes('foregroundDeletion'))
    errs.push(field.invalidRaw('metadata.finalizers', `[]string{${list.map((f) => JSON.stringify(f)).join(', ')}}`, 'finalizer orphan and foregroundDeletion cannot be both set'));
  if (builtin)
    list.forEach((f, i) => {
      if (!f.includes('/') && !standard.has(f)) errs.push(field.invalid(`metadata.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    });
  return errs;
}

/** The warning a custom resource's unqualified finalizer draws (apiextensions-apiserver customresource strategy). */
export function finalizerWarnings(finalizers: readonly string[] | undefined, standard: ReadonlySet<string>): string[] {
  return (finalizers ?? [])
    .filter((f) => !f.includes('/') && !standard.has(f))
    .map((f) => `metadata.finalizers: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`);
}
