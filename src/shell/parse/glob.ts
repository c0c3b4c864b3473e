/**
 * Pathname expansion (bash manual 3.5.8) against a Vfs: `*`, `?` and `[...]` per path segment,
 * dot files only when the segment starts with `.`, results sorted, and a pattern that matches
 * nothing left as typed (bash's default, nullglob off).
 *
 * Patterns arrive with quoted characters backslash-escaped, so `"*.yaml"` never globs.
 */
import type { Vfs } from '../../sim/node/vfs.js';
import { resolvePath } from '../../sim/node/vfs.js';
import { LinearRegExp } from '../../util/regex/index.js';

/** True when the escaped pattern has an unescaped glob metacharacter. */
export function hasGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '*' || c === '?') return true;
    if (c === '[' && pattern.indexOf(']', i + 2) > 0) return true;
  }
  return false;
}

/** Remove the escaping backslashes (most fields have none: returned as they are, without a regex pass). */
export function unescapeGlob(pattern: string): string {
  return pattern.includes('\\') ? pattern.replace(/\\(.)/gs, '$1') : pattern;
}

/** Compile one escaped segment to an anchored RegExp. */
export function segmentRegExp(seg: string): RegExp {
  let re = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === '\\') {
      const n = seg[i + 1] ?? '\\';
      re += n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i++;
    } else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = seg.indexOf(']', i + 2);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = seg.slice(i + 1, end);
      let neg = false;
      if (body.startsWith('!') || body.startsWith('^')) {
        neg = true;
        body = body.slice(1);
      }
      body = body.replace(/\\/g, '\\\\').replace(/\[:(\w+):\]/g, (_m, cls: string) => POSIX_CLASSES[cls] ?? '');
      re += `[${neg ? '^' : ''}${body.replace(/^\]/, '\\]')}]`;
      i = end;
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    // matched on the linear engine: `*a*a*a*b` against a long word is polynomial in V8
    return new LinearRegExp(`^${re}$`, 's');
  } catch {
    return /^\b\B$/;
  }
}

const POSIX_CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
};

/** Expand an escaped pattern; returns the matching paths (as the user would see them), or []. */
export function expandGlob(pattern: string, cwd: string, fs: Vfs): string[] {
  const absolute = pattern.startsWith('/');
  const segs = pattern.split('/').filter((s, i) => !(i === 0 && s === '' && absolute));
  let found: string[] = [absolute ? '/' : ''];
  segs.forEach((seg, idx) => {
    const last = idx === segs.length - 1;
    const next: string[] = [];
    for (const prefix of found) {
      const dir = resolvePath(cwd, prefix === '' ? '.' : prefix);
      const join = (name: string): string => (prefix === '' ? name : prefix.endsWith('/') ? `${prefix}${name}` : `${prefix}/${name}`);
      if (seg === '') {
        next.push(join(''));
        continue;
      }
      if (!hasGlob(seg)) {
        const p = join(unescapeGlob(seg));
        const abs = resolvePath(cwd, p);
        if (last ? fs.exists(abs) : fs.isDir(abs)) next.push(p);
        continue;
      }
      if (!fs.isDir(dir)) continue;
      const re = segmentRegExp(seg);
      const dots = seg.startsWith('.') || seg.startsWith('\\.');
      for (const name of fs.list(dir)) {
        if (name.startsWith('.') && !dots) continue;
        if (!re.test(name)) continue;
        const p = join(name);
        if (!last && !fs.isDir(resolvePath(cwd, p))) continue;
        next.push(p);
      }
    }
    found = next;
  });
  return found.filter((p) => p !== '' && p !== '/').sort();
}
