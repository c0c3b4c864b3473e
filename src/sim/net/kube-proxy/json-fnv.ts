/**
 * FNV-1a 32-bit (util/fnv.ts) of a value's JSON text, fed character by character without making
 * the text: `fnvJson(FNV_BASIS, v) === fnv32a(JSON.stringify(v))` for the plain data kube-proxy
 * fingerprints (service port infos and endpoint infos: objects, arrays, strings, numbers, booleans,
 * null). The iptables proxier's change tracker fingerprints each Service from its ports and the
 * endpoints a node sees (sync.ts groupFingerprint); stringifying them at a cold sync of a
 * 10,000-Service cluster made and kept 20 MB of JSON per node that nothing read again, and hashing
 * it was a tenth of that node's sync. The values are the same as those of the text, so the
 * fingerprints a saved session holds (kube-proxy's NodeSync.fps) stay valid.
 */

/** FNV-1a's offset basis (the hash of the empty string). */
export const FNV_BASIS = 0x811c9dc5;

const PRIME = 0x01000193;

/** `h` continued over the characters of `s` (UTF-16 code units, as fnv32a reads them). */
export function fnvStr(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME) >>> 0;
  return h;
}

/** `h` continued over JSON.stringify(s) for a string. */
function fnvQuoted(h: number, s: string): number {
  // only printable ASCII but `"` and `\` is written as it is; anything else as JSON.stringify escapes it
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return fnvStr(h, JSON.stringify(s));
  }
  h = Math.imul(h ^ 0x22, PRIME) >>> 0;
  h = fnvStr(h, s);
  return Math.imul(h ^ 0x22, PRIME) >>> 0;
}

/**
 * `h` continued over JSON.stringify(v)'s text. A value JSON.stringify leaves out (undefined, a
 * function, a symbol) adds nothing at the top and `null` in an array, and an object key with such
 * a value is left out, as JSON.stringify does; anything else that is not plain data (a toJSON, a
 * bigint, a Map) goes through JSON.stringify itself.
 */
export function fnvJson(h: number, v: unknown): number {
  switch (typeof v) {
    case 'string':
      return fnvQuoted(h, v);
    case 'number':
      return fnvStr(h, Number.isFinite(v) ? String(v) : 'null');
    case 'boolean':
      return fnvStr(h, v ? 'true' : 'false');
    case 'undefined':
    case 'function':
    case 'symbol':
      return h;
    case 'object':
      break;
    default:
      return fnvStr(h, JSON.stringify(v) ?? '');
  }
  if (v === null) return fnvStr(h, 'null');
  if (Array.isArray(v)) {
    h = Math.imul(h ^ 0x5b, PRIME) >>> 0;
    for (let i = 0; i < v.length; i++) {
      if (i > 0) h = Math.imul(h ^ 0x2c, PRIME) >>> 0;
      const x: unknown = v[i];
      h = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? fnvStr(h, 'null') : fnvJson(h, x);
    }
    return Math.imul(h ^ 0x5d, PRIME) >>> 0;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return fnvStr(h, JSON.stringify(v) ?? '');
  const o = v as Record<string, unknown>;
  h = Math.imul(h ^ 0x7b, PRIME) >>> 0;
  let first = true;
  // (for-in, not Object.keys: the same own keys in the same order for a plain object, without an
  // array of them made per object; a cold sync of 10,000 Services hashes 50,000 endpoint infos per node)
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
    const x = o[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    if (!first) h = Math.imul(h ^ 0x2c, PRIME) >>> 0;
    first = false;
    h = fnvQuoted(h, k);
    h = Math.imul(h ^ 0x3a, PRIME) >>> 0;
    h = fnvJson(h, x);
  }
  return Math.imul(h ^ 0x7d, PRIME) >>> 0;
}
