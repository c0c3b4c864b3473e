/**
 * jq (matched against jq 1.6, src/main.c and src/jv_print.c): reads JSON values from stdin or
 * files, runs the filter (jq/parse.ts, jq/eval.ts) on each, and prints the outputs pretty with
 * two spaces (--indent N, --tab), compact with -c, strings raw with -r/-j, keys sorted with -S.
 * Options -n -s -e --arg --argjson. Numbers print as jq's jvp_dtoa_fmt does (shortest digits,
 * an exponent from 17 digits or below 1e-4: 1e+17, 1e-05). Errors and statuses are jq's: a
 * compile error exits 3, a runtime error `jq: error (at <stdin>:N): …` 5, bad JSON input 2.
 */
import type { CommandFn } from '../types.js';
import { budgetOf } from './types.js';
import { readInput } from './util.js';
import { parseJq, JqSyntaxError, type Ast } from './jq/parse.js';
import { debugLines, Halt, JqError, JqUndefined, KNOWN, resetDepth, run, type Json } from './jq/eval.js';

/** jvp_dtoa_fmt: shortest round-trip digits, exponential when decpt <= -4 or decpt > digits + 5. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '1.7976931348623157e+308' : n < 0 ? '-1.7976931348623157e+308' : 'null';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mant, expStr] = Math.abs(n).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const decpt = Number(expStr) + 1;
  const sign = n < 0 ? '-' : '';
  if (decpt <= -4 || decpt > digits.length + 5) {
    const e = decpt - 1;
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

function quote(s: string, ascii: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (ascii && c > 0x7e) {
      if (c > 0xffff) {
        const v = c - 0x10000;
        out += `\\u${(0xd800 + (v >> 10)).toString(16)}\\u${(0xdc00 + (v & 0x3ff)).toString(16)}`;
      } else out += `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

interface PrintOpts {
  indent: string;
  sortKeys: boolean;
  ascii: boolean;
}

/** jv_dump_term: pretty with the indent, or compact when the indent is ''. */
export function dump(v: Json, o: PrintOpts, level = 0): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'string') return quote(v, o.ascii);
  const pretty = o.indent !== '';
  const pad = (l: number): string => (pretty ? `\n${o.indent.repeat(l)}` : '');
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((x) => `${pad(level + 1)}${dump(x, o, level + 1)}`).join(',')}${pad(level)}]`;
  }
  const keys = o.sortKeys ? Object.keys(v).sort() : Object.keys(v);
  if (keys.length === 0) return '{}';
  return `{${keys.map((k) => `${pad(level + 1)}${quote(k, o.ascii)}:${pretty ? ' ' : ''}${dump(v[k]!, o, level + 1)}`).join(',')}${pad(level)}}`;
}

/** JSON texts one after another (jv_parser): each value and the line its text ends on. */
function parseInputs(text: string): { values: Array<{ v: Json; line: number }>; error?: string } {
  const values: Array<{ v: Json; line: number }> = [];
  let i = 0;
  const lineAt = (pos: number): number => text.slice(0, pos).split('\n').length;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const start = i;
    let depth = 0;
    let inStr = false;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (inStr) {
        if (c === '\\') i++;
        else if (c === '"') {
          inStr = false;
          if (depth === 0) {
            i++;
            break;
          }
        }
        continue;
      }
      if (c === '"') inStr = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (depth === 0 && /\s/.test(c)) break;
    }
    if (depth > 0 || inStr) return { values, error: `Unfinished JSON term at EOF at line ${text.split('\n').length}, column 0` };
    const chunk = text.slice(start, i);
    try {
      values.push({ v: JSON.parse(chunk) as Json, line: lineAt(i) });
    } catch {
      // the tokenizer reports after consuming the delimiter that ended the bad literal
      const end = Math.min(text.length, i + 1);
      const line = text.slice(0, end).split('\n').length;
      const col = end - (text.lastIndexOf('\n', end - 1) + 1);
      return { values, error: `Invalid numeric literal at line ${line}, column ${col}` };
    }
  }
  return { values };
}

/** The names a program calls that neither jq nor the program defines (compile errors). */
function undefinedCalls(ast: Ast, scope: Set<string>, out: string[]): void {
  const walk = (n: Ast | undefined, s: Set<string>): void => {
    if (!n) return;
    if (n.t === 'call') {
      const k = `${n.name}/${n.args.length}`;
      if (!s.has(k) && !KNOWN.has(k)) out.push(k);
      n.args.forEach((a) => walk(a, s));
      return;
    }
    if (n.t === 'def') {
      const inner = new Set([...s, `${n.name}/${n.params.length}`, ...n.params.filter((p) => !p.startsWith('$')).map((p) => `${p}/0`), ...n.params.filter((p) => p.startsWith('$')).map((p) => `${p.slice(1)}/0`)]);
      walk(n.body, inner);
      walk(n.rest, new Set([...s, `${n.name}/${n.params.length}`]));
      return;
    }
    for (const v of Object.values(n)) {
      if (v && typeof v === 'object' && 't' in (v as object)) walk(v as Ast, s);
      else if (Array.isArray(v)) for (const x of v) if (x && typeof x === 'object' && 't' in x) walk(x as Ast, s);
    }
    if (n.t === 'object') for (const e of n.entries) {
      walk(e.key, s);
      walk(e.value, s);
    }
    if (n.t === 'str') for (const p of n.parts) if (typeof p !== 'string') walk(p, s);
  };
  walk(ast, scope);
}

export const jq: CommandFn = (ctx) => {
  const args = ctx.argv.slice(1);
  let raw = false;
  let join = false;
  let compact = false;
  let nullInput = false;
  let slurp = false;
  let exitStatus = false;
  let sortKeys = false;
  let ascii = false;
  let indent = '  ';
  let filter: string | undefined;
  const files: string[] = [];
  const vars = new Map<string, Json>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--arg' || a === '--argjson') {
      const name = args[i + 1];
      const value = args[i + 2];
      if (name === undefined || value === undefined) return { stdout: '', stderr: `jq: ${a} takes two parameters (e.g. ${a} varname ${a === '--arg' ? 'value' : 'text'})\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n`, exitCode: 2 };
      if (a === '--arg') vars.set(name, value);
      else {
        try {
          vars.set(name, JSON.parse(value) as Json);
        } catch {
          return { stdout: '', stderr: `jq: Invalid JSON text passed to --argjson\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n`, exitCode: 2 };
        }
      }
      i += 2;
      continue;
    }
    if (a === '--indent') {
      indent = ' '.repeat(Math.min(7, Number(args[++i] ?? '2')));
      continue;
    }
    if (a === '--tab') {
      indent = '\t';
      continue;
    }
    // main.c: `-V`/`--version` prints the version and exits as soon as it is reached
    if (a === '--version' || (/^-[^-]/.test(a) && a.includes('V'))) return { stdout: 'jq-1.6\n', stderr: '', exitCode: 0 };
    if (a.startsWith('--')) {
      const long: Record<string, () => void> = { '--raw-output': () => (raw = true), '--join-output': () => ((raw = true), (join = true)), '--compact-output': () => (compact = true), '--null-input': () => (nullInput = true), '--slurp': () => (slurp = true), '--exit-status': () => (exitStatus = true), '--sort-keys': () => (sortKeys = true), '--ascii-output': () => (ascii = true), '--monochrome-output': () => undefined, '--color-output': () => undefined };
      const f = long[a];
      if (!f) return { stdout: '', stderr: `jq: Unknown option ${a}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n`, exitCode: 2 };
      f();
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (const ch of a.slice(1)) {
        if (ch === 'r') raw = true;
        else if (ch === 'j') raw = join = true;
        else if (ch === 'c') compact = true;
        else if (ch === 'n') nullInput = true;
        else if (ch === 's') slurp = true;
        else if (ch === 'e') exitStatus = true;
        else if (ch === 'S') sortKeys = true;
        else if (ch === 'a') ascii = true;
        else if (ch === 'M' || ch === 'C') continue;
        else return { stdout: '', stderr: `jq: Unknown option ${a}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n`, exitCode: 2 };
      }
      continue;
    }
    if (filter === undefined) filter = a;
    else files.push(a);
  }
  // without a program and with input that is not a terminal, jq 1.6 runs `.`
  filter ??= '.';
  let ast: Ast;
  try {
    ast = parseJq(filter);
  } catch (e) {
    if (!(e instanceof JqSyntaxError)) throw e;
    // the source line is echoed; at an unexpected end jq has read one blank past it
    return { stdout: '', stderr: `jq: error: ${e.message} at <top-level>, line 1:\n${filter}${e.message.includes('$end') ? ' ' : ''}\njq: 1 compile error\n`, exitCode: 3 };
  }
  const missing: string[] = [];
  undefinedCalls(ast, new Set(), missing);
  if (missing.length) return { stdout: '', stderr: `${missing.map((m) => `jq: error: ${m} is not defined at <top-level>, line 1:\n${filter}\n`).join('')}jq: ${missing.length} compile error${missing.length > 1 ? 's' : ''}\n`, exitCode: 3 };
  let text = '';
  let source = '<stdin>';
  if (files.length) {
    for (const f of files) {
      const r = readInput(ctx, f);
      if (!r.ok) return { stdout: '', stderr: `jq: error: Could not open file ${f}: ${r.error}\n`, exitCode: 2 };
      text += r.text;
      source = f;
    }
  } else text = ctx.stdin;
  const parsed = parseInputs(text);
  let inputs = parsed.values;
  if (slurp) inputs = [{ v: inputs.map((x) => x.v), line: text.split('\n').length - 1 }];
  if (nullInput) inputs = [{ v: null, line: 0 }];
  const budget = budgetOf(ctx);
  const env = { vars, funcs: new Map(), step: () => budget.step(), now: () => ctx.now(), envVars: ctx.env, inputs: nullInput ? parsed.values.map((x) => x.v) : [] };
  const opts = { indent: compact ? '' : indent, sortKeys, ascii };
  let stdout = '';
  let stderr = '';
  let status = 0;
  let last: Json | undefined;
  debugLines.length = 0;
  resetDepth();
  for (const { v, line } of inputs) {
    const at = nullInput ? '<unknown>' : `${source}:${line}`;
    try {
      for (const out of run(ast, v, env)) {
        last = out;
        stdout += raw && typeof out === 'string' ? out : dump(out, opts);
        if (!join) stdout += '\n';
        budget.output(stdout.length);
      }
    } catch (e) {
      if (e instanceof Halt) {
        if (e.value !== undefined) stderr += typeof e.value === 'string' ? e.value : `${dump(e.value, { ...opts, indent: '' })}\n`;
        return { stdout, stderr, exitCode: e.code };
      }
      if (e instanceof RangeError) {
        // JavaScript's stack ran out before the depth limit: the same stop, in jq's error form
        stderr += `jq: error (at ${at}): recursion too deep (cka-lab stops the program here)\n`;
        status = 5;
        continue;
      }
      if (e instanceof JqUndefined) return { stdout, stderr: `${stderr}jq: error: ${e.message} is not defined at <top-level>, line 1:\n${filter}\njq: 1 compile error\n`, exitCode: 3 };
      if (!(e instanceof JqError)) throw e;
      const msg = typeof e.value === 'string' ? e.value : `${dump(e.value, { ...opts, indent: '' })} (not a string)`;
      stderr += typeof e.value === 'string' ? `jq: error (at ${at}): ${msg}\n` : `jq: error (at ${at}) (not a string): ${dump(e.value, { ...opts, indent: '' })}\n`;
      status = 5;
    }
  }
  if (debugLines.length) stderr = debugLines.map((l) => `${l}\n`).join('') + stderr;
  // jq 1.6 exits 4 after a parse error in its input (observed; 1.7 exits 2)
  if (parsed.error) return { stdout, stderr: `${stderr}parse error: ${parsed.error}\n`, exitCode: 4 };
  if (status) return { stdout, stderr, exitCode: status };
  if (exitStatus) return { stdout, stderr, exitCode: last === undefined ? 4 : last === null || last === false ? 1 : 0 };
  return { stdout, stderr, exitCode: 0 };
};
