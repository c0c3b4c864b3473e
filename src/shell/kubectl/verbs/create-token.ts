/**
 * `kubectl create token SA` (k8s.io/kubectl pkg/cmd/create/create_token.go): a TokenRequest for
 * the service account (create on serviceaccounts/token), printed as the bare JWT. Validate's
 * checks come first, in its order (--duration, --audience, the --bound-object-* flags); the
 * server then answers as TokenREST does (sim/token-request.ts): a lifetime under 10 minutes is
 * Invalid, a bound object that does not exist is its NotFound, each wrapped as
 * `failed to create token: …`. Without --duration the server's default lifetime (one hour) applies.
 */
import { ApiError } from '../../../sim/api/errors.js';
import { createToken, type TokenRequestSpec } from '../../../sim/token-request.js';
import type { Verb } from '../context.js';
import { KubectlError, RawError } from '../errors.js';
import { list, str } from '../flags.js';
import { namespaceOf } from '../target.js';

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Go's time.ParseDuration, in nanoseconds (a double: exact for what a token's lifetime can be). */
function parseDuration(d: string): number | undefined {
  if (d === '0' || d === '+0' || d === '-0') return 0;
  const m = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/.exec(d);
  if (!m) return undefined;
  let total = 0;
  for (const [, n, u] of m[2]!.matchAll(/(\d+\.?\d*|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/g)) total += Number(n) * UNIT_NS[u!]!;
  return m[1] === '-' ? -total : total;
}

/** create_token.go boundObjectKinds: kind → apiVersion. */
const BOUND_KINDS: Record<string, string> = { Node: 'v1', Pod: 'v1', Secret: 'v1' };

export const createTokenVerb: Verb = {
  name: 'create token',
  run(inv, env) {
    const p = inv.parsed;
    const dur = str(p.flags, 'duration') ?? '0s';
    const ns0 = parseDuration(dur);
    if (ns0 === undefined) throw new RawError(`error: invalid argument "${dur}" for "--duration" flag: time: invalid duration "${dur}"\nSee 'kubectl create token --help' for usage.`);
    const name = p.args[0];
    if (p.args.length !== 1 || !name) throw new KubectlError('exactly one SERVICE_ACCOUNT_NAME is required', "See 'kubectl create token -h' for help and examples");
    const ns = namespaceOf(env, p).name;
    if (ns0 < 0) throw new KubectlError('--duration must be greater than or equal to 0');
    if (ns0 % 1e9 !== 0) throw new KubectlError('--duration cannot be expressed in units less than seconds');
    const audiences = list(p.flags, 'audience');
    if (audiences.some((a) => a === '')) throw new KubectlError('--audience must not be an empty string');
    const kind = str(p.flags, 'bound-object-kind') ?? '';
    const boundName = str(p.flags, 'bound-object-name') ?? '';
    const uid = str(p.flags, 'bound-object-uid') ?? '';
    if (!kind) {
      if (boundName) throw new KubectlError('--bound-object-name can only be set if --bound-object-kind is provided');
      if (uid) throw new KubectlError('--bound-object-uid can only be set if --bound-object-kind is provided');
    } else {
      if (!(kind in BOUND_KINDS)) throw new KubectlError(`supported --bound-object-kind values are ${Object.keys(BOUND_KINDS).sort().join(', ')}`);
      if (!boundName) throw new KubectlError('--bound-object-name is required if --bound-object-kind is provided');
    }
    const spec: TokenRequestSpec = {
      ...(audiences.length ? { audiences } : {}),
      ...(ns0 > 0 ? { expirationSeconds: ns0 / 1e9 } : {}),
      ...(kind ? { boundObjectRef: { kind, apiVersion: BOUND_KINDS[kind]!, name: boundName, ...(uid ? { uid } : {}) } } : {}),
    };
    let token: string;
    try {
      token = createToken(env.cluster, env.api, ns, name, spec);
    } catch (e) {
      if (e instanceof ApiError) throw new KubectlError(`failed to create token: ${e.message}`);
      throw e;
    }
    return { stdout: `${token}\n`, stderr: '', exitCode: 0 };
  },
};
