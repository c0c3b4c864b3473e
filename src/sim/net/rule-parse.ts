/**
 * Parses an iptables rule specification (command or iptables-restore syntax) into the stored
 * Rule form, normalised the way the kernel keeps it, so that printing gives iptables-save's text:
 * `-p` moves into the header, implicit protocol matches (`--dport` after `-p tcp`) become
 * `-m tcp`, addresses are masked and get `/32`, each extension canonicalises its options.
 *
 * Emulates: iptables/xshared.c (do_parse / command_default / command_match / command_jump),
 * libxtables/xtables.c (xtables_parse_protocol, xtables_ipparse_any, option merging: the most
 * recently loaded extension that knows an option receives it).
 */
import type { AddrMatch, Match, ProtoMatch, Rule, Target } from './iptables.js';
import type { Extension, RawOption } from './extensions.js';
import { STANDARD_TARGETS, findMatch, findTarget } from './extensions.js';
import { formatIPv4, parseCidr } from './ipv4.js';
import { parseCidr6, type Family } from './ipv6.js';

/** Protocol names iptables knows without /etc/protocols (xtables_chain_protos + common ones). */
export const PROTO_NAMES: Readonly<Record<string, number>> = {
  all: 0,
  icmp: 1,
  tcp: 6,
  udp: 17,
  gre: 47,
  esp: 50,
  ah: 51,
  icmpv6: 58,
  'ipv6-icmp': 58,
  sctp: 132,
  udplite: 136,
};

export function protoName(num: number, family: Family = 'ipv4'): string | undefined {
  // ip6tables 1.8.9 names 58 as /etc/protocols does (recorded: `-p ipv6-icmp`)
  if (family === 'ipv6' && num === 58) return 'ipv6-icmp';
  for (const [name, n] of Object.entries(PROTO_NAMES)) if (n === num) return name;
  return undefined;
}

export type ParseResult =
  | { ok: true; rule: Rule }
  /** A PARAMETER_PROBLEM: printed as `iptables vX (backend): <message>` + the "Try" line, exit 2. */
  | { ok: false; message: string };

export interface ParseOptions {
  /** Whether a user chain of this name exists in the target table (for `-j CHAIN`). */
  chainExists(name: string): boolean;
  /** ip6tables parses IPv6 addresses (and refuses IPv4 ones, as iptables refuses IPv6); default ipv4. */
  family?: Family;
}

interface PendingExt {
  ext: Extension;
  raw: RawOption[];
}

function err(message: string): ParseResult {
  return { ok: false, message };
}

/** `[!] -s/-d s` as the rule keeps it, or the error text (exported for rule-parts.ts, which builds rules from the parser's pieces). */
export function parseAddr(s: string, neg: boolean, family: Family): AddrMatch | string {
  if (family === 'ipv6') {
    // xtables_ip6parse_any: a bad mask is its own error; anything not an IPv6 literal is a host name not found
    const c6 = parseCidr6(s);
    if (c6 === 'mask') return `invalid mask \`${s.slice(s.indexOf('/') + 1)}' specified`;
    if (!c6) return `host/network \`${s.includes('/') ? s.slice(0, s.indexOf('/')) : s}' not found`;
    return { addr: c6.addr, prefix: c6.prefix, neg };
  }
  const c = parseCidr(s);
  if (!c) return `host/network \`${s}' not found`;
  return { addr: formatIPv4(c.addr), prefix: c.prefix, neg };
}

/**
 * Parses the rule part of an iptables command line: everything except the command, chain and
 * table options, e.g. `['-d','10.96.0.10','-p','udp','--dport','53','-j','KUBE-SVC-X']`.
 */
export function parseRuleArgs(args: readonly string[], opts: ParseOptions): ParseResult {
  const family = opts.family ?? 'ipv4';
  const rule: Rule = { matches: [], counters: { packets: 0, bytes: 0 } };
  const loaded: PendingExt[] = [];
  let target: { name: string; goto: boolean; ext?: PendingExt } | undefined;
  let neg = false;
  let i = 0;

  const next = (): string | undefined => {
    i++;
    return args[i];
  };

  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '!') {
      if (neg) return err('multiple consecutive ! not allowed');
      neg = true;
      continue;
    }
    const consumedNeg = neg;
    neg = false;
    switch (a) {
      case '-s':
      case '--source':
      case '--src':
      case '-d':
      case '--destination':
      case '--dst': {
        const v = next();
        if (v === undefined) return err(`option "${a}" requires an argument`);
        const isSrc = a === '-s' || a === '--source' || a === '--src';
        if ((isSrc ? rule.src : rule.dst) !== undefined) return err(`multiple -${isSrc ? 's' : 'd'} flags not allowed`);
        const m = parseAddr(v, consumedNeg, family);
        if (typeof m === 'string') return err(m);
        if (isSrc) rule.src = m;
        else rule.dst = m;
        continue;
      }
      case '-i':
      case '--in-interface':
      case '-o':
      case '--out-interface': {
        const v = next();
        if (v === undefined) return err(`option "${a}" requires an argument`);
        if (v.length > 15) return err(`interface name \`${v}' must be shorter than IFNAMSIZ (15)`);
        if (a === '-i' || a === '--in-interface') rule.inIface = { name: v, neg: consumedNeg };
        else rule.outIface = { name: v, neg: consumedNeg };
        continue;
      }
      case '-p':
      case '--protocol': {
        const v = next();
        if (v === undefined) return err(`option "${a}" requires an argument`);
        if (rule.proto !== undefined) return err('multiple -p flags not allowed');
        const lower = v.toLowerCase();
        let num: number | undefined = PROTO_NAMES[lower];
        if (num === undefined && /^[0-9]+$/.test(v) && Number(v) <= 255) num = Number(v);
        if (num === undefined) return err(`unknown protocol "${v}" specified`);
        if (num === 0 && consumedNeg) return err('rule would never match protocol');
        const p: ProtoMatch = { num, neg: consumedNeg };
        if (num !== 0 || consumedNeg) rule.proto = p;
        continue;
      }
      case '-f':
      case '--fragment':
        // ip6tables has no fragment flag in its header (nft-ipv6.c): xshared.c refuses it
        if (family === 'ipv6') return err("`-f' is not supported in IPv6, use -m frag instead");
        rule.fragment = { neg: consumedNeg };
        continue;
      case '-m':
      case '--match': {
        if (consumedNeg) return err('unexpected ! flag before --match');
        const v = next();
        if (v === undefined) return err(`option "${a}" requires an argument`);
        const ext = findMatch(v);
        if (!ext) return err(`Couldn't load match \`${v}':No such file or directory\n`);
        loaded.push({ ext, raw: [] });
        continue;
      }
      case '-j':
      case '--jump':
      case '-g':
      case '--goto': {
        if (consumedNeg) return err(`cannot have ! before ${a}`);
        const v = next();
        if (v === undefined) return err(`option "${a}" requires an argument`);
        if (target) return err('multiple -j flags not allowed');
        const isGoto = a === '-g' || a === '--goto';
        const ext = isGoto ? undefined : findTarget(v);
        if (ext) target = { name: v, goto: false, ext: { ext, raw: [] } };
        else if (STANDARD_TARGETS.includes(v)) {
          if (isGoto) return err(`goto '${v}' is not a chain\n`);
          target = { name: v, goto: false };
        } else if (opts.chainExists(v)) target = { name: v, goto: isGoto };
        else return err(`Couldn't load target \`${v}':No such file or directory\n`);
        continue;
      }
      case '-c':
      case '--set-counters': {
        const p = args[i + 1];
        const b = args[i + 2];
        i += 2;
        if (p === undefined || b === undefined || !/^[0-9]+$/.test(p) || !/^[0-9]+$/.test(b))
          return err('-c packet counter not numeric');
        rule.counters = { packets: Number(p), bytes: Number(b) };
        continue;
      }
      default:
        break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const flag = a.slice(2);
      const owner = findOwner(flag, loaded, target?.ext, rule.proto?.num ?? 0);
      if (owner === 'unknown') return err(`unknown option "${a}"`);
      const def = owner.ext.flags[flag];
      if (!def) return err(`unknown option "${a}"`);
      if (consumedNeg && !def.negatable) return err(`cannot have ! before ${a}`);
      const values: string[] = [];
      if (def.arity === 1) {
        const v = args[i + 1];
        if (v === undefined) return err(`option "${a}" requires an argument`);
        values.push(v);
        i++;
      }
      owner.raw.push({ flag: def.alias ?? flag, neg: consumedNeg, values });
      continue;
    }
    return err(`Bad argument \`${a}'`);
  }
  if (neg) return err("no argument following '!'");

  const proto = rule.proto?.num ?? 0;
  for (const p of loaded) {
    const n = p.ext.normalise(p.raw, { proto, family });
    if (!n.ok) return err(n.message);
    const m: Match = { module: p.ext.name, options: n.options };
    rule.matches.push(m);
  }
  if (target) {
    let t: Target;
    if (target.ext) {
      const n = target.ext.ext.normalise(target.ext.raw, { proto, family });
      if (!n.ok) return err(n.message);
      t = { name: target.name, kind: 'extension', goto: false, options: n.options };
    } else {
      const kind = STANDARD_TARGETS.includes(target.name) ? 'standard' : 'chain';
      t = { name: target.name, kind, goto: target.goto, options: [] };
    }
    rule.target = t;
  }
  return { ok: true, rule };
}

/**
 * The extension that receives `--flag`: the target when it knows the flag, else the most recently
 * loaded match that knows it, else the implicit match of `-p` (loaded on first use).
 */
function findOwner(
  flag: string,
  loaded: PendingExt[],
  target: PendingExt | undefined,
  proto: number,
): PendingExt | 'unknown' {
  if (target && target.ext.flags[flag]) return target;
  for (let k = loaded.length - 1; k >= 0; k--) {
    const p = loaded[k] as PendingExt;
    if (p.ext.flags[flag]) return p;
  }
  const implicit = proto === 0 ? undefined : protoName(proto);
  if (implicit && !loaded.some((p) => p.ext.name === implicit)) {
    const ext = findMatch(implicit);
    if (ext && ext.flags[flag]) {
      const p = { ext, raw: [] };
      loaded.push(p);
      return p;
    }
  }
  return 'unknown';
}

/**
 * Splits one iptables-restore line into arguments: whitespace separated, double quotes group
 * (and are removed), backslash escapes the next character inside quotes. Mirrors
 * iptables/xshared.c add_param_to_argv.
 */
export function tokenizeRuleLine(line: string): string[] {
  // runs between separators and quotes are taken as slices, not built a character at a time: a
  // token of more than a few characters built so was a chain of one-character pieces, and
  // iptables-restore tokenizes every line of a payload it has not seen (170,000 at 10,000 Services)
  const out: string[] = [];
  const n = line.length;
  let cur = '';
  let has = false;
  for (let k = 0; k < n; ) {
    const c = line.charCodeAt(k);
    if (c === 32 /* space */ || c === 9 /* tab */) {
      if (has) out.push(cur);
      cur = '';
      has = false;
      k++;
      continue;
    }
    has = true;
    if (c === 34 /* " */) {
      // up to the closing quote (or the end), a backslash taking the next character as it is
      k++;
      let from = k;
      while (k < n) {
        const q = line.charCodeAt(k);
        if (q === 92 /* \ */ && k + 1 < n) {
          cur += line.slice(from, k) + (line[k + 1] as string);
          k += 2;
          from = k;
          continue;
        }
        if (q === 34) break;
        k++;
      }
      cur += line.slice(from, k);
      if (k < n) k++;
      continue;
    }
    const from = k;
    while (k < n) {
      const q = line.charCodeAt(k);
      if (q === 32 || q === 9 || q === 34) break;
      k++;
    }
    cur = cur === '' ? line.slice(from, k) : cur + line.slice(from, k);
  }
  if (has) out.push(cur);
  return out;
}
