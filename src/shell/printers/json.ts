/**
 * `-o json`: Go json.MarshalIndent(obj, "", "    ") plus a newline (cli-runtime pkg/printers/json.go).
 * encoding/json escapes <, >, & and U+2028/U+2029 (HTML-safe) and writes `{}`/`[]` for empties.
 */
import type { KObject } from '../../sim/api/types.js';
import { goJsonQuote } from '../../util/go-json.js';
import { documentFor, type Json, type SerializeOptions } from './serialize.js';


/** Go's encoding of a number: integers plainly, floats in the shortest form (strconv 'g'-like). */
function number(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return JSON.stringify(n);
}

export function marshalIndent(v: Json, indent = '    ', prefix = ''): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return number(v);
  if (typeof v === 'string') return goJsonQuote(v);
  const inner = prefix + indent;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => inner + marshalIndent(x, indent, inner)).join(',\n')}\n${prefix}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${goJsonQuote(k)}: ${marshalIndent(v[k]!, indent, inner)}`).join(',\n')}\n${prefix}}`;
}

/** Compact json.Marshal (used by jsonpath for maps/slices and by last-applied annotations). */
export function marshalCompact(v: Json): string {
  if (v === null || typeof v !== 'object') return marshalIndent(v);
  if (Array.isArray(v)) return `[${v.map(marshalCompact).join(',')}]`;
  return `{${Object.keys(v)
    .map((k) => `${goJsonQuote(k)}:${marshalCompact(v[k]!)}`)
    .join(',')}}`;
}

/** `kubectl get … -o json`. */
export function printJson(objs: readonly KObject[], asList: boolean, o: SerializeOptions = {}): string {
  return `${marshalIndent(documentFor(objs, asList, o))}\n`;
}
