/**
 * The OpenAPI v3 document `kubectl explain` reads. The schemas live with the API server that
 * serves them (src/sim/api/openapi); `kubectl explain` walks `$ref`, `allOf`, `items` and
 * `additionalProperties` exactly as kubectl's plaintext template does (./render.ts).
 */
export { schemaComponents, KIND_SCHEMAS, GROUP_KIND_SCHEMAS, schemaNameOf, groupOfSchema, resolveRef, type Schema, type SchemaMap } from '../../../sim/api/openapi/schema.js';
