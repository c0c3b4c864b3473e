/**
 * The cluster whose objects scripts/record-describe.mjs serves to real kubectl v1.35 and
 * src/shell/printers/describe/recorded.test.ts describes through the simulator: the kubeadm-calico
 * fixture (seed 1) after a learner's session that creates one or more objects of every kind
 * `kubectl describe` has a describer for, lets the controllers run (pods start, an init container
 * completes, a container restarts, a rollout leaves an old ReplicaSet, a CronJob fires), then dumps
 * every stored object as JSON (managedFields dropped: describe never prints them).
 */
import { loadFixture } from './fixtures.js';
import { Session } from '../shell/session.js';
import type { KObject } from '../sim/api/types.js';
import { nodeView, virtualObjects } from '../sim/virtual-objects.js';

export const MANIFEST = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    team: payments
---
apiVersion: v1
kind: ResourceQuota
metadata:
  name: shop-quota
  namespace: shop
spec:
  hard:
    pods: "20"
    requests.cpu: "4"
    requests.memory: 8Gi
    limits.memory: 16Gi
    configmaps: "10"
---
apiVersion: v1
kind: LimitRange
metadata:
  name: shop-limits
  namespace: shop
spec:
  # one resource per item: describe.go describeLimitRangeSpec prints an item's resources in Go map
  # order (random), so an item naming two would record in either order
  limits:
  - type: Container
    default:
      cpu: 500m
    defaultRequest:
      cpu: 100m
    max:
      cpu: "2"
  - type: Container
    default:
      memory: 256Mi
    defaultRequest:
      memory: 128Mi
  - type: PersistentVolumeClaim
    min:
      storage: 1Gi
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  namespace: shop
  labels:
    app: web
data:
  APP_MODE: prod
  app.properties: |
    color=blue
    mode=production
---
apiVersion: v1
kind: Secret
metadata:
  name: db-creds
  namespace: shop
type: Opaque
stringData:
  username: admin
  password: s3cr3t!
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: app-sa
  namespace: shop
  annotations:
    owner: payments
imagePullSecrets:
- name: regcred
- name: db-creds
---
apiVersion: v1
kind: Secret
metadata:
  name: app-sa-token
  namespace: shop
  annotations:
    kubernetes.io/service-account.name: app-sa
type: kubernetes.io/service-account-token
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
        tier: frontend
      annotations:
        prometheus.io/scrape: "true"
    spec:
      serviceAccountName: app-sa
      initContainers:
      - name: init-config
        image: busybox:1.36
        command: ["sh", "-c", "echo ready > /work/ready"]
        volumeMounts:
        - name: work
          mountPath: /work
      containers:
      - name: nginx
        image: nginx:1.25
        ports:
        - containerPort: 80
          name: http
        env:
        - name: APP_MODE
          valueFrom:
            configMapKeyRef:
              name: app-config
              key: APP_MODE
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef:
              name: db-creds
              key: password
        - name: POD_IP
          valueFrom:
            fieldRef:
              fieldPath: status.podIP
        - name: MEM_LIMIT
          valueFrom:
            resourceFieldRef:
              resource: limits.memory
        envFrom:
        - configMapRef:
            name: app-config
        - secretRef:
            name: db-creds
            optional: true
          prefix: DB_
        resources:
          requests:
            cpu: 100m
            memory: 64Mi
          limits:
            cpu: 200m
            memory: 128Mi
        readinessProbe:
          httpGet:
            path: /
            port: http
          initialDelaySeconds: 2
          periodSeconds: 5
        livenessProbe:
          tcpSocket:
            port: 80
          periodSeconds: 10
        startupProbe:
          exec:
            command: ["cat", "/etc/nginx/nginx.conf"]
          failureThreshold: 30
          periodSeconds: 2
        volumeMounts:
        - name: config
          mountPath: /etc/app
          readOnly: true
        - name: creds
          mountPath: /etc/creds
        - name: work
          mountPath: /work
          subPath: site
      volumes:
      - name: config
        configMap:
          name: app-config
      - name: creds
        secret:
          secretName: db-creds
          defaultMode: 0400
      - name: work
        emptyDir:
          sizeLimit: 100Mi
      tolerations:
      - key: dedicated
        operator: Equal
        value: web
        effect: NoSchedule
      nodeSelector:
        kubernetes.io/os: linux
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  labels:
    app: web
spec:
  selector:
    app: web
  ports:
  - name: http
    port: 80
    targetPort: http
---
apiVersion: v1
kind: Service
metadata:
  name: web-np
  namespace: shop
spec:
  type: NodePort
  selector:
    app: web
  externalTrafficPolicy: Local
  ports:
  - port: 8080
    targetPort: 80
    nodePort: 30080
---
apiVersion: v1
kind: Pod
metadata:
  name: flaky
  namespace: shop
  labels:
    app: flaky
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "if [ -f /data/started ]; then sleep 36000; else touch /data/started; exit 3; fi"]
    volumeMounts:
    - name: data
      mountPath: /data
  volumes:
  - name: data
    emptyDir: {}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: manual
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: Retain
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-data
  labels:
    type: local
spec:
  storageClassName: manual
  capacity:
    storage: 2Gi
  accessModes:
  - ReadWriteOnce
  persistentVolumeReclaimPolicy: Retain
  hostPath:
    path: /mnt/data
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: shop
spec:
  storageClassName: manual
  accessModes:
  - ReadWriteOnce
  resources:
    requests:
      storage: 1Gi
---
apiVersion: v1
kind: Pod
metadata:
  name: storage-pod
  namespace: shop
spec:
  containers:
  - name: app
    image: nginx:1.25
    volumeMounts:
    - name: data
      mountPath: /usr/share/nginx/html
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data
---
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
  namespace: shop
spec:
  backoffLimit: 4
  completions: 1
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: pi
        image: busybox:1.36
        command: ["sh", "-c", "echo 3.14159"]
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
  namespace: shop
spec:
  schedule: "*/5 * * * *"
  successfulJobsHistoryLimit: 2
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: hello
            image: busybox:1.36
            command: ["sh", "-c", "date; echo hello"]
---
apiVersion: v1
kind: Service
metadata:
  name: db
  namespace: shop
spec:
  clusterIP: None
  selector:
    app: db
  ports:
  - port: 5432
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  namespace: shop
spec:
  serviceName: db
  replicas: 2
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: postgres
        image: busybox:1.36
        command: ["sh", "-c", "sleep 36000"]
        ports:
        - containerPort: 5432
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: log-agent
  namespace: shop
spec:
  selector:
    matchLabels:
      app: log-agent
  template:
    metadata:
      labels:
        app: log-agent
    spec:
      containers:
      - name: agent
        image: busybox:1.36
        command: ["sh", "-c", "sleep 36000"]
        volumeMounts:
        - name: varlog
          mountPath: /var/log
      volumes:
      - name: varlog
        hostPath:
          path: /var/log
          type: Directory
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 2
  maxReplicas: 5
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: shop
rules:
- apiGroups: [""]
  resources: ["pods", "pods/log"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["apps"]
  resources: ["deployments"]
  resourceNames: ["web"]
  verbs: ["get", "patch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-pods
  namespace: shop
subjects:
- kind: ServiceAccount
  name: app-sa
  namespace: shop
- kind: User
  name: jane
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: node-viewer
rules:
- apiGroups: [""]
  resources: ["nodes"]
  verbs: ["get", "list"]
- nonResourceURLs: ["/healthz", "/version"]
  verbs: ["get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: node-viewer
subjects:
- kind: Group
  name: ops
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: node-viewer
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: db-access
  namespace: shop
spec:
  podSelector:
    matchLabels:
      app: db
  policyTypes: ["Ingress", "Egress"]
  ingress:
  - from:
    - podSelector:
        matchLabels:
          app: web
    - namespaceSelector:
        matchLabels:
          team: payments
    ports:
    - protocol: TCP
      port: 5432
  egress:
  - to:
    - ipBlock:
        cidr: 10.0.0.0/8
        except: ["10.1.0.0/16"]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  namespace: shop
  annotations:
    nginx.ingress.kubernetes.io/rewrite-target: /
spec:
  ingressClassName: nginx
  tls:
  - hosts: ["shop.example.com"]
    secretName: shop-tls
  defaultBackend:
    service:
      name: web
      port:
        number: 80
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              name: http
      - path: /api
        pathType: Exact
        backend:
          service:
            name: missing
            port:
              number: 8080
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web-pdb
  namespace: shop
spec:
  minAvailable: 1
  selector:
    matchLabels:
      app: web
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high
value: 100000
globalDefault: false
# explicit: the simulator does not default it yet, and real kubectl describe dereferences it
preemptionPolicy: PreemptLowerPriority
description: "Important workloads."
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
  annotations:
    ingressclass.kubernetes.io/is-default-class: "true"
spec:
  controller: k8s.io/ingress-nginx
  parameters:
    apiGroup: k8s.example.com
    kind: IngressParameters
    name: external-lb
---
apiVersion: v1
kind: ReplicationController
metadata:
  name: legacy
  namespace: shop
spec:
  replicas: 1
  selector:
    app: legacy
  template:
    metadata:
      labels:
        app: legacy
    spec:
      containers:
      - name: app
        image: busybox:1.36
        command: ["sh", "-c", "sleep 36000"]
---
apiVersion: storage.k8s.io/v1
kind: VolumeAttributesClass
metadata:
  name: gold
driverName: pd.csi.storage.gke.io
parameters:
  iops: "3000"
  throughput: "50"
---
apiVersion: v1
kind: Pod
metadata:
  name: crasher
  namespace: default
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "echo starting; exit 1"]
---
apiVersion: v1
kind: Pod
metadata:
  name: too-big
  namespace: default
spec:
  containers:
  - name: app
    image: nginx:1.25
    resources:
      requests:
        cpu: "100"
---
apiVersion: v1
kind: Pod
metadata:
  name: bad-image
  namespace: default
spec:
  containers:
  - name: app
    image: nginx:no-such-tag
---
apiVersion: v1
kind: Pod
metadata:
  name: unhealthy
  namespace: default
spec:
  containers:
  - name: app
    image: nginx:1.25
    livenessProbe:
      httpGet:
        path: /healthz
        port: 8080
      periodSeconds: 5
      failureThreshold: 2
---
apiVersion: v1
kind: Service
metadata:
  name: web-lb
  namespace: shop
  annotations:
    service.beta.kubernetes.io/example: "yes"
spec:
  type: LoadBalancer
  selector:
    app: web
  sessionAffinity: ClientIP
  ports:
  - name: http
    port: 80
    targetPort: 80
  - name: https
    port: 443
    targetPort: 443
---
apiVersion: v1
kind: Service
metadata:
  name: ext
  namespace: shop
spec:
  type: ExternalName
  externalName: db.example.com
---
apiVersion: batch/v1
kind: Job
metadata:
  name: fail
  namespace: shop
spec:
  backoffLimit: 1
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: fail
        image: busybox:1.36
        command: ["sh", "-c", "exit 2"]
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  namespace: shop
spec:
  schedule: "0 2 * * *"
  timeZone: Etc/UTC
  suspend: true
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
          - name: backup
            image: busybox:1.36
            command: ["sh", "-c", "echo backup"]
---
apiVersion: v1
kind: Secret
metadata:
  name: shop-tls
  namespace: shop
type: kubernetes.io/tls
stringData:
  tls.crt: "-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----\\n"
  tls.key: "-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n"
---
apiVersion: v1
kind: Secret
metadata:
  name: regcred
  namespace: shop
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: '{"auths":{"registry.example.com":{"username":"u","password":"p","auth":"dTpw"}}}'
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: example.com/fast
parameters:
  type: ssd
  replication: "3"
allowVolumeExpansion: true
mountOptions: ["noatime"]
reclaimPolicy: Delete
volumeBindingMode: Immediate
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-local
spec:
  storageClassName: local
  capacity:
    storage: 5Gi
  accessModes: ["ReadWriteOnce", "ReadOnlyMany"]
  persistentVolumeReclaimPolicy: Delete
  local:
    path: /mnt/disks/ssd1
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - key: kubernetes.io/hostname
          operator: In
          values: ["cka-w1"]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: waiting
  namespace: shop
spec:
  storageClassName: manual
  accessModes: ["ReadWriteOnce"]
  resources:
    requests:
      storage: 1Gi
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: spread
  namespace: shop
spec:
  replicas: 2
  strategy:
    type: Recreate
  selector:
    matchLabels:
      app: spread
  template:
    metadata:
      labels:
        app: spread
    spec:
      priorityClassName: high
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels:
            app: spread
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm:
              topologyKey: kubernetes.io/hostname
              labelSelector:
                matchLabels:
                  app: spread
      initContainers:
      - name: log-shipper
        image: busybox:1.36
        restartPolicy: Always
        command: ["sh", "-c", "sleep 36000"]
      containers:
      - name: main
        image: nginx:1.25
        ports:
        - containerPort: 80
        - containerPort: 9090
          name: metrics
        args: ["--flag", "multi\\nline"]
        volumeMounts:
        - name: podinfo
          mountPath: /etc/podinfo
        - name: bundle
          mountPath: /etc/bundle
        - name: host
          mountPath: /host/logs
          readOnly: true
      - name: helper
        image: busybox:1.36
        command: ["sh", "-c", "sleep 36000"]
        env:
        - name: NODE
          valueFrom:
            fieldRef:
              fieldPath: spec.nodeName
        - name: MY_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        - name: MULTI
          value: "a\\nb"
        - name: CPU_REQ
          valueFrom:
            resourceFieldRef:
              resource: requests.cpu
              divisor: 1m
      volumes:
      - name: podinfo
        downwardAPI:
          items:
          - path: labels
            fieldRef:
              fieldPath: metadata.labels
          - path: cpu
            resourceFieldRef:
              containerName: main
              resource: limits.cpu
      - name: bundle
        projected:
          sources:
          - secret:
              name: db-creds
              items:
              - key: password
                path: pw
          - configMap:
              name: app-config
          - downwardAPI:
              items:
              - path: name
                fieldRef:
                  fieldPath: metadata.name
      - name: host
        hostPath:
          path: /var/log
          type: DirectoryOrCreate
---
apiVersion: v1
kind: Pod
metadata:
  name: held
  namespace: shop
  finalizers: ["example.com/hold"]
spec:
  terminationGracePeriodSeconds: 45
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "sleep 36000"]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: indexed
  namespace: shop
spec:
  completionMode: Indexed
  completions: 3
  parallelism: 2
  activeDeadlineSeconds: 600
  ttlSecondsAfterFinished: 86400
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: busybox:1.36
        command: ["sh", "-c", "echo $JOB_COMPLETION_INDEX"]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: blobs
  namespace: shop
data:
  empty: ""
binaryData:
  logo.png: iVBORw0KGgo=
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: spread
  namespace: shop
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: spread
  minReplicas: 1
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: memory
      target:
        type: AverageValue
        averageValue: 100Mi
  - type: Pods
    pods:
      metric:
        name: packets-per-second
      target:
        type: AverageValue
        averageValue: 1k
  - type: ContainerResource
    containerResource:
      name: cpu
      container: main
      target:
        type: Utilization
        averageUtilization: 60
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 120
      selectPolicy: Min
      policies:
      - type: Percent
        value: 50
        periodSeconds: 60
    scaleUp:
      policies:
      - type: Pods
        value: 2
        periodSeconds: 30
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: db-pdb
  namespace: shop
spec:
  maxUnavailable: 30%
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchExpressions:
    - key: app
      operator: In
      values: [db]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: deny-all
  namespace: shop
spec:
  podSelector: {}
  policyTypes: ["Ingress"]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: dns-only
  namespace: shop
spec:
  podSelector:
    matchExpressions:
    - key: tier
      operator: Exists
  policyTypes: ["Egress"]
  egress:
  - to:
    - namespaceSelector:
        matchLabels:
          kubernetes.io/metadata.name: kube-system
      podSelector:
        matchLabels:
          k8s-app: kube-dns
    ports:
    - protocol: UDP
      port: 53
    - protocol: TCP
      port: 53
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: fallback
  namespace: shop
spec:
  defaultBackend:
    service:
      name: web
      port:
        name: http
---
apiVersion: v1
kind: Service
metadata:
  name: external-db
  namespace: shop
spec:
  ports:
  - port: 5432
    protocol: TCP
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: store
  namespace: shop
spec:
  serviceName: store
  replicas: 1
  podManagementPolicy: Parallel
  updateStrategy:
    type: OnDelete
  selector:
    matchLabels:
      app: store
  template:
    metadata:
      labels:
        app: store
    spec:
      containers:
      - name: store
        image: busybox:1.36
        command: ["sh", "-c", "sleep 36000"]
        volumeMounts:
        - name: data
          mountPath: /data
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      storageClassName: manual
      accessModes: ["ReadWriteOnce"]
      resources:
        requests:
          storage: 1Gi
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-exporter
  namespace: shop
spec:
  selector:
    matchLabels:
      app: node-exporter
  updateStrategy:
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app: node-exporter
    spec:
      nodeSelector:
        node-role.kubernetes.io/control-plane: ""
      tolerations:
      - operator: Exists
      containers:
      - name: exporter
        image: busybox:1.36
        command: ["sh", "-c", "sleep 36000"]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: paused
  namespace: shop
spec:
  suspend: true
  template:
    spec:
      restartPolicy: OnFailure
      containers:
      - name: work
        image: busybox:1.36
        command: ["sh", "-c", "echo hi"]
`;

/** What the learner types, in order; `advance N` moves the cluster's clock N seconds. */
const STEPS: readonly string[] = [
  'kubectl apply -f /root/describe.yaml',
  'openssl genrsa -out /root/jane.key 2048',
  'openssl req -new -key /root/jane.key -subj "/CN=jane/O=dev" -out /root/jane.csr',
  `printf 'apiVersion: certificates.k8s.io/v1\\nkind: CertificateSigningRequest\\nmetadata:\\n  name: jane\\nspec:\\n  request: %s\\n  signerName: kubernetes.io/kube-apiserver-client\\n  expirationSeconds: 86400\\n  usages:\\n  - client auth\\n' "$(base64 -w0 /root/jane.csr)" > /root/csr.yaml`,
  'kubectl create -f /root/csr.yaml',
  'kubectl certificate approve jane',
  'advance 90',
  'kubectl -n shop set image deployment/web nginx=nginx:1.27',
  'advance 60',
  'kubectl -n shop scale statefulset db --replicas=3',
  'kubectl -n shop annotate deployment web kubernetes.io/change-cause="upgrade to 1.27"',
  'kubectl -n shop label pod flaky tier=test',
  'kubectl -n shop debug flaky --image=busybox:1.36 --target=app -- sleep 3600',
  'kubectl -n shop delete pod held --wait=false',
  'advance 5',
  'kubectl cordon cka-w2',
  'advance 400',
];

/** The cluster after STEPS (deterministic: the fixture's pinned clock and seed 1). */
export async function describeCluster(): Promise<{ session: Session; log: string }> {
  const cluster = loadFixture('kubeadm-calico', 1);
  cluster.host(cluster.meta.workstation)!.fs.write('/root/describe.yaml', MANIFEST);
  const session = new Session(cluster);
  let log = '';
  for (const step of STEPS) {
    const adv = /^advance (\d+)$/.exec(step);
    if (adv) {
      cluster.advance(Number(adv[1]) * 1000);
      log += `# ${step}\n`;
      continue;
    }
    const r = await session.exec(step);
    log += `$ ${step}\n${r.stdout}${r.stderr}`;
  }
  return { session, log };
}

/**
 * Every stored object as the API server serves it (a Node with its kubelet's latest heartbeats,
 * sim/virtual-objects.ts nodeView), kinds in the store's order, managedFields dropped.
 */
export function dumpObjects(session: Session): KObject[] {
  const c = session.cluster;
  const out: KObject[] = [];
  for (const kind of c.store.kinds())
    for (const o of c.store.list(kind)) {
      const copy = nodeView(c, JSON.parse(JSON.stringify(o)) as KObject);
      delete copy.metadata.managedFields;
      out.push(copy);
    }
  return out;
}

/** What scripts/record-describe.mjs serves: the cluster's clock, discovery and objects (the objects the API server derives, Leases, ServiceCIDRs, IPAddresses and CSINodes, included). */
export function dumpCluster(session: Session): { now: string; discovery: unknown[]; objects: KObject[] } {
  const c = session.cluster;
  const derived = ['Lease', 'ServiceCIDR', 'IPAddress', 'CSINode'].flatMap((k) => virtualObjects(c, k, k === 'Lease' ? 'kube-node-lease' : undefined));
  return {
    now: new Date(c.now()).toISOString(),
    discovery: c.discovery().resources.map((r) => ({ ...r })),
    objects: [...dumpObjects(session), ...derived],
  };
}
