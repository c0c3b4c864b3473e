/**
 * Parameters drawn from the seed, so a retry is not memorised: `{pick: [...]}`, `{range: [lo, hi]}`,
 * `{pattern: 'web-{word}'}`, or a constant. They are resolved in declaration order (a pattern may
 * use earlier ones as `{{name}}`) from a Random seeded by the scenario id and the seed, so the same
 * seed always gives the same values. `{{name}}` is then substituted in every string of the scenario.
 */
import { Random, randString } from '../util/random.js';
import type { Param } from './schema.js';
import { nearestMsg } from './nearest.js';

/** Short, neutral words for `{word}` (valid in DNS labels). */
export const WORDS = [
  'amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'iris', 'juniper', 'kestrel', 'lotus',
  'maple', 'nova', 'orbit', 'pine', 'quartz', 'river', 'sierra', 'tundra', 'umber', 'vale', 'willow', 'zephyr',
];

export type ParamValues = Record<string, string | number>;

export class ParamError extends Error {}

/** FNV-1a over the id, so each scenario draws its own sequence from the same seed. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function resolveParams(id: string, params: Record<string, Param>, seed: number): ParamValues {
  const rng = new Random((hash(id) ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0);
  const out: ParamValues = {};
  for (const [name, p] of Object.entries(params)) {
    if (typeof p === 'string' || typeof p === 'number') out[name] = typeof p === 'string' ? substitute(p, out) : p;
    else if ('pick' in p) out[name] = p.pick[rng.int(p.pick.length)]!;
    else if ('range' in p) out[name] = p.range[0] + rng.int(p.range[1] - p.range[0] + 1);
    else
      out[name] = substitute(p.pattern, out).replace(/\{(word|n|rand5)\}/g, (_, k: string) =>
        k === 'word' ? WORDS[rng.int(WORDS.length)]! : k === 'n' ? String(rng.int(10)) : randString(rng, 5),
      );
  }
  return out;
}

const PLACEHOLDER = /\{\{\s*([a-zA-Z][a-zA-Z0-9_]*)\s*\}\}/g;

/** Replace `{{name}}`; unknown names are an error that suggests the nearest known one. */
export function substitute(s: string, values: ParamValues): string {
  return s.replace(PLACEHOLDER, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new ParamError(`unknown parameter {{${name}}}${nearestMsg(name, Object.keys(values))}`);
    return String(v);
  });
}

/** Substitute in every string of a plain data tree; a string that is exactly `{{n}}` of a number stays a number. */
export function substituteDeep<T>(value: T, values: ParamValues): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\{\{\s*([a-zA-Z][a-zA-Z0-9_]*)\s*\}\}$/.exec(v);
      if (whole && typeof values[whole[1]!] === 'number') return values[whole[1]!];
      return substitute(v, values);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** Every placeholder name used anywhere in a data tree (for validation). */
export function placeholders(value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') for (const m of v.matchAll(PLACEHOLDER)) out.add(m[1]!);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return out;
}
