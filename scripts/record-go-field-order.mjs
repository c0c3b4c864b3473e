#!/usr/bin/env node
/**
 * Records the JSON field order of the Go structs behind the API types (k8s.io/api <group>/<version>/types.go
 * and k8s.io/apimachinery pkg/apis/meta/v1/types.go at the v0.35 tag) into
 * src/sim/api/openapi/field-order.generated.ts. encoding/json writes a struct's fields in declaration
 * order (embedded `json:",inline"` structs in place), which is the order the API server's replies
 * have; the OpenAPI schemas list properties alphabetically and cannot tell it.
 *
 *   node scripts/record-go-field-order.mjs /path/to/kubernetes/api.git /path/to/kubernetes/apimachinery.git [tag]
 *
 * Both arguments are git directories (bare or not); the files are read with `git show TAG:PATH`.
 * Only facts are kept: for each struct, the JSON names of its fields in order.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [apiGit, machineryGit, tag = 'v0.35.7'] = process.argv.slice(2);
if (!apiGit || !machineryGit) {
  console.error('usage: record-go-field-order.mjs API_GIT_DIR APIMACHINERY_GIT_DIR [TAG]');
  process.exit(2);
}

/** The packages read, and the OpenAPI definition prefix their types have. */
const SOURCES = [
  ...['core/v1', 'apps/v1', 'batch/v1', 'networking/v1', 'discovery/v1', 'storage/v1', 'autoscaling/v2', 'autoscaling/v1', 'rbac/v1', 'policy/v1', 'scheduling/v1', 'coordination/v1', 'certificates/v1'].map((p) => ({
    git: apiGit,
    path: `${p}/types.go`,
    prefix: `io.k8s.api.${p.replace('/', '.')}.`,
  })),
  { git: machineryGit, path: 'pkg/apis/meta/v1/types.go', prefix: 'io.k8s.apimachinery.pkg.apis.meta.v1.' },
];

function show(git, path) {
  return execFileSync('git', ['--git-dir', git.endsWith('.git') || git.endsWith('/repo') ? git : join(git, '.git'), 'show', `${tag}:${path}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** import alias → the OpenAPI prefix of that package (only the packages read). */
function importsOf(text, self) {
  const aliases = new Map();
  for (const m of text.matchAll(/^\s*(\w+)\s+"k8s\.io\/(apimachinery\/pkg\/apis\/meta|api)\/?([\w/]*)"/gm)) {
    const prefix = m[2] === 'api' ? `io.k8s.api.${m[3].replace('/', '.')}.` : 'io.k8s.apimachinery.pkg.apis.meta.v1.';
    aliases.set(m[1], prefix);
  }
  aliases.set('', self);
  return aliases;
}

/**
 * A field's Go type as the walk needs it: the struct it holds (through pointers and slices), or a
 * map's struct values (`map:`); anything else (strings, numbers, Time, Quantity, plain maps) is a leaf.
 */
function typeRef(goType, aliases) {
  let t = goType.replace(/^(\*|\[\])+/, '');
  let map = '';
  const m = /^map\[[^\]]+\](.*)$/.exec(t);
  if (m) {
    map = 'map:';
    t = m[1].replace(/^(\*|\[\])+/, '');
  }
  const q = /^(?:(\w+)\.)?([A-Z]\w*)$/.exec(t);
  if (!q) return '';
  const prefix = aliases.get(q[1] ?? '');
  return prefix ? `${map}${prefix}${q[2]}` : '';
}

/** struct name → [json name | {inline: TypeName}] in declaration order, per package. */
function structsOf(text, aliases) {
  const out = new Map();
  let cur;
  for (const line of text.split('\n')) {
    const start = /^type (\w+) struct \{\s*$/.exec(line);
    if (start) {
      cur = [];
      out.set(start[1], cur);
      continue;
    }
    if (!cur) continue;
    if (line === '}') {
      cur = undefined;
      continue;
    }
    // fields sit one tab in (gofmt); deeper lines belong to comments or anonymous structs
    const named = /^\t(\w+)\s+([^\s`]+)\s+`[^`]*json:"([^"]*)"/.exec(line);
    const embedded = /^\t\*?([\w.]+)\s+`[^`]*json:"([^"]*)"/.exec(line);
    if (named) {
      const name = named[3].split(',')[0];
      if (name === '-') continue;
      if (name === '') cur.push({ inline: named[2].replace(/^\*/, '').replace(/^\w+\./, '') });
      else cur.push({ name, type: typeRef(named[2], aliases) });
    } else if (embedded) {
      const name = embedded[2].split(',')[0];
      if (name === '') cur.push({ inline: embedded[1].replace(/^\w+\./, '') });
      else if (name !== '-') cur.push({ name, type: typeRef(embedded[1], aliases) });
    }
  }
  return out;
}

const packages = SOURCES.map((s) => {
  const text = show(s.git, s.path);
  return { ...s, structs: structsOf(text, importsOf(text, s.prefix)) };
});
const meta = packages[packages.length - 1];

function expand(pkg, fields, seen = new Set()) {
  const out = [];
  for (const f of fields) {
    if (f.name !== undefined) out.push(f.type && known.has(f.type.replace(/^map:/, '')) ? `${f.name}=${f.type}` : f.name);
    else {
      const owner = pkg.structs.has(f.inline) ? pkg : meta.structs.has(f.inline) ? meta : undefined;
      if (!owner || seen.has(f.inline)) continue;
      out.push(...expand(owner, owner.structs.get(f.inline), new Set([...seen, f.inline])));
    }
  }
  return out;
}

/** Structs that encode as objects of fields (Time, Quantity, FieldsV1… marshal themselves). */
const known = new Set();
for (const pkg of packages) for (const [name, fields] of pkg.structs) if (fields.length > 0) known.add(`${pkg.prefix}${name}`);
const table = {};
for (const pkg of packages) for (const [name, fields] of pkg.structs) table[`${pkg.prefix}${name}`] = expand(pkg, fields);

const lines = Object.keys(table)
  .sort()
  .map((k) => `  ${JSON.stringify(JSON.stringify([k, table[k]]))},`);
const out = `/**
 * Generated by scripts/record-go-field-order.mjs from k8s.io/api and k8s.io/apimachinery ${tag} types.go; do not edit.
 * The JSON names of each API struct's fields in declaration order (encoding/json's order), by OpenAPI definition name;
 * \`name=TYPE\` when the field holds structs of TYPE (through pointers and slices), \`name=map:TYPE\` for a map of them.
 * One JSON text [name, fields] per struct: made and parsed when first needed (wire-json.ts), so a command that needs none
 * neither builds the array nor loads its strings from its code cache.
 */
export const GO_FIELD_ORDER_JSON = (): readonly string[] => [
${lines.join('\n')}
];
`;
writeFileSync(join(root, 'src/sim/api/openapi/field-order.generated.ts'), out);
console.log(`${Object.keys(table).length} structs`);
