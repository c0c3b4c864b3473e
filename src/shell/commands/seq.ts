/**
 * seq — GNU coreutils src/seq.c: FIRST [INCREMENT] LAST, decimals printed with the widest
 * precision among the operands, -s SEP, -w equal width, -f FORMAT.
 */
import type { CommandFn } from '../types.js';
import { fixedDigits, formatC } from './format.js';
import { getopt, has, value } from './util.js';
import { budgetOf } from './types.js';
import { BudgetExceeded } from '../budget.js';
import { busyboxOpts, busyboxUsageError, isBusybox } from './busybox.js';

export const seq: CommandFn = (ctx) => {
  if (isBusybox(ctx)) return busyboxSeq(ctx);
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

/** What strtod(3) reads whole: decimal (with exponent), hexadecimal, inf and nan; else undefined. */
function strtod(s: string): number | undefined {
  const t = s.replace(/^[ \t\n\v\f\r]+/, '');
  if (/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(t)) return Number(t);
  const hex = /^([-+]?)0[xX]([\da-fA-F]+)$/.exec(t);
  if (hex) return (hex[1] === '-' ? -1 : 1) * parseInt(hex[2]!, 16);
  const special = /^([-+]?)(inf(?:inity)?|nan)$/i.exec(t);
  if (special) return special[2]!.toLowerCase().startsWith('n') ? NaN : special[1] === '-' ? -Infinity : Infinity;
  return undefined;
}

/** C's printf("%0*.*f", width, prec, v): fixed digits, zeros after the sign up to width. */
function zeroFixed(v: number, width: number, prec: number): string {
  const neg = v < 0 || Object.is(v, -0);
  const body = Number.isFinite(v) ? fixedDigits(Math.abs(v), prec) : Number.isNaN(v) ? 'nan' : 'inf';
  return `${neg ? '-' : ''}${body.padStart(width - (neg ? 1 : 0), Number.isFinite(v) ? '0' : ' ')}`;
}

/**
 * BusyBox seq (coreutils/seq.c, busybox 1.36.1; recorded from Ubuntu's 1:1.36.1-6ubuntu3.1):
 * getopt32 "+ws:", so options end at the first operand and a leading negative number is an
 * invalid option (`seq -1`); one to three operands read by strtod, anything else (a word that is
 * not a number, a fourth operand, none) shows the usage, status 1. Each value is
 * printf("%0*.*f") of FIRST + n*INC (no accumulated error) with as many decimals as FIRST's or
 * INC's own (LAST's do not count: `seq 1 2.0` prints 1 and 2), -w pads to the widest integer
 * part plus those decimals, -s SEP goes between values; an INC of 0 repeats FIRST for as long
 * as it is read (here, until the line's output allowance ends it).
 */
function busyboxSeq(ctx: Parameters<CommandFn>[0]): ReturnType<CommandFn> {
  const p = busyboxOpts('seq', ctx.argv.slice(1), { short: 'ws:', stopAtOperand: true });
  if (!p.ok) return p.result;
  const ops = p.opts.operands;
  const nums = ops.map(strtod);
  if (ops.length === 0 || ops.length > 3 || nums.some((n) => n === undefined)) return busyboxUsageError('seq');
  const [first, inc, last] = (ops.length === 1 ? [1, 1, nums[0]] : ops.length === 2 ? [nums[0], 1, nums[1]] : nums) as [number, number, number];
  let width = 0;
  let frac = 0;
  ops.forEach((o, i) => {
    const dot = o.indexOf('.');
    width = Math.max(width, dot < 0 ? o.length : dot);
    if (i < ops.length - 1) frac = Math.max(frac, dot < 0 ? 0 : o.length - dot);
  });
  if (frac > 0) {
    frac--;
    width += frac + 1;
  }
  if (!has(p.opts, 'w')) width = 0;
  const sep = value(p.opts, 's') ?? '\n';
  const left = budgetOf(ctx).outputLeft();
  let out = '';
  for (let n = 0; ; n++) {
    const v = first + n * inc;
    if (!(inc >= 0 ? v <= last : v >= last)) break;
    out += `${n > 0 ? sep : ''}${zeroFixed(v, width, frac)}`;
    if (out.length > left) throw new BudgetExceeded('output');
  }
  return { stdout: out === '' ? '' : `${out}\n`, stderr: '', exitCode: 0 };
}
