/**
 * `helm create NAME` (helm pkg/chart/v2/util/create.go): the scaffold of helm v4.1.4, recorded
 * file by file with the chart name `SCAFFOLD` (fixtures/helm/scaffold, scripts/record-helm.mjs)
 * and written with the name given, plus the empty charts/ directory.
 */
import type { HelmArgs } from './args.js';
import { HELM_DATA } from './data.generated.js';
import type { HelmEnv } from './env.js';
import { HelmError } from './repo.js';
import { abs } from './source.js';

export function create(env: HelmEnv, a: HelmArgs): string {
  const target = a.args[0];
  if (!target) throw new HelmError(`"helm create" requires 1 argument\n\nUsage:  helm create NAME [flags]`);
  const dir = abs(env.cwd, target);
  const name = dir.split('/').pop()!;
  if (env.fs.isFile(dir)) throw new HelmError(`file ${dir} already exists and is not a directory`);
  for (const [key, b64] of Object.entries(HELM_DATA)) {
    if (!key.startsWith('scaffold/')) continue;
    const path = `${dir}/${key.slice('scaffold/'.length)}`;
    env.fs.mkdir(path.slice(0, path.lastIndexOf('/')));
    env.fs.write(path, Buffer.from(b64, 'base64').toString('utf8').replaceAll('SCAFFOLD', name));
  }
  env.fs.mkdir(`${dir}/charts`);
  return `Creating ${target}\n`;
}
