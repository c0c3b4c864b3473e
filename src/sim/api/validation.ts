/**
 * Name and object validation with the API server's exact wording
 * (k8s.io/apimachinery pkg/util/validation/validation.go, pkg/api/validation/objectmeta.go,
 * k8s.io/kubernetes pkg/apis/core/validation/validation.go; ../shared/reference/kubectl.md §8.3).
 */
import { type FieldError, field } from './errors.js';

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

export function validateName(name: string, rule: NameRule, path = 'metadata.name'): FieldError[] {
  const errs: FieldError[] = [];
  if (rule === 'subdomain') {
    if (name.length > 253) errs.push(field.invalid(path, name, 'must be no more than 253 characters'));
    if (!DNS1123_SUBDOMAIN.test(name)) errs.push(field.invalid(path, name, MSG_SUBDOMAIN));
  } else if (rule === 'label') {
    if (name.length > 63) errs.push(field.invalid(path, name, 'must be no more than 63 characters'));
    if (!DNS1123_LABEL.test(name)) errs.push(field.invalid(path, name, MSG_LABEL));
  } else {
    if (name.length > 63) errs.push(field.invalid(path, name, 'must be no more than 63 characters'));
    if (!DNS1035_LABEL.test(name)) errs.push(field.invalid(path, name, MSG_1035));
  }
  return errs;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const v of Object.values(labels ?? {})) {
    if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE.test(v))
      errs.push(
        field.invalid(
          path,
          v,
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ),
      );
  }
  return errs;
}

export function inclusiveRange(path: string, value: number, lo: number, hi: number): FieldError | undefined {
  if (!Number.isInteger(value) || value < lo || value > hi)
    return field.invalid(path, value, `must be between ${lo} and ${hi}, inclusive`);
  return undefined;
}
