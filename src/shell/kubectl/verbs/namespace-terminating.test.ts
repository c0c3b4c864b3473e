/**
 * NamespaceLifecycle refuses creates in a namespace being terminated
 * (plugin/pkg/admission/namespace/lifecycle/admission.go) through admission.NewForbidden
 * (staging apiserver pkg/admission/errors.go), which names the resource and the object as
 * apimachinery errors.go NewForbidden does: `<resource> "<name>" is forbidden: <reason>`, the name
 * being generateName when the object has no name yet (extractResourceName).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const REASON = 'unable to create new content in namespace dev because it is being terminated';

describe('creating in a terminating namespace', () => {
  it('is Forbidden with the resource and name before the reason', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const run = async (c: string): Promise<{ stderr: string; exitCode: number }> => {
      const { stderr, exitCode } = await s.exec(c);
      return { stderr, exitCode };
    };
    await run('kubectl create ns dev');
    await run('kubectl -n dev create cm hold');
    // a finalizer on its content keeps the namespace Terminating
    await run(`kubectl -n dev patch cm hold --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}'`);
    assert.equal((await run('kubectl delete ns dev --wait=false')).exitCode, 0);
    await run("cat > /root/x.yaml <<'EOF'\napiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: dev}\nspec: {containers: [{name: c, image: nginx}]}\nEOF");
    await run("cat > /root/g.yaml <<'EOF'\napiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: gen-, namespace: dev}\nEOF");
    assert.deepEqual(await run('kubectl create -f /root/x.yaml'), { stderr: `Error from server (Forbidden): error when creating "/root/x.yaml": pods "web" is forbidden: ${REASON}\n`, exitCode: 1 });
    assert.deepEqual(await run('kubectl -n dev run p2 --image=nginx'), { stderr: `Error from server (Forbidden): pods "p2" is forbidden: ${REASON}\n`, exitCode: 1 });
    assert.equal((await run('kubectl create -f /root/g.yaml')).stderr, `Error from server (Forbidden): error when creating "/root/g.yaml": configmaps "gen-" is forbidden: ${REASON}\n`);
    assert.equal((await run('kubectl -n dev create deploy d --image=nginx')).stderr, `error: failed to create deployment: deployments.apps "d" is forbidden: ${REASON}\n`);
  });
});
