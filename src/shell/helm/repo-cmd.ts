/** `helm repo add|update|list|remove` (helm pkg/cmd/repo_*.go), with helm's messages. */
import type { HelmArgs } from './args.js';
import type { HelmEnv } from './env.js';
import { downloadIndex, HelmError, indexPath, readRepos, unreachable, writeRepos } from './repo.js';
import { uitable } from './table.js';

export function repo(env: HelmEnv, a: HelmArgs): string {
  const [sub, ...rest] = a.args;
  const repos = readRepos(env.fs, env.home);
  switch (sub) {
    case 'add': {
      const [name, url] = rest;
      if (!name || !url) throw new HelmError(`"helm repo add" requires 2 arguments\n\nUsage:  helm repo add [NAME] [URL] [flags]`);
      const cur = repos.find((r) => r.name === name);
      if (cur && cur.url === url) return `"${name}" already exists with the same configuration, skipping\n`;
      if (cur) throw new HelmError(`repository name (${name}) already exists, please specify a different name`);
      try {
        downloadIndex(env.fs, env.home, { name, url });
      } catch {
        throw new HelmError(unreachable(url));
      }
      writeRepos(env.fs, env.home, [...repos, { name, url }], env.now());
      return `"${name}" has been added to your repositories\n`;
    }
    case 'update':
    case 'up': {
      if (repos.length === 0) throw new HelmError('no repositories found. You must add one before updating');
      const wanted = rest.length ? repos.filter((r) => rest.includes(r.name)) : repos;
      let out = 'Hang tight while we grab the latest from your chart repositories...\n';
      for (const r of wanted) {
        try {
          downloadIndex(env.fs, env.home, r);
          out += `...Successfully got an update from the "${r.name}" chart repository\n`;
        } catch {
          out += `...Unable to get an update from the "${r.name}" chart repository (${r.url}):\n\t${unreachable(r.url)}\n`;
        }
      }
      return `${out}Update Complete. ⎈Happy Helming!⎈\n`;
    }
    case 'list':
    case 'ls': {
      if (repos.length === 0) throw new HelmError('no repositories to show');
      return uitable([['NAME', 'URL'], ...repos.map((r) => [r.name, r.url])]);
    }
    case 'remove':
    case 'rm': {
      if (rest.length === 0) throw new HelmError(`"helm repo remove" requires at least 1 argument\n\nUsage:  helm repo remove [REPO1 [REPO2 ...]] [flags]`);
      let out = '';
      let left = repos;
      for (const name of rest) {
        if (!left.some((r) => r.name === name)) throw new HelmError(`no repo named "${name}" found`);
        left = left.filter((r) => r.name !== name);
        writeRepos(env.fs, env.home, left, env.now());
        if (env.fs.exists(indexPath(env.home, name))) env.fs.write(indexPath(env.home, name), '');
        out += `"${name}" has been removed from your repositories\n`;
      }
      return out;
    }
    default:
      throw new HelmError(sub ? `unknown command "${sub}" for "helm repo"` : 'requires a subcommand: add, index, list, remove, update');
  }
}
