/**
 * Which userland a text command speaks: GNU coreutils on the Ubuntu hosts, BusyBox inside a
 * container whose image's tools are busybox applets (busybox itself, and the Alpine-based images:
 * sim/images.ts `dns` busybox or musl). The applets share the command's logic and differ in their
 * words; each command asks here where it prints an error.
 */
import { podContainers, type Pod } from '../../sim/api/types.js';
import { lookupImage } from '../../sim/images.js';
import type { CommandContext } from '../types.js';

export function busyboxTools(ctx: CommandContext, tool?: string): boolean {
  const loc = ctx.location;
  if (loc.kind !== 'pod') return false;
  const pod = ctx.cluster?.store.get<Pod>('Pod', loc.namespace, loc.pod);
  const ct = pod ? podContainers(pod).find((c) => c.name === loc.container) ?? pod.spec.containers[0] : undefined;
  const image = ct ? lookupImage(ct.image) : undefined;
  // a tool the image ships as its own package (netshoot's iproute2) is not the applet
  if (tool !== undefined && image?.packagedTools?.includes(tool)) return false;
  return image?.dns === 'busybox' || image?.dns === 'musl';
}
