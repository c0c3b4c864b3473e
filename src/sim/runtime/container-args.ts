/**
 * The command lines a container's process(es) run, as `ps` shows them on the node and inside the
 * container: the spec's command and args (with the kubelet's `$(VAR)` expansion), a `sh -c` of
 * one simple command being that command (the shell execs it), or the image's entrypoint.
 */
import type { Container, Pod } from '../api/types.js';
import { podFieldValue } from './env.js';

/** Entry points of the images the lab runs, for containers whose spec gives no command. */
const ENTRYPOINTS: Record<string, string[]> = {
  nginx: ['nginx: master process nginx -g daemon off;'],
  httpd: ['httpd -DFOREGROUND'],
  redis: ['redis-server *:6379'],
  pause: ['/pause'],
  coredns: ['/coredns'],
  'metrics-server': ['/metrics-server'],
  'kube-controllers': ['/usr/bin/kube-controllers'],
  node: ['calico-node -felix', 'calico-node -confd', 'calico-node -allocate-tunnel-addrs', 'calico-node -status-reporter', 'calico-node -monitor-addresses'],
  flannel: ['/opt/bin/flanneld'],
  busybox: ['sh'],
  alpine: ['/bin/sh'],
  ubuntu: ['/bin/bash'],
};

/** Images whose ENTRYPOINTS line is their CMD, not an ENTRYPOINT (Docker Hub's busybox, alpine, ubuntu). */
const CMD_ONLY = new Set(['busybox', 'alpine', 'ubuntu']);

export function repoBase(image: string): string {
  const noTag = image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
  return noTag.slice(noTag.lastIndexOf('/') + 1);
}

/**
 * `$(VAR)` references expanded as the kubelet does (kubelet expansion.Expand): from the
 * container's literal env and its fieldRef values (kube-proxy's `$(NODE_NAME)`).
 */
function expand(word: string, ct: Container, pod: Pod | undefined): string {
  const env = new Map<string, string>();
  for (const e of ct.env ?? []) {
    if (e.value !== undefined) env.set(e.name, e.value);
    else {
      const path = (e.valueFrom as { fieldRef?: { fieldPath?: string } } | undefined)?.fieldRef?.fieldPath;
      const v = pod && path ? podFieldValue(pod, path) : undefined;
      if (v !== undefined) env.set(e.name, v);
    }
  }
  return word.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, n: string) => env.get(n) ?? m);
}

/** The command lines a container's process(es) run. */
export function containerArgs(ct: Container, pod?: Pod): string[] {
  const base = repoBase(ct.image ?? '');
  const args = (ct.args ?? []).map((a) => expand(a, ct, pod));
  if (ct.command?.length) return [execedScript([...ct.command.map((a) => expand(a, ct, pod)), ...args]) ?? [...ct.command.map((a) => expand(a, ct, pod)), ...args].join(' ')];
  const entry = ENTRYPOINTS[base] ?? [`/${base}`];
  // these images have only a CMD (no ENTRYPOINT): args replace it (`kubectl run bb --image=busybox -- sleep 1d`)
  if (args.length && CMD_ONLY.has(base)) return [args.join(' ')];
  return args.length ? [[entry[0]!, ...args].join(' ')] : entry;
}

/**
 * `sh -c 'CMD ARGS'` whose script is one simple command: the shell execs it in its own place
 * (busybox ash and dash run the last command of a `-c` string with exec, bash does the same for a
 * single command), so the process is the command itself (`sleep 1h`, as `ps` in the Kubernetes
 * docs' security-context example shows). Undefined for anything else.
 */
function execedScript(argv: string[]): string | undefined {
  const [sh, flag, script, ...rest] = argv;
  if (!sh || !/^(\/bin\/|\/usr\/bin\/)?(sh|ash|bash|dash)$/.test(sh) || flag !== '-c' || script === undefined || rest.length) return undefined;
  const words = script.trim();
  // one simple command: no operators, expansions, redirections, quotes or assignments
  if (!/^[A-Za-z0-9_./][A-Za-z0-9_./:,=+@%-]*( +[A-Za-z0-9_./:,=+@%-]+)*$/.test(words) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words)) return undefined;
  if (/^(exec|cd|export|set|source|\.|eval|read|wait|trap|while|for|if|until|case|true|false|:)( |$)/.test(words)) return undefined;
  return words.replace(/ +/g, ' ');
}
