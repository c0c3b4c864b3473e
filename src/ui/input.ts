/**
 * Where the REPL's lines come from. Interactively, node:readline with history, tab completion,
 * Ctrl-C (cancel the line) and Ctrl-D (end of input on an empty line); otherwise plain lines from
 * a stream, one by one, with no prompt and no echo, the way `bash < script` reads.
 */
import { createRequire } from 'node:module';
import type { Interface, ReadLineOptions } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { searchKey, searchPrompt, shownCursor, shownLine, startSearch, type Key, type SearchState } from './history-search.js';

/**
 * node:readline's createInterface, loaded when a line source first reads: a one-shot
 * `cka-lab kubectl …` imports this module (through cli/context.ts) but reads no lines, and
 * loading readline (with readline/promises and its key handling) cost it ~1 ms of its start.
 */
const createInterface = (options: ReadLineOptions): Interface => (createRequire(import.meta.url)('node:readline') as typeof import('node:readline')).createInterface(options);

/** What next() yields besides a line: Ctrl-C, end of input, or an interruption from a timer. */
export const INTERRUPT = Symbol('interrupt');
export const WAKE = Symbol('wake');
export type InputEvent = string | null | typeof INTERRUPT | typeof WAKE;

export interface LineSource {
  /**
   * Show `prompt` (TTY only) and wait for the next line; null at end of input. An answer to a
   * question (`record: false`, e.g. solution's "[y/N]") is not kept in the shell's history.
   */
  next(prompt: string, opts?: { record?: boolean }): Promise<InputEvent>;
  /** Interrupt a pending next() (e.g. the exam timer ran out); it resolves to WAKE. */
  wake(): void;
  /** Stop reading input around a child process that owns the terminal (the editor). */
  suspend(): void;
  resume(): void;
  close(): void;
  readonly interactive: boolean;
  /**
   * Call `fn` on Ctrl-C while a command line runs (not at the prompt, where Ctrl-C drops the
   * typed line): the terminal's Ctrl-C key, or SIGINT sent to the process. Returns the remover.
   */
  onInterrupt(fn: () => void): () => void;
  /**
   * While the shell holds a job in the foreground (Session.foreground): wait for Ctrl-C
   * (`interrupt`), Ctrl-Z (`stop`) or `ms` to pass (`tick`). Only a terminal has it. `noEcho`: the
   * job keeps the terminal in noecho mode (a full-screen program), so neither key is echoed.
   */
  hold?(ms: number, opts?: { noEcho?: boolean }): Promise<'interrupt' | 'stop' | 'tick'>;
}

/** SIGINT to this process calls `fn` (instead of ending it) until the remover runs. */
function onSigint(fn: () => void): () => void {
  const handler = (): void => fn();
  process.on('SIGINT', handler);
  return () => void process.off('SIGINT', handler);
}

/** Lines from a non-TTY stream. */
export class StreamLines implements LineSource {
  readonly interactive = false;
  private readonly iter: AsyncIterator<string>;
  private readonly rl: Interface;
  private waker: ((e: InputEvent) => void) | undefined;

  constructor(input: Readable) {
    this.rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
    this.iter = this.rl[Symbol.asyncIterator]();
  }

  /** A read that a wake() overtook stays in flight and is the next one returned. */
  private inflight: Promise<string | null> | undefined;

  async next(): Promise<InputEvent> {
    const woken = new Promise<InputEvent>((res) => (this.waker = res));
    this.inflight ??= this.iter.next().then((x) => (x.done ? null : x.value));
    const read = this.inflight;
    const r = await Promise.race([read, woken]);
    this.waker = undefined;
    if (r !== WAKE) this.inflight = undefined;
    return r;
  }

  wake(): void {
    this.waker?.(WAKE);
  }

  suspend(): void {}
  resume(): void {}
  close(): void {
    this.rl.close();
  }

  onInterrupt(fn: () => void): () => void {
    return onSigint(fn);
  }
}

export interface TtyOptions {
  completer?: (line: string) => [string[], string];
  /** Earlier lines, oldest first. */
  history?: string[];
  historySize?: number;
}

/**
 * Lines from a terminal. Ctrl-D on an empty line closes a readline Interface, so a fresh one is
 * made for the next read (carrying the history over): the REPL decides what Ctrl-D means.
 */
export class TtyLines implements LineSource {
  readonly interactive = true;
  private rl: Interface | undefined;
  private pending: ((e: InputEvent) => void) | undefined;
  private history: string[];
  /** What Ctrl-C does while a line runs (set by onInterrupt). */
  private interrupt: (() => void) | undefined;
  /** The prompt of the pending read (the search replaces it while it runs). */
  private prompt = '';
  /** A Ctrl-R search in progress, and the last search's string (Ctrl-R Ctrl-R). */
  private search: SearchState | undefined;
  private lastQuery = '';

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly opts: TtyOptions = {},
  ) {
    // readline keeps history newest first
    this.history = [...(opts.history ?? [])].reverse();
  }

  private open(): Interface {
    if (this.rl) return this.rl;
    const before = new Set(this.input.listeners('keypress'));
    const rl = createInterface({
      input: this.input,
      output: this.output,
      terminal: true,
      history: this.history,
      historySize: this.opts.historySize ?? 1000,
      removeHistoryDuplicates: false,
      ...(this.opts.completer ? { completer: this.opts.completer } : {}),
    });
    this.interceptKeys(rl, before);
    // a line typed while a command runs is type-ahead: the next read takes it (bash reads it then)
    rl.on('line', (line) => (this.pending ? this.settle(line) : this.typedAhead.push(line)));
    rl.on('SIGINT', () => {
      if (!(this.holding && this.holdNoEcho)) this.output.write('^C\n');
      rl.write(null, { ctrl: true, name: 'u' });
      if (this.pending) this.settle(INTERRUPT);
      else if (this.holding) this.holding('interrupt');
      else this.interrupt?.();
    });
    // Ctrl-Z: at the prompt bash ignores SIGTSTP (and node would otherwise stop this process);
    // while a job holds the terminal, the terminal echoes `^Z` and the job stops
    rl.on('SIGTSTP', () => this.ctrlZ());
    rl.on('close', () => {
      this.history = (rl as unknown as { history: string[] }).history ?? this.history;
      this.rl = undefined;
      this.settle(null);
    });
    this.rl = rl;
    return rl;
  }

  /**
   * Ctrl-R is not a node:readline key: readline's own keypress listener is taken off the input and
   * called from ours, which keeps the keys of a search for itself (bash's reverse-i-search).
   */
  private interceptKeys(rl: Interface, before: ReadonlySet<unknown>): void {
    type Listener = (s: string | undefined, key: Key | undefined) => void;
    const theirs = this.input.listeners('keypress').filter((l) => !before.has(l)) as Listener[];
    if (theirs.length !== 1) return;
    const readlineKey = theirs[0]!;
    const input = this.input;
    const ours: Listener = (s, key) => {
      // (readline's own SIGTSTP event did not reach its listener on a pty here: the key is ours)
      if (key?.ctrl && key.name === 'z' && !key.meta) this.ctrlZ();
      else if (this.search) this.searchStep(rl, key ?? (s === undefined ? {} : { sequence: s }), () => readlineKey.call(input, s, key));
      else if (key?.ctrl && key.name === 'r' && this.pending) {
        const view = rl as unknown as { line: string; cursor: number };
        this.search = startSearch(view.line, view.cursor);
        this.drawSearch(rl);
      } else readlineKey.call(input, s, key);
    };
    input.removeListener('keypress', readlineKey);
    input.on('keypress', ours);
    rl.on('close', () => {
      this.search = undefined;
      input.removeListener('keypress', ours);
    });
  }

  private historyOf(rl: Interface): readonly string[] {
    return (rl as unknown as { history?: string[] }).history ?? this.history;
  }

  /** Show `line` with the cursor at `cursor` after `prompt`, through readline's own redraw. */
  private show(rl: Interface, prompt: string, line: string, cursor: number): void {
    const view = rl as unknown as { line: string; cursor: number; _refreshLine?: () => void };
    rl.setPrompt(prompt);
    view.line = line;
    view.cursor = cursor;
    if (typeof view._refreshLine === 'function') view._refreshLine();
    else rl.prompt(true);
  }

  private drawSearch(rl: Interface): void {
    const st = this.search!;
    const history = this.historyOf(rl);
    this.show(rl, searchPrompt(st), shownLine(st, history), shownCursor(st, history));
  }

  private searchStep(rl: Interface, key: Key, forward: () => void): void {
    const step = searchKey(this.search!, key, this.historyOf(rl), this.lastQuery);
    if (step.kind === 'continue') {
      this.search = step.state;
      this.drawSearch(rl);
      return;
    }
    if (this.search!.query !== '') this.lastQuery = this.search!.query;
    this.search = undefined;
    this.show(rl, this.prompt, step.line, step.cursor);
    if (step.forward) forward();
  }

  private settle(e: InputEvent): void {
    const p = this.pending;
    this.pending = undefined;
    p?.(e);
  }

  next(prompt: string, opts: { record?: boolean } = {}): Promise<InputEvent> {
    const rl = this.open();
    this.stopLatched = false;
    const ahead = this.typedAhead.shift();
    if (ahead !== undefined) {
      // readline showed it as it was typed; the prompt shows it again, as bash's readline does
      this.output.write(`${prompt}${ahead}\n`);
      return Promise.resolve(ahead);
    }
    const history = (rl as unknown as { history?: string[] }).history;
    const before = { length: history?.length ?? 0, top: history?.[0] };
    return new Promise((res) => {
      this.pending = (e) => {
        // readline put the line in its history before handing it over (unless it repeats the last one)
        const added = history !== undefined && typeof e === 'string' && history[0] === e && (history.length > before.length || history[1] === before.top);
        if (opts.record === false && added) history.shift();
        res(e);
      };
      this.prompt = prompt;
      rl.setPrompt(prompt);
      rl.prompt();
    });
  }

  wake(): void {
    if (this.pending) {
      this.output.write('\n');
      this.settle(WAKE);
    }
  }

  /** The pending hold(): Ctrl-C or Ctrl-Z settles it. */
  private holding: ((e: 'interrupt' | 'stop' | 'tick') => void) | undefined;

  /**
   * Ctrl-Z: at the prompt bash ignores SIGTSTP (and node's readline would stop this process);
   * while a job holds the terminal, the terminal echoes `^Z` and the job stops. Pressed while the
   * line still starts, it stops the job the line becomes, if any.
   */
  private ctrlZ(): void {
    if (this.pending) return;
    if (!(this.holding && this.holdNoEcho)) this.output.write('^Z');
    if (this.holding) this.holding('stop');
    else this.stopLatched = true;
  }

  /** Lines typed while a command ran, oldest first. */
  private typedAhead: string[] = [];
  /** Ctrl-Z came while the line ran, before it held the terminal. */
  private stopLatched = false;

  /** The held job keeps the terminal in noecho mode (hold's `noEcho`). */
  private holdNoEcho = false;

  hold(ms: number, opts: { noEcho?: boolean } = {}): Promise<'interrupt' | 'stop' | 'tick'> {
    this.open();
    this.holdNoEcho = opts.noEcho === true;
    if (this.stopLatched) {
      this.stopLatched = false;
      return Promise.resolve('stop');
    }
    return new Promise((res) => {
      const timer = setTimeout(() => done('tick'), ms);
      const done = (e: 'interrupt' | 'stop' | 'tick'): void => {
        clearTimeout(timer);
        this.holding = undefined;
        res(e);
      };
      this.holding = done;
    });
  }

  onInterrupt(fn: () => void): () => void {
    this.interrupt = fn;
    const off = onSigint(fn);
    return () => {
      if (this.interrupt === fn) this.interrupt = undefined;
      off();
    };
  }

  suspend(): void {
    this.rl?.pause();
    const inp = this.input as Readable & { setRawMode?: (b: boolean) => void; isTTY?: boolean };
    if (inp.isTTY) inp.setRawMode?.(false);
  }

  resume(): void {
    const inp = this.input as Readable & { setRawMode?: (b: boolean) => void; isTTY?: boolean };
    if (inp.isTTY && this.rl) inp.setRawMode?.(true);
    this.rl?.resume();
  }

  close(): void {
    const rl = this.rl;
    this.rl = undefined;
    this.pending = undefined;
    rl?.close();
  }
}
