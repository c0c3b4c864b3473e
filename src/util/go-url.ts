/**
 * Go's net/url.ParseRequestURI as a validator: the error text it returns for `rawURL`, or undefined
 * when Go accepts it. kubectl checks `--raw` paths with it (get.go, replace.go, delete.go Validate:
 * `--raw must be a valid URL path: <err>`). Emulates net/url url.go parse(rawURL, viaRequest=true):
 * control characters, the empty string, a scheme that starts with `:`, a rootless path without a
 * scheme (`invalid URI for request`) and bad `%` escapes in the path (EscapeError). The authority of
 * an absolute URL (`http://host:port/…`) is not checked here.
 */
import { goQuote } from './go-quote.js';

const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** url.go getScheme: the scheme and the rest, or the missing-scheme error. */
function getScheme(raw: string): { scheme: string; rest: string } | { err: string } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') return i === 0 ? { err: 'missing protocol scheme' } : { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

/** url.go unescape(s, encodePath): the first bad `%` escape as EscapeError words it. */
function escapeError(path: string): string | undefined {
  for (let i = 0; i < path.length; i++) {
    if (path[i] !== '%') continue;
    if (i + 2 >= path.length || !isHex(path[i + 1]) || !isHex(path[i + 2])) return `invalid URL escape ${goQuote(path.slice(i, i + 3))}`;
    i += 2;
  }
  return undefined;
}

function parseError(raw: string): string | undefined {
  // stringContainsCTLByte: bytes below 0x20 and DEL
  if (/[\u0000-\u001f\u007f]/.test(raw)) return 'net/url: invalid control character in URL';
  if (raw === '') return 'empty url';
  if (raw === '*') return undefined;
  const s = getScheme(raw);
  if ('err' in s) return s.err;
  let rest = s.rest;
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else if (rest.includes('?')) rest = rest.slice(0, rest.indexOf('?'));
  if (!rest.startsWith('/')) return s.scheme !== '' ? undefined : 'invalid URI for request';
  if (s.scheme !== '' && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    rest = slash >= 0 ? rest.slice(slash) : '';
  }
  return escapeError(rest);
}

/** `parse "RAW": REASON` (url.Error), or undefined when ParseRequestURI accepts `raw`. */
export function parseRequestURIError(raw: string): string | undefined {
  const err = parseError(raw);
  return err === undefined ? undefined : `parse ${goQuote(raw)}: ${err}`;
}
