/**
 * seq — GNU coreutils src/seq.c: FIRST [INCREMENT] LAST, decimals printed with the widest
 * precision among the operands, -s SEP, -w equal width, -f FORMAT.
 */
import type { CommandFn } from '../types.js';
import { fixedDigits, formatC } from './format.js';
import { getopt, has, value } from './util.js';
import { budgetOf } from './types.js';
import { BudgetExceeded } from '../budget.js';

export const seq: CommandFn = (ctx) => {
  // Negative numbers are operands, not options.
  const raw = ctx.argv.slice(1);
  const optArgs: string[] = [];
  const nums: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const a = raw[i]!;
    if (/^-\d|^-\.\d/.test(a) || !a.startsWith('-') || a === '-') nums.push(a);
    else {
      optArgs.push(a);
      if ((a === '-s' || a === '-f') && i + 1 < raw.length) optArgs.push(raw[++i]!);
    }
  }
  const p = getopt('seq', optArgs, { short: 's:f:w', long: { separator: { key: 's', arg: true }, format: { key: 'f', arg: true }, 'equal-width': { key: 'w', arg: false } } });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'seq --help' for more information.\n`, exitCode: 1 };
  nums.push(...p.opts.operands);
  if (nums.length === 0) return { stdout: '', stderr: "seq: missing operand\nTry 'seq --help' for more information.\n", exitCode: 1 };
  if (nums.length > 3) return { stdout: '', stderr: `seq: extra operand ‘${nums[3]}’\nTry 'seq --help' for more information.\n`, exitCode: 1 };
  for (const n of nums) {
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(n)) return { stdout: '', stderr: `seq: invalid floating point argument: ‘${n}’\nTry 'seq --help' for more information.\n`, exitCode: 1 };
  }
  const [first, incr, last] = nums.length === 1 ? ['1', '1', nums[0]!] : nums.length === 2 ? [nums[0]!, '1', nums[1]!] : (nums as [string, string, string]);
  const decimals = (s: string): number => (s.includes('.') && !/e/i.test(s) ? s.length - s.indexOf('.') - 1 : 0);
  const prec = Math.max(decimals(first), decimals(incr));
  const a = Number(first);
  const step = Number(incr);
  const z = Number(last);
  if (step === 0) return { stdout: '', stderr: `seq: invalid Zero increment value: ‘${incr}’\nTry 'seq --help' for more information.\n`, exitCode: 1 };
  const fmt = value(p.opts, 'f');
  const sep = value(p.opts, 's') ?? '\n';
  // GNU seq prints for as long as it is asked to; the line's output allowance ends it here, with
  // the simulator's message, instead of a silently shorter sequence
  const left = budgetOf(ctx).outputLeft();
  const items: string[] = [];
  let size = 0;
  for (let k = 0; ; k++) {
    const v = a + k * step;
    if ((step > 0 && v > z + 1e-12) || (step < 0 && v < z - 1e-12) || Number.isNaN(v)) break;
    const item = fmt !== undefined ? formatC(fmt, [{ num: () => v, str: () => String(v), isNum: true }]).text : v < 0 ? `-${fixedDigits(-v, prec)}` : fixedDigits(v, prec);
    size += item.length + sep.length;
    if (size > left) throw new BudgetExceeded('output');
    items.push(item);
    // a step too small to change the value (seq 1 1e-300 2) would repeat it for ever
    if (k > 0 && v === a + (k - 1) * step) throw new BudgetExceeded('output');
  }
  if (has(p.opts, 'w') && fmt === undefined) {
    const width = items.reduce((w, s) => Math.max(w, s.length), (z < 0 ? `-${fixedDigits(-z, prec)}` : fixedDigits(Math.abs(z), prec)).length);
    for (let i = 0; i < items.length; i++) {
      const s = items[i]!;
      items[i] = s.startsWith('-') ? `-${s.slice(1).padStart(width - 1, '0')}` : s.padStart(width, '0');
    }
  }
  return { stdout: items.length === 0 ? '' : `${items.join(sep)}\n`, stderr: '', exitCode: 0 };
};
