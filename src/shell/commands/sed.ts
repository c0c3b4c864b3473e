/**
 * sed — GNU sed 4.x (sed/compile.c, sed/execute.c): scripts from the operand or -e, -n, -E/-r,
 * -i[SUFFIX], -s; addresses (N, $, /re/I, \cREc, first~step, 0,/re/, addr1,addr2, !), blocks
 * `{}` and commands s y p P d D n N q Q = a i c h H g G x b t T : l-less subset, with GNU's
 * `-e expression #1, char N: …` errors. Regular expressions are POSIX BRE/ERE via regex.ts.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { compilePosix, RegexError, withFlags } from '../../util/posix-regex.js';
import type { Meter } from '../../util/regex/index.js';
import { readInput } from './util.js';
import { budgetOf } from './types.js';
import { BudgetExceeded } from '../budget.js';

/** Escapes GNU sed turns into characters in a/i/c text (sed/compile.c convert_ANSI). */
const TEXT_ESCAPES: Record<string, string> = { n: '\n', t: '\t', a: '\x07', f: '\f', v: '\v', r: '\r' };

type Addr =
  | { kind: 'line'; n: number }
  | { kind: 'last' }
  | { kind: 're'; re: RegExp | null }
  | { kind: 'step'; first: number; step: number }
  | { kind: 'plus'; n: number };

interface Cmd {
  a1?: Addr;
  a2?: Addr;
  neg: boolean;
  name: string;
  text?: string;
  label?: string;
  /** For `{`: index of the matching `}`. */
  end?: number;
  re?: RegExp | null;
  global?: boolean;
  nth?: number;
  print?: boolean;
  repl?: string;
  from?: string[];
  to?: string[];
  code?: number;
  /** Range state. */
  active?: boolean;
  rangeEnd?: number;
}

class SedError extends Error {}

class Compiler {
  i = 0;
  constructor(
    private readonly s: string,
    private readonly ere: boolean,
    private readonly meter?: Meter,
  ) {}

  private fail(msg: string, at = this.i): never {
    throw new SedError(`sed: -e expression #1, char ${at}: ${msg}`);
  }

  private compile(src: string, flags: string): RegExp | null {
    if (src === '') return null;
    try {
      return compilePosix(src, this.ere ? 'ere' : 'bre', flags, this.meter);
    } catch (e) {
      this.fail(e instanceof RegexError ? e.message : 'Invalid regex');
    }
  }

  /** Read up to an unescaped delimiter; `\delim` becomes delim, `\n` stays for the regex layer. */
  private delimited(delim: string, what: string): string {
    let out = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '\\') {
        const n = this.s[this.i + 1];
        if (n === undefined) break;
        out += n === delim ? delim : `\\${n}`;
        this.i += 2;
        continue;
      }
      if (c === delim) {
        this.i++;
        return out;
      }
      if (c === '\n' && what !== 's-repl') break;
      out += c;
      this.i++;
    }
    this.fail(what === 'addr' ? 'unterminated address regex' : what === 'y' ? "unterminated `y' command" : "unterminated `s' command", this.s.length);
  }

  private address(): Addr | undefined {
    const s = this.s;
    const c = s[this.i];
    if (c === undefined) return undefined;
    if (/\d/.test(c)) {
      const m = /^(\d+)(?:~(\d+))?/.exec(s.slice(this.i))!;
      this.i += m[0].length;
      if (m[2] !== undefined) return { kind: 'step', first: Number(m[1]), step: Number(m[2]) };
      return { kind: 'line', n: Number(m[1]) };
    }
    if (c === '$') {
      this.i++;
      return { kind: 'last' };
    }
    if (c === '/' || c === '\\') {
      let delim = '/';
      if (c === '\\') {
        delim = s[this.i + 1] ?? '';
        this.i++;
      }
      this.i++;
      const src = this.delimited(delim, 'addr');
      let flags = '';
      while (s[this.i] === 'I' || s[this.i] === 'M') {
        flags += s[this.i] === 'I' ? 'i' : 'm';
        this.i++;
      }
      return { kind: 're', re: this.compile(src, flags) };
    }
    return undefined;
  }

  private skipWs(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  private endOfCommand(): void {
    this.skipWs();
    const c = this.s[this.i];
    if (c === undefined || c === '\n' || c === ';') {
      if (c !== undefined) this.i++;
      return;
    }
    if (c === '}' || c === '#') return;
    this.fail('extra characters after command', this.i + 1);
  }

  /** Text argument of a/i/c: GNU one-liner `a text`, `a\text` or `a\` newline text. */
  /** a/i/c text: what follows `a\` up to the end of the line, escapes processed. */
  private textArg(): string {
    const s = this.s;
    this.skipWs();
    if (s[this.i] === '\\') {
      this.i++;
      if (s[this.i] === '\n') this.i++;
    }
    let out = '';
    while (this.i < s.length && s[this.i] !== '\n') {
      if (s[this.i] === '\\' && this.i + 1 < s.length) {
        // GNU sed compile.c read_text keeps the escape and normalize_text turns \n, \t and the
        // other ANSI escapes into their characters (a GNU extension); any other \X is X
        const n = s[this.i + 1]!;
        out += TEXT_ESCAPES[n] ?? n;
        this.i += 2;
        continue;
      }
      out += s[this.i];
      this.i++;
    }
    if (s[this.i] === '\n') this.i++;
    return out;
  }

  private label(): string {
    this.skipWs();
    const m = /^[^;\n}]*/.exec(this.s.slice(this.i))!;
    this.i += m[0].length;
    return m[0].trim();
  }

  program(): Cmd[] {
    const cmds: Cmd[] = [];
    const open: number[] = [];
    const s = this.s;
    while (this.i < s.length) {
      while (this.i < s.length && /[ \t\n;]/.test(s[this.i]!)) this.i++;
      if (this.i >= s.length) break;
      if (s[this.i] === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
        continue;
      }
      const cmd: Cmd = { neg: false, name: '' };
      const a1 = this.address();
      if (a1) {
        cmd.a1 = a1;
        this.skipWs();
        if (s[this.i] === ',') {
          this.i++;
          this.skipWs();
          if (s[this.i] === '+') {
            const m = /^\+(\d+)/.exec(s.slice(this.i));
            if (!m) this.fail('unexpected `,\'');
            this.i += m[0].length;
            cmd.a2 = { kind: 'plus', n: Number(m[1]) };
          } else {
            const a2 = this.address();
            if (!a2) this.fail("unexpected `,'");
            cmd.a2 = a2;
          }
        }
      }
      if (a1?.kind === 'line' && a1.n === 0 && !(cmd.a2?.kind === 're')) this.fail('invalid usage of line address 0');
      this.skipWs();
      while (s[this.i] === '!') {
        cmd.neg = true;
        this.i++;
        this.skipWs();
      }
      const name = s[this.i];
      if (name === undefined) this.fail('missing command', this.i);
      this.i++;
      cmd.name = name;
      switch (name) {
        case '{':
          open.push(cmds.length);
          cmds.push(cmd);
          continue;
        case '}': {
          const o = open.pop();
          if (o === undefined) this.fail("unexpected `}'");
          if (cmd.a1) this.fail("} doesn't want any addresses");
          cmds[o]!.end = cmds.length;
          cmds.push(cmd);
          this.endOfCommand();
          continue;
        }
        case 's': {
          const delim = s[this.i];
          if (delim === undefined || delim === '\n' || delim === '\\') this.fail("unterminated `s' command", this.s.length);
          this.i++;
          const src = this.delimited(delim, 's');
          cmd.repl = this.delimited(delim, 's-repl');
          cmd.global = false;
          cmd.print = false;
          let flags = '';
          for (;;) {
            const f = s[this.i];
            if (f === 'g') cmd.global = true;
            else if (f === 'p') cmd.print = true;
            else if (f === 'i' || f === 'I') flags += 'i';
            else if (f === 'm' || f === 'M') flags += 'm';
            else if (f !== undefined && /\d/.test(f)) {
              const m = /^\d+/.exec(s.slice(this.i))!;
              cmd.nth = Number(m[0]);
              if (cmd.nth === 0) this.fail("number option to `s' command may not be zero", this.i + 1);
              this.i += m[0].length;
              continue;
            } else break;
            this.i++;
          }
          const f = s[this.i];
          if (f !== undefined && !/[ \t\n;}#]/.test(f)) this.fail("unknown option to `s'", this.i + 1);
          cmd.re = this.compile(src, `${flags}${cmd.global ? 'g' : ''}`);
          if (cmd.re && !cmd.re.global) cmd.re = withFlags(cmd.re, `${cmd.re.flags}g`);
          cmds.push(cmd);
          this.endOfCommand();
          continue;
        }
        case 'y': {
          const delim = s[this.i];
          if (delim === undefined) this.fail("unterminated `y' command", this.s.length);
          this.i++;
          const unesc = (t: string): string[] => [...t.replace(/\\n/g, '\n').replace(/\\\\/g, '\\')];
          const from = unesc(this.delimited(delim, 'y'));
          const to = unesc(this.delimited(delim, 'y'));
          if (from.length !== to.length) this.fail("strings for `y' command are different lengths");
          cmd.from = from;
          cmd.to = to;
          cmds.push(cmd);
          this.endOfCommand();
          continue;
        }
        case 'a':
        case 'i':
        case 'c':
          cmd.text = this.textArg();
          cmds.push(cmd);
          continue;
        case ':':
          if (cmd.a1) this.fail(': doesn\'t want any addresses');
          cmd.label = this.label();
          if (cmd.label === '') this.fail('":" lacks a label');
          cmds.push(cmd);
          if (s[this.i] === ';') this.i++;
          continue;
        case 'b':
        case 't':
        case 'T':
          cmd.label = this.label();
          cmds.push(cmd);
          if (s[this.i] === ';') this.i++;
          continue;
        case 'q':
        case 'Q': {
          this.skipWs();
          const m = /^\d+/.exec(s.slice(this.i));
          if (m) {
            cmd.code = Number(m[0]);
            this.i += m[0].length;
          }
          cmds.push(cmd);
          this.endOfCommand();
          continue;
        }
        case '=':
        case 'd':
        case 'D':
        case 'p':
        case 'P':
        case 'n':
        case 'N':
        case 'h':
        case 'H':
        case 'g':
        case 'G':
        case 'x':
        case 'z':
          cmds.push(cmd);
          this.endOfCommand();
          continue;
        default:
          this.fail(`unknown command: \`${name}'`, this.i);
      }
    }
    if (open.length > 0) this.fail('unmatched `{\'', 0);
    return cmds;
  }
}

/** Build the replacement for one match: & \1-\9 \n \U \L \u \l \E. */
function replacement(repl: string, m: RegExpExecArray): string {
  let out = '';
  let mode: 'U' | 'L' | '' = '';
  let once: 'u' | 'l' | '' = '';
  const emit = (t: string): void => {
    for (const ch of t) {
      let c = mode === 'U' ? ch.toUpperCase() : mode === 'L' ? ch.toLowerCase() : ch;
      if (once) {
        c = once === 'u' ? c.toUpperCase() : c.toLowerCase();
        once = '';
      }
      out += c;
    }
  };
  for (let i = 0; i < repl.length; i++) {
    const c = repl[i]!;
    if (c === '&') {
      emit(m[0]);
      continue;
    }
    if (c === '\\' && i + 1 < repl.length) {
      const n = repl[++i]!;
      if (/\d/.test(n)) emit(m[Number(n)] ?? '');
      else if (n === 'n') emit('\n');
      else if (n === 't') emit('\t');
      else if (n === 'U' || n === 'L') mode = n;
      else if (n === 'E') mode = '';
      else if (n === 'u' || n === 'l') once = n;
      else emit(n);
      continue;
    }
    emit(c);
  }
  return out;
}

export const sed: CommandFn = (ctx) => {
  // every command run is a step of the line's budget (`:a;ba` loops for ever in GNU sed), and
  // the text sed holds counts against its output allowance (`:a;s/.*/&&/;ba` doubles it)
  const budget = budgetOf(ctx);
  const args = ctx.argv.slice(1);
  const scripts: string[] = [];
  const files: string[] = [];
  let quiet = false;
  let ere = false;
  let inPlace: string | undefined;
  let separate = false;
  const usage = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n";
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, val] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--quiet' || name === '--silent') quiet = true;
      else if (name === '--regexp-extended') ere = true;
      else if (name === '--in-place') inPlace = val ?? '';
      else if (name === '--separate') separate = true;
      else if (name === '--expression') {
        const v = val ?? args[++i];
        if (v === undefined) return { stdout: '', stderr: `sed: option '--expression' requires an argument\n${usage}`, exitCode: 1 };
        scripts.push(v);
      } else if (name === '--posix' || name === '--debug' || name === '--sandbox' || name === '--unbuffered') continue;
      else return { stdout: '', stderr: `sed: unrecognized option '${a}'\n${usage}`, exitCode: 1 };
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'n') quiet = true;
        else if (c === 'E' || c === 'r') ere = true;
        else if (c === 's') separate = true;
        else if (c === 'u' || c === 'z') continue;
        else if (c === 'i') {
          inPlace = a.slice(j + 1);
          break;
        } else if (c === 'e' || c === 'f') {
          const v = a.slice(j + 1) || args[++i];
          if (v === undefined) return { stdout: '', stderr: `sed: option requires an argument -- '${c}'\n${usage}`, exitCode: 1 };
          if (c === 'e') scripts.push(v);
          else {
            const r = readInput(ctx, v);
            if (!r.ok) return { stdout: '', stderr: `sed: couldn't open file ${v}: ${r.error}\n`, exitCode: 1 };
            scripts.push(r.text.replace(/\n$/, ''));
          }
          break;
        } else return { stdout: '', stderr: `sed: invalid option -- '${c}'\n${usage}`, exitCode: 1 };
      }
      continue;
    }
    files.push(a);
  }
  if (scripts.length === 0) {
    const s = files.shift();
    if (s === undefined) return { stdout: '', stderr: usage, exitCode: 1 };
    scripts.push(s);
  }
  let cmds: Cmd[];
  try {
    cmds = new Compiler(scripts.join('\n'), ere, budget.regexMeter()).program();
  } catch (e) {
    if (e instanceof SedError) return { stdout: '', stderr: `${e.message}\n`, exitCode: 1 };
    throw e;
  }
  for (const c of cmds) {
    if ((c.name === 'b' || c.name === 't' || c.name === 'T') && c.label && !cmds.some((d) => d.name === ':' && d.label === c.label)) {
      return { stdout: '', stderr: `sed: -e expression #1, char 0: can't find label for jump to \`${c.label}'\n`, exitCode: 1 };
    }
  }
  if (inPlace !== undefined && files.length === 0) return { stdout: '', stderr: 'sed: no input files\n', exitCode: 1 };

  let stdout = '';
  let stderr = '';
  let status = 0;
  // Input units: one stream for all files, or one per file with -i/-s.
  const sources = files.length > 0 ? files : ['-'];
  const units: Array<Array<{ name: string; text: string }>> = [];
  const readable: Array<{ name: string; text: string }> = [];
  for (const f of sources) {
    const r = readInput(ctx, f);
    if (!r.ok) {
      stderr += r.error === 'Is a directory' ? `sed: couldn't edit ${f}: not a regular file\n` : `sed: can't read ${f}: ${r.error}\n`;
      status = 2;
      continue;
    }
    readable.push({ name: f, text: r.text });
  }
  if (inPlace !== undefined || separate) for (const r of readable) units.push([r]);
  else units.push(readable);

  let lastRe: RegExp | null = null;
  let sedSteps = 0;
  let quit = false;
  let lineNo = 0;
  for (const unit of units) {
    if (quit) break;
    const lines: string[] = [];
    let trailingNewline = true;
    for (const u of unit) {
      const ls = u.text.split('\n');
      trailingNewline = u.text.endsWith('\n') || u.text === '';
      if (ls[ls.length - 1] === '') ls.pop();
      for (const l of ls) lines.push(l);
    }
    let out = '';
    let idx = 0;
    if (inPlace !== undefined) lineNo = 0;
    for (const c of cmds) {
      c.active = false;
      delete c.rangeEnd;
    }
    let hold = '';
    const isLast = (): boolean => idx >= lines.length;
    const emitLine = (t: string, last: boolean): void => {
      out += last && !trailingNewline ? t : `${t}\n`;
    };
    const matchRe = (re: RegExp | null, ps: string): boolean => {
      const r = re ?? lastRe;
      if (!r) return false;
      lastRe = r;
      r.lastIndex = 0;
      const ok = r.test(ps);
      r.lastIndex = 0;
      return ok;
    };
    const one = (a: Addr, ps: string): boolean => {
      switch (a.kind) {
        case 'line':
          return lineNo === a.n;
        case 'last':
          return isLast();
        case 're':
          return matchRe(a.re, ps);
        case 'step':
          return a.step <= 0 ? lineNo === a.first : lineNo >= a.first && (lineNo - a.first) % a.step === 0;
        case 'plus':
          return false;
      }
    };
    const selected = (c: Cmd, ps: string): boolean => {
      if (!c.a1) return true;
      if (!c.a2) return one(c.a1, ps);
      if (c.active) {
        const a2 = c.a2;
        let end = false;
        if (a2.kind === 'line') end = lineNo >= a2.n;
        else if (a2.kind === 'plus') end = lineNo >= (c.rangeEnd ?? 0);
        else end = one(a2, ps);
        if (end) c.active = false;
        return true;
      }
      const zero = c.a1.kind === 'line' && c.a1.n === 0 && lineNo === 1;
      if (zero || one(c.a1, ps)) {
        const a2 = c.a2;
        if (a2.kind === 'line') c.active = a2.n > lineNo;
        else if (a2.kind === 'plus') {
          c.rangeEnd = lineNo + a2.n;
          c.active = a2.n > 0;
        } else if (zero) c.active = !one(a2, ps);
        else c.active = !isLast();
        return true;
      }
      return false;
    };
    let ps = '';
    let restart = false;
    while (!quit && (restart || idx < lines.length)) {
      if (!restart) {
        ps = lines[idx++]!;
        lineNo++;
      }
      restart = false;
      let append = '';
      let autoprint = !quiet;
      let substituted = false;
      let pc = 0;
      let deleted = false;
      cycle: while (pc < cmds.length) {
        const c = cmds[pc]!;
        // four sed commands cost about one shell step
        if ((++sedSteps & 3) === 0) {
          budget.step();
          if (ps.length + hold.length + out.length > budget.outputLeft()) throw new BudgetExceeded('output');
        }
        if (c.name === '}' || c.name === ':') {
          pc++;
          continue;
        }
        const sel = selected(c, ps) !== c.neg;
        if (!sel) {
          pc = c.name === '{' ? (c.end ?? pc) + 1 : pc + 1;
          continue;
        }
        switch (c.name) {
          case '{':
            break;
          case '=':
            out += `${lineNo}\n`;
            break;
          case 'p':
            out += `${ps}\n`;
            break;
          case 'P':
            out += `${ps.split('\n')[0]}\n`;
            break;
          case 'd':
            deleted = true;
            break cycle;
          case 'D': {
            const nl = ps.indexOf('\n');
            if (nl < 0) {
              deleted = true;
              break cycle;
            }
            ps = ps.slice(nl + 1);
            restart = true;
            deleted = true;
            break cycle;
          }
          case 'a':
            append += `${c.text}\n`;
            break;
          case 'i':
            out += `${c.text}\n`;
            break;
          case 'c':
            if (!c.a2 || !c.active || c.neg) out += `${c.text}\n`;
            deleted = true;
            break cycle;
          case 'h':
            hold = ps;
            break;
          case 'H':
            hold += `\n${ps}`;
            break;
          case 'g':
            ps = hold;
            break;
          case 'G':
            ps += `\n${hold}`;
            break;
          case 'x':
            [ps, hold] = [hold, ps];
            break;
          case 'z':
            ps = '';
            break;
          case 'y':
            ps = [...ps].map((ch) => {
              const k = c.from!.indexOf(ch);
              return k >= 0 ? c.to![k]! : ch;
            }).join('');
            break;
          case 'n':
            if (isLast()) {
              quit = true;
              break cycle;
            }
            if (autoprint) out += `${ps}\n`;
            ps = lines[idx++]!;
            lineNo++;
            break;
          case 'N':
            if (isLast()) {
              quit = true;
              break cycle;
            }
            ps += `\n${lines[idx++]}`;
            lineNo++;
            break;
          case 'q':
            quit = true;
            status = c.code ?? status;
            break cycle;
          case 'Q':
            quit = true;
            status = c.code ?? status;
            autoprint = false;
            break cycle;
          case 's': {
            const re = c.re ?? (lastRe ? withFlags(lastRe, `${lastRe.flags.replace('g', '')}g`) : null);
            if (!re) {
              stderr += 'sed: no previous regular expression\n';
              return { stdout, stderr, exitCode: 1 };
            }
            if (c.re) lastRe = c.re;
            re.lastIndex = 0;
            let res = '';
            let pos = 0;
            let count = 0;
            let did = false;
            let prevEnd = -1;
            for (let m = re.exec(ps); m; m = re.exec(ps)) {
              // POSIX: an empty match right after the previous match is not a match.
              if (m[0] === '' && m.index === prevEnd) {
                re.lastIndex++;
                continue;
              }
              if (m[0] !== '') prevEnd = m.index + m[0].length;
              count++;
              const take = c.nth !== undefined ? (c.global ? count >= c.nth : count === c.nth) : c.global || count === 1;
              if (take) {
                res += ps.slice(pos, m.index) + replacement(c.repl ?? '', m);
                pos = m.index + m[0].length;
                did = true;
              }
              if (m[0] === '') re.lastIndex++;
              if (!c.global && count >= (c.nth ?? 1)) break;
            }
            re.lastIndex = 0;
            if (did) {
              ps = res + ps.slice(pos);
              substituted = true;
              if (c.print) out += `${ps}\n`;
            }
            break;
          }
          case 'b':
          case 't':
          case 'T': {
            const jump = c.name === 'b' || (c.name === 't' ? substituted : !substituted);
            if (c.name !== 'b') substituted = false;
            if (jump) {
              if (!c.label) {
                pc = cmds.length;
                continue cycle;
              }
              pc = cmds.findIndex((d) => d.name === ':' && d.label === c.label);
              continue cycle;
            }
            break;
          }
        }
        pc++;
      }
      if (!deleted && autoprint) emitLine(ps, idx >= lines.length && !restart);
      out += append;
    }
    if (inPlace !== undefined) {
      const name = unit[0]!.name;
      const path = resolvePath(ctx.cwd, name);
      if (inPlace !== '') ctx.fs.write(resolvePath(ctx.cwd, inPlace.includes('*') ? inPlace.replace(/\*/g, name) : `${name}${inPlace}`), unit[0]!.text);
      ctx.fs.write(path, out);
    } else stdout += out;
  }
  return { stdout, stderr, exitCode: status };
};
