/**
 * `kubectl create token SA` (k8s.io/kubectl pkg/cmd/create/create_token.go): a TokenRequest for
 * the service account (create on serviceaccounts/token), printed as the bare JWT. The API server
 * defaults the lifetime to one hour (TokenRequestSpec.ExpirationSeconds).
 */
import { ApiError } from '../../../sim/api/errors.js';
import { mintServiceAccountToken } from '../../../sim/authn.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { list, str } from '../flags.js';
import { namespaceOf } from '../target.js';

/** Go's time.ParseDuration for the units --duration accepts. */
function seconds(d: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?(?:h|m|s|ms))+$/.exec(d);
  if (!m && d !== '0') return undefined;
  let total = 0;
  for (const [, n, u] of d.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) total += Number(n) * ({ h: 3600, m: 60, s: 1, ms: 0.001 } as Record<string, number>)[u!]!;
  return Math.floor(total);
}

export const createTokenVerb: Verb = {
  name: 'create token',
  run(inv, env) {
    const p = inv.parsed;
    const name = p.args[0];
    if (p.args.length !== 1 || !name) throw new KubectlError('exactly one SERVICE_ACCOUNT_NAME is required', "See 'kubectl create token -h' for help and examples");
    const ns = namespaceOf(env, p).name;
    const dur = str(p.flags, 'duration') ?? '0s';
    const secs = seconds(dur);
    if (secs === undefined || secs < 0) throw new KubectlError('--duration must be greater than or equal to 0');
    if (secs > 0 && secs < 600) throw new KubectlError('--duration must be at least 10 minutes');
    env.api.authorize({ verb: 'create', group: '', resource: 'serviceaccounts', subresource: 'token', name, namespace: ns });
    let sa;
    try {
      sa = env.api.get('ServiceAccount', ns, name);
    } catch (e) {
      if (e instanceof ApiError) throw new KubectlError(`failed to create token: ${e.message}`);
      throw e;
    }
    const token = mintServiceAccountToken(env.cluster, sa, secs > 0 ? secs : 3600, list(p.flags, 'audience'));
    if (!token) throw new KubectlError('failed to create token: the service account signing key is missing');
    return { stdout: `${token}\n`, stderr: '', exitCode: 0 };
  },
};
