/**
 * Where the v1.35 OpenAPI spec differs from the generated schema files (which come from a
 * slightly newer upstream spec, see tools/extract.mjs). Each entry was read from the v1.35
 * definitions (k8s-openapi src/v1_35, generated from the v1.35 spec) and replaces or removes one
 * property, or adds or removes one definition.
 */
import type { Schema, SchemaMap } from './schema.js';
import { DOCS_V135 } from './docs-v135.generated.js';

/**
 * A v1.35 description (of a type when `field` is '', else of one field), or a type or field
 * v1.35 lacks (`remove`): generated from k8s.io/api v0.35.2 (docs-v135.generated.ts).
 */
export interface DocOverride {
  schema: string;
  field: string;
  description?: string;
  remove?: true;
}

interface Override {
  schema: string;
  field: string;
  /** undefined removes the field (unless `description` is given). */
  value?: Schema;
  /** Replaces only the field's description, keeping its type. */
  description?: string;
}

const PORTWORX_DEPRECATED =
  'portworxVolume represents a portworx volume attached and mounted on kubelets host machine. Deprecated: PortworxVolume is deprecated. All operations for the in-tree portworxVolume type are redirected to the pxd.portworx.com CSI driver when the CSIMigrationPortworx feature-gate is on.';

const OVERRIDES: readonly Override[] = [
  // v1.36 renamed PodSpec.workloadRef to schedulingGroup; v1.35 has workloadRef.
  { schema: 'io.k8s.api.core.v1.PodSpec', field: 'schedulingGroup' },
  {
    schema: 'io.k8s.api.core.v1.PodSpec',
    field: 'workloadRef',
    value: {
      description:
        'WorkloadRef provides a reference to the Workload object that this Pod belongs to. This field is used by the scheduler to identify the PodGroup and apply the correct group scheduling policies. The Workload object referenced by this field may not exist at the time the Pod is created. This field is immutable, but a Workload object with the same name may be recreated with different policies. Doing this during pod scheduling may result in the placement not conforming to the expected policies.',
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.WorkloadReference' }],
    },
  },
  {
    schema: 'io.k8s.api.core.v1.PodSpec',
    field: 'hostUsers',
    value: {
      description:
        "Use the host's user namespace. Optional: Default to true. If set to true or not present, the pod will be run in the host user namespace, useful for when the pod needs a feature only available to the host user namespace, such as loading a kernel module with CAP_SYS_MODULE. When set to false, a new userns is created for the pod. Setting false is useful for mitigating container breakout vulnerabilities even allowing users to run their containers as root without actually having root privileges on the host. This field is alpha-level and is only honored by servers that enable the UserNamespacesSupport feature.",
      type: 'boolean',
    },
  },
  // v1.36 added ResourceHealth.message (k8s.io/api v0.35.2 core/v1 ResourceHealth has resourceID and health)
  { schema: 'io.k8s.api.core.v1.ResourceHealth', field: 'message' },
  // v1.36 dropped "when the CSIMigrationPortworx feature-gate is on" (the gate is locked on).
  { schema: 'io.k8s.api.core.v1.PersistentVolumeSpec', field: 'portworxVolume', description: PORTWORX_DEPRECATED },
  { schema: 'io.k8s.api.core.v1.Volume', field: 'portworxVolume', description: PORTWORX_DEPRECATED },
];

/**
 * Whole definitions v1.35 has and the generated files lack (undefined: one v1.35 does not have).
 * WorkloadReference is what PodSpec.workloadRef refers to (v1.36 replaced both by
 * schedulingGroup / PodSchedulingGroup).
 */
const DEFINITIONS: Readonly<Record<string, Schema | undefined>> = {
  'io.k8s.api.core.v1.WorkloadReference': {
    description:
      'WorkloadReference identifies the Workload object and PodGroup membership that a Pod belongs to. The scheduler uses this information to apply workload-aware scheduling semantics.',
    properties: {
      name: {
        description:
          "Name defines the name of the Workload object this Pod belongs to. Workload must be in the same namespace as the Pod. If it doesn't match any existing Workload, the Pod will remain unschedulable until a Workload object is created and observed by the kube-scheduler. It must be a DNS subdomain.",
        type: 'string',
      },
      podGroup: {
        description:
          "PodGroup is the name of the PodGroup within the Workload that this Pod belongs to. If it doesn't match any existing PodGroup within the Workload, the Pod will remain unschedulable until the Workload object is recreated and observed by the kube-scheduler. It must be a DNS label.",
        type: 'string',
      },
      podGroupReplicaKey: {
        description:
          'PodGroupReplicaKey specifies the replica key of the PodGroup to which this Pod belongs. It is used to distinguish pods belonging to different replicas of the same pod group. The pod group policy is applied separately to each replica. When set, it must be a DNS label.',
        type: 'string',
      },
    },
    required: ['name', 'podGroup'],
    type: 'object',
  },
  'io.k8s.api.core.v1.PodSchedulingGroup': undefined,
};

/**
 * The v1.35 `required` list of a type where the generated file's differs: kube-openapi's isOptional
 * over k8s.io/api v0.35.2 (`+required`/`+optional` comment tags, else `omitempty`), as
 * tools/check-v135-markers.ts computes it. Later releases marked these `+required` or `+optional`
 * (CronJob.spec `+required`, RoleRef.apiGroup `+optional`, …); `kubectl explain` prints the
 * difference as the `-required-` marker. An empty list drops `required`.
 */
const REQUIRED_V135: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.api.batch.v1.CronJob': [],
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler': [],
  'io.k8s.api.networking.v1.IPAddress': [],
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding': [],
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec': [],
  'io.k8s.api.authentication.v1.TokenReviewSpec': [],
  'io.k8s.api.scheduling.v1.PriorityClass': ['value'],
  'io.k8s.api.discovery.v1.EndpointSlice': ['addressType', 'endpoints'],
  'io.k8s.api.rbac.v1.RoleRef': ['apiGroup', 'kind', 'name'],
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'],
};

/** Copy `schemas` with the v1.35 overrides applied; properties stay sorted by name. */
export function applyOverrides(schemas: SchemaMap, docs: readonly DocOverride[] = DOCS_V135()): SchemaMap {
  const out: SchemaMap = { ...schemas };
  for (const d of docs) {
    const base = out[d.schema];
    if (!base) continue;
    if (d.field === '') {
      if (d.remove) delete out[d.schema];
      else out[d.schema] = { ...base, description: d.description ?? '' };
      continue;
    }
    const prop = base.properties?.[d.field];
    if (!prop) continue;
    const properties = { ...base.properties };
    if (d.remove) {
      delete properties[d.field];
      const required = base.required?.filter((f) => f !== d.field);
      out[d.schema] = { ...base, properties, ...(required === undefined ? {} : { required }) };
      if (required?.length === 0) delete out[d.schema]!.required;
    } else {
      properties[d.field] = { ...prop, description: d.description ?? '' };
      out[d.schema] = { ...base, properties };
    }
  }
  for (const [name, schema] of Object.entries(DEFINITIONS)) {
    if (schema === undefined) delete out[name];
    else out[name] = schema;
  }
  for (const o of OVERRIDES) {
    const base = out[o.schema];
    if (!base) continue;
    const props: Record<string, Schema> = { ...(base.properties ?? {}) };
    if (o.description !== undefined) {
      const prop = props[o.field];
      if (prop) props[o.field] = { ...prop, description: o.description };
    } else if (o.value === undefined) delete props[o.field];
    else props[o.field] = o.value;
    const sorted: Record<string, Schema> = {};
    for (const k of Object.keys(props).sort()) sorted[k] = props[k]!;
    out[o.schema] = { ...base, properties: sorted };
  }
  for (const [name, required] of Object.entries(REQUIRED_V135)) {
    const base = out[name];
    if (!base) continue;
    const { required: _old, ...rest } = base;
    out[name] = required.length === 0 ? rest : { ...rest, required: [...required] };
  }
  return out;
}
