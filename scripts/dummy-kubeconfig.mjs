/**
 * The kubeconfig the recording scripts give real kubectl: one cluster at `server` (a local stub
 * HTTP server of the script's), one user with a dummy bearer token.
 */
export function dummyKubeconfig(server) {
  return `apiVersion: v1
kind: Config
clusters:
- cluster:
    server: ${server}
  name: kubernetes
contexts:
- context:
    cluster: kubernetes
    user: kubernetes-admin
  name: kubernetes-admin@kubernetes
current-context: kubernetes-admin@kubernetes
users:
- name: kubernetes-admin
  user:
    token: dummy
`;
}
