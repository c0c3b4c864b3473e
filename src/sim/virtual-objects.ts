/**
 * Objects the control plane keeps up to date continuously, served as derived views of the
 * cluster instead of being written to the store on every tick:
 *  - the default ServiceCIDR `kubernetes` (networking.k8s.io/v1), which the API server keeps from
 *    its --service-cluster-ip-range flag (pkg/controlplane/controller/defaultservicecidr);
 *  - each node's Lease in kube-node-lease, which its kubelet renews every 10 s while it runs
 *    (pkg/kubelet/nodelease, leaseDurationSeconds 40);
 *  - each node's CSINode (storage.k8s.io/v1), which its kubelet creates at start with the in-tree
 *    plugins it migrates to CSI and no drivers until a CSI node plugin registers
 *    (pkg/volume/csi/nodeinfomanager InitializeCSINodeWithAnnotation; owned by the Node).
 *  - one IPAddress (networking.k8s.io/v1, GA in 1.33) per ClusterIP of each Service, which the
 *    API server's allocator creates when it allocates the address and releases with the Service
 *    (pkg/registry/core/service/ipallocator/ipallocator.go createIPAddress: named by the address,
 *    labelled with its family and `managed-by: ipallocator.k8s.io`, parentRef the Service);
 *  - the ComponentStatuses (v1, deprecated), which the API server computes on each request by
 *    probing the scheduler's and controller-manager's /healthz on 127.0.0.1 and its etcd
 *    (pkg/registry/core/componentstatus rest.go and validator.go).
 * Deriving them keeps an idle cluster's store still and the renew time always current.
 */
import type { Cluster } from './cluster.js';
import type { KObject, Node, Service } from './api/types.js';
import { fnv32a } from '../util/fnv.js';
import { ipFamilyOf } from '../util/ip.js';
import { rfc3339 } from '../util/clock.js';
import { ipRepairEntry } from './controllers/ipallocator-repair.js';
import { kubeletRunning, kubeletStoppedAt, serviceCIDR } from './controlplane.js';
import { NODE_STATUS_UPDATE_MS, PLEG_RELIST_THRESHOLD_MS, RUNTIME_DOWN_MESSAGE, outageMessage, runtimeOutage, tickAtOrBefore } from './node/runtime-health.js';

const RENEW_MS = 10_000;

function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function defaultServiceCIDR(c: Cluster): KObject {
  const created = c.store.get('Service', 'default', 'kubernetes')?.metadata.creationTimestamp ?? c.timestamp();
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'ServiceCIDR',
    metadata: { name: 'kubernetes', uid: 'a1b2c3d4-0000-4000-8000-5e7c1d700001', resourceVersion: '1', creationTimestamp: created },
    spec: { cidrs: serviceCIDR(c).split(',') },
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: created, reason: '', message: 'Kubernetes Service CIDR is ready' }] },
  };
}

function nodeLease(c: Cluster, node: Node): KObject {
  const host = c.host(node.metadata.name);
  const created = Date.parse(node.metadata.creationTimestamp ?? c.timestamp());
  const last = host && kubeletRunning(host) ? c.now() : host ? kubeletStoppedAt(host, c.now()) : created;
  const renew = created + Math.floor(Math.max(0, last - created) / RENEW_MS) * RENEW_MS;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: node.metadata.name,
      namespace: 'kube-node-lease',
      uid: `${(node.metadata.uid ?? '').slice(0, 24)}1ea5e0000000`.slice(0, 36),
      resourceVersion: String(1 + Math.floor((renew - created) / RENEW_MS)),
      creationTimestamp: node.metadata.creationTimestamp ?? c.timestamp(),
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.metadata.name, uid: node.metadata.uid ?? '' }],
    },
    spec: { holderIdentity: node.metadata.name, leaseDurationSeconds: 40, renewTime: microTime(renew) },
  };
}

/**
 * nodeStatusReportFrequency's default (kubelet config v1beta1 defaults.go): with nothing changed,
 * a running kubelet still posts its node status this often (kubelet_node_status.go
 * tryUpdateNodeStatus), and each post renews every condition's lastHeartbeatTime
 * (nodestatus/setters.go).
 */
const REPORT_MS = 5 * 60_000;

/** The kubelet's last periodic status post up to `until`, counted from a post at `stored`. */
export function lastStatusPost(stored: number, until: number): number {
  return stored + Math.floor(Math.max(0, until - stored) / REPORT_MS) * REPORT_MS;
}

/**
 * A Node as the API server serves it: the conditions' heartbeat is the kubelet's latest periodic
 * post since the last stored one (until its kubelet stopped). Derived here rather than written
 * every five minutes, which would wake every Node watcher for a change nothing reads. While
 * containerd is down, three minutes after the last PLEG relist the Ready message names the PLEG
 * too and changes at every 10 s status sync, so the kubelet posts at each: the message and the
 * heartbeats are those of the latest sync.
 */
export function nodeView<T extends KObject>(c: Cluster, node: T): T {
  if (node.kind !== 'Node') return node;
  const conds = (node as unknown as Node).status?.conditions;
  const ready = conds?.find((x) => x.type === 'Ready');
  const host = c.host(node.metadata.name);
  const stored = Date.parse(ready?.lastHeartbeatTime ?? '');
  if (!conds || !host || !ready || ready.status === 'Unknown' || !Number.isFinite(stored)) return node;
  const running = kubeletRunning(host);
  let posted = lastStatusPost(stored, running ? c.now() : kubeletStoppedAt(host, c.now()));
  const outage = running && ready.status === 'False' && ready.message === RUNTIME_DOWN_MESSAGE ? runtimeOutage(host) : undefined;
  if (outage && c.now() > outage.lastRelist + PLEG_RELIST_THRESHOLD_MS) {
    const sync = tickAtOrBefore(host.data.units['kubelet']?.since ?? 0, NODE_STATUS_UPDATE_MS, c.now());
    const message = outageMessage(outage, sync);
    if (message !== ready.message) {
      ready.message = message;
      posted = Math.max(posted, sync);
    }
  }
  if (posted === stored) return node;
  const ts = new Date(posted).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const heartbeat = ready.lastHeartbeatTime;
  for (const x of conds) if (x.lastHeartbeatTime === heartbeat) x.lastHeartbeatTime = ts;
  return node;
}

/**
 * The in-tree volume plugins a kubelet reports as completely migrated to CSI
 * (nodeinfomanager.go setMigrationAnnotation with csimigration IsMigrationCompleteForPlugin: the
 * removed in-tree plugins; Portworx's needs the alpha InTreePluginPortworxUnregister gate), as
 * recorded in `kubectl get csinode -o yaml` of recent kubeadm clusters.
 */
const MIGRATED_PLUGINS = 'kubernetes.io/aws-ebs,kubernetes.io/azure-disk,kubernetes.io/azure-file,kubernetes.io/cinder,kubernetes.io/gce-pd,kubernetes.io/vsphere-volume';

function csiNode(node: Node): KObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: {
      name: node.metadata.name,
      uid: `${(node.metadata.uid ?? '').slice(0, 24)}c510de000000`.slice(0, 36),
      resourceVersion: '1',
      creationTimestamp: node.metadata.creationTimestamp ?? '',
      annotations: { 'storage.alpha.kubernetes.io/migrated-plugins': MIGRATED_PLUGINS },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.metadata.name, uid: node.metadata.uid ?? '' }],
    },
    spec: { drivers: null },
  } as unknown as KObject;
}

/** The derived objects of a kind (in a namespace, when namespaced), in name order. */
/**
 * One ComponentStatus: validator.go HttpServer.DoServerCheck reports a refused connection as a
 * probe failure whose message is the client's error (pkg/probe/http DoHTTPProbe returns
 * `probe.Failure, err.Error(), nil`), so the MESSAGE column holds it and ERROR stays empty;
 * EtcdServer.DoServerCheck answers `ok`, or a failure with no message and the prober's error
 * (storagebackend/factory/etcd3.go Probe wraps it; etcd's client waits for the member until the
 * probe's timeout).
 */
function componentStatus(name: string, healthy: boolean, failure: { message: string; error: string }): KObject {
  const cond: Record<string, string> = healthy ? { type: 'Healthy', status: 'True', message: 'ok' } : { type: 'Healthy', status: 'False', message: failure.message, error: failure.error };
  if (cond['message'] === '') delete cond['message'];
  if (cond['error'] === '') delete cond['error'];
  return { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name }, conditions: [cond] } as KObject;
}

/** rest.go serversToValidate: the two components kubeadm runs on 127.0.0.1 over HTTPS, and etcd. */
function componentStatuses(c: Cluster): KObject[] {
  const refused = (port: number): { message: string; error: string } => ({
    message: `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    error: '',
  });
  return [
    componentStatus('scheduler', c.state.scheduler?.up !== false, refused(10259)),
    componentStatus('controller-manager', c.state.controllerManager?.up !== false, refused(10257)),
    componentStatus('etcd-0', c.state.etcd?.up !== false, { message: '', error: 'error getting data from etcd: context deadline exceeded' }),
  ];
}

/** ipallocator.go createIPAddress for every ClusterIP (serviceToRef: group "", resource services). */
function serviceIPAddresses(c: Cluster): KObject[] {
  const out: KObject[] = [];
  for (const svc of c.store.list<Service>('Service')) {
    const uid = svc.metadata.uid ?? '';
    for (const ip of svc.spec.clusterIPs ?? (svc.spec.clusterIP ? [svc.spec.clusterIP] : [])) {
      const family = ipFamilyOf(ip);
      if (!family) continue;
      // deleted by a user: gone until the repair loop creates it again, a new object (controllers/ipallocator-repair.ts)
      const repair = ipRepairEntry(c, ip, svc.metadata.uid);
      if (repair && repair.repairedAt === undefined) continue;
      const seed = repair ? `${ip}@${repair.repairedAt}` : ip;
      out.push({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IPAddress',
        metadata: {
          name: ip,
          uid: `${uid.slice(0, 24)}1a${fnv32a(seed).toString(16).padStart(8, '0')}00`.slice(0, 36),
          resourceVersion: '1',
          creationTimestamp: repair ? rfc3339(repair.repairedAt!) : (svc.metadata.creationTimestamp ?? c.timestamp()),
          labels: { 'ipaddress.kubernetes.io/ip-family': family, 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' },
        },
        spec: { parentRef: { resource: 'services', namespace: svc.metadata.namespace ?? 'default', name: svc.metadata.name } },
      } as unknown as KObject);
    }
  }
  return out;
}

export function virtualObjects(c: Cluster, kind: string, namespace: string | undefined): KObject[] {
  if (kind === 'IPAddress') return serviceIPAddresses(c);
  if (kind === 'ServiceCIDR') return [defaultServiceCIDR(c)];
  if (kind === 'Lease' && (namespace === undefined || namespace === 'kube-node-lease')) return c.store.list<Node>('Node').map((n) => nodeLease(c, n));
  if (kind === 'CSINode') return c.store.list<Node>('Node').map(csiNode);
  if (kind === 'ComponentStatus') return componentStatuses(c);
  return [];
}
