/**
 * Containers and volumes as describe.go prints them for pods and pod templates:
 * describeContainers, describeContainerBasicInfo, describeContainerCommand, describeStatus,
 * describeResources, DescribeProbe, describeContainerEnvFrom/EnvVars, describeContainerVolumes,
 * describeVolumes, DescribePodTemplate.
 */
import type { Container, ContainerStateInfo, ContainerStatus, LabelSelector, Pod, PodTemplateSpec, Probe, Volume } from '../../../sim/api/types.js';
import { arr, at, formatLabelSelector, optNum, rec, str } from '../columns/cells.js';
import { rfc1123z } from '../duration.js';
import { quantityValue } from '../../../sim/runtime/quantity.js';
import { LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, printAnnotationsMultiline, printLabelsMultiline, printTolerationsMultiline, type PrefixWriter } from './writer.js';

const ZERO_TIME = 'Mon, 01 Jan 0001 00:00:00 +0000';
const fmtTime = (ts: string | undefined): string => (ts ? rfc1123z(ts) : ZERO_TIME);

/**
 * describe.go EnvValueRetriever (v1.35): the field path goes through kubectl's scheme's
 * ConvertFieldLabel, which has no conversions for Pod registered and falls back to
 * DefaultMetaV1FieldSelectorConversion: only metadata.name and metadata.namespace resolve, every
 * other path (status.podIP, spec.nodeName, metadata.uid, labels and annotations) prints empty
 * (recorded: testdata/recorded/pod-web.txt, pod-spread.txt, pods-shop.txt). An apiVersion that
 * does not parse as a group/version prints empty too.
 */
export type EnvResolver = (fieldPath: string, apiVersion: string) => string;

export function podEnvResolver(pod: Pod): EnvResolver {
  return (path, apiVersion) => {
    if (apiVersion.split('/').length > 2) return '';
    if (path === 'metadata.name') return pod.metadata.name;
    if (path === 'metadata.namespace') return pod.metadata.namespace ?? '';
    return '';
  };
}

function describeStatus(name: string, state: ContainerStateInfo | undefined, w: PrefixWriter): void {
  if (state?.running) {
    w.write(LEVEL_2, `${name}:\tRunning\n`);
    w.write(LEVEL_3, `Started:\t${fmtTime(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(LEVEL_2, `${name}:\tWaiting\n`);
    if (state.waiting.reason) w.write(LEVEL_3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(LEVEL_2, `${name}:\tTerminated\n`);
    if (t.reason) w.write(LEVEL_3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(LEVEL_3, `Message:\t${t.message}\n`);
    w.write(LEVEL_3, `Exit Code:\t${t.exitCode}\n`);
    const signal = (t as { signal?: number }).signal ?? 0;
    if (signal > 0) w.write(LEVEL_3, `Signal:\t${signal}\n`);
    w.write(LEVEL_3, `Started:\t${fmtTime(t.startedAt)}\n`);
    w.write(LEVEL_3, `Finished:\t${fmtTime(t.finishedAt)}\n`);
  } else w.write(LEVEL_2, `${name}:\tWaiting\n`);
}

/** DescribeProbe. */
export function describeProbe(p: Probe & { grpc?: { port: number; service?: string } }): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 0}s period=${p.periodSeconds ?? 0}s #success=${p.successThreshold ?? 0} #failure=${p.failureThreshold ?? 0}`;
  if (p.exec) return `exec [${p.exec.command.join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const g = p.httpGet;
    const port = String(g.port);
    const host = g.host ?? '';
    const hostPort = port.length > 0 ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : host;
    return `http-get ${(g.scheme ?? '').toLowerCase()}://${hostPort}${g.path ?? ''} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${(p.tcpSocket as { host?: string }).host ?? ''}:${String(p.tcpSocket.port)} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function describeResources(c: Container, w: PrefixWriter): void {
  const limits = c.resources?.limits ?? {};
  const requests = c.resources?.requests ?? {};
  if (Object.keys(limits).length > 0) w.write(LEVEL_2, 'Limits:\n');
  for (const k of Object.keys(limits).sort()) w.write(LEVEL_3, `${k}:\t${limits[k]}\n`);
  if (Object.keys(requests).length > 0) w.write(LEVEL_2, 'Requests:\n');
  for (const k of Object.keys(requests).sort()) w.write(LEVEL_3, `${k}:\t${requests[k]}\n`);
}

/**
 * k8s.io/kubectl pkg/util/resource ExtractContainerResourceValue (v1.35) for describe's
 * resourceFieldRef: this container's limit or request (an unset one is 0) divided by the divisor
 * (an unset or zero divisor is 1), rounded up, as an integer: cpu in millicores over the divisor's,
 * memory, ephemeral-storage and hugepages-* in bytes. `limits.memory` of 128Mi prints 134217728.
 * An unsupported resource is an error, printed as "".
 */
function resourceFieldValue(c: Container, resource: string, divisor: string | number | undefined): string {
  const dot = resource.indexOf('.');
  const kind = resource.slice(0, dot);
  const name = resource.slice(dot + 1);
  if (dot < 0 || (kind !== 'limits' && kind !== 'requests')) return '';
  if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !name.startsWith('hugepages-')) return '';
  const set = rec(c.resources, kind)[name] as string | number | undefined;
  const value = quantityValue(set ?? '0') ?? 0;
  const div = quantityValue(divisor ?? '0') || 1;
  // resource.Quantity MilliValue/Value round up to an integer
  const milli = (q: number): number => Math.ceil(q * 1000 - 1e-9);
  const whole = (q: number): number => Math.ceil(q - 1e-9);
  return String(name === 'cpu' ? Math.ceil(milli(value) / milli(div)) : Math.ceil(whole(value) / whole(div)));
}

function describeEnv(c: Container, resolve: EnvResolver | undefined, w: PrefixWriter): void {
  const envFrom = arr(c, 'envFrom');
  if (envFrom.length > 0) {
    w.write(LEVEL_2, 'Environment Variables from:\n');
    for (const e of envFrom) {
      const cm = at(e, 'configMapRef');
      const ref = cm ?? at(e, 'secretRef');
      const from = cm ? 'ConfigMap' : at(e, 'secretRef') ? 'Secret' : '';
      const optional = at(ref, 'optional') === true;
      const prefix = str(e, 'prefix');
      if (prefix === '') w.write(LEVEL_3, `${str(ref, 'name')}\t${from}\tOptional: ${optional}\n`);
      else w.write(LEVEL_3, `${str(ref, 'name')}\t${from} with prefix '${prefix}'\tOptional: ${optional}\n`);
    }
  }
  const env = c.env ?? [];
  w.write(LEVEL_2, `Environment:${env.length === 0 ? '\t<none>' : ''}\n`);
  for (const e of env) {
    if (!e.valueFrom) {
      (e.value ?? '').split('\n').forEach((s, i) => w.write(LEVEL_3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
      continue;
    }
    const vf = e.valueFrom;
    if (vf['fieldRef']) {
      const path = str(vf, 'fieldRef', 'fieldPath');
      const apiVersion = str(vf, 'fieldRef', 'apiVersion');
      w.write(LEVEL_3, `${e.name}:\t${resolve ? resolve(path, apiVersion) : ''} (${apiVersion}:${path})\n`);
    } else if (vf['resourceFieldRef']) {
      const resource = str(vf, 'resourceFieldRef', 'resource');
      let value = resourceFieldValue(c, resource, at(vf, 'resourceFieldRef', 'divisor') as string | number | undefined);
      if (value === '0' && (resource === 'limits.cpu' || resource === 'limits.memory')) value = 'node allocatable';
      w.write(LEVEL_3, `${e.name}:\t${value} (${resource})\n`);
    } else if (vf['secretKeyRef']) {
      w.write(LEVEL_3, `${e.name}:\t<set to the key '${str(vf, 'secretKeyRef', 'key')}' in secret '${str(vf, 'secretKeyRef', 'name')}'>\tOptional: ${at(vf, 'secretKeyRef', 'optional') === true}\n`);
    } else if (vf['configMapKeyRef']) {
      w.write(LEVEL_3, `${e.name}:\t<set to the key '${str(vf, 'configMapKeyRef', 'key')}' of config map '${str(vf, 'configMapKeyRef', 'name')}'>\tOptional: ${at(vf, 'configMapKeyRef', 'optional') === true}\n`);
    }
  }
}

function describeMounts(c: Container, w: PrefixWriter): void {
  const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0));
  w.write(LEVEL_2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
  for (const m of mounts) {
    const flags = [m.readOnly ? 'ro' : 'rw'];
    if (m.subPath) flags.push(`path=${JSON.stringify(m.subPath)}`);
    w.write(LEVEL_3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
  }
}

export function describeContainers(
  label: string,
  containers: readonly Container[],
  statuses: readonly ContainerStatus[] | undefined,
  resolve: EnvResolver | undefined,
  w: PrefixWriter,
  space: string,
): void {
  const byName = new Map((statuses ?? []).map((s) => [s.name, s]));
  w.write(LEVEL_0, `${space}${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  for (const c of containers) {
    const status = byName.get(c.name);
    w.write(LEVEL_1, `${space.length > 0 ? ' ' : ''}${c.name}:\n`);
    if (status) w.write(LEVEL_2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(LEVEL_2, `Image:\t${c.image}\n`);
    if (status) w.write(LEVEL_2, `Image ID:\t${status.imageID}\n`);
    const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`).join(', ');
    w.write(LEVEL_2, ports.includes(',') ? `Ports:\t${ports}\n` : `Port:\t${ports || '<none>'}\n`);
    // describeContainerHostPorts names each port too, as describeContainerPorts does
    const hostPorts = (c.ports ?? []).map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`).join(', ');
    w.write(LEVEL_2, hostPorts.includes(',') ? `Host Ports:\t${hostPorts}\n` : `Host Port:\t${hostPorts || '<none>'}\n`);
    // describeContainerBasicInfo: the container's own seccomp profile after its ports
    const seccomp = at(c, 'securityContext', 'seccompProfile');
    if (seccomp) {
      w.write(LEVEL_2, `SeccompProfile:\t${str(seccomp, 'type')}\n`);
      if (str(seccomp, 'type') === 'Localhost') w.write(LEVEL_3, `LocalhostProfile:\t${str(seccomp, 'localhostProfile')}\n`);
    }
    for (const [title, list] of [
      ['Command', c.command],
      ['Args', c.args],
    ] as const) {
      if (list && list.length > 0) {
        w.write(LEVEL_2, `${title}:\n`);
        for (const item of list) for (const s of item.split('\n')) w.write(LEVEL_3, `${s}\n`);
      }
    }
    if (status) {
      describeStatus('State', status.state, w);
      if (status.lastState?.terminated) describeStatus('Last State', status.lastState, w);
      w.write(LEVEL_2, `Ready:\t${status.ready ? 'True' : 'False'}\n`);
      w.write(LEVEL_2, `Restart Count:\t${status.restartCount}\n`);
    }
    describeResources(c, w);
    if (c.livenessProbe) w.write(LEVEL_2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(LEVEL_2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(LEVEL_2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    describeEnv(c, resolve, w);
    describeMounts(c, w);
  }
}

function describeVolume(v: Volume, w: PrefixWriter): void {
  if (v.hostPath) {
    w.write(LEVEL_2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type ?? '<none>'}\n`);
  } else if (v.emptyDir) {
    const size = str(v.emptyDir, 'sizeLimit');
    w.write(LEVEL_2, `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${str(v.emptyDir, 'medium')}\n    SizeLimit:\t${size && size !== '0' ? size : '<unset>'}\n`);
  } else if (v.secret) {
    w.write(LEVEL_2, `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName}\n    Optional:\t${at(v.secret, 'optional') === true}\n`);
  } else if (v.configMap) {
    w.write(LEVEL_2, `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name}\n    Optional:\t${at(v.configMap, 'optional') === true}\n`);
  } else if (v.persistentVolumeClaim) {
    w.write(LEVEL_2, `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${v.persistentVolumeClaim.claimName}\n    ReadOnly:\t${at(v.persistentVolumeClaim, 'readOnly') === true}\n`);
  } else if (v.projected) {
    w.write(LEVEL_2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
    for (const s of arr(v.projected, 'sources')) {
      if (at(s, 'secret')) w.write(LEVEL_2, `SecretName:\t${str(s, 'secret', 'name')}\n    Optional:\t${at(s, 'secret', 'optional') === true}\n`);
      else if (at(s, 'downwardAPI')) w.write(LEVEL_2, 'DownwardAPI:\ttrue\n');
      else if (at(s, 'configMap')) w.write(LEVEL_2, `ConfigMapName:\t${str(s, 'configMap', 'name')}\n    Optional:\t${at(s, 'configMap', 'optional') === true}\n`);
      else if (at(s, 'serviceAccountToken')) w.write(LEVEL_2, `TokenExpirationSeconds:\t${optNum(s, 'serviceAccountToken', 'expirationSeconds') ?? 0}\n`);
    }
  } else if (v.downwardAPI) {
    // printDownwardAPIVolumeSource: each item's field or resource and its path
    w.write(LEVEL_2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
    for (const item of arr(v.downwardAPI, 'items')) {
      if (at(item, 'fieldRef')) w.write(LEVEL_3, `${str(item, 'fieldRef', 'fieldPath')} -> ${str(item, 'path')}\n`);
      if (at(item, 'resourceFieldRef')) w.write(LEVEL_3, `${str(item, 'resourceFieldRef', 'resource')} -> ${str(item, 'path')}\n`);
    }
  } else if (at(v, 'nfs')) {
    w.write(LEVEL_2, `Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t${str(v, 'nfs', 'server')}\n    Path:\t${str(v, 'nfs', 'path')}\n    ReadOnly:\t${at(v, 'nfs', 'readOnly') === true}\n`);
  } else if (at(v, 'csi')) {
    // printCSIVolumeSource and printCSIPersistentVolumeAttributesMultiline
    w.write(LEVEL_2, `Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t${str(v, 'csi', 'driver')}\n    FSType:\t${str(v, 'csi', 'fsType')}\n    ReadOnly:\t${at(v, 'csi', 'readOnly') === true}\n`);
    const attrs = rec(v, 'csi', 'volumeAttributes');
    const keys = Object.keys(attrs).sort();
    w.write(LEVEL_2, 'VolumeAttributes:\t');
    if (keys.length === 0) w.writeLine('<none>');
    keys.forEach((k, i) => {
      if (i !== 0) w.write(LEVEL_2, '\t');
      const line = `${k}=${String(attrs[k])}`;
      w.write(LEVEL_2, line.length > 140 ? `${line.slice(0, 140)}...\n` : `${line}\n`);
    });
  } else if (at(v, 'image')) {
    w.write(LEVEL_2, `Type:\tImage (a container image or OCI artifact)\n    Reference:\t${str(v, 'image', 'reference')}\n    PullPolicy:\t${str(v, 'image', 'pullPolicy')}\n`);
  } else w.write(LEVEL_1, '<unknown>\n');
}

/**
 * describeTopologySpreadConstraints: sorted by topology key, one per line under the title, each
 * `key:WhenUnsatisfiable when max skew N is exceeded[ for selector S]`.
 */
export function describeTopologySpreadConstraints(tscs: readonly unknown[] | undefined, w: PrefixWriter, space: string): void {
  const list = [...(tscs ?? [])].sort((a, b) => (str(a, 'topologyKey') < str(b, 'topologyKey') ? -1 : str(a, 'topologyKey') > str(b, 'topologyKey') ? 1 : 0));
  if (list.length === 0) return;
  w.write(LEVEL_0, `${space}Topology Spread Constraints:\t`);
  list.forEach((t, i) => {
    if (i !== 0) w.write(LEVEL_0, `${space}\t`);
    const sel = at(t, 'labelSelector');
    const selText = sel && typeof sel === 'object' ? ` for selector ${formatLabelSelector(sel as LabelSelector)}` : '';
    w.write(LEVEL_0, `${str(t, 'topologyKey')}:${str(t, 'whenUnsatisfiable')} when max skew ${String(at(t, 'maxSkew') ?? 0)} is exceeded${selText}\n`);
  });
}

export function describeVolumes(volumes: readonly Volume[] | undefined, w: PrefixWriter, space: string): void {
  const vs = volumes ?? [];
  if (vs.length === 0) {
    w.write(LEVEL_0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(LEVEL_0, `${space}Volumes:\n`);
  for (const v of vs) {
    w.write(LEVEL_1, `${space.length > 0 ? ' ' : ''}${v.name}:\n`);
    describeVolume(v, w);
  }
}

/** DescribePodTemplate (Deployment, ReplicaSet, DaemonSet, ...). */
export function describePodTemplate(t: PodTemplateSpec, w: PrefixWriter): void {
  w.write(LEVEL_0, 'Pod Template:\n');
  printLabelsMultiline(w, '  Labels', t.metadata?.labels);
  if (Object.keys(t.metadata?.annotations ?? {}).length > 0) printAnnotationsMultiline(w, '  Annotations', t.metadata?.annotations);
  if (t.spec.serviceAccountName) w.write(LEVEL_1, `Service Account:\t${t.spec.serviceAccountName}\n`);
  if ((t.spec.initContainers ?? []).length > 0) describeContainers('Init Containers', t.spec.initContainers!, undefined, undefined, w, '  ');
  describeContainers('Containers', t.spec.containers, undefined, undefined, w, '  ');
  describeVolumes(t.spec.volumes, w, '  ');
  describeTopologySpreadConstraints(arr(t.spec, 'topologySpreadConstraints'), w, '  ');
  if (t.spec.priorityClassName) w.write(LEVEL_1, `Priority Class Name:\t${t.spec.priorityClassName}\n`);
  printLabelsMultiline(w, '  Node-Selectors', t.spec.nodeSelector);
  printTolerationsMultiline(w, '  Tolerations', t.spec.tolerations);
}
