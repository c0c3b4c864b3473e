/**
 * admission.NewForbidden (k8s.io/apiserver pkg/admission/errors.go): `<resource> "<name>" is
 * forbidden: <why>`, the name being the generateName when the object has no name yet.
 */
import { forbidden, type ApiError } from '../errors.js';
import { infoForKind, qualifiedResource } from '../registry.js';
import type { AdmissionAttributes } from './types.js';

export function admissionForbidden(a: AdmissionAttributes, why: string): ApiError {
  const name = a.obj.metadata.name || a.obj.metadata.generateName || 'Unknown';
  return forbidden(`${qualifiedResource(infoForKind(a.obj.kind))} "${name}" is forbidden: ${why}`);
}
