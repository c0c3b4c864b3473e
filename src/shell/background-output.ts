/**
 * What running background jobs do as the simulation moves on (the shell asks after every command):
 * a job that slept to its end finishes; `kubectl port-forward` prints `Handling connection for
 * PORT` for each connection its sockets accepted (client-go tools/portforward/portforward.go
 * handleConnection), and ends with `error: lost connection to pod` when the pod it forwards to is
 * gone or a forwarded connection found nothing listening in the pod. That last case logs
 * client-go's error first, as kubectl v1.31.6 printed it in kubernetes/kubectl#1169 (the kubelet's
 * "error forwarding port", containerd's sandbox_portforward_linux.go "failed to connect to
 * localhost:PORT inside namespace", for a pod without IPv6). A background `kubectl get -w` writes
 * the rows of what changed (kubectl/verbs/get-watch.ts backgroundWatch).
 */
import type { Cluster } from '../sim/cluster.js';
import type { Pod } from '../sim/api/types.js';
import { userSockets, type UserSocket } from '../sim/node/user-sockets.js';
import type { OutputChunk } from './interpreter.js';
import type { JobData, JobTable } from './jobs.js';
import { LIVE, type Held, type JobSink } from './commands/types.js';
import { hexFrom, klogTime } from './commands/node/host.js';
import { sandboxId } from './commands/node/crictl.js';

/** client-go's `runtime.HandleError` line in kubectl v1.35 (klog: level, time, pid in 7 columns, file:line). */
function unhandledError(now: number, pid: number, err: string): string {
  return `E${klogTime(now)} ${String(pid).padStart(7, ' ')} portforward.go:413] "Unhandled Error" err="${err.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"\n`;
}

/** The error the kubelet returns when nothing listens on `port` in the pod (the pod has no IPv6 address). */
function refusedInPod(c: Cluster, pod: Pod | undefined, local: number, port: number): string {
  const host = pod?.spec.nodeName ? c.host(pod.spec.nodeName) : undefined;
  const sandbox = host && pod ? sandboxId(host, pod.metadata.namespace ?? 'default', pod.metadata.name, pod.metadata.uid ?? '') : '';
  const h = hexFrom(`netns/${sandbox}`, 32);
  const netns = `/var/run/netns/cni-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return (
    `an error occurred forwarding ${local} -> ${port}: error forwarding port ${port} to pod ${sandbox}, uid : ` +
    `failed to execute portforward in network namespace "${netns}": failed to connect to localhost:${port} inside namespace "${sandbox}", ` +
    `IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6: address localhost: no suitable address found `
  );
}

/** Output of a job goes where its command's output went: the terminal, a file, or nowhere. */
function emit(c: Cluster, held: Held, stream: 'stdout' | 'stderr', text: string, out: OutputChunk[]): void {
  const sink: JobSink | undefined = held[stream];
  if (!sink) {
    out.push({ stream, text });
    return;
  }
  if (sink.kind === 'null') return;
  if (sink.kind === 'pipe') {
    held.piped = (held.piped ?? '') + text;
    return;
  }
  try {
    c.host(held.host)?.fs.append(sink.path, text);
  } catch {
    /* the file went away: the process gets EBADF and carries on */
  }
}

function podGone(c: Cluster, held: Held): boolean {
  const p = held.pod;
  if (!p) return false;
  const pod = c.store.get<Pod>('Pod', p.namespace, p.name);
  return !pod || pod.metadata.uid !== p.uid || pod.status?.phase !== 'Running';
}

/**
 * One running job that holds sockets: report new connections (phase `accept`, before the output of
 * the command that connected), and end it when forwarding broke (phase `end`, after that output).
 */
function pumpHeld(c: Cluster, table: JobTable, j: JobData, held: Held, phase: Phase, out: OutputChunk[]): void {
  if (held.kind === 'watch') {
    // what it saw change is written after the command that changed it; a job read back from a
    // saved session has no watch in memory (its process ended with the shell that ran it)
    if (phase === 'accept') return;
    const live = held[LIVE];
    const r = live ? live.take(c) : { stdout: '', done: false };
    if (r.stdout !== '') emit(c, held, 'stdout', r.stdout, out);
    if (r.stderr) emit(c, held, 'stderr', r.stderr, out);
    if (r.done) table.end(j, r.status ?? 0);
    return;
  }
  const host = c.host(held.host);
  const socks: UserSocket[] = host ? userSockets(host).filter((s) => s.pid === j.pid) : [];
  const accepted = new Map<number, number>();
  for (const s of socks) accepted.set(s.port, (accepted.get(s.port) ?? 0) + (s.accepted ?? 0));
  const reported = (held.reported ??= {});
  for (const [port, n] of accepted) {
    for (let k = reported[port] ?? 0; k < n; k++) if (held.kind === 'port-forward') emit(c, held, 'stdout', `Handling connection for ${port}\n`, out);
    reported[port] = n;
  }
  if (held.kind !== 'port-forward' || phase === 'accept') return;
  const failed = socks.find((s) => s.refusedInPod && s.forward);
  if (failed?.forward) {
    const pod = c.store.get<Pod>('Pod', failed.forward.namespace, failed.forward.pod);
    emit(c, held, 'stderr', unhandledError(c.now(), j.pid, refusedInPod(c, pod, failed.port, failed.forward.port)), out);
  }
  if (failed || podGone(c, held)) {
    emit(c, held, 'stderr', 'error: lost connection to pod\n', out);
    table.end(j, 1);
  }
}

/** `accept`: connections the jobs took; `end`: jobs that ended (and what they printed as they did). */
export type Phase = 'accept' | 'end';

export function pumpJobs(c: Cluster, table: JobTable, phase: Phase): OutputChunk[] {
  const out: OutputChunk[] = [];
  const now = c.now();
  for (const j of table.running()) {
    // a stopped process reads nothing and ends nothing: it waits for SIGCONT (bg, fg)
    if (table.live.has(j) || j.stopped) continue;
    if (j.until && now >= j.until.at) {
      if (phase === 'end') table.end(j, j.until.status);
    } else if (j.holds) pumpHeld(c, table, j, j.holds, phase, out);
  }
  return out;
}
