/**
 * What a container's process does, decided from its image and command the way the real process
 * would behave: a server keeps running, `sleep 3600` runs for an hour then exits 0, `sh -c 'exit 3'`
 * exits 3, a busybox with no command exits at once (Completed → CrashLoopBackOff under a
 * Deployment), and a command the image does not have fails to start (StartError).
 */
import type { Container } from '../api/types.js';
import type { ImageInfo } from '../images.js';

export type Program =
  | { kind: 'serve'; output: string }
  | { kind: 'exit'; code: number; afterMs: number; output: string }
  | { kind: 'not-found'; exe: string };

/** Split a `sh -c` script into simple commands joined by `;`, `&&`, newlines. */
function scriptSteps(script: string): string[][] {
  return script
    .split(/;|&&|\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => s.split(/\s+/));
}

function sleepMs(arg: string | undefined): number {
  if (arg === undefined) return 0;
  if (arg === 'infinity') return Number.POSITIVE_INFINITY;
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg);
  if (!m) return 0;
  const mult = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * mult;
}

function unquote(s: string): string {
  return s.replace(/^['"]|['"]$/g, '');
}

/** Interpret a list of simple commands. */
function runSteps(steps: string[][], image: ImageInfo): Program {
  let out = '';
  let elapsed = 0;
  for (const step of steps) {
    const [cmd, ...args] = step;
    if (!cmd) continue;
    if (cmd === 'while' || cmd === 'until' || cmd === 'for') return { kind: 'serve', output: out };
    if (cmd === 'exit') return { kind: 'exit', code: Number(args[0] ?? '0') || 0, afterMs: elapsed, output: out };
    if (cmd === 'sleep') {
      const ms = sleepMs(args[0]);
      if (!Number.isFinite(ms)) return { kind: 'serve', output: out };
      elapsed += ms;
      continue;
    }
    if (cmd === 'tail' && args.includes('-f')) return { kind: 'serve', output: out };
    if (cmd === 'echo') {
      out += `${args.map(unquote).join(' ')}\n`;
      continue;
    }
    if (image.daemons?.includes(cmd.split('/').pop() ?? cmd)) return { kind: 'serve', output: out };
    if (cmd === 'false') return { kind: 'exit', code: 1, afterMs: elapsed, output: out };
    if (cmd === 'true' || cmd === 'date' || cmd === 'env' || cmd === 'hostname' || cmd === 'cat' || cmd === 'ls') continue;
    if (!image.tools.includes(cmd)) return { kind: 'exit', code: 127, afterMs: elapsed, output: `${out}sh: ${cmd}: not found\n` };
  }
  return { kind: 'exit', code: 0, afterMs: elapsed, output: out };
}

export function containerProgram(c: Container, image: ImageInfo): Program {
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  if (argv.length === 0) {
    return image.defaultCommand.runs ? { kind: 'serve', output: '' } : { kind: 'exit', code: image.defaultCommand.exitCode, afterMs: 0, output: '' };
  }
  // args without command go to the image's entrypoint
  if (!c.command && image.defaultCommand.runs) return { kind: 'serve', output: '' };
  const exe = argv[0]!;
  const base = exe.split('/').pop()!;
  if ((base === 'sh' || base === 'bash' || base === 'ash') && argv[1] === '-c') {
    if (!image.tools.includes(base)) return { kind: 'not-found', exe };
    return runSteps(scriptSteps(argv.slice(2).join(' ')), image);
  }
  if (!image.tools.includes(base) && !['sleep', 'echo', 'true', 'false'].includes(base) ) return { kind: 'not-found', exe };
  return runSteps([[base, ...argv.slice(1)]], image);
}
