/**
 * bind9 9.18 `host [-T] [-t type] name [server]` (bin/dig/host.c): default A, then AAAA and MX of
 * the CNAME-resolved name, printing only what exists; `Host NAME not found: 3(NXDOMAIN)`. A server
 * given by name is resolved first (fatal `host: couldn't get address for …`, exit 1: host.c sets
 * fatalexit = 1); the `Using domain server:` block is printed with the first reply (printmessage).
 * `-T` uses TCP (tries = 2, TCP_TIMEOUT 10 s each).
 */
import { isIP, isQType, RCODE_NUMBER, reverseName, unfqdn, rdataText, type DnsMessage, type QType, type RR } from '../message.js';
import { parseResolvConf } from '../resolv-conf.js';
import { bind9Lookup } from '../stub/bind9.js';
import { bind9ServerError, lookupServer } from './server.js';
import type { QueryFn } from '../stub/query.js';
import type { ClientInput, ClientResult } from './types.js';

function phrase(r: RR): string {
  const owner = unfqdn(r.name);
  switch (r.type) {
    case 'A':
      return `${owner} has address ${r.address}`;
    case 'AAAA':
      return `${owner} has IPv6 address ${r.address}`;
    case 'CNAME':
      return `${owner} is an alias for ${r.target}`;
    case 'PTR':
      return `${owner} domain name pointer ${r.target}`;
    case 'MX':
      return `${owner} mail is handled by ${r.preference} ${r.exchange}`;
    case 'NS':
      return `${owner} name server ${r.target}`;
    case 'TXT':
      return `${owner} descriptive text ${rdataText(r)}`;
    default:
      return `${owner} has ${r.type} record ${rdataText(r)}`;
  }
}

export function host(input: ClientInput): ClientResult {
  let type: QType | undefined;
  let tcp = false;
  const pos: string[] = [];
  for (let i = 0; i < input.args.length; i++) {
    const a = input.args[i] ?? '';
    if (a === '-t') {
      const t = (input.args[++i] ?? '').toUpperCase();
      if (!isQType(t)) return { stdout: '', stderr: `host: invalid type: ${input.args[i] ?? ''}\n`, exitCode: 1, elapsedMs: 0 };
      type = t;
    } else if (a === '-T') tcp = true;
    else if (a.startsWith('-')) continue;
    else pos.push(a);
  }
  const name = pos[0];
  if (name === undefined) {
    return { stdout: '', stderr: 'Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n            [-R number] [-m flag] [-p port] hostname [server]\n', exitCode: 1, elapsedMs: 0 };
  }
  const rc = parseResolvConf(input.resolvConf);
  let server = rc.nameservers[0] ?? '127.0.0.1';
  let elapsed = 0;
  if (pos[1] !== undefined) {
    const found = lookupServer(input, pos[1]);
    elapsed += found.elapsedMs;
    if (!found.ok) return { stdout: '', stderr: bind9ServerError('host', pos[1], found.error), exitCode: 1, elapsedMs: elapsed };
    server = found.addresses[0] ?? pos[1];
  }
  const proto = tcp ? 'tcp' : 'udp';
  const query: QueryFn = (s, n, t, o) => input.query(s, n, t, { ...o, proto });
  const header = pos[1] !== undefined ? `Using domain server:\nName: ${pos[1]}\nAddress: ${server}#53\nAliases: \n\n` : '';
  let out = '';
  let answered = false;
  const ptr = isIP(name);
  const target = ptr ? (reverseName(name) ?? name) : name;
  const types: QType[] = type ? [type] : ptr ? ['PTR'] : ['A', 'AAAA', 'MX'];
  let resolved: string | undefined;
  const printed = new Set<string>();
  let exit = 0;
  for (const t of types) {
    const steps = resolved === undefined ? bind9Lookup(target, t, rc, server, query, !ptr) : [{ name: resolved, server, reply: query(server, resolved, t) }];
    const last = steps[steps.length - 1];
    if (!last) break;
    const reply: DnsMessage | 'timeout' | 'refused' = last.reply;
    if (reply === 'timeout' || reply === 'refused') {
      const why = reply === 'timeout' ? 'timed out' : 'connection refused';
      const line = tcp ? `;; Connection to ${server}#53(${server}) for ${name} failed: ${why}.\n` : `;; communications error to ${server}#53: ${why}\n`;
      const waited = reply === 'timeout' ? (tcp ? 20000 : 10000) : 0;
      return { stdout: `${answered ? header + out : ''}${line}${line};; no servers could be reached\n`, stderr: '', exitCode: 1, elapsedMs: elapsed + waited };
    }
    answered = true;
    if (reply.rcode !== 'NOERROR') {
      const shown = reply.rcode === 'NXDOMAIN' ? name : unfqdn(last.name);
      out += `Host ${shown} not found: ${RCODE_NUMBER[reply.rcode]}(${reply.rcode})\n`;
      exit = 1;
      break;
    }
    if (resolved === undefined) {
      const cn = reply.answer.filter((r) => r.type === 'CNAME');
      const lastCname = cn[cn.length - 1];
      resolved = lastCname && lastCname.type === 'CNAME' ? lastCname.target : last.name;
    }
    const recs = reply.answer.filter((r) => r.type === t || r.type === 'CNAME');
    for (const r of recs) {
      const line = phrase(r);
      if (printed.has(line)) continue;
      printed.add(line);
      out += `${line}\n`;
    }
    if (type && !recs.some((r) => r.type === t)) out += `${unfqdn(last.name)} has no ${t} record\n`;
  }
  return { stdout: header + out, stderr: '', exitCode: exit, elapsedMs: elapsed };
}
