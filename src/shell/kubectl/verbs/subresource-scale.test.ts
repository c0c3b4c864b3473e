/**
 * `--subresource=scale` on get and patch (k8s.io/kubectl pkg/cmd/get/get.go and patch/patch.go
 * through the builder's Subresource and the helper's WithSubresource): the request goes to
 * …/NAME/scale, which answers the object's autoscaling/v1 Scale (ScaleREST of
 * pkg/registry/apps/{deployment,replicaset,statefulset}/storage/storage.go); the server's table
 * for it is printers.go printScale (NAME DESIRED AVAILABLE AGE), and the printed name is the
 * Scale's own (`scale.autoscaling/NAME`). A patched Scale is validated as one (ValidateScale).
 * replace.go sends the file's object to …/scale, which the server cannot decode as a Scale.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

async function session(): Promise<(cmd: string) => Promise<{ stdout: string; stderr: string; exitCode: number }>> {
  const s = new Session(loadFixture('flannel-single', 0));
  const run = async (cmd: string): Promise<{ stdout: string; stderr: string; exitCode: number }> => {
    const { stdout, stderr, exitCode } = await s.exec(cmd);
    return { stdout, stderr, exitCode };
  };
  const sts = 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 2\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: redis}]}';
  assert.equal((await run(`cat > /root/db.yaml <<'EOF'\n${sts}\nEOF`)).exitCode, 0);
  assert.equal((await run('kubectl create -f /root/db.yaml')).stderr, '');
  assert.equal((await run('kubectl create deployment web --image=nginx --replicas=3')).stderr, '');
  return run;
}

describe('--subresource=scale', () => {
  it('get prints the Scale table, -o yaml the Scale, -o name scale.autoscaling/NAME', async () => {
    const run = await session();
    assert.deepEqual(await run('kubectl get deployment web --subresource=scale'), { stdout: 'NAME   DESIRED   AVAILABLE   AGE\nweb    3         3           0s\n', stderr: '', exitCode: 0 });
    // OrderedReady: the second pod waits for the first to be Ready, status.replicas counts 1 so far
    assert.equal((await run('kubectl get statefulset db --subresource scale --no-headers')).stdout, 'db    2     1     0s\n');
    const rs = (await run("kubectl get rs -n kube-system -o jsonpath='{.items[0].metadata.name}'")).stdout;
    assert.match((await run(`kubectl get rs ${rs} -n kube-system --subresource=scale`)).stdout, new RegExp(`^${rs} +2 +2 +2d2h$`, 'm'));
    const uid = (await run("kubectl get deploy web -o jsonpath='{.metadata.uid} {.metadata.resourceVersion}'")).stdout.split(' ');
    assert.equal(
      (await run('kubectl get deploy web --subresource=scale -o yaml')).stdout,
      [
        'apiVersion: autoscaling/v1', 'kind: Scale', 'metadata:', `  creationTimestamp: "${(await run("kubectl get deploy web -o jsonpath='{.metadata.creationTimestamp}'")).stdout}"`,
        '  name: web', '  namespace: default', `  resourceVersion: "${uid[1]}"`, `  uid: ${uid[0]}`, 'spec:', '  replicas: 3', 'status:', '  replicas: 3', '  selector: app=web', '',
      ].join('\n'),
    );
    assert.equal((await run('kubectl get deploy web --subresource=scale -o name')).stdout, 'scale.autoscaling/web\n');
  });

  it('a subresource the resource lacks is a 404', async () => {
    const run = await session();
    const notFound = { stdout: '', stderr: 'Error from server (NotFound): the server could not find the requested resource\n', exitCode: 1 };
    assert.deepEqual(await run('kubectl get deployment web --subresource=foo'), notFound);
    assert.deepEqual(await run('kubectl get configmap kube-root-ca.crt --subresource=scale'), notFound);
  });

  it('patch writes spec.replicas through the Scale and prints the Scale it gets back', async () => {
    const run = await session();
    assert.deepEqual(await run(`kubectl patch deployment web --subresource=scale --type=merge -p '{"spec":{"replicas":2}}'`), { stdout: 'scale.autoscaling/web patched\n', stderr: '', exitCode: 0 });
    assert.equal((await run("kubectl get deploy web -o jsonpath='{.spec.replicas}'")).stdout, '2');
    assert.equal((await run(`kubectl patch deployment web --subresource=scale -p '{"spec":{"replicas":2}}'`)).stdout, 'scale.autoscaling/web patched (no change)\n');
    assert.equal(
      (await run(`kubectl patch statefulset db --subresource=scale --type=json -p '[{"op":"replace","path":"/spec/replicas","value":4}]' -o jsonpath='{.kind} {.spec.replicas}'`)).stdout,
      'Scale 4',
    );
    assert.equal((await run("kubectl get sts db -o jsonpath='{.spec.replicas}'")).stdout, '4');
    // only the replica count reaches the object
    await run(`kubectl patch deployment web --subresource=scale --type=merge -p '{"metadata":{"labels":{"x":"y"}},"spec":{"replicas":1}}'`);
    assert.equal((await run("kubectl get deploy web -o jsonpath='{.metadata.labels} {.spec.replicas}'")).stdout, '{"app":"web"} 1');
  });

  it('a negative count is the Scale\'s Invalid error, and nothing is written', async () => {
    const run = await session();
    assert.deepEqual(await run(`kubectl patch deployment web --subresource=scale -p '{"spec":{"replicas":-1}}'`), {
      stdout: '',
      stderr: 'The Scale "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n',
      exitCode: 1,
    });
    assert.equal((await run("kubectl get deploy web -o jsonpath='{.spec.replicas}'")).stdout, '3');
  });

  it('replace cannot send a Scale: the file\'s Scale has no mapping, the object itself is no Scale to the server', async () => {
    const run = await session();
    await run('kubectl get deploy web --subresource=scale -o yaml > /root/s.yaml; kubectl get deploy web -o yaml > /root/d.yaml');
    assert.deepEqual(await run('kubectl replace -f /root/s.yaml --subresource=scale'), {
      stdout: '',
      stderr: 'error: resource mapping not found for name: "web" namespace: "default" from "/root/s.yaml": no matches for kind "Scale" in version "autoscaling/v1"\nensure CRDs are installed first\n',
      exitCode: 1,
    });
    await run("sed -i 's/replicas: 3/replicas: 5/' /root/d.yaml");
    assert.deepEqual(await run('kubectl replace -f /root/d.yaml --subresource=scale'), {
      stdout: '',
      stderr: 'Error from server (BadRequest): error when replacing "/root/d.yaml": Deployment in version "v1" cannot be handled as a Scale: converting (v1.Deployment) to (autoscaling.Scale): unknown conversion\n',
      exitCode: 1,
    });
    assert.equal((await run("kubectl get deploy web -o jsonpath='{.spec.replicas}'")).stdout, '3');
  });
});
