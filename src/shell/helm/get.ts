/**
 * `helm get values|manifest|notes NAME` (helm pkg/cmd/get_*.go): the user-supplied values as YAML
 * under "USER-SUPPLIED VALUES:" (`--all` for the computed ones), the stored manifest, the notes.
 */
import { type HelmArgs, bool, flag } from './args.js';
import { type HelmEnv, namespaceOf, requireApi } from './env.js';
import { history } from './release.js';
import { HelmError } from './repo.js';
import { fromPlain, helmToYaml } from '../gotemplate/sprig.js';
import { coalesceValues, type Values } from './values.js';
import type { Chart } from './chart.js';

export function get(env: HelmEnv, a: HelmArgs): string {
  const [what, name] = a.args;
  if (!what || !['values', 'manifest', 'notes', 'all', 'hooks', 'metadata'].includes(what)) throw new HelmError(`unknown command "${what ?? ''}" for "helm get"`);
  if (!name) throw new HelmError(`"helm get ${what}" requires 1 argument\n\nUsage:  helm get ${what} RELEASE_NAME [flags]`);
  const all = history(requireApi(env), namespaceOf(a), name);
  const rev = flag(a, 'revision');
  const r = rev ? all.find((x) => x.version === Number(rev)) : all.at(-1);
  if (!r) throw new HelmError('release: not found');
  if (what === 'manifest') return r.manifest;
  if (what === 'notes') return r.info.notes ? `NOTES:\n${r.info.notes}\n` : '';
  if (what === 'values') {
    if (bool(a, 'all')) {
      const chart = { values: fromPlain(r.chart.values) as Values, dependencies: [], metadata: r.chart.metadata } as unknown as Chart;
      return `COMPUTED VALUES:\n${helmToYaml(coalesceValues(chart, fromPlain(r.config) as Values))}\n`;
    }
    return `USER-SUPPLIED VALUES:\n${Object.keys(r.config ?? {}).length ? helmToYaml(fromPlain(r.config)) : 'null'}\n`;
  }
  return r.manifest;
}
