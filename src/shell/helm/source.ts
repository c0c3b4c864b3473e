/**
 * Locating a chart (helm pkg/action/install.go LocateChart): a local directory or .tgz in the
 * workstation's filesystem, `REPO/NAME` from a repository's cached index (newest version, or the
 * highest matching --version), or a chart URL. Errors in helm's words.
 */
import { compareSemver, parseSemver, semverSatisfies } from '../gotemplate/sprig.js';
import type { KubectlFiles } from '../kubectl/context.js';
import { type Chart, loadChartFiles } from './chart.js';
import { fetchUrl, HelmError, type IndexVersion, loadIndex, readRepos } from './repo.js';
import { type FileMap, untgz } from './tar.js';

export interface Located {
  chart: Chart;
  /** The archive, when the chart came from a repository or a .tgz. */
  archive?: Buffer;
  fileName?: string;
}

export const abs = (cwd: string, p: string): string => (p.startsWith('/') ? p : `${cwd.replace(/\/$/, '')}/${p}`).replace(/\/\.\//g, '/').replace(/\/\.$/, '').replace(/\/$/, '') || '/';

/** Files of a directory tree in the simulated filesystem, relative to it. */
export function readTree(fs: KubectlFiles, dir: string, prefix = ''): FileMap {
  const out: FileMap = new Map();
  for (const n of fs.list(dir)) {
    const p = `${dir}/${n}`;
    if (fs.isDir(p)) for (const [k, v] of readTree(fs, p, `${prefix}${n}/`)) out.set(k, v);
    else if (fs.isFile(p)) out.set(`${prefix}${n}`, Buffer.from(fs.read(p), n.endsWith('.tgz') ? 'latin1' : 'utf8'));
  }
  return out;
}

export function pickVersion(versions: readonly IndexVersion[], constraint: string | undefined): IndexVersion | undefined {
  const sorted = [...versions].sort((a, b) => compareSemver(parseSemver(b.version) ?? { major: 0, minor: 0, patch: 0, pre: '' }, parseSemver(a.version) ?? { major: 0, minor: 0, patch: 0, pre: '' }));
  if (!constraint) return sorted.find((v) => !parseSemver(v.version)?.pre);
  return sorted.find((v) => v.version === constraint || semverSatisfies(constraint, v.version));
}

export function locateChart(fs: KubectlFiles, cwd: string, home: string, ref: string, version: string | undefined): Located {
  const local = abs(cwd, ref);
  if (fs.isDir(local)) return { chart: loadChartFiles(readTree(fs, local)) };
  if (fs.isFile(local)) return { chart: loadChartFiles(untgz(Buffer.from(fs.read(local), 'latin1'))), archive: Buffer.from(fs.read(local), 'latin1') };
  if (/^https?:\/\//.test(ref)) {
    const data = fetchUrl(ref);
    if (!data) throw new HelmError(`failed to fetch ${ref} : 404 Not Found`);
    return { chart: loadChartFiles(untgz(data)), archive: data, fileName: ref.split('/').pop()! };
  }
  const slash = ref.indexOf('/');
  if (ref.startsWith('.') || ref.startsWith('/') || slash < 0) throw new HelmError(`path "${ref}" not found`);
  const repoName = ref.slice(0, slash);
  const name = ref.slice(slash + 1);
  const repo = readRepos(fs, home).find((r) => r.name === repoName);
  if (!repo) throw new HelmError(`repo ${repoName} not found`);
  const index = loadIndex(fs, home, repoName);
  if (!index) throw new HelmError(`no cached repo found. (try 'helm repo update'): open ${home}/.cache/helm/repository/${repoName}-index.yaml: no such file or directory`);
  const versions = index.entries[name];
  if (!versions || versions.length === 0) throw new HelmError(`chart "${name}" not found in ${repoName} index. (try 'helm repo update'): no chart name found`);
  const v = pickVersion(versions, version);
  if (!v) throw new HelmError(`chart "${name}" matching ${version ?? ''} not found in ${repoName} index. (try 'helm repo update'): no chart version found for ${name}-${version ?? ''}`);
  const url = v.urls[0] ?? '';
  const full = /^https?:\/\//.test(url) ? url : `${repo.url.replace(/\/$/, '')}/${url}`;
  const data = fetchUrl(full);
  if (!data) throw new HelmError(`failed to fetch ${full} : 404 Not Found`);
  return { chart: loadChartFiles(untgz(data)), archive: data, fileName: full.split('/').pop()! };
}
