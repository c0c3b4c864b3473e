/**
 * Colours for the tool's own screens (never for simulated command output, which must stay byte
 * for byte what kubectl prints). A chalk instance per output: colour on a terminal, none in pipes
 * and tests, and none when NO_COLOR is set (https://no-color.org).
 */
import { Chalk, type ChalkInstance } from 'chalk';

export function theme(isTTY: boolean, env: Record<string, string | undefined>): ChalkInstance {
  return new Chalk({ level: isTTY && !env['NO_COLOR'] ? 1 : 0 });
}

/** `1:05:09` or `4:07`: time left or spent, from milliseconds (negative counts as zero). */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}
