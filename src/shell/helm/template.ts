/**
 * `helm template NAME CHART` (helm pkg/cmd/template.go): render client-side as an install with
 * dry-run would, print the manifest trimmed plus a newline, CRDs first with --include-crds, then
 * the hooks (tests included unless --skip-tests), each `---\n# Source: PATH\nDOC\n`.
 */
import { type HelmArgs, bool, flag } from './args.js';
import { type HelmEnv, namespaceOf, renderChart, userValues } from './env.js';
import { RenderError } from './engine.js';
import { ManifestError, sourceBlock } from './manifests.js';
import { HelmError } from './repo.js';
import { locateChart } from './source.js';

export function template(env: HelmEnv, a: HelmArgs): string {
  const [name, ref] = a.args.length >= 2 ? a.args : bool(a, 'generate-name') ? ['release-name', a.args[0]] : ['release-name', a.args[0]];
  if (!ref) throw new HelmError(`"helm template" requires at least 1 argument\n\nUsage:  helm template [NAME] [CHART] [flags]`);
  const user = userValues(env, a);
  const { chart } = locateChart(env.fs, env.cwd, env.home, ref, flag(a, 'version'));
  let r: ReturnType<typeof renderChart>;
  try {
    r = renderChart(env, chart, user, { name: name!, namespace: namespaceOf(a), revision: 1, isInstall: true, isUpgrade: false });
  } catch (e) {
    // cmd/template.go: a render failure (not a values or chart error) adds the --debug hint
    if (e instanceof RenderError || e instanceof ManifestError) throw new HelmError(`${e.message}\n\nUse --debug flag to render out invalid YAML`);
    throw e;
  }
  let manifest = '';
  if (bool(a, 'include-crds')) for (const c of chart.crds) manifest += sourceBlock({ path: `${chart.metadata.name}/${c.name}`, content: c.data.toString('utf8') });
  manifest += r.manifest;
  let out = `${manifest.trim()}\n`;
  for (const h of r.hooks) if (!(bool(a, 'skip-tests') && /\btest\b/.test(h.hook ?? ''))) out += sourceBlock(h);
  return out;
}
