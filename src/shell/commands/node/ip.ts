/**
 * `ip` (iproute2 6.1, as on Ubuntu 24.04): `addr`, `link`, `route` (show, get), `neigh`, `netns`,
 * with `-4`/`-6`, `-br`, `-n NS` / `-netns NS`, and `show [dev] NAME`. Objects and verbs match by
 * prefix in iproute2's table order (ip/ip.c cmds[]: "a" is address, "r" route, "n" neighbour,
 * "l" link). Line layouts follow ip/ipaddress.c (print_linkinfo, print_addrinfo, brief mode
 * "%-16s %-14s ") and ip/iproute.c (print_route: each field followed by a space).
 * Everything shown is derived from cluster state by ./netmodel.ts.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import type { Addr, Iface, Neighbour, NetNs, NodeNet, Route } from './netmodel.js';
import { lookupRoute, nodeNet } from './netmodel.js';

const OBJECTS = ['address', 'addrlabel', 'maddress', 'route', 'rule', 'neighbor', 'neighbour', 'ntable', 'link', 'l2tp', 'fou', 'ila', 'macsec', 'tunnel', 'tuntap', 'token', 'tcpmetrics', 'monitor', 'xfrm', 'mroute', 'mrule', 'netns', 'netconf', 'vrf', 'sr', 'nexthop', 'mptcp', 'ioam', 'stats', 'help'];

interface Opts {
  family?: 'inet' | 'inet6';
  brief: boolean;
  netns?: string;
  /** `-o`/`-oneline`: one record per line, its inner line breaks written as `\\` (ip/ip_common.h _SL_). */
  oneline?: boolean;
}

function out(stdout: string): CommandResult {
  return { stdout, stderr: '', exitCode: 0 };
}

function err(stderr: string, exitCode = 1): CommandResult {
  return { stdout: '', stderr, exitCode };
}

const USAGE = `Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }
       ip [ -force ] -batch filename
where  OBJECT := { address | addrlabel | fou | help | ila | ioam | l2tp | link |
                   macsec | maddress | monitor | mptcp | mroute | mrule |
                   neighbor | neighbour | netconf | netns | nexthop | ntable |
                   ntbl | route | rule | sr | tap | tcpmetrics |
                   token | tunnel | tuntap | vrf | xfrm }
       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -r[esolve] |
                    -h[uman-readable] | -iec | -j[son] | -p[retty] |
                    -f[amily] { inet | inet6 | mpls | bridge | link } |
                    -4 | -6 | -M | -B | -0 |
                    -l[oops] { maximum-addr-flush-attempts } | -br[ief] |
                    -o[neline] | -t[imestamp] | -ts[hort] | -b[atch] [filename] |
                    -rc[vbuf] [size] | -n[etns] name | -N[umeric] | -a[ll] |
                    -c[olor]}
`;

export const ip: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  return ipOn(ctx.argv.slice(1), () => nodeNet(env.cluster, env.host));
};

/**
 * iproute2's `ip` over a network view: a node's (with its pod namespaces for `-n`), or a
 * container's own namespace where the image ships iproute2 (netshoot).
 */
export function ipOn(argv: readonly string[], netOf: () => NodeNet): CommandResult {
  const args = [...argv];
  const o: Opts = { brief: false };
  while (args.length && args[0]!.startsWith('-')) {
    const a = args.shift()!;
    const opt = a.replace(/^--?/, '');
    if (opt === '4') o.family = 'inet';
    else if (opt === '6') o.family = 'inet6';
    else if (opt.length >= 2 && 'brief'.startsWith(opt)) o.brief = true;
    else if (opt.length >= 1 && 'oneline'.startsWith(opt)) o.oneline = true;
    else if (opt === 'n' || (opt.length >= 2 && 'netns'.startsWith(opt))) {
      const ns = args.shift();
      if (ns === undefined) return err('Command line is not complete. Try option "help"\n', 255);
      o.netns = ns;
    } else if (['d', 'details', 's', 'stats', 'statistics', 'c', 'color', 'color=never', 'N', 'Numeric', 'r', 'resolve', 'h', 'human'].includes(opt)) continue;
    else if (opt === 'V' || opt === 'Version') return out('ip utility, iproute2-6.1.0, libbpf 1.3.0\n');
    else if (opt === 'help') return err(USAGE, 255);
    else return err(`Option "${a}" is unknown, try "ip -help".\n`, 255);
  }
  const objWord = args.shift();
  if (objWord === undefined) return err(USAGE, 255);
  const obj = OBJECTS.find((k) => k.startsWith(objWord));
  if (!obj) return err(`Object "${objWord}" is unknown, try "ip help".\n`, 255);
  const net = netOf();
  let view: { ifaces: Iface[]; routes: Route[]; routes6: Route[]; neighbours: Neighbour[] } = net;
  if (o.netns !== undefined && obj !== 'netns') {
    const ns = net.namespaces.find((n) => n.name === o.netns);
    if (!ns) return err(`Cannot open network namespace "${o.netns}": No such file or directory\n`, 255);
    view = { ifaces: ns.ifaces, routes: ns.routes, routes6: ns.routes6, neighbours: [] };
  }
  switch (obj) {
    case 'address':
      return addrCmd(args, view.ifaces, o, true);
    case 'link':
      return addrCmd(args, view.ifaces, o, false);
    case 'route':
      return routeCmd(args, view.routes, view.ifaces, o, view.routes6);
    case 'neighbor':
    case 'neighbour':
      return out(o.family === 'inet6' ? '' : view.neighbours.map(neighLine).join(''));
    case 'netns':
      return netnsCmd(args, net.namespaces);
    default:
      return err(`Object "${objWord}" is unknown, try "ip help".\n`, 255);
  }
}

/** `ip addr|link [show|list|lst] [dev] NAME [up]`. */
function addrCmd(args: string[], ifaces: Iface[], o: Opts, withAddrs: boolean): CommandResult {
  const verb = args[0];
  if (verb !== undefined && ['show', 'list', 'lst'].some((v) => v.startsWith(verb))) args.shift();
  else if (verb !== undefined && !['dev', 'up'].includes(verb) && ['add', 'delete', 'change', 'replace', 'set', 'flush'].some((v) => v.startsWith(verb)))
    return err('RTNETLINK answers: Operation not permitted\n', 2);
  let dev: string | undefined;
  let upOnly = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === 'dev') dev = args[++i];
    else if (a === 'up') upOnly = true;
    else if (dev === undefined) dev = a;
  }
  let list = ifaces;
  if (dev !== undefined) {
    const f = ifaces.find((i) => i.name === dev);
    if (!f) return err(`Device "${dev}" does not exist.\n`, 1);
    list = [f];
  }
  if (upOnly) list = list.filter((i) => i.flags.includes('UP'));
  const fam = (a: Addr): boolean => !o.family || a.family === o.family;
  if (withAddrs && o.family) list = list.filter((i) => i.addrs.some(fam));
  if (o.brief) return out(list.map((i) => briefLine(i, withAddrs, fam)).join(''));
  // -o: a link's record is its two lines joined by `\`; an address's is `INDEX: NAME` and its two
  // lines joined so, with no link line at all (ip/ipaddress.c print_addrinfo under filter.oneline)
  const sl = o.oneline ? '\\' : '\n';
  let s = '';
  for (const i of list) {
    const link = `    link/${i.link} ${i.mac} brd ${i.link === 'loopback' ? '00:00:00:00:00:00' : 'ff:ff:ff:ff:ff:ff'}${i.linkNetns ? ` link-netns ${i.linkNetns}` : i.linkNetnsId !== undefined ? ` link-netnsid ${i.linkNetnsId}` : ''}\n`;
    if (!(withAddrs && o.oneline)) {
      s += `${i.index}: ${ifName(i)}: <${i.flags}> mtu ${i.mtu} qdisc ${i.qdisc}${i.master ? ` master ${i.master}` : ''} state ${i.state}${withAddrs ? '' : ' mode DEFAULT'} group default${i.qlen ? ` qlen ${i.qlen}` : ''}${withAddrs || !o.oneline ? '\n' : sl}`;
      if (!withAddrs || !o.family) s += link;
    }
    if (!withAddrs) continue;
    for (const a of i.addrs.filter(fam)) {
      const tail = a.family === 'inet' ? ` ${i.name}` : ' ';
      if (o.oneline) s += `${i.index}: ${i.name}`;
      s += `    ${a.family} ${a.cidr}${a.brd ? ` brd ${a.brd}` : ''} scope ${a.scope}${a.flags ? ` ${a.flags}` : ''}${tail}${sl}`;
      s += '       valid_lft forever preferred_lft forever\n';
    }
  }
  return out(s);
}

function ifName(i: Iface): string {
  return i.peerIndex !== undefined ? `${i.name}@if${i.peerIndex}` : i.name;
}

function briefLine(i: Iface, withAddrs: boolean, fam: (a: Addr) => boolean): string {
  const head = `${ifName(i).padEnd(16)} ${i.state.padEnd(14)} `;
  if (withAddrs) return `${head}${i.addrs.filter(fam).map((a) => `${a.cidr} `).join('')}\n`;
  return `${head}${i.mac} <${i.flags}> \n`;
}

function routeLine(r: Route): string {
  let s = r.type ? `${r.type} ${r.dst} ` : `${r.dst} `;
  if (r.via) s += `via ${r.via} `;
  if (r.dev) s += `dev ${r.dev} `;
  if (r.proto) s += `proto ${r.proto} `;
  if (r.scope) s += `scope ${r.scope} `;
  if (r.src) s += `src ${r.src} `;
  if (r.metric !== undefined) s += `metric ${r.metric} `;
  if (r.onlink) s += 'onlink ';
  if (r.pref) s += `pref ${r.pref}`;
  return `${s}\n`;
}

/** `ip route [show|list] [dev X]`, `ip route get ADDR`. */
function routeCmd(args: string[], routes4: Route[], ifaces: Iface[], o: Opts, routes6: Route[] = []): CommandResult {
  const routes = o.family === 'inet6' ? routes6 : routes4;
  const verb = args[0];
  if (verb !== undefined && 'get'.startsWith(verb) && verb.length >= 1 && verb !== 'dev') {
    const target = args.filter((a) => a !== 'to')[1];
    if (!target) return err('need at least a destination address\n', 1);
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(target) || o.family === 'inet6') return err(`Error: any valid prefix is expected rather than "${target}".\n`, 1);
    const r = lookupRoute(routes, target);
    if (!r || r.type === 'blackhole') return err('RTNETLINK answers: Invalid argument\n', 2);
    const dev = ifaces.find((i) => i.name === r.dev);
    const src = r.src ?? dev?.addrs.find((a) => a.family === 'inet')?.cidr.split('/')[0] ?? ifaces.find((i) => i.name !== 'lo')?.addrs.find((a) => a.family === 'inet')?.cidr.split('/')[0];
    return out(`${target} ${r.via ? `via ${r.via} ` : ''}dev ${r.dev} src ${src} uid 0 \n    cache \n`);
  }
  if (verb !== undefined && ['show', 'list', 'lst'].some((v) => v.startsWith(verb))) args.shift();
  else if (verb !== undefined && verb !== 'dev' && ['add', 'delete', 'change', 'replace', 'append', 'flush'].some((v) => v.startsWith(verb)))
    return err('RTNETLINK answers: Operation not permitted\n', 2);
  let list = routes;
  const di = args.indexOf('dev');
  if (di >= 0) {
    const dev = args[di + 1];
    if (!ifaces.some((i) => i.name === dev)) return err(`Cannot find device "${dev ?? ''}"\n`, 1);
    list = routes.filter((r) => r.dev === dev);
    return out(list.map((r) => routeLine(stripDev(r))).join(''));
  }
  return out(list.map(routeLine).join(''));
}

function stripDev(r: Route): Route {
  const { dev: _dev, ...rest } = r;
  void _dev;
  return rest;
}

function neighLine(n: Neighbour): string {
  return `${n.ip} dev ${n.dev} lladdr ${n.lladdr} ${n.state}\n`;
}

/** `ip netns [list]`: containerd's pod namespaces, newest first, with their nsid. */
function netnsCmd(args: string[], namespaces: NetNs[]): CommandResult {
  const verb = args[0] ?? 'list';
  if (['list', 'show', 'lst'].some((v) => v.startsWith(verb)) || verb === 'ls')
    return out(namespaces.map((n) => `${n.name} (id: ${n.id})\n`).join(''));
  if (['add', 'delete', 'attach', 'set'].some((v) => v.startsWith(verb))) return err(`mount --make-shared /run/netns failed: Operation not permitted\n`, 1);
  return err(`Command "${verb}" is unknown, try "ip netns help".\n`, 1);
}
