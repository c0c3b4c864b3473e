/**
 * Parts of parsed rules for a writer that builds the rules of the lines it renders instead of
 * having iptables-restore tokenise and parse their text again (kube-proxy:
 * kube-proxy/parsed-rules.ts, handed to restore.ts applyRestoreLines as KnownLines). Each part is
 * made by the parser's own pieces (rule-parse.ts parseAddr and PROTO_NAMES, each extension's
 * normalise, the target lookup of parseRuleArgs), so a part is what parseRuleArgs puts in a rule
 * for the same arguments; the writer only assembles them in the order parseRuleArgs does, and its
 * test compares every rule it builds with the parse of its line. Parts are frozen, as restore.ts
 * freezes what it parses (see its sharedRule): rules are replaced, never changed in place.
 * Undefined wherever the parse would fail: the writer then leaves the line to the parser, which
 * fails with the real error.
 */
import type { AddrMatch, Counters, ExtOption, Match, ProtoMatch, Rule, Target } from './iptables.js';
import type { RawOption } from './extensions.js';
import { STANDARD_TARGETS, findMatch, findTarget } from './extensions.js';
import { PROTO_NAMES, parseAddr } from './rule-parse.js';
import type { Family } from './ipv6.js';

/** The counters of every restored rule without `[p:b]`: one frozen object (restore.ts sharedRule hands such rules out as they are). */
export const ZERO_COUNTERS: Readonly<Counters> = Object.freeze({ packets: 0, bytes: 0 });

/** The options of a target or match without any, one frozen array for all (nothing compares them by identity). */
const NO_OPTIONS = Object.freeze([]) as unknown as ExtOption[];

function frozenOptions(options: ExtOption[]): ExtOption[] {
  if (options.length === 0) return NO_OPTIONS;
  for (const o of options) {
    Object.freeze(o.values);
    Object.freeze(o);
  }
  return Object.freeze(options) as ExtOption[];
}

/** A raw option as parseRuleArgs collects it (`--flag value`, no `!`). */
export function rawOption(flag: string, value?: string): RawOption {
  return { flag, neg: false, values: value === undefined ? [] : [value] };
}

/** `-m module <raw options>` of a rule whose protocol (`-p`) is `proto`. */
export function matchPart(module: string, raw: RawOption[], proto: number, family: Family): Match | undefined {
  const ext = findMatch(module);
  if (!ext) return undefined;
  const n = ext.normalise(raw, { proto, family });
  if (!n.ok) return undefined;
  return Object.freeze({ module: ext.name, options: frozenOptions(n.options) });
}

/** `-j name <raw options>`: an extension, a verdict or (`chain`: the user chain exists) a jump. */
export function targetPart(name: string, raw: RawOption[], proto: number, family: Family, chain: boolean): Target | undefined {
  const ext = findTarget(name);
  if (ext) {
    const n = ext.normalise(raw, { proto, family });
    if (!n.ok) return undefined;
    return Object.freeze({ name, kind: 'extension', goto: false, options: frozenOptions(n.options) });
  }
  if (raw.length > 0) return undefined;
  if (STANDARD_TARGETS.includes(name)) return Object.freeze({ name, kind: 'standard', goto: false, options: frozenOptions([]) });
  return chain ? Object.freeze({ name, kind: 'chain', goto: false, options: frozenOptions([]) }) : undefined;
}

/** `[!] -s/-d s`. */
export function addrPart(s: string, neg: boolean, family: Family): AddrMatch | undefined {
  const a = parseAddr(s, neg, family);
  return typeof a === 'string' ? undefined : Object.freeze(a);
}

/** `-p name` (not negated) and its number, for a protocol the rule keeps (not `all`). */
export function protoPart(name: string): ProtoMatch | undefined {
  const num = PROTO_NAMES[name.toLowerCase()];
  return num === undefined || num === 0 ? undefined : Object.freeze({ num, neg: false });
}

/** A rule assembled from parts, frozen with its matches array (render.ts keys its save text by that array). */
export function frozenRule(rule: Rule): Rule {
  Object.freeze(rule.matches);
  return Object.freeze(rule);
}
