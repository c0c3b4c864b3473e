/**
 * An RFC 1035 §5 master file reader (what miekg/dns ZoneParser reads for the file plugin):
 * `$ORIGIN`, `$TTL`, `@`, relative owner names and targets, a blank owner repeating the previous
 * one, `;` comments, parentheses spanning lines, optional TTL and class in either order. Record
 * types: SOA NS A AAAA CNAME MX TXT SRV PTR. Errors follow ParseError.Error():
 * `<file>: dns: <what>: "<token>" at line: <n>:<col>`.
 */
import { parseIPv4, parseIPv6, type RR } from './message.js';

/** dns.defaultTtl: the TTL before any $TTL or explicit TTL was seen. */
const DEFAULT_TTL = 3600;

export class ZoneParseError extends Error {}

interface Tok {
  text: string;
  line: number;
  col: number;
  quoted: boolean;
}

/** Split into logical lines (parentheses joined), each a list of tokens; `blankOwner` = line began with white space. */
function logicalLines(text: string): { toks: Tok[]; blankOwner: boolean }[] {
  const out: { toks: Tok[]; blankOwner: boolean }[] = [];
  let cur: Tok[] = [];
  let blankOwner = false;
  let depth = 0;
  const lines = text.split('\n');
  for (let ln = 0; ln < lines.length; ln++) {
    const s = lines[ln] ?? '';
    if (depth === 0) {
      cur = [];
      blankOwner = s.length > 0 && (s[0] === ' ' || s[0] === '\t');
    }
    let i = 0;
    while (i < s.length) {
      const ch = s[i] ?? '';
      if (ch === ';') break;
      if (ch === ' ' || ch === '\t' || ch === '\r') {
        i++;
        continue;
      }
      if (ch === '(') {
        depth++;
        i++;
        continue;
      }
      if (ch === ')') {
        depth = Math.max(0, depth - 1);
        i++;
        continue;
      }
      if (ch === '"') {
        let j = i + 1;
        let v = '';
        while (j < s.length && s[j] !== '"') {
          if (s[j] === '\\' && j + 1 < s.length) j++;
          v += s[j] ?? '';
          j++;
        }
        cur.push({ text: v, line: ln + 1, col: i + 1, quoted: true });
        i = j + 1;
        continue;
      }
      let j = i;
      while (j < s.length && !' \t\r;()"'.includes(s[j] ?? '')) j++;
      cur.push({ text: s.slice(i, j), line: ln + 1, col: j, quoted: false });
      i = j;
    }
    if (depth === 0 && cur.length > 0) out.push({ toks: cur, blankOwner });
  }
  return out;
}

function isTtl(s: string): boolean {
  return /^\d+[smhdwSMHDW]?$/.test(s) || /^(\d+[smhdwSMHDW])+$/.test(s);
}

function ttlValue(s: string): number {
  if (/^\d+$/.test(s)) return Number(s);
  let total = 0;
  const mult: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
  for (const m of s.toLowerCase().matchAll(/(\d+)([smhdw])/g)) total += Number(m[1]) * (mult[m[2] ?? 's'] ?? 1);
  return total;
}

const TYPES = new Set(['SOA', 'NS', 'A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'PTR']);

/** Parse `text` for `origin` (absolute, lower case). Names in the result are absolute and lower case. */
export function parseZone(text: string, origin: string, file: string): RR[] {
  let org = origin;
  let defTtl: number | undefined;
  let lastTtl = DEFAULT_TTL;
  let prevOwner: string | undefined;
  const rrs: RR[] = [];
  const fail = (what: string, t: Tok | undefined): never => {
    throw new ZoneParseError(`${file}: dns: ${what}: ${JSON.stringify(t?.text ?? '')} at line: ${t?.line ?? 0}:${t?.col ?? 0}`);
  };
  const abs = (name: string, t: Tok): string => {
    if (name === '@') return org;
    if (name.endsWith('.')) return name.toLowerCase();
    if (name === '') fail('bad owner name', t);
    return `${name}.${org === '.' ? '' : org}`.toLowerCase();
  };
  for (const { toks, blankOwner } of logicalLines(text)) {
    const first = toks[0] as Tok;
    if (!blankOwner && first.text.toUpperCase() === '$ORIGIN') {
      const o = toks[1];
      if (!o) fail('expecting $ORIGIN value, not this...', first);
      org = abs((o as Tok).text, o as Tok);
      continue;
    }
    if (!blankOwner && first.text.toUpperCase() === '$TTL') {
      const v = toks[1];
      if (!v || !isTtl(v.text)) fail('expecting $TTL value, not this...', v ?? first);
      defTtl = ttlValue((v as Tok).text);
      continue;
    }
    if (!blankOwner && first.text.toUpperCase() === '$INCLUDE') fail('$INCLUDE is not simulated', first);
    let i = 0;
    let owner: string;
    if (blankOwner) {
      if (prevOwner === undefined) fail('bad owner name', first);
      owner = prevOwner as string;
    } else {
      owner = abs(first.text, first);
      i = 1;
    }
    prevOwner = owner;
    let ttl: number | undefined;
    for (let k = 0; k < 2; k++) {
      const t = toks[i];
      if (!t) break;
      if (ttl === undefined && isTtl(t.text)) {
        ttl = ttlValue(t.text);
        i++;
      } else if (t.text.toUpperCase() === 'IN') i++;
    }
    const typeTok = toks[i];
    if (!typeTok) fail('not a TTL', toks[toks.length - 1]);
    const type = (typeTok as Tok).text.toUpperCase();
    if (!TYPES.has(type)) fail('unknown RR type', typeTok);
    const rd = toks.slice(i + 1);
    const effTtl = ttl ?? defTtl ?? lastTtl;
    if (ttl !== undefined) lastTtl = ttl;
    const name = owner;
    const need = (n: number): void => {
      if (rd.length < n) fail(`bad ${type} ${n > 1 ? 'rdata' : type}`, rd[rd.length - 1] ?? typeTok);
    };
    const num = (t: Tok | undefined, what: string): number => {
      if (!t || !/^\d+$/.test(t.text)) fail(`bad ${type} ${what}`, t ?? typeTok);
      return Number((t as Tok).text);
    };
    const target = (t: Tok | undefined): string => {
      if (!t) fail(`bad ${type} ${type === 'NS' ? 'Ns' : type === 'MX' ? 'Mx' : 'Target'}`, typeTok);
      return abs((t as Tok).text, t as Tok);
    };
    switch (type) {
      case 'A':
      case 'AAAA': {
        need(1);
        const a = rd[0] as Tok;
        const ok = type === 'A' ? parseIPv4(a.text) : parseIPv6(a.text);
        if (!ok) fail(`bad ${type} ${type}`, a);
        rrs.push(type === 'A' ? { name, ttl: effTtl, class: 'IN', type: 'A', address: a.text } : { name, ttl: effTtl, class: 'IN', type: 'AAAA', address: a.text });
        break;
      }
      case 'CNAME':
      case 'NS':
      case 'PTR':
        rrs.push({ name, ttl: effTtl, class: 'IN', type, target: target(rd[0]) });
        break;
      case 'MX':
        rrs.push({ name, ttl: effTtl, class: 'IN', type: 'MX', preference: num(rd[0], 'Pref'), exchange: target(rd[1]) });
        break;
      case 'SRV':
        rrs.push({ name, ttl: effTtl, class: 'IN', type: 'SRV', priority: num(rd[0], 'Priority'), weight: num(rd[1], 'Weight'), port: num(rd[2], 'Port'), target: target(rd[3]) });
        break;
      case 'TXT':
        need(1);
        rrs.push({ name, ttl: effTtl, class: 'IN', type: 'TXT', texts: rd.map((t) => t.text) });
        break;
      case 'SOA': {
        const mname = target(rd[0]);
        const rname = target(rd[1]);
        const [serial, refresh, retry, expire, minimum] = [2, 3, 4, 5, 6].map((k) => {
          const t = rd[k];
          if (!t || !isTtl(t.text)) fail('bad SOA zone parameter', t ?? rd[rd.length - 1] ?? typeTok);
          return ttlValue((t as Tok).text);
        }) as [number, number, number, number, number];
        rrs.push({ name, ttl: effTtl, class: 'IN', type: 'SOA', mname, rname, serial, refresh, retry, expire, minimum });
        break;
      }
    }
  }
  return rrs;
}
