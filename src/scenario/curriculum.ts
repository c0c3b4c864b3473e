/**
 * The CKA v1.35 curriculum as data: the five domains' competency lines, worded as in the CNCF's
 * curriculum (github.com/cncf/curriculum, CKA_Curriculum_v1.35), each with a short stable id.
 * A scenario's `competency` names one of these lines; older free text (earlier curricula, or a
 * line with a comment after `;` or in parentheses) is mapped to the canonical line by
 * `resolveCompetency`, which the loader applies and `scripts/canonical-competency.mjs` writes back
 * into the scenario files.
 */

/** The five CKA v1.35 curriculum domains, with their exam weights (percent). */
export const DOMAINS = {
  troubleshooting: 30,
  'cluster-architecture': 25,
  'services-networking': 20,
  'workloads-scheduling': 15,
  storage: 10,
} as const;
export type Domain = keyof typeof DOMAINS;

export interface Competency {
  id: string;
  domain: Domain;
  /** The curriculum's bullet line, verbatim. */
  line: string;
}

export const CURRICULUM: readonly Competency[] = [
  // Storage – 10 %
  { id: 'storage-classes', domain: 'storage', line: 'Implement storage classes and dynamic volume provisioning' },
  { id: 'volume-types', domain: 'storage', line: 'Configure volume types, access modes and reclaim policies' },
  { id: 'pv-pvc', domain: 'storage', line: 'Manage persistent volumes and persistent volume claims' },
  // Troubleshooting – 30 %
  { id: 'troubleshoot-nodes', domain: 'troubleshooting', line: 'Troubleshoot clusters and nodes' },
  { id: 'troubleshoot-components', domain: 'troubleshooting', line: 'Troubleshoot cluster components' },
  { id: 'monitor-usage', domain: 'troubleshooting', line: 'Monitor cluster and application resource usage' },
  { id: 'container-output', domain: 'troubleshooting', line: 'Manage and evaluate container output streams' },
  { id: 'troubleshoot-networking', domain: 'troubleshooting', line: 'Troubleshoot services and networking' },
  // Workloads & Scheduling – 15 %
  { id: 'rollouts', domain: 'workloads-scheduling', line: 'Understand application deployments and how to perform rolling update and rollbacks' },
  { id: 'configmaps-secrets', domain: 'workloads-scheduling', line: 'Use ConfigMaps and Secrets to configure applications' },
  { id: 'autoscaling', domain: 'workloads-scheduling', line: 'Configure workload autoscaling' },
  { id: 'self-healing', domain: 'workloads-scheduling', line: 'Understand the primitives used to create robust, self-healing, application deployments' },
  { id: 'admission-scheduling', domain: 'workloads-scheduling', line: 'Configure Pod admission and scheduling (limits, node affinity, etc.)' },
  // Cluster Architecture, Installation & Configuration – 25 %
  { id: 'rbac', domain: 'cluster-architecture', line: 'Manage role based access control (RBAC)' },
  { id: 'infrastructure', domain: 'cluster-architecture', line: 'Prepare underlying infrastructure for installing a Kubernetes cluster' },
  { id: 'kubeadm', domain: 'cluster-architecture', line: 'Create and manage Kubernetes clusters using kubeadm' },
  { id: 'lifecycle', domain: 'cluster-architecture', line: 'Manage the lifecycle of Kubernetes clusters' },
  { id: 'ha-control-plane', domain: 'cluster-architecture', line: 'Implement and configure a highly-available control plane' },
  { id: 'helm-kustomize', domain: 'cluster-architecture', line: 'Use Helm and Kustomize to install cluster components' },
  { id: 'extension-interfaces', domain: 'cluster-architecture', line: 'Understand extension interfaces (CNI, CSI, CRI, etc.)' },
  { id: 'crds-operators', domain: 'cluster-architecture', line: 'Understand CRDs, install and configure operators' },
  // Services & Networking – 20 %
  { id: 'pod-connectivity', domain: 'services-networking', line: 'Understand connectivity between Pods' },
  { id: 'network-policies', domain: 'services-networking', line: 'Define and enforce Network Policies' },
  { id: 'service-types', domain: 'services-networking', line: 'Use ClusterIP, NodePort, LoadBalancer service types and endpoints' },
  { id: 'gateway-api', domain: 'services-networking', line: 'Use the Gateway API to manage Ingress traffic' },
  { id: 'ingress', domain: 'services-networking', line: 'Know how to use Ingress controllers and Ingress resources' },
  { id: 'coredns', domain: 'services-networking', line: 'Understand and use CoreDNS' },
];

/**
 * Free text seen in scenario files (the library's first wave and earlier curricula) → competency
 * id. scripts/canonical-competency.mjs rewrites files through this table; add a row when a new
 * scenario's text is reported as unmapped.
 */
export const LEGACY_COMPETENCIES: Readonly<Record<string, string>> = {
  // wave-2 drafts
  'Manage the lifecycle of a kubeadm cluster (certificates)': 'lifecycle',
  "Manage the cluster's components configuration (kube-proxy, kubeadm-managed ConfigMaps)": 'kubeadm',
  'Understand dynamic provisioning and where persistent volume data lives (local-path hostPath volumes)': 'storage-classes',
  'Understand storage classes and persistent volumes (local volumes, node affinity, WaitForFirstConsumer)': 'volume-types',
  'Understand persistent volume claims, the default StorageClass and static provisioning': 'pv-pvc',
  'Understand storage classes (volumeBindingMode) and local persistent volumes with node affinity': 'storage-classes',
  // not a line of the v1.35 curriculum: application failures are diagnosed from the cluster's state and events
  'Troubleshoot application failures': 'troubleshoot-nodes',
  'Understand application deployments and how to perform rolling updates (StatefulSet update strategy)': 'rollouts',
  'Understand how node labels, affinity and topology spread constraints influence Pod scheduling': 'admission-scheduling',
  // earlier CKA curricula (v1.19–v1.31)
  'Use Kubeadm to install a basic cluster': 'kubeadm',
  'Manage a highly-available Kubernetes cluster': 'ha-control-plane',
  'Provision underlying infrastructure to deploy a Kubernetes cluster': 'infrastructure',
  'Perform a version upgrade on a Kubernetes cluster using Kubeadm': 'lifecycle',
  'Implement etcd backup and restore': 'lifecycle',
  'Understand deployments and how to perform rolling update and rollbacks': 'rollouts',
  'Know how to scale applications': 'autoscaling',
  'Understand how resource limits can affect Pod scheduling': 'admission-scheduling',
  'Awareness of manifest management and common templating tools': 'helm-kustomize',
  'Understand host networking configuration on the cluster nodes': 'pod-connectivity',
  'Understand ClusterIP, NodePort, LoadBalancer service types and endpoints': 'service-types',
  'Know how to use Ingress controllers and Ingress resources': 'ingress',
  'Know how to configure and use CoreDNS': 'coredns',
  'Choose an appropriate container network interface plugin': 'extension-interfaces',
  'Understand storage classes, persistent volumes': 'storage-classes',
  'Understand volume mode, access modes and reclaim policies for volumes': 'volume-types',
  'Understand persistent volume claims primitive': 'pv-pvc',
  'Know how to configure applications with persistent storage': 'pv-pvc',
  'Evaluate cluster and node logging': 'troubleshoot-nodes',
  'Understand how to monitor applications': 'monitor-usage',
  'Manage container stdout & stderr logs': 'container-output',
  'Troubleshoot application failure': 'container-output',
  'Troubleshoot cluster component failure': 'troubleshoot-components',
  'Troubleshoot networking': 'troubleshoot-networking',
  // the library's first wave
  'Configure and use CoreDNS': 'coredns',
  'Understand how resource limits, taints/tolerations and node affinity influence Pod scheduling': 'admission-scheduling',
  "Understand the cluster's network configuration": 'kubeadm',
  "Understand the cluster's network configuration (CNI, IPAM)": 'extension-interfaces',
  "Manage the cluster's control plane configuration": 'kubeadm',
  'Understand the cluster architecture': 'kubeadm',
  'Use kubeadm to install a basic cluster': 'kubeadm',
  'Manage access to clusters': 'rbac',
  'Understand the kubelet and static pods': 'kubeadm',
  'Use the Ingress resource and Ingress controllers': 'ingress',
  'Understand storage classes and dynamic provisioning': 'storage-classes',
  'Understand storage classes and volume expansion': 'storage-classes',
  'Understand volume reclaim policies and the PersistentVolume lifecycle': 'volume-types',
  'Understand volume reclaim policies': 'volume-types',
  'Understand persistent volume claims and how they bind to persistent volumes': 'pv-pvc',
  'Troubleshoot cluster components and node failures': 'troubleshoot-nodes',
  'Understand application deployments and how Pods are (re)scheduled': 'self-healing',
  'Understand application deployments, scaling and resource requests': 'rollouts',
  'Perform rolling update and rollbacks in Deployments': 'rollouts',
  'Use the Helm package manager and Kustomize to install cluster components': 'helm-kustomize',
  'Understand the primitives used to create robust, self-healing application deployments': 'self-healing',
};

/**
 * Overrides by (first clause of the) text and domain, where one free text means different lines
 * in different domains: "Troubleshoot application failure" about scheduling is a node matter.
 */
const BY_DOMAIN: Readonly<Record<string, Partial<Record<Domain, string>>>> = {
  'troubleshoot application failure; understand how node labels and selectors influence scheduling': { troubleshooting: 'troubleshoot-nodes' },
  'troubleshoot application failure; understand how taints and tolerations influence scheduling': { troubleshooting: 'troubleshoot-nodes' },
  'troubleshoot clusters and nodes; troubleshoot application failure (image pulls, rollouts)': { troubleshooting: 'troubleshoot-nodes' },
};

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ').replace(/\.$/, '').toLowerCase();

const BY_LINE = new Map<string, Competency>(CURRICULUM.map((c) => [norm(c.line), c]));
const BY_ID = new Map<string, Competency>(CURRICULUM.map((c) => [c.id, c]));
const LEGACY = new Map<string, Competency>(Object.entries(LEGACY_COMPETENCIES).map(([text, id]) => [norm(text), BY_ID.get(id)!]));

export function competencyById(id: string): Competency | undefined {
  return BY_ID.get(id);
}

/**
 * The curriculum line a scenario's `competency` text means: the line itself or its id; a row of
 * LEGACY_COMPETENCIES; else the text's first clause (before `;`, then before ` (`) resolved the same way.
 */
export function resolveCompetency(text: string, domain?: Domain): Competency | undefined {
  const t = norm(text);
  const special = domain ? BY_DOMAIN[t]?.[domain] : undefined;
  if (special) return BY_ID.get(special);
  const direct = BY_LINE.get(t) ?? BY_ID.get(t) ?? LEGACY.get(t);
  if (direct) return direct;
  const semi = t.indexOf(';');
  if (semi > 0) return resolveCompetency(t.slice(0, semi), domain);
  const paren = t.lastIndexOf(' (');
  if (paren > 0) return resolveCompetency(t.slice(0, paren), domain);
  return undefined;
}
