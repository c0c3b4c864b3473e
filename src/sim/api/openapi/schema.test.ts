/**
 * The served OpenAPI document is closed: every `$ref` in every schema (and each kind's own schema)
 * names a definition the document holds, as in the apiserver's /openapi/v3/<gv> documents. A
 * dangling reference makes `kubectl explain` print no FIELDS for that type and call its fields
 * nonexistent, and makes the decoder take that part of a write as free-form JSON.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { definitionFiles, generatedSchemas, GROUP_KIND_SCHEMAS, KIND_SCHEMAS, lazySchemaComponent, REF_PREFIX, resolveRef, schemaComponents, schemaNameOf } from './schema.js';
import { RESOURCES } from '../registry.js';

/** Every `$ref` value anywhere under `s`. */
function refsIn(s: unknown, out: string[] = []): string[] {
  if (s && typeof s === 'object') {
    for (const [k, v] of Object.entries(s)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

describe('served OpenAPI schemas', () => {
  it('every $ref resolves to a schema', () => {
    const dangling = new Map<string, Set<string>>();
    for (const [name, schema] of Object.entries(schemaComponents())) {
      for (const ref of refsIn(schema)) {
        if (resolveRef(ref) !== undefined) continue;
        const from = dangling.get(ref) ?? new Set<string>();
        dangling.set(ref, from.add(name));
      }
    }
    const report = [...dangling].sort(([a], [b]) => (a < b ? -1 : 1)).map(([ref, from]) => `${ref} (from ${[...from].join(', ')})`);
    assert.deepEqual(report, [], `${report.length} dangling $ref:\n${report.join('\n')}`);
  });

  it('every $ref uses the components prefix', () => {
    const odd = Object.values(schemaComponents()).flatMap((s) => refsIn(s)).filter((r) => !r.startsWith(REF_PREFIX));
    assert.deepEqual(odd, []);
  });

  it('every kind explain documents has its schema', () => {
    const missing = Object.entries({ ...KIND_SCHEMAS, ...GROUP_KIND_SCHEMAS }).filter(([, name]) => !(name in schemaComponents())).map(([kind]) => kind);
    assert.deepEqual(missing, []);
  });

  it('every built-in resource the server serves is documented', () => {
    const undocumented = RESOURCES.filter((r) => schemaNameOf(r.group, r.kind) === undefined).map((r) => `${r.group}/${r.kind}`);
    assert.deepEqual(undocumented, []);
  });

  it('JSONSchemaProps is recursive and its union members are untyped (types_jsonschema.go OpenAPISchemaType nil)', () => {
    const c = schemaComponents();
    const v1 = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
    const props = c[`${v1}.JSONSchemaProps`]?.properties ?? {};
    assert.equal(props['not']?.$ref, `${REF_PREFIX}${v1}.JSONSchemaProps`);
    const elem = props['properties']?.additionalProperties;
    assert.equal(typeof elem === 'object' ? elem.allOf?.[0]?.$ref : undefined, `${REF_PREFIX}${v1}.JSONSchemaProps`);
    for (const t of ['JSON', 'JSONSchemaPropsOrArray', 'JSONSchemaPropsOrBool', 'JSONSchemaPropsOrStringArray']) {
      assert.deepEqual(Object.keys(c[`${v1}.${t}`] ?? {}), ['description'], t);
    }
    assert.deepEqual(c[`${v1}.CustomResourceDefinitionSpec`]?.required, ['group', 'names', 'scope', 'versions']);
    assert.deepEqual(c['io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec']?.required, ['groupPriorityMinimum', 'versionPriority']);
  });

  it('PodSecurityContext and SecurityContext carry their v1.35 fields', () => {
    const props = (name: string): string[] => Object.keys(schemaComponents()[`io.k8s.api.core.v1.${name}`]?.properties ?? {});
    assert.deepEqual(props('PodSecurityContext'), [
      'appArmorProfile', 'fsGroup', 'fsGroupChangePolicy', 'runAsGroup', 'runAsNonRoot', 'runAsUser', 'seLinuxChangePolicy',
      'seLinuxOptions', 'seccompProfile', 'supplementalGroups', 'supplementalGroupsPolicy', 'sysctls', 'windowsOptions',
    ]);
    assert.deepEqual(props('Capabilities'), ['add', 'drop']);
  });

  it('the newer spec\'s fields and texts give way to v1.35 (k8s.io/api v0.35.2)', () => {
    const c = schemaComponents();
    const props = (name: string): string[] => Object.keys(c[name]?.properties ?? {});
    assert.ok(!props('io.k8s.api.storage.v1.CSIDriverSpec').includes('preventPodSchedulingIfMissing'));
    assert.ok(props('io.k8s.api.storage.v1.CSIDriverSpec').includes('serviceAccountTokenInSecrets'));
    assert.deepEqual(props('io.k8s.api.resource.v1.DeviceAttribute'), ['bool', 'int', 'string', 'version']);
    assert.equal(c['io.k8s.api.resource.v1.NodeAllocatableResourceMapping'], undefined);
    assert.match(c['io.k8s.api.storage.v1.VolumeError']?.properties?.['errorCode']?.description ?? '', /This is an optional, beta field/);
    assert.match(c['io.k8s.api.authorization.v1.ResourceRule']?.properties?.['verbs']?.description ?? '', /^Verb is a list/);
    // a field of an embedded struct (Rule in RuleWithOperations) and an enum-typed `kind` field
    assert.match(c['io.k8s.api.admissionregistration.v1.RuleWithOperations']?.properties?.['apiGroups']?.description ?? '', /^APIGroups is/);
    const azureKind = c['io.k8s.api.core.v1.AzureDiskVolumeSource']?.properties?.['kind'];
    assert.match(azureKind?.description ?? '', /^kind expected values are Shared/);
    assert.deepEqual(azureKind?.enum, ['Dedicated', 'Managed', 'Shared']);
  });
});

describe('one definition without the whole map (schemaComponent)', () => {
  it('each definition is the one of the whole map, overrides included', () => {
    const all = schemaComponents();
    // every generated name (some overridden, one removed by a doc override or DEFINITIONS), the
    // definitions the overrides add, and a name nobody has
    const names = new Set([...Object.keys(generatedSchemas()), ...Object.keys(all), 'io.k8s.api.core.v1.PodSchedulingGroup', 'io.k8s.api.core.v1.NoSuchType']);
    const differ = [...names].filter((n) => JSON.stringify(lazySchemaComponent(n)) !== JSON.stringify(all[n]));
    assert.deepEqual(differ, []);
    // the overrides did change some of them: the comparison is not of two unchanged copies
    assert.notEqual(JSON.stringify(lazySchemaComponent('io.k8s.api.core.v1.PodSpec')), JSON.stringify(generatedSchemas()['io.k8s.api.core.v1.PodSpec']));
    assert.ok(lazySchemaComponent('io.k8s.api.core.v1.WorkloadReference'));
  });

  it("each package's definitions are all in the file the lazy lookup reads for it", () => {
    const { files, byPackage } = definitionFiles();
    const misplaced: string[] = [];
    for (const file of files)
      for (const text of file()) {
        const name = (JSON.parse(text) as [string])[0];
        if (byPackage[name.slice(0, name.lastIndexOf('.'))] !== file) misplaced.push(name);
      }
    assert.deepEqual(misplaced, []);
  });
});
