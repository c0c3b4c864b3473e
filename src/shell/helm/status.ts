/** `helm status NAME [--revision N]` (helm pkg/cmd/status.go). */
import { type HelmArgs, flag } from './args.js';
import { type HelmEnv, namespaceOf, requireApi } from './env.js';
import { history } from './release.js';
import { HelmError } from './repo.js';
import { statusText } from './status-text.js';

export function status(env: HelmEnv, a: HelmArgs): string {
  const name = a.args[0];
  if (!name) throw new HelmError(`"helm status" requires 1 argument\n\nUsage:  helm status RELEASE_NAME [flags]`);
  const all = history(requireApi(env), namespaceOf(a), name);
  const rev = flag(a, 'revision');
  const r = rev ? all.find((x) => x.version === Number(rev)) : all.at(-1);
  if (!r) throw new HelmError('release: not found');
  return statusText(r);
}
