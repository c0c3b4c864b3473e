/**
 * `kubectl get --raw PATH` (k8s.io/kubectl pkg/cmd/get/get.go → pkg/cmd/util/rawhttp RawGet): a
 * plain GET as the kubeconfig's user whose body is copied to stdout unchanged (no newline is
 * added, so `/readyz` prints `ok` and the prompt follows; JSON comes compact with json.Encoder's
 * newline, since kubectl's User-Agent is not a browser's). The API server's answer is
 * sim/api/rest.ts. A reply that is not 2xx is an error: a Status body as
 * `Error from server (REASON): MESSAGE`, anything else by its code (errors.NewGenericServerResponse:
 * a 404 is `the server could not find the requested resource`).
 */
import { ApiError } from '../../../sim/api/errors.js';
import { serveGet } from '../../../sim/api/rest.js';
import type { CommandResult } from '../../types.js';
import type { KubectlEnv } from '../context.js';
import { RawError } from '../errors.js';

/** kubectl's User-Agent (rest.DefaultKubernetesUserAgent). */
const KUBECTL_USER_AGENT = 'kubectl/v1.35.2 (linux/amd64) kubernetes/0000000';

export function runGetRaw(env: KubectlEnv, path: string): CommandResult {
  env.api.ensureUp();
  const user = env.api.user();
  const r = serveGet(env.cluster, { path, user, userAgent: KUBECTL_USER_AGENT });
  if (r.status >= 200 && r.status < 300) return { stdout: r.body, stderr: '', exitCode: 0 };
  if (r.contentType === 'application/json') {
    const st = JSON.parse(r.body) as { reason?: string; message?: string; code?: number };
    throw new ApiError((st.reason ?? '') as ApiError['reason'], st.message ?? '', st.code ?? r.status);
  }
  if (r.status === 404) throw new RawError('Error from server (NotFound): the server could not find the requested resource');
  throw new RawError(r.body.replace(/\n$/, ''));
}
