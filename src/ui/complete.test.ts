/** Tab completion over a real session: commands, kubectl verbs, types, names, namespaces, hosts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from '../shell/session.js';
import { complete } from './complete.js';

test('complete', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const cases = [
    { name: 'command', line: 'kube', want: [['kubectl'], 'kube'] },
    { name: 'meta command', line: 'hi', want: [['hint', 'history'], 'hi'], extra: ['hint'] },
    { name: 'resource type by short name', line: 'kubectl get deploy', want: [['deploy', 'deployment', 'deployments'], 'deploy'] },
    { name: 'alias k', line: 'k get svc', want: [['svc'], 'svc'] },
    { name: 'namespace after -n', line: 'kubectl -n kube-s', want: [['kube-system'], 'kube-s'] },
    { name: 'names in the namespace', line: 'kubectl -n kube-system get deploy cor', want: [['coredns'], 'cor'] },
    { name: 'TYPE/NAME', line: 'kubectl -n kube-system describe deploy/c', want: [['deploy/calico-kube-controllers', 'deploy/coredns'], 'deploy/c'] },
    { name: 'flags', line: 'kubectl get po --names', want: [['--namespace='], '--names'] },
    { name: 'nodes for cordon', line: 'kubectl cordon cka-w', want: [['cka-w1', 'cka-w2'], 'cka-w'] },
    { name: 'ssh hosts', line: 'ssh cka-', want: [['cka-cp1', 'cka-w1', 'cka-w2'], 'cka-'] },
    { name: 'after a pipe', line: 'kubectl get po | gre', want: [['grep'], 'gre'] },
  ];
  for (const c of cases) {
    const [hits, word] = complete(s, c.line, c.extra ?? []);
    assert.deepEqual([hits.filter((h) => c.name !== 'meta command' || ['hint', 'history'].includes(h)), word], c.want, c.name);
  }
  assert.ok(complete(s, 'kubectl ')[0].includes('version'), 'verbs from the registry');
  await s.exec('ssh cka-cp1');
  assert.ok(complete(s, 'iptables-sa')[0].includes('iptables-save'), 'node tools after ssh');
});

test('kubectl completion from the command declarations', () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  s.fsOf({ kind: 'workstation', host: s.cluster.meta.workstation }).write('/root/web.yaml', 'x');
  const cases = [
    { name: 'a flag of get', line: 'kubectl get pods --sel', want: ['--selector='] },
    { name: 'a flag of scale', line: 'kubectl scale deploy x --rep', want: ['--replicas='] },
    { name: 'a subcommand', line: 'kubectl rollout un', want: ['undo'] },
    { name: 'a create subcommand alias', line: 'kubectl create se', want: ['secret', 'service', 'serviceaccount'] },
    { name: 'output formats', line: 'kubectl get pods -o ', want: ['custom-columns', 'custom-columns-file', 'go-template', 'go-template-file', 'json', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file', 'kyaml', 'name', 'template', 'templatefile', 'wide', 'yaml'] },
    { name: 'namespaces', line: 'kubectl get pods -n kube-', want: ['kube-node-lease', 'kube-public', 'kube-system'] },
    { name: 'files after -f', line: 'kubectl apply -f we', want: ['web.yaml'] },
  ];
  for (const c of cases) assert.deepEqual(complete(s, c.line)[0], c.want, c.name);
});

test('paths complete from the working directory, as bash does', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const fs = s.fsOf({ kind: 'workstation', host: s.cluster.meta.workstation });
  fs.write('/opt/course/1/answer.txt', 'x');
  fs.write('/opt/course/1/.hidden', 'x');
  fs.write('/opt/course/2/pod.yaml', 'x');
  fs.write('/root/web.yaml', 'x');
  await s.exec('cd /opt/course');
  const cases = [
    { name: 'a relative directory from the cwd', line: 'cat 1/', want: ['1/answer.txt'] },
    { name: 'directories end with a slash', line: 'ls ', want: ['1/', '2/'] },
    { name: 'dot files only when asked for', line: 'cat 1/.', want: ['1/.hidden'] },
    { name: 'an absolute path ignores the cwd', line: 'vim /opt/course/2/p', want: ['/opt/course/2/pod.yaml'] },
    { name: '~/ is $HOME', line: 'cat ~/we', want: ['~/web.yaml'] },
    { name: 'after -f, from the cwd', line: 'kubectl apply -f 2/', want: ['2/pod.yaml'] },
    { name: 'after --filename=', line: 'kubectl apply --filename=2/p', want: ['--filename=2/pod.yaml'] },
    { name: 'a redirection target', line: 'kubectl get po -o yaml >1/an', want: ['>1/answer.txt'] },
    { name: 'an appending redirection', line: 'echo x >>2/', want: ['>>2/pod.yaml'] },
  ];
  for (const c of cases) assert.deepEqual(complete(s, c.line)[0], c.want, c.name);
  // on a node, its own files
  await s.exec('ssh cka-cp1');
  assert.deepEqual(complete(s, 'cat /etc/kubernetes/manifests/kube-a')[0], ['/etc/kubernetes/manifests/kube-apiserver.yaml']);
});
