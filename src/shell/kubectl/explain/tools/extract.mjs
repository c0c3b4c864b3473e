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
  intstr: [join(apimachinery, 'util/intstr'), 'io.k8s.apimachinery.pkg.util.intstr', ['IntOrString']],
  batch: [join(models, 'batch/v1'), 'io.k8s.api.batch.v1', []],
  storage: [join(models, 'storage.k8s.io/v1'), 'io.k8s.api.storage.v1', []],
  autoscaling: [join(models, 'autoscaling/v2'), 'io.k8s.api.autoscaling.v2', []],
  rbac: [join(models, 'rbac.authorization.k8s.io/v1'), 'io.k8s.api.rbac.v1', []],
  policy: [join(models, 'policy/v1'), 'io.k8s.api.policy.v1', []],
  scheduling: [join(models, 'scheduling.k8s.io/v1'), 'io.k8s.api.scheduling.v1', []],
};

/**
 * Kinds documented with every type they reference: each root's struct closure (spec, status and
 * every nested struct) is added to its group's file. The walk stops at types already listed in
 * GROUPS (so PodTemplateSpec keeps the field set listed there) and at apimachinery types other
 * than those listed (ObjectMeta, Quantity, Condition … stay out; the decoder handles them itself).
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
    const g = /^(Core|Apps|Networking|Discovery|Resource|Batch|Storage|Autoscaling|Rbac|Policy|Scheduling)(V1|V2|V1beta1|V1alpha1)(.*)$/.exec(m[2]);
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
  const src = readFileSync(join(dir, `${name}.d.ts`), 'utf8');
  const alias = new RegExp(`(\\/\\*\\*[\\s\\S]*?\\*\\/)\\nexport type I${name} = (.*);`).exec(src);
  if (alias) {
    const description = docText(alias[1]);
    if (name === 'IntOrString') return { description, format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] };
    if (name === 'Time') return { description, format: 'date-time', type: 'string' };
    throw new Error(`alias ${name}`);
  }
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
    else if (field === 'kind' && /^"/.test(type)) prop = { description: KIND, type: 'string' };
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
const queue = [...CLOSURE_ROOTS];
while (queue.length > 0) {
  const name = queue.shift();
  if (have(name) || name.startsWith('io.k8s.apimachinery.')) continue;
  const prefix = name.slice(0, name.lastIndexOf('.'));
  const group = dirs[prefix];
  if (!group) throw new Error(`no group for ${name}`);
  const schema = parseType(group[1], name.slice(prefix.length + 1), name);
  out[group[0]][name] = schema;
  queue.push(...refsOf(schema));
}

for (const [file, schemas] of Object.entries(out)) {
  // one JSON text per [name, schema]: parsed when first needed (schema.ts schemaComponents), not compiled on every start
  const body = Object.entries(schemas).map((e) => `  ${JSON.stringify(JSON.stringify(e))},`).join('\n');
  writeFileSync(
    join(outDir, `${file}.ts`),
    `/**\n * Generated by src/shell/kubectl/explain/tools/extract.mjs from the upstream Kubernetes OpenAPI descriptions (see there); do not edit.\n */\n\n/** [definition name, schema] pairs, one JSON text each: parsed when first needed (schema.ts), not compiled on every start. */\nexport const SCHEMAS_JSON: readonly string[] = [\n${body}\n];\n`,
  );
  console.log(`${file}: ${Object.keys(schemas).length} schemas`);
}
