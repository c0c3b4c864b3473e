/**
 * Transcripts of the node/workstation toolbox and bash habits (issue 15) on the kubeadm-calico
 * fixture: each line with the prompt it ran at, its output and a non-zero exit status.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { Session } from '../../session.js';

async function transcript(s: Session, lines: string[]): Promise<string> {
  let out = '';
  for (const l of lines) {
    const before = s.prompt();
    const r = await s.exec(l);
    out += `${before}${l}\n${r.stdout}${r.stderr}${r.exitCode ? `[exit ${r.exitCode}]\n` : ''}`;
  }
  return `${out}${s.prompt()}\n`;
}

function session(): Session {
  return new Session(loadFixture('kubeadm-calico', 1));
}

describe('toolbox transcripts', () => {
  it('sudo -i, sudo su -, sudo -s and su, each left with exit', async () => {
    const s = session();
    const text = await transcript(s, [
      'ssh ubuntu@cka-w1',
      'sudo -i',
      'whoami; pwd',
      'exit',
      'whoami; pwd',
      'sudo su -',
      'exit',
      'cd /tmp; sudo -s',
      'whoami; pwd',
      'exit',
      'su -',
      'sudo -i',
      'su',
      'exit',
      'exit',
      'exit',
    ]);
    assertGolden(goldenPath(import.meta.url, 'toolbox-sudo.txt'), text);
    assert.ok(s.atTop);
  });

  it('sudo VAR=value cmd: the assignments reach the command as root, not the calling shell', async () => {
    const s = session();
    await s.exec('ssh ubuntu@cka-w1');
    const r = await s.exec('sudo -E ETCDCTL_API=3 SNAP_DIR=/var/lib/x printenv SNAP_DIR ETCDCTL_API');
    assert.deepEqual([r.exitCode, r.stdout], [0, '/var/lib/x\n3\n']);
    assert.equal((await s.exec('echo "[$SNAP_DIR]"')).stdout, '[]\n');
    assert.equal((await s.exec('sudo A=1 whoami')).stdout, 'root\n');
    assert.match((await s.exec('sudo A=1')).stderr, /^usage: sudo/);
  });

  it('functions, arrays and $RANDOM on a node; functions persist across lines', async () => {
    const s = session();
    const text = await transcript(s, [
      'ssh cka-cp1',
      'kp() { kubectl get pod -n kube-system "$@" --no-headers | wc -l; }',
      'kp',
      'nodes=(cka-cp1 cka-w1 cka-w2); for n in "${nodes[@]}"; do [[ $n == *w* ]] && echo "worker $n"; done',
      'source <(kubectl completion bash); echo $?',
      // the exam's own tip (kubernetes.io "kubectl Quick Reference"): an alias that completes too
      'alias k=kubectl; complete -o default -F __start_kubectl k; complete -p kubectl k; type -t __start_kubectl',
      'echo $((RANDOM % 100)) $((RANDOM % 100))',
    ]);
    assertGolden(goldenPath(import.meta.url, 'toolbox-bash.txt'), text);
  });

  it('$RANDOM is the same for the same seed and commands', async () => {
    const a = await session().exec('echo $RANDOM $RANDOM');
    const b = await session().exec('echo $RANDOM $RANDOM');
    assert.equal(a.stdout, b.stdout);
    assert.match(a.stdout, /^\d+ \d+\n$/);
  });

  it('timeout cuts a sleeping command off at its limit (recorded from coreutils 9.1)', async () => {
    const s = session();
    const t0 = s.cluster.now();
    const r = await s.exec('timeout 1 sleep 2; echo $?; timeout 5 echo quick; timeout 1 nope; echo $?; timeout x sleep 1; echo $?');
    assert.equal(
      r.output.map((o) => o.text).join(''),
      "124\nquick\ntimeout: failed to run command ‘nope’: No such file or directory\n127\ntimeout: invalid time interval ‘x’\nTry 'timeout --help' for more information.\n125\n",
    );
    assert.equal(s.cluster.now() - t0, 1000, 'only the limit passed, not the whole sleep');
  });
});
