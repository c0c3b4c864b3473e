/**
 * `kubectl get` (k8s.io/kubectl pkg/cmd/get/get.go Run, printGeneric; sorter.go): fetch what the
 * arguments name, then print either server-style tables (default, `-o wide`; one table per
 * resource type with `<kind>.<group>/` prefixes when several types were asked for) or one generic
 * document (yaml, json, name, jsonpath, custom-columns) over a `List` unless a single object was
 * named. Errors of individual names are collected and printed after the output (ContinueOnError).
 */
import type { KObject } from '../../../sim/api/types.js';
import type { ResourceInfo } from '../../../sim/api/registry.js';
import type { CommandResult } from '../../types.js';
import type { ShellResult } from '../../commands/types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { type Parsed, bool, list, str } from '../flags.js';
import { KubectlError, RawError, errorResult } from '../errors.js';
import { effectiveNamespace } from '../kubeconfig.js';
import { type ResolvedArgs, resolveArgs, resolveFiles, selectObjects } from '../resource-args.js';
import { noResourcesMessage, printTables } from '../../printers/table.js';
import { customResourcePrinter } from '../../printers/columns/customresources.js';
import { crdVersion, type CustomResourceDefinition } from '../../../sim/api/crd.js';
import type { KindPrinter } from '../../printers/columns/index.js';
import { printYaml, toYaml } from '../../printers/yaml.js';
import { toKyaml } from '../../printers/kyaml.js';
import { marshalCompact, printJson } from '../../printers/json.js';
import { printName } from '../../printers/name.js';
import { printJsonPath } from '../../printers/jsonpath.js';
import { parseGoTemplate, printGoTemplate } from '../../printers/gotemplate.js';
import { TemplateFailure } from '../printobj.js';
import type { GoTemplate } from '../../gotemplate/index.js';
import { type CustomColumn, parseCustomColumnsFile, parseCustomColumnsSpec, printCustomColumns } from '../../printers/custom-columns.js';
import { GET_TABWRITER, TabWriter, renderRows } from '../../printers/tabwriter.js';
import { type Json, documentFor, sortKeys } from '../../printers/serialize.js';
import { sortObjects } from '../sort-by.js';
import { runGetRaw } from './get-raw.js';
import { checkSingleType, requestTimeoutMs, runWatch, watchTableOptions } from './get-watch.js';
import { parseRequestURIError } from '../../../util/go-url.js';
import { ApiError } from '../../../sim/api/errors.js';
import { servedAs } from '../../../sim/api/events-v1.js';


const ALLOWED_FORMATS =
  'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml';

export const ENDPOINTS_WARNING = 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

/** What `-o` asked for, parsed before anything is fetched (get.go Complete → ToPrinter). */
export type OutputFormat =
  | { kind: 'table'; wide: boolean }
  | { kind: 'yaml' }
  | { kind: 'kyaml' }
  | { kind: 'json' }
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string; asJson: boolean }
  | { kind: 'go-template'; template: GoTemplate; raw: string }
  | { kind: 'custom-columns'; columns: CustomColumn[] };

function readFile(env: KubectlEnv, file: string): string | undefined {
  return env.fs.tryRead(file.startsWith('/') ? file : `${env.cwd.replace(/\/$/, '')}/${file}`);
}

/** A Go template from `-o go-template=…` or `--template` (template.go GoTemplatePrintFlags.ToPrinter). */
function goTemplateOutput(text: string): OutputFormat {
  const r = parseGoTemplate(text);
  if (!r.ok) throw new KubectlError(r.error);
  return { kind: 'go-template', template: r.tmpl, raw: text };
}

export function parseOutput(raw: string | undefined, env: KubectlEnv, template: string | undefined): OutputFormat {
  // --template without -o means go-template (GetPrintFlags, kept for backwards compatibility)
  if ((raw === undefined || raw === '') && template) raw = 'go-template';
  if (raw === undefined || raw === '') return { kind: 'table', wide: false };
  if (template && raw.includes('=') && /^(go-template|template|go-template-file|templatefile)=/.test(raw)) {
    throw new KubectlError(`unable to match a printer suitable for the output format "${raw}", allowed formats are: ${ALLOWED_FORMATS}`);
  }
  const eq = raw.indexOf('=');
  const name = eq >= 0 ? raw.slice(0, eq) : raw;
  const arg = eq >= 0 ? raw.slice(eq + 1) : (template ?? '');
  switch (name) {
    case 'wide':
      return { kind: 'table', wide: true };
    case 'yaml':
      return { kind: 'yaml' };
    case 'kyaml':
      return { kind: 'kyaml' };
    case 'json':
      return { kind: 'json' };
    case 'name':
      return { kind: 'name' };
    case 'jsonpath':
    case 'jsonpath-as-json':
      if (arg === '') throw new KubectlError('template format specified but no template given');
      return { kind: 'jsonpath', template: arg, asJson: name === 'jsonpath-as-json' };
    case 'jsonpath-file': {
      if (arg === '') throw new KubectlError('template format specified but no template file given');
      const text = readFile(env, arg);
      if (text === undefined) throw new KubectlError(`error reading --template ${arg}, open ${arg}: no such file or directory`);
      return { kind: 'jsonpath', template: text, asJson: false };
    }
    case 'go-template':
    case 'template':
      if (arg === '') throw new KubectlError('template format specified but no template given');
      return goTemplateOutput(arg);
    case 'go-template-file':
    case 'templatefile': {
      if (arg === '') throw new KubectlError('template format specified but no template given');
      const text = readFile(env, arg);
      if (text === undefined) throw new KubectlError(`error reading --template ${arg}, open ${arg}: no such file or directory`);
      return goTemplateOutput(text);
    }
    case 'custom-columns': {
      const r = parseCustomColumnsSpec(arg);
      if (!r.ok) throw new KubectlError(r.error);
      return { kind: 'custom-columns', columns: r.value };
    }
    case 'custom-columns-file': {
      const text = readFile(env, arg);
      if (text === undefined) throw new KubectlError(`open ${arg}: no such file or directory`);
      const r = parseCustomColumnsFile(text);
      if (!r.ok) throw new KubectlError(r.error);
      return { kind: 'custom-columns', columns: r.value };
    }
    default:
      throw new KubectlError(`unable to match a printer suitable for the output format "${raw}", allowed formats are: ${ALLOWED_FORMATS}`);
  }
}

/** A flag that may be given before the verb (global) or after it. */
export function flagOr(p: Parsed, global: Parsed, name: string): string | undefined {
  return str(p.flags, name) ?? str(global.flags, name);
}

/** The namespace of this command: -n, else the kubeconfig context's, else default. */
export function commandNamespace(env: KubectlEnv, p: Parsed, global: Parsed = p): string {
  return effectiveNamespace(env.fs, env.env, flagOr(p, global, 'namespace'), flagOr(p, global, 'kubeconfig'), flagOr(p, global, 'context'));
}

/** One fetched group: the objects of one request (a list, or named objects of one type). */
export interface Fetched {
  info: ResourceInfo;
  objs: KObject[];
}

export interface FetchOptions {
  namespace: string;
  allNamespaces: boolean;
  selectors: { label?: string; field?: string };
  ignoreNotFound: boolean;
  /** `--subresource=status|scale`: each named object is read through …/NAME/status (the object) or …/NAME/scale (its autoscaling/v1 Scale). */
  subresource?: string;
}

/** Run the requests against the API server; errors of single names are collected, not thrown. */
export function fetchAll(env: KubectlEnv, resolved: ResolvedArgs, o: FetchOptions): { groups: Fetched[]; errors: unknown[] } {
  const groups: Fetched[] = [];
  const errors: unknown[] = [];
  for (const req of resolved.requests) {
    const ns = req.namespace ?? o.namespace;
    if (req.names === undefined) {
      // read-only: the printers and the watch only read what they print (stored objects, frozen)
      const all = env.api.readList(req.info.kind, o.allNamespaces ? undefined : ns);
      groups.push({ info: req.info, objs: selectObjects(all, req.info, o.selectors) });
      continue;
    }
    for (const name of req.names) {
      try {
        const obj = readSubresource(env, req.info.kind, ns, name, o.subresource);
        const last = groups[groups.length - 1];
        if (last && last.info === req.info && resolved.byName) last.objs.push(obj);
        else groups.push({ info: req.info, objs: [obj] });
      } catch (e) {
        if (!(o.ignoreNotFound && e instanceof Error && 'reason' in e && (e as { reason: string }).reason === 'NotFound')) errors.push(e);
      }
    }
  }
  return { groups, errors };
}

/**
 * GET of an object or one of its subresources: `status` answers the object, `scale` its Scale
 * (sim/api/scale.ts), a pod's `ephemeralcontainers` and `resize` and a CSR's `approval` the
 * object; any other name matches no route (404).
 */
function readSubresource(env: KubectlEnv, kind: string, ns: string, name: string, subresource: string | undefined): KObject {
  if (subresource === undefined || subresource === '') return env.api.read(kind, ns, name);
  if (subresource === 'status') return env.api.getStatus(kind, ns, name);
  if ((kind === 'Pod' && (subresource === 'ephemeralcontainers' || subresource === 'resize')) || (kind === 'CertificateSigningRequest' && subresource === 'approval')) return env.api.get(kind, ns, name);
  if (subresource === 'scale') return env.api.getScale(kind, ns, name) as unknown as KObject;
  throw new ApiError('NotFound', 'the server could not find the requested resource', 404);
}

/** v1 ComponentStatus's deprecation warning (apiserver pkg/endpoints/deprecation/deprecation.go WarningMessage; deprecated in 1.19). */
export const COMPONENTSTATUS_WARNING = 'Warning: v1 ComponentStatus is deprecated in v1.19+';

/** The server's deprecation warnings (v1 Endpoints, v1 ComponentStatus), each once per command. */
export function endpointsWarning(env: KubectlEnv, infos: readonly ResourceInfo[]): string {
  const seen = env.warnings ?? new Set<string>();
  let out = '';
  for (const [kind, text] of [['Endpoints', ENDPOINTS_WARNING], ['ComponentStatus', COMPONENTSTATUS_WARNING]] as const) {
    if (!infos.some((i) => i.kind === kind) || seen.has(text)) continue;
    seen.add(text);
    out += `${text}\n`;
  }
  return out;
}

/**
 * A result whose stderr begins with the server's warning, in kubectl's order: the warning was
 * written when the response arrived, before anything was printed (client-go rest/request.go
 * handleWarnings), and the aggregated errors after the objects (get.go returns them to CheckErr).
 */
export function warnFirst(warn: string, res: ShellResult): ShellResult {
  if (warn === '') return res;
  const rest = res.chunks ?? [
    { stream: 'stdout' as const, text: res.stdout },
    { stream: 'stderr' as const, text: res.stderr },
  ];
  return { ...res, stderr: warn + res.stderr, chunks: [{ stream: 'stderr', text: warn }, ...rest.filter((c) => c.text !== '')] };
}

function errorsText(errors: readonly unknown[]): string {
  return errors.map((e) => errorResult(e, 'get').stderr).join('');
}

const NO_TYPE =
  'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\n' +
  'error: Required resource not specified.\n' +
  'Use "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\n' +
  "See 'kubectl get -h' for help and examples";

function renderGeneric(objs: KObject[], asList: boolean, out: OutputFormat, p: Parsed): string {
  const showManaged = bool(p.flags, 'show-managed-fields');
  switch (out.kind) {
    case 'go-template': {
      // get_flags.go: only the json/yaml/kyaml printers omit managedFields; templates see them
      const doc = documentFor(objs, asList, { showManagedFields: true });
      const r = printGoTemplate(out.template, out.raw, doc, p.flags['allow-missing-template-keys'] !== false);
      if (!r.ok) throw new TemplateFailure(r.stdout, r.error);
      return r.text;
    }
    case 'yaml':
      return printYaml(objs, asList, { showManagedFields: showManaged });
    case 'kyaml':
      return toKyaml(documentFor(objs, asList, { showManagedFields: showManaged }));
    case 'json':
      return printJson(objs, asList, { showManagedFields: showManaged });
    case 'name':
      return printName(objs);
    case 'jsonpath': {
      const doc = documentFor(objs, asList, { showManagedFields: true });
      const r = printJsonPath(out.template, doc, { allowMissingKeys: p.flags['allow-missing-template-keys'] !== false, outputJson: out.asJson });
      if (!r.ok) throw new KubectlError(r.error);
      return r.text;
    }
    case 'custom-columns': {
      const noHeaders = bool(p.flags, 'no-headers');
      if (objs.length === 0) return noHeaders ? '' : renderRows([out.columns.map((c) => c.header)]);
      const r = printCustomColumns(objs, out.columns, noHeaders);
      if (!r.ok) throw new KubectlError(r.error);
      return r.value;
    }
    case 'table':
      return '';
  }
}

/**
 * How get.go's watch prints one object (`eventType` undefined) or, with --output-watch-events, one
 * metav1.WatchEvent{Type, Object} through a non-table printer, keeping the printer's state across
 * the watch: the YAML printer's `---` before every document but the first, custom columns' one
 * tabwriter. Recorded from kubectl v1.35.2 by scripts/record-get-watch.mjs
 * (testdata/watch-events/): an event prints as `json.Marshal` writes the Go struct, compact and
 * `type` first (cli-runtime json.go), and as YAML through JSON with sorted keys, `object` first
 * (yaml.go); its object keeps managedFields (OmitManagedFieldsPrinter only strips objects with
 * metadata); -o name prints the object's name, jsonpath, go-template and custom columns read the
 * event (`{.type}`, `{.object.metadata.name}`), and kyaml refuses it (no apiVersion or kind).
 */
export function watchRenderer(out: OutputFormat, p: Parsed): (obj: KObject, eventType: string | undefined) => string {
  let printed = 0;
  const tw = new TabWriter(GET_TABWRITER);
  const showManaged = bool(p.flags, 'show-managed-fields');
  return (obj, eventType) => {
    const first = printed++ === 0;
    const sep = first ? '' : '---\n';
    if (eventType === undefined) {
      if (out.kind === 'yaml') return `${sep}${printYaml([obj], false, { showManagedFields: showManaged })}`;
      if (out.kind !== 'custom-columns') return renderGeneric([obj], false, out, p);
    }
    const doc = eventType === undefined ? obj : ({ type: eventType, object: documentFor([obj], false, { showManagedFields: true }) } as unknown as KObject);
    switch (out.kind) {
      case 'yaml':
        return `${sep}${toYaml(sortKeys(doc) as Json)}`;
      case 'json':
        return `${marshalCompact(doc as unknown as Json)}\n`;
      case 'kyaml':
        throw new KubectlError('missing apiVersion or kind; try GetObjectKind().SetGroupVersionKind() if you know the type');
      case 'name':
        return printName([obj]);
      case 'custom-columns': {
        const c = printCustomColumns([doc], out.columns, bool(p.flags, 'no-headers') || !first, tw);
        if (!c.ok) throw new KubectlError(c.error);
        return c.value;
      }
      default:
        return renderGeneric([doc], false, out, p);
    }
  };
}

async function runGet(p: Parsed, env: KubectlEnv): Promise<CommandResult> {
  const raw = str(p.flags, 'raw');
  if (raw !== undefined) {
    // get.go Validate: --raw takes no resource arguments, file or output format
    if (p.args.length > 0 || list(p.flags, 'filename').length > 0) throw new KubectlError('arguments may not be passed when --raw is specified');
    const bad = parseRequestURIError(raw);
    if (bad !== undefined) throw new KubectlError(`--raw must be a valid URL path: ${bad}`);
    return runGetRaw(env, raw);
  }
  const out = parseOutput(str(p.flags, 'output'), env, str(p.flags, 'template'));
  requestTimeoutMs(p);
  const files = list(p.flags, 'filename');
  if (p.args.length === 0 && files.length === 0) throw new RawError(NO_TYPE);
  const allNamespaces = bool(p.flags, 'all-namespaces');
  const resolved = files.length > 0 ? resolveFiles(env, files, bool(p.flags, 'recursive'), 'get') : resolveArgs(p.args, env.cluster.discovery(), env.shortNames);
  if (allNamespaces && resolved.byName && files.length === 0) throw new KubectlError('a resource cannot be retrieved by name across all namespaces');
  const label = str(p.flags, 'selector');
  const fieldSel = str(p.flags, 'field-selector');
  if (resolved.byName && label !== undefined) throw new KubectlError('name cannot be provided when a selector is specified');
  // cli-runtime builder.go visitBySelector: a list has no subresource
  const subresource = str(p.flags, 'subresource') ?? '';
  if (subresource !== '' && !resolved.byName && files.length === 0) throw new KubectlError('subresource cannot be used when bulk resources are specified');
  env.api.ensureUp();
  const namespace = commandNamespace(env, p);
  const warn = endpointsWarning(env, resolved.requests.map((r) => r.info));
  const { groups, errors } = fetchAll(env, resolved, {
    ...(subresource !== '' ? { subresource } : {}),
    namespace,
    allNamespaces,
    selectors: { ...(label !== undefined ? { label } : {}), ...(fieldSel !== undefined ? { field: fieldSel } : {}) },
    ignoreNotFound: bool(p.flags, 'ignore-not-found'),
  });
  const sortBy = str(p.flags, 'sort-by');
  if (sortBy) for (const g of groups) g.objs = sortObjects(g.objs, sortBy);
  if (bool(p.flags, 'watch') || bool(p.flags, 'watch-only')) {
    checkSingleType(resolved.requests.map((r) => r.info));
    if (errors.length > 0) return warnFirst(warn, { stdout: '', stderr: errorsText(errors), exitCode: 1 });
    const info = resolved.requests[0]!.info;
    const names = resolved.byName ? new Set(resolved.requests.flatMap((r) => r.names ?? [])) : undefined;
    const r = await runWatch(env, p, {
      info,
      initial: groups.flatMap((g) => g.objs),
      ...(names ? { names } : {}),
      namespace: allNamespaces ? undefined : namespace,
      selectors: { ...(label !== undefined ? { label } : {}), ...(fieldSel !== undefined ? { field: fieldSel } : {}) },
      table: out.kind === 'table' ? watchTableOptions(env, p, out.wide, allNamespaces, (kind) => customPrinterOf(env, kind)) : undefined,
      render: watchRenderer(out, p),
    });
    return warnFirst(warn, r);
  }
  let stdout: string;
  let stderr = '';
  if (out.kind === 'table') {
    const withKind = bool(p.flags, 'show-kind') || new Set(groups.map((g) => g.info)).size > 1;
    stdout = printTables(
      groups.map((g) => g.objs),
      {
        now: env.cluster.now(),
        wide: out.wide,
        showLabels: bool(p.flags, 'show-labels'),
        labelColumns: list(p.flags, 'label-columns'),
        noHeaders: bool(p.flags, 'no-headers'),
        allNamespaces,
        withKind,
        customPrinter: (kind) => customPrinterOf(env, kind),
      },
    );
    if (stdout === '' && errors.length === 0 && !bool(p.flags, 'ignore-not-found')) {
      const clusterScoped = groups.some((g) => !g.info.namespaced);
      stderr += `${noResourcesMessage(namespace, allNamespaces, clusterScoped)}\n`;
    }
  } else {
    // the table is the server's from the stored object; the objects themselves come in the version read
    const objs = groups.flatMap((g) => g.objs.map((o) => servedAs(g.info, o)));
    if (resolved.singleItem && errors.length > 0) return warnFirst(warn, { stdout: '', stderr: stderr + errorsText(errors), exitCode: 1 });
    if (objs.length === 0 && bool(p.flags, 'ignore-not-found') && errors.length === 0) return warnFirst(warn, { stdout: '', stderr, exitCode: 0 });
    const asList = !resolved.singleItem || objs.length !== 1;
    stdout = renderGeneric(sortBy && asList ? sortObjects(objs, sortBy) : objs, asList, out, p);
  }
  stderr += errorsText(errors);
  return warnFirst(warn, { stdout, stderr, exitCode: errors.length > 0 ? 1 : 0 });
}

/** The table of a custom resource kind: its CRD's printer columns for the served version kubectl reads. */
function customPrinterOf(env: KubectlEnv, kind: string): KindPrinter | undefined {
  const d = env.cluster.discovery();
  const info = d.hasKind(kind) ? d.infoForKind(kind) : undefined;
  if (!info?.crd) return undefined;
  const crd = env.cluster.store.get<CustomResourceDefinition>('CustomResourceDefinition', undefined, info.crd);
  return crd ? customResourcePrinter(crdVersion(crd, info.version)) : undefined;
}

export const getVerb: Verb = {
  name: 'get',
  async run(inv, env) {
    try {
      return await runGet(inv.parsed, env);
    } catch (e) {
      return errorResult(e, 'get');
    }
  },
};
