/**
 * `kubectl explain` output, following k8s.io/kubectl pkg/explain/v2/templates/plaintext.tmpl
 * (the default `--output=plaintext` since v1.27) template by template: "output" walks the field
 * path through `$ref`/`allOf`/`items`/`additionalProperties`, "fieldList" and "fieldDetail" print
 * the FIELDS section (names sorted, `<type>`, ` -required-`, an `enum:` line), "typeGuess" names
 * types, "extractEnum" prints ENUM blocks, and descriptions are word-wrapped (./wordwrap.ts) and
 * indented with the template's own `wrap`/`indent` helpers (pkg/explain/v2/funcs.go).
 */
import { type Schema, resolveRef } from './schema.js';
import { wrapString } from './wordwrap.js';

export interface ExplainRequest {
  group: string;
  version: string;
  kind: string;
  schema: Schema;
  fieldPath: readonly string[];
  recursive: boolean;
}

/** What the template wrote before it stopped, and the error it threw (if any). */
export interface ExplainResult {
  stdout: string;
  error?: string;
}

type History = ReadonlySet<string>;

/** funcs.go `indent`: pad the first line and every line after a newline. */
function indent(n: number, s: string): string {
  const pad = ' '.repeat(n);
  return pad + s.split('\n').join(`\n${pad}`);
}

function isMapSchema(s: Schema): s is Schema & { additionalProperties: Schema } {
  return typeof s.additionalProperties === 'object';
}

/** template "typeGuess". */
export function typeGuess(s: Schema): string {
  if (s.items) return `[]${typeGuess(s.items)}`;
  if (isMapSchema(s)) return `map[string]${typeGuess(s.additionalProperties)}`;
  if (s.allOf && !s.properties && s.allOf.length === 1) return typeGuess(s.allOf[0]!);
  if (s.$ref) {
    const target = resolveRef(s.$ref);
    if (!target || !target.type || target.type === 'object') {
      const name = s.$ref.split('/').at(-1) ?? '';
      return name.split('.').at(-1) || 'Object';
    }
    return target.type;
  }
  if (s.type === 'object') return 'Object';
  return s.type || 'Object';
}

/** template "extractEnum": `ENUM:` block (long view) or `enum: a, b, c, d, ....` line. */
function extractEnum(s: Schema, longView: boolean, limit: number, indentAmount: number): string {
  const values = s.enum ?? [];
  if (values.length === 0) return '';
  let out = longView ? 'ENUM:' : `${' '.repeat(indentAmount)}enum: `;
  for (const [i, v] of values.entries()) {
    if (limit > -1 && i >= limit) {
      out += ', ....';
      break;
    }
    if (i > 0 && !longView) out += ', ';
    else if (longView) out += '\n    ';
    out += v === '' ? '""' : v;
  }
  return out;
}

/** template "description": the schema's description, then those of allOf/items/map values. */
function description(schema: Schema): string {
  const s = resolveRef(schema.$ref) ?? schema;
  let out = s.description ? `${s.description}\n` : '';
  for (const a of s.allOf ?? []) out += description(a);
  if (s.items) out += description(s.items);
  if (isMapSchema(s)) out += description(s.additionalProperties);
  return out;
}

/** template "fieldDetail". */
function fieldDetail(name: string, parent: Schema, short: boolean, level: number): string {
  const indentAmount = level * 2;
  const field = parent.properties?.[name] ?? {};
  let out = `${indent(indentAmount, name)}\t<${typeGuess(field)}>`;
  if (parent.required?.includes(name)) out += ' -required-';
  if (field.enum && field.enum.length > 0) out += `\n${extractEnum(field, false, 4, indentAmount)}`;
  out += '\n';
  if (!short) {
    out += `${indent(indentAmount + 2, wrapString(field.description || '<no description>', 78 - indentAmount))}\n`;
    out += '\n';
  }
  return out;
}

/** template "fieldList": every property (sorted), recursing when --recursive, cycles cut by history. */
function fieldList(schema: Schema, level: number, history: History, recursive: boolean): string {
  const ref = schema.$ref ?? '';
  if (ref && history.has(ref)) return '';
  const next = new Set(history).add(ref);
  const resolved = resolveRef(ref) ?? schema;
  let out = '';
  const props = resolved.properties ?? {};
  for (const name of Object.keys(props).sort()) {
    out += fieldDetail(name, resolved, recursive, level);
    if (recursive) out += fieldList(props[name]!, level + 1, next, recursive);
  }
  for (const a of resolved.allOf ?? []) out += fieldList(a, level, next, recursive);
  if (resolved.items) out += fieldList(resolved.items, level, next, recursive);
  if (isMapSchema(resolved)) out += fieldList(resolved.additionalProperties, level, next, recursive);
  return out;
}

/** template "output": follow the field path; at its end print FIELD/DESCRIPTION/FIELDS. */
function output(schema: Schema, path: readonly string[], history: History, recursive: boolean): string {
  const ref = schema.$ref ?? '';
  const next = new Set(history).add(ref);
  const resolved = resolveRef(ref) ?? schema;
  const [first, ...rest] = path;
  if (first === undefined) {
    let out = 'DESCRIPTION:\n';
    out += `${indent(4, wrapString(description(resolved) || '<empty>', 76))}\n`;
    const fields = fieldList(resolved, 1, new Set(), recursive);
    if (fields) out += `FIELDS:\n${fields}`;
    return out;
  }
  if (ref && history.has(ref)) return '';
  const sub = resolved.properties?.[first];
  if (sub) {
    let out = '';
    if (rest.length === 0) out += `FIELD: ${first} <${typeGuess(sub)}>\n${extractEnum(sub, true, -1, 0)}\n\n`;
    return out + output(sub, rest, new Set(), recursive);
  }
  if (resolved.items) return output(resolved.items, path, next, recursive);
  if (isMapSchema(resolved)) return output(resolved.additionalProperties, path, next, recursive);
  for (const a of resolved.allOf ?? []) {
    const out = output(a, path, next, recursive);
    if (out) return out;
  }
  return '';
}

/** The whole plaintext template: GROUP/KIND/VERSION header, then the schema walk. */
export function renderExplain(req: ExplainRequest): ExplainResult {
  let stdout = req.group ? `GROUP:      ${req.group}\n` : '';
  stdout += `KIND:       ${req.kind}\nVERSION:    ${req.version}\n\n`;
  const body = output(req.schema, req.fieldPath, new Set(), req.recursive);
  if (!body) return { stdout, error: `error: field "${req.fieldPath.at(-1) ?? ''}" does not exist` };
  return { stdout: `${stdout}${body}\n` };
}
