/** Runs one of the DNS client emulations (src/sim/dns/clients) over the simulated network. */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { ClientInput, ClientResult } from '../../../sim/dns/clients/types.js';
import { dnsSession, dnsWhy, recordWhy, result } from './net.js';

export function runDnsClient(ctx: CommandContext, name: string, client: (input: ClientInput) => ClientResult): ShellResult {
  const c = ctx.cluster;
  if (!c) return result('', `${name}: network is unreachable\n`, 1);
  const s = dnsSession(ctx, c);
  const r = client({ args: ctx.argv.slice(1), resolvConf: s.resolvConf, query: s.query, clock: c.clock, random: c.random });
  recordWhy(c, name, [`$ ${ctx.argv.join(' ')}`, ...dnsWhy(s)]);
  return result(r.stdout, r.stderr, r.exitCode, r.elapsedMs);
}
