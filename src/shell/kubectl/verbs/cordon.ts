/**
 * `kubectl cordon|uncordon NODE` (k8s.io/kubectl pkg/cmd/drain/drain.go RunCordonOrUncordon):
 * flips spec.unschedulable; `node/x cordoned`, `node/x already cordoned`.
 */
import type { Node } from '../../../sim/api/types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { KubectlError } from '../errors.js';

/** Set unschedulable on one node; returns kubectl's line. */
export function setCordon(env: KubectlEnv, name: string, on: boolean): string {
  const node = env.api.get<Node>('Node', undefined, name);
  const word = on ? 'cordoned' : 'uncordoned';
  if (Boolean(node.spec?.unschedulable) === on) return `node/${name} already ${word}\n`;
  node.spec = { ...(node.spec ?? {}) };
  if (on) node.spec.unschedulable = true;
  else delete node.spec.unschedulable;
  env.api.update(node);
  return `node/${name} ${word}\n`;
}

function cordonVerb(name: 'cordon' | 'uncordon'): Verb {
  return {
    name,
    run(inv, env) {
      const p = inv.parsed;
      if (p.args.length === 0) throw new KubectlError('USAGE: ' + name + ' NODE [flags]', `See 'kubectl ${name} -h' for help and examples`);
      return { stdout: p.args.map((n) => setCordon(env, n.replace(/^(node|nodes|no)\//, ''), name === 'cordon')).join(''), stderr: '', exitCode: 0 };
    },
  };
}

export const cordon = cordonVerb('cordon');
export const uncordon = cordonVerb('uncordon');
