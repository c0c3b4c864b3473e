/**
 * `why` — this tool's own explanation of the last lookup or connection made in the lab: the
 * resolv.conf used, each DNS query and where it went, and each hop of the packet path (nat and
 * filter chains walked, DNAT target, routing, ip_forward, NetworkPolicy verdicts, listener).
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { lastWhy, result } from './net.js';

export function why(ctx: CommandContext): ShellResult {
  const rec = ctx.cluster ? lastWhy(ctx.cluster) : undefined;
  if (!rec) return result('', 'why: no lookup or connection has been made yet\n', 1);
  return result(`${rec.lines.join('\n')}\n`, '', 0);
}
