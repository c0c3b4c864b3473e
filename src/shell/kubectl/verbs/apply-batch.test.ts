/**
 * `kubectl apply -f` of many objects settles the cluster once for the command (Cluster.batch), not
 * once per object; objects whose admission needs controller output (a Namespace's default
 * ServiceAccount, a CRD's Established kind, a quota's count) still see a settled cluster.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

function manifests(n: number): string {
  const docs: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  k: v${i}\n`);
    else if (i % 3 === 1) docs.push(`apiVersion: v1\nkind: Service\nmetadata:\n  name: svc${i}\nspec:\n  selector:\n    app: d${i + 1}\n  ports:\n  - port: 80\n`);
    else
      docs.push(
        `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d${i}\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: d${i}\n  template:\n    metadata:\n      labels:\n        app: d${i}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n`,
      );
  }
  return docs.join('---\n');
}

async function settlesOfApply(n: number): Promise<{ settles: number; stdout: string; pods: number }> {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  c.host('cka-ws')!.fs.write('/root/many.yaml', manifests(n));
  const before = c.settles;
  const r = await s.exec('kubectl apply -f /root/many.yaml');
  assert.equal(r.exitCode, 0, r.stderr);
  const pods = c.store.list('Pod', 'default').filter((p) => p.metadata.name.startsWith('d')).length;
  return { settles: c.settles - before, stdout: r.stdout, pods };
}

test('apply -f of N objects settles once, whatever N', async () => {
  const small = await settlesOfApply(6);
  const big = await settlesOfApply(60);
  assert.equal(big.stdout.split('\n').filter((l) => l.endsWith(' created')).length, 60);
  // the batch's one settle, plus the settles Session.exec makes around any line (nothing to do)
  assert.ok(big.settles <= 3, `apply of 60 objects ran ${big.settles} settles`);
  assert.equal(big.settles, small.settles);
  // the one settle did all the controllers' work: every Deployment has its Pod
  assert.equal(big.pods, 20);
});

test('objects that need a settled cluster still get one inside a batched apply', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
    singular: widget
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`;
  c.host('cka-ws')!.fs.write(
    '/root/mixed.yaml',
    [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: before\n  namespace: default\n',
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: fresh\n',
      // the ServiceAccount admission needs the namespace's default account (a controller makes it)
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: fresh\nspec:\n  containers:\n  - name: c\n    image: nginx\n',
      'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\n  namespace: fresh\nspec:\n  hard:\n    pods: "2"\n',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: two\n  namespace: fresh\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: two\n  template:\n    metadata:\n      labels:\n        app: two\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        resources:\n          limits:\n            cpu: 10m\n            memory: 10Mi\n',
      // the quota counts the Deployment's Pod: this third one is refused, as without the batch
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: third\n  namespace: fresh\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      limits:\n        cpu: 10m\n        memory: 10Mi\n',
      crd,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after\n  namespace: default\n',
    ].join('---\n'),
  );
  const r = await s.exec('kubectl apply -f /root/mixed.yaml');
  assert.match(r.stdout, /^configmap\/before created\nnamespace\/fresh created\npod\/p created\nresourcequota\/q created\ndeployment.apps\/two created\n/);
  assert.match(r.stdout, /customresourcedefinition.apiextensions.k8s.io\/widgets.example.com created\nconfigmap\/after created\n$/);
  assert.match(r.stderr, /pods "third" is forbidden: exceeded quota: q/);
  // the CRD settled at once: its kind is served to the next command
  assert.equal((await s.exec('kubectl get widgets')).stderr, 'No resources found in default namespace.\n');
});
