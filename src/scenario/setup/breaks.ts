/**
 * Named breaks: the faults exam tasks start from, each done the way it happens on a real
 * cluster (a bad edit to a file or object, a stopped unit), never by poking controller state,
 * so every symptom downstream is the simulation's own.
 */
import type { Session } from '../../shell/session.js';
import type { Break } from '../schema.js';
import type { ConfigMap, KObject, Pod } from '../../sim/api/types.js';
import { MANIFEST_DIR } from '../../sim/controlplane.js';
import { SetupError, runLine } from './shell.js';

export function applyBreak(session: Session, b: Break): Promise<void> | void {
  const c = session.cluster;
  const hostOf = (name: string) => {
    const h = c.host(name);
    if (!h || h.data.role === 'workstation') throw new SetupError(`break ${b.name}: no node "${name}"`);
    return h;
  };
  switch (b.name) {
    case 'corrupt-corefile': {
      // a misspelt directive: CoreDNS exits at start-up with `plugin/…: unknown directive`
      const cm = session.api.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns');
      const corefile = cm.data?.['Corefile'] ?? '';
      const re = new RegExp(`^(\\s*)${b.plugin}\\b`, 'm');
      if (!re.test(corefile)) throw new SetupError(`break corrupt-corefile: the Corefile has no "${b.plugin}" line`);
      const typo = b.plugin.length > 2 ? b.plugin.slice(0, -2) + b.plugin.slice(-1) : `${b.plugin}x`;
      session.api.update<ConfigMap>({ ...cm, data: { ...cm.data, Corefile: corefile.replace(re, `$1${typo}`) } });
      // the running pods keep their loaded config; restart them so the typo takes effect
      for (const p of session.api.list<Pod>('Pod', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns'))
        session.api.delete('Pod', 'kube-system', p.metadata.name, { gracePeriodSeconds: 0 });
      return;
    }
    case 'apiserver-flag': {
      const host = hostOf(c.meta.controlPlane);
      const path = `${MANIFEST_DIR}/kube-apiserver.yaml`;
      const text = host.fs.read(path);
      const re = new RegExp(`^(\\s*- --${b.flag})(=.*)?$`, 'm');
      const next = re.test(text) ? text.replace(re, `$1=${b.value}`) : text.replace(/^(\s*)- kube-apiserver$/m, `$1- kube-apiserver\n$1- --${b.flag}=${b.value}`);
      if (next === text && !re.test(text)) throw new SetupError('break apiserver-flag: cannot find the kube-apiserver command in the manifest');
      host.fs.write(path, next);
      c.touchHosts();
      c.settle();
      return;
    }
    case 'stop-kubelet': {
      const host = hostOf(b.node);
      host.data.units['kubelet'] = { active: false, enabled: true, since: c.now() };
      host.log('kubelet', 'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...');
      host.log('kubelet', 'kubelet.service: Deactivated successfully.');
      host.log('kubelet', 'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.');
      c.touchHosts();
      c.settle();
      return;
    }
    case 'iptables-rule':
      hostOf(b.node);
      return runLine(session, `iptables ${b.rule}`, b.node).then(() => undefined);
    case 'remove-cni-config': {
      const host = hostOf(b.node);
      const files = Object.keys(host.fs.data.files).filter((f) => f.startsWith('/etc/cni/net.d/'));
      if (files.length === 0) throw new SetupError(`break remove-cni-config: ${b.node} has no CNI config`);
      for (const f of files) host.fs.remove(f);
      c.touchHosts();
      c.settle();
      return;
    }
    case 'ip-forward-off': {
      // off now and not persisted: the setting in /etc/sysctl.d/k8s.conf is commented out
      const host = hostOf(b.node);
      host.fs.write('/proc/sys/net/ipv4/ip_forward', '0\n');
      const conf = host.fs.tryRead('/etc/sysctl.d/k8s.conf');
      if (conf !== undefined) host.fs.write('/etc/sysctl.d/k8s.conf', conf.replace(/^(net\.ipv4\.ip_forward\s*=.*)$/m, '#$1'));
      c.touchHosts();
      c.settle();
      return;
    }
    case 'scale': {
      const [k, name] = b.target.split('/') as [string, string];
      const kind = ({ deployment: 'Deployment', deploy: 'Deployment', statefulset: 'StatefulSet', sts: 'StatefulSet', replicaset: 'ReplicaSet', rs: 'ReplicaSet' } as Record<string, string>)[k];
      if (!kind) throw new SetupError(`break scale: cannot scale "${k}" (deployment, statefulset, replicaset)`);
      const obj = session.api.get<KObject & { spec: { replicas?: number } }>(kind, b.namespace, name);
      session.api.update({ ...obj, spec: { ...obj.spec, replicas: b.replicas } });
      return;
    }
  }
}
