/**
 * `kubectl taint nodes NAME key[=value]:Effect[-]` (k8s.io/kubectl pkg/cmd/taint/taint.go,
 * utils.go parseTaints): adds, overwrites (with --overwrite) or removes taints.
 */
import type { Node, Taint } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError, RawError } from '../errors.js';
import { bool, str } from '../flags.js';
import { printObject } from '../printobj.js';
import { parseTargets, PROVIDE_RESOURCES, resolveType } from '../target.js';

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function parseTaint(spec: string): Taint {
  const colon = spec.lastIndexOf(':');
  const kv = colon >= 0 ? spec.slice(0, colon) : spec;
  const effect = colon >= 0 ? spec.slice(colon + 1) : '';
  const eq = kv.indexOf('=');
  const key = eq >= 0 ? kv.slice(0, eq) : kv;
  const value = eq >= 0 ? kv.slice(eq + 1) : undefined;
  if (!key) throw new KubectlError(`invalid taint spec: ${spec}, a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`);
  if (effect && !EFFECTS.includes(effect)) throw new KubectlError(`invalid taint effect: ${effect}, unsupported taint effect`);
  return { key, ...(value !== undefined ? { value } : {}), effect } as Taint;
}

const show = (t: Taint): string => `${t.key}${t.value ? `=${t.value}` : ''}${t.effect ? `:${t.effect}` : ''}`;

export const taintVerb: Verb = {
  name: 'taint',
  run(inv, env) {
    const p = inv.parsed;
    const specs = p.args.filter((a) => a.includes(':') || a.includes('=') || a.endsWith('-'));
    const res = p.args.filter((a) => !specs.includes(a));
    if (res.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    if (specs.length === 0) throw new KubectlError('at least one taint update is required');
    const add = specs.filter((s) => !s.endsWith('-')).map(parseTaint);
    for (const t of add) if (!t.effect) throw new KubectlError(`invalid taint spec: ${show(t)}, unknown taint effect`);
    const remove = specs.filter((s) => s.endsWith('-')).map((s) => parseTaint(s.slice(0, -1)));
    let nodes: Node[];
    if (bool(p.flags, 'all')) nodes = env.api.list<Node>('Node');
    else {
      const { targets, typesOnly } = parseTargets(res, env.cluster.discovery(), env.shortNames);
      if (typesOnly.length && typesOnly[0]!.kind === 'Node') throw new KubectlError('resource(s) were provided, but no name was specified');
      if (resolveType(res[0]!.split('/')[0]!, env.cluster.discovery(), env.shortNames).kind !== 'Node') throw new KubectlError(`invalid resource type ${res[0]}, only node types are supported`);
      nodes = targets.map((t) => env.api.get<Node>('Node', undefined, t.name));
    }
    let stdout = '';
    for (const node of nodes) {
      let taints = [...(node.spec?.taints ?? [])];
      for (const r of remove) {
        const keep = taints.filter((t) => !(t.key === r.key && (!r.effect || t.effect === r.effect)));
        if (keep.length === taints.length) throw new KubectlError(`taint "${show(r)}" not found`);
        taints = keep;
      }
      for (const a of add) {
        const same = taints.findIndex((t) => t.key === a.key && t.effect === a.effect);
        if (same >= 0) {
          if (!bool(p.flags, 'overwrite')) throw new KubectlError(`node ${node.metadata.name} already has ${a.key} taint(s) with same effect(s) and --overwrite is false`);
          taints[same] = a;
        } else taints.push(a);
      }
      node.spec = { ...(node.spec ?? {}), taints };
      if (taints.length === 0) delete node.spec.taints;
      const op = add.length > 0 ? 'tainted' : 'untainted';
      stdout += printObject(env.api.update(node), { output: str(p.flags, 'output'), operation: op, dryRun: 'none', generated: false });
    }
    return { stdout, stderr: '', exitCode: 0 };
  },
};
