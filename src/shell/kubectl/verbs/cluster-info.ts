/**
 * `kubectl cluster-info` (k8s.io/kubectl pkg/cmd/clusterinfo/clusterinfo.go): the control plane
 * URL from the kubeconfig, then every kube-system Service labelled
 * `kubernetes.io/cluster-service=true` with its API-server proxy link. Plain text: the v1.35.2
 * binary no longer links go-colortext, and against a test server it printed no colour codes, on a
 * terminal (`script`) or into a pipe alike.
 */
import type { Service } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { errorResult } from '../errors.js';
import { str } from '../flags.js';
import { kubeconfigPath, readKubeconfig } from '../kubeconfig.js';

function line(name: string, link: string): string {
  return `${name} is running at ${link}\n`;
}

/** utilnet.JoinSchemeNamePort. */
function joinSchemeNamePort(scheme: string, name: string, port: string): string {
  if (scheme !== '') return `${scheme}:${name}:${port}`;
  return port !== '' ? `${name}:${port}` : name;
}

export const clusterInfoVerb: Verb = {
  name: 'cluster-info',
  run(inv, env) {
    try {
      const p = inv.parsed;
      if (p.args[0] === 'dump') return { stdout: '', stderr: 'error: cluster-info dump is not available in this simulator\n', exitCode: 1 };
      const kc = readKubeconfig(env.fs, kubeconfigPath(env.env, str(p.flags, 'kubeconfig')));
      const ctx = kc.contexts.find((c) => c.name === (str(p.flags, 'context') ?? kc.currentContext));
      const host = kc.clusters.find((c) => c.name === ctx?.cluster)?.server ?? 'http://localhost:8080';
      env.api.ensureUp();
      let out = line('Kubernetes control plane', host);
      for (const svc of env.api.list<Service>('Service', 'kube-system')) {
        if (svc.metadata.labels?.['kubernetes.io/cluster-service'] !== 'true') continue;
        const name = svc.metadata.labels['kubernetes.io/name'] ?? svc.metadata.name;
        const port = svc.spec.ports?.[0];
        const scheme = port && (port.name === 'https' || port.port === 443) ? 'https' : '';
        const ref = port ? joinSchemeNamePort(scheme, svc.metadata.name, port.name ?? '') : svc.metadata.name;
        out += line(name, `${host}/api/v1/namespaces/kube-system/services/${ref}/proxy`);
      }
      out += "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n";
      return { stdout: out, stderr: '', exitCode: 0 };
    } catch (e) {
      return errorResult(e, 'cluster-info');
    }
  },
};
