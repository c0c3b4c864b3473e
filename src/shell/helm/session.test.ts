/**
 * helm against the simulated cluster: install creates the release Secret and a running
 * Deployment, upgrade/rollback move revisions, uninstall removes objects and records; the
 * scaffold of `helm create` is the one recorded from helm v4.1.4 (fixtures/helm/scaffold).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../session.js';

async function run(s: Session, line: string): Promise<string> {
  const r = await s.exec(line);
  return r.stdout + r.stderr;
}

test('install, upgrade, rollback and uninstall a release in the cluster', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  assert.equal(await run(s, 'helm repo add stable https://charts.example.com/stable'), '"stable" has been added to your repositories\n');
  const out = await run(s, 'helm install web stable/web --version 1.0.0 --set replicaCount=2 -n shop --create-namespace');
  assert.match(out, /^NAME: web\nLAST DEPLOYED: \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\nNAMESPACE: shop\nSTATUS: deployed\nREVISION: 1\nDESCRIPTION: Install complete\nNOTES:\n1\. Get the application URL/);
  // helm v4.1.4 pkg/action/install.go availableName, wrapped and logged by RunWithContext
  assert.equal(
    await run(s, 'helm install web stable/web -n shop'),
    'level=ERROR msg="release name check failed" error="cannot reuse a name that is still in use"\nError: INSTALLATION FAILED: release name check failed: cannot reuse a name that is still in use\n',
  );
  await s.exec('sleep 30');
  assert.match(await run(s, 'kubectl -n shop get secret sh.helm.release.v1.web.v1 --no-headers'), /helm\.sh\/release\.v1\s+1/);
  assert.match(await run(s, 'kubectl -n shop get deploy web -o wide --no-headers'), /^web\s+2\/2\s.*nginx:1\.25\.0/);
  assert.match(await run(s, 'helm upgrade web stable/web --version 1.1.0 -n shop --reuse-values'), /^Release "web" has been upgraded\. Happy Helming!\n.*REVISION: 2\n/s);
  await s.exec('sleep 30');
  assert.match(await run(s, 'kubectl -n shop get deploy web -o wide --no-headers'), /^web\s+2\/2\s.*nginx:1\.26\.0/);
  assert.equal(await run(s, 'helm rollback web 1 -n shop'), 'Rollback was a success! Happy Helming!\n');
  const hist = await run(s, 'helm history web -n shop');
  assert.match(hist, /^REVISION\t/);
  assert.match(hist, /\n2\s+\t.*\tsuperseded\t.*web-1\.1\.0.*Upgrade complete\s*\n3\s+\t.*\tdeployed\s*\tweb-1\.0\.0.*Rollback to 1/);
  assert.equal(await run(s, 'helm get values web -n shop'), 'USER-SUPPLIED VALUES:\nreplicaCount: 2\n');
  assert.equal(await run(s, 'helm uninstall web -n shop'), 'release "web" uninstalled\n');
  await s.exec('sleep 60');
  assert.equal(await run(s, 'kubectl -n shop get deploy,secret'), 'No resources found in shop namespace.\n');
  assert.equal(await run(s, 'helm status web -n shop'), 'Error: release: not found\n');
});

test('a bad template fails the install in helm words and changes nothing', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('helm create demo');
  await s.exec("printf 'x: {{ .Values.nope | required \"nope is required\" }}\\n' > demo/templates/cm.yaml");
  assert.equal(await run(s, 'helm install d ./demo'), 'Error: INSTALLATION FAILED: execution error at (demo/templates/cm.yaml:1:21): nope is required\n');
  await s.exec("printf '{{ .Values.x | nosuch }}\\n' > demo/templates/cm.yaml");
  assert.equal(await run(s, 'helm install d ./demo'), 'Error: INSTALLATION FAILED: parse error at (demo/templates/cm.yaml:1): function "nosuch" not defined\n');
  assert.equal(await run(s, 'helm template d ./demo'), 'Error: parse error at (demo/templates/cm.yaml:1): function "nosuch" not defined\n\nUse --debug flag to render out invalid YAML\n');
  assert.equal(await run(s, 'kubectl get secret --no-headers -l owner=helm'), 'No resources found in default namespace.\n');
});

test('helm create writes the recorded helm v4.1.4 scaffold', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  assert.equal(await run(s, 'helm create mychart'), 'Creating mychart\n');
  const dir = join(import.meta.dirname, '../../../fixtures/helm/scaffold');
  const walk = (d: string, p = ''): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n), `${p}${n}/`) : [`${p}${n}`]));
  for (const f of walk(dir)) {
    const want = readFileSync(join(dir, f), 'utf8').replaceAll('SCAFFOLD', 'mychart');
    assert.equal(await run(s, `cat mychart/${f}`), want, f);
  }
});

test('helm get hooks, metadata and all show what the release recorded (helm v4.1.4 get_*.go)', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('helm repo add stable https://charts.example.com/stable');
  await s.exec('helm install web stable/web --version 1.1.0 --set replicaCount=2 -n shop --create-namespace');
  const hooks = await run(s, 'helm get hooks web -n shop');
  assert.match(hooks, /^---\n# Source: web\/templates\/tests\/test-connection\.yaml\napiVersion: v1\nkind: Pod\n/);
  assert.ok(!hooks.includes('kind: Deployment'), 'only hooks, not the manifest');
  assert.equal(
    await run(s, 'helm get metadata web -n shop'),
    // the last revision is read as Storage.Last reads it (a Query): with the Secret's system labels
    'NAME: web\nCHART: web\nVERSION: 1.1.0\nAPP_VERSION: 1.26.0\nANNOTATIONS: \nLABELS: modifiedAt=1796205600,name=web,owner=helm,status=deployed,version=1\nDEPENDENCIES: \nNAMESPACE: shop\nREVISION: 1\nSTATUS: deployed\nDEPLOYED_AT: 2026-12-02T10:00:00Z\nAPPLY_METHOD: server-side apply\n',
  );
  // a revision asked for is read by Get, which leaves the system labels out
  assert.match(await run(s, 'helm get metadata web -n shop --revision 1'), /\nLABELS: \n/);
  const all = await run(s, 'helm get all web -n shop');
  assert.match(all, /\nREVISION: 1\nCHART: web\nVERSION: 1\.1\.0\nAPP_VERSION: 1\.26\.0\nDESCRIPTION: Install complete\nUSER-SUPPLIED VALUES:\nreplicaCount: 2\n\nCOMPUTED VALUES:\n/);
  assert.match(all, /\nHOOKS:\n---\n# Source: web\/templates\/tests\/test-connection\.yaml\n[\s\S]*\nMANIFEST:\n---\n# Source: web\/templates\/serviceaccount\.yaml\n[\s\S]*\nNOTES:\n1\. Get the application URL/);
  await s.exec('helm upgrade web stable/web -n shop --server-side=false');
  assert.match(await run(s, 'helm get metadata web -n shop'), /\nAPPLY_METHOD: client-side apply\n$/);
  assert.match(await run(s, 'helm install w2 stable/web -n shop --dry-run'), /\nDESCRIPTION: Dry run complete\nHOOKS:\n---\n# Source: web\/templates\/tests\/test-connection\.yaml\n[\s\S]*\nMANIFEST:\n---\n/);
});

// helm v4.1.4 pkg/action/list.go: the newest revision of each release, every state unless state
// flags narrow it (SetStateMask defaults to ListAll), only --superseded lists older revisions
test('helm list: every state by default, state flags narrow it, --superseded lists old revisions, -r reverses', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('helm repo add stable https://charts.example.com/stable');
  await s.exec('helm install api stable/web --version 1.0.0');
  await s.exec('helm upgrade api stable/web --version 1.1.0');
  await s.exec('helm install kept stable/web --version 1.0.0');
  await s.exec('helm uninstall kept --keep-history');
  const cols = (out: string): string[] => out.trim().split('\n').slice(1).map((l) => l.split('\t').map((c) => c.trim()).filter((c, i) => i === 0 || i === 2 || i === 4).join(' '));
  const cases: Array<{ name: string; cmd: string; want: string[] }> = [
    { name: 'default: every state', cmd: 'helm list', want: ['api 2 deployed', 'kept 1 uninstalled'] },
    { name: 'one state', cmd: 'helm list --deployed', want: ['api 2 deployed'] },
    { name: 'superseded revisions', cmd: 'helm list --superseded', want: ['api 1 superseded'] },
    { name: 'reversed', cmd: 'helm list -r', want: ['kept 1 uninstalled', 'api 2 deployed'] },
  ];
  for (const c of cases) assert.deepEqual(cols(await run(s, c.cmd)), c.want, c.name);
  assert.equal(await run(s, 'helm list -q --uninstalled'), 'kept\n');
});

// cobra's Find strips flags with their values before it looks for the subcommand (stripFlags)
test('helm get with the namespace flag before the subcommand runs the subcommand, not the group help', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('helm repo add stable https://charts.example.com/stable');
  await s.exec('helm install web stable/web -n shop --create-namespace --set replicaCount=2');
  const want = 'USER-SUPPLIED VALUES:\nreplicaCount: 2\n';
  for (const cmd of ['helm get values web -n shop', 'helm get -n shop values web', 'helm get --namespace=shop values web', 'helm get -nshop values web'])
    assert.equal(await run(s, cmd), want, cmd);
  assert.match(await run(s, 'helm get -n shop'), /^\nThis command consists of multiple subcommands/);
});
