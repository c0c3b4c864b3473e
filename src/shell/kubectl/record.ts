/**
 * `--record` (deprecated but still accepted by annotate, apply, autoscale, create, edit, expose,
 * label, patch, run, scale and set image|resources|selector|serviceaccount): the changed object
 * gets the `kubernetes.io/change-cause` annotation with the command line, as
 * k8s.io/cli-runtime genericclioptions/record_flags.go builds it (parseCommandArguments): the
 * program's base name, the non-flag words, then every flag as ` --NAME=VALUE` in the order given.
 * That annotation is what `kubectl rollout history` shows under CHANGE-CAUSE once the Deployment
 * controller copies it to the ReplicaSet.
 */
import type { KObject } from '../../sim/api/types.js';
import type { Invocation } from './context.js';
import { bool } from './flags.js';

export const CHANGE_CAUSE = 'kubernetes.io/change-cause';

/** The change cause `--record` writes, or undefined when it was not asked for. */
export function changeCause(inv: Invocation): string | undefined {
  if (!bool(inv.parsed.flags, 'record')) return undefined;
  const words = [...inv.words.split(' '), ...inv.parsed.args];
  const flags = inv.parsed.given.map(([name, value]) => ` --${name}=${value}`).join('');
  return `kubectl ${words.join(' ')}${flags}`;
}

/** The object with the change cause recorded in it (ChangeCauseRecorder.Record), when asked for. */
export function recordChangeCause<T extends KObject>(inv: Invocation, obj: T): T {
  const cause = changeCause(inv);
  if (cause === undefined) return obj;
  return { ...obj, metadata: { ...obj.metadata, annotations: { ...(obj.metadata.annotations ?? {}), [CHANGE_CAUSE]: cause } } };
}
