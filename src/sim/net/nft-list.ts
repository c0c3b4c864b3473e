/**
 * `nft list …` of kube-proxy's `ip kube-proxy` table, as nft 1.0.x prints what the kernel holds.
 *
 * The kernel keeps no rule text: nft decodes each rule's expressions back into its own syntax, so
 * what `nft list` shows is not what kube-proxy wrote (`mark set mark or 0x004000` lists as
 * `meta mark set meta mark | 0x00004000`, a one-element anonymous set loses its braces). The forms
 * here are the ones the proxier writes (net/kube-proxy/nftables.ts NftRule), each checked against
 * the real nft 1.0.6 listing of the same table (testdata/nft-list/, scripts/record-nft-list.mjs).
 *
 * Layout (nftables src/rule.c table_print, set_print_plain, chain_print; src/expression.c
 * set_expr_print, calculate_delim): a table lists its comment, then its named sets and maps, then
 * its chains, each in the kernel's order (creation: the handle), a blank line between two of them;
 * a base chain's first line names its type, hook, priority (by its standard name where the hook
 * has one: dstnat, filter, srcnat, with an offset `dstnat - 10`) and policy; set elements are
 * sorted (see elementOrder), addresses two to a line, every concatenation or map element on its own.
 */
import { parseIPv4 } from './ipv4.js';
import type { NftChain, NftElement, NftFamily, NftRule, NftSetOrMap, NftTable } from './kube-proxy/nftables.js';
import { ruleText } from './kube-proxy/nftables.js';

/** `%#010x` as nft prints a mark (datatype mark_type, BASE_HEXADECIMAL, 32 bits). */
function mark32(mark: string): string {
  return `0x${Number.parseInt(mark, 16).toString(16).padStart(8, '0')}`;
}

/** An anonymous set of prefixes as nft lists it: sorted by address (an interval set), a single element without braces. */
function anonSet(items: readonly string[]): string {
  const start = (c: string): number => parseIPv4(c.split('/')[0] ?? '') ?? 0;
  const sorted = [...items].sort((a, b) => start(a) - start(b));
  return sorted.length === 1 ? (sorted[0] ?? '') : `{ ${sorted.join(', ')} }`;
}

/**
 * One rule of kube-proxy's as `nft list` decodes it: the forms nft prints back differently from
 * how kube-proxy wrote them; every other form lists as written (nftables.ts ruleText).
 */
export function listRuleText(r: NftRule, mark: string, family: NftFamily = 'ip'): string {
  switch (r.op) {
    case 'daddr-cidrs-drop':
      return `${family} daddr ${anonSet(r.cidrs)} drop`;
    case 'saddr-not-drop':
      return `${family} saddr != ${anonSet(r.cidrs)} drop`;
    case 'mark-or':
      return `meta mark set meta mark | ${mark32(mark)}`;
    case 'mark-zero-return':
      return `meta mark & ${mark32(mark)} == 0x00000000 return`;
    case 'mark-xor':
      return `meta mark set meta mark ^ ${mark32(mark)}`;
    case 'numgen':
      return `numgen random mod ${r.chains.length} vmap { ${r.chains.map((c, i) => `${i} : goto ${c}`).join(', ')} }`;
    default:
      return ruleText(r, mark, family);
  }
}

// ---------------------------------------------------------------------------------------------
// Set elements

/** The 16 bytes of an IPv6 address (`::` expanded). */
function ipv6Bytes(v: string): number[] {
  const [head = '', tail] = v.split('::');
  const groups = (x: string): number[] => (x === '' ? [] : x.split(':').map((g) => Number.parseInt(g, 16) || 0));
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const all = [...h, ...new Array<number>(Math.max(0, 8 - h.length - t.length)).fill(0), ...t];
  return all.flatMap((g) => [(g >> 8) & 255, g & 255]);
}

/** The bytes nft keeps for one field of a key, padded to 32-bit registers (NFT_REG32_SIZE). */
function fieldBytes(type: string, v: string): number[] {
  if (type === 'ipv4_addr') {
    const n = parseIPv4(v) ?? 0;
    return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  }
  if (type === 'ipv6_addr') return ipv6Bytes(v);
  if (type === 'inet_proto') return [{ tcp: 6, udp: 17, sctp: 132 }[v] ?? (Number(v) || 0), 0, 0, 0];
  const port = Number(v) || 0;
  return [(port >> 8) & 255, port & 255, 0, 0];
}

/**
 * The order `nft list` prints a set's elements in: nft sorts them by their value (expression.c
 * list_expr_sort, expr_cmp → mpz_cmp). A single address compares as the number it is; a
 * concatenation's value is the fields' padded bytes read as one host-order (little-endian)
 * integer, so its last bytes weigh most. Seen with nft 1.0.6: `10.96.0.10 . tcp . 53` before
 * `10.96.0.10 . udp . 53` before `10.96.0.1 . tcp . 443` before `10.96.0.10 . tcp . 9153`.
 */
export function elementOrder(keyType: string): (a: NftElement, b: NftElement) => number {
  const types = keyType.split(' . ');
  if (types.length === 1) {
    return (a, b) => {
      const x = fieldBytes(types[0] ?? '', a.key[0] ?? '');
      const y = fieldBytes(types[0] ?? '', b.key[0] ?? '');
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
      return 0;
    };
  }
  const bytes = (e: NftElement): number[] => types.flatMap((t, i) => fieldBytes(t, e.key[i] ?? ''));
  return (a, b) => {
    const x = bytes(a);
    const y = bytes(b);
    for (let i = x.length - 1; i >= 0; i--) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
}

function elementText(e: NftElement): string {
  return `${e.key.join(' . ')}${e.comment !== undefined ? ` comment "${e.comment}"` : ''}${e.value !== undefined ? ` : ${e.value}` : ''}`;
}

/** `3h`, `1h30m`, `10s`: nft's time_print (days, hours, minutes, seconds, ms; zero parts left out). */
export function nftDuration(ms: number): string {
  const parts: [number, string][] = [
    [Math.floor(ms / 86_400_000), 'd'],
    [Math.floor(ms / 3_600_000) % 24, 'h'],
    [Math.floor(ms / 60_000) % 60, 'm'],
    [Math.floor(ms / 1000) % 60, 's'],
    [ms % 1000, 'ms'],
  ];
  return parts.filter(([n]) => n > 0).map(([n, u]) => `${n}${u}`).join('');
}

/** The dynamic elements packets added to an affinity set: address → ms left before they expire. */
export type DynamicElements = ReadonlyMap<string, number>;

function setLines(s: NftSetOrMap, dynamic: DynamicElements | undefined): string[] {
  const keyType = s.kind === 'map' ? (s.type.split(' : ')[0] ?? '') : s.type;
  const out = [`\t${s.kind} ${s.name} {`, `\t\ttype ${s.type}`];
  // the kernel gives a set that packets fill (NFT_SET_EVAL) a default size, and lists it
  if (s.flags?.includes('dynamic')) out.push('\t\tsize 65535');
  if (s.flags !== undefined && s.flags.length > 0) out.push(`\t\tflags ${s.flags.join(',')}`);
  if (s.timeout !== undefined) out.push(`\t\ttimeout ${nftDuration(s.timeout * 1000)}`);
  if (s.comment !== undefined) out.push(`\t\tcomment "${s.comment}"`);
  let items: string[];
  if (dynamic !== undefined) {
    const els = [...dynamic.keys()].map((ip) => ({ key: [ip] })).sort(elementOrder(keyType));
    items = els.map((e) => `${e.key[0] ?? ''} expires ${nftDuration(dynamic.get(e.key[0] ?? '') ?? 0)}`);
  } else items = [...s.elements].sort(elementOrder(keyType)).map(elementText);
  if (items.length > 0) {
    const perLine = s.kind === 'set' && keyType === 'ipv4_addr' ? 2 : 1;
    let text = '';
    items.forEach((item, i) => {
      if (i > 0) text += i % perLine === 0 ? ',\n\t\t\t     ' : ', ';
      text += item;
    });
    out.push(`\t\telements = { ${text} }`);
  }
  out.push('\t}');
  return out;
}

const STD_PRIORITIES: readonly [number, string, readonly string[]][] = [
  [-300, 'raw', []],
  [-150, 'mangle', []],
  [-100, 'dstnat', ['prerouting']],
  [0, 'filter', []],
  [50, 'security', []],
  [100, 'srcnat', ['postrouting', 'input']],
];

/**
 * A base chain's priority as nft prints it: by standard name where the hook allows one (rule.c
 * prio2str; nft 1.0.6 names dstnat only on prerouting: kube-proxy's nat-output lists as -100).
 */
export function priorityText(priority: number, hook: string): string {
  let best: { name: string; off: number } | undefined;
  for (const [value, name, hooks] of STD_PRIORITIES) {
    if (hooks.length > 0 && !hooks.includes(hook)) continue;
    const off = priority - value;
    if (Math.abs(off) <= 10 && (best === undefined || Math.abs(off) < Math.abs(best.off))) best = { name, off };
  }
  if (best === undefined) return String(priority);
  return best.off === 0 ? best.name : `${best.name} ${best.off < 0 ? '-' : '+'} ${Math.abs(best.off)}`;
}

/** `dstnat - 10` and the like as a number (what the proxier passes knftables). */
export function priorityNumber(p: string): number {
  const named: Record<string, number> = { raw: -300, mangle: -150, dstnat: -100, filter: 0, security: 50, srcnat: 100 };
  const m = /^(\w+)\s*([+-])\s*(\d+)$/.exec(p);
  if (m) return (named[m[1] as string] ?? 0) + (m[2] === '-' ? -1 : 1) * Number(m[3]);
  return named[p] ?? Number(p);
}

function chainLines(c: NftChain, mark: string, family: NftFamily): string[] {
  const out = [`\tchain ${c.name} {`];
  if (c.base) out.push(`\t\ttype ${c.base.type} hook ${c.base.hook} priority ${priorityText(priorityNumber(c.base.priority), c.base.hook)}; policy accept;`);
  if (c.comment !== undefined) out.push(`\t\tcomment "${c.comment}"`);
  for (const r of c.rules) out.push(`\t\t${listRuleText(r.rule, mark, family)}${r.comment !== undefined ? ` comment "${r.comment}"` : ''}`);
  out.push('\t}');
  return out;
}

const byHandle = (a: { handle?: number; name: string }, b: { handle?: number; name: string }): number => (a.handle ?? 0) - (b.handle ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The mark kube-proxy's rules use, read back from its mark-for-masquerade chain. */
function tableMark(t: NftTable): string {
  for (const c of t.chains) for (const r of c.rules) if (r.rule.op === 'mark-or') return /0x[0-9a-f]+/.exec(r.text)?.[0] ?? '0x4000';
  return '0x4000';
}

export interface ListOptions {
  /** Dynamic elements of the table's sets that have them (by set name). */
  dynamic?: ReadonlyMap<string, DynamicElements>;
}

/** `nft list table ip kube-proxy`: the whole table, one string ending in a newline. */
export function listTable(t: NftTable, opts: ListOptions = {}): string {
  const mark = tableMark(t);
  const blocks: string[][] = [];
  for (const s of [...t.sets].sort(byHandle)) blocks.push(setLines(s, s.flags?.includes('dynamic') ? (opts.dynamic?.get(s.name) ?? new Map()) : undefined));
  for (const c of [...t.chains].sort(byHandle)) blocks.push(chainLines(c, mark, t.family));
  const lines = [`table ${t.family} ${t.name} {`, `\tcomment "${t.comment}"`];
  blocks.forEach((b, i) => {
    if (i > 0) lines.push('');
    lines.push(...b);
  });
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** `nft list chain ip kube-proxy NAME`: the chain inside its table's braces. */
export function listChain(t: NftTable, c: NftChain): string {
  return `table ${t.family} ${t.name} {\n${chainLines(c, tableMark(t), t.family).join('\n')}\n}\n`;
}

/** `nft list set|map ip kube-proxy NAME`. */
export function listSet(t: NftTable, s: NftSetOrMap, opts: ListOptions = {}): string {
  return `table ${t.family} ${t.name} {\n${setLines(s, s.flags?.includes('dynamic') ? (opts.dynamic?.get(s.name) ?? new Map()) : undefined).join('\n')}\n}\n`;
}

/** `nft list chains`: every chain's head (a base chain's hook line, a comment), no rules, no blank lines. */
export function listChainHeads(t: NftTable): string {
  const lines = [`table ${t.family} ${t.name} {`];
  for (const c of [...t.chains].sort(byHandle)) {
    lines.push(`\tchain ${c.name} {`);
    if (c.base) lines.push(`\t\ttype ${c.base.type} hook ${c.base.hook} priority ${priorityText(priorityNumber(c.base.priority), c.base.hook)}; policy accept;`);
    if (c.comment !== undefined) lines.push(`\t\tcomment "${c.comment}"`);
    lines.push('\t}');
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** `nft list sets` / `nft list maps`: the table's sets (or maps) with their elements, one table block. */
export function listSets(t: NftTable, kind: 'set' | 'map', opts: ListOptions = {}): string {
  const sets = [...t.sets].filter((s) => s.kind === kind).sort(byHandle);
  if (sets.length === 0) return '';
  const lines = [`table ${t.family} ${t.name} {`];
  for (const s of sets) lines.push(...setLines(s, s.flags?.includes('dynamic') ? (opts.dynamic?.get(s.name) ?? new Map()) : undefined));
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
