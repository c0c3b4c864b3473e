/**
 * A CustomResourceDefinition's own validation (apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go ValidateCustomResourceDefinition and
 * validateCustomResourceDefinitionSpec): the name is `<plural>.<group>`, the group a domain with
 * a dot, the scope Cluster or Namespaced, version names DNS-1035 labels and unique, exactly one
 * storage version, a schema for every version (required in apiextensions.k8s.io/v1), the plural
 * and kind given, the scale subresource's paths. The structural-schema rules and CEL are not
 * checked here.
 */
import { field, type FieldError } from './errors.js';
import type { CrdVersion, CustomResourceDefinition } from './crd.js';
import { MSG_1035 } from './validation.js';
import { canonicalJSON } from '../../util/canonical-json.js';
import type { JSONSchemaProps } from './crd-schema.js';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const MSG_SUBDOMAIN_1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const MSG_LABEL_1123 =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** A pointer as %#v prints it: the address is the process's; this one is stable per field. */
function pointer(type: string, set: boolean, seed: string): string {
  if (!set) return `(*${type})(nil)`;
  let h = 0x811c9dc5;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `(*${type})(0xc000${(h & 0xffffff).toString(16).padStart(6, '0')})`;
}

const q = (s: string | undefined): string => JSON.stringify(s ?? '');

/** fmt `%#v` of the internal []apiextensions.CustomResourceDefinitionVersion field.Invalid shows. */
export function goSyntaxVersions(crdName: string, versions: readonly CrdVersion[] | undefined): string {
  if (!versions) return '[]apiextensions.CustomResourceDefinitionVersion(nil)';
  const one = (v: CrdVersion, i: number): string => {
    const cols = v.additionalPrinterColumns
      ? `[]apiextensions.CustomResourceColumnDefinition{${v.additionalPrinterColumns
          .map((c) => `apiextensions.CustomResourceColumnDefinition{Name:${q(c.name)}, Type:${q(c.type)}, Format:${q(c.format)}, Description:${q(c.description)}, Priority:${c.priority ?? 0}, JSONPath:${q(c.jsonPath)}}`)
          .join(', ')}}`
      : '[]apiextensions.CustomResourceColumnDefinition(nil)';
    return (
      `apiextensions.CustomResourceDefinitionVersion{Name:${q(v.name)}, Served:${v.served === true}, Storage:${v.storage === true}, Deprecated:${v.deprecated === true}, ` +
      `DeprecationWarning:${pointer('string', v.deprecationWarning !== undefined, `${crdName}/${i}/dw`)}, ` +
      `Schema:${pointer('apiextensions.CustomResourceValidation', v.schema !== undefined, `${crdName}/${i}/schema`)}, ` +
      `Subresources:${pointer('apiextensions.CustomResourceSubresources', v.subresources !== undefined, `${crdName}/${i}/sub`)}, ` +
      `AdditionalPrinterColumns:${cols}, SelectableFields:[]apiextensions.SelectableField(nil)}`
    );
  };
  return `[]apiextensions.CustomResourceDefinitionVersion{${versions.map(one).join(', ')}}`;
}

export function validateCrd(crd: CustomResourceDefinition): FieldError[] {
  const errs: FieldError[] = [];
  const spec = (crd.spec ?? {}) as Partial<CustomResourceDefinition['spec']>;
  const names = (spec.names ?? {}) as Partial<CustomResourceDefinition['spec']['names']>;
  const name = crd.metadata.name ?? '';
  if (name !== `${names.plural ?? ''}.${spec.group ?? ''}`) errs.push(field.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  if (!spec.group) errs.push(field.required('spec.group'));
  else if (!DNS1123_SUBDOMAIN.test(spec.group)) errs.push(field.invalid('spec.group', spec.group, MSG_SUBDOMAIN_1123));
  else if (spec.group.split('.').length < 2) errs.push(field.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  if (!spec.scope) errs.push(field.required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(field.notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced'], true));
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    if (!v.schema?.openAPIV3Schema) errs.push(field.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
  });
  // the v1 → internal conversion moves the schema and the subresources every version shares to
  // spec.validation and spec.subresources: their errors are then named there, after the names
  const sharedSchema = versions.length > 0 && versions.every((v) => canonicalJSON(v.schema) === canonicalJSON(versions[0]!.schema));
  // (apiextensions v1 conversion.go Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_…):
  // their errors are then named there, after the names, else under each version
  const shared = versions.length > 0 && versions.every((v) => canonicalJSON(v.subresources) === canonicalJSON(versions[0]!.subresources));
  versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    if (!DNS1035_LABEL.test(v.name ?? '')) errs.push(field.invalid(`${at}.name`, v.name ?? '', MSG_1035));
    if (!sharedSchema) errs.push(...schemaErrors(v.schema?.openAPIV3Schema as JSONSchemaProps | undefined, `${at}.schema.openAPIV3Schema`));
    if (!shared) errs.push(...subresourceErrors(v.subresources, `${at}.subresources`));
  });
  if (!unique) errs.push(field.invalidRaw('spec.versions', goSyntaxVersions(name, spec.versions), 'must contain unique version names'));
  if (versions.filter((v) => v.storage === true).length !== 1)
    errs.push(field.invalidRaw('spec.versions', goSyntaxVersions(name, spec.versions), 'must have exactly one version marked as storage version'));
  if (!names.plural) errs.push(field.required('spec.names.plural'));
  else if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(names.plural)) errs.push(field.invalid('spec.names.plural', names.plural, MSG_LABEL_1123));
  // singular and listKind were defaulted from kind (SetDefaults_CustomResourceDefinition)
  if (!names.singular) errs.push(field.required('spec.names.singular'));
  if (!names.kind) errs.push(field.required('spec.names.kind'));
  if (!names.listKind) errs.push(field.required('spec.names.listKind'));
  if (sharedSchema) errs.push(...schemaErrors(versions[0]!.schema?.openAPIV3Schema as JSONSchemaProps | undefined, 'spec.validation.openAPIV3Schema'));
  if (shared) errs.push(...subresourceErrors(versions[0]!.subresources, 'spec.subresources'));
  return errs;
}

type Level = 'root' | 'field' | 'item';
const EMPTY_TYPE: Record<Level, string> = { root: 'must not be empty at the root', field: 'must not be empty for specified object fields', item: 'must not be empty for specified array items' };
const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

/**
 * The structural-schema invariants a v1 CRD's schema must keep (apiextensions-apiserver
 * pkg/apiserver/schema/validation.go validateStructuralInvariants, v1.35): every node but an
 * int-or-string or preserve-unknown-fields one has a type (`must not be empty at the root` /
 * `for specified object fields` / `for specified array items`), an embedded resource's is object,
 * the root's is object. ValidateStructural sorts its errors by their text.
 */
function structuralErrors(s: JSONSchemaProps, lvl: Level, at: string, out: FieldError[]): void {
  const type = s.type ?? '';
  if (s['x-kubernetes-embedded-resource'] && type !== 'object') {
    out.push(type === '' ? field.required(`${at}.type`, 'must be object if x-kubernetes-embedded-resource is true') : field.invalid(`${at}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields']) out.push(field.required(`${at}.type`, EMPTY_TYPE[lvl]));
  if (lvl === 'root' && type !== '' && type !== 'object') out.push(field.invalid(`${at}.type`, type, 'must be object at the root'));
  for (const [k, p] of Object.entries(s.properties ?? {})) if (p && typeof p === 'object') structuralErrors(p, 'field', `${at}.properties[${k}]`, out);
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) structuralErrors(s.items, 'item', `${at}.items`, out);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') structuralErrors(s.additionalProperties, 'field', `${at}.additionalProperties`, out);
}

/**
 * validation.go ValidateCustomResourceDefinitionOpenAPISchema's rules for each node (v1.35):
 * a type among the OpenAPI v3 ones (specStandardValidatorV3, NotSupported with the sorted list),
 * no uniqueItems, no additionalProperties beside properties, x-kubernetes-preserve-unknown-fields
 * true or absent; depth first, properties in the schema's order (Go's map order is random).
 */
function openAPISchemaErrors(s: JSONSchemaProps, at: string, out: FieldError[]): void {
  if (s.type && !OPENAPI_V3_TYPES.includes(s.type)) out.push(field.notSupported(`${at}.type`, s.type, OPENAPI_V3_TYPES, true));
  if (s.uniqueItems) out.push(field.forbidden(`${at}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const ap = s.additionalProperties;
  if (ap !== undefined && Object.keys(s.properties ?? {}).length > 0 && (ap === false || typeof ap === 'object')) out.push(field.forbidden(`${at}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  if (ap && typeof ap === 'object') openAPISchemaErrors(ap, `${at}.additionalProperties`, out);
  for (const [k, p] of Object.entries(s.properties ?? {})) if (p && typeof p === 'object') openAPISchemaErrors(p, `${at}.properties[${k}]`, out);
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) openAPISchemaErrors(s.items, `${at}.items`, out);
  if (s['x-kubernetes-preserve-unknown-fields'] === false) out.push(field.invalid(`${at}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
}

/**
 * validateCustomResourceDefinitionValidation for a v1 CRD (structural schemas required): the
 * structural errors, sorted, then the OpenAPI schema ones. CEL rules, defaults, list and map
 * types and the metadata restrictions are not checked here.
 */
function schemaErrors(schema: JSONSchemaProps | undefined, at: string): FieldError[] {
  if (!schema || typeof schema !== 'object') return [];
  const structural: FieldError[] = [];
  structuralErrors(schema, 'root', at, structural);
  const text = (e: FieldError): string => `${e.field}: ${e.body}`;
  structural.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
  const generic: FieldError[] = [];
  openAPISchemaErrors(schema, at, generic);
  return [...structural, ...generic];
}

/** validateSimpleJSONPath: not empty, starting with a dot. */
function simplePathErrors(s: string, at: string): FieldError[] {
  if (s.length === 0) return [field.invalid(at, s, 'must not be empty')];
  if (!s.startsWith('.')) return [field.invalid(at, s, 'must be a simple json path starting with .')];
  return [];
}

/**
 * ValidateCustomResourceDefinitionSubresources (apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go, v1.35): the scale subresource's spec replicas
 * path is required and a simple JSON path under `.spec.`, the status one under `.status.`, a
 * label selector path (when given) under either.
 */
function subresourceErrors(sub: CrdVersion['subresources'], at: string): FieldError[] {
  const scale = sub?.scale as { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string } | undefined;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const path = (value: string | undefined, name: string, prefixes: string[], under: string): void => {
    const f = `${at}.scale.${name}`;
    if (value === undefined || value === '') {
      if (name !== 'labelSelectorPath') errs.push(field.required(f));
      return;
    }
    const bad = simplePathErrors(value, f);
    if (bad.length > 0) errs.push(...bad);
    else if (!prefixes.some((p) => value.startsWith(p))) errs.push(field.invalid(f, value, `should be a json path under ${under}`));
  };
  path(scale.specReplicasPath, 'specReplicasPath', ['.spec.'], '.spec');
  path(scale.statusReplicasPath, 'statusReplicasPath', ['.status.'], '.status');
  path(scale.labelSelectorPath, 'labelSelectorPath', ['.spec.', '.status.'], 'either .spec or .status');
  return errs;
}
