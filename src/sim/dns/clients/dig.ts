/**
 * dig 9.18 (bin/dig/dig.c, dighost.c, lib/dns/message.c): `dig [@server] [-x addr] [-t type] name
 * [type] [+short] [+noall] [+answer] [+search] [+tcp|+vc] [+time=N] [+tries=N]`. Full output with
 * header, OPT pseudosection (CoreDNS echoes the client's COOKIE), sections, stats; exit 0 when any
 * reply arrived, 9 when no server answered, 10 when `@NAME` does not resolve (dighost.c fatal →
 * digexit). `+tcp` sends the query over TCP: a failed connect prints dighost.c tcp_connected's
 * `;; Connection to IP#53(IP) for NAME failed: timed out.` per try (TCP_TIMEOUT 10 s each).
 */
import { flagsText, isQType, reverseName, wireSize, rdataText, type DnsMessage, type QType } from '../message.js';
import { parseResolvConf } from '../resolv-conf.js';
import { bind9Candidates } from '../stub/bind9.js';
import { digQuestionLine, digRecordLine } from './format-bind.js';
import { bind9ServerError, lookupServer } from './server.js';
import type { ClientInput, ClientResult } from './types.js';

export const DIG_VERSION = '9.18.49-1~deb12u3-Debian';
/** RFC 8914 info codes dig names (BIND's ede_name table), for the codes CoreDNS plugins here send. */
const EDE_NAMES: Record<number, string> = { 15: 'Blocked', 17: 'Filtered' };
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** strftime `%a %b %d %H:%M:%S %Z %Y` in UTC. */
export function digWhen(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()] ?? ''} ${MONTHS[d.getUTCMonth()] ?? ''} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

function hex(n: number, r: { int(n: number): number }): string {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[r.int(16)] ?? '0';
  return s;
}

export function dig(input: ClientInput): ClientResult {
  let server: string | undefined;
  let name: string | undefined;
  let type: QType | undefined;
  let short = false;
  let showAll = true;
  let showAnswer = true;
  let search = false;
  let tcp = false;
  let tries = 3;
  const args = input.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a.startsWith('@')) server = a.slice(1);
    else if (a === '-x') {
      const ip = args[++i] ?? '';
      name = reverseName(ip) ?? ip;
      type = type ?? 'PTR';
    } else if (a === '-t') {
      const t = (args[++i] ?? '').toUpperCase();
      if (isQType(t)) type = t;
    } else if (a === '+short') short = true;
    else if (a === '+noall') {
      showAll = false;
      showAnswer = false;
    } else if (a === '+answer') showAnswer = true;
    else if (a === '+search') search = true;
    else if (a === '+nosearch') search = false;
    else if (a === '+tcp' || a === '+vc') tcp = true;
    else if (a === '+notcp' || a === '+novc') tcp = false;
    else if (/^\+tries=\d+$/.test(a)) tries = Number(a.slice(7));
    else if (/^\+retry=\d+$/.test(a)) tries = Number(a.slice(7)) + 1;
    else if (a.startsWith('+')) continue;
    else if (isQType(a.toUpperCase()) && type === undefined) type = a.toUpperCase() as QType;
    else if (a.toUpperCase() === 'IN') continue;
    else if (name === undefined) name = a;
  }
  const rc = parseResolvConf(input.resolvConf);
  let elapsed = 0;
  let servers: string[];
  if (server !== undefined) {
    const found = lookupServer(input, server);
    elapsed += found.elapsedMs;
    if (!found.ok) return { stdout: '', stderr: bind9ServerError('dig', server, found.error), exitCode: 10, elapsedMs: elapsed };
    servers = found.addresses;
  } else servers = [rc.nameservers[0] ?? '127.0.0.1'];
  const qname = name ?? '.';
  const qtype: QType = type ?? (name === undefined ? 'NS' : 'A');
  const candidates = bind9Candidates(qname, rc, search && server === undefined);
  const edns = { udpSize: 1232, do: false, cookie: hex(16, input.random) };
  const n = servers.length;
  const banner = `\n; <<>> DiG ${DIG_VERSION} <<>> ${args.join(' ')}\n${server !== undefined ? `; (${n} server${n > 1 ? 's' : ''} found)\n` : ''};; global options: +cmd\n`;
  const proto = tcp ? 'tcp' : 'udp';
  let reply: DnsMessage | undefined;
  let srv = servers[0] ?? '127.0.0.1';
  let comms = '';
  for (const cand of candidates) {
    let r: DnsMessage | 'timeout' | 'refused' = 'timeout';
    for (const ip of servers) {
      srv = ip;
      for (let t = 0; t < Math.max(1, tries); t++) {
        r = input.query(ip, cand, qtype, { edns, proto });
        if (r !== 'timeout' && r !== 'refused') break;
        const why = r === 'timeout' ? 'timed out' : 'connection refused';
        // dighost.c: recv_done (UDP) vs tcp_connected (TCP, servname = the address).
        comms += tcp ? `;; Connection to ${ip}#53(${ip}) for ${qname} failed: ${why}.\n` : `;; communications error to ${ip}#53: ${why}\n`;
        elapsed += r === 'timeout' ? (tcp ? 10000 : 5000) : 0;
      }
      if (r !== 'timeout' && r !== 'refused') break;
    }
    if (r === 'timeout' || r === 'refused') break;
    reply = r;
    if (r.rcode !== 'NXDOMAIN') break;
  }
  if (!reply) {
    // tcp_connected ends with dighost_error alone; recv_done prints the command line first.
    if (short || tcp) return { stdout: comms + ';; no servers could be reached\n', stderr: '', exitCode: 9, elapsedMs: elapsed };
    return { stdout: `${comms}${banner};; no servers could be reached\n`, stderr: '', exitCode: 9, elapsedMs: elapsed };
  }
  if (short) {
    return { stdout: reply.answer.map((r) => `${rdataText(r)}\n`).join(''), stderr: '', exitCode: 0, elapsedMs: elapsed };
  }
  if (!showAll) {
    const body = showAnswer ? reply.answer.map((r) => `${digRecordLine(r)}\n`).join('') : '';
    return { stdout: body, stderr: '', exitCode: 0, elapsedMs: elapsed };
  }
  const q = reply.question[0];
  let out = `${banner};; Got answer:\n`;
  if (q && /\.local\.$/i.test(q.name)) {
    out += ';; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n';
  }
  const additionalCount = reply.additional.length + (reply.edns ? 1 : 0);
  out += `;; ->>HEADER<<- opcode: QUERY, status: ${reply.rcode}, id: ${reply.id}\n`;
  out += `;; flags: ${flagsText(reply.flags, ' ')}; QUERY: ${reply.question.length}, ANSWER: ${reply.answer.length}, AUTHORITY: ${reply.authority.length}, ADDITIONAL: ${additionalCount}\n`;
  if (reply.flags.rd && !reply.flags.ra) out += ';; WARNING: recursion requested but not available\n';
  out += '\n';
  if (reply.edns) {
    out += `;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:${reply.edns.do ? ' do' : ''}; udp: ${reply.edns.udpSize}\n`;
    if (reply.edns.cookie) out += `; COOKIE: ${reply.edns.cookie} (echoed)\n`;
    if (reply.edns.ede !== undefined) out += `; EDE: ${reply.edns.ede}${EDE_NAMES[reply.edns.ede] ? ` (${EDE_NAMES[reply.edns.ede] ?? ''})` : ''}\n`;
  }
  if (q) out += `;; QUESTION SECTION:\n${digQuestionLine(q)}\n\n`;
  const section = (title: string, rrs: typeof reply.answer): void => {
    if (rrs.length === 0) return;
    out += `;; ${title} SECTION:\n${rrs.map((r) => `${digRecordLine(r)}\n`).join('')}\n`;
  };
  section('ANSWER', reply.answer);
  section('AUTHORITY', reply.authority);
  section('ADDITIONAL', reply.additional);
  out += `;; Query time: ${elapsed} msec\n;; SERVER: ${srv}#53(${server ?? srv}) (${tcp ? 'TCP' : 'UDP'})\n;; WHEN: ${digWhen(input.clock.now() + elapsed)}\n;; MSG SIZE  rcvd: ${wireSize(reply)}\n\n`;
  return { stdout: comms + out, stderr: '', exitCode: 0, elapsedMs: elapsed };
}
