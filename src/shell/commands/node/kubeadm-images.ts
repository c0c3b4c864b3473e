/**
 * `kubeadm config images list|pull` (cmd/kubeadm/app/cmd/config.go, images/images.go
 * GetControlPlaneImages): the control-plane images of a Kubernetes version in kubeadm's order
 * (kube-apiserver, kube-controller-manager, kube-scheduler, kube-proxy, pause, etcd, CoreDNS).
 * The Kubernetes version is `--kubernetes-version` or kubeadm's default label `stable-1`, which
 * kubeadm resolves on the internet: here the newest release the lab's pkgs.k8s.io publishes,
 * falling back to the newest of kubeadm's own minor when that is newer (version.go, the same klog
 * line `kubeadm upgrade plan` prints). Pause, etcd and CoreDNS are pinned in the kubeadm binary
 * (constants.go PauseVersion, SupportedEtcdVersion[minor], CoreDNSVersion): sim/kubeadm-pins.ts.
 * A custom `--image-repository` drops CoreDNS's `coredns/` path (images.go GetDNSImage). `pull`
 * pulls each image through the node's containerd and prints `[config/images] Pulled IMAGE`; the
 * pulled images join `crictl images` (sim/node/runtime.ts recordPulledImage). The help texts of
 * these commands are not recorded in this lab (kubeadm-spec.ts), and `--config`/`-o` other than
 * text are not simulated.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { pullErrorMessage, pullImage } from '../../../sim/images.js';
import { recordPulledImage } from '../../../sim/node/runtime.js';
import { kubeadmError, kubeadmLog, minorOf } from './kubeadm-lib.js';
import { latest } from './kubeadm-upgrade.js';
import { KUBEADM_PINS } from '../../../sim/kubeadm-pins.js';

export type { KubeadmPins } from '../../../sim/kubeadm-pins.js';

const DEFAULT_REPOSITORY = 'registry.k8s.io';

interface ImagesFlags {
  kubernetesVersion: string;
  imageRepository: string;
}

const LIST_FLAGS = ['allow-missing-template-keys', 'config', 'feature-gates', 'image-repository', 'kubernetes-version', 'output', 'show-managed-fields'];
const PULL_FLAGS = ['config', 'cri-socket', 'feature-gates', 'image-repository', 'kubernetes-version'];
const ROOT_FLAGS = ['kubeconfig', 'rootfs', 'v', 'vmodule'];

function parseFlags(args: string[], known: string[]): ImagesFlags | CommandResult {
  const flags: ImagesFlags = { kubernetesVersion: 'stable-1', imageRepository: DEFAULT_REPOSITORY };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) return kubeadmError(`unknown command "${a}" for "kubeadm config images ${known === LIST_FLAGS ? 'list' : 'pull'}"`);
    const eq = a.indexOf('=');
    let name = (eq < 0 ? a : a.slice(0, eq)).replace(/^--?/, '').replaceAll('_', '-');
    if (name === 'o') name = 'output';
    if (!known.includes(name) && !ROOT_FLAGS.includes(name)) return kubeadmError(`unknown flag: ${a.startsWith('--') ? `--${name}` : `-${name}`}`);
    const value = eq < 0 ? args[++i] : a.slice(eq + 1);
    if (value === undefined) return kubeadmError(`flag needs an argument: --${name}`);
    if (name === 'kubernetes-version') flags.kubernetesVersion = value;
    else if (name === 'image-repository') flags.imageRepository = value;
    else if (name === 'config') return { stdout: '', stderr: 'cka-lab: kubeadm config images --config is not simulated; use --kubernetes-version and --image-repository\n', exitCode: 1 };
    else if (name === 'output' && value !== 'text') return { stdout: '', stderr: `cka-lab: kubeadm config images list -o ${value} is not simulated; the text output is\n`, exitCode: 1 };
  }
  return flags;
}

/** The version a label or version string names, with the klog line kubeadm prints on the way. */
export function resolveVersion(c: Cluster, kubeadmV: string, spec: string): { version: string; stderr: string } | CommandResult {
  const exact = /^v?(\d+\.\d+\.\d+)$/.exec(spec);
  if (exact) return { version: `v${exact[1]}`, stderr: '' };
  const label = /^stable(?:-(\d+)(?:\.(\d+))?)?$/.exec(spec);
  if (!label) return { stdout: '', stderr: `cka-lab: the Kubernetes version label "${spec}" is not simulated; give a version (v1.35.2) or stable-1\n`, exitCode: 1 };
  if (label[2] !== undefined) return { version: latest(c, Number(label[2])) ?? kubeadmV, stderr: '' };
  const stable = latest(c) ?? kubeadmV;
  if (minorOf(stable) <= minorOf(kubeadmV)) return { version: stable, stderr: '' };
  const line = kubeadmLog(c, 'I', 'version.go:260', `remote version is much newer: ${stable}; falling back to: stable-1.${minorOf(kubeadmV)}`);
  return { version: latest(c, minorOf(kubeadmV)) ?? kubeadmV, stderr: line };
}

/** The image list, or why this lab cannot tell it. */
function controlPlaneImages(kubeadmV: string, version: string, repo: string): string[] | CommandResult {
  const pins = KUBEADM_PINS[kubeadmV];
  if (!pins) return { stdout: '', stderr: `cka-lab: the images kubeadm ${kubeadmV} pins (etcd, CoreDNS, pause) are not recorded in this lab\n`, exitCode: 1 };
  if (minorOf(version) !== minorOf(kubeadmV))
    return { stdout: '', stderr: `cka-lab: the etcd version kubeadm ${kubeadmV} pins for Kubernetes v1.${minorOf(version)} is not recorded in this lab\n`, exitCode: 1 };
  const dns = repo === DEFAULT_REPOSITORY ? `${repo}/coredns/coredns` : `${repo}/coredns`;
  return [
    ...['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'].map((n) => `${repo}/${n}:${version}`),
    `${repo}/pause:${pins.pause}`,
    `${repo}/etcd:${pins.etcd}`,
    `${dns}:${pins.coredns}`,
  ];
}

/** `kubeadm config images list|pull` with the words after `images`. */
export function configImages(c: Cluster, host: Host, _ctx: CommandContext, args: string[], kubeadmV: string): CommandResult {
  const [verb, ...rest] = args;
  if (verb !== 'list' && verb !== 'pull') return kubeadmError(`unknown command "${verb ?? ''}" for "kubeadm config images"`);
  const flags = parseFlags(rest, verb === 'list' ? LIST_FLAGS : PULL_FLAGS);
  if ('exitCode' in flags) return flags;
  const v = resolveVersion(c, kubeadmV, flags.kubernetesVersion);
  if ('exitCode' in v) return v;
  const images = controlPlaneImages(kubeadmV, v.version, flags.imageRepository);
  if (!Array.isArray(images)) return { ...images, stderr: v.stderr + images.stderr };
  if (verb === 'list') return { stdout: images.map((i) => `${i}\n`).join(''), stderr: v.stderr, exitCode: 0 };
  let stdout = '';
  for (const image of images) {
    if (!pullImage(image, c.meta)) {
      const failed = kubeadmError(`failed to pull image "${image}": ${pullErrorMessage(image).replace(/^Failed to pull image "[^"]*": /, '')}`, stdout);
      return { ...failed, stderr: v.stderr + failed.stderr };
    }
    recordPulledImage(host, image);
    stdout += `[config/images] Pulled ${image}\n`;
  }
  return { stdout, stderr: v.stderr, exitCode: 0 };
}
