/**
 * `helm package CHART_PATH… [-d DIR] [--version V] [--app-version V] [-u]` (helm
 * pkg/cmd/package.go, pkg/action/package.go, chartutil.Save): each chart directory loaded (its
 * .helmignore applied), --version/--app-version set, the version checked as semver, every
 * Chart.yaml dependency required in charts/, and NAME-VERSION.tgz written to DIR (created when
 * missing; the working directory by default, then the path printed is absolute). With -u,
 * `helm dependency update` runs first, silently. The archive is a gzip'd ustar (tar.ts) every
 * chart reader of the lab (install, template, show, pull) loads; its gzip bytes are Node's, not
 * Go's compress/gzip, so its digest differs from the real helm's.
 */
import { type HelmArgs, bool, flag } from './args.js';
import { ChartLoadError, loadChartFiles } from './chart.js';
import { Manager } from './dependency.js';
import type { HelmEnv } from './env.js';
import { HelmError, withStdout } from './repo.js';
import { chartEntries, keptFiles, readChartYaml, validSemver } from './save.js';
import { abs, readTree } from './source.js';
import { tgz } from './tar.js';

export function packageChart(env: HelmEnv, a: HelmArgs): string {
  if (a.args.length === 0) throw new HelmError('need at least one argument, the path to the chart');
  let out = '';
  try {
    for (const arg of a.args) {
      const dir = abs(env.cwd, arg);
      if (!env.fs.exists(dir)) throw new HelmError(`stat ${arg}: no such file or directory`);
      if (bool(a, 'dependency-update')) new Manager(env, dir, false).update();
      if (!env.fs.isDir(dir)) throw new HelmError(`unable to detect chart at ${dir}/Chart.yaml: open ${dir}/Chart.yaml: not a directory`);
      out += `Successfully packaged chart and saved it to: ${save(env, a, dir)}\n`;
    }
  } catch (e) {
    throw withStdout(e as HelmError, out);
  }
  return out;
}

function save(env: HelmEnv, a: HelmArgs, dir: string): string {
  const files = keptFiles(readTree(env.fs, dir));
  if (!files.has('Chart.yaml')) throw new HelmError(`unable to detect chart at ${dir}/Chart.yaml: open ${dir}/Chart.yaml: no such file or directory`);
  const meta = readChartYaml(files.get('Chart.yaml')!.toString('utf8'));
  const chart = loadChartFiles(files);
  const declared = typeof meta['version'] === 'string' ? meta['version'] : '';
  if (!validSemver(declared)) throw new ChartLoadError(`validation: chart.metadata.version ${JSON.stringify(declared)} is invalid`);
  const version = flag(a, 'version');
  if (version && !validSemver(version)) throw new HelmError('invalid semantic version');
  const deps = Array.isArray(meta['dependencies']) ? (meta['dependencies'] as Record<string, unknown>[]) : [];
  const missing = deps.map((d) => String(d?.['name'] ?? '')).filter((n) => !chart.dependencies.some((c) => c.metadata.name === n));
  if (missing.length) throw new HelmError(`found in Chart.yaml, but missing in charts/ directory: ${missing.join(', ')}`);
  const appVersion = flag(a, 'app-version');
  const { name, version: v, entries } = chartEntries(files, '', { ...(version ? { version } : {}), ...(appVersion ? { appVersion } : {}) });
  const destFlag = flag(a, 'destination') ?? '.';
  const destDir = destFlag === '.' ? env.cwd : abs(env.cwd, destFlag);
  if (env.fs.exists(destDir) && !env.fs.isDir(destDir)) throw new HelmError(`failed to save: is not a directory: ${destFlag}`);
  env.fs.mkdir(destDir);
  const file = `${name}-${v}.tgz`;
  env.fs.write(`${destDir}/${file}`, tgz(new Map(entries), env.now()).toString('latin1'));
  return destFlag === '.' ? `${env.cwd.replace(/\/$/, '')}/${file}` : `${destFlag.replace(/\/$/, '')}/${file}`;
}
