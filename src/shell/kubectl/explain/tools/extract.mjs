#!/usr/bin/env node
/**
 * Regenerates src/sim/api/openapi/*.ts: OpenAPI v3 component schemas for the kinds
 * and fields `kubectl explain` covers, in the shape the apiserver serves at /openapi/v3/<gv>.
 *
 * Source: the upstream Kubernetes OpenAPI descriptions (the Go doc comments of k8s.io/api with the
 * `+` markers removed, plus kube-openapi's "Possible enum values" sections for `+enum` types), as
 * shipped by the npm packages kubernetes-models@5.1.0 and @kubernetes-models/apimachinery@3.0.2
 * (their .d.ts files carry each field's description as JSDoc, its enum as a string-literal union,
 * and `?` on optional fields). Nothing is written by hand here except the TypeMeta descriptions
 * (apiVersion, kind), which those packages omit and which are copied from the upstream spec.
 *
 *   mkdir -p /tmp/km && cd /tmp/km && npm pack kubernetes-models@5.1.0 @kubernetes-models/apimachinery@3.0.2
 *   tar xzf kubernetes-models-5.1.0.tgz && mkdir am && tar xzf kubernetes-models-apimachinery-3.0.2.tgz -C am
 *   node src/shell/kubectl/explain/tools/extract.mjs /tmp/km/package /tmp/km/am/package
 *
 * Field-level overrides for v1.35 (where the 1.35 spec differs from the package's) are applied by
 * src/sim/api/openapi/overrides.ts at load time, so a regeneration keeps them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [models, apimachinery] = process.argv.slice(2);
if (!models || !apimachinery) {
  console.error('usage: extract.mjs <kubernetes-models/package> <apimachinery/package>');
  process.exit(2);
}
const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'sim', 'api', 'openapi');

/**
 * The package types Quantity as `number | string` without its doc comment; this is the upstream
 * description (k8s.io/apimachinery pkg/api/resource/quantity.go, as the v1.35 OpenAPI spec
 * renders it), and the v3 shape kube-openapi gives it (OpenAPIV3OneOfTypes string, number).
 */
const QUANTITY =
  'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.\n\nThe serialization format is:\n\n``` <quantity>        ::= <signedNumber><suffix>\n\n\t(Note that <suffix> may be empty, from the "" case in <decimalSI>.)\n\n<digit>           ::= 0 | 1 | ... | 9 <digits>          ::= <digit> | <digit><digits> <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits> <sign>            ::= "+" | "-" <signedNumber>    ::= <number> | <sign><number> <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI> <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei\n\n\t(International System of units; See: http://physics.nist.gov/cuu/Units/binary.html)\n\n<decimalSI>       ::= m | "" | k | M | G | T | P | E\n\n\t(Note that 1024 = 1Ki but 1000 = 1k; I didn\'t choose the capitalization.)\n\n<decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber> ```\n\nNo matter which of the three exponent forms is used, no quantity may represent a number greater than 2^63-1 in magnitude, nor may it have more than 3 decimal places. Numbers larger or more precise will be capped or rounded up. (E.g.: 0.1m will rounded up to 1m.) This may be extended in the future if we require larger or smaller quantities.\n\nWhen a Quantity is parsed from a string, it will remember the type of suffix it had, and will use the same type again when it is serialized.\n\nBefore serializing, Quantity will be put in "canonical form". This means that Exponent/suffix will be adjusted up or down (with a corresponding increase or decrease in Mantissa) such that:\n\n- No precision is lost - No fractional digits will be emitted - The exponent (or suffix) is as large as possible.\n\nThe sign will be omitted unless the number is negative.\n\nExamples:\n\n- 1.5 will be serialized as "1500m" - 1.5Gi will be serialized as "1536Mi"\n\nNote that the quantity will NEVER be internally represented by a floating point number. That is the whole point of this exercise.\n\nNon-canonical values will still parse as long as they are well formed, but will be re-emitted in their canonical form. (So always use canonical form, or don\'t diff.)\n\nThis format is intended to make it difficult to use these numbers without writing some sort of special handling code in the hopes that that will cause implementors to also use a fixed point implementation.';

const API_VERSION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** group file → [ts path prefix, schema-name prefix, type names] */
const GROUPS = {
  core: [join(models, 'v1'), 'io.k8s.api.core.v1', [
    'Pod', 'PodSpec', 'PodTemplateSpec', 'PodDNSConfig', 'PodDNSConfigOption', 'Container', 'ContainerPort', 'Probe',
    'ExecAction', 'HTTPGetAction', 'HTTPHeader', 'TCPSocketAction', 'GRPCAction', 'EnvVar', 'VolumeMount',
    'ResourceRequirements', 'ResourceClaim', 'Toleration', 'Volume', 'ConfigMapVolumeSource', 'SecretVolumeSource',
    'EmptyDirVolumeSource', 'HostPathVolumeSource', 'PersistentVolumeClaimVolumeSource', 'KeyToPath',
    'Service', 'ServiceSpec', 'ServicePort', 'SessionAffinityConfig', 'ClientIPConfig',
    'ConfigMap', 'Node', 'NodeSpec', 'Taint',
    'LimitRange', 'LimitRangeSpec', 'LimitRangeItem', 'ResourceQuota', 'ResourceQuotaSpec', 'ScopeSelector',
    'ScopedResourceSelectorRequirement',
  ]],
  apps: [join(models, 'apps/v1'), 'io.k8s.api.apps.v1', ['Deployment', 'DeploymentSpec', 'DeploymentStrategy', 'RollingUpdateDeployment']],
  networking: [join(models, 'networking.k8s.io/v1'), 'io.k8s.api.networking.v1', [
    'NetworkPolicy', 'NetworkPolicySpec', 'NetworkPolicyIngressRule', 'NetworkPolicyEgressRule', 'NetworkPolicyPeer',
    'NetworkPolicyPort', 'IPBlock', 'Ingress', 'IngressSpec', 'IngressRule', 'HTTPIngressRuleValue', 'HTTPIngressPath',
    'IngressBackend', 'IngressServiceBackend', 'ServiceBackendPort', 'IngressTLS',
  ]],
  discovery: [join(models, 'discovery.k8s.io/v1'), 'io.k8s.api.discovery.v1', [
    'EndpointSlice', 'Endpoint', 'EndpointConditions', 'EndpointHints', 'EndpointPort', 'ForZone', 'ForNode',
  ]],
  meta: [join(apimachinery, 'apis/meta/v1'), 'io.k8s.apimachinery.pkg.apis.meta.v1', ['LabelSelector', 'LabelSelectorRequirement', 'Time']],
  resource: [join(apimachinery, 'api/resource'), 'io.k8s.apimachinery.pkg.api.resource', []],
  intstr: [join(apimachinery, 'util/intstr'), 'io.k8s.apimachinery.pkg.util.intstr', ['IntOrString']],
  runtime: [join(apimachinery, 'runtime'), 'io.k8s.apimachinery.pkg.runtime', []],
  batch: [join(models, 'batch/v1'), 'io.k8s.api.batch.v1', []],
  storage: [join(models, 'storage.k8s.io/v1'), 'io.k8s.api.storage.v1', []],
  autoscaling: [join(models, 'autoscaling/v2'), 'io.k8s.api.autoscaling.v2', []],
  rbac: [join(models, 'rbac.authorization.k8s.io/v1'), 'io.k8s.api.rbac.v1', []],
  policy: [join(models, 'policy/v1'), 'io.k8s.api.policy.v1', []],
  scheduling: [join(models, 'scheduling.k8s.io/v1'), 'io.k8s.api.scheduling.v1', []],
  node: [join(models, 'node.k8s.io/v1'), 'io.k8s.api.node.v1', []],
  admissionregistration: [join(models, 'admissionregistration.k8s.io/v1'), 'io.k8s.api.admissionregistration.v1', []],
  flowcontrol: [join(models, 'flowcontrol.apiserver.k8s.io/v1'), 'io.k8s.api.flowcontrol.v1', []],
  events: [join(models, 'events.k8s.io/v1'), 'io.k8s.api.events.v1', []],
  // resource.k8s.io (DRA); resource.ts is apimachinery's api/resource (Quantity)
  dra: [join(models, 'resource.k8s.io/v1'), 'io.k8s.api.resource.v1', []],
  authentication: [join(models, 'authentication.k8s.io/v1'), 'io.k8s.api.authentication.v1', []],
  authorization: [join(models, 'authorization.k8s.io/v1'), 'io.k8s.api.authorization.v1', []],
  certificates: [join(models, 'certificates.k8s.io/v1'), 'io.k8s.api.certificates.v1', []],
  coordination: [join(models, 'coordination.k8s.io/v1'), 'io.k8s.api.coordination.v1', []],
};

/**
 * Kinds documented with every type they reference, beside those listed in GROUPS: every schema
 * written is closed over its `$ref`s (spec, status, every nested struct, and the apimachinery
 * types ObjectMeta, Quantity, Condition …), so each reference the served document makes resolves,
 * as in the apiserver's own /openapi/v3 documents. A type already written is not parsed again.
 */
const CLOSURE_ROOTS = [
  'io.k8s.api.apps.v1.DeploymentStatus',
  'io.k8s.api.apps.v1.StatefulSet', 'io.k8s.api.apps.v1.DaemonSet', 'io.k8s.api.apps.v1.ReplicaSet',
  'io.k8s.api.batch.v1.Job', 'io.k8s.api.batch.v1.CronJob',
  'io.k8s.api.core.v1.PersistentVolumeClaim', 'io.k8s.api.core.v1.PersistentVolume', 'io.k8s.api.core.v1.Secret',
  'io.k8s.api.core.v1.ServiceAccount', 'io.k8s.api.core.v1.Namespace', 'io.k8s.api.core.v1.Endpoints',
  'io.k8s.api.storage.v1.StorageClass', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
  'io.k8s.api.rbac.v1.Role', 'io.k8s.api.rbac.v1.ClusterRole', 'io.k8s.api.rbac.v1.RoleBinding', 'io.k8s.api.rbac.v1.ClusterRoleBinding',
  'io.k8s.api.policy.v1.PodDisruptionBudget', 'io.k8s.api.scheduling.v1.PriorityClass',
  // the rest of the kinds a kubeadm v1.35 apiserver serves (sim/api/registry.ts RESOURCES)
  ...['Event', 'Binding', 'ComponentStatus', 'PodTemplate', 'ReplicationController'].map((t) => `io.k8s.api.core.v1.${t}`),
  'io.k8s.api.apps.v1.ControllerRevision',
  ...['CSIDriver', 'CSINode', 'CSIStorageCapacity', 'VolumeAttachment', 'VolumeAttributesClass'].map((t) => `io.k8s.api.storage.v1.${t}`),
  ...['IngressClass', 'IPAddress', 'ServiceCIDR'].map((t) => `io.k8s.api.networking.v1.${t}`),
  'io.k8s.api.node.v1.RuntimeClass',
  ...['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']
    .map((t) => `io.k8s.api.admissionregistration.v1.${t}`),
  'io.k8s.api.flowcontrol.v1.FlowSchema', 'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration',
  'io.k8s.api.events.v1.Event',
  ...['DeviceClass', 'ResourceClaim', 'ResourceClaimTemplate', 'ResourceSlice'].map((t) => `io.k8s.api.resource.v1.${t}`),
  'io.k8s.api.authentication.v1.TokenReview', 'io.k8s.api.authentication.v1.SelfSubjectReview',
  ...['LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SubjectAccessReview'].map((t) => `io.k8s.api.authorization.v1.${t}`),
  'io.k8s.api.certificates.v1.CertificateSigningRequest',
  'io.k8s.api.coordination.v1.Lease',
  // the PodSpec and Container fields `kubectl explain` walks into (pod.spec.affinity,
  // pod.spec.securityContext, containers.securityContext.capabilities, envFrom, lifecycle, …)
  ...['Affinity', 'PodSecurityContext', 'SecurityContext', 'TopologySpreadConstraint', 'EnvFromSource', 'EnvVarSource', 'Lifecycle',
    'PodOS', 'HostAlias', 'PodReadinessGate', 'PodSchedulingGate', 'PodResourceClaim', 'ContainerResizePolicy', 'ContainerRestartRule',
    'VolumeDevice', 'EphemeralContainer', 'DownwardAPIVolumeSource', 'ProjectedVolumeSource', 'CSIVolumeSource',
    'EphemeralVolumeSource', 'ImageVolumeSource'].map((t) => `io.k8s.api.core.v1.${t}`),
];

/**
 * Inline object types the package generator expanded in place of a `$ref` (embedded resources):
 * `<schema>.<field>` → the upstream reference.
 */
const INLINE_REFS = {
  'io.k8s.api.apps.v1.StatefulSetSpec.volumeClaimTemplates': 'IIoK8sApiCoreV1PersistentVolumeClaim',
};

/** `IIoK8sApiCoreV1PodSpec` → `io.k8s.api.core.v1.PodSpec` (the upstream schema name). */
function refName(tsName) {
  const m = /^IIoK8s(Apimachinery|Api)(.*)$/.exec(tsName);
  if (!m) throw new Error(`unknown type ${tsName}`);
  if (m[1] === 'Api') {
    const g = /^(Core|Apps|Networking|Discovery|Resource|Batch|Storage|Autoscaling|Rbac|Policy|Scheduling|Node|Admissionregistration|Flowcontrol|Events|Authentication|Authorization|Certificates|Coordination)(V1|V2|V1beta1|V1alpha1)(.*)$/.exec(m[2]);
    if (!g) throw new Error(`unknown api type ${tsName}`);
    return `io.k8s.api.${g[1].toLowerCase()}.${g[2].toLowerCase()}.${g[3]}`;
  }
  const a = /^Pkg(ApisMetaV1|UtilIntstr|ApiResource|Runtime)(.*)$/.exec(m[2]);
  if (!a) throw new Error(`unknown apimachinery type ${tsName}`);
  const pkg = { ApisMetaV1: 'apis.meta.v1', UtilIntstr: 'util.intstr', ApiResource: 'api.resource', Runtime: 'runtime' }[a[1]];
  return `io.k8s.apimachinery.pkg.${pkg}.${a[2]}`;
}

/** JSDoc block → description text (the generator prefixes every line with ` * `). */
function docText(block) {
  return block
    .replace(/^\/\*\*\n?/, '')
    .replace(/\n?\s*\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
    .join('\n')
    .replace(/\*\\\//g, '*/')
    // The package escapes `*` inside JSDoc (`containers[\*]`); the spec text has a plain `*`.
    .replace(/\\\*/g, '*')
    .trim();
}

function tsTypeToSchema(t) {
  t = t.trim();
  const arr = /^Array<(.*)>$/.exec(t);
  if (arr) return { type: 'array', items: tsTypeToSchema(arr[1]) };
  const map = /^\{\s*\[key: string\]: (.*);\s*\}$/.exec(t);
  if (map) return { type: 'object', additionalProperties: tsTypeToSchema(map[1]) };
  if (t === 'string') return { type: 'string' };
  if (t === 'boolean') return { type: 'boolean' };
  if (t === 'number') return { type: 'integer' };
  if (/^(".*?"( \| )?)+$/.test(t)) return { type: 'string', enum: [...t.matchAll(/"(.*?)"/g)].map((m) => m[1]) };
  if (/^IIoK8s/.test(t)) return { $ref: `#/components/schemas/${refName(t)}` };
  throw new Error(`unhandled TS type ${t}`);
}

function parseType(dir, name, full) {
  if (full === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return { description: QUANTITY, oneOf: [{ type: 'string' }, { type: 'number' }] };
  const src = readFileSync(join(dir, `${name}.d.ts`), 'utf8');
  const alias = new RegExp(`(\\/\\*\\*[\\s\\S]*?\\*\\/)\\nexport type I${name} = (.*);`).exec(src);
  if (alias) {
    const description = docText(alias[1]);
    if (name === 'IntOrString') return { description, format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] };
    if (name === 'Time') return { description, format: 'date-time', type: 'string' };
    if (name === 'MicroTime') return { description, format: 'date-time', type: 'string' };
    throw new Error(`alias ${name}`);
  }
  // A struct with its own JSON form and no fields (FieldsV1): an object of any shape.
  const empty = new RegExp(`(\\/\\*\\*[\\s\\S]*?\\*\\/)\\nexport interface I${name} \\{\\n\\}`).exec(src);
  if (empty) return { description: docText(empty[1]), type: 'object' };
  const head = new RegExp(`(\\/\\*\\*[\\s\\S]*?\\*\\/)\\nexport interface I${name}(?: extends TypeMeta)? \\{\\n([\\s\\S]*?)\\n\\}`).exec(src);
  if (!head) throw new Error(`no interface I${name} in ${dir}`);
  const schema = { description: docText(head[1]), properties: {}, required: [], type: 'object' };
  // Collapse multi-line map types (`{\n [key: string]: T;\n }`) onto one line first.
  const body = head[2].replace(/\{\n\s*\[key: string\]: ([^;\n]*);\n\s*\}/g, '{ [key: string]: $1; }');
  // An inline object type (an embedded resource the package expanded) becomes its upstream $ref.
  const inlined = body.replace(/"([A-Za-z0-9$_-]+)"(\??): Array<\{\n[\s\S]*?\n {4}\}>;/g, (_, field, opt) => {
    const ref = INLINE_REFS[`${full}.${field}`];
    if (!ref) throw new Error(`inline type at ${full}.${field}`);
    return `"${field}"${opt}: Array<${ref}>;`;
  });
  const re = /(?:(\/\*\*(?:(?!\*\/)[\s\S])*\*\/)\n\s*)?"([A-Za-z0-9$_-]+)"(\?)?: ([^\n]*);\n?/g;
  let m;
  const props = [];
  while ((m = re.exec(inlined))) {
    const [, doc, field, opt, type] = m;
    let prop;
    if (field === 'apiVersion' && /^"/.test(type)) prop = { description: API_VERSION, type: 'string' };
    // TypeMeta's kind is one literal; a `kind` enum (AzureDiskVolumeSource.kind) is a field of its own
    else if (field === 'kind' && /^"[^"]*"$/.test(type)) prop = { description: KIND, type: 'string' };
    else {
      const s = tsTypeToSchema(type);
      prop = s.$ref ? { allOf: [s] } : s;
      if (s.type === 'array' && s.items.$ref) prop = { ...s, items: { allOf: [s.items] } };
      if (doc) prop = { description: docText(doc), ...prop };
      if (!opt) schema.required.push(field);
    }
    props.push([field, prop]);
  }
  for (const [k, v] of props.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) schema.properties[k] = v;
  if (schema.required.length === 0) delete schema.required;
  return schema;
}

const out = {};
const dirs = {};
for (const [file, [dir, prefix, names]] of Object.entries(GROUPS)) {
  dirs[prefix] = [file, dir];
  out[file] = {};
  for (const n of names) out[file][`${prefix}.${n}`] = parseType(dir, n, `${prefix}.${n}`);
}
const have = (name) => Object.values(out).some((schemas) => name in schemas);
/** Every `$ref` target in a schema. */
function refsOf(s, acc = []) {
  if (s && typeof s === 'object') {
    for (const [k, v] of Object.entries(s)) {
      if (k === '$ref') acc.push(v.slice('#/components/schemas/'.length));
      else refsOf(v, acc);
    }
  }
  return acc;
}
/** Add `names` and everything they reference (breadth first) to their groups' files. */
function close(names) {
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.shift();
    if (have(name)) continue;
    const prefix = name.slice(0, name.lastIndexOf('.'));
    const group = dirs[prefix];
    if (!group) throw new Error(`no group for ${name}`);
    const schema = parseType(group[1], name.slice(prefix.length + 1), name);
    out[group[0]][name] = schema;
    queue.push(...refsOf(schema));
  }
}
// the roots first, then what the listed types reference: each file keeps the order of earlier runs and grows at its end
close(CLOSURE_ROOTS);
close(Object.values(out).flatMap((schemas) => Object.values(schemas).flatMap((s) => refsOf(s))));

for (const [file, schemas] of Object.entries(out)) {
  // one JSON text per [name, schema]: parsed when first needed (schema.ts schemaComponents), not compiled on every start
  const body = Object.entries(schemas).map((e) => `  ${JSON.stringify(JSON.stringify(e))},`).join('\n');
  writeFileSync(
    join(outDir, `${file}.ts`),
    `/**\n * Generated by src/shell/kubectl/explain/tools/extract.mjs from the upstream Kubernetes OpenAPI descriptions (see there); do not edit.\n */\n\n/** [definition name, schema] pairs, one JSON text each: made and parsed when first needed (schema.ts), so a command that needs none (most) neither builds the array nor loads its strings from its code cache. */\nexport const SCHEMAS_JSON = (): readonly string[] => [\n${body}\n];\n`,
  );
  console.log(`${file}: ${Object.keys(schemas).length} schemas`);
}
