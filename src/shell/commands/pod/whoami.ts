/**
 * `whoami` inside a container: the name of the uid its processes run as (sim/runtime/identity.ts),
 * busybox's (coreutils/whoami.c: "unknown uid N") or GNU coreutils' ("cannot find name for user
 * ID N"). Recorded from busybox 1.35 and coreutils 9.1.
 */
import { userName } from '../../../sim/runtime/identity.js';
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { containerIdentity } from './id.js';

export function whoami(ctx: CommandContext): ShellResult {
  const who = containerIdentity(ctx);
  if (!who) return { stdout: '', stderr: `${ctx.argv[0]}: command not found\n`, exitCode: 127 };
  const extra = ctx.argv[1];
  if (extra !== undefined)
    return who.busybox
      ? { stdout: '', stderr: 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: whoami\n\nPrint the user name associated with the current effective user id\n', exitCode: 1 }
      : { stdout: '', stderr: `whoami: extra operand '${extra}'\nTry 'whoami --help' for more information.\n`, exitCode: 1 };
  const name = userName(who.id);
  if (name !== undefined) return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
  return { stdout: '', stderr: who.busybox ? `whoami: unknown uid ${who.id.uid}\n` : `whoami: cannot find name for user ID ${who.id.uid}\n`, exitCode: 1 };
}
