/**
 * `-o custom-columns=HDR:path,…` and `-o custom-columns-file=FILE`: kubectl pkg/cmd/get/
 * customcolumn.go (NewCustomColumnsPrinterFromSpec, NewCustomColumnsPrinterFromTemplate,
 * RelaxedJSONPathExpression, printOneObject). Headers are verbatim; each cell is every jsonpath
 * result `fmt.Sprint`ed and joined by `,`, or `<none>`; rendered with the get tabwriter.
 */
import type { KObject } from '../../sim/api/types.js';
import { parsedJsonPath, JsonPathError, type JsonPath } from './jsonpath.js';
import { sortKeys, type Json } from './serialize.js';
import { GET_TABWRITER, TabWriter } from './tabwriter.js';

export interface CustomColumn {
  header: string;
  /** A full jsonpath template, e.g. `{.metadata.name}`. */
  fieldSpec: string;
}

export type CustomColumnsResult<T> = { ok: true; value: T } | { ok: false; error: string };

const JSON_REGEXP = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/** RelaxedJSONPathExpression: `.a.b`, `a.b`, `{a.b}`, `{.a.b}` → `{.a.b}`. */
export function relaxedJsonPathExpression(path: string): CustomColumnsResult<string> {
  if (path.length === 0) return { ok: true, value: path };
  const m = JSON_REGEXP.exec(path);
  if (!m) {
    return { ok: false, error: "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'" };
  }
  return { ok: true, value: `{.${m[1] || m[2] || ''}}` };
}

/** NewCustomColumnsPrinterFromSpec. */
export function parseCustomColumnsSpec(spec: string): CustomColumnsResult<CustomColumn[]> {
  if (spec.length === 0) return { ok: false, error: 'custom-columns format specified but no custom columns given' };
  const columns: CustomColumn[] = [];
  for (const part of spec.split(',')) {
    const i = part.indexOf(':');
    if (i < 0) return { ok: false, error: `unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>` };
    const r = relaxedJsonPathExpression(part.slice(i + 1));
    if (!r.ok) return r;
    columns.push({ header: part.slice(0, i), fieldSpec: r.value });
  }
  return { ok: true, value: columns };
}

/** NewCustomColumnsPrinterFromTemplate: a line of headers and a line of specs, whitespace separated. */
export function parseCustomColumnsFile(text: string): CustomColumnsResult<CustomColumn[]> {
  const lines = text.split('\n');
  const words = (l: string): string[] => l.split(/\s+/).filter((w) => w !== '');
  if (lines.length < 1 || (lines.length === 1 && lines[0] === '')) {
    return { ok: false, error: 'invalid template, missing header line. Expected format is one line of space separated headers, one line of space separated column specs.' };
  }
  const headers = words(lines[0]!.replace(/\r$/, ''));
  const specLine = lines[1];
  if (specLine === undefined || (specLine === '' && lines.length === 2)) {
    return { ok: false, error: 'invalid template, missing spec line. Expected format is one line of space separated headers, one line of space separated column specs.' };
  }
  const specs = words(specLine.replace(/\r$/, ''));
  if (headers.length !== specs.length) {
    return { ok: false, error: `number of headers (${headers.length}) and field specifications (${specs.length}) don't match` };
  }
  const columns: CustomColumn[] = [];
  for (let i = 0; i < headers.length; i++) {
    const r = relaxedJsonPathExpression(specs[i]!);
    if (!r.ok) return r;
    columns.push({ header: headers[i]!, fieldSpec: r.value });
  }
  return { ok: true, value: columns };
}

/** Go fmt.Sprint of unstructured data: maps as `map[k:v …]` (sorted), slices as `[a b]`. */
export function goSprint(v: Json): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goSprint).join(' ')}]`;
  if (typeof v === 'object') {
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goSprint(v[k]!)}`)
      .join(' ')}]`;
  }
  return String(v);
}

/**
 * Print objects with custom columns. Errors (a bad jsonpath in a column) carry upstream wording.
 * `writer`: a watch's one tabwriter, so a wider cell widens its column from that row on
 * (cli-runtime customcolumn.go PrintObj writes into the caller's *tabwriter.Writer).
 */
export function printCustomColumns(objs: readonly KObject[], columns: readonly CustomColumn[], noHeaders = false, writer?: TabWriter): CustomColumnsResult<string> {
  if (objs.length === 0) return { ok: true, value: '' };
  const parsers: JsonPath[] = [];
  for (const c of columns) {
    try {
      parsers.push(parsedJsonPath(c.fieldSpec));
    } catch (e) {
      return { ok: false, error: e instanceof JsonPathError ? e.message : String(e) };
    }
  }
  const w = writer ?? new TabWriter(GET_TABWRITER);
  if (!noHeaders) w.write(`${columns.map((c) => c.header).join('\t')}\n`);
  for (const obj of objs) {
    const data = sortKeys(obj);
    const cells: string[] = [];
    for (const p of parsers) {
      let values: Json[];
      try {
        values = p.results(data);
      } catch (e) {
        return { ok: false, error: e instanceof JsonPathError ? e.message : String(e) };
      }
      cells.push(values.length === 0 ? '<none>' : values.map((v) => goSprint(v).replace(/\x1b/g, '^[').replace(/\r/g, '\\r')).join(','));
    }
    w.write(`${cells.join('\t')}\n`);
  }
  return { ok: true, value: w.take() };
}
