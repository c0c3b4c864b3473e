/**
 * What `kubectl label` and `kubectl annotate` share (k8s.io/kubectl pkg/cmd/label/label.go,
 * annotate/annotate.go): `key=value` sets, `key-` removes, --overwrite guards existing keys,
 * targets by name, -l or --all.
 */
import { warningLines } from '../validate.js';
import { Streams } from '../streams.js';
import type { KObject } from '../../../sim/api/types.js';
import { matchRequirements, parseLabelSelector } from '../../../sim/api/selectors.js';
import type { CommandResult } from '../../types.js';
import type { Invocation, KubectlEnv } from '../context.js';
import { CHANGE_CAUSE, recordChangeCause } from '../record.js';
import { parseDryRun } from '../dry-run.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, parseTargets, resolveType } from '../target.js';
import { latestOf, readManifests } from '../manifest.js';
import { labelValueProblems } from '../../../sim/api/validation.js';

export async function editMetadata(field: 'labels' | 'annotations', inv: Invocation, env: KubectlEnv): Promise<CommandResult> {
  const p = inv.parsed;
  const dry = parseDryRun(p.flags);
  // cmdutil.GetResourcesAndPairs: from the first `k=v` or `k-` argument on, every argument is a change
  // (a prefixed key such as example.com/key- is a removal, not a resource)
  const first = p.args.findIndex((a) => (a.includes('=') && !a.startsWith('=')) || (a.endsWith('-') && a !== '-'));
  const changes = first < 0 ? [] : p.args.slice(first);
  const resources = first < 0 ? p.args : p.args.slice(0, first);
  const files = list(p.flags, 'filename');
  const local = bool(p.flags, 'local');
  validateTargets(field, { local, serverDryRun: dry.mode === 'server', resources, files });
  if (changes.length === 0 && !bool(p.flags, 'list')) throw new KubectlError(`at least one ${field === 'labels' ? 'label' : 'annotation'} update is required`);
  const { set, remove } = parseChanges(field, changes);
  const ns = namespaceOf(env, p);
  // the resource builder: objects from -f first (from the files with --local, else their live
  // copies: .Latest()), then TYPE NAME arguments or a selector
  const objs: Array<KObject | Error> = [];
  if (files.length) {
    for (const { obj } of readManifests(env, files, bool(p.flags, 'recursive'), field === 'labels' ? 'label' : 'annotate')) {
      if (local) objs.push(obj);
      else objs.push(latestOf(env, obj, ns));
    }
  }
  const selector = str(p.flags, 'selector');
  if (local) {
    // no arguments, no selector: local objects only
  } else if ((selector !== undefined || bool(p.flags, 'all')) && resources.length) {
    const reqs = parseLabelSelector(selector ?? '');
    objs.push(...resources[0]!.split(',').flatMap((t) => env.api.list(resolveType(t, env.cluster.discovery(), env.shortNames).kind, bool(p.flags, 'all-namespaces') ? undefined : ns.name)).filter((o) => matchRequirements(reqs, o.metadata.labels)));
  } else if (resources.length) {
    const { targets, typesOnly } = parseTargets(resources, env.cluster.discovery(), env.shortNames);
    if (typesOnly.length) throw new KubectlError('resource(s) were provided, but no name was specified');
    objs.push(...targets.map((t) => env.api.get(t.info.kind, ns.name, t.name)));
  }
  const io = new Streams();
  const overwrite = bool(p.flags, 'overwrite');
  // ContinueOnError: an object that fails is reported at the end, the others are still changed
  const errors: string[] = [];
  for (const obj0 of objs) {
    if (obj0 instanceof Error) {
      errors.push(errorResult(obj0, '').stderr);
      continue;
    }
    const current = { ...(obj0.metadata[field] ?? {}) };
    if (!overwrite) {
      try {
        overwriteGuard(field, current, set);
      } catch (e) {
        errors.push(errorResult(e, '').stderr);
        continue;
      }
    }
    if (field === 'labels' && dry.mode !== 'client' && !local) for (const k of remove) if (!(k in current)) io.out(`label "${k}" not found.\n`);
    const before = JSON.stringify(obj0);
    Object.assign(current, set);
    for (const k of remove) delete current[k];
    let obj: KObject = { ...obj0, metadata: { ...obj0.metadata } };
    if (Object.keys(current).length) obj.metadata[field] = current;
    else delete obj.metadata[field];
    if (dry.mode !== 'client' && !local) obj = recordChangeCause(inv, obj);
    const after = JSON.stringify(obj);
    const changed = before !== after;
    const warnings: string[] = [];
    const updated = changed && dry.mode !== 'client' && !local ? env.api.update(obj, { dryRun: dry.mode === 'server', warnings }) : obj;
    io.err(warningLines(env, warnings));
    // label.go updateDataChangeMsg: "not labeled" / "labeled" / "unlabeled" (shorter without --overwrite);
    // annotate.go always prints "annotated"
    const op = field === 'annotations' ? 'annotated' : !changed ? 'not labeled' : !overwrite && after.length < before.length ? 'unlabeled' : 'labeled';
    io.out(printObject(updated, { output: str(p.flags, 'output'), operation: op, dryRun: dry.mode, generated: false }));
  }
  for (const e of errors) io.err(e);
  return io.result(errors.length ? 1 : 0);
}

/**
 * label.go / annotate.go Validate: what may name the objects. The two commands word their
 * examples differently (pod.yaml vs rsrc.yaml), recorded from kubectl v1.35.2.
 */
function validateTargets(field: 'labels' | 'annotations', t: { local: boolean; serverDryRun: boolean; resources: string[]; files: string[] }): void {
  const file = field === 'labels' ? '-f pod.yaml or --filename=pod.json' : '-f rsrc.yaml or --filename=rsrc.json';
  if (t.local) {
    if (t.serverDryRun) throw new KubectlError('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
    if (t.resources.length) throw new KubectlError(`can only use local files by ${file} when --local=true is set`);
    if (!t.files.length) throw new KubectlError(`one or more files must be specified as ${file}`);
  } else if (!t.resources.length && !t.files.length) {
    throw new KubectlError('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  }
}

/**
 * label.go parseLabels (`k=v` split on every `=`, the value checked by IsValidLabelValue) and
 * annotate.go parseAnnotations (split on the first `=`); `k-` removes.
 */
function parseChanges(field: 'labels' | 'annotations', changes: string[]): { set: Record<string, string>; remove: string[] } {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const c of changes) {
    if (c.includes('=')) {
      const parts = field === 'labels' ? c.split('=') : [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)];
      if (parts.length !== 2) throw new KubectlError(`invalid label spec: ${c}`);
      const problems = field === 'labels' ? labelValueProblems(parts[1]!) : [];
      if (problems.length) throw new KubectlError(`invalid label value: ${JSON.stringify(c)}: ${problems.join(';')}`);
      set[parts[0]!] = parts[1]!;
    } else remove.push(c.slice(0, -1));
  }
  if (field === 'labels' && remove.some((k) => k in set)) throw new KubectlError('can not both modify and remove a label in the same command');
  return { set, remove };
}

/** The live copy of an object named in a file (the builder's .Latest()), or the error getting it. */
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
