/**
 * Compares the served schemas' enum lists and required fields (what `kubectl explain` prints as
 * `enum: …` and `-required-`) with what the v1.35 OpenAPI generator derives from the Go types of
 * k8s.io/api v0.35.2, and prints every difference (exit 1 if any). The generated files come from
 * a newer spec (tools/extract.mjs), so an enum value or a required marker may differ from v1.35.
 *
 * The rules are kube-openapi's (v0.0.0-20250910181357-589584f1c912, the one k8s.io/api v0.35.2 builds
 * with): pkg/generators/openapi.go isOptional (a `+required` comment tag makes a field required,
 * `+optional` optional, else `omitempty` in its json tag decides) and generateMembers (embedded
 * `json:",inline"` members are flattened); pkg/generators/enum.go (a `string` type whose comment
 * holds `+enum` is an enum; its values are every constant of that type, sorted as Go-quoted
 * strings; a field, pointer, slice element or map value of that type carries them).
 *
 *   git --git-dir=<kubernetes/api.git> archive v0.35.2 | tar x -C /tmp/k8s-api
 *   node --import tsx src/shell/kubectl/explain/tools/check-v135-markers.ts /tmp/k8s-api [Kind …]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaComponents, KIND_SCHEMAS, REF_PREFIX, type Schema } from '../../../../sim/api/openapi/schema.js';

const apiDir = process.argv[2] ?? '';
if (apiDir === '') {
  console.error('usage: check-v135-markers.ts <k8s.io/api v0.35.2 tree> [Kind …]');
  process.exit(2);
}
const kinds = process.argv.slice(3);

interface Member {
  name: string; // json name, '' when inlined
  goType: string;
  optional: boolean;
  inline: boolean;
}
interface Pkg {
  structs: Map<string, Member[]>;
  enums: Map<string, Map<string, { name: string; comment: string }>>;
  imports: Map<string, string>; // alias → k8s.io/api package dir (core/v1)
  values: Map<string, string>; // string constants by name
}

/** `+name` comment tags of a comment block (gengo ExtractCommentTags). */
function hasTag(lines: readonly string[], tag: string): boolean {
  return lines.some((l) => {
    const t = l.replace(/^\s*\/\/\s?/, '').trim();
    if (!t.startsWith('+')) return false;
    return t.slice(1).split('=')[0] === tag;
  });
}

const pkgs = new Map<string, Pkg>();
function loadPkg(dir: string): Pkg {
  const have = pkgs.get(dir);
  if (have) return have;
  const pkg: Pkg = { structs: new Map(), enums: new Map(), imports: new Map(), values: new Map() };
  pkgs.set(dir, pkg);
  const files = readdirSync(join(apiDir, dir)).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
  const consts: { name: string; type: string; comment: string; value?: string; ref?: [string, string] }[] = [];
  for (const f of files) {
    const lines = readFileSync(join(apiDir, dir, f), 'utf8').split('\n');
    for (const m of lines.join('\n').matchAll(/^\s*(\w+)?\s*"k8s\.io\/api\/([\w.]+\/\w+)"$/gm)) {
      const alias = m[1] ?? m[2]!.split('/').pop()!;
      pkg.imports.set(alias, m[2]!);
    }
    let comments: string[] = [];
    let inConst = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (/^\s*\/\//.test(line)) {
        comments.push(line);
        continue;
      }
      const enumType = /^type (\w+) string\s*$/.exec(line);
      if (enumType && hasTag(comments, 'enum')) pkg.enums.set(enumType[1]!, new Map());
      if (/^const \($/.test(line)) inConst = true;
      else if (inConst && /^\)$/.test(line)) inConst = false;
      // `Name Type = "v"`, `Name = Type("v")` or `Name = Type(pkg.Other)`, in a const block or on its own
      const c = new RegExp(`^${inConst ? '\\s+' : 'const '}(\\w+)(?:\\s+(\\w+)\\s*=\\s*|\\s*=\\s*(\\w+)\\()(?:"((?:[^"\\\\]|\\\\.)*)"|(\\w+)\\.(\\w+)\\))`).exec(line);
      if (c) {
        const comment = comments.map((l) => l.replace(/^\s*\/\/ ?/, '')).join(' ');
        consts.push({ name: c[1]!, type: (c[2] ?? c[3])!, comment, ...(c[4] === undefined ? { ref: [c[5]!, c[6]!] as [string, string] } : { value: JSON.parse(`"${c[4]}"`) as string }) });
      }
      const st = /^type (\w+) struct \{$/.exec(line);
      if (st) {
        const members: Member[] = [];
        let mc: string[] = [];
        let depth = 0;
        for (i++; i < lines.length; i++) {
          const l = lines[i]!;
          if (depth === 0 && /^\}/.test(l)) break;
          if (/^\s*\/\//.test(l)) {
            mc.push(l);
            continue;
          }
          if (/\{\s*$/.test(l)) depth++;
          if (/^\s*\}/.test(l)) depth--;
          const m = /^\s+(?:(\w+)\s+)?([\w.*[\]]+)\s+`(.*)`\s*$/.exec(l);
          if (m && depth === 0) {
            const tag = /json:"([^"]*)"/.exec(m[3]!)?.[1] ?? '';
            const [jsonName = '', ...opts] = tag.split(',');
            // openapi.go generateMembers skips a member tagged `+k8s:openapi-gen=false`
            if (jsonName !== '-' && !mc.some((l) => /^\s*\/\/\s*\+k8s:openapi-gen=false\s*$/.test(l))) {
              const required = hasTag(mc, 'required');
              const optional = hasTag(mc, 'optional');
              const inline = jsonName === '' && (m[1] === undefined || opts.includes('inline'));
              members.push({ name: inline ? '' : jsonName || m[1] || m[2]!.split('.').pop()!, goType: m[2]!, optional: required ? false : optional ? true : opts.includes('omitempty'), inline });
            }
          }
          mc = [];
        }
        pkg.structs.set(st[1]!, members);
      }
      comments = [];
    }
  }
  for (const c of consts) if (c.value !== undefined) pkg.values.set(c.name, c.value);
  for (const c of consts) {
    // a constant converted from another package's (AddressTypeIPv4 = AddressType(v1.IPv4Protocol))
    const value = c.value ?? (c.ref ? loadPkg(pkg.imports.get(c.ref[0]) ?? dir).values.get(c.ref[1]) : undefined);
    const values = pkg.enums.get(c.type);
    if (value === undefined || !values) continue;
    // enum.go addIfNotPresent: one entry per value, the longer comment kept
    const prev = values.get(value);
    if (prev === undefined || prev.comment.length < c.comment.length || (prev.comment.length === c.comment.length && prev.comment > c.comment)) values.set(value, c);
  }
  return pkg;
}

/** `io.k8s.api.core.v1.PodSpec` → ['core/v1', 'PodSpec']. */
function goLocation(schemaName: string): [string, string] | undefined {
  const m = /^io\.k8s\.api\.(\w+)\.(v\w+)\.(\w+)$/.exec(schemaName);
  return m ? [`${m[1]}/${m[2]}`, m[3]!] : undefined;
}

/** A Go type text as seen from `dir`: the package and name of its element type. */
function resolveType(dir: string, goType: string): [string, string] {
  const t = goType.replace(/^(\*|\[\]|map\[[\w.]+\])+/, '');
  const dot = t.indexOf('.');
  if (dot < 0) return [dir, t];
  const alias = t.slice(0, dot);
  return [loadPkg(dir).imports.get(alias) ?? `?${alias}`, t.slice(dot + 1)];
}

/** The properties of a Go struct with their required flag and enum values, inline members flattened. */
function goFields(dir: string, struct: string): Map<string, { optional: boolean; enum?: string[]; lines?: string[] }> | undefined {
  // apimachinery's metav1.TypeMeta: `json:"apiVersion,omitempty"`, `json:"kind,omitempty"`
  if (dir === '?metav1' && struct === 'TypeMeta') return new Map([['apiVersion', { optional: true }], ['kind', { optional: true }]]);
  if (dir.startsWith('?')) return undefined;
  const members = loadPkg(dir).structs.get(struct);
  if (!members) return undefined;
  const out = new Map<string, { optional: boolean; enum?: string[]; lines?: string[] }>();
  for (const m of members) {
    const [pdir, pname] = resolveType(dir, m.goType);
    if (m.inline) {
      for (const [k, v] of goFields(pdir, pname) ?? []) out.set(k, v);
      continue;
    }
    const values = pdir.startsWith('?') ? undefined : loadPkg(pdir).enums.get(pname);
    const sorted = values ? [...values.keys()].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : undefined;
    // enum.go DescriptionLines, for a field of the enum type itself (not a slice or map of it)
    const direct = /^\*?[\w.]+$/.test(m.goType);
    const lines = values && direct && values.size > 0
      ? [...values].map(([v, c]) => ` - \`${JSON.stringify(v)}\` ${c.comment.trim().replace(new RegExp(`^${c.name}`), '').trim().replace(/\s+/g, ' ')}`).sort()
      : undefined;
    out.set(m.name, { optional: m.optional, ...(sorted && sorted.length > 0 ? { enum: sorted } : {}), ...(lines ? { lines } : {}) });
  }
  return out;
}

function enumOf(s: Schema): string[] | undefined {
  if (s.enum) return s.enum;
  if (s.items) return enumOf(s.items);
  if (typeof s.additionalProperties === 'object') return enumOf(s.additionalProperties);
  return undefined;
}

function refsIn(s: unknown, out: string[] = []): string[] {
  if (s && typeof s === 'object') {
    for (const [k, v] of Object.entries(s)) {
      if (k === '$ref' && typeof v === 'string') out.push(v.slice(REF_PREFIX.length));
      else refsIn(v, out);
    }
  }
  return out;
}

const components = schemaComponents();
const roots = kinds.length > 0 ? kinds.map((k) => KIND_SCHEMAS[k] ?? k) : Object.values(KIND_SCHEMAS);
const seen = new Set<string>();
const queue = [...roots];
let diffs = 0;
let checkedLines = 0;
while (queue.length > 0) {
  const name = queue.shift()!;
  if (seen.has(name)) continue;
  seen.add(name);
  const schema = components[name];
  if (!schema) continue;
  queue.push(...refsIn(schema));
  const loc = goLocation(name);
  if (!loc) continue;
  const fields = goFields(...loc);
  if (!fields) {
    console.log(`${name}: no Go struct`);
    continue;
  }
  const props = schema.properties ?? {};
  const wantRequired = [...fields].filter(([, f]) => !f.optional).map(([k]) => k).sort();
  const haveRequired = [...(schema.required ?? [])].sort();
  if (JSON.stringify(wantRequired) !== JSON.stringify(haveRequired)) {
    diffs++;
    console.log(`${name}: required v1.35 [${wantRequired.join(', ')}] served [${haveRequired.join(', ')}]`);
  }
  for (const [k, f] of fields) {
    const p = props[k];
    if (!p) {
      console.log(`${name}.${k}: in v1.35, not served`);
      diffs++;
      continue;
    }
    if (f.lines) {
      checkedLines++;
      const served = (p.description ?? '').split('\n\nPossible enum values:\n')[1];
      const want = f.lines.map((l) => l.trimEnd()).join('\n');
      if (served !== want) {
        diffs++;
        console.log(`${name}.${k}: enum description v1.35\n${want}\nserved\n${served ?? '(none)'}`);
      }
    }
    const have = enumOf(p);
    if (JSON.stringify(have ?? []) !== JSON.stringify(f.enum ?? [])) {
      diffs++;
      console.log(`${name}.${k}: enum v1.35 [${(f.enum ?? []).join(', ')}] served [${(have ?? []).join(', ')}]`);
    }
  }
  for (const k of Object.keys(props)) if (!fields.has(k)) {
    diffs++;
    console.log(`${name}.${k}: served, not in v1.35`);
  }
}
console.log(`${seen.size} schemas (${checkedLines} enum descriptions), ${diffs} differences`);
if (diffs > 0) process.exitCode = 1;
