/**
 * `helm list` as helm v4.1.4 pkg/cmd/list.go and pkg/action/list.go (List.Run) run it, step by step:
 *  1. `-f/--filter` compiles as a Go regexp (go-regexp.ts; a bad one fails with Go's error) and
 *     keeps the revisions whose release name it matches anywhere (the driver's List callback);
 *     when nothing is left, Run returns at once, before the selector is even parsed;
 *  2. the newest revision of each release (filterLatestReleases), unless the state mask is only
 *     --superseded; then the state mask: the states asked for, or every state when none is
 *     (SetStateMask's default is ListAll: v4 dropped --all);
 *  3. `-l/--selector` parses as a label selector (label-selector.ts, labels.Parse) and keeps the
 *     releases whose labels match; the labels are every label of the storage Secret (the Secret
 *     driver's List), so `status=deployed` or `name=web` select too;
 *  4. the sort: by name; `-d` by the Unix second of the last deployment, ties by name (SortByDate,
 *     oldest first despite the ByDateDesc name); `-r` reverses either; releases of one name in
 *     several namespaces (`-A`) keep namespace order here, where Go's unstable sort leaves it open;
 *  5. `--offset` and `-m/--max` (256 by default; 0 or less is no limit): the releases from the
 *     offset on, at most max of them, none when the offset is past the end; a negative offset
 *     makes Go's slice expression panic (exit status 2), as the real binary does.
 * Printing (-q, -o table|json|yaml, --time-format, --no-headers) is formatList.
 */
import { type HelmArgs, bool, flag, HelmUsageError } from './args.js';
import { type HelmEnv, requireApi } from './env.js';
import { compileGoRegexp } from './go-regexp.js';
import { parseSelector, SelectorError, selectorMatches } from '../../sim/api/label-selector.js';
import { goTime, listReleases, type Release } from './release.js';
import { HelmError } from './repo.js';
import { uitable } from './table.js';
import { goFormat } from './go-time.js';
import { toYaml } from '../printers/yaml.js';
import type { Json } from '../printers/serialize.js';

/** The state flags and the release statuses each one admits (action.ListStates). */
const STATE_FLAGS: ReadonlyArray<[flag: string, statuses: readonly string[]]> = [
  ['deployed', ['deployed']],
  ['uninstalled', ['uninstalled']],
  ['uninstalling', ['uninstalling']],
  ['pending', ['pending-install', 'pending-rollback', 'pending-upgrade']],
  ['failed', ['failed']],
  ['superseded', ['superseded']],
];

/** What a Go runtime panic prints (stderr, exit status 2): helm does not recover from it. */
export class GoPanic extends Error {}

/** The stack the real binary printed for `helm list --offset -1` (v4.1.4, list.go:224). */
const OFFSET_PANIC_STACK = [
  'goroutine 1 [running]:',
  'helm.sh/helm/v4/pkg/action.(*List).Run(0xc0002a6900)',
  '\thelm.sh/helm/v4/pkg/action/list.go:224 +0x35f',
  'helm.sh/helm/v4/pkg/cmd.newListCmd.func1(0xc00095cf08, {0xc00028afc0?, 0x4?, 0x263f354?})',
  '\thelm.sh/helm/v4/pkg/cmd/list.go:84 +0x16d',
  'github.com/spf13/cobra.(*Command).execute(0xc00095cf08, {0xc00028af80, 0x4, 0x4})',
  '\tgithub.com/spf13/cobra@v1.10.2/command.go:1015 +0xb02',
  'github.com/spf13/cobra.(*Command).ExecuteC(0xc00032a308)',
  '\tgithub.com/spf13/cobra@v1.10.2/command.go:1148 +0x465',
  'github.com/spf13/cobra.(*Command).Execute(0x2b7fe20?)',
  '\tgithub.com/spf13/cobra@v1.10.2/command.go:1071 +0x13',
  'main.main()',
  '\thelm.sh/helm/v4/cmd/helm/helm.go:43 +0x159',
];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * pflag's IntVar: strconv.ParseInt(s, 0, 64), so `0x10`, `0o17`, `0b11`, `017` (octal) and `1_000`
 * are numbers too; the refusal is pflag's `invalid argument "V" for "-m, --max" flag: …`.
 */
export function goIntFlag(value: string, flagName: string): number {
  const m = /^([+-]?)(0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0(?:_?[0-7])*|[1-9](?:_?[0-9])*)$/.exec(value);
  if (!m) throw new HelmUsageError(`invalid argument "${value}" for "${flagName}" flag: strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const digits = m[2]!.replaceAll('_', '');
  const n = /^0[0-7]/.test(digits) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
  const v = m[1] === '-' ? -n : n;
  if (v < INT64_MIN || v > INT64_MAX) throw new HelmUsageError(`invalid argument "${value}" for "${flagName}" flag: strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  return Number(v);
}

export interface ListOptions {
  allNamespaces: boolean;
  namespace: string;
  filter?: string;
  selector: string;
  /** The state flags given (deployed, failed, pending, …). */
  states: string[];
  byDate: boolean;
  reverse: boolean;
  max: number;
  offset: number;
}

const byName = (x: Release, y: Release): number => (x.name === y.name ? (x.namespace < y.namespace ? -1 : x.namespace > y.namespace ? 1 : 0) : x.name < y.name ? -1 : 1);
const unixSeconds = (r: Release): number => Math.floor(Date.parse(r.info.last_deployed) / 1000);
const byDate = (x: Release, y: Release): number => unixSeconds(x) - unixSeconds(y) || byName(x, y);

/** List.Run over every revision in scope (`all`, as the Secret driver lists them). */
export function selectReleases(all: readonly Release[], o: ListOptions): Release[] {
  const filter = o.filter ? compileGoRegexp(o.filter) : undefined;
  const results = all.filter((r) => !filter || filter.matches(r.name));
  if (results.length === 0) return [];
  const asked = STATE_FLAGS.filter(([f]) => o.states.includes(f));
  let rels: Release[];
  if (asked.length === 1 && asked[0]![0] === 'superseded') rels = [...results];
  else {
    const newest = new Map<string, Release>();
    for (const r of results) {
      const key = `${r.namespace}/${r.name}`;
      const seen = newest.get(key);
      if (!seen || seen.version <= r.version) newest.set(key, r);
    }
    rels = [...newest.values()];
  }
  const mask = new Set(asked.flatMap(([, s]) => s));
  rels = rels.filter((r) => mask.size === 0 || mask.has(r.info.status));
  let reqs: ReturnType<typeof parseSelector>;
  try {
    reqs = parseSelector(o.selector);
  } catch (e) {
    if (e instanceof SelectorError) throw new HelmError(e.message);
    throw e;
  }
  rels = rels.filter((r) => selectorMatches(reqs, r.labels ?? {}));
  rels.sort(o.byDate ? byDate : byName);
  if (o.reverse) rels.reverse();
  if (o.offset < 0) throw new GoPanic(`panic: runtime error: slice bounds out of range [${o.offset}:]\n\n${OFFSET_PANIC_STACK.join('\n')}\n`);
  if (o.offset >= rels.length) return [];
  const limit = o.max > 0 && o.max < results.length ? o.max : results.length;
  return rels.slice(o.offset, Math.min(o.offset + limit, rels.length));
}

export function listOptions(a: HelmArgs): ListOptions {
  const filter = flag(a, 'filter');
  const max = flag(a, 'max');
  const offset = flag(a, 'offset');
  return {
    allNamespaces: bool(a, 'all-namespaces'),
    namespace: flag(a, 'namespace') ?? 'default',
    ...(filter ? { filter } : {}),
    selector: flag(a, 'selector') ?? '',
    states: STATE_FLAGS.map(([f]) => f).filter((f) => bool(a, f)),
    byDate: bool(a, 'date'),
    reverse: bool(a, 'reverse'),
    max: max === undefined ? 256 : goIntFlag(max, '-m, --max'),
    offset: offset === undefined ? 0 : goIntFlag(offset, '--offset'),
  };
}

/** What newListCmd's RunE prints with: -q, -o, --time-format, --no-headers. */
export interface ListFormat {
  short: boolean;
  output: 'table' | 'json' | 'yaml';
  timeFormat: string;
  noHeaders: boolean;
}

/**
 * The output flag as bindOutputFlag's outputValue.Set parses it (pkg/cmd/flags.go,
 * pkg/cli/output ParseFormat): table, json or yaml, else pflag's `invalid argument` error.
 */
export function listFormat(a: HelmArgs): ListFormat {
  const output = flag(a, 'output') ?? 'table';
  if (output !== 'table' && output !== 'json' && output !== 'yaml') throw new HelmUsageError(`invalid argument "${output}" for "-o, --output" flag: invalid format type`);
  return { short: bool(a, 'short'), output, timeFormat: flag(a, 'time-format') ?? '', noHeaders: bool(a, 'no-headers') };
}

/** Go's json.Encoder: HTML-safe escapes and a final newline (output.EncodeJSON). */
export function encodeJSON(v: unknown): string {
  return `${JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/**
 * output.EncodeYAML: sigs.k8s.io/yaml marshals through JSON into go-yaml v2, whose maps come out
 * with their keys sorted (so app_version, chart, name, … not the struct's order).
 */
export function encodeYAML(v: Json): string {
  const sortKeys = (x: Json): Json => (Array.isArray(x) ? x.map(sortKeys) : x !== null && typeof x === 'object' ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sortKeys(x[k]!)])) : x);
  return toYaml(sortKeys(v));
}

/**
 * The releases as newListCmd prints them (helm v4.1.4 pkg/cmd/list.go): `-q` prints the names,
 * as a JSON or YAML list with -o json|yaml and one a line otherwise; the full listing is
 * releaseListWriter's releaseElement {name, namespace, revision (a string), updated, status,
 * chart, app_version}: UPDATED is LastDeployed's time.Time String(), or Format(--time-format), or
 * `-` for a zero time; -o json keeps that field order, -o yaml sorts the keys; the table is
 * uitable's, `--no-headers` dropping the header row (an empty table is then one empty line).
 */
export function formatList(shown: readonly Release[], f: ListFormat): string {
  if (f.short) {
    const names = shown.map((r) => r.name);
    if (f.output === 'json') return encodeJSON(names);
    if (f.output === 'yaml') return encodeYAML(names);
    return names.map((n) => `${n}\n`).join('');
  }
  const elements = shown.map((r) => {
    const at = r.info.last_deployed;
    const zero = !at || at.startsWith('0001-01-01T00:00:00');
    return {
      name: r.name,
      namespace: r.namespace,
      revision: String(r.version),
      updated: zero ? '-' : f.timeFormat ? goFormat(at, f.timeFormat) : goTime(at),
      status: r.info.status,
      chart: `${r.chart.metadata.name}-${r.chart.metadata.version}`,
      app_version: String(r.chart.metadata.appVersion ?? ''),
    };
  });
  if (f.output === 'json') return encodeJSON(elements);
  if (f.output === 'yaml') return encodeYAML(elements);
  const rows = f.noHeaders ? [] : [['NAME', 'NAMESPACE', 'REVISION', 'UPDATED', 'STATUS', 'CHART', 'APP VERSION']];
  for (const e of elements) rows.push([e.name, e.namespace, e.revision, e.updated, e.status, e.chart, e.app_version]);
  // output.EncodeTable: the table's text and a newline, so an empty table is one empty line
  // uitable.New() with no MaxColWidth: long cells are not cut (recorded: a 99-character --time-format)
  return rows.length === 0 ? '\n' : uitable(rows);
}

export function list(env: HelmEnv, a: HelmArgs): string {
  const o = listOptions(a);
  const f = listFormat(a);
  const api = requireApi(env);
  return formatList(selectReleases(listReleases(api, o.allNamespaces ? undefined : o.namespace), o), f);
}
