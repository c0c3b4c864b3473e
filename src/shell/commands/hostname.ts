/**
 * hostname — net-tools/hostname: print the host's name (-s short form); setting it needs root.
 * In busybox containers busybox's networking/hostname.c: -i, -f and -d resolve the name with
 * gethostbyname(3), which finds it in /etc/hosts (the kubelet's managed file maps the pod's IPs to
 * its hostname), IPv4 only; -i prints the addresses one space apart, -f the canonical name (the
 * first name of the line), -d what follows its first dot.
 */
import type { CommandContext, CommandFn, CommandResult } from '../types.js';
import { busyboxOpts, isBusybox } from './busybox.js';
import { shellExtras } from './types.js';
import { has } from './util.js';

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

export const hostname: CommandFn = (ctx) => {
  const name = shellExtras(ctx).hostname ?? (ctx.location.kind === 'pod' ? ctx.location.pod : ctx.location.host);
  if (isBusybox(ctx)) return busyboxHostname(ctx, name);
  const arg = ctx.argv[1];
  if (arg === '-s' || arg === '--short') return { stdout: `${name.split('.')[0]}\n`, stderr: '', exitCode: 0 };
  if (arg !== undefined && !arg.startsWith('-')) {
    if (ctx.user === 'root') return { stdout: '', stderr: '', exitCode: 0 };
    return { stdout: '', stderr: 'hostname: you must be root to change the host name\n', exitCode: 1 };
  }
  return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
};
