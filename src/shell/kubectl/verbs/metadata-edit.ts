/**
 * What `kubectl label` and `kubectl annotate` share (k8s.io/kubectl pkg/cmd/label/label.go,
 * annotate/annotate.go): `key=value` sets, `key-` removes, --overwrite guards existing keys,
 * targets by name, -l or --all.
 */
import { warningLines } from '../validate.js';
import type { KObject } from '../../../sim/api/types.js';
import { matchRequirements, parseLabelSelector } from '../../../sim/api/selectors.js';
import type { CommandResult } from '../../types.js';
import type { KubectlEnv } from '../context.js';
import { parseDryRun } from '../dry-run.js';
import { KubectlError, RawError } from '../errors.js';
import { bool, str, type Parsed } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES, resolveType } from '../target.js';

export async function editMetadata(field: 'labels' | 'annotations', verb: string, p: Parsed, env: KubectlEnv): Promise<CommandResult> {
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
  for (const obj of objs) {
    const current = { ...(obj.metadata[field] ?? {}) };
    if (!bool(p.flags, 'overwrite'))
      for (const k of Object.keys(set)) if (k in current && current[k] !== set[k]) throw new KubectlError(`'${k}' already has a value (${current[k]}), and --overwrite is false`);
    const before = JSON.stringify(current);
    Object.assign(current, set);
    for (const k of remove) delete current[k];
    const changed = before !== JSON.stringify(current);
    if (Object.keys(current).length) obj.metadata[field] = current;
    else delete obj.metadata[field];
    const warnings: string[] = [];
    const updated = changed && dry.mode !== 'client' ? env.api.update(obj, { dryRun: dry.mode === 'server', warnings }) : obj;
    stderr += warningLines(env, warnings);
    const past = field === 'labels' ? 'labeled' : 'annotated';
    const op = !changed ? `not ${past}` : field === 'labels' && Object.keys(set).length === 0 ? 'unlabeled' : past;
    stdout += printObject(updated, { output: str(p.flags, 'output'), operation: op, dryRun: dry.mode, generated: false });
  }
  return { stdout, stderr, exitCode: 0 };
}
