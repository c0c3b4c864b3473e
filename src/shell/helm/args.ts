/**
 * helm's command-line flags (cobra/pflag as helm declares them): `--flag value`, `--flag=value`,
 * short forms, repeatable `--set`/`-f`, booleans. Unknown flags fail as cobra words it.
 * `--wait` is helm v4's WaitStrategy value (pkg/cmd/flags.go AddWaitFlag): bare `--wait` is
 * `watcher` (NoOptDefVal, so `--wait legacy` leaves `legacy` an argument), `--wait=true|false`
 * are logged as deprecated and read as watcher/hookOnly, anything else fails the parse.
 * Deprecated flags (MarkDeprecated) are announced by cobra after a successful parse.
 */
import type { FlagTable } from './flag-table.js';

export interface HelmArgs {
  args: string[];
  flags: Map<string, string[]>;
  /** What parsing writes to stderr, in order: slog warnings as they happen, then pflag's deprecation notices. */
  notices: string[];
}

/** pflag MarkDeprecated notices of the flags helm v4.1.4 deprecates (pkg/cmd/install.go, upgrade.go, rollback.go). */
const DEPRECATED: Record<string, string> = { atomic: 'use --rollback-on-failure instead', force: 'use --force-replace instead' };

const WAIT_VALUES = ['watcher', 'hookOnly', 'legacy'];

/** waitValue.Set: the strategy a `--wait=VALUE` stands for, with the warning the deprecated booleans log. */
function waitValue(v: string, notices: string[]): string {
  if (WAIT_VALUES.includes(v)) return v;
  if (v === 'true' || v === 'false') {
    const to = v === 'true' ? 'watcher' : 'hookOnly';
    notices.push(slogLine('WARN', `--wait=${v} is deprecated (boolean value) and can be replaced with --wait=${to}`));
    return to;
  }
  throw new HelmUsageError(`invalid argument "${v}" for "--wait" flag: invalid wait input "${v}". Valid inputs are watcher, hookOnly, and legacy`);
}

/** One record of Go's slog TextHandler as helm's logger writes it (no time attribute). */
export function slogLine(level: 'WARN' | 'ERROR', msg: string, attrs: [string, string][] = []): string {
  const q = (s: string): string => (s === '' || /[\s="\x00-\x1f\x7f]/.test(s) ? JSON.stringify(s) : s);
  return `level=${level} msg=${q(msg)}${attrs.map(([k, v]) => ` ${k}=${q(v)}`).join('')}\n`;
}

export class HelmUsageError extends Error {}

/** Flags that take a value (long name → short). */
const VALUED: Record<string, string | undefined> = {
  set: undefined, 'set-string': undefined, 'set-file': undefined, 'set-json': undefined, 'set-literal': undefined, values: 'f', namespace: 'n', version: undefined, output: 'o', revision: undefined,
  'kube-version': undefined, cascade: undefined, 'history-max': undefined, 'name-template': undefined, 'max-col-width': undefined, 'dry-run': undefined, destination: 'd', untardir: undefined, description: undefined, timeout: undefined, filter: undefined, max: undefined, repo: undefined, 'kube-context': undefined, 'api-versions': 'a', 'show-only': 's',
};
const BOOL = new Set(['create-namespace', 'reuse-values', 'reset-values', 'install', 'all-namespaces', 'untar', 'versions', 'devel', 'include-crds', 'skip-crds', 'atomic', 'force', 'all', 'debug', 'strict', 'keep-history', 'regexp', 'force-update', 'no-hooks', 'short', 'dependency-update', 'generate-name', 'is-upgrade', 'validate', 'skip-tests', 'uninstalled', 'deployed', 'failed', 'pending', 'superseded', 'reset-then-reuse-values', 'cleanup-on-fail', 'help', 'server-side', 'force-conflicts', 'take-ownership', 'logs',
  'wait-for-jobs', 'rollback-on-failure', 'hide-notes', 'replace', 'force-replace', 'ignore-not-found', 'render-subchart-notes', 'skip-schema-validation', 'disable-openapi-validation', 'enable-dns', 'hide-secret']);
const SHORT_BOOL: Record<string, string> = { A: 'all-namespaces', a: 'all', q: 'short', h: 'help', g: 'generate-name', i: 'install', r: 'regexp', l: 'versions' };

/**
 * Parse a command's arguments; with the command's flag table (flag-table.ts) flags it does not
 * have are refused as cobra words it, and shorthands mean what this command's help says.
 */
export function parseArgs(argv: readonly string[], table?: FlagTable): HelmArgs {
  const args: string[] = [];
  const flags = new Map<string, string[]>();
  const notices: string[] = [];
  const deprecated: string[] = [];
  const add = (k: string, v: string): void => void flags.set(k, [...(flags.get(k) ?? []), v]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const kind = table?.long.get(name);
      // deprecated flags are hidden from the help (MarkDeprecated) but still parse
      if (table && kind === undefined && !DEPRECATED[name]) throw new HelmUsageError(`unknown flag: --${name}`);
      if (kind !== undefined && name !== 'wait' && name !== 'dry-run') {
        if (kind === 'value') {
          if (eq >= 0) add(name, a.slice(eq + 1));
          else if (i + 1 < argv.length) add(name, argv[++i]!);
          else throw new HelmUsageError(`flag needs an argument: --${name}`);
        } else add(name, eq < 0 ? 'true' : a.slice(eq + 1));
      } else if (name in VALUED) {
        if (eq >= 0) add(name, a.slice(eq + 1));
        else if (name === 'dry-run') add(name, 'client');
        else if (i + 1 < argv.length) add(name, argv[++i]!);
        else throw new HelmUsageError(`flag needs an argument: --${name}`);
      } else if (name === 'wait') add(name, eq < 0 ? 'watcher' : waitValue(a.slice(eq + 1), notices));
      else if (BOOL.has(name)) add(name, eq < 0 ? 'true' : a.slice(eq + 1));
      else throw new HelmUsageError(`unknown flag: --${name}`);
      if (DEPRECATED[name]) deprecated.push(`Flag --${name} has been deprecated, ${DEPRECATED[name]}\n`);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const c = a[1]!;
      if (table) {
        const name = table.short.get(c);
        if (name === undefined) throw new HelmUsageError(`unknown shorthand flag: '${c}' in ${a}`);
        if (table.long.get(name) === 'value') {
          const rest = a.slice(2).replace(/^=/, '');
          if (rest) add(name, rest);
          else if (i + 1 < argv.length) add(name, argv[++i]!);
          else throw new HelmUsageError(`flag needs an argument: '${c}' in -${c}`);
        } else add(name, 'true');
        continue;
      }
      const long = Object.entries(VALUED).find(([, s]) => s === c)?.[0];
      if (long) {
        const rest = a.slice(2).replace(/^=/, '');
        if (rest) add(long, rest);
        else if (i + 1 < argv.length) add(long, argv[++i]!);
        else throw new HelmUsageError(`flag needs an argument: '${c}' in -${c}`);
      } else if (SHORT_BOOL[c]) add(SHORT_BOOL[c]!, 'true');
      else throw new HelmUsageError(`unknown shorthand flag: '${c}' in ${a}`);
      continue;
    }
    args.push(a);
  }
  return { args, flags, notices: [...notices, ...deprecated] };
}

export const flag = (a: HelmArgs, name: string): string | undefined => a.flags.get(name)?.at(-1);
export const flags = (a: HelmArgs, name: string): string[] => a.flags.get(name) ?? [];
export const bool = (a: HelmArgs, name: string): boolean => {
  const v = flag(a, name);
  return v !== undefined && v !== 'false';
};
