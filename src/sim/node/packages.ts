/**
 * A node's Debian packages as apt and dpkg see them, for the Kubernetes packages kubeadm's install
 * guide puts on every node (kubeadm, kubelet, kubectl, cri-tools, kubernetes-cni) from the
 * community repository pkgs.k8s.io, one repository per minor release
 * (https://kubernetes.io/docs/tasks/administer-cluster/kubeadm/change-package-repository/).
 *
 * Three things are kept apart, as on a real node:
 * - what the repositories serve (the lab's "internet": ClusterMeta.packageRepos, from the fixture);
 * - what apt last downloaded (`apt-get update` reads /etc/apt/sources.list.d/kubernetes.list and
 *   stores each repository's index: `lists`), which is all apt-cache and apt-get install see;
 * - what dpkg installed and which packages are held (`installed`, `held`).
 * The binaries' versions follow the installed packages (`kubeadm version`, `kubelet --version`);
 * the running kubelet keeps the version it was started with (`kubeletBinaryAtStart`) until systemd
 * restarts it, which is what the node's VERSION column shows.
 * Pure data: no I/O; everything is plain JSON in HostState.
 */
import type { Host } from './host.js';

/** The packages of the Kubernetes repositories, in the order dpkg and apt list them. */
export const KUBE_PACKAGES = ['cri-tools', 'kubeadm', 'kubectl', 'kubelet', 'kubernetes-cni'] as const;
export type KubePackage = (typeof KUBE_PACKAGES)[number];

/** dpkg's short descriptions (the packages' control files on pkgs.k8s.io). */
export const PACKAGE_DESCRIPTION: Record<KubePackage, string> = {
  'cri-tools': 'Command-line utility for interacting with a container runtime',
  kubeadm: 'Command-line utility for administering a Kubernetes cluster',
  kubectl: 'Command-line utility for interacting with a Kubernetes cluster',
  kubelet: 'Node agent for Kubernetes clusters',
  'kubernetes-cni': 'Binaries required to provision kubernetes container networking',
};

/** Archive sizes apt prints (`Need to get …`, `Get:1 … [… MB]`), roughly the real .debs'. */
export const PACKAGE_SIZE: Record<KubePackage, string> = {
  'cri-tools': '15.9 MB',
  kubeadm: '12.5 MB',
  kubectl: '11.6 MB',
  kubelet: '15.3 MB',
  'kubernetes-cni': '37.4 MB',
};

export const SOURCES_LIST = '/etc/apt/sources.list.d/kubernetes.list';
export const KEYRING = '/etc/apt/keyrings/kubernetes-apt-keyring.gpg';
/** Where the repository redirects (apt prints the redirected URL in `Get:`/`Hit:` lines). */
export const CDN = 'https://prod-cdn.packages.k8s.io/repositories/isv:/kubernetes:/core:/stable:';

export interface PackageState {
  /** Installed packages and their versions (`1.34.3-1.1`). */
  installed: Record<string, string>;
  /** `apt-mark hold` marks. */
  held: string[];
  /** The repository indexes apt downloaded at its last update: the channel (`v1.34`) and its URI. */
  lists: { uri: string; channel: string; versions: Record<string, string[]> }[];
}

/** The repositories the lab's pkgs.k8s.io serves: channel (`v1.35`) → highest patch published. */
export type PackageRepos = Record<string, number>;

/** `v1.34.3` → `1.34.3-1.1` (the pkgs.k8s.io revision). */
export function debVersion(kubeVersion: string): string {
  return `${kubeVersion.replace(/^v/, '')}-1.1`;
}

/** `1.34.3-1.1` → `v1.34.3`. */
export function kubeVersionOf(deb: string): string {
  return `v${deb.replace(/-.*$/, '')}`;
}

/** The minor channel of a version: `v1.34.3` → `v1.34`. */
export function channelOf(kubeVersion: string): string {
  const [maj, min] = kubeVersion.replace(/^v/, '').split('.');
  return `v${maj}.${min}`;
}

export function repoUri(channel: string): string {
  return `https://pkgs.k8s.io/core:/stable:/${channel}/deb/`;
}

/** The line kubeadm's install guide writes to kubernetes.list for a channel. */
export function sourcesLine(channel: string): string {
  return `deb [signed-by=${KEYRING}] ${repoUri(channel)} /\n`;
}

/** Compare Debian-ish versions of these packages (`1.34.10-1.1` > `1.34.9-1.1`). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string): number[] => v.split(/[.-]/).map((x) => Number(x) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * What one channel of pkgs.k8s.io holds: every patch release of kubeadm, kubelet and kubectl up to
 * the highest published one, plus the channel's cri-tools and kubernetes-cni builds. Newest first,
 * as apt-cache madison lists them.
 */
export function channelPackages(channel: string, repos: PackageRepos): Record<string, string[]> | undefined {
  const top = repos[channel];
  if (top === undefined) return undefined;
  const minor = channel.replace(/^v/, '');
  const patches = Array.from({ length: top + 1 }, (_, i) => `${minor}.${top - i}-1.1`);
  return {
    'cri-tools': [`${minor}.0-1.1`],
    kubeadm: patches,
    kubectl: patches,
    kubelet: patches,
    'kubernetes-cni': ['1.7.1-1.1'],
  };
}

/** The repositories kubernetes.list names (deb lines that are not commented out). */
export function sourceChannels(host: Host): { uri: string; channel: string }[] {
  const text = host.fs.tryRead(SOURCES_LIST) ?? '';
  const out: { uri: string; channel: string }[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('deb ')) continue;
    const m = /(https?:\/\/pkgs\.k8s\.io\/core:\/stable:\/(v\d+\.\d+)\/deb\/?)/.exec(line);
    if (m) out.push({ uri: m[1]!.replace(/\/?$/, '/'), channel: m[2]! });
    else {
      const u = /\s(https?:\/\/\S+)/.exec(line.replace(/\[[^\]]*\]/, ''));
      if (u) out.push({ uri: u[1]!, channel: '' });
    }
  }
  return out;
}

/**
 * The host's package state, created for hosts that predate it (saved sessions, fixtures built
 * before packages existed) from the version the fixture installed.
 */
export function packageState(host: Host, kubeVersion: string): PackageState {
  let st = host.data.state.packages;
  if (!st) {
    st = installedFor(kubeVersion);
    host.data.state.packages = st;
  }
  return st;
}

/** A node as kubeadm's install guide leaves it: the five packages of one release, three held. */
export function installedFor(kubeVersion: string, repos?: PackageRepos): PackageState {
  const ch = channelOf(kubeVersion);
  const minor = ch.replace(/^v/, '');
  const installed: Record<string, string> = {
    'cri-tools': `${minor}.0-1.1`,
    kubeadm: debVersion(kubeVersion),
    kubectl: debVersion(kubeVersion),
    kubelet: debVersion(kubeVersion),
    'kubernetes-cni': '1.7.1-1.1',
  };
  const versions = repos ? channelPackages(ch, repos) : undefined;
  return { installed, held: ['kubeadm', 'kubectl', 'kubelet'], lists: versions ? [{ uri: repoUri(ch), channel: ch, versions }] : [] };
}

/** The installed version of a package, or undefined. */
export function installedVersion(host: Host, kubeVersion: string, pkg: string): string | undefined {
  return packageState(host, kubeVersion).installed[pkg];
}

/** Versions of a package in the downloaded indexes, newest first, with the repository each comes from. */
export function availableVersions(st: PackageState, pkg: string): { version: string; uri: string }[] {
  const out: { version: string; uri: string }[] = [];
  for (const l of st.lists) for (const v of l.versions[pkg] ?? []) out.push({ version: v, uri: l.uri });
  return out.sort((a, b) => compareVersions(b.version, a.version));
}

/** The version the running kubelet was started from (the binary installed at its last start). */
export function runningKubeletVersion(host: Host, kubeVersion: string): string {
  const at = host.data.state.kubeletBinaryAtStart;
  if (at) return kubeVersionOf(at);
  const inst = packageState(host, kubeVersion).installed['kubelet'];
  return inst ? kubeVersionOf(inst) : kubeVersion;
}

/** The kubelet process (re)started: it runs the binary installed now. */
export function recordKubeletStart(host: Host): void {
  const v = host.data.state.packages?.installed['kubelet'];
  if (v) host.data.state.kubeletBinaryAtStart = v;
}
