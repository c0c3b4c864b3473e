/** Pod: describe.go describePod (:783), describePodIPs, printController; reference §6.1. */
import type { Pod } from '../../../sim/api/types.js';
import { rfc1123z, translateTimestampSince } from '../duration.js';
import { arr, at, str } from '../columns/cells.js';
import { describeContainers, describeTopologySpreadConstraints, describeVolumes, podEnvResolver } from './containers.js';
import { maybeEvents } from './events.js';
import {
  LEVEL_0,
  LEVEL_1,
  controllerOf,
  printAnnotationsMultiline,
  printLabelsMultiline,
  printTolerationsMultiline,
  tabbedString,
  type DescribeContext,
} from './writer.js';

/** qos.GetPodQOS, used when status.qosClass is empty. */
export function podQOS(pod: Pod): string {
  if (pod.status?.qosClass) return pod.status.qosClass;
  const cs = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of cs) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length > 0 || Object.keys(lim).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      if (lim[r] === undefined) guaranteed = false;
      if (req[r] !== undefined && req[r] !== lim[r]) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export function describePod(pod: Pod, ctx: DescribeContext): string {
  return tabbedString((w) => {
    const st = pod.status ?? {};
    w.write(LEVEL_0, `Name:\t${pod.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${pod.metadata.namespace ?? ''}\n`);
    if (pod.spec.priority !== undefined) w.write(LEVEL_0, `Priority:\t${pod.spec.priority}\n`);
    if (pod.spec.priorityClassName) w.write(LEVEL_0, `Priority Class Name:\t${pod.spec.priorityClassName}\n`);
    const rc = pod.spec['runtimeClassName'];
    if (typeof rc === 'string' && rc !== '') w.write(LEVEL_0, `Runtime Class Name:\t${rc}\n`);
    if (pod.spec.serviceAccountName) w.write(LEVEL_0, `Service Account:\t${pod.spec.serviceAccountName}\n`);
    w.write(LEVEL_0, pod.spec.nodeName ? `Node:\t${pod.spec.nodeName}/${st.hostIP ?? ''}\n` : 'Node:\t<none>\n');
    if (st.startTime) w.write(LEVEL_0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
    printLabelsMultiline(w, 'Labels', pod.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', pod.metadata.annotations);
    if (pod.metadata.deletionTimestamp && st.phase !== 'Failed' && st.phase !== 'Succeeded') {
      w.write(LEVEL_0, `Status:\tTerminating (lasts ${translateTimestampSince(pod.metadata.deletionTimestamp, ctx.now)})\n`);
      w.write(LEVEL_0, `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 0}s\n`);
    } else w.write(LEVEL_0, `Status:\t${st.phase ?? ''}\n`);
    if (st.reason) w.write(LEVEL_0, `Reason:\t${st.reason}\n`);
    if (st.message) w.write(LEVEL_0, `Message:\t${st.message}\n`);
    // describe.go describePod (v1.35): the pod's seccomp profile before its IP (a static pod of
    // kubeadm's sets RuntimeDefault: recorded, testdata/recorded/pod-static-apiserver.txt)
    const seccomp = at(pod.spec, 'securityContext', 'seccompProfile');
    if (seccomp) {
      w.write(LEVEL_0, `SeccompProfile:\t${str(seccomp, 'type')}\n`);
      if (str(seccomp, 'type') === 'Localhost') w.write(LEVEL_0, `LocalhostProfile:\t${str(seccomp, 'localhostProfile')}\n`);
    }
    w.write(LEVEL_0, `IP:\t${st.podIP ?? ''}\n`);
    const ips = st.podIPs ?? [];
    if (ips.length === 0) w.write(LEVEL_0, 'IPs:\t<none>\n');
    else {
      w.write(LEVEL_0, 'IPs:\n');
      for (const ip of ips) w.write(LEVEL_1, `IP:\t${ip.ip}\n`);
    }
    const controlledBy = controllerOf(pod);
    if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
    if (st.nominatedNodeName) w.write(LEVEL_0, `NominatedNodeName:\t${st.nominatedNodeName}\n`);
    const resolve = podEnvResolver(pod);
    if ((pod.spec.initContainers ?? []).length > 0) describeContainers('Init Containers', pod.spec.initContainers!, st.initContainerStatuses, resolve, w, '');
    describeContainers('Containers', pod.spec.containers, st.containerStatuses, resolve, w, '');
    // describe.go describePod: ephemeral containers (kubectl debug) after the app containers
    if ((pod.spec.ephemeralContainers ?? []).length > 0) describeContainers('Ephemeral Containers', pod.spec.ephemeralContainers!, st.ephemeralContainerStatuses, resolve, w, '');
    const conds = st.conditions ?? [];
    // describe.go describePod: each readiness gate with its condition's status, <none> if unset
    const gates = arr(pod.spec, 'readinessGates');
    if (gates.length > 0) {
      w.write(LEVEL_0, 'Readiness Gates:\n  Type\tStatus\n');
      for (const g of gates) {
        const type = str(g, 'conditionType');
        w.write(LEVEL_1, `${type} \t${conds.find((c) => c.type === type)?.status ?? '<none>'} \n`);
      }
    }
    if (conds.length > 0) {
      w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\n');
      for (const c of conds) w.write(LEVEL_1, `${c.type} \t${c.status} \n`);
    }
    describeVolumes(pod.spec.volumes, w, '');
    w.write(LEVEL_0, `QoS Class:\t${podQOS(pod)}\n`);
    printLabelsMultiline(w, 'Node-Selectors', pod.spec.nodeSelector);
    printTolerationsMultiline(w, 'Tolerations', pod.spec.tolerations);
    describeTopologySpreadConstraints(arr(pod.spec, 'topologySpreadConstraints'), w, '');
    maybeEvents(ctx.events, w, ctx.now);
  });
}
