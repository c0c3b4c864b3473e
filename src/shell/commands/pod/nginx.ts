/**
 * The `nginx` binary inside an nginx container (`kubectl exec web -- nginx -t`, `nginx -s reload`):
 * the container's running nginx is sim/runtime/nginx/program.ts, which reads the configuration from
 * the container's files and, for a signal, acts on the master process.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { Pod } from '../../../sim/api/types.js';
import { nginxCli } from '../../../sim/runtime/nginx/program.js';
import { result } from './net.js';

export function nginx(ctx: CommandContext): ShellResult {
  const c = ctx.cluster;
  const loc = ctx.location;
  if (!c || loc.kind !== 'pod') return result('', 'sh: 1: nginx: not found\n', 127);
  const pod = c.store.get<Pod>('Pod', loc.namespace, loc.pod);
  if (!pod) return result('', 'sh: 1: nginx: not found\n', 127);
  const r = nginxCli(c, pod, loc.container, ctx.argv);
  return result(r.stdout, r.stderr, r.exitCode);
}
