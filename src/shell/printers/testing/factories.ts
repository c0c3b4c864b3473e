/**
 * Object factories for printer tests: realistic objects shaped as the API server returns them
 * (defaulted fields, server key order). Each takes overrides merged shallowly at the top level.
 */
import type {
  ConfigMap,
  Container,
  ContainerStatus,
  Deployment,
  EndpointSlice,
  Endpoints,
  KEvent,
  KObject,
  Namespace,
  Node,
  Pod,
  ReplicaSet,
  Secret,
  Service,
} from '../../../sim/api/types.js';

export const T0 = '2026-01-15T10:00:00Z';

export function container(name: string, image: string, extra: Partial<Container> = {}): Container {
  return {
    name,
    image,
    imagePullPolicy: 'IfNotPresent',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    ...extra,
  };
}

export function runningStatus(name: string, image: string, startedAt: string, extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return {
    name,
    image,
    imageID: `docker.io/library/${image}@sha256:0000`,
    containerID: `containerd://${name}0000`,
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt } },
    lastState: {},
    ...extra,
  };
}

export function pod(name: string, opts: { ns?: string; created?: string; node?: string; ip?: string; labels?: Record<string, string> } = {}): Pod {
  const created = opts.created ?? T0;
  const p: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: opts.ns ?? 'default',
      uid: `uid-${name}`,
      resourceVersion: '1000',
      creationTimestamp: created,
      ...(opts.labels ? { labels: opts.labels } : {}),
    },
    spec: {
      containers: [container('nginx', 'nginx:1.25')],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      ...(opts.node ? { nodeName: opts.node } : {}),
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: created },
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: created },
        { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: created },
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: created },
      ],
      ...(opts.ip ? { podIP: opts.ip, podIPs: [{ ip: opts.ip }] } : {}),
      containerStatuses: [runningStatus('nginx', 'nginx:1.25', created)],
      qosClass: 'BestEffort',
      startTime: created,
    },
  };
  return p;
}

export function service(
  name: string,
  ns: string,
  created: string,
  spec: Service['spec'],
  extra: { labels?: Record<string, string>; status?: Service['status'] } = {},
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, uid: `uid-${name}`, resourceVersion: '200', creationTimestamp: created, ...(extra.labels ? { labels: extra.labels } : {}) },
    spec: { sessionAffinity: 'None', type: 'ClusterIP', ...spec },
    status: extra.status ?? { loadBalancer: {} },
  };
}

export function endpoints(name: string, ns: string, created: string, subsets?: Endpoints['subsets']): Endpoints {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name, namespace: ns, creationTimestamp: created },
    ...(subsets ? { subsets } : {}),
  };
}

export function endpointSlice(name: string, ns: string, created: string, addrs: string[], ports: EndpointSlice['ports']): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, namespace: ns, creationTimestamp: created, labels: { 'kubernetes.io/service-name': name.replace(/-[a-z0-9]{5}$/, '') } },
    addressType: 'IPv4',
    endpoints: addrs.map((a) => ({ addresses: [a], conditions: { ready: true, serving: true, terminating: false } })),
    ports,
  };
}

export function node(name: string, ip: string, opts: { created?: string; controlPlane?: boolean; podCIDR?: string; ready?: boolean; unschedulable?: boolean } = {}): Node {
  const created = opts.created ?? T0;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      creationTimestamp: created,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        ...(opts.controlPlane ? { 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' } : {}),
      },
    },
    spec: {
      ...(opts.podCIDR ? { podCIDR: opts.podCIDR, podCIDRs: [opts.podCIDR] } : {}),
      ...(opts.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: name },
      ],
      conditions: [
        { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: created, lastTransitionTime: created, reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
        { type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastHeartbeatTime: created, lastTransitionTime: created, reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      capacity: { cpu: '2', 'ephemeral-storage': '20134592Ki', memory: '4015000Ki', pods: '110' },
      allocatable: { cpu: '2', 'ephemeral-storage': '18556039957', memory: '3912600Ki', pods: '110' },
      nodeInfo: {
        kubeletVersion: 'v1.35.0',
        kubeProxyVersion: '',
        osImage: 'Ubuntu 24.04.3 LTS',
        kernelVersion: '6.8.0-85-generic',
        containerRuntimeVersion: 'containerd://2.1.4',
        operatingSystem: 'linux',
        architecture: 'amd64',
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
      },
    },
  };
}

export function deployment(name: string, replicas: number, created: string = T0): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', creationTimestamp: created, generation: 1, labels: { app: name }, annotations: { 'deployment.kubernetes.io/revision': '1' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container('nginx', 'nginx:1.25')] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      minReadySeconds: 0,
    },
    status: { replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas },
  };
}

export function replicaSet(name: string, deploy: string, replicas: number, created: string = T0): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      creationTimestamp: created,
      labels: { app: deploy, 'pod-template-hash': name.slice(deploy.length + 1) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: deploy, uid: 'u', controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: deploy, 'pod-template-hash': name.slice(deploy.length + 1) } },
      template: { metadata: { labels: { app: deploy } }, spec: { containers: [container('nginx', 'nginx:1.25')] } },
    },
    status: { replicas, readyReplicas: replicas, availableReplicas: replicas },
  };
}

export function configMap(name: string, ns: string, data: Record<string, string>, created: string = T0): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', data, metadata: { name, namespace: ns, creationTimestamp: created } };
}

export function secret(name: string, ns: string, type: string, data: Record<string, string>, created: string = T0): Secret {
  return { apiVersion: 'v1', kind: 'Secret', data, metadata: { name, namespace: ns, creationTimestamp: created }, type };
}

export function namespace(name: string, created: string = T0): Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, creationTimestamp: created, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

export function event(name: string, involved: KEvent['involvedObject'], reason: string, message: string, opts: { type?: 'Normal' | 'Warning'; first: string; last?: string; count?: number; component: string; host?: string }): KEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: involved.namespace ?? 'default', creationTimestamp: opts.first },
    involvedObject: involved,
    reason,
    message,
    type: opts.type ?? 'Normal',
    source: { component: opts.component, ...(opts.host ? { host: opts.host } : {}) },
    count: opts.count ?? 1,
    firstTimestamp: opts.first,
    lastTimestamp: opts.last ?? opts.first,
    eventTime: null,
    reportingComponent: opts.component,
    reportingInstance: opts.host ?? '',
  };
}

/** A generic object of a kind the simulation has no interface for (PV, StorageClass, RBAC, CRDs). */
export function generic(apiVersion: string, kind: string, name: string, fields: Record<string, unknown>, meta: Partial<KObject['metadata']> = {}): KObject {
  return { apiVersion, kind, metadata: { name, creationTimestamp: T0, ...meta }, ...fields };
}
