/**
 * Matchers and normalisers shared by every check that compares a string: a check reads an actual
 * value (a jsonpath result, a file, a command's output, a typed answer) and one matcher decides.
 */
import { z } from 'zod/v4';
import { LinearRegExp, RegexBudgetError } from '../../util/regex/index.js';
import { remember } from '../../util/bounded-map.js';

export const NORMALISERS = ['trim', 'sort-lines', 'ignore-case', 'squeeze-space'] as const;
export type Normaliser = (typeof NORMALISERS)[number];

export const MatcherSchema = z
  .strictObject({
    equals: z.union([z.string(), z.number(), z.boolean()]).optional(),
    contains: z.string().optional(),
    notContains: z.string().optional(),
    regex: z
      .string()
      .refine((r) => {
        try {
          new LinearRegExp(r, 'm');
          return true;
        } catch {
          return false;
        }
      }, 'a regular expression in JavaScript syntax without lookarounds (matched in linear time)')
      .optional(),
    setEquals: z.array(z.union([z.string(), z.number()])).optional(),
    quantity: z.string().optional(),
    /** Applied to the actual value (and to the expected text) before matching; default [trim]. */
    normalize: z.array(z.enum(NORMALISERS)).optional(),
  })
  .refine((m) => ['equals', 'contains', 'notContains', 'regex', 'setEquals', 'quantity'].filter((k) => (m as Record<string, unknown>)[k] !== undefined).length === 1, {
    message: 'give exactly one of equals, contains, notContains, regex, setEquals, quantity',
  });
export type Matcher = z.infer<typeof MatcherSchema>;

export function normalise(s: string, ns: readonly Normaliser[]): string {
  let out = s;
  for (const n of ns) {
    if (n === 'trim') out = out.split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').trim();
    else if (n === 'sort-lines') out = out.split('\n').sort().join('\n');
    else if (n === 'ignore-case') out = out.toLowerCase();
    else out = out.replace(/[ \t]+/g, ' ');
  }
  return out;
}

export interface MatchResult {
  ok: boolean;
  /** What was expected, for the failure message ("equals \"NodePort\""). */
  expected: string;
  /** The actual value after normalising, as shown to the learner. */
  actual: string;
}

/**
 * Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource/quantity.go): decimal SI
 * suffixes (k, M, G, T, P, E, m) and binary ones (Ki, Mi, Gi, Ti, Pi, Ei), and plain/exponent numbers.
 */
export function parseQuantity(s: string): number | undefined {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+))?(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?$/.exec(s.trim());
  if (!m) return undefined;
  const mult: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
  return Number(m[1]) * 10 ** Number(m[2] ?? 0) * (m[3] ? mult[m[3]]! : 1);
}

/**
 * Compiled scenario regexes by flags and pattern: a task's checks are graded many times (every
 * `check`, every validate run) and compiling one costs more than matching it. Exact because a
 * LinearRegExp without the g or y flag keeps no state between matches (its `exec` reads and writes
 * `lastIndex` only when global or sticky; no meter is attached), so a shared one answers `test`
 * as a new one would. Bounded (util/bounded-map.ts remember).
 */
const REGEXES = new Map<string, LinearRegExp>();
const REGEX_MEMO_MAX = 512;

export function compiledRegex(pattern: string, flags: 'm' | 'mi'): LinearRegExp {
  const key = `${flags}\u0000${pattern}`;
  return REGEXES.get(key) ?? remember(REGEXES, key, new LinearRegExp(pattern, flags), REGEX_MEMO_MAX);
}

function splitSet(s: string): string[] {
  return s.split(/[\s,]+/).filter((x) => x !== '');
}

export function match(actualRaw: string, m: Matcher): MatchResult {
  const ns = m.normalize ?? ['trim'];
  const actual = normalise(actualRaw, ns);
  const exp = (v: string | number | boolean): string => normalise(String(v), ns);
  if (m.equals !== undefined) return { ok: actual === exp(m.equals), expected: `equals ${JSON.stringify(exp(m.equals))}`, actual };
  if (m.contains !== undefined) return { ok: actual.includes(exp(m.contains)), expected: `contains ${JSON.stringify(exp(m.contains))}`, actual };
  if (m.notContains !== undefined) return { ok: !actual.includes(exp(m.notContains)), expected: `does not contain ${JSON.stringify(exp(m.notContains))}`, actual };
  if (m.regex !== undefined) {
    const flags = ns.includes('ignore-case') ? 'mi' : 'm';
    // a scenario's regex runs on the linear engine; back-references search within a step budget
    let ok: boolean;
    try {
      ok = compiledRegex(m.regex, flags).test(actual);
    } catch (e) {
      if (!(e instanceof RegexBudgetError)) throw e;
      return { ok: false, expected: `matches /${m.regex}/ (${e.message})`, actual };
    }
    return { ok, expected: `matches /${m.regex}/`, actual };
  }
  if (m.setEquals !== undefined) {
    const want = [...new Set(m.setEquals.map((v) => exp(v)))].sort();
    const got = [...new Set(splitSet(actual))].sort();
    return { ok: want.length === got.length && want.every((w, i) => w === got[i]), expected: `the set {${want.join(', ')}}`, actual: `{${got.join(', ')}}` };
  }
  const q = m.quantity ?? '';
  const want = parseQuantity(q);
  const got = parseQuantity(actual);
  return { ok: want !== undefined && got !== undefined && Math.abs(want - got) <= Math.abs(want) * 1e-9, expected: `the quantity ${q}`, actual };
}
