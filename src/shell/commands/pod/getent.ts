/**
 * `getent hosts NAME` (glibc): /etc/hosts first (nsswitch `hosts: files dns`), then DNS.
 * Other databases are not simulated beyond the client's own error text.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { getent as getentClient } from '../../../sim/dns/clients/getent.js';
import { runDnsClient } from './dns-client.js';
import { result } from './net.js';

export function getent(ctx: CommandContext): ShellResult {
  const [db, key] = ctx.argv.slice(1);
  if (db === 'hosts' && key !== undefined) {
    for (const raw of (ctx.fs.tryRead('/etc/hosts') ?? '').split('\n')) {
      const f = raw.replace(/#.*/, '').trim().split(/\s+/);
      if (f.length >= 2 && (f.slice(1).includes(key) || f[0] === key)) return result(`${f[0]!.padEnd(15)} ${f.slice(1).join(' ')}\n`, '', 0);
    }
  }
  return runDnsClient(ctx, 'getent', getentClient);
}
