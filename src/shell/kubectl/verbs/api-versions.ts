/**
 * `kubectl api-versions` (k8s.io/kubectl pkg/cmd/apiresources/apiversions.go): every
 * group/version the server's discovery lists, sorted.
 */
import type { Verb } from '../context.js';
import { RESOURCES, apiVersionOf } from '../../../sim/api/registry.js';
import { errorResult } from '../errors.js';

export const apiVersionsVerb: Verb = {
  name: 'api-versions',
  run(_inv, env) {
    try {
      env.api.ensureUp();
      const versions = [...new Set(RESOURCES.map(apiVersionOf))].sort();
      return { stdout: versions.map((v) => `${v}\n`).join(''), stderr: '', exitCode: 0 };
    } catch (e) {
      return errorResult(e, 'api-versions');
    }
  },
};
