/**
 * A flag parser with cobra/pflag's semantics and error wording (github.com/spf13/pflag flag.go,
 * cobra command.go), so `kubectl` typos fail exactly as the real binary fails:
 * `error: unknown flag: --replica`, `error: unknown shorthand flag: 'z' in -z`,
 * `error: flag needs an argument: 'n' in -n`, `error: invalid argument "x" for "--replicas" flag: …`.
 * Flags may come anywhere; `--` ends flag parsing.
 */

import type { FlagDecl, FlagType } from './spec/types.js';
import { GLOBAL_OPTIONS } from './spec/index.js';

export type { FlagType };

/** A flag as the parser reads it: a command's declaration (spec/*.ts), with pflag's printed `defValue`. */
export type FlagSpec = FlagDecl;

export type FlagValues = Record<string, string | number | boolean | string[] | undefined>;

export interface Parsed {
  flags: FlagValues;
  /** Which flags the user set explicitly. */
  changed: Set<string>;
  /** Every flag occurrence in the order given, with its raw value (pflag's ParseAll visit order). */
  given: Array<[name: string, value: string]>;
  args: string[];
  /** Arguments after `--`. */
  dashArgs: string[];
  sawDash: boolean;
}

export class FlagError extends Error {}

/** cobra's required-flag failure: printed as `error: …` without the usage hint (errors.ts). */
export class FlagRequiredError extends Error {}

/** Flags every kubectl command accepts: `kubectl options`, plus cobra's own -h/--help. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [...GLOBAL_OPTIONS, { name: 'help', short: 'h', type: 'bool', defValue: 'false', usage: 'help for kubectl' }];

/**
 * The typed value a flag starts with, from its declared default: pflag's printed DefValue read back
 * (`'none'` → none, `false` → false, `-1` → -1, `[a,b]` → [a, b]). Empty strings and empty lists
 * stay unset, so verbs tell "not given" apart with `str()`/`list()` exactly as before.
 */
export function initialValue(f: FlagDecl): string | number | boolean | string[] | undefined {
  const d = f.defValue;
  if (d === undefined || d === '' || d === "''" || d === '[]') return undefined;
  switch (f.type) {
    case 'bool':
      return d === 'true';
    case 'int':
      return Number(d);
    case 'stringArray':
    case 'stringSlice':
      return d.slice(1, -1).split(',');
    default:
      return d.startsWith("'") && d.endsWith("'") ? d.slice(1, -1) : d;
  }
}

function parseInt32(name: string, v: string): number {
  if (!/^[-+]?\d+$/.test(v)) throw new FlagError(`invalid argument "${v}" for "--${name}" flag: strconv.ParseInt: parsing "${v}": invalid syntax`);
  // pflag's int is strconv.ParseInt(s, 0, 64): beyond int64 is a range error, never a float
  const big = BigInt(v);
  if (big > 2n ** 63n - 1n || big < -(2n ** 63n)) throw new FlagError(`invalid argument "${v}" for "--${name}" flag: strconv.ParseInt: parsing "${v}": value out of range`);
  return Number(v);
}

function parseBool(name: string, v: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw new FlagError(`invalid argument "${v}" for "--${name}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`);
}

/** What parseFlags looks flags up in, and the values they start with, for one list of specs. */
interface FlagTables {
  byName: ReadonlyMap<string, FlagSpec>;
  byShort: ReadonlyMap<string, FlagSpec>;
  initial: ReadonlyArray<readonly [string, string | number | boolean | string[]]>;
  /** The flags whose default is a list: each parse takes its own copy. */
  listDefaults: readonly string[];
}

/**
 * The tables of a frozen spec list (spec/lookup.ts flagsOf's, one per command), built at its
 * first parse: they depend on nothing but the list and GLOBAL_FLAGS, both constant, and building
 * them was most of parsing a kubectl line's flags. A list not frozen is read afresh each time.
 */
const TABLES = new WeakMap<readonly FlagSpec[], FlagTables>();

function tablesOf(specs: readonly FlagSpec[]): FlagTables {
  const hit = TABLES.get(specs);
  if (hit) return hit;
  const all = [...specs, ...GLOBAL_FLAGS.filter((g) => !specs.some((s) => s.name === g.name || (g.short !== undefined && s.short === g.short)))];
  const initial: Array<readonly [string, string | number | boolean | string[]]> = [];
  for (const s of all) {
    const v = initialValue(s);
    if (v !== undefined) initial.push([s.name, v]);
  }
  const template: FlagValues = {};
  for (const [name, v] of initial) template[name] = v;
  const listDefaults = Object.keys(template).filter((k) => Array.isArray(template[k]));
  const t: FlagTables = { byName: new Map(all.map((s) => [s.name, s])), byShort: new Map(all.filter((s) => s.short).map((s) => [s.short!, s])), initial, listDefaults };
  if (Object.isFrozen(specs)) TABLES.set(specs, t);
  return t;
}

export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): Parsed {
  const { byName, byShort, initial, listDefaults } = tablesOf(specs);
  // the defaults set one by one, as tablesOf's template was built (the same keys in the same
  // order): spreading that template, an object of a few dozen keys V8 keeps as a dictionary, took
  // its slow path and was most of parsing a line's flags
  const flags: FlagValues = {};
  for (const [name, v] of initial) flags[name] = v;
  // (a list default is the caller's own array, as initialValue made one per parse)
  for (const name of listDefaults) flags[name] = (flags[name] as string[]).slice();
  // the list flags given so far: a later occurrence appends to them (not to the default)
  const listsGiven = new Set<string>();
  const changed = new Set<string>();
  const given: Array<[string, string]> = [];
  const args: string[] = [];
  const set = (spec: FlagSpec, raw: string | undefined, display: string, takeNext: () => string | undefined): void => {
    changed.add(spec.name);
    if (spec.type === 'bool') {
      flags[spec.name] = raw === undefined ? true : parseBool(spec.name, raw);
      given.push([spec.name, raw ?? 'true']);
      return;
    }
    let v = raw;
    if (v === undefined) {
      if (spec.noOptDefault !== undefined) v = spec.noOptDefault;
      else {
        v = takeNext();
        if (v === undefined) throw new FlagError(`flag needs an argument: ${display}`);
      }
    }
    given.push([spec.name, v]);
    if (spec.type === 'int') flags[spec.name] = parseInt32(spec.name, v);
    else if (spec.type === 'stringArray') flags[spec.name] = [...((Array.isArray(flags[spec.name]) && listsGiven.has(spec.name) ? flags[spec.name] : []) as string[]), v];
    else if (spec.type === 'stringSlice') flags[spec.name] = [...((listsGiven.has(spec.name) ? flags[spec.name] : []) as string[]), ...v.split(',')];
    else flags[spec.name] = v;
    if (spec.type === 'stringArray' || spec.type === 'stringSlice') listsGiven.add(spec.name);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string | undefined => (i + 1 < argv.length ? argv[++i] : undefined);
    if (a === '--') {
      return { flags, changed, given, args, dashArgs: argv.slice(i + 1), sawDash: true };
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const spec = byName.get(name);
      if (!spec) throw new FlagError(`unknown flag: --${name}`);
      set(spec, eq >= 0 ? a.slice(eq + 1) : undefined, `--${name}`, next);
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) {
      const body = a.slice(1);
      for (let j = 0; j < body.length; j++) {
        const ch = body[j]!;
        const spec = byShort.get(ch);
        if (!spec) throw new FlagError(`unknown shorthand flag: '${ch}' in -${body}`);
        if (spec.type === 'bool') {
          if (body[j + 1] === '=') {
            set(spec, body.slice(j + 2), `'${ch}' in -${body}`, next);
            break;
          }
          set(spec, undefined, `'${ch}' in -${body}`, next);
          continue;
        }
        const rest = body.slice(j + 1);
        set(spec, rest === '' ? undefined : rest.startsWith('=') ? rest.slice(1) : rest, `'${ch}' in -${body}`, next);
        break;
      }
      continue;
    }
    args.push(a);
  }
  return { flags, changed, given, args, dashArgs: [], sawDash: false };
}

export const str = (f: FlagValues, k: string): string | undefined => (typeof f[k] === 'string' ? (f[k] as string) : undefined);
export const bool = (f: FlagValues, k: string): boolean => f[k] === true;
export const int = (f: FlagValues, k: string): number | undefined => (typeof f[k] === 'number' ? (f[k] as number) : undefined);
export const list = (f: FlagValues, k: string): string[] => (Array.isArray(f[k]) ? (f[k] as string[]) : []);

/** cobra's `required flag(s) "a", "b" not set` (names sorted as pflag visits them). */
export function checkRequired(p: Parsed, required: readonly string[]): void {
  const missing = required.filter((r) => !p.changed.has(r)).sort();
  if (missing.length > 0) throw new FlagRequiredError(`required flag(s) ${missing.map((m) => `"${m}"`).join(', ')} not set`);
}
