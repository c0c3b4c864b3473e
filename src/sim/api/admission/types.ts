/**
 * The shape of an admission plugin (k8s.io/apiserver pkg/admission/interfaces.go): a request's
 * attributes go through every plugin's mutating half, then, after the object validated, through
 * every validating half, in the order kube-apiserver lists them (./index.ts). A plugin refuses a
 * request by returning its error text, which the chain wraps as admission.NewForbidden does:
 * `<resource> "<name>" is forbidden: <text>`.
 */
import type { KObject } from '../types.js';
import type { ApiError } from '../errors.js';
import type { Store } from '../store.js';

export type Operation = 'CREATE' | 'UPDATE';

export interface AdmissionAttributes {
  operation: Operation;
  /** The object being written; a mutating plugin changes it in place. */
  obj: KObject;
  /** The stored object an UPDATE replaces. */
  old?: KObject;
  namespace?: string;
  /** The cluster's objects as the plugins' informers see them. */
  store: Store;
  /** Warnings for the client (`Warning: …` in kubectl). */
  warnings: string[];
  /** The cluster's clock (ms), for what depends on time (quota's stuck-terminating pods). */
  now?: number;
}

export interface AdmissionPlugin {
  /** The name kube-apiserver's --enable-admission-plugins uses. */
  name: string;
  /** MutationInterface.Admit. */
  mutate?(a: AdmissionAttributes): void;
  /**
   * ValidationInterface.Validate: the Forbidden text, or undefined to admit; an ApiError when the
   * plugin answers with another status (PodSecurity's Invalid for a bad namespace label).
   */
  validate?(a: AdmissionAttributes): string | ApiError | undefined;
}

/** utilerrors.NewAggregate(errs).Error(): one message alone, several as `[a, b]`. */
export function aggregate(msgs: readonly string[]): string | undefined {
  if (msgs.length === 0) return undefined;
  return msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
}
