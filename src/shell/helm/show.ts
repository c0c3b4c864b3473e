/**
 * `helm show chart|values|readme|crds|all CHART` (helm pkg/action/show.go): Chart.yaml re-encoded
 * (sorted keys), values.yaml and the README as written, each CRD file after `---`.
 */
import { type HelmArgs, flag } from './args.js';
import type { HelmEnv } from './env.js';
import { HelmError } from './repo.js';
import { locateChart } from './source.js';
import { fromPlain, helmToYaml } from '../gotemplate/sprig.js';

export function show(env: HelmEnv, a: HelmArgs): string {
  const [what, ref] = a.args;
  if (!what || !['chart', 'values', 'readme', 'crds', 'all'].includes(what)) throw new HelmError(`unknown command "${what ?? ''}" for "helm show"`);
  if (!ref) throw new HelmError(`"helm show ${what}" requires 1 argument\n\nUsage:  helm show ${what} [CHART] [flags]`);
  const { chart } = locateChart(env.fs, env.cwd, env.home, ref, flag(a, 'version'));
  const chartText = `${helmToYaml(fromPlain(chart.metadata))}\n`;
  const crds = chart.crds.map((c) => `---\n${c.data.toString('utf8')}\n`).join('');
  switch (what) {
    case 'chart':
      return `${chartText}\n`;
    case 'values':
      return `${chart.rawValues}\n`;
    case 'readme':
      return chart.readme === undefined ? '' : `${chart.readme}\n`;
    case 'crds':
      return crds;
    default:
      return `${chartText}---\n${chart.rawValues}\n---\n${chart.readme ?? ''}\n${crds}`;
  }
}
