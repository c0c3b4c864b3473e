/**
 * uname in the busybox image (coreutils/uname.c, busybox 1.36.1): a container shares its node's
 * kernel, so the release, version and machine are the node's (node/uname.ts unameFields) and the
 * node name is the pod's hostname (its UTS namespace). getopt32 "amnrspvio" and no operands (else
 * the usage, status 1); -p and -i print `unknown`, and -a leaves them out (recorded from busybox
 * 1.36.1: `Linux HOST RELEASE VERSION MACHINE GNU/Linux`).
 */
import { podContainers, type Container, type Pod } from '../../../sim/api/types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { CommandContext, CommandFn } from '../../types.js';
import { busyboxOpts, busyboxUsageError } from '../busybox.js';
import { unameFields } from '../node/uname.js';
import { shellExtras } from '../types.js';
import { has } from '../util.js';

/** The pod a container command runs in and the node it runs on (whose kernel, memory and CPUs it sees). */
export function podNode(ctx: CommandContext): { cluster: Cluster; pod: Pod; host: Host } | undefined {
  const loc = ctx.location;
  if (loc.kind !== 'pod' || !ctx.cluster) return undefined;
  const pod = ctx.cluster.store.get<Pod>('Pod', loc.namespace, loc.pod);
  const host = pod?.spec.nodeName ? ctx.cluster.host(pod.spec.nodeName) : undefined;
  return pod && host ? { cluster: ctx.cluster, pod, host } : undefined;
}

/** The same, with the container the command runs in (df reads its mounts, top its processes). */
export function podContainerNode(ctx: CommandContext): { cluster: Cluster; pod: Pod; host: Host; container: Container } | undefined {
  const env = podNode(ctx);
  const loc = ctx.location;
  const container = env && loc.kind === 'pod' ? podContainers(env.pod).find((c) => c.name === loc.container) : undefined;
  return env && container ? { ...env, container } : undefined;
}

export const uname: CommandFn = (ctx) => {
  const env = podNode(ctx);
  if (!env) return { stdout: '', stderr: `${ctx.argv[0]}: not found\n`, exitCode: 127 };
  const b = busyboxOpts('uname', ctx.argv.slice(1), { short: 'amnrspvio' });
  if (!b.ok) return b.result;
  if (b.opts.operands.length > 0) return busyboxUsageError('uname');
  const name = shellExtras(ctx).hostname ?? env.pod.spec.hostname ?? env.pod.metadata.name;
  const fields = unameFields(env.host).map(([k, v]): [string, string] => [k, k === 'n' ? name : k === 'p' || k === 'i' ? 'unknown' : v]);
  const all = has(b.opts, 'a');
  const any = fields.some(([k]) => has(b.opts, k));
  const chosen = fields.filter(([k]) => (all ? k !== 'p' && k !== 'i' : any ? has(b.opts, k) : k === 's'));
  return { stdout: `${chosen.map(([, v]) => v).join(' ')}\n`, stderr: '', exitCode: 0 };
};
