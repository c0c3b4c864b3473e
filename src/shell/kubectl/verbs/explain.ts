/**
 * `kubectl explain RESOURCE[.field…] [--recursive] [--api-version=G/V] [-o plaintext]`
 * (k8s.io/kubectl pkg/cmd/explain/explain.go with pkg/explain/v2): resolve the resource through
 * discovery (short names, `resource.group.field` prefixes as SplitAndParseResourceRequestWithMatchingPrefix
 * does), then render the OpenAPI v3 schema with kubectl's plaintext template (../explain/render.ts).
 * The simulated server's OpenAPI documents hold the kinds in ../explain/schema.ts (every built-in
 * kind, CustomResourceDefinition and APIService included); a kind outside them fails the way
 * kubectl fails against a server whose spec lacks it.
 */
import type { Verb } from '../context.js';
import { apiVersionOf, type Discovery, type ResourceInfo } from '../../../sim/api/registry.js';
import { ApiError } from '../../../sim/api/errors.js';
import { errorResult, RawError } from '../errors.js';
import { bool, str } from '../flags.js';
import { schemaComponents, schemaNameOf, groupOfSchema, KIND_SCHEMAS, GROUP_KIND_SCHEMAS } from '../explain/schema.js';
import { renderExplain } from '../explain/render.js';
import { explainPathNodes, JsonPathError } from '../../printers/jsonpath.js';
import { crdVersion, type CustomResourceDefinition } from '../../../sim/api/crd.js';
import { publishedSchema, type JSONSchemaProps } from '../../../sim/api/crd-schema.js';
import { noteShortName } from '../resource-args.js';

const NO_RESOURCE =
  'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.';

/** Groups whose OpenAPI v3 document the simulated server publishes (/openapi/v3/<path>). */
const PUBLISHED_GROUPS = new Set([...Object.values(KIND_SCHEMAS), ...Object.values(GROUP_KIND_SCHEMAS)].map((name) => groupOfSchema(name)));

const FIRST_NODE = 'error: invalid jsonpath syntax, first node must be field node';

/** The field names of explain.go jsonPathParse's nodes, after the first `skip`; a non-field node is an error. */
function fieldNames(input: string, skip: number): string[] {
  return explainPathNodes(input).slice(skip).map((n) => {
    if ('other' in n) throw new RawError(FIRST_NODE);
    return n.field;
  });
}

/**
 * explain.go SplitAndParseResourceRequestWithMatchingPrefix: the input is a JSONPath
 * (`{.INPUT}`, client-go jsonpath), its first node the resource; when the input starts with a
 * matching `resource.group`, the fields are the nodes of the rest (`{..rest}`: its first node is
 * the recursive descent the leading '.' makes), else those after the first node. A node that is
 * not a field (`.$ref` parses as an empty field then the identifier `ref`) is refused.
 */
function splitRequest(input: string, d: Discovery, sink: string[] | undefined): { info: ResourceInfo; fields: string[] } {
  let nodes: ReturnType<typeof explainPathNodes>;
  try {
    nodes = explainPathNodes(input);
  } catch (e) {
    if (e instanceof JsonPathError) throw new RawError(`error: ${e.message}`);
    throw e;
  }
  const first = nodes[0];
  if (first === undefined || !('field' in first)) throw new RawError(FIRST_NODE);
  const typeArg = first.field;
  // `$pod`: '$' ends a field, so the first node is the empty field (RESTMapper ResourcesFor's error)
  if (typeArg === '') throw new RawError('error: a resource must be present, got: /, Resource=');
  // the RESTMapper's shortcut expander warns as it resolves the first node (ResourcesFor)
  noteShortName(typeArg, d, sink);
  const info = d.resolve(typeArg);
  // builder/mapper NoResourceMatch: printed without an "error: " prefix by cmdutil.CheckErr.
  if (!info) throw new RawError(`the server doesn't have a resource type "${typeArg}"`);
  const prefix = info.group ? `${info.resource}.${info.group}` : info.resource;
  if (input.startsWith(prefix)) {
    const suffix = input.slice(prefix.length);
    return { info, fields: suffix === '' ? [] : fieldNames(suffix, 1) };
  }
  // an empty field (`pod.spec.$`) stays: the template finds no such field
  return { info, fields: fieldNames(input, 1) };
}

/**
 * A custom resource: the CRD version's schema as the server publishes it
 * (sim/api/crd-schema.ts publishedSchema), any served version by --api-version.
 */
function explainCustom(env: Parameters<Verb['run']>[1], info: ResourceInfo, fields: string[], apiVersion: string | undefined, output: string, recursive: boolean): ReturnType<Verb['run']> {
  const versions = info.servedVersions ?? [info.version];
  const version = apiVersion === undefined ? info.version : versions.find((v) => `${info.group}/${v}` === apiVersion);
  if (version === undefined) throw new RawError(`error: couldn't find resource for "${apiVersion}, Resource=${info.resource}"`);
  if (output === 'plaintext-openapiv2') throw new ApiError('NotFound', 'the server could not find the requested resource', 404);
  const crd = env.cluster.store.get<CustomResourceDefinition>('CustomResourceDefinition', undefined, info.crd!);
  const schema = publishedSchema(crd ? crdVersion(crd, version)?.schema?.openAPIV3Schema as JSONSchemaProps | undefined : undefined);
  const r = renderExplain({ group: info.group, version, kind: info.kind, schema, fieldPath: fields, recursive });
  if (r.error !== undefined) return { stdout: r.stdout, stderr: `${r.error}\n`, exitCode: 1 };
  return { stdout: r.stdout, stderr: '', exitCode: 0 };
}

export const explainVerb: Verb = {
  name: 'explain',
  run(inv, env) {
    try {
      const p = inv.parsed;
      if (p.args.length === 0) throw new RawError(NO_RESOURCE);
      if (p.args.length > 1) throw new RawError('error: We accept only this format: explain RESOURCE');
      const output = str(p.flags, 'output') ?? 'plaintext';
      if (output !== 'plaintext' && output !== 'plaintext-openapiv2') throw new RawError(`error: unrecognized format: ${output}`);
      env.api.ensureUp();
      const discovery = env.cluster.discovery();
      const { info: found, fields } = splitRequest(p.args[0]!, discovery, env.shortNames);
      const apiVersion = str(p.flags, 'api-version');
      if (found.crd) return explainCustom(env, found, fields, apiVersion, output, bool(p.flags, 'recursive'));
      // explain.go: --api-version replaces the group/version of the resolved resource, keeping its
      // name (`events --api-version=events.k8s.io/v1` is the events.k8s.io Event)
      const info = apiVersion === undefined ? found : discovery.resources.find((r) => r.resource === found.resource && !r.crd && apiVersionOf(r) === apiVersion);
      if (info === undefined) throw new RawError(`error: couldn't find resource for "${apiVersion}, Resource=${found.resource}"`);
      // The simulated server publishes no OpenAPI v2 document.
      if (output === 'plaintext-openapiv2') throw new ApiError('NotFound', 'the server could not find the requested resource', 404);
      if (!PUBLISHED_GROUPS.has(info.group)) {
        throw new RawError(`error: couldn't find resource for "${apiVersionOf(info)}, Resource=${info.resource}"`);
      }
      const schemaName = schemaNameOf(info.group, info.kind);
      const schema = schemaName === undefined ? undefined : schemaComponents()[schemaName];
      if (!schema) throw new RawError(`error: GVR (${info.group}/${info.version}, Resource=${info.resource}) not found in OpenAPI schema`);
      const r = renderExplain({ group: info.group, version: info.version, kind: info.kind, schema, fieldPath: fields, recursive: bool(p.flags, 'recursive') });
      if (r.error !== undefined) return { stdout: r.stdout, stderr: `${r.error}\n`, exitCode: 1 };
      return { stdout: r.stdout, stderr: '', exitCode: 0 };
    } catch (e) {
      return errorResult(e, 'explain');
    }
  },
};
