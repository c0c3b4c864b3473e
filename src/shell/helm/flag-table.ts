/**
 * Each helm command's own flags, read from its help text as recorded from helm v4.1.4
 * (help.generated.ts): cobra parses a command line against the command's flag set, so a flag
 * another command has is unknown here (`helm list -a`: `unknown shorthand flag: 'a' in -a`, since
 * v4's list has no --all), and a shorthand means what this command says (`-l` is --selector for
 * list, --labels for install, `-a` is --api-versions only for template). A flag line of the help is
 * `  -x, --name TYPE   description` or `      --name   description`: no TYPE is a boolean, a TYPE
 * with `[=…]` has an optional value (pflag NoOptDefVal), any other TYPE takes a value.
 */
import { HELM_HELP } from './help.generated.js';

export type FlagKind = 'bool' | 'value' | 'optional';

export interface FlagTable {
  long: ReadonlyMap<string, FlagKind>;
  /** shorthand letter → long name */
  short: ReadonlyMap<string, string>;
}

const LINE = /^ +(?:-(\w), )?--([\w-]+)(?: (\S+))?(?: {2,}|$)/;

const cache = new Map<string, FlagTable | undefined>();

/** The flags of a recorded command path (`list`, `repo add`), or undefined for one not recorded. */
export function flagTable(path: string): FlagTable | undefined {
  if (cache.has(path)) return cache.get(path);
  const text = HELM_HELP[path];
  let table: FlagTable | undefined;
  if (text !== undefined) {
    const long = new Map<string, FlagKind>();
    const short = new Map<string, string>();
    const start = text.indexOf('\nFlags:\n');
    for (const line of (start < 0 ? '' : text.slice(start)).split('\n')) {
      const m = LINE.exec(line);
      if (!m) continue;
      const [, letter, name, type] = m;
      long.set(name!, type === undefined ? 'bool' : type.includes('[=') ? 'optional' : 'value');
      if (letter) short.set(letter, name!);
    }
    table = { long, short };
  }
  cache.set(path, table);
  return table;
}
