/** `kubectl label` (k8s.io/kubectl pkg/cmd/label/label.go): see metadata-edit.ts. */
import type { Verb } from '../context.js';
import { editMetadata } from './metadata-edit.js';

export const labelVerb: Verb = {
  name: 'label',
  run: (inv, env) => editMetadata('labels', inv, env),
};
