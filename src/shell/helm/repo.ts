/**
 * Chart repositories (helm pkg/repo/v1 and cmd/repo_*.go): `repositories.yaml` under
 * $HOME/.config/helm and each repository's index cached as
 * $HOME/.cache/helm/repository/NAME-index.yaml, in the workstation's filesystem. Offline: a URL
 * https://charts.example.com/DIR is served from the fixture folder fixtures/helm/DIR
 * (embedded in data.generated.ts); any other host fails as a DNS lookup would.
 */
import { stringify } from 'yaml';
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import type { KubectlFiles } from '../kubectl/context.js';
import { HELM_DATA } from './data.generated.js';

export const FIXTURE_HOST = 'https://charts.example.com/';

export interface RepoEntry {
  name: string;
  url: string;
}

export interface IndexVersion {
  name: string;
  version: string;
  appVersion?: string;
  description?: string;
  keywords?: string[];
  urls: string[];
  digest?: string;
  [k: string]: unknown;
}

export interface RepoIndex {
  entries: Record<string, IndexVersion[]>;
}

export class HelmError extends Error {
  /** What the command wrote to stdout before it failed (helm prints the error after it). */
  stdout?: string;
}

/** The error, carrying what was already written to stdout. */
export function withStdout<E extends Error & { stdout?: string }>(e: E, stdout: string): E {
  e.stdout = stdout + (e.stdout ?? '');
  return e;
}

export const configPath = (home: string): string => `${home}/.config/helm/repositories.yaml`;
export const indexPath = (home: string, name: string): string => `${home}/.cache/helm/repository/${name}-index.yaml`;

/** The bytes a URL serves, or undefined (offline repositories only). */
export function fetchUrl(url: string): Buffer | undefined {
  if (!url.startsWith(FIXTURE_HOST)) return undefined;
  const data = HELM_DATA[url.slice(FIXTURE_HOST.length)];
  return data === undefined ? undefined : Buffer.from(data, 'base64');
}

export function unreachable(url: string): string {
  const host = /^[a-z]+:\/\/([^/:]+)/.exec(url)?.[1] ?? url;
  return `looks like "${url}" is not a valid chart repository or cannot be reached: Get "${url.replace(/\/$/, '')}/index.yaml": dial tcp: lookup ${host} on 127.0.0.53:53: no such host`;
}

export function readRepos(fs: KubectlFiles, home: string): RepoEntry[] {
  const text = fs.tryRead(configPath(home));
  if (!text) return [];
  const doc = (parseYaml(text) ?? {}) as { repositories?: RepoEntry[] };
  return doc.repositories ?? [];
}

export function writeRepos(fs: KubectlFiles, home: string, repos: readonly RepoEntry[], now: number): void {
  fs.mkdir(`${home}/.config/helm`);
  const doc = {
    apiVersion: '',
    generated: new Date(now).toISOString(),
    repositories: repos.map((r) => ({ caFile: '', certFile: '', insecure_skip_tls_verify: false, keyFile: '', name: r.name, pass_credentials_all: false, password: '', url: r.url, username: '' })),
  };
  fs.write(configPath(home), stringify(doc));
}

/** Download a repository's index.yaml into the cache; throws HelmError in helm's words. */
export function downloadIndex(fs: KubectlFiles, home: string, repo: RepoEntry): void {
  const data = fetchUrl(`${repo.url.replace(/\/$/, '')}/index.yaml`);
  if (!data) throw new HelmError(unreachable(repo.url));
  fs.mkdir(`${home}/.cache/helm/repository`);
  fs.write(indexPath(home, repo.name), data.toString('utf8'));
}

export function loadIndex(fs: KubectlFiles, home: string, name: string): RepoIndex | undefined {
  const text = fs.tryRead(indexPath(home, name));
  if (text === undefined) return undefined;
  const doc = (parseYaml(text) ?? {}) as RepoIndex;
  return { entries: doc.entries ?? {} };
}
