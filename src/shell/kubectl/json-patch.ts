/**
 * JSON patch (RFC 6902) as Kubernetes applies it: gopkg.in/evanphx/json-patch.v4 v4.12.0
 * (patch.go), which kube-apiserver (endpoints/handlers/patch.go), `kubectl patch --local`,
 * `kubectl run --overrides`, kustomize's patchesJson6902 and kubeadm's --patches all vendor.
 * Its departures from the RFC are kept, since they are what a learner sees:
 * - `replace` of a missing object key adds it (partialDoc.get never fails), `copy` from a
 *   missing key writes null, an op without `value` writes null;
 * - a path is split on "/" and its first segment dropped, so `data/a` means `/a`;
 * - negative array indices count from the end (SupportNegativeIndices);
 * - an unknown or missing `op` is `Unexpected kind: unknown`;
 * - the objects a path walks through are decoded and re-encoded, so their keys come out sorted
 *   (Go's json.Marshal of a map), while the values the patch does not walk into keep their order.
 * Error texts are the library's, word for word (errors.Wrapf: "message: cause").
 */
import type { JsonValue } from './merge.js';

type Obj = { [k: string]: JsonValue };

export class JsonPatchError extends Error {}

/** DecodePatch's failure: the patch is not a JSON array (json.Unmarshal into jsonpatch.Patch). */
export class JsonPatchDecodeError extends JsonPatchError {}

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';
const TEST_FAILED = 'test failed';

const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's json type name of a value, as its Unmarshal errors say it. */
export function goJsonKind(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * What runtime.Decode says of a patched document that is not an object: it reads apiVersion and
 * kind first (json.Unmarshal into the TypeMeta struct), as `kubectl run --overrides` recorded it.
 */
export function typeMetaParseError(v: JsonValue): string {
  return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(v)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
}

/** strconv.Atoi: an optional sign and decimal digits within int64, else its error text. */
function atoi(s: string): number | string {
  if (!/^[+-]?\d+$/.test(s)) return `strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;
  const big = BigInt(s);
  if (big > 9223372036854775807n || big < -9223372036854775808n) return `strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`;
  return Number(big);
}

/** RFC 6901 unescaping: ~1 first, then ~0 (the decoder's strings.NewReplacer order). */
const decodeKey = (k: string): string => k.replace(/~1|~0/g, (m) => (m === '~1' ? '/' : '~'));

type Container = Obj | JsonValue[];

/** A container's get: a missing object key is undefined without an error; an array index must exist. */
function get(con: Container, key: string): { value: JsonValue | undefined } | { err: string } {
  if (!Array.isArray(con)) return { value: Object.prototype.hasOwnProperty.call(con, key) ? con[key] : undefined };
  const n = atoi(key);
  if (typeof n === 'string') return { err: n };
  let idx = n;
  if (idx < 0) {
    if (idx < -con.length) return { err: `Unable to access invalid index: ${idx}: ${INVALID_INDEX}` };
    idx += con.length;
  }
  if (idx >= con.length) return { err: `Unable to access invalid index: ${idx}: ${INVALID_INDEX}` };
  return { value: con[idx] };
}

/** partialDoc.add / partialArray.add ("-" appends; an index may be one past the end). */
function addTo(con: Container, key: string, val: JsonValue): string | undefined {
  if (!Array.isArray(con)) {
    con[key] = val;
    return undefined;
  }
  if (key === '-') {
    con.push(val);
    return undefined;
  }
  const n = atoi(key);
  if (typeof n === 'string') return `value was not a proper array index: '${key}': ${n}`;
  const sz = con.length + 1;
  let idx = n;
  if (idx >= sz) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
  if (idx < 0) {
    if (idx < -sz) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
    idx += sz;
  }
  con.splice(idx, 0, val);
  return undefined;
}

/** partialDoc.set / partialArray.set (replace: the index was checked by get first). */
function setIn(con: Container, key: string, val: JsonValue): string | undefined {
  if (!Array.isArray(con)) {
    con[key] = val;
    return undefined;
  }
  const n = atoi(key);
  if (typeof n === 'string') return n;
  let idx = n;
  if (idx < 0) {
    if (idx < -con.length) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
    idx += con.length;
  }
  con[idx] = val;
  return undefined;
}

function removeFrom(con: Container, key: string): string | undefined {
  if (!Array.isArray(con)) {
    if (!Object.prototype.hasOwnProperty.call(con, key)) return `Unable to remove nonexistent key: ${key}: ${MISSING}`;
    delete con[key];
    return undefined;
  }
  const n = atoi(key);
  if (typeof n === 'string') return n;
  let idx = n;
  if (idx >= con.length) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
  if (idx < 0) {
    if (idx < -con.length) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
    idx += con.length;
  }
  con.splice(idx, 1);
  return undefined;
}

/** A patch being applied: the document and the objects decoded on the way (re-encoded sorted). */
interface Doc {
  root: Container;
  decoded: Set<Obj>;
}

/**
 * findObject: the container of a path's last segment, walking (and decoding) the ones before it;
 * undefined when a segment is missing, or is neither an object nor an array.
 */
function findObject(doc: Doc, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let con: Container = doc.root;
  for (const part of split.slice(1, -1)) {
    const r = get(con, decodeKey(part));
    if ('err' in r || r.value === undefined) return undefined;
    const next = r.value;
    if (Array.isArray(next)) con = next;
    else if (isObj(next)) {
      doc.decoded.add(next);
      con = next;
    } else return undefined;
  }
  return { con, key: decodeKey(split[split.length - 1]!) };
}

type Op = { [k: string]: JsonValue };

/** Operation.Kind: `op` when it is a string, else "unknown". */
const kindOf = (o: Op): string => (typeof o['op'] === 'string' ? o['op'] : 'unknown');

/** Operation.Path / From: the field as a string, or the error that decoding it gave. */
function field(o: Op, name: 'path' | 'from'): { value: string } | { err: string } {
  const v = o[name];
  if (v === undefined || v === null) return { err: name === 'path' ? `operation missing path field: ${MISSING}` : `operation, missing from field: ${MISSING}` };
  if (typeof v !== 'string') return { err: `json: cannot unmarshal ${goJsonKind(v)} into Go value of type string` };
  return { value: v };
}

/** The op's value (a copy); an absent or null `value` is null, as the library marshals it. */
const valueOf = (o: Op): JsonValue => (o['value'] === undefined ? null : structuredClone(o['value']));

/** lazyNode.equal: objects by keys and values, arrays element-wise, null as an empty object or array, scalars by their JSON text. */
function equal(a: JsonValue, b: JsonValue): boolean {
  if (a !== null && typeof a !== 'object') return typeof b !== 'object' || b === null ? JSON.stringify(a) === JSON.stringify(b) : false;
  if (a === null || isObj(a)) {
    const ad: Obj = a ?? {};
    let bd: Obj;
    if (b === null) bd = {};
    else if (isObj(b)) bd = b;
    else return false;
    const keys = Object.keys(ad);
    if (keys.length !== Object.keys(bd).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(bd, k) && equal(ad[k]!, bd[k]!));
  }
  const bl = b === null ? [] : Array.isArray(b) ? b : undefined;
  if (!bl || a.length !== bl.length) return false;
  return a.every((v, i) => equal(v, bl[i]!));
}

function applyOp(doc: Doc, o: Op): string | undefined {
  const kind = kindOf(o);
  switch (kind) {
    case 'add': {
      const p = field(o, 'path');
      if ('err' in p) return `add operation failed to decode path: ${MISSING}`;
      const f = findObject(doc, p.value);
      if (!f) return `add operation does not apply: doc is missing path: "${p.value}": ${MISSING}`;
      const err = addTo(f.con, f.key, valueOf(o));
      return err && `error in add for path: '${p.value}': ${err}`;
    }
    case 'remove': {
      const p = field(o, 'path');
      if ('err' in p) return `remove operation failed to decode path: ${MISSING}`;
      const f = findObject(doc, p.value);
      if (!f) return `remove operation does not apply: doc is missing path: "${p.value}": ${MISSING}`;
      const err = removeFrom(f.con, f.key);
      return err && `error in remove for path: '${p.value}': ${err}`;
    }
    case 'replace': {
      const p = field(o, 'path');
      if ('err' in p) return `replace operation failed to decode path: ${p.err}`;
      if (p.value === '') {
        // the whole document; a value that is neither an object nor an array changes nothing
        // (the library wraps a nil error there, which is no error)
        const v = valueOf(o);
        if (typeof v === 'object' && v !== null) {
          doc.root = v;
          if (isObj(v)) doc.decoded.add(v);
        }
        return undefined;
      }
      const f = findObject(doc, p.value);
      if (!f) return `replace operation does not apply: doc is missing path: ${p.value}: ${MISSING}`;
      if ('err' in get(f.con, f.key)) return `replace operation does not apply: doc is missing key: ${p.value}: ${MISSING}`;
      const err = setIn(f.con, f.key, valueOf(o));
      return err && `error in remove for path: '${p.value}': ${err}`;
    }
    case 'move': {
      const from = field(o, 'from');
      if ('err' in from) return `move operation failed to decode from: ${from.err}`;
      const f = findObject(doc, from.value);
      if (!f) return `move operation does not apply: doc is missing from path: ${from.value}: ${MISSING}`;
      const got = get(f.con, f.key);
      if ('err' in got) return `error in move for path: '${f.key}': ${got.err}`;
      const rmErr = removeFrom(f.con, f.key);
      if (rmErr) return `error in move for path: '${f.key}': ${rmErr}`;
      const p = field(o, 'path');
      if ('err' in p) return `move operation failed to decode path: ${p.err}`;
      const t = findObject(doc, p.value);
      if (!t) return `move operation does not apply: doc is missing destination path: ${p.value}: ${MISSING}`;
      const err = addTo(t.con, t.key, got.value ?? null);
      return err && `error in move for path: '${p.value}': ${err}`;
    }
    case 'test': {
      const p = field(o, 'path');
      if ('err' in p) return `test operation failed to decode path: ${p.err}`;
      const failed = `testing value ${p.value} failed: ${TEST_FAILED}`;
      if (p.value === '') return equal(doc.root, o['value'] ?? null) ? undefined : failed;
      const f = findObject(doc, p.value);
      if (!f) return `test operation does not apply: is missing path: ${p.value}: ${MISSING}`;
      const got = get(f.con, f.key);
      if ('err' in got) return `error in test for path: '${p.value}': ${got.err}`;
      // a missing key passes against a null value (the op's raw value is nil); against anything else it fails
      if (got.value === undefined) return o['value'] === null ? undefined : failed;
      if (o['value'] === undefined) return failed;
      return equal(got.value, o['value']) ? undefined : failed;
    }
    case 'copy': {
      const from = field(o, 'from');
      if ('err' in from) return `copy operation failed to decode from: ${from.err}`;
      const f = findObject(doc, from.value);
      if (!f) return `copy operation does not apply: doc is missing from path: ${from.value}: ${MISSING}`;
      const got = get(f.con, f.key);
      if ('err' in got) return `error in copy for from: '${from.value}': ${got.err}`;
      const p = field(o, 'path');
      if ('err' in p) return `copy operation failed to decode path: ${MISSING}`;
      const t = findObject(doc, p.value);
      if (!t) return `copy operation does not apply: doc is missing destination path: ${p.value}: ${MISSING}`;
      const err = addTo(t.con, t.key, got.value === undefined ? null : structuredClone(got.value));
      return err && `error while adding value during copy: ${err}`;
    }
    default:
      return `Unexpected kind: ${kind}`;
  }
}

/** The decoded objects re-encoded as Go's json.Marshal writes a map: keys sorted. */
function sortDecoded(v: JsonValue, decoded: Set<Obj>): JsonValue {
  if (Array.isArray(v)) return v.map((x) => sortDecoded(x, decoded));
  if (!isObj(v) || !decoded.has(v)) return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) out[k] = sortDecoded(v[k]!, decoded);
  return out;
}

/**
 * DecodePatch then Apply: the patched copy of `target`, or a JsonPatchError with the library's
 * message (a JsonPatchDecodeError when the patch is not an array of objects).
 */
export function jsonPatch(target: JsonValue, ops: JsonValue): JsonValue {
  // json.Unmarshal into Patch ([]Operation): null is an empty patch
  if (ops === null) return structuredClone(target);
  if (!Array.isArray(ops)) throw new JsonPatchDecodeError(`json: cannot unmarshal ${goJsonKind(ops)} into Go value of type jsonpatch.Patch`);
  for (const o of ops) if (o !== null && !isObj(o)) throw new JsonPatchDecodeError(`json: cannot unmarshal ${goJsonKind(o)} into Go value of type jsonpatch.Operation`);
  const root = structuredClone(target);
  if (typeof root !== 'object' || root === null) throw new JsonPatchError(`json: cannot unmarshal ${goJsonKind(root)} into Go value of type jsonpatch.partialDoc`);
  const doc: Doc = { root, decoded: new Set() };
  if (isObj(root)) doc.decoded.add(root);
  for (const o of ops) {
    const err = applyOp(doc, (o ?? {}) as Op);
    if (err) throw new JsonPatchError(err);
  }
  return sortDecoded(doc.root, doc.decoded);
}
