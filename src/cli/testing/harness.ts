/**
 * Test harness: run main() with in-memory streams, a data directory of the test's own and a
 * real-time source the test controls. Returns what the program printed and its exit status.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../main.js';
import type { CliIo } from '../io.js';

export interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface Harness {
  data: string;
  /** The controllable real-time source. */
  clock: { now: number };
  /** Everything the running command has printed to stdout so far. */
  live: { stdout: string };
  /** `env` adds to (or overrides) this harness's environment for this run only. */
  run(args: string[], stdin?: string | Readable, env?: Record<string, string>, opts?: { tty?: boolean }): Promise<RunResult>;
}

/** The harnesses' data directories, removed when the test process exits (a test file runs in its own process). */
const dataDirs: string[] = [];
process.once('exit', () => {
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
});

export function harness(env: Record<string, string> = {}): Harness {
  const data = mkdtempSync(join(tmpdir(), 'cka-lab-test-'));
  dataDirs.push(data);
  const clock = { now: Date.parse('2026-12-01T09:00:00Z') };
  const live = { stdout: '' };
  return {
    data,
    clock,
    live,
    async run(args, stdin = '', runEnv = {}, opts = {}) {
      const out = new PassThrough();
      const err = new PassThrough();
      let stdout = '';
      let stderr = '';
      live.stdout = '';
      out.on('data', (b: Buffer) => {
        stdout += b.toString();
        live.stdout = stdout;
      });
      err.on('data', (b: Buffer) => (stderr += b.toString()));
      const io: CliIo = {
        stdin: typeof stdin === 'string' ? Readable.from([stdin]) : stdin,
        stdout: out,
        stderr: err,
        env: { HOME: data, XDG_DATA_HOME: join(data, 'xdg'), PATH: process.env['PATH'] ?? '', ...env, ...runEnv },
        cwd: data,
        // `tty`: lines come through the terminal's reader (ui/input.ts TtyLines: a held job, Ctrl-C/Ctrl-Z keys)
        isTTY: opts.tty === true,
        realNow: () => clock.now,
      };
      const code = await main(['node', 'cka-lab', ...args], io);
      return { stdout, stderr, code };
    },
  };
}

/** Wait until `cond` holds (polling), failing after `ms`. */
export async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Transcript format: `$ command` lines followed by the exact output expected (stdout and stderr
 * interleaved as a terminal shows them when each command's streams are joined).
 */
export function parseTranscript(text: string): { input: string; expected: string } {
  const input: string[] = [];
  const expected: string[] = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    if (line.startsWith('$ ')) input.push(line.slice(2));
    else if (line.startsWith('> ')) input.push(line.slice(2));
    else expected.push(line);
  }
  return { input: `${input.join('\n')}\n`, expected: expected.length ? `${expected.join('\n')}\n` : '' };
}
