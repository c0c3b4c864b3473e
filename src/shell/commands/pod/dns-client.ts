/** Runs one of the DNS client emulations (src/sim/dns/clients) over the simulated network. */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { ClientInput, ClientResult, ServerLookup } from '../../../sim/dns/clients/types.js';
import { parseResolvConf, resolverOptions } from '../../../sim/dns/resolv-conf.js';
import { glibcResolve } from '../../../sim/dns/stub/glibc.js';
import { muslResolve } from '../../../sim/dns/stub/musl.js';
import { dnsSession, dnsWhy, flavourOf, recordWhy, result, type DnsSession } from './net.js';

/** IPv4 addresses /etc/hosts gives a name (getaddrinfo's `files` source comes before `dns`). */
function hostsAddresses(hosts: string, name: string): string[] {
  const out: string[] = [];
  for (const raw of hosts.split('\n')) {
    const f = raw.replace(/#.*/, '').trim().split(/\s+/);
    const ip = f[0] ?? '';
    if (f.length >= 2 && /^\d+\.\d+\.\d+\.\d+$/.test(ip) && f.slice(1).includes(name) && !out.includes(ip)) out.push(ip);
  }
  return out;
}

/**
 * getaddrinfo in the container for a server argument given by name: /etc/hosts, then the pod's
 * resolv.conf with the image's stub-resolver rules (musl in Alpine, glibc elsewhere). EAI_NONAME /
 * EAI_NODATA map to bind9's "not found", EAI_AGAIN / EAI_FAIL to "failure" (lib/isc/getaddresses.c).
 */
export function serverResolver(ctx: CommandContext, s: DnsSession): (name: string) => ServerLookup {
  return (name) => {
    const fromHosts = hostsAddresses(ctx.fs.tryRead('/etc/hosts') ?? '', name);
    if (fromHosts.length > 0) return { ok: true, addresses: fromHosts, elapsedMs: 0 };
    const rc = parseResolvConf(s.resolvConf);
    const r = flavourOf(ctx) === 'musl' ? muslResolve(name, rc, s.query) : glibcResolve(name, 'A', rc, s.query);
    if (r.status === 'found') {
      const addresses = r.records.flatMap((x) => (x.type === 'A' ? [x.address] : []));
      if (addresses.length > 0) return { ok: true, addresses, elapsedMs: 0 };
      return { ok: false, error: 'not found', elapsedMs: 0 };
    }
    if (r.status === 'NXDOMAIN' || r.status === 'NODATA') return { ok: false, error: 'not found', elapsedMs: 0 };
    const opts = resolverOptions(rc);
    const waited = r.status === 'TIMEOUT' ? opts.timeoutS * 1000 * opts.attempts * Math.max(1, rc.nameservers.length) : 0;
    return { ok: false, error: 'failure', elapsedMs: waited };
  };
}

export function runDnsClient(ctx: CommandContext, name: string, client: (input: ClientInput) => ClientResult): ShellResult {
  const c = ctx.cluster;
  if (!c) return result('', `${name}: network is unreachable\n`, 1);
  const s = dnsSession(ctx, c);
  const r = client({ args: ctx.argv.slice(1), resolvConf: s.resolvConf, hosts: ctx.fs.tryRead('/etc/hosts') ?? '', query: s.query, clock: c.clock, random: c.random, resolveServer: serverResolver(ctx, s) });
  recordWhy(c, name, [`$ ${ctx.argv.join(' ')}`, ...dnsWhy(s)]);
  return result(r.stdout, r.stderr, r.exitCode, r.elapsedMs);
}
