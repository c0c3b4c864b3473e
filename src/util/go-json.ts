/**
 * Go's encoding/json string encoding (encode.go appendString with HTML escaping on): `<`, `>`,
 * `&`, U+2028 and U+2029 become \u escapes, as in kubectl's `-o json` and CoreDNS's config dump.
 */
const SPECIAL = /["\\\u0000-\u001f<>&\u2028\u2029]/g;

function escape(ch: string): string {
  if (ch === '"') return '\\"';
  if (ch === '\\') return '\\\\';
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export function goJsonQuote(s: string): string {
  // one regex pass: a 10 MB value costs a copy, not ten million string appends
  return `"${s.replace(SPECIAL, escape)}"`;
}
