/**
 * `helm lint PATH…` (helm pkg/lint: rules/chartfile.go, values.go, template.go): load the chart,
 * check Chart.yaml (icon recommended), values, and render the templates; messages as helm prints
 * them: `==> Linting PATH`, `[INFO] …`/`[ERROR] …`, then the summary.
 */
import { type HelmArgs, flag } from './args.js';
import { type HelmEnv, renderChart, userValues } from './env.js';
import { ManifestError } from './manifests.js';
import { HelmError } from './repo.js';
import { abs, locateChart } from './source.js';

export function lint(env: HelmEnv, a: HelmArgs): { stdout: string; failed: boolean } {
  const paths = a.args.length ? a.args : ['.'];
  let out = '';
  let failed = 0;
  for (const p of paths) {
    out += `==> Linting ${p}\n`;
    const dir = abs(env.cwd, p);
    if (!env.fs.exists(`${dir}/Chart.yaml`) && !env.fs.isFile(dir)) {
      const rel = p.replace(/^\.\//, '').replace(/\/$/, '');
      out += `Error unable to check Chart.yaml file in chart: stat ${rel}/Chart.yaml: no such file or directory\n\n`;
      failed++;
      continue;
    }
    const msgs: string[] = [];
    let bad = false;
    try {
      const { chart } = locateChart(env.fs, env.cwd, env.home, p, flag(a, 'version'));
      if (!chart.metadata.icon) msgs.push('[INFO] Chart.yaml: icon is recommended');
      try {
        renderChart(env, chart, userValues(env, a), { name: 'test-release', namespace: 'test-namespace', revision: 1, isInstall: true, isUpgrade: false });
      } catch (e) {
        // a template that renders but is not YAML is its own file's error (pkg/lint/rules/template.go
        // validateYamlContent: "unable to parse YAML"); render errors belong to templates/
        if (e instanceof ManifestError) msgs.push(`[ERROR] ${e.path.replace(/^[^/]*\//, '')}: unable to parse YAML: ${e.detail}`);
        else msgs.push(`[ERROR] templates/: ${(e as Error).message}`);
        bad = true;
      }
    } catch (e) {
      msgs.push(`[ERROR] Chart.yaml: ${(e as Error).message}`);
      bad = true;
    }
    if (bad) failed++;
    out += msgs.map((m) => `${m}\n`).join('') + '\n';
  }
  const summary = `${paths.length} chart(s) linted, ${failed} chart(s) failed`;
  if (failed) throw Object.assign(new HelmError(summary), { stdout: out });
  return { stdout: `${out}${summary}\n`, failed: false };
}
