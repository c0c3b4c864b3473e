/**
 * `kubeadm config print init-defaults|join-defaults` (cmd/kubeadm/app/cmd/config.go, the
 * v1beta4 defaults of kubeadm 1.31+): kubeadm's built-in defaults with its placeholder values
 * (token abcdef.0123456789abcdef, advertise address 1.2.3.4, node name `node`), and
 * kubernetesVersion as the kubeadm binary's minor with patch 0.
 */
import type { CommandResult } from '../../types.js';
import { kubeadmError } from './kubeadm-lib.js';

const TIMEOUTS = `timeouts:
  controlPlaneComponentHealthCheck: 4m0s
  discovery: 5m0s
  etcdAPICall: 2m0s
  kubeletHealthCheck: 4m0s
  kubernetesAPICall: 1m0s
  tlsBootstrap: 5m0s
  upgradeManifests: 5m0s
`;

export function configPrint(args: string[], kubeadmV: string): CommandResult {
  if (args[0] !== 'print') return kubeadmError(`unknown command "${args[0] ?? ''}" for "kubeadm config"`);
  const [maj, min] = kubeadmV.replace(/^v/, '').split('.');
  if (args[1] === 'init-defaults')
    return {
      stdout: `apiVersion: kubeadm.k8s.io/v1beta4
bootstrapTokens:
- groups:
  - system:bootstrappers:kubeadm:default-node-token
  token: abcdef.0123456789abcdef
  ttl: 24h0m0s
  usages:
  - signing
  - authentication
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: 1.2.3.4
  bindPort: 6443
nodeRegistration:
  criSocket: unix:///var/run/containerd/containerd.sock
  imagePullPolicy: IfNotPresent
  imagePullSerial: true
  name: node
  taints: null
${TIMEOUTS}---
apiServer: {}
apiVersion: kubeadm.k8s.io/v1beta4
caCertificateValidityPeriod: 87600h0m0s
certificateValidityPeriod: 8760h0m0s
certificatesDir: /etc/kubernetes/pki
clusterName: kubernetes
controllerManager: {}
dns: {}
encryptionAlgorithm: RSA-2048
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: ${maj}.${min}.0
networking:
  dnsDomain: cluster.local
  serviceSubnet: 10.96.0.0/12
proxy: {}
scheduler: {}
`,
      stderr: '',
      exitCode: 0,
    };
  if (args[1] === 'join-defaults')
    return {
      stdout: `apiVersion: kubeadm.k8s.io/v1beta4
caCertPath: /etc/kubernetes/pki/ca.crt
discovery:
  bootstrapToken:
    apiServerEndpoint: kube-apiserver:6443
    token: abcdef.0123456789abcdef
    unsafeSkipCAVerification: true
  tlsBootstrapToken: abcdef.0123456789abcdef
kind: JoinConfiguration
nodeRegistration:
  criSocket: unix:///var/run/containerd/containerd.sock
  imagePullPolicy: IfNotPresent
  imagePullSerial: true
  name: node
  taints: null
${TIMEOUTS}`,
      stderr: '',
      exitCode: 0,
    };
  return kubeadmError(`unknown command "${args[1] ?? ''}" for "kubeadm config print"`);
}
