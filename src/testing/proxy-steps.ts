/**
 * Random sequences of Service and EndpointSlice edits for the proxiers' memo tests
 * (net/kube-proxy/sync-memo.test.ts, nftables-memo.test.ts): the kinds of change a partial sync
 * has to notice, from one seed.
 */
import type { EndpointSlice, Service, ServiceSpec } from '../sim/api/types.js';
import { Random } from '../util/random.js';
import { LARGE_CLUSTER_ENDPOINTS_THRESHOLD } from '../sim/net/kube-proxy/sync.js';

export const MEMO_NODES = [
  { name: 'memo-n1', ips: ['192.168.122.21'] },
  { name: 'memo-n2', ips: ['192.168.122.22'] },
];

export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** A Service `s<i>` with a spec drawn from `rng`: the kinds of change a partial sync has to notice. */
function service(rng: Random, i: number): Service {
  const ip = `10.96.${i >> 8}.${i & 255}`;
  const type = (['ClusterIP', 'ClusterIP', 'NodePort', 'LoadBalancer'] as const)[rng.int(4)] ?? 'ClusterIP';
  const spec: ServiceSpec = {
    type,
    clusterIP: ip,
    clusterIPs: [ip],
    ports: [{ name: 'http', port: 80 + rng.int(2), protocol: 'TCP', targetPort: 8080, ...(type !== 'ClusterIP' ? { nodePort: 30000 + i } : {}) }],
  };
  if (rng.int(3) === 0) spec.ports!.push({ name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 });
  if (type !== 'ClusterIP' && rng.int(2) === 0) spec.externalTrafficPolicy = 'Local';
  if (rng.int(5) === 0) spec.internalTrafficPolicy = 'Local';
  if (rng.int(5) === 0) spec.sessionAffinity = 'ClientIP';
  if (rng.int(6) === 0) spec.externalIPs = [`203.0.113.${i & 255}`];
  if (type === 'LoadBalancer' && rng.int(2) === 0) spec.loadBalancerSourceRanges = ['192.168.122.0/24'];
  const svc: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name: `s${i}`, namespace: 'memo', labels: { rev: String(rng.int(3)) } }, spec };
  if (type === 'LoadBalancer') svc.status = { loadBalancer: { ingress: [{ ip: `198.51.100.${i & 255}` }] } };
  return svc;
}

/** Service `s<i>`'s slice number `k` with `n` endpoints on random nodes, some not ready or terminating. */
function slice(rng: Random, i: number, k: number, n: number): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `s${i}-${k}`, namespace: 'memo', labels: { 'kubernetes.io/service-name': `s${i}` } },
    addressType: 'IPv4',
    endpoints: Array.from({ length: n }, (_, j) => {
      const r = rng.int(10);
      const ep: NonNullable<EndpointSlice['endpoints']>[number] = {
        addresses: [`10.244.${(i * 7 + j) & 255}.${(k * 50 + rng.int(4) + j * 4) & 255}`],
        conditions: { ready: r > 1, serving: r > 0, terminating: r <= 1 },
      };
      const node = MEMO_NODES[rng.int(3)]?.name;
      if (node !== undefined) ep.nodeName = node;
      return ep;
    }),
    ports: [
      { name: 'http', port: 8080, protocol: 'TCP' },
      { name: 'dns', port: 53, protocol: 'UDP' },
    ],
  };
}

/** The store's list order (namespace/name). */
function byName<T extends Service | EndpointSlice>(objs: Iterable<T>): T[] {
  return [...objs].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
}

export interface EditStep {
  services: Service[];
  slices: EndpointSlice[];
  /** Whether every node syncs fully (else partially, from its last good sync). */
  full: boolean;
  staleCleanupDue: boolean;
}

/**
 * `n` steps of random edits from one seed: endpoints moved, added, dropped or made unready; a
 * Service's spec or labels changed; Services and slices added and deleted; now and then a Service
 * with enough endpoints to switch large-cluster mode on or off.
 */
export function editSteps(seed: number, n: number): EditStep[] {
  const rng = new Random(seed);
  const services = new Map<number, Service>();
  const slices = new Map<string, EndpointSlice>();
  for (let i = 0; i < 24; i++) {
    services.set(i, service(rng, i));
    slices.set(`${i}/0`, slice(rng, i, 0, 1 + rng.int(4)));
  }
  let next = 24;
  const out: EditStep[] = [];
  for (let s = 0; s < n; s++) {
    const edits = 1 + (rng.int(4) === 0 ? rng.int(4) : 0);
    for (let e = 0; e < edits; e++) {
      const ids = [...services.keys()];
      const i = ids[rng.int(ids.length)] ?? 0;
      switch (rng.int(24)) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4:
        case 5:
        case 6:
        case 7:
        case 8:
        case 9:
          slices.set(`${i}/0`, slice(rng, i, 0, rng.int(5)));
          break;
        case 10:
        case 11:
        case 12:
        case 13:
        case 14:
        case 15:
          services.set(i, service(rng, i));
          break;
        case 16:
          services.set(i, { ...(services.get(i) as Service), metadata: { name: `s${i}`, namespace: 'memo', labels: { rev: String(rng.int(9)) } } });
          break;
        case 17:
        case 18:
          if (rng.int(2) === 0) slices.set(`${i}/1`, slice(rng, i, 1, 1 + rng.int(3)));
          else slices.delete(`${i}/1`);
          break;
        case 19:
        case 20:
          services.set(next, service(rng, next));
          if (rng.int(3) > 0) slices.set(`${next}/0`, slice(rng, next, 0, 1 + rng.int(3)));
          next++;
          break;
        case 21:
        case 22:
          services.delete(i);
          if (rng.int(2) === 0) for (const k of [0, 1]) slices.delete(`${i}/${k}`);
          break;
        default:
          // past the threshold (endpoints are counted per service port) and back
          if (slices.get(`${i}/9`)) slices.delete(`${i}/9`);
          else if (![...slices.keys()].some((k) => k.endsWith('/9'))) slices.set(`${i}/9`, slice(rng, i, 9, LARGE_CLUSTER_ENDPOINTS_THRESHOLD / 2 + 1));
      }
    }
    out.push({ services: byName(services.values()), slices: byName(slices.values()), full: s === 0 || rng.int(25) === 0, staleCleanupDue: rng.int(3) > 0 });
  }
  return out;
}

