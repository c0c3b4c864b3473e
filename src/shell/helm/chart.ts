/**
 * A loaded chart (helm pkg/chart/v2 and loader/load.go): Chart.yaml metadata, values.yaml, the
 * templates, CRDs under crds/, other files (for .Files), and subcharts from charts/ (directories
 * or .tgz archives). Loading errors use helm's wording.
 */
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import { fromPlain } from '../gotemplate/sprig.js';
import type { GoValue } from '../gotemplate/index.js';
import { type FileMap, untgz } from './tar.js';

export interface ChartFile {
  name: string;
  data: Buffer;
}

export interface ChartMetadata {
  apiVersion: string;
  name: string;
  version: string;
  appVersion?: string;
  description?: string;
  type?: string;
  keywords?: string[];
  home?: string;
  icon?: string;
  kubeVersion?: string;
  dependencies?: { name: string; version?: string; repository?: string; condition?: string; alias?: string }[];
  [k: string]: unknown;
}

export interface Chart {
  metadata: ChartMetadata;
  /** Chart.yaml as written. */
  chartYaml: string;
  /** values.yaml as written ('' when absent). */
  rawValues: string;
  values: Record<string, GoValue>;
  templates: ChartFile[];
  crds: ChartFile[];
  /** Every file that is not Chart.yaml, values.yaml, templates/, charts/ (for .Files). */
  files: ChartFile[];
  readme?: string;
  dependencies: Chart[];
}

export class ChartLoadError extends Error {}

/** Strip the archive's top directory (`web/…`) when every path shares it. */
function rootless(files: FileMap): FileMap {
  const first = [...files.keys()][0]?.split('/')[0];
  if (first && [...files.keys()].every((k) => k.startsWith(`${first}/`))) {
    return new Map([...files].map(([k, v]) => [k.slice(first.length + 1), v]));
  }
  return files;
}

export function parseValuesYaml(text: string, source: string): Record<string, GoValue> {
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { uniqueKeys: false });
  } catch (e) {
    // go-yaml reports an error at the end of the input on the last line, not past it
    const lines = text.replace(/\n$/, '').split('\n').length;
    const line = Math.min((e as { linePos?: { line: number }[] }).linePos?.[0]?.line ?? 1, lines);
    throw new ChartLoadError(`failed to parse ${source}: cannot unmarshal yaml document: error converting YAML to JSON: yaml: line ${line}: did not find expected node content`);
  }
  if (parsed === null || parsed === undefined) return {};
  const v = fromPlain(parsed);
  if (typeof v !== 'object' || Array.isArray(v) || v === null) throw new ChartLoadError(`failed to parse ${source}: error unmarshaling JSON: json: cannot unmarshal ${Array.isArray(v) ? 'array' : 'string'} into Go value of type map[string]interface {}`);
  return v as Record<string, GoValue>;
}

/** loader.LoadFiles: a chart from its files (paths relative to the chart root). */
export function loadChartFiles(input: FileMap): Chart {
  const files = rootless(input);
  const chartYaml = files.get('Chart.yaml')?.toString('utf8');
  if (chartYaml === undefined) throw new ChartLoadError('Chart.yaml file is missing');
  const metadata = (parseYaml(chartYaml) ?? {}) as ChartMetadata;
  if (!metadata.apiVersion) metadata.apiVersion = 'v1';
  if (!metadata.name) throw new ChartLoadError('validation: chart.metadata.name is required');
  if (!metadata.version) throw new ChartLoadError(`validation: chart.metadata.version is required`);
  const rawValues = files.get('values.yaml')?.toString('utf8') ?? '';
  const chart: Chart = { metadata, chartYaml, rawValues, values: parseValuesYaml(rawValues, 'values.yaml'), templates: [], crds: [], files: [], dependencies: [] };
  const subDirs = new Map<string, FileMap>();
  for (const [path, data] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (path === 'Chart.yaml' || path === 'values.yaml' || path === 'Chart.lock' || path === '.helmignore') continue;
    if (path.startsWith('templates/')) chart.templates.push({ name: path, data });
    else if (path.startsWith('charts/')) {
      const rest = path.slice('charts/'.length);
      if (!rest.includes('/')) {
        if (rest.endsWith('.tgz')) chart.dependencies.push(loadChartFiles(untgz(data)));
        continue;
      }
      const dir = rest.split('/')[0]!;
      const m = subDirs.get(dir) ?? new Map<string, Buffer>();
      m.set(rest.slice(dir.length + 1), data);
      subDirs.set(dir, m);
    } else {
      if (path.startsWith('crds/')) chart.crds.push({ name: path, data });
      if (/^readme(\.md|\.txt)?$/i.test(path)) chart.readme ??= data.toString('utf8');
      chart.files.push({ name: path, data });
    }
  }
  for (const m of subDirs.values()) chart.dependencies.push(loadChartFiles(m));
  return chart;
}

/** The chart's Go-side view for templates (.Chart): chart.Metadata's exported field names. */
export function chartObject(m: ChartMetadata): Record<string, GoValue> {
  const out: Record<string, GoValue> = {
    Name: m.name,
    Home: m.home ?? '',
    Sources: null,
    Version: String(m.version),
    Description: m.description ?? '',
    Keywords: m.keywords ?? null,
    Maintainers: null,
    Icon: m.icon ?? '',
    APIVersion: m.apiVersion,
    Condition: '',
    Tags: '',
    AppVersion: m.appVersion === undefined ? '' : String(m.appVersion),
    Deprecated: false,
    Annotations: null,
    KubeVersion: m.kubeVersion ?? '',
    Dependencies: null,
    Type: m.type ?? '',
  };
  return out;
}
