/** `kubectl label` (k8s.io/kubectl pkg/cmd/label/label.go): see metadata-edit.ts. */
import type { Verb } from '../context.js';
import { editMetadata } from './metadata-edit.js';

export const labelVerb: Verb = {
  name: 'label',
  short: 'Update the labels on a resource',
  run: (argv, env, global) => editMetadata('labels', 'label', argv, env, global),
};
