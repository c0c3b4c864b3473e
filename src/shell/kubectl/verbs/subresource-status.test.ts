/**
 * The status subresource of custom resources, as kube-apiserver serves it
 * (apiextensions-apiserver pkg/registry/customresource: strategy.go PrepareForCreate/ForUpdate drop
 * or keep .status on the main resource when the CRD version declares `subresources.status`;
 * status_strategy.go PrepareForUpdate copies the stored object and sets only the new status) and
 * as kubectl reaches it with `--subresource=status` (patch.go, replace.go, edit.go, get.go through
 * the builder's Subresource and the helper's WithSubresource; cli-runtime builder.go refuses a
 * subresource for a list: "subresource cannot be used when bulk resources are specified").
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const crd = (withStatus: boolean): string =>
  [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata:',
    `  name: ${withStatus ? 'widgets' : 'gadgets'}.ex.io`,
    'spec:',
    '  group: ex.io',
    '  scope: Namespaced',
    withStatus ? '  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}' : '  names: {plural: gadgets, singular: gadget, kind: Gadget}',
    '  versions:',
    '  - name: v1',
    '    served: true',
    '    storage: true',
    ...(withStatus ? ['    subresources: {status: {}}'] : []),
    '    schema:',
    '      openAPIV3Schema:',
    '        type: object',
    '        properties:',
    '          spec: {type: object, properties: {size: {type: integer, minimum: 1}}}',
    '          status: {type: object, properties: {phase: {type: string, enum: [Pending, Done]}}}',
  ].join('\n');

async function session(): Promise<{ run: (cmd: string) => Promise<{ stdout: string; stderr: string; exitCode: number }> }> {
  const s = new Session(loadFixture('flannel-single', 0));
  const run = async (cmd: string): Promise<{ stdout: string; stderr: string; exitCode: number }> => {
    const { stdout, stderr, exitCode } = await s.exec(cmd);
    return { stdout, stderr, exitCode };
  };
  for (const [file, text] of [
    ['/root/crd.yaml', `${crd(true)}\n---\n${crd(false)}`],
    ['/root/w.yaml', 'apiVersion: ex.io/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 2}\nstatus: {phase: Done}'],
    ['/root/g.yaml', 'apiVersion: ex.io/v1\nkind: Gadget\nmetadata: {name: g1}\nspec: {size: 2}\nstatus: {phase: Done}'],
  ] as const) {
    assert.equal((await run(`cat > ${file} <<'EOF'\n${text}\nEOF`)).exitCode, 0);
  }
  assert.equal((await run('kubectl create -f /root/crd.yaml')).exitCode, 0);
  await run('kubectl wait --for=condition=Established crd --all');
  assert.equal((await run('kubectl create -f /root/w.yaml -f /root/g.yaml')).stderr, '');
  return { run };
}

const show = "-o jsonpath={.spec.size}/{.status.phase}/{.metadata.generation}";

describe('custom resources with subresources.status', () => {
  it('create and main-resource writes ignore status; …/status writes ignore everything else', async () => {
    const { run } = await session();
    assert.equal((await run(`kubectl get wd w1 ${show}`)).stdout, '2//1');
    // a status patch: spec in it is dropped, generation does not move
    assert.deepEqual(await run(`kubectl patch wd w1 --subresource=status --type=merge -p '{"status":{"phase":"Done"},"spec":{"size":9}}'`), {
      stdout: 'widget.ex.io/w1 patched\n',
      stderr: '',
      exitCode: 0,
    });
    assert.equal((await run(`kubectl get wd w1 ${show}`)).stdout, '2/Done/1');
    assert.equal((await run(`kubectl patch wd w1 --subresource=status --type=merge -p '{"status":{"phase":"Done"}}'`)).stdout, 'widget.ex.io/w1 patched (no change)\n');
    // a main-resource patch: status in it is dropped, spec changes bump generation
    assert.equal((await run(`kubectl patch wd w1 --type=merge -p '{"status":{"phase":"Pending"},"spec":{"size":3}}'`)).stdout, 'widget.ex.io/w1 patched\n');
    assert.equal((await run(`kubectl get wd w1 ${show}`)).stdout, '3/Done/2');
    assert.equal((await run(`kubectl patch wd w1 --type=merge -p '{"status":{"phase":"Pending"}}'`)).stdout, 'widget.ex.io/w1 patched (no change)\n');
  });

  it('the status write is validated by the schema and owned by its manager with subresource status', async () => {
    const { run } = await session();
    const bad = await run(`kubectl patch wd w1 --subresource=status --type=merge -p '{"status":{"phase":"Bad"}}'`);
    assert.equal(bad.stderr, 'The Widget "w1" is invalid: status.phase: Unsupported value: "Bad": supported values: "Pending", "Done"\n');
    assert.equal(bad.exitCode, 1);
    await run(`kubectl patch wd w1 --subresource=status --type=merge -p '{"status":{"phase":"Pending"}}'`);
    const mf = (await run("kubectl get wd w1 --show-managed-fields -o jsonpath='{range .metadata.managedFields[*]}{.manager}:{.subresource}:{.fieldsV1}{\"\\n\"}{end}'")).stdout;
    assert.match(mf, /^kubectl-patch:status:\{"f:status":\{".":\{\},"f:phase":\{\}\}\}$/m);
  });

  it('replace --subresource=status keeps only the status of the manifest', async () => {
    const { run } = await session();
    await run(`cat > /root/w2.yaml <<'EOF'\napiVersion: ex.io/v1\nkind: Widget\nmetadata: {name: w1, labels: {x: z}}\nspec: {size: 7}\nstatus: {phase: Pending}\nEOF`);
    assert.deepEqual(await run('kubectl replace --subresource=status -f /root/w2.yaml'), { stdout: 'widget.ex.io/w1 replaced\n', stderr: '', exitCode: 0 });
    assert.equal((await run(`kubectl get wd w1 ${show}`)).stdout, '2/Pending/1');
    assert.equal((await run('kubectl get wd w1 -o jsonpath={.metadata.labels}')).stdout, '');
  });

  it('get reads …/status by name only; discovery and the REST path serve it', async () => {
    const { run } = await session();
    await run(`kubectl patch wd w1 --subresource=status --type=merge -p '{"status":{"phase":"Done"}}'`);
    assert.equal((await run('kubectl get wd w1 --subresource=status -o jsonpath={.status.phase}')).stdout, 'Done');
    assert.deepEqual(await run('kubectl get wd --subresource=status'), { stdout: '', stderr: 'error: subresource cannot be used when bulk resources are specified\n', exitCode: 1 });
    assert.match((await run('kubectl get --raw /apis/ex.io/v1/namespaces/default/widgets/w1/status')).stdout, /"status":\{"phase":"Done"\}/);
    assert.equal((await run("kubectl get --raw /apis/ex.io/v1 | jq -r '.resources[].name'")).stdout, 'gadgets\nwidgets\nwidgets/status\n');
  });
});

describe('custom resources without a status subresource', () => {
  it('status is part of the main resource, and …/status is not served', async () => {
    const { run } = await session();
    assert.equal((await run(`kubectl get gadget g1 ${show}`)).stdout, '2/Done/1');
    assert.equal((await run(`kubectl patch gadget g1 --type=merge -p '{"status":{"phase":"Pending"}}'`)).stdout, 'gadget.ex.io/g1 patched\n');
    assert.equal((await run(`kubectl get gadget g1 ${show}`)).stdout, '2/Pending/2');
    const r = await run(`kubectl patch gadget g1 --subresource=status --type=merge -p '{"status":{"phase":"Done"}}'`);
    assert.equal(r.stderr, 'Error from server (NotFound): the server could not find the requested resource\n');
    assert.equal((await run('kubectl get gadget g1 --subresource=status')).stderr, 'Error from server (NotFound): the server could not find the requested resource\n');
  });
});
