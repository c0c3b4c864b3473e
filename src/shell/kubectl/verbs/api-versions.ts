/**
 * `kubectl api-versions` (k8s.io/kubectl pkg/cmd/apiresources/apiversions.go): every
 * group/version the server's discovery lists, sorted.
 */
import type { Verb } from '../context.js';
import { errorResult } from '../errors.js';

export const apiVersionsVerb: Verb = {
  name: 'api-versions',
  run(_inv, env) {
    try {
      env.api.ensureUp();
      const versions = [...new Set(env.cluster.discovery().resources.flatMap((r) => (r.servedVersions ?? [r.version]).map((v) => (r.group ? `${r.group}/${v}` : v))))].sort();
      return { stdout: versions.map((v) => `${v}\n`).join(''), stderr: '', exitCode: 0 };
    } catch (e) {
      return errorResult(e, 'api-versions');
    }
  },
};
