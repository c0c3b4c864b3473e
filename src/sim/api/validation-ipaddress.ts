/**
 * IPAddress validation (networking.k8s.io/v1), as kube-apiserver v1.35 does it
 * (k8s.io/kubernetes pkg/apis/networking/validation/validation.go ValidateIPAddressName,
 * ValidateIPAddress, validateIPAddressParentReference, ValidateIPAddressUpdate): the name must be an
 * IP address in canonical form (k8s.io/apimachinery pkg/util/validation/ip.go IsValidIP), spec.parentRef
 * is required with its resource and name, its group a DNS subdomain when set, and resource, name and
 * namespace path segment names (pkg/api/validation/path IsValidPathSegmentName); parentRef is
 * immutable.
 */
import { type FieldError, field, goQuote } from './errors.js';
import { subdomainProblems } from './validation.js';
import { goNetIPString, is4In6, netipParses, parseIPSloppy } from '../../util/go-ip.js';

/** validation.IsValidIP's details for a name (ValidateIPAddressName passes them through). */
export function ipAddressNameProblems(name: string): string[] {
  const ip = parseIPSloppy(name);
  if (!ip) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  const errs: string[] = [];
  const strict = netipParses(name);
  if (!strict) errs.push('must not have leading 0s');
  if (strict && is4In6(name, ip)) errs.push('must not be an IPv4-mapped IPv6 address');
  if (errs.length > 0) return errs;
  const canonical = goNetIPString(ip);
  return name === canonical ? [] : [`must be in canonical form (${goQuote(canonical)})`];
}

/** ValidateObjectMeta's name check with ValidateIPAddressName. */
export function validateIPAddressName(name: string): FieldError[] {
  return ipAddressNameProblems(name).map((msg) => field.invalid('metadata.name', name, msg));
}

/** path.IsValidPathSegmentName. */
function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

interface ParentReference {
  group?: string;
  resource?: string;
  namespace?: string;
  name?: string;
}

const parentRefOf = (obj: Record<string, unknown>): ParentReference | undefined =>
  ((obj['spec'] as { parentRef?: ParentReference | null } | undefined)?.parentRef ?? undefined) as ParentReference | undefined;

/** `%#v` of the internal networking.ParentReference, as field.Invalid prints a struct. */
function goSyntax(r: ParentReference | undefined): string {
  if (!r) return 'null';
  return `networking.ParentReference{Group:${goQuote(r.group ?? '')}, Resource:${goQuote(r.resource ?? '')}, Namespace:${goQuote(r.namespace ?? '')}, Name:${goQuote(r.name ?? '')}}`;
}

/** ValidateIPAddress (less ObjectMeta, checked with the others' metadata) and, on update, ValidateIPAddressUpdate. */
export function validateIPAddress(obj: Record<string, unknown>, old: Record<string, unknown> | undefined): FieldError[] {
  const ref = parentRefOf(obj);
  if (old) {
    const before = parentRefOf(old);
    const same = (a: ParentReference | undefined, b: ParentReference | undefined): boolean =>
      (a === undefined) === (b === undefined) && (['group', 'resource', 'namespace', 'name'] as const).every((k) => (a?.[k] ?? '') === (b?.[k] ?? ''));
    return same(ref, before) ? [] : [field.invalidRaw('spec.parentRef', goSyntax(ref), 'field is immutable')];
  }
  if (!ref) return [field.required('spec.parentRef')];
  const errs: FieldError[] = [];
  const p = 'spec.parentRef';
  if (ref.group) for (const msg of subdomainProblems(ref.group)) errs.push(field.invalid(`${p}.group`, ref.group, msg));
  if (!ref.resource) errs.push(field.required(`${p}.resource`));
  else for (const msg of pathSegmentProblems(ref.resource)) errs.push(field.invalid(`${p}.resource`, ref.resource, msg));
  if (!ref.name) errs.push(field.required(`${p}.name`));
  else for (const msg of pathSegmentProblems(ref.name)) errs.push(field.invalid(`${p}.name`, ref.name, msg));
  if (ref.namespace) for (const msg of pathSegmentProblems(ref.namespace)) errs.push(field.invalid(`${p}.namespace`, ref.namespace, msg));
  return errs;
}
