/**
 * `kubectl api-versions` (k8s.io/kubectl pkg/cmd/apiresources/apiversions.go): every
 * group/version the server's discovery lists, sorted.
 */
import type { Verb } from '../context.js';
import { RESOURCES, apiVersionOf } from '../../../sim/api/registry.js';
import { errorResult } from '../errors.js';
import { parseFlags } from '../flags.js';

export const apiVersionsVerb: Verb = {
  name: 'api-versions',
  short: 'Print the supported API versions on the server, in the form of "group/version"',
  run(argv, env) {
    try {
      parseFlags(argv, []);
      env.api.ensureUp();
      const versions = [...new Set(RESOURCES.map(apiVersionOf))].sort();
      return { stdout: versions.map((v) => `${v}\n`).join(''), stderr: '', exitCode: 0 };
    } catch (e) {
      return errorResult(e, 'api-versions');
    }
  },
};
