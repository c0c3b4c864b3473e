/**
 * Printers for the iptables model: `iptables-save`, `iptables -S` and `iptables -L`.
 *
 * Emulates netfilter iptables 1.8.x: iptables/nft-ipv4.c (nft_ipv4_save_rule, save_ipv4_addr),
 * iptables/nft-shared.c (save_rule_details, save_matches_and_target), iptables/xtables-save.c
 * (header, `:CHAIN POLICY [p:b]`, COMMIT, "Completed on"), iptables/xtables.c / iptables.c
 * (list_rules for -S, list_entries/print_header/print_firewall for -L), libxtables
 * (xtables_print_num for -v counters).
 */
import type { Chain, Match, Rule, Table, TableName } from './iptables.js';
import { chainReferences } from './iptables.js';
import { findMatch, findTarget } from './extensions.js';
import { protoName } from './rule-parse.js';
import type { Family } from './ipv6.js';

/** Which iptables binary is being emulated; it only changes banners and error prefixes. */
export interface IptablesFlavor {
  /** e.g. "1.8.7" (Ubuntu 22.04) or "1.8.10" (Ubuntu 24.04). */
  version: string;
  backend: 'nf_tables' | 'legacy';
  /** The program in messages: `iptables` unless this is `ip6tables` (the same package's IPv6 binary). */
  prog?: string;
}

export const DEFAULT_FLAVOR: IptablesFlavor = { version: '1.8.7', backend: 'nf_tables' };

/** `iptables v1.8.7 (nf_tables)`: the prefix xtables_error puts before a message. */
export function programBanner(flavor: IptablesFlavor, prog = flavor.prog ?? 'iptables'): string {
  return `${prog} v${flavor.version} (${flavor.backend})`;
}

/**
 * Bodies of rules whose parts are frozen and shared (restore.ts keeps one parsed rule per line
 * text for every node's copy), kept with their matches array: iptables-save of a 10,000-Service
 * node formats 170,000 rules, the same ones on every node and at every save. An entry holds when
 * the rule's other parts are the very ones it was made from (iptables -E gives a rule a new target).
 */
const BODIES = new WeakMap<readonly Match[], Body>();
/** The same for ip6tables' rules (protocol names differ: 58 is `ipv6-icmp`). */
const BODIES6 = new WeakMap<readonly Match[], Body>();

/** A rule's body, and its whole `-A CHAIN …` line for the chain it was last printed in. */
interface Body {
  rule: Rule;
  body: string;
  chain?: string;
  line?: string;
}

/**
 * `s` as one flat string. Text built by concatenation is a tree of its pieces until something
 * flattens it, and joining 170,000 saved lines walked every line's tree again at every save;
 * converting a string to a number flattens it in place (V8's String::Flatten), once.
 */
function flat(s: string): string {
  // (the result counted, so that an optimising compiler keeps the conversion)
  if (Number(s) === 0) _flatZeros++;
  return s;
}
let _flatZeros = 0;

function sameParts(a: Rule, b: Rule): boolean {
  return a.src === b.src && a.dst === b.dst && a.inIface === b.inIface && a.outIface === b.outIface && a.proto === b.proto && a.fragment === b.fragment && a.target === b.target;
}

/** Save-syntax body of a rule after `-A CHAIN` (starts with a space, or empty). */
export function formatRuleBody(rule: Rule, withCounters = false, family: Family = 'ipv4'): string {
  if (withCounters || !Object.isFrozen(rule.matches)) return formatBody(rule, withCounters, family);
  return cachedBody(rule, family).body;
}

/** The Body entry of a rule whose parts are frozen (see BODIES). */
function cachedBody(rule: Rule, family: Family): Body {
  const bodies = family === 'ipv6' ? BODIES6 : BODIES;
  const had = bodies.get(rule.matches);
  if (had && sameParts(had.rule, rule)) return had;
  const made: Body = { rule, body: flat(formatBody(rule, false, family)) };
  bodies.set(rule.matches, made);
  return made;
}

function formatBody(rule: Rule, withCounters: boolean, family: Family): string {
  let s = '';
  if (rule.src) s += `${rule.src.neg ? ' !' : ''} -s ${rule.src.addr}/${rule.src.prefix}`;
  if (rule.dst) s += `${rule.dst.neg ? ' !' : ''} -d ${rule.dst.addr}/${rule.dst.prefix}`;
  if (rule.inIface) s += `${rule.inIface.neg ? ' !' : ''} -i ${rule.inIface.name}`;
  if (rule.outIface) s += `${rule.outIface.neg ? ' !' : ''} -o ${rule.outIface.name}`;
  if (rule.proto) s += `${rule.proto.neg ? ' !' : ''} -p ${protoName(rule.proto.num, family) ?? String(rule.proto.num)}`;
  if (rule.fragment) s += `${rule.fragment.neg ? ' !' : ''} -f`;
  for (const m of rule.matches) {
    const ext = findMatch(m.module);
    s += ` -m ${m.module}${ext ? ext.save(m.options) : ''}`;
  }
  if (withCounters) s += ` -c ${rule.counters.packets} ${rule.counters.bytes}`;
  const t = rule.target;
  if (t) {
    if (t.goto) s += ` -g ${t.name}`;
    else {
      s += ` -j ${t.name}`;
      if (t.kind === 'extension') {
        const ext = findTarget(t.name);
        if (ext) s += ext.save(t.options);
      }
    }
  }
  return s;
}

/** `-A CHAIN …` exactly as iptables-save prints it. */
export function formatRule(chain: string, rule: Rule, family: Family = 'ipv4'): string {
  if (!Object.isFrozen(rule.matches)) return `-A ${chain}${formatBody(rule, false, family)}`;
  // (the line kept with the body: a rule is printed in the chain it is in, save after save)
  const b = cachedBody(rule, family);
  if (b.chain !== chain || b.line === undefined) {
    b.chain = chain;
    b.line = flat(`-A ${chain}${b.body}`);
  }
  return b.line;
}

/** The ctime(3) text of an instant, in UTC: `Tue Mar  4 10:20:30 2025`. */
export function ctime(epochMs: number): string {
  const d = new Date(epochMs);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p2 = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()] ?? ''} ${months[d.getUTCMonth()] ?? ''} ${String(d.getUTCDate()).padStart(2, ' ')} ${p2(
    d.getUTCHours(),
  )}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

/** Table order of iptables-nft's builtin table list (enum nft_table_type). */
const SAVE_TABLE_ORDER: readonly TableName[] = ['mangle', 'raw', 'filter', 'nat'];

export interface SaveOptions {
  flavor?: IptablesFlavor;
  /** argv[0] basename shown in the banner: `iptables-save` or `iptables-nft-save`. */
  prog?: string;
  /** Wall-clock instant for the "Generated/Completed on" lines. */
  now: number;
  /** `-c`: print `[pkts:bytes]` before each rule. */
  counters?: boolean;
  /** ip6tables-save (the banner's default program name and protocol names). */
  family?: Family;
}

/** One table's block of iptables-save output. */
export function renderSaveTable(table: Table, opts: SaveOptions): string {
  const flavor = opts.flavor ?? DEFAULT_FLAVOR;
  const family = opts.family ?? 'ipv4';
  const prog = opts.prog ?? (family === 'ipv6' ? 'ip6tables-save' : 'iptables-save');
  const banner =
    flavor.backend === 'nf_tables' ? `${prog} v${flavor.version} (nf_tables)` : `${prog} v${flavor.version}`;
  const when = ctime(opts.now);
  const body = opts.counters ? tableBody(table, family, true) : savedBody(table, family);
  return `# Generated by ${banner} on ${when}\n*${table.name}\n${body}COMMIT\n# Completed on ${when}\n`;
}

/** The declarations and rules of a table as iptables-save prints them, each line ending in a newline. */
function tableBody(table: Table, family: Family, counters: boolean): string {
  const lines: string[] = [];
  for (const c of table.chains) lines.push(chainDeclaration(c));
  for (const c of table.chains) {
    for (const r of c.rules) {
      const prefix = counters ? `[${r.counters.packets}:${r.counters.bytes}] ` : '';
      lines.push(`${prefix}${formatRule(c.name, r, family)}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

function chainDeclaration(c: Chain): string {
  return c.builtin ? `:${c.name} ${c.policy ?? 'ACCEPT'} [${c.counters.packets}:${c.counters.bytes}]` : `:${c.name} - [0:0]`;
}

/**
 * The body of the last save of a large table, per family and table name, and what it was printed
 * from: each chain's declaration and rule count, and each rule, as the object itself when it is
 * frozen (its text cannot change: restore.ts hands such rules to every node) or else as its line.
 * kube-proxy writes the same 170,000 rule objects on every node of a 10,000-Service cluster and
 * at every sync, so a node's save, another node's, or a save after a sync that changed nothing
 * finds the text printed before by walking the table once; printing and joining 17 MB of lines
 * again was the whole of such a save. Checked whole at every use, so any change prints anew.
 */
interface SavedBody {
  /** Per chain: a user chain's name, a built-in chain's whole declaration (policy and counters). */
  decls: string[];
  counts: Int32Array;
  rules: (Rule | string)[];
  text: string;
}
const SAVED_BODIES = new Map<string, SavedBody>();
/** Smaller tables are printed each time (as fast as they are checked). */
const SAVED_BODY_MIN_RULES = 4096;

function savedBody(table: Table, family: Family): string {
  let n = 0;
  for (const c of table.chains) n += c.rules.length;
  if (n < SAVED_BODY_MIN_RULES) return tableBody(table, family, false);
  const key = `${family}/${table.name}`;
  const had = SAVED_BODIES.get(key);
  if (had && sameBody(table, family, had, n)) return had.text;
  const text = tableBody(table, family, false);
  const decls: string[] = [];
  const counts = new Int32Array(table.chains.length);
  const rules: (Rule | string)[] = new Array<Rule | string>(n);
  let k = 0;
  table.chains.forEach((c, i) => {
    decls.push(c.builtin ? chainDeclaration(c) : c.name);
    counts[i] = c.rules.length;
    for (const r of c.rules) rules[k++] = isFrozenRule(r) ? r : formatRule(c.name, r, family);
  });
  SAVED_BODIES.set(key, { decls, counts, rules, text });
  return text;
}

/** A rule whose save text is fixed: it and every part it prints from are frozen (restore.ts freezeParts, rule-parts.ts). */
function isFrozenRule(r: Rule): boolean {
  return Object.isFrozen(r) && Object.isFrozen(r.matches) && (r.target === undefined || Object.isFrozen(r.target));
}

function sameBody(table: Table, family: Family, saved: SavedBody, n: number): boolean {
  if (saved.decls.length !== table.chains.length || saved.rules.length !== n) return false;
  let k = 0;
  for (let i = 0; i < table.chains.length; i++) {
    const c = table.chains[i] as Chain;
    if (c.rules.length !== saved.counts[i] || (c.builtin ? chainDeclaration(c) : c.name) !== saved.decls[i]) return false;
    for (const r of c.rules) {
      const was = saved.rules[k++];
      if (was === r) continue;
      if (typeof was !== 'string' || isFrozenRule(r) || formatRule(c.name, r, family) !== was) return false;
    }
  }
  return true;
}

/** `iptables-save [-t table]`: every present table (or the one asked for). */
export function renderSave(tables: Partial<Record<TableName, Table>>, opts: SaveOptions & { table?: TableName }): string {
  const names = opts.table ? [opts.table] : SAVE_TABLE_ORDER.filter((t) => tables[t] !== undefined);
  let out = '';
  for (const n of names) {
    const t = tables[n];
    if (t) out += renderSaveTable(t, opts);
  }
  return out;
}

/** `iptables -S [chain [rulenum]] [-v]`. */
export function renderListRules(table: Table, opts: { chain?: string; rulenum?: number; verbose?: boolean; family?: Family } = {}): string {
  const chains = opts.chain === undefined ? table.chains : table.chains.filter((c) => c.name === opts.chain);
  const lines: string[] = [];
  if (opts.rulenum === undefined) {
    for (const c of chains) {
      if (c.builtin)
        lines.push(
          `-P ${c.name} ${c.policy ?? 'ACCEPT'}${opts.verbose ? ` -c ${c.counters.packets} ${c.counters.bytes}` : ''}`,
        );
      else lines.push(`-N ${c.name}`);
    }
  }
  for (const c of chains) {
    c.rules.forEach((r, idx) => {
      if (opts.rulenum !== undefined && idx + 1 !== opts.rulenum) return;
      lines.push(`-A ${c.name}${formatRuleBody(r, opts.verbose === true, opts.family)}`);
    });
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

export interface ListOptions {
  chain?: string;
  rulenum?: number;
  numeric?: boolean;
  verbose?: boolean;
  exact?: boolean;
  lineNumbers?: boolean;
  flavor?: IptablesFlavor;
  family?: Family;
}

/** xtables_print_num: counters in a column (`%8llu`/`%5llu`+K/M/G/T) or inline. */
function printNum(n: number, exact: boolean, table: boolean): string {
  if (exact) return table ? `${String(n).padStart(8, ' ')} ` : `${n} `;
  if (n <= 99999) return table ? `${String(n).padStart(5, ' ')} ` : `${n} `;
  const units = ['K', 'M', 'G', 'T'];
  let v = n;
  for (const u of units) {
    v = Math.floor((v + 500) / 1000);
    if (v <= 9999 || u === 'T') return table ? `${String(v).padStart(4, ' ')}${u} ` : `${v}${u} `;
  }
  return `${v} `;
}

function padEnd(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function addrColumn(a: Rule['src'], numeric: boolean, family: Family): string {
  const v6 = family === 'ipv6';
  // nft-ipv6.c print: `::/0` (numeric) or `anywhere` for no address, a host without its /128
  if (!a || (a.prefix === 0 && a.addr === (v6 ? '::' : '0.0.0.0'))) return `${a?.neg ? '!' : ' '}${padEnd(numeric ? (v6 ? '::/0' : '0.0.0.0/0') : 'anywhere', 19)} `;
  let host = a.addr;
  if (!v6 && !numeric && (a.addr === '127.0.0.0' || a.addr === '127.0.0.1')) host = 'localhost';
  const text = a.prefix === (v6 ? 128 : 32) ? host : `${host}/${a.prefix}`;
  return `${a.neg ? '!' : ' '}${padEnd(text, 19)} `;
}

/** Protocol column: names up to iptables 1.8.8 and from 1.8.11; numbers with -n in 1.8.9/1.8.10. */
function protoColumn(rule: Rule, numeric: boolean, flavor: IptablesFlavor, family: Family): string {
  const num = rule.proto?.num ?? 0;
  const numericProto = numeric && (flavor.version.startsWith('1.8.9') || flavor.version.startsWith('1.8.10'));
  const text = numericProto ? String(num) : (protoName(num, family) ?? String(num));
  return `${rule.proto?.neg ? '!' : ' '}${padEnd(text, 4)} `;
}

function ruleLine(rule: Rule, num: number, o: Required<Omit<ListOptions, 'chain' | 'rulenum'>>): string {
  let s = '';
  if (o.lineNumbers) s += padEnd(String(num), 4) + ' ';
  if (o.verbose) s += printNum(rule.counters.packets, o.exact, true) + printNum(rule.counters.bytes, o.exact, true);
  s += `${padEnd(rule.target?.name ?? '', 9)} `;
  s += protoColumn(rule, o.numeric, o.flavor, o.family);
  s += `${rule.fragment?.neg ? '!' : '-'}${rule.fragment ? 'f' : '-'} `;
  if (o.verbose) {
    const iface = (m: Rule['inIface']): string => `${m?.neg ? '!' : ''}${m ? m.name : o.numeric ? '*' : 'any'}`;
    s += ` ${padEnd(iface(rule.inIface), 6)} ${padEnd(iface(rule.outIface), 6)} `;
  }
  s += addrColumn(rule.src, o.numeric, o.family);
  s += addrColumn(rule.dst, o.numeric, o.family);
  if (rule.target?.goto) s += '[goto] ';
  for (const m of rule.matches) {
    const ext = findMatch(m.module);
    if (ext) s += ext.print(m.options, o.numeric);
  }
  if (rule.target?.kind === 'extension') {
    const ext = findTarget(rule.target.name);
    if (ext) s += ext.print(rule.target.options, o.numeric);
  }
  return s;
}

function header(table: Table, c: Chain, o: Required<Omit<ListOptions, 'chain' | 'rulenum'>>): string {
  let first: string;
  if (c.builtin) {
    first = `Chain ${c.name} (policy ${c.policy ?? 'ACCEPT'}`;
    if (o.verbose)
      first += ` ${printNum(c.counters.packets, o.exact, false)}packets, ${printNum(c.counters.bytes, o.exact, false)}bytes`;
    first += ')';
  } else first = `Chain ${c.name} (${chainReferences(table, c.name)} references)`;
  let h = '';
  if (o.lineNumbers) h += 'num  ';
  if (o.verbose) h += o.exact ? `${'pkts'.padStart(8)} ${'bytes'.padStart(10)} ` : `${'pkts'.padStart(5)} ${'bytes'.padStart(5)} `;
  h += `${padEnd('target', 9)} `;
  h += ' prot opt';
  if (o.verbose) h += ` ${padEnd('in', 6)} ${padEnd('out', 6)} `;
  h += ` ${padEnd('source', 19)} `;
  h += ` ${padEnd('destination', 19)} `;
  return `${first}\n${h}`;
}

/** `iptables [-t t] -L [chain [rulenum]] [-n] [-v] [-x] [--line-numbers]`. */
export function renderList(table: Table, opts: ListOptions = {}): string {
  const o = {
    numeric: opts.numeric ?? false,
    verbose: opts.verbose ?? false,
    exact: opts.exact ?? false,
    lineNumbers: opts.lineNumbers ?? false,
    flavor: opts.flavor ?? DEFAULT_FLAVOR,
    family: opts.family ?? 'ipv4',
  };
  const chains = opts.chain === undefined ? table.chains : table.chains.filter((c) => c.name === opts.chain);
  const blocks: string[] = [];
  for (const c of chains) {
    const lines: string[] = [];
    if (opts.rulenum === undefined) lines.push(header(table, c, o));
    c.rules.forEach((r, idx) => {
      if (opts.rulenum !== undefined && idx + 1 !== opts.rulenum) return;
      lines.push(ruleLine(r, idx + 1, o));
    });
    blocks.push(lines.join('\n'));
  }
  return blocks.length ? `${blocks.join('\n\n')}\n` : '';
}
