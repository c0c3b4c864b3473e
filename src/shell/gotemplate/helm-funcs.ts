/**
 * The encoding functions Helm v4 adds to Sprig's map (helm pkg/engine/funcs.go funcMap):
 * fromJson/fromJsonArray (encoding/json into map[string]interface{} / []interface{}, the error
 * text stored in the result), fromYaml/fromYamlArray (sigs.k8s.io/yaml.Unmarshal: YAML → JSON →
 * encoding/json, so its errors are `error converting YAML to JSON: yaml: line N: …` or
 * `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal …`), toYamlPretty
 * (go-yaml v3's Encoder with SetIndent(2)), toToml/fromToml (BurntSushi/toml, ./toml.ts), and
 * Sprig's own mustFromJson (defaults.go: json.Unmarshal into interface{}, the error returned).
 */
import { parseDocument, type YAMLError } from 'yaml';
import { goStringFromBytes } from '../../util/go-bytes.js';
import { goJsonSyntaxError, goJsonUnmarshal, jsonKind } from '../../util/go-json-scan.js';
import { toYaml as goYaml } from '../printers/yaml.js';
import { FuncError, type FuncDef, type FuncMap } from './funcs.js';
import { fromTomlText, toTomlText } from './toml.js';
import { toPlain } from './sprig-more.js';
import type { GoValue } from './value.js';

const f = (params: FuncDef['params'], call: FuncDef['call']): FuncDef => ({ params, call });
const A = 'any' as const;
const S = 'string' as const;

/** Plain JSON → Go values as encoding/json decodes into interface{} (every number a float64). */
type FromPlain = (v: unknown) => GoValue;

/**
 * go-yaml v2's wording (scannerc.go / parserc.go) for the parse errors the `yaml` library reports.
 * The place follows yaml.go's parser.fail: the problem mark's 0-based line, plus one for scanner
 * errors, and no `line N: ` at all when that line is 0. An unclosed flow collection is a parser
 * error at the stream end (fetch_stream_end forces a new line after a last line without one):
 * `did not find expected node content` when nothing follows the bracket, else `did not find
 * expected ',' or ']'`. Scanner errors: `a: b: c` is `mapping values are not allowed in this
 * context`, a tab indent `found character that cannot start any token`, an unclosed quote `found
 * unexpected end of stream` (at the end of the input).
 */
export function goYamlError(text: string, e: YAMLError): string {
  const lines = text.split('\n');
  const eofLine = lines.length - 1 + (lines[lines.length - 1] === '' ? 0 : 1);
  const errLine = (e.linePos?.[0].line ?? 1) - 1;
  let msg = 'did not find expected key';
  let line = errLine;
  const flow = /^Flow (sequence|map) in block collection/.exec(e.message);
  if (flow) {
    const open = flow[1] === 'sequence' ? '[' : '{';
    const after = text.slice(text.lastIndexOf(open) + 1).trim();
    msg = after === '' ? 'did not find expected node content' : `did not find expected ',' or '${open === '[' ? ']' : '}'}'`;
    line = eofLine;
  } else if (e.code === 'BLOCK_AS_IMPLICIT_KEY') msg = 'mapping values are not allowed in this context';
  else if (e.code === 'TAB_AS_INDENT') msg = 'found character that cannot start any token';
  else if (e.code === 'MISSING_CHAR' && /quote/.test(e.message)) {
    msg = 'found unexpected end of stream';
    line = lines.length - 1;
  } else if (e.code === 'MULTILINE_IMPLICIT_KEY') msg = "could not find expected ':'";
  const scanner = !flow && msg !== 'did not find expected key';
  const shown = line === 0 ? 0 : scanner ? line + 1 : line;
  return `yaml: ${shown === 0 ? '' : `line ${shown}: `}${msg}`;
}

/** sigs.k8s.io/yaml.Unmarshal of `text` into a Go value of type `into`. */
function yamlUnmarshal(text: string, into: 'map[string]interface {}' | '[]interface {}'): { value?: unknown; error?: string } {
  const doc = parseDocument(text);
  const err = doc.errors[0];
  if (err) return { error: `error converting YAML to JSON: ${goYamlError(text, err)}` };
  const v: unknown = doc.toJS();
  // an empty or null document leaves the fresh map / slice (sigs.k8s.io/yaml), unlike encoding/json
  if (v === null || v === undefined) return {};
  const kind = jsonKind(v);
  if ((into === 'map[string]interface {}') !== (kind === 'object') || (into === '[]interface {}') !== (kind === 'array')) {
    return { error: `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type ${into}` };
  }
  return { value: v };
}

export function helmFuncs(fromPlain: FromPlain): FuncMap {
  // a JSON null leaves a nil map / nil slice (toJson prints null)
  const asMap = (r: { value?: unknown; error?: string }): GoValue => {
    if (r.value === null) return null;
    const m = (r.value === undefined ? {} : fromPlain(r.value)) as Record<string, GoValue>;
    if (r.error !== undefined) m['Error'] = r.error;
    return m;
  };
  const asList = (r: { value?: unknown; error?: string }): GoValue => (r.error !== undefined ? [r.error] : r.value === undefined ? [] : r.value === null ? null : fromPlain(r.value));
  return {
    fromJson: f([S], ([s]) => asMap(goJsonUnmarshal(s as string, 'map[string]interface {}'))),
    fromJsonArray: f([S], ([s]) => asList(goJsonUnmarshal(s as string, '[]interface {}'))),
    mustFromJson: f([S], ([s]) => {
      const err = goJsonSyntaxError(s as string);
      if (err !== undefined) throw new FuncError(err);
      return fromPlain(JSON.parse(s as string));
    }),
    fromYaml: f([S], ([s]) => asMap(yamlUnmarshal(s as string, 'map[string]interface {}'))),
    fromYamlArray: f([S], ([s]) => asList(yamlUnmarshal(s as string, '[]interface {}'))),
    // helm v4.1.4 registers mustToYaml: yaml.Marshal, its error raised (charts' values always marshal)
    mustToYaml: f([A], ([v]) => {
      const plain = toPlain(v ?? null);
      return plain === null ? 'null' : goYaml(plain as never).replace(/\n$/, '');
    }),
    // encoding.go base64decode: the error text in place of the data
    b64dec: f([S], ([s]) => {
      const r = goB64Decode(s as string);
      return r.error ?? goStringFromBytes(r.bytes);
    }),
    toYamlPretty: f([A], ([v]) => {
      const plain = toPlain(v ?? null);
      return plain === null ? 'null' : goYaml(plain as never, true).replace(/\n$/, '');
    }),
    toToml: f([A], ([v]) => toTomlText(v ?? null)),
    fromToml: f([S], ([s]) => {
      const r = fromTomlText(s as string);
      const m = (r.value ?? {}) as Record<string, GoValue>;
      if (r.error !== undefined) m['Error'] = r.error;
      return m;
    }),
  };
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * base64.StdEncoding.DecodeString (encoding/base64 decodeQuantum): the bytes, or the
 * CorruptInputError text `illegal base64 data at input byte N` Sprig's b64dec returns instead.
 * CR and LF are skipped; a quantum cut short or badly padded is an error at Go's offset.
 */
export function goB64Decode(s: string): { bytes: Buffer; error?: string } {
  const src = Buffer.from(s, 'utf8');
  const out: number[] = [];
  const bad = (n: number): { bytes: Buffer; error: string } => ({ bytes: Buffer.from(out), error: `illegal base64 data at input byte ${n}` });
  const nl = (c: number | undefined): boolean => c === 0x0a || c === 0x0d;
  let si = 0;
  while (si < src.length) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return { bytes: Buffer.from(out) };
        return bad(si - j);
      }
      const c = src[si++]!;
      const v = B64.indexOf(String.fromCharCode(c));
      if (v >= 0 && c < 0x80) {
        dbuf[j] = v;
        continue;
      }
      if (nl(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d) return bad(si - 1);
      if (j < 2) return bad(si - 1);
      if (j === 2) {
        while (si < src.length && nl(src[si])) si++;
        if (si === src.length) return bad(src.length);
        if (src[si] !== 0x3d) return bad(si - 1);
        si++;
      }
      while (si < src.length && nl(src[si])) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const bytes = [(val >> 16) & 255, (val >> 8) & 255, val & 255];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailing !== undefined) return bad(trailing);
    if (dlen < 4) break;
  }
  return { bytes: Buffer.from(out) };
}
