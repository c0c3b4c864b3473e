/**
 * The DefaultIngressClass admission plugin (plugin/pkg/admission/network/defaultingressclass/
 * admission.go), on by default: an Ingress created (Create only, no subresource) with neither
 * spec.ingressClassName (an empty string counts as set) nor the `kubernetes.io/ingress.class`
 * annotation gets the default IngressClass's name. The default is a class annotated
 * `ingressclass.kubernetes.io/is-default-class: "true"`; when several are, getDefaultClass takes
 * the newest (creationTimestamp, then the lowest name) — v1.35 refuses nothing here.
 */
import type { KObject } from '../types.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export const IS_DEFAULT_INGRESS_CLASS = 'ingressclass.kubernetes.io/is-default-class';
const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/** getDefaultClass: the newest class marked default, ties broken by name. */
export function defaultIngressClass(a: Pick<AdmissionAttributes, 'store'>): KObject | undefined {
  const defaults = a.store.list('IngressClass').filter((c) => c.metadata.annotations?.[IS_DEFAULT_INGRESS_CLASS] === 'true');
  const at = (c: KObject): number => Date.parse(c.metadata.creationTimestamp ?? '') || 0;
  defaults.sort((x, y) => (at(x) !== at(y) ? at(y) - at(x) : x.metadata.name < y.metadata.name ? -1 : x.metadata.name > y.metadata.name ? 1 : 0));
  return defaults[0];
}

export const defaultIngressClassPlugin: AdmissionPlugin = {
  name: 'DefaultIngressClass',
  mutate(a) {
    if (a.operation !== 'CREATE' || a.obj.kind !== 'Ingress' || !a.obj.apiVersion.startsWith('networking.k8s.io/')) return;
    const spec = ((a.obj as { spec?: Record<string, unknown> }).spec ??= {});
    if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) return;
    if (a.obj.metadata.annotations?.[INGRESS_CLASS_ANNOTATION] !== undefined) return;
    const def = defaultIngressClass(a);
    if (def) spec.ingressClassName = def.metadata.name;
  },
};
