/**
 * What apt-get, apt, apt-cache, apt-mark and dpkg share on a node: the host's package state
 * (sim/node/packages.ts), the repository lines apt prints, and the candidate version apt picks.
 * Wording and layout follow apt 2.7 (Ubuntu 24.04) and dpkg 1.22.
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { CDN, KUBE_PACKAGES, availableVersions, compareVersions, packageState, type PackageState } from '../../../sim/node/packages.js';

export function pkgState(c: Cluster, host: Host): PackageState {
  return packageState(host, c.meta.kubernetesVersion);
}

/** The repository as apt-cache shows it: the URI without its trailing slash, two spaces, `Packages`. */
export function archiveLabel(uri: string): string {
  return `${uri.replace(/\/$/, '')}  Packages`;
}

/** The redirected URL apt prints while downloading (`Get:1 https://prod-cdn… kubeadm …`). */
export function cdnBase(channel: string): string {
  return `${CDN}/${channel}/deb`;
}

/** apt's candidate: the newest version in the downloaded indexes. */
export function candidate(st: PackageState, pkg: string): { version: string; uri: string } | undefined {
  return availableVersions(st, pkg)[0];
}

/** Packages apt knows: installed ones and those in the downloaded indexes. */
export function knownPackage(st: PackageState, pkg: string): boolean {
  return pkg in st.installed || availableVersions(st, pkg).length > 0;
}

/** Installed packages with a newer candidate (apt's "not upgraded" count and `apt list --upgradable`). */
export function upgradable(st: PackageState): string[] {
  return Object.keys(st.installed)
    .filter((p) => {
      const cand = candidate(st, p);
      return cand && compareVersions(cand.version, st.installed[p]!) > 0;
    })
    .sort();
}

export const READING = 'Reading package lists... Done\nBuilding dependency tree... Done\nReading state information... Done\n';

export const DPKG_LOCK_DENIED =
  'E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?\n';

/** The channel (`v1.35`) of an index URI. */
export function channelOfUri(st: PackageState, uri: string): string {
  return st.lists.find((l) => l.uri === uri)?.channel ?? '';
}

export { KUBE_PACKAGES };
