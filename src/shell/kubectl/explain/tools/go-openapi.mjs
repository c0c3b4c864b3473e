#!/usr/bin/env node
/**
 * Regenerates src/sim/api/openapi/apiextensions.ts and apiregistration.ts: the OpenAPI v3
 * component schemas of CustomResourceDefinition (apiextensions.k8s.io/v1) and APIService
 * (apiregistration.k8s.io/v1) as a v1.35 apiserver serves them, closed over their `$ref`s.
 *
 * Source: the openapi-gen output the apiserver itself builds its documents from,
 * pkg/generated/openapi/zz_generated.openapi.go of k8s.io/apiextensions-apiserver v0.35.2 and
 * k8s.io/kube-aggregator v0.35.2 (= Kubernetes v1.35.2). kubernetes-models (extract.mjs) carries
 * neither JSONSchemaProps' untyped members (JSON, JSONSchemaPropsOrBool …) nor the aggregator's
 * types, so these two groups are read from the Go definitions. The v3 builder
 * (k8s.io/kube-openapi pkg/builder3/openapi.go wrapRefs) wraps a `$ref` that has siblings
 * (description) in `allOf`; types whose OpenAPISchemaType() is nil (JSON,
 * JSONSchemaPropsOrArray/OrBool/OrStringArray, types_jsonschema.go) have no type. Only the
 * members `kubectl explain` and the decoder read are kept, as in the other generated files
 * (description, type, format, properties, required, items, additionalProperties, enum, $ref).
 * Types from apimachinery's meta/v1 (ObjectMeta, Time, Condition …) are meta.ts's already.
 *
 *   git --git-dir=<apiextensions-apiserver.git> show v0.35.2:pkg/generated/openapi/zz_generated.openapi.go > /tmp/x/apiext.go
 *   git --git-dir=<kube-aggregator.git> show v0.35.2:pkg/generated/openapi/zz_generated.openapi.go > /tmp/x/agg.go
 *   node src/shell/kubectl/explain/tools/go-openapi.mjs /tmp/x/apiext.go /tmp/x/agg.go
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'sim', 'api', 'openapi');

/** Go import alias → the OpenAPI model-name prefix of that package (zz_generated.model_name.go). */
const PACKAGES = {
  'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1',
  'k8s.io/kube-aggregator/pkg/apis/apiregistration/v1': 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1',
  'k8s.io/apimachinery/pkg/apis/meta/v1': 'io.k8s.apimachinery.pkg.apis.meta.v1',
  'k8s.io/apimachinery/pkg/runtime': 'io.k8s.apimachinery.pkg.runtime',
  'k8s.io/apimachinery/pkg/api/resource': 'io.k8s.apimachinery.pkg.api.resource',
};

// ---- a small parser for the Go composite literals openapi-gen writes ----

function tokenize(src) {
  const toks = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    if (src.startsWith('//', i)) { i = src.indexOf('\n', i); if (i < 0) break; continue; }
    if (c === '"') {
      let j = i + 1;
      while (src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      toks.push({ t: 'str', v: JSON.parse(src.slice(i, j + 1)) });
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const j = src.indexOf('`', i + 1);
      toks.push({ t: 'str', v: src.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    if (src.startsWith('interface{}', i)) { toks.push({ t: 'id', v: 'any' }); i += 'interface{}'.length; continue; }
    const id = /^[A-Za-z_][\w]*/.exec(src.slice(i, i + 200));
    if (id) { toks.push({ t: 'id', v: id[0] }); i += id[0].length; continue; }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i, i + 50));
    if (num) { toks.push({ t: 'num', v: Number(num[0]) }); i += num[0].length; continue; }
    toks.push({ t: 'p', v: c });
    i++;
  }
  return toks;
}

/**
 * value := '&'? [type] '{' elems '}' ['.' id '(' ')'] | STRING | NUMBER | id ['.' id]* ['(' args ')'].
 * A composite literal is { lit: typeText, keys: {…} } or { lit, items: […] }; a call { call, args }.
 */
function parseValue(toks, pos) {
  let p = pos;
  const peek = () => toks[p] ?? { t: 'eof', v: '' };
  if (peek().t === 'p' && peek().v === '&') p++;
  const tok = peek();
  if (tok.t === 'str' || tok.t === 'num') return [tok.v, p + 1];
  // a type or identifier run up to '{' or '(' or a delimiter
  let text = '';
  while (!(peek().t === 'p' && ['{', '(', ',', '}', ')', ':'].includes(peek().v))) {
    text += peek().v;
    p++;
  }
  if (peek().v === '(') {
    p++;
    const args = [];
    while (peek().v !== ')') {
      const [a, q] = parseValue(toks, p);
      args.push(a);
      p = q;
      if (peek().v === ',') p++;
    }
    return [{ call: text, args }, p + 1];
  }
  if (peek().v !== '{') {
    if (text === 'true') return [true, p];
    if (text === 'false') return [false, p];
    if (text === 'nil') return [null, p];
    return [{ ident: text }, p];
  }
  p++;
  const keys = {};
  const items = [];
  let keyed = false;
  while (peek().v !== '}') {
    const [v, q] = parseValue(toks, p);
    p = q;
    if (peek().v === ':') {
      keyed = true;
      const [w, r] = parseValue(toks, p + 1);
      keys[typeof v === 'string' ? v : v.ident] = w;
      p = r;
    } else items.push(v);
    if (peek().v === ',') p++;
  }
  p++;
  let lit = { lit: text, ...(keyed ? { keys } : { items }) };
  // `X{}.OpenAPIModelName()` and friends: a method call on a zero value
  if (peek().v === '.' && toks[p + 1]?.t === 'id' && toks[p + 2]?.v === '(') {
    lit = { method: toks[p + 1].v, on: text };
    p += 4;
  }
  return [lit, p];
}

/** The `func schema_…(ref) common.OpenAPIDefinition { return … }` bodies by model name. */
function definitions(file) {
  const src = readFileSync(file, 'utf8');
  const aliases = {};
  for (const m of src.matchAll(/^\t(\w+) "([^"]+)"$/gm)) aliases[m[1]] = PACKAGES[m[2]];
  const modelName = (expr) => {
    if (typeof expr === 'string') return expr;
    if (expr?.method === 'OpenAPIModelName') {
      const [alias, type] = expr.on.split('.');
      // packages outside PACKAGES (autoscaling/v1, version …) are never referenced by the roots' closure
      return `${aliases[alias] ?? `unknown:${alias}`}.${type}`;
    }
    throw new Error(`not a model name: ${JSON.stringify(expr)}`);
  };
  // GetOpenAPIDefinitions: model name → function name
  const table = /return map\[string\]common\.OpenAPIDefinition\{\n([\s\S]*?)\n\t\}/.exec(src)[1];
  const funcOf = {};
  for (const line of table.split('\n')) {
    const m = /^\s*(.*?):\s+(schema_\w+)\(ref\),$/.exec(line);
    if (m) funcOf[modelName(parseValue(tokenize(m[1]), 0)[0])] = m[2];
  }
  const bodies = {};
  for (const m of src.matchAll(/^func (schema_\w+)\(ref common\.ReferenceCallback\) common\.OpenAPIDefinition \{\n\treturn ([\s\S]*?)\n\}$/gm)) bodies[m[1]] = m[2];
  return { funcOf, bodies, modelName };
}

const REF = '#/components/schemas/';

/** spec.Schema literal → OpenAPI v3 JSON as builder3 serves it (sibling-carrying refs in allOf). */
function toSchema(lit, modelName) {
  const props = lit.keys.SchemaProps?.keys ?? {};
  const out = {};
  if (props.Description !== undefined) out.description = props.Description;
  const type = props.Type;
  if (type?.items?.length) out.type = type.items[0];
  if (typeof props.Format === 'string' && props.Format !== '') out.format = props.Format;
  if (props.Enum) out.enum = props.Enum.items;
  if (props.Items) out.items = toSchema(props.Items.keys.Schema, modelName);
  if (props.AdditionalProperties) {
    const ap = props.AdditionalProperties.keys;
    out.additionalProperties = ap.Schema ? toSchema(ap.Schema, modelName) : ap.Allows === true;
  }
  if (props.Properties) {
    out.properties = {};
    for (const k of Object.keys(props.Properties.keys).sort()) out.properties[k] = toSchema(props.Properties.keys[k], modelName);
  }
  if (props.Required?.items?.length) out.required = props.Required.items;
  if (props.Ref) {
    const $ref = `${REF}${modelName(props.Ref.args[0])}`;
    // builder3 wrapRefs: a $ref with sibling members becomes allOf: [{$ref}]
    const siblings = Object.keys(out).length > 0 || props.Default !== undefined;
    return siblings ? { ...out, allOf: [{ $ref }] } : { $ref };
  }
  return out;
}

/** The extension-typed schemas (x-kubernetes-*) are not kept: explain and the decoder read none. */
function parseDefinition(body, modelName) {
  const [lit] = parseValue(tokenize(body), 0);
  // common.EmbedOpenAPIDefinitionIntoV2Extension(v3def, v2def): the first argument is the v3 one
  const def = lit.call ? lit.args[0] : lit;
  return toSchema(def.keys.Schema, modelName);
}

function refsOf(s, acc = []) {
  if (s && typeof s === 'object') {
    for (const [k, v] of Object.entries(s)) {
      if (k === '$ref' && typeof v === 'string') acc.push(v.slice(REF.length));
      else refsOf(v, acc);
    }
  }
  return acc;
}

const [apiextFile, aggFile] = process.argv.slice(2);
if (!apiextFile || !aggFile) {
  console.error('usage: go-openapi.mjs <apiextensions-apiserver zz_generated.openapi.go> <kube-aggregator zz_generated.openapi.go>');
  process.exit(2);
}

const OUTPUTS = [
  ['apiextensions', apiextFile, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition', 'io.k8s.apiextensions-apiserver.'],
  ['apiregistration', aggFile, 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService', 'io.k8s.kube-aggregator.'],
];
for (const [file, goFile, root, prefix] of OUTPUTS) {
  const { funcOf, bodies, modelName } = definitions(goFile);
  const schemas = {};
  const queue = [root];
  while (queue.length > 0) {
    const name = queue.shift();
    // meta/v1 and the other apimachinery types live in meta.ts, runtime.ts, resource.ts
    if (name in schemas || !name.startsWith(prefix)) continue;
    const fn = funcOf[name];
    if (!fn || !bodies[fn]) throw new Error(`no definition for ${name}`);
    schemas[name] = parseDefinition(bodies[fn], modelName);
    queue.push(...refsOf(schemas[name]));
  }
  const body = Object.entries(schemas).map((e) => `  ${JSON.stringify(JSON.stringify(e))},`).join('\n');
  writeFileSync(
    join(outDir, `${file}.ts`),
    `/**\n * Generated by src/shell/kubectl/explain/tools/go-openapi.mjs from the v1.35.2 openapi-gen definitions (see there); do not edit.\n */\n\n/** [definition name, schema] pairs, one JSON text each: made and parsed when first needed (schema.ts), so a command that needs none (most) neither builds the array nor loads its strings from its code cache. */\nexport const SCHEMAS_JSON = (): readonly string[] => [\n${body}\n];\n`,
  );
  console.log(`${file}: ${Object.keys(schemas).length} schemas`);
  const missing = Object.values(schemas).flatMap((s) => refsOf(s)).filter((r) => !r.startsWith(prefix));
  console.log(`  refs outside: ${[...new Set(missing)].join(', ')}`);
}
