/**
 * The rules of kube-proxy's most frequent payload lines, built from their data as iptables-restore
 * would parse their text (restore.ts KnownLine): a full sync of a 10,000-Service / 50,000-endpoint
 * cluster writes 170,000 `-A` lines, and tokenising and parsing them again in the restore was
 * most of a node's first sync. Each builder mirrors one line shape of sync.ts renderPort (whose
 * text stays what the payload says and what upstream's tests expect) and assembles the parts the
 * parse would make (net/rule-parts.ts: made by the parser's own pieces) in the order
 * rule-parse.ts parseRuleArgs sets them: `matches`, `counters`, then `-s`/`-d`/`-p` as they come,
 * then the target. parsed-rules.test.ts compares each built rule with the parse of its line.
 * A builder returns undefined where its text would not parse the usual way (a token the tokenizer
 * would split or unquote differently, a value an extension refuses): that line is parsed.
 *
 * Chains are given as their refs (restore.ts chainRef: the name interned, as the restore's chain
 * index keys it), made once per chain by the caller; each built line carries the refs of the chain
 * it goes to and of the one it jumps to, for the restore to find them on (restore.ts ChainRef).
 */
import type { AddrMatch, Match, ProtoMatch, Rule, Target } from '../iptables.js';
import type { Family } from '../ipv6.js';
import type { ChainRef, ParsedLine } from '../restore.js';
import { chainRef, internName } from '../restore.js';
import { ZERO_COUNTERS, addrPart, frozenRule, matchPart, protoPart, rawOption, targetPart } from '../rule-parts.js';

/** A token tokenizeRuleLine takes as it is: no separator (space, tab), no quote, no line break. */
const BARE = /^[^ \t"\r\n]+$/;
/** The text of a double-quoted token tokenizeRuleLine reads back as it is: no quote, no backslash. */
const QUOTABLE = /^[^"\\\r\n]*$/;

/** Parts shared by many rules, made once per family. */
interface Shared {
  proto: Map<string, ProtoMatch | undefined>;
  /** `-m <p>` without options (the DNAT rule of an endpoint chain). */
  portMatch: Map<string, Match | undefined>;
  /** `-m statistic --mode random --probability <x>`. */
  statistic: Map<string, Match | undefined>;
  /** `-m <p> --dport <port>` by `<p> <port>`: a Service's cluster IP rule and its masquerade rule, and every Service of that port. */
  dport: Map<string, Match | undefined>;
  /**
   * The last address parts made, by their text and negation: the cluster IP of a Service's two
   * rules (made one after the other), the cluster CIDR of every masquerade rule. A part is
   * frozen, so rules may share it as they share the parts above.
   */
  lastAddr: { text: string; neg: boolean; part: AddrMatch | undefined }[];
  /** `-j KUBE-MARK-MASQ`. */
  markMasq: Target | undefined;
}
const SHARED = new Map<Family, Shared>();
/** KUBE-MARK-MASQ, interned, and its ref. */
export const MARK_MASQ = internName('KUBE-MARK-MASQ');
export const MARK_MASQ_REF = chainRef(MARK_MASQ);

function shared(family: Family): Shared {
  let s = SHARED.get(family);
  if (!s) {
    s = { proto: new Map(), portMatch: new Map(), statistic: new Map(), dport: new Map(), lastAddr: [], markMasq: targetPart(MARK_MASQ, [], 0, family, true) };
    SHARED.set(family, s);
  }
  return s;
}

function memo<T>(m: Map<string, T>, key: string, make: () => T): T {
  if (m.has(key)) return m.get(key) as T;
  const v = make();
  if (m.size < 4096) m.set(key, v);
  return v;
}

/** `-m comment --comment <text>` as its line writes it: quoted (q) or bare. */
export function commentMatch(text: string, quoted: boolean, proto: number, family: Family): Match | undefined {
  if (quoted ? !QUOTABLE.test(text) : !BARE.test(text)) return undefined;
  return matchPart('comment', [rawOption('comment', text)], proto, family);
}

function proto(p: string, family: Family): ProtoMatch | undefined {
  return BARE.test(p) ? memo(shared(family).proto, p, () => protoPart(p)) : undefined;
}

/**
 * addrPart of `text`, the same part as the last few calls with that text and negation made: a
 * Service's cluster IP is parsed once for its two rules, the cluster CIDR once for all of them.
 */
function sharedAddr(text: string, neg: boolean, family: Family): AddrMatch | undefined {
  const last = shared(family).lastAddr;
  for (const e of last) if (e.text === text && e.neg === neg) return e.part;
  const part = BARE.test(text) ? addrPart(text, neg, family) : undefined;
  if (last.length >= 4) last.shift();
  last.push({ text, neg, part });
  return part;
}

function line(chain: ChainRef, rule: Rule, needs: ChainRef | undefined): ParsedLine {
  return { chain: chain.name, rule: frozenRule(rule), needs: needs?.name, chainRef: chain, needsRef: needs };
}

/** A jump to user chain `name` (interned): the part and what the restore checks it needs. */
function jump(name: string, family: Family): Target | undefined {
  return BARE.test(name) ? targetPart(name, [], 0, family, true) : undefined;
}

/**
 * `-A <chain> -m comment --comment "<comment>" -m <p> -p <p> -d <ip> --dport <port>[ ! -s <notSrc>] -j <target>`:
 * a Service's cluster IP rule in KUBE-SERVICES and the masquerade rule of its internal chain.
 * `comment`: the match, made once for both (commentMatch with quoted true).
 */
export function clusterIPLine(chain: ChainRef, comment: Match | undefined, p: string, ip: string, port: string, notSrc: string | undefined, target: ChainRef, family: Family): ParsedLine | undefined {
  const pr = proto(p, family);
  if (!comment || !pr || !BARE.test(ip) || !BARE.test(port)) return undefined;
  const pm = memo(shared(family).dport, `${p} ${port}`, () => matchPart(p, [rawOption('dport', port)], pr.num, family));
  const dst = sharedAddr(ip, false, family);
  const src = notSrc === undefined ? undefined : sharedAddr(notSrc, true, family);
  const t = target === MARK_MASQ_REF ? shared(family).markMasq : jump(target.name, family);
  if (!pm || !dst || (notSrc !== undefined && !src) || !t) return undefined;
  const rule: Rule = src ? { matches: [comment, pm], counters: ZERO_COUNTERS, proto: pr, dst, src, target: t } : { matches: [comment, pm], counters: ZERO_COUNTERS, proto: pr, dst, target: t };
  return line(chain, rule, target);
}

/**
 * `-A <chain>[ -m comment --comment "<comment>"][ -m statistic --mode random --probability <probability>] -j <sep>`:
 * a Service chain's rule to one endpoint (writeServiceToEndpointRules, without session affinity).
 */
export function dispatchLine(chain: ChainRef, comment: string | undefined, probability: string | undefined, sep: ChainRef, family: Family): ParsedLine | undefined {
  let cm: Match | undefined;
  if (comment !== undefined) {
    cm = commentMatch(comment, true, 0, family);
    if (!cm) return undefined;
  }
  let sm: Match | undefined;
  if (probability !== undefined) {
    sm = memo(shared(family).statistic, probability, () => (BARE.test(probability) ? matchPart('statistic', [rawOption('mode', 'random'), rawOption('probability', probability)], 0, family) : undefined));
    if (!sm) return undefined;
  }
  // (the array made at its length: pushing onto an empty one leaves room for 17, and a cold sync keeps 50,000 of them)
  const matches: Match[] = cm ? (sm ? [cm, sm] : [cm]) : sm ? [sm] : [];
  const t = jump(sep.name, family);
  return t ? line(chain, { matches, counters: ZERO_COUNTERS, target: t }, sep) : undefined;
}

/** `-A <sep>[ -m comment --comment <comment>] -s <ip> -j KUBE-MARK-MASQ`: an endpoint chain's first rule (`comment`: commentMatch, bare). */
export function endpointMasqLine(sep: ChainRef, comment: Match | undefined | null, ip: string, family: Family): ParsedLine | undefined {
  const src = BARE.test(ip) ? addrPart(ip, false, family) : undefined;
  const t = shared(family).markMasq;
  if (comment === undefined || !src || !t) return undefined;
  return line(sep, { matches: comment ? [comment] : [], counters: ZERO_COUNTERS, src, target: t }, MARK_MASQ_REF);
}

/**
 * `-A <sep>[ -m comment --comment <comment>] -m <p> -p <p> -j DNAT --to-destination <endpoint>`: an
 * endpoint chain's DNAT rule without session affinity (`comment`: commentMatch, bare; null: none).
 */
export function endpointDnatLine(sep: ChainRef, comment: Match | undefined | null, p: string, endpoint: string, family: Family): ParsedLine | undefined {
  const pr = proto(p, family);
  if (comment === undefined || !pr || !BARE.test(endpoint)) return undefined;
  const pm = memo(shared(family).portMatch, p, () => matchPart(p, [], pr.num, family));
  const t = targetPart('DNAT', [rawOption('to-destination', endpoint)], pr.num, family, false);
  if (!pm || !t) return undefined;
  return line(sep, { matches: comment ? [comment, pm] : [pm], counters: ZERO_COUNTERS, proto: pr, target: t }, undefined);
}
