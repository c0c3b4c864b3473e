/**
 * Writing a chart archive as helm's chartutil.Save does (pkg/chart/v2/util/save.go
 * writeTarContents): NAME/Chart.yaml re-encoded from chart.Metadata (sigs.k8s.io/yaml: JSON field
 * names, empty fields left out, keys sorted, comments and unknown keys dropped), Chart.lock
 * re-encoded, values.yaml, values.schema.json, the templates, every other file in the loader's
 * walk order, then each subchart of charts/ (directory or .tgz) under NAME/charts/SUB/. Files
 * matched by .helmignore (pkg/ignore: helm's defaults plus the chart's own rules) are left out,
 * as loader.LoadDir leaves them out.
 */
import { parse as parseYaml } from 'yaml';
import { fromPlain, helmToYaml, parseSemver } from '../gotemplate/sprig.js';
import { ChartLoadError } from './chart.js';
import { type FileMap, untgz } from './tar.js';

type Plain = string | boolean | Plain[] | { [k: string]: Plain };

/** Masterminds semver.NewVersion's acceptance (loose: `v1`, `1.2`). */
export const validSemver = (v: string): boolean => parseSemver(v) !== undefined && v.trim() === v;

const str = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? '' : String(v));

/** One chart.Dependency as JSON (HashReq) and YAML (Chart.yaml, Chart.lock) encode it, in field order. */
export function dependencyJson(d: Record<string, unknown>): Record<string, Plain> {
  const out: Record<string, Plain> = { name: str(d['name']) };
  if (str(d['version'])) out['version'] = str(d['version']);
  out['repository'] = str(d['repository']);
  if (str(d['condition'])) out['condition'] = str(d['condition']);
  if (Array.isArray(d['tags']) && d['tags'].length) out['tags'] = d['tags'].map(str);
  if (d['enabled'] === true || d['enabled'] === 'true') out['enabled'] = true;
  if (Array.isArray(d['import-values']) && d['import-values'].length) out['import-values'] = d['import-values'] as Plain[];
  if (str(d['alias'])) out['alias'] = str(d['alias']);
  return out;
}

/** chart.Metadata with helm's JSON names, empty fields omitted (all are omitempty). */
export function metadataJson(m: Record<string, unknown>): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  const s = (k: string): void => void (str(m[k]) && (out[k] = str(m[k])));
  const list = (k: string): void => void (Array.isArray(m[k]) && (m[k] as unknown[]).length && (out[k] = (m[k] as unknown[]).map(str)));
  s('name');
  s('home');
  list('sources');
  s('version');
  s('description');
  list('keywords');
  if (Array.isArray(m['maintainers']) && m['maintainers'].length) {
    out['maintainers'] = (m['maintainers'] as Record<string, unknown>[]).map((x) => {
      const o: Record<string, Plain> = {};
      for (const k of ['name', 'email', 'url']) if (str(x?.[k])) o[k] = str(x[k]);
      return o;
    });
  }
  s('icon');
  s('apiVersion');
  s('condition');
  s('tags');
  s('appVersion');
  if (m['deprecated'] === true || m['deprecated'] === 'true') out['deprecated'] = true;
  if (m['annotations'] && typeof m['annotations'] === 'object' && Object.keys(m['annotations']).length) {
    out['annotations'] = Object.fromEntries(Object.entries(m['annotations'] as Record<string, unknown>).map(([k, v]) => [k, str(v)]));
  }
  s('kubeVersion');
  if (Array.isArray(m['dependencies']) && m['dependencies'].length) out['dependencies'] = (m['dependencies'] as Record<string, unknown>[]).map((d) => dependencyJson(d ?? {}));
  s('type');
  return out;
}

/** Chart.yaml read as Go reads it into chart.Metadata: every scalar a string. */
export function readChartYaml(text: string): Record<string, unknown> {
  try {
    return (parseYaml(text, { schema: 'failsafe' }) ?? {}) as Record<string, unknown>;
  } catch {
    throw new ChartLoadError('cannot load Chart.yaml: error converting YAML to JSON');
  }
}

/** sigs.k8s.io/yaml.Marshal: keys sorted at every level. */
export function sigsYaml(v: Plain): string {
  const sort = (x: Plain): Plain => (Array.isArray(x) ? x.map(sort) : typeof x === 'object' ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort(x[k]!)])) : x);
  return `${helmToYaml(fromPlain(sort(v)))}\n`;
}

/** Go's time.Time JSON (RFC3339Nano, UTC): trailing zeros of the fraction dropped. */
export function goTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d*?)0*Z$/, (_, f: string) => (f ? `.${f}Z` : 'Z'));
}

export interface LockFile {
  dependencies: Record<string, Plain>[];
  digest: string;
  generated: string;
}

/** Chart.lock as helm writes it (chart.Lock through sigs.k8s.io/yaml). */
export function lockYaml(lock: LockFile): string {
  const deps = sigsYaml({ dependencies: lock.dependencies });
  return `${deps}digest: ${lock.digest}\ngenerated: "${lock.generated}"\n`;
}

export function readLock(text: string | undefined): LockFile | undefined {
  if (text === undefined) return undefined;
  const doc = (parseYaml(text, { schema: 'failsafe' }) ?? {}) as Record<string, unknown>;
  const deps = Array.isArray(doc['dependencies']) ? (doc['dependencies'] as Record<string, unknown>[]).map((d) => dependencyJson(d ?? {})) : [];
  return { dependencies: deps, digest: str(doc['digest']), generated: str(doc['generated']) };
}

/** pkg/ignore: the chart's .helmignore rules plus helm's default `templates/.?*`. */
function ignorer(text: string | undefined): (path: string, isDir: boolean) => boolean {
  const rules = [...(text ?? '').split('\n'), 'templates/.?*'].map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const glob = (p: string): RegExp => new RegExp(`^${p.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  const compiled = rules.map((r) => {
    const negate = r.startsWith('!');
    let p = negate ? r.slice(1) : r;
    const dirOnly = p.endsWith('/');
    p = p.replace(/\/$/, '').replace(/^\//, '');
    return { negate, dirOnly, base: !p.includes('/'), re: glob(p) };
  });
  return (path, isDir) => {
    let ignored = false;
    for (const r of compiled) {
      if (r.dirOnly && !isDir) continue;
      const target = r.base ? path.split('/').pop()! : path;
      if (r.re.test(target)) ignored = !r.negate;
    }
    return ignored;
  };
}

/** The files loader.LoadDir keeps, in its walk order (names sorted per directory). */
export function keptFiles(files: FileMap): FileMap {
  const ignore = ignorer(files.get('.helmignore')?.toString('utf8'));
  const out: FileMap = new Map();
  for (const [p, data] of files) {
    const parts = p.split('/');
    if (parts.some((_, i) => ignore(parts.slice(0, i + 1).join('/'), i < parts.length - 1))) continue;
    out.set(p, data);
  }
  return out;
}

export interface SaveOptions {
  version?: string;
  appVersion?: string;
}

/**
 * The tar entries of a chart whose files (relative to its root) are given: [path, data] in
 * writeTarContents' order, under PREFIX/NAME/. Returns the chart's name and version too.
 */
export function chartEntries(files: FileMap, prefix: string, opts: SaveOptions = {}): { name: string; version: string; entries: [string, Buffer][] } {
  const chartYaml = files.get('Chart.yaml')?.toString('utf8');
  if (chartYaml === undefined) throw new ChartLoadError('Chart.yaml file is missing');
  const meta = readChartYaml(chartYaml);
  if (opts.version) meta['version'] = opts.version;
  if (opts.appVersion) meta['appVersion'] = opts.appVersion;
  const md = metadataJson(meta);
  const name = str(md['name']);
  const base = `${prefix}${name}`;
  const entries: [string, Buffer][] = [[`${base}/Chart.yaml`, Buffer.from(sigsYaml(md))]];
  const lock = files.get('Chart.lock');
  if (lock && md['apiVersion'] === 'v2') entries.push([`${base}/Chart.lock`, Buffer.from(lockYaml(readLock(lock.toString('utf8'))!))]);
  for (const n of ['values.yaml', 'values.schema.json']) {
    const d = files.get(n);
    if (d) entries.push([`${base}/${n}`, d]);
  }
  const rest = [...files].filter(([p]) => !['Chart.yaml', 'Chart.lock', 'values.yaml', 'values.schema.json'].includes(p) && !p.startsWith('charts/'));
  for (const [p, d] of rest) if (p.startsWith('templates/')) entries.push([`${base}/${p}`, d]);
  for (const [p, d] of rest) if (!p.startsWith('templates/')) entries.push([`${base}/${p}`, d]);
  // subcharts: charts/NAME/… directories and charts/*.tgz archives
  const subs = new Map<string, FileMap>();
  for (const [p, d] of files) {
    if (!p.startsWith('charts/')) continue;
    const r = p.slice('charts/'.length);
    if (!r.includes('/')) {
      if (r.endsWith('.tgz')) subs.set(r, rootless(untgz(d)));
      continue;
    }
    const dir = r.split('/')[0]!;
    const m = subs.get(dir) ?? new Map<string, Buffer>();
    m.set(r.slice(dir.length + 1), d);
    subs.set(dir, m);
  }
  for (const key of [...subs.keys()].sort()) entries.push(...chartEntries(subs.get(key)!, `${base}/charts/`).entries);
  return { name, version: str(md['version']), entries };
}

/** An archive's files without their top directory. */
export function rootless(files: FileMap): FileMap {
  const first = [...files.keys()][0]?.split('/')[0];
  if (first && [...files.keys()].every((k) => k.startsWith(`${first}/`))) return new Map([...files].map(([k, v]) => [k.slice(first.length + 1), v]));
  return files;
}
