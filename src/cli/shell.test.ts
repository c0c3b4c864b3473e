/**
 * `cka-lab shell`, `cka-lab kubectl` and `--version` driven through main() with injected streams:
 * transcripts (`$ command` then the exact output), resume after a simulated crash, a corrupt
 * session file set aside, and bad command lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harness, parseTranscript } from './testing/harness.js';

const TRANSCRIPT = `$ kubectl get nodes
NAME      STATUS   ROLES           AGE    VERSION
cka-cp1   Ready    control-plane   5d4h   v1.35.9
cka-w1    Ready    <none>          5d4h   v1.35.9
cka-w2    Ready    <none>          5d4h   v1.35.9
$ k get ns --no-headers | wc -l
4
$ echo hello > /root/note.txt
$ cat /root/note.txt
hello
$ ssh cka-w1
$ hostname
cka-w1
$ exit
logout
Connection to cka-w1 closed.
$ cat <<EOF
> line one
> line two
> EOF
line one
line two
$ pwd
/root
`;

test('shell: a transcript through stdin, exit status of the last command', async () => {
  const h = harness();
  const { input, expected } = parseTranscript(TRANSCRIPT);
  const r = await h.run(['shell'], input);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, expected);
  assert.equal(r.code, 0);
  const fail = await h.run(['shell'], 'false\n');
  assert.equal(fail.code, 1);
  const exit = await h.run(['shell'], 'exit 7\necho not reached\n');
  assert.deepEqual([exit.code, exit.stdout], [7, '']);
});

test('shell: the session survives a crash between commands and resumes intact', async () => {
  const h = harness();
  // first run: create objects and files, then "crash" (the input simply stops: every command was saved as it ran)
  await h.run(['shell', '--session', 'lab'], 'kubectl create namespace crashy\necho saved > /root/f\nssh cka-w2\ncd /tmp\n');
  const file = join(h.data, 'xdg', 'cka-lab', 'sessions', 'lab.json');
  assert.ok(existsSync(file));
  const leftovers = readdirSync(join(h.data, 'xdg', 'cka-lab', 'sessions')).filter((n) => n.endsWith('.tmp'));
  assert.deepEqual(leftovers, [], 'atomic writes leave no temp files');
  h.clock.now += 3_600_000; // an hour later
  const r = await h.run(['shell', '--session', 'lab'], "pwd\nhostname\nexit\nkubectl get ns crashy --no-headers | awk '{print $1, $NF}'\ncat /root/f\n");
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, '/tmp\ncka-w2\nlogout\nConnection to cka-w2 closed.\ncrashy 60m\nsaved\n');
});

test('shell: a corrupt session file is reported, set aside and replaced', async () => {
  const h = harness();
  await h.run(['shell'], 'true\n');
  const dir = join(h.data, 'xdg', 'cka-lab', 'sessions');
  writeFileSync(join(dir, 'default.json'), '{"schema":1,"name":');
  const r = await h.run(['shell'], 'hostname\n');
  assert.match(r.stderr, /^cka-lab: session "default" could not be read \(not valid JSON .*\); it was moved to .*default\.json\.corrupt-2026-12-01T09-00-00-000Z and a new session starts\n$/);
  assert.equal(r.stdout, 'cka-ws\n');
  const names = readdirSync(dir).sort();
  assert.deepEqual(names, ['default.json', 'default.json.corrupt-2026-12-01T09-00-00-000Z']);
  assert.equal(readFileSync(join(dir, names[1]!), 'utf8'), '{"schema":1,"name":');
});

test('kubectl one-shot runs against the most recent session and saves it', async () => {
  const h = harness();
  const cases = [
    { name: 'create', args: ['kubectl', 'create', 'namespace', 'one'], stdout: 'namespace/one created\n', code: 0 },
    { name: 'read back', args: ['kubectl', 'get', 'ns', 'one', '-o', 'name'], stdout: 'namespace/one\n', code: 0 },
    { name: 'missing object', args: ['kubectl', 'get', 'ns', 'nope'], stdout: '', code: 1 },
  ];
  for (const c of cases) {
    const r = await h.run(c.args);
    assert.equal(r.stdout, c.stdout, c.name);
    assert.equal(r.code, c.code, c.name);
  }
  h.clock.now += 90_000;
  const s = await h.run(['shell'], "kubectl get ns one --no-headers | awk '{print $NF}'\n");
  assert.equal(s.stdout, '90s\n', 'the one-shot saved the session and time followed the wall');
});

test('command line errors', async () => {
  const h = harness();
  const cases = [
    { name: 'version', args: ['--version'], stdout: '0.1.0\n', stderr: '', code: 0 },
    { name: 'bad seed', args: ['shell', '--seed', 'x'], stdout: '', stderr: "error: option '--seed <n>' argument 'x' is invalid. Not a whole number.\n(run with --help for usage)\n", code: 2 },
    { name: 'unknown command', args: ['nope'], stdout: '', stderr: "error: unknown command 'nope'\n(run with --help for usage)\n", code: 2 },
    { name: 'unknown fixture', args: ['shell', '--fixture', 'no-such'], stdout: '', stderr: 'cka-lab: fixture "no-such" not found (names: flannel-single, kubeadm-calico, kubeadm-calico-addons, kubeadm-calico-dualstack, kubeadm-calico-gateway, kubeadm-calico-ingress, kubeadm-calico-v134, weave-2node)\n', code: 2 },
    { name: 'bad session name', args: ['shell', '--session', '../x'], stdout: '', stderr: 'cka-lab: invalid session name "../x" (letters, digits, \'.\', \'_\', \'-\')\n', code: 2 },
  ];
  for (const c of cases) {
    const r = await h.run(c.args);
    assert.deepEqual({ stdout: r.stdout, stderr: r.stderr, code: r.code }, { stdout: c.stdout, stderr: c.stderr, code: c.code }, c.name);
  }
  await h.run(['shell'], 'true\n');
  const clash = await h.run(['shell', '--fixture', 'flannel-single']);
  assert.equal(clash.stderr, 'cka-lab: session "default" already exists on fixture kubeadm-calico (seed 1); use --session NAME for a new one\n');
});

test('kubectl one-shot reads files from the real working directory and honours --kubeconfig and $KUBECONFIG', async () => {
  const h = harness();
  const cwd = h.data;
  writeFileSync(join(cwd, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-disk\ndata:\n  a: "1"\n');
  const created = await h.run(['kubectl', 'apply', '-f', 'cm.yaml']);
  assert.equal(created.stdout, 'configmap/from-disk created\n');
  const missing = await h.run(['kubectl', 'apply', '-f', 'nope.yaml']);
  assert.equal(missing.stderr, 'error: the path "nope.yaml" does not exist\n');
  // the session's own kubeconfig stays inside the session
  const ctx = await h.run(['kubectl', 'config', 'current-context']);
  assert.equal(ctx.stdout, 'kubernetes-admin@kubernetes\n');
  const exported = await h.run(['kubectl', 'config', 'view', '--raw']);
  writeFileSync(join(cwd, 'lab.conf'), exported.stdout.replace(/current-context: .*/, 'current-context: other').replace('contexts:\n', 'contexts:\n- context:\n    cluster: kubernetes\n    namespace: kube-system\n    user: kubernetes-admin\n  name: other\n'));
  const viaFlag = await h.run(['kubectl', '--kubeconfig', 'lab.conf', 'config', 'current-context']);
  assert.equal(viaFlag.stdout, 'other\n');
  const h2 = harness({ KUBECONFIG: join(cwd, 'lab.conf') });
  const viaEnv = await h2.run(['kubectl', 'get', 'cm', 'coredns', '-o', 'name']);
  assert.equal(viaEnv.stdout, 'configmap/coredns\n', 'the context of $KUBECONFIG selects kube-system');
});

test('a session that parses but cannot be resumed is set aside, never a stack trace; orphan temp files go', async () => {
  const h = harness();
  await h.run(['shell'], 'kubectl create ns keep\n');
  const dir = join(h.data, 'xdg', 'cka-lab', 'sessions');
  const file = join(dir, 'default.json');
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { session: { cluster: Record<string, unknown> } };
  saved.session.cluster = { broken: true };
  writeFileSync(file, JSON.stringify(saved));
  writeFileSync(join(dir, '.default.json.999999999.0.tmp'), 'half a write');
  const r = await h.run(['shell'], 'hostname\n');
  assert.match(r.stderr, /^cka-lab: session "default" could not be resumed \(.+\); it was moved to .*default\.json\.corrupt-\S+ and a new session starts\n$/);
  assert.equal(r.stdout, 'cka-ws\n');
  const names = readdirSync(dir).sort();
  assert.ok(names.some((n) => n.startsWith('default.json.corrupt-')), 'the broken file is kept aside');
  assert.ok(!names.some((n) => n.endsWith('.tmp')), `the orphan temp file is gone: ${names.join(', ')}`);
  assert.equal(statSync(join(h.data, 'xdg', 'cka-lab', 'sessions', 'default.json')).mode & 0o777, 0o600);
});

test('a session saved by an older cka-lab (snapshot version 1) is set aside with a clear message', async () => {
  const h = harness();
  await h.run(['shell'], 'true\n');
  const file = join(h.data, 'xdg', 'cka-lab', 'sessions', 'default.json');
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { session: { cluster: { version: number } } };
  saved.session.cluster.version = 1;
  writeFileSync(file, JSON.stringify(saved));
  const r = await h.run(['shell'], 'hostname\n');
  assert.match(r.stderr, /could not be resumed \(saved by another cka-lab version \(snapshot version 1, this one reads 3\)\); it was moved to .*default\.json\.corrupt-/);
  assert.equal(r.stdout, 'cka-ws\n');
});

test('shell: background jobs live as long as the shell process; a resumed session starts with none', async () => {
  const h = harness();
  // one process: the save after every command keeps the paused list and the running forward
  const one = await h.run(
    ['shell', '--session', 'jobs'],
    'kubectl run web --image=nginx --port=80 >/dev/null; kubectl wait --for=condition=ready pod/web >/dev/null\n' +
      'sleep 30 && kubectl create namespace late &\n' +
      'kubectl port-forward pod/web 8080:80 >/dev/null &\n' +
      'jobs\n' +
      'sleep 31\n' +
      'jobs\n',
  );
  assert.equal(
    one.stdout,
    '[1]-  Running                 sleep 30 && kubectl create namespace late &\n[2]+  Running                 kubectl port-forward pod/web 8080:80 > /dev/null &\n' + 'namespace/late created\n' + '[2]+  Running                 kubectl port-forward pod/web 8080:80 > /dev/null &\n',
  );
  assert.equal(one.stderr, '[1] 4300\n[2] 4302\n[1]-  Done                    sleep 30 && kubectl create namespace late\n');
  // a new shell process: the old shell's jobs went with its terminal; nothing stale is reported
  await h.run(['shell', '--session', 'jobs'], 'sleep 30 && kubectl create namespace later &\n');
  h.clock.now += 60_000;
  const two = await h.run(['shell', '--session', 'jobs'], 'jobs\nkubectl get ns later\ncurl -sS localhost:8080; echo $?\n');
  assert.equal(two.stderr, 'Error from server (NotFound): namespaces "later" not found\ncurl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn\'t connect to server\n');
  assert.equal(two.stdout, '7\n');
});
