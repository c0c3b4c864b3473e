/**
 * `kubectl top` (k8s.io/kubectl pkg/cmd/top): the simulated cluster runs no metrics-server, so
 * the Metrics API is never available (reference §8.4, stub/m001).
 */
import type { Verb } from '../context.js';
import { errorResult, KubectlError } from '../errors.js';

export const topVerb: Verb = {
  name: 'top',
  short: 'Display resource (CPU/memory) usage',
  run(argv, env) {
    try {
      const sub = argv.find((a) => !a.startsWith('-'));
      if (sub !== undefined && !['node', 'nodes', 'no', 'pod', 'pods', 'po'].includes(sub)) throw new KubectlError(`unknown command "${sub}" for "kubectl top"`);
      env.api.ensureUp();
      throw new KubectlError('Metrics API not available');
    } catch (e) {
      return errorResult(e, 'top');
    }
  },
};
