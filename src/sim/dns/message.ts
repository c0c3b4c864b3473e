/**
 * A small DNS message model: just enough of RFC 1035 (and miekg/dns, which CoreDNS uses) for the
 * simulator's server, stub resolvers and clients to agree on questions, rcodes, flags and records.
 * Names are kept absolute (trailing dot). `wireSize` gives the wire length as the message would be
 * sent: uncompressed unless `compress` is set, because miekg/dns (which CoreDNS uses) compresses
 * only when `truncate` needed it (or request.Scrub asked for it); that is what dig prints as MSG SIZE.
 */

export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

/** Numeric rcodes as printed by `errors` (`plugin/errors: 2 …`) and `host` (`3(NXDOMAIN)`). */
export const RCODE_NUMBER: Record<Rcode, number> = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
};

export type RRType = 'A' | 'AAAA' | 'CNAME' | 'SRV' | 'PTR' | 'TXT' | 'SOA' | 'NS' | 'MX' | 'HINFO';
/** Query types: record types plus a few that only appear in questions. */
export type QType = RRType | 'ANY' | 'AXFR' | 'IXFR' | 'CAA';

export const QTYPE_NUMBER: Record<QType, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  AXFR: 252,
  IXFR: 251,
  ANY: 255,
  CAA: 257,
};

export function isQType(s: string): s is QType {
  return Object.prototype.hasOwnProperty.call(QTYPE_NUMBER, s);
}

export type DnsClass = 'IN' | 'CH';

export interface Question {
  name: string;
  type: QType;
  class: DnsClass;
}

export type RData =
  | { type: 'A'; address: string }
  | { type: 'AAAA'; address: string }
  | { type: 'CNAME'; target: string }
  | { type: 'PTR'; target: string }
  | { type: 'NS'; target: string }
  | { type: 'MX'; preference: number; exchange: string }
  | { type: 'SRV'; priority: number; weight: number; port: number; target: string }
  | { type: 'TXT'; texts: string[] }
  | { type: 'HINFO'; cpu: string; os: string }
  | {
      type: 'SOA';
      mname: string;
      rname: string;
      serial: number;
      refresh: number;
      retry: number;
      expire: number;
      minimum: number;
    };

export type RR = { name: string; ttl: number; class: DnsClass } & RData;

export interface Flags {
  qr: boolean;
  aa: boolean;
  tc: boolean;
  rd: boolean;
  ra: boolean;
  ad: boolean;
  cd: boolean;
}

/** EDNS0 OPT pseudo-record: UDP size, DO bit, the client COOKIE (hex) if any, an RFC 8914 extended error code. */
export interface Edns {
  udpSize: number;
  do: boolean;
  cookie?: string;
  ede?: number;
}

export interface DnsMessage {
  id: number;
  rcode: Rcode;
  flags: Flags;
  question: Question[];
  answer: RR[];
  authority: RR[];
  additional: RR[];
  edns?: Edns;
  /** miekg/dns Msg.Compress: names are sent compressed (set by `truncate`, request.Scrub). */
  compress?: boolean;
  /**
   * The plugin that wrote this reply put an OPT in it (forward's upstream answer, acl's EDE). The
   * others get the request's OPT only in the scrub writer (request.SizeAndDo), after the log
   * plugin's recorder measured the reply, so {rsize} leaves it out.
   */
  ownOpt?: boolean;
}

export function noFlags(): Flags {
  return { qr: false, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false };
}

/** A query as a stub resolver sends it: RD set, one question. */
export function newQuery(id: number, name: string, type: QType, edns?: Edns): DnsMessage {
  const m: DnsMessage = {
    id,
    rcode: 'NOERROR',
    flags: { ...noFlags(), rd: true },
    question: [{ name: fqdn(name), type, class: 'IN' }],
    answer: [],
    authority: [],
    additional: [],
  };
  if (edns) m.edns = { ...edns };
  return m;
}

/** miekg/dns SetReply: same id and question, QR set, RD copied, rcode NOERROR; EDNS echoed (CoreDNS request.SizeAndDo). */
export function replyTo(q: DnsMessage, rcode: Rcode = 'NOERROR'): DnsMessage {
  const m: DnsMessage = {
    id: q.id,
    rcode,
    flags: { ...noFlags(), qr: true, rd: q.flags.rd, cd: q.flags.cd },
    question: q.question.map((x) => ({ ...x })),
    answer: [],
    authority: [],
    additional: [],
  };
  if (q.edns) m.edns = { ...q.edns };
  return m;
}

export function cloneMessage(m: DnsMessage): DnsMessage {
  const c: DnsMessage = {
    id: m.id,
    rcode: m.rcode,
    flags: { ...m.flags },
    question: m.question.map((x) => ({ ...x })),
    answer: m.answer.map(cloneRR),
    authority: m.authority.map(cloneRR),
    additional: m.additional.map(cloneRR),
  };
  if (m.edns) c.edns = { ...m.edns };
  if (m.compress) c.compress = true;
  if (m.ownOpt) c.ownOpt = true;
  return c;
}

export function cloneRR(r: RR): RR {
  if (r.type === 'TXT') return { ...r, texts: [...r.texts] };
  return { ...r };
}

export function fqdn(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}

/** Name without the trailing dot ("." stays "."). */
export function unfqdn(name: string): string {
  return name.length > 1 && name.endsWith('.') ? name.slice(0, -1) : name;
}

/** miekg/dns headerSize. */
const HEADER_SIZE = 12;
/** miekg/dns maxCompressionOffset: names past it cannot be pointed to. */
const MAX_COMPRESSION_OFFSET = 2 << 13;
/** miekg/dns MinMsgSize / MaxMsgSize. */
export const MIN_MSG_SIZE = 512;
export const MAX_MSG_SIZE = 65535;

/**
 * miekg/dns domainNameLen + compressionLenSearch (msg.go): the length of `name` at message offset
 * `off`. With a compression map, every suffix seen before `off` can be pointed to (2 bytes) when
 * `compress` is allowed for this field; suffixes are recorded as they are met (case-sensitive keys,
 * as miekg/dns keeps them). SRV targets are recorded but never compressed (RFC 2782).
 */
function nameLen(name: string, off: number, compression: Set<string> | undefined, compress: boolean): number {
  const s = fqdn(name);
  if (s === '.') return 1;
  if (compression && (compress || off < MAX_COMPRESSION_OFFSET)) {
    for (let i = 0; ; ) {
      const suffix = s.slice(i);
      if (compression.has(suffix)) {
        if (compress) return i + 2;
        break;
      }
      if (off + i < MAX_COMPRESSION_OFFSET) compression.add(suffix);
      const dot = s.indexOf('.', i);
      if (dot === -1 || dot === s.length - 1) break;
      i = dot + 1;
    }
  }
  return s.length + 1;
}

/** miekg/dns RR.len(off, compression) for the record types the model has (ztypes.go). */
function rrLen(r: RR, off: number, c: Set<string> | undefined): number {
  let l = nameLen(r.name, off, c, true) + 10;
  switch (r.type) {
    case 'A':
      return l + 4;
    case 'AAAA':
      return l + 16;
    case 'CNAME':
    case 'PTR':
    case 'NS':
      return l + nameLen(r.target, off + l, c, true);
    case 'MX':
      l += 2;
      return l + nameLen(r.exchange, off + l, c, true);
    case 'SRV':
      l += 6;
      return l + nameLen(r.target, off + l, c, false);
    case 'TXT':
      return l + r.texts.reduce((s, t) => s + 1 + new TextEncoder().encode(t).length, 0);
    case 'HINFO':
      return l + 2 + r.cpu.length + r.os.length;
    case 'SOA':
      l += nameLen(r.mname, off + l, c, true);
      return l + nameLen(r.rname, off + l, c, true) + 20;
  }
}

/** Length of the OPT pseudo-record: root name, 10 bytes of header, then COOKIE and EDE options. */
function optLen(e: Edns): number {
  return 11 + (e.cookie ? 4 + e.cookie.length / 2 : 0) + (e.ede !== undefined ? 6 : 0);
}

/** miekg/dns msgLenWithCompressionMap: sections in order, the OPT last (SizeAndDo appends it). */
function msgLen(m: DnsMessage, compression: Set<string> | undefined): number {
  let l = HEADER_SIZE;
  for (const q of m.question) l += nameLen(q.name, l, compression, true) + 4;
  for (const r of m.answer) l += rrLen(r, l, compression);
  for (const r of m.authority) l += rrLen(r, l, compression);
  for (const r of m.additional) l += rrLen(r, l, compression);
  if (m.edns) l += optLen(m.edns);
  return l;
}

/** Wire size as sent (miekg/dns Msg.Len): compressed when `compress` is set and there is a record to compress. */
export function wireSize(m: DnsMessage): number {
  const compressible = m.question.length > 1 || m.answer.length > 0 || m.authority.length > 0 || m.additional.length > 0 || m.edns !== undefined;
  return msgLen(m, m.compress && compressible ? new Set() : undefined);
}

/** The length with every name written out (miekg/dns Msg.Len with Compress unset). */
export function uncompressedSize(m: DnsMessage): number {
  return msgLen(m, undefined);
}

/** miekg/dns truncateLoop: how many of `rrs` fit from length `l`, and the length after them. */
function truncateLoop(rrs: readonly RR[], size: number, l: number, c: Set<string>): [number, number] {
  for (let i = 0; i < rrs.length; i++) {
    l += rrLen(rrs[i] as RR, l, c);
    if (l > size) return [size, i];
    if (l === size) return [l, i + 1];
  }
  return [l, rrs.length];
}

/**
 * miekg/dns Msg.Truncate (msg_truncate.go), which CoreDNS's request.Scrub calls with the client's
 * buffer size: a message that fits uncompressed is sent as is, uncompressed; otherwise it is
 * compressed and records are kept, section by section, while they fit (the OPT's length is set
 * aside first). TC is set when any record was dropped, and kept if it was already set.
 */
export function truncate(m: DnsMessage, size: number): DnsMessage {
  const limit = Math.max(size, MIN_MSG_SIZE);
  const out = cloneMessage(m);
  if (msgLen(m, undefined) <= limit) {
    delete out.compress;
    return out;
  }
  out.compress = true;
  const budget = limit - (m.edns ? optLen(m.edns) : 0);
  const c = new Set<string>();
  let l = HEADER_SIZE;
  for (const q of m.question) l += nameLen(q.name, l, c, true) + 4;
  let nAn = 0;
  let nNs = 0;
  let nAr = 0;
  if (l < budget) [l, nAn] = truncateLoop(m.answer, budget, l, c);
  if (l < budget) [l, nNs] = truncateLoop(m.authority, budget, l, c);
  if (l < budget) [, nAr] = truncateLoop(m.additional, budget, l, c);
  out.flags.tc = m.flags.tc || m.answer.length > nAn || m.authority.length > nNs || m.additional.length > nAr;
  out.answer = out.answer.slice(0, nAn);
  out.authority = out.authority.slice(0, nNs);
  out.additional = out.additional.slice(0, nAr);
  return out;
}

/** Presentation form of the rdata (zone-file style, as dig prints it). */
export function rdataText(r: RR): string {
  switch (r.type) {
    case 'A':
    case 'AAAA':
      return r.address;
    case 'CNAME':
    case 'PTR':
    case 'NS':
      return r.target;
    case 'MX':
      return `${r.preference} ${r.exchange}`;
    case 'SRV':
      return `${r.priority} ${r.weight} ${r.port} ${r.target}`;
    case 'TXT':
      return r.texts.map((t) => `"${t}"`).join(' ');
    case 'HINFO':
      return `"${r.cpu}" "${r.os}"`;
    case 'SOA':
      return `${r.mname} ${r.rname} ${r.serial} ${r.refresh} ${r.retry} ${r.expire} ${r.minimum}`;
  }
}

/** The flags in miekg/dns / CoreDNS log order: `qr,aa,tc,rd,ra,ad,cd`. */
export function flagsText(f: Flags, sep = ','): string {
  const out: string[] = [];
  if (f.qr) out.push('qr');
  if (f.aa) out.push('aa');
  if (f.tc) out.push('tc');
  if (f.rd) out.push('rd');
  if (f.ra) out.push('ra');
  if (f.ad) out.push('ad');
  if (f.cd) out.push('cd');
  return out.join(sep);
}

/** Reverse name for an IPv4 or IPv6 address (`10.96.0.1` → `1.0.96.10.in-addr.arpa.`); undefined if not an IP. */
export function reverseName(ip: string): string | undefined {
  const v4 = parseIPv4(ip);
  if (v4) return `${[...v4].reverse().join('.')}.in-addr.arpa.`;
  const v6 = parseIPv6(ip);
  if (v6) {
    const nibbles: string[] = [];
    for (const word of v6) nibbles.push(...word.toString(16).padStart(4, '0').split(''));
    return `${nibbles.reverse().join('.')}.ip6.arpa.`;
  }
  return undefined;
}

/** Address of a reverse name, or undefined if the name is not a complete reverse address. */
export function addressFromReverse(name: string): string | undefined {
  const n = fqdn(name).toLowerCase();
  if (n.endsWith('.in-addr.arpa.')) {
    const parts = n.slice(0, -'.in-addr.arpa.'.length).split('.');
    if (parts.length !== 4) return undefined;
    const ip = parts.reverse().join('.');
    return parseIPv4(ip) ? ip : undefined;
  }
  if (n.endsWith('.ip6.arpa.')) {
    const parts = n.slice(0, -'.ip6.arpa.'.length).split('.');
    if (parts.length !== 32 || parts.some((p) => !/^[0-9a-f]$/.test(p))) return undefined;
    const hex = parts.reverse().join('');
    const words: string[] = [];
    for (let i = 0; i < 32; i += 4) words.push(hex.slice(i, i + 4));
    return formatIPv6(words.map((w) => parseInt(w, 16)));
  }
  return undefined;
}

export function parseIPv4(s: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const octets = m.slice(1).map((x) => Number(x));
  if (octets.some((o) => o > 255)) return undefined;
  return octets;
}

/** Eight 16-bit words, or undefined. Accepts `::` compression and an embedded IPv4 tail. */
export function parseIPv6(s: string): number[] | undefined {
  if (!s.includes(':') || /[^0-9a-fA-F:.]/.test(s)) return undefined;
  let str = s;
  const lastColon = str.lastIndexOf(':');
  const last = str.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIPv4(last);
    if (!v4) return undefined;
    const w1 = (((v4[0] ?? 0) << 8) | (v4[1] ?? 0)).toString(16);
    const w2 = (((v4[2] ?? 0) << 8) | (v4[3] ?? 0)).toString(16);
    str = `${str.slice(0, lastColon + 1)}${w1}:${w2}`;
  }
  const halves = str.split('::');
  if (halves.length > 2) return undefined;
  const parse = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const w of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(w)) return undefined;
      out.push(parseInt(w, 16));
    }
    return out;
  };
  const head = parse(halves[0] ?? '');
  if (!head) return undefined;
  if (halves.length === 1) {
    const all = head;
    return all.length === 8 ? all : undefined;
  }
  const rest = parse(halves[1] ?? '');
  if (!rest) return undefined;
  const fill = 8 - head.length - rest.length;
  if (fill < 1) return undefined;
  return [...head, ...new Array<number>(fill).fill(0), ...rest];
}

/** RFC 5952 text form (lower case, longest zero run compressed). */
export function formatIPv6(words: number[]): string {
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] === 0) {
      let j = i;
      while (j < 8 && words[j] === 0) j++;
      if (j - i > bestLen && j - i > 1) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    } else i++;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

export function isIP(s: string): boolean {
  return parseIPv4(s) !== undefined || parseIPv6(s) !== undefined;
}

/** Lower-cased absolute name for comparisons. */
export function canonical(name: string): string {
  return fqdn(name).toLowerCase();
}

/** Is `name` equal to or below `zone` (both compared case-insensitively)? */
export function isSubdomain(zone: string, name: string): boolean {
  const z = canonical(zone);
  const n = canonical(name);
  if (z === '.') return true;
  return n === z || n.endsWith(`.${z}`);
}
