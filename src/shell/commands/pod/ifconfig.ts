/**
 * `ifconfig [-a] [IFACE]` inside a busybox container (networking/interface.c, busybox 1.36): the
 * pod's devices (node/netmodel.ts podNet) sorted by name as busybox's add_interface keeps them,
 * each as `ife_print` lays it out; recorded from busybox 1.35 in a network namespace with a veth.
 * Packet and byte counters are not simulated: they read 0.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import type { Iface } from '../node/netmodel.js';
import { podNet } from '../node/netmodel.js';
import { execPod } from './ip.js';
import { prefixMask } from '../../../util/ip.js';


const SCOPES: Record<string, string> = { global: 'Global', link: 'Link', host: 'Host' };

function block(i: Iface): string {
  const lo = i.link === 'loopback';
  let s = `${i.name.padEnd(10)}${lo ? 'Link encap:Local Loopback  ' : `Link encap:Ethernet  HWaddr ${i.mac.toUpperCase()}  `}\n`;
  const v4 = i.addrs.find((a) => a.family === 'inet');
  if (v4) {
    const [addr, bits] = v4.cidr.split('/') as [string, string];
    s += `          inet addr:${addr}${lo ? '' : `  Bcast:${v4.brd ?? '0.0.0.0'}`}  Mask:${prefixMask(Number(bits))}\n`;
  }
  for (const a of i.addrs.filter((x) => x.family === 'inet6')) s += `          inet6 addr: ${a.cidr} Scope:${SCOPES[a.scope] ?? a.scope}\n`;
  s += lo ? `          UP LOOPBACK RUNNING  MTU:${i.mtu}  Metric:1\n` : `          UP BROADCAST RUNNING MULTICAST  MTU:${i.mtu}  Metric:1\n`;
  s += '          RX packets:0 errors:0 dropped:0 overruns:0 frame:0\n';
  s += '          TX packets:0 errors:0 dropped:0 overruns:0 carrier:0\n';
  s += `          collisions:0 txqueuelen:${i.qlen ?? 1000} \n`;
  s += '          RX bytes:0 (0.0 B)  TX bytes:0 (0.0 B)\n\n';
  return s;
}

export function ifconfig(ctx: CommandContext): CommandResult {
  const pod = execPod(ctx);
  const net = pod && ctx.cluster ? podNet(ctx.cluster, pod) : undefined;
  if (!net) return { stdout: '', stderr: `${ctx.argv[0]}: command not found\n`, exitCode: 127 };
  const args = ctx.argv.slice(1).filter((a) => a !== '-a');
  const sorted = [...net.ifaces].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (args[0] === undefined) return { stdout: sorted.map(block).join(''), stderr: '', exitCode: 0 };
  const one = net.ifaces.find((i) => i.name === args[0]);
  if (!one) return { stdout: '', stderr: `ifconfig: ${args[0]}: error fetching interface information: Device not found\n`, exitCode: 1 };
  if (args.length > 1) return { stdout: '', stderr: 'ifconfig: SIOCSIFFLAGS: Operation not permitted\n', exitCode: 1 };
  return { stdout: block(one), stderr: '', exitCode: 0 };
}
