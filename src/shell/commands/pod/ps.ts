/**
 * `ps` typed in a container's shell (`kubectl exec -it POD -- sh`, `kubectl debug -it …`): the
 * table of sim/runtime/ps-tool.ts (BusyBox's ps, the processes of the container's PID namespace),
 * then the exec'd shell, ps itself and the later members of ps's pipeline, as they run beside it.
 */
import type { Pod } from '../../../sim/api/types.js';
import { podContainers } from '../../../sim/api/types.js';
import type { CommandFn } from '../../types.js';
import { shellExtras } from '../types.js';
import { namespaceProcesses, psTable, psUser } from '../../../sim/runtime/ps-tool.js';

export const ps: CommandFn = (ctx) => {
  const loc = ctx.location;
  const pod = loc.kind === 'pod' ? ctx.cluster?.store.get<Pod>('Pod', loc.namespace, loc.pod) : undefined;
  const self = pod && loc.kind === 'pod' ? podContainers(pod).find((ct) => ct.name === loc.container) : undefined;
  if (!pod || !self) return { stdout: '', stderr: `${ctx.argv[0]}: command not found\n`, exitCode: 127 };
  // the later members of its pipeline run too (`ps | grep sleep` lists the grep)
  const peers = (shellExtras(ctx).pipelinePeers ?? []).map((argv) => argv.join(' '));
  // the shell `kubectl exec -it POD -- sh` started runs in the container too
  const shell = shellExtras(ctx).execShell;
  // what the exec started runs as the container's user
  const me = psUser(pod, self);
  const lines = [...namespaceProcesses(pod, self, false, ctx.cluster), ...[...(shell ? [shell.join(' ')] : []), ctx.argv.join(' '), ...peers].map((cmd) => ({ cmd, user: me }))];
  return { stdout: psTable(lines), stderr: '', exitCode: 0 };
};
