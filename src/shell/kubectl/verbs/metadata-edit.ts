/**
 * What `kubectl label` and `kubectl annotate` share (k8s.io/kubectl pkg/cmd/label/label.go,
 * annotate/annotate.go): `key=value` sets, `key-` removes, --overwrite guards existing keys,
 * targets by name, -l or --all.
 */
import { warningLines } from '../validate.js';
import type { KObject } from '../../../sim/api/types.js';
import { matchRequirements, parseLabelSelector } from '../../../sim/api/selectors.js';
import type { CommandResult } from '../../types.js';
import type { Invocation, KubectlEnv } from '../context.js';
import { CHANGE_CAUSE, recordChangeCause } from '../record.js';
import { parseDryRun } from '../dry-run.js';
import { KubectlError, RawError } from '../errors.js';
import { bool, str } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES, resolveType } from '../target.js';

export async function editMetadata(field: 'labels' | 'annotations', inv: Invocation, env: KubectlEnv): Promise<CommandResult> {
  const p = inv.parsed;
  const dry = parseDryRun(p.flags);
  // cmdutil.GetResourcesAndPairs: from the first `k=v` or `k-` argument on, every argument is a change
  // (a prefixed key such as example.com/key- is a removal, not a resource)
  const first = p.args.findIndex((a) => (a.includes('=') && !a.startsWith('=')) || (a.endsWith('-') && a !== '-'));
  const changes = first < 0 ? [] : p.args.slice(first);
  const resources = first < 0 ? p.args : p.args.slice(0, first);
  if (resources.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
  if (changes.length === 0 && !bool(p.flags, 'list')) throw new KubectlError(`at least one ${field === 'labels' ? 'label' : 'annotation'} update is required`);
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const c of changes) {
    if (c.endsWith('-') && !c.includes('=')) remove.push(c.slice(0, -1));
    else set[c.slice(0, c.indexOf('='))] = c.slice(c.indexOf('=') + 1);
  }
  const ns = namespaceOf(env, p);
  const selector = str(p.flags, 'selector');
  let objs: KObject[];
  if (selector !== undefined || bool(p.flags, 'all')) {
    const reqs = parseLabelSelector(selector ?? '');
    objs = resources[0]!.split(',').flatMap((t) => env.api.list(resolveType(t, env.cluster.discovery()).kind, bool(p.flags, 'all-namespaces') ? undefined : ns.name)).filter((o) => matchRequirements(reqs, o.metadata.labels));
  } else {
    const { targets, typesOnly } = parseTargets(resources, env.cluster.discovery());
    if (typesOnly.length) throw new KubectlError('resource(s) were provided, but no name was specified');
    objs = targets.map((t) => env.api.get(t.info.kind, ns.name, t.name));
  }
  let stdout = '';
  let stderr = '';
  const overwrite = bool(p.flags, 'overwrite');
  for (const obj0 of objs) {
    const current = { ...(obj0.metadata[field] ?? {}) };
    if (!overwrite) overwriteGuard(field, current, set);
    if (field === 'labels' && dry.mode !== 'client') for (const k of remove) if (!(k in current)) stdout += `label "${k}" not found.\n`;
    const before = JSON.stringify(obj0);
    Object.assign(current, set);
    for (const k of remove) delete current[k];
    let obj: KObject = { ...obj0, metadata: { ...obj0.metadata } };
    if (Object.keys(current).length) obj.metadata[field] = current;
    else delete obj.metadata[field];
    if (dry.mode !== 'client') obj = recordChangeCause(inv, obj);
    const after = JSON.stringify(obj);
    const changed = before !== after;
    const warnings: string[] = [];
    const updated = changed && dry.mode !== 'client' ? env.api.update(obj, { dryRun: dry.mode === 'server', warnings }) : obj;
    stderr += warningLines(env, warnings);
    // label.go updateDataChangeMsg: "not labeled" / "labeled" / "unlabeled" (shorter without --overwrite);
    // annotate.go always prints "annotated"
    const op = field === 'annotations' ? 'annotated' : !changed ? 'not labeled' : !overwrite && after.length < before.length ? 'unlabeled' : 'labeled';
    stdout += printObject(updated, { output: str(p.flags, 'output'), operation: op, dryRun: dry.mode, generated: false });
  }
  return { stdout, stderr, exitCode: 0 };
}

/**
 * Without --overwrite an existing key is an error whatever its value: label.go validateNoOverwrites
 * (one error per key, aggregated) and annotate.go validateNoAnnotationOverwrites (one message; the
 * change-cause annotation may always be overwritten).
 */
function overwriteGuard(field: 'labels' | 'annotations', current: Record<string, string>, set: Record<string, string>): void {
  const taken = Object.keys(set).filter((k) => k in current && !(field === 'annotations' && k === CHANGE_CAUSE)).sort();
  if (taken.length === 0) return;
  if (field === 'annotations') throw new KubectlError(`--overwrite is false but found the following declared annotation(s): ${taken.map((k) => `'${k}' already has a value (${current[k]})`).join('; ')}`);
  const errs = taken.map((k) => `'${k}' already has a value (${current[k]}), and --overwrite is false`);
  throw new KubectlError(errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
}
