/**
 * `helm dependency list|update|build CHART` (alias `dep`; helm pkg/cmd/dependency*.go,
 * pkg/action/dependency.go, pkg/downloader/manager.go, internal/resolver/resolver.go) against the
 * workstation's files and the offline repositories (repo.ts):
 *  - list: the uitable NAME VERSION REPOSITORY STATUS (ok, missing, wrong version, unpacked,
 *    misnamed, corrupt, too many matches, invalid version), then a WARNING for each chart in
 *    charts/ that Chart.yaml does not name;
 *  - update: repository names resolved (`@name`/`alias:name` become the repository's URL, a URL
 *    not added is an unmanaged `helm-manager-SHA256` repository), the repositories refreshed
 *    (unless --skip-refresh), each constraint resolved to the highest version of the cached index
 *    that satisfies it, the archives written to charts/ and every other archive there deleted
 *    (but a dependency without repository), Chart.lock written unless its digest is unchanged;
 *  - build: the versions of Chart.lock (update when there is none), refused when its digest no
 *    longer matches Chart.yaml.
 * The digest is resolver.HashReq: sha256 of Go's json.Marshal([requirements, locked]).
 */
import { createHash } from 'node:crypto';
import { semverSatisfies } from '../gotemplate/sprig.js';
import { type HelmArgs, bool } from './args.js';
import { ChartLoadError, loadChartFiles } from './chart.js';
import type { HelmEnv } from './env.js';
import { downloadIndex, fetchUrl, HelmError, indexPath, loadIndex, readRepos, type RepoEntry } from './repo.js';
import { dependencyJson, goTime, lockYaml, readChartYaml, readLock, validSemver } from './save.js';
import { abs, pickVersion, readTree } from './source.js';
import { uitable } from './table.js';
import { untgz } from './tar.js';

type Dep = Record<string, string | boolean | unknown[]>;

const s = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Go's json.Marshal of a string: HTML-safe escapes. */
const goJson = (v: unknown): string => JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** resolver.HashReq. */
export function hashReq(req: readonly Dep[], lock: readonly Dep[]): string {
  const data = `[[${req.map((d) => goJson(dependencyJson(d))).join(',')}],[${lock.map((d) => goJson(dependencyJson(d))).join(',')}]]`;
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** filepath.Clean, enough for chart paths. */
const clean = (p: string): string => {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out.at(-1) !== '..') out.pop();
    else out.push(part);
  }
  return (p.startsWith('/') ? '/' : '') + out.join('/') || (p.startsWith('/') ? '/' : '.');
};

/** Masterminds semver constraint check; an unparsable constraint is undefined. */
function satisfies(constraint: string, version: string): boolean | undefined {
  if (!constraint.trim() || !/^[\s\dxX*^~<>=!|,.vA-Za-z+-]+$/.test(constraint)) return undefined;
  if (constraint === version) return true;
  return semverSatisfies(constraint, version);
}

interface Loaded {
  name: string;
  version: string;
  deps: Dep[] | undefined;
  apiVersion: string;
}

function loadDir(env: HelmEnv, dir: string): Loaded {
  const files = readTree(env.fs, dir);
  const chart = loadChartFiles(files);
  const meta = readChartYaml(files.get('Chart.yaml')!.toString('utf8'));
  const deps = Array.isArray(meta['dependencies']) ? (meta['dependencies'] as Dep[]).map((d) => ({ ...(d ?? {}) })) : undefined;
  return { name: chart.metadata.name, version: s(meta['version']), deps, apiVersion: s(meta['apiVersion']) || 'v1' };
}

function loadArchive(env: HelmEnv, path: string): { name: string; version: string } | undefined {
  try {
    const c = loadChartFiles(untgz(Buffer.from(env.fs.read(path), 'latin1')));
    return { name: c.metadata.name, version: String(c.metadata.version) };
  } catch {
    return undefined;
  }
}

export function dependency(env: HelmEnv, a: HelmArgs): string {
  const [sub, ...rest] = a.args;
  const arity = (name: string): string => {
    if (rest.length > 1) throw new HelmError(`"helm dependency ${name}" accepts at most 1 argument\n\nUsage:  helm dependency ${name} CHART [flags]`);
    return clean(rest[0] ?? '.');
  };
  switch (sub) {
    case 'list':
    case 'ls':
      return list(env, arity('list'));
    case 'update':
    case 'up':
      return new Manager(env, arity('update'), bool(a, 'skip-refresh')).update();
    case 'build':
      return new Manager(env, arity('build'), bool(a, 'skip-refresh')).build();
    default:
      throw new HelmError(`unknown command "${sub ?? ''}" for "helm dependency"`);
  }
}

function status(env: HelmEnv, dir: string, dep: Dep, subcharts: readonly { name: string; version: string }[]): string {
  const name = s(dep['name']);
  const want = s(dep['version']);
  const versionCheck = (got: string): string | undefined => {
    if (got === want) return undefined;
    if (!validSemver(got)) return 'invalid version';
    const ok = satisfies(want, got);
    if (ok === undefined) return 'invalid version';
    return ok ? undefined : 'wrong version';
  };
  const stat = (file: string): string => {
    const c = loadArchive(env, `${dir}/charts/${file}`);
    if (!c) return 'corrupt';
    if (c.name !== name) return 'misnamed';
    return versionCheck(c.version) ?? 'ok';
  };
  const archives = env.fs.isDir(`${dir}/charts`) ? env.fs.list(`${dir}/charts`).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.tgz') && env.fs.isFile(`${dir}/charts/${f}`)) : [];
  if (archives.length > 1) {
    const found = archives.filter((f) => validSemver(f.slice(name.length + 1, -'.tgz'.length)) && /^\d+\.\d+\.\d+/.test(f.slice(name.length + 1)));
    if (found.length === 1) return stat(found[0]!);
    if (found.length > 1) return 'too many matches';
  } else if (archives.length === 1) return stat(archives[0]!);
  const sub = subcharts.filter((c) => c.name === name).at(-1);
  if (!sub) return 'missing';
  return versionCheck(sub.version) ?? 'unpacked';
}

function list(env: HelmEnv, path: string): string {
  const dir = abs(env.cwd, path);
  const chart = loadChartFiles(readTree(env.fs, dir));
  const meta = readChartYaml(env.fs.read(`${dir}/Chart.yaml`));
  if (!Array.isArray(meta['dependencies'])) return `WARNING: no dependencies at ${path}/charts\n`;
  const deps = meta['dependencies'] as Dep[];
  const subs = chart.dependencies.map((c) => ({ name: c.metadata.name, version: String(c.metadata.version) }));
  let out = `${uitable([['NAME', 'VERSION', 'REPOSITORY', 'STATUS'], ...deps.map((d) => [s(d['name']), s(d['version']), s(d['repository']), status(env, dir, d, subs)])], 80)}\n`;
  const charts = `${dir}/charts`;
  for (const f of env.fs.isDir(charts) ? env.fs.list(charts) : []) {
    const full = `${charts}/${f}`;
    if (!env.fs.isDir(full) && !f.endsWith('.tgz')) continue;
    const shown = `${path}/charts/${f}`;
    let name: string | undefined;
    try {
      name = env.fs.isDir(full) ? loadChartFiles(readTree(env.fs, full)).metadata.name : loadArchive(env, full)?.name;
    } catch {
      name = undefined;
    }
    if (name === undefined) out += `WARNING: ${JSON.stringify(shown)} is not a chart.\n`;
    else if (!deps.some((d) => s(d['name']) === name)) out += `WARNING: ${JSON.stringify(shown)} is not in Chart.yaml.\n`;
  }
  return out;
}

const MANAGER_PREFIX = 'helm-manager-';
const sameUrl = (x: string, y: string): boolean => x.replace(/\/$/, '') === y.replace(/\/$/, '');

/** downloader.Manager: `out` collects what helm prints as it goes. */
export class Manager {
  out = '';
  constructor(
    private readonly env: HelmEnv,
    private readonly path: string,
    private readonly skipUpdate: boolean,
  ) {}

  private fail(msg: string): never {
    const e = new HelmError(msg);
    e.stdout = this.out;
    throw e;
  }

  private get dir(): string {
    return abs(this.env.cwd, this.path);
  }

  private loadChartDir(): Loaded {
    if (!this.env.fs.exists(this.dir)) this.fail(`could not find ${this.path}: stat ${this.path}: no such file or directory`);
    if (!this.env.fs.isDir(this.dir)) this.fail('only unpacked charts can be updated');
    try {
      return loadDir(this.env, this.dir);
    } catch (e) {
      if (e instanceof ChartLoadError) this.fail(e.message);
      throw e;
    }
  }

  private repos(): RepoEntry[] {
    return readRepos(this.env.fs, this.env.home);
  }

  /** resolveRepoNames: dependency name (or URL) → repository name; `@alias` rewritten to the URL. */
  private resolveRepoNames(deps: Dep[]): Map<string, string> {
    const repos = this.repos();
    const names = new Map<string, string>();
    const missing: string[] = [];
    for (const d of deps) {
      const r = s(d['repository']);
      if (r === '') continue;
      if (r.startsWith('file://') || r.startsWith('oci://')) this.fail(`${r}: only chart repositories over http(s) are available in this lab`);
      const alias = r.startsWith('@') ? r.slice(1) : r.startsWith('alias:') ? r.slice(6) : undefined;
      const hit = repos.find((x) => (alias !== undefined ? x.name === alias : sameUrl(x.url, r)));
      if (hit) {
        if (alias !== undefined) d['repository'] = hit.url;
        names.set(s(d['name']), hit.name);
      } else if (alias === undefined && /^[a-z][a-z0-9+.-]*:\/\/?\S*$/i.test(r)) names.set(r, r);
      else missing.push(r);
    }
    if (missing.length) {
      let msg = `no repository definition for ${missing.join(', ')}. Please add them via 'helm repo add'`;
      if (missing.some((r) => !r.includes('//') && !r.startsWith('@') && !r.startsWith('alias:'))) {
        msg += `\nNote that repositories must be URLs or aliases. For example, to refer to the "example"\nrepository, use "https://charts.example.com/" or "@example" instead of\n"example". Don't forget to add the repo, too ('helm repo add').`;
      }
      this.fail(msg);
    }
    return names;
  }

  private refresh(entries: RepoEntry[], unmanaged: boolean): void {
    for (const r of entries) {
      const label = unmanaged ? r.url : r.name;
      try {
        downloadIndex(this.env.fs, this.env.home, r);
        this.out += `...Successfully got an update from the "${label}" chart repository\n`;
      } catch (e) {
        const why = (e as Error).message;
        this.out += unmanaged ? `...Unable to get an update from the "${label}" chart repository:\n\t${why}\n` : `...Unable to get an update from the "${label}" chart repository (${r.url}):\n\t${why}\n`;
      }
    }
  }

  private ensureMissingRepos(names: Map<string, string>, deps: Dep[]): void {
    const add: RepoEntry[] = [];
    for (const d of deps) {
      const r = s(d['repository']);
      if (r === '' || names.has(s(d['name']))) continue;
      const name = MANAGER_PREFIX + createHash('sha256').update(r).digest('hex');
      names.set(s(d['name']), name);
      add.push({ name, url: r });
    }
    if (!this.skipUpdate && add.length) {
      this.out += 'Getting updates for unmanaged Helm repositories...\n';
      this.refresh(add, true);
    }
  }

  private updateRepositories(): void {
    const repos = this.repos();
    if (!repos.length) return;
    this.out += 'Hang tight while we grab the latest from your chart repositories...\n';
    this.refresh(repos, false);
    this.out += 'Update Complete. ⎈Happy Helming!⎈\n';
  }

  private resolve(deps: Dep[], names: Map<string, string>): Dep[] {
    const missing: string[] = [];
    const locked: Dep[] = [];
    for (const d of deps) {
      const name = s(d['name']);
      const want = s(d['version']);
      const repo = s(d['repository']);
      if (satisfies(want, '0.0.0') === undefined && want !== '') this.fail(`dependency "${name}" has an invalid version/constraint format: improper constraint: ${want}`);
      if (repo === '') {
        if (!this.env.fs.exists(`${this.dir}/charts/${name}`)) this.fail(`directory ${this.dir}/charts/${name} not found`);
        locked.push({ name, repository: '', version: want });
        continue;
      }
      const repoName = names.get(name) ?? '';
      const index = loadIndex(this.env.fs, this.env.home, repoName);
      if (!index) this.fail(`no cached repository for ${repoName} found. (try 'helm repo update'): open ${indexPath(this.env.home, repoName)}: no such file or directory`);
      const versions = index.entries[name];
      if (!versions) this.fail(`${name} chart not found in repo ${repo}`);
      const hit = pickVersion(versions.filter((v) => v.urls.length > 0 && validSemver(v.version)), want || '*');
      locked.push({ name, repository: repo, version: hit?.version ?? '' });
      if (!hit) missing.push(`"${name}" (repository "${repo}", version "${want}")`);
    }
    if (missing.length) this.fail(`can't get a valid version for ${missing.length} subchart(s): ${missing.join(', ')}. Make sure a matching chart version exists in the repo, or change the version constraint in Chart.yaml`);
    return locked;
  }

  /** downloadAll: fetch each locked chart, then move them into charts/ and delete the outdated archives. */
  private downloadAll(deps: Dep[]): void {
    const dest = `${this.dir}/charts`;
    if (this.env.fs.exists(dest) && !this.env.fs.isDir(dest)) this.fail(`"${this.path}/charts" is not a directory`);
    this.env.fs.mkdir(dest);
    this.out += `Saving ${deps.length} charts\n`;
    const fetched = new Map<string, Buffer>();
    const seen = new Set<string>();
    const repos = this.repos();
    let saveError: string | undefined;
    for (const d of deps) {
      const name = s(d['name']);
      const repo = s(d['repository']);
      const version = s(d['version']);
      if (repo === '') {
        this.out += `Dependency ${name} did not declare a repository. Assuming it exists in the charts directory\n`;
        let sub: Loaded;
        try {
          sub = loadDir(this.env, `${dest}/${name}`);
        } catch (e) {
          this.fail(`unable to load chart '${this.path}/charts/${name}': ${(e as Error).message}`);
        }
        if (satisfies(version, sub.version) === false) {
          saveError = `dependency ${name} at version ${sub.version} does not satisfy the constraint ${version}`;
          break;
        }
        continue;
      }
      const configured = repos.find((r) => sameUrl(r.url, repo));
      const repoName = configured?.name ?? MANAGER_PREFIX + createHash('sha256').update(repo).digest('hex');
      const entry = loadIndex(this.env.fs, this.env.home, repoName)?.entries[name];
      const hit = entry?.find((v) => v.urls.length > 0 && v.version === version);
      if (!hit) {
        saveError = `could not find : ${entry ? 'no matching version' : 'entry not found'}`;
        break;
      }
      const url = /^https?:\/\//.test(hit.urls[0]!) ? hit.urls[0]! : `${repo.replace(/\/$/, '')}/${hit.urls[0]}`;
      if (seen.has(url)) {
        this.out += `Already downloaded ${name} from repo ${repo}\n`;
        continue;
      }
      this.out += `Downloading ${name} from repo ${repo}\n`;
      const data = fetchUrl(url);
      if (!data) {
        saveError = `could not download ${url}: failed to fetch ${url} : 404 Not Found`;
        break;
      }
      fetched.set(url.split('/').pop()!, data);
      seen.add(url);
    }
    if (saveError !== undefined) {
      this.out += `Save error occurred:  ${saveError}\n`;
      this.fail(saveError);
    }
    const local = new Set(deps.filter((d) => s(d['repository']) === '').map((d) => s(d['name'])));
    const before = this.env.fs.list(dest);
    for (const [file, data] of fetched) this.env.fs.write(`${dest}/${file}`, data.toString('latin1'));
    this.out += 'Deleting outdated charts\n';
    for (const file of before) {
      const full = `${dest}/${file}`;
      if (this.env.fs.isDir(full) || fetched.has(file)) continue;
      const c = loadArchive(this.env, full);
      if (!c) {
        this.out += `Could not verify ${this.path}/charts/${file} for deletion: Chart.yaml file is missing (Skipping)\n`;
        continue;
      }
      if (local.has(c.name)) continue;
      this.env.fs.remove(full);
    }
  }

  update(): string {
    const c = this.loadChartDir();
    const req = c.deps;
    if (!req) return this.out;
    const names = this.resolveRepoNames(req);
    this.ensureMissingRepos(names, req);
    if (!this.skipUpdate) this.updateRepositories();
    const locked = this.resolve(req, names);
    this.downloadAll(locked);
    const digest = hashReq(req, locked);
    const old = readLock(this.env.fs.tryRead(`${this.dir}/Chart.lock`));
    if (old?.digest === digest) return this.out;
    const lockName = c.apiVersion === 'v1' ? 'requirements.lock' : 'Chart.lock';
    this.env.fs.write(`${this.dir}/${lockName}`, lockYaml({ dependencies: locked.map((d) => dependencyJson(d)), digest, generated: goTime(this.env.now()) }));
    return this.out;
  }

  build(): string {
    const c = this.loadChartDir();
    const lock = readLock(this.env.fs.tryRead(`${this.dir}/Chart.lock`));
    if (!lock) return this.update();
    const req = c.deps ?? [];
    this.resolveRepoNames(req);
    if (hashReq(req, lock.dependencies as Dep[]) !== lock.digest) this.fail('the lock file (Chart.lock) is out of sync with the dependencies file (Chart.yaml). Please update the dependencies');
    const repos = this.repos();
    const missing = lock.dependencies.map((d) => s(d['repository'])).filter((r) => r !== '' && !r.startsWith('file://') && !r.startsWith('oci://') && !repos.some((x) => sameUrl(x.url, r)));
    if (missing.length) this.fail(`no repository definition for ${missing.join(', ')}`);
    if (!this.skipUpdate) this.updateRepositories();
    this.downloadAll(lock.dependencies as Dep[]);
    return this.out;
  }
}
