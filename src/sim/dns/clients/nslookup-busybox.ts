/**
 * busybox 1.36 `nslookup [-type=TYPE] [-debug] HOST [SERVER]` (networking/nslookup.c). Replies are
 * printed in send order; each failing reply prints `** server can't find NAME: RCODE` and makes the
 * exit status 1, which gives seed 000's short-name quirk (`nslookup web` → address plus
 * `** server can't find web.svc.cluster.local: NXDOMAIN`).
 * A DNS_SERVER given by name goes through getaddrinfo first (add_ns → xhost2sockaddr, which dies
 * with libbb's `nslookup: bad address 'NAME'`, exit 1); the header then shows `Server:\t\tNAME`
 * (ns->name) and `Address:\tIP:53`. `SERVER:PORT` (or `[IPV6]:PORT`) asks that port: add_ns passes
 * G.default_port to xhost2sockaddr, which splits the port off (libbb/xconnect.c str2sockaddr); the
 * header then reads `Server:\t\tIP:PORT` / `Address:\tIP:PORT`.
 */
import { isQType, unfqdn, type DnsMessage, type QType, type RR } from '../message.js';
import { parseResolvConf } from '../resolv-conf.js';
import { busyboxQueries } from '../stub/busybox-nslookup.js';
import { busyboxServerArg, lookupServer } from './server.js';
import type { ClientInput, ClientResult } from './types.js';

function recordLines(r: RR): string {
  const owner = unfqdn(r.name);
  switch (r.type) {
    case 'A':
    case 'AAAA':
      return `Name:\t${owner}\nAddress: ${r.address}\n`;
    case 'CNAME':
      return `${owner}\tcanonical name = ${unfqdn(r.target)}\n`;
    case 'PTR':
      return `${owner}\tname = ${unfqdn(r.target)}\n`;
    case 'NS':
      return `${owner}\tnameserver = ${unfqdn(r.target)}\n`;
    case 'MX':
      return `${owner}\tmail exchanger = ${r.preference} ${unfqdn(r.exchange)}\n`;
    case 'TXT':
      return `${owner}\ttext = ${r.texts.map((t) => `"${t}"`).join(' ')}\n`;
    case 'SRV':
      return `${owner}\tservice = ${r.priority} ${r.weight} ${r.port} ${unfqdn(r.target)}\n`;
    case 'HINFO':
      // busybox nslookup.c parse_reply prints only the types it knows (A, AAAA, CNAME, MX, NS, PTR, SOA, SRV, TXT).
      return '';
    case 'SOA':
      return `${owner}\n\torigin = ${unfqdn(r.mname)}\n\tmail addr = ${unfqdn(r.rname)}\n\tserial = ${r.serial}\n\trefresh = ${r.refresh}\n\tretry = ${r.retry}\n\texpire = ${r.expire}\n\tminimum = ${r.minimum}\n`;
  }
}

/** `search: false` is busybox 1.29.x (no search list yet, see stub/busybox-nslookup.ts). */
export function nslookupBusybox(input: ClientInput, search = true): ClientResult {
  let types: QType[] | undefined;
  const positional: string[] = [];
  for (const a of input.args) {
    const m = /^-(?:type|query|t|q)=(.*)$/i.exec(a);
    if (m) {
      const t = (m[1] ?? '').toUpperCase();
      if (!isQType(t)) return { stdout: '', stderr: `nslookup: invalid query type "${m[1] ?? ''}"\n`, exitCode: 1, elapsedMs: 0 };
      types = [t];
    } else if (a === '-debug' || a === '-nodebug') continue;
    else positional.push(a);
  }
  const host = positional[0];
  if (host === undefined || positional.length > 2) {
    return {
      stdout: '',
      stderr:
        'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n\nQuery DNS about HOST\n\nQUERY_TYPE: soa,ns,a,aaaa,cname,mx,txt,ptr,srv,any\n',
      exitCode: 1,
      elapsedMs: 0,
    };
  }
  const rc = positional[1] === undefined ? parseResolvConf(input.resolvConf) : undefined;
  const named = positional[1];
  let server = rc?.nameservers[0] ?? '127.0.0.1';
  let port = 53;
  let resolveMs = 0;
  if (named !== undefined) {
    const arg = busyboxServerArg('nslookup', named);
    if (!arg.ok) return { stdout: '', stderr: arg.error, exitCode: 1, elapsedMs: 0 };
    port = arg.port;
    const found = lookupServer(input, arg.host);
    resolveMs = found.elapsedMs;
    if (!found.ok) return { stdout: '', stderr: `nslookup: bad address '${named}'\n`, exitCode: 1, elapsedMs: resolveMs };
    server = found.addresses[0] ?? arg.host;
  }
  const shownName = named ?? server;
  const queries = busyboxQueries(host, types, rc, search);
  const replies: (DnsMessage | 'timeout' | 'refused')[] = queries.map((q) => input.query(server, q.name, q.type, { port }));
  if (replies.some((r) => r === 'refused')) {
    return {
      stdout: ';; connection timed out; no servers could be reached\n\n',
      stderr: `nslookup: write to '${shownName}': Connection refused\n`,
      exitCode: 1,
      elapsedMs: resolveMs + 5000,
    };
  }
  if (replies.every((r) => r === 'timeout')) {
    return { stdout: ';; connection timed out; no servers could be reached\n\n', stderr: '', exitCode: 1, elapsedMs: resolveMs + 5000 };
  }
  let out = `Server:\t\t${shownName}\nAddress:\t${server.includes(':') ? `[${server}]` : server}:${port}\n\n`;
  let exit = 0;
  let elapsed = 0;
  queries.forEach((q, i) => {
    const r = replies[i];
    if (r === undefined || r === 'refused') return;
    if (r === 'timeout') {
      elapsed = 5000;
      exit = 1;
      return;
    }
    if (r.rcode !== 'NOERROR') {
      out += `** server can't find ${unfqdn(q.name)}: ${r.rcode}\n\n`;
      exit = 1;
      return;
    }
    if (!r.flags.aa) out += 'Non-authoritative answer:\n';
    for (const rr of r.answer) out += recordLines(rr);
    out += '\n';
  });
  return { stdout: out, stderr: '', exitCode: exit, elapsedMs: resolveMs + elapsed };
}
