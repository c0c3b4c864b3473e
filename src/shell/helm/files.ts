/**
 * A chart's `.Files` (helm pkg/engine/files.go): Get, GetBytes, Glob (gobwas/glob compiled with
 * `/` as separator: `*` and `?` stay inside a path segment, `**` crosses segments, `{a,b}`
 * alternatives, `[…]`/`[!…]` classes; a pattern that does not compile matches everything, as
 * Glob falls back to `**`), AsConfig and AsSecrets (a YAML map of each file's base name to its
 * text, or to its base64, through toYaml), and Lines (the text split at newlines, one trailing
 * newline dropped). A Glob result is itself a files value: rangeable over path → contents (in
 * sorted key order, as text/template ranges a map) with the same methods, which are
 * non-enumerable properties so that range and len see only the files.
 */
import { GoFunc, type GoValue } from '../gotemplate/value.js';
import { helmToYaml } from '../gotemplate/sprig.js';

/** gobwas/glob's syntax with separator `/`, as a RegExp source; undefined when it does not compile. */
export function globToRegExp(pattern: string): RegExp | undefined {
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[++i];
      if (n === undefined) return undefined;
      out += n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === '*') {
      if (pattern[i + 1] === '*') {
        out += '.*';
        i++;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) return undefined;
      let body = pattern.slice(i + 1, end);
      const neg = body.startsWith('!');
      if (neg) body = body.slice(1);
      out += `[${neg ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (c === '{') {
      out += '(?:';
      depth++;
    } else if (c === '}' && depth > 0) {
      out += ')';
      depth--;
    } else if (c === ',' && depth > 0) out += '|';
    else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  if (depth !== 0) return undefined;
  try {
    return new RegExp(`^${out}$`, 's');
  } catch {
    return undefined;
  }
}

const base = (p: string): string => p.replace(/\/+$/, '').split('/').pop() || '/';

/** The files value: path → text, with files.go's methods. */
export function filesValue(byName: ReadonlyMap<string, string>): Record<string, GoValue> {
  const obj: Record<string, GoValue> = {};
  for (const [k, v] of byName) obj[k] = v;
  const methods: Record<string, GoFunc> = {
    Get: new GoFunc('Get', (name) => byName.get(String(name)) ?? ''),
    GetBytes: new GoFunc('GetBytes', (name) => byName.get(String(name)) ?? ''),
    Glob: new GoFunc('Glob', (pattern) => {
      const re = globToRegExp(String(pattern)) ?? /^[\s\S]*$/;
      return filesValue(new Map([...byName].filter(([name]) => re.test(name))));
    }),
    AsConfig: new GoFunc('AsConfig', () => helmToYaml(Object.fromEntries([...byName].map(([k, v]) => [base(k), v])))),
    AsSecrets: new GoFunc('AsSecrets', () => helmToYaml(Object.fromEntries([...byName].map(([k, v]) => [base(k), Buffer.from(v, 'utf8').toString('base64')])))),
    Lines: new GoFunc('Lines', (name) => {
      const s = byName.get(String(name)) ?? '';
      if (s === '') return [];
      return (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n');
    }),
  };
  for (const [k, fn] of Object.entries(methods)) Object.defineProperty(obj, k, { value: fn, enumerable: false });
  return obj;
}
