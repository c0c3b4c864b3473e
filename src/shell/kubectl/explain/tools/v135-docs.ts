/**
 * Regenerates src/sim/api/openapi/docs-v135.generated.ts: the v1.35 descriptions of the types
 * src/sim/api/openapi documents, where they differ from the generated files (which come from the
 * newer spec kubernetes-models 5.1.0 ships, see extract.mjs), and the fields v1.35 lacks.
 *
 * Source: k8s.io/api v0.35.2 (= Kubernetes v1.35), each group's types_swagger_doc_generated.go,
 * which holds every type's and field's doc comment as the OpenAPI generator renders it (markers
 * and TODOs stripped). kube-openapi appends a "Possible enum values" list to `+enum` fields; the
 * swagger docs do not carry it, so a changed enum field keeps the generated file's list.
 *
 *   git clone --branch v0.35.2 --depth 1 https://github.com/kubernetes/api /tmp/k8s-api
 *   node --import tsx src/shell/kubectl/explain/tools/v135-docs.ts /tmp/k8s-api
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedSchemas } from '../../../../sim/api/openapi/schema.js';
import { applyOverrides, type DocOverride } from '../../../../sim/api/openapi/overrides.js';

const apiDir = process.argv[2];
if (!apiDir) {
  console.error('usage: v135-docs.ts <k8s.io/api v0.35.2 checkout>');
  process.exit(2);
}
const outFile = join(dirname(fileURLToPath(import.meta.url)), '../../../../sim/api/openapi/docs-v135.generated.ts');

/** `map_Foo = map[string]string{ "": "…", "field": "…", }` blocks of one swagger doc file. */
function swaggerDocs(file: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const src = readFileSync(file, 'utf8');
  for (const m of src.matchAll(/^var map_(\w+) = map\[string\]string\{\n([\s\S]*?)\n\}/gm)) {
    const fields = new Map<string, string>();
    for (const f of m[2]!.matchAll(/^\s*"([^"]*)":\s*("(?:[^"\\]|\\.)*"),$/gm)) fields.set(f[1]!, JSON.parse(f[2]!) as string);
    out.set(m[1]!, fields);
  }
  return out;
}

/**
 * The swagger docs differ from the OpenAPI text in form only here: they end a comment at a `---`
 * line (OpenAPI keeps it), drop `@deprecated` tags, and hold one backslash where the spec has two.
 */
function same(openapi: string, swagger: string): boolean {
  const norm = (s: string): string => s.replace(/\\\\/g, '\\').replace(/\n@deprecated$/, '').split('---')[0]!.trimEnd();
  return norm(openapi) === norm(swagger);
}

/**
 * A field of an embedded struct (RuleWithOperations' Rule) is documented by that struct's map:
 * the text every map of the package that has the field agrees on, or undefined.
 */
function embedded(maps: Map<string, Map<string, string>>, field: string): string | undefined {
  const texts = new Set([...maps.values()].flatMap((fields) => (fields.has(field) ? [fields.get(field)!] : [])));
  return texts.size === 1 ? [...texts][0] : undefined;
}

const cache = new Map<string, Map<string, Map<string, string>>>();
const overrides: DocOverride[] = [];
// the hand-written overrides applied, not the generated ones this run replaces
for (const [name, schema] of Object.entries(applyOverrides(generatedSchemas(), []))) {
  const m = /^io\.k8s\.api\.([a-z]+)\.(v\w+)\.(\w+)$/.exec(name);
  if (!m) continue;
  const file = join(apiDir, m[1]!, m[2]!, 'types_swagger_doc_generated.go');
  if (!existsSync(file)) throw new Error(`no ${file}`);
  if (!cache.has(file)) cache.set(file, swaggerDocs(file));
  const docs = cache.get(file)!.get(m[3]!);
  if (!docs) {
    overrides.push({ schema: name, field: '', remove: true });
    continue;
  }
  const differs = (ours: string | undefined, v135: string): string | undefined => {
    // the enum list with the blank lines before it, as the generated text has them
    const at = /\n+Possible enum values:/.exec(ours ?? '')?.index ?? -1;
    const text = at >= 0 ? v135.trimEnd() + ours!.slice(at) : v135;
    if (text === (ours ?? '') || same(ours ?? '', text)) return undefined;
    // where the swagger text is not the OpenAPI one, keep the generated text and say so
    if (/---|\\\\|@/.test(ours ?? '')) {
      console.error(`kept (swagger text not comparable): ${name}`);
      return undefined;
    }
    return text;
  };
  const own = docs.get('');
  if (own !== undefined) {
    const d = differs(schema.description, own);
    if (d !== undefined) overrides.push({ schema: name, field: '', description: d });
  }
  for (const [field, prop] of Object.entries(schema.properties ?? {})) {
    // TypeMeta's fields (inline) are in no map; ParamKind's own apiVersion and kind are
    if ((field === 'apiVersion' || field === 'kind') && !docs.has(field)) continue;
    const v135 = docs.get(field) ?? embedded(cache.get(file)!, field);
    if (v135 === undefined) {
      // a field of an embedded struct (Volume's VolumeSource, Probe's ProbeHandler) is documented
      // by that struct's map: gone in v1.35 only when no type of the package has it
      // by that struct's map, and an undocumented field has none: gone in v1.35 only when no Go
      // struct of the package has that JSON name
      const types = readFileSync(join(apiDir, m[1]!, m[2]!, 'types.go'), 'utf8');
      if (!new RegExp(`json:"${field}[,"]`).test(types)) overrides.push({ schema: name, field, remove: true });
      continue;
    }
    const d = differs(prop.description, v135);
    if (d !== undefined) overrides.push({ schema: name, field, description: d });
  }
}
const body = overrides.map((o) => `  ${JSON.stringify(o)},`).join('\n');
writeFileSync(
  outFile,
  `/**\n * Generated by src/shell/kubectl/explain/tools/v135-docs.ts from k8s.io/api v0.35.2 types_swagger_doc_generated.go; do not edit.\n * Where v1.35 documents a type or field differently from the generated schema files, or lacks it.\n */\nimport type { DocOverride } from './overrides.js';\n\nexport const DOCS_V135 = (): readonly DocOverride[] => [\n${body}\n];\n`,
);
console.log(`${overrides.length} overrides`);
