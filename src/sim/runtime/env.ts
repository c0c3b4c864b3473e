/**
 * A container's environment as the kubelet builds it (pkg/kubelet/kubelet_pods.go
 * makeEnvironmentVariables, pkg/kubelet/envvars/envvars.go FromServices) and containerd sets it
 * (cri generateContainerSpec: PATH, HOSTNAME, the image's variables, then the kubelet's):
 * `envFrom` (ConfigMaps and Secrets, with a prefix), `env` (values with `$(VAR)` references,
 * configMapKeyRef, secretKeyRef, fieldRef, resourceFieldRef), then the service variables for the
 * `kubernetes` service in default and, when enableServiceLinks (the default), every service of
 * the pod's namespace that has a cluster IP. A missing ConfigMap, Secret or key that is not
 * optional is the error the kubelet reports as CreateContainerConfigError.
 *
 * The kubelet builds the list from Go maps, so a real container's order varies; this one is
 * fixed: envFrom and env in the order declared, then the services sorted by name.
 */
import type { Cluster } from '../cluster.js';
import type { ConfigMap, Container, Node, Pod, Secret, Service } from '../api/types.js';
import { quantityValue } from './quantity.js';

export type EnvResult = { vars: [string, string][] } | { error: string };

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** envvars.go makeEnvVariableName: `my-svc` → `MY_SVC`. */
function envName(s: string): string {
  return s.replace(/-/g, '_').toUpperCase();
}

/**
 * serviceEnv's answers by Service object: a stored Service is frozen and shared by every copy of
 * the state, and its variables are a function of it alone; every container start built them again
 * for each Service of its namespace. The lists and their pairs are frozen (a container's
 * environment copies them into its own list; startRun freezes the pairs anyway).
 */
const SERVICE_ENV = new WeakMap<Service, readonly (readonly [string, string])[]>();

let serviceEnvBuilds = 0;

/** How many Services' variables have been built rather than found in SERVICE_ENV (tests). */
export function serviceEnvVariableBuilds(): number {
  return serviceEnvBuilds;
}

/** envvars.go FromServices and makeLinkVariables for one service. */
export function serviceEnv(svc: Service): readonly (readonly [string, string])[] {
  const had = SERVICE_ENV.get(svc);
  if (had) return had;
  serviceEnvBuilds++;
  const out = serviceEnvOf(svc);
  for (const pair of out) Object.freeze(pair);
  Object.freeze(out);
  if (Object.isFrozen(svc)) SERVICE_ENV.set(svc, out);
  return out;
}

function serviceEnvOf(svc: Service): [string, string][] {
  const ip = svc.spec.clusterIP;
  const ports = svc.spec.ports ?? [];
  if (!ip || ip === 'None' || ports.length === 0) return [];
  const prefix = envName(svc.metadata.name);
  const out: [string, string][] = [[`${prefix}_SERVICE_HOST`, ip]];
  out.push([`${prefix}_SERVICE_PORT`, String(ports[0]!.port)]);
  for (const p of ports) if (p.name) out.push([`${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port)]);
  const hostPort = (port: number): string => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);
  ports.forEach((p, i) => {
    const proto = p.protocol ?? 'TCP';
    const lower = proto.toLowerCase();
    if (i === 0) out.push([`${prefix}_PORT`, `${lower}://${hostPort(p.port)}`]);
    const pp = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
    out.push([pp, `${lower}://${hostPort(p.port)}`], [`${pp}_PROTO`, lower], [`${pp}_PORT`, String(p.port)], [`${pp}_ADDR`, ip]);
  });
  return out;
}

/** kubelet getServiceEnvVarMap: the master service always, the namespace's services with enableServiceLinks. */
function servicesEnv(c: Cluster, pod: Pod): (readonly [string, string])[] {
  const ns = pod.metadata.namespace ?? 'default';
  const links = pod.spec.enableServiceLinks !== false;
  const chosen = new Map<string, Service>();
  for (const svc of c.store.list<Service>('Service')) {
    const ip = svc.spec.clusterIP;
    if (!ip || ip === 'None') continue;
    if (svc.metadata.namespace === 'default' && svc.metadata.name === 'kubernetes') {
      if (!chosen.has(svc.metadata.name)) chosen.set(svc.metadata.name, svc);
    } else if (svc.metadata.namespace === ns && links) chosen.set(svc.metadata.name, svc);
  }
  return [...chosen.keys()].sort().flatMap((k) => serviceEnv(chosen.get(k)!));
}

/**
 * third_party/forked/golang/expansion: `$(VAR)` becomes VAR's value when it is defined earlier
 * (or a service variable), `$$` is a literal `$`, anything else stays as written.
 */
export function expandEnvRefs(s: string, lookup: (name: string) => string | undefined): string {
  return s.replace(/\$\$|\$\(([^)]*)\)/g, (all, name: string | undefined) => {
    if (all === '$$') return '$';
    const v = lookup(name ?? '');
    return v === undefined ? all : v;
  });
}

function decode(b64: string): string {
  return Buffer.from(b64, 'base64').toString('utf8');
}

/** A Secret's values, decoded. */
export function secretData(s: Secret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.data ?? {})) out[k] = decode(v);
  for (const [k, v] of Object.entries(s.stringData ?? {})) out[k] = v;
  return out;
}

/** A ConfigMap's values (binaryData decoded). */
export function configMapData(cm: ConfigMap): Record<string, string> {
  const out: Record<string, string> = { ...(cm.data ?? {}) };
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) out[k] = decode(v);
  return out;
}

/** pkg/api/v1/pod podFieldSelectorRuntimeValue / fieldpath.ExtractFieldPathAsString. */
export function podFieldValue(pod: Pod, path: string): string | undefined {
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations)?.[m[2]!] ?? '';
  switch (path) {
    case 'metadata.name':
      return pod.metadata.name;
    case 'metadata.namespace':
      return pod.metadata.namespace ?? 'default';
    case 'metadata.uid':
      return pod.metadata.uid ?? '';
    case 'metadata.labels':
      return formatMap(pod.metadata.labels);
    case 'metadata.annotations':
      return formatMap(pod.metadata.annotations);
    case 'spec.nodeName':
      return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec.serviceAccountName ?? 'default';
    case 'status.hostIP':
      return pod.status?.hostIP ?? '';
    case 'status.hostIPs':
      return (pod.status?.hostIPs ?? []).map((x) => x.ip).join(',');
    case 'status.podIP':
      return pod.status?.podIP ?? '';
    case 'status.podIPs':
      return (pod.status?.podIPs ?? []).map((x) => x.ip).join(',');
  }
  return undefined;
}

/** fieldpath.FormatMap: `key="value"` lines sorted by key, no final newline. */
function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(m![k])}`)
    .join('\n');
}

/**
 * pkg/api/v1/resource ExtractContainerResourceValue: the limit (or request) divided by the
 * divisor, rounded up; an unset limit is the node's allocatable (MergeContainerResourceLimits).
 */
export function resourceFieldValue(c: Cluster, pod: Pod, ct: Container, ref: { resource?: string; divisor?: string | number; containerName?: string }): string | { error: string } {
  const target = ref.containerName ? [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((x) => x.name === ref.containerName) : ct;
  if (!target) return { error: `container ${ref.containerName} not found` };
  const res = ref.resource ?? '';
  const [kind, name] = res.split('.', 2) as [string, string];
  const node = pod.spec.nodeName ? c.store.get<Node>('Node', undefined, pod.spec.nodeName) : undefined;
  const alloc = node?.status?.allocatable?.[name];
  const set = kind === 'limits' ? target.resources?.limits?.[name] : target.resources?.requests?.[name];
  const fallback = kind === 'limits' ? alloc : name === 'cpu' ? '0' : undefined;
  const value = quantityValue(set ?? (kind === 'requests' && name === 'memory' ? '0' : fallback));
  if (value === undefined || !['cpu', 'memory', 'ephemeral-storage'].includes(name)) return { error: `unsupported container resource : ${res}` };
  const divisor = quantityValue(ref.divisor ?? (name === 'cpu' ? '1' : '1')) || 1;
  return String(Math.ceil(value / divisor - 1e-9));
}

/** The variables of a container, or the CreateContainerConfigError message. */
export function containerEnv(c: Cluster, pod: Pod, ct: Container, hostname: string): EnvResult {
  const ns = pod.metadata.namespace ?? 'default';
  const tmp = new Map<string, string>();
  const svc = new Map(servicesEnv(c, pod));
  const lookup = (name: string): string | undefined => tmp.get(name) ?? svc.get(name);
  const cm = (name: string): ConfigMap | undefined => c.store.get<ConfigMap>('ConfigMap', ns, name);
  const sec = (name: string): Secret | undefined => c.store.get<Secret>('Secret', ns, name);
  for (const src of (ct['envFrom'] ?? []) as { prefix?: string; configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string; optional?: boolean } }[]) {
    const prefix = src.prefix ?? '';
    if (src.configMapRef) {
      const obj = cm(src.configMapRef.name);
      if (!obj) {
        if (src.configMapRef.optional) continue;
        return { error: `configmap "${src.configMapRef.name}" not found` };
      }
      for (const [k, v] of Object.entries(obj.data ?? {})) tmp.set(prefix + k, v);
    } else if (src.secretRef) {
      const obj = sec(src.secretRef.name);
      if (!obj) {
        if (src.secretRef.optional) continue;
        return { error: `secret "${src.secretRef.name}" not found` };
      }
      for (const [k, v] of Object.entries(secretData(obj))) tmp.set(prefix + k, v);
    }
  }
  for (const e of ct.env ?? []) {
    const from = e.valueFrom as
      | {
          configMapKeyRef?: { name: string; key: string; optional?: boolean };
          secretKeyRef?: { name: string; key: string; optional?: boolean };
          fieldRef?: { fieldPath: string };
          resourceFieldRef?: { resource?: string; divisor?: string; containerName?: string };
        }
      | undefined;
    if (!from) {
      tmp.set(e.name, expandEnvRefs(e.value ?? '', lookup));
      continue;
    }
    if (from.configMapKeyRef) {
      const ref = from.configMapKeyRef;
      const obj = cm(ref.name);
      if (!obj) {
        if (ref.optional) continue;
        return { error: `configmap "${ref.name}" not found` };
      }
      const v = configMapData(obj)[ref.key];
      if (v === undefined) {
        if (ref.optional) continue;
        return { error: `couldn't find key ${ref.key} in ConfigMap ${ns}/${ref.name}` };
      }
      tmp.set(e.name, v);
    } else if (from.secretKeyRef) {
      const ref = from.secretKeyRef;
      const obj = sec(ref.name);
      if (!obj) {
        if (ref.optional) continue;
        return { error: `secret "${ref.name}" not found` };
      }
      const v = secretData(obj)[ref.key];
      if (v === undefined) {
        if (ref.optional) continue;
        return { error: `couldn't find key ${ref.key} in Secret ${ns}/${ref.name}` };
      }
      tmp.set(e.name, v);
    } else if (from.fieldRef) {
      tmp.set(e.name, podFieldValue(pod, from.fieldRef.fieldPath) ?? '');
    } else if (from.resourceFieldRef) {
      const v = resourceFieldValue(c, pod, ct, from.resourceFieldRef);
      if (typeof v !== 'string') return v;
      tmp.set(e.name, v);
    }
  }
  const vars: [string, string][] = [
    ['PATH', PATH],
    ['HOSTNAME', hostname],
  ];
  for (const [k, v] of tmp) vars.push([k, v]);
  for (const [k, v] of svc) if (!tmp.has(k)) vars.push([k, v]);
  // runc sets HOME from the user's passwd entry when the spec does not
  if (!tmp.has('HOME')) vars.push(['HOME', '/root']);
  // a variable named twice keeps its first place and its last value (oci WithEnv replaces in place)
  const merged = new Map<string, string>();
  for (const [k, v] of vars) merged.set(k, v);
  return { vars: [...merged] };
}
