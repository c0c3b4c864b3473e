/**
 * `ip` inside a busybox container (networking/libiproute, busybox 1.36): `addr`, `link` and
 * `route` (show, get) of the pod's own network namespace (node/netmodel.ts podNet). Its layout is
 * iproute2's older one: no `state … group default` on the link line, `qdisc` left out when only
 * IPv6 addresses are listed, `M-DOWN` for a veth whose peer lives in another namespace (the flags of
 * `@ifN` are looked up in the pod's own namespace, where index N is not a device), route lines
 * ending in a space. Recorded from busybox 1.35's ip in a network namespace holding a veth.
 */
import type { Pod } from '../../../sim/api/types.js';
import type { CommandContext, CommandResult } from '../../types.js';
import type { Addr, Iface, Route } from '../node/netmodel.js';
import { lookupRoute, podNet } from '../node/netmodel.js';
import { ipOn } from '../node/ip.js';
import { isBusybox } from '../busybox.js';

const BANNER = 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\n';
const USAGE = `${BANNER}Usage: ip [OPTIONS] address|route|link|tunnel|neigh|rule [ARGS]\n\nOPTIONS := -f[amily] inet|inet6|link | -o[neline]\n\nip addr add|del IFADDR dev IFACE | show|flush [dev IFACE] [to PREFIX]\nip route list|flush|add|del|change|append|replace|test ROUTE\nip link set IFACE [up|down] [arp on|off] [multicast on|off]\n\t[promisc on|off] [mtu NUM] [name NAME] [qlen NUM] [address MAC]\n\t[master IFACE | nomaster] [netns PID]\nip tunnel add|change|del|show [NAME]\n\t[mode ipip|gre|sit] [remote ADDR] [local ADDR] [ttl TTL]\nip neigh show|flush [to PREFIX] [dev DEV] [nud STATE]\nip rule [list] | add|del SELECTOR ACTION\n`;

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): CommandResult => ({ stdout: '', stderr, exitCode });

/** The pod a container command runs in. */
export function execPod(ctx: CommandContext): Pod | undefined {
  const loc = ctx.location;
  return loc.kind === 'pod' ? ctx.cluster?.store.get<Pod>('Pod', loc.namespace, loc.pod) : undefined;
}

/** The link flags busybox prints: a veth's peer is not a device of this namespace (M-DOWN). */
function flags(i: Iface): string {
  return i.peerIndex !== undefined && (i.linkNetns !== undefined || i.linkNetnsId !== undefined) ? `${i.flags},M-DOWN` : i.flags;
}

const ifName = (i: Iface): string => (i.peerIndex !== undefined ? `${i.name}@if${i.peerIndex}` : i.name);

function addrs(args: string[], ifaces: Iface[], family: 'inet' | 'inet6' | undefined, oneline: boolean, withAddrs: boolean): CommandResult {
  // the first word is a command (ipaddress.c do_ipaddr: index_in_substrings, else invarg_1_to_2)
  if (args[0] !== undefined && ['show', 'list', 'lst'].some((v) => v.startsWith(args[0]!))) args.shift();
  else if (args[0] !== undefined && ['add', 'change', 'replace', 'delete', 'flush', 'set'].some((v) => v.startsWith(args[0]!))) return fail('ip: RTNETLINK answers: Operation not permitted\n', 2);
  else if (args[0] !== undefined) return fail(`ip: invalid argument '${args[0]}' to 'ip'\n`);
  const dev = args[0] === 'dev' ? args[1] : args[0];
  let list = ifaces;
  if (dev !== undefined) {
    const f = ifaces.find((i) => i.name === dev);
    if (!f) return fail(`ip: can't find device '${dev}'\n`);
    list = [f];
  }
  const fam = (a: Addr): boolean => !family || a.family === family;
  if (withAddrs && family) list = list.filter((i) => i.addrs.some(fam));
  let s = '';
  for (const i of list) {
    const shown = i.addrs.filter(fam);
    if (oneline && withAddrs) {
      for (const a of shown) s += `${i.index}: ${i.name}    ${a.family} ${a.cidr}${a.brd ? ` brd ${a.brd}` : ''} scope ${a.scope}${a.family === 'inet' ? ` ${i.name}` : ' '}\\       valid_lft forever preferred_lft forever\n`;
      continue;
    }
    // an IPv6-only listing leaves the queueing discipline out (as recorded)
    const qdisc = withAddrs && family === 'inet6' ? '' : ` qdisc ${i.qdisc}`;
    s += `${i.index}: ${ifName(i)}: <${flags(i)}> mtu ${i.mtu}${qdisc}${i.qlen ? ` qlen ${i.qlen}` : ''}\n`;
    if (!withAddrs || !family) s += `    link/${i.link} ${i.mac} brd ${i.link === 'loopback' ? '00:00:00:00:00:00' : 'ff:ff:ff:ff:ff:ff'}\n`;
    if (!withAddrs) continue;
    for (const a of shown) {
      s += `    ${a.family} ${a.cidr}${a.brd ? ` brd ${a.brd}` : ''} scope ${a.scope}${a.family === 'inet' ? ` ${i.name}` : ' '}\n`;
      s += '       valid_lft forever preferred_lft forever\n';
    }
  }
  return ok(s);
}

/**
 * busybox's print_route: `proto kernel` left out, `scope S ` then ` src A ` (two spaces between);
 * other protocols are printed as iproute2 does (not recorded).
 */
function routeLine(r: Route): string {
  let s = `${r.type ? `${r.type} ` : ''}${r.dst} `;
  if (r.via) s += `via ${r.via} `;
  if (r.dev) s += `dev ${r.dev} `;
  if (r.proto && r.proto !== 'kernel') s += `proto ${r.proto} `;
  if (r.scope) s += `scope ${r.scope} `;
  if (r.src) s += ` src ${r.src} `;
  if (r.metric !== undefined) s += `metric ${r.metric} `;
  if (r.onlink) s += 'onlink ';
  return `${s}\n`;
}

function routes(args: string[], net: { ifaces: Iface[]; routes: Route[]; routes6: Route[] }, family: 'inet' | 'inet6' | undefined): CommandResult {
  const verb = args[0];
  if (verb !== undefined && 'get'.startsWith(verb)) {
    const target = args.filter((a) => a !== 'to')[1];
    if (!target) return fail('ip: need at least destination address\n');
    const r = /^\d+\.\d+\.\d+\.\d+$/.test(target) ? lookupRoute(net.routes, target) : undefined;
    if (!r) return fail('ip: RTNETLINK answers: Network is unreachable\n', 2);
    const src = r.src ?? net.ifaces.find((i) => i.name === r.dev)?.addrs.find((a) => a.family === 'inet')?.cidr.split('/')[0];
    return ok(`${target} ${r.via ? `via ${r.via} ` : ''}dev ${r.dev}  src ${src} \n`);
  }
  if (verb !== undefined && ['show', 'list'].some((v) => v.startsWith(verb))) args.shift();
  else if (verb !== undefined && ['add', 'del', 'change', 'append', 'replace', 'flush'].some((v) => v.startsWith(verb))) return fail('ip: RTNETLINK answers: Operation not permitted\n', 2);
  const list = family === 'inet6' ? net.routes6 : net.routes;
  return ok(list.map(routeLine).join(''));
}

export function ip(ctx: CommandContext): CommandResult {
  const pod = execPod(ctx);
  const net = pod && ctx.cluster ? podNet(ctx.cluster, pod) : undefined;
  if (!net) return fail(`${ctx.argv[0]}: command not found\n`, 127);
  // an image that ships iproute2 (netshoot) prints iproute2's layout of the same namespace
  if (!isBusybox(ctx, 'ip')) return ipOn(ctx.argv.slice(1), () => ({ ...net, neighbours: [], namespaces: [] }));
  const args = ctx.argv.slice(1);
  let family: 'inet' | 'inet6' | undefined;
  let oneline = false;
  while (args[0]?.startsWith('-')) {
    const a = args.shift()!;
    if (a === '-4') family = 'inet';
    else if (a === '-6') family = 'inet6';
    else if (a === '-o' || a === '-oneline') oneline = true;
    else if (a === '-f' || a === '-family') {
      const f = args.shift();
      family = f === 'inet6' ? 'inet6' : f === 'inet' ? 'inet' : undefined;
    } else return fail(USAGE);
  }
  const obj = args.shift();
  if (obj === undefined) return fail(USAGE);
  if ('address'.startsWith(obj)) return addrs(args, net.ifaces, family, oneline, true);
  if ('link'.startsWith(obj)) return addrs(args, net.ifaces, undefined, oneline, false);
  if ('route'.startsWith(obj)) return routes(args, net, family);
  return fail(USAGE);
}
