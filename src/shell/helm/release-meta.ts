/**
 * What install, upgrade and template decide about a release before rendering it (helm v4.1.4):
 *  - `-l/--labels k=v,…`: pflag's stringToString value (its CSV reading and refusals), the check
 *    for the storage driver's reserved names (pkg/action/install.go, upgrade.go with
 *    driver.ContainsSystemLabels) and upgrade's merge with the last revision's labels, where a
 *    value `null` removes a label (upgrade.go mergeCustomLabels);
 *  - the release name and chart from the arguments (Install.NameAndChart): `--generate-name`
 *    makes `BASE-UNIXSECONDS` from the chart reference, on the simulated clock;
 *  - ownership of objects that already exist (pkg/action/validate.go): existingResourceConflict
 *    refuses an object another owner holds, `--take-ownership` (requireAdoption) adopts it.
 */
import type { ApiServer } from '../../sim/apiserver.js';
import type { KObject } from '../../sim/api/types.js';
import { GoTemplate, TemplateExecError, TemplateParseError } from '../gotemplate/index.js';
import { goQuote } from '../../util/go-quote.js';
import { sprigFuncs } from '../gotemplate/sprig.js';
import { HelmUsageError } from './args.js';
import { SYSTEM_LABELS } from './release.js';
import { HelmError } from './repo.js';

/** encoding/csv Reader.Read of one line with its ParseError wording (bare and extraneous quotes). */
function csvRecord(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`parse error on line 1, column ${line.length + 1}: extraneous or missing " in quoted-field`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          if (i + 1 < line.length && line[i + 1] !== ',') throw new Error(`parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
          i++;
          break;
        }
        field += line[i++];
      }
    } else {
      while (i < line.length && line[i] !== ',') {
        if (line[i] === '"') throw new Error(`parse error on line 1, column ${i + 1}: bare " in non-quoted-field`);
        field += line[i++];
      }
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

/**
 * pflag stringToStringValue.Set for each `--labels` given: no `=` is refused, one `=` is a single
 * pair with quotes trimmed (`a=1,b` is a="1,b"), more are read as one CSV record; the first use
 * replaces the default, later ones add to it.
 */
export function parseLabelsFlag(values: readonly string[]): Record<string, string> | undefined {
  if (values.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const val of values) {
    const fail = (msg: string): never => {
      throw new HelmUsageError(`invalid argument ${goQuote(val)} for "-l, --labels" flag: ${msg}`);
    };
    const n = val.split('=').length - 1;
    if (n === 0) fail(`${val} must be formatted as key=value`);
    let pairs: string[] = [];
    if (n === 1) pairs = [val.replace(/^"+|"+$/g, '')];
    else {
      try {
        pairs = csvRecord(val);
      } catch (e) {
        fail((e as Error).message);
      }
    }
    for (const p of pairs) {
      const eq = p.indexOf('=');
      if (eq < 0) fail(`${p} must be formatted as key=value`);
      out[p.slice(0, eq)] = p.slice(eq + 1);
    }
  }
  return out;
}

/** driver.ContainsSystemLabels, refused as install and upgrade word it. */
export function refuseSystemLabels(labels: Record<string, string> | undefined): void {
  if (Object.keys(labels ?? {}).some((k) => SYSTEM_LABELS.includes(k))) {
    throw new HelmError(`user supplied labels contains system reserved label name. System labels: [${SYSTEM_LABELS.join(' ')}]`);
  }
}

/** mergeCustomLabels: the last revision's labels, then the new ones; a `null` value removes the label. */
export function mergeCustomLabels(current: Record<string, string> | undefined, desired: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries({ ...(current ?? {}), ...(desired ?? {}) }).filter(([, v]) => v !== 'null'));
}

/** Go's filepath.Base. */
function goBase(p: string): string {
  if (p === '') return '.';
  const s = p.replace(/\/+$/, '');
  if (s === '') return '/';
  return s.slice(s.lastIndexOf('/') + 1);
}

export interface NameOptions {
  generateName: boolean;
  nameTemplate?: string;
  /** The name a command sets beforehand (`helm template`: release-name). */
  releaseName?: string;
  /** The simulated clock, ms. */
  now: number;
  /** The seeded random source (sprig's rand* functions in a name template). */
  random: () => number;
}

/** action.TemplateName: the --name-template text run with sprig's functions on no data. */
export function templateName(text: string, random: () => number, now: number): string {
  try {
    return GoTemplate.parse('name-template', text, sprigFuncs(random, () => now)).execute(null);
  } catch (e) {
    if (e instanceof TemplateParseError || e instanceof TemplateExecError) throw new HelmError(e.message);
    throw e;
  }
}

/**
 * Install.NameAndChart: the release name and the chart reference. `--generate-name` takes the
 * chart's base name up to its first dot (`chart` for `.`) and the Unix second.
 */
export function nameAndChart(args: readonly string[], o: NameOptions): { name: string; chart: string } {
  if (args.length > 2) throw new HelmError(`expected at most two arguments, unexpected arguments: ${args.slice(2).join(', ')}`);
  if (args.length === 2) {
    if (o.generateName) throw new HelmError('cannot set --generate-name and also specify a name');
    if (o.nameTemplate) throw new HelmError('cannot set --name-template and also specify a name');
    return { name: args[0]!, chart: args[1]! };
  }
  const chart = args[0]!;
  if (o.nameTemplate) return { name: templateName(o.nameTemplate, o.random, o.now), chart };
  if (o.releaseName) return { name: o.releaseName, chart };
  if (!o.generateName) throw new HelmError('must either provide a name or specify --generate-name');
  let base = goBase(chart);
  if (base === '.' || base === '') base = 'chart';
  const dot = base.indexOf('.');
  if (dot >= 0) base = base.slice(0, dot);
  return { name: `${base}-${Math.floor(o.now / 1000)}`, chart };
}

/** resourceString: `Kind "name" in namespace "ns"` (empty for a cluster-scoped object). */
const resourceString = (o: KObject): string => `${o.kind} ${goQuote(o.metadata.name ?? '')} in namespace ${goQuote(o.metadata.namespace ?? '')}`;

/** requireValue. */
function requireValue(m: Record<string, string> | undefined, k: string, v: string): string | undefined {
  const actual = m?.[k];
  if (actual === undefined) return `missing key ${goQuote(k)}: must be set to ${goQuote(v)}`;
  if (actual !== v) return `key ${goQuote(k)} must equal ${goQuote(v)}: current value is ${goQuote(actual)}`;
  return undefined;
}

/** checkOwnership: why a live object does not belong to the release, or undefined when it does. */
export function ownershipProblem(live: KObject, release: string, namespace: string): string | undefined {
  const errs: string[] = [];
  const l = requireValue(live.metadata.labels, 'app.kubernetes.io/managed-by', 'Helm');
  if (l) errs.push(`label validation error: ${l}`);
  const n = requireValue(live.metadata.annotations, 'meta.helm.sh/release-name', release);
  if (n) errs.push(`annotation validation error: ${n}`);
  const s = requireValue(live.metadata.annotations, 'meta.helm.sh/release-namespace', namespace);
  if (s) errs.push(`annotation validation error: ${s}`);
  return errs.length > 0 ? `invalid ownership metadata; ${errs.join('; ')}` : undefined;
}

/**
 * existingResourceConflict (or requireAdoption with `takeOwnership`) over the objects about to be
 * created, in manifest order: objects named by generateName are skipped; an existing object another
 * owner holds fails the first time one is met. Returns the objects that exist (to be updated).
 */
export function checkExisting(api: ApiServer, objects: readonly KObject[], release: string, namespace: string, takeOwnership: boolean): KObject[] {
  const existing: KObject[] = [];
  for (const o of objects) {
    const generate = (o.metadata as { generateName?: string }).generateName;
    if (generate) {
      if (o.metadata.name) throw new HelmError('metadata.name and metadata.generateName cannot both be set');
      continue;
    }
    const live = api.tryGet(o.kind, o.metadata.namespace, o.metadata.name);
    if (!live) continue;
    const problem = takeOwnership ? undefined : ownershipProblem(live, release, namespace);
    if (problem) throw new HelmError(`${resourceString(o)} exists and cannot be imported into the current release: ${problem}`);
    existing.push(o);
  }
  return existing;
}
