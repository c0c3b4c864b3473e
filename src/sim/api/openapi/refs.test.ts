/**
 * Every `$ref` in the served schemas resolves, except the types still left out on purpose: the
 * apimachinery types the decoder handles itself (ObjectMeta, Quantity, Condition), status types,
 * the deprecated in-tree volume plugins, and WorkloadReference (not in the source package). A
 * dangling ref makes `kubectl explain` print a field without its FIELDS and call its children
 * unknown, as pod.spec.securityContext did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaComponents } from './schema.js';

const LEFT_OUT = new Set([
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
  'io.k8s.api.core.v1.PodStatus',
  'io.k8s.api.core.v1.ServiceStatus',
  'io.k8s.api.core.v1.NodeStatus',
  'io.k8s.api.core.v1.NodeConfigSource',
  'io.k8s.api.core.v1.ResourceQuotaStatus',
  'io.k8s.api.networking.v1.IngressStatus',
  'io.k8s.api.core.v1.WorkloadReference',
  ...['AzureFile', 'CephFS', 'Cinder', 'Flex', 'GitRepo', 'Glusterfs', 'ISCSI', 'RBD', 'ScaleIO', 'StorageOS'].map((v) => `io.k8s.api.core.v1.${v}VolumeSource`),
]);

function refs(v: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.add(x.replace('#/components/schemas/', ''));
      else refs(x, out);
    }
  return out;
}

test('openapi: every $ref resolves to a served schema (but the types left out on purpose)', () => {
  const all = schemaComponents();
  const dangling = [...refs(all, new Set())].filter((n) => !(n in all) && !LEFT_OUT.has(n)).sort();
  assert.deepEqual(dangling, []);
});
