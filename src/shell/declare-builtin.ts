/**
 * The pure parts of bash's `declare`/`typeset`/`local` and `complete` (bash builtins/declare.def,
 * complete.def): option parsing and the text `declare -p` / `complete -p` print. The interpreter
 * applies the assignments to its variables and scopes.
 */
import { assocKeyText, type BashAssoc } from './assoc.js';

export interface DeclareOptions {
  /** Attribute letters turned on (`-a`, `-x`, `-i`, …) and off (`+x`). */
  on: Set<string>;
  off: Set<string>;
  /** The NAME[=VALUE] operands. */
  names: string[];
}

/** Attributes the simulated shell keeps; the others are refused with a clear message. */
const KNOWN = 'aAixgpfFr';

/** Options of `declare`; a string is the error text (status 2). */
export function parseDeclareArgs(builtin: string, args: readonly string[]): DeclareOptions | string {
  const o: DeclareOptions = { on: new Set(), off: new Set(), names: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!/^[-+]./.test(a)) break;
    for (const ch of a.slice(1)) {
      if (!'afgiprxAFIlntuS'.includes(ch) || (builtin === 'local' && 'fFg'.includes(ch))) {
        return `${builtin}: ${a[0]}${ch}: invalid option\n${builtin}: usage: ${builtin === 'local' ? 'local [option] name[=value] ...' : `${builtin} [-aAfFgiIlnrtux] [name[=value] ...] or ${builtin} -p [-aAfFilnrtux] [name ...]`}`;
      }
      if (!KNOWN.includes(ch)) return `${builtin}: ${a[0]}${ch}: cka-lab does not simulate this attribute`;
      (a[0] === '-' ? o.on : o.off).add(ch);
    }
  }
  o.names = args.slice(i);
  return o;
}

/** bash's double-quoted rendering of a value in `declare -p` (builtins/declare.def via sh_double_quote). */
export function dquote(v: string): string {
  return `"${v.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** One `declare -p NAME` line. */
export function declareLine(name: string, attrs: string, value: string | undefined, array: readonly string[] | undefined): string {
  const flags = attrs === '' ? '--' : `-${attrs}`;
  if (array) {
    const items = array.flatMap((v, i) => (v === undefined ? [] : [`[${i}]=${dquote(v)}`]));
    return `declare ${flags} ${name}=(${items.join(' ')})`;
  }
  return value === undefined ? `declare ${flags} ${name}` : `declare ${flags} ${name}=${dquote(value)}`;
}

/**
 * `declare -p` of an associative array (arrayfunc.c assoc_to_assign): `([k]="v" …)` in hash
 * order with a space after every element, keys quoted only when they need it.
 */
export function assocDeclareLine(name: string, attrs: string, a: BashAssoc): string {
  const flags = attrs === '' ? '--' : `-${attrs}`;
  if (!a.assigned) return `declare ${flags} ${name}`;
  const items = a.keys().map((k) => `[${assocKeyText(k, dquote)}]=${dquote(a.get(k)!)} `);
  return `declare ${flags} ${name}=(${items.join('')})`;
}

/** A completion spec as `complete -p` prints it back (complete.def print_one_completion). */
export interface CompSpec {
  options: string[];
  actions: string[];
  func?: string;
  wordlist?: string;
}

/** `complete [-o OPT] [-F FUNC] [-W WORDS] [-A ACTION] [-abcdefgjksuv] NAME…`: the spec and names, or bash's error. */
export function parseComplete(args: readonly string[]): { spec: CompSpec; names: string[]; print: boolean; remove: boolean } | string {
  const spec: CompSpec = { options: [], actions: [] };
  let print = false;
  let remove = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      if (ch === 'p') print = true;
      else if (ch === 'r') remove = true;
      else if ('abcdefgjksuv'.includes(ch)) spec.actions.push(`-${ch}`);
      else if ('oAFWGCXPS'.includes(ch)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (v === undefined) return `complete: -${ch}: option requires an argument`;
        if (ch === 'o') spec.options.push(v);
        else if (ch === 'F') spec.func = v;
        else if (ch === 'W') spec.wordlist = v;
        else spec.actions.push(`-${ch} ${v}`);
        break;
      } else return `complete: -${ch}: invalid option\ncomplete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]`;
    }
  }
  return { spec, names: args.slice(i), print, remove };
}

/** `complete -o default -F f NAME`, in the order bash prints a spec. */
export function completeLine(name: string, s: CompSpec): string {
  const parts = ['complete', ...s.options.map((o) => `-o ${o}`), ...s.actions];
  if (s.wordlist !== undefined) parts.push(`-W '${s.wordlist.replace(/'/g, `'\\''`)}'`);
  if (s.func !== undefined) parts.push(`-F ${s.func}`);
  parts.push(name);
  return parts.join(' ');
}
