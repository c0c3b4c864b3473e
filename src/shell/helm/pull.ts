/**
 * `helm pull REPO/CHART [--version V] [--untar] [--untardir DIR] [-d DIR]` (helm pkg/action/pull.go):
 * the archive written to the workstation's filesystem, or unpacked into DIR/NAME with --untar.
 */
import { type HelmArgs, bool, flag } from './args.js';
import type { HelmEnv } from './env.js';
import { HelmError } from './repo.js';
import { abs, locateChart } from './source.js';
import { untgz } from './tar.js';

export function pull(env: HelmEnv, a: HelmArgs): string {
  const ref = a.args[0];
  if (!ref) throw new HelmError(`"helm pull" requires at least 1 argument\n\nUsage:  helm pull [chart URL | repo/chartname] [...] [flags]`);
  const loc = locateChart(env.fs, env.cwd, env.home, ref, flag(a, 'version'));
  if (!loc.archive) throw new HelmError(`failed to download "${ref}"`);
  const dest = abs(env.cwd, flag(a, 'destination') ?? '.');
  const fileName = loc.fileName ?? `${loc.chart.metadata.name}-${loc.chart.metadata.version}.tgz`;
  if (!bool(a, 'untar')) {
    env.fs.mkdir(dest);
    env.fs.write(`${dest}/${fileName}`, loc.archive.toString('latin1'));
    return '';
  }
  const into = abs(dest, flag(a, 'untardir') ?? '.');
  const top = `${into}/${loc.chart.metadata.name}`;
  if (env.fs.exists(top)) throw new HelmError(`failed to untar: a file or directory with the name ${top} already exists`);
  for (const [p, data] of untgz(loc.archive)) {
    const full = `${into}/${p}`;
    env.fs.mkdir(full.slice(0, full.lastIndexOf('/')));
    env.fs.write(full, data.toString('utf8'));
  }
  return '';
}
