/**
 * Pods: printers.go podColumnDefinitions (:96-110) and printPod (:892), reference §4.1.
 */
import type { Container, ContainerStatus, KObject, Pod } from '../../../sim/api/types.js';
import { parseTime } from '../../../util/clock.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, str } from './cells.js';
import type { KindPrinter } from './types.js';

function isRestartableInit(c: Container | undefined): boolean {
  return c?.['restartPolicy'] === 'Always';
}

interface PodCells {
  ready: string;
  status: string;
  restarts: string;
}

/** The READY, STATUS and RESTARTS cells (printPod). */
export function podStatusCells(pod: Pod, now: number): PodCells {
  const spec = pod.spec;
  const status = pod.status ?? {};
  let restarts = 0;
  let restartableInitRestarts = 0;
  let totalContainers = spec.containers.length;
  let readyContainers = 0;
  let lastRestart = Number.NaN;
  let lastRestartableInitRestart = Number.NaN;
  const later = (cur: number, ts: string | undefined): number => {
    const t = parseTime(ts);
    if (Number.isNaN(t)) return cur;
    return Number.isNaN(cur) || cur < t ? t : cur;
  };

  const phase = status.phase ?? '';
  let reason: string = phase;
  if (status.reason) reason = status.reason;
  for (const c of status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const initSpecs = new Map<string, Container>();
  for (const c of spec.initContainers ?? []) {
    initSpecs.set(c.name, c);
    if (isRestartableInit(c)) totalContainers++;
  }

  let initializing = false;
  const initStatuses: ContainerStatus[] = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    restarts += c.restartCount;
    const lastTerm = c.lastState?.terminated;
    if (lastTerm) lastRestart = later(lastRestart, lastTerm.finishedAt);
    const restartable = isRestartableInit(initSpecs.get(c.name));
    if (restartable) {
      restartableInitRestarts += c.restartCount;
      if (lastTerm) lastRestartableInitRestart = later(lastRestartableInitRestart, lastTerm.finishedAt);
    }
    const term = c.state?.terminated;
    const signal = (term as { signal?: number } | undefined)?.signal ?? 0;
    if (term && term.exitCode === 0) continue;
    if (restartable && c.started === true) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (term) {
      if (!term.reason) reason = signal !== 0 ? `Init:Signal:${signal}` : `Init:ExitCode:${term.exitCode}`;
      else reason = `Init:${term.reason}`;
    } else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    }
    initializing = true;
    break;
  }

  const initializedTrue = (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const cs = status.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i]!;
      restarts += c.restartCount;
      const lastTerm = c.lastState?.terminated;
      if (lastTerm) lastRestart = later(lastRestart, lastTerm.finishedAt);
      const term = c.state?.terminated;
      const signal = (term as { signal?: number } | undefined)?.signal ?? 0;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (term && term.reason) reason = term.reason;
      else if (term) reason = signal !== 0 ? `Signal:${signal}` : `ExitCode:${term.exitCode}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
      reason = ready ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  let restartsStr = String(restarts);
  if (restarts !== 0 && !Number.isNaN(lastRestart)) {
    restartsStr = `${restarts} (${translateTimestampSince(new Date(lastRestart).toISOString(), now)} ago)`;
  }
  return { ready: `${readyContainers}/${totalContainers}`, status: reason, restarts: restartsStr };
}

function readinessGates(pod: KObject): string {
  const gates = arr(pod, 'spec', 'readinessGates');
  if (gates.length === 0) return '<none>';
  const conds = arr(pod, 'status', 'conditions');
  let trueConds = 0;
  for (const g of gates) {
    const t = str(g, 'conditionType');
    const c = conds.find((x) => str(x, 'type') === t);
    if (c && str(c, 'status') === 'True') trueConds++;
  }
  return `${trueConds}/${gates.length}`;
}

export const pods: KindPrinter = {
  columns: [
    NAME,
    { name: 'Ready' },
    { name: 'Status' },
    { name: 'Restarts' },
    AGE,
    { name: 'IP', wide: true },
    { name: 'Node', wide: true },
    { name: 'Nominated Node', wide: true },
    { name: 'Readiness Gates', wide: true },
  ],
  row(obj, now) {
    const pod = obj as Pod;
    const { ready, status, restarts } = podStatusCells(pod, now);
    const ip = pod.status?.podIPs?.[0]?.ip || '<none>';
    return [
      pod.metadata.name,
      ready,
      status,
      restarts,
      translateTimestampSince(pod.metadata.creationTimestamp, now),
      ip,
      pod.spec.nodeName || '<none>',
      pod.status?.nominatedNodeName || '<none>',
      readinessGates(pod),
    ];
  },
};
