/**
 * The read-eval-print loop around a Session: lines from a LineSource (terminal or stream), joined
 * by the shell's LineReader while a quote, a continuation or a here-document is open (PS2 `> `),
 * run by the session, output written in order to stdout/stderr. Modes plug in through hooks:
 * meta-commands (practice's `check`, the exam's `submit`), a prompt prefix (time left), messages
 * before each prompt (timer alerts) and a save after every command.
 *
 * Like bash: Ctrl-C drops the line being typed, or stops the line running (status 130 either way);
 * Ctrl-D on an empty line leaves the current ssh / exec context and at the top ends the loop;
 * `exit` at the top ends it too. The exit status is the last command's.
 */
import type { Writable } from 'node:stream';
import { LineReader } from '../shell/parse/linereader.js';
import type { Session } from '../shell/session.js';
import { INTERRUPT, WAKE, type LineSource } from './input.js';
import { syncClock } from '../app/wallclock.js';
import { encodeBytes, hasRawBytes } from '../util/bytes.js';

/** What reaches the terminal: the text, or its bytes when it holds raw bytes (`printf '\xff'` writes 0xff, not U+FFFD). */
function terminalBytes(text: string): string | Uint8Array {
  return hasRawBytes(text) ? encodeBytes(text) : text;
}

/** How often the wall clock moves a job the terminal holds on (its rows, a sleep's end). */
const HOLD_TICK_MS = 250;

export interface MetaIo {
  out(text: string): void;
  err(text: string): void;
  /** Ask a question and read the answer from the same input (null at end of input). */
  ask(question: string): Promise<string | null>;
}

export interface MetaOutcome {
  exitCode?: number;
  /** End the loop after this command. */
  quit?: boolean;
}

export interface ReplHooks {
  /** Shown before the shell's own prompt, e.g. the exam's `[1:59 left] `. */
  promptPrefix?(): string;
  /** Runs before each prompt; `text` is shown, `stop` ends the loop (time is up). */
  beforePrompt?(io: MetaIo): Promise<{ stop?: boolean } | void> | { stop?: boolean } | void;
  /** Runs after a complete line is read, before it runs; `stop` ends the loop without running it. */
  gate?(io: MetaIo): Promise<{ stop?: boolean } | void> | { stop?: boolean } | void;
  /** A meta-command of the mode; undefined passes the line on to the shell. */
  meta?(line: string, io: MetaIo): Promise<MetaOutcome | undefined>;
  /** Just before a command runs in the shell (take the session's lock, pick up others' changes). */
  beforeCommand?(): void | Promise<void>;
  /** After every command (persist the session). */
  afterCommand?(line: string): void | Promise<void>;
  /**
   * While a job holds the terminal (`kubectl get pods -w`, `sleep 100`): let the session go
   * between wall-clock ticks (release its lock), so a one-shot `cka-lab kubectl` from another
   * terminal works on it meanwhile instead of waiting for the hold to end...
   */
  holdPause?(): void | Promise<void>;
  /** ...and take it back before the next tick, with what another process wrote meanwhile (adopted: the held job lives on). */
  holdResume?(): void | Promise<void>;
  /**
   * Asked on every wall-clock tick while a job holds the terminal: true when the mode's terminal
   * goes away now (the exam's time ran out). The job then dies of SIGHUP, the line ends as any
   * does (afterCommand) and beforePrompt takes the mode's own way out (the exam's time-up grading).
   */
  holdEnds?(): boolean | Promise<boolean>;
}

export interface ReplIo {
  stdout: Writable;
  stderr: Writable;
}

/**
 * The event a REPL emits on `process` at its first prompt of the process. bin/cka-lab writes the
 * command's V8 code cache then: the code starting needed, not that of every command the first
 * session went on to run (which made every later start deserialize twice as much).
 */
export const FIRST_PROMPT = 'cka-lab:first-prompt';
let prompted = false;

function firstPrompt(): void {
  if (prompted) return;
  prompted = true;
  (process as NodeJS.EventEmitter).emit(FIRST_PROMPT);
}

export async function runRepl(session: () => Session, lines: LineSource, io: ReplIo, hooks: ReplHooks = {}): Promise<number> {
  const reader = new LineReader(() => session().parseOptions());
  const metaIo: MetaIo = {
    out: (t) => void io.stdout.write(t),
    err: (t) => void io.stderr.write(t),
    ask: async (q) => {
      if (!lines.interactive) io.stdout.write(q);
      for (;;) {
        const ev = await lines.next(q, { record: false });
        if (ev === WAKE) continue;
        return ev === INTERRUPT ? '' : ev;
      }
    },
  };
  let status = 0;
  for (;;) {
    if (!reader.pending) {
      const pre = await hooks.beforePrompt?.(metaIo);
      if (pre && pre.stop) break;
    }
    const s = session();
    const prompt = reader.pending ? '> ' : `${hooks.promptPrefix?.() ?? ''}${s.prompt()}`;
    const next = lines.next(prompt);
    firstPrompt();
    const ev = await next;
    if (ev === WAKE) continue;
    if (ev === INTERRUPT) {
      reader.reset();
      status = 130;
      continue;
    }
    if (ev === null) {
      const open = reader.eof();
      if (open) {
        io.stderr.write(`${open.error}\n`);
        status = 2;
        if (lines.interactive) continue;
        break;
      }
      if (!lines.interactive) break;
      if (s.atTop) {
        io.stdout.write('exit\n');
        // with stopped jobs, the first Ctrl-D warns and stays, as bash's `exit` does
        const eof = s.endOfInput();
        if (eof.leave) break;
        io.stderr.write(eof.warning);
        status = 1;
        continue;
      }
      // Ctrl-D inside ssh / exec: leave that context, as the remote shell would
      io.stdout.write('exit\n');
      await hooks.beforeCommand?.();
      const cur = session();
      syncClock(cur.cluster.clock);
      const out = await cur.exec('exit');
      for (const c of out.output) (c.stream === 'stdout' ? io.stdout : io.stderr).write(terminalBytes(c.text));
      await hooks.afterCommand?.('exit');
      continue;
    }
    const r = reader.push(ev);
    if (r.status === 'more') continue;
    const source = r.source;
    if (source.trim() === '') {
      // an empty line still shows what the jobs did before the next prompt (a `Terminated` notice)
      if (s.hasJobs()) {
        // with the session taken as between a held job's ticks (holdResume/holdPause: another
        // process's changes adopted first), and the clock at the wall's time, so a list whose
        // sleep ended meanwhile runs on and its `Done` shows, as bash's does
        await hooks.holdResume?.();
        const cur = session();
        const clock = cur.cluster.clock;
        let out: Awaited<ReturnType<Session['exec']>>;
        try {
          out = await cur.exec('', { sync: (limit) => syncClock(clock, limit) });
        } finally {
          await hooks.holdPause?.();
        }
        for (const c of out.output) (c.stream === 'stdout' ? io.stdout : io.stderr).write(terminalBytes(c.text));
      }
      continue;
    }
    const gate = await hooks.gate?.(metaIo);
    if (gate && gate.stop) break;
    if (hooks.meta && !source.includes('\n')) {
      const m = await hooks.meta(source.trim(), metaIo);
      if (m) {
        status = m.exitCode ?? 0;
        if (m.quit) break;
        continue;
      }
    }
    await hooks.beforeCommand?.();
    const cur = session();
    const wasTop = cur.atTop;
    const clock = cur.cluster.clock;
    // Ctrl-C while the line runs stops it as bash stops a foreground job: status 130, the
    // session as the line left it (shell/budget.ts)
    const ctl = new AbortController();
    const off = lines.onInterrupt(() => ctl.abort());
    let out: Awaited<ReturnType<Session['exec']>>;
    try {
      // the session syncs the clock with the wall, stopping at background jobs' times on the way
      out = await cur.exec(source, { signal: ctl.signal, sync: (limit) => syncClock(clock, limit), hold: lines.hold !== undefined });
    } finally {
      off();
    }
    for (const c of out.output) (c.stream === 'stdout' ? io.stdout : io.stderr).write(terminalBytes(c.text));
    // a job holds the terminal (`sleep 100`, `kubectl get pods -w`, `fg`): the wall clock runs it
    // until it ends, Ctrl-C ends it or Ctrl-Z stops it (Session.foreground)
    for (let guard = 0; out.holding && lines.hold && guard < 10_000_000; guard++) {
      await hooks.holdPause?.();
      const ev2 = await lines.hold(HOLD_TICK_MS, { noEcho: out.noEcho === true });
      await hooks.holdResume?.();
      const gone = ev2 === 'tick' && (await hooks.holdEnds?.()) === true;
      out = await cur.foreground(gone ? 'hangup' : ev2, { sync: (limit) => syncClock(clock, limit) });
      for (const c of out.output) (c.stream === 'stdout' ? io.stdout : io.stderr).write(terminalBytes(c.text));
    }
    status = out.exitCode;
    await hooks.afterCommand?.(source);
    if (out.exit !== undefined && wasTop) break;
  }
  return status;
}
