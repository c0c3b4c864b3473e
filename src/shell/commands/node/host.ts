/**
 * Shared plumbing for the node administration tools: the host a command runs on, its iptables
 * ruleset (created on first use with the kubelet's chains, as a freshly booted kubeadm node has),
 * and small formatting helpers shared by several tools.
 */
import { nodeIp6tables, nodeIptables } from '../../../sim/node/runtime.js';
import { createHash } from 'node:crypto';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { IptablesState } from '../../../sim/net/iptables.js';
import type { CommandContext, CommandResult } from '../../types.js';

export interface NodeEnv {
  cluster: Cluster;
  host: Host;
}

/** The cluster and host a node command runs on, or undefined off a node (workstation, pod). */
export function nodeEnv(ctx: CommandContext): NodeEnv | undefined {
  if (ctx.location.kind !== 'node' || !ctx.cluster) return undefined;
  const host = ctx.cluster.host(ctx.location.host);
  return host ? { cluster: ctx.cluster, host } : undefined;
}

/**
 * The machine a host tool runs on: a node or the exam's workstation (both Ubuntu hosts with
 * procps, coreutils and systemd); undefined inside a container.
 */
export function hostEnv(ctx: CommandContext): NodeEnv | undefined {
  if ((ctx.location.kind !== 'node' && ctx.location.kind !== 'workstation') || !ctx.cluster) return undefined;
  const host = ctx.cluster.host(ctx.location.host);
  return host ? { cluster: ctx.cluster, host } : undefined;
}

/** What bash prints when a tool is not installed where the command ran. */
export function notInstalled(ctx: CommandContext): CommandResult {
  return { stdout: '', stderr: `${ctx.argv[0] ?? ''}: command not found\n`, exitCode: 127 };
}

/** The node's ruleset (sim/node/runtime.ts), shared with kube-proxy and the traffic path. */
export const iptablesState: (host: Host) => IptablesState = nodeIptables;
/** The node's ip6tables ruleset (derived until written: node/runtime.ts nodeIp6tables). */
export const ip6tablesState: (host: Host) => IptablesState = nodeIp6tables;

export function isRoot(ctx: CommandContext): boolean {
  return ctx.user === 'root';
}

/**
 * docker/go-units HumanDuration, which crictl uses for CREATED columns ("2 hours ago").
 */
export function unitsHumanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.floor(ms / 3_600_000 + 0.5);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.floor(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24 / 30)} months`;
  return `${Math.floor(ms / 3_600_000 / 24 / 365)} years`;
}

/** A stable 32-bit FNV-1a hash, for names and ids derived from cluster state. */
export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** `n` hex characters derived from a seed string (container ids, MACs, veth suffixes). */
export function hexFrom(seed: string, n: number): string {
  let out = '';
  for (let i = 0; out.length < n; i++) out += createHash('sha256').update(`${seed}#${i}`).digest('hex');
  return out.slice(0, n);
}

/** A process id for a daemon on a host; a unit's main PID changes each time the unit (re)starts. */
export function pidOf(host: Host, proc: string): number {
  const since = host.data.units[proc]?.since ?? 0;
  return 300 + (fnv(`${host.name}/${proc}/${since}`) % 3700);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** journald's short timestamp: "Dec 02 10:00:00" (UTC, as the lab's nodes run). */
export function journalTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** systemd's format_timestamp: "Wed 2026-12-02 10:00:00 UTC". */
export function systemdTime(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]} ${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)} UTC`;
}

/** klog's header time: "1202 10:00:00.000000". */
export { klogTime } from '../../../util/klog.js';
