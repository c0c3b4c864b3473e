/**
 * `kubectl set selector (-f FILENAME | TYPE NAME) EXPRESSIONS [--resource-version=version]`
 * (k8s.io/kubectl pkg/cmd/set/set_selector.go). The last argument is the selector
 * (metav1.ParseToLabelSelector); it replaces a Service's spec.selector entirely. Only Services
 * are supported, and only equality requirements (a Service selector is a plain map).
 */
import type { KObject, Service } from '../../../sim/api/types.js';
import { parseLabelSelector, type Requirement, SelectorParseError } from '../../../sim/api/selectors.js';
import type { CommandResult } from '../../types.js';
import type { Invocation, KubectlEnv } from '../context.js';
import { KubectlError, RawError } from '../errors.js';
import { str } from '../flags.js';
import { printObject } from '../printobj.js';
import { parseDryRun } from '../dry-run.js';
import { PROVIDE_RESOURCES, namespaceOf, parseTargets } from '../target.js';
import { recordChangeCause } from '../record.js';


const OPERATOR: Record<Exclude<Requirement['op'], 'gt' | 'lt'>, string> = { '=': 'In', '!=': 'NotIn', in: 'In', notin: 'NotIn', exists: 'Exists', '!': 'DoesNotExist' };

/** ParseToLabelSelector: `=`/`==` go to matchLabels, everything else to matchExpressions. */
function toSelector(expr: string): { matchLabels: Record<string, string>; expressions: Requirement[] } {
  let reqs: Requirement[];
  try {
    reqs = parseLabelSelector(expr);
  } catch (e) {
    if (e instanceof SelectorParseError) throw new KubectlError(e.message);
    throw e;
  }
  const matchLabels: Record<string, string> = {};
  const expressions: Requirement[] = [];
  for (const r of reqs) {
    // metav1.ParseToLabelSelector refuses the numeric comparisons deliberately
    if (r.op === 'gt' || r.op === 'lt') throw new KubectlError(`"${r.op}" isn't supported in label selectors`);
    if (r.op === '=') matchLabels[r.key] = r.values[0]!;
    else expressions.push(r);
  }
  return { matchLabels, expressions };
}

/** Go's %v of []metav1.LabelSelectorRequirement: `[{app In [a b]}]`. */
function formatExpressions(reqs: readonly Requirement[]): string {
  return `[${reqs.map((r) => `{${r.key} ${OPERATOR[r.op as keyof typeof OPERATOR]} [${r.values.join(' ')}]}`).join(' ')}]`;
}

export function runSetSelector(inv: Invocation, env: KubectlEnv): CommandResult {
  const p = inv.parsed;
  const dry = parseDryRun(p.flags);
  const expr = p.args[p.args.length - 1];
  // Validate: no arguments at all means no selector
  if (expr === undefined) throw new KubectlError('one selector is required');
  const sel = toSelector(expr);
  const resources = p.args.slice(0, -1);
  if (resources.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
  const { targets, typesOnly } = parseTargets(resources, env.cluster.discovery(), env.shortNames);
  if (typesOnly.length) throw new KubectlError('resource(s) were provided, but no name was specified');
  env.api.ensureUp();
  const ns = namespaceOf(env, p);
  const rv = str(p.flags, 'resource-version');
  let stdout = '';
  for (const t of targets) {
    const obj: KObject = env.api.get(t.info.kind, ns.name, t.name);
    // updateSelectorForObject: expressions are rejected before the kind is looked at
    if (sel.expressions.length > 0) throw new KubectlError(`match expression ${formatExpressions(sel.expressions)} not supported on this object`);
    if (obj.kind !== 'Service') throw new KubectlError('setting a selector is only supported for Services');
    const svc = obj as Service;
    if (Object.keys(sel.matchLabels).length > 0) svc.spec = { ...svc.spec, selector: { ...sel.matchLabels } };
    else if (svc.spec) delete svc.spec.selector;
    // --resource-version is sent in the patch: the server rejects a stale one with a Conflict
    if (rv !== undefined && rv !== '') svc.metadata.resourceVersion = rv;
    const out = dry.mode === 'client' ? svc : env.api.update(recordChangeCause(inv, svc), { dryRun: dry.mode === 'server' });
    stdout += printObject(out, { output: str(p.flags, 'output'), operation: 'selector updated', dryRun: dry.mode, generated: false });
  }
  return { stdout, stderr: '', exitCode: 0 };
}
