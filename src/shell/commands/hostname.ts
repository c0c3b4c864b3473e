/**
 * hostname — net-tools/hostname: print the host's name (-s short form); setting it needs root.
 * Inside a busybox container (networking/hostname.c) `-i` prints the address the name resolves to
 * through /etc/hosts, the kubelet-managed file that maps the pod IP to its hostname (recorded from
 * busybox 1.35: the first matching line's address, no trailing space).
 */
import type { CommandFn } from '../types.js';
import { busyboxTools } from './flavour.js';
import { shellExtras } from './types.js';

/** The address of the first /etc/hosts line naming `name`, as gethostbyname(3) reads the file. */
function hostsAddress(text: string, name: string): string | undefined {
  for (const raw of text.split('\n')) {
    const [addr, ...names] = raw.replace(/#.*/, '').trim().split(/\s+/);
    if (addr && names.includes(name)) return addr;
  }
  return undefined;
}

export const hostname: CommandFn = (ctx) => {
  const name = shellExtras(ctx).hostname ?? (ctx.location.kind === 'pod' ? ctx.location.pod : ctx.location.host);
  const arg = ctx.argv[1];
  if (arg === '-s' || arg === '--short') return { stdout: `${name.split('.')[0]}\n`, stderr: '', exitCode: 0 };
  if (arg === '-i' && busyboxTools(ctx)) {
    const addr = hostsAddress(ctx.fs.tryRead('/etc/hosts') ?? '', name);
    if (addr) return { stdout: `${addr}\n`, stderr: '', exitCode: 0 };
  }
  if (arg !== undefined && !arg.startsWith('-')) {
    if (ctx.user === 'root') return { stdout: '', stderr: '', exitCode: 0 };
    return { stdout: '', stderr: 'hostname: you must be root to change the host name\n', exitCode: 1 };
  }
  return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
};
