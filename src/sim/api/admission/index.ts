/**
 * The admission chain kube-apiserver v1.35 runs with its default plugins (a kubeadm cluster adds
 * NodeRestriction), in the order of kube-apiserver's AllOrderedPlugins
 * (pkg/kubeapiserver/options/plugins.go): LimitRanger, PodSecurity, …, ResourceQuota last. Every
 * write (kubectl's and the controllers' pods alike) goes through `admitMutating` after decoding
 * and defaulting and through `admitValidating` after the object validated, so a refused write is
 * never stored. NamespaceLifecycle and DefaultStorageClass live beside the API server's create.
 */
import { ApiError } from '../errors.js';
import { admissionForbidden } from './forbidden.js';
import type { Pod, PodStatus } from '../types.js';
import { computePodQOS } from '../qos.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';
import { limitRanger } from './limitranger.js';
import { podSecurity } from './podsecurity.js';
import { resourceQuota } from './resourcequota.js';
import { serviceAccount } from './serviceaccount.js';
import { priority } from './priority.js';
import { defaultIngressClassPlugin } from './defaultingressclass.js';

export type { AdmissionAttributes, AdmissionPlugin, Operation } from './types.js';

/** In kube-apiserver's order: mutating halves run in it, then validating halves in it. */
export const ADMISSION_PLUGINS: readonly AdmissionPlugin[] = [limitRanger, serviceAccount, priority, podSecurity, defaultIngressClassPlugin, resourceQuota];

/**
 * Runs the mutating halves. A pod's QoS class is recorded by PrepareForCreate, which runs after
 * mutating admission, so LimitRanger's defaults count in it.
 */
export function admitMutating(a: AdmissionAttributes): void {
  for (const p of ADMISSION_PLUGINS) p.mutate?.(a);
  if (a.obj.kind === 'Pod' && a.operation === 'CREATE') {
    const st = (a.obj['status'] ??= {}) as PodStatus;
    st.qosClass = computePodQOS(a.obj as Pod);
  }
}

export { admissionForbidden } from './forbidden.js';

/** Runs the validating halves; throws the first refusal as a Forbidden ApiError. */
export function admitValidating(a: AdmissionAttributes): void {
  for (const p of ADMISSION_PLUGINS) {
    const why = p.validate?.(a);
    if (why instanceof ApiError) throw why;
    if (why !== undefined) throw admissionForbidden(a, why);
  }
}
