/**
 * `id` inside a container: who its processes run as (sim/runtime/identity.ts), in busybox's or
 * GNU coreutils' words by the image (sim/runtime/id-tool.ts).
 */
import { podContainers, type Pod } from '../../../sim/api/types.js';
import { lookupImage } from '../../../sim/images.js';
import { processIdentity, type ProcessIdentity } from '../../../sim/runtime/identity.js';
import { idTool, type ToolOutput } from '../../../sim/runtime/id-tool.js';
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';

/** The identity of the container `ctx` runs in, and whether its tools are busybox's. */
export function containerIdentity(ctx: CommandContext): { id: ProcessIdentity; busybox: boolean } | undefined {
  const loc = ctx.location;
  if (loc.kind !== 'pod') return undefined;
  const pod = ctx.cluster?.store.get<Pod>('Pod', loc.namespace, loc.pod);
  const ct = pod ? podContainers(pod).find((c) => c.name === loc.container) : undefined;
  if (!pod || !ct) return undefined;
  const dns = lookupImage(ct.image)?.dns;
  return { id: processIdentity(pod, ct), busybox: dns === 'busybox' || dns === 'musl' };
}

/** A tool's output as the shell's result. */
export function toolResult(o: ToolOutput): ShellResult {
  const join = (s: 'stdout' | 'stderr'): string => o.chunks.filter((c) => c.stream === s).map((c) => c.text).join('');
  return { stdout: join('stdout'), stderr: join('stderr'), exitCode: o.exitCode, chunks: o.chunks };
}

export function id(ctx: CommandContext): ShellResult {
  const who = containerIdentity(ctx);
  if (!who) return { stdout: '', stderr: `${ctx.argv[0]}: command not found\n`, exitCode: 127 };
  return toolResult(idTool(who.id, who.busybox, ctx.argv.slice(1)));
}
