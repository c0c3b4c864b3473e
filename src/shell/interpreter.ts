/**
 * Runs parsed command lines the way bash does (bash/execute_cmd.c): and-or lists by exit status,
 * pipelines left to right with each stdout feeding the next stdin, redirections applied in order
 * (so `> f 2>&1` and `2>&1 > f` differ), word expansion at run time ($VAR, $(...), ~, globs
 * against the Vfs, word splitting of unquoted expansions), and the few builtins that change the
 * shell itself (cd, pwd, export, unset, alias, unalias, true, false, :). `exit` is not run here:
 * it ends the line and reports `exit` so the REPL can leave the node/pod context.
 *
 * Commands are looked up through a caller-supplied function, so kubectl, ssh and the node tools
 * plug in without this file knowing them.
 */
import type { Vfs } from '../sim/node/vfs.js';
import { resolvePath, VfsError } from '../sim/node/vfs.js';
import type { CommandFn, ExecLocation } from './types.js';
import type { ShellContext, ShellResult } from './commands/types.js';
import { parseScript, type Command, type Pipeline, type Redirect, type Script, type SimpleCommand } from './parse/ast.js';
import { heredocParts, type Word, type WordPart } from './parse/tokenize.js';
import { expandGlob, hasGlob, unescapeGlob } from './parse/glob.js';
import { ArithError, evalArith } from './parse/arith.js';
import { SHELL_PID } from './commands/devices.js';

export interface InterpreterOptions {
  lookup: (name: string) => CommandFn | undefined;
  fs: Vfs;
  env: Record<string, string>;
  cwd: string;
  user: string;
  location: ExecLocation;
  now: () => number;
  /**
   * Alias table. The interpreter writes `alias`/`unalias` through to this very object, so a
   * session can share one table between its frames and its LineReader.
   */
  aliases?: Record<string, string>;
  /** Lines typed so far, for `history`. */
  history?: () => readonly string[];
  /** Hostname for `hostname` (defaults to location.host, or the pod name). */
  hostname?: string;
  /** Whether the terminal is a TTY (ls lays out columns); default true. */
  tty?: boolean;
  /**
   * Move the simulated clock forward now, while the line runs (`sleep 60; kubectl get pod` sees
   * the cluster 60 s later). Without it the time a line consumed is only reported in advanceMs.
   */
  advanceClock?: (ms: number) => void;
}

export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface RunOutput {
  /** Everything shown on the terminal, in order. */
  output: OutputChunk[];
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the line ran `exit` at top level: the REPL should leave this context with that code. */
  exit?: number;
  /** Simulated time the line consumed (sleep) not yet applied through advanceClock; the REPL advances its clock by this. */
  advanceMs: number;
}

type Sink = { kind: 'terminal'; stream: 'stdout' | 'stderr' } | { kind: 'buffer'; text: string } | { kind: 'file'; path: string } | { kind: 'null' };

interface Io {
  stdin: string;
  out: Sink;
  err: Sink;
}

interface State {
  vars: Map<string, string>;
  exported: Set<string>;
  cwd: string;
  status: number;
}

class ExitSignal {
  constructor(readonly code: number) {}
}

/** `break` / `continue` travelling up to the enclosing loop. */
class LoopSignal {
  constructor(
    readonly kind: 'break' | 'continue',
    readonly levels: number,
  ) {}
}

/** Loops stop after this many iterations: the simulator cannot be interrupted with Ctrl-C. */
const MAX_LOOP = 1000;

/** The builtins handled here; `which` reports them as not found on disk, like the real one. */
export const BUILTINS = new Set(['cd', 'pwd', 'export', 'unset', 'alias', 'unalias', 'true', 'false', ':', 'exit', 'break', 'continue']);

const MAX_DEPTH = 16;

function errText(e: unknown): string {
  if (e instanceof VfsError) {
    return e.code === 'ENOENT' ? 'No such file or directory' : e.code === 'EISDIR' ? 'Is a directory' : e.code === 'ENOTDIR' ? 'Not a directory' : e.code === 'EROFS' ? 'Read-only file system' : e.code;
  }
  return e instanceof Error ? e.message : String(e);
}

/** Quote a value the way bash's `alias` and `export -p` print it. */
function singleQuote(v: string): string {
  return `'${v.replace(/'/g, `'\\''`)}'`;
}

export class Interpreter {
  /** The alias table (the object passed in options, mutated in place by alias/unalias). */
  readonly aliases: Record<string, string>;
  private readonly state: State;
  private output: OutputChunk[] = [];
  private advanced = 0;
  private loopDepth = 0;

  constructor(private readonly opts: InterpreterOptions) {
    this.aliases = opts.aliases ?? {};
    this.state = {
      vars: new Map(Object.entries(opts.env)),
      exported: new Set(Object.keys(opts.env)),
      cwd: opts.cwd,
      status: 0,
    };
  }

  get cwd(): string {
    return this.state.cwd;
  }

  /** Exported variables, as a child process would see them. */
  get env(): Record<string, string> {
    return this.exportedEnv(this.state);
  }

  get lastStatus(): number {
    return this.state.status;
  }

  /** Parse and run one complete command text (see LineReader for multi-line input). */
  async run(source: string): Promise<RunOutput> {
    this.output = [];
    this.advanced = 0;
    const parsed = parseScript(source, { aliases: this.aliases });
    if (!parsed.ok) {
      const msg = parsed.incomplete ? 'bash: syntax error: unexpected end of file' : parsed.error;
      this.write({ kind: 'terminal', stream: 'stderr' }, `${msg}\n`);
      this.state.status = 2;
      return this.finish();
    }
    return this.runScript(parsed.script);
  }

  /** Run an already parsed script. */
  async runScript(script: Script): Promise<RunOutput> {
    this.output = [];
    this.advanced = 0;
    const io: Io = { stdin: '', out: { kind: 'terminal', stream: 'stdout' }, err: { kind: 'terminal', stream: 'stderr' } };
    try {
      await this.script(script, io, this.state, 0, true);
    } catch (e) {
      if (e instanceof ExitSignal) {
        this.state.status = e.code;
        return { ...this.finish(), exit: e.code };
      }
      if (e instanceof LoopSignal) return this.finish();
      this.write(io.err, `bash: ${errText(e)}\n`);
      this.state.status = 1;
    }
    return this.finish();
  }

  private finish(): RunOutput {
    const out = this.output;
    return {
      output: out,
      stdout: out.filter((c) => c.stream === 'stdout').map((c) => c.text).join(''),
      stderr: out.filter((c) => c.stream === 'stderr').map((c) => c.text).join(''),
      exitCode: this.state.status,
      advanceMs: this.advanced,
    };
  }

  private write(sink: Sink, text: string): void {
    if (text === '') return;
    switch (sink.kind) {
      case 'terminal': {
        const last = this.output[this.output.length - 1];
        if (last && last.stream === sink.stream) last.text += text;
        else this.output.push({ stream: sink.stream, text });
        return;
      }
      case 'buffer':
        sink.text += text;
        return;
      case 'file':
        try {
          this.opts.fs.append(sink.path, text);
        } catch {
          /* the file vanished or became a directory: bash would get EBADF silently */
        }
        return;
      case 'null':
        return;
    }
  }

  private exportedEnv(st: State, extra?: Map<string, string>): Record<string, string> {
    const env: Record<string, string> = {};
    for (const k of st.exported) {
      const v = st.vars.get(k);
      if (v !== undefined) env[k] = v;
    }
    if (extra) for (const [k, v] of extra) env[k] = v;
    return env;
  }

  private clone(st: State): State {
    return { vars: new Map(st.vars), exported: new Set(st.exported), cwd: st.cwd, status: st.status };
  }

  private async script(script: Script, io: Io, st: State, depth: number, top: boolean): Promise<void> {
    for (const item of script.items) {
      let status = await this.pipeline(item.first, io, st, depth, top);
      st.status = status;
      for (const { op, pipeline } of item.rest) {
        if ((op === '&&' && status !== 0) || (op === '||' && status === 0)) continue;
        status = await this.pipeline(pipeline, io, st, depth, top);
        st.status = status;
      }
    }
  }

  private async pipeline(p: Pipeline, io: Io, st: State, depth: number, top: boolean): Promise<number> {
    let status = 0;
    if (p.commands.length === 1) {
      status = await this.command(p.commands[0]!, io, st, depth, top);
    } else {
      let stdin = io.stdin;
      for (let i = 0; i < p.commands.length; i++) {
        const last = i === p.commands.length - 1;
        const buf: Sink = { kind: 'buffer', text: '' };
        const out = last ? io.out : buf;
        const err = p.pipeStderr[i] ? buf : io.err;
        // Every element of a multi-command pipeline runs in a subshell.
        const sub = this.clone(st);
        try {
          status = await this.command(p.commands[i]!, { stdin, out, err }, sub, depth, false);
        } catch (e) {
          if (!(e instanceof ExitSignal)) throw e;
          status = e.code;
        }
        stdin = buf.kind === 'buffer' ? buf.text : '';
      }
    }
    return p.negate ? (status === 0 ? 1 : 0) : status;
  }

  private async command(c: Command, io: Io, st: State, depth: number, top: boolean): Promise<number> {
    if (c.type === 'subshell') {
      const rio = await this.redirects(c.redirects, io, st, depth);
      if (typeof rio === 'number') return rio;
      const sub = this.clone(st);
      try {
        await this.script(c.body, rio, sub, depth + 1, false);
      } catch (e) {
        if (!(e instanceof ExitSignal)) throw e;
        return e.code;
      }
      return sub.status;
    }
    if (c.type === 'simple') return this.simple(c, io, st, depth, top);
    const rio = await this.redirects(c.redirects, io, st, depth);
    if (typeof rio === 'number') return rio;
    let status = 0;
    let iterations = 0;
    const guard = (): boolean => {
      if (++iterations <= MAX_LOOP) return true;
      this.write(rio.err, `bash: loop stopped after ${MAX_LOOP} iterations (simulator limit)\n`);
      return false;
    };
    /** Run a loop body; 'break' or 'continue' when the body used those builtins. */
    const body = async (b: Script): Promise<'break' | 'continue' | undefined> => {
      try {
        await this.script(b, rio, st, depth, false);
        status = st.status;
      } catch (e) {
        if (e instanceof LoopSignal) {
          status = 0;
          if (e.levels > 1) throw new LoopSignal(e.kind, e.levels - 1);
          return e.kind;
        }
        throw e;
      }
      return undefined;
    };
    switch (c.type) {
      case 'for': {
        const items: string[] = [];
        if (c.words) {
          try {
            for (const w of c.words) items.push(...(await this.expandWord(w, { st, err: rio.err, depth, onStatus: () => undefined }, true)));
          } catch (e) {
            if (!(e instanceof ExpansionError)) throw e;
            this.write(rio.err, `bash: ${e.message}\n`);
            return 1;
          }
        }
        this.loopDepth++;
        try {
          for (const it of items) {
            if (!guard()) break;
            st.vars.set(c.name, it);
            if ((await body(c.body)) === 'break') break;
          }
        } finally {
          this.loopDepth--;
        }
        return status;
      }
      case 'while': {
        this.loopDepth++;
        try {
          for (;;) {
            if (!guard()) break;
            await this.script(c.cond, rio, st, depth, false);
            if ((st.status === 0) === c.until) break;
            if ((await body(c.body)) === 'break') break;
          }
        } finally {
          this.loopDepth--;
        }
        return status;
      }
      case 'if': {
        for (const cl of c.clauses) {
          await this.script(cl.cond, rio, st, depth, false);
          if (st.status === 0) {
            await this.script(cl.body, rio, st, depth, false);
            return st.status;
          }
        }
        if (c.elseBody) {
          await this.script(c.elseBody, rio, st, depth, false);
          return st.status;
        }
        return 0;
      }
    }
  }

  private async simple(c: SimpleCommand, io: Io, st: State, depth: number, _top: boolean): Promise<number> {
    let subStatus: number | undefined;
    const ctx: ExpandCtx = { st, err: io.err, depth, onStatus: (s) => (subStatus = s) };
    let argv: string[];
    const assigns = new Map<string, string>();
    try {
      argv = [];
      for (const w of c.words) argv.push(...(await this.expandWord(w, ctx, true)));
      for (const a of c.assigns) assigns.set(a.name, (await this.expandWord(a.value, ctx, false)).join(''));
    } catch (e) {
      if (e instanceof ExpansionError) {
        this.write(io.err, `bash: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
    const rio = await this.redirects(c.redirects, io, st, depth);
    if (typeof rio === 'number') return rio;

    if (argv.length === 0) {
      for (const [k, v] of assigns) st.vars.set(k, v);
      return subStatus ?? 0;
    }
    const name = argv[0]!;
    if (name === 'exit') {
      const arg = argv[1];
      if (arg !== undefined && !/^[+-]?\d+$/.test(arg)) {
        this.write(rio.err, `bash: exit: ${arg}: numeric argument required\n`);
        throw new ExitSignal(2);
      }
      if (argv.length > 2) {
        this.write(rio.err, 'bash: exit: too many arguments\n');
        return 1;
      }
      throw new ExitSignal(arg === undefined ? st.status : ((Number(arg) % 256) + 256) % 256);
    }
    const builtin = this.builtin(name, argv, rio, st);
    if (builtin !== undefined) return builtin;

    const fn = this.opts.lookup(name);
    if (!fn) {
      this.write(rio.err, name.includes('/') ? `bash: ${name}: No such file or directory\n` : `bash: ${name}: command not found\n`);
      return 127;
    }
    const env = this.exportedEnv(st, assigns);
    const ctxCmd: ShellContext = {
      argv,
      stdin: rio.stdin,
      env,
      cwd: st.cwd,
      user: this.opts.user,
      fs: this.opts.fs,
      location: this.opts.location,
      now: () => this.opts.now() + this.advanced,
      history: this.opts.history?.() ?? [],
      resolveCommand: (n) => (this.opts.lookup(n) && !BUILTINS.has(n) ? `/usr/bin/${n}` : undefined),
      exec: (args, stdin, childEnv) => this.execArgv(args, stdin, st, childEnv ?? env),
      stdoutIsTTY: rio.out.kind === 'terminal' && this.opts.tty !== false,
      hostname: this.opts.hostname ?? (this.opts.location.kind === 'pod' ? this.opts.location.pod : this.opts.location.host),
    };
    let res: ShellResult;
    try {
      res = await fn(ctxCmd);
    } catch (e) {
      res = { stdout: '', stderr: `${name}: ${errText(e)}\n`, exitCode: 1 };
    }
    const chunks = res.chunks;
    const join = (s: 'stdout' | 'stderr'): string => (chunks ?? []).filter((c) => c.stream === s).map((c) => c.text).join('');
    // Replay the ordered chunks only when they account for exactly what the command returned.
    if (chunks && join('stdout') === res.stdout && join('stderr') === res.stderr) {
      for (const c of chunks) this.write(c.stream === 'stdout' ? rio.out : rio.err, c.text);
    } else {
      this.write(rio.out, res.stdout);
      this.write(rio.err, res.stderr);
    }
    if (res.advanceMs && res.advanceMs > 0) this.consume(res.advanceMs);
    return res.exitCode;
  }

  /** Time a command took: applied to the cluster at once when the session lets us, else reported. */
  private consume(ms: number): void {
    if (this.opts.advanceClock) this.opts.advanceClock(ms);
    else this.advanced += ms;
  }

  /** Run argv directly (no parsing), for xargs. */
  private async execArgv(argv: string[], stdin: string, st: State, env: Record<string, string>): Promise<ShellResult> {
    const name = argv[0] ?? '';
    const fn = this.opts.lookup(name);
    if (!fn || BUILTINS.has(name)) {
      return { stdout: '', stderr: '', exitCode: 127, notFound: true };
    }
    try {
      return await fn({
        argv,
        stdin,
        env,
        cwd: st.cwd,
        user: this.opts.user,
        fs: this.opts.fs,
        location: this.opts.location,
        now: () => this.opts.now() + this.advanced,
      });
    } catch (e) {
      return { stdout: '', stderr: `${name}: ${errText(e)}\n`, exitCode: 1 };
    }
  }

  /** Apply redirections in order; returns the new io, or an exit status after printing bash's error. */
  private async redirects(list: Redirect[], io: Io, st: State, depth: number): Promise<Io | number> {
    const cur: Io = { ...io };
    const fs = this.opts.fs;
    for (const r of list) {
      let target = '';
      if (r.op === '<<' || r.op === '<<-') {
        const body = r.heredoc?.body ?? '';
        if (r.heredoc && !r.heredoc.expand) cur.stdin = body;
        else {
          try {
            cur.stdin = (await this.expandParts(heredocParts(body), { st, err: io.err, depth, onStatus: () => undefined })).map((f) => unescapeGlob(f.text)).join('');
          } catch (e) {
            if (!(e instanceof ExpansionError)) throw e;
            this.write(io.err, `bash: ${e.message}\n`);
            return 1;
          }
        }
        continue;
      }
      try {
        const fields = await this.expandWord(r.target, { st, err: io.err, depth, onStatus: () => undefined }, true);
        if (fields.length !== 1) {
          this.write(cur.err, `bash: ${r.target.raw}: ambiguous redirect\n`);
          return 1;
        }
        target = fields[0]!;
      } catch (e) {
        if (!(e instanceof ExpansionError)) throw e;
        this.write(cur.err, `bash: ${e.message}\n`);
        return 1;
      }
      if (r.op === '<<<') {
        cur.stdin = `${target}\n`;
        continue;
      }
      if (r.op === '>&' || r.op === '<&') {
        const fd = r.fd ?? (r.op === '>&' ? 1 : 0);
        if (target === '-') {
          if (fd === 1) cur.out = { kind: 'null' };
          else if (fd === 2) cur.err = { kind: 'null' };
          continue;
        }
        if (/^\d+$/.test(target)) {
          const src = Number(target);
          const sink = src === 1 ? cur.out : src === 2 ? cur.err : undefined;
          if (src === 0 && fd === 0) continue;
          if (!sink) {
            this.write(cur.err, `bash: ${target}: Bad file descriptor\n`);
            return 1;
          }
          if (fd === 1) cur.out = sink;
          else if (fd === 2) cur.err = sink;
          continue;
        }
        if (r.op === '<&' || r.fd !== undefined) {
          this.write(cur.err, `bash: ${target}: ambiguous redirect\n`);
          return 1;
        }
        // `>&file` is `&>file`.
        const sink = this.openForWrite(target, false, st, cur);
        if (!sink) return 1;
        cur.out = sink;
        cur.err = sink;
        continue;
      }
      if (r.op === '<') {
        const path = resolvePath(st.cwd, target);
        // character devices: no file behind them (devices.ts lists them for ls and test)
        if (path === '/dev/null' || path === '/dev/zero' || path === '/dev/stdin') {
          if ((r.fd ?? 0) === 0 && path !== '/dev/stdin') cur.stdin = '';
          continue;
        }
        try {
          const text = fs.read(path);
          if ((r.fd ?? 0) === 0) cur.stdin = text;
        } catch (e) {
          this.write(cur.err, `bash: ${target}: ${errText(e)}\n`);
          return 1;
        }
        continue;
      }
      const append = r.op === '>>' || r.op === '&>>';
      const sink = this.openForWrite(target, append, st, cur);
      if (!sink) return 1;
      if (r.op === '&>' || r.op === '&>>') {
        cur.out = sink;
        cur.err = sink;
      } else {
        const fd = r.fd ?? 1;
        if (fd === 1) cur.out = sink;
        else if (fd === 2) cur.err = sink;
      }
    }
    return cur;
  }

  /** Create or truncate a file for `>`/`>>`, with bash's errors for a missing directory. */
  private openForWrite(target: string, append: boolean, st: State, cur: Io): Sink | undefined {
    const fs = this.opts.fs;
    const path = resolvePath(st.cwd, target);
    if (path === '/dev/null') return { kind: 'null' };
    if (path === '/dev/stdout') return cur.out;
    if (path === '/dev/stderr') return cur.err;
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    let problem: string | undefined;
    if (fs.isDir(path)) problem = 'Is a directory';
    else if (!fs.isDir(parent)) problem = ancestorIsFile(fs, parent) ? 'Not a directory' : 'No such file or directory';
    if (problem) {
      this.write(cur.err, `bash: ${target}: ${problem}\n`);
      return undefined;
    }
    if (!append || !fs.isFile(path)) fs.write(path, '');
    return { kind: 'file', path };
  }

  /** Builtins; undefined when `name` is not one. */
  private builtin(name: string, argv: string[], io: Io, st: State): number | undefined {
    const fs = this.opts.fs;
    const args = argv.slice(1);
    switch (name) {
      case 'true':
      case ':':
        return 0;
      case 'break':
      case 'continue': {
        const n = args[0] === undefined ? 1 : Number(args[0]);
        if (!Number.isInteger(n) || n < 1) {
          this.write(io.err, `bash: ${name}: ${args[0]}: ${Number.isInteger(n) ? 'loop count out of range' : 'numeric argument required'}\n`);
          return 1;
        }
        if (this.loopDepth === 0) return 0;
        throw new LoopSignal(name, n);
      }
      case 'false':
        return 1;
      case 'pwd':
        this.write(io.out, `${st.cwd}\n`);
        return 0;
      case 'cd': {
        if (args.length > 1) {
          this.write(io.err, 'bash: cd: too many arguments\n');
          return 1;
        }
        let dest = args[0];
        let print = false;
        if (dest === undefined || dest === '') {
          dest = st.vars.get('HOME');
          if (dest === undefined) {
            this.write(io.err, 'bash: cd: HOME not set\n');
            return 1;
          }
        } else if (dest === '-') {
          dest = st.vars.get('OLDPWD');
          if (dest === undefined) {
            this.write(io.err, 'bash: cd: OLDPWD not set\n');
            return 1;
          }
          print = true;
        }
        const path = resolvePath(st.cwd, dest);
        if (!fs.isDir(path)) {
          this.write(io.err, `bash: cd: ${dest}: ${fs.isFile(path) || ancestorIsFile(fs, path) ? 'Not a directory' : 'No such file or directory'}\n`);
          return 1;
        }
        st.vars.set('OLDPWD', st.cwd);
        st.exported.add('OLDPWD');
        st.cwd = path;
        st.vars.set('PWD', path);
        st.exported.add('PWD');
        if (print) this.write(io.out, `${path}\n`);
        return 0;
      }
      case 'export': {
        const names = args.filter((a) => a !== '-p');
        if (names.length === 0) {
          const lines = [...st.exported]
            .filter((k) => st.vars.has(k))
            .sort()
            .map((k) => `declare -x ${k}="${(st.vars.get(k) ?? '').replace(/(["\\$`])/g, '\\$1')}"\n`);
          this.write(io.out, lines.join(''));
          return 0;
        }
        let status = 0;
        for (const a of names) {
          const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/s.exec(a);
          if (!m) {
            this.write(io.err, `bash: export: \`${a}': not a valid identifier\n`);
            status = 1;
            continue;
          }
          if (m[2] !== undefined) st.vars.set(m[1]!, m[2]);
          st.exported.add(m[1]!);
        }
        return status;
      }
      case 'unset':
        for (const a of args) {
          if (a === '-v' || a === '-f') continue;
          st.vars.delete(a);
          st.exported.delete(a);
        }
        return 0;
      case 'alias': {
        const list = args.filter((a) => a !== '-p');
        if (list.length === 0) {
          const lines = Object.keys(this.aliases)
            .sort()
            .map((k) => `alias ${k}=${singleQuote(this.aliases[k] ?? '')}\n`);
          this.write(io.out, lines.join(''));
          return 0;
        }
        let status = 0;
        for (const a of list) {
          const eq = a.indexOf('=');
          if (eq > 0) {
            this.aliases[a.slice(0, eq)] = a.slice(eq + 1);
            continue;
          }
          const v = Object.prototype.hasOwnProperty.call(this.aliases, a) ? this.aliases[a] : undefined;
          if (v === undefined) {
            this.write(io.err, `bash: alias: ${a}: not found\n`);
            status = 1;
          } else this.write(io.out, `alias ${a}=${singleQuote(v)}\n`);
        }
        return status;
      }
      case 'unalias': {
        if (args.length === 0) {
          this.write(io.err, 'unalias: usage: unalias [-a] name [name ...]\n');
          return 2;
        }
        if (args[0] === '-a') {
          for (const k of Object.keys(this.aliases)) delete this.aliases[k];
          return 0;
        }
        let status = 0;
        for (const a of args) {
          if (!Object.prototype.hasOwnProperty.call(this.aliases, a)) {
            this.write(io.err, `bash: unalias: ${a}: not found\n`);
            status = 1;
          } else delete this.aliases[a];
        }
        return status;
      }
      default:
        return undefined;
    }
  }

  // ---- expansion ----

  /** Expand one word to fields: tilde, parameters, command substitution, splitting, globbing. */
  private async expandWord(w: Word, ctx: ExpandCtx, split: boolean): Promise<string[]> {
    const fields = await this.expandParts(w.parts, ctx, split);
    const out: string[] = [];
    for (const f of fields) {
      if (split && hasGlob(f.text)) {
        const matches = expandGlob(f.text, ctx.st.cwd, this.opts.fs);
        if (matches.length > 0) {
          out.push(...matches);
          continue;
        }
      }
      out.push(unescapeGlob(f.text));
    }
    return out;
  }

  /**
   * Expand parts into fields whose text has quoted glob characters escaped with `\`. Unquoted
   * expansion results are split on blanks and newlines when `split` is set.
   */
  private async expandParts(parts: WordPart[], ctx: ExpandCtx, split = false): Promise<Field[]> {
    const fields: Field[] = [];
    let cur: Field | undefined;
    const esc = (s: string): string => s.replace(/[\\*?[\]]/g, '\\$&');
    const append = (s: string): void => {
      cur ??= { text: '' };
      cur.text += s;
    };
    for (const p of parts) {
      if (p.kind === 'tilde') {
        append(esc(ctx.st.vars.get('HOME') ?? '~'));
        continue;
      }
      if (p.kind === 'text') {
        append(p.quoted ? esc(p.value) : p.value);
        continue;
      }
      let value: string;
      if (p.kind === 'arith') {
        const inner = (await this.expandParts(heredocParts(p.source), ctx, false)).map((f) => unescapeGlob(f.text)).join('');
        try {
          value = String(
            evalArith(
              inner,
              (n) => ctx.st.vars.get(n) ?? '',
              (n, v) => ctx.st.vars.set(n, v),
            ),
          );
        } catch (e) {
          if (e instanceof ArithError) throw new ExpansionError(e.message);
          throw e;
        }
      } else value = p.kind === 'var' ? this.param(p.name, ctx.st) : await this.cmdsub(p.source, ctx);
      if (p.quoted || !split) {
        append(p.quoted ? esc(value) : value);
        continue;
      }
      // Word splitting on IFS whitespace (default IFS).
      const pieces = value.split(/[ \t\n]+/);
      pieces.forEach((piece, i) => {
        if (i > 0) {
          if (cur) fields.push(cur);
          cur = undefined;
        }
        if (piece !== '') append(esc(piece).replace(/\\([*?[\]])/g, '$1'));
      });
      if (/[ \t\n]$/.test(value) && cur) {
        fields.push(cur);
        cur = undefined;
      }
    }
    if (cur) fields.push(cur);
    const hasQuoted = parts.some((p) => p.kind !== 'tilde' && p.quoted);
    if (fields.length === 0 && (hasQuoted || !split)) fields.push({ text: '' });
    return fields;
  }

  private param(name: string, st: State): string {
    if (name.startsWith('\0bad:')) throw new ExpansionError(`${name.slice(5)}: bad substitution`);
    if (name === '?') return String(st.status);
    if (name === '$') return String(SHELL_PID);
    if (name === '#') return '0';
    if (name === '0') return 'bash';
    if (name === '!' || name === '-' || /^[1-9@*]$/.test(name)) return name === '-' ? 'himBHs' : '';
    return st.vars.get(name) ?? '';
  }

  private async cmdsub(source: string, ctx: ExpandCtx): Promise<string> {
    if (ctx.depth >= MAX_DEPTH) throw new ExpansionError('maximum nesting level exceeded');
    const parsed = parseScript(source, { aliases: this.aliases });
    if (!parsed.ok) {
      this.write(ctx.err, `${parsed.incomplete ? 'bash: syntax error: unexpected end of file' : parsed.error}\n`);
      ctx.onStatus(2);
      return '';
    }
    const buf: Sink = { kind: 'buffer', text: '' };
    const sub = this.clone(ctx.st);
    try {
      await this.script(parsed.script, { stdin: '', out: buf, err: ctx.err }, sub, ctx.depth + 1, false);
    } catch (e) {
      if (!(e instanceof ExitSignal)) throw e;
      sub.status = e.code;
    }
    ctx.onStatus(sub.status);
    return (buf.kind === 'buffer' ? buf.text : '').replace(/\n+$/, '');
  }
}

interface Field {
  text: string;
}

interface ExpandCtx {
  st: State;
  err: Sink;
  depth: number;
  onStatus: (s: number) => void;
}

class ExpansionError extends Error {}

function ancestorIsFile(fs: Vfs, p: string): boolean {
  let cur = p;
  while (cur !== '/' && cur !== '') {
    if (fs.isFile(cur)) return true;
    cur = cur.slice(0, cur.lastIndexOf('/')) || '/';
  }
  return false;
}
