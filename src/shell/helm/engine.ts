/**
 * The template engine (helm pkg/engine/engine.go): every template of the chart tree parsed into
 * one set (longest paths first, so a parent's `define` overrides a subchart's), each rendered
 * with its chart's scope (.Values, .Chart, .Template, .Release, .Capabilities, .Files),
 * `missingkey=zero` with "<no value>" removed, and the engine's own functions: include, tpl,
 * required, fail, lookup (empty, as with `helm template`). Execution errors from `fail` and
 * `required` are reworded as engine.go's reformatExecErrorMsg does.
 */
import { GoFunc, GoNum, type GoValue } from '../gotemplate/value.js';
import { execute, TemplateExecError } from '../gotemplate/exec.js';
import { BUILTINS, FuncError, type FuncMap } from '../gotemplate/funcs.js';
import { parseTemplate, TemplateParseError, type Tree } from '../gotemplate/parse.js';
import { sprigFuncs } from '../gotemplate/sprig.js';
import { type Chart, chartObject } from './chart.js';
import { filesValue } from './files.js';
import type { Values } from './values.js';

export interface ReleaseInfo {
  name: string;
  namespace: string;
  revision: number;
  isInstall: boolean;
  isUpgrade: boolean;
}

export interface RenderOptions {
  release: ReleaseInfo;
  kubeVersion: string;
  random: () => number;
  /** The simulated clock, ms (Sprig's now, ago). */
  now: () => number;
}

export class RenderError extends Error {}

interface Entry {
  path: string;
  text: string;
  vals: Record<string, GoValue>;
}

function filesObject(chart: Chart): Record<string, GoValue> {
  return filesValue(new Map(chart.files.map((f) => [f.name, f.data.toString('utf8')])));
}

function capabilities(kubeVersion: string): Record<string, GoValue> {
  const [maj, min] = kubeVersion.replace(/^v/, '').split('.');
  const apis = ['v1', 'apps/v1', 'batch/v1', 'networking.k8s.io/v1', 'rbac.authorization.k8s.io/v1', 'autoscaling/v2', 'policy/v1', 'apiextensions.k8s.io/v1', 'storage.k8s.io/v1'];
  return {
    KubeVersion: { Version: kubeVersion, Major: maj ?? '1', Minor: min ?? '35', GitVersion: kubeVersion },
    APIVersions: { Has: new GoFunc('Has', (v) => apis.includes(String(v))) },
    HelmVersion: { Version: 'v4.1.4', GitCommit: '05fa37973dc9e42b76e1d2883494c87174b6074f', GitTreeState: 'clean', GoVersion: 'go1.25.9' },
  };
}

function collect(chart: Chart, values: Values, path: string, o: RenderOptions, out: Entry[]): void {
  const top = {
    Values: values,
    Chart: chartObject(chart.metadata),
    Release: { Name: o.release.name, Namespace: o.release.namespace, Revision: new GoNum('int', o.release.revision), IsUpgrade: o.release.isUpgrade, IsInstall: o.release.isInstall, Service: 'Helm' },
    Capabilities: capabilities(o.kubeVersion),
    Files: filesObject(chart),
  };
  for (const t of chart.templates) {
    const full = `${path}/${t.name}`;
    out.push({ path: full, text: t.data.toString('utf8'), vals: { ...top, Template: { Name: full, BasePath: `${path}/templates` } } });
  }
  for (const sub of chart.dependencies) {
    const name = sub.metadata.name;
    const sv = values[name];
    if (sv && typeof sv === 'object' && !Array.isArray(sv) && (sv as Values)['enabled'] === false && chart.metadata.dependencies?.some((d) => d.name === name && d.condition)) continue;
    collect(sub, (sv && typeof sv === 'object' ? sv : {}) as Values, `${path}/charts/${name}`, o, out);
  }
}

/**
 * engine.go reformatExecErrorMsg. A `fail` or `required` message anywhere in the chain (Helm wraps
 * it in its warn delimiters) becomes `execution error at (LOCATION): MSG`, LOCATION being the
 * outermost template's. Otherwise the error chain is walked as errors.Unwrap would: each
 * `error calling NAME: ` wraps the next error; when every link is a text/template error
 * (`template: LOC: executing "NAME" at <NODE>: MSG`, or `template: LOC: MSG`) the links are printed
 * as TraceableErrors (location, then the executing line indented by two, then the message by
 * four, equal consecutive links once); when the innermost is a function's own error (not a
 * template error), the original one-line message stands.
 */
export function reformat(msg: string): string {
  const loc = /^template: (.*?): /.exec(msg)?.[1];
  const warn = /error calling (?:fail|required): ([\s\S]*)$/.exec(msg);
  if (loc !== undefined && warn) return `execution error at (${loc}): ${warn[1]}`;
  const links: string[] = [];
  for (let cur: string | undefined = msg; cur !== undefined; ) {
    links.push(cur);
    const at = /^template: .*?: executing "[^"]*" at <.*?>: error calling [^:\s]+: ([\s\S]*)$/.exec(cur);
    cur = at?.[1];
  }
  const traces: string[] = [];
  for (const link of links) {
    if (!link.startsWith('template: ')) return msg;
    const rest = link.slice('template: '.length);
    let trace: string;
    if (rest.startsWith('no template ')) trace = `${link}\n`;
    else {
      const ex = /^(.*?): executing "([^"]*)" at <(.*?)>: ([\s\S]*)$/.exec(rest);
      const cut = (m: string): string => (m.includes(' template:') ? m.slice(0, m.indexOf(' template:')) : m);
      if (ex) trace = `${ex[1]}\n  executing "${ex[2]}" at <${ex[3]}>:\n    ${cut(ex[4]!)}\n`;
      else {
        const sep = rest.lastIndexOf(': ');
        if (sep < 0) return msg;
        trace = `${rest.slice(0, sep)}\n  ${cut(rest.slice(sep + 2))}\n`;
      }
    }
    if (traces[traces.length - 1] !== trace) traces.push(trace);
  }
  return traces.join('').trim();
}

/** Render every template of the chart: path → text (partials included, as engine.Render returns). */
export function render(chart: Chart, values: Values, o: RenderOptions): Map<string, string> {
  const entries: Entry[] = [];
  collect(chart, values, chart.metadata.name, o, entries);
  const trees = new Map<string, Tree>();
  let includeDepth = 0;
  const funcs: FuncMap = {
    ...sprigFuncs(o.random, o.now),
    include: {
      params: ['string', 'any'],
      call: ([name, data]) => {
        if (++includeDepth > 1000) throw new FuncError(`rendering template has a nested reference name: ${String(name)}: unable to execute template`);
        try {
          if (!trees.has(name as string)) throw new FuncError(`template: no template ${JSON.stringify(name)} associated with template "gotpl"`);
          return execute(trees, name as string, data ?? null, { funcs, missingKey: 'zero' }).replaceAll('<no value>', '');
        } catch (e) {
          if (e instanceof TemplateExecError) throw new FuncError(e.message);
          throw e;
        } finally {
          includeDepth--;
        }
      },
    },
    tpl: {
      params: ['string', 'any'],
      call: ([text, data]) => {
        const d = data as Record<string, GoValue> | null;
        const tplName = ((d?.['Template'] as Record<string, GoValue> | undefined)?.['Name'] as string | undefined) ?? 'gotpl';
        try {
          const set = parseTemplate(tplName, text as string, funcNames, new Map(trees));
          return execute(set, tplName, data ?? null, { funcs, missingKey: 'zero' }).replaceAll('<no value>', '');
        } catch (e) {
          if (e instanceof TemplateExecError || e instanceof TemplateParseError) throw new FuncError(`cannot parse template ${JSON.stringify(text)}: ${e.message}`);
          throw e;
        }
      },
    },
    lookup: { params: ['string', 'string', 'string', 'string'], call: () => ({}) },
  };
  const funcNames = new Set([...Object.keys(BUILTINS), ...Object.keys(funcs)]);
  const sorted = [...entries].sort((a, b) => b.path.split('/').length - a.path.split('/').length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const e of sorted) {
    try {
      parseTemplate(e.path, e.text, funcNames, trees);
    } catch (err) {
      if (err instanceof TemplateParseError) throw new RenderError(`parse error at (${err.message.replace(/^template: /, '').replace(/^([^:]+:\d+): /, '$1): ')}`);
      throw err;
    }
  }
  const out = new Map<string, string>();
  for (const e of entries) {
    if (e.path.split('/').pop()!.startsWith('_')) continue;
    try {
      out.set(e.path, execute(trees, e.path, e.vals, { funcs, missingKey: 'zero' }).replaceAll('<no value>', ''));
    } catch (err) {
      if (err instanceof TemplateExecError) throw new RenderError(reformat(err.message));
      throw err;
    }
  }
  return out;
}
