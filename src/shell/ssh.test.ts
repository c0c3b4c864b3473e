/**
 * `ssh`: logging in to a node, and running one command there (`ssh HOST 'cmd'`, `ssh HOST cmd args`)
 * with its output and exit status, after which the learner is still where they were.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from './session.js';
import { parseSshArgs, SSH_USAGE } from './commands/ssh-args.js';

describe('parseSshArgs', () => {
  const cases: Array<[string[], ReturnType<typeof parseSshArgs>]> = [
    [['cka-w1'], { destination: 'cka-w1' }],
    [['cka-w1', 'hostname'], { destination: 'cka-w1', command: 'hostname' }],
    [['cka-w1', 'ls', '-l', '/etc'], { destination: 'cka-w1', command: 'ls -l /etc' }],
    [['-t', 'cka-w1', 'cat /etc/hostname'], { destination: 'cka-w1', command: 'cat /etc/hostname' }],
    [['-p', '22', '-l', 'ubuntu', 'cka-w1'], { destination: 'cka-w1', login: 'ubuntu' }],
    [['cka-w1', '-lubuntu', 'id'], { destination: 'cka-w1', login: 'ubuntu', command: 'id' }],
    [['-o', 'StrictHostKeyChecking=no', 'root@cka-w1', 'echo', '-n', 'x'], { destination: 'root@cka-w1', command: 'echo -n x' }],
    [['--', 'cka-w1', '-v'], { destination: 'cka-w1', command: '-v' }],
    [[], SSH_USAGE],
    [['-Z', 'cka-w1'], `unknown option -- Z\n${SSH_USAGE}`],
    [['cka-w1', '-p'], `option requires an argument -- p\n${SSH_USAGE}`],
  ];
  for (const [args, want] of cases) it(`ssh ${args.join(' ')}`, () => assert.deepEqual(parseSshArgs(args), want));
});

describe('ssh HOST command', () => {
  async function run(s: Session, line: string): Promise<string> {
    const r = await s.exec(line);
    return `${r.stdout}${r.stderr}[${r.exitCode}] ${r.prompt}`;
  }

  it('runs the command on the node and stays on the workstation', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    assert.equal(await run(s, `ssh cka-w1 'hostname'`), 'cka-w1\n[0] root@cka-ws:~# ');
    assert.equal(await run(s, 'ssh cka-w1 cat /etc/hostname'), 'cka-w1\n[0] root@cka-ws:~# ');
    assert.equal(await run(s, `ssh cka-cp1 'cd /etc/kubernetes/manifests && ls | wc -l; pwd'`), '4\n/etc/kubernetes/manifests\n[0] root@cka-ws:~# ');
    assert.equal(await run(s, 'pwd'), '/root\n[0] root@cka-ws:~# ');
  });

  it('returns the remote exit status and stderr', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    assert.equal(await run(s, `ssh cka-w1 'exit 3'`), '[3] root@cka-ws:~# ');
    assert.equal(await run(s, 'ssh cka-w1 cat /nope'), 'cat: /nope: No such file or directory\n[1] root@cka-ws:~# ');
    assert.equal(await run(s, 'ssh cka-w1 true && echo yes'), 'yes\n[0] root@cka-ws:~# ');
    assert.equal(await run(s, 'ssh nowhere hostname'), 'ssh: Could not resolve hostname nowhere: Name or service not known\n[255] root@cka-ws:~# ');
  });

  it('runs node tools and kubectl with the node user\'s environment; output pipes locally', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    assert.equal(await run(s, 'ssh cka-cp1 kubectl get nodes --no-headers | wc -l'), '3\n[0] root@cka-ws:~# ');
    assert.equal(await run(s, `ssh cka-w1 'sysctl net.ipv4.ip_forward'`), 'net.ipv4.ip_forward = 1\n[0] root@cka-ws:~# ');
    assert.equal(await run(s, 'ssh ubuntu@cka-w1 whoami'), 'ubuntu\n[0] root@cka-ws:~# ');
  });

  it('forwards its stdin to the remote command', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    assert.equal(await run(s, `printf 'a\\nb\\n' | ssh cka-w1 'cat > /tmp/in.txt; wc -l < /tmp/in.txt'`), '2\n[0] root@cka-ws:~# ');
    assert.equal(await run(s, 'ssh cka-w1 cat /tmp/in.txt'), 'a\nb\n[0] root@cka-ws:~# ');
    assert.equal(await run(s, 'echo hi | ssh cka-w1 tr a-z A-Z'), 'HI\n[0] root@cka-ws:~# ');
  });

  it('from a node, runs on the other node and returns to the first', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    assert.equal(await run(s, 'ssh cka-cp1'), '[0] root@cka-cp1:~# ');
    assert.equal(await run(s, 'ssh cka-w1 hostname'), 'cka-w1\n[0] root@cka-cp1:~# ');
    assert.equal(await run(s, 'exit'), 'logout\nConnection to cka-cp1 closed.\n[0] root@cka-ws:~# ');
  });
});

describe('reboot on a node', () => {
  async function run(s: Session, line: string): Promise<string> {
    const r = await s.exec(line);
    return `${r.stdout}${r.stderr}[${r.exitCode}] ${r.prompt}`;
  }

  it('ends every shell on the node, boots it from its files, and the kubelet comes back', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await s.exec('ssh cka-w1');
    await s.exec("echo 'net.ipv4.ip_forward = 0' > /etc/sysctl.d/zz-off.conf; sudo -i");
    const before = s.cluster.now();
    assert.equal(await run(s, 'reboot'), 'Connection to cka-w1 closed by remote host.\nConnection to cka-w1 closed.\n[255] root@cka-ws:~# ');
    assert.ok(s.cluster.now() - before >= 40_000, 'a reboot takes time');
    assert.equal(await run(s, 'ssh cka-w1 sysctl net.ipv4.ip_forward'), 'net.ipv4.ip_forward = 0\n[0] root@cka-ws:~# ', 'sysctl.d is read at boot');
    assert.equal(await run(s, 'ssh cka-w1 systemctl is-active kubelet'), 'active\n[0] root@cka-ws:~# ');
  });

  it('needs root, and from `ssh HOST reboot` the connection drops with status 255', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    assert.equal(
      await run(s, 'ssh ubuntu@cka-w1 reboot'),
      'Failed to set wall message, ignoring: Interactive authentication required.\nCall to Reboot failed: Interactive authentication required.\n[1] root@cka-ws:~# ',
    );
    assert.equal(await run(s, 'ssh cka-w1 shutdown -r now'), 'Connection to cka-w1 closed by remote host.\n[255] root@cka-ws:~# ');
    assert.equal(await run(s, 'ssh cka-w1 shutdown -h now; echo $?'), '1\ncka-lab: powering off a node is not simulated (nothing could power it on again); use shutdown -r now\n[0] root@cka-ws:~# ');
  });
});
