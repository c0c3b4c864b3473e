/**
 * The pure parts of bash's `read`, `type` and `command -v` (bash builtins/read.def, type.def,
 * command.def): option parsing, splitting a line by IFS into names, and the descriptions `type`
 * prints. The interpreter supplies the input, the variables and the command table.
 */

export interface ReadOptions {
  raw: boolean;
  array?: string;
  delim: string;
  names: string[];
  nchars?: number;
}

export const READ_USAGE = 'read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]';

/** Options of `read`; a string is bash's error text (exit status 2). */
export function parseReadArgs(args: readonly string[]): ReadOptions | string {
  const o: ReadOptions = { raw: false, delim: '\n', names: [] };
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
      if ('rse'.includes(ch)) {
        if (ch === 'r') o.raw = true;
        continue;
      }
      if ('adinNptu'.includes(ch)) {
        const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (value === undefined) return `read: -${ch}: option requires an argument\n${READ_USAGE}`;
        if (ch === 'a') o.array = value;
        else if (ch === 'd') o.delim = value === '' ? '\0' : value[0]!;
        else if (ch === 'n' || ch === 'N') {
          if (!/^\d+$/.test(value)) return `read: ${value}: invalid number`;
          o.nchars = Number(value);
        } else if (ch === 't' && !/^\d+(\.\d+)?$/.test(value)) return `read: ${value}: invalid timeout specification`;
        break;
      }
      return `read: -${ch}: invalid option\n${READ_USAGE}`;
    }
  }
  o.names = args.slice(i);
  return o;
}

/**
 * Take one record from `input` at `pos`: up to the delimiter (not included), with backslash
 * escapes and line continuations removed unless raw. `eof`: the delimiter was not found.
 */
export function readRecord(input: string, pos: number, o: ReadOptions): { text: string; next: number; eof: boolean } {
  let text = '';
  let i = pos;
  while (i < input.length) {
    const ch = input[i]!;
    if (o.nchars !== undefined && text.length >= o.nchars) return { text, next: i, eof: false };
    if (!o.raw && ch === '\\' && i + 1 < input.length) {
      if (input[i + 1] !== '\n') text += input[i + 1];
      i += 2;
      continue;
    }
    if (ch === o.delim) return { text, next: i + 1, eof: false };
    text += ch;
    i++;
  }
  return { text, next: i, eof: o.nchars === undefined || text.length < o.nchars };
}

const isIfsWhite = (ch: string, ifs: string): boolean => (ch === ' ' || ch === '\t' || ch === '\n') && ifs.includes(ch);

/**
 * The last name's value: the rest of the line, except that one field followed only by its
 * delimiter is that field alone (`IFS=: read a b <<< "1:2:"` gives b `2`, `"1:2::"` gives
 * `2::`; read.def's get_word_from_string on the rest, recorded from bash 5.2 and dash 0.5.12).
 */
function lastField(rest: string, ifs: string): string {
  let i = 0;
  while (i < rest.length && !ifs.includes(rest[i]!)) i++;
  const word = rest.slice(0, i);
  while (i < rest.length && isIfsWhite(rest[i]!, ifs)) i++;
  if (i < rest.length && ifs.includes(rest[i]!)) i++;
  while (i < rest.length && isIfsWhite(rest[i]!, ifs)) i++;
  return i === rest.length ? word : rest;
}

/**
 * Split a record into `count` fields as read.def does: IFS whitespace around fields is dropped,
 * each other IFS character ends a field, and the last field keeps the rest of the line (its
 * trailing IFS whitespace removed). `count` 0: every field (read -a).
 */
export function splitFields(line: string, ifs: string, count: number): string[] {
  const out: string[] = [];
  let i = 0;
  const skipWhite = (): void => {
    while (i < line.length && isIfsWhite(line[i]!, ifs)) i++;
  };
  skipWhite();
  while (i < line.length) {
    if (count > 0 && out.length === count - 1) {
      let rest = line.slice(i);
      while (rest.length > 0 && isIfsWhite(rest[rest.length - 1]!, ifs)) rest = rest.slice(0, -1);
      out.push(lastField(rest, ifs));
      return out;
    }
    let field = '';
    while (i < line.length && !ifs.includes(line[i]!)) field += line[i++];
    out.push(field);
    // one non-white separator (with the white space around it) ends this field
    skipWhite();
    if (i < line.length && ifs.includes(line[i]!) && !isIfsWhite(line[i]!, ifs)) {
      i++;
      skipWhite();
    }
  }
  return out;
}

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc']);

export type NameKind = { kind: 'alias'; value: string } | { kind: 'keyword' } | { kind: 'function' } | { kind: 'builtin' } | { kind: 'file'; path: string };

/** What a name is, in bash's lookup order (alias, keyword, function, builtin, file). */
export function classify(name: string, t: { alias?: string; isFunction: boolean; isBuiltin: boolean; path?: string }): NameKind | undefined {
  if (t.alias !== undefined) return { kind: 'alias', value: t.alias };
  if (KEYWORDS.has(name)) return { kind: 'keyword' };
  if (t.isFunction) return { kind: 'function' };
  if (t.isBuiltin) return { kind: 'builtin' };
  if (t.path !== undefined) return { kind: 'file', path: t.path };
  return undefined;
}

/** `type NAME` (type.def describe_command, verbose). */
export function describeLong(name: string, k: NameKind): string {
  switch (k.kind) {
    case 'alias':
      return `${name} is aliased to \`${k.value}'`;
    case 'keyword':
      return `${name} is a shell keyword`;
    case 'function':
      return `${name} is a function`;
    case 'builtin':
      return `${name} is a shell builtin`;
    case 'file':
      return `${name} is ${k.path}`;
  }
}

/** `command -v NAME` (describe_command, short). */
export function describeShort(name: string, k: NameKind): string {
  if (k.kind === 'alias') return `alias ${name}='${k.value.replace(/'/g, `'\\''`)}'`;
  return k.kind === 'file' ? k.path : name;
}
