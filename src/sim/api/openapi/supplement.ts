/**
 * Schemas the decoder needs and `kubectl explain` does not document (so they stay out of
 * COMPONENTS): ObjectMeta and its parts, with their fields as in k8s.io/apimachinery v1.35
 * pkg/apis/meta/v1/types.go. Types only. Every kind's own schema is generated (./schema.ts
 * KIND_SCHEMAS); a `$ref` to a schema that exists nowhere is decoded as free-form JSON.
 */
import type { Schema, SchemaMap } from './schema.js';

const ref = (name: string): Schema => ({ allOf: [{ $ref: `#/components/schemas/${name}` }] });
const meta = (n: string): Schema => ref(`io.k8s.apimachinery.pkg.apis.meta.v1.${n}`);
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const arr = (items: Schema): Schema => ({ type: 'array', items });
const map = (v: Schema): Schema => ({ type: 'object', additionalProperties: v });
const obj = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });

export const SUPPLEMENT: SchemaMap = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': obj({
    annotations: map(str),
    creationTimestamp: meta('Time'),
    deletionGracePeriodSeconds: int,
    deletionTimestamp: meta('Time'),
    finalizers: arr(str),
    generateName: str,
    generation: int,
    labels: map(str),
    managedFields: arr(meta('ManagedFieldsEntry')),
    name: str,
    namespace: str,
    ownerReferences: arr(meta('OwnerReference')),
    resourceVersion: str,
    selfLink: str,
    uid: str,
  }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': obj({ apiVersion: str, blockOwnerDeletion: bool, controller: bool, kind: str, name: str, uid: str }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry': obj({
    apiVersion: str,
    fieldsType: str,
    fieldsV1: meta('FieldsV1'),
    manager: str,
    operation: str,
    subresource: str,
    time: meta('Time'),
  }),
};

