/**
 * bind9 9.18 `nslookup [-type=TYPE] name [server]` (bin/dig/nslookup.c printmessage, dighost.c
 * check_ra): search list with ndots, `;; Got recursion not available from SERVER` for every reply
 * without RA when the server comes from resolv.conf, A then AAAA of the CNAME-resolved name.
 * A server given by name is resolved first (dighost.c set_nameserver: fatal `nslookup: couldn't
 * get address for …`, exit 10 through digexit — nslookup sets no fatalexit) and shown as
 * `Server:\t\tNAME` / `Address:\tIP#53`. `-vc` queries over TCP (TCP_TIMEOUT 10 s per try).
 * A truncated UDP answer prints `;; Truncated, retrying in TCP mode.` and is asked again over TCP,
 * as are the queries after it (bind9Sender).
 */
import { isIP, isQType, reverseName, unfqdn, type DnsMessage, type QType, type RR } from '../message.js';
import { parseResolvConf } from '../resolv-conf.js';
import { bind9Lookup, bind9Sender } from '../stub/bind9.js';
import { bind9ServerError, lookupServer } from './server.js';
import type { ClientInput, ClientResult } from './types.js';

function recordText(r: RR): string {
  const owner = unfqdn(r.name);
  switch (r.type) {
    case 'A':
    case 'AAAA':
      return `Name:\t${owner}\nAddress: ${r.address}\n`;
    case 'CNAME':
      return `${owner}\tcanonical name = ${r.target}\n`;
    case 'PTR':
      return `${owner}\tname = ${r.target}\n`;
    case 'NS':
      return `${owner}\tnameserver = ${r.target}\n`;
    case 'MX':
      return `${owner}\tmail exchanger = ${r.preference} ${r.exchange}\n`;
    case 'TXT':
      return `${owner}\ttext = ${r.texts.map((t) => `"${t}"`).join(' ')}\n`;
    case 'SRV':
      return `${owner}\tservice = ${r.priority} ${r.weight} ${r.port} ${r.target}\n`;
    case 'HINFO':
      // nslookup.c printsection default: the lower-case type name, then the rdata text.
      return `${owner}\thinfo = "${r.cpu}" "${r.os}"\n`;
    case 'SOA':
      return `${owner}\n\torigin = ${r.mname}\n\tmail addr = ${r.rname}\n\tserial = ${r.serial}\n\trefresh = ${r.refresh}\n\tretry = ${r.retry}\n\texpire = ${r.expire}\n\tminimum = ${r.minimum}\n`;
  }
}

export function nslookupBind9(input: ClientInput): ClientResult {
  let type: QType | undefined;
  let tcp = false;
  const pos: string[] = [];
  for (const a of input.args) {
    if (a === '-vc' || a === '-novc') {
      tcp = a === '-vc';
      continue;
    }
    const m = /^-(?:type|query|querytype|q|t)=(.*)$/i.exec(a);
    if (m) {
      const t = (m[1] ?? '').toUpperCase();
      if (isQType(t)) type = t;
    } else if (a.startsWith('-')) continue;
    else pos.push(a);
  }
  const name = pos[0];
  if (name === undefined) return { stdout: '', stderr: '', exitCode: 1, elapsedMs: 0 };
  const rc = parseResolvConf(input.resolvConf);
  const explicit = pos[1] !== undefined;
  const named = pos[1];
  let server = rc.nameservers[0] ?? '127.0.0.1';
  let elapsed = 0;
  if (named !== undefined) {
    const found = lookupServer(input, named);
    elapsed += found.elapsedMs;
    if (!found.ok) return { stdout: '', stderr: bind9ServerError('nslookup', named, found.error), exitCode: 10, elapsedMs: elapsed };
    server = found.addresses[0] ?? named;
  }
  const sender = bind9Sender((s, n, t, o, proto) => input.query(s, n, t, { ...o, proto }), tcp);
  const query = sender.query;
  const ptr = isIP(name);
  const target = ptr ? (reverseName(name) ?? name) : name;
  const firstType: QType = type ?? (ptr ? 'PTR' : 'A');
  let out = '';
  const raLines = (replies: (DnsMessage | 'timeout' | 'refused')[]): void => {
    if (explicit) return;
    for (const r of replies) {
      if (r === 'timeout' || r === 'refused') continue;
      // recv_done: the truncation line, then check_ra on the TCP reply (the UDP one is dropped)
      if (sender.retried.has(r)) out += ';; Truncated, retrying in TCP mode.\n';
      if (!r.flags.ra) out += `;; Got recursion not available from ${server}\n`;
    }
  };
  const steps = bind9Lookup(target, firstType, rc, server, query, !ptr);
  raLines(steps.map((s) => s.reply));
  const last = steps[steps.length - 1];
  if (!last || last.reply === 'timeout' || last.reply === 'refused') {
    if (sender.retryFailed()) out += ';; Truncated, retrying in TCP mode.\n';
    const why = last?.reply === 'refused' ? 'connection refused' : 'timed out';
    const line = sender.proto() === 'tcp' ? `;; Connection to ${server}#53(${server}) for ${name} failed: ${why}.\n` : `;; communications error to ${server}#53: ${why}\n`;
    const waited = why === 'timed out' ? (sender.proto() === 'tcp' ? 30000 : 15000) : 0;
    // over TCP each failed connection ends a lookup with its own line (recorded, testdata/tc)
    const failures = sender.proto() === 'tcp' ? `${line};; no servers could be reached\n`.repeat(3) : `${line.repeat(3)};; no servers could be reached\n`;
    return { stdout: `${out}${failures}\n`, stderr: '', exitCode: 1, elapsedMs: elapsed + waited };
  }
  const reply = last.reply;
  if (!ptr) out += `Server:\t\t${named ?? server}\nAddress:\t${server}#53\n\n`;
  if (reply.rcode !== 'NOERROR') {
    const shown = reply.rcode === 'NXDOMAIN' && !name.endsWith('.') && steps.length > 1 ? name : unfqdn(last.name);
    out += `** server can't find ${shown}: ${reply.rcode}\n\n`;
    return { stdout: out, stderr: '', exitCode: 1, elapsedMs: elapsed };
  }
  const wanted = reply.answer.filter((r) => r.type === firstType || r.type === 'CNAME');
  if (!reply.flags.aa && firstType === 'A' && wanted.length > 0) out += 'Non-authoritative answer:\n';
  for (const r of wanted) out += recordText(r);
  let aaaaFound = false;
  if (type === undefined && !ptr) {
    const cn = reply.answer.filter((r) => r.type === 'CNAME');
    const lc = cn[cn.length - 1];
    const resolved = lc && lc.type === 'CNAME' ? lc.target : last.name;
    const r6 = query(server, resolved, 'AAAA');
    raLines([r6]);
    if (r6 !== 'timeout' && r6 !== 'refused' && r6.rcode === 'NOERROR') {
      const recs = r6.answer.filter((r) => r.type === 'AAAA');
      aaaaFound = recs.length > 0;
      for (const r of recs) out += recordText(r);
    }
  }
  if (!wanted.some((r) => r.type === firstType) && !aaaaFound) out += `*** Can't find ${name.replace(/\.$/, '')}: No answer\n`;
  out += '\n';
  return { stdout: out, stderr: '', exitCode: 0, elapsedMs: elapsed };
}
