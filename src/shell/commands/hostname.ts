/**
 * hostname — Debian/Ubuntu's hostname 3.23 on the hosts: print the host's name (-s short form,
 * -d its domain: nothing at all for a name without a dot), -I every address of every interface
 * but the loopback and IPv6 link-local ones (hostname(1): getifaddrs order, IPv4 before IPv6, each
 * followed by a space); an unknown option prints getopt's complaint and the usage on stdout, exit
 * 255 (recorded from hostname 3.23+nmu1); setting the name needs root.
 * In busybox containers busybox's networking/hostname.c: -i, -f and -d resolve the name with
 * gethostbyname(3), which finds it in /etc/hosts (the kubelet's managed file maps the pod's IPs to
 * its hostname), IPv4 only; -i prints the addresses one space apart, -f the canonical name (the
 * first name of the line), -d what follows its first dot.
 */
import type { CommandContext, CommandFn, CommandResult } from '../types.js';
import { busyboxOpts, isBusybox } from './busybox.js';
import { shellExtras } from './types.js';
import { has } from './util.js';
import { hostEnv, nodeEnv } from './node/host.js';
import { nodeNet } from './node/netmodel.js';

/**
 * gethostbyname(name) through the hosts file: the canonical name and IPv4 addresses of the first
 * line naming it (glibc without `multi on`, as the busybox image has no /etc/host.conf).
 */
export function hostsLookup(hostsText: string, name: string): { canonical: string; addrs: string[] } | undefined {
  for (const raw of hostsText.split('\n')) {
    const fields = raw.replace(/#.*/, '').trim().split(/\s+/);
    if (fields.length < 2 || !/^\d+\.\d+\.\d+\.\d+$/.test(fields[0]!)) continue;
    const names = fields.slice(1);
    if (names.some((n) => n.toLowerCase() === name.toLowerCase())) return { canonical: names[0]!, addrs: [fields[0]!] };
  }
  return undefined;
}

function busyboxHostname(ctx: CommandContext, name: string): CommandResult {
  const p = busyboxOpts('hostname', ctx.argv.slice(1), { short: 'dfisF:v' });
  if (!p.ok) return p.result;
  const o = p.opts;
  if (has(o, 'd') || has(o, 'f') || has(o, 'i')) {
    const hosts = ctx.fs.tryRead('/etc/hosts') ?? '';
    const hit = hostsLookup(hosts, name);
    // hstrerror(HOST_NOT_FOUND) after the lookup also failed in DNS
    if (!hit) return { stdout: '', stderr: `hostname: ${name}: Unknown host\n`, exitCode: 1 };
    const dot = hit.canonical.indexOf('.');
    if (has(o, 'f')) return { stdout: `${hit.canonical}\n`, stderr: '', exitCode: 0 };
    if (has(o, 's')) return { stdout: `${dot < 0 ? hit.canonical : hit.canonical.slice(0, dot)}\n`, stderr: '', exitCode: 0 };
    if (has(o, 'd')) return { stdout: dot < 0 ? '' : `${hit.canonical.slice(dot + 1)}\n`, stderr: '', exitCode: 0 };
    return { stdout: `${hit.addrs.join(' ')}\n`, stderr: '', exitCode: 0 };
  }
  if (has(o, 's')) return { stdout: `${name.split('.')[0]}\n`, stderr: '', exitCode: 0 };
  // sethostname(2) in a container without CAP_SYS_ADMIN
  if (has(o, 'F') || o.operands.length > 0) return { stdout: '', stderr: 'hostname: sethostname: Operation not permitted\n', exitCode: 1 };
  return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
}

/** hostname 3.23's usage (printed on stdout after an unknown option). */
const USAGE = "Usage: hostname [-b] {hostname|-F file}         set host name (from file)\n       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       display formatted name\n       hostname                                 display host name\n\n       {yp,nis,}domainname {nisdomain|-F file}  set NIS domain name (from file)\n       {yp,nis,}domainname                      display NIS domain name\n\n       dnsdomainname                            display dns domain name\n\n       hostname -V|--version|-h|--help          print info and exit\n\nProgram name:\n       {yp,nis,}domainname=hostname -y\n       dnsdomainname=hostname -d\n\nProgram options:\n    -a, --alias            alias names\n    -A, --all-fqdns        all long host names (FQDNs)\n    -b, --boot             set default hostname if none available\n    -d, --domain           DNS domain name\n    -f, --fqdn, --long     long host name (FQDN)\n    -F, --file             read host name or NIS domain name from given file\n    -i, --ip-address       addresses for the host name\n    -I, --all-ip-addresses all addresses for the host\n    -s, --short            short host name\n    -y, --yp, --nis        NIS/YP domain name\n\nDescription:\n   This command can get or set the host name or the NIS domain name. You can\n   also get the DNS domain or the FQDN (fully qualified domain name).\n   Unless you are using bind or NIS for host lookups you can change the\n   FQDN (Fully Qualified Domain Name) and the DNS domain name (which is\n   part of the FQDN) in the /etc/hosts file.\n";

/** The host's addresses as `hostname -I` lists them: no loopback, no IPv6 link-local, IPv4 first. */
function allAddresses(ctx: CommandContext): string[] | undefined {
  const node = nodeEnv(ctx);
  if (node) {
    const addrs = nodeNet(node.cluster, node.host).ifaces.filter((i) => i.link !== 'loopback').flatMap((i) => i.addrs);
    const ips = (fam: 'inet' | 'inet6'): string[] => addrs.filter((a) => a.family === fam && a.scope !== 'link' && a.scope !== 'host').map((a) => a.cidr.split('/')[0]!);
    return [...ips('inet'), ...ips('inet6')];
  }
  const env = hostEnv(ctx);
  return env ? [env.host.ip, ...(env.host.data.ip6 ? [env.host.data.ip6] : [])] : undefined;
}

export const hostname: CommandFn = (ctx) => {
  const name = shellExtras(ctx).hostname ?? (ctx.location.kind === 'pod' ? ctx.location.pod : ctx.location.host);
  if (isBusybox(ctx)) return busyboxHostname(ctx, name);
  const arg = ctx.argv[1];
  const bad = arg?.startsWith('-') && !arg.startsWith('--') ? [...arg.slice(1)].find((ch) => !'aAbdfFhiIsVy'.includes(ch)) : undefined;
  if (bad !== undefined) return { stdout: USAGE, stderr: `hostname: invalid option -- '${bad}'\n`, exitCode: 255 };
  if (arg === '-I' || arg === '--all-ip-addresses') {
    const ips = allAddresses(ctx);
    if (ips) return { stdout: `${ips.map((ip) => `${ip} `).join('')}\n`, stderr: '', exitCode: 0 };
  }
  if (arg === '-d' || arg === '--domain') return { stdout: name.includes('.') ? `${name.slice(name.indexOf('.') + 1)}\n` : '', stderr: '', exitCode: 0 };
  if (arg === '-s' || arg === '--short') return { stdout: `${name.split('.')[0]}\n`, stderr: '', exitCode: 0 };
  if (arg !== undefined && !arg.startsWith('-')) {
    if (ctx.user === 'root') return { stdout: '', stderr: '', exitCode: 0 };
    return { stdout: '', stderr: 'hostname: you must be root to change the host name\n', exitCode: 1 };
  }
  return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
};
