/**
 * bind9 9.18 `host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time] [-R number] [-m flag]
 * [-p port] hostname [server]` (bin/dig/host.c): default A, then AAAA and MX of the CNAME-resolved
 * name, printing only what exists; `Host NAME not found: 3(NXDOMAIN)`. A server given by name is
 * resolved first (fatal `host: couldn't get address for …`, exit 1: host.c sets fatalexit = 1);
 * the `Using domain server:` block is printed with the first reply (printmessage).
 *
 * Options are read by lib/isc/commandline.c isc_commandline_parse with host.c's optstring
 * `46aAc:dilnm:p:rst:vVwCDN:R:TUW:`: flags may be grouped (`-vT`), a value is the rest of the word
 * or the next word (`-W 2`, `-W2`), parsing stops at the first word that is not an option (so
 * `host web -v` asks the server `-v`) or after `--`. An unknown letter prints
 * `host: illegal option -- X`, a missing value `host: option requires an argument -- X`, then the
 * usage (exit 1). `-t`/`-c` with a bad value are fatal with fatalexit 2 (`host: invalid type: X`
 * and an empty line: fatal() adds a newline to a format that ends in one). `-W N` is the wait per
 * try (at least 1 s; UDP_TIMEOUT 5 s, TCP_TIMEOUT 10 s otherwise), `-R N` makes N+1 tries (at
 * least 2), `-N` sets ndots, `-p` the port, `-r` clears RD, `-T`/`-U` choose TCP/UDP, `-V` prints
 * `host VERSION` to stderr. `-v`/`-d` (and `-a`, which asks ANY) switch to the long form:
 * `Trying "NAME"` for each name tried (dighost.c setup_lookup → trying), then for a reply
 * host.c printmessage's `;; ->>HEADER<<-` / `;; flags:` lines and QUESTION/ANSWER/AUTHORITY/
 * ADDITIONAL sections in dns_master_style_debug (the dig column layout), an empty line and
 * `Received N bytes from IP#PORT in N ms` (host.c received; dighost.c recv_done calls it for a
 * NOERROR reply, the last NXDOMAIN of a search, or a name tried as is). host sends no EDNS, so an
 * answer over 512 bytes comes back truncated and host asks again over TCP, silently (`Trying`
 * twice with -v), and stays on TCP (bind9Sender).
 */
import { isIP, isQType, RCODE_NUMBER, reverseName, unfqdn, rdataText, wireSize, type DnsMessage, type QType, type RR } from '../message.js';
import { parseResolvConf } from '../resolv-conf.js';
import { bind9Lookup, bind9Sender } from '../stub/bind9.js';
import { DIG_VERSION } from './dig.js';
import { digQuestionLine, digRecordLine } from './format-bind.js';
import { bind9ServerError, lookupServer } from './server.js';
import type { ClientInput, ClientResult } from './types.js';

const HOST_USAGE =
  'Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n            [-R number] [-m flag] [-p port] hostname [server]\n       -a is equivalent to -v -t ANY\n       -A is like -a but omits RRSIG, NSEC, NSEC3\n       -c specifies query class for non-IN data\n       -C compares SOA records on authoritative nameservers\n       -d is equivalent to -v\n       -l lists all hosts in a domain, using AXFR\n       -m set memory debugging flag (trace|record|usage)\n       -N changes the number of dots allowed before root lookup is done\n       -p specifies the port on the server to query\n       -r disables recursive processing\n       -R specifies number of retries for UDP packets\n       -s a SERVFAIL response should stop query\n       -t specifies the query type\n       -T enables TCP/IP mode\n       -U enables UDP mode\n       -v enables verbose output\n       -V print version number and exit\n       -w specifies to wait forever for a reply\n       -W specifies how long to wait for a reply\n       -4 use IPv4 query transport only\n       -6 use IPv6 query transport only\n';

interface HostOptions {
  type?: QType;
  defaultLookups: boolean;
  verbose: boolean;
  tcp: boolean;
  rd: boolean;
  port: number;
  tries: number;
  timeoutS?: number;
  ndots?: number;
  /** argv words after the options: hostname [server]. */
  rest: string[];
}

type HostParsed = { ok: true; opts: HostOptions } | { ok: false; result: ClientResult };

const usage = (prefix = ''): HostParsed => ({ ok: false, result: { stdout: '', stderr: prefix + HOST_USAGE, exitCode: 1, elapsedMs: 0 } });

/** isc_commandline_parse over host.c's optstring, then host.c parse_args' switch. */
function parseHostArgs(args: string[]): HostParsed {
  const o: HostOptions = { defaultLookups: true, verbose: false, tcp: false, rd: true, port: 53, tries: 2, rest: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] ?? '';
    if (!word.startsWith('-') || word === '-') break;
    if (word === '--') {
      i++;
      break;
    }
    for (let j = 1; j < word.length; j++) {
      const c = word[j] ?? '';
      const at = '46aAc:dilnm:p:rst:vVwCDN:R:TUW:'.indexOf(c);
      if (c === ':' || at < 0) return usage(`host: illegal option -- ${c}\n`);
      let value: string | undefined;
      if ('46aAc:dilnm:p:rst:vVwCDN:R:TUW:'[at + 1] === ':') {
        if (j + 1 < word.length) value = word.slice(j + 1);
        else if (i + 1 < args.length) value = args[++i];
        else return usage(`host: option requires an argument -- ${c}\n`);
        j = word.length;
      }
      const v = value ?? '';
      switch (c) {
        case 'V':
          return { ok: false, result: { stdout: '', stderr: `host ${DIG_VERSION}\n`, exitCode: 0, elapsedMs: 0 } };
        case 'v':
        case 'd':
          o.verbose = true;
          break;
        case 'a':
        case 'A':
          o.type = 'ANY';
          o.verbose = true;
          o.defaultLookups = false;
          break;
        case 't': {
          const t = v.toUpperCase();
          if (!isQType(t)) return { ok: false, result: { stdout: '', stderr: `host: invalid type: ${v}\n\n`, exitCode: 2, elapsedMs: 0 } };
          o.type = t;
          o.defaultLookups = false;
          if (t === 'ANY' || t === 'AXFR' || t === 'IXFR') o.tcp = true;
          if (t === 'AXFR') o.verbose = true;
          break;
        }
        case 'c':
          if (!/^(IN|CH|CHAOS|HS|HESIOD|NONE|ANY|CLASS\d+)$/i.test(v)) return { ok: false, result: { stdout: '', stderr: `host: invalid class: ${v}\n\n`, exitCode: 2, elapsedMs: 0 } };
          o.defaultLookups = false;
          break;
        case 'W':
          // atoi, at least 1
          o.timeoutS = Math.max(1, Number.parseInt(v, 10) || 0);
          break;
        case 'R':
          o.tries = Math.max(2, (Number.parseInt(v, 10) || 0) + 1);
          break;
        case 'N':
          o.ndots = Number.parseInt(v, 10) || 0;
          break;
        case 'p':
          o.port = Number.parseInt(v, 10) || 0;
          break;
        case 'r':
          o.rd = false;
          break;
        case 'T':
          o.tcp = true;
          break;
        case 'U':
          o.tcp = false;
          break;
        // -4 -6 -i -n -m -s -w -l -C -D: accepted, not simulated
      }
    }
  }
  o.rest = args.slice(i);
  if (o.rest.length === 0) return usage();
  return { ok: true, opts: o };
}

/** host.c printmessage in the long form (short_form false), for a NOERROR reply. */
function verboseMessage(reply: DnsMessage): string {
  let out = `;; ->>HEADER<<- opcode: QUERY, status: ${reply.rcode}, id: ${reply.id}\n`;
  const f = reply.flags;
  const flags = [f.qr && 'qr', f.aa && 'aa', f.tc && 'tc', f.rd && 'rd', f.ra && 'ra', f.ad && 'ad', f.cd && 'cd'].filter(Boolean).join(' ');
  out += `;; flags: ${flags}; QUERY: ${reply.question.length}, ANSWER: ${reply.answer.length}, AUTHORITY: ${reply.authority.length}, ADDITIONAL: ${reply.additional.length + (reply.edns ? 1 : 0)}\n`;
  if (reply.edns) out += `;; EDNS: version: 0, udp=${reply.edns.udpSize}\n`;
  if (reply.question.length > 0) out += `\n;; QUESTION SECTION:\n${reply.question.map((q) => `${digQuestionLine(q)}\n`).join('')}`;
  const section = (title: string, rrs: RR[]): void => {
    if (rrs.length > 0) out += `\n;; ${title} SECTION:\n${rrs.map((r) => `${digRecordLine(r)}\n`).join('')}`;
  };
  section('ANSWER', reply.answer);
  section('AUTHORITY', reply.authority);
  section('ADDITIONAL', reply.additional);
  return `${out}\n`;
}

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
  const parsed = parseHostArgs(input.args);
  if (!parsed.ok) return parsed.result;
  const { type, defaultLookups, verbose, tcp, rd, port, tries, timeoutS, ndots, rest } = parsed.opts;
  const [name = '', serverArg] = rest;
  const parsedRc = parseResolvConf(input.resolvConf);
  const rc = ndots === undefined ? parsedRc : { ...parsedRc, options: [...parsedRc.options, `ndots:${ndots}`] };
  let server = rc.nameservers[0] ?? '127.0.0.1';
  let elapsed = 0;
  if (serverArg !== undefined) {
    const found = lookupServer(input, serverArg);
    elapsed += found.elapsedMs;
    if (!found.ok) return { stdout: '', stderr: bind9ServerError('host', serverArg, found.error), exitCode: 1, elapsedMs: elapsed };
    server = found.addresses[0] ?? serverArg;
  }
  const tried: string[] = [];
  const sender = bind9Sender((s, n, t, o, proto) => {
    tried.push(n);
    return input.query(s, n, t, { ...o, proto, port, ...(rd ? {} : { rd: false }) });
  }, tcp);
  const query = sender.query;
  let header = serverArg !== undefined ? `Using domain server:\nName: ${serverArg}\nAddress: ${server}#${port}\nAliases: \n\n` : '';
  /** printmessage prints the server block once, before its first message. */
  const withHeader = (text: string): string => {
    const h = header;
    header = '';
    return h + text;
  };
  let out = '';
  const ptr = isIP(name);
  const target = ptr ? (reverseName(name) ?? name) : name;
  const types: QType[] = type ? [type] : ptr ? ['PTR'] : defaultLookups ? ['A', 'AAAA', 'MX'] : ['A'];
  let resolved: string | undefined;
  const printed = new Set<string>();
  let exit = 0;
  const trying = (n: string): string => (verbose ? `Trying "${unfqdn(n)}"\n` : '');
  for (const t of types) {
    tried.length = 0;
    const steps = resolved === undefined ? bind9Lookup(target, t, rc, server, query, !ptr) : [{ name: resolved, server, reply: query(server, resolved, t) }];
    const last = steps[steps.length - 1];
    if (!last) break;
    out += tried.map(trying).join('');
    const reply: DnsMessage | 'timeout' | 'refused' = last.reply;
    if (reply === 'timeout' || reply === 'refused') {
      const why = reply === 'timeout' ? 'timed out' : 'connection refused';
      const onTcp = sender.proto() === 'tcp';
      const line = onTcp ? `;; Connection to ${server}#${port}(${server}) for ${name} failed: ${why}.\n` : `;; communications error to ${server}#${port}: ${why}\n`;
      // each try waits -W seconds, else UDP_TIMEOUT 5 s / TCP_TIMEOUT 10 s (dighost.c)
      const waited = reply === 'timeout' ? tries * (timeoutS ?? (onTcp ? 10 : 5)) * 1000 : 0;
      // over TCP each failed connection ends a lookup with its own line (recorded, testdata/tc)
      const failures = onTcp ? `${line};; no servers could be reached\n`.repeat(tries) : `${line.repeat(tries)};; no servers could be reached\n`;
      return { stdout: `${out}${failures}`, stderr: '', exitCode: 1, elapsedMs: elapsed + waited };
    }
    const asIs = last.name === (target.endsWith('.') ? target : `${target}.`);
    const received = verbose && (reply.rcode === 'NOERROR' || reply.rcode === 'NXDOMAIN' || asIs) ? `Received ${wireSize(reply)} bytes from ${server}#${port} in 0 ms\n` : '';
    if (reply.rcode !== 'NOERROR') {
      const shown = reply.rcode === 'NXDOMAIN' ? name : unfqdn(last.name);
      out += withHeader(`Host ${shown} not found: ${RCODE_NUMBER[reply.rcode]}(${reply.rcode})\n`) + received;
      exit = 1;
      break;
    }
    if (resolved === undefined) {
      const cn = reply.answer.filter((r) => r.type === 'CNAME');
      const lastCname = cn[cn.length - 1];
      resolved = lastCname && lastCname.type === 'CNAME' ? lastCname.target : last.name;
    }
    if (verbose) {
      out += withHeader(verboseMessage(reply)) + received;
      continue;
    }
    out = withHeader(out);
    const recs = reply.answer.filter((r) => r.type === t || r.type === 'CNAME');
    for (const r of recs) {
      const line = phrase(r);
      if (printed.has(line)) continue;
      printed.add(line);
      out += `${line}\n`;
    }
    if (!defaultLookups && !recs.some((r) => r.type === t)) out += `${unfqdn(last.name)} has no ${t} record\n`;
  }
  return { stdout: out, stderr: '', exitCode: exit, elapsedMs: elapsed };
}
