/**
 * dig 9.18 (bin/dig/dig.c, dighost.c, lib/dns/message.c): `dig [@server] [-x addr] [-t type] name
 * [type] [+short] [+noall] [+answer] [+search] [+tcp|+vc] [+time=N] [+tries=N]`. Full output with
 * header, OPT pseudosection (CoreDNS echoes the client's COOKIE), sections, stats; exit 0 when any
 * reply arrived, 9 when no server answered, 10 when `@NAME` does not resolve (dighost.c fatal →
 * digexit). `+tcp` sends the query over TCP: a failed connect prints dighost.c tcp_connected's
 * `;; Connection to IP#53(IP) for NAME failed: timed out.` per try (TCP_TIMEOUT 10 s each).
 * A UDP reply with TC set is asked again over TCP (dighost.c recv_done: `;; Truncated, retrying in
 * TCP mode.` first when comments are on; +short/+noall retry silently) unless +ignore; +noedns
 * sends no OPT (512-byte answers), +bufsize=N advertises N. Recorded against bind9-dnsutils
 * 9.18.49 by scripts/record-dns-tc (testdata/tc).
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

/** dig.c print_usage + usage(): what an invalid option prints (stderr), before exit 1. */
const DIG_USAGE =
  'Usage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}\n            {global-d-opt} host [@local-server] {local-d-opt}\n            [ host [@local-server] {local-d-opt} [...]]\n\nUse "dig -h" (or "dig -h | more") for complete list of options\n';

interface DigOptions {
  server?: string;
  name?: string;
  type?: QType;
  port: number;
  short: boolean;
  showAll: boolean;
  showAnswer: boolean;
  search: boolean;
  ndots?: number;
  tcp: boolean;
  /** +ignore: keep a truncated UDP answer instead of asking again over TCP. */
  ignore: boolean;
  /** +noedns sends no OPT; +bufsize=N its UDP size (1232 by default). */
  edns: boolean;
  bufsize: number;
  tries: number;
  /** +time=N; unset: UDP_TIMEOUT 5 s, TCP_TIMEOUT 10 s (dighost.c). */
  timeS?: number;
  /** Text dig printed to stderr while parsing (warnings), or the fatal error. */
  warnings: string;
}

type Parsed = { ok: true; opts: DigOptions } | { ok: false; result: ClientResult };

const fail = (stderr: string, exitCode: number): Parsed => ({ ok: false, result: { stdout: '', stderr, exitCode, elapsedMs: 0 } });

/**
 * dig.c parse_args / dash_option (9.18). `-` options: any run of the flag letters `46dhimnruv`
 * first (`-4`, `-6`, `-d`, `-i`, `-m`, `-n`, `-r`, `-u`; `-h` prints help, `-v` the version, both
 * exit 0), then one of `bcfkpqtxy` whose value is the rest of the word or, when the word ends
 * there, the next argument (which is then consumed: `-p 53`, `-p53`, `-t A`, `-tA`, `-x IP`).
 * A value option with nothing after it, or an unknown letter, is `Invalid option: -…` + usage,
 * exit 1. `-t`/`-c` with an unknown type/class warn `;; Warning, ignoring invalid type X`; `-x`
 * with a bad address is `Invalid IP address X`, exit 1; `-p` not a number ≤ 65535 is fatal
 * `Couldn't parse port number` (exit 10 through digexit). Bare words: a type or class while the
 * name is still open, else the name. `+` options (plus_option): short, noall/all, answer, search,
 * ndots=N, tcp/vc, time=N, tries=N, retry=N; others do not change what is simulated. Each name
 * (bare word, -q, -x) starts a lookup of its own in dig; only the first one is simulated here.
 */
function parseDigArgs(args: string[]): Parsed {
  const o: DigOptions = { port: 53, short: false, showAll: true, showAnswer: true, search: false, tcp: false, ignore: false, edns: true, bufsize: 1232, tries: 3, warnings: '' };
  let openTypeClass = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a.startsWith('@')) o.server = a.slice(1);
    else if (a.startsWith('+')) {
      const [key = '', value] = a.slice(1).split('=', 2) as [string, string | undefined];
      const num = value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
      if (key === 'short') o.short = true;
      else if (key === 'noshort') o.short = false;
      else if (key === 'noall') {
        o.showAll = false;
        o.showAnswer = false;
      } else if (key === 'all') {
        o.showAll = true;
        o.showAnswer = true;
      } else if (key === 'answer') o.showAnswer = true;
      else if (key === 'noanswer') o.showAnswer = false;
      else if (key === 'search') o.search = true;
      else if (key === 'nosearch') o.search = false;
      else if (key === 'ndots' && num !== undefined) o.ndots = num;
      else if (key === 'tcp' || key === 'vc') o.tcp = true;
      else if (key === 'notcp' || key === 'novc') o.tcp = false;
      else if (key === 'ignore') o.ignore = true;
      else if (key === 'noignore') o.ignore = false;
      else if (key === 'edns') o.edns = true;
      else if (key === 'noedns') o.edns = false;
      // dig.c: +bufsize=N (0–65535) also turns EDNS on
      else if (key === 'bufsize' && num !== undefined && num <= 65535) {
        o.bufsize = num;
        o.edns = true;
      }
      // dig.c: +time=0 is taken as 1; +tries=0 as 1; +retry=N is N+1 tries
      else if (key === 'time' && num !== undefined) o.timeS = Math.max(1, num);
      else if (key === 'tries' && num !== undefined) o.tries = Math.max(1, num);
      else if (key === 'retry' && num !== undefined) o.tries = num + 1;
    } else if (a.startsWith('-') && a.length > 1) {
      let opt = a.slice(1);
      while (opt.length > 0 && '46dhimnruv'.includes(opt[0] ?? '')) {
        if (opt[0] === 'h') return { ok: false, result: { stdout: DIG_USAGE.split('\n\n')[0] + '\n', stderr: '', exitCode: 0, elapsedMs: 0 } };
        if (opt[0] === 'v') return fail(`DiG ${DIG_VERSION}\n`, 0);
        opt = opt.slice(1);
      }
      if (opt === '') continue;
      const letter = opt[0] ?? '';
      const fromNext = opt.length === 1;
      const value = fromNext ? args[i + 1] : opt.slice(1);
      if (!'bcfkpqtxy'.includes(letter) || value === undefined) return fail(`Invalid option: -${opt}\n${DIG_USAGE}`, 1);
      if (fromNext) i++;
      if (letter === 'p') {
        // dighost.c parse_uint_helper prints to stdout, then fatal() → digexit: exit 10
        const why = !/^\d+$/.test(value) || Number(value) > 0xffffffff ? 'bad number' : Number(value) > 65535 ? 'out of range' : undefined;
        if (why) return { ok: false, result: { stdout: `invalid port number '${value}': ${why}\n`, stderr: "dig: Couldn't parse port number\n", exitCode: 10, elapsedMs: 0 } };
        o.port = Number(value);
      } else if (letter === 't') {
        openTypeClass = false;
        const t = value.toUpperCase();
        if (isQType(t)) {
          if (o.type !== undefined) o.warnings += ';; Warning, extra type option\n';
          o.type = t;
        } else o.warnings += `;; Warning, ignoring invalid type ${value}\n`;
      } else if (letter === 'c') {
        openTypeClass = false;
        if (!/^(IN|CH|CHAOS|HS|HESIOD|NONE|ANY|CLASS\d+)$/i.test(value)) o.warnings += `;; Warning, ignoring invalid class ${value}\n`;
      } else if (letter === 'q') o.name ??= value;
      else if (letter === 'x') {
        const rev = reverseName(value);
        if (rev === undefined) return fail(`Invalid IP address ${value}\n`, 1);
        if (o.name === undefined) {
          o.name = rev;
          o.type ??= 'PTR';
        }
      }
      // -b ADDR, -f FILE, -k FILE, -y KEY: consumed; not simulated
    } else if (openTypeClass && isQType(a.toUpperCase())) {
      if (o.type !== undefined) o.warnings += ';; Warning, extra type option\n';
      o.type = a.toUpperCase() as QType;
    } else if (openTypeClass && /^(IN|CH|CHAOS|HS|HESIOD|NONE|CLASS\d+)$/i.test(a)) continue;
    else o.name ??= a;
  }
  return { ok: true, opts: o };
}

export function dig(input: ClientInput): ClientResult {
  const parsed = parseDigArgs(input.args);
  if (!parsed.ok) return parsed.result;
  const { server, name, type, port, short, showAll, showAnswer, search, ndots, tcp, ignore, tries, timeS, warnings } = parsed.opts;
  const args = input.args;
  const rc = parseResolvConf(input.resolvConf);
  let elapsed = 0;
  let servers: string[];
  if (server !== undefined) {
    const found = lookupServer(input, server);
    elapsed += found.elapsedMs;
    if (!found.ok) return { stdout: '', stderr: warnings + bind9ServerError('dig', server, found.error), exitCode: 10, elapsedMs: elapsed };
    servers = found.addresses;
  } else servers = [rc.nameservers[0] ?? '127.0.0.1'];
  const qname = name ?? '.';
  const qtype: QType = type ?? (name === undefined ? 'NS' : 'A');
  const searchRc = ndots === undefined ? rc : { ...rc, options: [...rc.options, `ndots:${ndots}`] };
  const candidates = bind9Candidates(qname, searchRc, search && server === undefined);
  const cookie = hex(16, input.random);
  const edns = parsed.opts.edns ? { udpSize: parsed.opts.bufsize, do: false, cookie } : undefined;
  const n = servers.length;
  const banner = `\n; <<>> DiG ${DIG_VERSION} <<>> ${args.join(' ')}\n${server !== undefined ? `; (${n} server${n > 1 ? 's' : ''} found)\n` : ''};; global options: +cmd\n`;
  let proto: 'tcp' | 'udp' = tcp ? 'tcp' : 'udp';
  let reply: DnsMessage | undefined;
  let srv = servers[0] ?? '127.0.0.1';
  let comms = '';
  for (const cand of candidates) {
    let r: DnsMessage | 'timeout' | 'refused' = 'timeout';
    for (const ip of servers) {
      srv = ip;
      for (let t = 0; t < Math.max(1, tries); t++) {
        r = input.query(ip, cand, qtype, { ...(edns ? { edns } : {}), proto, port });
        if (typeof r !== 'string' && r.flags.tc && proto === 'udp' && !ignore) {
          // dighost.c recv_done: requeue_lookup with tcp_mode set, the same lookup over TCP
          if (showAll && !short) comms += ';; Truncated, retrying in TCP mode.\n';
          proto = 'tcp';
          t--;
          continue;
        }
        if (r !== 'timeout' && r !== 'refused') break;
        const why = r === 'timeout' ? 'timed out' : 'connection refused';
        // dighost.c: recv_done (UDP) vs tcp_connected (TCP, servname = the address).
        // a failed TCP connection ends its lookup: each try says so (recorded, testdata/tc)
        comms += proto === 'tcp' ? `;; Connection to ${ip}#${port}(${ip}) for ${qname} failed: ${why}.\n;; no servers could be reached\n` : `;; communications error to ${ip}#${port}: ${why}\n`;
        elapsed += r === 'timeout' ? (timeS ?? (proto === 'tcp' ? 10 : 5)) * 1000 : 0;
      }
      if (r !== 'timeout' && r !== 'refused') break;
    }
    if (r === 'timeout' || r === 'refused') break;
    reply = r;
    if (r.rcode !== 'NXDOMAIN') break;
  }
  if (!reply) {
    // tcp_connected ends with dighost_error alone; recv_done prints the command line first.
    if (proto === 'tcp') return { stdout: comms, stderr: warnings, exitCode: 9, elapsedMs: elapsed };
    if (short) return { stdout: comms + ';; no servers could be reached\n', stderr: warnings, exitCode: 9, elapsedMs: elapsed };
    return { stdout: `${comms}${banner};; no servers could be reached\n`, stderr: warnings, exitCode: 9, elapsedMs: elapsed };
  }
  if (short) {
    return { stdout: reply.answer.map((r) => `${rdataText(r)}\n`).join(''), stderr: warnings, exitCode: 0, elapsedMs: elapsed };
  }
  if (!showAll) {
    const body = showAnswer ? reply.answer.map((r) => `${digRecordLine(r)}\n`).join('') : '';
    return { stdout: body, stderr: warnings, exitCode: 0, elapsedMs: elapsed };
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
  out += `;; Query time: ${elapsed} msec\n;; SERVER: ${srv}#${port}(${server ?? srv}) (${proto === 'tcp' ? 'TCP' : 'UDP'})\n;; WHEN: ${digWhen(input.clock.now() + elapsed)}\n;; MSG SIZE  rcvd: ${wireSize(reply)}\n\n`;
  return { stdout: comms + out, stderr: warnings, exitCode: 0, elapsedMs: elapsed };
}
