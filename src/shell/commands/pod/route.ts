/**
 * `route [-n] [-e]` inside a busybox container (networking/route.c, busybox 1.36): the pod's IPv4
 * routing table (node/netmodel.ts podNet) as /proc/net/route lists it, each line
 * `%-15.15s %-15.15s %-16s%-6s` then `%-6d %-2d %7d %s`; without -n the default destination reads
 * `default` and an absent gateway `*`. Recorded from busybox 1.35 in a network namespace.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import type { Route } from '../node/netmodel.js';
import { podNet } from '../node/netmodel.js';
import { execPod } from './ip.js';
import { prefixMask } from '../../../util/ip.js';

const USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: route [-ne] [-A inet[6]] [{add|del} [-net|-host] TARGET [netmask MASK]\n\t[gw GATEWAY] [metric N] [mss BYTES] [window BYTES] [reject] [IFACE]]\n\nShow or edit kernel routing tables\n\n\t-n\tDon\'t resolve names\n\t-e\tDisplay other/more information\n\t-A inet[6]\tSelect address family\n';


function line(r: Route, numeric: boolean): string | undefined {
  if (r.type === 'blackhole' || !r.dev) return undefined;
  const [dst, bitsS] = r.dst === 'default' ? ['0.0.0.0', '0'] : (r.dst.includes('/') ? r.dst.split('/') : [r.dst, '32']) as [string, string];
  const bits = Number(bitsS);
  const flags = `U${r.via ? 'G' : ''}${bits === 32 ? 'H' : ''}`;
  const shownDst = !numeric && dst === '0.0.0.0' && bits === 0 ? 'default' : dst;
  const gw = r.via ?? (numeric ? '0.0.0.0' : '*');
  return `${shownDst.padEnd(15)} ${gw.padEnd(15)} ${prefixMask(bits).padEnd(16)}${flags.padEnd(6)}${String(r.metric ?? 0).padEnd(6)} ${'0'.padEnd(2)} ${'0'.padStart(7)} ${r.dev}\n`;
}

export function route(ctx: CommandContext): CommandResult {
  const pod = execPod(ctx);
  const net = pod && ctx.cluster ? podNet(ctx.cluster, pod) : undefined;
  if (!net) return { stdout: '', stderr: `${ctx.argv[0]}: command not found\n`, exitCode: 127 };
  let numeric = false;
  for (const a of ctx.argv.slice(1)) {
    if (/^-[ne]+$/.test(a)) numeric ||= a.includes('n');
    else if (a.startsWith('-')) return { stdout: '', stderr: `route: invalid option -- '${a[1]}'\n${USAGE}`, exitCode: 1 };
    else return { stdout: '', stderr: 'route: SIOCADDRT: Operation not permitted\n', exitCode: 1 };
  }
  const lines = net.routes.map((r) => line(r, numeric)).filter((l): l is string => l !== undefined);
  return { stdout: `Kernel IP routing table\nDestination     Gateway         Genmask         Flags Metric Ref    Use Iface\n${lines.join('')}`, stderr: '', exitCode: 0 };
}
