/**
 * uniq — GNU coreutils src/uniq.c: collapse adjacent equal lines; -c prefixes `%7d `, -d only
 * repeated, -u only unique, -i ignore case, -f N skip fields, -s N skip chars; optional OUTPUT file.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { getopt, has, readInput, splitLines, value } from './util.js';

export const uniq: CommandFn = (ctx) => {
  const p = getopt('uniq', ctx.argv.slice(1), {
    short: 'cduif:s:',
    long: { count: { key: 'c', arg: false }, repeated: { key: 'd', arg: false }, unique: { key: 'u', arg: false }, 'ignore-case': { key: 'i', arg: false }, 'skip-fields': { key: 'f', arg: true }, 'skip-chars': { key: 's', arg: true } },
  });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'uniq --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  if (o.operands.length > 2) return { stdout: '', stderr: `uniq: extra operand ‘${o.operands[2]}’\nTry 'uniq --help' for more information.\n`, exitCode: 1 };
  const input = o.operands[0] ?? '-';
  const r = readInput(ctx, input);
  if (!r.ok) return { stdout: '', stderr: `uniq: ${input}: ${r.error}\n`, exitCode: 1 };
  const skipF = Number(value(o, 'f') ?? 0) || 0;
  const skipC = Number(value(o, 's') ?? 0) || 0;
  const key = (l: string): string => {
    let s = l;
    for (let i = 0; i < skipF; i++) s = s.replace(/^[ \t]*[^ \t]*/, '');
    s = s.slice(skipC);
    return has(o, 'i') ? s.toLowerCase() : s;
  };
  const groups: Array<{ line: string; n: number }> = [];
  for (const l of splitLines(r.text)) {
    const last = groups[groups.length - 1];
    if (last && key(last.line) === key(l)) last.n++;
    else groups.push({ line: l, n: 1 });
  }
  let text = '';
  for (const g of groups) {
    if (has(o, 'd') && g.n < 2) continue;
    if (has(o, 'u') && g.n > 1) continue;
    text += has(o, 'c') ? `${String(g.n).padStart(7)} ${g.line}\n` : `${g.line}\n`;
  }
  const outName = o.operands[1];
  if (outName !== undefined && outName !== '-') {
    ctx.fs.write(resolvePath(ctx.cwd, outName), text);
    return { stdout: '', stderr: '', exitCode: 0 };
  }
  return { stdout: text, stderr: '', exitCode: 0 };
};
