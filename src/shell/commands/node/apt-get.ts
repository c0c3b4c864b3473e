/**
 * `apt-get` (and `apt`) on a node for the Kubernetes packages: `update` downloads the indexes of
 * the repositories /etc/apt/sources.list.d/kubernetes.list names (a channel pkgs.k8s.io does not
 * serve fails as apt does: no Release file), `install PKG[=VERSION]…` installs what those indexes
 * hold, refusing held packages with -y (apt-pkg/algorithms.cc and apt-private/private-install.cc:
 * "Held packages were changed and -y was used without --allow-change-held-packages.") and
 * downgrades without --allow-downgrades. Installing a package replaces its binary at once; a
 * running kubelet keeps its old version until systemd restarts it (sim/node/packages.ts).
 * Output follows apt 2.7 on Ubuntu 24.04 (noble).
 */
import type { CommandContext, CommandFn, CommandResult } from '../../types.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';
import { DPKG_LOCK_DENIED, READING, candidate, cdnBase, channelOfUri, knownPackage, pkgState, upgradable } from './apt-lib.js';
import { PACKAGE_SIZE, availableVersions, channelPackages, compareVersions, sourceChannels, type KubePackage, type PackageState } from '../../../sim/node/packages.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';

const UBUNTU = [
  'http://archive.ubuntu.com/ubuntu noble InRelease',
  'http://archive.ubuntu.com/ubuntu noble-updates InRelease',
  'http://archive.ubuntu.com/ubuntu noble-backports InRelease',
  'http://security.ubuntu.com/ubuntu noble-security InRelease',
];

/** apt's SizeToStr for bytes below 10 kB as it prints them in `[… B]` (thousands separated). */
function bytes(n: number): string {
  return `${n.toLocaleString('en-US')} B`;
}

function update(c: Cluster, host: Host, ctx: CommandContext, apt: boolean): CommandResult {
  if (!isRoot(ctx))
    return { stdout: 'Reading package lists... Done\n', stderr: 'E: Could not open lock file /var/lib/apt/lists/lock - open (13: Permission denied)\nE: Unable to lock directory /var/lib/apt/lists/\n', exitCode: 100 };
  const st = pkgState(c, host);
  const repos = c.meta.packageRepos ?? {};
  let out = UBUNTU.map((l, i) => `Hit:${i + 1} ${l}\n`).join('');
  let n = UBUNTU.length;
  let fetched = 0;
  let err = '';
  const lists: PackageState['lists'] = [];
  for (const src of sourceChannels(host)) {
    const versions = src.channel ? channelPackages(src.channel, repos) : undefined;
    const base = src.channel ? cdnBase(src.channel) : src.uri.replace(/\/$/, '');
    n++;
    if (!versions) {
      out += `Ign:${n} ${base}  InRelease\nErr:${n} ${base}  Release\n  404  Not Found [IP: 3.167.227.99 443]\n`;
      err += `E: The repository '${src.uri.replace(/\/$/, '')}  Release' does not have a Release file.\nN: Updating from such a repository can't be done securely, and is therefore disabled by default.\nN: See apt-secure(8) manpage for repository creation and user configuration details.\n`;
      continue;
    }
    const before = st.lists.find((l) => l.uri === src.uri);
    if (before && JSON.stringify(before.versions) === JSON.stringify(versions)) out += `Hit:${n} ${base}  InRelease\n`;
    else {
      const rel = 1227;
      const pk = 1000 + 350 * Object.values(versions).reduce((a, v) => a + v.length, 0);
      out += `Get:${n} ${base}  InRelease [${bytes(rel)}]\n`;
      n++;
      out += `Get:${n} ${base}  Packages [${bytes(pk)}]\n`;
      fetched += rel + pk;
    }
    lists.push({ uri: src.uri, channel: src.channel, versions });
  }
  if (fetched > 0) out += `Fetched ${bytes(fetched)} in 1s (${bytes(Math.round(fetched * 0.87))}/s)\n`;
  out += 'Reading package lists... Done\n';
  st.lists = lists;
  if (err) return { stdout: out, stderr: err, exitCode: 100 };
  if (apt) {
    const up = upgradable(st).length;
    out += 'Building dependency tree... Done\nReading state information... Done\n';
    out += up === 0 ? 'All packages are up to date.\n' : `${up} package${up === 1 ? '' : 's'} can be upgraded. Run 'apt list --upgradable' to see them.\n`;
  }
  return { stdout: out, stderr: '', exitCode: 0 };
}

interface Change {
  pkg: string;
  from?: string;
  to: string;
  uri: string;
}

/** fnmatch of apt's version globs (`1.35.2-*`). */
function globMatch(pattern: string, v: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(v);
}

function mb(s: string): number {
  return Number(s.replace(/ MB$/, ''));
}

function install(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult {
  if (!isRoot(ctx)) return { stdout: '', stderr: DPKG_LOCK_DENIED, exitCode: 100 };
  const yes = args.some((a) => a === '-y' || a === '--yes' || a === '--assume-yes' || /^-[a-z]*y[a-z]*$/.test(a));
  const allowHeld = args.includes('--allow-change-held-packages');
  const allowDown = args.includes('--allow-downgrades');
  const st = pkgState(c, host);
  let out = READING;
  const changes: Change[] = [];
  const newest: string[] = [];
  for (const spec of args.filter((a) => !a.startsWith('-'))) {
    const [pkg, ver] = spec.split('=') as [string, string | undefined];
    if (!knownPackage(st, pkg)) return { stdout: out, stderr: `E: Unable to locate package ${pkg}\n`, exitCode: 100 };
    const avail = availableVersions(st, pkg);
    let pick: { version: string; uri: string } | undefined;
    if (ver === undefined) pick = candidate(st, pkg);
    else if (/[*?]/.test(ver)) {
      pick = avail.find((a) => globMatch(ver, a.version));
      if (pick) out += `Selected version '${pick.version}' (isv:kubernetes:core:stable:${channelOfUri(st, pick.uri)}:pkgs.k8s.io [amd64]) for '${pkg}'\n`;
    } else pick = avail.find((a) => a.version === ver);
    if (!pick) {
      if (ver !== undefined && st.installed[pkg] === ver) pick = { version: ver, uri: '' };
      else if (ver !== undefined) return { stdout: out, stderr: `E: Version '${ver}' for '${pkg}' was not found\n`, exitCode: 100 };
      else return { stdout: out, stderr: `E: Package '${pkg}' has no installation candidate\n`, exitCode: 100 };
    }
    if (st.installed[pkg] === pick.version) {
      newest.push(`${pkg} is already the newest version (${pick.version}).\n`);
      continue;
    }
    changes.push({ pkg, ...(st.installed[pkg] ? { from: st.installed[pkg] } : {}), to: pick.version, uri: pick.uri });
  }
  out += newest.join('');
  const list = (names: string[]): string => `  ${names.join(' ')}\n`;
  const held = changes.filter((ch) => st.held.includes(ch.pkg)).map((ch) => ch.pkg);
  const up = changes.filter((ch) => ch.from && compareVersions(ch.to, ch.from) > 0);
  const down = changes.filter((ch) => ch.from && compareVersions(ch.to, ch.from) < 0);
  const fresh = changes.filter((ch) => !ch.from);
  const changing = new Set(changes.map((ch) => ch.pkg));
  const notUpgraded = upgradable(st).filter((p) => !changing.has(p)).length;
  if (held.length) out += `The following held packages will be changed:\n${list(held)}`;
  if (fresh.length) out += `The following NEW packages will be installed:\n${list(fresh.map((x) => x.pkg))}`;
  if (up.length) out += `The following packages will be upgraded:\n${list(up.map((x) => x.pkg))}`;
  if (down.length) out += `The following packages will be DOWNGRADED:\n${list(down.map((x) => x.pkg))}`;
  out += `${up.length} upgraded, ${fresh.length} newly installed, ${down.length > 0 ? `${down.length} downgraded, ` : ''}0 to remove and ${notUpgraded} not upgraded.\n`;
  if (changes.length === 0) return { stdout: out, stderr: '', exitCode: 0 };
  if (held.length && yes && !allowHeld) return { stdout: out, stderr: 'E: Held packages were changed and -y was used without --allow-change-held-packages.\n', exitCode: 100 };
  if (down.length && yes && !allowDown) return { stdout: out, stderr: 'E: Packages were downgraded and -y was used without --allow-downgrades.\n', exitCode: 100 };
  const total = changes.reduce((a, ch) => a + mb(PACKAGE_SIZE[ch.pkg as KubePackage] ?? '10.0 MB'), 0).toFixed(1);
  out += `Need to get ${total} MB of archives.\n`;
  out += `After this operation, ${fresh.length ? `${(fresh.length * 48.2).toFixed(1)} MB` : '0 B'} of additional disk space will be used.\n`;
  if (!yes && (held.length || up.length || down.length)) {
    // an interactive terminal: the learner answers the prompt (a piped "n" or an empty pipe aborts)
    const answer = ctx.stdin === '' ? 'Y' : (ctx.stdin.split('\n')[0] ?? '').trim();
    out += `Do you want to continue? [Y/n] ${ctx.stdin === '' ? 'Y\n' : ''}`;
    if (answer !== '' && !/^y/i.test(answer)) return { stdout: `${out}Abort.\n`, stderr: '', exitCode: 1 };
  }
  changes.forEach((ch, i) => {
    out += `Get:${i + 1} ${cdnBase(channelOfUri(st, ch.uri))}  ${ch.pkg} ${ch.to} [${PACKAGE_SIZE[ch.pkg as KubePackage] ?? '10.0 MB'}]\n`;
  });
  out += `Fetched ${total} MB in 1s (${total} MB/s)\n`;
  for (const ch of changes) {
    if (!ch.from) out += `Selecting previously unselected package ${ch.pkg}.\n`;
    if (ch === changes[0]) out += '(Reading database ... 87945 files and directories currently installed.)\n';
    out += `Preparing to unpack .../${ch.pkg}_${ch.to}_amd64.deb ...\n`;
    out += ch.from ? `Unpacking ${ch.pkg} (${ch.to}) over (${ch.from}) ...\n` : `Unpacking ${ch.pkg} (${ch.to}) ...\n`;
  }
  for (const ch of changes) {
    out += `Setting up ${ch.pkg} (${ch.to}) ...\n`;
    st.installed[ch.pkg] = ch.to;
  }
  c.touchHosts();
  return { stdout: out, stderr: '', exitCode: 0 };
}

export function aptGetMain(ctx: CommandContext, apt: boolean): CommandResult {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const { cluster: c, host } = env;
  const args = ctx.argv.slice(1);
  const verb = args.find((a) => !a.startsWith('-'));
  const rest = args.filter((a, i) => i !== args.indexOf(verb ?? ''));
  switch (verb) {
    case 'update':
      return update(c, host, ctx, apt);
    case 'install':
    case 'upgrade':
      if (verb === 'upgrade' && rest.filter((a) => !a.startsWith('-')).length === 0)
        return install(c, host, ctx, [...rest, ...upgradable(pkgState(c, host)).filter((p) => !pkgState(c, host).held.includes(p))]);
      return install(c, host, ctx, rest);
    case undefined:
      return apt
        ? { stdout: 'apt 2.7.14 (amd64)\nUsage: apt [options] command\n', stderr: '', exitCode: 1 }
        : { stdout: 'apt 2.7.14 (amd64)\nUsage: apt-get [options] command\n', stderr: '', exitCode: 1 };
    default:
      return { stdout: '', stderr: `E: Invalid operation ${verb}\n`, exitCode: 100 };
  }
}

export const aptGet: CommandFn = (ctx) => aptGetMain(ctx, false);
