/**
 * `kubectl top` (k8s.io/kubectl pkg/cmd/top): the simulated cluster runs no metrics-server, so
 * the Metrics API is never available (reference §8.4, stub/m001).
 */
import type { Verb } from '../context.js';
import { errorResult, KubectlError } from '../errors.js';

export const topVerb: Verb = {
  name: 'top',
  run(_inv, env) {
    try {
      env.api.ensureUp();
      throw new KubectlError('Metrics API not available');
    } catch (e) {
      return errorResult(e, 'top');
    }
  },
};
