/** `whoami` inside a container: the name of the uid it runs as (sim/runtime/id-tool.ts). */
import { whoamiTool } from '../../../sim/runtime/id-tool.js';
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { containerIdentity, toolResult } from './id.js';

export function whoami(ctx: CommandContext): ShellResult {
  const who = containerIdentity(ctx);
  if (!who) return { stdout: '', stderr: `${ctx.argv[0]}: command not found\n`, exitCode: 127 };
  return toolResult(whoamiTool(who.id, who.busybox, ctx.argv.slice(1)));
}
