/** `kubectl annotate` (k8s.io/kubectl pkg/cmd/annotate/annotate.go): see metadata-edit.ts. */
import type { Verb } from '../context.js';
import { editMetadata } from './metadata-edit.js';

export const annotateVerb: Verb = {
  name: 'annotate',
  run: (inv, env) => editMetadata('annotations', inv, env),
};
