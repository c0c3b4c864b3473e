/**
 * `kubectl version` (k8s.io/kubectl pkg/cmd/version/version.go): client and server versions and
 * the Kustomize version kubectl v1.35 embeds.
 */
import { apiServerVersion } from '../../../sim/controlplane.js';
import type { Verb } from '../context.js';
import { bool, str } from '../flags.js';
import { KubectlError, errorResult } from '../errors.js';

export const CLIENT_VERSION = 'v1.35.2';
export const KUSTOMIZE_VERSION = 'v5.7.1';

export const versionVerb: Verb = {
  name: 'version',
  run(inv, env) {
    const p = inv.parsed;
    const out = str(p.flags, 'output');
    if (out !== undefined && out !== 'yaml' && out !== 'json') throw new KubectlError('--output must be \'yaml\' or \'json\'');
    const client = `Client Version: ${CLIENT_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`;
    if (bool(p.flags, 'client')) return { stdout: client, stderr: '', exitCode: 0 };
    try {
      env.api.ensureUp();
    } catch (e) {
      // kubectl prints what it knows (the client) before the connection error
      return errorResult(e, 'version', client);
    }
    return { stdout: `${client}Server Version: ${apiServerVersion(env.cluster)}\n`, stderr: '', exitCode: 0 };
  },
};
